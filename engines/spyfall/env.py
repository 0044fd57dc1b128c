"""Gymnasium environment: one seat of Spyfall against the bots (“Spyfall with Pyro”, "Write robust
codes so that our agents (bot players) can be used as baselines for ... RL agents in a Gym
environment").

Needs the optional extra ``gymnasium`` (``pip install deduction-desk[gym]``); the rest of
:mod:`engines.spyfall` works without it. Importing this module registers the id
``"DeductionDesk/Spyfall-v0"``, so ``gymnasium.make("engines.spyfall.env:DeductionDesk/Spyfall-v0")``
works from a fresh interpreter.
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from engines.spyfall.inference import BeliefTracker
from engines.spyfall.model import DEFAULT_BETA, DEFAULT_LAMBDA, DEFAULT_ROUNDS, STRATEGIES, normalise_claim
from engines.spyfall.simulate import bot_claim, bot_guess, bot_vote, majority

ENV_ID = "DeductionDesk/Spyfall-v0"


class SpyfallEnv(gym.Env):
    """The agent plays seat ``seat`` of an s-player, n-location Spyfall table against bots.

    Each episode draws the location N and the spy S uniformly (from the env's seeded RNG).
    Seats speak in order; the bots (see :mod:`engines.spyfall.simulate`) speak until it is the
    agent's turn, then the agent acts.

    Observation (``spaces.Dict``, all float32 in [0, 1] except ``turn``):
        ``claims`` (T, n): the claims so far, row t = turn t (zeros for future turns), T = rounds·s;
        ``speakers`` (T, s): one-hot speaker of each past turn;
        ``private`` (n + 1,): one-hot of my location card, or the last entry 1 when I am the spy;
        ``public_location`` (n,), ``public_spy`` (s,): the exact public beliefs (a "service",
        seed "Public belief and Information gain");
        ``turn``: Discrete(T + 1), the number of claims made so far.

    Action (``spaces.Dict``):
        ``kind``: 0 = announce ``claim``; 1 = an end-game move now: as the spy, name location
        ``target % n`` (right: spy wins, wrong: the non-spies win); as a non-spy, call the vote
        and vote for seat ``target % s`` (the bots vote their most likely spy; a strict majority
        names a player; the non-spies win when that is the spy and the spy bot's location
        guess is wrong).
        ``claim`` (n,): weights in [0, 1], floored at 1e-6 and renormalised (all zero = uniform).
        ``target``: Discrete(max(n, s)).

    When the last round ends without an end-game move “Spyfall with Pyro”'s automatic end game runs, the
    agent voting (or guessing) by its exact private belief (MLE).

    Reward: +1 when the agent's team wins, −1 when it loses, 0 on every other step.

    Args:
        n_players, n_locations, rounds: table size (s >= 3, n >= 2).
        seat: the agent's seat.
        opponents: a strategy name for every bot, or one per seat (the agent's entry ignored).
        agent_model: how the bots read the agent's claims ("flat", "dynamic" or "joker").
        beta, lam: everyone's personality (β > 0, λ in [0, 1)).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, n_players: int = 5, n_locations: int = 10, rounds: int = DEFAULT_ROUNDS,
                 seat: int = 0, opponents: Union[str, Sequence[str]] = "flat",
                 agent_model: str = "flat", beta: float = DEFAULT_BETA, lam: float = DEFAULT_LAMBDA,
                 render_mode: Optional[str] = None):
        if n_players < 3 or n_locations < 2 or rounds < 1 or not 0 <= seat < n_players:
            raise ValueError("need n_players >= 3, n_locations >= 2, rounds >= 1, 0 <= seat < n_players")
        strategies = [opponents] * n_players if isinstance(opponents, str) else list(opponents)
        if len(strategies) != n_players or any(s not in STRATEGIES for s in strategies) \
                or agent_model not in STRATEGIES:
            raise ValueError(f"strategies must be among {STRATEGIES}, one per seat")
        strategies[seat] = agent_model
        self.s, self.n, self.rounds, self.seat = n_players, n_locations, rounds, seat
        self.strategies = tuple(strategies)
        self.beta, self.lam = float(beta), float(lam)
        self.render_mode = render_mode
        self.turns = rounds * n_players
        T, n, s = self.turns, n_locations, n_players
        self.observation_space = spaces.Dict({
            "claims": spaces.Box(0.0, 1.0, (T, n), np.float32),
            "speakers": spaces.Box(0.0, 1.0, (T, s), np.float32),
            "private": spaces.Box(0.0, 1.0, (n + 1,), np.float32),
            "public_location": spaces.Box(0.0, 1.0, (n,), np.float32),
            "public_spy": spaces.Box(0.0, 1.0, (s,), np.float32),
            "turn": spaces.Discrete(T + 1),
        })
        self.action_space = spaces.Dict({
            "kind": spaces.Discrete(2),
            "claim": spaces.Box(0.0, 1.0, (n,), np.float32),
            "target": spaces.Discrete(max(n, s)),
        })
        self._tracker: Optional[BeliefTracker] = None

    # -- helpers -------------------------------------------------------------------------
    def _obs(self) -> dict:
        private = np.zeros(self.n + 1, np.float32)
        if self.spy == self.seat:
            private[-1] = 1.0
        else:
            private[self.location] = 1.0
        return {"claims": self._claims.copy(), "speakers": self._speakers.copy(), "private": private,
                "public_location": np.clip(self._tracker.public_location(), 0, 1).astype(np.float32),
                "public_spy": np.clip(self._tracker.public_spy(), 0, 1).astype(np.float32),
                "turn": int(self.t)}

    def _info(self) -> dict:
        return {"spy": self.spy == self.seat, "location": None if self.spy == self.seat else self.location,
                "turn": self.t}

    def _record(self, j: int, c: np.ndarray) -> None:
        self._claims[self.t] = c.astype(np.float32)
        self._speakers[self.t, j] = 1.0
        self.t += 1

    def _bots_until_agent(self) -> None:
        while self.t < self.turns and self.t % self.s != self.seat:
            j = self.t % self.s
            params = self._tracker.emission(j)
            c = bot_claim(self._tracker, j, self.location, self.spy, self.np_random, params)
            self._tracker.add_claim(j, c, params)
            self._record(j, c)

    def _finish(self, agent_vote: Optional[int] = None, agent_guess: Optional[int] = None):
        tr, rng = self._tracker, self.np_random
        if agent_guess is not None:                   # the agent is the spy and names a location
            spy_wins = agent_guess == self.location
        else:
            votes = []
            for i in range(self.s):
                if i == self.seat:
                    if agent_vote is None:
                        agent_vote = self._agent_mle_vote()
                    votes.append(agent_vote)
                else:
                    votes.append(bot_vote(tr, i, self.location, self.spy, rng))
            named = majority(votes, self.s)
            if self.spy == self.seat:
                guess = int(np.argmax(tr.spy_view(self.seat)))
            else:
                guess = bot_guess(tr, self.spy, rng)
            spy_wins = guess == self.location or named != self.spy
        agent_wins = spy_wins == (self.spy == self.seat)
        self._done = True
        return 1.0 if agent_wins else -1.0

    def _agent_mle_vote(self) -> int:
        tr = self._tracker
        if self.spy == self.seat:
            pub = tr.public_spy().copy()
            pub[self.seat] = -1.0
            return int(np.argmax(pub))
        return int(np.argmax(tr.private_spy(self.seat, self.location)))

    # -- gymnasium API -------------------------------------------------------------------
    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.location = int(self.np_random.integers(self.n))
        self.spy = int(self.np_random.integers(self.s))
        self._tracker = BeliefTracker(self.n, self.s, np.full(self.s, self.beta),
                                      np.full(self.s, self.lam), self.strategies)
        self._claims = np.zeros((self.turns, self.n), np.float32)
        self._speakers = np.zeros((self.turns, self.s), np.float32)
        self.t = 0
        self._done = False
        self._bots_until_agent()
        return self._obs(), self._info()

    def step(self, action):
        if self._tracker is None or self._done:
            raise RuntimeError("call reset() before step() (the episode is over)")
        kind = int(action["kind"])
        if kind == 1:
            target = int(action["target"])
            if self.spy == self.seat:
                reward = self._finish(agent_guess=target % self.n)
            else:
                reward = self._finish(agent_vote=target % self.s)
            return self._obs(), reward, True, False, self._info()
        w = np.clip(np.nan_to_num(np.asarray(action["claim"], float), nan=0.0), 0.0, None)
        c = normalise_claim(w if w.sum() > 0 else np.ones(self.n))
        params = self._tracker.emission(self.seat)
        self._tracker.add_claim(self.seat, c, params)
        self._record(self.seat, c)
        self._bots_until_agent()
        if self.t >= self.turns:
            reward = self._finish()
            return self._obs(), reward, True, False, self._info()
        return self._obs(), 0.0, False, False, self._info()

    def render(self):
        if self.render_mode != "ansi" or self._tracker is None:
            return None
        loc = self._tracker.public_location()
        spy = self._tracker.public_spy()
        return (f"turn {self.t}/{self.turns}; public location argmax {int(np.argmax(loc))} "
                f"({loc.max():.2f}); public spy " + " ".join(f"{p:.2f}" for p in spy))


def register_env() -> None:
    """Register :data:`ENV_ID` with gymnasium (idempotent)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="engines.spyfall.env:SpyfallEnv")


register_env()

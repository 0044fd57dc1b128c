"""What opponents' own suggestions reveal: a tunable likelihood for the cards people suggest.

Every other part of the Cluedo engine treats a suggestion as carrying no information about the
suggester's own hand (only who passed and who refuted counts). People do not suggest at random:
most name cards they lack (to learn), some bluff with their own cards (Hansen and Hansen,
IEEE Transactions on Games, 2019). The model here is a likelihood ratio per
opponent:

* **Weighted posterior.** Opponent ``p`` has a ratio ``rho_p >= 0``; a deal's weight is
  multiplied by ``rho_p`` for every card of every suggestion of ``p`` that lies in ``p``'s own
  hand in that deal. The factor depends only on where each card lies, so it is a weight per
  (card, owner) cell — ``rho_p ** n`` on the cell (card, p) when ``p`` named the card ``n``
  times — and the counting DP of :mod:`engines.cluedo.counting` stays exact (float64 weighted
  counts; each card's weights are divided by their largest value and the divisors kept as a
  log factor, so nothing overflows however often a card is named). ``rho = 1`` is no
  information (the plain count, the same code path: bit for bit today's posterior); ``rho < 1``:
  they suggest what they lack; ``rho > 1``: they bluff; ``rho = 0``: they never name their own
  cards (a hard constraint: the cells are forbidden, and the log can then be contradictory).
* **Learning rho.** A posterior over ``rho_p`` on :data:`GRID` (uniform prior) from the log:
  the likelihood of ``p``'s suggestions when, in each category, ``p`` names each card with
  probability proportional to ``rho_p`` for own cards and 1 for the others, is
  ``L(rho) = sum over consistent deals of rho ** m(deal) / prod over p's suggestions and
  categories of (n_cat + (rho - 1) h_cat(deal))`` (``m``: the named cards in ``p``'s hand,
  ``h_cat``: ``p``'s cards of that category; up to a factor that does not depend on ``rho``).
  The sum of ``rho ** m`` is the weighted count ``Z(rho)``; the normaliser depends on the hand's
  composition, which the DP does not track, and is taken at its posterior mean under ``rho``
  (``h_cat`` replaced by the expected number of ``p``'s cards of that category in the weighted
  posterior, read off the same DP's marginals): a plug-in (first-order delta method) that is
  exact when the composition is known and whose error on small decks is measured by
  ``tests/engines/test_cluedo_suggestions.py`` against the exact sum.
* **One opponent at a time.** Each opponent's posterior over the grid varies that opponent's
  ``rho`` with every other opponent at their set value (learners at 1, neutral). The joint
  posterior over a product grid would need ``len(GRID) ** opponents`` weighted counts (7 776
  for six opponents); one at a time needs ``len(GRID)`` per learner, and opponents' factors
  touch different columns of the worksheet, so the cross-effects are second order.
* **Model averaging** ("learn"). With one learner the worksheet is the mixture of the
  posteriors under each grid value weighted by the learner's posterior over the grid (exact
  model averaging, the DPs are those of the learning). With several learners the worksheet
  uses each learner's posterior geometric mean ``exp E[log rho]`` (a plug-in: the mixture over
  the product grid is exponential).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.cluedo.counting import CountResult, count_deals, propagate
from engines.cluedo.model import LEARN, MAX_RHO, Setup, SuggestionEvent, read_trust  # noqa: F401 (re-exported)
from engines.core.errors import SessionFormatError
from engines.core.i18n import _, number

#: The values of rho a learned posterior is over (a uniform prior on them).
GRID = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
#: Suggestions an opponent must have made before the learned summary names a behaviour.
MIN_SUGGESTIONS = 3
#: Named behaviours of the New game dialog and their ratios.
BEHAVIOURS = {"lacks": 0.25, "neutral": 1.0, "bluffs": 4.0}


def named_counts(setup: Setup, events: Sequence) -> dict:
    """``{(card index, player index): times the player named the card in a suggestion}`` over the
    opponents' suggestions (mine say nothing: I know my hand)."""
    ci = setup.card_indices
    pi = setup.player_indices
    out: dict = {}
    for ev in events:
        if isinstance(ev, SuggestionEvent) and ev.suggester != setup.me:
            p = pi[ev.suggester]
            for c in ev.cards:
                key = (ci[c], p)
                out[key] = out.get(key, 0) + 1
    return out


def apply_rhos(cons, setup: Setup, events: Sequence, rhos: dict) -> None:
    """Put the suggestion weights of ``rhos`` (``{player: rho}``, rho 1 when absent) on ``cons``
    (in place): ``rho ** n`` on the cell (card, player) for a card the player named ``n`` times;
    ``rho == 0`` forbids the cell. Nothing changes when every rho is 1."""
    pi = setup.player_indices
    idx = {pi[p]: float(r) for p, r in rhos.items() if float(r) != 1.0}
    if not idx:
        return
    for (c, p), n in named_counts(setup, events).items():
        rho = idx.get(p)
        if rho is None:
            continue
        if rho == 0.0:
            cons.forbid(c, p)
        else:
            cons.weights[(c, p)] = math.exp(n * math.log(rho))


def weighted_count(setup: Setup, events: Sequence, rhos: dict, cancel=None, *,
                   marginals: bool = True, plain_count: bool = False) -> CountResult:
    """The DP count of the deals consistent with ``events``, each weighted by the suggestion
    model ``rhos`` (``{player: rho}``): :class:`engines.cluedo.counting.CountResult` (weighted
    counts divided by ``exp(result.log_scale)``; with ``plain_count`` also ``result.plain``, the
    number of deals of positive weight, from the same schedule)."""
    from engines.cluedo.constraints import constraints_for

    cons = constraints_for(setup, events)
    apply_rhos(cons, setup, events, rhos)
    return count_deals(propagate(cons), cancel, marginals=marginals, plain_count=plain_count)


def _n_suggestions(setup: Setup, events: Sequence, player: str) -> int:
    return sum(1 for ev in events if isinstance(ev, SuggestionEvent) and ev.suggester == player)


def log_likelihood(setup: Setup, events: Sequence, player: str, rho: float, res: CountResult) -> float:
    """log L(rho) of ``player``'s suggestions (module docstring; up to a constant) from the
    weighted count ``res`` at that rho: ``log Z(rho) - sum over the player's suggestions and
    categories of log(n_cat + (rho - 1) E[h_cat])``; ``-inf`` when no deal is consistent."""
    if res.count_float <= 0.0:
        return -math.inf
    p = setup.players.index(player)
    n_sugg = _n_suggestions(setup, events, player)
    ll = math.log(res.count_float) + res.log_scale
    start = 0
    for _cat, deck in setup.categories:
        h = float(res.marginal[start:start + len(deck), p].sum() / res.count_float)
        ll -= n_sugg * math.log(len(deck) + (rho - 1.0) * h)
        start += len(deck)
    return ll


@dataclass(frozen=True)
class LearnedTrust:
    """The posterior over one opponent's rho on :data:`GRID` (uniform prior).

    Fields:
        player: the opponent.
        suggestions: how many suggestions of theirs the log holds.
        posterior: tuple of probabilities aligned with :data:`GRID` (sums to 1).
        matrices: per grid value the weighted posterior worksheet (n_cards, n_players + 1), for
            model averaging.
        consistent_deals: the number of deals of positive weight (the same at every grid value).
    """

    player: str
    suggestions: int
    posterior: tuple
    matrices: tuple = ()
    consistent_deals: int = 0

    @property
    def p_lacks(self) -> float:
        """Posterior mass on rho < 1 (suggests what they lack)."""
        return float(sum(q for g, q in zip(GRID, self.posterior) if g < 1.0))

    @property
    def p_bluffs(self) -> float:
        """Posterior mass on rho > 1 (names their own cards)."""
        return float(sum(q for g, q in zip(GRID, self.posterior) if g > 1.0))

    @property
    def geometric_mean(self) -> float:
        """exp(E[log rho]) under the posterior."""
        return float(math.exp(sum(q * math.log(g) for g, q in zip(GRID, self.posterior))))

    def summary(self) -> str:
        """``"suggests what they lack: 80 %"`` / ``"bluffs: 70 %"`` / ``"neutral: 60 %"``, or
        ``"not enough suggestions yet"`` below :data:`MIN_SUGGESTIONS` suggestions."""
        if self.suggestions < MIN_SUGGESTIONS:
            return _("not enough suggestions yet")
        kind, p = self._leading()
        text = {"lacks": _("suggests what they lack: {percent} %"), "bluffs": _("bluffs: {percent} %"),
                "neutral": _("neutral: {percent} %")}[kind]
        return text.format(percent=round(100 * p))

    def _leading(self) -> tuple:
        """The most probable behaviour ("lacks", "bluffs" or "neutral") and its probability."""
        lack, bluff = self.p_lacks, self.p_bluffs
        neutral = max(0.0, 1.0 - lack - bluff)
        return max((("lacks", lack), ("bluffs", bluff), ("neutral", neutral)), key=lambda t: t[1])

    def short(self) -> str:
        """The summary for a column header: ``"lacks 80 %"``, ``"bluffs 70 %"``,
        ``"neutral 60 %"``; empty below :data:`MIN_SUGGESTIONS` suggestions."""
        if self.suggestions < MIN_SUGGESTIONS:
            return ""
        kind, p = self._leading()
        text = {"lacks": _("lacks {percent} %"), "bluffs": _("bluffs {percent} %"),
                "neutral": _("neutral {percent} %")}[kind]
        return text.format(percent=round(100 * p))

    def to_json(self) -> dict:
        return {"short": self.short(), "grid": list(GRID), "posterior": [round(float(q), 12) for q in self.posterior],
                "suggestions": self.suggestions, "p_lacks": round(self.p_lacks, 12),
                "p_bluffs": round(self.p_bluffs, 12), "summary": self.summary()}


def learn_trust(setup: Setup, events: Sequence, player: str, rhos: Optional[dict] = None,
                cancel=None) -> LearnedTrust:
    """The posterior over ``player``'s rho on :data:`GRID` (uniform prior), the other
    opponents at ``rhos`` (1 when absent): one weighted DP with marginals per grid value.

    Raises:
        SessionFormatError: ``player`` is not an opponent.
    """
    if player not in setup.players or player == setup.me:
        raise SessionFormatError("$.setup.model.suggestion_trust", f"{player!r} is not an opponent")
    from engines.cluedo.constraints import constraints_for
    from engines.cluedo.counting import reweight

    base = {p: r for p, r in (rhos or {}).items() if p != player}
    cons = constraints_for(setup, events)
    apply_rhos(cons, setup, events, base)          # the others' weights and hard constraints
    comp = propagate(cons)                         # once: the grid changes weights only
    mine = cons.copy()
    mine.weights = {}
    lls, mats = [], []
    plain = 0
    for i, g in enumerate(GRID):
        mine.weights = {}
        apply_rhos(mine, setup, events, {player: g})
        weights = dict(cons.weights)
        for key, w in mine.weights.items():
            weights[key] = weights.get(key, 1.0) * w
        res = count_deals(reweight(comp, weights), cancel, marginals=True, plain_count=(i == 0))
        if i == 0:
            plain = res.plain
        lls.append(log_likelihood(setup, events, player, g, res))
        mats.append(res.marginal / res.count_float if res.count_float > 0 else None)
    top = max(lls)
    if not math.isfinite(top):
        post = np.full(len(GRID), 1.0 / len(GRID))
    else:
        w = np.exp(np.array(lls) - top)
        post = w / w.sum()
    return LearnedTrust(player, _n_suggestions(setup, events, player),
                        tuple(float(q) for q in post), tuple(mats), plain)


@dataclass(frozen=True)
class ModelResult:
    """The worksheet under a suggestion model and what was learned.

    Fields:
        matrix: float array (n_cards, n_players + 1), the posterior (model averaged for learners).
        rho_used: ``{player: rho}`` for every opponent (learners: their geometric mean; a single
            learner's worksheet is the exact mixture, see the module docstring).
        learned: ``{player: LearnedTrust}`` for the learners.
        averaging: ``"mixture"`` (one learner), ``"plug-in"`` (several) or None (none).
    """

    matrix: np.ndarray
    rho_used: dict
    learned: dict
    averaging: Optional[str]
    log_scale: float = 0.0

    def to_json(self, setup: Setup) -> dict:
        trust = dict(setup.suggestion_trust)
        return {"trust": {p: trust.get(p, 1.0) for p in setup.players if p != setup.me},
                "rho_used": {p: round(float(r), 12) for p, r in self.rho_used.items()},
                "averaging": self.averaging,
                "learned": {p: lt.to_json() for p, lt in self.learned.items()},
                "learning": "each learner's rho varied alone, the other opponents at their set "
                            "values (learners at 1)"}


def model_posterior(setup: Setup, events: Sequence, cancel=None) -> tuple:
    """The worksheet under ``setup.suggestion_trust``: ``(ModelResult, consistent deals)``, the
    latter the exact number of deals of positive weight (those consistent with the log and the
    hard constraints of players set to 0). The caller checks for contradictions (0 deals)."""
    fixed = {p: float(r) for p, r in setup.suggestion_trust if r != LEARN}
    learners = [p for p, r in setup.suggestion_trust if r == LEARN]
    learned = {p: learn_trust(setup, events, p, fixed, cancel) for p in learners}
    rho_used = {p: fixed.get(p, 1.0) for p in setup.players if p != setup.me}
    if len(learners) == 1:
        lt = learned[learners[0]]
        rho_used[learners[0]] = lt.geometric_mean
        mats = [(q, m) for q, m in zip(lt.posterior, lt.matrices) if m is not None and q > 0]
        if mats:
            matrix = sum(q * m for q, m in mats) / sum(q for q, _ in mats)
            return ModelResult(matrix, rho_used, learned, "mixture"), lt.consistent_deals
    rhos = dict(fixed)
    for p in learners:
        rhos[p] = rho_used[p] = learned[p].geometric_mean
    res = weighted_count(setup, events, rhos, cancel, plain_count=True)
    matrix = res.marginal / res.count_float if res.count_float > 0 else None
    return ModelResult(matrix, rho_used, learned, "plug-in" if learners else None, res.log_scale), res.plain


def advice_rhos(setup: Setup, events: Sequence, cancel=None, rhos: Optional[dict] = None) -> dict:
    """The suggestion model the advice uses (the recommendation, the opponents' figures, the
    accuse-or-wait advice): ``{player: rho}`` with only the opponents whose rho is not 1.

    ``rhos`` given (a dict, ``{}`` for no model): that model, rho 1 left out. None: the setup's
    model (``setup.suggestion_trust``): the set values, and for each learner the geometric mean
    ``exp E[log rho]`` of their posterior over :data:`GRID` (:func:`learn_trust`, the others at
    their set values): the plug-in of :func:`model_posterior` with several learners. (With a
    single learner the worksheet is the exact mixture over the grid; the advice takes the
    plug-in, one weighted posterior, so that every figure is one law over deals.) ``{}`` when
    the setup has no model: the plain posterior, the code paths of the model-free engine.
    """
    if rhos is None:
        if not setup.suggestion_trust:
            return {}
        fixed = {p: float(r) for p, r in setup.suggestion_trust if r != LEARN}
        rhos = dict(fixed)
        for p, r in setup.suggestion_trust:
            if r == LEARN:
                rhos[p] = learn_trust(setup, events, p, fixed, cancel).geometric_mean
    return {p: float(r) for p, r in rhos.items() if float(r) != 1.0 and p != setup.me}


def _behaviour(rho: float, player: str, rho_text: str) -> str:
    """"Ann suggests what they lack (ρ 0.25)" (``rho_text``: the bracket's "ρ 0.25" or
    "learned ρ 0.25")."""
    if rho == 0.0:
        text = _("{player} never names their own cards ({rho})")
    elif rho < 1.0:
        text = _("{player} suggests what they lack ({rho})")
    else:
        text = _("{player} bluffs with their own cards ({rho})")
    return text.format(player=player, rho=rho_text)


def model_label(setup: Setup, rhos: dict) -> str:
    """The model a figure assumes, in words: ``"assuming Ann suggests what they lack
    (rho 0.25), Bob bluffs with their own cards (rho 4)"``, or ``"assuming opponents' suggestions
    say nothing about their hands"`` without a model (``rhos`` as :func:`advice_rhos` returns).
    Learned values are named as such when the setup says "learn"."""
    if not rhos:
        return _("assuming opponents' suggestions say nothing about their hands")
    learners = {p for p, r in setup.suggestion_trust if r == LEARN}
    parts = []
    for p in setup.players:
        if p in rhos:
            value = number(rhos[p], ".3g")
            rho = _("learned ρ {value}").format(value=value) if p in learners else f"ρ {value}"
            parts.append(_behaviour(rhos[p], p, rho))
    return _("assuming {behaviours}").format(behaviours=", ".join(parts))



def deal_weights(setup: Setup, events: Sequence, rhos: dict, deals: np.ndarray) -> np.ndarray:
    """The suggestion model's weight of each deal (float array (D,), not normalised): the
    product over every opponent's suggestions of ``rho`` for each named card in their own hand
    in that deal (``deals``: int array (D, n_cards) of owner indices)."""
    pi = setup.player_indices
    w = np.ones(len(deals))
    for (c, p), n in named_counts(setup, events).items():
        name = setup.players[p]
        if name in rhos:
            w = np.where(deals[:, c] == pi[name], w * float(rhos[name]) ** n, w)
    return w

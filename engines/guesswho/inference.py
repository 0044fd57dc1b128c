"""Guess Who? inference: candidates, question ranking, optimal play.

Model. The secret character C is uniform over the board (the prior). An answer A to a
question q has likelihood P(A = q(c) | C = c) = 1 - ε and P(A != q(c) | C = c) = ε, where ε is
the setup's ``error_rate``. With ε = 0 this is elimination (the “Guess Who Solver” notebook's filtering of rows by
known features); with ε > 0 every card keeps a positive posterior and is never eliminated for
good. A card I knock down myself (``eliminate``) gets probability 0 in both cases.

Ranking. For every question, the information gain about C from its answer is the mutual
information I(C; A) = H(A) - H(A | C) = h2(P(yes)) - h2(ε) in bits, where P(yes) =
(1-ε) P(q true) + ε P(q false) under the posterior. With ε = 0 it is the “Guess Who Solver” notebook's conditional
mutual information I(X; Y | z) (the “Guess Who Solver” notebook, "conditional_mutual_info"): the entropy of the
answer given the known features.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from engines.core.errors import CancelFlag, ContradictionError, SessionFormatError, check_cancel
from engines.core.i18n import _
from engines.core.info import entropy_bits
from engines.guesswho.board import NAME_ATTRIBUTE, Board, Question
from engines.guesswho.model import Answer, Eliminate, Event, Opponent, Setup
from engines.guesswho.optimal import (
    BudgetExceeded,
    QuestionDP,
    balanced_depth_sum,
    race_best_split,
    race_win_probability,
)

METHODS = ("exact", "greedy")
#: New candidate subsets the expected-questions DP may solve in one :func:`infer` call
#: (~13 µs each); beyond it the result is a bound (``expected_questions_exact`` False). The
#: memo persists, so later calls continue the work. The classic board needs < 100.
DP_BUDGET = 50_000


def _h2(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
        q = 1.0 - p
        b = np.where(q > 0, -q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
    return a + b


@dataclass(frozen=True)
class RankedQuestion:
    """One question in the ranking.

    Attributes:
        question: the question in event form (``{"attribute", "value"}`` or ``{"any": [...]}``).
        label: the question in words.
        information_bits: expected information gain I(C; answer), bits, >= 0.
        yes, no: number of candidates (cards still standing) on each side.
        expected_remaining: expected number of standing cards on the side the answer will
            point to (``(yes² + no²) / n`` without the error model).
        p_yes: probability (posterior, truthful answer) that the answer is yes.
    """

    question: dict
    label: str
    information_bits: float
    yes: int
    no: int
    expected_remaining: float
    p_yes: float

    def to_json(self) -> dict:
        return {"question": self.question, "label": self.label,
                "information_bits": round(self.information_bits, 6), "yes": self.yes,
                "no": self.no, "expected_remaining": round(self.expected_remaining, 6)}


@dataclass(frozen=True, eq=False)
class Posterior:
    """Result of :func:`infer`.

    Attributes:
        names: character names, board order, length N.
        probabilities: float array, shape (N,): posterior P(secret = character); sums to 1.
        alive: bool array, shape (N,): card still standing (probability > 0).
        candidates: dict name -> probability, standing cards only, board order.
        n_candidates: number of standing cards.
        likely: bool array, shape (N,): the most likely cards (fewest answers against them);
            equals ``alive`` when ε = 0. The race and the expected-questions DP use this set.
        entropy_bits: Shannon entropy of the posterior, bits.
        questions: tuple of :class:`RankedQuestion`, best (most information) first.
        expected_questions: minimum expected number of questions to identify the secret among
            the likely cards (uniform, truthful answers) — ``None`` with method ``"greedy"``.
            On a board too hard to solve within :data:`DP_BUDGET`, the greedy tree's value (an
            upper bound) and ``expected_questions_exact`` is False.
        expected_questions_lower: the balanced-tree lower bound ``D*(n)/n`` (any questions).
        best_question: a question achieving it (event form), or None (one card left, or no
            board question splits the likely cards: name one).
        opponent_remaining: the opponent's standing cards, or None when unknown.
        win_probability: my probability of winning when it is my turn to ask, both sides
            optimal (Nica's race), under the setup's rules; None when the opponent's count is
            unknown. ``win_probability_official`` / ``win_probability_instant``: the same under
            each rule.
        advised_split: ``(yes, no)`` counts the race says to aim for now (``(0, n)``: name a
            character); None when the opponent's count is unknown.
        advised_question: the available question whose split of the likely cards is closest to
            the advised split (ties: more information), event form; a ``{"attribute": "name"}``
            question when naming is advised.
        rules, method, error_rate: as used.
    """

    names: tuple
    probabilities: np.ndarray
    alive: np.ndarray
    candidates: dict
    n_candidates: int
    likely: np.ndarray
    entropy_bits: float
    questions: tuple
    expected_questions: Optional[float]
    best_question: Optional[dict]
    opponent_remaining: Optional[int]
    win_probability: Optional[float]
    win_probability_official: Optional[float]
    win_probability_instant: Optional[float]
    advised_split: Optional[tuple]
    advised_question: Optional[dict]
    expected_questions_exact: bool = True
    expected_questions_lower: Optional[float] = None
    rules: str = "official"
    method: str = "exact"
    error_rate: float = 0.0

    def to_json(self) -> dict:
        """The CLI output (plus a few extra fields)."""
        return {
            "game": "guesswho",
            "candidates": {k: round(v, 9) for k, v in self.candidates.items()},
            "n_candidates": self.n_candidates,
            "entropy_bits": round(self.entropy_bits, 6),
            "questions": [q.to_json() for q in self.questions],
            "expected_questions": None if self.expected_questions is None
            else round(self.expected_questions, 6),
            "expected_questions_exact": self.expected_questions_exact,
            "expected_questions_lower": _r(self.expected_questions_lower),
            "best_question": self.best_question,
            "win_probability": None if self.win_probability is None
            else round(self.win_probability, 9),
            "race": {"rules": self.rules, "opponent_remaining": self.opponent_remaining,
                     "official": _r(self.win_probability_official),
                     "instant": _r(self.win_probability_instant),
                     "advised_split": None if self.advised_split is None
                     else {"yes": self.advised_split[0], "no": self.advised_split[1]},
                     "advised_question": self.advised_question},
            "method": self.method,
            "error_rate": self.error_rate,
        }


def _r(x):
    return None if x is None else round(x, 9)


# ------------------------------------------------------------------------------- caches

_DP_CACHE: dict[tuple, QuestionDP] = {}


def question_dp(board: Board, compound: bool) -> QuestionDP:
    """The shared :class:`QuestionDP` of a board and question set (memo kept across calls)."""
    key = (id(board), compound)
    dp = _DP_CACHE.get(key)
    if dp is None or dp.board is not board:
        if len(_DP_CACHE) > 16:
            _DP_CACHE.clear()
        dp = QuestionDP([board.mask(q) for q in board.questions(compound)])
        dp.board = board  # keep the board alive while the id is a key
        _DP_CACHE[key] = dp
    return dp


def _truth_matrix(board: Board, questions: Sequence[Question]) -> np.ndarray:
    if not questions:
        return np.zeros((0, board.size), dtype=bool)
    key = (id(board), tuple(questions))
    hit = _TRUTH_CACHE.get(key)
    if hit is not None and hit[0] is board:
        return hit[1]
    if len(_TRUTH_CACHE) > 64:
        _TRUTH_CACHE.clear()
    T = np.stack([board.truth(q) for q in questions])
    T.setflags(write=False)
    _TRUTH_CACHE[key] = (board, T)
    return T


_TRUTH_CACHE: dict[tuple, tuple] = {}


# ------------------------------------------------------------------------------- filtering

def _filter(setup: Setup, events: Sequence[Event], cancel: CancelFlag):
    """Returns (log-weights (N,), mismatches (N,), knocked-down mask (N,), opponent count)."""
    board = setup.board
    n = board.size
    eps = setup.error_rate
    miss = np.zeros(n, dtype=np.int64)
    down = np.zeros(n, dtype=bool)
    opp = setup.opponent_remaining
    names = board.names
    for i, ev in enumerate(events):
        check_cancel(cancel)
        if isinstance(ev, Answer):
            t = board.truth(ev.question)
            agree = t == ev.answer
            if eps == 0.0:
                before = ~down & (miss == 0)
                if not np.any(before & agree):
                    raise ContradictionError(i, _contradiction_text(board, ev, before))
            miss += ~agree
        elif isinstance(ev, Eliminate):
            k = names.index(ev.name)
            standing = ~down & ((miss == 0) if eps == 0.0 else True)
            if np.count_nonzero(standing) == 1 and standing[k]:
                raise ContradictionError(i, _("knocking down {name} leaves no candidate").format(
                    name=ev.name))
            down[k] = True
        elif isinstance(ev, Opponent):
            if opp is not None and ev.remaining > opp:
                raise ContradictionError(i, _("the opponent cannot go from {before} cards back up "
                                              "to {after}").format(before=opp, after=ev.remaining))
            opp = ev.remaining
        else:  # pragma: no cover - event_from_json only builds the three types
            raise SessionFormatError(f"$.events[{i}]", f"not a Guess Who? event: {ev!r}")
    return miss, down, opp


def _contradiction_text(board: Board, ev: Answer, before: np.ndarray) -> str:
    left = [board.names[j] for j in np.flatnonzero(before)]
    shown = ", ".join(left[:6]) + (", …" if len(left) > 6 else "")
    if ev.answer:
        text = _("the answer yes to “{question}” fits none of the remaining candidates ({names})")
    else:
        text = _("the answer no to “{question}” fits none of the remaining candidates ({names})")
    return text.format(question=ev.question.label(), names=shown)


def posterior_probabilities(setup: Setup, events: Sequence[Event]) -> np.ndarray:
    """Posterior P(secret = character), shape (N,), probability (sums to 1).

    Raises:
        ContradictionError: the first event after which no character is possible.
    """
    miss, down, _ = _filter(setup, events, None)
    return _probs(setup.error_rate, miss, down)


def _probs(eps: float, miss: np.ndarray, down: np.ndarray) -> np.ndarray:
    if eps == 0.0:
        w = ((miss == 0) & ~down).astype(float)
    else:
        # likelihood ratio ε/(1-ε) per wrong answer, relative to the best card (no underflow)
        lr = math.log(eps) - math.log1p(-eps)
        live = ~down
        m0 = miss[live].min()
        w = np.where(live, np.exp((miss - m0) * lr), 0.0)
    return w / w.sum()


# ------------------------------------------------------------------------------- ranking

def rank_questions(board: Board, probs: np.ndarray, alive: np.ndarray, eps: float = 0.0,
                   compound: bool = False) -> tuple:
    """Rank every available question by expected information gain (the “Guess Who Solver” notebook's CMI).

    Args:
        board: the board; probs: posterior, shape (N,); alive: bool, shape (N,);
        eps: answer error rate ε; compound: include "A or B?" questions.
    Returns:
        tuple of :class:`RankedQuestion`, most information first (ties: simpler question,
        board order). Name questions ("is it Alex?") are added only when no board question
        splits the standing cards.
    """
    qs = list(board.questions(compound))
    T = _truth_matrix(board, qs)
    splits = T[:, alive].any(1) & (~T[:, alive]).any(1) if qs else np.zeros(0, bool)
    if not np.any(splits) and np.count_nonzero(alive) > 1:
        extra = [Question(((NAME_ATTRIBUTE, board.names[j]),)) for j in np.flatnonzero(alive)]
        qs += extra
        T = _truth_matrix(board, qs)
    p_true = T.astype(float) @ probs
    p_yes = (1 - eps) * p_true + eps * (1 - p_true)
    info = np.maximum(_h2(p_yes) - float(_h2(np.array([eps]))[0]), 0.0)
    yes = (T & alive).sum(1)
    no = (~T & alive).sum(1)
    exp_rem = p_true * yes + (1 - p_true) * no
    order = sorted(range(len(qs)), key=lambda i: (-round(float(info[i]), 12),
                                                   len(qs[i].atoms), i))
    return tuple(RankedQuestion(qs[i].to_json(), qs[i].label(), float(info[i]), int(yes[i]),
                                int(no[i]), float(exp_rem[i]), float(p_yes[i])) for i in order)


# ------------------------------------------------------------------------------- infer

def _mask_of(arr: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(arr))


def infer(setup: Setup, events: Sequence[Event], *, method: str = METHODS[0],
          cancel: CancelFlag = None) -> Posterior:
    """Posterior over the opponent's secret character, question ranking and optimal play.

    Args:
        setup: :class:`~engines.guesswho.model.Setup`; events: the log (answer, eliminate,
            opponent events).
        method: ``"exact"`` (everything) or ``"greedy"`` (skip the expected-questions DP).
        cancel: zero-argument callable; raises Cancelled when it returns True.
    Returns:
        :class:`Posterior`.
    Raises:
        ContradictionError: the first event (0-based) after which no character is possible
            (ε = 0), or that knocks down the last card, or that raises the opponent's count.
        SessionFormatError: unknown method.
    Source: the “Guess Who Solver” notebook (conditional mutual information ranking); Nica 2016 (race); the DP of
        :mod:`engines.guesswho.optimal`.
    """
    if method not in METHODS:
        raise SessionFormatError("method", f"unknown method {method!r}; expected one of "
                                           f"{', '.join(METHODS)}")
    board = setup.board
    eps = setup.error_rate
    miss, down, opp = _filter(setup, events, cancel)
    probs = _probs(eps, miss, down)
    alive = probs > 0
    live_miss = np.where(alive, miss, np.iinfo(np.int64).max)
    likely = alive & (miss == live_miss.min())
    ranked = rank_questions(board, probs, alive, eps, setup.compound_questions)
    qs = board.questions(setup.compound_questions)
    n_likely = int(np.count_nonzero(likely))
    lmask = _mask_of(likely)

    exp_q = best_q = None
    exact = method == "exact"
    lower = balanced_depth_sum(n_likely) / n_likely
    if method == "exact":
        dp = question_dp(board, setup.compound_questions)
        try:
            exp_q, qi = dp.best(lmask, cancel, DP_BUDGET)
        except BudgetExceeded:
            exp_q, qi = dp.heuristic(lmask)
            exact = False
        if qi >= 0:
            best_q = qs[qi].to_json()
        elif n_likely > 1:
            best_q = Question(((NAME_ATTRIBUTE, board.names[int(np.flatnonzero(likely)[0])]),)
                              ).to_json()

    wp = wpo = wpi = split = adv = None
    if opp is not None:
        wpo = float(race_win_probability(n_likely, opp, "official"))
        wpi = float(race_win_probability(n_likely, opp, "instant"))
        wp = wpo if setup.rules == "official" else wpi
        split = race_best_split(n_likely, opp, setup.rules)
        adv = advised_question(board, qs, likely, probs, split)
    cands = {board.names[j]: float(probs[j]) for j in np.flatnonzero(alive)}
    return Posterior(board.names, probs, alive, cands, int(np.count_nonzero(alive)), likely,
                     float(entropy_bits(probs)), ranked, exp_q, best_q, opp, wp, wpo, wpi,
                     split, adv, exact, lower, setup.rules, method, eps)


def advised_question(board: Board, questions: Sequence[Question], likely: np.ndarray,
                     probs: np.ndarray, split: tuple) -> Optional[dict]:
    """The real question closest to the race's advised split ``(yes, no)`` of the likely cards.

    Closeness is ``|min(a, n-a) - min(split)|`` for a question with a likely cards on its
    yes side; ties go to the question with more information. ``split == (0, n)`` or
    ``(1, 0)`` advise naming a character: returns ``{"attribute": "name", "value": X}`` for the
    most probable likely card. Returns None when no question splits the likely cards and naming
    was not advised (then the tab shows the name question from the ranking).
    """
    idx = np.flatnonzero(likely)
    n = len(idx)
    if split[0] == 0 or n == 1:
        j = int(idx[np.argmax(probs[idx])])
        return {"attribute": NAME_ATTRIBUTE, "value": board.names[j]}
    target = min(split)
    best, best_key = None, None
    for q in questions:
        a = int(np.count_nonzero(board.truth(q)[idx]))
        if a == 0 or a == n:
            continue
        key = (abs(min(a, n - a) - target), -min(a, n - a))
        if best_key is None or key < best_key:
            best, best_key = q, key
    if best is None:
        j = int(idx[np.argmax(probs[idx])])
        return {"attribute": NAME_ATTRIBUTE, "value": board.names[j]}
    return best.to_json()


def belief_summary(setup: Setup, posterior: Posterior) -> dict:
    """Flat numbers for the CSV export and the belief plot (same keys after every event).

    Keys: ``candidates_remaining`` (count), ``entropy_bits`` (bits), ``expected_questions``
    (count; 0 when not computed), ``win_probability`` (probability; when the opponent's count
    is unknown, assumes the opponent still has the whole board), and ``p_<name>`` for every
    character (probability).
    """
    out = {"candidates_remaining": float(posterior.n_candidates),
           "entropy_bits": posterior.entropy_bits,
           "expected_questions": posterior.expected_questions or 0.0}
    wp = posterior.win_probability
    if wp is None:
        n = int(np.count_nonzero(posterior.likely))
        wp = float(race_win_probability(n, setup.board.size, setup.rules))
    out["win_probability"] = wp
    for name, p in zip(posterior.names, posterior.probabilities):
        out[f"p_{name}"] = float(p)
    return out


@dataclass(frozen=True)
class Recommendation:
    """The next question: ``question`` (event form), ``label``, ``reason`` (words), and the
    greedy, optimal (DP) and race choices for comparison (event forms or None)."""

    question: Optional[dict]
    label: str
    reason: str
    greedy: Optional[dict]
    optimal: Optional[dict]
    race: Optional[dict]

    def to_json(self) -> dict:
        return {"game": "guesswho", "question": self.question, "label": self.label,
                "reason": self.reason, "greedy": self.greedy, "optimal": self.optimal,
                "race": self.race}


def recommend(setup: Setup, events: Sequence[Event], *, cancel: CancelFlag = None
              ) -> Recommendation:
    """The question to ask next: the race's advised question when the opponent's count is
    known (it accounts for being ahead or behind), otherwise the question minimising the
    expected number of questions (DP), else the most informative one.

    Raises:
        ContradictionError: as :func:`infer`.
    """
    post = infer(setup, events, cancel=cancel)
    greedy = post.questions[0].question if post.questions else None
    if post.n_candidates == 1:
        name = next(iter(post.candidates))
        q = {"attribute": NAME_ATTRIBUTE, "value": name}
        return Recommendation(q, _("is it {name}?").format(name=name), _("one candidate left: name it"), greedy,
                              None, q)
    if post.advised_question is not None:
        q, why = post.advised_question, (
            _("race: aim for a {yes}/{no} split against the opponent's {theirs} (win probability "
              "{p})").format(yes=post.advised_split[0], no=post.advised_split[1],
                             theirs=post.opponent_remaining, p=f"{post.win_probability:.3f}"))
    elif post.best_question is not None:
        q, why = post.best_question, _("fewest expected questions ({n})").format(
            n=f"{post.expected_questions:.3f}")
    else:
        q, why = greedy, _("most information")
    label = next((r.label for r in post.questions if r.question == q), _label(setup, q))
    return Recommendation(q, label, why, greedy, post.best_question, post.advised_question)


def _label(setup: Setup, q: Optional[dict]) -> str:
    if q is None:
        return ""
    from engines.guesswho.board import parse_question
    return parse_question(q, setup.board, "$").label()

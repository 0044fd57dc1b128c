"""Guess Who? session setup and events.

Setup::

    {"board": "classic" | "demo" | "path/to/board.csv" | {inline board},
     "opponent_remaining"?: n, "error_rate"?: ε, "rules"?: "official" | "instant",
     "compound_questions"?: false}

Events::

    {"type": "answer", "question": {"attribute": a, "value": v} | {"any": [q, ...]},
     "answer": true | false}
    {"type": "eliminate", "name": "Alex"}       # I knocked the card down myself
    {"type": "opponent", "remaining": n}        # the opponent's count of standing cards
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

from engines.core.errors import SessionFormatError
from engines.core.i18n import _, ngettext
from engines.core.schema import Reader, allowed_file, declared_keys, file_ref
from engines.guesswho.board import BUNDLED_BOARDS, YES_NO, Board, Question, board_from_json, load_board, parse_question
from engines.registry import GUESSWHO

GAME, TITLE = GUESSWHO.id, GUESSWHO.title   # declared once, in the game registry
RULES = ("official", "instant")
EVENT_TYPES = ("answer", "eliminate", "opponent")


@dataclass(frozen=True, kw_only=True)
class Setup:
    """The game as set up.

    Attributes:
        board: the :class:`~engines.guesswho.board.Board`.
        board_ref: the bundled board's name, or the absolute path of the board file (written
            back by :meth:`to_json` relative to the file the session is saved to, or inline
            when the board file lies outside that file's folder); ``None`` for an inline board
            (written back inline).
        opponent_remaining: the opponent's standing cards at the start (``None``: unknown).
        error_rate: ε, probability that the opponent answers a question wrongly, in [0, 0.5).
            0 means answers eliminate; > 0 means candidates carry a posterior.
        rules: ``"official"`` (naming takes a turn; a wrong name loses) or ``"instant"``.
        compound_questions: whether "A or B?" questions may be asked (house rule).
    """

    board: Board
    board_ref: Optional[str] = "classic"
    opponent_remaining: Optional[int] = None
    error_rate: float = 0.0
    rules: str = "official"
    compound_questions: bool = False

    @staticmethod
    def from_json(obj: Any, path: str = "$.setup") -> "Setup":
        """Validate and build a setup. Raises SessionFormatError(json_path, message)."""
        r = Reader(obj, path)
        raw = r.raw("board", "classic")
        if isinstance(raw, str):
            try:
                board = load_board(raw)
            except SessionFormatError as exc:
                if exc.path == "$.board":
                    raise r.error("board", exc.message) from None
                raise
            # a board file is remembered by its absolute path and written back relative to
            # the file the session is saved to (engines.core.schema.file_ref)
            ref: Optional[str] = raw if raw in BUNDLED_BOARDS else allowed_file(raw, r.sub("board"))
        elif isinstance(raw, dict):
            board = board_from_json(raw, r.sub("board"))
            ref = None
        else:
            raise r.error("board", "expected a board name (" + ", ".join(BUNDLED_BOARDS)
                          + "), a file path or an inline board object")
        opp = r.int("opponent_remaining", None, min=1, max=board.size) \
            if r.has("opponent_remaining") else None
        eps = r.float("error_rate", 0.0, min=0.0, max=0.5, max_exclusive=True)
        rules = r.choice("rules", RULES, "official", what="rules")
        comp = r.bool("compound_questions", False)
        if comp:
            check_compound_cost(board, r.sub("compound_questions"))
        return Setup(board=board, board_ref=ref, opponent_remaining=opp, error_rate=eps, rules=rules,
                     compound_questions=comp)

    def to_json(self) -> dict:
        ref = self.board_ref
        if ref is not None and ref not in BUNDLED_BOARDS:
            ref = file_ref(ref)   # None: outside the saved file's folder, so written inline
        out: dict[str, Any] = {"board": ref if ref is not None else _inline(self.board)}
        if self.opponent_remaining is not None:
            out["opponent_remaining"] = self.opponent_remaining
        if self.error_rate:
            out["error_rate"] = self.error_rate
        out["rules"] = self.rules
        if self.compound_questions:
            out["compound_questions"] = True
        return out


#: Largest (compound questions x characters) accepted: the work of ranking and solving with
#: every "A or B?" question grows with both. Measured (CPU seconds of ``infer``, one core, no
#: events): 24 characters x 16,110 pairs (386,640) 0.7 s; 24 x 51,040 (1.2 million) 21 s;
#: 64 x 16,110 (1.0 million) over 60 s. The classic board is about 10,000.
MAX_COMPOUND_WORK = 400_000


def compound_questions_count(board: Board) -> int:
    """The pairs of single questions (``attribute = value``) that compound questions combine:
    ``S (S - 1) / 2`` for ``S`` single questions (an upper bound on the distinct ones)."""
    singles = sum(1 if a.kind == YES_NO else len(a.values) for a in board.attributes)
    return singles * (singles - 1) // 2


def check_compound_cost(board: Board, path: str) -> None:
    """Refuse compound questions on a board where they cannot be ranked within the time
    contract (:data:`MAX_COMPOUND_WORK`), before any is built.

    Raises:
        SessionFormatError: at ``path``, naming the estimate.
    """
    pairs = compound_questions_count(board)
    work = pairs * board.size
    if work > MAX_COMPOUND_WORK:
        raise SessionFormatError(path, f"compound questions on this board are {pairs:,} pairs of "
                                       f"questions for {board.size} characters ({work:,} "
                                       f"question-characters; at most {MAX_COMPOUND_WORK:,} are "
                                       f"allowed, about a second of work): use single questions, "
                                       f"or attributes with fewer values")


def _inline(board: Board) -> dict:
    d = board.to_json()
    d.pop("format", None)
    return d


def default_setup() -> Setup:
    """The classic 24-character board, official rules, no error model, single questions."""
    return Setup(board=load_board("classic"), board_ref="classic")


def setup_for_board(board: Union[str, Board], **kw) -> Setup:
    """A setup on ``board`` (a bundled name, a path, or a Board; a user board is stored inline
    so the session file is self-contained). Keyword arguments are the other Setup fields."""
    if isinstance(board, Board):
        return Setup(board=board, board_ref=board.key, **kw)
    b = load_board(board)
    return Setup(board=b, board_ref=b.key, **kw)


@dataclass(frozen=True, kw_only=True)
class Answer:
    """The opponent answered my ``question`` with ``answer`` (True = yes)."""

    question: Question
    answer: bool

    def to_json(self) -> dict:
        return {"type": "answer", "question": self.question.to_json(), "answer": self.answer}


@dataclass(frozen=True, kw_only=True)
class Eliminate:
    """I knocked down the card of ``name`` myself (certain, even under the error model)."""

    name: str

    def to_json(self) -> dict:
        return {"type": "eliminate", "name": self.name}


@dataclass(frozen=True, kw_only=True)
class Opponent:
    """The opponent now has ``remaining`` cards standing."""

    remaining: int

    def to_json(self) -> dict:
        return {"type": "opponent", "remaining": self.remaining}


Event = Union[Answer, Eliminate, Opponent]
#: The keys each event type may hold, from what its ``to_json`` writes (the question's own
#: keys are checked by :func:`~engines.guesswho.board.parse_question`).
EVENT_KEYS = {"answer": declared_keys(Answer(question=Question((("", True),)), answer=True)),
              "eliminate": declared_keys(Eliminate(name="")), "opponent": declared_keys(Opponent(remaining=1))}


def event_from_json(obj: Any, setup: Setup, path: str = "$.event") -> Event:
    """Validate one event against the setup's board. Raises SessionFormatError."""
    r = Reader(obj, path)
    t = r.choice("type", EVENT_TYPES, what="event type")
    if t == "answer":
        q = parse_question(r.dict("question"), setup.board, r.sub("question"))
        return Answer(question=q, answer=r.bool("answer"))
    if t == "eliminate":
        return Eliminate(name=r.choice("name", setup.board.names, what="character"))
    return Opponent(remaining=r.int("remaining", min=1, max=setup.board.size))


def describe_event(setup: Setup, event: Event) -> str:
    """The event in words for the history panel, in the language in effect (English on the
    command line)."""
    if isinstance(event, Answer):
        if event.answer:
            return _("Asked “{question}” — yes").format(question=event.question.label())
        return _("Asked “{question}” — no").format(question=event.question.label())
    if isinstance(event, Eliminate):
        return _("Knocked down {name}").format(name=event.name)
    return ngettext("Opponent has {n} card left", "Opponent has {n} cards left",
                    event.remaining).format(n=event.remaining)

"""Egghead quick entry: one typed line -> one event; the answers possible given the log.

Grammar (names and questions: any unique prefix of any word, see :mod:`engines.core.names`;
``me``/``I`` is the player using the app)::

    sum = 14                 the moderator answered question "sum" with 14; the question is
    missing 0                its id or words of its text (``count 6``, ``highest stack``);
    count 6? 2               ``=``, ``?`` or ``:`` before the answer are optional
    B: sum = 11              the answer of player B as rotating moderator
    reactions: B, C          one round of reactions: B and C solved, the others did not
    reactions: none          nobody solved (also ``nobody solved``)
    B solves 456 -> 112      B called 4 5 6 and was dealt 1 1 2 (``solved``; ``new`` for ``->``)
    B solves -> 112          B called the stack I saw
    me solves 122            I called 1 2 2 (my new cards are hidden from me)

Stacks are written as digits (cards show 1..9), spaces allowed: ``4 5 6`` or ``456``.
:func:`possible_answers` gives the answers a question can still get in some world consistent
with the log and the cards I see (the exact engine's valid stacks); one answer is forced.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.i18n import _
from engines.core.names import TEXT_PATH, _list, _norm, candidates, check_length, complete_word, match_player
from engines.egghead.model import Answer, Reactions, Setup, Solve, describe_event, event_from_json, visible_after
from engines.egghead.questions import bound_deck, stack_space
from engines.egghead.words import question_aliases, question_text, quick_words

SOLVES = ("solves", "solved", "solve", "calls", "called")
REACTIONS = ("reactions", "reaction", "reactions:", "reaction:")
NOBODY = ("none", "nobody", "-", "noone")
NEW = ("->", "new", "then", "dealt", "=>")


def _player(setup: Setup, text: str) -> str:
    return match_player(text, setup.players, setup.me)


def _deck(setup: Setup) -> dict:
    return bound_deck(setup.values, setup.cards_per_player, len(setup.players))


def question_id(setup: Setup, text: str) -> str:
    """The deck question ``text`` stands for: its id (``count-6``, ``count 6``) or words of
    its text (``highest stack``), any unique prefix of any word.

    Raises:
        SessionFormatError: unknown or ambiguous (naming the words and the candidate ids).
    """
    deck = _deck(setup)
    key = _norm(text)
    alias = question_aliases().get(key)             # "summe", "somme": the id in the player's words
    if alias in deck:
        return alias
    for qid in deck:
        if _norm(qid) == key:
            return qid
    found = []
    for qid, q in deck.items():
        local = question_text(q.spec.text, setup.values)     # the translated text too
        if candidates(text, [qid, q.spec.display_text(setup.values), local]):
            found.append(qid)
    if len(found) == 1:
        return found[0]
    if not found:
        raise SessionFormatError(TEXT_PATH, _("unknown question {text}; expected one of {ids}").format(
            text=repr(text.strip()), ids=_list(list(deck))))
    raise SessionFormatError(TEXT_PATH, _("ambiguous question {text}: {ids}").format(
        text=repr(text.strip()), ids=_list(found)))


def _stack(setup: Setup, text: str, what: str) -> list[int]:
    ok = re.fullmatch(r"[0-9\s,]*", text) is not None
    digits = [int(c) for c in re.sub(r"[\s,]", "", text)] if ok else []
    if not ok or len(digits) != setup.cards_per_player:
        raise SessionFormatError(TEXT_PATH, _("{what}: expected {n} card values 1..{values} (like {example}), "
                                              "got {text}").format(
            what=what, n=setup.cards_per_player, values=setup.values, example="1" * setup.cards_per_player,
            text=repr(text.strip())))
    return digits


def parse(setup: Setup, events: Sequence, text: str):
    """The event a typed line stands for (the grammar in the module docstring).

    Returns:
        an :class:`~engines.egghead.model.Answer`, ``Reactions`` or ``Solve`` exactly as
        :func:`~engines.egghead.model.event_from_json` builds it.
    Raises:
        SessionFormatError: the line does not follow the grammar; an unknown or ambiguous
            player or question (named, with the candidates); an answer no world can give.
    """
    t = check_length(text)
    low = t.casefold()
    words = t.split()
    reactions, nobody = REACTIONS + quick_words("reactions"), NOBODY + quick_words("nobody")
    solves, new_words = SOLVES + quick_words("solves"), quick_words("new")
    if words[0].casefold() in reactions or re.fullmatch(r"(nobody|none|no one) solved", low):
        rest = t.split(None, 1)[1] if len(words) > 1 else ""
        rest = rest.lstrip(":").strip()
        if words[0].casefold() not in reactions or rest.casefold() in nobody + ("",):
            solved: list = []
        else:
            solved = [_player(setup, p) for p in re.split(r"[,\s]+", rest) if p]
        return event_from_json({"type": "reactions", "solved": solved}, setup, TEXT_PATH)
    for i, w in enumerate(words[1:], 1):
        if w.casefold() in solves:
            player = _player(setup, " ".join(words[:i]))
            rest = " ".join(words[i + 1:])
            extra = "".join(rf"|\b{re.escape(x)}\b" for x in new_words)
            parts = re.split(rf"\s*(?:->|=>|\bnew\b|\bthen\b|\bdealt\b{extra})\s*", rest, maxsplit=1)
            cards = _stack(setup, parts[0], _("the cards called")) if parts[0].strip() else None
            new = _stack(setup, parts[1], _("the new cards")) if len(parts) > 1 and parts[1].strip() \
                else None
            return event_from_json({"type": "solve", "player": player, "cards": cards,
                                    "new_cards": new}, setup, TEXT_PATH)
    moderator = None
    body = t
    if ":" in t:
        head, after = t.split(":", 1)
        if head.strip().casefold() in ("moderator", "mod"):
            body = after
        elif not re.fullmatch(r"\s*[0-9]+\s*", after) or setup.moderator == "rotating":
            moderator = _player(setup, head)
            body = after
    m = re.fullmatch(r"\s*(.*?)\s*[=?:]?\s*([0-9]{1,4})\s*", body)
    if not m or not m.group(1):
        raise SessionFormatError(TEXT_PATH, _("expected “sum = 14” (question and answer), "
                                              "“reactions: B”, or “B solves 456 -> 112”"))
    qid = question_id(setup, m.group(1).rstrip("=?: "))
    if setup.moderator == "rotating" and moderator is None:
        raise SessionFormatError(TEXT_PATH, _("with a rotating moderator say who answered: "
                                              "“B: sum = 11”"))
    if setup.moderator == "external" and moderator is not None:
        raise SessionFormatError(TEXT_PATH, _("the moderator is external in this game; write “{line}”").format(
            line=f"{m.group(1).rstrip('=?: ')} = {m.group(2)}"))
    return event_from_json({"type": "answer", "question": qid, "answer": int(m.group(2)),
                            "moderator": moderator}, setup, TEXT_PATH)


def _digits(stack) -> str:
    return "".join(str(c) for c in stack)


def format_event(setup: Setup, event) -> str:
    """The canonical quick-entry line of ``event`` (``parse`` reads it back to ``event``)."""
    if isinstance(event, Answer):
        return (f"{event.moderator}: " if event.moderator else "") + \
            f"{event.question} = {event.answer}"
    if isinstance(event, Reactions):
        return "reactions: " + (", ".join(event.solved) if event.solved else "none")
    if isinstance(event, Solve):
        s = f"{event.player} solves"
        if event.cards is not None:
            s += f" {_digits(event.cards)}"
        if event.new_cards is not None:
            s += f" -> {_digits(event.new_cards)}"
        return s
    raise SessionFormatError("event", f"not an Egghead event: {type(event).__name__}")


def preview(setup: Setup, events: Sequence, text: str) -> str:
    """The typed line's event in words (:func:`describe_event`). Raises like :func:`parse`."""
    return describe_event(setup, parse(setup, events, text))


def complete(setup: Setup, events: Sequence, text: str) -> list[str]:
    """Completions of the last word of ``text`` (whole lines): question ids, player names and
    the keywords ``reactions``/``solves``; after ``question =`` the answers the question can
    have with the cards I see (:func:`seen_answers`, no inference; :func:`possible_answers` is
    the exact list given the log, and runs the engine); after ``B solves`` the stack I see B
    hold."""
    deck = list(_deck(setup))
    words = text.split()
    low = [w.casefold() for w in words]
    if low and low[0] in REACTIONS:
        return complete_word(text, list(setup.players) + ["none"])
    for i, w in enumerate(low[1:], 1):
        if w in SOLVES:  # offer the stack I see the solver hold
            try:
                who = _player(setup, " ".join(words[:i]))
            except SessionFormatError:
                return []
            seen = setup.visible_dict().get(who)
            if seen is None or len(words) > i + 1 or not text.endswith(" "):
                return []
            return [text + _digits(seen) + " -> "]
    m = re.fullmatch(r"(?:([^:=?]*):)?(.*?)\s*[=?:]\s*([0-9]*)", text)
    if m:  # after "question =": the answers some world can give (without the log: cheap)
        try:
            qid = question_id(setup, m.group(2))
        except SessionFormatError:
            qid = None
        if qid is not None:
            mod = None
            if m.group(1) and setup.moderator == "rotating":
                try:
                    mod = _player(setup, m.group(1))
                except SessionFormatError:
                    return []
            head = text[:m.start(3)]
            return [head + str(a) for a in seen_answers(setup, events, qid, mod)
                    if str(a).startswith(m.group(3)) and str(a) != m.group(3)][:60]
    return complete_word(text, deck + list(setup.players) + ["reactions:", "solves"])


def seen_answers(setup: Setup, events: Sequence, question: str,
                 moderator: Optional[str] = None) -> list[int]:
    """The answers ``question`` can get with the stacks I see now (the setup's, replaced by the
    new cards of the players who solved) and any stack of mine: no inference, microseconds; a
    superset of :func:`possible_answers`, which also uses what the log says about my stack.

    Raises:
        SessionFormatError: unknown question.
    """
    deck = _deck(setup)
    if question not in deck:
        raise SessionFormatError("question", f"unknown question {question!r}")
    visible = visible_after(setup, events)
    sp = stack_space(setup.values, setup.cards_per_player)
    q = deck[question]
    seen = [sp.index(st) for p, st in visible.items() if p != moderator]
    if moderator == setup.me:
        return [q.answer(seen)]
    return sorted({q.answer(seen + [mine]) for mine in range(sp.size)})


def possible_answers(setup: Setup, events: Sequence, question: str,
                     moderator: Optional[str] = None, *, cancel=None) -> list[int]:
    """The answers ``question`` can get in some world consistent with the log and the cards
    I see: the moderator's answer over every stack I may still hold (my valid stacks from
    the exact engine, :func:`engines.egghead.inference.infer`; with behavioural analysis when
    the setup says I use it) with the other stacks as I see them now.

    Args:
        setup, events: the game and its log (consistent).
        question: a deck question id.
        moderator: the answering player (rotating moderator) or None (external). When I am
            the moderator the answer is about the stacks I see: one answer.
    Returns:
        ascending ints, never empty for a consistent log; one element when the answer is forced.
    Raises:
        SessionFormatError: unknown question or moderator.
        ContradictionError: the log itself is impossible.
    Cost: one ``infer`` of the log (cached per prefix; the tab has it already) plus one answer
    per valid stack.
    """
    from engines.egghead.inference import infer

    deck = _deck(setup)
    if question not in deck:
        raise SessionFormatError("question", f"unknown question {question!r}")
    if moderator is not None and moderator not in setup.players:
        raise SessionFormatError("moderator", f"unknown player {moderator!r}")
    q = deck[question]
    sp = stack_space(setup.values, setup.cards_per_player)
    post = infer(setup, list(events), cancel=cancel)
    seen = [sp.index(s) for p, s in post.visible.items() if p != moderator and p != setup.me]
    if moderator == setup.me:
        return [q.answer(seen)]
    return sorted({q.answer(seen + [sp.index(mine)]) for mine in post.my_valids})


def forced_answer(setup: Setup, events: Sequence, question: str,
                  moderator: Optional[str] = None) -> Optional[int]:
    """The one answer ``question`` can get given the log and the cards I see, or None when
    several are possible (:func:`possible_answers`)."""
    a = possible_answers(setup, events, question, moderator)
    return a[0] if len(a) == 1 else None


def _runs(values: Sequence[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1–3, 5"``."""
    out, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(str(start) if start == v else f"{start}–{v}")
            start = None
    return ", ".join(out)


def contradiction(setup: Setup, events: Sequence, event, *, cancel=None) -> Optional[str]:
    """Why ``event`` cannot follow ``events``, or None. An answer outside
    :func:`possible_answers` is refused with the possible ones ("with the cards you see, sum
    can only be 14–17"); reactions and solves run the exact inference on log + event (the
    master table, cached per prefix).

    Raises:
        Cancelled: ``cancel()`` became true (it is polled by the engine's long loops).
        SessionFormatError: ``event`` is not an event of this setup.
    """
    from engines.egghead.inference import infer

    try:
        infer(setup, list(events), cancel=cancel)
    except ContradictionError:
        return _("the log is already impossible")
    if isinstance(event, Answer):
        ok = possible_answers(setup, events, event.question, event.moderator, cancel=cancel)
        if event.answer not in ok:
            return _("with the cards you see, {question} can only be answered {answers}").format(
                question=event.question, answers=_runs(ok))
        return None
    try:
        infer(setup, list(events) + [event], cancel=cancel)
    except ContradictionError as exc:
        return exc.message
    return None

"""Name matching for the quick-entry grammars: a name is typed as any unique prefix of any of
its words, case-insensitively (``plum`` → Professor Plum, ``mus`` → Colonel Mustard).

Rules of :func:`match_name`, in order:

1. A typed text equal to a whole name (ignoring case, and ``_``/``-`` read as spaces) wins.
2. Otherwise a name is a candidate when every typed word is the prefix of a different word of
   the name (``rev gr`` → Reverend Green; ``rev`` → Reverend Green *and* Revolver); a typed
   plural matches the singular word (``brown eyes`` → brown eye colour).
3. One candidate: it is the match. Several: a candidate whose words the typed words equal
   whole (``white`` → Mrs White rather than ``Whiteboard``) wins when it is the only such one;
   else the text is ambiguous. None: unknown.

Errors are :class:`~engines.core.errors.SessionFormatError` with a message that names the typed
word and the candidates, e.g. ``ambiguous card 'rev': Reverend Green, Revolver``.

:func:`split_names` cuts a run of words into consecutive names (``madame zsa zsa fat`` →
Madame Zsa Zsa, fat) when no commas separate them.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable, Optional, Sequence

from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _

#: The kinds of name the games pass as ``what`` (``"card"``, ``"player"``), marked for
#: translation: a message names the kind in the language in effect (:func:`kind_word`).
KIND_WORDS = (N_("name"), N_("card"), N_("player"), N_("character"), N_("location"),
              N_("question"), N_("room"), N_("suspect"), N_("weapon"), N_("opponent"),
              N_("identity"), N_("edition"), N_("event type"))
#: Their plurals, for "cannot read … as 3 cards".
KIND_PLURALS = {"name": N_("names"), "card": N_("cards"), "player": N_("players"),
                "character": N_("characters"), "location": N_("locations")}


def kind_word(what: str) -> str:
    """The kind of name ``what`` (``"card"``) in the language in effect (``"Karte"``); a kind
    without a translation stays as it is."""
    return _(what) if what else what


def kind_plural(what: str) -> str:
    """The plural of :func:`kind_word` (``"cards"``; English ``what + "s"`` where none is known)."""
    return _(KIND_PLURALS[what]) if what in KIND_PLURALS else f"{what}s"

#: JSON path used by the quick-entry errors (the typed line is not a JSON field).
TEXT_PATH = "$.text"
#: Longest typed line accepted (characters); a longer one is refused before it is tokenised.
MAX_TEXT = 2000
#: Most words :func:`split_names` cuts into names (the search is bounded by this).
MAX_WORDS = 40

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(name: str) -> list[str]:
    """The lowercase words of ``name`` (letters and digits; ``_``, ``-``, spaces separate), read
    in Unicode normalization form NFC, so "José" typed with a combining accent (NFD) has the
    same words as "José" in NFC."""
    return _WORD.findall(unicodedata.normalize("NFC", name).casefold())


def _norm(text: str) -> str:
    return " ".join(words(text))


def name_matches(typed: Sequence[str], name: str) -> bool:
    """Whether every typed word (lowercase) is the prefix of a different word of ``name``
    (a plural also matches its singular word: ``eyes`` matches "eye colour")."""
    nw = words(name)
    used = [False] * len(nw)

    def place(i: int) -> bool:  # bipartite matching by backtracking (names have few words)
        if i == len(typed):
            return True
        for j, w in enumerate(nw):
            t = typed[i]
            if not used[j] and (w.startswith(t) or len(t) > 3 and t.endswith("s") and w == t[:-1]):
                used[j] = True
                if place(i + 1):
                    return True
                used[j] = False
        return False

    return bool(typed) and place(0)


def candidates(text: str, names: Iterable[str]) -> list[str]:
    """The names ``text`` may stand for (rules 1–3 of the module docstring, without raising):
    one name when it is a match, several when ambiguous, none when unknown."""
    names = list(dict.fromkeys(names))
    key = _norm(text)
    if not key:
        return []
    exact = [n for n in names if _norm(n) == key]
    if exact:
        return exact[:1]
    typed = key.split()
    found = [n for n in names if name_matches(typed, n)]
    if len(found) > 1:
        whole = [n for n in found if set(typed) <= set(words(n))]
        if len(whole) == 1:
            return whole
    return found


def match_name(text: str, names: Iterable[str], what: str = "name",
               path: str = TEXT_PATH) -> str:
    """The one name of ``names`` that ``text`` stands for.

    Args:
        text: what was typed (one or more words).
        names: the names allowed here (e.g. the weapons), in display order.
        what: the kind of name for the message (``"card"``, ``"player"``).
        path: the JSON path of the error.
    Returns:
        the name exactly as spelt in ``names``.
    Raises:
        SessionFormatError: ``text`` matches no name (``unknown card 'zz'; expected one of …``)
            or several (``ambiguous card 'rev': Reverend Green, Revolver``).
    """
    names = list(dict.fromkeys(names))
    found = candidates(text, names)
    if len(found) == 1:
        return found[0]
    shown = text.strip()
    if not found:
        raise SessionFormatError(path, _("unknown {what} {name}; expected one of {names}").format(
            what=kind_word(what), name=repr(shown), names=_list(names)))
    raise SessionFormatError(path, _("ambiguous {what} {name}: {names}").format(
        what=kind_word(what), name=repr(shown), names=_list(found)))


def _list(items: Sequence[str], n: int = 12) -> str:
    items = list(items)
    return ", ".join(items[:n]) + (", …" if len(items) > n else "")


def split_names(tokens: Sequence[str], matchers: Sequence[Callable[[str], list[str]]] | Callable,  # noqa: C901 (the cases of quick entry's name splitting)
                count: Optional[int] = None, *, distinct: bool = True,
                max_name_words: int = 4, vocabulary: Sequence[str] = (),
                what: str = "name") -> list[tuple[str, str]]:
    """Cut ``tokens`` (words without commas) into consecutive groups, each one name.

    Args:
        tokens: the typed words, in order (at most :data:`MAX_WORDS`).
        matchers: one function per group (``text -> candidates``, e.g. a partial of
            :func:`candidates`), or a single function used for every group.
        count: the number of groups (required when ``matchers`` is a list: its length).
        distinct: the groups must name different names.
        max_name_words: the most words one group may have.
        vocabulary, what: the names allowed and their kind, for the message of an unknown word.
    Returns:
        ``[(typed_text, name), ...]`` of the segmentation with the fewest groups in which every
        group has exactly one candidate.
    Raises:
        SessionFormatError: too many words; no segmentation (naming the first word that cannot
            start a name, with its candidates when it is ambiguous); or two segmentations with
            the fewest groups that name different things (ambiguous).
    """
    tokens = list(tokens)
    if len(tokens) > MAX_WORDS:
        raise SessionFormatError(TEXT_PATH, _("too many words ({n}; at most {limit})").format(
            n=len(tokens), limit=MAX_WORDS))
    if callable(matchers):
        per = lambda i: matchers  # noqa: E731 (a one-line key function)
    else:
        count = len(matchers)
        per = lambda i: matchers[i]  # noqa: E731 (a one-line key function)
    best: list[list[tuple[str, str]]] = []
    best_len = [10 ** 9]
    furthest = [0, None]  # furthest token index reached, and the reason it stopped there

    def go(pos: int, acc: list):
        if pos == len(tokens):
            if count is not None and len(acc) != count:
                return
            if len(acc) < best_len[0]:
                best_len[0] = len(acc)
                best.clear()
            if len(acc) == best_len[0] and len(best) < 2:
                best.append(list(acc))
            return
        if count is not None and len(acc) >= count:
            return
        if len(acc) >= best_len[0] or len(best) >= 2 and len(acc) + 1 > best_len[0]:
            return
        m = per(len(acc))
        for end in range(pos + 1, min(len(tokens), pos + max_name_words) + 1):
            text = " ".join(tokens[pos:end])
            found = m(text)
            if len(found) != 1:
                if pos >= furthest[0] and end == pos + 1:
                    furthest[0], furthest[1] = pos, (text, found)
                continue
            if distinct and any(found[0] == n for _, n in acc):
                if pos >= furthest[0] and end == pos + 1:
                    furthest[0], furthest[1] = pos, (text, found)
                continue
            acc.append((text, found[0]))
            go(end, acc)
            acc.pop()

    go(0, [])
    if not best:
        if not tokens:
            raise SessionFormatError(TEXT_PATH, _("names are missing"))
        typed = " ".join(tokens)
        if count is not None and furthest[1] is None:
            raise SessionFormatError(TEXT_PATH, _("expected {count} names, got “{text}”").format(
                count=count, text=typed))
        text, found = furthest[1] if furthest[1] else (tokens[0], [])
        if len(found) > 1:
            raise SessionFormatError(TEXT_PATH, _("ambiguous {what} {name}: {names}").format(
                what=kind_word(what), name=repr(text), names=_list(found)))
        if found:
            if count:
                words = _("cannot read “{text}” as {count} {kinds} ({word} is {name} again)")
            else:
                words = _("cannot read “{text}” as different {kinds} ({word} is {name} again)")
            raise SessionFormatError(TEXT_PATH, words.format(
                text=typed, count=count, kinds=kind_plural(what), word=repr(text), name=found[0]))
        if vocabulary:
            raise SessionFormatError(TEXT_PATH, _("unknown {what} {name}; expected one of {names}")
                                     .format(what=kind_word(what), name=repr(text),
                                             names=_list(vocabulary)))
        raise SessionFormatError(TEXT_PATH, _("unknown {what} {name}").format(
            what=kind_word(what), name=repr(text)))
    if len(best) > 1 and [n for _, n in best[0]] != [n for _, n in best[1]]:
        a = ", ".join(n for _, n in best[0])
        b = ", ".join(n for _, n in best[1])
        raise SessionFormatError(TEXT_PATH, _("ambiguous: “{text}” reads as {first} or as {second}; "
                                              "separate the names with commas").format(
            text=" ".join(tokens), first=a, second=b))
    return best[0]


def complete_word(text: str, names: Iterable[str], limit: int = 20) -> list[str]:
    """Completions of the last word of ``text``: ``text`` with its last word replaced by every
    word of a name in ``names`` that it is a prefix of (case-insensitive), deduplicated,
    in the order of ``names``. An empty last word (``text`` ends with a space) offers the
    first word of every name."""
    m = re.search(r"[^\s,;:=?]*$", text)
    start = m.start() if m else len(text)
    stem = text[start:].casefold()
    head = text[:start]
    out: list[str] = []
    for n in names:
        ws = n.split() if stem else n.split()[:1]
        for w in ws:
            if w.casefold().startswith(stem) and w.casefold() != stem:
                cand = head + w
                if cand not in out:
                    out.append(cand)
        if len(out) >= limit:
            break
    return out


def check_length(text: str) -> str:
    """``text`` stripped; raises SessionFormatError when it is empty or over :data:`MAX_TEXT`."""
    if not isinstance(text, str):
        raise SessionFormatError(TEXT_PATH, _("expected a line of text"))
    if len(text) > MAX_TEXT:
        raise SessionFormatError(TEXT_PATH, _("the line is too long ({n} characters; at most "
                                              "{limit})").format(n=len(text), limit=MAX_TEXT))
    t = text.strip()
    if not t:
        raise SessionFormatError(TEXT_PATH, _("the line is empty"))
    return t


#: Words that stand for the player using the app.
ME_WORDS = ("me", "i", "my", "myself")


def match_player(text: str, players: Sequence[str], me: Optional[str], what: str = "player") -> str:
    """The player ``text`` stands for: a whole name (any case) first, then ``me``/``I`` for
    ``me`` (the player using the app, when there is one), then :func:`match_name`.

    Raises:
        SessionFormatError: unknown or ambiguous name (naming the word and the candidates).
    """
    key = _norm(text)
    for p in players:
        if _norm(p) == key:
            return p
    if me is not None and key in ME_WORDS:
        return me
    return match_name(text, players, what)

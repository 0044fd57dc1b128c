"""Guess Who? boards and questions.

A :class:`Board` is a list of characters, each with a value for every attribute. An attribute
is either *yes/no* (``glasses``) or *categorical* (``hair_colour`` in {black, brown, ...}).
A :class:`Question` is a disjunction of one or more atoms ``(attribute, value)``: a single
atom is an ordinary question ("glasses?", "red hair?"); two or more make a compound question
("glasses or a hat?") that the house rules may allow. The pseudo-attribute ``"name"`` asks
about one character ("is it Alex?").

Boards are read from JSON (the bundled ``classic`` and ``demo`` boards in
``resources/guesswho/``, or a user's file) or from CSV/TSV (a ``name`` column, one column per
attribute, optional ``image`` and ``note``/``disputed`` columns). Everything bad raises
:class:`~engines.core.errors.SessionFormatError` naming the field.
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Optional, Union

import numpy as np

from engines.core.errors import SessionFormatError
from engines.core.i18n import _
from engines.core.resources import resource_path
from engines.core.schema import Reader, check_distinct_names, check_name, unknown_key_error

#: Bundled boards: name -> file under ``resources/guesswho/``.
BUNDLED_BOARDS: dict[str, str] = {"classic": "classic.json", "demo": "demo.json"}
BOARD_FORMAT = "deduction-desk.guesswho-board"
NAME_ATTRIBUTE = "name"
YES_NO = "yes/no"
CATEGORY = "category"
_TRUE = {"yes", "y", "true", "1", "x"}
_FALSE = {"no", "n", "false", "0"}   # "" is no answer (a blank CSV cell: see board_from_csv)


@dataclass(frozen=True)
class Attribute:
    """One attribute of a board: ``kind`` is ``"yes/no"`` or ``"category"``; ``values`` lists
    the categories (``(True, False)`` for yes/no)."""

    name: str
    kind: str
    values: tuple

    def to_json(self) -> dict:
        if self.kind == YES_NO:
            return {"name": self.name, "type": YES_NO}
        return {"name": self.name, "type": CATEGORY, "values": list(self.values)}


@dataclass(frozen=True)
class Character:
    """One character card: ``values[attribute] -> bool | str``, optional ``image`` path and
    ``note`` (e.g. the disputed cells of a transcription)."""

    name: str
    values: tuple  # tuple of (attribute name, value) in board attribute order
    image: Optional[str] = None
    note: Optional[str] = None

    def value(self, attribute: str):
        for k, v in self.values:
            if k == attribute:
                return v
        raise KeyError(attribute)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "attributes": dict(self.values)}
        if self.image:
            from engines.core.schema import file_ref

            # relative to the session file being written; a picture outside its folder keeps
            # its absolute path (a session opened elsewhere then shows the card's attributes)
            out["image"] = file_ref(self.image) or self.image
        if self.note:
            out["disputed"] = self.note
        return out


def join_or(parts) -> str:
    """``parts`` joined as alternatives ("glasses or hat or bald"), in the language in effect."""
    text = parts[0]
    for part in parts[1:]:
        text = _("{first} or {second}").format(first=text, second=part)
    return text


@dataclass(frozen=True)
class Question:
    """A yes/no question: true for a character when any of its ``atoms`` holds.

    ``atoms`` is a tuple of ``(attribute, value)`` pairs (value ``True`` for a yes/no attribute,
    a category for a categorical one, a character name for ``"name"``). The event form is
    ``{"attribute": a, "value": v}`` for one atom and ``{"any": [atom, atom, ...]}`` for more.
    """

    atoms: tuple

    @property
    def compound(self) -> bool:
        return len(self.atoms) > 1

    def to_json(self) -> dict:
        forms = [{"attribute": a, "value": v} for a, v in self.atoms]
        return forms[0] if len(forms) == 1 else {"any": forms}

    def label(self) -> str:
        """The question in words ("glasses?", "hair colour: ginger?", "glasses or hat?"), in the
        language in effect (:mod:`engines.guesswho.words`; English on the command line)."""
        from engines.guesswho.words import attribute_words, value_words

        parts = []
        for a, v in self.atoms:
            if a == NAME_ATTRIBUTE:
                parts.append(_("is it {name}").format(name=v))
            elif v is True:
                parts.append(attribute_words(a))
            elif v is False:
                parts.append(_("no {attribute}").format(attribute=attribute_words(a)))
            else:
                parts.append(_("{attribute}: {value}").format(attribute=attribute_words(a),
                                                              value=value_words(a, v)))
        return _("{question}?").format(question=join_or(parts))


@dataclass(frozen=True, eq=False)
class Board:
    """A Guess Who? board.

    Attributes:
        name: display name; ``key``: bundled board name (``"classic"``) or ``None``.
        attributes: tuple of :class:`Attribute`; characters: tuple of :class:`Character`.
        note: free text kept with the board (the classic board's disputed-cells note).
        source: the file it was read from, if any.
    """

    name: str
    attributes: tuple
    characters: tuple
    note: Optional[str] = None
    key: Optional[str] = None
    source: Optional[str] = None

    # ----- derived, cached per board object
    @property
    def names(self) -> tuple:
        """Character names, board order (length N)."""
        return tuple(c.name for c in self.characters)

    @property
    def size(self) -> int:
        return len(self.characters)

    def attribute(self, name: str) -> Attribute:
        for a in self.attributes:
            if a.name == name:
                return a
        raise KeyError(name)

    def truth(self, q: Question) -> np.ndarray:
        """Bool array, shape (N,): the true answer of ``q`` for each character."""
        return _truth(self, q.atoms)

    def mask(self, q: Question) -> int:
        """Bitmask (bit i = character i) of the characters for which ``q`` is true."""
        return _mask(self, q.atoms)

    def atoms(self) -> tuple:
        """Every single-attribute question, one per distinct split of the full board: yes/no
        attributes ask "yes?", categorical attributes ask each value (a two-valued category
        asks only its first value). Questions true for all or no characters are dropped."""
        return _atoms(self)

    def questions(self, compound: bool = False) -> tuple:
        """The questions a player may ask, one per distinct split of the full board.

        Args:
            compound: also the disjunctions of two atoms ("glasses or a hat?") when the house
                rules allow them.
        Returns:
            tuple of :class:`Question` (atoms first, then compound ones).
        """
        return _questions(self, compound)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"format": BOARD_FORMAT, "name": self.name}
        if self.note:
            out["note"] = self.note
        out["attributes"] = [a.to_json() for a in self.attributes]
        out["characters"] = [c.to_json() for c in self.characters]
        return out

    def __hash__(self):
        return id(self)


@lru_cache(maxsize=65536)
def _atom_truth(board: Board, a: str, v) -> np.ndarray:
    """One atom ``attribute = value``: bool array (N,), read once per board and atom."""
    if a == NAME_ATTRIBUTE:
        out = np.array([c.name == v for c in board.characters], dtype=bool)
    else:
        out = np.array([c.value(a) == v for c in board.characters], dtype=bool)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=65536)
def _atom_mask(board: Board, a: str, v) -> int:
    return sum(1 << i for i in np.flatnonzero(_atom_truth(board, a, v)).tolist())


@lru_cache(maxsize=4096)
def _truth(board: Board, atoms: tuple) -> np.ndarray:
    if len(atoms) == 1:
        return _atom_truth(board, *atoms[0])
    out = np.zeros(board.size, dtype=bool)
    for a, v in atoms:
        out |= _atom_truth(board, a, v)
    out.setflags(write=False)
    return out


def _mask(board: Board, atoms: tuple) -> int:
    # a disjunction's mask is the OR of its atoms' (compound questions: thousands of pairs)
    m = 0
    for a, v in atoms:
        m |= _atom_mask(board, a, v)
    return m


@lru_cache(maxsize=64)
def _atoms(board: Board) -> tuple:
    full = (1 << board.size) - 1
    seen: set[int] = set()
    out = []
    for a in board.attributes:
        vals = (True,) if a.kind == YES_NO else (a.values[:1] if len(a.values) == 2 else a.values)
        for v in vals:
            q = Question(((a.name, v),))
            m = _mask(board, q.atoms)
            key = min(m, full ^ m)
            if m in (0, full) or key in seen:
                continue
            seen.add(key)
            out.append(q)
    return tuple(out)


@lru_cache(maxsize=64)
def _questions(board: Board, compound: bool) -> tuple:
    atoms = _atoms(board)
    if not compound:
        return atoms
    full = (1 << board.size) - 1
    seen = {min(_mask(board, q.atoms), full ^ _mask(board, q.atoms)) for q in atoms}
    # Also every value of every category (a two-valued category's second value is a complement)
    singles = []
    for a in board.attributes:
        vals = (True,) if a.kind == YES_NO else a.values
        singles.extend((a.name, v) for v in vals)
    out = list(atoms)
    for x, y in combinations(singles, 2):
        if x[0] == y[0] and board.attribute(x[0]).kind == YES_NO:
            continue
        q = Question((x, y))
        m = _mask(board, q.atoms)
        key = min(m, full ^ m)
        if m in (0, full) or key in seen:
            continue
        seen.add(key)
        out.append(q)
    return tuple(out)


# ----------------------------------------------------------------------------- reading

def _parse_bool(v: Any) -> Optional[bool]:
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
        return v.strip().lower() in _TRUE
    return None


#: Board limits: the classic board has 24 characters and 15 attributes. The race's exact win
#: probabilities (:func:`engines.guesswho.optimal.race_win_probability`, rational arithmetic)
#: take O(characters^2 x opponent count): 48 characters 1.4 s, 64 characters 2.6 s, 100
#: characters 11 s per inference (measured); 994 one-valued characters overflowed the optimal
#: solver's recursion and 20,000 ran for minutes.
MAX_CHARACTERS = 64
MAX_ATTRIBUTES = 64
MAX_VALUES = 100
#: A board file (CSV or JSON) is a few kilobytes; a picture a few hundred.
MAX_BOARD_FILE_BYTES = 4 << 20
MAX_IMAGE_BYTES = 16 << 20


def _image_path(image: str, source: Optional[str], path: str) -> Optional[str]:
    """The picture's absolute path when it lies inside the allowed folders
    (:func:`engines.core.schema.allowed_file`) and, if it exists, is a regular file under
    :data:`MAX_IMAGE_BYTES`; None (no picture: the card shows its attributes) otherwise."""
    import stat

    from engines.core.schema import allowed_file

    if source and not os.path.isabs(image):
        image = os.path.join(os.path.dirname(source), image)
    try:
        full = os.path.normpath(allowed_file(image, path))
    except (SessionFormatError, ValueError):
        return None
    try:
        st = os.stat(full)
    except (OSError, ValueError):
        return full      # not there (yet): the card shows its attributes until it is
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_IMAGE_BYTES:
        return None
    return full


def board_from_json(obj: Any, path: str = "$.board", *, key: Optional[str] = None,  # noqa: C901 (one check per board field, in the schema's order)
                    source: Optional[str] = None) -> Board:
    """Build a :class:`Board` from its JSON form.

    ``{"name"?, "note"?, "attributes": [name | {"name", "type": "yes/no"|"category",
    "values"?}], "characters": [{"name", "attributes": {attr: value}, "image"?, "disputed"?}]}``.
    An attribute given only by name gets its type from the characters' values (all yes/no ->
    yes/no, else category).

    Raises:
        SessionFormatError: the JSON path and what is wrong (duplicate names, a missing or
            unknown attribute value, fewer than 2 characters, ...).
    """
    r = Reader(obj, path)
    if r.has("format"):   # a board file's own mark (Board.to_json writes it), kept when inlined
        r.choice("format", [BOARD_FORMAT], what="board format")
    raw_attrs = r.list("attributes", min_len=1, max_len=MAX_ATTRIBUTES)
    raw_chars = r.list("characters", min_len=2, max_len=MAX_CHARACTERS)
    chars_r = []
    names: set[str] = set()
    for i, c in enumerate(raw_chars):
        cr = Reader(c, f"{path}.characters[{i}]")
        n = cr.str("name").strip()
        check_name(n, cr.sub("name"))
        if n in names:
            raise cr.error("name", f"character {n!r} appears twice")
        names.add(n)
        chars_r.append((cr, n, cr.dict("attributes")))
    check_distinct_names([n for _, n, _ in chars_r], [f"{cr.path}.name" for cr, _, _ in chars_r])
    attrs = []
    anames: set[str] = set()
    attr_paths: list = []
    for i, a in enumerate(raw_attrs):
        p = f"{path}.attributes[{i}]"
        if isinstance(a, str):
            aname, kind, values = check_name(a.strip(), p), None, None
            if not aname:
                raise SessionFormatError(p, "attribute name must not be empty")
        else:
            ar = Reader(a, p)
            aname = ar.str("name").strip()
            check_name(aname, ar.sub("name"))
            kind = ar.choice("type", [YES_NO, CATEGORY], None, what="attribute type")
            values = ar.list("values", None, max_len=MAX_VALUES) if ar.has("values") else None
        if aname == NAME_ATTRIBUTE:
            raise SessionFormatError(p, "'name' is reserved for the characters' names")
        if aname in anames:
            raise SessionFormatError(p, f"attribute {aname!r} appears twice")
        anames.add(aname)
        attr_paths.append((aname, p))
        check_distinct_names([a for a, _ in attr_paths], [q for _, q in attr_paths])
        raw_vals = []
        for cr, n, d in chars_r:
            if aname not in d or d[aname] is None:
                raise SessionFormatError(f"{cr.path}.attributes", f"{n} has no value for "
                                                                   f"attribute {aname!r}")
            raw_vals.append(d[aname])
        if kind is None:
            kind = YES_NO if all(_parse_bool(v) is not None for v in raw_vals) else CATEGORY
        if kind == YES_NO:
            attrs.append(Attribute(aname, YES_NO, (True, False)))
        else:
            if values is None:
                seen = []
                for v in raw_vals:
                    sv = str(v).strip() if not isinstance(v, bool) else ("yes" if v else "no")
                    if sv not in seen:
                        seen.append(sv)
                values = seen
            vals = []
            for j, v in enumerate(values):
                if not isinstance(v, str) or not v.strip():
                    raise SessionFormatError(f"{p}.values[{j}]", "expected a category name")
                if v in vals:
                    raise SessionFormatError(f"{p}.values[{j}]", f"value {v!r} appears twice")
                vals.append(v)
            if len(vals) < 2:
                raise SessionFormatError(p, f"attribute {aname!r} needs at least 2 values")
            attrs.append(Attribute(aname, CATEGORY, tuple(vals)))
    characters = []
    for cr, n, d in chars_r:
        for k in d:
            if k not in anames:
                raise SessionFormatError(f"{cr.path}.attributes.{k}", f"unknown attribute {k!r}")
        vals = []
        for a in attrs:
            v = d[a.name]
            if a.kind == YES_NO:
                b = _parse_bool(v)
                if b is None:
                    raise SessionFormatError(f"{cr.path}.attributes.{a.name}",
                                             f"expected yes or no, got {v!r}")
                vals.append((a.name, b))
            else:
                sv = str(v).strip() if not isinstance(v, bool) else ("yes" if v else "no")
                if sv not in a.values:
                    raise SessionFormatError(f"{cr.path}.attributes.{a.name}",
                                             f"unknown value {v!r}; expected one of "
                                             f"{', '.join(a.values)}")
                vals.append((a.name, sv))
        image = cr.opt_str("image") if cr.has("image") else None
        if image:
            image = _image_path(image, source, cr.sub("image"))
        note = cr.opt_str("disputed") if cr.has("disputed") else None
        characters.append(Character(n, tuple(vals), image, note))
    name = r.str("name", key or "Custom board")
    note = r.opt_str("note") if r.has("note") else None
    return Board(name, tuple(attrs), tuple(characters), note, key, source)


def board_from_csv(text: str, source: str = "board.csv") -> Board:
    """Build a :class:`Board` from CSV/TSV text: a header with ``name`` and one column per
    attribute; optional ``image`` and ``note``/``disputed``/``disputed_attributes`` columns.
    Columns whose values are all yes/no (yes, no, true, false, 1, 0) are yes/no attributes;
    other columns are categorical.

    Raises:
        SessionFormatError: path ``"<source>:line N"`` or ``"<source>:column C"``.
    """
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0] if text.strip() else ",",
                                      delimiters=",;\t")
        delim = dialect.delimiter
    except csv.Error:
        delim = ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delim))
    rows = [r for r in rows if any(x.strip() for x in r)]
    if not rows:
        raise SessionFormatError(source, "the file is empty")
    header = [h.strip() for h in rows[0]]
    low = [h.lower() for h in header]
    if "name" not in low:
        raise SessionFormatError(f"{source}:line 1", "the header needs a 'name' column")
    ni = low.index("name")
    special = {"image", "note", "disputed", "disputed_attributes"}
    attr_cols = [i for i, h in enumerate(low) if i != ni and h not in special]
    if not attr_cols:
        raise SessionFormatError(f"{source}:line 1", "the header names no attribute column")
    for i in attr_cols:
        if not header[i]:
            raise SessionFormatError(f"{source}:line 1", f"column {i + 1} has no name")
    # a blank cell in a yes/no column means "no" (spreadsheet convention); elsewhere it stays
    # blank and is refused as a missing value
    yes_no_cols = {i for i in attr_cols
                   if all(_parse_bool(r[i]) is not None for r in rows[1:]
                          if len(r) == len(header) and r[i].strip())}
    chars = []
    for ln, row in enumerate(rows[1:], start=2):
        if len(row) == len(header):
            row = [("no" if (i in yes_no_cols and not c.strip()) else c) for i, c in enumerate(row)]
        if len(row) != len(header):
            raise SessionFormatError(f"{source}:line {ln}",
                                     f"expected {len(header)} fields, got {len(row)}")
        ch: dict[str, Any] = {"name": row[ni].strip(),
                              "attributes": {header[i]: row[i].strip() for i in attr_cols}}
        for i, h in enumerate(low):
            if h == "image" and row[i].strip():
                ch["image"] = row[i].strip()
            elif h in ("note", "disputed", "disputed_attributes") and row[i].strip() not in ("", "-"):
                ch["disputed"] = row[i].strip()
        chars.append(ch)
    obj = {"name": os.path.splitext(os.path.basename(source))[0],
           "attributes": [header[i] for i in attr_cols], "characters": chars}
    return board_from_json(obj, source, source=source)


@lru_cache(maxsize=8)
def _bundled(key: str) -> Board:
    p = resource_path("guesswho", BUNDLED_BOARDS[key])
    with open(p, encoding="utf-8") as fh:
        return board_from_json(json.load(fh), f"resources/guesswho/{BUNDLED_BOARDS[key]}", key=key)


def load_board(name_or_path: Union[str, os.PathLike]) -> Board:
    """Load a bundled board by name (``"classic"``, ``"demo"``) or a user's board file.

    Args:
        name_or_path: a key of :data:`BUNDLED_BOARDS`, or a path to ``.json`` (the board
            format of :func:`board_from_json`, or a whole session file whose setup holds an
            inline board) or ``.csv``/``.tsv``/``.txt`` (see :func:`board_from_csv`).
    Returns:
        :class:`Board` (bundled boards are cached and shared).
    Raises:
        SessionFormatError: unknown name, unreadable file, bad JSON or CSV, bad board.
    """
    s = os.fspath(name_or_path)
    if s in BUNDLED_BOARDS:
        return _bundled(s)
    from engines.core.schema import allowed_file, excerpt, read_bounded

    s = allowed_file(s, "$.board")
    if not os.path.exists(s):
        raise SessionFormatError("$.board", f"unknown board {excerpt(s, 80)}: not a bundled "
                                            f"board ({', '.join(BUNDLED_BOARDS)}) nor an "
                                            f"existing file")
    try:
        data = read_bounded(s, MAX_BOARD_FILE_BYTES, "$", "a board file").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SessionFormatError("$", "the board file is not UTF-8 text", s) from None
    if s.lower().endswith(".json") or data.lstrip().startswith("{"):
        from engines.core.schema import loads_json

        obj = loads_json(data.encode("utf-8"), s)
        try:
            if isinstance(obj, dict) and "setup" in obj and isinstance(obj["setup"], dict) \
                    and isinstance(obj["setup"].get("board"), dict):
                return board_from_json(obj["setup"]["board"], "$.setup.board", source=s)
            return board_from_json(obj, "$", source=s)
        except SessionFormatError as exc:
            raise exc.with_file(s) from None
    return board_from_csv(data, s)


def parse_question(obj: Any, board: Board, path: str) -> Question:
    """Validate a question in event form against ``board``.

    ``{"attribute": a, "value": v}`` (v: true/false for yes/no attributes — false asks "no
    a?" —, a category, or a character name for ``"name"``), or ``{"any": [q, ...]}``.

    Raises:
        SessionFormatError: unknown attribute or value, empty ``any``.
    """
    r = Reader(obj, path)
    known = ("any",) if "any" in obj else ("attribute", "value")
    extra = next((k for k in obj if k not in known), None)
    if extra is not None:
        raise unknown_key_error(path, extra, known, "a question")
    if "any" in obj:
        items = r.list("any", min_len=1)
        atoms = []
        for i, it in enumerate(items):
            sub = parse_question(it, board, f"{path}.any[{i}]")
            atoms.extend(a for a in sub.atoms if a not in atoms)
        return Question(tuple(atoms))
    a = r.str("attribute")
    v = r.raw("value")
    if a == NAME_ATTRIBUTE:
        if v not in board.names:
            raise r.error("value", f"unknown character {v!r}")
        return Question(((a, v),))
    try:
        attr = board.attribute(a)
    except KeyError:
        raise r.error("attribute", f"unknown attribute {a!r}; expected one of "
                                   f"{', '.join(x.name for x in board.attributes)}") from None
    if attr.kind == YES_NO:
        b = _parse_bool(v)
        if b is None:
            raise r.error("value", f"expected true or false for {a!r}, got {v!r}")
        return Question(((a, b),))
    if v not in attr.values:
        raise r.error("value", f"unknown value {v!r} of {a!r}; expected one of "
                               f"{', '.join(attr.values)}")
    return Question(((a, v),))

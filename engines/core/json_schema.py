"""The JSON Schema of the session file, generated from the reader itself.

The session reader (:mod:`engines.core.schema` and each game's ``Setup.from_json`` /
``event_from_json``) is code: typed getters of :class:`~engines.core.schema.Reader` with their
limits. :func:`session_schema` records what those getters check while real sessions are read —
each field's JSON path, type, range, length, whether it is required and its fixed choices — and
writes it as a JSON Schema (draft 2020-12) with one branch per game and per event type. What the
getters cannot state in a schema (a name that must be one of the setup's players, a card count
that must fit the deck) is said in the field's ``description``.

The sessions recorded are the bundled examples plus, for every game, the events that each line
of the quick-entry table (``docs/quick-entry.md``) stands for, so every event type the grammar
can produce appears. ``python -m engines.core.json_schema`` prints the schema;
``docs/session-schema.json`` is its output, and a test keeps the two equal.
"""
from __future__ import annotations

import json
import re
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

from engines.core import schema as _schema
from engines.core.schema import FORMAT, VERSION, Reader

#: Setup keys that name a field, not a thing of the game (kept out of the setup's names).
_FIELD_WORDS = frozenset({"players", "opponents", "identities", "builds", "values", "rounds",
                          "cards_per_player", "hand_sizes", "categories", "visible", "model",
                          "locations", "analysing", "beta", "lambda", "claim_weight",
                          "table", "round_seconds", "struck", "timer", "left"})
#: The getters recorded, with the JSON type each checks.
_GETTERS = {"has": None, "str": "string", "opt_str": "string", "bool": "boolean", "int": "integer",
            "float": "number", "list": "array", "str_list": "array", "choice": "string",
            "dict": "object", "child": "object"}
_INDEX = re.compile(r"\[\d+\]")


class _Recording:
    """Field facts gathered while sessions are read: ``fields[(scope, path)] = facts``."""

    def __init__(self) -> None:
        self.fields: dict[tuple[str, str], dict] = {}
        self.scope = ""          # "setup:<game>" or "event:<game>:<type>"
        self.event_root = ""     # the JSON path of the event being read, e.g. "$.events[3]"
        self.setup_names: set[str] = set()     # names the current setup lists (players, …)
        self.setup_numbers: set[float] = set()  # numbers the current setup holds (hand sizes)

    def start_session(self, setup_json: Any) -> None:
        """Remember what the session's setup defines: a choice among those names, or a limit
        equal to one of its numbers, depends on the setup and is described, not fixed."""
        self.setup_names, self.setup_numbers = set(), set()

        def walk(v: Any, in_list: bool, depth: int) -> None:
            if isinstance(v, dict):
                for k, x in v.items():
                    # a nested object keyed by names: {"hand_sizes": {"Ann": 5}}
                    if depth >= 1 and k not in _FIELD_WORDS and not isinstance(x, bool) \
                            and isinstance(x, (int, float, list, dict)):
                        self.setup_names.add(k)
                    walk(x, False, depth + 1)
            elif isinstance(v, list):
                for x in v:
                    walk(x, True, depth + 1)
            elif isinstance(v, str) and in_list:
                self.setup_names.add(v)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                self.setup_numbers.add(v)
        walk(setup_json, False, 0)

    def add_names(self, setup: Any, depth: int = 0) -> None:
        """Add the names held by the parsed ``setup`` (a deck's cards, an edition's locations,
        a board's characters): text in its tuples, lists and dict keys, a few levels deep."""
        if depth > 4:
            return
        values = vars(setup).values() if hasattr(setup, "__dict__") else (
            [getattr(setup, f) for f in getattr(setup, "__slots__", ())])
        for v in values:
            if isinstance(v, dict):
                self.setup_names.update(k for k in v if isinstance(k, str))
                v = list(v.values())
            if isinstance(v, (list, tuple)):
                for x in v:
                    if isinstance(x, str):
                        self.setup_names.add(x)
                    elif hasattr(x, "__dict__") or hasattr(x, "__slots__"):
                        self.add_names(x, depth + 1)
            elif hasattr(v, "__dict__") and not isinstance(v, type):
                self.add_names(v, depth + 1)

    def note(self, reader: Reader, getter: str, key: str, args: tuple, kwargs: dict) -> None:
        if not self.scope:
            return   # reading the example file itself, before the recorded parse
        path = reader.sub(key)
        if self.event_root and path.startswith(self.event_root):
            rel = "$" + path[len(self.event_root):]
        elif path.startswith("$.setup"):
            rel = "$" + path[len("$.setup"):]
        else:
            return
        rel = _INDEX.sub("[]", rel)
        # a key that is one of the setup's names (hand_sizes.Ann, visible.B) stands for any
        rel = ".".join("*" if part in self.setup_names else part for part in rel.split("."))
        facts = self.fields.setdefault((self.scope, rel), {"types": set(), "required": True,
                                                            "choices": None, "limits": {},
                                                            "reads": 0, "objects": 0})
        if getter == "has":
            # looked for before it was read: optional, and null counts as absent
            facts["required"], facts["nullable"] = False, True
            return
        facts["types"].add(_GETTERS[getter])
        facts["reads"] += 1
        if getter in ("child", "dict"):
            facts["objects"] += 1
        defaults = args[1:2] if getter == "choice" else args[:1]
        has_default = bool(defaults) or "default" in kwargs
        if has_default or getter == "opt_str":
            facts["required"] = False
            if (defaults[0] if defaults else kwargs.get("default")) is None:
                facts["nullable"] = True
        if getter == "choice":
            allowed = sorted(map(str, args[0] if args else kwargs.get("choices", ())))
            if set(allowed) & self.setup_names:
                allowed = "varies"
            facts["choices"] = (allowed if facts["choices"] in (None, allowed) else "varies")
        if getter == "str_list" and kwargs.get("choices") is not None:
            facts["items_choices"] = "setup"
        for k in ("min", "max", "min_len", "max_len", "allow_empty", "unique", "min_exclusive",
                  "max_exclusive"):
            if k in kwargs and kwargs[k] is not None:
                old = facts["limits"].get(k)
                value = kwargs[k]
                if k in ("min", "max", "min_len", "max_len") and value in self.setup_numbers \
                        and value not in (0, 1):
                    value = "varies"   # a size the setup sets (a hand of 5 cards)
                facts["limits"][k] = value if old in (None, value) else "varies"
        if getter in ("str", "opt_str") and "max_len" not in kwargs:
            facts["limits"].setdefault("max_len", _schema.MAX_TEXT_CHARS)


@contextmanager
def _recording() -> Iterator[_Recording]:
    rec = _Recording()
    originals = {name: getattr(Reader, name) for name in _GETTERS}

    def wrap(name, fn):
        def recorded(self, key, *args, **kwargs):
            rec.note(self, name, key, args, kwargs)
            return fn(self, key, *args, **kwargs)
        return recorded

    for name, fn in originals.items():
        setattr(Reader, name, wrap(name, fn) if name != "has" else _wrap_has(rec, fn))
    try:
        yield rec
    finally:
        for name, fn in originals.items():
            setattr(Reader, name, fn)


def _wrap_has(rec: _Recording, fn):
    def recorded(self, key):
        rec.note(self, "has", key, (), {})
        return fn(self, key)
    return recorded


def _field_schema(facts: dict) -> dict:
    types = sorted(facts["types"])
    if not types:
        return {}   # optional, and absent from every session recorded
    if facts.get("nullable"):
        types.append("null")
    out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
    lim = {k: v for k, v in facts["limits"].items() if v != "varies"}
    if isinstance(facts.get("choices"), list):
        others = [t for t in types if t not in ("string", "null")]
        if others:   # a choice of names, or another form the reader also takes (a square)
            return {"anyOf": [{"enum": facts["choices"]}, {"type": others}]
                    + ([{"type": "null"}] if facts.get("nullable") else [])}
        out["enum"] = facts["choices"] + ([None] if facts.get("nullable") else [])
    elif facts.get("choices") == "varies":
        out["description"] = "one of the names the setup defines"
    if "string" in types:
        if "max_len" in lim:
            out["maxLength"] = lim["max_len"]
        if not lim.get("allow_empty", False) and "enum" not in out:
            out["minLength"] = 1
    if "integer" in types or "number" in types:
        key_min = "exclusiveMinimum" if lim.get("min_exclusive") else "minimum"
        key_max = "exclusiveMaximum" if lim.get("max_exclusive") else "maximum"
        if lim.get("min") is not None:
            out[key_min] = lim["min"]
        if lim.get("max") is not None:
            out[key_max] = lim["max"]
    if "array" in types:
        if lim.get("min_len"):
            out["minItems"] = lim["min_len"]
        if lim.get("max_len") is not None and "string" not in types:
            out["maxItems"] = lim["max_len"]
        if lim.get("unique"):
            out["uniqueItems"] = True
        if facts.get("items_choices") == "setup":
            out["description"] = "names the setup defines"
    return out


def _object_schema(fields: dict[str, dict], visits: int = 0) -> dict:
    """Nest ``{"$.a.b": facts}`` into an object schema; ``visits`` is how many objects of
    this kind were read (a field is required only if read, without a default, in each)."""
    root: dict[str, Any] = {"type": "object", "properties": {}}
    for path in sorted(fields):
        parent = path.rsplit(".", 1)[0]
        seen = visits if parent == "$" else fields.get(parent, {}).get("objects", 0)
        if seen and fields[path]["reads"] < seen:
            fields[path]["required"] = False
        parts = [p for p in path[2:].split(".") if p]
        node = root
        for i, part in enumerate(parts):
            is_items = part.endswith("[]")
            name = part[:-2] if is_items else part
            if name == "*":   # any key (a name the setup defines)
                entry = node.setdefault("additionalProperties", {})
            else:
                entry = node.setdefault("properties", {}).setdefault(name, {})
            if i == len(parts) - 1:
                schema = _field_schema(fields[path])
                target = entry.setdefault("items", {}) if is_items else entry
                for k, v in schema.items():
                    target.setdefault(k, v)
                if fields[path]["required"] and not is_items and name != "*":
                    req = node.setdefault("required", [])
                    if name not in req:
                        req.append(name)
            else:
                entry.setdefault("type", "object")
                node = entry.setdefault("items", {"type": "object"}) if is_items else entry
    return root


def quick_entry_lines() -> dict[str, list[str]]:
    """``{game: [typed line, …]}`` from the quick-entry table of ``docs/quick-entry.md``
    (empty when the docs are not installed)."""
    from pathlib import Path
    page = Path(__file__).resolve().parents[2] / "docs" / "quick-entry.md"
    if not page.is_file():
        return {}
    titles = {"Cluedo": "cluedo", "Inkognito": "inkognito", "Egghead": "egghead",
              "Guess Who?": "guesswho", "Spyfall": "spyfall"}
    lines: dict[str, list[str]] = {}
    game = None
    for row in page.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or (cells[0] not in titles and cells[0] != ""):
            continue
        game = titles.get(cells[0], game)
        if game is not None:
            lines.setdefault(game, []).extend(re.findall(r"`([^`]+)`", cells[1]))
    return lines


#: Setups besides the bundled examples, so that what depends on the setup (an edition's
#: number of players, a hand size, a board) varies between the sessions recorded and is not
#: taken for a fixed limit.
SETUP_VARIANTS: dict[str, tuple[dict, ...]] = {
    "cluedo": (
        {"edition": "clue-master-detective", "players": [f"P{i}" for i in range(10)], "me": "P0"},
        {"categories": {"suspect": ["S1", "S2", "S3"], "weapon": ["W1", "W2"],
                        "room": ["R1", "R2", "R3", "R4"]},
         "players": ["Ann", "Bob", "Me"], "me": "Me",
         "hand_sizes": {"Ann": 2, "Bob": 2, "Me": 2}},
    ),
    "egghead": (
        {"players": ["Q", "R", "S", "T", "U"], "me": "Q", "values": 5, "cards_per_player": 2,
         "moderator": "rotating", "behavioural_analysis": False,
         "visible": {"R": [1, 2], "S": [3, 3], "T": [4, 5], "U": [5, 5]}},
    ),
    "guesswho": (
        {"board": "demo", "rules": "instant", "compound_questions": True, "error_rate": 0.05},
    ),
    "inkognito": (
        {"identities": ["Lord Fiddlebottom", "Madame Zsa Zsa", "Colonel Bubble", "Agent X"],
         "builds": ["tall", "short", "fat", "thin"], "me": {"identity": "Colonel Bubble",
                                                           "build": "fat"},
         "opponents": ["Green", "Purple"], "deception": {"enabled": True, "prior": [2, 3]}},
    ),
    "spyfall": (
        {"edition": "spyfall2", "players": ["V", "W", "X", "Y", "Z", "Zed", "Zoe"], "me": "W",
         "my_role": {"spy": True},
         "model": {"beta": 2, "lambda": 0.3, "strategy": "dynamic", "claim_weight": 0.05},
         "table": {"round_seconds": 360, "struck": ["Art Museum"],
                   "timer": {"left": 100.5, "paused": True}}},
    ),
}


def _sessions() -> Iterable[dict]:
    """The bundled example sessions and :data:`SETUP_VARIANTS`, each also with the events of
    its game's quick-entry lines that parse against it (a line for another seating simply
    does not)."""
    from engines import game_module
    from engines.core.resources import resource_path
    from engines.core.schema import SessionFormatError, read_session_file

    typed = quick_entry_lines()
    for path in sorted(resource_path("examples").glob("*.json")):
        data = read_session_file(str(path))
        mod = game_module(data.game)
        setups = [data.setup] + [mod.Setup.from_json(v)
                                 for v in SETUP_VARIANTS.get(data.game, ())]
        for i, setup in enumerate(setups):
            obj = dict(data.to_json(), setup=setup.to_json(), events=[])
            if i == 0:
                obj["events"] = data.to_json()["events"]
                yield obj
            extra = []
            for line in typed.get(data.game, []):
                try:
                    extra.append(mod.parse(setup, [], line).to_json())
                except (SessionFormatError, ValueError):
                    continue
            yield dict(obj, events=extra)


def session_schema() -> dict:
    """The session file's JSON Schema (draft 2020-12), recorded from the reader (module
    docstring). Deterministic: the same code gives the same schema, keys sorted."""
    from engines import GAMES, game_module
    from engines.core.schema import parse_event

    setups: dict[str, dict[str, dict]] = {}
    events: dict[tuple[str, str], dict[str, dict]] = {}
    visits: dict[str, int] = {}
    with _recording() as rec:
        sessions = list(_sessions())   # read before the recording starts its scopes
        for obj in sessions:
            game = obj["game"]
            mod = game_module(game)
            rec.start_session(obj["setup"])
            rec.scope, rec.event_root = f"setup:{game}", ""
            setup = mod.Setup.from_json(obj["setup"])
            rec.add_names(setup)
            for i, ev in enumerate(obj["events"]):
                rec.scope, rec.event_root = f"event:{game}:{ev['type']}", f"$.events[{i}]"
                visits[rec.scope] = visits.get(rec.scope, 0) + 1
                parse_event(mod, ev, setup, f"$.events[{i}]")
            rec.scope = ""
    _add_seen_types(rec, sessions)
    for (scope, path), facts in rec.fields.items():
        kind, game, *rest = scope.split(":")
        if kind == "setup":
            setups.setdefault(game, {})[path] = facts
        else:
            events.setdefault((game, rest[0]), {})[path] = facts
    branches = []
    for game in sorted(GAMES):
        if game not in setups:
            continue
        kinds = []
        declared = getattr(game_module(game), "EVENT_KEYS", {})
        for (g, etype), fields in sorted(events.items()):
            if g != game:
                continue
            schema = _object_schema(fields, visits.get(f"event:{game}:{etype}", 0))
            for key in declared.get(etype, ()):
                schema["properties"].setdefault(key, {})
            schema["properties"]["type"] = {"const": etype}
            schema["properties"]["note"] = {"type": "string",
                                            "maxLength": _schema.MAX_NOTE_CHARS}
            schema["properties"]["time"] = {"type": "string", "format": "date-time"}
            schema["required"] = sorted(set(schema.get("required", [])) | {"type"})
            _close_objects(schema, [e for o in sessions if o["game"] == game
                                    for e in o["events"] if e.get("type") == etype])
            kinds.append(schema)
        setup_schema = _object_schema(setups[game])
        _close_objects(setup_schema, [o["setup"] for o in sessions if o["game"] == game])
        branches.append({
            "if": {"properties": {"game": {"const": game}}},
            "then": {"properties": {
                "setup": setup_schema,
                "events": {"type": "array", "maxItems": _schema.MAX_EVENTS,
                           "items": {"oneOf": kinds} if kinds else {"type": "object"}}}}})
        game_module(game)   # every branch names an installed engine
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Deduction Desk session file",
        "description": ("Generated from the session reader by engines/core/json_schema.py; the "
                        "reader also checks what a schema cannot state (names that must be "
                        "the setup's, sizes whose cost is computed)."),
        "type": "object",
        "required": ["format", "version", "game", "setup", "events"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT},
            "version": {"type": "integer", "minimum": 1, "maximum": VERSION},
            "game": {"enum": sorted(setups)},
            "setup": {"type": "object"},
            "events": {"type": "array", "maxItems": _schema.MAX_EVENTS},
        },
        "allOf": branches,
    }


def _close_objects(node: dict, values: list) -> None:
    """Mark every object of ``node`` (a setup's or an event's schema, nested objects included)
    ``additionalProperties: false``, as the reader refuses any key no reader takes
    (:func:`engines.core.schema.parse_session`), after adding as properties the keys that the
    recorded sessions' ``values`` at that place hold (fields the reader takes raw, whose form
    the recording does not state). An object keyed by the setup's names (its
    ``additionalProperties`` is a schema) stays open to any name."""
    if not isinstance(node, dict):
        return
    if "properties" in node and "additionalProperties" not in node:
        for v in values:
            if isinstance(v, dict):
                for k in v:
                    node["properties"].setdefault(k, {})
        node["additionalProperties"] = False
    for key, sub in node.get("properties", {}).items():
        sub_values = [v[key] for v in values if isinstance(v, dict) and key in v]
        _close_objects(sub, sub_values)
        if isinstance(sub, dict) and isinstance(sub.get("items"), dict):
            _close_objects(sub["items"], [x for sv in sub_values if isinstance(sv, list)
                                          for x in sv])
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        _close_objects(extra, [x for v in values if isinstance(v, dict) for x in v.values()])


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(v)]


def _values_at(obj: Any, parts: list[str]) -> Iterator[Any]:
    """The values at a recorded path (``[]`` any item, ``*`` any key) inside ``obj``."""
    if not parts:
        yield obj
        return
    part, rest = parts[0], parts[1:]
    items = part.endswith("[]")
    name = part[:-2] if items else part
    if not isinstance(obj, dict):
        return
    children = list(obj.values()) if name == "*" else ([obj[name]] if name in obj else [])
    for child in children:
        if items:
            if isinstance(child, list):
                for x in child:
                    yield from _values_at(x, rest)
        else:
            yield from _values_at(child, rest)


def _add_seen_types(rec: _Recording, sessions: list[dict]) -> None:
    """Widen each field's types by the JSON types its values have in the recorded sessions
    (a field the reader takes raw and converts — null for "not known", a name or an inline
    object — keeps every form the reader accepted)."""
    for (scope, path), facts in rec.fields.items():
        kind, game, *rest = scope.split(":")
        parts = [p for p in path[2:].split(".") if p]
        for obj in sessions:
            if obj["game"] != game:
                continue
            roots = [obj["setup"]] if kind == "setup" else [
                e for e in obj["events"] if e.get("type") == rest[0]]
            for root in roots:
                for v in _values_at(root, parts):
                    t = _json_type(v)
                    if t == "null":
                        facts["nullable"] = True
                    elif not (t == "integer" and "number" in facts["types"]):
                        facts["types"].add(t)


def _sorted(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _sorted(obj[k]) for k in sorted(obj)}
    if isinstance(obj, list):
        return [_sorted(v) for v in obj]
    return obj


def dumps_schema() -> str:
    """:func:`session_schema` as the text of ``docs/session-schema.json``."""
    return json.dumps(_sorted(session_schema()), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(dumps_schema(), end="")

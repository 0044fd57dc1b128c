"""The session reader reads exactly what was written, in all five games, or refuses the file
with one line naming the place:

* a key given twice in one object (``"events": [...], "events": []``) is refused with its JSON
  path, never read with its last copy;
* a key no reader takes (``"refutter"``, ``"nte"``, ``"buld"``) is refused naming the nearest
  known key, in events, setups and the file itself;
* names are read in Unicode normalization form NFC, and two names a player could not tell
  apart (one in NFC and one in NFD, Cyrillic "Аnn" beside Latin "Ann", UTS #39 confusables)
  are refused, as are line and paragraph separators in a name; the same function refuses them
  in the setup dialogs (``Setup.from_json``) and quick entry reads an NFD name as its NFC one;
* what the app writes reads back equal (the bundled examples, and random sessions).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import game_module
from engines.core.errors import SessionFormatError
from engines.core.json_schema import _sessions
from engines.core.resources import resource_path
from engines.core.schema import dumps_session, loads_json, parse_session, read_session_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")
#: Two names of each example's setup that the name tests rename (players, opponents; for
#: Guess Who? two characters of a board written into the file).
NAMES = {"cluedo": ("Ann", "Bob"), "inkognito": ("Red", "Blue"), "egghead": ("B", "C"),
         "spyfall": ("Ann", "Bob"), "guesswho": ("Alex", "Alfred")}
NFC_JOSE = "Jos\u00e9"
NFD_JOSE = "Jose\u0301"


def _text(game: str) -> str:
    return resource_path("examples", f"{game}.json").read_text(encoding="utf-8")


def _obj(game: str) -> dict:
    obj = json.loads(_text(game))
    if game == "guesswho":   # a board of the player's own, written into the file
        board = json.loads(resource_path("guesswho", "classic.json").read_text(encoding="utf-8"))
        obj["setup"]["board"] = board
    return obj


def _read_text(text: str):
    return parse_session(loads_json(text.encode("utf-8")))


def _renamed(game: str, first: str, second: str) -> str:
    """The example as file text with its two names of :data:`NAMES` renamed everywhere."""
    a, b = NAMES[game]
    text = json.dumps(_obj(game), ensure_ascii=False)
    return text.replace(json.dumps(a), json.dumps(first, ensure_ascii=False)) \
               .replace(json.dumps(b), json.dumps(second, ensure_ascii=False))


# ------------------------------------------------------------------ duplicate keys
@pytest.mark.parametrize("game", GAMES)
def test_a_second_events_key_is_refused_with_its_path(game):
    text = _text(game).rstrip().rstrip("}") + ', "events": []}'
    with pytest.raises(SessionFormatError) as exc:
        _read_text(text)
    assert exc.value.path == "$.events"
    assert 'duplicate key "events" at $' in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_a_second_game_key_is_refused(game):
    other = "spyfall" if game != "spyfall" else "cluedo"
    text = _text(game).replace('"game"', f'"game": "{other}", "game"', 1)
    with pytest.raises(SessionFormatError) as exc:
        _read_text(text)
    assert exc.value.path == "$.game" and 'duplicate key "game" at $' in exc.value.message


def test_a_duplicate_key_deep_inside_is_named_by_its_path():
    obj = json.loads(_text("cluedo"))
    text = json.dumps(obj).replace('"refuter": "Ann"', '"refuter": "Ann", "refuter": null', 1)
    with pytest.raises(SessionFormatError) as exc:
        _read_text(text)
    assert exc.value.path == "$.events[1].refuter"
    assert 'duplicate key "refuter" at $.events[1]' in exc.value.message


def test_two_spellings_of_one_key_are_one_key():
    """hand_sizes keyed by "José" in NFC and in NFD: the same key after NFC, refused as such."""
    text = _renamed("cluedo", NFC_JOSE, NFD_JOSE)
    with pytest.raises(SessionFormatError) as exc:
        _read_text(text)
    assert exc.value.path == f"$.setup.hand_sizes.{NFC_JOSE}"
    assert "two Unicode forms" in exc.value.message


# ------------------------------------------------------------------ unknown keys
def test_refutter_is_refused_naming_refuter():
    obj = json.loads(_text("cluedo"))
    ev = obj["events"][1]
    assert ev["refuter"] == "Ann"
    ev["refutter"] = ev.pop("refuter")
    ev.pop("shown")
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path == "$.events[1].refutter"
    assert "unknown key 'refutter' in a suggestion event; did you mean 'refuter'?" \
        in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelled_note_is_refused(game):
    obj = _obj(game)
    obj["events"][0]["nte"] = "the note"
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path == "$.events[0].nte"
    assert "did you mean 'note'?" in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_every_key_of_every_event_misspelled_is_refused_naming_it(game):
    """Each key of each event of the example, with its last letter doubled: refused, naming
    the key it stands for (a required key is not reported as missing instead)."""
    obj = _obj(game)
    tried = 0
    for i, ev in enumerate(obj["events"]):
        for key in [k for k in ev if k != "type"]:
            bad = json.loads(json.dumps(obj))
            target = bad["events"][i]
            target[key + key[-1]] = target.pop(key)
            with pytest.raises(SessionFormatError) as exc:
                parse_session(bad)
            assert exc.value.path == f"$.events[{i}].{key}{key[-1]}"
            assert f"did you mean {key!r}?" in exc.value.message, exc.value.message
            tried += 1
    assert tried >= 3


@pytest.mark.parametrize("game, where, key, meant", [
    ("inkognito", ("setup", "me"), "buld", "build"),
    ("spyfall", ("setup", "model"), "lamda", "lambda"),
    ("guesswho", ("events", 0, "question"), "vaule", "value"),
])
def test_a_misspelled_key_inside_a_setup_or_an_event_is_refused(game, where, key, meant):
    obj = json.loads(_text(game))
    node = obj
    for step in where:
        node = node[step]
    node[key] = node.get(meant, 1)
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path.endswith(f".{key}")
    assert f"did you mean {meant!r}?" in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_key_of_the_file_is_refused(game):
    obj = json.loads(_text(game))
    obj["evnets"] = []
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path == "$.evnets" and "did you mean 'events'?" in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_declared_keys_are_the_keys_the_writer_writes(game):
    """``EVENT_KEYS`` holds every key that any event of the recorded sessions writes, and each
    declared key is written by some event of its kind (optional ones included)."""
    mod = game_module(game)
    written: dict = {}
    for obj in _sessions():
        if obj["game"] != game:
            continue
        data = parse_session(obj)
        for ev in data.events:
            d = ev.to_json()
            written.setdefault(d["type"], set()).update(d)
    assert written
    for kind, keys in written.items():
        assert keys <= set(mod.EVENT_KEYS[kind]), (kind, keys - set(mod.EVENT_KEYS[kind]))
    assert set(mod.EVENT_KEYS) == set(mod.EVENT_TYPES)


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("game", GAMES)
def test_one_name_in_nfc_and_in_nfd_is_refused(game):
    with pytest.raises(SessionFormatError) as exc:
        _read_text(_renamed(game, NFC_JOSE, NFD_JOSE))
    assert exc.value.path.startswith("$.setup.")
    assert "appears twice" in exc.value.message or "two Unicode forms" in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_a_cyrillic_look_alike_is_refused(game):
    latin, cyrillic = "Kaz", "\u041aaz"    # CYRILLIC CAPITAL LETTER KA
    with pytest.raises(SessionFormatError) as exc:
        _read_text(_renamed(game, latin, cyrillic))
    assert exc.value.path.startswith("$.setup.")
    assert "looks like" in exc.value.message and "TR #39" in exc.value.message


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"],
                         ids=["line separator", "paragraph separator", "NEL"])
def test_a_line_break_in_a_name_is_refused(game, char):
    a, _ = NAMES[game]
    with pytest.raises(SessionFormatError) as exc:
        _read_text(_renamed(game, a[:1] + char + a[1:] + "x", NAMES[game][1]))
    assert exc.value.path.startswith("$.setup.")
    assert f"U+{ord(char):04X}" in exc.value.message


@pytest.mark.parametrize("game", GAMES)
def test_a_name_in_nfd_reads_as_its_nfc_form(game):
    data = _read_text(_renamed(game, NFD_JOSE, NAMES[game][1]))
    written = dumps_session(data)
    assert NFC_JOSE in written and NFD_JOSE not in written


@pytest.mark.parametrize("game, field", [("cluedo", "players"), ("inkognito", "opponents"),
                                         ("egghead", "players"), ("spyfall", "players")])
def test_the_setup_dialogs_refuse_look_alikes(game, field):
    """The New game dialogs build their setup with ``Setup.from_json``: the same check."""
    mod = game_module(game)
    setup = json.loads(_text(game))["setup"]
    names = setup[field]
    twin = {"A": "\u0410", "B": "\u0412"}[names[1][0]] + names[1][1:]   # Cyrillic A, VE
    text = json.dumps(setup, ensure_ascii=False)
    obj = json.loads(text.replace(json.dumps(names[2]), json.dumps(twin, ensure_ascii=False)))
    assert twin in obj[field] and names[1] in obj[field]
    with pytest.raises(SessionFormatError) as exc:
        mod.Setup.from_json(obj, "$.setup")
    assert "looks like" in exc.value.message


def test_quick_entry_reads_an_nfd_name_as_the_player():
    mod = game_module("cluedo")
    data = _read_text(_renamed("cluedo", NFC_JOSE, "Bob"))
    ev = mod.parse(data.setup, [], f"{NFD_JOSE}: plum rope hall; none")
    assert ev.suggester == NFC_JOSE


def test_a_file_naming_a_player_in_nfd_reads():
    """The setup in NFC, an event naming the player in NFD: one player."""
    obj = json.loads(_renamed("cluedo", NFC_JOSE, "Bob"))
    obj["events"][1]["refuter"] = NFD_JOSE
    data = parse_session(obj)
    assert data.events[1].refuter == NFC_JOSE


# ------------------------------------------------------------------ the writer's output
@pytest.mark.parametrize("game", GAMES)
def test_the_examples_read_back_equal(game, tmp_path):
    data = read_session_file(str(resource_path("examples", f"{game}.json")))
    path = tmp_path / "s.json"
    path.write_text(dumps_session(data, str(path)), encoding="utf-8")
    again = read_session_file(str(path))
    assert again.setup.to_json() == data.setup.to_json()
    assert again.events == data.events and again.meta == data.meta


_NAME_CHARS = st.sampled_from(list("abcdefghjkmnpqrstuvwxyz") + ["é", "ß", "ø", "ñ"])
_NAME = st.lists(_NAME_CHARS, min_size=2, max_size=8).map(lambda cs: "".join(cs).title())


@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(names=st.lists(_NAME, min_size=3, max_size=5, unique_by=str.casefold),
       events=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 20), st.booleans(),
                                 st.sampled_from(["", "a note", "Jose\u0301 said so"])),
                       max_size=8))
def test_random_sessions_the_app_writes_read_back_equal(names, events):
    """Random Cluedo and Spyfall tables (names with accents, notes in NFD): the writer's output
    either is refused on reading (two names that look alike) or reads back equal."""
    from engines.core.schema import EventMeta, SessionData

    for game in ("cluedo", "spyfall"):
        mod = game_module(game)
        base = json.loads(_text(game))["setup"]
        base["players"] = names
        base["me"] = names[0]
        base.pop("hand_sizes", None)
        base.pop("dealer", None)
        try:
            setup = mod.Setup.from_json(base, "$.setup")
        except SessionFormatError:
            continue                      # look-alike names: refused before anything is written
        evs, metas = [], []
        for who, card, flag, note in events:
            p = setup.players[who % len(setup.players)]
            if game == "cluedo":
                ev = mod.event_from_json({"type": "shown" if flag else "lacks", "player": p,
                                          "card": setup.cards[card % len(setup.cards)]}, setup)
            else:
                q = setup.players[(who + 1) % len(setup.players)]
                ev = mod.event_from_json({"type": "ask", "asker": p, "answerer": q}, setup, "$")
            evs.append(ev)
            metas.append(EventMeta(note=note or None))
        data = SessionData(game, setup, tuple(evs), tuple(metas))
        again = _read_text(dumps_session(data))
        assert again.setup.to_json() == setup.to_json()
        assert again.events == data.events
        assert [m.note for m in again.meta] == [
            None if not m.note else m.note.replace("e\u0301", "\u00e9") for m in metas]


# ------------------------------------------------------------------ the schema and the CLI
SCHEMA = jsonschema.Draft202012Validator(
    json.loads((ROOT / "docs" / "session-schema.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("game", GAMES)
def test_the_schema_refuses_unknown_keys_too(game):
    obj = json.loads(_text(game))
    assert not list(SCHEMA.iter_errors(obj))
    bad = json.loads(json.dumps(obj))
    bad["events"][0]["nte"] = "x"
    assert list(SCHEMA.iter_errors(bad))
    bad = dict(obj, evnets=[])
    assert list(SCHEMA.iter_errors(bad))


@pytest.mark.parametrize("case", ["duplicate", "refutter"])
def test_the_command_line_refuses_with_one_line_and_exit_2(case, tmp_path):
    if case == "duplicate":
        text = _text("cluedo").rstrip().rstrip("}") + ', "events": []}'
    else:
        obj = json.loads(_text("cluedo"))
        obj["events"][1]["refutter"] = obj["events"][1].pop("refuter")
        obj["events"][1].pop("shown")
        text = json.dumps(obj)
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "engines", "infer", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr
    assert ('duplicate key "events" at $' if case == "duplicate" else "did you mean 'refuter'?") \
        in lines[0]


def test_a_name_spelt_with_escapes_in_nfd_is_read_in_nfc():
    """``\\u0301`` escapes in ASCII text (what ``json.dump`` writes by default) spell NFD too."""
    text = _renamed("cluedo", NFC_JOSE, "Bob").replace(json.dumps(NFC_JOSE, ensure_ascii=False),
                                                         '"Jose\\u0301"')
    assert NFC_JOSE not in text
    data = _read_text(text)
    assert NFC_JOSE in data.setup.players


@pytest.mark.parametrize("game", ["cluedo", "inkognito"])
def test_look_alikes_across_lists_quick_entry_reads_together_are_refused(game):
    """A Cluedo deck's cards ("has rope" may name any card) and Inkognito's identities and
    builds (one answer lists both) are checked as one list."""
    mod = game_module(game)
    if game == "cluedo":
        setup = {"categories": {"suspect": ["Plum", "Rope"], "weapon": ["R\u043epe", "Knife"],
                                "room": ["Hall", "Study"]},           # CYRILLIC SMALL LETTER O
                 "players": ["Me", "Ann", "Bob"], "me": "Me"}
    else:
        setup = json.loads(_text(game))["setup"]
        setup["builds"][0] = "Agent \u0425"                          # CYRILLIC CAPITAL LETTER HA
    with pytest.raises(SessionFormatError) as exc:
        mod.Setup.from_json(setup, "$.setup")
    assert "looks like" in exc.value.message


@settings(max_examples=12, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_logs_of_four_games_read_back_equal(seed, tmp_path_factory):
    """Truthful random logs (tests/engines/random_logs.py) of Cluedo, Inkognito, Egghead and
    Guess Who?, written with notes and times as the app writes them: read back equal."""
    import random

    from random_logs import cluedo_log, cluedo_small_setup, egghead_log, guesswho_log, inkognito_log

    from engines.core.schema import EventMeta, SessionData

    rng = random.Random(seed)
    setup = cluedo_small_setup()
    logs = {"cluedo": (setup, cluedo_log(setup, rng, 6)[1]),
            "inkognito": inkognito_log(rng, 4),
            "egghead": egghead_log(rng, 3, 2)[:2],
            "guesswho": guesswho_log(rng, 4)}
    folder = tmp_path_factory.mktemp("logs")
    for game, (setup, events) in logs.items():
        meta = tuple(EventMeta(note=f"note {i} José", time="2026-11-28T15:00:00+00:00")
                     for i in range(len(events)))
        data = SessionData(game, setup, tuple(events), meta)
        path = folder / f"{game}.json"
        path.write_text(dumps_session(data, str(path)), encoding="utf-8")
        again = read_session_file(str(path))
        assert again.setup.to_json() == setup.to_json(), game
        assert again.events == data.events and again.meta == meta, game

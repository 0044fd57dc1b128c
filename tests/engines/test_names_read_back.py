"""Quick entry reads back every name the reader accepts: for any player (Cluedo) or opponent
(Inkognito) name a session file may hold, every event of the example log written as a line
(``format_event``) parses back to the same event. Names quick entry could not read back are
refused by the reader instead: a ':' (it ends the speaker's name in both grammars), invisible
characters (zero-width spaces and joiners — emoji sequences —, soft hyphens, direction marks),
names without a letter or digit, Cluedo's "none"/"nobody", and two names that differ only in
case or punctuation ("me" beside "Me")."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engines import game_module
from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path
from engines.core.schema import parse_session

ALPHABET = st.sampled_from(list("aAbZz09 :;,=?-_.'\"()!&<>") +
                           ["é", "ß", "Ω", "ж", "中", "😀", "👩", "\u200d", "\u200b", "\u00ad",
                            "\u2060", "\u202e", "\ufe0f", "e\u0301", "🇫🇷"])
NAMES = st.lists(ALPHABET, min_size=1, max_size=8).map("".join)
CASES = {"cluedo": "Ann", "inkognito": "Red"}


def _session(game: str, name: str):
    base = resource_path("examples", f"{game}.json").read_text(encoding="utf-8")
    return json.loads(base.replace(json.dumps(CASES[game]), json.dumps(name)))


@pytest.mark.parametrize("game", list(CASES))
@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(name=NAMES)
@example(name="Ann:B")
@example(name="👩\u200d👩\u200d👧")
@example(name="😀")
@example(name="Ann\u200b")
@example(name="none")
@example(name="me")
@example(name="ANN")
def test_every_accepted_name_reads_back(game, name):
    mod = game_module(game)
    try:
        data = parse_session(_session(game, name))
    except SessionFormatError:
        return                      # refused with a message: never written, never typed
    for ev in data.events:
        line = mod.format_event(data.setup, ev)
        assert mod.parse(data.setup, [], line) == ev, line


@pytest.mark.parametrize("game, name", [("cluedo", "Ann:B"), ("inkognito", "Ann:B"),
                                        ("cluedo", "👩\u200d👩\u200d👧"), ("cluedo", "Ann\u200b"),
                                        ("inkognito", "😀"), ("cluedo", "none"),
                                        ("cluedo", "me"), ("inkognito", "BLUE")])
def test_names_quick_entry_cannot_read_are_refused_naming_the_field(game, name):
    with pytest.raises(SessionFormatError) as exc:
        parse_session(_session(game, name))
    assert exc.value.path.startswith("$.setup.")

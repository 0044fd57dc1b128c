"""Text is valid Unicode everywhere, and the command line never fails on a user's value.

* The session reader refuses lone surrogates (U+D800–U+DFFF, which a JSON ``\\ud800`` escape
  makes but no UTF-8 file can hold) and noncharacters (Unicode Standard §23.7) in every
  string, keys included, naming the JSON path.
* ``explain --fact`` with NaN, infinities or deep nesting exits 2 with a message.
* Messages escape control characters (a terminal's escape sequences), stay on one line and are
  bounded in length.
"""
from __future__ import annotations

import contextlib
import io
import json

import pytest

from engines.__main__ import main as cli_main
from engines.core.errors import MAX_MESSAGE_CHARS, SessionFormatError
from engines.core.resources import resource_path
from engines.core.schema import loads_json, parse_session, read_session_file

EXAMPLE = resource_path("examples", "cluedo.json").read_text(encoding="utf-8")


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _write(tmp_path, text, name="s.json"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("bad, path", [
    ('"Mrs White\\ud800"', "$.events[1].cards[0]"),          # lone surrogate in a name
    ('"Mrs White\\udfff"', "$.events[1].cards[0]"),
    ('"Mrs White\\ufffe"', "$.events[1].cards[0]"),          # noncharacter
    ('"Mrs White\\ufdd0"', "$.events[1].cards[0]"),
])
def test_reader_refuses_what_is_not_text_naming_the_path(tmp_path, bad, path):
    text = EXAMPLE.replace('"Mrs White"', bad, 1)
    assert text != EXAMPLE
    with pytest.raises(SessionFormatError) as exc:
        read_session_file(_write(tmp_path, text))
    assert exc.value.path == path
    assert "not a character" in exc.value.message


def test_reader_refuses_a_surrogate_in_a_note_a_key_and_a_supplementary_noncharacter():
    obj = json.loads(EXAMPLE)
    obj["events"][2]["note"] = "ok \ud83d"            # half an emoji
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path == "$.events[2].note"
    obj = json.loads(EXAMPLE)
    obj["setup"]["x\udc00"] = 1
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path.startswith("$.setup.x")
    obj = json.loads(EXAMPLE)
    obj["events"][0]["note"] = "\U0010ffff"
    with pytest.raises(SessionFormatError) as exc:
        parse_session(obj)
    assert exc.value.path == "$.events[0].note"


def test_valid_surrogate_pairs_and_astral_text_are_text():
    obj = loads_json('{"a": "\\ud83d\\ude00 \U00020000 e\u0301"}'.encode("utf-8"))
    # text is read in NFC (Unicode Standard Annex #15): e + U+0301 is read as U+00E9
    assert obj["a"] == "😀 \U00020000 \u00e9"
    obj = json.loads(EXAMPLE)
    obj["events"][0]["note"] = "😀👩‍👩‍👧 \U00020000"
    assert parse_session(obj).meta[0].note == obj["events"][0]["note"]


def test_cli_refuses_a_lone_surrogate_and_never_prints_invalid_utf8(tmp_path):
    path = _write(tmp_path, EXAMPLE.replace('"Mrs White"', '"Mrs White\\ud800"', 1))
    for command in (["infer", path], ["recommend", path], ["parse", path, "Ann shows Bob"],
                    ["explain", path, "--fact", '{"card": "Rope", "place": "Bob"}']):
        code, out, err = _cli(*command)
        assert code == 2 and "not a character" in err
        # explain prints JSON in every case (its error object); the others print nothing
        assert out == "" if command[0] != "explain" else json.loads(out)["status"] == "error"
        err.encode("utf-8")          # the message itself is valid text
        out.encode("utf-8")


@pytest.mark.parametrize("fact", [
    '{"card": "Rope", "place": "Ann", "x": NaN}',
    '{"card": "Rope", "place": Infinity}',
    '{"card": "Rope", "place": -Infinity}',
    '{"card": "Rope", "place": "Ann", "x": [[[[1e999]]]]}',
    '{"card": "Rope", "place": "Ann", "x": ' + "[" * 50 + "]" * 50 + "}",
    "[" * 100_000 + "]" * 100_000,
    '{"card": "Rope\\ud800", "place": "Ann"}',
    '{"card": "' + "R" * 20_000 + '"}',
    '{"card": 1' + "0" * 5000 + '}',
])
def test_explain_refuses_facts_json_cannot_carry(fact):
    code, out, err = _cli("explain", str(resource_path("examples", "cluedo.json")), "--fact", fact)
    assert code == 2, err
    assert err.startswith("error: ") and "Traceback" not in err
    assert json.loads(out)["status"] == "error"   # explain prints JSON in every case
    assert err.count("\n") == 1 and len(err) < MAX_MESSAGE_CHARS + 200


def test_parse_refuses_command_line_bytes_that_are_not_utf8():
    # what Python makes of the argument bytes b"Ann shows \xff" (surrogateescape)
    code, out, err = _cli("parse", str(resource_path("examples", "cluedo.json")), "Ann shows \udcff")
    assert code == 2 and out == "" and "U+DCFF" in err


def test_unknown_setup_key_is_echoed_without_its_escape_sequences(tmp_path):
    obj = json.loads(EXAMPLE)
    obj["setup"]["\x1b[2J\x1b[31mevil\nline"] = 1
    code, out, err = _cli("infer", _write(tmp_path, json.dumps(obj)))
    assert code == 2 and out == ""
    assert "\x1b" not in err and "\\x1b" in err
    assert err.count("\n") == 1


def test_one_line_escapes_controls_bidi_and_noncharacters_and_bounds_length():
    from engines.core.errors import one_line

    assert one_line("a\x1b[31mb\nc\td\x7f\x85") == "a\\x1b[31mb\\x0ac\\x09d\\x7f\\x85"
    assert one_line("x\u202ey\u2066") == "x\\u202ey\\u2066"
    assert one_line("\ud800\U0010ffff\U00020000") == "\\ud800\\U0010ffff\U00020000"
    long = one_line("a" * 10_000)
    assert len(long) < MAX_MESSAGE_CHARS + 40 and long.endswith("(10000 characters)")
    exc = SessionFormatError("$.x", "bad\nvalue\x1b", "/tmp/f\x1bile")
    assert "\n" not in str(exc) and "\x1b" not in str(exc)

"""What the command-line fuzz run (tests/benchmarks/fuzz_cli.py) found, each fixed: every bad
input exits 2 with one line on stderr, control characters escaped, never a traceback."""
from __future__ import annotations

import json
import sys

import pytest

from engines.__main__ import main
from engines.core.resources import resource_path

EXAMPLE = str(resource_path("examples", "guesswho.json"))


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_negative_seed_is_bad_input_not_a_traceback(capsys):
    assert main(["recommend", EXAMPLE, "--seed", "-1"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("error: --seed: must be 0 to 4294967295, got -1")


@pytest.mark.parametrize("argv, where", [
    (["infer", EXAMPLE, "--unknown", "\x1b[2J"], "unrecognized arguments: --unknown \\x1b[2J"),
    (["turn", EXAMPLE, "--roll", "x"], "argument --roll: invalid int value: 'x'"),
    (["simulate", "spyfall", "--locations", "nan"], "argument --locations: invalid int value"),
    ([], "the following arguments are required: command"),
])
def test_a_bad_command_line_is_one_escaped_line_and_exit_2(capsys, argv, where):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    line = _one_line(capsys.readouterr().err)
    assert where in line and "\x1b" not in line and "--help lists the options" in line


def test_a_game_that_is_not_a_string_is_named_not_a_traceback(tmp_path, capsys):
    doc = json.loads(open(EXAMPLE, encoding="utf-8").read())
    doc["game"] = {}                       # unhashable: the reader looked it up in a dict
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    for command in ("infer", "explain"):
        assert main([command, str(path)]) == 2
        captured = capsys.readouterr()
        assert "$.game: unknown game an object" in _one_line(captured.err)


def test_an_exception_in_a_finaliser_at_exit_prints_one_line(monkeypatch, capsys):
    import engines.__main__ as cli

    # ``python -m engines`` installs it for its own process (not for a caller of main())
    assert "sys.unraisablehook = _quiet_unraisable" in open(cli.__file__, encoding="utf-8").read()
    monkeypatch.setattr(sys, "unraisablehook", cli._quiet_unraisable)   # restored afterwards

    class Closing:                      # as Dask's client closing a connection that timed out
        def __del__(self):
            raise TimeoutError("timed out after 4 s.")

    c = Closing()
    del c
    line = _one_line(capsys.readouterr().err)
    assert line == "note: ignored while closing: TimeoutError('timed out after 4 s.')"

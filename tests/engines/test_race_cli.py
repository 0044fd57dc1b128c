"""The races' shared command-line run (engines/cluedo/race.py run_cli): progress on stderr, JSON
on stdout, per-game lines that survive and are summarised, clear errors with exit code 2."""
from __future__ import annotations

import json

import pytest

from engines.cluedo import race_board


def test_board_race_cli_progress_jsonl_and_summary(tmp_path, capsys):
    lines = tmp_path / "games.jsonl"
    race_board.main(["--games", "2", "--max-rounds", "1", "--seed", "5", "--focal", "nearest", "--baseline", "random",
                     "--jsonl", str(lines)])
    out, err = capsys.readouterr()
    assert "1/2 games" in err and "2/2 games" in err
    res = json.loads(out)
    assert res["games"] == 2 and res["baseline"] == "random"
    recs = [json.loads(t) for t in lines.read_text(encoding="utf-8").splitlines()]
    assert [r["game"] for r in recs] == [0, 1] and [r["seat"] for r in recs] == [0, 1]
    race_board.main(["--summarize", str(lines), "--max-rounds", "1"])
    again = json.loads(capsys.readouterr().out)
    assert again["games"] == 2
    assert again["focal_result"] == res["focal_result"]


@pytest.mark.parametrize("argv, words", [(["--games", "0"], "games"),
                                         (["--summarize", "no-such-file.jsonl"], "no-such-file")])
def test_board_race_cli_errors(argv, words, capsys):
    with pytest.raises(SystemExit) as exc:
        race_board.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and words in err and "Traceback" not in err


@pytest.mark.parametrize("argv, words", [(["study", "nope"], "invalid choice"),
                                         (["study", "egghead", "--seed", "-1"], "--seed"),
                                         (["study", "egghead", "--quick", "--full"], "not allowed"),
                                         (["study", "egghead", "--broken", "nope"], "--broken"),
                                         (["study", "egghead", "--out", "{tmp}/no/such/folder/x.json"],
                                          "no folder")])
def test_study_cli_errors_are_one_line_and_exit_2(argv, words, tmp_path, capsys):
    """``python -m engines study``'s bad input: one line on stderr, exit 2, no games played
    (an --out in a missing folder is refused before the study runs)."""
    from engines.__main__ import main

    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    try:
        code = main(argv)
    except SystemExit as exc:     # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error:") and words in err and len(err.strip().splitlines()) == 1, err

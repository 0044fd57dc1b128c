"""A session file that names a board file reopens from wherever it is saved: the board is
written relative to the saved file when it lies in that file's folder, and inline otherwise (a
session may only name files next to it, so an absolute path elsewhere would be refused)."""
import json
import shutil
from pathlib import Path

import pytest

from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path
from engines.core.schema import dumps_session, parse_session, read_session_file


@pytest.fixture
def game(tmp_path):
    """``tmp/a/game.json`` naming ``boards/mine.json`` (a copy of the demo board)."""
    a = tmp_path / "a"
    (a / "boards").mkdir(parents=True)
    shutil.copy(resource_path("guesswho", "demo.json"), a / "boards" / "mine.json")
    obj = json.loads(resource_path("examples", "guesswho.json").read_text(encoding="utf-8"))
    obj["setup"] = {"board": "boards/mine.json", "rules": "official"}
    demo = json.loads(resource_path("guesswho", "demo.json").read_text(encoding="utf-8"))
    names = [c["name"] for c in demo["characters"]]
    obj["events"] = [{"type": "eliminate", "name": names[0]}]
    path = a / "game.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def _cards(data):
    return [(c.name, c.values) for c in data.setup.board.characters]


def _save(data, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(dumps_session(data, str(target)), encoding="utf-8")
    return target


def test_saved_next_to_the_board_stays_relative(game, tmp_path):
    data = read_session_file(str(game))
    again = _save(data, tmp_path / "a" / "copy.json")
    assert json.loads(again.read_text())["setup"]["board"] == "boards/mine.json"
    assert _cards(read_session_file(str(again))) == _cards(data)


def test_saved_in_a_subfolder_is_rewritten_relative(game, tmp_path):
    data = read_session_file(str(game))
    board = tmp_path / "a" / "boards" / "mine.json"
    again = _save(data, tmp_path / "a" / "boards" / "g.json")
    assert json.loads(again.read_text())["setup"]["board"] == "mine.json"
    assert _cards(read_session_file(str(again))) == _cards(data)
    assert board.exists()


@pytest.mark.parametrize("where", ["b/game.json", "a/sub/game.json"])
def test_saved_elsewhere_holds_the_board_inline_and_reopens(game, tmp_path, where):
    data = read_session_file(str(game))
    again = _save(data, tmp_path / where)
    board = json.loads(again.read_text())["setup"]["board"]
    assert isinstance(board, dict)                 # self-contained
    reread = read_session_file(str(again))
    assert [c.name for c in reread.setup.board.characters] == \
        [c.name for c in data.setup.board.characters]
    assert len(reread.events) == 1


def test_a_recovered_session_without_a_file_may_name_only_the_resources(game, tmp_path):
    obj = json.loads(game.read_text())
    obj["setup"]["board"] = str(tmp_path / "a" / "boards" / "mine.json")
    with pytest.raises(SessionFormatError, match="outside"):
        parse_session(obj, folder="")
    obj["setup"]["board"] = "classic"
    assert parse_session(obj | {"events": []}, folder="").setup.board_ref == "classic"


@pytest.mark.parametrize("name", ["\x00", "boards/\x00mine.json"])
def test_a_file_name_with_a_nul_character_is_refused_not_a_traceback(game, name):
    obj = json.loads(game.read_text())
    obj["setup"]["board"] = name
    with pytest.raises(SessionFormatError, match="NUL"):
        parse_session(obj, str(game))
    with pytest.raises(SessionFormatError, match="NUL"):
        parse_session(obj)                        # not confined: the same

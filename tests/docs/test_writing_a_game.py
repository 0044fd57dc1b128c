"""docs/writing-a-game.md shows the toy game's files whole: each code block titled with a file
of ``tests/desktop/toy_game`` is that file, so the page cannot drift from a game that the
tests install and run (tests/desktop/test_toy_game.py)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "desktop" / "toy_game"
PAGE = ROOT / "docs" / "writing-a-game.md"


def test_every_file_shown_is_the_toy_games_file():
    blocks = re.findall(r'```\w+ title="([^"]+)"\n(.*?)```', PAGE.read_text(encoding="utf-8"), re.S)
    shown = {name for name, _ in blocks}
    files = {str(p.relative_to(TOY)) for p in TOY.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert shown == files - {"coin_game/__init__.py"}, sorted(files ^ shown)
    for name, text in blocks:
        assert text == (TOY / name).read_text(encoding="utf-8").rstrip("\n") + "\n", name

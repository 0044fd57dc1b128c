"""A sixth game from outside this repository's packages: ``tests/desktop/toy_game`` is a
distribution of its own (``coin-game``: its own ``pyproject.toml``, entry points of the group
``deduction_desk.games``). The test installs it into a temporary folder — the package and a
``.dist-info`` with its ``METADATA`` and ``entry_points.txt``, as ``pip install --target``
lays it out — puts that folder on ``sys.path`` and finds it through the game registry:

* ``coin`` (its own tab, quick entry, Why?) appears as a tab of ``MainWindow`` and goes through
  session load/save, the CLI's ``infer``, the history, the belief plot, quick entry typed by
  key, Why? with the History highlight, and the CSV export;
* ``plaincoin`` (the contract's required names only) gets the desktop's generic tab, with no
  quick entry: typing in the tab does not crash it.

Nothing under ``desktop/`` names either game (checked below)."""
import csv
import importlib
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from window_idle import wait_idle

TOY = Path(__file__).resolve().parent / "toy_game"
ROOT = Path(__file__).resolve().parents[2]


def install_distribution(source: Path, target: Path) -> str:
    """Install the distribution in ``source`` (a ``pyproject.toml`` and its packages) into
    ``target`` the way ``pip install --target`` does (the package folders and a ``.dist-info``
    with ``METADATA`` and ``entry_points.txt``, PyPA "Recording installed projects"); returns the
    distribution's name. Done by hand so that the test needs neither network nor a build
    backend."""
    project = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    for package in ("coin_game",):
        dest = target / package
        dest.mkdir(parents=True)
        for f in (source / package).iterdir():
            if f.is_file():
                (dest / f.name).write_bytes(f.read_bytes())
    info = target / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                                   encoding="utf-8")
    lines = []
    for group, entries in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (info / "INSTALLER").write_text("test\n", encoding="utf-8")
    return name


@pytest.fixture
def toy_installed(tmp_path, monkeypatch):
    """The coin-game distribution installed into a temporary folder on ``sys.path``, and the
    game registry read again; undone afterwards."""
    from engines.registry import refresh

    site = tmp_path / "site"
    install_distribution(TOY, site)
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    games = refresh()
    yield games
    monkeypatch.undo()
    for name in [m for m in sys.modules if m == "coin_game" or m.startswith("coin_game.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    refresh()


@pytest.fixture
def toy_window(toy_installed, qtbot, monkeypatch):
    """A MainWindow made after the toy distribution was installed (the window fixture of
    conftest is made before this test's fixtures could install anything)."""
    from PySide6.QtWidgets import QMessageBox

    from desktop.shell.main_window import MainWindow
    from desktop.shell.settings import app_settings

    app_settings().clear()
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.Ok)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)
    win = MainWindow(autosave=False, interactive=False)
    qtbot.addWidget(win)
    win.show()
    yield win
    for tab in win.game_tabs.values():
        tab.controller.document.undo_stack.setClean()
    win.shutdown()


def _expected(flips, bias):
    """P(trick coin) after ``flips`` (True: heads), by Bayes' rule with prior 1/2."""
    trick = fair = 0.5
    for heads in flips:
        trick *= bias if heads else 1 - bias
        fair *= 0.5
    return trick / (trick + fair)


def test_the_registry_finds_the_installed_games(toy_installed):
    import engines
    from engines.core.contract import capabilities

    assert list(toy_installed)[:5] == ["cluedo", "inkognito", "egghead", "guesswho", "spyfall"]
    assert list(toy_installed)[5:] == ["coin", "plaincoin"]
    assert engines.GAMES["coin"] == "coin_game.engine"
    assert toy_installed["coin"].capabilities() == {"quick_entry", "explanation"}
    assert capabilities(engines.game_module("plaincoin")) == frozenset()
    assert toy_installed["coin"].example_session_path().name == "coin.json"


def test_uninstalled_it_is_gone():
    import engines

    assert "coin" not in engines.GAMES and "plaincoin" not in engines.GAMES


def test_the_coin_game_in_the_main_window(toy_window, qtbot, tmp_path, capsys):
    from engines.registry import game_info

    win = toy_window
    titles = [win.tabs.tabText(i) for i in range(win.tabs.count())]
    assert titles[-2:] == ["Coin", "Plain coin"]
    # the CLI reads the game's session file
    example = game_info("coin").example_session_path()
    from engines.__main__ import main
    assert main(["infer", str(example)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"game": "coin", "p_biased": pytest.approx(_expected([True, True], 0.9))}
    # opened in the window: the game's own tab
    assert win.open_path(str(example), ask=False)
    tab = win.current_tab()
    assert type(tab).__name__ == "CoinTab" and tab.GAME == "coin"
    assert wait_idle(win, 60)
    assert tab.label.text() == f"P(trick coin) = {_expected([True, True], 0.9):.4f} after 2 flips"
    assert tab.history.entry_count() == 3 and "[lucky]" in tab.history.entry_text(2)
    # quick entry, typed by key: the placeholder shows the registry's example
    qe = tab.quick_entry
    assert qe is not None and "heads   ·   tails" in qe.line.placeholderText()
    QTest.keyClicks(qe.line, "ta")
    assert qe.message().startswith("→ tails")
    qe.completer.popup().hide()
    QTest.keyClick(qe.line, Qt.Key_Return)
    qtbot.waitUntil(lambda: tab.history.entry_count() == 4, timeout=10_000)
    assert wait_idle(win, 60)
    assert qe.text() == ""
    assert tab.label.text().endswith("after 3 flips")
    assert tab.plot.series()["trick"] == pytest.approx(
        [0.5] + [_expected([True, True, False][:k], 0.9) for k in (1, 2, 3)])
    # a bad line names what is wrong and logs nothing
    QTest.keyClicks(qe.line, "edge")
    QTest.keyClick(qe.line, Qt.Key_Return)
    assert "'edge' is not heads or tails" in qe.message() and tab.history.entry_count() == 4
    qe.clear()
    # Why? a two-headed coin is ruled out: by the tails (entry 3) alone
    assert tab.replace_setup("two-headed", bias=1.0)
    assert wait_idle(win, 60)
    assert tab.label.text() == "P(trick coin) = 0.0000 after 3 flips"
    tab.show_why({"coin": "trick"}, "The coin is a trick coin")
    popup = tab.why_popup()
    qtbot.waitUntil(lambda: not popup.is_working(), timeout=10_000)
    assert popup.entry_indices() == [2]
    assert tab.history.explained_entries() == [2]
    assert "entry 3 shows tails" in popup.steps_text()
    tab.close_why()
    # History: the beliefs after the first flip; undo
    tab.history.select_entry(1)
    assert tab.label.text().endswith("after 1 flips")
    tab.history.select_live()
    tab.controller.document.undo_stack.undo()      # the setup change
    tab.controller.document.undo_stack.undo()      # the typed tails
    assert wait_idle(win, 60)
    assert tab.history.entry_count() == 3 and tab.label.text().endswith("after 2 flips")
    # CSV export and save
    out_csv = tmp_path / "coin.csv"
    with qtbot.waitSignal(tab.exportFinished, timeout=10_000) as b:
        win.write_csv(tab, str(out_csv))
    assert b.args == [str(out_csv), ""]
    rows = list(csv.reader(out_csv.open(encoding="utf-8")))
    assert rows[0][-1] == "p_biased" and len(rows) == 4
    assert float(rows[-1][-1]) == pytest.approx(_expected([True, True], 0.9), rel=1e-5)
    tab.controller.document.save(str(tmp_path / "saved.json"))
    from engines.core.schema import read_session_file
    again = read_session_file(str(tmp_path / "saved.json"))
    assert again.game == "coin" and again.meta[1].note == "lucky" and len(again.events) == 2


def test_an_engine_with_only_the_required_names_gets_the_generic_tab(toy_window, qtbot):
    """No quick entry is built for it, so typing in its tab (the keys that focus quick entry
    elsewhere, then a line and Enter) changes nothing and raises nothing."""
    from desktop.tabs.generic_tab import GenericTab

    win = toy_window
    assert win.select_game("plaincoin")
    tab = win.current_tab()
    assert isinstance(tab, GenericTab) and tab.quick_entry is None
    assert wait_idle(win, 60)
    tab.setFocus()
    for key in ("/", "heads"):
        QTest.keyClicks(tab, key)
    QTest.keyClick(tab, Qt.Key_Return)
    QTest.keyClick(tab, Qt.Key_L, Qt.ControlModifier)
    assert len(tab.controller.document.events) == 0
    assert tab.log_json({"type": "flip", "heads": False})
    assert wait_idle(win, 60)
    assert tab.table.item(0, 0).text() == "p_biased"
    assert tab.table.item(0, 1).text() == "0.0 %"          # the default coin is two-headed
    assert tab.caption.text() == "Beliefs after 1 of 1 entry"
    assert tab.plot.series()["p_biased"] == pytest.approx([0.5, 0.0])


def test_nothing_under_desktop_names_the_toy_games():
    for path in (ROOT / "desktop").rglob("*"):
        if path.suffix in (".py", ".md"):
            assert not re.search(r"\bcoin", path.read_text(encoding="utf-8"), re.I), path


def test_installed_games_join_the_tab_bar_after_the_first_frame(toy_installed, qtbot,
                                                                 monkeypatch):
    """The first frame shows the built-in games without reading package metadata; the games
    of installed packages are added right after it, with their View menu items."""
    import engines.registry as registry
    from desktop.shell.main_window import MainWindow

    monkeypatch.setattr(registry, "_registered", None)     # as at start: nothing read yet
    win = MainWindow(autosave=False, interactive=False)
    qtbot.addWidget(win)
    assert win.games() == ["cluedo", "inkognito", "egghead", "guesswho", "spyfall"]
    win.show()
    qtbot.waitUntil(lambda: win.games()[5:] == ["coin", "plaincoin"], timeout=10_000)
    titles = [a.text() for a in win.view_menu.actions() if not a.isSeparator()]
    assert titles[-2:] == ["Coin", "Plain coin"]
    coin = next(a for a in win.view_menu.actions() if a.text() == "Coin")
    assert coin.shortcut().toString() == "Ctrl+6"
    coin.trigger()
    qtbot.waitUntil(lambda: "coin" in win.game_tabs, timeout=10_000)
    win.shutdown()


def test_the_installed_games_pass_the_conformance_kit(toy_installed):
    """What a plug-in runs from its own tests (docs/writing-a-game.md)."""
    from engines.core.conformance import conformance_problems

    assert conformance_problems(toy_installed["coin"]) == []
    assert conformance_problems(toy_installed["plaincoin"]) == []
    assert toy_installed["coin"].guide_page_path().name == "coin.md"


def test_the_self_test_checks_the_installed_games_and_their_guide(toy_installed, qtbot, tmp_path,
                                                                   capsys):
    """``deduction-desk --self-test`` with a plug-in installed: the installed games are
    discovered before the tabs are checked, each gets its tab and example, and F1 shows the
    page the coin game declares."""
    from PySide6.QtCore import QStandardPaths
    from PySide6.QtWidgets import QApplication

    from desktop.shell.main_window import MainWindow
    from desktop.shell.selftest import run_self_test

    try:
        code = run_self_test(str(tmp_path / "shot.png"), MainWindow, QApplication.instance)
    finally:
        # the self-test moves the process's data folder to Qt's test location (a self-test
        # process ends there); the tests after this one keep their own folder
        QStandardPaths.setTestModeEnabled(False)
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "ok   coin: 2 events" in out.out and "ok   plaincoin" in out.out
    assert "self-test passed" in out.out


def test_the_projects_own_contract_tests_and_the_games_own_tests_pass_installed(tmp_path):
    """In a fresh interpreter that has the toy distribution on its path: the repository's
    contract tests, unchanged, run on the installed games too, and pass; so does the test the
    toy package keeps for itself (``toy_game/coin_tests.py``, the conformance kit)."""
    import os
    import subprocess

    site = tmp_path / "site"
    install_distribution(TOY, site)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:randomly",
                          "-p", "no:cacheprovider", "tests/engines/test_contract.py",
                          str(TOY / "coin_tests.py"), "-k", "conforms", "-v"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "conforms[coin]" in run.stdout and "conforms[plaincoin]" in run.stdout
    assert "coin_tests.py::test_coin_conforms PASSED" in run.stdout

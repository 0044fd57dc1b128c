"""``deduction-desk --self-test``: a headless check of the installed app or bundle.

Opens every tab, loads the bundled example session of each game, waits for the background
inference, checks that a posterior arrived without an error, runs each engine once directly
(``infer``, and ``recommend`` where there is one), shows each game's page of the guide (F1),
writes a screenshot, and exits 0 — or exits 1
after printing which part failed.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

#: Longest wait (s) of the self-test's call to the engines' worker process while another
#: owner's call (the first tab's advisors) is in flight.
WORKER_BUSY_WAIT_S = 60.0


def run_self_test(screenshot: str | None, window_class, make_app) -> int:
    """Run the self-test (module docstring) on a ``window_class`` window
    (:class:`desktop.shell.main_window.MainWindow`, passed by ``main()``: this module does not import the
    app) in the QApplication of ``make_app()``; returns the exit code (0 passed, 1 failed)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QStandardPaths

    from desktop.shell.process import configure_process

    failures: list[str] = []
    t0 = time.perf_counter()
    app = make_app()
    QStandardPaths.setTestModeEnabled(True)
    configure_process()   # as main() does for the windowed app
    win = window_class(autosave=False, interactive=False)
    win.resize(1280, 820)
    win.show()
    win.add_discovered_games()   # the installed packages' games too, as after the first frame
    _check_engine_worker(failures)
    for game, tab in _build_tabs(win, failures).items():
        _check_game(win, game, tab, failures)
        _check_guide(win, game, failures)
    out = screenshot or os.path.join(tempfile.gettempdir(), "deduction-desk-self-test.png")
    app.processEvents()
    if not win.grab().save(out):
        failures.append(f"screenshot: cannot write {out}")
    win.shutdown()
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr, flush=True)
    print(f"self-test {'failed' if failures else 'passed'} in {time.perf_counter() - t0:.1f} s; "
          f"screenshot {out}", flush=True)
    return 1 if failures else 0


def _check_engine_worker(failures: list) -> None:
    """The advisors' worker process (:mod:`desktop.tabs.engine_process`) starts and answers a
    call from another process: in the bundle, the bundle's program started again, which
    ``multiprocessing.freeze_support`` in ``main()`` turns into the worker."""
    from PySide6.QtCore import QCoreApplication

    from desktop.tabs import engine_process

    worker = engine_process.shared()
    worker.start(warm=(engine_process.__name__,))
    if not worker.wait_ready(60):
        failures.append(f"engine worker process: not ready in 60 s ({worker._state})")
        return
    # the first tab's advisors may be using it: their call ends, then the self-test's is taken
    deadline = time.monotonic() + WORKER_BUSY_WAIT_S
    while True:
        try:
            pid = worker.call(engine_process.process_id, cancelled=lambda: False)
            break
        except Exception as exc:  # noqa: BLE001 - name what broke
            if isinstance(exc, engine_process.Unavailable) and worker.busy \
                    and time.monotonic() < deadline:
                QCoreApplication.processEvents()
                time.sleep(0.02)
                continue
            failures.append(f"engine worker process: {type(exc).__name__}: {exc}")
            return
    if pid == os.getpid():
        failures.append("engine worker process: the call ran in the app's own process")
        return
    print(f"ok   engine worker process (pid {pid})", flush=True)


def _build_tabs(win, failures: list) -> dict:
    """``{game: tab}`` for every registered game; a game with an example but no tab is a
    failure (tabs are lazy: each is built here)."""
    from engines.registry import registered_games

    tabs = {}
    for game, info in registered_games().items():
        try:
            tab = win.tab_for(game)
            why = "no desktop tab module or no engine"
        except Exception as exc:  # noqa: BLE001 - name what broke
            tab, why = None, f"{type(exc).__name__}: {exc}"
        if tab is not None:
            tabs[game] = tab
        elif info.example_session_path() is not None:
            failures.append(f"{game} tab missing ({why})")
    return tabs


def _check_guide(win, game: str, failures: list) -> None:
    """F1 on ``game``'s tab: the guide shows the page the game declares
    (:meth:`engines.registry.GameInfo.guide_page_path`; the built-in games' pages are shipped in
    ``resources/guide``, also in the bundle), and every picture on it loads. A game that
    declares no page gets the overview, which is no failure."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument, QTextImageFormat

    from engines.registry import game_info

    dock = getattr(win, "guide_dock", None)
    if dock is None:
        failures.append("guide: the window has no Help → Guide")
        return
    info = game_info(game)
    if not info.guide:
        print(f"ok   {game}: no guide page declared (F1 shows the overview)", flush=True)
        return
    page = info.guide_page_path()
    if page is None:
        failures.append(f"{game} guide: the declared page {info.guide} is missing")
        return
    win.select_game(game)
    dock.show_for_game(game)
    browser = dock.browser
    if QUrl.fromLocalFile(str(page)).toLocalFile() != browser.source().toLocalFile():
        failures.append(f"{game} guide: page not shown ({browser.source().toString()[:80]})")
        return
    doc = browser.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                name = QTextImageFormat(fmt).name()
                image = doc.resource(QTextDocument.ResourceType.ImageResource.value,
                                     browser.source().resolved(QUrl(name)))
                if image is None or image.isNull():
                    failures.append(f"{game} guide: picture {name} not found")
            it += 1
        block = block.next()
    dock.hide()


def _check_game(win, game: str, tab, failures: list) -> None:
    """The engine on the game's example session (every method, and ``recommend``), then the
    example opened in the tab: a posterior must arrive, and no error banner."""
    from desktop.shell.headless import wait_until_idle
    from engines import game_module
    from engines.core.contract import has_capability
    from engines.core.schema import read_session_file
    from engines.registry import game_info

    example = game_info(game).example_session_path()
    if example is None:
        print(f"ok   {game}: no example session to open", flush=True)
        return
    try:
        data = read_session_file(str(example))
        mod = game_module(game)
        for method in mod.METHODS:  # every method: e.g. Cluedo's center needs cvxpy
            mod.infer(data.setup, data.events, method=method).to_json()
        if has_capability(mod, "recommendation"):
            mod.recommend(data.setup, data.events).to_json()
    except Exception as exc:  # noqa: BLE001 - report every failing part, keep going
        failures.append(f"{game} engine on {example.name}: {type(exc).__name__}: {exc}")
        return
    if not win.open_path(str(example), ask=False):
        failures.append(f"{game} tab: could not open {example.name}")
        return
    win.select_game(game)
    if not wait_until_idle(win, 120):
        failures.append(f"{game} tab: inference did not finish in 120 s")
        return
    if tab.controller.timeline is None or tab.controller.timeline.latest is None:
        failures.append(f"{game} tab: no posterior arrived")
    elif tab.banner.isVisible():
        failures.append(f"{game} tab: error shown: {tab.banner.text()}")
    print(f"ok   {game}: {len(data.events)} events", flush=True)

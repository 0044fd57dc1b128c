"""Why? in the desktop, timed (not a pass/fail test; run it by hand):

    QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_why.py [--seeds 3]

* **Why? popup**, every example session (resources/examples) and, for Cluedo, classic 4-player
  logs of 30 suggestions (tests/benchmarks/bench_cluedo.py's game log): for up to 20 decided
  cells, the time the GUI thread spends in the click (``GameTab.show_why``: the popup and the
  background request) and the wall time until the popup shows the explanation.
* **Contradiction banner**: the same Cluedo logs with one mistyped entry appended (a player
  "does not have" a card the log proves they hold): the wall time from logging it until the
  banner names the conflicting set (the beliefs and ``explain_contradiction``, both in the
  background), and the set's size.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[2])]

import numpy as np  # noqa: E402 (after the set-up above)
from bench_cluedo import game_log  # noqa: E402 (after the set-up above)


def _report(name: str, gui: list, wall: list, extra: str = "") -> None:
    gui, wall = sorted(gui), sorted(wall)
    print(f"{name:36s} n {len(wall):3d}  GUI thread median {1e3 * statistics.median(gui):5.1f} ms "
          f"worst {1e3 * gui[-1]:5.1f} ms  until shown median {1e3 * statistics.median(wall):6.1f} "
          f"ms worst {1e3 * wall[-1]:6.1f} ms{extra}", flush=True)


def _decided_facts(game: str, tab, limit: int = 20) -> list:
    """(fact, subject) of decided cells as the tab shows them."""
    setup = tab.controller.document.setup
    out = []
    if game == "cluedo":
        m = tab.model.matrix()
        for c, o in zip(*np.nonzero((m <= 1e-9) | (m >= 1 - 1e-9))):
            out.append(({"card": setup.cards[c], "place": setup.owners[o]}, "cell"))
    elif game == "inkognito":
        post = tab.controller.timeline.latest
        for opp, b in post.opponents.items():
            for kind, probs in (("identity", b.identity), ("build", b.build)):
                out += [({"opponent": opp, kind: k}, "cell") for k, p in probs.items()
                        if p <= 1e-12 or p >= 1 - 1e-9]
    elif game == "egghead":
        m = tab.position_model.matrix()
        for i, v in zip(*np.nonzero((m <= 1e-9) | (m >= 1 - 1e-9))):
            out.append(({"position": int(i) + 1, "value": int(v) + 1}, "cell"))
    elif game == "guesswho":
        post = tab.controller.timeline.latest
        out = [({"name": n}, "card") for n, a in zip(post.names, post.alive) if not a]
    return out[:limit]


def _time_why(app, win, tab, facts) -> tuple[list, list]:
    gui, wall = [], []
    for fact, subject in facts:
        t0 = time.perf_counter()
        tab.show_why(fact, subject)
        t1 = time.perf_counter()
        popup = tab.why_popup()
        while popup.is_working():
            app.processEvents()
            time.sleep(0.001)
        wall.append(time.perf_counter() - t0)
        gui.append(t1 - t0)
        assert popup.status in ("certain", "impossible"), (fact, popup.status)
    tab.close_why()
    return gui, wall


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args(argv)

    from desktop.shell.headless import wait_until_idle as wait_idle
    from desktop.shell.main_window import MainWindow, make_app
    from engines import cluedo
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    app = make_app()
    win = MainWindow(autosave=False, interactive=False)
    win.resize(1280, 800)
    win.show()
    for game in ("cluedo", "inkognito", "egghead", "guesswho"):
        data = read_session_file(str(resource_path("examples", f"{game}.json")))
        win.select_game(game)
        tab = win.tab_for(game)
        tab.reset_document(data.setup, data.events)
        assert wait_idle(win, 120)
        gui, wall = _time_why(app, win, tab, _decided_facts(game, tab))
        _report(f"Why? {game} example ({len(data.events)} events)", gui, wall)

    setup = cluedo.Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob", "Cy"],
                                    "me": "Me"})
    win.select_game("cluedo")
    tab = win.tab_for("cluedo")
    gui_all, wall_all, banner, sizes = [], [], [], []
    for seed in range(args.seeds):
        events = game_log(setup, 30, seed)
        tab.reset_document(setup, events)
        assert wait_idle(win, 120)
        gui, wall = _time_why(app, win, tab, _decided_facts("cluedo", tab))
        gui_all += gui
        wall_all += wall
        # a mistyped entry: someone "does not have" a card the log proves they hold
        m = tab.model.matrix()
        held = [(c, o) for c, o in zip(*np.nonzero(m >= 1 - 1e-9)) if 0 < o < len(setup.players)]
        if not held:
            continue
        c, o = held[0]
        t0 = time.perf_counter()
        tab.log_json({"type": "lacks", "player": setup.players[o], "card": setup.cards[c]})
        while not tab.history.conflict_entries():
            app.processEvents()
            time.sleep(0.001)
            if time.perf_counter() - t0 > 60:
                raise RuntimeError("no conflicting set named within 60 s")
        banner.append(time.perf_counter() - t0)
        sizes.append(len(tab.history.conflict_entries()))
    _report("Why? Cluedo classic 4p, 31 events", gui_all, wall_all)
    if banner:
        banner.sort()
        print(f"{'Banner: conflicting set, 4p, 32 ev.':36s} n {len(banner):3d}  until named median "
              f"{1e3 * statistics.median(banner):6.1f} ms worst {1e3 * banner[-1]:6.1f} ms  "
              f"set size mean {statistics.mean(sizes):.1f} max {max(sizes)}", flush=True)
    win.shutdown()


if __name__ == "__main__":
    main()

"""Benchmark: GUI-thread cost of one logged fact (push the undo command, refresh the history,
submit the inference job) and of drawing a result, per tab (budget: one frame, < 16 ms).

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_click.py``.
"""
import os
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    from desktop.shell.headless import wait_until_idle as wait_idle
    from desktop.shell.main_window import MainWindow, make_app
    from engines.core.resources import resource_path

    app = make_app()  # noqa: F841 (the QApplication must stay alive while the window runs)
    win = MainWindow(autosave=True, interactive=False)
    win.show()
    for game, tab in win.build_all_tabs().items():
        win.open_path(str(resource_path("examples", f"{game}.json")), ask=False)
        win.select_game(game)
        wait_idle(win)
        events = list(tab.controller.document.events)
        if not events:
            continue
        tab.reset_document(tab.controller.document.setup, events[:-1])
        wait_idle(win)
        clicks, draws = [], []
        for _ in range(20):
            t0 = time.perf_counter()
            tab.log_event(events[-1])  # what a click or a form does on the GUI thread
            clicks.append(time.perf_counter() - t0)
            wait_idle(win)
            t0 = time.perf_counter()
            tab._show_view()
            draws.append(time.perf_counter() - t0)
            tab.controller.document.undo_stack.undo()
            wait_idle(win)
        print(f"{game:10s} log a fact: median {1000 * statistics.median(clicks):5.1f} ms, worst "
              f"{1000 * max(clicks):5.1f} ms | redraw beliefs: median {1000 * statistics.median(draws):5.1f} ms, "
              f"worst {1000 * max(draws):5.1f} ms")
        tab.controller.document.undo_stack.setClean()
    win.autosave.discard()
    win.shutdown()


if __name__ == "__main__":
    main()

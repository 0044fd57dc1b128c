"""Benchmark: threads alive once the window is up, and resident memory after opening every
example session (each tab's first result shown).

Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_desktop.py``. Prints the
Python threads (``threading.active_count``), the Qt threads the process runs (from
``/proc/self/task``, Linux; includes Qt's own pool and the GUI thread) and the RSS in MiB.
"""
import os
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _os_threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return -1


def _rss_mib() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    from PySide6.QtCore import QThread  # noqa: F401  (Qt loaded before counting)

    from desktop.shell.headless import wait_until_idle as wait_idle
    from desktop.shell.main_window import MainWindow, make_app
    from engines.core.resources import resource_path

    app = make_app()
    win = MainWindow(autosave=False, interactive=False)
    win.show()
    app.processEvents()
    wait_idle(win)
    print(f"threads at start-up: {_os_threads()} OS threads "
          f"({threading.active_count()} Python threads)")
    print(f"RSS at start-up: {_rss_mib():.0f} MiB")
    for game in win.games():   # opening an example builds its tab
        win.open_path(str(resource_path("examples", f"{game}.json")), ask=False)
        wait_idle(win, timeout_s=600)
    print(f"threads after opening every example: {_os_threads()} OS threads")
    print(f"RSS after opening every example: {_rss_mib():.0f} MiB")
    win.shutdown()


if __name__ == "__main__":
    main()

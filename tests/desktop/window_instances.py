"""Windows that stand for separate instances of the app in one test process (each with its
own recovery file and hand-off server), and the start of a child process that is another
instance, for the recovery and hand-off tests."""
import textwrap
from pathlib import Path

from engines.core.resources import resource_path

#: The repository root (the working directory of child instances).
ROOT = Path(__file__).resolve().parents[2]

#: The first lines of a child instance's script: the same data folders (XDG_* from conftest)
#: and application names as the tests, offscreen; defines ``app``, ``MainWindow``, ``os``,
#: ``sys`` and ``time``.
CHILD_PRELUDE = textwrap.dedent("""
    import os, sys, time
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from desktop.shell.main_window import MainWindow, make_app
    app = make_app()
    app.setApplicationName("Deduction Desk")
    app.setOrganizationName("DeductionDeskTests")
""")


def instance_window(qtbot):
    """A MainWindow with autosave on (its own locked recovery file), closed by the test with
    :func:`close_instance`."""
    from desktop.shell.main_window import MainWindow

    w = MainWindow(autosave=True)
    qtbot.addWidget(w)
    return w


def close_instance(w) -> None:
    """Quit ``w`` cleanly without dialogs: its games marked saved, its recovery file discarded,
    its jobs stopped, its hand-off server closed and its locks released."""
    for t in w.game_tabs.values():
        t.controller.document.undo_stack.setClean()
    w.autosave.enabled = True
    w.autosave.discard()
    w.shutdown()
    w.handoff.close()
    w.autosave.release()


def copy_example(tmp_path, game: str = "guesswho") -> str:
    """The path of a copy of ``game``'s example session in ``tmp_path``."""
    p = tmp_path / f"{game}.json"
    p.write_bytes(resource_path("examples", f"{game}.json").read_bytes())
    return str(p)

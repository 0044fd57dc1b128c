"""Windows that stand for separate instances of the app in one test process (each with its
own recovery file and hand-off server), for the recovery and hand-off tests."""
from engines.core.resources import resource_path


def instance_window(qtbot):
    """A MainWindow with autosave on (its own locked recovery file), closed by the test with
    :func:`close_instance`."""
    from desktop.app import MainWindow

    w = MainWindow(autosave=True)
    qtbot.addWidget(w)
    return w


def close_instance(w) -> None:
    """Quit ``w`` cleanly without dialogs: its games marked saved, its recovery file discarded,
    its jobs stopped, its hand-off server closed and its locks released."""
    for t in w.game_tabs.values():
        t.document.undo_stack.setClean()
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

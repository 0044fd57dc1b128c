"""Wait for the autosave of the changes made so far (it writes one pass of the event loop after
a change, after the repaint: desktop.storage.document.Autosave)."""


def wait_written(qtbot, *windows, timeout: int = 5000) -> None:
    """Run the event loop until no window has an autosave write pending."""
    qtbot.waitUntil(lambda: not any(w.autosave.pending() for w in windows), timeout=timeout)

"""The test helpers' wait for a window: ``wait_idle(window, timeout_s)`` runs the event loop
until ``window`` (a :class:`desktop.shell.main_window.MainWindow`) is idle — no file being opened, every
built tab's jobs done and its History laid out — after building the tab on screen. True when
idle, False when ``timeout_s`` passed first (tests assert it). The app's own screenshot mode
and self-test use the same wait (:func:`desktop.shell.headless.wait_until_idle`).
``example_tab(window, game)``: a game's tab showing its example session, idle."""
from desktop.shell.headless import wait_until_idle


def wait_idle(window, timeout_s: float = 30.0) -> bool:
    """Run the event loop until ``window`` is idle (module docstring)."""
    return wait_until_idle(window, timeout_s)


def example_tab(window, game: str, size=(1280, 800)):
    """``game``'s tab in ``window`` resized to ``size``, with the game's example session in it,
    idle: ``(tab, session)`` (the session as read, :class:`engines.core.schema.SessionData`)."""
    from engines.core.resources import resource_path
    from engines.core.schema import read_session_file

    session = read_session_file(str(resource_path("examples", f"{game}.json")))
    window.resize(*size)
    window.select_game(game)
    tab = window.tab_for(game)
    tab.reset_document(session.setup, list(session.events))
    assert wait_idle(window, 60)
    return tab, session

"""The Spyfall tab set up for a test, shared by the table tests (tests/desktop/test_spyfall_*):
the tab of the conftest's ``window`` with a fresh document, and a clock the round timer reads."""
from window_idle import wait_idle

from engines import spyfall


def wait(window) -> None:
    """Until ``window`` 's tabs have shown every result asked for (fails after 60 s)."""
    assert wait_idle(window, 60)


def open_spyfall(window, setup=None, events=()):
    """``window`` 's Spyfall tab, selected, on a new document of ``setup`` (the default table
    when None) and ``events``, once its beliefs are shown."""
    window.select_game("spyfall")
    tab = window.tab_for("spyfall")
    tab.reset_document(setup or spyfall.default_setup(), list(events))
    wait(window)
    return tab


class FakeClock:
    """A monotonic clock the test moves by hand (``clock.t += seconds``)."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t

"""The progress banner of a long computation (desktop.tabs.banner_state.BannerPresenter): shown
with Cancel once the computation has run PROGRESS_AFTER_MS, unless its progress then says it
ends within PROGRESS_NEARLY_DONE_MS — a notice shown for a tenth of a second is a flicker that
moves the whole tab twice; looked at again after its expected end, it is shown if the
computation still runs."""
import pytest

from desktop.tabs import banner_state
from desktop.tabs.banner_state import BannerPresenter, BannerState
from desktop.tabs.snapshot import Snapshot, Status
from desktop.widgets.banner import Banner


@pytest.fixture
def presenter(qtbot):
    banner = Banner()
    qtbot.addWidget(banner)
    return BannerPresenter(banner, "Game", lambda i: f"entry {i}", lambda: False,
                           lambda _stale: None)


def _busy(revision: int = 1) -> Snapshot:
    return Snapshot(revision=revision, status=Status.COMPUTING, busy=True)


def test_a_computation_far_from_its_end_shows_its_progress(presenter, qtbot):
    presenter.render(_busy())
    presenter.on_progress(1, 50)
    qtbot.waitUntil(lambda: presenter.state is BannerState.PROGRESS,
                    timeout=banner_state.PROGRESS_AFTER_MS + 2000)
    assert presenter.banner.message().startswith("Computing the beliefs: 1 of 50")


def test_a_computation_nearly_done_is_not_announced_and_ends_without_a_banner(presenter, qtbot):
    presenter.render(_busy())
    qtbot.wait(banner_state.PROGRESS_AFTER_MS - 100)
    presenter.on_progress(99, 100)          # at this pace, about 7 ms left
    qtbot.wait(200)                         # past PROGRESS_AFTER_MS
    assert presenter.state is BannerState.NONE and not presenter.banner.message()
    presenter.render(_busy().replace(status=Status.READY, busy=False))
    qtbot.wait(banner_state.PROGRESS_UPDATE_MS + 200)
    assert presenter.state is BannerState.NONE and not presenter.banner.message()


def test_a_computation_that_was_nearly_done_but_runs_on_is_announced(presenter, qtbot):
    presenter.render(_busy())
    qtbot.wait(banner_state.PROGRESS_AFTER_MS - 100)
    presenter.on_progress(99, 100)
    qtbot.wait(200)
    assert presenter.state is BannerState.NONE
    qtbot.waitUntil(lambda: presenter.state is BannerState.PROGRESS,
                    timeout=banner_state.PROGRESS_UPDATE_MS + 2000)   # still running
    assert presenter.banner.button.text() == "Cancel"

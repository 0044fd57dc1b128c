"""The Simulation tabs' "Run on" selector gives the simulators' scheduler."""
import pytest

from desktop.widgets.run_on import LOCAL_CLUSTER, SCHEDULER, THIS_COMPUTER, RunOnSelector
from engines.core.errors import SessionFormatError
from engines.core.executor import dask_available


def test_run_on_gives_the_scheduler(qtbot):
    w = RunOnSelector()
    qtbot.addWidget(w)
    w.where.setCurrentIndex(THIS_COMPUTER)
    assert w.scheduler() is None and w.problem() is None
    if not dask_available():
        assert not w.where.model().item(SCHEDULER).isEnabled()
        return
    w.where.setCurrentIndex(LOCAL_CLUSTER)
    assert w.scheduler().startswith("local:")
    w.where.setCurrentIndex(SCHEDULER)
    w.address.setText("tcp://head:8786")
    assert w.scheduler() == "tcp://head:8786"
    w.address.setText("head")
    with pytest.raises(SessionFormatError, match="Run on"):
        w.scheduler()
    assert "tcp://HOST:8786" in w.problem()

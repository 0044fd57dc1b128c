"""Functions the engines' worker process (desktop/tabs/engine_process.py) runs in its tests:
importable by name in the worker, each with the ``cancel`` flag an engine function takes."""
import os
import time

from engines.core.errors import ContradictionError, check_cancel
from engines.core.i18n import _


def worker_pid(*, cancel) -> int:
    """The process it ran in."""
    return os.getpid()


def echo(*args, cancel, **kwargs) -> tuple:
    """Its arguments back: ``(*args, kwargs)``."""
    return (*args, kwargs)


def count_slowly(n: int, record: str, *, cancel, on_step=None) -> int:
    """Count to ``n`` (10 ms a step), writing the count so far to the file ``record`` and
    handing each step to ``on_step``; stops at the cancel flag."""
    for i in range(n):
        check_cancel(cancel)
        with open(record, "w") as f:
            f.write(str(i + 1))
        if on_step is not None:
            on_step(i)
        time.sleep(0.01)
    return n


def contradict(*, cancel):
    """A contradiction at event 5, its message in the language in effect."""
    raise ContradictionError(4, _("the setup is impossible: {reason}").format(reason="x"))


def fail(*, cancel):
    """A bug: a KeyError."""
    return {}["missing"]

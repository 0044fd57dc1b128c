"""``simulate`` stays within the machine: worker processes are capped at the cores this
process may use (unless a remote scheduler is given), and an unreachable Dask scheduler is
refused within 3 s."""
from __future__ import annotations

import os
import socket
import time

import pytest

from engines.core.errors import SessionFormatError
from engines.core.executor import cores, run_games


def _pid(index, seed_seq):
    time.sleep(0.05)
    return os.getpid()


def test_workers_are_capped_at_the_cores():
    pids = run_games(_pid, 24, 0, workers=min(8, 4 * cores()), chunk_size=1)
    assert len(pids) == 24
    assert len(set(pids)) <= cores()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def silent_address():
    """A local address whose connection attempts time out: a listener with a backlog of one,
    filled (Linux then drops further SYNs, as a host behind a firewall does)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(0)
    port = srv.getsockname()[1]
    filler = socket.create_connection(("127.0.0.1", port), timeout=1)
    yield f"tcp://127.0.0.1:{port}"
    filler.close()
    srv.close()


@pytest.mark.parametrize("kind", ["refused", "silent"])
def test_unreachable_scheduler_fails_within_3_s(kind, silent_address):
    address = f"tcp://127.0.0.1:{_free_port()}" if kind == "refused" else silent_address
    t0 = time.monotonic()
    with pytest.raises(SessionFormatError) as exc:
        run_games(_pid, 4, 0, scheduler=address)
    assert time.monotonic() - t0 < 3.0
    assert exc.value.path == "--scheduler" and address in exc.value.message


def test_ctrl_c_stops_a_long_simulation_at_once():
    """``simulate`` is a batch as long as its ``--games`` ask (here 99,999 Inkognito games,
    minutes of work): Ctrl+C (SIGINT) once it runs stops it within 3 s, exit 130, nothing on
    stdout, one line on stderr and no traceback."""
    import signal
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = subprocess.Popen([sys.executable, "-m", "engines", "simulate", "inkognito", "--games",
                          "99999", "--policy", "random", "--max-questions", "4"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(5)                       # past the imports: the games are running
    assert p.poll() is None
    p.send_signal(signal.SIGINT)
    t = time.monotonic()
    out, err = p.communicate(timeout=30)
    assert time.monotonic() - t < 3
    assert p.returncode == 130 and out == b""
    assert err.decode().strip() == "interrupted: stopped before a result (nothing on stdout)"

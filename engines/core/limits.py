"""Limits on what input may ask of the machine: memory available to this process, and checks
that refuse a computation before it allocates (the team rule "every size a user can type drives
memory or time: check it against a limit before you allocate").

The memory available is the smallest of

* ``MemAvailable`` in ``/proc/meminfo`` (Linux; the kernel's estimate of memory that can be
  given out without swapping, see ``Documentation/filesystems/proc.rst``);
* the process's address-space and data-segment limits (``ulimit -v`` / ``-d``,
  :func:`resource.getrlimit` with ``RLIMIT_AS`` and ``RLIMIT_DATA``) minus what the process
  already uses (``VmSize`` / ``VmData`` in ``/proc/self/status``);
* the cgroup v2 limit ``memory.max`` minus ``memory.current`` (containers, systemd slices).

Where none of them can be read (another OS), nothing is known and the checks pass.
"""
from __future__ import annotations

import os
from typing import Optional

from engines.core.errors import SessionFormatError
from engines.core.i18n import _

#: Below this, a computation is never refused for memory (the interpreter and numpy alone
#: take ~100 MB; any machine that runs the app has this much).
SMALL_BYTES = 256 << 20


def _meminfo_available() -> Optional[int]:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _status_kb(field: str) -> Optional[int]:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _rlimit_headroom() -> Optional[int]:
    try:
        import resource
    except ImportError:   # not on Windows
        return None
    out = None
    for name, used_field in (("RLIMIT_AS", "VmSize"), ("RLIMIT_DATA", "VmData")):
        lim = getattr(resource, name, None)
        if lim is None:
            continue
        try:
            soft, _hard = resource.getrlimit(lim)
        except (OSError, ValueError):
            continue
        if soft == resource.RLIM_INFINITY or soft < 0:
            continue
        used = _status_kb(used_field) or 0
        room = max(0, soft - used)
        out = room if out is None else min(out, room)
    return out


def _cgroup_headroom() -> Optional[int]:
    try:
        with open("/proc/self/cgroup") as f:
            rel = next((ln.split(":", 2)[2].strip() for ln in f if ln.startswith("0::")), None)
        if rel is None:
            return None
        base = os.path.join("/sys/fs/cgroup", rel.lstrip("/"))
        with open(os.path.join(base, "memory.max")) as f:
            text = f.read().strip()
        if text == "max":
            return None
        with open(os.path.join(base, "memory.current")) as f:
            cur = int(f.read().strip())
        return max(0, int(text) - cur)
    except (OSError, ValueError, StopIteration):
        return None


def available_bytes() -> Optional[int]:
    """Memory this process can still allocate (bytes): the smallest of the system's available
    memory, the process limits and the cgroup limit (module docstring); None where unknown."""
    known = [v for v in (_meminfo_available(), _rlimit_headroom(), _cgroup_headroom())
             if v is not None]
    return min(known) if known else None


def check_memory(need: int, path: str, what: str, advice: str = "") -> None:
    """Refuse a computation that needs ``need`` bytes when less is available.

    Args:
        need: estimated peak bytes of the computation.
        path: JSON path (or CLI option) of the field that sets the size.
        what: the computation in words, e.g. ``"4 players with 3003 stacks each"``.
        advice: what the player can change (appended to the message).

    Raises:
        SessionFormatError: at ``path``, naming the memory needed and available.
    """
    if need <= SMALL_BYTES:
        return
    avail = available_bytes()
    if avail is not None and need > avail:
        words = _("{what}: about {need} GB of memory is needed and {available} GB is available "
                  "to this program").format(what=what, need=f"{need / 1e9:.1f}",
                                            available=f"{avail / 1e9:.1f}")
        raise SessionFormatError(path, _("{message}; {advice}").format(message=words, advice=advice)
                                 if advice else words)


def check_size(value: int, limit: int, path: str, what: str, why: str) -> None:
    """Refuse ``value`` over ``limit``: ``"<path>: <what> is 10000; at most 200 (<why>)"``.

    Raises:
        SessionFormatError: at ``path``.
    """
    if value > limit:
        raise SessionFormatError(path, _("{what} is {value}; at most {limit} are allowed ({why})")
                                 .format(what=what, value=value, limit=limit, why=why))

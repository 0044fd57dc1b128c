"""Every example session gives the same beliefs from ``python -m engines infer`` as before the
belief timeline moved out of the engines (tests/engines/infer_before/), all fields but the
removed history arrays and the wall-clock time."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import engines

ROOT = Path(__file__).resolve().parents[2]
BEFORE = Path(__file__).resolve().parent / "infer_before"
REMOVED = {"spy_history", "history_with_ba", "history_without_ba"}
IGNORED = {"seconds"}


def _same(now, before, path="$"):
    """Raise AssertionError naming the first JSON path where ``now`` and ``before`` differ
    (numbers within 1e-9 relative / 1e-12 absolute: shared statistics now come from
    engines.core and may differ in the last bits)."""
    if isinstance(before, dict):
        assert isinstance(now, dict), path
        keys = set(before) - REMOVED - IGNORED
        assert set(now) - IGNORED == keys, f"{path}: keys {sorted(set(now) ^ keys)}"
        for k in keys:
            _same(now[k], before[k], f"{path}.{k}")
    elif isinstance(before, list):
        assert isinstance(now, list) and len(now) == len(before), path
        for i, (a, b) in enumerate(zip(now, before)):
            _same(a, b, f"{path}[{i}]")
    elif isinstance(before, float) or isinstance(now, float):
        assert math.isclose(now, before, rel_tol=1e-9, abs_tol=1e-12), f"{path}: {now} != {before}"
    else:
        assert now == before, f"{path}: {now!r} != {before!r}"


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_cli_infer_of_every_example_is_unchanged(game):
    out = subprocess.run([sys.executable, "-m", "engines", "infer",
                          str(ROOT / "resources" / "examples" / f"{game}.json")],
                         capture_output=True, text=True, cwd=str(ROOT), timeout=600)
    assert out.returncode == 0, out.stderr
    before = json.loads((BEFORE / f"{game}.json").read_text(encoding="utf-8"))
    _same(json.loads(out.stdout), before)

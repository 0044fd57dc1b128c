"""Same input, same output: the command line's sampled figures (what Cluedo opponents know)
depend only on the input, ``--seed`` and ``--samples`` — budgets in samples, not seconds — and
their intervals are Wilson score intervals from at least a stated number of samples."""
from __future__ import annotations

import contextlib
import io
import itertools
import json

import numpy as np
import pytest

from engines.__main__ import main as cli_main
from engines.core.resources import resource_path

EXAMPLE = str(resource_path("examples", "cluedo.json"))


def _recommend(*extra):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(["recommend", EXAMPLE, *extra])
    assert code == 0, err.getvalue()
    obj = json.loads(out.getvalue())
    obj.pop("seconds", None)          # wall time: the one field that may differ
    return obj


def test_cli_recommend_does_not_depend_on_the_machines_speed(monkeypatch):
    calm = _recommend("--samples", "64")
    # a machine under load: every reading of the clock is 5 s after the last
    ticks = itertools.count(0.0, 5.0)
    monkeypatch.setattr("time.perf_counter", lambda: next(ticks))
    busy = _recommend("--samples", "64")
    assert busy == calm
    assert calm["opponents"]["Ann"]["samples"] == 64
    assert calm["accusation"]["samples"] == 64


def test_seed_and_samples_are_the_inputs():
    a = _recommend("--samples", "64", "--seed", "1")
    assert _recommend("--samples", "64", "--seed", "1") == a
    b = _recommend("--samples", "128", "--seed", "1")
    assert b["opponents"]["Ann"]["samples"] == 128


def test_too_few_samples_are_refused():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert cli_main(["recommend", EXAMPLE, "--samples", "16"]) == 2
    assert "--samples" in err.getvalue() and out.getvalue() == ""


def test_intervals_are_wilson_and_need_the_minimum_of_samples():
    from scipy.stats import binomtest

    from engines.cluedo.opponents import MIN_INTERVAL_SAMPLES, _interval

    rng = np.random.default_rng(3)
    for n in (MIN_INTERVAL_SAMPLES, 100, 1000):
        for p in (0.0, 0.06, 0.31, 1.0):
            x = (rng.random(n) < p).astype(float)
            lo, hi = _interval(x, exact=False)
            ci = binomtest(int(x.sum()), n).proportion_ci(method="wilson")
            assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-8)
            assert lo <= x.mean() <= hi
    # 16 samples with no success: Wald says 0 ± 0; there is no interval below the minimum
    assert _interval(np.zeros(16), exact=False) is None
    assert _interval(np.array([0.25, 0.5]), exact=True) == (0.375, 0.375)


def test_wilson_interval_covers_the_exact_value_where_wald_did_not():
    """The audit's case: 16 samples with one success (0.06 ± 0.06) for an exact 0.31. The
    Wald interval p ± 2 se excludes 0.31; refusing intervals below 64 samples and using Wilson
    from there on, the interval of 64 draws of a 0.31 event covers it in ≥ 93 % of seeds."""
    from engines.cluedo.opponents import _interval

    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(400):
        x = (rng.random(64) < 0.31).astype(float)
        lo, hi = _interval(x, exact=False)
        covered += lo <= 0.31 <= hi
    assert covered / 400 >= 0.93

"""Test configuration: Qt runs headless (offscreen) and the app's settings/data go to a
temporary test location (QStandardPaths test mode), so tests never touch a user's files."""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Hypothesis draws the same examples in every run (derandomize), so a verdict never depends on
# the run's luck: a failure in CI is reproduced by running the test again. A property test still
# sees its max_examples inputs; HYPOTHESIS_PROFILE=explore draws new ones each run, for a search
# by hand (docs/testing.md), with the failing example printed to reproduce.
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


import pytest  # noqa: E402 (after the profile, as the comment above explains)


def pytest_configure(config):
    """A pytest-xdist worker that dies (a crash in native code) ends the run at once and names
    the test it was running, unless ``--max-worker-restart`` is given: with ``--dist loadgroup``,
    pytest-xdist 3.8 hangs after it replaces a crashed worker (radoering 2026 in
    docs/references.md; fixed after that release), and the run was lost to CI's time limit.
    Set here rather than in ``addopts``, which a run without pytest-xdist (``-p no:xdist``)
    refuses."""
    if getattr(config.option, "maxworkerrestart", False) is None:
        config.option.maxworkerrestart = "0"


@pytest.fixture
def language():
    """``use(code)`` switches the engines' language (``engines.core.i18n``) for one test;
    English again afterwards, the command line's."""
    from engines.core import i18n

    def use(code: str) -> None:
        assert i18n.set_language(code) == code
    yield use
    i18n.set_language("en")


# -- The time of each part ------------------------------------------------------------------
# The README's one command runs every part; the summary at its end says what each part cost
# (the sum of its tests' set-up, call and tear-down times, across workers when pytest-xdist
# runs them in parallel), so a part that grows is seen in every CI log (docs/testing.md).

def pytest_collection_modifyitems(config, items):
    """The longest tests first (the screen audit's cases, the bundle build: about a minute
    each), the rest in their order: pytest-xdist hands the first tests out in turn, so the
    long ones run beside the short ones on every worker instead of ending the run alone."""
    items.sort(key=lambda item: 0 if item.get_closest_marker("audit") or item.get_closest_marker("bundle")
               else 1 if item.get_closest_marker("study") else 2)


def _part(nodeid: str, keywords) -> str:
    if "audit" in keywords:
        return "audit"
    if "bundle" in keywords:
        return "bundle"
    top = nodeid.split("/")
    return top[1] if len(top) > 2 and top[0] == "tests" else "other"


_PART_SECONDS: dict[str, float] = {}
_PART_TESTS: dict[str, int] = {}


def pytest_runtest_logreport(report):
    part = _part(report.nodeid, report.keywords)
    _PART_SECONDS[part] = _PART_SECONDS.get(part, 0.0) + report.duration
    if report.when == "call":
        _PART_TESTS[part] = _PART_TESTS.get(part, 0) + 1


def pytest_terminal_summary(terminalreporter):
    if not _PART_SECONDS:
        return
    terminalreporter.section("time by part (test seconds, summed over workers)")
    for part in sorted(_PART_SECONDS, key=_PART_SECONDS.get, reverse=True):
        terminalreporter.write_line(f"{part:>10}: {_PART_SECONDS[part]:7.1f} s  {_PART_TESTS.get(part, 0):5d} tests")

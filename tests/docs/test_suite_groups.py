"""The suite's own promise (docs/testing.md): under the README's command (pytest-xdist with
``--dist loadgroup``) the tests of one ``xdist_group`` run on one worker, one at a time.

pytest 9.2 with pytest-xdist 3.8 stops grouping without a word (D. Prada, "--dist=loadgroup
silently stops grouping on pytest main: the nodeid mutation no longer takes effect",
pytest-xdist bug report, 2026: the worker writes the group into a node-id field pytest no
longer reads), and then the tests
that bound CPU time run beside each other and the AT-SPI tests start the app twice. This test is
in a group; it fails when its node id does not carry it, as after such an upgrade."""
import pytest

pytestmark = pytest.mark.xdist_group("cpu_time")


def test_a_grouped_test_runs_in_its_group(request):
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not a pytest-xdist worker under --dist loadgroup")
    assert request.node.nodeid.endswith("@cpu_time"), (
        f"{request.node.nodeid}: pytest-xdist did not put this test in its group "
        "(pytest 9.2 with pytest-xdist 3.8: --dist loadgroup stops grouping, docs/testing.md)")


def test_a_crashed_worker_ends_the_run_instead_of_being_replaced(request):
    """pytest-xdist 3.8 under ``--dist loadgroup`` hangs after it replaces a crashed worker
    (radoering 2026, docs/references.md): the suite's configuration allows no replacement, so
    a crash ends the run at once and names its test (docs/testing.md)."""
    if not request.config.pluginmanager.hasplugin("xdist"):
        pytest.skip("pytest-xdist is not loaded")
    assert request.config.getoption("maxworkerrestart") in (0, "0")

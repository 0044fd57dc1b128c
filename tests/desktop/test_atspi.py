"""What a screen reader reads of the Cluedo tab, over the real AT-SPI bus: the app runs on a
private Xvfb display inside its own D-Bus session (dbus-run-session; at-spi2-core's bus and
registry start on demand) and tests/desktop/atspi_probe.py reads its accessibility tree as Orca
would. The worksheet is a table named for what it is, whose cells read as row, column and value
("Rope, Ann: ruled out") with their states; the suggestion form's pickers are labelled by their
labels ("Suspect", "Refuted by") and its buttons named. CI installs xvfb, dbus-daemon and
at-spi2-core (.ci/run); elsewhere a missing tool skips the test."""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.audit, pytest.mark.xdist_group("x_display")]
HERE = Path(__file__).resolve().parent
LAUNCHER = "/usr/libexec/at-spi-bus-launcher"


def _need(ok: bool, what: str) -> None:
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is not installed (.ci/run installs it)")
        pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    _need(shutil.which("Xvfb") is not None, "Xvfb")
    _need(shutil.which("dbus-run-session") is not None, "dbus-run-session (dbus-daemon)")
    _need(os.path.exists(LAUNCHER), "at-spi2-core")
    pytest.importorskip("dbus_next")
    display = f":{140 + os.getpid() % 50}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = tmp_path_factory.mktemp("atspi") / "tree.json"
    try:
        time.sleep(1.0)
        # the bus launcher publishes the bus on the X display DISPLAY names: ours, not another test's
        env = dict(os.environ, DISPLAY=display, XDG_DATA_HOME=str(out.parent / "data"),
                   XDG_CONFIG_HOME=str(out.parent / "config"))
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        subprocess.run(["dbus-run-session", "--", sys.executable, str(HERE / "atspi_probe.py"), display, str(out)],
                       env=env, timeout=240, capture_output=True, check=False)
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=20)
    result = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {"error": "no output"}
    assert "error" not in result, result.get("error")
    return result["nodes"]


def test_the_worksheet_is_a_table_whose_cells_say_row_column_and_value(tree):
    tables = [n for n in tree if n["role"] == "table" and n["name"].startswith("Worksheet")]
    assert len(tables) == 1, [n["name"] for n in tree if n["role"] == "table"]
    cells = [n for n in tree if n["role"] == "cell"]
    names = {n["name"] for n in cells}
    # the example: I hold Reverend Green and Rope; Ann holds the Dagger
    assert {"Rope, Me: certain", "Rope, Ann: ruled out", "Dagger, Ann: certain"} <= names, sorted(names)[:30]
    assert any(n.endswith(" percent") for n in names)
    rope = next(n for n in cells if n["name"] == "Rope, Me: certain")
    assert "selectable" in rope["states"] and "enabled" in rope["states"]


def test_the_suggestion_forms_controls_are_labelled(tree):
    combos = [n for n in tree if n["role"] == "combo box"]
    labels = {lab.rstrip(":") for n in combos for lab in n["labelled_by"]}
    assert {"Suspect", "Weapon", "Room", "Suggested by", "Refuted by", "Card shown to me"} <= labels, labels
    buttons = {n["name"] for n in tree if n["role"] == "push button"}
    assert {"Log suggestion", "Failed accusation…", "Hide this message"} <= buttons, buttons
    checks = {n["name"] for n in tree if n["role"] == "check box"}
    assert {"Ann", "Bob", "Cy"} <= checks, checks

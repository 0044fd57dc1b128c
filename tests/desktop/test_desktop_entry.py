"""The menu entry, AppStream metadata and session file type (desktop/shell/desktop_entry.py): the
shipped files pass the freedesktop.org validators, ``--install-desktop-entry`` puts them where
the desktop looks with an ``Exec`` that starts this app, a saved session is recognised as its
own type (so a double-click opens it here) while other JSON is not, and uninstalling removes
everything. CI installs the validators (.ci/run: desktop-file-utils, appstream,
shared-mime-info); elsewhere a missing tool skips its check."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from desktop.shell import desktop_entry
from engines.core.resources import resource_path

SHIPPED = resource_path("desktop")


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed (.ci/run installs it)")
        pytest.skip(f"{name} is not installed")
    return path


def test_the_shipped_entry_and_metadata_pass_the_validators():
    run = subprocess.run([_tool("desktop-file-validate"), str(SHIPPED / f"{desktop_entry.APP_ID}.desktop")],
                         capture_output=True, text=True)
    assert run.returncode == 0 and "error" not in run.stdout.lower(), run.stdout
    run = subprocess.run([_tool("appstreamcli"), "validate", "--no-net",
                          str(SHIPPED / f"{desktop_entry.APP_ID}.metainfo.xml")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_exec_quotes_a_path_with_spaces_and_reserved_characters():
    assert desktop_entry.exec_value(["/usr/bin/deduction-desk"]) == "/usr/bin/deduction-desk %f"
    got = desktop_entry.exec_value(["/home/a b/my $app", "-m", "desktop"])
    # in the file: "…" quoting, $ escaped by a backslash, that backslash escaped again
    assert got == '"/home/a b/my \\\\$app" -m desktop %f'
    assert desktop_entry.exec_value(["/opt/100%/dd"]) == "/opt/100%%/dd %f"


def test_install_then_a_session_is_its_own_type_and_uninstall_removes_it(tmp_path):
    home = tmp_path / "share"
    command = [str(tmp_path / "dir with space" / "deduction-desk")]
    written = desktop_entry.install(home, command)
    names = {p.relative_to(home).as_posix() for p in written}
    app = desktop_entry.APP_ID
    assert names == {f"applications/{app}.desktop", f"metainfo/{app}.metainfo.xml",
                     f"mime/packages/{app}.xml", f"icons/hicolor/256x256/apps/{app}.png",
                     f"icons/hicolor/64x64/apps/{app}.png"}
    entry = (home / "applications" / f"{app}.desktop").read_text(encoding="utf-8")
    assert f'Exec="{command[0]}" %f' in entry.splitlines()
    assert f"MimeType={desktop_entry.MIME_TYPE};" in entry.splitlines()
    run = subprocess.run([_tool("desktop-file-validate"), str(home / "applications" / f"{app}.desktop")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout
    # the type a file manager would give: Qt's MIME database reads the user's data folder
    _tool("update-mime-database")
    assert (home / "mime" / "mime.cache").is_file()
    session = tmp_path / "game.json"
    session.write_bytes(resource_path("examples", "spyfall.json").read_bytes())
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something else", "events": []}), encoding="utf-8")
    probe = ("import sys\nfrom PySide6.QtCore import QMimeDatabase\ndb = QMimeDatabase()\n"
             "print(db.mimeTypeForFile(sys.argv[1]).name(), db.mimeTypeForFile(sys.argv[2]).name())")
    env = dict(os.environ, XDG_DATA_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", probe, str(session), str(other)], env=env,
                         capture_output=True, text=True, timeout=60).stdout.split()
    assert out == [desktop_entry.MIME_TYPE, "application/json"]
    removed = desktop_entry.uninstall(home)
    assert sorted(removed) == sorted(written)
    assert not any(p.exists() for p in written)


def test_the_command_line_installs_and_removes(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    run = subprocess.run([sys.executable, "-m", "desktop", "--install-desktop-entry"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("installed 5 files"), run.stdout + run.stderr
    assert (tmp_path / "applications" / f"{desktop_entry.APP_ID}.desktop").is_file()
    run = subprocess.run([sys.executable, "-m", "desktop", "--uninstall-desktop-entry"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("removed 5 files"), run.stdout + run.stderr

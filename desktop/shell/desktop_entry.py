"""Deduction Desk as a citizen of a Linux desktop: its menu entry, icon, AppStream metadata and
the session file type, installed for one user.

``deduction-desk --install-desktop-entry`` copies the files of ``resources/desktop/`` and the
icons into the user's data folder (``$XDG_DATA_HOME``, by default ``~/.local/share``; the XDG
Base Directory Specification):

* ``applications/<APP_ID>.desktop`` — the menu entry (freedesktop.org Desktop Entry
  Specification), its ``Exec`` set to the command that started this (the pip-installed
  ``deduction-desk`` script, or the bundle's executable);
* ``metainfo/<APP_ID>.metainfo.xml`` — what a software centre shows (AppStream);
* ``mime/packages/<APP_ID>.xml`` — the type ``application/x-deduction-desk-session``: a JSON
  file whose first 256 bytes name ``deduction-desk.session`` (shared-mime-info specification),
  so that a double-click on a saved session opens it here and other JSON files keep their type;
* ``icons/hicolor/{256x256,64x64}/apps/<APP_ID>.png`` — the icon (Icon Theme Specification);

then refreshes the caches that exist on the machine (``update-desktop-database``,
``update-mime-database``, ``gtk-update-icon-cache``). ``--uninstall-desktop-entry`` removes
the same files. Nothing here imports Qt, nor is imported before the first window
(:data:`desktop.APP_ID` is ``desktop``'s).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

from desktop import APP_ID
from engines.core.resources import resource_path

#: The session files' MIME type.
MIME_TYPE = "application/x-deduction-desk-session"
#: Icon sizes installed: (size, file in resources/icons).
ICONS = ((256, "deduction-desk.png"), (64, "deduction-desk-64.png"))


def data_home() -> Path:
    """``$XDG_DATA_HOME`` when set to an absolute path, else ``~/.local/share`` (XDG Base
    Directory Specification)."""
    env = os.environ.get("XDG_DATA_HOME", "")
    return Path(env) if os.path.isabs(env) else Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """The command that starts this app again: the bundle's executable when frozen, else the
    ``deduction-desk`` script beside this interpreter or on ``PATH``, else this interpreter
    with ``-m desktop``."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    beside = Path(sys.executable).with_name("deduction-desk")
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("deduction-desk")
    return [found] if found else [sys.executable, "-m", "desktop"]


def exec_value(argv: list[str]) -> str:
    """``argv`` as a desktop entry's ``Exec`` value followed by ``%f`` (a file to open): an
    argument with a space or a reserved character is quoted, with ``"``, `````, ``$`` and
    ``\\`` escaped by a backslash, and ``%`` doubled (Desktop Entry Specification, "The Exec
    key"); then the key's string value escapes each backslash once more."""
    reserved = set(" \t\n\"'\\><~|&;$*?#()`")
    out = []
    for arg in argv:
        arg = arg.replace("%", "%%")
        if any(ch in reserved for ch in arg):
            arg = '"' + "".join("\\" + ch if ch in '"`$\\' else ch for ch in arg) + '"'
        out.append(arg)
    return " ".join(out + ["%f"]).replace("\\", "\\\\")


def _targets(home: Path) -> dict:
    """``{source: destination}`` of every file installed."""
    src = resource_path("desktop")
    out = {src / f"{APP_ID}.desktop": home / "applications" / f"{APP_ID}.desktop",
           src / f"{APP_ID}.metainfo.xml": home / "metainfo" / f"{APP_ID}.metainfo.xml",
           src / f"{APP_ID}.mime.xml": home / "mime" / "packages" / f"{APP_ID}.xml"}
    for size, name in ICONS:
        out[resource_path("icons", name)] = home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    return out


def _refresh_caches(home: Path) -> list[str]:
    """Run the cache tools the machine has; the names of those that ran."""
    ran = []
    for tool, args in (("update-desktop-database", [str(home / "applications")]),
                       ("update-mime-database", [str(home / "mime")]),
                       ("gtk-update-icon-cache", ["-q", "-t", "-f", str(home / "icons" / "hicolor")])):
        path = shutil.which(tool)
        if path is None:
            continue
        subprocess.run([path, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=60, check=False)
        ran.append(tool)
    return ran


def install(home: Optional[Path] = None, command: Optional[list[str]] = None) -> list[Path]:
    """Install the menu entry, metadata, MIME type and icons under ``home`` (default
    :func:`data_home`), the entry starting ``command`` (default :func:`launch_command`); returns
    the files written.

    Raises:
        OSError: a folder cannot be made or a file written (nothing is rolled back: running it
            again after the cause is fixed completes it).
    """
    home = data_home() if home is None else Path(home)
    command = launch_command() if command is None else command
    written = []
    for src, dst in _targets(home).items():
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.suffix == ".desktop":
            lines = [f"Exec={exec_value(command)}" if line.startswith("Exec=") else line
                     for line in src.read_text(encoding="utf-8").splitlines()]
            tmp = dst.with_name(dst.name + ".tmp")
            tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
            os.replace(tmp, dst)
        else:
            shutil.copyfile(src, dst)
        written.append(dst)
    _refresh_caches(home)
    return written


def uninstall(home: Optional[Path] = None) -> list[Path]:
    """Remove what :func:`install` wrote under ``home``; returns the files removed."""
    home = data_home() if home is None else Path(home)
    removed = []
    for dst in _targets(home).values():
        try:
            dst.unlink()
            removed.append(dst)
        except FileNotFoundError:
            pass
    if removed:
        _refresh_caches(home)
    return removed

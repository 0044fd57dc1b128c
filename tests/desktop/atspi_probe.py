"""Start the app with its Cluedo example on an X display and read its accessibility tree the
way a screen reader does: over the AT-SPI bus (D-Bus, read with dbus-next), not through Qt.

Run inside a D-Bus session (``dbus-run-session -- python atspi_probe.py DISPLAY OUT.json``)
with an X server on DISPLAY; writes ``{"nodes": [{"role", "name", "states", "labelled_by",
"depth"}, ...]}`` in tree order, or ``{"error": ...}``. Used by tests/desktop/test_atspi.py.

AT-SPI 2 over D-Bus (freedesktop.org): the session bus's ``org.a11y.Bus.GetAddress`` gives the
accessibility bus; its registry's root lists the applications; each node answers
``org.a11y.atspi.Accessible`` (``Name``, ``GetRoleName``, ``GetState``, ``GetChildren``,
``GetRelationSet``).
"""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from dbus_next import BusType, Message, MessageType
from dbus_next.aio import MessageBus

ROOT = Path(__file__).resolve().parents[2]
ACC = "org.a11y.atspi.Accessible"
#: AtspiRelationType LABELLED_BY, AtspiStateType bits read (at-spi2-core, atspi-constants.h).
LABELLED_BY = 2
STATES = {4: "checked", 7: "editable", 8: "enabled", 11: "focusable", 12: "focused",
          22: "selectable", 23: "selected", 25: "showing", 30: "visible"}
MAX_NODES = 4000


async def _call(bus, dest, path, iface, member, sig="", body=()):
    reply = await bus.call(Message(destination=dest, path=path, interface=iface, member=member,
                                   signature=sig, body=list(body)))
    if reply.message_type == MessageType.ERROR:
        raise RuntimeError(f"{member} on {path}: {reply.error_name} {reply.body}")
    return reply.body


async def _name(bus, dest, path) -> str:
    (v,) = await _call(bus, dest, path, "org.freedesktop.DBus.Properties", "Get", "ss", (ACC, "Name"))
    return v.value


def _states(words) -> list:
    bits = words[0] | (words[1] << 32) if len(words) > 1 else words[0]
    return [name for bit, name in STATES.items() if bits >> bit & 1]


async def _walk(bus, dest, path, depth, out) -> None:
    if len(out) >= MAX_NODES:
        return
    (role,) = await _call(bus, dest, path, ACC, "GetRoleName")
    (state,) = await _call(bus, dest, path, ACC, "GetState")
    (relations,) = await _call(bus, dest, path, ACC, "GetRelationSet")
    labelled = [await _name(bus, d, p) for kind, targets in relations if kind == LABELLED_BY
                for d, p in targets]
    out.append({"role": role, "name": await _name(bus, dest, path), "states": _states(state),
                "labelled_by": labelled, "depth": depth})
    (children,) = await _call(bus, dest, path, ACC, "GetChildren")
    for d, p in children:
        await _walk(bus, d, p, depth + 1, out)


async def _probe(display: str) -> dict:
    session = await MessageBus(bus_type=BusType.SESSION).connect()
    (address,) = await _call(session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress")
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
               XDG_DATA_HOME=os.environ.get("XDG_DATA_HOME", ""))
    app = subprocess.Popen([sys.executable, "-m", "desktop", "--color-scheme", "light",
                            str(ROOT / "resources" / "examples" / "cluedo.json")],
                           cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        bus = await MessageBus(bus_address=address).connect()
        deadline = time.monotonic() + 60
        apps = []
        while time.monotonic() < deadline:
            (apps,) = await _call(bus, "org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
                                  ACC, "GetChildren")
            names = [await _name(bus, d, p) for d, p in apps]
            if "Deduction Desk" in names:
                await asyncio.sleep(8)          # the tab built and its beliefs shown
                break
            await asyncio.sleep(0.5)
        else:
            return {"error": f"the app never joined the accessibility bus: {app.stderr.read1(4000)!r}"}
        nodes: list = []
        for d, p in apps:
            if await _name(bus, d, p) == "Deduction Desk":
                await _walk(bus, d, p, 0, nodes)
        return {"nodes": nodes}
    finally:
        app.terminate()
        try:
            app.wait(timeout=20)
        except subprocess.TimeoutExpired:
            app.kill()


def main() -> None:
    display, out = sys.argv[1], sys.argv[2]
    try:
        result = asyncio.run(_probe(display))
    except Exception as exc:
        result = {"error": f"{type(exc).__name__}: {exc}"}
    Path(out).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()

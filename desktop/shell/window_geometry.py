"""Window geometry that fits the screen, and the window's and splitters' layout kept between
runs in ``QSettings``.

:func:`default_geometry` sizes a new window within the screen's available area (the desktop
minus panels and docks) with room for the window frame, so a 1280×800 or 1366×768 screen shows
the status bar and the bottom of every panel. :func:`save_window_state` and
:func:`restore_window_state` keep ``QMainWindow.saveGeometry()`` and every splitter's
``saveState()`` (per tab, in the order of the tab's widget tree, :func:`_splitters`) with the size of the
screen they were saved on; a stored geometry that no longer fits the screen is replaced by the
default one, and splitter positions saved on a larger screen are not restored.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QSplitter, QStackedWidget, QWidget

from desktop.shell.settings import SPLITTERS, WINDOW_GEOMETRY, WINDOW_SCREEN

#: The first number of a ``QSplitter.saveState()`` (Qt's ``SplitterMagic``).
SPLITTER_MARKER = 0xff
#: The size the window asks for on a large screen (logical pixels).
PREFERRED_SIZE = QSize(1280, 820)
#: Room left for the window manager's frame: title bar and borders (logical pixels), used
#: before the window is shown, when its real frame is not known yet (openbox's frame on a
#: 1280×800 screen is 25 px high; GNOME's and KDE's title bars up to 38 px; some window
#: managers place the frame a few pixels off the requested position).
FRAME_ALLOWANCE = QSize(16, 48)


def default_geometry(available: QRect, preferred: QSize = PREFERRED_SIZE,
                     minimum: QSize = QSize(0, 0)) -> QRect:
    """The client rectangle of a new window on a screen whose available area is ``available``.

    The window is ``preferred`` when that fits with :data:`FRAME_ALLOWANCE` for the frame,
    otherwise as large as fits (never below ``minimum``, the window's minimum size), centred
    in ``available``. All sizes in logical pixels."""
    w = min(preferred.width(), available.width() - FRAME_ALLOWANCE.width())
    h = min(preferred.height(), available.height() - FRAME_ALLOWANCE.height())
    w, h = max(w, minimum.width()), max(h, minimum.height())
    fw, fh = FRAME_ALLOWANCE.width(), FRAME_ALLOWANCE.height()
    x = available.left() + max(0, (available.width() - w - fw) // 2) + fw // 2
    y = available.top() + max(0, (available.height() - h - fh) // 2) + fh - fw // 2
    return QRect(x, y, w, h)


def available_geometry(widget: Optional[QWidget] = None) -> QRect:
    """The available area of the screen ``widget`` is on (else the primary screen)."""
    screen = widget.screen() if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def apply_default_geometry(window: QWidget) -> None:
    """Give ``window`` :func:`default_geometry` on its screen."""
    window.setGeometry(default_geometry(available_geometry(window), minimum=window.minimumSizeHint()))


def _splitters(widget: QWidget) -> list[QSplitter]:
    """``widget``'s splitters in the order of its widget tree, whichever pages were shown.
    ``findChildren`` lists a parent's children in their stacking order, which a stacked
    widget's page brought to the front changes (``QWidget.raise_``): after the Spyfall
    Simulation page was opened its splitter came last, and the states saved in that order
    turned the Table page's vertical splitter horizontal at the next start. A page of a
    stacked widget is placed by its index there."""
    def place(w: QWidget) -> tuple:
        path = []
        while w is not widget and w is not None:
            parent = w.parentWidget()
            if parent is None:
                break
            page = parent.indexOf(w) if isinstance(parent, QStackedWidget) else -1
            path.append((0, page) if page >= 0 else (1, parent.children().index(w)))
            w = parent
        return tuple(reversed(path))

    return sorted(widget.findChildren(QSplitter), key=place)


def save_window_state(settings: QSettings, window: QWidget, panes: dict[str, QWidget]) -> None:
    """Store ``window``'s geometry and the splitter positions of each widget in ``panes``
    (name → widget, e.g. game → tab)."""
    WINDOW_GEOMETRY.write(window.saveGeometry(), settings)
    WINDOW_SCREEN.write(available_geometry(window).size(), settings)
    for name, pane in panes.items():
        SPLITTERS.of(name).write([s.saveState() for s in _splitters(pane)], settings)


def restore_splitters(settings: QSettings, name: str, pane: QWidget) -> int:
    """Restore the splitter positions stored for ``name`` into ``pane``'s splitters (when the
    number of splitters still matches, and the screen is at least as large as the one they
    were saved on: sizes chosen on a 2560×1440 screen would leave a panel a few pixels high
    on 1280×720); returns how many were restored."""
    saved_on = WINDOW_SCREEN.read(settings)
    now = available_geometry(pane)
    if isinstance(saved_on, QSize) and (now.width() < saved_on.width() or now.height() < saved_on.height()):
        return 0   # kept on a larger screen: its panel sizes would squeeze this one's panels
    states = SPLITTERS.of(name).read(settings)
    if not isinstance(states, (list, tuple)):
        states = [states] if isinstance(states, QByteArray) else []
    splitters = _splitters(pane)
    if len(states) != len(splitters) or any(
            not isinstance(state, QByteArray) or _orientation(state) != splitter.orientation().value
            for splitter, state in zip(splitters, states)):
        return 0   # other splitters than those saved: a state would turn one on its side
    n = 0
    for splitter, state in zip(splitters, states):
        if isinstance(state, QByteArray) and splitter.restoreState(state):
            n += 1
    return n


def _orientation(state: QByteArray) -> Optional[int]:
    """The orientation a ``QSplitter.saveState()`` records, as ``Qt.Orientation``'s value
    (None when it is not one; the ``Qt`` namespace is not touched before the first paint,
    tests/desktop/test_startup.py): after the
    marker and version, the sizes (a count, then each), whether children collapse, the handle
    width, whether resizing is opaque, then the orientation (Qt's ``QSplitter::saveState``)."""
    stream = QDataStream(state, QIODevice.OpenModeFlag.ReadOnly)
    if stream.readInt32() != SPLITTER_MARKER:
        return None
    stream.readInt32()
    for _ in range(max(0, stream.readInt32())):
        stream.readInt32()
    stream.readBool()
    stream.readInt32()
    stream.readBool()
    value = stream.readInt32()
    if stream.status() != QDataStream.Status.Ok or value not in (1, 2):   # horizontal, vertical
        return None
    return value


def restore_window_state(settings: QSettings, window: QWidget, panes: dict[str, QWidget]) -> bool:
    """Restore ``window``'s geometry (the default one when none is stored or it no longer fits
    the screen) and the splitters of ``panes``; True if a stored geometry was used."""
    for name, pane in panes.items():
        restore_splitters(settings, name, pane)
    geometry = WINDOW_GEOMETRY.read(settings)
    if isinstance(geometry, QByteArray) and not geometry.isEmpty() and window.restoreGeometry(geometry):
        avail = available_geometry(window)
        g = window.geometry()
        if window.isMaximized() or window.isFullScreen():
            return True   # the window manager fits it to the screen
        room = avail.adjusted(0, 0, -FRAME_ALLOWANCE.width(), -FRAME_ALLOWANCE.height())
        if g.width() <= room.width() and g.height() <= room.height():
            # the size fits; keep the frame on the screen (a smaller screen, another layout)
            x = min(max(g.left(), avail.left() + FRAME_ALLOWANCE.width() // 2),
                    avail.right() - FRAME_ALLOWANCE.width() // 2 - g.width())
            y = min(max(g.top(), avail.top() + FRAME_ALLOWANCE.height() - FRAME_ALLOWANCE.width() // 2),
                    avail.bottom() - FRAME_ALLOWANCE.width() // 2 - g.height())
            window.setGeometry(QRect(x, y, g.width(), g.height()))
            return True
    apply_default_geometry(window)
    return False

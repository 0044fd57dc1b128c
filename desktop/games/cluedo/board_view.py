"""The Cluedo board in the tab: the board drawn from its data (``resources/cluedo/boards.json``),
my pawn and the others' last known positions, the rooms this turn can reach shaded by the turn
advice's value, the best move's path; clicking a room or a corridor square says where my pawn
is, the roll box sets the roll (``roll 7`` in quick entry logs it instead).

The advice (:func:`engines.cluedo.turn.turn_advice`) is the controller's advisor "turn": a job
per moment shown (the whole log, or the prefix up to the History entry selected), never on the
GUI thread; the page draws the snapshot's answer for that moment and says which moment it is.
"""
from __future__ import annotations

import functools

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from desktop.shell.appearance import muted_style
from desktop.shell.locale_format import number, percent
from desktop.tabs.wording import PLAIN
from desktop.widgets.plain_text import esc
from desktop.widgets.unchanged import clear_text
from desktop.widgets.vscroll import VerticalScroll
from engines.core.i18n import _, ngettext

CORRIDOR = QColor("#efe4c8")
WALL = QColor("#5d4e3a")
ROOM = QColor("#c9b79a")
CELLAR = QColor("#8d7f6b")
REACH = QColor("#2e7d32")
PATH = QColor("#c62828")
ME = QColor("#1565c0")
OTHER = QColor("#424242")


class CluedoBoardView(QWidget):
    """Paints a :class:`engines.cluedo.board.Board`, scaled to the widget.

    Signals:
        positionClicked(object): a room name, or a corridor square ``(row, col)``, clicked.
    """

    positionClicked = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._board = None
        self._me = None
        self._others: dict = {}
        self._shade: dict = {}
        self._path: tuple = ()
        self._goal = None
        self.setMinimumSize(160, 160)
        self.setMouseTracking(False)
        self.setToolTip(_("Click a room or a corridor square: my pawn is there"))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(300, 310)

    def set_board(self, board) -> None:
        """The board to draw (None: nothing, a custom deck)."""
        if board is not self._board:
            self._board = board
            self.update()

    def set_state(self, me, others: dict, shade: dict, path=(), goal=None) -> None:
        """My position, the others' ``{name: position}``, ``{room: 0..1}`` shading of the rooms
        this turn can reach, the best move's ``path`` (squares) and the room it enters."""
        state = (me, dict(others), dict(shade), tuple(path), goal)
        if state != (self._me, self._others, self._shade, self._path, self._goal):
            self._me, self._others, self._shade, self._path, self._goal = state
            self.update()

    # -- geometry ---------------------------------------------------------------------------
    def _geometry(self):
        b = self._board
        cell = min(self.width() / b.n_cols, self.height() / b.n_rows)
        ox = (self.width() - cell * b.n_cols) / 2
        oy = (self.height() - cell * b.n_rows) / 2
        return cell, ox, oy

    def _centre(self, sq, cell, ox, oy) -> QPointF:
        return QPointF(ox + (sq[1] + 0.5) * cell, oy + (sq[0] + 0.5) * cell)

    def _room_centres(self) -> dict:
        b = self._board
        acc: dict = {}
        for r, row in enumerate(b.rows):
            for c, ch in enumerate(row):
                name = b.legend.get(ch)
                if name in b.rooms:
                    acc.setdefault(name, []).append((r, c))
        return {n: (sum(r for r, _ in sq) / len(sq), sum(c for _, c in sq) / len(sq)) for n, sq in acc.items()}

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt name)
        if self._board is None:
            return
        b = self._board
        cell, ox, oy = self._geometry()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for r, row in enumerate(b.rows):
            for c, ch in enumerate(row):
                rect = QRectF(ox + c * cell, oy + r * cell, cell, cell)
                name = b.legend.get(ch)
                if ch == ".":
                    colour = CORRIDOR
                elif ch == "#":
                    colour = WALL
                elif name in b.rooms:
                    colour = ROOM
                    s = self._shade.get(name)
                    if s is not None:
                        colour = _mix(ROOM, REACH, 0.25 + 0.6 * s)
                else:
                    colour = CELLAR
                p.fillRect(rect, colour)
                if ch == ".":
                    p.setPen(QPen(QColor(0, 0, 0, 40), 0))
                    p.drawRect(rect)
        # doors: a bar on the room side of the door's edge
        p.setPen(QPen(QColor("#fff8e1"), max(1.5, cell / 5)))
        for d in b.doors:
            a = self._centre(d.door, cell, ox, oy)
            z = self._centre(d.outside, cell, ox, oy)
            mid = (a + z) / 2
            dx, dy = (z.y() - a.y()) * 0.4, (z.x() - a.x()) * 0.4
            p.drawLine(QPointF(mid.x() - dx, mid.y() - dy), QPointF(mid.x() + dx, mid.y() + dy))
        # room names
        font = QFont(self.font())
        font.setPixelSize(max(7, int(cell * 0.75)))
        p.setFont(font)
        p.setPen(QColor("#212121"))
        for name, (r, c) in self._room_centres().items():
            pt = self._centre((r, c), cell, ox, oy)
            p.drawText(QRectF(pt.x() - 4 * cell, pt.y() - cell, 8 * cell, 2 * cell),
                       Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, name)
        # the best path
        if self._path:
            path = QPainterPath(self._centre(self._path[0], cell, ox, oy))
            for sq in self._path[1:]:
                path.lineTo(self._centre(sq, cell, ox, oy))
            if self._goal is not None:
                door = [d for d in b.doors_of(self._goal) if d.outside == self._path[-1]]
                if door:
                    path.lineTo(self._centre(door[0].door, cell, ox, oy))
            p.setPen(QPen(PATH, max(1.5, cell / 4), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(path)
        # pawns: the others grey with their initial, mine blue
        centres = self._room_centres()
        stack: dict = {}

        def where(pos):
            if isinstance(pos, str):
                k = stack.get(pos, 0)
                stack[pos] = k + 1
                r, c = centres.get(pos, (0, 0))
                return self._centre((r + 1.2, c - 1.5 + k), cell, ox, oy)
            return self._centre(pos, cell, ox, oy)

        small = QFont(self.font())
        small.setPixelSize(max(6, int(cell * 0.6)))
        p.setFont(small)
        for name, pos in self._others.items():
            if pos is None:
                continue
            pt = where(pos)
            p.setPen(QPen(QColor("white"), 1))
            p.setBrush(QBrush(OTHER))
            p.drawEllipse(pt, cell * 0.42, cell * 0.42)
            p.drawText(QRectF(pt.x() - cell / 2, pt.y() - cell / 2, cell, cell), Qt.AlignmentFlag.AlignCenter,
                       name[:1])
        if self._me is not None:
            pt = where(self._me)
            p.setPen(QPen(QColor("white"), 1.5))
            p.setBrush(QBrush(ME))
            p.drawEllipse(pt, cell * 0.48, cell * 0.48)
        p.end()

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if self._board is None or event.button() != Qt.MouseButton.LeftButton:
            return
        cell, ox, oy = self._geometry()
        c = int((event.position().x() - ox) // cell)
        r = int((event.position().y() - oy) // cell)
        b = self._board
        if not (0 <= r < b.n_rows and 0 <= c < b.n_cols):
            return
        room = b.room_at((r, c))
        if room is not None:
            self.positionClicked.emit(room)
        elif (r, c) in b.corridor:
            self.positionClicked.emit((r, c))


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    t = min(max(t, 0.0), 1.0)
    return QColor(int(a.red() + (b.red() - a.red()) * t), int(a.green() + (b.green() - a.green()) * t),
                  int(a.blue() + (b.blue() - a.blue()) * t))


class BoardPanel(QWidget):
    """The board page of the Cluedo tab: the board, the roll box and the ranked moves, of the
    moment shown (the whole log, or the History entry selected: the pawns where that prefix of
    the log put them), as the controller's advisor "turn" computed them for that moment
    (:func:`turn_job_for`).

    Signals:
        positionChosen(object): the user clicked where their pawn is (room or ``(row, col)``);
            the tab logs it as a ``position`` event (at the end of the log: now).
        rollChanged(object): the roll box changed (an int, or None for "—").
    """

    positionChosen = Signal(object)
    rollChanged = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._drawn = None              # (revision, k) whose pawns the board shows
        # the page scrolls when it is short (1280×800 with History above it): its wrapped
        # texts keep their height instead of being drawn over the board
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(2, 2, 2, 2)
        self.moment = QLabel()
        self.moment.setWordWrap(True)
        lay.addWidget(self.moment)
        self.view = CluedoBoardView()
        self.view.positionClicked.connect(self.positionChosen)
        lay.addWidget(self.view, 1)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Roll:")))
        self.roll = QSpinBox()
        self.roll.setRange(0, 12)
        self.roll.setSpecialValueText("—")
        self.roll.setToolTip(_("This turn's roll. —: the roll logged with “roll 7” in quick entry "
                               "if any since my last move, else the moves are ranked over the dice"))
        self.roll.valueChanged.connect(lambda v: self.rollChanged.emit(v or None))
        row.addWidget(self.roll)
        self.status = QLabel()
        self.status.setWordWrap(True)   # a long message wraps: the page keeps its width
        muted_style(self.status)   # secondary text from the palette (light or dark)
        row.addWidget(self.status, 1)
        lay.addLayout(row)
        self.moves = QLabel()
        self.moves.setWordWrap(True)
        self.moves.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.moves)
        scroll = VerticalScroll(body)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(scroll)

    def show_moment(self, snap, setup) -> None:
        """Render the moment ``snap`` (:class:`desktop.tabs.snapshot.Snapshot`) of a game with
        ``setup``: its advice ``snap.advice_for("turn")`` when it has arrived."""
        from desktop.tabs.snapshot import Status
        from engines.cluedo.board import edition_board

        self._wording = snap.wording
        eb = edition_board(setup)
        self.view.set_board(eb.board if eb is not None else None)
        if snap.live:
            self.moment.setText(_("<b>Now</b> (after the whole log)"))
            self.view.setToolTip(_("Click where your pawn is: logged as “me at …”"))
        else:
            self.moment.setText(_("<b>As after entry {k} of {n}</b> (the History "
                                  "entry selected): the pawns then, the moves of that turn").format(k=snap.k, n=snap.n))
            self.view.setToolTip(_("The board as after the History entry selected. A click "
                                   "logs where your pawn is now, at the end of the log"))
        if eb is None:
            self._clear(_("No board for this deck: turn advice is off."))
            return
        if self.roll.maximum() != max(6 * eb.dice, 0):
            self.roll.blockSignals(True)
            self.roll.setRange(0, max(6 * eb.dice, 0))
            self.roll.blockSignals(False)
        if snap.status in (Status.CONTRADICTION, Status.ERROR):
            self._clear(_("No advice while the log is impossible."))
            return
        advice = snap.advice_for("turn")
        if advice is None:
            if self._drawn != (snap.revision, snap.k):
                self._clear("")                     # the board drawn was of another moment
            self.status.setText(_("Computing the moves…") if snap.status is not Status.CANCELLED
                                else _("Not computed (cancelled)."))
            return
        if advice.error is not None:
            self._clear(_("No turn advice: {error}").format(error=advice.error))
            return
        self._drawn = (snap.revision, snap.k)
        self._render(*advice.value)

    def _show_logged_roll(self, roll) -> None:
        """With no roll set in the box, the box shows the roll the advice used: the one logged
        since my last move ("5"), else "—" (every roll of the dice). Only the box's text for
        "none set" changes (a number no wider than the box's largest, so nothing moves): the
        advice's roll stays the log's, and a roll typed in the box still overrides it."""
        text = str(roll) if roll is not None and self.roll.value() == 0 else "—"
        if self.roll.specialValueText() != text:
            self.roll.setSpecialValueText(text)

    def _clear(self, message: str) -> None:
        self._show_logged_roll(None)
        self._drawn = None
        self.view.set_state(None, {}, {})
        self.status.setText(message)
        clear_text(self.moves)

    def _render(self, state, advice, message) -> None:
        others = {p: q for p, q in state.positions.items() if p != state.me}
        if advice is None:
            self.view.set_state(state.positions.get(state.me), others, {})
            self.status.setText(message)
            clear_text(self.moves)
            return
        me = advice.at
        rooms = [m for m in advice.moves if m.room is not None and m.to not in ("passage", "stay")]
        top = max((m.value_bits for m in advice.moves), default=0.0) or 1.0
        shade = {m.room: max(m.value_bits, 0.0) / top for m in rooms if m.p_reach > 0}
        best = advice.moves[0] if advice.moves else None
        path = best.path if best is not None else ()
        goal = best.room if best is not None and best.room is not None and best.to not in ("passage", "stay") \
            else None
        self.view.set_state(me, others, shade, path, goal)
        self._show_logged_roll(advice.roll)
        if advice.roll is None:
            roll = ngettext("any roll of {n} die", "any roll of {n} dice", advice.dice).format(n=advice.dice)
        elif self.roll.value() == 0:
            roll = _("roll {roll} (logged)").format(roll=advice.roll)
        else:
            roll = _("roll {roll}").format(roll=advice.roll)
        details = getattr(self, "_wording", PLAIN).details
        if details:
            self.status.setText(_("{roll}; value of rolling {bits} bits").format(
                roll=roll, bits=number(advice.roll_value_bits, 2)))
        else:
            self.status.setText(_("{roll}: your moves, the most useful first (a suggestion made "
                                  "there, or the way towards a room for later)").format(roll=roll))
        lines = []
        for rank, m in enumerate(advice.moves[:5], 1):
            if not details:
                lines.append(f"{rank}. {_plain_move(m)}")
                continue
            to = m.to if isinstance(m.to, str) else _("square {row},{col}").format(row=m.to[0], col=m.to[1])
            if m.to == "passage":
                to = _("passage to the {room}").format(room=m.room)
            elif m.to == "stay":
                to = _("stay in the {room}").format(room=m.room)
            what = (" — " + _("suggest {cards} ({bits} bits)").format(
                        cards=esc(', '.join(m.suggestion)), bits=number(m.information_bits, 2))
                    if m.suggestion else " — " + _("towards the {room}").format(room=esc(m.towards))
                    if m.towards else "")
            chance = " " + _("({chance} this turn)").format(chance=percent(m.p_reach)) if m.p_reach < 1 else ""
            pull = "; " + _("pulls {player}").format(player=esc(m.pulls['player'])) if m.pulls else ""
            lines.append(f"<b>{esc(to)}</b>{chance}{what}{pull}; "
                         + _("value {bits}").format(bits=number(m.value_bits, 2)))
        if advice.accuse:
            lines.insert(0, _("<b>Accuse now</b> beats moving."))
        self.moves.setText("<br>".join(lines))


def _plain_move(m) -> str:
    """One move of the turn advice in a player's words (rich text): where to, the chance to
    reach it this turn, the suggestion to make there or the room it heads for."""
    if m.to == "passage":
        to = _("Take the secret passage to the {room}").format(room=esc(m.room))
    elif m.to == "stay":
        to = _("Stay in the {room}").format(room=esc(m.room))
    elif isinstance(m.to, str):
        to = _("Go to the {room}").format(room=esc(m.to))
    else:
        to = _("Walk along the corridor")
    if isinstance(m.to, str) and m.to not in ("passage", "stay") and m.p_reach < 0.005:
        # out of reach with any roll this turn: a plan for the next one
        if m.suggestion:
            return _("<b>Head for the {room}</b> (out of reach this turn), to suggest {cards} there "
                     "next turn").format(room=esc(m.to), cards=esc(', '.join(m.suggestion)))
        return _("<b>Head for the {room}</b> (out of reach this turn)").format(room=esc(m.to))
    chance = " " + _("(reach this turn: {chance})").format(chance=percent(m.p_reach)) if m.p_reach < 1 else ""
    what = (" " + _("and suggest {cards}").format(cards=esc(', '.join(m.suggestion))) if m.suggestion
            else " " + _("towards the {room}").format(room=esc(m.towards)) if m.towards else "")
    pull = "; " + _("it pulls {player} into the room").format(player=esc(m.pulls['player'])) if m.pulls else ""
    return f"<b>{to}</b>{chance}{what}{pull}"


def turn_job_for(setup, events: tuple, options: dict):
    """The turn advice's job for a moment (the controller's advisor "turn": ``events`` is the
    prefix of the log shown), or None when the deck has no board."""
    from engines.cluedo.board import edition_board

    if edition_board(setup) is None:
        return None
    return functools.partial(_turn_job, setup, events, options.get("roll"))


class _State:
    """The pawns as the job read them (a plain object for the GUI thread)."""

    def __init__(self, me, positions):
        self.me = me
        self.positions = positions


def _turn_job(setup, events, roll, task):
    """The turn advice for the log, or the pawns only and why there is no advice (my pawn's
    position unknown, a roll the dice cannot make)."""
    from desktop.games.cluedo.ranking import room_bits
    from engines.cluedo.board import edition_board
    from engines.cluedo.turn import pawn_state, turn_advice
    from engines.core.errors import SessionFormatError

    st = pawn_state(setup, events, edition_board(setup))
    state = _State(setup.me, dict(st.positions))
    try:
        shared = room_bits(setup, events, task) if setup.me in st.positions else None
        adv = turn_advice(setup, events, roll=roll, cancel=task, room_bits=shared)  # the ranking's
    except SessionFormatError as exc:
        msg = exc.message if hasattr(exc, "message") else str(exc)
        if "where is your pawn" in str(exc):
            msg = _("Where is your pawn? Click its room or square (or type “me at hall”).")

        return state, None, msg
    return state, adv, ""

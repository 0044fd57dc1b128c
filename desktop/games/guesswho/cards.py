"""The Guess Who? board as a grid of character cards.

Each :class:`CharacterCard` draws the character's name and its picture (when the board has
images) or chips for its attributes; a knocked-down card is dimmed and struck through; under
the answer-error model a badge shows the card's posterior probability. Clicking a card emits
:attr:`BoardView.cardClicked` (the tab knocks it down or stands it up). A question selected in
the question panel outlines the cards on its "yes" side, so the player sees what an answer does.
"""
from __future__ import annotations

import math
import os
from typing import Optional

from PySide6.QtCore import QPoint, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QGridLayout, QScrollArea, QSizePolicy, QWidget

from desktop.shell.locale_format import percent
from desktop.widgets.plain_text import esc
from desktop.widgets.worksheet import format_probability, heat_color
from engines.core.i18n import _
from engines.guesswho.board import join_or
from engines.guesswho.words import attribute_words, chip_words, value_words

#: Chip colours per attribute (cycled in board attribute order).
CHIP_COLOURS = ["#e3f2fd", "#fce4ec", "#e8f5e9", "#fff3e0", "#ede7f6", "#e0f7fa", "#f9fbe7",
                "#efebe9"]
CARD_MIN_WIDTH = 120
CARD_HEIGHT = 104
#: The lowest card (a name and one line of chips).
CARD_MIN_HEIGHT = 60


def chip_text(attribute, value) -> Optional[str]:
    """Short text of one attribute value on a card, or None when nothing is shown (a "no").

    Yes/no attributes show their name when true ("big nose"); categorical attributes show the
    value, with the attribute's first word for colours ("brown hair", "blue eye").
    """
    name = attribute_words(attribute.name)
    if attribute.kind == "yes/no":
        return name if value is True else None
    known = chip_words(attribute.name, value)     # the classic board's, translated
    if known is not None:
        return known
    low = attribute.name.lower()
    for suffix in ("_colour", "_color", " colour", " color"):
        if low.endswith(suffix):
            what = attribute.name[: -len(suffix)].replace("_", " ")
            return f"{value} {what}s" if what.lower() == "eye" else f"{value} {what}"
    return str(value)


def question_words(question: dict, board) -> str:
    """A question in event form in short words, as on the cards: "Blond hair or big mouth?",
    "No glasses?", "Is it Alex?". Unknown attributes fall back to their raw names."""
    atoms = question.get("any", [question])
    parts = []
    for atom in atoms:
        a, v = atom.get("attribute"), atom.get("value")
        if a == "name":
            parts.append(_("is it {name}").format(name=v))
            continue
        try:
            attr = board.attribute(a)
        except KeyError:
            parts.append(_("{attribute}: {value}").format(attribute=a, value=v))
            continue
        if attr.kind == "yes/no":
            words = attribute_words(attr.name)
            parts.append(words if v in (True, "yes", "true", 1) else _("no {attribute}").format(attribute=words))
        else:
            parts.append(chip_text(attr, v) or str(v))
    text = _("{question}?").format(question=join_or(parts))
    return text[:1].upper() + text[1:]


class CharacterCard(QWidget):
    """One character card (custom painted).

    Signals:
        clicked(str name): the card was clicked with the left button.
        contextRequested(str name, QPoint global_pos): right-click / menu key on the card.
    """

    clicked = Signal(str)
    contextRequested = Signal(str, QPoint)

    def __init__(self, character, board, colour_of: dict, parent=None):
        super().__init__(parent)
        self.character = character
        self.name = character.name
        self.chips: list[tuple[str, str]] = []
        for attr in board.attributes:
            text = chip_text(attr, character.value(attr.name))
            if text:
                self.chips.append((text, colour_of[attr.name]))
        self.pixmap: Optional[QPixmap] = None
        if character.image and os.path.exists(character.image):
            pm = QPixmap(character.image)
            if not pm.isNull():
                self.pixmap = pm
        self.down = False  # knocked down (probability 0)
        self.by_me = False  # knocked down by my own eliminate event (click stands it up)
        self.faded = False  # standing, but less likely than the best cards (error model)
        self.probability: Optional[float] = None
        self.badge = False
        self.badge_scale = 1.0
        self.highlight = False
        self.setMinimumSize(CARD_MIN_WIDTH, CARD_HEIGHT)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)
        self.setCursor(Qt.PointingHandCursor)
        self.setFocusPolicy(Qt.StrongFocus)
        self._update_tooltip()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's method name)
        return QSize(150, self.height_wanted)

    #: the height the board gives this card (see :meth:`BoardView._relayout`)
    height_wanted = CARD_HEIGHT

    def set_card_height(self, height: int) -> None:
        if height != self.height_wanted:
            self.height_wanted = height
            self.setMinimumSize(CARD_MIN_WIDTH, height)
            self.updateGeometry()

    def _update_tooltip(self) -> None:
        c = self.character
        lines = [f"<b>{esc(c.name)}</b>"]
        lines += [esc(_("{attribute}: {value}").format(
            attribute=attribute_words(k),
            value=(_("yes") if v else _("no")) if isinstance(v, bool) else value_words(k, v)))
                  for k, v in c.values]
        if c.note:
            lines.append("<i>{}</i>".format(esc(_("the sources disagree: {note}").format(note=c.note))))
        if self.probability is not None:
            lines.append(esc(_("chance it is this card: {p}").format(p=percent(self.probability, 1))))
        if self.down:
            lines.append(esc(_("knocked down by you — click to stand it up") if self.by_me
                             else _("ruled out by an answer")))
            lines.append(esc(_("right-click: Why?")))
        else:
            lines.append(esc(_("click to knock it down")))
        self.setToolTip("<br>".join(lines))

    def set_state(self, probability: float, down: bool, by_me: bool, faded: bool, badge: bool,
                  badge_scale: float = 1.0) -> bool:
        """Show the card's posterior state (see the attributes of the same names); True when
        what the card draws changed (it is then repainted)."""
        p = float(probability) if math.isfinite(probability) else 0.0
        before = self._look()
        self.probability, self.down, self.by_me, self.faded = p, down, by_me, faded
        self.badge, self.badge_scale = badge, badge_scale
        self._update_tooltip()
        if self._look() == before:    # most cards look the same after an answer: not painted
            return False
        self.update()
        return True

    def _look(self) -> tuple:
        """What :meth:`paintEvent` draws of the state (the badge's text and colour only while it
        is shown)."""
        scaled = (self.probability or 0.0) * self.badge_scale
        badge = (format_probability(self.probability or 0.0), heat_color(min(1.0, scaled)).rgb(),
                 scaled > 0.72) if self.badge and self.probability is not None else None
        return self.down, self.faded, self.badge, badge

    def set_highlight(self, on: bool) -> None:
        """Outline the card (it is on the yes side of the selected question)."""
        if on != self.highlight:
            self.highlight = on
            self.update()

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if event.button() == Qt.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit(self.name)
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        if event.key() in (Qt.Key_Space, Qt.Key_Return, Qt.Key_Enter):
            self.clicked.emit(self.name)
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        self.contextRequested.emit(self.name, event.globalPos())
        event.accept()

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt's method name)
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        self._paint_frame(p, r)
        # a knocked-down card is dimmed, its name still at 3.5:1 on its grey, as disabled text
        # (desktop.shell.appearance.DISABLED_CONTRAST); at 0.35 it was 2.1:1
        p.setOpacity(0.55 if self.down else (0.7 if self.faded else 1.0))
        badge_w = 44 if self.badge else 0
        self._paint_name(p, r, badge_w)
        top = QFontMetrics(self._name_font()).height() + 8
        body = QRectF(r.left() + 6, r.top() + top, r.width() - 12, r.height() - top - 4)
        if self.pixmap is not None:
            pm = self.pixmap.scaled(int(body.width()), int(body.height()), Qt.KeepAspectRatio,
                                    Qt.SmoothTransformation)
            p.drawPixmap(int(body.center().x() - pm.width() / 2), int(body.top()), pm)
        else:
            self._paint_chips(p, body)
        p.setOpacity(1.0)
        if self.badge and self.probability is not None:
            self._paint_badge(p, QRectF(r.right() - badge_w - 4, r.top() + 5, badge_w, 18))
        if self.down:
            p.setPen(QPen(QColor(120, 120, 120, 170), 2))
            p.drawLine(r.topLeft() + QPoint(10, 10), r.bottomRight() - QPoint(10, 10))
        p.end()

    def _paint_frame(self, p: QPainter, r: QRectF) -> None:
        """The card: its background (grey when down), its border (blue when highlighted) and
        the focus outline."""
        path = QPainterPath()
        path.addRoundedRect(r, 7, 7)
        bg = QColor(238, 238, 238) if self.down else QColor(255, 253, 245)
        p.fillPath(path, bg)
        border = QColor(25, 118, 210) if self.highlight else QColor(176, 160, 120)
        p.setPen(QPen(border, 3 if self.highlight else 1.2))
        p.drawPath(path)
        if self.hasFocus():
            p.setPen(QPen(QColor(25, 118, 210), 1, Qt.DashLine))
            p.drawRoundedRect(r.adjusted(3, 3, -3, -3), 5, 5)

    def _name_font(self) -> QFont:
        f = QFont(self.font())
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() + 1)
        return f

    def _paint_name(self, p: QPainter, r: QRectF, badge_w: int) -> None:
        """The character's name (elided before the badge) and "?" when it has a note."""
        f = self._name_font()
        p.setFont(f)
        p.setPen(QColor(33, 33, 33))
        name_rect = QRectF(r.left() + 8, r.top() + 4, r.width() - 16 - badge_w,
                           QFontMetrics(f).height() + 2)
        name = QFontMetrics(f).elidedText(self.name, Qt.ElideRight, int(name_rect.width()))
        p.drawText(name_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name)
        if self.character.note:
            p.setPen(QColor(230, 81, 0))
            p.drawText(QRectF(r.right() - 16 - badge_w, r.top() + 4, 12, 20),
                       Qt.AlignmentFlag.AlignCenter, "?")

    def _chip_font(self) -> QFont:
        f = QFont(self.font())
        f.setPointSizeF(max(6.5, f.pointSizeF() - 1.5))
        return f

    def _chip_rects(self, body: QRectF) -> list[QRectF]:
        """Where each chip goes in ``body`` (wrapped into lines; a chip wider than the card
        is elided to its width)."""
        fm = QFontMetrics(self._chip_font())
        h = fm.height() + 3
        x, y = body.left(), body.top()
        rects = []
        for text, _colour in self.chips:
            w = fm.horizontalAdvance(text) + 10
            if x + w > body.right() and x > body.left():
                x, y = body.left(), y + h + 3
            w = min(w, body.width())
            rects.append(QRectF(x, y, w, h))
            x += w + 4
        return rects

    def height_for(self, width: int) -> int:
        """The height this card needs at ``width`` to show its name and every attribute chip
        (or its picture at a 4:3 aspect), in logical pixels."""
        if self.pixmap is not None:
            return max(CARD_HEIGHT, 30 + int((width - 16) * 0.75))
        name_h = QFontMetrics(self._name_font()).height() + 8
        body = QRectF(8, 2 + name_h, width - 16, 1000)
        rects = self._chip_rects(body)
        bottom = max((r.bottom() for r in rects), default=body.top())
        return max(CARD_MIN_HEIGHT, int(bottom) + 8)

    def _paint_chips(self, p: QPainter, body: QRectF) -> None:
        f = self._chip_font()
        p.setFont(f)
        fm = QFontMetrics(f)
        for (text, colour), chip in zip(self.chips, self._chip_rects(body)):
            if chip.bottom() > body.bottom() + 1:
                break
            w, h = chip.width(), chip.height()
            p.setPen(QPen(QColor(190, 190, 190), 0.8))
            p.setBrush(QColor(colour))
            p.drawRoundedRect(chip, h / 2, h / 2)
            p.setPen(QColor(55, 55, 55))
            p.drawText(chip, Qt.AlignmentFlag.AlignCenter,
                       fm.elidedText(text, Qt.ElideRight, int(w - 6)))

    def _paint_badge(self, p: QPainter, rect: QRectF) -> None:
        prob = self.probability or 0.0
        colour = heat_color(min(1.0, prob * self.badge_scale))
        p.setPen(QPen(QColor(150, 120, 60), 0.8))
        p.setBrush(colour)
        p.drawRoundedRect(rect, 8, 8)
        dark = prob * self.badge_scale > 0.72
        p.setPen(QColor(255, 255, 255) if dark else QColor(33, 33, 33))
        f = QFont(self.font())
        f.setBold(True)
        f.setPointSizeF(max(7.0, f.pointSizeF() - 1))
        p.setFont(f)
        p.drawText(rect, Qt.AlignmentFlag.AlignCenter, format_probability(prob))


class BoardView(QScrollArea):
    """Scrollable grid of :class:`CharacterCard`; the number of columns follows the width.

    Signals:
        cardClicked(str name).
        cardContextMenu(str name, QPoint global_pos): right-click on a card.
    """

    cardClicked = Signal(str)
    cardContextMenu = Signal(str, QPoint)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAsNeeded)
        self._inner = QWidget()
        self._grid = QGridLayout(self._inner)
        self._grid.setContentsMargins(4, 4, 4, 4)
        self._grid.setSpacing(6)
        self.setWidget(self._inner)
        self.cards: dict[str, CharacterCard] = {}
        self._changed: list[CharacterCard] = []
        self._order: list[str] = []
        self._columns = 0

    def set_board(self, board) -> None:
        """Build one card per character of ``board`` (board order)."""
        for card in self.cards.values():
            self._grid.removeWidget(card)
            card.setParent(None)
            card.deleteLater()
        colour_of = {a.name: CHIP_COLOURS[i % len(CHIP_COLOURS)]
                     for i, a in enumerate(board.attributes)}
        self.cards = {}
        self._changed = []
        self._order = list(board.names)
        for c in board.characters:
            card = CharacterCard(c, board, colour_of, self._inner)
            card.clicked.connect(self.cardClicked)
            card.contextRequested.connect(self.cardContextMenu)
            self.cards[c.name] = card
        self._columns = 0
        self._relayout()

    def card(self, name: str) -> CharacterCard:
        """The card of character ``name`` (KeyError if the board has none)."""
        return self.cards[name]

    def set_card_state(self, name: str, probability: float, down: bool, by_me: bool,
                       faded: bool, badge: bool, badge_scale: float = 1.0) -> None:
        """Show character ``name``'s posterior state (:meth:`CharacterCard.set_state`); a name
        the board has no card for is ignored."""
        card = self.cards.get(name)
        if card is not None and card.set_state(probability, down, by_me, faded, badge, badge_scale):
            self._changed.append(card)

    def take_changed(self) -> list:
        """The cards whose look :meth:`set_card_state` changed since the last call (the tab
        repaints these at once, not the whole board)."""
        changed, self._changed = self._changed, []
        return changed

    def set_highlighted(self, names) -> None:
        """Outline the standing cards of ``names`` (the yes side of the selected question),
        and no other."""
        names = set(names)
        for name, card in self.cards.items():
            card.set_highlight(name in names and not card.down)

    def columns(self) -> int:
        """Number of card columns at the current width."""
        return self._columns

    def _relayout(self) -> None:
        """Columns for the width the board has (room kept for the vertical scroll bar, so
        showing it never pushes a column out of view): as many as fit at
        :data:`CARD_MIN_WIDTH`; every card as tall as the tallest card needs at that width to
        show all its attributes; the board scrolls vertically when the rows do not fit (and
        horizontally only when the pane is narrower than one card)."""
        bar = self.verticalScrollBar().sizeHint().width()
        width = self.width() - 2 * self.frameWidth() - bar - 8
        n = max(1, len(self._order))
        spacing = self._grid.spacing()
        cols = max(1, min(8, n, (width + spacing) // (CARD_MIN_WIDTH + spacing)))
        card_w = max(CARD_MIN_WIDTH, (width - spacing * (cols - 1)) // cols)
        h = max([CARD_MIN_HEIGHT] + [c.height_for(card_w) for c in self.cards.values()])
        grown = any(card.height_wanted != h for card in self.cards.values())
        for card in self.cards.values():
            card.set_card_height(h)
        if grown:
            # place the rows again once the scroll area has given the board its new height: the
            # grid ignores that resize while its layout request is pending, and would keep the
            # old rows' positions (cards drawn over each other)
            QTimer.singleShot(0, self, self._place_rows)
        # never wider than the viewport: the columns share its width (no clipped last column)
        self._inner.setMaximumWidth(max(width + 8, cols * CARD_MIN_WIDTH + spacing * (cols - 1) + 8))
        if cols == self._columns:
            return
        self._columns = cols
        for name in self._order:
            self._grid.removeWidget(self.cards[name])
        for i, name in enumerate(self._order):
            self._grid.addWidget(self.cards[name], i // cols, i % cols)
        for c in range(8):
            self._grid.setColumnStretch(c, 1 if c < cols else 0)
        last = (len(self._order) + cols - 1) // cols
        for r in range(len(self._order) + 2):
            self._grid.setRowStretch(r, 1 if r == last else 0)

    def _place_rows(self) -> None:
        self._grid.invalidate()
        self._grid.activate()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's method name)
        super().resizeEvent(event)
        self._relayout()

"""Spyfall forms: the New game dialog (players, my role, locations, model parameters with
sliders, the claim weight w) and the typed-claim parser with the rule that gives a claim its
weight. Every form builds engine objects from JSON, so the engine's own checks guard the forms
and a wrong entry gets the engine's message naming the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.shell.appearance import muted_style
from desktop.shell.locale_format import number, percent, significant
from desktop.widgets.columns import CONTENTS, STRETCH, Column, ColumnTable
from desktop.widgets.dialogs import NewGameDialogBase
from engines import spyfall
from engines.core.errors import SessionFormatError
from engines.core.i18n import N_, _
from engines.spyfall.model import DEFAULT_ROUNDS, NEW_GAME_MODEL, STRATEGIES

OBSERVER = N_("(nobody: I only watch)")
SPY = N_("I am the spy")
DEFAULT_NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
STRATEGY_LABELS = {"flat": N_("Flat hide-reveal"), "dynamic": N_("Dynamic hide-reveal"),
                   "joker": N_("Joker (random claims)")}


def strategy_label(key: str) -> str:
    """A strategy's name in the language in effect (an unknown key as it is)."""
    return _(STRATEGY_LABELS[key]) if key in STRATEGY_LABELS else key
#: The strategies in a player's words (the model's names are the tooltips).
STRATEGY_WORDS = {"flat": N_("No: the same every round"), "dynamic": N_("Yes: more when suspected"),
                  "joker": N_("Random claims")}
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
#: The New game dialog's starting model (docs/spyfall-equilibrium.md, "Defaults chosen from the study").
NEW_BETA = float(NEW_GAME_MODEL["beta"])
NEW_LAMBDA = float(NEW_GAME_MODEL["lambda"])
NEW_STRATEGY = str(NEW_GAME_MODEL["strategy"])
NEW_CLAIM_WEIGHT = float(NEW_GAME_MODEL["claim_weight"])
#: The token of a typed claim that sets its own weight (``Beach: 0.62, w=0.5``).
_W_TOKEN = re.compile(r"^\s*w\s*[:=]\s*(.*)$", re.IGNORECASE)

CLAIM_WEIGHT_HELP = N_(
    "w: claim weight in (0, 1] — how much one claim counts. The observer multiplies each claim's "
    "log-likelihood by w (a tempered likelihood; w = 1 is the exact model of “Spyfall with Pyro”).\n"
    "A claim clicked on the worksheet is coarse: each location 0, ½ or 1. Read as an exact point "
    "of the Dirichlet model, one such claim can make a player look certainly the spy "
    "(up to 24 bits from one claim), so worksheet claims are tempered.\n"
    "Calibrated on bot games whose claims were rounded to the grid (the w with the least log loss "
    "of the public spy belief): w = 0.05 for flat λ = 0.3 (0.07 for λ 0.5–0.7, 0.01 for "
    "λ ≤ 0.15) — docs/spyfall-calibration.md.\n"
    "This w applies to claims on the grid (clicked, or typed with weights 0, ½ and 1 only). A claim "
    "typed with exact numbers (Beach: 0.62) counts fully, w = 1; add w=0.3 to a typed claim to "
    "give it its own weight.")


def _weight_value(text: str):
    """A typed weight: a number, "½", or the text itself (the engine then names the problem)."""
    t = text.strip()
    if t == "½":
        return 0.5
    if "/" in t:
        a, _, b = t.partition("/")
        if _NUMBER.match(a.strip()) and _NUMBER.match(b.strip()) and float(b) != 0:
            return float(a) / float(b)
    if _NUMBER.match(t):
        return float(t)
    return text.strip()


def parse_claim_text(text: str, setup) -> object:
    """The JSON ``claim`` of a typed claim, for :func:`engines.spyfall.event_from_json`.

    Accepted forms: ``"Beach:1, Casino:0.5"`` (also ``=``, ``;`` or new lines as separators;
    a name alone weighs 1; names match the setup's locations ignoring case), or a plain vector of
    n numbers in the order of the locations (``"1, 0, 0.5, ..."``).

    Returns:
        ``{location: weight}`` or a list of weights (values the engine validates).
    Raises:
        SessionFormatError: a location named twice or an entry with no name.
    """
    tokens = [t.strip() for t in re.split(r"[,;\n]", text) if t.strip()]
    if tokens and all(_NUMBER.match(t) for t in tokens):
        return [float(t) for t in tokens]
    by_lower = {loc.lower(): loc for loc in setup.locations}
    out: dict = {}
    for tok in tokens:
        if ":" in tok or "=" in tok:
            name, _sep, weight = re.split(r"([:=])", tok, maxsplit=1)
            value = _weight_value(weight)
        else:
            name, value = tok, 1.0
        name = name.strip()
        if not name:
            raise SessionFormatError("claim", _("{text} names no location (write Location:weight)").format(
                text=repr(tok)))
        name = by_lower.get(name.lower(), name)
        if name in out:
            raise SessionFormatError("claim", _("{location} is named twice").format(location=name))
        out[name] = value
    return out


def parse_claim_entry(text: str, setup) -> tuple:
    """A typed claim and the weight its text sets: ``(claim, w)`` where ``claim`` is what
    :func:`parse_claim_text` returns for the text without its ``w=…`` token and ``w`` that
    token's value (a float, or the text itself for the engine to refuse), or None without one.
    The token is ``w=0.3`` / ``w: 0.3``, unless a location is called "w" (then it is a weight).

    Raises:
        SessionFormatError: as :func:`parse_claim_text`, or ``w`` given twice.
    """
    has_w_location = any(loc.strip().lower() == "w" for loc in setup.locations)
    rest, weight = [], None
    for tok in re.split(r"[,;\n]", text):
        m = None if has_w_location else _W_TOKEN.match(tok)
        if m is None:
            rest.append(tok)
            continue
        if weight is not None:
            raise SessionFormatError("claim_weight", _("w is given twice"))
        weight = _weight_value(m.group(1))
    return parse_claim_text(",".join(rest), setup), weight


def claim_error_text(exc: SessionFormatError) -> str:
    """The engine's message for a bad claim, with the location it concerns when the path names it."""
    msg = exc.message
    path = exc.path or ""
    marker = ".claim."
    if marker in path:
        tail = path.split(marker, 1)[1]
        if tail and tail not in msg:
            return _("{where}: {message}").format(where=tail, message=msg)
    return msg


def calibrated_weights() -> dict:
    """``{λ: calibrated w}`` of the stored calibration study (flat hide-reveal, worksheet claims;
    ``resources/spyfall/calibration.json``), or ``{}`` when it is missing or unreadable."""
    from engines.spyfall.calibration import load_calibration

    try:
        data = load_calibration()
        return {float(v["lambda"]): float(v["best_w"]) for v in data.values()
                if isinstance(v, dict) and v.get("strategy") == "flat" and "best_w" in v}
    except (OSError, ValueError, KeyError, TypeError, SessionFormatError):
        return {}


def describe_claim_weight(n_locations: int, lam: float, w: float) -> Optional[str]:
    """What claim weight ``w`` means at a table of ``n_locations`` and reveal weight ``lam``, in
    words, from the stored claim-weight table (:func:`engines.spyfall.calibration.claim_weight_row`,
    the nearest studied table): how far one worksheet claim moves a player's spy odds at most
    (99 % of the bots' grid claims), with an example, and the w that fitted the bots best.
    None when the table is missing or unreadable."""
    import math

    from engines.spyfall.calibration import claim_weight_row, step_at

    try:
        row = claim_weight_row(n_locations, lam)
        step = step_at(row, w)
    except (OSError, ValueError, KeyError, TypeError, SessionFormatError):
        return None
    factor = math.exp(step)
    odds = 0.25 * factor                    # from 20 % (odds 1:4)
    after = 100 * odds / (1 + odds)
    where = (_("{n} locations").format(n=row["locations"]) if row["locations"] == n_locations else
             _("{n} locations, the nearest studied table to {m}").format(n=row["locations"], m=n_locations))
    best, games = best_claim_weight(row)
    return _("At {w}, one clicked claim moves a player's odds of being the spy by at most ×{factor} "
             "(99 % of bot claims), e.g. from {before} to {after}. Best fit to {games} games "
             "({where}, claims giving away {lam}): {best}. Fitted to bots, not to people.").format(
        w=significant(w, 6), factor=significant(factor, 2), before=percent(0.2),
        after=percent(after / 100), games=games, where=where, lam=significant(row["lambda"], 6),
        best=significant(best, 6))


def best_claim_weight(row: dict) -> tuple:
    """``(w, games)``: the best-fitting claim weight for a claim-weight table ``row``, from the
    larger of the two stored studies that measured its table: the calibration study (300 games,
    ``resources/spyfall/calibration.json``) where it studied the row's locations and λ, else
    the table's own fit (40 games a row). One figure for one table, so the dialog never shows
    the table's noisier 0.1 beside the calibration's 0.05 for the same game."""
    from engines.spyfall.calibration import load_calibration

    try:
        data = load_calibration()
        if int(data["table"]["locations"]) == int(row["locations"]):
            for v in data.values():
                if (isinstance(v, dict) and v.get("strategy") == "flat" and "best_w" in v
                        and float(v["lambda"]) == float(row["lambda"])):
                    return float(v["best_w"]), int(data["games"])
    except (OSError, ValueError, KeyError, TypeError, SessionFormatError):
        pass
    return float(row["best_w"]), int(row.get("games", 0)) or "the"


class ParamSlider(QWidget):
    """A slider with a spin box showing the same value (``scale`` slider steps per unit; the
    spin box steps by ``step``, default one slider step)."""

    def __init__(self, lo: float, hi: float, value: float, scale: int, decimals: int, tip: str,
                 parent=None, step: Optional[float] = None):
        super().__init__(parent)
        self.scale = scale
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(round(lo * scale), round(hi * scale))
        self.spin = QDoubleSpinBox()
        self.spin.setRange(lo, hi)
        self.spin.setDecimals(decimals)
        self.spin.setSingleStep(step if step is not None else 1.0 / scale)
        self.spin.setToolTip(tip)
        self.slider.setToolTip(tip)
        lay.addWidget(self.slider, 1)
        lay.addWidget(self.spin)
        self.slider.valueChanged.connect(lambda v: self._from_slider(v))
        self.spin.valueChanged.connect(self._from_spin)
        self.set_value(value)

    def _from_slider(self, v: int) -> None:
        if round(self.spin.value() * self.scale) != v:
            self.spin.setValue(v / self.scale)

    def _from_spin(self, v: float) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(round(v * self.scale))
        self.slider.blockSignals(False)

    def value(self) -> float:
        return float(self.spin.value())

    def set_value(self, v: float) -> None:
        self.spin.setValue(v)
        self._from_spin(v)


@dataclass
class Seat:
    """One row of the New game dialog's seating grid: a player and their model (their own, or
    the table's that the row shows and follows)."""

    name: str
    own: bool
    beta: float
    lam: float
    weight: float
    strategy: str


def _double_editor(lo: float, hi: float, decimals: int, step: float, tip: str = ""):
    """An editor factory: a spin box over ``lo..hi``."""
    def make(parent) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(parent)
        spin.setRange(lo, hi)
        spin.setDecimals(decimals)
        spin.setSingleStep(step)
        spin.setToolTip(tip)
        return spin
    return make


def _strategy_editor(parent) -> QComboBox:
    combo = QComboBox(parent)
    for key in STRATEGIES:
        combo.addItem(strategy_label(key), key)
    return combo


def _setter(attr: str, kind=float):
    def edit(seat: Seat, value) -> None:
        setattr(seat, attr, kind(value))
    return edit


def _own(seat: Seat) -> bool:
    return seat.own


#: The seating grid: a player's name, whether they have their own model, and that model (a
#: row without its own model shows the table's, greyed; it cannot be edited).
def seat_columns() -> tuple:
    """The seating grid's columns, in the language in effect."""
    help_w = _(CLAIM_WEIGHT_HELP)
    return (
        Column(_("Name"), lambda s: s.name, edit=_setter("name", str), resize=STRETCH),
        Column(_("Own model"), lambda s: s.own, check=True, edit=_setter("own", bool), resize=CONTENTS,
               header_tooltip=_("tick to give this player a model of their own")),
        Column(_("Steady (β)"), lambda s: s.beta, numeric=True, format=lambda v: number(v, 1),
               edit=_setter("beta"), editable=_own, editor=_double_editor(0.1, 1000.0, 1, 0.1), width=90),
        Column(_("Give away (λ)"), lambda s: s.lam, numeric=True, format=lambda v: number(v, 2),
               edit=_setter("lam"), editable=_own, editor=_double_editor(0.0, 0.99, 2, 0.05), width=90),
        Column(_("Counts (w)"), lambda s: s.weight, numeric=True, format=lambda v: number(v, 3),
               edit=_setter("weight"), editable=_own, header_tooltip=help_w,
               tooltip=lambda s: help_w,
               editor=_double_editor(0.001, 1.0, 3, 0.01, help_w), width=90),
        Column(_("Strategy"), lambda s: s.strategy, format=strategy_label,
               edit=_setter("strategy", str), editable=_own, editor=_strategy_editor, width=190),
    )


#: The seating grid's columns (English; the dialog builds them in the language in effect).
SEAT_COLUMNS = seat_columns()


class NewGameDialog(NewGameDialogBase):
    """Ask for a new Spyfall game: locations (edition or a custom list), players in seating
    order, who I am and my card (a location or "spy"), and the model: β, λ and the claim weight
    w with sliders (defaults :data:`engines.spyfall.model.NEW_GAME_MODEL`: β = 5, λ = 0.3,
    w = 0.05), the table's emission strategy, optional per-player overrides (β, λ, w, strategy)
    and the number of rounds. :meth:`build` validates through ``Setup.from_json``.
    """

    #: Per-player table columns.
    COLUMNS = tuple(c.title for c in SEAT_COLUMNS)
    NAME, OWN, BETA, LAM, WEIGHT, STRATEGY = range(6)

    def __init__(self, parent=None, setup=None):
        super().__init__(parent)
        self.setWindowTitle(_("New Spyfall game"))
        self.setMinimumWidth(820)
        self.editions = spyfall.editions()
        outer = QVBoxLayout(self)
        top = QHBoxLayout()
        outer.addLayout(top)
        top.addLayout(self._build_game_form(), 1)
        top.addWidget(self._build_model_box(), 1)
        outer.addWidget(QLabel(_("Seating order (clockwise); tick a player to give them their own model:")))
        # the seating grid is an editable form: a Seat per row, edited in place through the
        # declared columns (a row without its own model is greyed and follows the table's)
        self.table = ColumnTable(seat_columns(), editable=True, select_rows=False, numbered=True)
        self.table.setMinimumHeight(190)
        outer.addWidget(self.table, 1)
        outer.addWidget(self.start_buttons())
        self._connect()
        self._players_changed()
        self._locations_changed()
        if setup is not None:
            self._load_setup(setup)
        self._update_weight_hint()

    def _build_game_form(self) -> QFormLayout:
        """Locations (an edition or a custom list), players, who I am, my card, rounds."""
        form = QFormLayout()
        self.edition = QComboBox()
        for key, ed in self.editions.items():
            self.edition.addItem(_("{title} ({n} locations)").format(title=ed["title"], n=len(ed["locations"])),
                                 key)
        self.edition.addItem(_("Custom list…"), userData="custom")
        form.addRow(_("Locations"), self.edition)
        self.custom = QPlainTextEdit()
        self.custom.setPlaceholderText(_("one location per line"))
        self.custom.setMinimumHeight(90)
        form.addRow("", self.custom)
        self.n_players = QSpinBox()
        self.n_players.setRange(3, len(DEFAULT_NAMES))
        self.n_players.setValue(5)
        form.addRow(_("Players"), self.n_players)
        self.me = QComboBox()
        form.addRow("I am", self.me)
        self.role = QComboBox()
        self.role.setToolTip(_("The card I was dealt: the spy card, or a location"))
        form.addRow(_("My card"), self.role)
        self.rounds = QSpinBox()
        self.rounds.setRange(1, 100)
        self.rounds.setValue(DEFAULT_ROUNDS)
        self.rounds.setToolTip(_("Rounds before the end game (every player speaks once a round)"))
        form.addRow(_("Rounds"), self.rounds)
        return form

    def _build_model_box(self) -> QGroupBox:
        """The table's model: β, λ and w sliders, the strategy, the Defaults button."""
        model_box = QGroupBox(_("Model (everyone's personality, known to all)"))
        mf = QFormLayout(model_box)
        self.beta = ParamSlider(0.1, 50.0, NEW_BETA, 10, 1,
                                _("β: Dirichlet concentration — how consistent a player's claims are"))
        self.lam = ParamSlider(0.0, 0.99, NEW_LAMBDA, 100, 2,
                               _("λ: reveal weight — how much of what a player knows the claim shows"))
        self.weight = ParamSlider(0.001, 1.0, NEW_CLAIM_WEIGHT, 1000, 3, _(CLAIM_WEIGHT_HELP), step=0.01)
        self.weight_hint = QLabel()
        self.weight_hint.setWordWrap(True)
        self.weight_hint.setToolTip(_(CLAIM_WEIGHT_HELP))
        muted_style(self.weight_hint)
        # room for the hint's longest text (set later, after the dialog has its size)
        self.weight_hint.setMinimumHeight(8 * self.weight_hint.fontMetrics().lineSpacing())
        self.strategy = QComboBox()
        for s in ("flat", "dynamic"):
            self.strategy.addItem(_(STRATEGY_WORDS[s]), s)
            self.strategy.setItemData(self.strategy.count() - 1, strategy_label(s),
                                      Qt.ItemDataRole.ToolTipRole)
        # a player's question for each parameter; the symbol and its meaning in the tooltip
        for text, slider in ((_("How steady are their claims?"), self.beta),
                             (_("How much do their claims give away?"), self.lam),
                             (_("How much does a clicked claim count?"), self.weight)):
            label = QLabel(text)
            label.setToolTip(slider.toolTip() or slider.spin.toolTip())
            mf.addRow(label, slider)
            if slider is self.weight:
                mf.addRow("", self.weight_hint)
        strategy_question = QLabel(_("Do they give away more when suspected?"))
        strategy_question.setToolTip(_("Flat hide-reveal: the same every round. Dynamic hide-reveal: "
                                       "a suspected player reveals more, and claims get looser as the "
                                       "location becomes public."))
        mf.addRow(strategy_question, self.strategy)
        reset = QPushButton(_("Defaults (the best fit to the studies)"))
        reset.setToolTip(f"β = {significant(NEW_BETA, 6)}, λ = {significant(NEW_LAMBDA, 6)}, "
                         f"w = {significant(NEW_CLAIM_WEIGHT, 6)}, {strategy_label(NEW_STRATEGY).lower()}")
        reset.clicked.connect(self._defaults)
        mf.addRow("", reset)
        return model_box

    def _connect(self) -> None:
        self.edition.currentIndexChanged.connect(self._locations_changed)
        self.custom.textChanged.connect(self._locations_changed)
        self.edition.currentIndexChanged.connect(self._update_weight_hint)
        self.n_players.valueChanged.connect(self._players_changed)
        self.table.edited.connect(self._seat_edited)
        self.me.currentIndexChanged.connect(self._me_changed)
        for w in (self.beta.spin, self.lam.spin, self.weight.spin):
            w.valueChanged.connect(self._sync_defaults)
        self.strategy.currentIndexChanged.connect(self._sync_defaults)
        self.lam.spin.valueChanged.connect(self._update_weight_hint)
        self.weight.spin.valueChanged.connect(self._update_weight_hint)
        self.strategy.currentIndexChanged.connect(self._update_weight_hint)

    # -- helpers ------------------------------------------------------------------------------
    def locations(self) -> list[str]:
        key = self.edition.currentData()
        if key == "custom":
            return [x.strip() for x in self.custom.toPlainText().splitlines() if x.strip()]
        return list(self.editions[key]["locations"])

    def seats(self) -> list[Seat]:
        """The seating grid's rows, in seating order."""
        return self.table.rows()

    def names(self) -> list[str]:
        return [seat.name.strip() for seat in self.seats()]

    def _defaults(self) -> None:
        self.beta.set_value(NEW_BETA)
        self.lam.set_value(NEW_LAMBDA)
        self.weight.set_value(NEW_CLAIM_WEIGHT)
        self.strategy.setCurrentIndex(self.strategy.findData(NEW_STRATEGY))

    def _update_weight_hint(self, *_a) -> None:
        """Say what the chosen w means (the claim-weight table: :func:`describe_claim_weight`),
        else which w the calibration found for the table's λ (the nearest studied flat λ)."""
        lam = self.lam.value()
        words = describe_claim_weight(max(2, len(self.locations())), lam, self.weight.value())
        if words is not None:
            if self.strategy.currentData() != "flat":
                words = _("(studied for claims the same every round)") + " " + words
            self.weight_hint.setText(words + " " + _("Claims typed with exact numbers count fully."))
            return
        cal = calibrated_weights()
        if not cal:
            self.weight_hint.setText(_("Clicked claims count this much; claims typed with exact "
                                       "numbers count fully."))
            return
        near = min(cal, key=lambda x: abs(x - lam))
        best = cal[near]
        text = _("Best fit for clicked claims (claims giving away {lam}): {w}. Claims typed with exact "
                 "numbers (Beach: 0.62) count fully.").format(lam=significant(near, 6), w=significant(best, 6))
        if self.strategy.currentData() != "flat":
            text = _("(studied for claims the same every round)") + " " + text
        self.weight_hint.setText(text)

    def _locations_changed(self, *_a) -> None:
        self.custom.setVisible(self.edition.currentData() == "custom")
        cur = self.role.currentText()
        self.role.blockSignals(True)
        self.role.clear()
        self.role.addItem(_(SPY), userData="spy")
        for loc in self.locations():
            self.role.addItem(loc, loc)
        i = self.role.findText(cur)
        self.role.setCurrentIndex(i if i >= 0 else min(1, self.role.count() - 1))
        self.role.blockSignals(False)

    def _table_seat(self, name: str) -> Seat:
        """A seat without its own model: the table's β, λ, w and strategy."""
        return Seat(name, False, self.beta.value(), self.lam.value(), self.weight.value(),
                    self.strategy.currentData())

    def _players_changed(self, *_a) -> None:
        n = self.n_players.value()
        seats = self.seats()[:n]
        seats += [self._table_seat(DEFAULT_NAMES[r]) for r in range(len(seats), n)]
        self.table.set_rows(seats)
        self._names_changed()

    def _seat_edited(self, _row: int, column: int) -> None:
        if column == self.NAME:
            self._names_changed()
        elif column == self.OWN:
            self._sync_defaults()      # a seat given back to the table shows the table's model

    def _sync_defaults(self, *_a) -> None:
        """Players without their own model show (and follow) the table's β, λ, w and strategy."""
        for seat in self.seats():
            if not seat.own:
                table = self._table_seat(seat.name)
                seat.beta, seat.lam, seat.weight, seat.strategy = \
                    table.beta, table.lam, table.weight, table.strategy
        self.table.refresh()

    def _names_changed(self, *_a) -> None:
        cur = self.me.currentText()
        self.me.blockSignals(True)
        self.me.clear()
        for n in self.names():
            self.me.addItem(n, n)
        self.me.addItem(_(OBSERVER), None)
        i = self.me.findText(cur)
        self.me.setCurrentIndex(i if i >= 0 else 0)
        self.me.blockSignals(False)
        self._me_changed()

    def _me_changed(self, *_a) -> None:
        self.role.setEnabled(self.me.currentData() is not None)

    def _load_setup(self, setup) -> None:
        key = setup.edition if setup.edition else "custom"
        self.edition.setCurrentIndex(max(0, self.edition.findData(key)))
        if not setup.edition:
            self.custom.setPlainText("\n".join(setup.locations))
        self.beta.set_value(setup.beta)
        self.lam.set_value(setup.lam)
        self.weight.set_value(setup.claim_weight)
        self.strategy.setCurrentIndex(max(0, self.strategy.findData(setup.strategy)))
        self.rounds.setValue(setup.rounds)
        self.n_players.setValue(len(setup.players))
        default = spyfall.PlayerModel(beta=setup.beta, lam=setup.lam, strategy=setup.strategy,
                                      claim_weight=setup.claim_weight)
        self.table.set_rows([Seat(p, m != default, m.beta, m.lam, m.claim_weight, m.strategy)
                             for p, m in zip(setup.players, setup.models)])
        self._names_changed()
        self.me.setCurrentIndex(self.me.findData(setup.me) if setup.me else self.me.count() - 1)
        if setup.me is not None:
            self.role.setCurrentIndex(0 if setup.i_am_spy else max(0, self.role.findData(setup.my_location)))

    # -- result -------------------------------------------------------------------------------
    def setup_json(self) -> dict:
        """The setup object the form describes (not validated yet)."""
        obj: dict = {}
        key = self.edition.currentData()
        if key == "custom":
            obj["locations"] = self.locations()
        else:
            obj["edition"] = key
        seats = self.seats()
        obj["players"] = [seat.name.strip() for seat in seats]
        me = self.me.currentData()
        if me is not None:
            obj["me"] = me
            role = self.role.currentData()
            obj["my_role"] = {"spy": True} if role == "spy" else {"location": role}
        model = {"beta": self.beta.value(), "lambda": self.lam.value(),
                 "strategy": self.strategy.currentData(), "claim_weight": self.weight.value()}
        per = {seat.name.strip(): {"beta": seat.beta, "lambda": seat.lam,
                                   "claim_weight": seat.weight, "strategy": seat.strategy}
               for seat in seats if seat.own and seat.name.strip()}
        if per:
            model["players"] = per
        obj["model"] = model
        if self.rounds.value() != DEFAULT_ROUNDS:
            obj["rounds"] = self.rounds.value()
        return obj

    def build(self):
        """Validate and build the :class:`engines.spyfall.Setup`; raises SessionFormatError."""
        names = self.names()
        for i, n in enumerate(names):
            if not n:
                raise SessionFormatError(_("player {n}").format(n=i + 1), _("every player needs a name"))
        if len(set(names)) != len(names):
            raise SessionFormatError(_("players"), _("two players have the same name"))
        if self.edition.currentData() == "custom" and len(self.locations()) < 2:
            raise SessionFormatError(_("locations"), _("a custom list needs at least two locations, one per line"))
        return spyfall.Setup.from_json(self.setup_json(), "$.setup")


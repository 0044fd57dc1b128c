"""The tab of a game that brings no tab of its own: its beliefs as the engine's named numbers.

A game installed as a package of its own (:mod:`engines.registry`) whose ``GameInfo.tab`` is
empty, and that has no ``desktop/games/<game>/tab.py``, gets this tab: the engine's
``belief_summary`` as a table (name, value; probabilities as percentages), the history, the
belief plot of every summary number, and — from :class:`desktop.tabs.base.GameTab` — quick entry
when the engine has it, the checks of entries, the contradiction banner, undo and the CSV
export. New game restarts from the engine's ``default_setup()``.
"""
from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout

from desktop.tabs.base import GameTab
from engines.core.i18n import _, ngettext


def _shown(name: str, value: float) -> str:
    if not math.isfinite(value):
        return "—"
    if name.endswith("_bits"):
        return f"{value:.3f} bits"
    return f"{100 * value:.1f} %" if 0.0 <= value <= 1.0 else f"{value:.4g}"


class GenericTab(GameTab):
    """A tab built from the engine contract alone (see the module docstring); the desktop makes
    a subclass with ``GAME`` set for each game that needs one (:func:`generic_tab_class`)."""

    def build_ui(self) -> None:
        lay = QVBoxLayout(self)
        lay.addWidget(self.banner)
        self.caption = QLabel()
        lay.addWidget(self.caption)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels([_("Belief"), _("Value")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.history)
        lay.addWidget(split, 1)
        lay.addWidget(self.plot)

    def show_posterior(self, snap) -> None:
        posterior, k = snap.posterior, snap.k
        summary = self.module.belief_summary(snap.setup, posterior)
        self.table.setRowCount(len(summary))
        for row, (name, value) in enumerate(summary.items()):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            self.table.setItem(row, 1, QTableWidgetItem(_shown(name, float(value))))
        n = snap.n
        self.caption.setText(ngettext("Beliefs after {k} of {n} entry", "Beliefs after {k} of {n} entries",
                                      n).format(k=k, n=n))

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        names = next((list(s) for s in timeline.summaries if s), [])
        return {name: [s[name] if s else None for s in timeline.summaries] for name in names}

    def new_game(self) -> bool:
        self.reset_document(self.module.default_setup())
        return True


def generic_tab_class(game: str) -> type:
    """A :class:`GenericTab` subclass for ``game`` (a registered game id)."""
    return type(f"GenericTab_{game}", (GenericTab,), {"GAME": game, "__module__": __name__})

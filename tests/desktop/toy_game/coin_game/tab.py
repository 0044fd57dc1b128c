"""The coin game's own desktop tab: P(trick coin) in words, the history, the plot, and a Why?
item in the label's context menu."""
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMenu, QVBoxLayout

from coin_game.info import COIN
from desktop.tabs.base import GameTab


class CoinTab(GameTab):
    GAME = COIN.id

    def build_ui(self):
        lay = QVBoxLayout(self)
        self.label = QLabel()
        self.label.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.label.customContextMenuRequested.connect(self.label_menu)
        for w in (self.banner, self.label, self.history, self.plot):
            lay.addWidget(w)

    def label_menu(self, pos):
        menu = QMenu(self)
        self.add_why_action(menu, {"coin": "trick"}, "The coin is a trick coin")
        self.why_chosen(self.exec_menu(menu, self.label.mapToGlobal(pos)), pos)

    def show_posterior(self, snap):
        post, k = snap.posterior, snap.k
        self.label.setText(f"P(trick coin) = {post.p_biased:.4f} after {k} flips")

    def plot_series(self, snap):
        timeline = snap.timeline
        return {"trick": [s and s["p_biased"] for s in timeline.summaries]}

    def new_game(self):
        self.reset_document(self.module.default_setup())
        return True

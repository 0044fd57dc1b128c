"""The Cluedo tab: worksheet heat map (cards × players + envelope), suggestion form,
belief plots, recommendations, who is close to solving and when to accuse, and the status line
(method, time, consistent deals).
"""
from __future__ import annotations

import functools
import threading

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.games.cluedo.board_view import BoardPanel, turn_job_for
from desktop.games.cluedo.estimates import OpponentsView
from desktop.games.cluedo.forms import NewGameDialog, SuggestionForm, category_title
from desktop.games.cluedo.opponents import RULE_TEXT, OpponentsTracker
from desktop.games.cluedo.panes import (
    RULE_WORDS,
    AccuseAdvice,
    SuggestionRanking,
    WhoIsClosePane,
    advice_source,  # noqa: F401 (a name of this module too)
    method_label,
    title_tip,
    who_title,
)
from desktop.games.cluedo.ranking import ranking as shared_ranking
from desktop.games.cluedo.suggestion_notes import learned_notes
from desktop.shell.appearance import muted_css, tone
from desktop.shell.locale_format import number
from desktop.table.zoom import scaled_size
from desktop.tabs.base import GameTab
from desktop.tabs.jobs import Priority
from desktop.tabs.wording import PLAIN
from desktop.widgets.belief_plot import BeliefPlot
from desktop.widgets.plain_text import esc
from desktop.widgets.quick_entry import EnterSubmits
from desktop.widgets.side_panes import PaneTabs, SidePanes
from desktop.widgets.unchanged import clear_text, set_tab_text
from desktop.widgets.worksheet import CERTAIN_EPS, ProbabilityTableModel, WorksheetView
from engines import cluedo
from engines.core.i18n import _

ENVELOPE = "envelope"


class Tab(GameTab):
    """Cluedo at the table: log hands, shown cards, suggestions; read exact probabilities."""

    GAME = "cluedo"

    def make_plot(self) -> BeliefPlot:
        return BeliefPlot(_("Envelope: probability of the leading suspect, weapon and room"))

    def build_ui(self):
        root = QVBoxLayout(self)
        root.setContentsMargins(6, 6, 6, 6)
        root.addLayout(self._build_method_bar())
        root.addWidget(self.banner)
        split = SidePanes()       # the side panes fold into tabs when the width is short
        root.addWidget(split, 1)
        split.addWidget(self._build_worksheet())          # left: the worksheet
        split.setStretchFactor(0, 3)
        yield                     # each part of the tab a turn of its own (GameTab._parts)
        split.add_pane(self._build_forms_pane(), _("Suggestions"), 2)    # the form, the ranking
        yield
        split.add_pane(self._build_side_pane(), _("History and plots"), 2)
        split.setSizes([560, 390, 330])
        self.side_panes = split
        self._start_runners()
        yield
        self.reset_views()

    def _build_method_bar(self) -> QHBoxLayout:
        """The method picker, the count of consistent deals and the "accuse now" line."""
        bar = QHBoxLayout()
        bar.addWidget(QLabel(_("Method:")))
        self.method = QComboBox()
        for m in cluedo.METHODS:
            self.method.addItem(method_label(m, PLAIN), m)
        self.method.currentIndexChanged.connect(self.request_inference)
        self.method.currentIndexChanged.connect(self._method_changed)
        bar.addWidget(self.method)
        # the classic deck's names: UK, German, French (the same log; docs/session-format.md)
        self.names_label = QLabel(_("Card names:"))
        bar.addWidget(self.names_label)
        self.card_names = QComboBox()
        self.card_names.setToolTip(_("Show this game's cards under another edition's names: the "
                                     "same deck, log and probabilities (undo with Ctrl+Z)"))
        self.card_names.setAccessibleName(_("Card names"))
        self.names_label.setBuddy(self.card_names)
        self.card_names.activated.connect(self._card_names_chosen)
        bar.addWidget(self.card_names)
        self.deals_label = QLabel()
        bar.addWidget(self.deals_label, 1)
        # the best suggestions of the moment and its "Ready to accuse" line (SuggestionRanking)
        self.ranking = SuggestionRanking(self)
        self.ranking.roomChanged.connect(self._room_changed)
        self.ranking.suggestionChosen.connect(self._use_recommendation)
        self.accuse_label = self.ranking.accuse
        bar.addWidget(self.accuse_label)
        return bar

    def _build_worksheet(self) -> WorksheetView:
        """The heat map of cards × owners; its menus and header clicks fill the form."""
        self.model = ProbabilityTableModel([], [])
        self.sheet = WorksheetView()
        self.sheet.setAccessibleName(_("Worksheet: who holds each card"))
        self.sheet.setModel(self.model)
        scaled_size(self.sheet, min_width=430)   # 430 px at 100 %, grows with the zoom
        self.sheet.setToolTip(_("Right-click a cell (or press the menu key) to log a fact; click a card "
                                "name to put it in the suggestion form; click a player to make them the suggester"))
        self.sheet.cellContextMenu.connect(self._cell_menu)
        self.sheet.cellKeyAction.connect(self._cell_key)
        self.sheet.rowHeaderClicked.connect(self._row_clicked)
        self.sheet.columnHeaderClicked.connect(self._column_clicked)
        return self.sheet

    def _build_forms_pane(self) -> QWidget:
        """The suggestion form above the best suggestions (with their room filter), the advice
        on who is close, and the note on how the ranking was computed."""
        mid = QWidget()
        ml = QVBoxLayout(mid)
        ml.setContentsMargins(0, 0, 0, 0)
        self.form = SuggestionForm(self.controller.setup)
        self.form.submitted.connect(self._log_suggestion)
        self.form.accusationSubmitted.connect(self.log_checked)
        EnterSubmits(self.form, self.form.submit)
        self.form.formChanged.connect(self._request_advice)
        ml.addWidget(self.form)
        rank = self.ranking
        self.worded(rank.title.setText, _("<b>Best suggestions</b> (what each would tell you about "
                    "the envelope)"), _("<b>Best suggestions</b> (expected information gain about the "
                    "envelope)"))
        ml.addLayout(rank.head)
        self.advice_panel = AccuseAdvice()
        self.advice_panel.detailsRequested.connect(self._show_who_is_close)
        ml.addWidget(self.advice_panel)
        ml.addWidget(rank.table, 1)
        ml.addWidget(rank.note)
        self.room, self.rec_table, self.rec_note = rank.room, rank.table, rank.note
        return mid

    def _build_side_pane(self) -> QSplitter:
        """The history above the plots: envelope, entropy, who is close."""
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.history)
        plots = PaneTabs()        # every title whole, a width the pages' texts do not move
        plots.addTab(self.plot, _("Envelope"))
        self.entropy_plot = BeliefPlot(_("Uncertainty about the envelope"), y_label=_("bits"), y_range=None)
        plots.addTab(self.entropy_plot, _("Uncertainty"))
        self.worded(lambda t: plots.setTabText(plots.indexOf(self.entropy_plot), t),
                    _("Uncertainty"), _("Entropy"))
        self.worded(self.entropy_plot.set_y_label, _("uncertainty"), _("bits"))
        self.side_tabs = plots
        self.who_page = self._build_who_is_close()
        plots.addTab(self.who_page, _("Who is close?"))
        self.board_panel = BoardPanel()     # where to move this turn, at the moment shown
        self.board_panel.positionChosen.connect(self._log_my_position)
        self.board_panel.rollChanged.connect(lambda r: self.controller.set_advice_options("turn", roll=r))
        plots.addTab(self.board_panel, _("Board"))
        right.addWidget(plots)
        # History as tall as the plots (it had a third of the height: three to five entries
        # at 1280×800); the plots and the board keep about 300 px there
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)
        right.setSizes([320, 320])
        return right

    def _start_runners(self) -> None:
        """The background tasks: the ranking, the refuting advice, and who is close."""
        # the ranking is an advisor of the controller: one task per moment shown, the sampled
        # estimate first (a partial result, a fraction of a second), then the exact values;
        # computed in the engines' worker process, beside the worksheet's paint
        self.rec_runner = self.controller.add_advisor("recommend", _recommend_job_for,
                                                      options={"room": None}, shares_lock=False)
        self.controller.add_advisor("turn", turn_job_for, options={"roll": None},
                                    priority=Priority.ADVICE)
        self.advice_runner = self.make_runner("advice", priority=Priority.ADVICE)
        self.advice_runner.resultReady.connect(self._on_advice)
        # who is close and when to accuse: its own tasks, separate from the ranking (the
        # plot's task is low priority: not counted as the tab's pending work, but cancelled
        # with every other task of the tab)
        self.opponents = OpponentsTracker(self.make_runner("opponents", priority=Priority.ADVICE),
                                          self.make_runner("opponents-history", counted=False,
                                                           priority=Priority.BACKGROUND),
                                          parent=self)
        self.opponents.viewReady.connect(self._on_opponents_view)
        self.opponents.failed.connect(self._on_opponents_failed)
        self.opponents.historyUpdated.connect(self._schedule_knows_plot)
        self._opp_k: int = -1
        self._advice_rev = -1
        self._opp_deferred = False
        self._knows_plot_timer = QTimer(self, singleShot=True, interval=120)
        self._knows_plot_timer.timeout.connect(self._update_knows_plot)

    def _build_who_is_close(self) -> WhoIsClosePane:
        """The side panel's "Who is close?" page (:class:`WhoIsClosePane`)."""
        pane = WhoIsClosePane()
        self.worded(pane.title.setToolTip, *title_tip())
        self.who_title, self.strip, self.knows_plot = pane.title, pane.strip, pane.plot
        self.who_pane = pane
        return pane

    # -- setup-dependent views ---------------------------------------------------------
    def reset_views(self) -> None:
        setup = self.controller.setup
        # the old log's estimates stop now, even when the tab is hidden before the new
        # beliefs arrive (a long log's plot back-fill runs for minutes otherwise)
        self.opponents.sync(setup, self.controller.events)
        groups = [(category_title(cat), list(cards)) for cat, cards in setup.categories]
        cols = [("★ " + p) if p == setup.me else p for p in setup.players] + [_("Envelope")]
        self.model.set_layout(groups, cols)
        self.form.set_setup(setup)
        self.ranking.set_setup(setup)
        self._fill_card_names(setup)
        self._clear_opponents("")
        self.knows_plot.set_series({})
        # the plots' curves made in the turns before the beliefs arrive (BeliefPlot.reserve):
        # the leading card of each category, the envelope's entropy, each opponent's chance
        self.plot.reserve(len(setup.categories))
        self.entropy_plot.reserve(1)
        self.knows_plot.reserve(sum(p != setup.me for p in setup.players))

    def _fill_card_names(self, setup) -> None:
        """The editions this game's deck can be shown in (hidden when there is no other)."""
        eds = cluedo.same_deck_editions(setup.edition)
        titles = cluedo.load_editions()
        self.card_names.blockSignals(True)
        self.card_names.clear()
        for key in eds:
            self.card_names.addItem(titles[key]["title"], key)
        self.card_names.setCurrentIndex(max(0, self.card_names.findData(setup.edition)))
        self.card_names.blockSignals(False)
        for w in (self.names_label, self.card_names):
            w.setVisible(len(eds) > 1)

    def _card_names_chosen(self, _index: int = -1) -> None:
        """Relabel the game under the chosen edition's names (one undoable step)."""
        key = self.card_names.currentData()
        c = self.controller
        if not key or key == c.setup.edition:
            return
        setup, events = cluedo.relabel(c.setup, c.events, key)
        c.relabel(setup, events, _("Card names: {edition}").format(edition=self.card_names.currentText()))

    def inference_options(self) -> dict:
        return {"method": self.method.currentData() or cluedo.METHODS[0]}

    # -- results ----------------------------------------------------------------------
    def beliefs_views(self) -> list:
        return [self.sheet]

    def advice_views(self) -> list:
        return [self.rec_table]

    def show_posterior(self, snap) -> None:
        post, k = snap.posterior, snap.k
        self.model.set_matrix(post.matrix, getattr(post, "standard_error", None))
        self.model.set_column_notes(learned_notes(post))
        deals = post.consistent_deals
        text = ("" if k == snap.n else _("<i>as after entry {k}</i> · ").format(k=k))
        self.opponents.hold()    # its task waits for the ranking's first estimate of moment k
        wording = snap.wording
        if deals is not None:
            text += wording.pick(_("{deals} possible deals"), _("{deals} consistent deals")).format(
                deals=number(deals))
        else:
            text += wording.pick(_("approximate"), _("approximate (analytical center)"))
        if post.method == "montecarlo" and getattr(post, "samples", None) and wording.details:
            text += _(" · {n} exact samples (± = standard error, %)").format(n=number(post.samples))
        note = getattr(post, "note", None)
        if note:
            text += f" · <span style='color:{tone('#6d4c00')}'>{esc(note)}</span>"
        self.deals_label.setText(text)
        if k == snap.n:
            # in the line under Quick entry, always there: asking moves nothing on the tab
            self.quick_entry.set_idle_prompt(hand_prompt(snap.setup, post))

    def show_beside_posterior(self, snap) -> None:
        self._show_opponents(snap.k)

    @Slot()
    def _method_changed(self, *_a) -> None:
        # the numbers on screen belong to the other method: grey them now, not after a delay
        self.show_stale(True)

    def log_plots(self) -> list:
        return [self.plot, self.knows_plot]

    def show_stale(self, stale: bool = True) -> None:
        super().show_stale(stale)
        if stale:
            label = method_label(self.method.currentData(), self.snapshot.wording)
            self.deals_label.setText(f"<span style='{muted_css()}'><i>"
                                     + _("computing… ({method})").format(method=label) + "</i></span>")
            clear_text(self.accuse_label)
            self.strip.set_stale(True)

    def show_cancelled(self) -> None:
        not_computed = _("not computed (cancelled)")
        self.deals_label.setText(f"<span style='{muted_css()}'><i>{not_computed}</i></span>")
        self.ranking.show_cancelled(not_computed)
        k = self._opp_k if self._opp_k >= 0 else len(self.controller.events)
        self.who_title.setText(who_title(k, len(self.controller.events), not_computed))
        self.advice_panel.set_pending(_("Accuse or wait: {reason}.").format(reason=not_computed))
        self.advice_panel.set_alert("")

    def clear_beliefs(self) -> None:
        self.model.set_matrix(None)
        self.deals_label.setText(_("no consistent deal"))

    def plot_series(self, snap) -> dict:
        timeline = snap.timeline
        setup = snap.setup
        last = timeline.latest
        series = {}
        for cat, cards in setup.categories:
            env = {c: last.probability(c, ENVELOPE) for c in cards}
            top = max(env, key=env.get)
            name = _(cluedo.CATEGORY_WORDS[cat]) if cat in cluedo.CATEGORY_WORDS else cat
            series[f"{name}: {top}"] = [p.probability(top, ENVELOPE) for p in timeline.posteriors]
        name = snap.wording.pick(_("how open the envelope still is"),
                                 _("envelope entropy (bits)"))
        self.entropy_plot.set_series({name: [p.envelope_entropy_bits()
                                             for p in timeline.posteriors]})
        return series

    def status_text(self, snap) -> str:
        post, seconds = snap.posterior, snap.seconds
        wording = snap.wording
        deals = (wording.pick(_("{deals} possible deals"), _("{deals} consistent deals")).format(
                     deals=number(post.consistent_deals))
                 if post.consistent_deals is not None else _("approximate"))
        return f"Cluedo · {method_label(post.method, wording)} · {seconds * 1000:.0f} ms · {deals}"

    def show_moment(self, snap) -> None:
        """The ranking and "Ready to accuse" of the moment shown; the refuting advice of the
        form (which logs at the end of the log: now)."""
        if not snap.busy and snap.revision != self._advice_rev:
            self._advice_rev = snap.revision
            self.form.set_beliefs(self._live_posterior())     # the form logs after the log
            self._request_advice()
        self.board_panel.show_moment(snap, snap.setup)    # the pawns at that moment
        if self.ranking.render(snap):
            self.opponents.release()    # its task waited for the ranking of the moment

    def _log_my_position(self, at) -> None:
        self.log_json({"type": "position", "player": self.controller.setup.me,
                       "at": at if isinstance(at, str) else list(at)})

    @Slot(object)
    def _room_changed(self, room) -> None:
        self.controller.set_advice_options("recommend", room=room)

    def _use_recommendation(self, r) -> None:
        for card in (r.suspect, r.weapon, r.room):
            self.form.set_card(card)
        self.form.set_suggester(self.controller.setup.me)

    def _request_advice(self, *_a) -> None:
        setup = self.controller.setup
        f = self.form.event_json()
        tl = self.controller.timeline
        if f["refuter"] != setup.me or f["suggester"] == setup.me or tl is None \
                or tl.error is not None:
            self.form.set_advice("")
            self.advice_runner.cancel()
            return
        job = functools.partial(_advice_job, setup, tuple(self.controller.events), f["suggester"], tuple(f["cards"]))
        self.advice_runner.submit(job)

    @Slot(int, object, float)
    def _on_advice(self, _rev, advice, _secs) -> None:
        self._refute_advice = advice
        if not advice:
            self.form.set_advice(_("You hold none of these cards: you cannot refute — check the cards."))
            return
        best = advice[0]
        if self.snapshot.wording.details:
            others = ", ".join(_("{card} ({bits} bits)").format(card=esc(c), bits=number(b, 2))
                               for c, b in advice[1:])
            if others:
                text = _("Show <b>{card}</b>: it tells the others least ({bits} bits); rather than {others}")
            else:
                text = _("Show <b>{card}</b>: it tells the others least ({bits} bits)")
            self.form.set_advice(text.format(card=esc(best[0]), bits=number(best[1], 2), others=others))
            return
        others = _(" or ").join(esc(c) for c, _b in advice[1:])
        text = (_("Show <b>{card}</b>: it tells the others least (rather than {others})") if others
                else _("Show <b>{card}</b>: it tells the others least"))
        self.form.set_advice(text.format(card=esc(best[0]), others=others))

    def wording_changed(self, wording) -> None:
        self.ranking.set_wording(wording)
        for i in range(self.method.count()):
            self.method.setItemText(i, method_label(self.method.itemData(i), wording))
        self.advice_panel.rule_text = wording.pick(_(RULE_WORDS), _(RULE_TEXT))

        if getattr(self, "_refute_advice", None) is not None:
            self._on_advice(0, self._refute_advice, 0.0)

    # -- who is close to solving, and when to accuse ----------------------------------------
    def _show_opponents(self, k: int) -> None:
        """Show what each opponent knows after the first ``k`` events (the beliefs on screen):
        the cached figures at once, else the opponents' task computes them (its estimates
        arrive as :meth:`_on_opponents_view`)."""
        snap, c = self.snapshot, self.controller
        self._opp_k = k
        if snap.timeline is None:
            return
        if not self.isVisible():
            self._opp_deferred = True      # no work for a hidden tab: done when it is shown
            return
        self._opp_deferred = False
        if snap.error is not None:
            self.opponents.cancel()
            self._clear_opponents(_("Not while the log is impossible: fix the highlighted entry "
                                    "first."))
            return
        view = self.opponents.request(c.setup, c.events, k)
        if view is not None:
            self._render_opponents(view)
        else:
            self.who_pane.show_computing(snap, k)
            # the advice on screen stays, greyed, until the new advice replaces it
            self.advice_panel.set_stale(_("Accuse or wait: computing what the opponents know…"))
        self.knows_plot.set_marker(None if snap.selected < 0 else k)
        self._schedule_knows_plot()

    @Slot(object)
    def _on_opponents_view(self, view: OpponentsView) -> None:
        if view.k == self._opp_k:
            self._render_opponents(view)

    @Slot(int, str)
    def _on_opponents_failed(self, k: int, message: str) -> None:
        if k == self._opp_k:
            self._clear_opponents(_("Cannot estimate what the opponents know: {message}").format(message=message))

    def _render_opponents(self, view: OpponentsView) -> None:
        self.who_pane.render(self.snapshot, view, self.opponents.is_refining())
        knowers = self.advice_panel.render(self.snapshot, view, self.method.currentData())
        i = self.side_tabs.indexOf(self.who_page)
        set_tab_text(self.side_tabs, i, _("Who is close?") + " ⚠" if knowers else _("Who is close?"))

    def _clear_opponents(self, message: str) -> None:
        self.who_pane.clear(message)
        self.advice_panel.clear(message)
        set_tab_text(self.side_tabs, self.side_tabs.indexOf(self.who_page), _("Who is close?"))

    @Slot()
    def _schedule_knows_plot(self) -> None:
        self._knows_plot_timer.start()

    @Slot()
    def _update_knows_plot(self) -> None:
        """Each opponent's ``p_knows_envelope`` after every event computed so far (the gaps
        fill in from the newest entry back); drawn once the tab's ranking is on screen, as the
        belief plot (:meth:`GameTab._draw_due_plot`): the 120 ms timer started with the
        opponents' task fell inside a long ranking and drew the plot beside it (4-5 ms of the
        GUI thread, which takes the interpreter lock from the ranking)."""
        pr = self.controller.priorities
        if pr.urgent_pending(Priority.ADVICE):
            pr.call_when_settled(self._knows_plot_settled)
            return
        snap = self.snapshot
        if snap.timeline is None or snap.error is not None:
            self.knows_plot.set_series({})
            return
        self.who_pane.show_series(self.opponents.series(),
                                  None if snap.selected < 0 else self._opp_k)

    def _knows_plot_settled(self) -> None:
        """Some urgent work of the tab ended (on the thread that ended it): try the plot again
        from the GUI thread's timer."""
        if threading.current_thread() is threading.main_thread():
            QTimer.singleShot(0, self, self._update_knows_plot)

    @Slot()
    def _show_who_is_close(self) -> None:
        self.side_tabs.setCurrentWidget(self.who_page)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        if self._opp_deferred:
            self._show_opponents(self._opp_k)

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt name)
        """Another tab was chosen: the opponents' estimates pause (what is cached stays) and
        go on when this tab is shown again, so a hidden tab's back-fill never takes the CPU
        from the tab on screen. A minimised window (a spontaneous hide) keeps computing."""
        super().hideEvent(event)
        if not event.spontaneous() and (self.opponents.is_refining() or self.opponents.is_history_busy()):
            self.opponents.cancel()
            self._opp_deferred = True

    def shutdown(self) -> None:
        self.opponents.shutdown()
        super().shutdown()

    # -- worksheet interaction ------------------------------------------------------------
    def _owner(self, column: int) -> str:
        owners = list(self.controller.setup.players) + [ENVELOPE]
        return owners[column]

    def _cell_menu(self, item: int, column: int, pos) -> None:
        setup = self.controller.setup
        card = setup.cards[item]
        owner = self._owner(column)
        menu = QMenu(self)
        if owner == ENVELOPE:
            a = menu.addAction(_("The envelope is inferred from the players' hands"))
            a.setEnabled(False)
            self._add_why(menu, item, column)
            self.why_chosen(self.exec_menu(menu, pos), pos)
            return
        # an entry that contradicts the log is shown disabled with the reason, read from the
        # exact posterior the tab already has (cluedo.fact_reason: no inference), and can still
        # be logged on purpose through "anyway" (the contradiction banner then offers Undo)
        post = self._live_posterior()
        me = owner == setup.me
        actions = {}
        for kind, has_it in (("shown", True), ("lacks", False)):
            label = fact_label(owner, card, has_it, me)
            reason = cluedo.fact_reason(setup, post, owner, card, has_it) if post is not None else None
            if reason:
                a = menu.addAction(f"{label} — {reason}")
                a.setEnabled(False)
                actions[menu.addAction("    " + _("Log “{fact}” anyway (a correction)…").format(fact=label))] = kind
            else:
                actions[menu.addAction(label)] = kind
        facts = self._facts_about(owner, card)
        remove = menu.addAction(_("Remove this fact"))
        remove.setEnabled(bool(facts))
        why = self._add_why(menu, item, column)
        chosen = self.exec_menu(menu, pos)
        if chosen is why:
            self.why_chosen(chosen, pos)
        elif chosen in actions:
            self.log_json({"type": actions[chosen], "player": owner, "card": card})
        elif chosen is remove and facts:
            self.remove_event(facts[-1])

    @Slot(int, int, str)
    def _cell_key(self, item: int, column: int, action: str) -> None:
        """The worksheet's keys (:data:`desktop.widgets.worksheet.CELL_KEYS`) on a cell: H
        logs "has", L "does not have" — refused with the reason, in the status bar, when it
        contradicts the log (the cell's menu keeps the deliberate "anyway") — and W asks Why?"""
        setup = self.controller.setup
        card, owner = setup.cards[item], self._owner(column)
        if action == "why":
            self.show_why({"card": card, "place": owner}, why_subject(owner, card))
            return
        if owner == ENVELOPE:
            self.statusMessage.emit(_("The envelope is inferred from the players' hands: log a "
                                      "player's card instead"))
            return
        has_it = action == "has"
        label = fact_label(owner, card, has_it, owner == setup.me)
        post = self._live_posterior()
        reason = cluedo.fact_reason(setup, post, owner, card, has_it) if post is not None else None
        if reason:
            self.statusMessage.emit(_("Not logged: {fact} — {reason} (the cell's menu can log it anyway)").format(
                fact=label, reason=reason))
            return
        self.log_json({"type": "shown" if has_it else "lacks", "player": owner, "card": card})

    def _add_why(self, menu, item: int, column: int):
        """The cell's Why? item (last in the menu)."""
        card, owner = self.controller.setup.cards[item], self._owner(column)
        m = self.model.matrix()
        p = None if m is None else float(m[item, column])
        decided = p is not None and (p <= CERTAIN_EPS or p >= 1 - CERTAIN_EPS)
        return self.add_why_action(menu, {"card": card, "place": owner}, why_subject(owner, card), decided)


    def _live_posterior(self):
        """The posterior of the whole log as it is now, or None (not computed yet, or the log
        is impossible)."""
        tl = self.controller.timeline
        if tl is None or tl.error is not None or not tl.posteriors:
            return None
        if len(tl.posteriors) != len(self.controller.events) + 1:
            return None
        return tl.posteriors[-1]

    @Slot(object)
    def _log_suggestion(self, event) -> None:
        """Log the form's suggestion unless it contradicts the log."""
        self.log_checked(event)

    @Slot(int, int)
    def events_inserted(self, first: int, count: int) -> None:
        """After any suggestion appended to the log (the form, quick entry, an undo of its
        removal) the next suggestion is the next player's."""
        events = self.controller.events
        if count == 1 and first + count == len(events) \
                and isinstance(events[-1], cluedo.SuggestionEvent):
            self._next_suggester(events[-1].suggester)

    def _next_suggester(self, suggester: str) -> None:
        setup = self.controller.setup
        if suggester in setup.players and len(setup.players) > 1:
            self.form.set_suggester(cluedo.seated_after(setup, suggester)[0])

    def _facts_about(self, owner: str, card: str) -> list[int]:
        out = []
        for i, ev in enumerate(self.controller.events):
            d = ev.to_json()
            if d.get("type") in ("shown", "lacks") and d.get("player") == owner and d.get("card") == card:
                out.append(i)
        return out

    def _row_clicked(self, item: int) -> None:
        self.form.set_card(self.controller.setup.cards[item])

    def _column_clicked(self, column: int) -> None:
        owner = self._owner(column)
        if owner != ENVELOPE:
            self.form.set_suggester(owner)

    # -- new game -------------------------------------------------------------------------
    def new_game(self) -> bool:
        doc = self.controller
        mine = [c for ev in doc.events for d in [ev.to_json()]
                if d.get("type") == "hand" and d.get("player") == doc.setup.me for c in d.get("cards", [])]
        dlg = NewGameDialog(self, doc.setup, mine)
        if dlg.exec() != QDialog.Accepted:
            return False
        setup, events = dlg.result_session()
        self.reset_document(setup, events)
        return True


def fact_label(owner: str, card: str, has_it: bool, me: bool) -> str:
    """A worksheet cell's fact in words: "I have Rope", "Bob does not have Rope"."""
    if me:
        return (_("I have {card}") if has_it else _("I do not have {card}")).format(card=card)
    return (_("{player} has {card}") if has_it else _("{player} does not have {card}")).format(
        player=owner, card=card)


def why_subject(owner: str, card: str) -> str:
    """What a cell's Why? explains: "Rope is in the envelope", "Bob has Rope"."""
    if owner == ENVELOPE:
        return _("{card} is in the envelope").format(card=card)
    return _("{player} has {card}").format(player=owner, card=card)


def _recommend_job_for(setup, events: tuple, options: dict):
    """The ranking's job for a moment (the controller's advisor "recommend")."""
    return functools.partial(_recommend_job, setup, events, options.get("room"))


def _recommend_job(setup, events, room, task):
    """The ranking of the moment, computed once per prefix and shared with the Board page's
    turn advice (:mod:`desktop.games.cluedo.ranking`): every candidate exact at once when that fits
    (every classic game: no sampled stage); otherwise the sampled estimate is published first as
    a partial result and the 24 best estimates are counted exactly within 1.5 s (12 rows are
    listed). What each opponent knows is not computed here (``opponents_seconds=0``): the
    "Who is close?" page has its own task. Computed in the engines' worker process
    (:mod:`desktop.tabs.engine_process`) once it is ready."""
    return shared_ranking(setup, events, room, task=task, on_estimate=task.publish)


def _advice_job(setup, events, suggester, cards, cancel):
    return cluedo.refute_advice(setup, events, suggester, cards, cancel=cancel)


def hand_prompt(setup, post) -> str:
    """What to ask while my own hand is not all entered: "Start with your hand: type “me has
    rope” here, or right-click a card in your column (2 of 6 cards so far).", or "" when the posterior
    ``post`` already places every card of my hand (or there is no "me", or no card of mine).
    A fresh game's worksheet shows about 23 % in my own column until then, which reads as a
    belief about my own cards."""
    me = setup.me
    if not me or me not in setup.players:
        return ""
    size = setup.hand_sizes[setup.players.index(me)]
    if size <= 0:
        return ""
    held = sum(1 for c in setup.cards if post.probability(c, me) >= 1 - 1e-9)
    if held >= size:
        return ""
    return _("Start with your hand: type “{example}” here, or right-click a card in your "
             "column ({held} of {size} cards so far).").format(
        example=cluedo.example_for(setup, "me has rope"), held=held, size=size)


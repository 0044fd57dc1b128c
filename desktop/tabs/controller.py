"""One tab's controller: log -> beliefs -> what is shown (docs/ARCHITECTURE.md, "One moment on
screen").

A :class:`GameController` holds no widget. It owns the session document and listens to it, owns
every background task of its tab (the beliefs, the beliefs of a past entry, the advisors such as
recommendations, the check of a form's entry, Why?, the conflicting entries, the CSV export and
whatever runner a tab adds through :meth:`GameController.make_runner`), takes the inference
options as values, and publishes one immutable :class:`desktop.tabs.snapshot.Snapshot` of the moment
selected (``snapshotChanged``) that every view of the tab renders.
"""
from __future__ import annotations

import dataclasses
import functools
import time
from typing import Any, Callable, Optional, Sequence

from PySide6.QtCore import QObject, Signal, Slot

from desktop.storage.document import SessionDocument, write_text_atomically
from desktop.tabs.capabilities import can_explain
from desktop.tabs.checks import EntryChecks
from desktop.tabs.jobs import JobRunner, Priority, PriorityGroup
from desktop.tabs.release import GradualRelease
from desktop.tabs.snapshot import Advice, Snapshot, Status
from desktop.tabs.wording import PLAIN, Wording
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.i18n import _
from engines.core.timeline import Timeline, TimelineResult

#: An advisor's job factory: ``(setup, events, options) -> job(task)`` or None (nothing to do).
AdvisorJob = Callable[[Any, tuple, dict], Optional[Callable]]


@dataclasses.dataclass(frozen=True)
class WhyResult:
    """An explanation as the Why? popup needs it.

    Attributes:
        fact: the fact asked (engine JSON form).
        k: the explanation is under the first ``k`` events of the log.
        explanation: :class:`engines.core.explain.Explanation` (``because``: 0-based indices).
        seconds: wall time of the engine call.
    """

    fact: dict
    k: int
    explanation: Any
    seconds: float


class GameController(QObject):
    """The logic of one game's tab.

    Args:
        module: the game's engine module (:class:`engines.core.contract.GameEngine`).
        options: ``infer``'s keyword arguments (a value; :meth:`set_options` changes it).
        full_timeline: compute the posterior after every prefix (a timeline whose states are
            too large to copy computes the whole log only, earlier entries on demand).

    Attributes:
        document: the :class:`SessionDocument` (setup, events, undo stack); the controller
            listens to its ``changed`` and recomputes.
        belief_timeline: the :class:`Timeline` of the document's setup and options.
        timeline: the last :class:`TimelineResult` delivered (None before the first).
        snapshot: the :class:`Snapshot` last published.
        checks: the :class:`EntryChecks` queue of form entries checked before logging.

    Signals:
        snapshotChanged(object Snapshot): what the tab shows changed.
        progress(int done, int total): the beliefs being computed, ``done`` of ``total`` log
            prefixes.
        statusMessage(str): text for the status bar.
        exportFinished(str path, str error): a CSV export finished ("" on success).
    """

    snapshotChanged = Signal(object)
    progress = Signal(int, int)
    statusMessage = Signal(str)
    exportFinished = Signal(str, str)

    def __init__(self, module, *, options: Optional[dict] = None, full_timeline: bool = True,
                 parent: Optional[QObject] = None):
        super().__init__(parent)
        self.module = module
        self._options = dict(options or {})
        self._full = bool(full_timeline)
        self.document = SessionDocument(module.GAME, module.default_setup(), self)
        self.document.changed.connect(self.request_inference)
        # the selected moment follows the log's edits here, and only here (the History view
        # renders the snapshot's selection; Qt's own moves of its current row are not asked)
        self.document.eventsInserted.connect(self._events_inserted)
        self.document.eventsRemoved.connect(self._events_removed)
        self._runners: list[tuple[JobRunner, bool]] = []
        self.priorities = PriorityGroup()           # the beliefs first, then ranking, advice
        self.runner = self.make_runner("inference")
        self.runner.resultReady.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        self.runner.progress.connect(self.progress)
        self.view_runner = self.make_runner("view")
        self.view_runner.resultReady.connect(self._on_view_entry)
        self.view_runner.failed.connect(self._on_view_failed)
        self.export_runner = self.make_runner("export")
        self.export_runner.resultReady.connect(self._on_export_timeline)
        self.export_runner.failed.connect(self._on_export_failed)
        self._export_path = ""
        self.why_runner = self.make_runner("why")
        self.why_runner.resultReady.connect(self._on_explanation)
        self.why_runner.failed.connect(self._on_explanation_failed)
        self.conflict_runner = self.make_runner("conflict")
        self.conflict_runner.resultReady.connect(self._on_conflict)
        self.conflict_runner.failed.connect(self._on_conflict_failed)
        self._conflict: Optional[tuple] = None     # ((setup, events), entries or None)
        self.checks = EntryChecks(self)
        self._advisors: dict[str, tuple[JobRunner, AdvisorJob]] = {}
        self._advice_options: dict[str, dict] = {}
        self._advice: dict[str, tuple] = {}        # name -> (moment key, Advice)
        self._advice_asked: dict[str, tuple] = {}  # name -> moment key submitted
        self._why: Optional[dict] = None           # the open question: fact, key, answer
        self.belief_timeline = Timeline(module, self.document.setup, self._options)
        #: the beliefs of a log no longer shown, freed a slice per turn (desktop.tabs.release)
        self.release = GradualRelease(self)
        self.timeline: Optional[TimelineResult] = None
        self._timeline_rev = -1                    # the revision self.timeline belongs to
        self._failure: Optional[tuple] = None      # (revision, exception)
        self._carried: Optional[BaseException] = None   # a contradiction of an unchanged prefix
        self._cancelled = False
        self._entries: dict[int, Any] = {}         # k -> posterior computed on demand
        self._entries_rev = -1
        self.view_index = -1
        self.last_seconds = 0.0
        self.wording: Wording = PLAIN
        self.snapshot = Snapshot()

    # -- tasks -------------------------------------------------------------------------------
    def make_runner(self, name: str, *, counted: bool = True,
                    priority: int = Priority.BELIEFS, shares_lock: bool = True) -> JobRunner:
        """A further background runner of this tab (shut down and cancelled with it).
        ``counted=False``: low-priority work that :meth:`is_busy` does not wait for.
        ``priority``: its :class:`desktop.tabs.jobs.Priority` among the tab's tasks (a job waits
        while a more urgent runner of the tab has work pending). ``shares_lock=False``: its
        jobs compute in another process (:class:`desktop.tabs.jobs.JobRunner`)."""
        runner = JobRunner(self, name=f"{self.module.GAME}-{name}", group=self.priorities,
                           priority=priority, shares_lock=shares_lock)
        self._runners.append((runner, counted))
        return runner

    def is_busy(self) -> bool:
        """True while any counted runner has pending work."""
        return any(r.is_busy() for r, counted in self._runners if counted)

    def shutdown(self) -> None:
        for r, _counted in self._runners:
            r.shutdown()

    def cancel_computation(self) -> None:
        """Stop every background job of this tab (beliefs, advisors, checks, Why?, simulations,
        low-priority work): each stops at its next cancel check and delivers nothing; the
        document stays open and editable, and the next change (or :meth:`request_inference`)
        computes again. Publishes a CANCELLED snapshot."""
        for r, _counted in self._runners:
            r.cancel()
        self._advice_asked.clear()
        self._cancelled = True
        self.checks.requeue_after_cancel()
        self._publish()

    # -- options -----------------------------------------------------------------------------
    def set_options(self, options: dict, *, full_timeline: Optional[bool] = None) -> bool:
        """Use ``options`` (``infer``'s keyword arguments) from now on; returns whether they
        changed (the caller then asks for the beliefs again)."""
        changed = dict(options) != self._options
        self._options = dict(options)
        if full_timeline is not None:
            self._full = bool(full_timeline)
        return changed

    def options(self) -> dict:
        return dict(self._options)

    def set_wording(self, wording: Wording) -> None:
        """Word the tab's numbers as ``wording`` says (plain, or the Details view): publishes
        the moment again with it (no computation runs again)."""
        if wording != self.wording:
            self.wording = wording
            self.snapshot = self.snapshot.replace(wording=wording)
            self.snapshotChanged.emit(self.snapshot)

    # -- the log as it is now (read-only: edits go through the actions below) ---------------
    @property
    def setup(self) -> Any:
        """The document's setup as it is now (forms' defaults, new entries; a view of the moment
        draws :attr:`Snapshot.setup` instead)."""
        return self.document.setup

    @property
    def events(self) -> Sequence[Any]:
        """The document's log as it is now, oldest first (read-only; a view of the moment draws
        the first :attr:`Snapshot.k` entries)."""
        return self.document.events

    def set_setup_for_saving(self, setup_for_saving: Optional[Callable[[Any], Any]]) -> None:
        """What a session file keeps of the setup: ``setup_for_saving(setup)`` (a tab's state
        saved with the session, e.g. Spyfall's round timer), or None for the setup itself."""
        self.document.setup_for_saving = setup_for_saving

    # -- actions -----------------------------------------------------------------------------
    # Every edit a player makes goes back to the live view (the beliefs now), decided here and
    # nowhere else; a removal asked from the History keeps the moment shown when it stays.
    def log_event(self, event: Any) -> Optional[str]:
        """Append ``event`` to the log (undoable) and go back to the live view. Returns None,
        or why nothing was logged: the log holds the most events a session file may hold
        (:meth:`SessionDocument.log_limit`, the one check of a full log)."""
        before, self.view_index = self.view_index, -1
        try:
            self.document.log_event(event)
        except SessionFormatError as exc:
            self.view_index = before
            return exc.message
        return None

    def log_checked(self, event: Any, refused: Optional[Callable[[str], None]] = None,
                    logged: Optional[Callable[[], None]] = None) -> None:
        """Go back to the live view, then log ``event`` once its check against the log passes
        (:meth:`desktop.tabs.checks.EntryChecks.submit`: ``logged()`` or ``refused(reason)``)."""
        if self.view_index != -1:
            self.select(-1)
        self.checks.submit(event, refused, logged)

    def replace_event(self, index: int, event: Any) -> None:
        """Replace entry ``index`` (undoable, keeping its time and note); back to the live view."""
        self.view_index = -1
        self.document.replace_event(index, event)

    def replace_setup(self, setup: Any, text: str, merge_key: int = -1) -> None:
        """Replace the setup, keeping the events (undoable); back to the live view."""
        self.view_index = -1
        self.document.replace_setup(setup, text, merge_key)

    def remove_event(self, index: int, *, keep_moment: bool = False) -> None:
        """Remove entry ``index`` (undoable) and go back to the live view; ``keep_moment``
        (a removal asked from the History): the moment shown stays, unless it is the entry
        removed (:meth:`_events_removed`)."""
        if not keep_moment:
            self.view_index = -1
        self.document.remove_event(index)

    def relabel(self, setup: Any, events: Sequence[Any], text: str) -> None:
        """Replace the setup and every entry at once (one undo step: the same game under other
        card names, :meth:`SessionDocument.relabel`); the moment shown stays."""
        self.document.relabel(setup, events, text)

    @Slot(int, int)
    def _events_inserted(self, first: int, count: int) -> None:
        """Entries inserted at ``first`` (undo of a removal): a moment after them moves down
        with its entry (moment ``k`` is the log after entry ``k - 1``)."""
        if self.view_index > first:
            self.view_index += count

    @Slot(int, int)
    def _events_removed(self, first: int, count: int) -> None:
        """Entries ``first .. first + count - 1`` removed: the moment of a removed entry goes
        back to the live view; a later one moves up with its entry."""
        k = self.view_index
        if k > first + count:
            self.view_index = k - count
        elif k > first:
            self.view_index = -1

    def reset(self, setup: Any, events=(), meta=(), path: Optional[str] = None) -> None:
        """New game / Open: a new setup and log (not undoable), a fresh timeline; the old
        log's beliefs are freed a slice per turn of the event loop (:mod:`desktop.tabs.release`)."""
        self.release.retire(self.belief_timeline, self.timeline, getattr(self, "snapshot", None))
        self.belief_timeline = Timeline(self.module, setup, self._options)
        self.timeline = None
        self._timeline_rev = -1
        self.view_index = -1
        self.checks.clear()
        self._why = None
        self.why_runner.cancel()
        self.document.reset(setup, events, meta, path)

    def current_timeline(self) -> Timeline:
        """The :class:`Timeline` of the document's setup and the current options (a new one,
        and the old one's cache dropped, when either changed)."""
        tl, setup, options = self.belief_timeline, self.document.setup, self._options
        if tl.setup is not setup and tl.setup != setup or tl.options != options:
            self.release.retire(tl)
            self.belief_timeline = tl = Timeline(self.module, setup, options)
        return tl

    @Slot()
    def request_inference(self, *_args) -> None:
        """Ask for the beliefs of the document as it is now (newest request wins); publishes a
        COMPUTING snapshot at once (a contradiction of an unchanged prefix stays)."""
        doc = self.document
        tl = self.current_timeline()
        full = self._full and not tl.in_order
        events = tuple(doc.events)
        self._carried = self._unchanged_contradiction(events)
        self._failure = None
        self._cancelled = False
        if self.view_index > len(events):
            self.view_index = -1
        cached = tl.cached_result(events, full=full)
        if cached is not None:
            # every posterior is cached (the check of the last entry computed it): READY now,
            # without a round trip through the thread pool
            self.runner.cancel()
            self._on_result(self.runner.latest(), cached, tl.seconds(events))
            return
        self.runner.submit(functools.partial(_timeline_job, tl, events, full=full))
        self._publish()

    def select(self, k: int) -> None:
        """Select history entry ``k`` (-1 live): publishes the snapshot of that moment (its
        posterior computed on demand when the timeline does not have it)."""
        self.view_index = k
        self._publish()

    # -- the snapshot ------------------------------------------------------------------------
    def _unchanged_contradiction(self, events: tuple) -> Optional[BaseException]:
        """The last contradiction, if the prefix it is about is unchanged (then it still holds:
        a prefix that cannot all be true stays so whatever follows)."""
        tl = self.timeline
        err = tl.error if tl is not None else self._carried
        if not isinstance(err, ContradictionError) or err.event_index < 0:
            return None
        if self.belief_timeline.setup != self.document.setup:
            return None
        i = err.event_index
        old = self._contradiction_prefix
        return err if old is not None and len(events) > i and events[:i + 1] == old else None

    _contradiction_prefix: Optional[tuple] = None

    def _moment_key(self, k: int) -> tuple:
        return (self.document.revision, k)

    def _compose(self) -> Snapshot:
        doc = self.document
        n = len(doc.events)
        rev = doc.revision
        tl = self.timeline if self._timeline_rev == rev else None
        sel = self.view_index
        k = n if sel < 0 or sel > n else sel
        error, posterior = None, None
        if tl is not None:
            error = tl.error
            last = len(tl.posteriors) - 1
            if error is not None:
                k = min(k, max(last, 0))
            if 0 <= k <= last:
                posterior = tl.posteriors[k]
        elif self._carried is not None:
            error = self._carried
            k = min(k, max(self._carried.event_index, 0))
        if posterior is None and self._entries_rev == rev:
            posterior = self._entries.get(k)
        busy = self.runner.is_busy() or (tl is not None and posterior is None and error is None)
        if self._cancelled:
            status = Status.CANCELLED
        elif self._failure is not None and self._failure[0] == rev:
            status, error = Status.ERROR, self._failure[1]
        elif isinstance(error, ContradictionError):
            status = Status.CONTRADICTION
        elif error is not None:
            status = Status.ERROR
        elif tl is None or posterior is None:
            status = Status.COMPUTING
        else:
            status = Status.READY
        if status is Status.CANCELLED:
            busy = False
        key = self._moment_key(k)
        advice = {name: a for name, (akey, a) in self._advice.items() if akey == key}
        conflict, searching = None, False
        if status is Status.CONTRADICTION and self._conflict is not None \
                and self._conflict[0] == (doc.setup, tuple(doc.events)):
            conflict = self._conflict[1]
            searching = conflict is None and self.conflict_runner.is_busy()
        why = None
        if self._why is not None and self._why["key"] is not None \
                and self._why["key"][0] == rev:
            why = self._why["answer"]
        return Snapshot(revision=rev, setup=doc.setup, n=n, events=tuple(doc.events),
                        selected=sel, k=k, status=status,
                        posterior=posterior, timeline=self.timeline if tl is not None else None,
                        error=error, conflict=conflict, conflict_searching=searching, advice=advice,
                        seconds=self.last_seconds, busy=busy, why=why,
                        why_fact=None if self._why is None else self._why["fact"],
                        wording=self.wording)

    def _publish(self) -> None:
        snap = self._compose()
        self.snapshot = snap
        self._follow(snap)
        if self.snapshot is snap:       # else _follow published a newer one already
            # the views render it with the tab's less urgent jobs paused at their next poll
            # (a job started by _follow, the ranking, begins once the worksheet is painted:
            # beliefs_shown, or at the end of the render)
            with self.priorities.hold(Priority.BELIEFS):
                self.snapshotChanged.emit(snap)

    def beliefs_shown(self) -> None:
        """The views of the beliefs are painted, or their paint is put in the next turn of the
        event loop when the new beliefs moved the panes (called by the tab during the render of
        a snapshot, ``GameTab._show_beliefs_now``; that paint holds the worker gate as every
        paint does): the tab's less urgent jobs (the ranking) may run while the rest is drawn —
        the render's hold and the delivering runner's end here."""
        self.priorities.release_holds(Priority.BELIEFS)

    def _follow(self, snap: Snapshot) -> None:
        """Start what the moment needs: its posterior on demand, its advisors, its Why? and the
        conflicting entries of a contradiction."""
        if self._cancelled:
            return
        tl = self.timeline if self._timeline_rev == snap.revision else None
        if tl is not None and snap.posterior is None and snap.error is None:
            self.view_runner.submit(functools.partial(
                _entry_job, self.belief_timeline, tuple(self.document.events[:snap.k]), snap.k,
                snap.revision))
        elif snap.posterior is not None:
            self.view_runner.cancel()
        if snap.status is Status.READY:
            self._ask_advisors(snap)
        else:
            for name, (runner, _job) in self._advisors.items():
                runner.cancel()
                self._advice_asked.pop(name, None)
        if self._why is not None and snap.status in (Status.READY, Status.CONTRADICTION):
            self._ask_why(snap)
        if snap.status is Status.CONTRADICTION and not snap.busy and snap.conflict is None \
                and self._ask_conflict():
            self._publish()         # now searching: the banner says so
        elif snap.status is not Status.CONTRADICTION:
            self.conflict_runner.cancel()

    # -- advisors ----------------------------------------------------------------------------
    def add_advisor(self, name: str, job_for: AdvisorJob, *, options: Optional[dict] = None,
                    priority: int = Priority.RANKING, shares_lock: bool = True) -> JobRunner:
        """Run ``job_for(setup, events, options)`` (a job, or None) for every moment whose
        beliefs are ready; its partial results (``task.publish``) and result arrive as
        ``snapshot.advice[name]`` (:class:`Advice`). Returns the advisor's runner (at
        ``priority``: after the beliefs, before advice built on the ranking).
        ``shares_lock=False``: the job computes in the engines' worker process
        (:func:`desktop.tabs.engine_process.run`) and starts at once, beside the render of the
        beliefs."""
        runner = self.make_runner(name, priority=priority, shares_lock=shares_lock)
        runner.partialResult.connect(functools.partial(self._on_advice, name, False))
        runner.resultReady.connect(
            lambda rev, value, _secs, name=name: self._on_advice(name, True, rev, value))
        runner.failed.connect(functools.partial(self._on_advice_failed, name))
        self._advisors[name] = (runner, job_for)
        self._advice_options[name] = dict(options or {})
        return runner

    def set_advice_options(self, name: str, **options) -> None:
        """Change an advisor's options (values, e.g. the room a ranking is for) and ask again."""
        if self._advice_options.get(name) == options:
            return
        self._advice_options[name] = dict(options)
        self._advice.pop(name, None)
        self._advice_asked.pop(name, None)
        self._publish()

    def _ask_advisors(self, snap: Snapshot) -> None:
        key = self._moment_key(snap.k)
        events = tuple(self.document.events[:snap.k])
        for name, (runner, job_for) in self._advisors.items():
            if self._advice_asked.get(name) == key:
                continue
            self._advice_asked[name] = key
            job = job_for(self.document.setup, events, dict(self._advice_options[name]))
            if job is None:
                runner.cancel()
                continue
            runner.submit(functools.partial(_keyed_job, job, key))

    def _on_advice(self, name: str, final: bool, _rev: int, keyed: tuple, *_a) -> None:
        key, value = keyed
        if self._advice_asked.get(name) != key:
            return
        self._advice[name] = (key, Advice(value, final))
        self._publish()

    def _on_advice_failed(self, name: str, _rev: int, exc: Exception) -> None:
        key = self._advice_asked.get(name)
        if key is not None:
            self._advice[name] = (key, Advice(None, True, exc))
            self._publish()

    # -- Why? and the conflicting entries (engines.core.explain) -----------------------------
    def can_explain(self) -> bool:
        """Whether the game's engine explains facts and contradictions."""
        return can_explain(self.module)

    def explain(self, fact: dict) -> None:
        """Ask why ``fact`` (the engine's fact object) has its status at the moment shown;
        the answer comes as ``snapshot.why`` (:class:`WhyResult` or an exception); an edit of
        the log asks again at the moment then shown, until :meth:`cancel_explanation`."""
        self._why = {"fact": dict(fact), "key": None, "answer": None}
        self._ask_why(self.snapshot)
        self._publish()

    def _ask_why(self, snap: Snapshot) -> None:
        """Ask the open question at the moment shown, unless it was asked under the same log
        (another History entry selected keeps the answer: the popup names its moment)."""
        key = self._moment_key(snap.k)
        why = self._why
        if why["key"] is not None and why["key"][0] == key[0]:
            return
        why["key"], why["answer"] = key, None
        events = tuple(self.document.events[:max(0, snap.k)])
        self.why_runner.submit(functools.partial(
            _explain_job, self.module, self.document.setup, events, why["fact"], key))

    def cancel_explanation(self) -> None:
        """The Why? popup closed: drop the question (its engine call stops at its next cancel
        check)."""
        self._why = None
        self.why_runner.cancel()

    @Slot(int, object, float)
    def _on_explanation(self, _rev: int, keyed: tuple, _secs: float) -> None:
        key, result = keyed
        if self._why is not None and self._why["key"] == key and result.fact == self._why["fact"]:
            self._why["answer"] = result
            self._publish()

    @Slot(int, object)
    def _on_explanation_failed(self, _rev: int, exc: Exception) -> None:
        if self._why is not None:
            self._why["answer"] = exc
            self._publish()

    def _ask_conflict(self) -> bool:
        """Start the search for the conflicting entries of the log; returns whether it
        started (not when the engine cannot explain, nor for a log searched already)."""
        if not self.can_explain():
            return False
        err = self.timeline.error if self.timeline is not None else None
        log = (self.document.setup, tuple(self.document.events))
        if self._conflict is not None and self._conflict[0] == log:
            return False
        if getattr(err, "entries", None) is not None:     # a ConflictError names them itself
            self._conflict = (log, tuple(err.entries))
            return True
        self._conflict = (log, None)
        self.conflict_runner.submit(functools.partial(_conflict_job, self.module, *log))
        return True

    @Slot(int, object, float)
    def _on_conflict(self, _rev: int, result: tuple, _secs: float) -> None:
        log, entries = result
        if log != (self.document.setup, tuple(self.document.events)):
            return                  # the log changed meanwhile: its own request follows
        if entries is not None and not isinstance(entries, tuple):
            entries = tuple(entries)    # a DiagnosedEntries keeps its diagnosis for the banner
        self._conflict = (log, entries)
        self._publish()
        if entries:
            self.statusMessage.emit(_("Impossible log: entries {entries} cannot all be true together").format(
                entries=", ".join(f"#{i + 1}" for i in entries)))

    @Slot(int, object)
    def _on_conflict_failed(self, _rev: int, exc: Exception) -> None:
        self._publish()     # no longer searching
        self.statusMessage.emit(_("Cannot name the conflicting entries: {reason}").format(
            reason=getattr(exc, "message", exc)))

    # -- results -----------------------------------------------------------------------------
    @Slot(int, object, float)
    def _on_result(self, _revision: int, timeline: TimelineResult, seconds: float) -> None:
        if timeline.n_events != len(self.document.events):
            return                  # a result for an older log (the newer request follows)
        self.timeline = timeline
        self._timeline_rev = self.document.revision
        self.last_seconds = seconds
        self._carried = None
        err = timeline.error
        self._contradiction_prefix = None
        if isinstance(err, ContradictionError) and err.event_index >= 0:
            self._contradiction_prefix = tuple(self.document.events[:err.event_index + 1])
        self._publish()

    @Slot(int, object)
    def _on_failed(self, _revision: int, exc: Exception) -> None:
        self._failure = (self.document.revision, exc)
        self._publish()

    @Slot(int, object, float)
    def _on_view_entry(self, _rev: int, result: tuple, _secs: float) -> None:
        k, revision, post = result
        if revision != self.document.revision:
            return
        if self._entries_rev != revision:
            self._entries, self._entries_rev = {}, revision
        self._entries[k] = post
        self._publish()

    @Slot(int, object)
    def _on_view_failed(self, _rev: int, exc: Exception) -> None:
        self.statusMessage.emit(_("beliefs then: {reason}").format(reason=exc))

    # -- export ------------------------------------------------------------------------------
    def export_history_csv(self, path: str) -> None:
        """Write the history with the beliefs after every event to ``path`` (CSV); the beliefs
        not computed yet are computed in the background first. Emits ``exportFinished``."""
        tl = self.timeline
        n = len(self.document.events)
        if tl is not None and tl.error is None and len(tl.summaries) == n + 1 and tl.is_full:
            self._write_csv(path, list(tl.summaries))
            return
        self._export_path = path
        self.statusMessage.emit(_("Computing the beliefs after every event for the CSV…"))
        self.export_runner.submit(functools.partial(
            _timeline_job, self.current_timeline(), tuple(self.document.events), full=True))

    @Slot(int, object, float)
    def _on_export_timeline(self, _rev: int, timeline: TimelineResult, _secs: float) -> None:
        self._write_csv(self._export_path, list(timeline.summaries))

    @Slot(int, object)
    def _on_export_failed(self, _rev: int, exc: Exception) -> None:
        self.exportFinished.emit(self._export_path, _("cannot compute the beliefs: {reason}").format(reason=exc))

    def _write_csv(self, path: str, summaries: list) -> None:
        summaries = summaries + [None] * (len(self.document.events) + 1 - len(summaries))
        try:
            write_text_atomically(path, self.document.history_csv(summaries))
        except OSError as exc:
            self.exportFinished.emit(path, str(exc))
            return
        self.exportFinished.emit(path, "")


def _timeline_job(timeline: Timeline, events: tuple, task, *, full: bool) -> TimelineResult:
    return timeline.compute(events, task, full=full, progress=task.progress)


def _keyed_job(job: Callable, key: tuple, task) -> tuple:
    """Run an advisor's ``job(task)``; partial results and the result carry the moment's key."""
    publish = task.publish
    task.publish = lambda partial: publish((key, partial))
    try:
        return key, job(task)
    finally:
        task.publish = publish


def _explain_job(module, setup, events: tuple, fact: dict, key: tuple, task) -> tuple:
    t0 = time.perf_counter()
    expl = module.explain(setup, events, fact, cancel=task)
    return key, WhyResult(fact, len(events), expl, time.perf_counter() - t0)


def _conflict_job(module, setup, events: tuple, task) -> tuple:
    from desktop.tabs.diagnosis import conflict_job  # the entries and the corrections
    return conflict_job(module, setup, events, task)


def _entry_job(timeline: Timeline, events: tuple, k: int, revision: int, task) -> tuple:
    return k, revision, timeline.posterior(events, task)

"""*Fix…* opens the entry in its game's own form (desktop/tabs/entry_forms.py and each game's
``entry_editor``): every kind of entry of every game that can be diagnosed has a form that holds
it exactly (the form's entry equals the logged one), every correction the diagnosis lists fills
the form with the corrected entry and outlines the changed field, a form holding a bad entry is
refused with the engine's message, and in the window OK replaces the entry (one undoable step,
the contradiction gone) while Cancel changes nothing. Cluedo's and Egghead's Fix… in the window:
tests/desktop/test_entry_fix.py."""
import random
import sys
from pathlib import Path

from entry_fix_kit import click_link
from entry_fix_kit import contradiction as _contradiction
from PySide6.QtWidgets import QDialogButtonBox
from window_idle import wait_idle

from desktop.tabs.entry_fix import FixEntryDialog
from desktop.tabs.entry_forms import editor_for
from engines import cluedo, egghead, guesswho, inkognito, spyfall
from engines.core.diagnosis import Edit
from engines.core.errors import ContradictionError, SessionFormatError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engines"))
from random_logs import cluedo_log, cluedo_small_setup, egghead_log, guesswho_log, inkognito_log

GAMES = (cluedo, egghead, guesswho, inkognito)


def _example(game):
    return read_session_file(str(resource_path("examples", f"{game}.json")))


def _every_kind():
    """``{game module: (setup, events)}``: logs holding every kind of entry of each game."""
    rng = random.Random(3)
    out = {}
    cl = _example("cluedo")
    me, ann = cl.setup.me, cl.setup.players[1]
    extra = [{"type": "accusation", "player": ann, "cards": ["Mrs White", "Rope", "Hall"],
              "correct": False},
             {"type": "position", "player": ann, "at": "Kitchen"},
             {"type": "roll", "player": me, "total": 9},
             {"type": "lacks", "player": ann, "card": "Rope"},
             {"type": "shown", "player": ann, "card": "Kitchen"},
             {"type": "suggestion", "suggester": me, "cards": ["Mrs White", "Rope", "Hall"],
              "passed": [ann], "refuter": cl.setup.players[2], "shown": "Hall"}]
    out[cluedo] = (cl.setup, list(cl.events) + [cluedo.event_from_json(o, cl.setup, "e")
                                                for o in extra])
    setup, events, _ = egghead_log(rng, 3, 3)
    other = next(p for p in setup.players if p != setup.me)
    solves = [egghead.event_from_json({"type": "solve", "player": other, "cards": [1, 2, 3],
                                       "new_cards": [2, 2, 5]}, setup, "e"),
              egghead.event_from_json({"type": "solve", "player": setup.me, "cards": [4, 4, 6],
                                       "new_cards": None}, setup, "e")]
    out[egghead] = (setup, list(events) + solves)
    gw = _example("guesswho")
    out[guesswho] = (gw.setup, list(gw.events) + [guesswho.Eliminate(name="Alex")])
    ink = _example("inkognito")
    out[inkognito] = (ink.setup, list(ink.events))
    return out


def test_every_entry_kind_round_trips_through_its_form(qapp):
    for module, (setup, events) in _every_kind().items():
        kinds = set()
        for i, ev in enumerate(events):
            editor = editor_for(module, setup, events[:i], ev)
            assert editor is not None, (module.GAME, ev)
            assert editor.entry() == ev, (module.GAME, i)
            kinds.add(ev.to_json()["type"])
            editor.deleteLater()
        assert kinds == set(module.EVENT_TYPES), module.GAME
    # a game without diagnosis (no contradiction is possible) has no Fix… and no form
    sp = _example("spyfall")
    assert editor_for(spyfall, sp.setup, [], sp.events[0]) is None


def _mistyped(module, rng, make, n):
    """``n`` (setup, log, entry) with one entry of a random consistent log mistyped into a
    contradiction (the games' random logs of tests/engines/random_logs.py)."""
    from random_logs import egghead_mutations, mutate_json

    found = 0
    while found < n:
        setup, events = make(rng)
        if module is egghead:
            i, _, bad = rng.choice(egghead_mutations(setup, events, rng))
        else:
            i = rng.randrange(len(events))
            m = mutate_json(module, setup, events[i], rng)
            if m is None:
                continue
            bad = m[1]
        log = events[:i] + [bad] + events[i + 1:]
        try:
            module.infer(setup, log)
            continue
        except ContradictionError:
            found += 1
            yield setup, log


def test_every_correction_fills_the_form(qapp):
    """Each correction of a few mistyped logs per game: the form holds the corrected entry and
    outlines at least one widget, and the typed line holds the same entry."""
    rng = random.Random(5)
    small = cluedo_small_setup()
    makers = {cluedo: lambda r: (small, cluedo_log(small, r, 8)[1]),
              egghead: lambda r: egghead_log(r, 3, 3)[:2],
              guesswho: lambda r: guesswho_log(r, 8),
              inkognito: lambda r: inkognito_log(r, 8)}
    fields = set()
    for module, make in makers.items():
        for setup, log in _mistyped(module, rng, make, 2):
            d = module.diagnose(setup, log)
            entries = sorted({c.entry for c in d.corrections if c.event is not None})
            for e in entries:
                mine = [c for c in d.corrections if c.entry == e and c.event is not None]
                dialog = FixEntryDialog(module, setup, log, e, mine)
                assert dialog.editor is not None and not dialog.text_shown()
                for k, c in enumerate(mine):
                    dialog.choose(k)
                    assert dialog.entry() == c.event, (module.GAME, c.text)
                    assert dialog.editor.marked_widgets(), (module.GAME, c.field)
                    assert c.text in dialog.editor.changed_note.text()
                    fields.add((module.GAME, c.field))
                dialog.show_text(True)
                assert dialog.entry() == mine[-1].event
                dialog.deleteLater()
    assert {g for g, _ in fields} == {m.GAME for m in GAMES}


def test_a_bad_form_is_refused_with_the_engines_message(qapp):
    cl = _example("cluedo")
    ev = cluedo.event_from_json({"type": "position", "player": cl.setup.me, "at": "Kitchen"},
                                cl.setup, "e")
    dialog = FixEntryDialog(cluedo, cl.setup, [ev], 0, [])
    dialog.editor.value.setEditText("Attic")
    dialog.buttons.button(QDialogButtonBox.Ok).click()
    assert dialog.result_event is None and "Not replaced" in dialog.message()
    assert "Attic" in dialog.message() or "room" in dialog.message()
    ink = _example("inkognito")
    dialog = FixEntryDialog(inkognito, ink.setup, ink.events, 0, [])
    dialog.editor.sheet.toggle(2)          # five statements ticked: no answer shows five
    dialog.editor.sheet.toggle(3)
    try:
        dialog.editor.entry()
        raise AssertionError("a four-statement answer was accepted")
    except SessionFormatError as exc:
        message = exc.message
    dialog.buttons.button(QDialogButtonBox.Ok).click()
    assert dialog.result_event is None and message in dialog.message()


def test_another_kind_typed_as_text_gets_its_form(qapp):
    """A worksheet cell's entry rewritten as text into an accusation: back in the form view,
    the accusation form holds it; a correction that moves several fields outlines them all."""
    cl = _example("cluedo")
    ann = cl.setup.players[1]
    events = list(cl.events)
    k = next(i for i, e in enumerate(events) if isinstance(e, cluedo.SuggestionEvent) and e.refuter)
    s = events[k]
    other = next(p for p in cl.setup.players if p not in (s.suggester, s.refuter))
    moved = cluedo.SuggestionEvent(suggester=s.suggester, cards=s.cards, passed=(), refuter=other, shown=None)
    dialog = FixEntryDialog(cluedo, cl.setup, events, k, [Edit(k, "refuter", other, moved, 1.0,
                                                               f"{other} refuting")])
    form = dialog.editor.form
    assert form.refuter.currentText() == other
    assert form.refuter in dialog.editor.marked_widgets()      # the refuter, and the passes
    assert dialog.entry() == moved
    dialog.show_text(True)
    dialog.line.setText(f"{ann} accuses Mrs White, Rope, Hall")
    dialog.show_text(False)
    assert dialog.editor.form.accusation and dialog.editor.form.suggester.currentText() == ann
    assert dialog.entry() == cluedo.AccusationEvent(player=ann, cards=("Mrs White", "Rope", "Hall"), correct=False)


def _click_fix(tab, entry):
    click_link(tab, f"fix:{entry}:")
    return tab.findChild(FixEntryDialog)


def test_fix_in_the_window_guesswho_and_inkognito(window, qtbot):
    """Guess Who? (a name question answered yes against the board) and Inkognito (an answer
    shown twice): Cancel changes nothing; OK on the suggested correction replaces the entry in
    one undoable step and the contradiction goes; undo brings it back."""
    gw = _example("guesswho")
    bad = guesswho.parse(gw.setup, gw.events, "is it Alex? yes")
    ink = _example("inkognito")
    twice = inkognito.parse(ink.setup, ink.events, "Red: Lord Fiddlebottom, short, fat")
    cases = ((guesswho, gw, bad, lambda ed: ed.no.isChecked() and ed.marked_widgets() == [ed.yes, ed.no]),
             (inkognito, ink, twice,
              lambda ed: ed.opponent.currentData() == "Blue" and ed.marked_widgets() == [ed.opponent]
              and ed.sheet.title() == "Blue"))
    for module, data, last, filled in cases:
        events = list(data.events) + [last]
        n = len(events) - 1
        tab = _contradiction(window, qtbot, module.GAME, data.setup, events)
        doc = tab.controller.document
        rev, count = doc.revision, doc.undo_stack.count()
        dialog = _click_fix(tab, n)
        assert dialog is not None and dialog.isVisible() and filled(dialog.editor)
        dialog.buttons.button(QDialogButtonBox.Cancel).click()
        assert wait_idle(window, 60)
        assert doc.revision == rev and doc.events == events and doc.undo_stack.count() == count
        dialog = _click_fix(tab, n)
        fixed = dialog.entry()
        dialog.buttons.button(QDialogButtonBox.Ok).click()
        assert wait_idle(window, 60)
        assert doc.events == events[:n] + [fixed] and doc.undo_stack.count() == count + 1
        module.infer(data.setup, doc.events)              # consistent now
        qtbot.waitUntil(lambda: tab.banner.message() == "", timeout=30000)
        window.undo_action.trigger()
        assert wait_idle(window, 60)
        assert doc.events == events

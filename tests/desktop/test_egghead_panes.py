"""The Egghead tab's panes draw a moment from the published Snapshot alone: my stack
(MyStackPane) and the table with the forms (FormsArea), each built and rendered with no tab,
controller or document, on the example session (docs: resources/examples/egghead.json: B
solves after the first round, three stacks of mine left, three more ruled out by reactions)."""
from __future__ import annotations

import numpy as np

from desktop.games.egghead.panes import FormsArea, MyStackPane
from desktop.tabs.snapshot import Snapshot, Status
from desktop.widgets.worksheet import format_probability
from engines import egghead
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def _example():
    data = read_session_file(str(resource_path("examples", "egghead.json")))
    return data.setup, tuple(data.events)


def test_my_stack_pane_draws_the_posterior_of_the_moment(qapp):
    setup, events = _example()
    post = egghead.infer(setup, list(events))
    pane = MyStackPane()
    pane.set_setup(setup)
    pane.render(Snapshot(setup=setup, n=len(events), events=events, k=len(events),
                         status=Status.READY, posterior=post))
    rows = pane.valids.rows()
    valid = [r.stack for r in rows if r.valid]
    assert sorted(valid) == sorted(tuple(s) for s in post.my_valids) and len(valid) == 3
    ruled_out = [r.stack for r in rows if not r.valid]
    assert len(ruled_out) == 3 and not set(ruled_out) & set(valid)    # what BA bought
    assert pane.valids_title.text() == ("<b>Stacks I could have</b>: 3 with behavioural analysis, "
                                        "6 from the answers alone")
    np.testing.assert_allclose(pane.position_model.matrix(), post.position_probabilities)
    assert "B cannot solve" in pane.others_label.text()
    pane.clear()
    assert pane.valids.rows() == [] and pane.position_model.matrix() is None


def test_the_forms_area_draws_a_past_moment_and_sets_the_forms_from_the_live_one(qapp):
    setup, events = _example()
    area = FormsArea(setup)
    area.follow_log(setup, events)
    assert area.reactions_form.solved() == ["B"]          # the previous round pre-filled
    first = egghead.infer(setup, list(events[:1]))
    area.reactions_form.set_note("unchanged")
    area.render(Snapshot(setup=setup, n=len(events), events=events, selected=1, k=1,
                         status=Status.READY, posterior=first))
    # B could solve with one of my stacks in 0.4 of the weight: it depends on my stack
    assert area.table_panel.state["B"].text() == f"solve? {format_probability(0.4)}"
    assert area.table_panel.state["A"].text() == "6 possible"
    assert area.reactions_form.note.text() == "unchanged"          # a past moment: forms stay
    post = egghead.infer(setup, list(events))
    area.render(Snapshot(setup=setup, n=len(events), events=events, k=len(events),
                         status=Status.READY, posterior=post))
    assert area.table_panel.state["A"].text() == "3 possible"
    assert area.reactions_form.note.text().startswith("Another round of reactions can change "
                                                      "nothing")     # the fixpoint is reached

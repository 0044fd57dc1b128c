"""The Inkognito tab's sheets (SheetsPane) draw a moment from the published Snapshot alone: built
and rendered with no tab, controller or document, on the example session
(resources/examples/inkognito.json: seven answers about Red, Blue and Yellow)."""
from __future__ import annotations

import numpy as np

from desktop.games.inkognito.panes import SheetsPane
from desktop.tabs.snapshot import Snapshot, Status
from desktop.widgets.worksheet import format_probability
from engines import inkognito
from engines.core.resources import resource_path
from engines.core.schema import read_session_file


def test_the_sheets_draw_each_opponents_beliefs_of_the_moment(qapp):
    data = read_session_file(str(resource_path("examples", "inkognito.json")))
    setup, events = data.setup, tuple(data.events)
    pane = SheetsPane()
    submitted = []
    pane.answerSubmitted.connect(submitted.append)
    pane.set_setup(setup)
    assert list(pane.sheets) == list(pane.cards) == list(setup.opponents)
    pane.follow_log(events)
    assert [len(pane.sheets[n]._answers) for n in setup.opponents] == [3, 2, 2]   # Red, Blue, Yellow
    k = 3
    post = inkognito.infer(setup, list(events[:k]))
    pane.render(Snapshot(setup=setup, n=len(events), events=events, selected=k, k=k,
                         status=Status.READY, posterior=post))
    for name, b in post.opponents.items():
        m = pane.cards[name].matrix()
        np.testing.assert_allclose(m[:4, :4], b.joint, atol=1e-12)
        np.testing.assert_allclose(m[:4, 4], np.asarray(b.joint).sum(1), atol=1e-12)  # "any" build
        top = max(b.identity, key=b.identity.get)
        assert f"most likely {top} ({format_probability(b.identity[top])})" in \
            pane.cards[name].title.text()
        assert format_probability(b.partner) in pane.cards[name].partner.text()
    pane.sheets["Red"].submitted.emit("Red")
    assert submitted == ["Red"]
    red = pane.cards["Red"]
    pane.set_setup(setup)                     # the same game: the cards are kept, drawn
    assert pane.cards["Red"] is red and red.matrix() is not None
    pane.clear()
    assert all(c.matrix() is None for c in pane.cards.values())

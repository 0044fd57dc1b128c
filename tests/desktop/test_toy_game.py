"""A sixth game added from outside desktop/ and engines/: this test module is the engine of a
toy game ("coin": is the coin fair or biased, from the flips seen) and satisfies the
GameEngine Protocol; registered in engines.GAMES it goes through session load/save, the CLI's
``infer``, the belief timeline, the history, the CSV export and a generic tab."""
import csv
import json
from dataclasses import dataclass

import pytest

import engines
from engines.core.contract import GameEngine
from engines.core.errors import SessionFormatError
from engines.core.timeline import Timeline

# --------------------------------------------------------------------------- the toy engine
GAME, TITLE, METHODS, EVENT_TYPES = "coin", "Coin", ("exact",), ("flip",)


@dataclass(frozen=True)
class Setup:
    """The biased coin shows heads with probability ``bias``; a fair one with 1/2."""

    bias: float = 0.8

    @classmethod
    def from_json(cls, obj, path="$.setup"):
        bias = obj.get("bias") if isinstance(obj, dict) else None
        if not isinstance(bias, (int, float)) or not 0.5 < bias < 1:
            raise SessionFormatError(f"{path}.bias", "must be a number between 0.5 and 1")
        return cls(float(bias))

    def to_json(self):
        return {"bias": self.bias}


@dataclass(frozen=True)
class Flip:
    heads: bool

    def to_json(self):
        return {"type": "flip", "heads": self.heads}


@dataclass(frozen=True)
class Posterior:
    p_biased: float

    def to_json(self):
        return {"game": GAME, "p_biased": self.p_biased}


def default_setup():
    return Setup()


def event_from_json(obj, setup, path):
    if not isinstance(obj.get("heads"), bool):
        raise SessionFormatError(f"{path}.heads", "must be true or false")
    return Flip(obj["heads"])


def describe_event(setup, event):
    return "heads" if event.heads else "tails"


def infer(setup, events, *, method="exact", cancel=None):
    """Bayes' rule over {fair, biased} with prior 1/2 each."""
    biased = fair = 0.5
    for e in events:
        biased *= setup.bias if e.heads else 1 - setup.bias
        fair *= 0.5
    return Posterior(biased / (biased + fair))


def belief_summary(setup, posterior):
    return {"p_biased": posterior.p_biased}


# --------------------------------------------------------------------------- the test
@pytest.fixture
def coin_registered(monkeypatch):
    monkeypatch.setitem(engines.GAMES, GAME, __name__)
    assert isinstance(engines.game_module(GAME), GameEngine)
    yield engines.game_module(GAME)


def _expected(flips, bias=0.8):
    return infer(Setup(bias), [Flip(h) for h in flips]).p_biased


def test_a_sixth_game_through_the_generic_machinery(coin_registered, qtbot, tmp_path, capsys):
    from PySide6.QtWidgets import QLabel, QVBoxLayout

    from desktop.gametab import GameTab

    mod = coin_registered
    # session file: load, CLI infer, save
    path = tmp_path / "coin.json"
    path.write_text(json.dumps({"format": "deduction-desk.session", "version": 1, "game": "coin", "setup": {"bias": 0.9},
                                "events": [{"type": "flip", "heads": True},
                                           {"type": "flip", "heads": True, "note": "lucky"}]}))
    from engines.__main__ import main
    assert main(["infer", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"game": "coin", "p_biased": pytest.approx(_expected([True, True], 0.9))}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "deduction-desk.session", "version": 1, "game": "coin", "setup": {"bias": 2}, "events": []}))
    assert main(["infer", str(bad)]) == 2
    assert "$.setup.bias" in capsys.readouterr().err
    # the timeline
    tl = Timeline(mod, Setup(0.9))
    r = tl.compute([Flip(True), Flip(False)])
    assert [p.p_biased for p in r.posteriors] == pytest.approx(
        [0.5, _expected([True], 0.9), _expected([True, False], 0.9)])

    class CoinTab(GameTab):
        GAME = "coin"

        def build_ui(self):
            lay = QVBoxLayout(self)
            self.label = QLabel()
            for w in (self.banner, self.label, self.history, self.plot):
                lay.addWidget(w)

        def show_posterior(self, post, k):
            self.label.setText(f"P(biased) = {post.p_biased:.4f} after {k} flips")

        def plot_series(self, timeline):
            return {"biased": [s and s["p_biased"] for s in timeline.summaries]}

    tab = CoinTab()
    qtbot.addWidget(tab)
    try:
        from engines.core.schema import read_session_file
        tab.load_session(read_session_file(str(path)), str(path))
        qtbot.waitUntil(lambda: not tab.is_busy(), timeout=5000)
        assert tab.label.text() == f"P(biased) = {_expected([True, True], 0.9):.4f} after 2 flips"
        assert tab.history.entry_count() == 3 and "heads" in tab.history.entry_text(2)
        assert "[lucky]" in tab.history.entry_text(2)
        assert tab.log_json({"type": "flip", "heads": False})
        qtbot.waitUntil(lambda: not tab.is_busy(), timeout=5000)
        assert tab.history.entry_count() == 4
        assert tab.plot.series()["biased"] == pytest.approx(
            [0.5] + [_expected([True, True, False][:k], 0.9) for k in (1, 2, 3)])
        tab.history.select_entry(1)                       # the beliefs after the first flip
        assert tab.label.text().endswith("after 1 flips")
        tab.history.select_live()
        tab.document.undo_stack.undo()
        qtbot.waitUntil(lambda: not tab.is_busy(), timeout=5000)
        assert tab.history.entry_count() == 3 and tab.label.text().endswith("after 2 flips")
        # CSV export and save
        out_csv = tmp_path / "coin.csv"
        with qtbot.waitSignal(tab.exportFinished, timeout=5000) as b:
            tab.export_history_csv(str(out_csv))
        assert b.args == [str(out_csv), ""]
        rows = list(csv.reader(out_csv.open(encoding="utf-8")))
        assert rows[0][-1] == "p_biased" and len(rows) == 4
        assert float(rows[-1][-1]) == pytest.approx(_expected([True, True], 0.9), rel=1e-5)
        tab.document.save(str(tmp_path / "saved.json"))
        again = read_session_file(str(tmp_path / "saved.json"))
        assert again.setup == Setup(0.9) and again.events == (Flip(True), Flip(True))
        assert again.meta[1].note == "lucky"
    finally:
        tab.shutdown()

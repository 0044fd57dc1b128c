"""The coin engine: Bayes' rule over {fair, trick} with prior 1/2 each; a trick coin shows
heads with probability ``bias`` (1: two-headed, so one tails rules it out)."""
from dataclasses import dataclass

from coin_game.info import COIN
from engines.core.errors import SessionFormatError, check_cancel
from engines.core.explain import explain_with
from engines.core.schema import Reader

GAME, TITLE = COIN.id, COIN.title      # declared once, in coin_game/info.py
METHODS, EVENT_TYPES = ("exact",), ("flip",)


@dataclass(frozen=True, kw_only=True)
class Setup:
    bias: float = 1.0

    @classmethod
    def from_json(cls, obj, path="$.setup"):
        bias = obj.get("bias") if isinstance(obj, dict) else None
        if not isinstance(bias, (int, float)) or not 0.5 < bias <= 1:
            raise SessionFormatError(f"{path}.bias", "must be a number above 0.5, at most 1")
        return cls(bias=float(bias))

    def to_json(self):
        return {"bias": self.bias}


@dataclass(frozen=True, kw_only=True)
class Flip:
    heads: bool

    def to_json(self):
        return {"type": "flip", "heads": self.heads}


@dataclass(frozen=True, kw_only=True)
class Posterior:
    p_biased: float

    def to_json(self):
        return {"game": GAME, "p_biased": self.p_biased}


def default_setup():
    return Setup()


def event_from_json(obj, setup, path):
    if not isinstance(obj.get("heads"), bool):
        raise SessionFormatError(f"{path}.heads", "must be true or false")
    return Flip(heads=obj["heads"])


def describe_event(setup, event):
    return "heads" if event.heads else "tails"


def infer(setup, events, *, method="exact", cancel=None):
    biased = fair = 0.5
    for e in events:
        check_cancel(cancel)
        biased *= setup.bias if e.heads else 1 - setup.bias
        fair *= 0.5
    return Posterior(p_biased=biased / (biased + fair))


def belief_summary(setup, posterior):
    return {"p_biased": posterior.p_biased}


# -- quick entry: "heads" / "tails" (any prefix: h, t)
def parse(setup, events, text):
    word = text.strip().lower()
    for name in ("heads", "tails"):
        if word and name.startswith(word):
            return Flip(heads=name == "heads")
    raise SessionFormatError("$.text", f"{text.strip()!r} is not heads or tails")


def preview(setup, events, text):
    return describe_event(setup, parse(setup, events, text))


def complete(setup, events, text):
    return [n for n in ("heads", "tails") if n.startswith(text.strip().lower())]


def format_event(setup, event):
    return describe_event(setup, event)


# -- Why? fact {"coin": "trick"}: certain, ruled out (a tails of a two-headed coin) or open
def _status(setup, events):
    p = infer(setup, events).p_biased
    return "impossible" if p == 0.0 else "certain" if p == 1.0 else "uncertain"


def explain(setup, events, fact, *, cancel=None):
    Reader(fact, "$.fact").choice("coin", ["trick"], what="coin")
    events = tuple(events)
    status = _status(setup, events)
    return explain_with(dict(fact), len(events), status,
                        lambda s: _status(setup, [events[i] for i in s]) == status,
                        lambda s: [f"entry {i + 1} shows tails: a two-headed coin never does"
                                   for i in s], cancel=cancel)


def explain_contradiction(setup, events, *, cancel=None):
    return None   # a fair coin explains every sequence of flips

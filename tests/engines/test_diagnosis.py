"""Diagnosis of contradictory logs (engines/core/diagnosis.py, engines/<game>/diagnosis.py):
random consistent logs of every game with one field of one entry mistyped — when the result is
contradictory, the mistyped entry is among the corrections, and every correction listed gives a
log the game's exact inference accepts; brute force over every deal of a small Cluedo deck; the
budget; removal sets when no single edit works; the command line's JSON."""
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines.cluedo as cl
import engines.egghead as eg
import engines.guesswho as gw
import engines.inkognito as ink
from engines.core.diagnosis import Diagnosis, Edit, ReplayChecker, diagnose
from engines.core.errors import ContradictionError, SessionFormatError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from random_logs import (
    cluedo_log,
    cluedo_small_setup,
    egghead_log,
    egghead_mutations,
    guesswho_log,
    inkognito_log,
    mutate_json,
)
from test_explain import all_deals, fits

ROOT = Path(__file__).resolve().parents[2]
BIG = 10 ** 7        # budget large enough for every search here to be complete


def accepted(mod, setup, events) -> bool:
    """The game's exact inference accepts the log (no ContradictionError)."""
    try:
        if mod is ink:
            ink.infer(setup, events, method="joint")
        else:
            mod.infer(setup, events)
    except ContradictionError:
        return False
    return True


def applied(events, c: Edit) -> list:
    if c.event is None:
        return [e for j, e in enumerate(events) if j != c.entry]
    return events[:c.entry] + [c.event] + events[c.entry + 1:]


def check_diagnosis(mod, setup, log, mistyped: int) -> Diagnosis:
    """The shared property: a contradictory log's diagnosis is complete with a large budget,
    names the mistyped entry, every correction gives an accepted log, and the corrections come
    likeliest first."""
    d = mod.diagnose(setup, log, budget=BIG)
    if accepted(mod, setup, log):
        assert d is None
        return None
    assert d is not None and d.complete
    assert 0 <= d.first_bad < len(log) and mistyped <= d.first_bad
    assert not accepted(mod, setup, log[:d.first_bad + 1])
    assert accepted(mod, setup, log[:d.first_bad])
    assert mistyped in [c.entry for c in d.corrections], (d.message, mistyped)
    for c in d.corrections:
        assert accepted(mod, setup, applied(log, c)), c
        assert c.entry <= d.first_bad
    costs = [c.cost for c in d.corrections]
    assert costs == sorted(costs)
    js = d.to_json()
    assert js["status"] == "contradiction" and js["conflict"] == list(d.conflict)
    assert all(("remove" in x) != ("field" in x) for x in js["corrections"])
    json.dumps(js, allow_nan=False)
    assert d.message.startswith("Probably mistyped: ") and f"#{mistyped + 1} " in d.message \
        or len({c.entry for c in d.corrections}) > 5
    return d


# ------------------------------------------------------------------ Egghead
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 5))
def test_egghead_mistyped_answer_or_reaction_is_found(seed, answers):
    rng = random.Random(seed)
    setup, events, _ = egghead_log(rng, 3, answers)
    assert accepted(eg, setup, events)
    i, _, ev = rng.choice(egghead_mutations(setup, events, rng))
    check_diagnosis(eg, setup, events[:i] + [ev] + events[i + 1:], i)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_egghead_four_players(seed):
    rng = random.Random(seed)
    setup, events, _ = egghead_log(rng, 4, 3)
    i, _, ev = rng.choice(egghead_mutations(setup, events, rng))
    check_diagnosis(eg, setup, events[:i] + [ev] + events[i + 1:], i)


def test_egghead_first_answer_mistyped_by_one():
    """The complaint: a mistyped first answer, and a reactions round that then looks impossible.
    Removing the round is one correction, but changing the answer back is named too. Among
    logs where no removal helps at all, changing the answer back still does."""
    from engines.core.schema import read_session_file
    s = read_session_file(str(ROOT / "resources" / "examples" / "egghead.json"))
    log = [eg.Answer(question="missing", answer=1)] + list(s.events[1:])
    d = eg.diagnose(s.setup, log)
    assert (0, "answer", 0) in [(c.entry, c.field, c.value) for c in d.corrections]
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        setup, events, _ = egghead_log(rng, 3, 4)
        a = events[0]
        for delta in (-1, 1):
            bad = [eg.Answer(question=a.question, answer=a.answer + delta, moderator=a.moderator)] + events[1:]
            try:
                bad[0] = eg.event_from_json(bad[0].to_json(), setup)
            except SessionFormatError:
                continue                     # not a possible answer to this question
            d = eg.diagnose(setup, bad, budget=BIG)
            if d is None:
                continue
            fixes = [(c.entry, c.field, c.value) for c in d.corrections]
            assert (0, "answer", a.answer) in fixes
            if not any(c.field is None for c in d.corrections):
                found += 1
    assert found >= 1      # non-monotone knowledge: removal alone is not always a correction


def test_egghead_six_players_refused():
    setup = eg.Setup.from_json({"players": list("ABCDEF"), "me": "A",
                                "visible": {p: [1, 2, 3] for p in "BCDEF"}})
    if not eg.inference.is_large(setup):
        pytest.skip("six players fit a snapshot here")
    with pytest.raises(SessionFormatError):
        eg.diagnose(setup, [eg.Answer(question="missing", answer=0)])


# ------------------------------------------------------------------ Cluedo
_DEALS = {}


def _deals(setup):
    key = setup.players
    if key not in _DEALS:
        _DEALS[key] = all_deals(setup)
    return _DEALS[key]


def brute_ok(setup, events) -> bool:
    return any(all(fits(setup, d, e) for e in events) for d in _deals(setup))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.integers(2, 9))
def test_cluedo_small_deck_brute_force(seed, n_events):
    """Every correction listed gives a log some deal fits (enumerated), every other candidate
    edit of the entries searched does not, and the conflict is a minimal unsatisfiable subset."""
    from engines.cluedo.diagnosis import edits
    rng = random.Random(seed)
    setup = cluedo_small_setup()
    _, events = cluedo_log(setup, rng, n_events)
    i = rng.randrange(len(events))
    m = mutate_json(cl, setup, events[i], rng)
    if m is None:
        return
    log = events[:i] + [m[1]] + events[i + 1:]
    d = check_diagnosis(cl, setup, log, i)
    if d is None:
        assert brute_ok(setup, log)
        return
    assert not brute_ok(setup, log)
    assert not brute_ok(setup, [log[j] for j in d.conflict])
    for j in d.conflict:
        assert brute_ok(setup, [log[x] for x in d.conflict if x != j])
    listed = {(c.entry, c.field, json.dumps(c.value)) for c in d.corrections}
    for j in d.conflict:
        for e in edits(setup, log, j) + [Edit(j, None, None, None, 0, "")]:
            ok = brute_ok(setup, applied(log, e))
            assert ok == ((e.entry, e.field, json.dumps(e.value)) in listed), e


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1))
def test_cluedo_classic(seed):
    rng = random.Random(seed)
    setup = cl.default_setup()
    _, events = cluedo_log(setup, rng, 25)
    i = rng.randrange(len(events))
    m = mutate_json(cl, setup, events[i], rng)
    if m is not None:
        check_diagnosis(cl, setup, events[:i] + [m[1]] + events[i + 1:], i)


# ------------------------------------------------------------------ Inkognito, Guess Who?
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 10), st.booleans())
def test_inkognito_mistyped_answer_is_found(seed, n_events, four):
    rng = random.Random(seed)
    setup, events = inkognito_log(rng, n_events, four)
    if not events:
        return
    i = rng.randrange(len(events))
    m = mutate_json(ink, setup, events[i], rng)
    if m is not None:
        check_diagnosis(ink, setup, events[:i] + [m[1]] + events[i + 1:], i)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 12))
def test_guesswho_mistyped_entry_is_found(seed, n_events):
    rng = random.Random(seed)
    setup, events = guesswho_log(rng, n_events)
    i = rng.randrange(len(events))
    ev = events[i]
    if isinstance(ev, gw.Answer):
        bad = gw.Answer(question=ev.question, answer=not ev.answer)
    else:
        bad = gw.Eliminate(name=rng.choice([x for x in setup.board.names if x != ev.name]))
    log = events[:i] + [bad] + events[i + 1:]
    d = check_diagnosis(gw, setup, log, i)
    if d is not None and isinstance(ev, gw.Answer):
        assert (i, "answer", ev.answer) in [(c.entry, c.field, c.value) for c in d.corrections]


def test_no_single_edit_gives_smallest_removal_sets():
    """Two independent slips (glasses yes and no; hat yes and no): no single entry fixes both,
    the four pairs do."""
    setup = gw.default_setup()
    qs = {q.label(): q for q in setup.board.questions()}
    log = [gw.Answer(question=qs["glasses?"], answer=True), gw.Answer(question=qs["glasses?"], answer=False),
           gw.Answer(question=qs["hat?"], answer=True), gw.Answer(question=qs["hat?"], answer=False)]
    d = gw.diagnose(setup, log)
    assert d.corrections == () and d.complete and d.first_bad == 1
    assert d.conflict == (0, 1)
    assert d.removal_sets == ((0, 2), (0, 3), (1, 2), (1, 3))
    assert "No single entry" in d.message and "#1 and #3" in d.message


# ------------------------------------------------------------------ core
def test_budget_is_in_steps_and_says_when_it_ran_out():
    """A predicate that only one far edit satisfies: with a small budget the search stops and
    says so; the same budget gives the same result every time (steps, not seconds)."""
    events = list(range(10))

    def consistent(evs):
        return 5 not in evs            # entry 5 is wrong; a 50 fixes it

    def edits_for(i):
        return [Edit(i, "value", v, v if i != 5 else v * 10, 1.0 + v / 100, f"the value {v}")
                for v in range(1, 20)]

    runs = [diagnose(events, ReplayChecker(events, consistent), edits_for, str, monotone=True,
                     budget=30) for _ in range(2)]
    assert runs[0] == runs[1].__class__(**{**runs[1].__dict__, "seconds": runs[0].seconds})
    d = runs[0]
    assert not d.complete and "budget" in d.message and d.steps >= 30
    d = diagnose(events, ReplayChecker(events, consistent), edits_for, str, monotone=True,
                 budget=BIG)
    assert d.complete and d.conflict == (5,)
    assert [(c.entry, c.value) for c in d.corrections][:3] == [(5, 1), (5, 2), (5, 3)]
    assert d.corrections[-1].field is None           # the removal costs more
    assert diagnose(events[:5], ReplayChecker(events[:5], consistent), edits_for, str,
                    monotone=True, budget=5) is None
    with pytest.raises(ValueError):
        diagnose(events, ReplayChecker(events, consistent), edits_for, str, monotone=True,
                 budget=0)


# ------------------------------------------------------------------ CLI
def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engines", "explain", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_cli_prints_the_diagnosis(tmp_path):
    obj = json.loads((ROOT / "resources" / "examples" / "egghead.json").read_text())
    obj["events"][0]["answer"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    for extra in ((), ("--fact", '{"stack": [1, 2, 4]}')):
        out = run_cli(str(bad), *extra)
        assert out.returncode == 3, out.stderr
        d = json.loads(out.stdout)
        assert d["status"] == "contradiction" and d["conflict"] == [1]
        assert {"entry": 0, "field": "answer", "value": 0} in \
            [{k: v for k, v in c.items() if k != "text"} for c in d["corrections"]]
        assert {"entry": 1, "remove": True} in \
            [{k: v for k, v in c.items() if k != "text"} for c in d["corrections"]]
        assert d["search"]["complete"] and d["steps"]
    out = run_cli(str(ROOT / "resources" / "examples" / "egghead.json"))
    assert out.returncode == 0 and json.loads(out.stdout)["status"] == "consistent"
    out = run_cli(str(bad), "--budget", "1")
    d = json.loads(out.stdout)
    assert out.returncode == 3 and not d["search"]["complete"] and "budget" in d["message"]
    out = run_cli(str(bad), "--budget", "0")
    assert out.returncode == 2 and json.loads(out.stdout)["status"] == "error"
    out = run_cli(str(ROOT / "resources" / "examples" / "spyfall.json"))
    assert out.returncode == 2 and json.loads(out.stdout)["path"] == "$.game"


def test_cli_deterministic(tmp_path):
    obj = json.loads((ROOT / "resources" / "examples" / "cluedo.json").read_text())
    obj["events"].append({"type": "lacks", "player": "Me", "card": "Rope"})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    outs = [run_cli(str(bad), "--budget", "500") for _ in range(2)]
    assert outs[0].returncode == 3 and outs[0].stdout == outs[1].stdout
    d = json.loads(outs[0].stdout)
    assert d["conflict"] == [0, len(obj["events"]) - 1]
    assert any(c["entry"] == len(obj["events"]) - 1 for c in d["corrections"])


def test_spyfall_has_no_contradictions():
    """Spyfall's claims have floored likelihoods: its posterior is never contradictory, so it
    has no diagnosis (and no explanations)."""
    import engines.spyfall as sp
    assert not hasattr(sp, "diagnose")


def test_removal_sets_in_egghead_are_searched_when_nothing_single_works():
    """Two reactions rounds mistyped far apart (each alone contradicts): no single edit."""
    for seed in itertools.count():
        if seed > 60:
            pytest.skip("no log with two independent slips found")
        rng = random.Random(seed)
        setup, events, _ = egghead_log(rng, 3, 5)
        rounds = [i for i, e in enumerate(events) if isinstance(e, eg.Reactions)]
        if len(rounds) < 2:
            continue
        i, j = rounds[0], rounds[-1]
        log = list(events)
        for x in (i, j):
            log[x] = eg.Reactions(solved=tuple(p for p in setup.players if p not in events[x].solved))
        d = eg.diagnose(setup, log, budget=BIG)
        if d is None or d.corrections:
            continue
        assert d.complete
        assert d.removal_sets and all(len(s) == len(d.removal_sets[0]) for s in d.removal_sets)
        for s in d.removal_sets:
            assert accepted(eg, setup, [e for x, e in enumerate(log) if x not in s])
        break

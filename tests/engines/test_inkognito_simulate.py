"""Inkognito simulator: the simulated opponent answers by the rules (checked against the
explicit enumeration of test_inkognito), θ is honoured, the recommended questions solve the
deal faster than random ones, option errors, the CLI."""
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_inkognito import explicit_choices

import engines.inkognito as ink
from engines.core.errors import SessionFormatError
from engines.inkognito.simulate import _answer

ROOT = Path(__file__).parents[2]


def _masks(setup, ev):
    return ink.encode(setup, ev)[2]


@pytest.mark.parametrize("question,asked", [("player", "identity"), ("player", "build"),
                                            ("ambassador", "identity")])
def test_simulated_answers_are_valid_and_uniform(question, asked):
    rng = random.Random(4)
    s = ink.default_setup()
    i, b = 0, 2
    allowed = set(explicit_choices((question, asked, False), i, b))
    counts = Counter()
    n = 3000
    for _ in range(n):
        ev = _answer(rng, s, 0, 4 * i + b, question, asked, None, [])
        counts[_masks(s, ev)] += 1
    assert set(counts) == allowed  # every valid set drawn, nothing else
    expected = n / len(allowed)
    assert max(abs(c - expected) for c in counts.values()) < 0.25 * expected


def test_simulated_answers_never_repeat_and_run_out():
    rng = random.Random(1)
    s = ink.default_setup()
    shown = []
    seen = []
    for _ in range(3):
        ev = _answer(rng, s, 1, 4 * 1 + 0, "ambassador", "build", None, shown)
        seen.append(_masks(s, ev))
    assert len(set(seen)) == 3 and set(seen) == set(explicit_choices(("ambassador", "build",
                                                                     False), 1, 0))
    assert _answer(rng, s, 1, 4, "ambassador", "build", None, shown) is None


def test_simulated_theta_is_the_lone_statement_rate():
    rng = random.Random(2)
    s = ink.default_setup()
    i, b = 1, 3
    lone = 0
    n = 2000
    for _ in range(n):
        ev = _answer(rng, s, 0, 4 * i + b, "player", "identity", 0.9, [])
        im, bm = _masks(s, ev)
        lone += (not im >> i & 1) and bool(bm >> b & 1)
    assert abs(lone / n - 0.9) < 0.03


def test_recommend_policy_beats_random_questions():
    rec = ink.simulate(ink.SimConfig(25, "recommend", max_questions=30, seed=3))
    rnd = ink.simulate(ink.SimConfig(25, "random", max_questions=30, seed=3))
    assert rec.solved == rnd.solved == 1.0
    assert sum(rec.questions) / 25 < sum(rnd.questions) / 25 - 1.5
    assert rec.truth_probability[0] == pytest.approx(1 / 36)
    assert len(rec.truth_probability) == 31 and rec.truth_probability[-1] >= 0.95
    assert all(q >= 1 for q in rec.questions)
    json.dumps(rec.to_json(), allow_nan=False)


def test_simulate_option_errors():
    for kw, path in [({"policy": "psychic"}, "--policy"), ({"games": 0}, "--games"),
                     ({"theta": 1.0}, "--theta"), ({"target": 0.0}, "--target"),
                     ({"prior": (0, 1)}, "--prior"), ({"max_questions": 0}, "--max-questions"),
                     ({"questions": "shout"}, "--questions")]:
        with pytest.raises(SessionFormatError) as e:
            ink.simulate(ink.SimConfig(**{"games": 1, **kw}))
        assert e.value.path == path


def test_cli_simulate():
    out = subprocess.run([sys.executable, "-m", "engines", "simulate", "inkognito", "--games",
                          "3", "--theta", "0.7", "--deception", "--max-questions", "12"],
                         capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["game"] == "inkognito" and d["model"] == "deception" and d["theta"] == 0.7
    assert len(d["truth_probability"]) == 13 and 0 <= d["solved"] <= 1


def test_deception_model_helps_against_liars_with_player_questions_only():
    """Player questions only (θ matters only there), opponents with θ = 0.8: the deception
    engine puts more probability on the true deal after 5 questions than the uniform one."""
    u = ink.simulate(ink.SimConfig(30, "recommend", theta=0.8, questions="player", max_questions=8,
                                 seed=7))
    d = ink.simulate(ink.SimConfig(30, "recommend", theta=0.8, deception=True, questions="player",
                                   max_questions=8, seed=7))
    assert u.question_set == "player" and u.to_json()["questions"] == "player"
    assert d.truth_probability[5] > u.truth_probability[5] + 0.05

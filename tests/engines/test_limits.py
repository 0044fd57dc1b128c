"""Hostile sizes and files are refused at once with a message naming the field and the limit
(nothing large is built first); model parameters stay where results are finite."""
import json

import pytest

from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path
from engines.core.schema import parse_session, read_session_file


def _session(game, setup, events=()):
    return {"format": "deduction-desk.session", "version": 1, "game": game, "setup": setup,
            "events": list(events)}


@pytest.mark.parametrize("n,players", [(40, 10), (12, 10), (40, 5)])
def test_cluedo_custom_deck_too_large_for_exact_counting(n, players):
    cats = {c: [f"{c}{i}" for i in range(n)] for c in ("suspect", "weapon", "room")}
    with pytest.raises(SessionFormatError) as e:
        parse_session(_session("cluedo", {"categories": cats,
                                          "players": [f"P{i}" for i in range(players)], "me": "P0"}))
    assert e.value.path == "$.setup.players" and "GB" in e.value.message


def test_cluedo_every_edition_with_most_players_is_accepted():
    from engines.cluedo import load_editions
    from engines.cluedo.model import MAX_PLAYERS, MAX_PLAYERS_CLASSIC

    for key, ed in load_editions().items():
        n = sum(len(c) for c in ed["categories"].values())
        top = MAX_PLAYERS if n > 21 else MAX_PLAYERS_CLASSIC
        parse_session(_session("cluedo", {"edition": key, "players": [f"P{i}" for i in range(top)],
                                          "me": "P0"}))


def test_spyfall_sizes_and_parameters():
    base = json.loads(resource_path("examples", "spyfall.json").read_text())
    big = dict(base["setup"], players=[f"P{i}" for i in range(10_000)], me="P0")
    with pytest.raises(SessionFormatError) as e:
        parse_session(_session("spyfall", big))
    assert e.value.path == "$.setup.players" and "at most" in e.value.message
    for model, field in (({"beta": 1e-300}, "beta"), ({"lambda": 0.999999999}, "lambda"),
                         ({"beta": 1e7}, "beta")):
        s = dict(base["setup"], model=model)
        with pytest.raises(SessionFormatError) as e:
            parse_session(_session("spyfall", s))
        assert e.value.path == f"$.setup.model.{field}"
    ev = dict(base["events"][0])
    ev["claim"] = {k: 1e308 for k in list(ev["claim"])[:2]} if isinstance(ev["claim"], dict) \
        else [1e308] * len(ev["claim"])
    with pytest.raises(SessionFormatError):
        parse_session(dict(base, events=[ev]))


def test_spyfall_extreme_parameters_give_finite_results():
    import engines.spyfall as sp
    from engines.spyfall.model import BETA_RANGE, LAMBDA_MAX

    base = json.loads(resource_path("examples", "spyfall.json").read_text())
    for beta in (BETA_RANGE[0], 1e-3, 1e4, BETA_RANGE[1]):
        for lam in (0.0, 0.5, LAMBDA_MAX):
            for strategy in ("flat", "dynamic", "joker"):
                s = parse_session(dict(base, setup=dict(base["setup"], model={
                    "beta": beta, "lambda": lam, "strategy": strategy})))
                for out in (sp.infer(s.setup, s.events).to_json(),
                            sp.recommend(s.setup, s.events).to_json()):
                    json.dumps(out, allow_nan=False)     # raises on NaN or infinity


def test_guesswho_board_paths_stay_next_to_the_session(tmp_path):
    board = tmp_path / "faces.csv"
    board.write_text("name,glasses\nAnn,yes\nBob,no\n", encoding="utf-8")
    sess = tmp_path / "game.json"
    for ref, ok in (("faces.csv", True), ("/etc/passwd", False), ("/dev/zero", False),
                    ("../" * 12 + "etc/passwd", False), ("classic", True)):
        sess.write_text(json.dumps(_session("guesswho", {"board": ref})), encoding="utf-8")
        if ok:
            assert read_session_file(str(sess)).setup.board.size >= 2
        else:
            with pytest.raises(SessionFormatError) as e:
                read_session_file(str(sess))
            assert e.value.path == "$.setup.board", ref
    inline = {"attributes": ["glasses"], "characters": [
        {"name": "Ann", "attributes": {"glasses": True}, "image": "/etc/passwd"},
        {"name": "Bob", "attributes": {"glasses": False}, "image": "../../x.png"},
        {"name": "Cy", "attributes": {"glasses": False}, "image": "cy.png"}]}
    sess.write_text(json.dumps(_session("guesswho", {"board": inline})), encoding="utf-8")
    chars = read_session_file(str(sess)).setup.board.characters
    assert chars[0].image is None and chars[1].image is None
    assert chars[2].image == str(tmp_path / "cy.png")


def test_guesswho_board_size_limit():
    from engines.guesswho.board import MAX_CHARACTERS

    chars = [{"name": f"c{i}", "attributes": {"v": i % 2 == 0}} for i in range(MAX_CHARACTERS + 1)]
    with pytest.raises(SessionFormatError) as e:
        parse_session(_session("guesswho", {"board": {"attributes": ["v"], "characters": chars}}))
    assert e.value.path == "$.setup.board.characters" and "at most" in e.value.message


def test_names_and_notes_have_a_length_limit():
    base = json.loads(resource_path("examples", "egghead.json").read_text())
    with pytest.raises(SessionFormatError) as e:
        parse_session(dict(base, setup=dict(base["setup"], players=["A" * 10_000_000, "B", "C"],
                                            me="B")))
    assert e.value.path == "$.setup.players[0]" and len(e.value.message) < 300
    ev = dict(base["events"][0], note="n" * 8_000_000)
    with pytest.raises(SessionFormatError) as e:
        parse_session(dict(base, events=[ev]))
    assert e.value.path == "$.events[0].note"


def test_memory_estimate_honours_process_limits():
    """ulimit -v lowers the memory available (checked in a child so this process keeps its
    limits)."""
    import subprocess
    import sys

    code = ("import resource; from engines.core.limits import available_bytes; "
            "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, resource.RLIM_INFINITY)); "
            "print(available_bytes())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert 0 < int(out.stdout) <= 3 << 30


def test_guesswho_empty_value_is_not_no(tmp_path):
    board = {"attributes": ["g"], "characters": [{"name": "A", "attributes": {"g": ""}},
                                                 {"name": "B", "attributes": {"g": "yes"}}]}
    with pytest.raises(SessionFormatError):
        parse_session(_session("guesswho", {"board": board}))
    import engines.guesswho as gw

    p = tmp_path / "b.csv"
    p.write_text("name,g\nA,\nB,yes\n", encoding="utf-8")      # a blank CSV cell still means no
    b = gw.load_board(str(p))
    assert b.attribute("g").kind == "yes/no"


def test_cluedo_counting_checks_memory_before_allocating(monkeypatch):
    """The tensor DP checks the memory it needs before allocating (the dictionary DP of small
    counts, at most ``_DIRECT_MAX`` states, is turned off here: it needs well under 1 MB)."""
    import engines.cluedo as cl
    from engines.cluedo import counting
    from engines.cluedo.counting import memory_needed, propagate
    from engines.cluedo.inference import constraints_for
    from engines.core import limits

    s = read_session_file(str(resource_path("examples", "cluedo.json")))
    need = memory_needed(propagate(constraints_for(s.setup, s.events)))
    assert 0 < need < 64 << 20
    monkeypatch.setattr(limits, "SMALL_BYTES", 0)
    monkeypatch.setattr(limits, "available_bytes", lambda: need // 2)
    monkeypatch.setattr(counting, "_DIRECT_MAX", -1)
    with pytest.raises(SessionFormatError) as e:
        cl.infer(s.setup, s.events)
    assert e.value.path == "$.events" and "memory" in e.value.message
    monkeypatch.setattr(limits, "available_bytes", lambda: need * 2)
    assert cl.infer(s.setup, s.events).to_json()["consistent_deals"] > 0


def test_egghead_setup_checks_memory_with_process_limits(tmp_path):
    """Under ``ulimit -v 2.5 GB`` the game's deck with 6 players is refused at once, naming the
    players field, when the explicit 4.4 GB table is forced; with the default representation
    for six players (orbits under the symmetry of players) it fits and answers."""
    import subprocess
    import sys

    d = json.loads(resource_path("examples", "egghead.json").read_text())
    names = [f"P{i}" for i in range(6)]
    d["setup"].update(players=names, me="P0", visible={p: [1, 2, 3] for p in names[1:]})
    d["setup"].pop("analysing", None)
    d["events"] = []
    p = tmp_path / "big.json"
    p.write_text(json.dumps(d))
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2500 << 20, "
            "resource.RLIM_INFINITY)); import engines.egghead.orbits as inf; "
            "inf.ORBIT_FROM_BYTES = {}; from engines.__main__ import main; "
            f"sys.exit(main(['infer', {str(p)!r}]))")
    # the explicit table (forced): refused
    out = subprocess.run([sys.executable, "-c", code.format(1 << 62)], capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 2, out.stderr
    assert "$.setup.players" in out.stderr and "GB" in out.stderr
    # the default for six players, orbits under the symmetry of players: fits and answers
    out = subprocess.run([sys.executable, "-c", code.format(1 << 30)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert str(56 ** 6) in out.stdout


@pytest.mark.parametrize("players,values,cards,field", [(3, 9, 6, "cards_per_player"), (5, 8, 3, "values"),
                                                        (5, 6, 4, "cards_per_player")])
def test_egghead_custom_deck_over_one_gigabyte_is_refused_at_once(players, values, cards, field):
    """A deck other than the game's (6 values, 3 cards) whose master table passes 1 GB is refused
    before anything is built, the message naming the field, the size, the limit and why; the
    largest accepted custom tables stay under the limit."""
    import time

    from engines.egghead.model import MAX_CUSTOM_TABLE_BYTES, MAX_TABLE_BYTES
    from engines.egghead.questions import stack_space
    from engines.egghead.table import table_bytes

    S = stack_space(values, cards).size
    assert MAX_CUSTOM_TABLE_BYTES < table_bytes(players, S) <= MAX_TABLE_BYTES
    names = [f"P{i}" for i in range(players)]
    setup = {"players": names, "me": "P0", "values": values, "cards_per_player": cards,
             "visible": {p: [1] * cards for p in names[1:]}}
    t = time.process_time()
    with pytest.raises(SessionFormatError) as e:
        parse_session(_session("egghead", setup))
    assert time.process_time() - t < 1.0          # refused at once, nothing allocated
    assert e.value.path == f"$.setup.{field}"
    msg = e.value.message
    assert f"{table_bytes(players, S) / 1e9:.1f} GB" in msg and "at most 1.0 GB" in msg
    assert "every event reads the whole table" in msg


def test_egghead_deck_limits_accept_the_game_and_small_custom_decks():
    from engines.egghead.model import MAX_CUSTOM_TABLE_BYTES, MAX_TABLE_BYTES, Setup, max_table_bytes

    assert max_table_bytes(6, 3) == MAX_TABLE_BYTES > max_table_bytes(9, 6) == MAX_CUSTOM_TABLE_BYTES
    # 3 players, 9 values, 5 cards: 1287 stacks each, a 0.28 GB table
    s = Setup.from_json({"players": ["A", "B", "C"], "me": "A", "values": 9, "cards_per_player": 5,
                         "visible": {"B": [1] * 5, "C": [2] * 5}})
    assert s.values == 9


def test_inkognito_beta_prior_range_keeps_results_finite():
    import engines.inkognito as ik
    from engines.inkognito.model import BETA_PARAMETER_RANGE

    base = json.loads(resource_path("examples", "inkognito.json").read_text())
    lo, hi = BETA_PARAMETER_RANGE
    for a in (lo, 1.0, hi):
        for b in (lo, 1.0, hi):
            d = json.loads(json.dumps(base))
            d["setup"]["deception"] = {"enabled": True, "prior": [a, b]}
            s = parse_session(d)
            for f in (ik.infer, ik.recommend):
                json.dumps(f(s.setup, s.events).to_json(), allow_nan=False)
    d = json.loads(json.dumps(base))
    d["setup"]["deception"] = {"enabled": True, "prior": [1.7e308, 1.7e308]}
    with pytest.raises(SessionFormatError) as e:
        parse_session(d)
    assert e.value.path == "$.setup.deception.prior[0]"


def test_cluedo_counting_refuses_a_dp_over_its_limits_at_once(monkeypatch):
    """The exact DP's size is known before anything is allocated (the state lists); over
    MAX_DP_WORK or MAX_DP_BYTES the refresh is refused at ``$.events`` with the size, the limit
    and why; under them the same log is counted."""
    import time

    import engines.cluedo as cl
    from engines.cluedo import counting
    from engines.cluedo.inference import constraints_for

    names = ["Me"] + [f"P{i}" for i in range(1, 10)]
    setup = cl.Setup.from_json({"edition": "clue-master-detective", "players": names, "me": "Me"})
    (_, S), (_, W), (_, R) = setup.categories
    events = [cl.SuggestionEvent(suggester=names[1 + t % 9], cards=(S[t % len(S)], W[(3 * t) % len(W)],
                                                                    R[(5 * t) % len(R)]),
                                 passed=(), refuter=names[1 + (t + 1) % 9], shown=None) for t in range(20)]
    total, largest, work = counting.dp_size(counting.propagate(constraints_for(setup, events)))
    assert 0 < largest <= total and work > total
    assert 8 * total < counting.MAX_DP_BYTES and work < counting.MAX_DP_WORK
    assert cl.infer(setup, events).consistent_deals > 0
    for name, value in (("MAX_DP_WORK", work / 2), ("MAX_DP_BYTES", 8 * total // 2)):
        with monkeypatch.context() as m:
            m.setattr(counting, name, value)
            t = time.process_time()
            with pytest.raises(SessionFormatError) as e:
                cl.infer(setup, events)
            assert time.process_time() - t < 5
        msg = e.value.message
        assert e.value.path == "$.events"
        assert "GB of memory" in msg and "are allowed per refresh" in msg and "refutations" in msg

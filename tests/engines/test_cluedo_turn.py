"""The whole Cluedo turn (engines/cluedo/turn.py): the information of the room reached is
recommend's exact value, the ranking is by value, positions follow the log, the command line."""
import io
import json
from contextlib import redirect_stdout
from fractions import Fraction

import pytest

from engines.__main__ import main
from engines.cluedo.board import p_at_least, room_distances
from engines.cluedo.model import (
    PositionEvent,
    RollEvent,
    Setup,
    SuggestionEvent,
    event_from_json,
)
from engines.cluedo.parse import format_event, parse
from engines.cluedo.recommend import recommend
from engines.cluedo.turn import pawn_state, turn_advice
from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path
from engines.core.schema import read_session_file

EXAMPLE = str(resource_path("examples", "cluedo.json"))


def _run(*argv) -> tuple:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def test_cli_turn_information_equals_recommend_for_the_room_reached():
    s = read_session_file(EXAMPLE)
    code, text = _run("turn", EXAMPLE, "--roll", "7", "--opponents-seconds", "0")
    assert code == 0
    out = json.loads(text)
    assert out["roll"] == 7 and out["exact"] is True
    values = [m["value_bits"] for m in out["moves"]]
    assert values == sorted(values, reverse=True)
    rooms = [m for m in out["moves"] if m["room"] is not None]
    assert rooms, "a roll of 7 from the example's room reaches a room"
    for m in rooms:
        rec = recommend(s.setup, s.events, room=m["room"], opponents_seconds=0)
        bits = rec.suggestions[0][3]
        assert m["information_bits"] == pytest.approx(bits, abs=1e-9)
        assert m["suggestion"][2] == m["room"]
        # the suggestion named is one of the best in that room
        best = [t for t in rec.suggestions if abs(t[3] - bits) < 1e-9]
        assert tuple(m["suggestion"]) in {t[:3] for t in best}
        assert m["value_bits"] == pytest.approx(m["information_bits"] + m["next_turn_bits"])


def test_ranking_without_a_roll_uses_the_dice_law():
    s = read_session_file(EXAMPLE)
    adv = turn_advice(s.setup, s.events, at="Hall")
    assert adv.roll is None and adv.dice == 2
    dist = room_distances(adv_board(), "Hall")
    for m in adv.moves:
        if m.to in dist:
            assert m.p_reach == pytest.approx(float(p_at_least(2, dist[m.to])))
            assert m.steps == dist[m.to]
    # the best plan is worth no more than rolling and then choosing the best move for the roll
    plans = [m.value_bits for m in adv.moves if m.to not in ("passage", "stay")]
    assert max(plans) <= adv.roll_value_bits + 1e-9


def adv_board():
    from engines.cluedo.board import load_boards
    return load_boards()[0]["classic"]


def test_rooms_out_of_reach_are_not_moves_and_squares_head_somewhere():
    s = read_session_file(EXAMPLE)
    adv = turn_advice(s.setup, s.events, at="Study", roll=2)
    assert all(m.room in (None, "Kitchen") for m in adv.moves)   # 2 steps reach no room; passage
    assert any(m.to == "passage" and m.room == "Kitchen" for m in adv.moves)
    squares = [m for m in adv.moves if m.room is None]
    assert squares and all(m.steps == 2 and m.towards for m in squares)


def test_positions_follow_the_log_and_a_suggestion_pulls_a_pawn():
    setup = Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me",
                             "pawns": {"Me": "Mrs White", "Ann": "Miss Scarlett"}})
    st = pawn_state(setup, [], _eb(setup))
    assert st.positions == {"Me": (0, 9), "Ann": (24, 7)}
    evs = [PositionEvent(player="Me", at="Hall"),
           SuggestionEvent(suggester="Bob", cards=("Mrs White", "Rope", "Lounge"), passed=(), refuter="Ann",
                           shown=None)]
    st = pawn_state(setup, evs, _eb(setup))
    assert st.positions["Me"] == "Lounge" and "Me" in st.pulled
    adv = turn_advice(setup, evs, roll=4)
    assert any(m.to == "stay" and m.room == "Lounge" for m in adv.moves)
    assert any(m.to == "passage" and m.room == "Conservatory" for m in adv.moves)
    # my own suggestion naming Ann's suspect pulls Ann
    st = pawn_state(setup, evs + [RollEvent(player="Me", total=4)], _eb(setup))
    assert st.roll == 4
    adv = turn_advice(setup, evs + [RollEvent(player="Me", total=4)])
    assert adv.roll == 4
    for m in adv.moves:
        if m.suggestion and m.suggestion[0] == "Miss Scarlett":
            assert m.pulls == {"player": "Ann", "suspect": "Miss Scarlett", "from": [24, 7]}
        elif m.suggestion:
            assert m.pulls is None


def _eb(setup):
    from engines.cluedo.board import edition_board
    return edition_board(setup)


def test_other_pawns_block_corridor_squares():
    setup = Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me"})
    free = turn_advice(setup, [PositionEvent(player="Me", at="Study")], roll=4)
    assert any(m.room == "Hall" for m in free.moves)
    # Ann on the square in front of the Study's only door: only the passage is left
    blocked = turn_advice(setup, [PositionEvent(player="Me", at="Study"), PositionEvent(player="Ann", at=(20, 17))],
                          roll=4)
    assert {m.to for m in blocked.moves} == {"passage"}


def test_no_board_no_advice_and_bad_input():
    custom = Setup.from_json({"categories": {"suspect": ["a", "b"], "weapon": ["c", "d"],
                                             "room": ["e", "f"]}, "players": ["A", "B"], "me": "A"})
    with pytest.raises(SessionFormatError, match="no board"):
        turn_advice(custom, [], at="e")
    s = read_session_file(EXAMPLE)
    with pytest.raises(SessionFormatError, match="roll 2 to 12"):
        turn_advice(s.setup, s.events, roll=13)
    code, _ = _run("turn", EXAMPLE, "--at", "3,3", "--opponents-seconds", "0")
    assert code == 2
    code, _ = _run("turn", EXAMPLE, "--at", "attic", "--opponents-seconds", "0")
    assert code == 2
    fresh = Setup.from_json({"edition": "cluedo-uk", "players": ["Me", "Ann", "Bob"], "me": "Me"})
    with pytest.raises(SessionFormatError, match="where is your pawn"):
        turn_advice(fresh, [])


def test_position_and_roll_events_round_trip_and_leave_old_files_alone():
    s = read_session_file(EXAMPLE)
    with open(EXAMPLE, encoding="utf-8") as fh:
        raw = json.load(fh)
    assert s.setup.to_json() == raw["setup"]       # no new keys in an old session's setup
    for text, obj in [("Ann at lounge", {"type": "position", "player": "Ann", "at": "Lounge"}),
                      ("Ann at 17 3", {"type": "position", "player": "Ann", "at": [17, 3]}),
                      ("roll 8", {"type": "roll", "player": "Me", "total": 8})]:
        ev = parse(s.setup, s.events, text)
        assert ev.to_json() == obj
        assert event_from_json(obj, s.setup) == ev
        assert parse(s.setup, s.events, format_event(s.setup, ev)) == ev
    # the cards' beliefs ignore pawns and dice
    from engines.cluedo.inference import infer
    base = infer(s.setup, s.events).matrix
    more = infer(s.setup, list(s.events) + [PositionEvent(player="Ann", at="Hall"),
                                            RollEvent(player="Me", total=5)]).matrix
    assert (base == more).all()


def test_within_two_turn_probability_is_a_probability():
    from engines.cluedo.board import p_reach_within_two
    two = p_reach_within_two(adv_board(), "Lounge", 1)
    assert two["Conservatory"] == 1 and all(Fraction(0) < p <= 1 for p in two.values())

"""The Cluedo board data and movement (engines/cluedo/board.py): the data against its schema and
the loader's checks, distances against a table read off the board data and against facts of
the board picture, reach by roll against a brute-force walk on the grid, probabilities against
enumeration of the dice."""
import copy
import itertools
import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.cluedo.board import (
    boards_from_json,
    edition_board,
    end_squares,
    end_squares_by_roll,
    load_boards,
    p_at_least,
    p_reach,
    p_reach_within_two,
    reach,
    roll_distribution,
    room_distances,
    shortest_path,
)
from engines.cluedo.model import Setup
from engines.core.errors import SessionFormatError
from engines.core.resources import load_json_resource, resource_path

BOARD = load_boards()[0]["classic"]
ROOMS = BOARD.rooms
ABBR = {"K": "Kitchen", "B": "Ballroom", "C": "Conservatory", "D": "Dining Room",
        "R": "Billiard Room", "L": "Library", "O": "Lounge", "H": "Hall", "S": "Study"}

# Fewest steps door to door (leaving a room is a step, entering one is a step), read off
# resources/cluedo/boards.json once (by running room_distances) and checked by hand for the
# short ones (DISTANCES_BY_HAND); a change of the board data must change this table on purpose.
TABLE = {
    #     K   B   C   D   R   L   O   H   S
    "K": [0, 7, 20, 11, 17, 23, 19, 19, 28],
    "B": [7, 0, 4, 7, 6, 12, 15, 13, 17],
    "C": [20, 4, 0, 19, 7, 14, 27, 20, 20],
    "D": [11, 7, 19, 0, 14, 14, 4, 8, 17],
    "R": [17, 6, 7, 14, 0, 4, 22, 15, 15],
    "L": [23, 12, 14, 14, 4, 0, 14, 7, 7],
    "O": [19, 15, 27, 4, 22, 14, 0, 8, 17],
    "H": [19, 13, 20, 8, 15, 7, 8, 0, 4],
    "S": [28, 17, 20, 17, 15, 7, 17, 4, 0],
}
# Counted square by square on the grid (row, col):
DISTANCES_BY_HAND = {
    # Dining Room's south door (15,6) -> out to (16,6) 1, (17,6) 2, (18,6) 3, into the Lounge 4
    ("Dining Room", "Lounge"): 4,
    # Hall's east door (20,14) -> (20,15) 1, (20,16) 2, (20,17) 3, into the Study 4
    ("Hall", "Study"): 4,
    # Ballroom's east door (5,15) -> (5,16) 1, (5,17) 2, (5,18) 3, into the Conservatory 4
    ("Ballroom", "Conservatory"): 4,
    # Billiard Room's south door (12,22) -> (13,22) 1, (13,21) 2, (13,20) 3, into the Library 4
    ("Billiard Room", "Library"): 4,
    # Kitchen's door (6,4) -> (7,4) 1, (7,5) 2, (7,6) 3, (7,7) 4, (6,7) 5, (5,7) 6, Ballroom 7
    ("Kitchen", "Ballroom"): 7,
}


def test_board_file_matches_its_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resource_path("cluedo", "boards.schema.json").read_text(encoding="utf-8"))
    data = load_json_resource("cluedo", "boards.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    bad = copy.deepcopy(data)
    bad["editions"]["cluedo-uk"]["dice"] = 3
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema, cls=jsonschema.Draft202012Validator)


def test_classic_board_shape():
    assert (BOARD.n_rows, BOARD.n_cols) == (25, 24)
    assert set(ROOMS) == set(ABBR.values())
    assert BOARD.passages == {"Kitchen": "Study", "Study": "Kitchen", "Conservatory": "Lounge",
                              "Lounge": "Conservatory"}
    assert len(BOARD.starts) == 6 and all(sq in BOARD.corridor for sq in BOARD.starts.values())
    # the cellar is in the middle and is not a room
    assert BOARD.rows[12][12] == "X" and BOARD.room_at((12, 12)) is None
    # the four corner rooms are the ones with passages
    corners = {BOARD.room_at((1, 0)), BOARD.room_at((1, 23)), BOARD.room_at((23, 0)),
               BOARD.room_at((23, 23))}
    assert corners == set(BOARD.passages)
    for ed in ("cluedo-uk", "clue-us", "clue-orchid"):
        eb = load_boards()[1][ed]
        rooms = Setup.from_json({"edition": ed, "players": ["A", "B", "C"], "me": "A"}).categories[2][1]
        assert set(rooms) == set(ROOMS)
        suspects = Setup.from_json({"edition": ed, "players": ["A", "B", "C"], "me": "A"}).categories[0][1]
        assert {eb.start_of(s) for s in suspects} == set(BOARD.starts.values())


@pytest.mark.parametrize("mutate, path, words", [
    (lambda b: b["doors"][0].update(door=[7, 4]), "doors[0].door", "not a square of the Kitchen"),
    (lambda b: b["doors"][0].update(outside=[7, 5]), "doors[0].outside", "not one square S"),
    (lambda b: b["doors"][0].update(outside=[3, 3], door=[4, 3], direction="N"), "doors[0].outside",
     "not a corridor square"),
    (lambda b: b["rows"].__setitem__(3, b["rows"][3][:5] + "?" + b["rows"][3][6:]), "rows[3]", "legend"),
    (lambda b: b["rows"].__setitem__(3, b["rows"][3][:-1]), "rows[3]", "24 characters"),
    (lambda b: b["passages"].append({"rooms": ["Hall", "Kitchen"], "source": "x"}), "passages[2].rooms",
     "at most one"),
    (lambda b: b.__setitem__("doors", [d for d in b["doors"] if d["room"] != "Study"]), "doors",
     "the Study has no door"),
    (lambda b: b["starts"][0].update(square=[3, 3]), "starts[0].square", "not a corridor"),
])
def test_loader_names_what_is_wrong(mutate, path, words):
    data = load_json_resource("cluedo", "boards.json")
    mutate(data["boards"]["classic"])
    with pytest.raises(SessionFormatError) as e:
        boards_from_json(data, "boards.json")
    assert path in str(e.value) and words in str(e.value)


def test_every_door_reaches_every_other_room():
    for room in ROOMS:
        for door in BOARD.doors_of(room):
            # leaving by this door alone (the others blocked), every other room is reachable
            others = [d.outside for d in BOARD.doors_of(room) if d != door]
            dist = room_distances(BOARD, room, blocked=others)
            assert set(dist) == set(ROOMS) - {room}, (room, door)
    for colour, sq in BOARD.starts.items():
        assert set(room_distances(BOARD, sq)) == set(ROOMS), colour


def test_distances_table_read_off_the_board():
    keys = list(ABBR)
    for a in keys:
        dist = room_distances(BOARD, ABBR[a])
        for b, want in zip(keys, TABLE[a]):
            if a != b:
                assert dist[ABBR[b]] == want, (a, b)
    for (a, b), want in DISTANCES_BY_HAND.items():
        assert room_distances(BOARD, a)[b] == want
    # symmetric (moves are reversible)
    for a, b in itertools.permutations(ROOMS, 2):
        assert room_distances(BOARD, a)[b] == room_distances(BOARD, b)[a]
    # a move cannot pass through a room (entering ends it): on foot the Kitchen is 20 from the
    # Conservatory, though the Ballroom between them is 7 + 4 away over two turns
    d = {r: room_distances(BOARD, r) for r in ROOMS}
    assert d["Kitchen"]["Conservatory"] == 20 > d["Kitchen"]["Ballroom"] + d["Ballroom"]["Conservatory"]


def test_facts_of_the_board_picture():
    d = {r: room_distances(BOARD, r) for r in ROOMS}
    # the passages join the rooms that are farthest apart on foot
    far = max(((d[a][b], a, b) for a, b in itertools.combinations(ROOMS, 2)))
    assert {far[1], far[2]} == {"Kitchen", "Study"}
    assert d["Conservatory"]["Lounge"] >= 25 and d["Kitchen"]["Study"] >= 25
    # neighbours on the picture are one good roll apart; a corner room's passage is 0 steps
    for a, b in [("Kitchen", "Ballroom"), ("Ballroom", "Conservatory"), ("Dining Room", "Lounge"),
                 ("Hall", "Study"), ("Billiard Room", "Library"), ("Lounge", "Hall")]:
        assert d[a][b] <= 8, (a, b)
    assert reach(BOARD, "Kitchen", 2)["Study"] == 0
    # the Ballroom has four doors, the Hall three, every other room one or two
    assert len(BOARD.doors_of("Ballroom")) == 4 and len(BOARD.doors_of("Hall")) == 3


def test_shortest_path_is_a_walk_of_the_distance():
    for a, b in itertools.permutations(ROOMS, 2):
        path = shortest_path(BOARD, a, b)
        assert len(path) + 1 == room_distances(BOARD, a)[b]
        assert path[0] in {d.outside for d in BOARD.doors_of(a)}
        assert path[-1] in {d.outside for d in BOARD.doors_of(b)}
        assert len(set(path)) == len(path)
        for p, q in itertools.pairwise(path):
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1 and q in BOARD.corridor
    for sq in [(16, 9), (8, 9), (24, 7), (0, 14)]:        # from a square: the square comes first
        for room, k in room_distances(BOARD, sq).items():
            path = shortest_path(BOARD, sq, room)
            assert path[0] == sq and len(path) == k


# ---------------------------------------------------------------------------------------------
# brute force: every sequence of directions
# ---------------------------------------------------------------------------------------------
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def brute_force(start, roll, blocked):
    """Every sequence of ``roll`` directions (4^roll; a room start first picks its door) walked by
    the rules on the raw grid: returns (rooms entered, squares where a full walk ends)."""
    doors = {(d.outside, d.door): d.room for d in BOARD.doors}
    rooms, ends = set(), set()
    if isinstance(start, str):
        firsts = [(d.outside, 1) for d in BOARD.doors_of(start) if d.outside not in blocked]
    else:
        firsts = [(start, 0)]
    for sq0, used in firsts:
        for seq in itertools.product(STEPS, repeat=roll - used):
            sq, seen = sq0, {sq0}
            for _k, (dr, dc) in enumerate(seq):
                q = (sq[0] + dr, sq[1] + dc)
                room = doors.get((sq, q))
                if room is not None and room != start:
                    rooms.add(room)
                    break
                if q not in BOARD.corridor or q in seen or q in blocked:
                    break
                sq = q
                seen.add(q)
            else:
                ends.add(sq)
            if roll - used == 0:
                ends.add(sq0)
    return rooms, ends


CORRIDOR = sorted(BOARD.corridor)


@st.composite
def starts_and_blocks(draw):
    start = draw(st.one_of(st.sampled_from(CORRIDOR), st.sampled_from(ROOMS)))
    roll = draw(st.integers(1, 7))
    blocked = frozenset(draw(st.lists(st.sampled_from(CORRIDOR), max_size=5))) - {start}
    return start, roll, blocked


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(starts_and_blocks())
def test_reach_by_roll_matches_a_brute_force_walk(case):
    start, roll, blocked = case
    rooms, ends = brute_force(start, roll, blocked)
    got = reach(BOARD, start, roll, blocked)
    passage = {BOARD.passages[start]} if isinstance(start, str) and start in BOARD.passages else set()
    assert set(got) - passage == rooms
    assert end_squares(BOARD, start, roll, blocked) == ends
    # entering a room needs at most the roll; one step fewer than the distance does not reach it
    for r, k in room_distances(BOARD, start, blocked).items():
        assert (r in rooms) == (k <= roll)


def test_dice_laws_are_exact():
    assert roll_distribution(1) == {n: Fraction(1, 6) for n in range(1, 7)}
    two = roll_distribution(2)
    assert sum(two.values()) == 1 and two[7] == Fraction(6, 36) and two[2] == Fraction(1, 36)
    assert p_at_least(2, 4) == Fraction(33, 36) and p_at_least(1, 7) == 0
    with pytest.raises(SessionFormatError):
        roll_distribution(3)


@pytest.mark.parametrize("dice", [1, 2])
@pytest.mark.parametrize("start", ["Study", "Ballroom", (16, 9), (8, 9), (24, 7)])
def test_reach_probabilities_against_the_dice(dice, start):
    faces = list(itertools.product(range(1, 7), repeat=dice))
    got = p_reach(BOARD, start, dice)
    for room in ROOMS:
        hits = sum(1 for f in faces if room in reach(BOARD, start, sum(f)))
        assert got.get(room, Fraction(0)) == Fraction(hits, len(faces)), room
    two = p_reach_within_two(BOARD, start, dice)
    for room, p in got.items():
        assert two[room] >= p
    assert all(0 < p <= 1 for p in two.values())


@pytest.mark.parametrize("start", ["Ballroom", (16, 9), "Kitchen", (20, 20)])
def test_within_two_turns_against_enumeration(start):
    """Brute force: every first roll, every place the roll can leave me (rooms, the exact end
    squares found by walking, the passage), then next turn's chance from there; the best."""
    dice = 2
    law = roll_distribution(dice)

    def next_turn(pos, room):
        if pos == room:
            return Fraction(1)
        if isinstance(pos, str) and BOARD.passages.get(pos) == room:
            return Fraction(1)
        k = room_distances(BOARD, pos).get(room)
        return p_at_least(dice, k) if k is not None else Fraction(0)

    ends = end_squares_by_roll(BOARD, start, 12)
    got = p_reach_within_two(BOARD, start, dice)
    for room in ROOMS:
        if room == start:
            continue
        total = Fraction(0)
        for n1, p1 in law.items():
            options = list(reach(BOARD, start, n1)) + sorted(ends[n1])
            total += p1 * max((next_turn(o, room) for o in options), default=Fraction(0))
        if isinstance(start, str) and start in BOARD.passages:
            total = max(total, next_turn(BOARD.passages[start], room))
        assert got.get(room, Fraction(0)) == total, room


def test_edition_board_and_dice_override():
    uk = Setup.from_json({"edition": "cluedo-uk", "players": ["A", "B", "C"], "me": "A"})
    assert edition_board(uk).dice == 2
    us = Setup.from_json({"edition": "clue-us", "players": ["A", "B", "C"], "me": "A"})
    assert edition_board(us).dice == 1
    two = Setup.from_json({"edition": "clue-us", "players": ["A", "B", "C"], "me": "A", "dice": 2})
    assert edition_board(two).dice == 2 and two.to_json()["dice"] == 2
    custom = Setup.from_json({"categories": {"suspect": ["a", "b"], "weapon": ["c", "d"],
                                             "room": ["e", "f"]}, "players": ["A", "B"], "me": "A"})
    assert edition_board(custom) is None
    md = Setup.from_json({"edition": "clue-master-detective", "players": ["A", "B", "C"], "me": "A"})
    assert edition_board(md) is None

"""The classic board against an independent encoding of a printed board: L. H. de O. Santos,
"Clue in Prolog — A Didactic Example" (GitHub lhsantos/clue, 2016, Apache-2.0), which encodes
the board of Hasbro's *Clue* (2002 printing, the classic layout) as a 24 x 25 grid read off a
photograph of the board: blocked squares, the 17 squares a room is entered from, the passages
and the six starting squares (docs/references-board.md).

Its coordinates are (x, y) from the lower left corner with the Conservatory there: the board
turned half round from ours (row 0 at the Kitchen's side, the Kitchen top left), so our
(row, column) = (y, 23 - x). The facts below are that encoding's, converted so; the distances
were computed once from its grid with our movement rule (leaving a room is one step, entering
one is one step, no passing through a room) — they are the outside reference, not read off our
data. The two encodings differ in four dead-end edge squares (docs/references-board.md), which
change no distance between rooms.
"""
from engines.cluedo.board import load_boards, room_distances

ROOMS = ("Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library", "Lounge",
         "Hall", "Study")

# the squares a room is entered from, (row, column) in our orientation
SANTOS_DOORS = {
    "Kitchen": {(7, 4)},
    "Ballroom": {(5, 7), (5, 16), (8, 9), (8, 14)},
    "Conservatory": {(5, 18)},
    "Dining Room": {(12, 8), (16, 6)},
    "Billiard Room": {(9, 17), (13, 22)},
    "Library": {(13, 20), (16, 16)},
    "Lounge": {(18, 6)},
    "Hall": {(17, 11), (17, 12), (20, 15)},
    "Study": {(20, 17)},
}

SANTOS_STARTS = {"red": (24, 7), "yellow": (17, 0), "white": (0, 9), "green": (0, 14),
                 "blue": (6, 23), "purple": (19, 23)}

# fewest steps from room to room on that grid, in the order of ROOMS
SANTOS_DISTANCES = (
    (0, 7, 20, 11, 17, 23, 19, 19, 28),
    (7, 0, 4, 7, 6, 12, 15, 13, 17),
    (20, 4, 0, 19, 7, 14, 27, 20, 20),
    (11, 7, 19, 0, 14, 14, 4, 8, 17),
    (17, 6, 7, 14, 0, 4, 22, 15, 15),
    (23, 12, 14, 14, 4, 0, 14, 7, 7),
    (19, 15, 27, 4, 22, 14, 0, 8, 17),
    (19, 13, 20, 8, 15, 7, 8, 0, 4),
    (28, 17, 20, 17, 15, 7, 17, 4, 0),
)


def _board():
    return load_boards()[0]["classic"]


def test_doors_are_those_of_the_printed_board():
    board = _board()
    ours: dict = {}
    for d in board.doors:
        ours.setdefault(d.room, set()).add(tuple(d.outside))
    assert ours == SANTOS_DOORS


def test_starting_squares_are_those_of_the_printed_board():
    assert {c: tuple(q) for c, q in _board().starts.items()} == SANTOS_STARTS


def test_room_to_room_distances_equal_the_printed_boards():
    board = _board()
    for i, a in enumerate(ROOMS):
        dist = room_distances(board, a)
        got = tuple(0 if b == a else dist[b] for b in ROOMS)
        assert got == SANTOS_DISTANCES[i], a

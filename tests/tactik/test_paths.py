"""The path rule (``tikigames.tactik.paths``) on hand-computed cases from the rules file.

Squares are written by name (``t60``, ``h0.1``) and converted with the board's geometry. On the
4-colour board (4 players, and the 2-player variant) the track is t0 … t63, colour c starting at
t(16·c); on the 6-colour board it is t0 … t95. Home square 1 lies one step past the colour's own
start square, the start square counting as a step on the way in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from tikigames.tactik.data import PAWNS, geometry
from tikigames.tactik.paths import (
    back_bars,
    back_dest,
    entered,
    forward_bars,
    forward_dest,
    forward_entries,
    forward_rows,
    occupancy,
    seven_after,
    seven_feasible,
    seven_moves,
    seven_offsets,
)


def square(colours: int, name: str) -> int:
    return geometry(colours).names.index(name)


def name(colours: int, number: int) -> str | None:
    return None if number < 0 else geometry(colours).names[number]


def mask(bits: Iterable[int]) -> int:
    return sum(1 << bit for bit in bits)


def forward(
    colours: int,
    pawn: str,
    steps: int,
    colour: int,
    pieux: Iterable[int] = (),
    home: Iterable[int] = (),
) -> str | None:
    """Where colour ``colour``'s pawn on ``pawn`` lands after ``steps`` (``None``: it cannot
    move), with pieux on the start squares of ``pieux`` and the colour's home squares ``home``
    (1–4) occupied."""
    track = geometry(colours).track
    home_bits = mask(k - 1 for k in home)
    x = square(colours, pawn)
    return name(colours, forward_dest(track, colours, x, steps, colour, mask(pieux), home_bits))


def back(colours: int, pawn: str, pieux: Iterable[int] = ()) -> str | None:
    track = geometry(colours).track
    return name(colours, back_dest(track, square(colours, pawn), mask(pieux)))


# ----------------------------------------------------------------------------- home entry


@pytest.mark.parametrize(
    ("pawn", "steps", "colour", "landing"),
    [
        ("t63", 2, 0, "h0.1"),  # t63 → t0 (a step) → h0.1
        ("t63", 5, 0, "h0.4"),
        ("t15", 2, 1, "h1.1"),  # from t(16·s − 1): 2 steps reach h{s}.1, 5 reach h{s}.4
        ("t15", 5, 1, "h1.4"),
        ("t31", 5, 2, "h2.4"),
        ("t60", 5, 0, "h0.1"),  # d = 4 < 5 ≤ 8
        ("t60", 8, 0, "h0.4"),
        ("t0", 1, 0, "h0.1"),  # an ordinary pawn on its own start square: d = 0
        ("t0", 4, 0, "h0.4"),
        ("t62", 3, 0, "h0.1"),  # back past the start with -4, then a small move in
    ],
)
def test_a_pawn_enters_its_home_when_it_can(
    pawn: str, steps: int, colour: int, landing: str
) -> None:
    assert forward(4, pawn, steps, colour) == landing


@pytest.mark.parametrize(
    ("pawn", "steps", "landing"),
    [
        ("t60", 3, "t63"),  # d = 4 ≥ 3: not yet at the home
        ("t60", 4, "t0"),  # d = 4: lands on its own start square
        ("t60", 9, "t5"),  # 9 > d + 4: overshoots the home, round the track
        ("t60", 12, "t8"),
        ("t63", 6, "t5"),  # d = 1, 6 > 5
        ("t0", 5, "t5"),  # d = 0, 5 > 4
    ],
)
def test_a_pawn_that_overshoots_its_home_goes_along_the_track(
    pawn: str, steps: int, landing: str
) -> None:
    assert forward(4, pawn, steps, 0) == landing


def test_an_occupied_home_square_on_the_way_sends_the_pawn_round() -> None:
    assert forward(4, "t60", 5, 0, home=[1]) == "t1"  # h0.1 is taken
    assert forward(4, "t60", 6, 0, home=[1]) == "t2"  # h0.2 lies past the pawn on h0.1
    assert forward(4, "t60", 6, 0, home=[3]) == "h0.2"  # h0.3 is beyond the landing square
    assert forward(4, "t60", 8, 0, home=[4]) == "t4"


def test_a_pawn_in_its_home_moves_further_in_over_empty_squares_only() -> None:
    assert forward(4, "h0.1", 2, 0, home=[1]) == "h0.3"
    assert forward(4, "h0.1", 3, 0, home=[1]) == "h0.4"
    assert forward(4, "h0.1", 4, 0, home=[1]) is None  # would leave the home
    assert forward(4, "h0.1", 2, 0, home=[1, 2]) is None  # passes h0.2
    assert forward(4, "h0.1", 2, 0, home=[1, 3]) is None  # lands on h0.3
    assert forward(4, "h0.2", 2, 0, home=[1, 2]) == "h0.4"  # a pawn behind does not matter
    assert forward(4, "h3.3", 1, 3, home=[3]) == "h3.4"


# ----------------------------------------------------------------------------- pieux


def test_a_pieu_blocks_every_pawn_that_would_pass_or_land_on_it() -> None:
    assert forward(4, "t60", 5, 3, pieux=[0]) is None  # yellow passing green's pieu on t0
    assert forward(4, "t60", 4, 3, pieux=[0]) is None  # landing on it
    assert forward(4, "t60", 3, 3, pieux=[0]) == "t63"  # stopping short of it
    assert forward(4, "t10", 6, 0, pieux=[1]) is None  # green passing red's pieu on t16
    assert forward(4, "t10", 5, 0, pieux=[1]) == "t15"
    assert forward(4, "t17", 12, 0, pieux=[1]) == "t29"  # a pieu behind does not matter
    assert forward(4, "t10", 6, 0, pieux=[2, 3]) == "t16"  # pieux elsewhere do not either


def test_a_pieu_blocks_its_own_colour_and_goes_once_round_first() -> None:
    assert forward(4, "t60", 5, 0, pieux=[0]) is None  # cannot cross its own pieu to go in
    assert forward(4, "t60", 9, 0, pieux=[0]) is None  # nor round past it
    assert forward(4, "t60", 3, 0, pieux=[0]) == "t63"
    assert forward(4, "t0", 1, 0, pieux=[0]) == "t1"  # the pieu itself: d = L, not home
    assert forward(4, "t0", 12, 0, pieux=[0]) == "t12"
    assert forward(4, "t0", 1, 0) == "h0.1"  # once it is an ordinary pawn it goes in


def test_back_four_onto_and_past_the_start_square() -> None:
    assert back(4, "t10") == "t6"
    assert back(4, "t4") == "t0"  # onto the (empty) start square
    assert back(4, "t2") == "t62"  # past it: it never enters a home
    assert back(4, "t0") == "t60"
    assert back(4, "t0", pieux=[0]) == "t60"  # a pieu may move back itself
    assert back(4, "t4", pieux=[0]) is None  # cannot land on a pieu
    assert back(4, "t2", pieux=[0]) is None  # nor pass one
    assert back(4, "t21", pieux=[1]) == "t17"  # red's pieu on t16 is not reached
    assert back(4, "t20", pieux=[1]) is None
    assert back(4, "t2", pieux=[1, 2, 3]) == "t62"  # other start squares do not matter


# ----------------------------------------------------------------------------- the seven


def test_the_squares_a_move_enters() -> None:
    track = 64
    assert list(entered(track, 5, 12, 7, 0)) == [6, 7, 8, 9, 10, 11]
    assert list(entered(track, 62, 3, 5, 1)) == [63, 0, 1, 2]  # wrapping round
    # Into the home: the track squares up to the start square, that one included.
    h03 = square(4, "h0.3")
    assert list(entered(track, 60, h03, 7, 0)) == [61, 62, 63, 0]
    assert list(entered(track, 0, square(4, "h0.2"), 2, 0)) == []  # from the start square
    assert list(entered(track, square(4, "h0.1"), square(4, "h0.3"), 2, 0)) == []


def test_a_sub_move_into_the_home_captures_on_the_start_square() -> None:
    track = 64
    h03 = square(4, "h0.3")
    # Green's pawns on t60 and t0 (ordinary); t60 + 7 goes in, passing t0: captured.
    assert seven_after(track, 0, (0, 60), 60, h03, 7, 0, True) == ((h03,), 0)
    assert seven_after(track, 0, (0, 60), 60, h03, 7, 0, False) == ((0, h03), 0)
    # A pieu that moves becomes ordinary (its bit is cleared); others' pieux stay.
    assert seven_after(track, 0, (0,), 0, 3, 3, mask([0, 2]), True) == ((3,), mask([2]))


def test_a_seven_must_use_all_its_steps() -> None:
    # A single pawn on t62: +3 … +6 would enter the home with steps a home pawn cannot use.
    assert seven_moves(64, 4, 0, (62,), 0, 7, True) == [(62, 1), (62, 2), (62, 7)]
    assert seven_moves(64, 4, 0, (62,), 0, 5, True) == [(62, n) for n in range(1, 6)]
    assert seven_feasible(64, 4, 0, (square(4, "h0.3"),), 0, 1, True, {})
    assert not seven_feasible(64, 4, 0, (square(4, "h0.3"),), 0, 2, True, {})
    assert seven_moves(64, 4, 0, (square(4, "h0.4"),), 0, 7, True) == []


def test_a_seven_splits_round_its_own_pieu() -> None:
    # Green's pieu on t0 and a pawn on t60: t60 may not reach or pass the pieu, the pieu
    # may move any number of steps (and then frees the way home).
    moves = seven_moves(64, 4, 0, (0, 60), mask([0]), 7, True)
    assert moves == [*((0, n) for n in range(1, 8)), (60, 1), (60, 2), (60, 3)]
    # After the pieu moved 3: t60 can go in (4 steps left: +1 … +4 all usable).
    assert seven_moves(64, 4, 0, (3, 60), 0, 4, True) == [
        *((3, n) for n in range(1, 5)),
        *((60, n) for n in range(1, 5)),
    ]


# ----------------------------------------------------------------------------- other boards


def test_the_six_colour_board() -> None:
    assert geometry(6).track == 96
    assert forward(6, "t95", 2, 0) == "h0.1"  # the track wraps at 96
    assert forward(6, "t79", 2, 5) == "h5.1"  # colour 5 starts on t80
    assert forward(6, "t79", 5, 5) == "h5.4"
    assert forward(6, "t79", 6, 5) == "t85"
    assert forward(6, "t90", 12, 1) == "t6"
    assert forward(6, "t94", 3, 1, pieux=[0]) is None  # the next start after t80 is t0
    assert forward(6, "t94", 3, 1, pieux=[4]) == "t1"
    assert forward(6, "t62", 3, 2, pieux=[4]) is None  # t64 is colour 4's start on 6 colours
    assert forward(6, "t62", 3, 2, pieux=[3]) == "t65"  # colour 3 starts on t48 there
    assert back(6, "t2") == "t94"
    assert back(6, "t82", pieux=[5]) is None
    h03 = square(6, "h0.3")
    assert forward(6, "t94", 5, 0) == "h0.3"
    assert list(entered(96, 94, h03, 5, 0)) == [95, 0]


def test_the_two_player_variant_uses_the_four_colour_board() -> None:
    # Player 0 plays green (0) and blue (2): each colour follows its own start square.
    assert forward(4, "t31", 2, 2) == "h2.1"
    assert forward(4, "t31", 2, 0) == "t33"
    assert forward(4, "t31", 2, 0, pieux=[2]) is None
    assert back(4, "t34", pieux=[2]) is None


# ----------------------------------------------------------------------------- the move tables


@pytest.mark.parametrize("colours", [4, 6])
def test_the_bar_tables_say_exactly_when_forward_dest_and_back_dest_refuse(colours: int) -> None:
    """Move generation reads ``forward_bars``/``forward_rows`` and ``back_bars`` instead of
    calling the path rule: on every square, distance, pieux and home (all of them on the
    4-colour board, a sample on the 6-colour one), they refuse exactly what it refuses, and
    ``forward_entries`` names the home square it lands on."""
    geo = geometry(colours)
    track, squares = geo.track, geo.squares
    bars, rows, entries = forward_bars(colours), forward_rows(colours), forward_entries(colours)
    rng = random.Random(colours)
    every = colours == 4
    for c in range(colours):
        homes = range(track + PAWNS * c, track + PAWNS * (c + 1))
        for x in [*range(track), *homes]:
            for n in range(1, 14):
                pieux_all = range(1 << colours) if every else rng.sample(range(1 << colours), 6)
                for pieux in pieux_all:
                    for home in range(1 << PAWNS):
                        if x >= track and not home >> (x - homes[0]) & 1:
                            continue  # a pawn in its home occupies its square
                        y = forward_dest(track, colours, x, n, c, pieux, home)
                        barred = occupancy(pieux, home) & bars[c][16 * x + n]
                        assert (y < 0) == bool(barred), (c, x, n, pieux, home)
                        assert rows[c][n][x] == bars[c][16 * x + n]
                        if y >= track and x < track:
                            assert y == track + PAWNS * c + entries[c][16 * x + n] - 1
    for x in range(squares):
        for pieux in range(1 << colours):
            y = back_dest(track, x, pieux) if x < track else -1
            assert (y < 0) == bool(occupancy(pieux, 0) & back_bars(colours)[x])


def reference_seven_moves(
    track: int, colours: int, c: int, pawns: tuple[int, ...], pieux: int, r: int, passed: bool
) -> list[tuple[int, int]]:
    """The seven's rule as written: every sub-move the path rule allows after which the rest
    can still be used."""
    home = sum(1 << (x - track - PAWNS * c) for x in pawns if x >= track)
    moves = []
    for x in pawns:
        for n in range(1, r + 1):
            y = forward_dest(track, colours, x, n, c, pieux, home)
            if y < 0:
                continue
            if n < r:
                after, after_pieux = seven_after(track, c, pawns, x, y, n, pieux, passed)
                if not seven_feasible(track, colours, c, after, after_pieux, r - n, passed, {}):
                    continue
            moves.append((x, n))
    return moves


def test_the_seven_moves_are_those_of_the_rule_as_written() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        colours = rng.choice((4, 6))
        track = 16 * colours
        c = rng.randrange(colours)
        start = c << 4
        home = list(range(track + PAWNS * c, track + PAWNS * (c + 1)))
        near = [(start - d) % track for d in range(20)] + home  # where the rule is intricate
        pool = near if rng.random() < 0.7 else list(range(track)) + home
        pawns = tuple(sorted(rng.sample(pool, rng.randint(1, 4))))
        pieux = rng.getrandbits(colours) & ~(1 << c)
        if start in pawns and rng.random() < 0.5:
            pieux |= 1 << c
        r, passed = rng.randint(1, 7), rng.random() < 0.5
        expected = reference_seven_moves(track, colours, c, pawns, pieux, r, passed)
        assert seven_moves(track, colours, c, pawns, pieux, r, passed) == expected
        offsets = seven_offsets(track, colours, c, pawns, pieux, r, passed)
        assert offsets == [7 * x + n - 1 for x, n in expected]

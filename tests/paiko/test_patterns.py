"""Every tile's threat and cover pattern, in all four facings, written out by hand."""

from __future__ import annotations

import pytest

from tikigames.paiko.data import (
    COORDS,
    COVER,
    FACED,
    SQUARE_INDEX,
    THREAT,
    TILE_INDEX,
    TILES,
    kind_of,
    rotate,
)
from tikigames.paiko.render import pattern_diagram

Offsets = set[tuple[int, int]]

EIGHT = {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {(0, 0)}
KNIGHT = {(-1, -2), (1, -2), (-2, -1), (2, -1), (-2, 1), (2, 1), (-1, 2), (1, 2)}
ORTHOGONAL = {(0, -1), (1, 0), (0, 1), (-1, 0)}
DIAGONAL = {(-1, -1), (1, -1), (-1, 1), (1, 1)}

# (threat, cover) for facings N, E, S, W: N is toward rank 14 (−y), E toward file n (+x).
EXPECTED: dict[str, list[tuple[Offsets, Offsets]]] = {
    "sai": [
        ({(0, -1)}, {(-1, 0), (1, 0)}),
        ({(1, 0)}, {(0, -1), (0, 1)}),
        ({(0, 1)}, {(-1, 0), (1, 0)}),
        ({(-1, 0)}, {(0, -1), (0, 1)}),
    ],
    "sword": [(EIGHT, set())] * 4,
    "bow": [
        ({(0, -2), (0, -3), (0, -4)}, set()),
        ({(2, 0), (3, 0), (4, 0)}, set()),
        ({(0, 2), (0, 3), (0, 4)}, set()),
        ({(-2, 0), (-3, 0), (-4, 0)}, set()),
    ],
    "lotus": [(set(), EIGHT | {(0, 0)})] * 4,
    "air": [(KNIGHT, set())] * 4,
    "fire": [
        ({(dx, -2) for dx in range(-2, 3)} | {(dx, -1) for dx in (-1, 0, 1)} | {(0, 0)}, set()),
        ({(2, dy) for dy in range(-2, 3)} | {(1, dy) for dy in (-1, 0, 1)} | {(0, 0)}, set()),
        ({(dx, 2) for dx in range(-2, 3)} | {(dx, 1) for dx in (-1, 0, 1)} | {(0, 0)}, set()),
        ({(-2, dy) for dy in range(-2, 3)} | {(-1, dy) for dy in (-1, 0, 1)} | {(0, 0)}, set()),
    ],
    "earth": [({(0, 1), (0, 2), (0, -1), (0, -2), (1, 0), (2, 0), (-1, 0), (-2, 0)}, set())] * 4,
    "water": [(DIAGONAL, ORTHOGONAL)] * 4,
}

#: g8, far enough from every edge for the Bow's reach of 4 and the Air's knight moves.
CENTRE = SQUARE_INDEX["g8"]


def offsets(squares: tuple[int, ...], origin: int) -> Offsets:
    ox, oy = COORDS[origin]
    return {(COORDS[s][0] - ox, COORDS[s][1] - oy) for s in squares}


@pytest.mark.parametrize("tile", TILES)
@pytest.mark.parametrize("facing", range(4))
def test_pattern_in_each_facing(tile: str, facing: int) -> None:
    kind = kind_of(TILE_INDEX[tile], facing)
    threat, cover = EXPECTED[tile][facing]
    assert offsets(THREAT[kind][CENTRE], CENTRE) == threat
    assert offsets(COVER[kind][CENTRE], CENTRE) == cover


def test_only_sai_bow_and_fire_depend_on_their_facing() -> None:
    for tile in TILES:
        patterns = {(frozenset(t), frozenset(c)) for t, c in EXPECTED[tile]}
        assert (len(patterns) > 1) == FACED[TILE_INDEX[tile]]


def test_rotation_rule() -> None:
    # E maps (dx, dy) to (−dy, dx), S to (−dx, −dy), W to (dy, −dx).
    assert [rotate(1, -2, f) for f in range(4)] == [(1, -2), (2, 1), (-1, 2), (-2, -1)]


def test_patterns_drop_squares_off_the_board() -> None:
    corner = SQUARE_INDEX["g14"]  # the top corner
    assert THREAT[kind_of(TILE_INDEX["bow"], 0)][corner] == ()
    assert offsets(THREAT[kind_of(TILE_INDEX["bow"], 2)][corner], corner) == {
        (0, 2), (0, 3), (0, 4),
    }  # fmt: skip
    assert offsets(COVER[kind_of(TILE_INDEX["lotus"], 0)][corner], corner) == {
        (0, 0), (1, 0), (0, 1), (-1, 1), (1, 1),
    }  # fmt: skip
    # Black squares are threatened and covered like any other: the Sword on g8 reaches h8 and g7.
    sword = THREAT[kind_of(TILE_INDEX["sword"], 0)][CENTRE]
    assert SQUARE_INDEX["h8"] in sword and SQUARE_INDEX["g7"] in sword


def test_pattern_diagrams() -> None:
    assert pattern_diagram("fire") == "x x x x x\n. x x x .\n. . F . ."
    assert pattern_diagram("fire", "W") == "x . .\nx x .\nx x F\nx x .\nx . ."
    assert pattern_diagram("water") == "x o x\no W o\nx o x"
    assert pattern_diagram("bow", "E") == "B . x x x"
    assert pattern_diagram("sai") == ". x .\no S o"
    assert pattern_diagram("lotus") == "o o o\no L o\no o o"

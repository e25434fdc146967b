"""The incremental maps of :mod:`tikigames.paiko.maps` against a recount from the board.

The recount below reads the rules file literally: each tile's pattern is its offsets facing N
turned to its facing (not the engine's precomputed tables), threat counts the opponent's tiles
and the player's own Fires, cover does not add up. Random games then compare every map after
every apply and every undo, and a few positions from the rules file are checked by hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tikigames
from tikigames.paiko import PaikoState
from tikigames.paiko.data import (
    BIT,
    COORDS,
    COVER_OFFSETS,
    FACINGS,
    FIRE,
    HOME,
    NUM_SQUARES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    THREAT_OFFSETS,
    TILE_INDEX,
    rotate,
    square_at,
)
from tikigames.paiko.maps import BLOCKED, PaikoMaps

Board = dict[int, int]  # square -> player << 5 | tile << 2 | facing


def pattern(offsets: tuple[tuple[int, int], ...], square: int, facing: int) -> set[int]:
    x, y = COORDS[square]
    found = (square_at(x + dx, y + dy) for dx, dy in (rotate(*o, facing) for o in offsets))
    return {s for s in found if s >= 0}


def recount(board: Board) -> PaikoMaps:
    """Every map of ``board``, from scratch."""
    against = [[0] * NUM_SQUARES for _ in range(2)]
    cover = [[int(HOME[p][s]) for s in range(NUM_SQUARES)] for p in (0, 1)]
    support = [[int(HOME[p][s]) for s in range(NUM_SQUARES)] for p in (0, 1)]
    for square, piece in board.items():
        player, tile, facing = piece >> 5, piece >> 2 & 7, piece & 3
        for s in pattern(THREAT_OFFSETS[tile], square, facing):
            against[1 - player][s] += 1
            support[player][s] += 1
            if tile == FIRE:
                against[player][s] += 1
        for s in pattern(COVER_OFFSETS[tile], square, facing):
            cover[player][s] += 1
    danger = [
        [
            against[p][s] - (cover[p][s] > 0) + (BLOCKED if s in board else 0)
            for s in range(NUM_SQUARES)
        ]
        for p in (0, 1)
    ]
    maps = PaikoMaps()
    maps.against, maps.cover, maps.support, maps.danger = against, cover, support, danger
    maps.free = [sum(BIT[s] for s in range(NUM_SQUARES) if danger[p][s] < 2) for p in (0, 1)]
    maps.free_fire = [sum(BIT[s] for s in range(NUM_SQUARES) if danger[p][s] < 1) for p in (0, 1)]
    maps.calm = [sum(BIT[s] for s in range(NUM_SQUARES) if not against[p][s]) for p in (0, 1)]
    maps.backed = [sum(BIT[s] for s in range(NUM_SQUARES) if support[p][s] > 0) for p in (0, 1)]
    maps.taken = sum(BIT[s] for s in board)
    return maps


def board_of(state: PaikoState) -> Board:
    return {
        SQUARE_INDEX[square]: player << 5 | TILE_INDEX[tile] << 2 | FACINGS.index(facing)
        for square, player, tile, facing in state.observation(None).board
    }


def check(state: PaikoState) -> None:
    board = board_of(state)
    assert state.maps() == recount(board), state.history()[-1:]
    for p in (0, 1):
        assert state.squares(p) == [SQUARE_NAMES[s] for s in sorted(board) if board[s] >> 5 == p]


def tile(player: int, name: str, facing: str = "N") -> int:
    return player << 5 | TILE_INDEX[name] << 2 | FACINGS.index(facing)


# ---------------------------------------------------------------- along random games


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, {}),
        (2, {}),
        (3, {"move_limit": 1, "draw_exact": True}),
        (4, {"move_limit": 1, "draw_exact": True}),
        (5, {"move_limit": None}),
        (6, {"move_limit": None}),
    ],
)
def test_every_map_equals_a_recount_after_every_apply_and_undo(
    seed: int, options: dict[str, Any]
) -> None:
    state = tikigames.load("paiko", **options).new_initial_state()
    assert isinstance(state, PaikoState)
    rng = random.Random(seed)
    check(state)
    captures = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        # Prefer board actions so that the walk reaches crowded positions and captures.
        busy = [a for a in legal if a.kind in (2, 3, 4, 5)]
        lost = sum(state.lost())
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.9 else legal))
        captures += sum(state.lost()) > lost
        check(state)
    assert captures  # the walk removed tiles (and undoing puts them back)
    while state.history():
        state.undo_action()
        check(state)
    assert state.maps() == PaikoMaps()


def test_place_and_lift_in_any_order() -> None:
    """Every kind of tile, placed at random and lifted in another order: the maps equal the
    recount at every step and end as the empty board's."""
    rng = random.Random(5)
    maps = PaikoMaps()
    board: Board = {}
    for _ in range(300):
        if board and (len(board) > 40 or rng.random() < 0.4):
            square = rng.choice(sorted(board))
            maps.lift(square, board.pop(square))
        else:
            square = rng.choice([s for s in range(NUM_SQUARES) if s not in board])
            board[square] = rng.randrange(64)  # any player, tile and facing
            maps.place(square, board[square])
        assert maps == recount(board)
    for square in sorted(board, key=lambda _: rng.random()):
        maps.lift(square, board.pop(square))
    assert maps == PaikoMaps()


def test_copies_are_independent() -> None:
    maps = PaikoMaps()
    copy = maps.copy()
    maps.place(SQUARE_INDEX["e10"], tile(0, "fire"))
    assert copy == PaikoMaps() and maps != copy
    assert copy.copy() == copy and maps.copy() == maps


# ---------------------------------------------------------------- the rules file's cases


def test_a_fire_threatens_its_own_square_and_its_own_side() -> None:
    maps = PaikoMaps()
    e10 = SQUARE_INDEX["e10"]  # a middleground square: no homeground cover
    maps.place(e10, tile(0, "fire"))
    reached = {SQUARE_NAMES[s] for s in range(NUM_SQUARES) if maps.against[1][s]}
    assert reached == {"e12", "f12", "g12", "d11", "e11", "f11", "e10"}
    # The same threat counts against White's own tiles, and supports White's deploys.
    assert [s for s in range(NUM_SQUARES) if maps.against[0][s]] == [
        s for s in range(NUM_SQUARES) if maps.against[1][s]
    ]
    assert maps.support[0][SQUARE_INDEX["e12"]] == 1 and maps.support[1][e10] == 0
    # One threat, uncovered: the Fire itself is not capturable, but no Fire may enter e11
    # (passable below 1) while another tile may (below 2).
    assert maps.danger[0][e10] == 1 + BLOCKED and not maps.capturable(0, e10)
    e11 = SQUARE_INDEX["e11"]
    assert maps.free[0] & BIT[e11] and not maps.free_fire[0] & BIT[e11]


def test_capturable_is_two_threats_or_three_when_covered() -> None:
    maps = PaikoMaps()
    e11 = SQUARE_INDEX["e11"]
    maps.place(SQUARE_INDEX["e10"], tile(1, "sword"))
    maps.place(SQUARE_INDEX["e12"], tile(1, "fire", "S"))
    assert maps.against[0][e11] == 2 and maps.capturable(0, e11)
    assert not maps.free[0] & BIT[e11]  # a tile of White may not enter it
    maps.place(SQUARE_INDEX["d11"], tile(0, "water"))  # covers e11
    assert maps.cover[0][e11] == 1 and not maps.capturable(0, e11)
    assert maps.danger[0][e11] == 1 and maps.free[0] & BIT[e11]
    maps.place(SQUARE_INDEX["f11"], tile(0, "water"))  # cover does not add up
    assert maps.cover[0][e11] == 2 and maps.danger[0][e11] == 1
    maps.place(SQUARE_INDEX["f10"], tile(1, "sword"))
    assert maps.against[0][e11] == 3 and maps.capturable(0, e11)


def test_homeground_cover_and_support() -> None:
    maps = PaikoMaps()
    a7, n8 = SQUARE_INDEX["a7"], SQUARE_INDEX["n8"]
    assert maps.cover[0][a7] == maps.support[0][a7] == 1 and maps.danger[0][a7] == -1
    assert maps.cover[1][a7] == maps.support[1][a7] == maps.danger[1][a7] == 0
    assert maps.cover[1][n8] == 1 and maps.cover[0][n8] == 0
    assert sum(maps.cover[0]) == sum(maps.cover[1]) == 28


def test_sai_bow_and_lotus_patterns() -> None:
    maps = PaikoMaps()
    # The Sai on i7 facing E threatens j7 and covers its left and right, i8 and i6.
    maps.place(SQUARE_INDEX["i7"], tile(0, "sai", "E"))
    assert [SQUARE_NAMES[s] for s in range(NUM_SQUARES) if maps.against[1][s]] == ["j7"]
    covered = [s for s in range(NUM_SQUARES) if maps.cover[0][s] and not HOME[0][s]]
    assert [SQUARE_NAMES[s] for s in covered] == ["i8", "i6"]  # in square order
    # A Bow is not blocked by tiles in between: g9 holds a tile, g10–g12 are threatened.
    maps.place(SQUARE_INDEX["g9"], tile(1, "sword"))
    maps.place(SQUARE_INDEX["g8"], tile(0, "bow"))
    assert all(maps.against[1][SQUARE_INDEX[name]] == 1 for name in ("g10", "g11", "g12"))
    # A Lotus covers its own square, a black one here, and the 3×3 block around it.
    maps.place(SQUARE_INDEX["h8"], tile(1, "lotus"))
    assert all(maps.cover[1][SQUARE_INDEX[n]] for n in ("g9", "h9", "i9", "g8", "h8", "i7"))
    # Patterns drop the squares off the board: a Sword on the top corner g14 threatens 4.
    maps.place(SQUARE_INDEX["g14"], tile(1, "sword"))
    corner = PaikoMaps()
    corner.place(SQUARE_INDEX["g14"], tile(1, "sword"))
    threatened = [SQUARE_NAMES[s] for s in range(NUM_SQUARES) if corner.against[0][s]]
    assert sorted(threatened) == ["f13", "g13", "h13", "h14"]
    assert maps == recount(
        {
            SQUARE_INDEX["i7"]: tile(0, "sai", "E"),
            SQUARE_INDEX["g9"]: tile(1, "sword"),
            SQUARE_INDEX["g8"]: tile(0, "bow"),
            SQUARE_INDEX["h8"]: tile(1, "lotus"),
            SQUARE_INDEX["g14"]: tile(1, "sword"),
        }
    )

"""The board: the diamond's squares, names, quarters, black squares and shift targets."""

from __future__ import annotations

from collections import Counter

from tikigames.paiko import data
from tikigames.paiko.data import (
    BLACK,
    COORDS,
    HOME,
    NEIGHBOURS,
    NUM_SQUARES,
    OPEN_SQUARES,
    QUARTER,
    SHIFT_TARGETS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    VALUE,
    square_at,
)


def test_the_diamond_has_112_squares() -> None:
    assert NUM_SQUARES == 112
    assert len(set(COORDS)) == 112
    for x, y in COORDS:
        assert abs(x - 6.5) + abs(y - 6.5) <= 7
    # Every other square of the 14×14 grid is a half square on the edge, not in the game.
    outside = [(x, y) for x in range(14) for y in range(14) if (x, y) not in set(COORDS)]
    assert len(outside) == 196 - 112
    assert all(abs(x - 6.5) + abs(y - 6.5) > 7 for x, y in outside)
    # Rows of 2, 4, …, 14 then 14, …, 2 squares.
    assert [sum(1 for _, y in COORDS if y == row) for row in range(14)] == [
        2, 4, 6, 8, 10, 12, 14, 14, 12, 10, 8, 6, 4, 2,
    ]  # fmt: skip


def test_square_names() -> None:
    assert SQUARE_NAMES[0] == "g14" and SQUARE_NAMES[1] == "h14"
    assert SQUARE_NAMES[-1] == "h1"
    assert square_at(0, 6) == SQUARE_INDEX["a8"] and square_at(13, 7) == SQUARE_INDEX["n7"]
    assert square_at(0, 0) == -1 and square_at(14, 7) == -1 and square_at(-1, 7) == -1
    for index, (x, y) in enumerate(COORDS):
        assert SQUARE_NAMES[index] == "abcdefghijklmn"[x] + str(14 - y)
        assert SQUARE_INDEX[SQUARE_NAMES[index]] == index == square_at(x, y)
    # Squares are numbered in reading order as White sees the board.
    assert list(COORDS) == sorted(COORDS, key=lambda xy: (xy[1], xy[0]))


def test_black_squares() -> None:
    black = [SQUARE_NAMES[s] for s in range(NUM_SQUARES) if BLACK[s]]
    assert sorted(black) == ["f9", "g7", "h8", "i6"]
    assert len(OPEN_SQUARES) == 108
    assert not any(BLACK[s] for s in OPEN_SQUARES)


def test_quarters() -> None:
    counts = Counter(QUARTER)
    assert counts == {0: 28, 1: 28, 2: 28, 3: 28}
    # One black square per quarter.
    assert Counter(QUARTER[s] for s in range(NUM_SQUARES) if BLACK[s]) == {0: 1, 1: 1, 2: 1, 3: 1}
    # White's homeground: files a–g, ranks 1–7; Black's: files h–n, ranks 8–14.
    for s, name in enumerate(SQUARE_NAMES):
        file, rank = name[0], int(name[1:])
        assert HOME[0][s] == (file <= "g" and rank <= 7)
        assert HOME[1][s] == (file >= "h" and rank >= 8)
    assert sum(HOME[0]) == sum(HOME[1]) == 28


def test_values() -> None:
    for s in range(NUM_SQUARES):
        for p in (0, 1):
            expected = 0 if HOME[p][s] else 2 if HOME[1 - p][s] else 1
            assert VALUE[p][s] == expected
    assert VALUE[0][SQUARE_INDEX["a8"]] == 1 and VALUE[0][SQUARE_INDEX["h8"]] == 2
    assert VALUE[1][SQUARE_INDEX["a7"]] == 2 and VALUE[1][SQUARE_INDEX["n7"]] == 1


def test_orthogonal_neighbours() -> None:
    assert sorted(SQUARE_NAMES[n] for n in NEIGHBOURS[SQUARE_INDEX["e5"]]) == [
        "d5", "e4", "e6", "f5",
    ]  # fmt: skip
    assert sorted(SQUARE_NAMES[n] for n in NEIGHBOURS[SQUARE_INDEX["g14"]]) == ["g13", "h14"]
    assert sum(len(n) for n in NEIGHBOURS) == 2 * (
        sum(1 for x, y in COORDS if square_at(x + 1, y) >= 0)
        + sum(1 for x, y in COORDS if square_at(x, y + 1) >= 0)
    )


def test_shift_targets() -> None:
    def targets(name: str) -> dict[str, int]:
        return {SQUARE_NAMES[t]: steps for t, steps, _ in SHIFT_TARGETS[SQUARE_INDEX[name]]}

    # In the open: 4 squares one step away, 8 two steps away.
    assert targets("d7") == {
        "d8": 1, "c7": 1, "e7": 1, "d6": 1,
        "d9": 2, "c8": 2, "e8": 2, "b7": 2, "f7": 2, "c6": 2, "e6": 2, "d5": 2,
    }  # fmt: skip
    # Near the edge fewer: d3, c4 and b5 are half squares.
    assert set(targets("d5")) == {"d6", "c5", "e5", "d4", "d7", "c6", "e6", "f5", "e4"}
    # Nothing shifts into or through a black square: g8 is boxed in by f8 and g9 only.
    assert "g7" not in targets("g8") and "h8" not in targets("g8")
    assert "h7" not in targets("g8")  # both ways to h7 cross a black square
    assert "g6" not in targets("g8")  # straight through g7
    # The board's edge.
    assert targets("g14") == {"g13": 1, "h14": 1, "f13": 2, "g12": 2, "h13": 2}
    # No shift targets from a black square (only a Lotus stands there, and it never moves).
    assert SHIFT_TARGETS[SQUARE_INDEX["f9"]] == ()
    # One-step targets come first, then two-step ones, each in square order.
    for row in SHIFT_TARGETS:
        assert list(row) == sorted(row, key=lambda entry: (entry[1], entry[0]))


def test_bitmasks_match_the_squares() -> None:
    assert sum(data.BIT) == data.ALL_BITS and len(set(data.BIT)) == NUM_SQUARES
    for s in range(NUM_SQUARES):
        near = {t for t, steps, _ in SHIFT_TARGETS[s] if steps == 1}
        far = {t for t, steps, _ in SHIFT_TARGETS[s] if steps == 2}
        assert data.NEAR_BITS[s] == sum(data.BIT[t] for t in near)
        assert data.FAR_BITS[s] == sum(data.BIT[t] for t in far)

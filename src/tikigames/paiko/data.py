"""Paikō's components, precomputed once: the diamond board, its quarters and black squares, the
eight tiles, every tile's threat and cover pattern from every square in every facing, and every
square's shift targets (as lists and as bitmasks).

Squares are indexed 0…111 in reading order as White sees the board (rank 14 first, files a→n
inside a rank). A tile on the board is one int, ``player << 5 | tile << 2 | facing``; its low five
bits (``tile << 2 | facing``) are its *kind*, the index of the pattern tables.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from operator import getitem
from typing import Final

# ---------------------------------------------------------------- players, tiles, facings

PLAYER_NAMES: Final = ("White", "Black")


def result_words(winner: int | None) -> str:
    """The result of a finished game in Paikō's words (``None``: a draw), as the state's
    ``result_text()``, the text rendering and the pictures say it.

    >>> result_words(0), result_words(None)
    ('White wins', 'a draw')
    """
    return "a draw" if winner is None else f"{PLAYER_NAMES[winner]} wins"


#: Tile names in the canonical order (of the action table and of a draw's text).
TILES: Final = ("sai", "sword", "bow", "lotus", "air", "fire", "earth", "water")
SAI: Final = 0
SWORD: Final = 1
BOW: Final = 2
LOTUS: Final = 3
AIR: Final = 4
FIRE: Final = 5
EARTH: Final = 6
WATER: Final = 7
NUM_TILES: Final = 8
#: Tiles of each type each player owns.
COPIES: Final = 3
TILE_INDEX: Final = {name: index for index, name in enumerate(TILES)}
#: One letter per tile for the board drawing (upper case White, lower case Black).
TILE_LETTERS: Final = ("S", "X", "B", "L", "A", "F", "E", "W")

FACINGS: Final = "NESW"
NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
#: Whether a tile's patterns change with its facing (the others always face N).
FACED: Final = (True, False, True, False, False, True, False, False)
#: Orthogonal steps a shift may take (0: the tile never moves).
SHIFT_RANGE: Final = (2, 2, 2, 0, 0, 2, 1, 2)

# ---------------------------------------------------------------- the board

SIZE: Final = 14


def _on_board(x: int, y: int) -> bool:
    """|x − 6.5| + |y − 6.5| ≤ 7, in integers."""
    return 0 <= x < SIZE and 0 <= y < SIZE and abs(2 * x - 13) + abs(2 * y - 13) <= 14


#: (x, y) of each square, in index order.
COORDS: Final[tuple[tuple[int, int], ...]] = tuple(
    (x, y) for y in range(SIZE) for x in range(SIZE) if _on_board(x, y)
)
NUM_SQUARES: Final = len(COORDS)
_INDEX: Final = {xy: index for index, xy in enumerate(COORDS)}


def square_at(x: int, y: int) -> int:
    """The index of square (x, y), or −1 off the board."""
    return _INDEX.get((x, y), -1)


#: ``e5``-style names: file a…n for x = 0…13, rank 14 − y.
SQUARE_NAMES: Final = tuple(f"{chr(ord('a') + x)}{SIZE - y}" for x, y in COORDS)
SQUARE_INDEX: Final = {name: index for index, name in enumerate(SQUARE_NAMES)}

#: Only a Lotus may stand on these; nothing shifts into or through them.
BLACK_COORDS: Final = ((5, 5), (7, 6), (6, 7), (8, 8))
BLACK: Final = tuple(xy in BLACK_COORDS for xy in COORDS)
#: The squares other tiles may use, in index order.
OPEN_SQUARES: Final = tuple(s for s in range(NUM_SQUARES) if not BLACK[s])
ALL_SQUARES: Final = tuple(range(NUM_SQUARES))

#: Quarters: White's homeground, Black's homeground, and the two middlegrounds.
WHITE_HOME: Final = 0
BLACK_HOME: Final = 1
WEST_MIDDLE: Final = 2
EAST_MIDDLE: Final = 3


def _quarter(x: int, y: int) -> int:
    if x <= 6:
        return WHITE_HOME if y >= 7 else WEST_MIDDLE
    return BLACK_HOME if y <= 6 else EAST_MIDDLE


QUARTER: Final = tuple(_quarter(x, y) for x, y in COORDS)
#: ``HOME[p][s]``: whether s is in player p's homeground (player 0 is White).
HOME: Final = tuple(tuple(q == home for q in QUARTER) for home in (WHITE_HOME, BLACK_HOME))
#: ``VALUE[p][s]``: what a non-Lotus tile of p on s scores: 0 at home, 1 in a middleground,
#: 2 in the opponent's homeground.
VALUE: Final = tuple(
    tuple(0 if HOME[p][s] else 2 if HOME[1 - p][s] else 1 for s in range(NUM_SQUARES))
    for p in (0, 1)
)

_STEPS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: Orthogonal neighbours on the board, in index order.
NEIGHBOURS: Final = tuple(
    tuple(sorted(square_at(x + dx, y + dy) for dx, dy in _STEPS if square_at(x + dx, y + dy) >= 0))
    for x, y in COORDS
)

# ---------------------------------------------------------------- patterns

Offsets = tuple[tuple[int, int], ...]

_EIGHT: Final[Offsets] = tuple(
    (dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)
)
_KNIGHT: Final[Offsets] = (
    (-1, -2), (1, -2), (-2, -1), (2, -1), (-2, 1), (2, 1), (-1, 2), (1, 2),
)  # fmt: skip

#: Threat offsets of each tile facing N ("forward" is (0, −1), "right" is (+1, 0)).
THREAT_OFFSETS: Final[tuple[Offsets, ...]] = (
    ((0, -1),),  # sai
    _EIGHT,  # sword
    ((0, -2), (0, -3), (0, -4)),  # bow
    (),  # lotus
    _KNIGHT,  # air
    tuple((dx, -2) for dx in range(-2, 3)) + tuple((dx, -1) for dx in (-1, 0, 1)) + ((0, 0),),
    ((0, -1), (0, -2), (0, 1), (0, 2), (-1, 0), (-2, 0), (1, 0), (2, 0)),  # earth
    ((-1, -1), (1, -1), (-1, 1), (1, 1)),  # water
)
#: Cover offsets of each tile facing N.
COVER_OFFSETS: Final[tuple[Offsets, ...]] = (
    ((-1, 0), (1, 0)),  # sai
    (),
    (),
    ((0, 0), *_EIGHT),  # lotus: the 3×3 block, itself included
    (),
    (),
    (),
    ((0, -1), (1, 0), (0, 1), (-1, 0)),  # water
)


def rotate(dx: int, dy: int, facing: int) -> tuple[int, int]:
    """Offset (dx, dy) of a tile facing N, turned to ``facing``: E maps it to (−dy, dx),
    S to (−dx, −dy), W to (dy, −dx)."""
    for _ in range(facing):
        dx, dy = -dy, dx
    return dx, dy


def _project(offsets: Offsets, facing: int, square: int) -> tuple[int, ...]:
    x, y = COORDS[square]
    targets = (square_at(x + dx, y + dy) for dx, dy in (rotate(*o, facing) for o in offsets))
    return tuple(sorted(t for t in targets if t >= 0))


def _table(offsets: tuple[Offsets, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(
        tuple(_project(offsets[kind >> 2], kind & 3, s) for s in range(NUM_SQUARES))
        for kind in range(NUM_TILES * 4)
    )


#: ``THREAT[kind][s]``: the squares a tile of that kind on s threatens (off-board ones dropped).
THREAT: Final = _table(THREAT_OFFSETS)
#: ``COVER[kind][s]``: the squares it covers.
COVER: Final = _table(COVER_OFFSETS)
#: The same as frozensets, for the membership tests of the self-capture check.
COVER_SETS: Final = tuple(tuple(frozenset(squares) for squares in row) for row in COVER)
THREAT_SETS: Final = tuple(tuple(frozenset(squares) for squares in row) for row in THREAT)


def _reverse(
    table: tuple[tuple[tuple[int, ...], ...], ...],
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    rows = []
    for row in table:
        sources: list[list[int]] = [[] for _ in range(NUM_SQUARES)]
        for source, targets in enumerate(row):
            for target in targets:
                sources[target].append(source)
        rows.append(tuple(tuple(found) for found in sources))
    return tuple(rows)


#: ``THREATENED_FROM[kind][s]``: the squares from which a tile of that kind threatens s.
THREATENED_FROM: Final = _reverse(THREAT)


def kind_of(tile: int, facing: int) -> int:
    """The pattern-table index of ``tile`` facing ``facing``."""
    return tile << 2 | facing


# ---------------------------------------------------------------- shifts


def _shift_targets(origin: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """``(target, steps, middles)`` for each square a shift from ``origin`` could end on over an
    empty board (1 or 2 orthogonal steps through open squares): the one-step targets first, then
    the two-step ones, each in index order; ``middles`` are the squares a 2-step shift may pass
    through."""
    found: dict[int, tuple[int, int, tuple[int, ...]]] = {}
    if BLACK[origin]:
        return ()
    first = [n for n in NEIGHBOURS[origin] if not BLACK[n]]
    for middle in first:
        found[middle] = (middle, 1, ())
    for middle in first:
        for target in NEIGHBOURS[middle]:
            if target == origin or BLACK[target] or target in first:
                continue
            _, _, middles = found.get(target, (target, 2, ()))
            found[target] = (target, 2, (*middles, middle))
    return tuple(sorted(found.values(), key=lambda entry: (entry[1], entry[0])))


#: ``SHIFT_TARGETS[s]``: see :func:`_shift_targets`.
SHIFT_TARGETS: Final = tuple(_shift_targets(s) for s in range(NUM_SQUARES))

# Square sets as int bitmasks: square (x, y) is bit 16·y + x, so that shifting a mask by 1 or 16
# moves every square one step W/E or N/S (the two spare columns keep rows apart).
#: ``BIT[s]``: the mask of square s.
BIT: Final = tuple(1 << (16 * y + x) for x, y in COORDS)
ALL_BITS: Final = sum(BIT)
#: The open squares, and each player's homeground.
OPEN_BITS: Final = sum(BIT[s] for s in OPEN_SQUARES)
HOME_BITS: Final = tuple(sum(BIT[s] for s in range(NUM_SQUARES) if HOME[p][s]) for p in (0, 1))
#: ``THREAT_BITS[kind][s]``: ``THREAT[kind][s]`` as a mask.
THREAT_BITS: Final = tuple(tuple(sum(BIT[t] for t in row) for row in rows) for rows in THREAT)
#: ``COVER_BITS[kind][s]``: ``COVER[kind][s]`` as a mask.
COVER_BITS: Final = tuple(tuple(sum(BIT[t] for t in row) for row in rows) for rows in COVER)
#: ``THREATENED_FROM_BITS[kind][s]``: ``THREATENED_FROM[kind][s]`` as a mask (where a tile
#: must end a move to threaten s: the search bots' rollout policy looks for captures with it).
THREATENED_FROM_BITS: Final = tuple(
    tuple(sum(BIT[t] for t in row) for row in rows) for rows in THREATENED_FROM
)
#: The bytes of a mask (``mask.to_bytes(MASK_BYTES, "little")``) …
MASK_BYTES: Final = (16 * SIZE + 7) // 8
#: … and ``BYTE_SQUARES[i][b]``: the squares of byte ``i`` when it is ``b``, in index order.
_IN_BYTE: Final = tuple(
    tuple((s, (16 * y + x) & 7) for s, (x, y) in enumerate(COORDS) if (16 * y + x) >> 3 == i)
    for i in range(MASK_BYTES)
)
BYTE_SQUARES: Final = tuple(
    tuple(tuple(s for s, j in inside if b >> j & 1) for b in range(256)) for inside in _IN_BYTE
)


def squares_of(mask: int) -> list[int]:
    """The squares of ``mask``, in index order (a table lookup per byte, no loop per square).

    >>> [SQUARE_NAMES[s] for s in squares_of(BIT[SQUARE_INDEX["g14"]] | BIT[SQUARE_INDEX["a8"]])]
    ['g14', 'a8']
    """
    squares: list[int] = []
    # ``any`` runs ``extend`` over every byte's squares (it returns None): C calls only, and
    # faster than ``chain.from_iterable``.
    any(map(squares.extend, map(getitem, BYTE_SQUARES, mask.to_bytes(MASK_BYTES, "little"))))
    return squares


#: The number of squares of each byte value.
_POPCOUNTS: Final = bytes(bin(b).count("1") for b in range(256))


def nth_square(mask: int, n: int) -> int:
    """The ``n``-th square of ``mask`` (from 0, in index order), without listing them: the
    byte holding it is found by a binary search in the running counts of the bytes' squares.

    >>> nth_square(BIT[SQUARE_INDEX["g14"]] | BIT[SQUARE_INDEX["a8"]], 1) == SQUARE_INDEX["a8"]
    True
    """
    data = mask.to_bytes(MASK_BYTES, "little")
    counts = list(accumulate(data.translate(_POPCOUNTS)))
    i = bisect_right(counts, n)
    return BYTE_SQUARES[i][data[i]][n - counts[i - 1] if i else n]


#: ``NEAR_BITS[s]``, ``FAR_BITS[s]``: the one-step and two-step shift targets from s.
NEAR_BITS: Final = tuple(
    sum(BIT[t] for t, steps, _ in SHIFT_TARGETS[s] if steps == 1) for s in range(NUM_SQUARES)
)
FAR_BITS: Final = tuple(
    sum(BIT[t] for t, steps, _ in SHIFT_TARGETS[s] if steps == 2) for s in range(NUM_SQUARES)
)


#: ``SHIFT_PATHS[s]``: for each shift target of ``SHIFT_TARGETS[s]``, in order, ``(bit, via)``: its
#: mask, and the mask of the squares a 2-step shift may pass through (0 for a 1-step one). A
#: shift reaches it when it is passable and so is one of ``via``, if any: :func:`reach` for one
#: target.
SHIFT_PATHS: Final = tuple(
    tuple((BIT[t], sum(BIT[m] for m in middles)) for t, _, middles in SHIFT_TARGETS[s])
    for s in range(NUM_SQUARES)
)


def reach(origin: int, free: int, steps: int) -> int:
    """The targets a shift of up to ``steps`` (1 or 2) from ``origin`` reaches through the
    squares of ``free`` (passable ones), as a mask."""
    near = NEAR_BITS[origin] & free
    if steps == 1:
        return near
    return near | FAR_BITS[origin] & free & (near << 1 | near >> 1 | near << 16 | near >> 16)


#: Reach keys (``PaikoTable.reached``): the passable squares of the region a shift from a
#: square may use, tagged above bit ``TAG_SHIFT`` with the square, the steps and whether the
#: tile has a facing. ``REGION[kind][s]`` is that region, ``TAG[kind][s]`` the tag.
TAG_SHIFT: Final = 16 * SIZE
REGION: Final = tuple(
    tuple(
        0 if not SHIFT_RANGE[kind >> 2] else
        NEAR_BITS[s] if SHIFT_RANGE[kind >> 2] == 1 else NEAR_BITS[s] | FAR_BITS[s]
        for s in range(NUM_SQUARES)
    )
    for kind in range(NUM_TILES * 4)
)  # fmt: skip
TAG: Final = tuple(
    tuple(
        (s << 3 | SHIFT_RANGE[kind >> 2] << 1 | FACED[kind >> 2]) << TAG_SHIFT
        for s in range(NUM_SQUARES)
    )
    for kind in range(NUM_TILES * 4)
)

#: Draft order: White 7 tiles, Black 9, White 1.
DRAFT_ORDER: Final = (0,) * 7 + (1,) * 9 + (0,)

# ---------------------------------------------------------------- phases and rules

#: The phases of a game: the draft, a turn, a deployed Sai's follow-up, the captured player's
#: picks, the end.
DRAFTING: Final = 0
PLAYING: Final = 1
FOLLOW_UP: Final = 2
PICKING: Final = 3
OVER: Final = 4
#: The phases' names, as observations and the docs write them.
PHASE_NAMES: Final = ("draft", "play", "follow-up", "picks", "over")

#: A player wins with this many points at the end of their turn.
WIN_POINTS: Final = 10
#: The tie rule: both players have lost at least this many tiles …
TIE_LOST: Final = 13
#: … and both have at most this many points.
TIE_POINTS: Final = 5


def _fire_reach(origin: int) -> frozenset[int]:
    """Every square a Fire moving or turning from ``origin`` could threaten afterwards."""
    ends = [origin, *(target for target, _, _ in SHIFT_TARGETS[origin])]
    return frozenset(
        s for end in ends for facing in range(4) for s in THREAT[kind_of(FIRE, facing)][end]
    )


#: ``FIRE_REACH[s]``: see :func:`_fire_reach`.
FIRE_REACH: Final = tuple(_fire_reach(s) for s in range(NUM_SQUARES))


def _fire_sources(square: int) -> tuple[int, ...]:
    """Where a Fire facing N, E, S, W may stand to threaten ``square``, then all four joined,
    as masks."""
    by_facing = [
        sum(BIT[s] for s in THREATENED_FROM[kind_of(FIRE, facing)][square]) for facing in range(4)
    ]
    return (*by_facing, by_facing[0] | by_facing[1] | by_facing[2] | by_facing[3])


#: ``FIRE_SOURCES[s]``: see :func:`_fire_sources`.
FIRE_SOURCES: Final = tuple(_fire_sources(s) for s in range(NUM_SQUARES))
#: ``FIRE_REACH_BITS[s]``: ``FIRE_REACH[s]`` as a mask.
FIRE_REACH_BITS: Final = tuple(sum(BIT[t] for t in zone) for zone in FIRE_REACH)
#: ``FIRE_AROUND_BITS[s]``: the same but s itself: where the own tiles are that a Fire moving or
#: turning from s might threaten again (the engine's hottest loop reads it; a mask ``& ~BIT[s]``
#: there would cost a big-integer complement per Fire).
FIRE_AROUND_BITS: Final = tuple(zone & ~BIT[s] for s, zone in enumerate(FIRE_REACH_BITS))


def fire_unsafe(fragile: list[int]) -> tuple[int, ...]:
    """For each facing (then any facing), the mask of the squares from which a Fire would
    threaten one of the ``fragile`` squares."""
    if len(fragile) == 1:
        return FIRE_SOURCES[fragile[0]]
    n = e = s = w = 0
    for square in fragile:
        sources = FIRE_SOURCES[square]
        n |= sources[0]
        e |= sources[1]
        s |= sources[2]
        w |= sources[3]
    return (n, e, s, w, n | e | s | w)


@dataclass(frozen=True)
class PaikoRules:
    """The options of a Paikō game, typed (``game.rules``; see the game's options)."""

    max_turns: int | None
    move_limit: int | None
    draw_exact: bool

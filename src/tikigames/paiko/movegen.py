"""Paikō's move generator: the actions of a turn, listed (:func:`turn_actions`) or one drawn
uniformly without listing them (:func:`sample_turn_action`), sharing the statements of the rules.

The state (:mod:`tikigames.paiko.state`) owns the position and hands its parts to these
functions; they read them and never change them. Each rule of a turn is written once here and
used by both the list and the draw:

- what the hand and the reserve allow (:func:`supply_of`: the legal draws and the deploy
  profile of the hand), and the deploy squares (:func:`deploy_targets`, :func:`lotus_calm`;
  a Fire may not threaten a fragile own tile, ``data.fire_unsafe``);
- which squares a tile may pass and end on when it shifts (:func:`passable`); the paths
  between them are geometry, precomputed once in :mod:`~tikigames.paiko.data`
  (``data.reach`` for every target, ``data.SHIFT_PATHS`` for one);
- which own tiles a Sai or a Water alone keeps safe (:func:`sole_cover`), and whether a move
  covers them again (:func:`safe`); which fragile own tiles a moving Fire must not threaten
  again (:func:`fire_near`); a tile's moves the slow way (:func:`_slow_tile_moves`).

The list asks :func:`passable` once per list for the tiles but the Fires and once per Fire,
and keys a memo of each tile's shifts by its passable squares (:func:`_piece_moves`); the draw
asks it once per slot it checks, then the one path of that slot. That call is the cost of
writing the rule once: measured with callgrind (3 seeded games, pure Python), about 0.5% per
action of random playouts and 0.3% per action of a loop over ``legal_actions()``, against the
rule written out at each place. The draw checks its slot inline rather than in a function of
its own, and a Fire's test for fragile own tiles nearby reads a precomputed mask
(``data.FIRE_AROUND_BITS``) rather than complementing one, which more than pays for it.

The draw (a rejection sampler) enumerates its candidates without a look at the board, by the
counts of the same structures: the legal draws, the deploy squares per tile in hand, the tiles
that may move by group (:data:`GROUP`) and their slots (``PaikoTable.slots``: every shift over
an empty board and every turn), a Water's redeploys onto the deploy squares. Each legal action
is exactly one candidate, so what it accepts is uniform over the legal actions
(``tests/paiko/test_random_action.py`` checks it exactly, position by position).

Positions are passed as the maps (:class:`~tikigames.paiko.maps.PaikoMaps`), the board (a list
of pieces, −1 for an empty square) and the mover's squares. The memo of deploy profiles by hand
(:func:`profile_of`) is process-global: it depends on the hand's counts only.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from random import Random
from typing import Final, NamedTuple, cast

from tikigames.paiko.actions import (
    HOW,
    MOVES_FIRE,
    MOVES_PLAIN,
    MOVES_WATER,
    SLOT_TARGETS,
    PaikoAction,
    PaikoTable,
)
from tikigames.paiko.data import (
    ALL_BITS,
    BIT,
    COVER,
    COVER_SETS,
    FACED,
    FIRE,
    FIRE_AROUND_BITS,
    LOTUS,
    NUM_SQUARES,
    NUM_TILES,
    OPEN_BITS,
    REGION,
    SHIFT_PATHS,
    SHIFT_RANGE,
    TAG,
    THREAT_BITS,
    WATER,
    fire_unsafe,
    nth_square,
    reach,
    squares_of,
)
from tikigames.paiko.maps import BLOCKED, PaikoMaps

__all__ = [
    "ATTEMPTS",
    "FACED_SLOTS",
    "GROUP",
    "LOTUS_MAX_THREAT",
    "Setup",
    "Supply",
    "deploy_targets",
    "fire_near",
    "follow_up_actions",
    "fragile_of",
    "lotus_calm",
    "passable",
    "profile_of",
    "safe",
    "sample_turn_action",
    "sole_cover",
    "supply_of",
    "tile_actions",
    "turn_actions",
]

#: Per kind, the group of the mover lists (``PaikoState`` keeps them per player): 0 for a Sai,
#: Bow or Fire (:data:`FACED_SLOTS` slots: 12 shift targets in 4 facings, then 3 turns), 1 for a
#: Sword, 2 for a Water (12 slots, then a Water's redeploys), 3 for an Earth (4); −1 for a tile
#: that never moves.
GROUP: Final = tuple((0, 1, 0, -1, -1, 0, 3, 2)[kind >> 2] for kind in range(NUM_TILES * 4))
FACED_SLOTS: Final = 4 * SLOT_TARGETS[2] + 3
#: What a player's hand and reserve allow (:func:`supply_of`).
Supply = tuple[tuple[PaikoAction, ...], tuple[int, bool, tuple[int, ...]]]
#: How many candidates :func:`sample_turn_action` draws before it gives up (the state then
#: lists the legal actions).
ATTEMPTS: Final = 12
#: The kind of a Water (always facing N).
WATER_N: Final = WATER << 2
#: The most threat a Lotus may be deployed under.
LOTUS_MAX_THREAT: Final = 2
#: Whether a threat count allows a Lotus's deploy.
lotus_calm: Final = (LOTUS_MAX_THREAT + 1).__gt__
#: What :func:`sole_cover` finds for a tile that is nowhere the only cover.
NOTHING_LOST: Final[tuple[int, list[int]]] = (0, [])
#: A Water whose redeploys need not cover any own tile.
NO_EXPOSED: Final[list[int]] = []


class Setup(NamedTuple):
    """What is the same in every state of one game: the action table with its lookups and
    memos, and the options the rules engine reads (0 for an option that is off)."""

    table: PaikoTable
    move_limit: int
    max_turns: int
    draw_exact: bool


def _deploy_profile(hand: tuple[int, ...]) -> tuple[int, bool, tuple[int, ...]]:
    """For a hand (counts by tile): the deploy candidates per target square (4 per faced tile,
    1 per other tile but the Lotus), whether it holds a Lotus, and its tiles in order."""
    tiles = tuple(tile for tile in range(NUM_TILES) if hand[tile])
    per_target = sum(4 if FACED[tile] else 1 for tile in tiles if tile != LOTUS)
    return per_target, LOTUS in tiles, tiles


_PROFILES: Final[dict[tuple[int, ...], tuple[int, bool, tuple[int, ...]]]] = {}


def profile_of(hand: Sequence[int]) -> tuple[int, bool, tuple[int, ...]]:
    """The deploy profile of a hand, memoised (a hand holds at most 3 of each tile).

    >>> profile_of([0, 1, 0, 1, 0, 2, 0, 0])  # a Sword, a Lotus and two Fires
    (5, True, (1, 3, 5))
    """
    key = tuple(hand)
    found = _PROFILES.get(key)
    if found is None:
        found = _PROFILES[key] = _deploy_profile(key)
    return found


def supply_of(table: PaikoTable, reserve: list[int], hand: list[int], exact: bool) -> Supply:
    """What a player's hand and reserve allow: the legal draws, and the deploy profile of the
    hand (:func:`profile_of`)."""
    draws = table.legal_draws(reserve, exact) if any(reserve) else ()
    return draws, profile_of(hand)


def deploy_targets(maps: PaikoMaps, p: int) -> int:
    """The squares where p may deploy any tile but a Lotus (and redeploy a Water), as a mask:
    open, empty, no threat against p (cover ignored), and in p's homeground or threatened by a
    tile of p. (The empty squares are a xor with every square: cheaper than a complement,
    which is a negative big integer.)"""
    return OPEN_BITS & maps.calm[p] & maps.backed[p] & (ALL_BITS ^ maps.taken)


def fragile_of(maps: PaikoMaps, p: int, squares: list[int]) -> tuple[list[int], int]:
    """p's tiles (on ``squares``, p's sorted squares) that one more threat would make
    capturable (their danger counts :data:`~tikigames.paiko.maps.BLOCKED`), in square order,
    and their squares as a mask (``shaky``)."""
    danger = maps.danger[p]
    fragile = [s for s in squares if danger[s] > BLOCKED]
    shaky = 0
    for s in fragile:
        shaky |= BIT[s]
    return fragile, shaky


def safe(maps: PaikoMaps, p: int, kind: int, square: int, exposed: Sequence[int]) -> bool:
    """Whether p's lifted Sai or Water put back as ``kind`` on ``square`` covers again each
    ``exposed`` tile (:func:`sole_cover`) — and none has 3 threats."""
    covered = COVER_SETS[kind][square]
    against = maps.against[p]
    return all(s in covered and against[s] < 3 for s in exposed)


# ----------------------------------------------------------------- one tile's moves


def passable(maps: PaikoMaps, p: int, fire: int) -> int:
    """The squares p's tile may pass and end on when it shifts, as a mask: the one statement
    of that rule, asked by the list (:func:`_piece_moves`, :func:`_slow_tile_moves`) and by
    the draw (:func:`sample_turn_action`). ``fire``: a Fire's threat pattern where it stands,
    0 for any other tile.

    A tile may be where it would not be capturable: where its danger is below 2
    (``maps.free``). A Fire threatens its own square, which adds one: it may only be where
    there is no danger (``maps.free_fire``), or below 2 where its own threat, lifted with it,
    is one of them (its pattern). (A Sai or a Water that is the only cover of an empty square
    also loses that square: :func:`_slow_tile_moves` takes :func:`sole_cover`'s squares off.)

    >>> from tikigames.paiko.data import BIT, FIRE, SOUTH, SQUARE_INDEX, SWORD, THREAT_BITS
    >>> e10, e11, e12 = SQUARE_INDEX["e10"], SQUARE_INDEX["e11"], SQUARE_INDEX["e12"]
    >>> maps = PaikoMaps()
    >>> maps.place(e10, 1 << 5 | SWORD << 2)  # a Black Sword threatens e11
    >>> maps.place(e12, FIRE << 2)  # a White Fire facing N does not
    >>> [bool(passable(maps, 0, fire) & BIT[e11]) for fire in (0, THREAT_BITS[FIRE << 2][e12])]
    [True, False]
    >>> maps = PaikoMaps()
    >>> maps.place(e12, FIRE << 2 | SOUTH)  # facing S, its own threat is e11's only one
    >>> bool(passable(maps, 0, THREAT_BITS[FIRE << 2 | SOUTH][e12]) & BIT[e11])
    True
    """
    if fire:
        return maps.free_fire[p] | maps.free[p] & fire
    return maps.free[p]


def sole_cover(maps: PaikoMaps, board: list[int], origin: int, piece: int) -> tuple[int, list[int]]:
    """Where the Sai or Water ``piece`` on ``origin`` is its owner's only cover against 2
    threats or more, lifting it leaves an empty square impassable and an own tile capturable:
    those empty squares as a mask, and those own tiles (``exposed``: its moves must cover them
    again, :func:`safe`)."""
    p = piece >> 5
    against = maps.against[p]
    cover = maps.cover[p]
    lost = 0
    exposed: list[int] = []
    for s in COVER[piece & 31][origin]:
        if cover[s] == 1 and against[s] >= 2:
            if board[s] < 0:
                lost |= BIT[s]
            elif board[s] >> 5 == p:
                exposed.append(s)
    return lost, exposed


def _slow_tile_moves(
    table: PaikoTable,
    board: list[int],
    maps: PaikoMaps,
    origin: int,
    piece: int,
    shifts: list[PaikoAction],
    turns: list[PaikoAction],
) -> list[int] | None:
    """Append the legal shifts and turns of the mover's Sai or Water ``piece`` on ``origin``
    the slow way, each in id order; for a Water, return the own tiles its redeploys must cover
    again (else ``None``). The passable squares are :func:`passable`'s, less the empty squares
    of :func:`sole_cover`, and each move must cover the own tiles of :func:`sole_cover` again
    (:func:`safe`)."""
    p = piece >> 5
    tile = piece >> 2 & 7
    kind = piece & 31
    lost, exposed = sole_cover(maps, board, origin, piece)
    free = passable(maps, p, 0) & ~lost
    faced = FACED[tile]
    if exposed:
        base = kind & ~3
        for target, actions in table.targets(reach(origin, free, SHIFT_RANGE[tile]), origin):
            for f in range(4) if faced else (0,):
                if safe(maps, p, base | f, target, exposed):
                    shifts.append(actions[f])
    else:
        key = free & REGION[kind][origin] | TAG[kind][origin]
        found = table.reach_memo.get(key)
        shifts += table.reached(key) if found is None else found
    if faced:
        current = kind & 3
        if exposed:
            base = kind & ~3
            row = table.turns[origin]
            for f in range(4):
                if f != current and safe(maps, p, base | f, origin, exposed):
                    turns.append(row[f])
        else:
            turns += table.turns_from[origin][current]
    return exposed if tile == WATER else None


def _piece_moves(
    table: PaikoTable,
    board: list[int],
    maps: PaikoMaps,
    p: int,
    moving: list[int],
    blocked: int,
    fragile: list[int],
    shaky: int,
    shifts: list[PaikoAction],
) -> tuple[list[PaikoAction], list[tuple[int, list[int]]]]:
    """Append to ``shifts`` the shifts of p's tiles on ``moving`` but ``blocked``, in id order;
    return their turns, in id order, and ``(square, exposed)`` for each Water that may
    redeploy (see :func:`_slow_tile_moves`). ``fragile``, ``shaky``: :func:`fragile_of`.

    Most tiles take the fast path: their passable squares (:func:`passable`, asked once for
    all the tiles but the Fires — the same answer for each — and once per Fire) key the memo
    of their shifts. Lifting a Sword, Bow, Earth or Fire changes nothing else; a Sai or a Water
    changes nothing unless one of its cover squares has danger exactly 1 (it may be its only
    cover against 2 threats) or holds a fragile own tile, and a Fire needs care only with a
    fragile own tile in its reach. The other tiles take :func:`_slow_tile_moves`, or the
    Fire's shifts and turns that spare its fragile neighbours (:func:`fire_near`).
    :func:`sample_turn_action` checks one move by the same functions."""
    turns: list[PaikoAction] = []
    waters: list[tuple[int, list[int]]] = []
    free = passable(maps, p, 0)
    # Squares whose danger is exactly 1 (occupied ones have more), and fragile tiles (those of
    # ``free_fire`` are inside ``free``: a xor, cheaper than masking with a complement).
    risky = free ^ maps.free_fire[p] | shaky
    cache = table.reach_memo
    moves = table.moves
    for square in moving:
        how, region, tag, turn, mask = moves[board[square] & 31][square]
        if square == blocked:
            continue
        if how == MOVES_PLAIN:
            key = free & region | tag
        elif how == MOVES_FIRE:
            fire = passable(maps, p, mask)
            if shaky & FIRE_AROUND_BITS[square]:
                near = fire_near(maps, p, square, mask, fragile)
                if near:
                    unsafe = fire_unsafe(near)
                    shifts += table.reached_avoiding(fire & region | tag, unsafe)
                    bit = BIT[square]
                    current = board[square] & 3
                    row = table.turns[square]
                    turns += [row[f] for f in range(4) if f != current and not bit & unsafe[f]]
                    continue
            key = fire & region | tag
        elif mask & risky:
            exposed = _slow_tile_moves(table, board, maps, square, board[square], shifts, turns)
            if exposed is not None:
                waters.append((square, exposed))
            continue
        else:
            key = free & region | tag
            if how == MOVES_WATER:
                waters.append((square, NO_EXPOSED))
        found = cache.get(key)
        shifts += table.reached(key) if found is None else found
        turns += turn
    return turns, waters


def fire_near(maps: PaikoMaps, p: int, square: int, pattern: int, fragile: list[int]) -> list[int]:
    """The fragile own tiles (:func:`fragile_of`) that p's Fire lifted off ``square``
    (``pattern``: its threat there) may not threaten again: those its new pattern may reach
    that stay fragile without its threat."""
    danger = maps.danger[p]
    zone = FIRE_AROUND_BITS[square]
    return [s for s in fragile if BIT[s] & zone and danger[s] - (BIT[s] & pattern > 0) > BLOCKED]


# ----------------------------------------------------------------- the list


def follow_up_actions(
    table: PaikoTable, board: list[int], maps: PaikoMaps, sai: int
) -> list[PaikoAction]:
    """The legal actions of a deployed Sai's follow-up on ``sai``: its shifts, its turns, then
    ``stay``."""
    shifts: list[PaikoAction] = []
    turns: list[PaikoAction] = []
    _slow_tile_moves(table, board, maps, sai, board[sai], shifts, turns)
    return [*shifts, *turns, table.stay]


def turn_actions(
    table: PaikoTable,
    board: list[int],
    maps: PaikoMaps,
    p: int,
    squares: list[int],
    moving: list[int],
    supply: Supply,
    blocked: int,
) -> list[PaikoAction]:
    """Every action of p's turn but ``pass``, sorted by id (the kinds' blocks are in id order
    and each block is built in id order). ``squares``: p's squares; ``moving``: those of p's
    tiles that may move; ``blocked``: the square the repetition limit stops (−1: none)."""
    legal: list[PaikoAction] = list(supply[0])
    fragile, shaky = fragile_of(maps, p, squares)
    targets = squares_of(deploy_targets(maps, p))
    # One C call picks a row's entries on every target.
    pick = itemgetter(*targets) if len(targets) > 1 else None
    for tile in supply[1][2]:
        if tile == LOTUS:
            # On any empty square with little enough threat, picked in C calls.
            row_n = table.deploys_n[tile]
            empty = squares_of(ALL_BITS ^ maps.taken)
            calm = map(lotus_calm, map(maps.against[p].__getitem__, empty))
            legal += compress(map(row_n.__getitem__, empty), calm)
        elif not FACED[tile]:
            row_n = table.deploys_n[tile]
            legal += map(row_n.__getitem__, targets) if pick is None else pick(row_n)
        elif tile == FIRE and fragile:
            # A Fire adds one threat to each own tile in its pattern: it may not reach a
            # fragile one (``data.fire_unsafe``, for every facing at once).
            row = table.deploys[tile]
            unsafe = fire_unsafe(fragile)
            anywhere = unsafe[4]
            for s in targets:
                bit = BIT[s]
                if bit & anywhere:
                    legal += [a for f, a in enumerate(row[s]) if not bit & unsafe[f]]
                else:
                    legal += row[s]
        else:
            row = table.deploys[tile]
            # Each target's 4 deploys appended in C calls (``any`` runs ``extend`` over
            # them all, as it returns None: faster than ``chain.from_iterable``).
            any(map(legal.extend, map(row.__getitem__, targets) if pick is None else pick(row)))
    # The shifts go straight into the list; the turns and the redeploys follow.
    turns, waters = _piece_moves(table, board, maps, p, moving, blocked, fragile, shaky, legal)
    legal += turns
    for origin, exposed in waters:
        row_r = cast("tuple[PaikoAction, ...]", table.redeploys[origin])
        if exposed:
            legal += [row_r[t] for t in targets if safe(maps, p, WATER_N, t, exposed)]
        else:
            legal += map(row_r.__getitem__, targets) if pick is None else pick(row_r)
    return legal


def tile_actions(
    table: PaikoTable,
    board: list[int],
    maps: PaikoMaps,
    p: int,
    squares: list[int],
    square: int,
    blocked: int,
) -> list[PaikoAction]:
    """The legal actions of p's one tile on ``square`` (which may move): its shifts, turns and,
    for a Water, redeploys — the part of :func:`turn_actions` that is that tile's, by the same
    functions. ``squares``: p's squares; ``blocked``: as for :func:`turn_actions`. For the
    search bots' rollout policy, which checks a few moves of one tile without the whole list."""
    fragile, shaky = fragile_of(maps, p, squares)
    legal: list[PaikoAction] = []
    turns, waters = _piece_moves(table, board, maps, p, [square], blocked, fragile, shaky, legal)
    legal += turns
    for origin, exposed in waters:
        row_r = cast("tuple[PaikoAction, ...]", table.redeploys[origin])
        legal += [
            row_r[t]
            for t in squares_of(deploy_targets(maps, p))
            if not exposed or safe(maps, p, WATER_N, t, exposed)
        ]
    return legal


# ----------------------------------------------------------------- the draw


def sample_turn_action(
    table: PaikoTable,
    board: list[int],
    maps: PaikoMaps,
    p: int,
    squares: list[int],
    movers: list[list[int]],
    supply: Supply,
    blocked: int,
    rng: Random,
) -> PaikoAction | None:
    """One legal action of p's turn drawn uniformly from ``rng`` without listing them, or
    ``None`` after :data:`ATTEMPTS` rejected candidates (or with none: only ``pass`` is
    legal); the caller then draws from the legal list. ``movers``: p's squares of the tiles
    that may move, by :data:`GROUP`; the rest as for :func:`turn_actions`.

    Each legal action is exactly one candidate: a legal draw; a deploy of a tile in hand on a
    deploy square (a Lotus: on any empty square) in a facing it may take; one of the slots
    (``PaikoTable.slots``: a shift over an empty board, or a turn) of each tile that may move;
    a Water's redeploy on a deploy square. The candidates are counted without a look at the
    board, one is drawn with one ``rng.random()``, and it is accepted if legal by the rules of
    :func:`turn_actions`, else another is drawn. What is accepted is then uniform over the
    legal actions (about 1.8 draws on average).

    A slot is checked here, inline (a function of its own cost a call per slot): its tile's
    passable squares (:func:`passable`, less those of :func:`sole_cover` — then by
    :func:`_slow_tile_moves`, the list's own), then its path (``data.SHIFT_PATHS``: the path
    to one target that ``data.reach`` finds for all), and a Fire's fragile neighbours
    (:func:`fire_near`).
    """
    draws, in_hand = supply
    n_draws = len(draws)
    taken = maps.taken
    targets = deploy_targets(maps, p)
    n_targets = targets.bit_count()
    # Deploy candidates: on every target for each tile in hand, in each facing it may take
    # (a Lotus: on every empty square).
    empty = NUM_SQUARES - taken.bit_count()
    n_deploys = n_targets * in_hand[0] + (empty if in_hand[1] else 0)
    faced, swords, waters, earths = movers
    n_faced = len(faced) * FACED_SLOTS
    n_swords = len(swords) * SLOT_TARGETS[2]
    water_slots = SLOT_TARGETS[2] + n_targets
    n_waters = len(waters) * water_slots
    total = n_draws + n_deploys + n_faced + n_swords + n_waters + len(earths) * SLOT_TARGETS[1]
    fragile: list[int] | None = None
    for _ in range(ATTEMPTS if total else 0):
        k = int(rng.random() * total)
        if k >= total:
            k = total - 1
        if k < n_draws:
            return draws[k]
        k -= n_draws
        if k < n_deploys:
            for tile in in_hand[2]:
                size = empty if tile == LOTUS else n_targets << 2 if FACED[tile] else n_targets
                if k < size:
                    break
                k -= size
            if tile == LOTUS:
                s = nth_square(ALL_BITS ^ taken, k)
                if lotus_calm(maps.against[p][s]):
                    return table.deploys_n[LOTUS][s]
                continue
            if not FACED[tile]:
                return table.deploys_n[tile][nth_square(targets, k)]
            s = nth_square(targets, k >> 2)
            if tile == FIRE:
                if fragile is None:
                    fragile = fragile_of(maps, p, squares)[0]
                if fragile and BIT[s] & fire_unsafe(fragile)[k & 3]:  # it would threaten one
                    continue
            return table.deploys[tile][s][k & 3]
        k -= n_deploys
        # The slot, and the index of its shift's target in SHIFT_PATHS (-1: a turn).
        if k < n_faced:
            square = faced[k // FACED_SLOTS]
            slot = k % FACED_SLOTS
            index = slot >> 2 if slot < 4 * SLOT_TARGETS[2] else -1
        else:
            k -= n_faced
            if k < n_swords:
                square = swords[k // SLOT_TARGETS[2]]
                slot = index = k % SLOT_TARGETS[2]
            else:
                k -= n_swords
                if k < n_waters:
                    square = waters[k // water_slots]
                    slot = index = k % water_slots
                else:
                    k -= n_waters
                    square = earths[k // SLOT_TARGETS[1]]
                    slot = index = k % SLOT_TARGETS[1]
        if square == blocked:
            continue
        piece = board[square]
        if slot >= SLOT_TARGETS[2] and piece & 31 == WATER_N:  # a redeploy
            target = nth_square(targets, slot - SLOT_TARGETS[2])
            exposed = sole_cover(maps, board, square, piece)[1]
            if not exposed or safe(maps, p, WATER_N, target, exposed):
                return cast(PaikoAction, table.redeploys[square][target])
            continue
        kind = piece & 31
        action = table.slots[kind][square][slot]
        if action is None:
            continue
        how = HOW[kind]
        if how == MOVES_FIRE:
            pattern = THREAT_BITS[kind][square]
            if fragile is None:
                fragile = fragile_of(maps, p, squares)[0]
            near = fire_near(maps, p, square, pattern, fragile) if fragile else fragile
            if near and BIT[action.dst] & fire_unsafe(near)[action.facing]:
                continue  # it would threaten a fragile own tile
            free = passable(maps, p, pattern)
        elif how != MOVES_PLAIN and sole_cover(maps, board, square, piece) != NOTHING_LOST:
            # A Sai or a Water that is the only cover of a square with 2 threats: the slow way.
            shifts: list[PaikoAction] = []
            turns: list[PaikoAction] = []
            _slow_tile_moves(table, board, maps, square, piece, shifts, turns)
            if action in (shifts if index >= 0 else turns):
                return action
            continue
        else:
            free = passable(maps, p, 0)
        if index < 0:  # a turn: no path
            return action
        bit, via = SHIFT_PATHS[square][index]
        if free & bit and (not via or free & via):
            return action
    return None

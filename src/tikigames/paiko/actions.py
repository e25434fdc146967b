"""Paikō's action table (18,090 ids, stable across releases) and the lookups the rules engine
uses to enumerate legal actions without building any text.

===========  ===========================  ====================================================
ids          kind                         text
===========  ===========================  ====================================================
0–7          draft one tile               ``draft {tile}``
8–171        draw 1–3 tiles               ``draw {tile}[,{tile}[,{tile}]]`` (tile order)
172–2075     deploy                       ``{tile}@{square}:{facing}``
2076–6091    shift                        ``{from}-{to}:{facing}``
6092–6523    turn in place                ``{square}:{facing}``
6524–18079   redeploy a Water             ``{from}>{to}:N``
18080        a deployed Sai stays         ``stay``
18081–18088  a victim's pick              ``give {tile}``
18089        pass                         ``pass``
===========  ===========================  ====================================================

Inside each kind the order is: tiles in canonical order, squares in index order (reading order
as White sees the board), facings N, E, S, W. Draws are ordered by size, then as combinations
with repetition in tile order. Deploys exist on all 112 squares for every tile (a non-Lotus tile
on a black square is an action that is never legal) but with the facing N only for the five
tiles whose patterns ignore facing. Shifts go from every open square to the open squares one or
two steps away that an empty board lets a tile reach — the one-step targets first, then the
two-step ones — in every facing; turns exist for every open square and facing; redeploys
between every two distinct open squares, facing N.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, combinations_with_replacement, compress
from typing import Final

from mypy_extensions import mypyc_attr

from tikigames.core.action import Action, ActionTable
from tikigames.core.errors import ActionError
from tikigames.paiko.data import (
    ALL_SQUARES,
    BIT,
    BLACK,
    COVER_BITS,
    FACED,
    FACINGS,
    NUM_SQUARES,
    NUM_TILES,
    OPEN_SQUARES,
    REGION,
    SHIFT_RANGE,
    SHIFT_TARGETS,
    SIZE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TAG,
    TAG_SHIFT,
    THREAT_BITS,
    TILE_INDEX,
    TILES,
    reach,
)

__all__ = ["PaikoAction", "PaikoTable", "build_table", "not_an_action"]

# Action kinds, in id order.
DRAFT: Final = 0
DRAW: Final = 1
DEPLOY: Final = 2
SHIFT: Final = 3
TURN: Final = 4
REDEPLOY: Final = 5
STAY: Final = 6
GIVE: Final = 7
PASS: Final = 8
KIND_NAMES: Final = ("draft", "draw", "deploy", "shift", "turn", "redeploy", "stay", "give", "pass")

#: The most tiles one draw takes.
MAX_DRAW: Final = 3

#: How the rules engine finds a tile's moves (``PaikoTable.moves``): not at all (a Lotus or an
#: Air never moves), as a Sword, Bow or Earth, as a Fire, a Sai or a Water.
MOVES_STILL: Final = 0
MOVES_PLAIN: Final = 1
MOVES_FIRE: Final = 2
MOVES_SAI: Final = 3
MOVES_WATER: Final = 4
_HOW_TILE: Final = (MOVES_SAI, MOVES_PLAIN, MOVES_PLAIN, MOVES_STILL, MOVES_STILL, MOVES_FIRE,
                    MOVES_PLAIN, MOVES_WATER)  # fmt: skip
#: Per kind (``tile << 2 | facing``), how its moves are found.
HOW: Final = tuple(_HOW_TILE[kind >> 2] for kind in range(NUM_TILES * 4))


@mypyc_attr(native_class=False)  # an int subclass: mypyc compiles it as a Python class
class PaikoAction(Action):
    """A Paikō action with its decoded fields.

    Attributes:
        kind: ``DRAFT`` … ``PASS`` (module constants).
        tile: the tile drafted, deployed or given, else −1.
        src: the square a shift, turn or redeploy starts from, else −1.
        dst: the square a deploy, shift, turn or redeploy ends on, else −1.
        facing: the facing given by a deploy, shift, turn or redeploy (0–3 for N, E, S, W), else
            −1.
        draw: for a draw, ``(tile, count)`` pairs; else ``()``.
        size: the number of tiles a draw takes, else 0.
    """

    kind: int
    tile: int
    src: int
    dst: int
    facing: int
    draw: tuple[tuple[int, int], ...]
    size: int


def _action(
    actions: list[PaikoAction],
    text: str,
    kind: int,
    tile: int = -1,
    src: int = -1,
    dst: int = -1,
    facing: int = -1,
    draw: tuple[tuple[int, int], ...] = (),
) -> PaikoAction:
    action = PaikoAction(len(actions), text)
    action.kind = kind
    action.tile = tile
    action.src = src
    action.dst = dst
    action.facing = facing
    action.draw = draw
    action.size = sum(count for _, count in draw)
    actions.append(action)
    return action


def draw_text(tiles: Sequence[int]) -> str:
    """``draw bow,fire,fire``: the tiles in canonical order."""
    return "draw " + ",".join(TILES[tile] for tile in sorted(tiles))


class PaikoTable(ActionTable[PaikoAction]):
    """The action table with the per-square lookups of the rules engine.

    Attributes:
        drafts, gives: by tile.
        draws: every draw, in id order.
        deploys: ``deploys[tile][square]``: the deploy actions there (4 facings or N only).
        deploys_n: ``deploys_n[tile][square]``: the one facing N.
        near: ``near[square]``: ``(target, actions by facing)`` for each one-step target of a
            shift from there, in id order (``data.SHIFT_TARGETS``).
        far: ``far[square]``: ``(target, middles, actions by facing)`` for each two-step target,
            in id order, with the squares such a shift may pass through.
        shift_bits, shift_actions, shift_actions_n: ``[square]``: for each shift target from
            there (one step, then two, in id order), its bit (``data.BIT``), its actions by
            facing, and its one action facing N as a 1-tuple.
        turns: ``turns[square]``: the 4 turn actions (``()`` on a black square).
        redeploys: ``redeploys[src][dst]``: the redeploy action, or ``None``.
        turns_from: ``turns_from[square][facing]``: the 3 turns to the other facings.
        moves: ``moves[kind][square]``: ``(how, REGION, TAG, turns, mask)`` of a tile of that
            kind there (:data:`HOW`; ``data.TAG``; its 3 turns to the other facings if it may
            turn, else ``()``; its threat pattern for a Fire, its cover pattern for a Sai or a
            Water, as masks), in one lookup for the engine's loop over the tiles.
        slots: ``slots[kind][square]``: the candidate moves of a tile of that kind there, for
            the rejection sampler of ``PaikoState.random_action``: every shift over an empty
            board (:data:`SLOT_TARGETS` targets, ``None`` for those the square lacks) in each
            facing the tile may take, then its 3 turns; ``()`` for a tile that never moves.
        stay, pass_: the two single actions.
        reach_memo: the memo of :meth:`reached` by key. The engine's hottest loop reads it
            directly (``reach_memo.get(key)``, then :meth:`reached` on a miss) to save a call
            per tile; only :meth:`reached` writes it.
    """

    __slots__ = (
        "_avoiding_cache",
        "_avoiding_old",
        "_draw_cache",
        "_reach_old",
        "_reached_cache",
        "deploys",
        "deploys_n",
        "drafts",
        "draws",
        "far",
        "gives",
        "moves",
        "near",
        "pass_",
        "reach_memo",
        "redeploys",
        "shift_actions",
        "shift_actions_n",
        "shift_bits",
        "slots",
        "stay",
        "turns",
        "turns_from",
    )

    drafts: tuple[PaikoAction, ...]
    draws: tuple[PaikoAction, ...]
    deploys: tuple[tuple[tuple[PaikoAction, ...], ...], ...]
    deploys_n: tuple[tuple[PaikoAction, ...], ...]
    near: tuple[tuple[tuple[int, tuple[PaikoAction, ...]], ...], ...]
    far: tuple[tuple[tuple[int, tuple[int, ...], tuple[PaikoAction, ...]], ...], ...]
    shift_bits: tuple[tuple[int, ...], ...]
    shift_actions: tuple[tuple[tuple[PaikoAction, ...], ...], ...]
    shift_actions_n: tuple[tuple[tuple[PaikoAction, ...], ...], ...]
    turns: tuple[tuple[PaikoAction, ...], ...]
    turns_from: tuple[tuple[tuple[PaikoAction, ...], ...], ...]
    moves: tuple[tuple[tuple[int, int, int, tuple[PaikoAction, ...], int], ...], ...]
    redeploys: tuple[tuple[PaikoAction | None, ...], ...]
    slots: tuple[tuple[tuple[PaikoAction | None, ...], ...], ...]
    stay: PaikoAction
    gives: tuple[PaikoAction, ...]
    pass_: PaikoAction

    def __init__(self, actions: Sequence[PaikoAction]) -> None:
        """The table of ``actions`` (in id order), read with :func:`normalize`; the lookups are
        set by :func:`build_table`."""
        super().__init__(actions, normalize=normalize)
        self.reach_memo: dict[int, tuple[PaikoAction, ...]] = {}
        self._reached_cache: dict[int, tuple[PaikoAction, ...]] = {}
        self._draw_cache: dict[tuple[int, ...], tuple[PaikoAction, ...]] = {}
        self._reach_old: dict[int, tuple[PaikoAction, ...]] = {}
        self._avoiding_cache: dict[tuple[int, int, int, int, int], tuple[PaikoAction, ...]] = {}
        self._avoiding_old: dict[tuple[int, int, int, int, int], tuple[PaikoAction, ...]] = {}

    def parse(self, text: object) -> PaikoAction:
        """The action written ``text``, as :meth:`ActionTable.parse
        <tikigames.core.action.ActionTable.parse>` reads it (the same texts parse); a text that
        is not an action is refused with what is wrong with it (:func:`not_an_action`).

        >>> table = build_table()
        >>> table.parse("Sword@D5:n").text
        'sword@d5:N'
        >>> table.parse("sword@d5:E")
        Traceback (most recent call last):
        ...
        tikigames.core.errors.ActionError: 'sword@d5:E' is not an action of this game: a Sword \
has no facing: write sword@d5:N
        """
        try:
            return super().parse(text)
        except ActionError as error:
            why = not_an_action(text) if isinstance(text, str) else None
            if why is None:
                raise
            raise ActionError(f"{error}: {why}") from None

    def legal_draws(self, reserve: Sequence[int], exact: bool) -> tuple[PaikoAction, ...]:
        """The draws a reserve allows (only those of min(3, reserve) tiles when ``exact``),
        memoised by the reserve's counts.

        On a miss the counts are packed capped at 3 — all a draw can depend on — in 3-bit fields
        whose top bit is a guard (``4 + count``); a draw's own counts packed the same way without
        guards subtract field by field without borrowing, and a field keeps its guard exactly
        when the reserve holds enough."""
        key = (exact, *reserve)
        cached = self._draw_cache.get(key)
        if cached is None:
            packed = 0
            for count in reversed(reserve):
                packed = packed << 3 | _GUARD | (count if count < MAX_DRAW else MAX_DRAW)
            guards = _GUARDS
            size = min(MAX_DRAW, sum(min(count, MAX_DRAW) for count in reserve))
            cached = tuple(
                action
                for action, need in zip(self.draws, _DRAW_NEEDS, strict=True)
                if (packed - need) & guards == guards and (not exact or action.size == size)
            )
            self._draw_cache[key] = cached
        return cached

    def reached(self, key: int) -> tuple[PaikoAction, ...]:
        """The shifts a reach key allows (``data.TAG``), in id order: the targets a path of
        passable squares reaches, in every facing for a Sai, Bow or Fire, facing N for the
        others.

        Memoised twice: by the key itself (:attr:`reach_memo`), and by the targets reached, so
        that the many keys leading to the same targets share one tuple and a new key costs a
        bitmask step and a lookup. The memo by key keeps two generations: when it is full it
        becomes the old one, whose keys move back to the new one as they are met again — the
        keys in use stay, the others go."""
        found = self.reach_memo.get(key)
        if found is not None:
            return found
        found = self._reach_old.get(key)
        if found is None:
            tag = key >> TAG_SHIFT
            origin, steps, faced = tag >> 3, tag >> 1 & 3, tag & 1
            mask = reach(origin, key, steps)
            reached_key = mask | tag << TAG_SHIFT
            found = self._reached_cache.get(reached_key)
            if found is None:
                # The targets' actions picked by their bits, flattened, in C calls.
                rows = self.shift_actions[origin] if faced else self.shift_actions_n[origin]
                picked = compress(rows, map(mask.__and__, self.shift_bits[origin]))
                found = tuple(chain.from_iterable(picked))
                if len(self._reached_cache) >= _REACHED_CACHE_SIZE:
                    self._reached_cache.clear()
                self._reached_cache[reached_key] = found
        if len(self.reach_memo) >= _REACH_CACHE_SIZE:
            self._reach_old = self.reach_memo
            self.reach_memo = {}
        self.reach_memo[key] = found
        return found

    def reached_avoiding(self, key: int, unsafe: tuple[int, ...]) -> tuple[PaikoAction, ...]:
        """The shifts of :meth:`reached` but those ending, in facing f, on a square of the mask
        ``unsafe[f]``: a Fire's shifts that spare the fragile own tiles. Memoised by the key and
        the unsafe squares of the region the key covers, in two generations as :meth:`reached`."""
        region = key & _REGION_BITS
        memo_key = (
            key,
            unsafe[0] & region,
            unsafe[1] & region,
            unsafe[2] & region,
            unsafe[3] & region,
        )
        found = self._avoiding_cache.get(memo_key)
        if found is not None:
            return found
        found = self._avoiding_old.get(memo_key)
        if found is None:
            found = tuple(
                [
                    action
                    for action in self.reached(key)
                    if not BIT[action.dst] & unsafe[action.facing]
                ]
            )
        if len(self._avoiding_cache) >= _AVOIDING_CACHE_SIZE:
            self._avoiding_old = self._avoiding_cache
            self._avoiding_cache = {}
        self._avoiding_cache[memo_key] = found
        return found

    def targets(self, mask: int, origin: int) -> list[tuple[int, tuple[PaikoAction, ...]]]:
        """``(target, actions by facing)`` for the shift targets from ``origin`` in ``mask``, in
        id order."""
        return [
            (target, actions) for target, actions in self.near[origin] if mask & BIT[target]
        ] + [(target, actions) for target, _, actions in self.far[origin] if mask & BIT[target]]


#: The memo of :meth:`PaikoTable.reached` by key starts a new generation when it holds this many
#: keys (about 100 bytes each; the tuples are shared; two generations at most) …
_REACH_CACHE_SIZE: Final = 200_000
#: … its memo by targets starts over when it holds this many tuples (about 400 bytes each) …
_REACHED_CACHE_SIZE: Final = 50_000
#: … and the memo of :meth:`PaikoTable.reached_avoiding` starts a new generation at this many keys
#: (about 250 bytes each).
_AVOIDING_CACHE_SIZE: Final = 40_000
#: The bits of a reach key below its tag: the passable squares.
_REGION_BITS: Final = (1 << TAG_SHIFT) - 1


#: Draw packing (see :meth:`PaikoTable.legal_draws`): a field's guard bit, every guard, and
#: each draw's tile counts, in id order.
_GUARD: Final = 4
_GUARDS: Final = sum(_GUARD << 3 * tile for tile in range(NUM_TILES))
_DRAW_NEEDS: Final = tuple(
    sum(count << 3 * tile for tile, count in tiles)
    for size in range(1, MAX_DRAW + 1)
    for tiles in (
        tuple((t, combo.count(t)) for t in sorted(set(combo)))
        for combo in combinations_with_replacement(range(NUM_TILES), size)
    )
)


def build_table() -> PaikoTable:
    """Every Paikō action, in id order, with the engine's lookups."""
    actions: list[PaikoAction] = []
    drafts = tuple(_action(actions, f"draft {name}", DRAFT, tile=t) for t, name in enumerate(TILES))
    draws = []
    for size in range(1, MAX_DRAW + 1):
        for tiles in combinations_with_replacement(range(NUM_TILES), size):
            counts = tuple((t, tiles.count(t)) for t in sorted(set(tiles)))
            draws.append(_action(actions, draw_text(tiles), DRAW, draw=counts))
    deploys = tuple(
        tuple(
            tuple(
                _action(
                    actions,
                    f"{TILES[t]}@{SQUARE_NAMES[s]}:{FACINGS[f]}",
                    DEPLOY,
                    t,
                    dst=s,
                    facing=f,
                )
                for f in (range(4) if FACED[t] else (0,))
            )
            for s in ALL_SQUARES
        )
        for t in range(NUM_TILES)
    )
    shifts = tuple(
        tuple(
            (
                target,
                steps,
                middles,
                tuple(
                    _action(
                        actions,
                        f"{SQUARE_NAMES[s]}-{SQUARE_NAMES[target]}:{FACINGS[f]}",
                        SHIFT,
                        src=s,
                        dst=target,
                        facing=f,
                    )
                    for f in range(4)
                ),
            )
            for target, steps, middles in SHIFT_TARGETS[s]
        )
        for s in ALL_SQUARES
    )
    open_set = frozenset(OPEN_SQUARES)
    turns = tuple(
        tuple(
            _action(actions, f"{SQUARE_NAMES[s]}:{FACINGS[f]}", TURN, src=s, dst=s, facing=f)
            for f in range(4)
        )
        if s in open_set
        else ()
        for s in ALL_SQUARES
    )
    redeploys: list[list[PaikoAction | None]] = [[None] * NUM_SQUARES for _ in ALL_SQUARES]
    for s in OPEN_SQUARES:
        for d in OPEN_SQUARES:
            if d != s:
                text = f"{SQUARE_NAMES[s]}>{SQUARE_NAMES[d]}:N"
                redeploys[s][d] = _action(actions, text, REDEPLOY, src=s, dst=d, facing=0)
    stay = _action(actions, "stay", STAY)
    gives = tuple(_action(actions, f"give {name}", GIVE, tile=t) for t, name in enumerate(TILES))
    pass_ = _action(actions, "pass", PASS)

    table = PaikoTable(actions)
    table.drafts = drafts
    table.draws = tuple(draws)
    table.deploys = deploys
    table.deploys_n = tuple(tuple(actions[0] for actions in row) for row in deploys)
    table.near = tuple(
        tuple((target, acts) for target, steps, _, acts in row if steps == 1) for row in shifts
    )
    table.far = tuple(
        tuple((target, middles, acts) for target, steps, middles, acts in row if steps == 2)
        for row in shifts
    )
    table.shift_bits = tuple(tuple(BIT[target] for target, _, _, _ in row) for row in shifts)
    table.shift_actions = tuple(tuple(acts for _, _, _, acts in row) for row in shifts)
    table.shift_actions_n = tuple(tuple(acts[:1] for _, _, _, acts in row) for row in shifts)
    table.turns = turns
    table.turns_from = tuple(
        tuple(tuple(row[f] for f in range(4) if f != facing) for facing in range(4)) if row else ()
        for row in turns
    )
    table.redeploys = tuple(tuple(row) for row in redeploys)
    table.moves = tuple(
        tuple(
            (
                HOW[kind],
                REGION[kind][s],
                TAG[kind][s],
                table.turns_from[s][kind & 3] if FACED[kind >> 2] and turns[s] else (),
                THREAT_BITS[kind][s] if HOW[kind] == MOVES_FIRE else COVER_BITS[kind][s],
            )
            for s in ALL_SQUARES
        )
        for kind in range(NUM_TILES * 4)
    )
    table.slots = tuple(
        tuple(_slots(table, kind, s) for s in ALL_SQUARES) for kind in range(NUM_TILES * 4)
    )
    table.stay = stay
    table.gives = gives
    table.pass_ = pass_
    return table


#: The most shift targets of a tile with a range of 1 and of 2.
SLOT_TARGETS: Final = (0, 4, 12)


def _slots(table: PaikoTable, kind: int, square: int) -> tuple[PaikoAction | None, ...]:
    """``table.slots[kind][square]``."""
    tile, facing = kind >> 2, kind & 3
    steps = SHIFT_RANGE[tile]
    if not steps:
        return ()
    targets: list[tuple[PaikoAction, ...] | None] = [actions for _, actions in table.near[square]]
    if steps == 2:
        targets += [actions for _, _, actions in table.far[square]]
    targets += [None] * (SLOT_TARGETS[steps] - len(targets))
    if not FACED[tile]:
        return tuple(None if actions is None else actions[0] for actions in targets)
    shifts = [None if actions is None else actions[f] for actions in targets for f in range(4)]
    turns = table.turns_from[square][facing] if table.turns[square] else (None,) * 3
    return (*shifts, *turns)


def normalize(text: str) -> str:
    """The lookup key of a text: case and whitespace folded; a draw's tiles in canonical order,
    with any spaces around its commas dropped."""
    folded = " ".join(text.split()).lower()
    if folded.startswith("draw "):
        names = [name.strip() for name in folded[5:].split(",")]
        if 1 <= len(names) <= MAX_DRAW and all(name in TILE_INDEX for name in names):
            return draw_text([TILE_INDEX[name] for name in names])
    return folded


# ----------------------------------------------------------------- what is wrong with a text

#: Every form of action, for a text almost like one of them.
FORMS: Final = (
    "draft TILE, draw TILE[,TILE[,TILE]], TILE@SQUARE:FACING (deploy), FROM-TO:FACING (shift),"
    " SQUARE:FACING (turn), FROM>TO:N (a Water's redeploy), stay, give TILE or pass"
)


def not_an_action(text: str) -> str | None:
    """What is wrong with ``text``, which is not an action of the table but almost one: an
    unknown tile name (the names listed), a square off the board, a facing on a tile without
    one, a facing missing, a shift too long, a square or a tile alone; ``None`` for a text like
    no action at all (``castle kingside``).

    >>> not_an_action("swrd@d5:N")
    "'swrd' is not a tile: the tiles are sai, sword, bow, lotus, air, fire, earth and water"
    >>> not_an_action("sword@a1:N")
    'a1 is off the board: rank 1 holds only g1 and h1'
    >>> not_an_action("bow@e5")
    'a deploy ends with the facing the Bow takes, N, E, S or W: bow@e5:N'
    >>> not_an_action("d5-d9:N")
    'a shift goes 1 or 2 orthogonal steps over open squares, and d5 to d9 is no such move'
    """
    folded = " ".join(text.split()).lower()
    word, _, rest = folded.partition(" ")
    if word in ("draft", "give"):
        if not rest:
            return f"{word} names one tile: {word} sai"
        return _tile_problem(rest) or f"{word} names one tile: {word} {TILES[0]}"
    if word == "draw":
        names = [name.strip() for name in rest.split(",")] if rest else []
        if not 1 <= len(names) <= MAX_DRAW:
            return f"a draw takes 1 to {MAX_DRAW} tiles, named with commas: draw air,fire"
        return next(filter(None, map(_tile_problem, names)), f"not a draw: {FORMS}")
    if word in ("stay", "pass"):
        return f"{word} is written alone"
    if "@" in folded:
        return _deploy_problem(*folded.split("@", 1))
    for mark, problem in ((">", _redeploy_problem), ("-", _shift_problem)):
        if mark in folded:
            source, _, target = folded.partition(mark)
            target, colon, facing = target.partition(":")
            return problem(source, target, facing if colon else None)
    if ":" in folded:
        square, _, facing = folded.partition(":")
        found = _square_problem(square) or _facing_problem(facing)
        if found:
            return found
        return f"{square} is a black square: only a Lotus stands there, and a Lotus never turns"
    if folded in TILE_INDEX:
        return f"a deploy names the square and the facing: {folded}@g6:N"
    if folded in SQUARE_INDEX:
        return (
            f"a square alone is no action: a turn names the facing ({folded}:E), a shift the"
            f" target too ({folded}-…:N)"
        )
    return None


def _tile_problem(name: str) -> str | None:
    if name in TILE_INDEX:
        return None
    return f"{name!r} is not a tile: the tiles are {', '.join(TILES[:-1])} and {TILES[-1]}"


def _square_problem(name: str) -> str | None:
    """Why ``name`` is not a square of the diamond, or ``None``."""
    if name in SQUARE_INDEX:
        return None
    file, rank = name[:1], name[1:]
    if "a" <= file <= chr(ord("a") + SIZE - 1) and rank.isdigit() and 1 <= int(rank) <= SIZE:
        row = [square for square in SQUARE_NAMES if square[1:] == rank]
        span = f"{row[0]} and {row[-1]}" if len(row) == 2 else f"{row[0]} to {row[-1]}"
        return f"{name} is off the board: rank {rank} holds only {span}"
    return f"{name!r} is not a square: a file a–n and a rank 1–14, on the diamond (e.g. g6)"


def _facing_problem(facing: str) -> str | None:
    if facing in ("n", "e", "s", "w"):
        return None
    if not facing:
        return "the facing after the colon is missing: N, E, S or W"
    return f"{facing.upper()!r} is not a facing: N, E, S or W"


def _deploy_problem(tile: str, place: str) -> str:
    square, colon, facing = place.partition(":")
    found = _tile_problem(tile) or _square_problem(square)
    if found:
        return found
    kind = TILE_INDEX[tile]
    name = TILES[kind].capitalize()
    if not colon:
        if FACED[kind]:
            return (
                f"a deploy ends with the facing the {name} takes, N, E, S or W: {tile}@{square}:N"
            )
        return f"a deploy ends with :N (the {name} has no facing): {tile}@{square}:N"
    found = _facing_problem(facing)
    if found:
        return found
    if not FACED[kind]:
        article = "an" if tile in ("air", "earth") else "a"
        return f"{article} {name} has no facing: write {tile}@{square}:N"
    return f"not a deploy: {FORMS}"


def _shift_problem(source: str, target: str, facing: str | None) -> str:
    found = _square_problem(source) or _square_problem(target)
    if found:
        return found
    if facing is None:
        return (
            "a shift ends with the facing the tile takes, N, E, S or W (N for a tile without"
            f" one): {source}-{target}:N"
        )
    found = _facing_problem(facing)
    if found:
        return found
    for square in (source, target):
        if BLACK[SQUARE_INDEX[square]]:
            return f"{square} is a black square: no tile shifts into, out of or through one"
    return (
        "a shift goes 1 or 2 orthogonal steps over open squares, and"
        f" {source} to {target} is no such move"
    )


def _redeploy_problem(source: str, target: str, facing: str | None) -> str:
    found = _square_problem(source) or _square_problem(target)
    if found:
        return found
    if facing != "n":
        return f"a Water has no facing: its redeploy is written {source}>{target}:N"
    if source == target:
        return "a Water redeploys onto another square"
    black = target if BLACK[SQUARE_INDEX[target]] else source
    return f"{black} is a black square: only a Lotus stands there, and a Water never does"

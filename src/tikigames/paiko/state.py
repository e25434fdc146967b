"""Paikō's rules engine.

The board is a list of 112 ints (−1 for an empty square, else ``player << 5 | tile << 2 |
facing``). Beside it the state keeps the threat, cover, support and danger maps of
:mod:`tikigames.paiko.maps`, which every placement and removal of a tile updates from the
precomputed patterns, so that no legality test ever scans the board. Each player's occupied
squares are kept as a sorted list too.

A tile is capturable when ``against − (cover > 0) ≥ 2``. At the start of every turn no tile of
either player is capturable (the mover's own action may not leave one, and the captures that
follow take every capturable opponent tile), so a legality check looks only at the squares the
action changes: the tiles a moving tile stops covering, and the own tiles a Fire's new pattern
reaches. Captures start from the opponent tiles in the acting tile's final threat pattern, the
only squares whose threat rose.

Every change is undone from a small record (the scalar fields, the captured tiles, the moved
tile), never from a copy of the board.
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from random import Random
from typing import TYPE_CHECKING, Any, Final, cast

from typing_extensions import Self

from tikigames.core.constants import TERMINAL
from tikigames.core.state import State
from tikigames.paiko import refusals
from tikigames.paiko.actions import (
    DEPLOY,
    DRAFT,
    DRAW,
    GIVE,
    HOW,
    MOVES_FIRE,
    MOVES_PLAIN,
    MOVES_STILL,
    MOVES_WATER,
    PASS,
    REDEPLOY,
    SHIFT,
    SLOT_TARGETS,
    STAY,
    TURN,
    PaikoAction,
    PaikoTable,
)
from tikigames.paiko.data import (
    ALL_BITS,
    BIT,
    COPIES,
    COVER,
    COVER_SETS,
    DRAFT_ORDER,
    DRAFTING,
    FACED,
    FACINGS,
    FIRE,
    FIRE_REACH_BITS,
    FOLLOW_UP,
    LOTUS,
    NUM_SQUARES,
    NUM_TILES,
    OPEN_BITS,
    OVER,
    PHASE_NAMES,
    PICKING,
    PLAYING,
    REGION,
    SAI,
    SHIFT_PATHS,
    SHIFT_RANGE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TAG,
    THREAT,
    THREAT_BITS,
    TIE_LOST,
    TIE_POINTS,
    TILES,
    VALUE,
    WATER,
    WIN_POINTS,
    fire_unsafe,
    nth_square,
    reach,
    squares_of,
)
from tikigames.paiko.maps import BLOCKED, PaikoMaps

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko  # noqa: F401 (base class)
    from tikigames.paiko.observation import PaikoObservation  # noqa: F401 (base class)

__all__ = ["PaikoState"]

#: Where the board stores "no tile".
EMPTY: Final = -1
# How a tile's moves are found (``actions.HOW``), by shorter names.
_STILL: Final = MOVES_STILL
_PLAIN: Final = MOVES_PLAIN
_FIRE: Final = MOVES_FIRE
_WATER: Final = MOVES_WATER
#: Per kind, the group of the mover lists (``PaikoState._movers``): 0 for a Sai, Bow or Fire
#: (:data:`FACED_SLOTS` slots: 12 shift targets in 4 facings, then 3 turns), 1 for a Sword, 2
#: for a Water (12 slots, then a Water's redeploys), 3 for an Earth (4); −1 for a tile that never
#: moves.
GROUP: Final = tuple((0, 1, 0, -1, -1, 0, 3, 2)[kind >> 2] for kind in range(NUM_TILES * 4))
FACED_SLOTS: Final = 4 * SLOT_TARGETS[2] + 3
#: What a player's hand and reserve allow (``PaikoState._supply_of``).
Supply = tuple[tuple[PaikoAction, ...], tuple[int, bool, tuple[int, ...]]]
#: A Sai's or a Water's moves never need the fragile tiles.
NO_FRAGILE: Final[list[int]] = []


def _deploy_profile(hand: tuple[int, ...]) -> tuple[int, bool, tuple[int, ...]]:
    """For a hand (counts by tile): the deploy candidates per target square (4 per faced tile,
    1 per other tile but the Lotus), whether it holds a Lotus, and its tiles in order."""
    tiles = tuple(tile for tile in range(NUM_TILES) if hand[tile])
    per_target = sum(4 if FACED[tile] else 1 for tile in tiles if tile != LOTUS)
    return per_target, LOTUS in tiles, tiles


_PROFILES: Final[dict[tuple[int, ...], tuple[int, bool, tuple[int, ...]]]] = {}


def _in_hand(hand: list[int]) -> tuple[int, bool, tuple[int, ...]]:
    """:func:`_deploy_profile`, memoised (a hand holds at most 3 of each tile)."""
    key = tuple(hand)
    found = _PROFILES.get(key)
    if found is None:
        found = _PROFILES[key] = _deploy_profile(key)
    return found


#: How many candidates :meth:`PaikoState.random_action` draws before it lists the legal actions.
ATTEMPTS: Final = 12
#: The kind of a Water (always facing N).
WATER_N: Final = WATER << 2
#: Whether a threat count allows a Lotus's deploy (``3 > count``).
_AT_MOST_2: Final = (3).__gt__
#: A Water whose redeploys need not cover any own tile.
NO_EXPOSED: Final[tuple[int, ...]] = ()


class PaikoState(State[PaikoAction, "Paiko", "PaikoObservation"]):
    """A Paikō position. See the game's docs page for the rules and the notation.

    Beside the :class:`~tikigames.core.state.State` interface, the position can be read with
    the accessors below (Paikō hides nothing: they show what every player sees). The
    observation, the text rendering and the resampler read the state through them.

    >>> import tikigames
    >>> state = tikigames.load("paiko").new_initial_state()
    >>> white = ["sword", "sword", "fire", "fire", "fire", "sai", "sai"]
    >>> black = ["bow"] * 3 + ["sword"] * 3 + ["earth"] * 3
    >>> for tile in white + black + ["water"]:
    ...     state.apply_action(state.parse_action("draft " + tile))
    >>> state.phase(), state.turn(), state.hand(0)
    ('play', 0, ['sai', 'sai', 'sword', 'sword', 'fire', 'fire', 'fire', 'water'])
    >>> state.apply_action(state.parse_action("sword@g6:N"))
    >>> state.board(), state.scores(), state.threat(1, "g7")
    ([('g6', 0, 'sword', 'N')], [0, 0], 1)
    """

    __slots__ = (
        "_board",
        "_count",
        "_exact",
        "_hand",
        "_last",
        "_limit",
        "_lk",
        "_lost",
        "_maps",
        "_max_turns",
        "_mover",
        "_movers",
        "_moving",
        "_passes",
        "_phase",
        "_picks",
        "_reserve",
        "_sai",
        "_score",
        "_step",
        "_supply",
        "_tiles",
        "_turns",
        "_winner",
    )

    def _init_position(self) -> None:
        game = self.game
        rules = game.rules
        #: The repetition limit (0: none), the turn limit (0: none), and ``draw_exact``.
        self._limit: int = rules.move_limit or 0
        self._max_turns: int = rules.max_turns or 0
        self._exact = rules.draw_exact
        self._lk: PaikoTable = game.action_table
        self._board: list[int] = [EMPTY] * NUM_SQUARES
        self._maps = PaikoMaps()
        #: Per player, the squares of their tiles, sorted.
        self._tiles: list[list[int]] = [[], []]
        #: Per player and group (:data:`GROUP`), the squares of their tiles that may move,
        #: sorted: the rejection sampler of :meth:`random_action` draws among their slots.
        self._movers: list[list[list[int]]] = [[[], [], [], []], [[], [], [], []]]
        #: Per player, the squares of all their tiles that may move, sorted: the engine's loop
        #: over the tiles skips the Lotuses and Airs.
        self._moving: list[list[int]] = [[], []]
        self._hand: list[list[int]] = [[0] * NUM_TILES for _ in range(2)]
        self._reserve: list[list[int]] = [[COPIES] * NUM_TILES for _ in range(2)]
        #: Per player, what the hand and the reserve allow, or ``None`` until it is needed
        #: again (:meth:`_supply_of`); reset whenever they change.
        self._supply: list[Supply | None] = [None, None]
        self._lost: list[int] = [0, 0]
        self._score: list[int] = [0, 0]
        self._phase = DRAFTING
        #: The draft step (0–17).
        self._step = 0
        #: The player whose turn it is (the capturer while the victim picks).
        self._mover = 0
        #: Per player: the square of the tile moved on their last turn (−1: none) and on how many
        #: of their turns in a row it moved; kept only when ``move_limit`` is set.
        self._last: list[int] = [-1, -1]
        self._count: list[int] = [0, 0]
        self._passes = 0
        self._turns = 0
        #: The square of a deployed Sai awaiting its follow-up, else −1.
        self._sai = -1
        #: The victim's picks still to make.
        self._picks = 0
        #: The winner once over (−1: a draw).
        self._winner = -1

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        phase = self._phase
        if phase in (PLAYING, FOLLOW_UP):
            return self._mover
        if phase == PICKING:
            return 1 - self._mover
        if phase == DRAFTING:
            return DRAFT_ORDER[self._step]
        return TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def is_chance_node(self) -> bool:
        return False  # Paikō has no chance

    def returns(self) -> list[float]:
        if self._phase != OVER or self._winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._winner == 0 else [-1.0, 1.0]

    def evaluate(self) -> list[float]:
        """The returns once over; before that a guess from the points on the board (10 wins)
        and the tiles lost, each lost tile counting half a point: ``tanh`` of the lead over 6.
        A heuristic for search bots, not a rule."""
        if self._phase == OVER:
            return self.returns()
        score, lost = self._score, self._lost
        lead = math.tanh((score[0] - score[1] + (lost[1] - lost[0]) / 2) / 6)
        return [lead, -lead]

    def _refusal(self, action: PaikoAction) -> str:
        return refusals.refusal(self, action)

    # ----------------------------------------------------------------- reading the position

    def phase(self) -> str:
        """The phase: ``"draft"``, ``"play"``, ``"follow-up"`` (a deployed Sai may still shift
        or turn), ``"picks"`` (the captured player picks tiles for the capturer) or ``"over"``."""
        return PHASE_NAMES[self._phase]

    def board(self) -> list[tuple[str, int, str, str]]:
        """Each tile on the board as ``(square, player, tile, facing)``, in square order
        (reading order as White sees the board)."""
        board = self._board
        pieces = [(s, board[s]) for s in sorted(self._tiles[0] + self._tiles[1])]
        return [(SQUARE_NAMES[s], p >> 5, TILES[p >> 2 & 7], FACINGS[p & 3]) for s, p in pieces]

    def tile_at(self, square: str) -> tuple[int, str, str] | None:
        """``(player, tile, facing)`` of the tile on ``square`` (e.g. ``"e5"``), or ``None``."""
        piece = self._board[_square(square)]
        if piece < 0:
            return None
        return piece >> 5, TILES[piece >> 2 & 7], FACINGS[piece & 3]

    def squares(self, player: int) -> list[str]:
        """The squares of ``player``'s tiles on the board, in square order."""
        seat = self._check_player(player, allow_none=False)
        assert seat is not None
        return [SQUARE_NAMES[s] for s in self._tiles[seat]]

    def hand(self, player: int) -> list[str]:
        """``player``'s hand, tile names in canonical order."""
        seat = self._check_player(player, allow_none=False)
        assert seat is not None
        return _names(self._hand[seat])

    def reserve(self, player: int) -> list[str]:
        """``player``'s reserve, tile names in canonical order."""
        seat = self._check_player(player, allow_none=False)
        assert seat is not None
        return _names(self._reserve[seat])

    def scores(self) -> list[int]:
        """Each player's points now: their non-Lotus tiles on the board, 1 in a middleground,
        2 in the opponent's homeground."""
        return self._score.copy()

    def lost(self) -> list[int]:
        """How many tiles each player has had captured."""
        return self._lost.copy()

    def turn(self) -> int:
        """How many turns have been played since the draft (a pass is a turn; a Sai's deploy
        and its follow-up are one, with the picks of its captures)."""
        return self._turns

    def passes(self) -> int:
        """How many passes in a row have just been played (two end the game)."""
        return self._passes

    def last_moved(self) -> list[tuple[str | None, int]]:
        """Per player, ``(square, count)``: the tile moved on their last turn and on how many of
        their turns in a row it moved (``(None, 0)`` when none did, or when ``move_limit`` is
        off, which needs no count)."""
        last, count = self._last, self._count
        return [(SQUARE_NAMES[last[p]] if last[p] >= 0 else None, count[p]) for p in (0, 1)]

    def pending_sai(self) -> str | None:
        """The square of a deployed Sai awaiting its follow-up, else ``None``."""
        return SQUARE_NAMES[self._sai] if self._sai >= 0 else None

    def picks(self) -> int:
        """How many tiles the captured player has still to pick for the capturer."""
        return self._picks

    def winner(self) -> int | None:
        """The winner once the game is over; ``None`` before, and for a draw."""
        return self._winner if self._phase == OVER and self._winner >= 0 else None

    def threat(self, player: int, square: str) -> int:
        """The threat a tile of ``player`` on ``square`` suffers (or would): the opponent's
        tiles threatening it plus ``player``'s own Fires threatening it."""
        seat = self._check_player(player, allow_none=False)
        assert seat is not None
        return self._maps.against[seat][_square(square)]

    def cover(self, player: int, square: str) -> int:
        """1 if a tile of ``player`` on ``square`` is covered (homeground or a covering tile of
        theirs), else 0."""
        seat = self._check_player(player, allow_none=False)
        assert seat is not None
        return int(self._maps.cover[seat][_square(square)] > 0)

    def maps(self) -> PaikoMaps:
        """A copy of the threat, cover, support and danger maps every legality test reads (see
        :mod:`tikigames.paiko.maps`), for analysis and tests."""
        return self._maps.copy()

    # ----------------------------------------------------------------- tile bookkeeping

    def _place(self, square: int, piece: int) -> None:
        """Put ``piece`` on ``square`` and add its threat, cover and points."""
        self._board[square] = piece
        player = piece >> 5
        insort(self._tiles[player], square)
        group = GROUP[piece & 31]
        if group >= 0:
            insort(self._movers[player][group], square)
            insort(self._moving[player], square)
        self._maps.place(square, piece)
        if piece >> 2 & 7 != LOTUS:
            self._score[player] += VALUE[player][square]

    def _lift(self, square: int, piece: int) -> None:
        """Take ``piece`` off ``square``: the exact inverse of :meth:`_place`."""
        self._board[square] = EMPTY
        player = piece >> 5
        self._tiles[player].remove(square)
        group = GROUP[piece & 31]
        if group >= 0:
            self._movers[player][group].remove(square)
            self._moving[player].remove(square)
        self._maps.lift(square, piece)
        if piece >> 2 & 7 != LOTUS:
            self._score[player] -= VALUE[player][square]

    # ----------------------------------------------------------------- legal actions

    def _generate_legal(self) -> list[PaikoAction]:
        phase = self._phase
        if phase == PLAYING:
            return self._turn_actions() or [self._lk.pass_]
        if phase == FOLLOW_UP:
            shifts: list[PaikoAction] = []
            turns: list[PaikoAction] = []
            sai = self._sai
            self._tile_moves(sai, self._board[sai], shifts, turns)
            return [*shifts, *turns, self._lk.stay]
        if phase == PICKING:
            gives = self._lk.gives
            reserve = self._reserve[self._mover]
            return [gives[tile] for tile in range(NUM_TILES) if reserve[tile]]
        if phase == DRAFTING:
            drafts = self._lk.drafts
            reserve = self._reserve[DRAFT_ORDER[self._step]]
            return [drafts[tile] for tile in range(NUM_TILES) if reserve[tile]]
        return []

    def _turn_actions(self) -> list[PaikoAction]:
        """Every action of a turn but ``pass``, sorted by id (the kinds' blocks are in id order
        and each block is built in id order)."""
        p = self._mover
        lk = self._lk
        maps = self._maps
        supply = self._supply[p]
        if supply is None:
            supply = self._supply_of(p)
        legal: list[PaikoAction] = list(supply[0])
        danger = maps.danger[p]
        # The own tiles that one more threat would make capturable (their danger counts BLOCKED).
        fragile = [s for s in self._tiles[p] if danger[s] > BLOCKED]
        # Deploy squares of every tile but the Lotus: open, empty, no threat against p (cover
        # ignored), and in p's homeground or threatened by a tile of p.
        targets = squares_of(OPEN_BITS & maps.calm[p] & maps.backed[p] & ~maps.taken)
        # One C call picks a row's entries on every target.
        pick = itemgetter(*targets) if len(targets) > 1 else None
        for tile in supply[1][2]:
            if tile == LOTUS:
                # On any empty square with at most 2 threats, picked in C calls.
                row_n = lk.deploys_n[tile]
                empty = squares_of(ALL_BITS & ~maps.taken)
                calm = map(_AT_MOST_2, map(maps.against[p].__getitem__, empty))
                legal += compress(map(row_n.__getitem__, empty), calm)
            elif not FACED[tile]:
                row_n = lk.deploys_n[tile]
                legal += map(row_n.__getitem__, targets) if pick is None else pick(row_n)
            elif tile == FIRE and fragile:
                # A Fire adds one threat to each own tile in its pattern: it may not reach a
                # fragile one.
                row = lk.deploys[tile]
                unsafe = fire_unsafe(fragile)
                anywhere = unsafe[4]
                for s in targets:
                    bit = BIT[s]
                    if bit & anywhere:
                        legal += [a for f, a in enumerate(row[s]) if not bit & unsafe[f]]
                    else:
                        legal += row[s]
            else:
                row = lk.deploys[tile]
                # Each target's 4 deploys appended in C calls (``any`` runs ``extend`` over
                # them all, as it returns None: faster than ``chain.from_iterable``).
                any(map(legal.extend, map(row.__getitem__, targets) if pick is None else pick(row)))
        # The shifts go straight into the list; the turns and the redeploys follow.
        turns, waters = self._piece_moves(p, fragile, legal)
        legal += turns
        for origin, exposed in waters:
            row_r = cast("tuple[PaikoAction, ...]", lk.redeploys[origin])
            if exposed:
                legal += [row_r[t] for t in targets if self._safe(WATER_N, t, exposed)]
            else:
                legal += map(row_r.__getitem__, targets) if pick is None else pick(row_r)
        return legal

    def _piece_moves(
        self, p: int, fragile: list[int], shifts: list[PaikoAction]
    ) -> tuple[list[PaikoAction], list[tuple[int, tuple[int, ...]]]]:
        """Append to ``shifts`` the shifts of p's tiles, in id order; return their turns, in id
        order, and ``(square, exposed)`` for each Water that may redeploy (see
        :meth:`_tile_moves`).

        Most tiles take the fast path: lifting a Sword, Bow or Earth changes none of p's maps; a
        Fire's lifted threat only frees the squares of its pattern whose danger is exactly 1
        (``free`` but not ``free_fire``); a Sai or a Water changes nothing unless one of its
        cover squares has danger exactly 1 (it may be its only cover against 2 threats) or holds
        a fragile own tile — and a Fire needs care only with a fragile own tile in its reach. The
        passable squares around the tile then key the memo of its shifts. The other tiles take
        :meth:`_tile_moves`."""
        board = self._board
        lk = self._lk
        blocked = self._last[p] if self._limit and self._count[p] >= self._limit else -1
        turns: list[PaikoAction] = []
        waters: list[tuple[int, tuple[int, ...]]] = []
        maps = self._maps
        free = maps.free[p]
        free_fire = maps.free_fire[p]
        shaky = 0
        for s in fragile:
            shaky |= BIT[s]
        # Squares whose danger is exactly 1 (occupied ones have more), and fragile tiles.
        risky = free & ~free_fire | shaky
        cache = lk.reach_memo
        moves = lk.moves
        for square in self._moving[p]:
            how, region, tag, turn, mask = moves[board[square] & 31][square]
            if square == blocked:
                continue
            if how == _PLAIN:
                key = free & region | tag
            elif how == _FIRE:
                passable = free_fire | free & mask
                if shaky & FIRE_REACH_BITS[square] & ~BIT[square]:
                    # The fragile own tiles this Fire's new pattern must avoid: those it may
                    # reach that stay fragile without its threat.
                    danger = maps.danger[p]
                    zone = FIRE_REACH_BITS[square]
                    near = [
                        s
                        for s in fragile
                        if BIT[s] & zone
                        and s != square
                        and danger[s] - (BIT[s] & mask > 0) > BLOCKED
                    ]
                    if near:
                        unsafe = fire_unsafe(near)
                        shifts += lk.reached_avoiding(passable & region | tag, unsafe)
                        bit = BIT[square]
                        current = board[square] & 3
                        row = lk.turns[square]
                        turns += [row[f] for f in range(4) if f != current and not bit & unsafe[f]]
                        continue
                key = passable & region | tag
            elif mask & risky:
                exposed = self._tile_moves(square, board[square], shifts, turns)
                if exposed is not None:
                    waters.append((square, exposed))
                continue
            else:
                key = free & region | tag
                if how == _WATER:
                    waters.append((square, NO_EXPOSED))
            found = cache.get(key)
            shifts += lk.reached(key) if found is None else found
            turns += turn
        return turns, waters

    def _tile_moves(
        self, origin: int, piece: int, shifts: list[PaikoAction], turns: list[PaikoAction]
    ) -> tuple[int, ...] | None:
        """Append the legal shifts and turns of the mover's Sai or Water ``piece`` on
        ``origin``, the slow way (see :meth:`_piece_moves`); for a Water, return the own tiles
        its redeploys must cover (``exposed``).

        The passable squares come from the mover's ``free`` mask, corrected on the squares where
        this tile is the only cover: they lose it when it is lifted. The self-capture check
        needs ``exposed`` only: own tiles that are capturable without this tile's cover (the
        move must cover them again).
        """
        p = piece >> 5
        tile = piece >> 2 & 7
        kind = piece & 31
        maps = self._maps
        lk = self._lk
        exposed: list[int] = []
        free = maps.free[p]
        against = maps.against[p]
        cover = maps.cover[p]
        board = self._board
        for s in COVER[kind][origin]:
            # This tile is its only cover and it has 2 threats: passable (or safe) no more.
            if cover[s] == 1 and against[s] >= 2:
                if board[s] < 0:
                    free &= ~BIT[s]
                elif board[s] >> 5 == p:
                    exposed.append(s)
        faced = FACED[tile]
        if exposed:
            base = kind & ~3
            for target, actions in lk.targets(reach(origin, free, SHIFT_RANGE[tile]), origin):
                for f in range(4) if faced else (0,):
                    if self._safe(base | f, target, exposed):
                        shifts.append(actions[f])
        else:
            key = free & REGION[kind][origin] | TAG[kind][origin]
            found = lk.reach_memo.get(key)
            shifts += lk.reached(key) if found is None else found
        if faced:
            current = kind & 3
            if exposed:
                base = kind & ~3
                row = lk.turns[origin]
                for f in range(4):
                    if f != current and self._safe(base | f, origin, exposed):
                        turns.append(row[f])
            else:
                turns += lk.turns_from[origin][current]
        return tuple(exposed) if tile == WATER else None

    def _safe(self, kind: int, square: int, exposed: Sequence[int]) -> bool:
        """Whether the lifted Sai or Water put back as ``kind`` on ``square`` covers again each
        ``exposed`` tile (see :meth:`_tile_moves`) — and none has 3 threats."""
        covered = COVER_SETS[kind][square]
        against = self._maps.against[self._mover]
        return all(s in covered and against[s] < 3 for s in exposed)

    def _supply_of(self, p: int) -> Supply:
        """What p's hand and reserve allow: the legal draws, and the deploy profile of the hand
        (:func:`_deploy_profile`); kept in ``_supply`` until they change."""
        reserve = self._reserve[p]
        draws = self._lk.legal_draws(reserve, self._exact) if any(reserve) else ()
        supply = self._supply[p] = (draws, _in_hand(self._hand[p]))
        return supply

    def _fragile(self, p: int) -> list[int]:
        """p's tiles that one more threat would make capturable (their danger counts
        BLOCKED), in square order."""
        danger = self._maps.danger[p]
        return [s for s in self._tiles[p] if danger[s] > BLOCKED]

    def random_action(self, rng: Random) -> PaikoAction:
        """One legal action drawn uniformly from ``rng`` — during a turn without listing them.

        In the phase ``play`` (with no legal list cached) this is a rejection sampler. Each
        legal action is exactly one *candidate*: a legal draw; a deploy of a tile in hand on a
        deploy square (a Lotus: on any empty square) in a facing it may take; one of the slots
        (``PaikoTable.slots``: a shift over an empty board, or a turn) of each tile that may
        move; a Water's redeploy on a deploy square. The candidates are counted without a look
        at the board (the deploy squares are a mask, the tiles that move are listed by group),
        one is drawn uniformly with one ``rng.random()``, and it is returned if legal — a check
        of that one tile's moves, as :meth:`_piece_moves` finds them — else another is drawn.
        What is returned is then uniform over the legal actions (about 1.8 draws on average).
        After :data:`ATTEMPTS` misses (or with no candidate: only ``pass`` is legal) the legal
        list is built, cached, and drawn from with one more ``rng.random()``, which is uniform
        too. The other phases draw from the (short) legal list, one ``rng.random()``.

        The action is not the one the base class draws from the same ``rng``, and a call may
        take more than one ``rng.random()``; the distribution is the same.

        >>> import random, tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> rng = random.Random(2)
        >>> while state.phase() != "play":
        ...     state.apply_unchecked(state.random_action(rng))
        >>> state.random_action(rng) in state.legal_actions()
        True
        """
        if self._phase != PLAYING or self._legal is not None:
            return super().random_action(rng)
        p = self._mover
        lk = self._lk
        maps = self._maps
        supply = self._supply[p]
        if supply is None:
            supply = self._supply_of(p)
        draws, in_hand = supply
        n_draws = len(draws)
        taken = maps.taken
        targets = OPEN_BITS & maps.calm[p] & maps.backed[p] & ~taken
        n_targets = targets.bit_count()
        # Deploy candidates: on every target for each tile in hand, in each facing it may take
        # (a Lotus: on every empty square).
        empty = NUM_SQUARES - taken.bit_count()
        n_deploys = n_targets * in_hand[0] + (empty if in_hand[1] else 0)
        faced, swords, waters, earths = self._movers[p]
        n_faced = len(faced) * FACED_SLOTS
        n_swords = len(swords) * SLOT_TARGETS[2]
        water_slots = SLOT_TARGETS[2] + n_targets
        n_waters = len(waters) * water_slots
        total = n_draws + n_deploys + n_faced + n_swords + n_waters + len(earths) * SLOT_TARGETS[1]
        blocked = self._last[p] if self._limit and self._count[p] >= self._limit else -1
        board = self._board
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
                    s = nth_square(ALL_BITS & ~taken, k)
                    if maps.against[p][s] <= 2:
                        return lk.deploys_n[LOTUS][s]
                    continue
                if not FACED[tile]:
                    return lk.deploys_n[tile][nth_square(targets, k)]
                s = nth_square(targets, k >> 2)
                if tile == FIRE:
                    if fragile is None:
                        fragile = self._fragile(p)
                    if fragile and BIT[s] & fire_unsafe(fragile)[k & 3]:
                        continue
                return lk.deploys[tile][s][k & 3]
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
                exposed = self._exposed(square, piece)
                if not exposed or self._safe(WATER_N, target, exposed):
                    return cast(PaikoAction, lk.redeploys[square][target])
                continue
            action = lk.slots[piece & 31][square][slot]
            if action is None:
                continue
            if HOW[piece & 31] == _FIRE:
                if fragile is None:
                    fragile = self._fragile(p)
                if self._allows(square, piece, action, index, fragile):
                    return action
            elif self._allows(square, piece, action, index, NO_FRAGILE):
                return action
        return super().random_action(rng)

    def _exposed(self, square: int, piece: int) -> list[int]:
        """The own tiles that the mover's Sai or Water ``piece`` on ``square`` alone covers
        and that are capturable without it (its moves must cover them again), as
        :meth:`_tile_moves` finds them."""
        p = piece >> 5
        maps = self._maps
        against = maps.against[p]
        cover = maps.cover[p]
        board = self._board
        return [
            s
            for s in COVER[piece & 31][square]
            if cover[s] == 1 and against[s] >= 2 and board[s] >= 0 and board[s] >> 5 == p
        ]

    def _allows(
        self, square: int, piece: int, action: PaikoAction, index: int, fragile: list[int]
    ) -> bool:
        """Whether ``action``, a shift or a turn of the mover's tile ``piece`` on ``square`` (not
        blocked by the move limit), is legal: :meth:`_piece_moves` for that tile alone.
        ``index``: the shift's target in ``data.SHIFT_PATHS[square]`` (−1 for a turn);
        ``fragile``: :meth:`_fragile`, for a Fire."""
        p = piece >> 5
        kind = piece & 31
        how = HOW[kind]
        maps = self._maps
        free = maps.free[p]
        if how == _PLAIN:
            passable = free
        elif how == _FIRE:
            pattern = THREAT_BITS[kind][square]
            passable = maps.free_fire[p] | free & pattern
            danger = maps.danger[p]
            zone = FIRE_REACH_BITS[square]
            near = [
                s
                for s in fragile
                if BIT[s] & zone and s != square and danger[s] - (BIT[s] & pattern > 0) > BLOCKED
            ]
            if near and BIT[action.dst] & fire_unsafe(near)[action.facing]:
                return False
        else:
            # A Sai or a Water: the slow way if it is the only cover of a square with 2 threats.
            against = maps.against[p]
            cover = maps.cover[p]
            for s in COVER[kind][square]:
                if cover[s] == 1 and against[s] >= 2:
                    shifts: list[PaikoAction] = []
                    turns: list[PaikoAction] = []
                    self._tile_moves(square, piece, shifts, turns)
                    return action in (turns if action.kind == TURN else shifts)
            passable = free
        if index < 0:
            return True
        bit, via = SHIFT_PATHS[square][index]
        return bool(passable & bit) and (not via or bool(passable & via))

    # ----------------------------------------------------------------- apply / undo

    def _snapshot(self) -> tuple[int, ...]:
        last, count = self._last, self._count
        return (
            self._phase, self._mover, last[0], last[1], count[0], count[1], self._passes,
            self._turns, self._sai, self._picks, self._winner,
        )  # fmt: skip

    def _restore(self, snapshot: tuple[int, ...]) -> None:
        last, count = self._last, self._count
        (
            self._phase, self._mover, last[0], last[1], count[0], count[1], self._passes,
            self._turns, self._sai, self._picks, self._winner,
        ) = snapshot  # fmt: skip

    def _do(self, action: PaikoAction) -> None:
        kind = action.kind
        if SHIFT <= kind <= REDEPLOY:  # a shift, a turn in place or a Water's redeploy: most
            snapshot = self._snapshot()
            p = self._mover
            src, dst = action.src, action.dst
            moved = self._board[src]
            self._lift(src, moved)
            piece = moved & ~3 | action.facing
            self._place(dst, piece)
            if self._limit:
                last = self._last
                self._count[p] = self._count[p] + 1 if last[p] == src else 1
                last[p] = dst
            self._passes = 0
            self._phase = PLAYING
            self._sai = -1
            self._undo.append((snapshot, self._capture(p, piece, dst), moved))
            if not self._picks:
                self._finish_turn()
            return
        if kind == DRAFT:
            player = DRAFT_ORDER[self._step]
            self._reserve[player][action.tile] -= 1
            self._hand[player][action.tile] += 1
            self._supply[player] = None
            self._step += 1
            if self._step == len(DRAFT_ORDER):
                self._phase = PLAYING
            self._undo.append(None)
            return
        snapshot = self._snapshot()
        if kind == GIVE:
            capturer = self._mover
            self._reserve[capturer][action.tile] -= 1
            self._hand[capturer][action.tile] += 1
            self._supply[capturer] = None
            self._picks -= 1
            if not self._picks:
                self._finish_turn()
            self._undo.append(snapshot)
            return
        p = self._mover
        removed: tuple[tuple[int, int], ...] = ()
        moved = EMPTY
        if kind == DRAW:
            reserve, hand = self._reserve[p], self._hand[p]
            for tile, count in action.draw:
                reserve[tile] -= count
                hand[tile] += count
            self._supply[p] = None
            self._reset_moves(p)
            self._passes = 0
        elif kind == DEPLOY:
            tile = action.tile
            self._hand[p][tile] -= 1
            self._supply[p] = None
            piece = p << 5 | tile << 2 | action.facing
            self._place(action.dst, piece)
            self._reset_moves(p)
            self._passes = 0
            if tile == SAI:
                self._phase = FOLLOW_UP
                self._sai = action.dst
                self._undo.append((snapshot, removed, moved))
                return
            removed = self._capture(p, piece, action.dst)
        elif kind == STAY:
            square = self._sai
            self._phase = PLAYING
            self._sai = -1
            removed = self._capture(p, self._board[square], square)
        else:  # a pass
            self._reset_moves(p)
            self._passes += 1
        self._undo.append((snapshot, removed, moved))
        if not self._picks:
            self._finish_turn()

    def _reset_moves(self, player: int) -> None:
        self._last[player] = -1
        self._count[player] = 0

    def _capture(self, p: int, piece: int, square: int) -> tuple[tuple[int, int], ...]:
        """Capture every opponent tile that falls after p's tile ``piece`` on ``square`` ended
        the action, and set up the victim's picks.

        The fixpoint: mark each capturable opponent tile, treating marked non-Fire tiles as gone
        (they no longer cover) and marked Fires as present (they still threaten); losing cover
        can expose more tiles, so their squares are checked again. Then every marked tile is
        removed at once. Returns ``(square, piece)`` of each removed tile.
        """
        if not THREAT_BITS[piece & 31][square] & self._maps.taken:
            return ()
        q = 1 - p
        board = self._board
        work = [s for s in THREAT[piece & 31][square] if board[s] >= 0 and board[s] >> 5 == q]
        if not work:
            return ()
        against = self._maps.against[q]
        cover = self._maps.cover[q]
        marked: dict[int, int] = {}
        uncovered: dict[int, int] = {}
        while work:
            s = work.pop()
            if s in marked:
                continue
            if against[s] - (cover[s] - uncovered.get(s, 0) > 0) < 2:
                continue
            victim = board[s]
            marked[s] = victim
            if victim >> 2 & 7 != FIRE:
                for c in COVER[victim & 31][s]:
                    uncovered[c] = uncovered.get(c, 0) + 1
                    if board[c] >= 0 and board[c] >> 5 == q and c not in marked:
                        work.append(c)
        if not marked:
            return ()
        removed = tuple(marked.items())
        for s, victim in removed:
            self._lift(s, victim)
        self._lost[q] += len(removed)
        if self._last[q] in marked:
            self._reset_moves(q)
        picks = min(len(removed), sum(self._reserve[p]))
        if picks:
            self._picks = picks
            self._phase = PICKING
        return removed

    def _finish_turn(self) -> None:
        """The end checks of a finished turn (picks done), then the other player's turn."""
        p = self._mover
        self._turns += 1
        score, lost = self._score, self._lost
        if score[p] >= WIN_POINTS:
            self._winner = p
            self._phase = OVER
        elif (
            (
                (lost[0] >= TIE_LOST and lost[1] >= TIE_LOST)
                and (score[0] <= TIE_POINTS and score[1] <= TIE_POINTS)
            )
            or self._passes >= 2
            or (self._max_turns and self._turns >= self._max_turns)
        ):
            self._phase = OVER
        else:
            self._mover = 1 - p
            self._phase = PLAYING

    def _undo_last(self, action: PaikoAction) -> None:
        record = self._undo.pop()
        kind = action.kind
        if kind == DRAFT:
            self._step -= 1
            player = DRAFT_ORDER[self._step]
            self._reserve[player][action.tile] += 1
            self._hand[player][action.tile] -= 1
            self._supply[player] = None
            self._phase = DRAFTING
            return
        if kind == GIVE:
            self._restore(record)
            self._reserve[self._mover][action.tile] += 1
            self._hand[self._mover][action.tile] -= 1
            self._supply[self._mover] = None
            return
        snapshot, removed, moved = record
        self._restore(snapshot)
        p = self._mover
        if removed:
            for s, victim in removed:
                self._place(s, victim)
            self._lost[1 - p] -= len(removed)
        if kind == DRAW:
            reserve, hand = self._reserve[p], self._hand[p]
            for tile, count in action.draw:
                reserve[tile] += count
                hand[tile] -= count
            self._supply[p] = None
        elif kind == DEPLOY:
            self._lift(action.dst, self._board[action.dst])
            self._hand[p][action.tile] += 1
            self._supply[p] = None
        elif kind != STAY and kind != PASS:
            self._lift(action.dst, self._board[action.dst])
            self._place(action.src, moved)

    # ----------------------------------------------------------------- copies and identity

    def clone(self) -> Self:
        """:meth:`State.clone <tikigames.State.clone>`, with the class named so that compiled,
        ``__init__`` runs once (see the base class)."""
        if type(self) is not PaikoState:  # a subclass: its own class, at the cost of the slot
            return type(self)(self._game, self)
        return cast(Self, PaikoState(self._game, self))

    def _copy_into(self, new: PaikoState) -> None:
        new._limit = self._limit
        new._max_turns = self._max_turns
        new._exact = self._exact
        new._lk = self._lk
        new._board = self._board.copy()
        new._maps = self._maps.copy()
        new._tiles = [self._tiles[0].copy(), self._tiles[1].copy()]
        new._movers = [[squares.copy() for squares in groups] for groups in self._movers]
        new._moving = [self._moving[0].copy(), self._moving[1].copy()]
        new._hand = [self._hand[0].copy(), self._hand[1].copy()]
        new._reserve = [self._reserve[0].copy(), self._reserve[1].copy()]
        new._supply = self._supply.copy()
        new._lost = self._lost.copy()
        new._score = self._score.copy()
        new._phase = self._phase
        new._step = self._step
        new._mover = self._mover
        new._last = self._last.copy()
        new._count = self._count.copy()
        new._passes = self._passes
        new._turns = self._turns
        new._sai = self._sai
        new._picks = self._picks
        new._winner = self._winner

    def _position_key(self) -> tuple[Any, ...]:
        return (
            tuple(self._board), tuple(self._hand[0]), tuple(self._hand[1]),
            tuple(self._reserve[0]), tuple(self._reserve[1]), tuple(self._lost), self._phase,
            self._step, self._mover, tuple(self._last), tuple(self._count), self._passes,
            self._turns, self._sai, self._picks, self._winner,
        )  # fmt: skip


def _names(counts: list[int]) -> list[str]:
    return [TILES[tile] for tile in range(NUM_TILES) for _ in range(counts[tile])]


def _square(name: object) -> int:
    """The index of a square named like ``e5`` (case and surrounding spaces ignored)."""
    index = SQUARE_INDEX.get(name.strip().lower(), -1) if isinstance(name, str) else -1
    if index < 0:
        raise ValueError(f"{name!r} is not a square of the Paikō board (a1 … n14, on the diamond)")
    return index

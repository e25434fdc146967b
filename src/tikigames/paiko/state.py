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
tile), never from a copy of the board; the record of a capturing action is also what
:meth:`PaikoState.captures` reads.

This module is the position, apply/undo and the core's hooks; the legal actions of a turn, and
the uniform draw among them, are :mod:`tikigames.paiko.movegen`'s, from the parts of the
position the state hands it.
"""

from __future__ import annotations

import math
from bisect import insort
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
    PASS,
    REDEPLOY,
    SHIFT,
    STAY,
    PaikoAction,
)
from tikigames.paiko.data import (
    BIT,
    COPIES,
    COVER,
    COVER_BITS,
    DRAFT_ORDER,
    DRAFTING,
    FACED,
    FACINGS,
    FAR_BITS,
    FIRE,
    FOLLOW_UP,
    LOTUS,
    NEAR_BITS,
    NUM_SQUARES,
    NUM_TILES,
    OVER,
    PHASE_NAMES,
    PICKING,
    PLAYING,
    SAI,
    SHIFT_RANGE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    THREAT,
    THREAT_BITS,
    THREATENED_FROM_BITS,
    TIE_LOST,
    TIE_POINTS,
    TILES,
    VALUE,
    WATER,
    WIN_POINTS,
    fire_unsafe,
    nth_square,
    result_words,
    squares_of,
)
from tikigames.paiko.maps import BLOCKED, PaikoMaps
from tikigames.paiko.movegen import (
    GROUP,
    Setup,
    Supply,
    deploy_targets,
    follow_up_actions,
    fragile_of,
    sample_turn_action,
    supply_of,
    tile_actions,
    turn_actions,
)

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko  # noqa: F401 (base class)
    from tikigames.paiko.observation import PaikoObservation  # noqa: F401 (base class)

__all__ = ["PaikoState"]

#: Where the board stores "no tile".
EMPTY: Final = -1

#: The rollout policy (:meth:`PaikoState.rollout_action`), a heuristic for search bots, not a
#: rule: how many uniform candidates a playout step weighs …
ROLLOUT_CANDIDATES: Final = 4
#: … or at a node of the tree (the legal list at hand: a candidate is one ``rng.random()``) …
NODE_CANDIDATES: Final = 48
#: … the chance that it takes the first of them unweighed (playouts stay varied) …
ROLLOUT_EXPLORE: Final = 0.1
#: … what a capture is worth beside the captured tile's points (half a point: the evaluation's
#: weight of a lost tile) …
CAPTURE_WORTH: Final = 0.5
#: … and the share of a tile's worth (its points and :data:`CAPTURE_WORTH`) lost by leaving it
#: one threat from capture (or won by taking it out of there).
RISK: Final = 0.75

#: ``ATTACK_BITS[tile][s]``: where a tile of that type (in any facing) threatens s from.
ATTACK_BITS: Final = tuple(
    tuple(
        THREATENED_FROM_BITS[tile << 2][s]
        | THREATENED_FROM_BITS[tile << 2 | 1][s]
        | THREATENED_FROM_BITS[tile << 2 | 2][s]
        | THREATENED_FROM_BITS[tile << 2 | 3][s]
        for s in range(NUM_SQUARES)
    )
    for tile in range(NUM_TILES)
)
#: ``MOVE_BITS[tile][s]``: the squares a tile of that type on s may shift to over an empty
#: board, and its own square if it may turn (a Water's redeploys aside).
MOVE_BITS: Final = tuple(
    tuple(
        (NEAR_BITS[s] | FAR_BITS[s] if SHIFT_RANGE[tile] > 1 else NEAR_BITS[s])
        | (BIT[s] if FACED[tile] else 0)
        for s in range(NUM_SQUARES)
    )
    for tile in range(NUM_TILES)
)

#: The state's fields, declared once (see :attr:`State.position_fields`).
_FIELDS: Final = (
    "_board",
    "_captured",
    "_count",
    "_hand",
    "_last",
    "_lay",
    "_lost",
    "_maps",
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

    __slots__ = _FIELDS
    position_fields = _FIELDS
    #: The game's setup (the same for every state); what follows from the board (the maps,
    #: the points, the squares of the tiles and of those that move); a cache of what the hand
    #: and the reserve allow; the capturing actions (a record of the history).
    derived_fields = frozenset(
        {"_captured", "_lay", "_maps", "_movers", "_moving", "_score", "_supply", "_tiles"}
    )

    def _init_position(self) -> None:
        game = self.game
        rules = game.rules
        #: The action table and the options the engine reads (0: off), for every clone.
        self._lay = Setup(
            game.action_table, rules.move_limit or 0, rules.max_turns or 0, rules.draw_exact
        )
        self._board: list[int] = [EMPTY] * NUM_SQUARES
        #: The history indices of the actions that captured, in order (:meth:`capturing`).
        self._captured: list[int] = []
        self._maps = PaikoMaps()
        #: Per player, the squares of their tiles, sorted.
        self._tiles: list[list[int]] = [[], []]
        #: Per player and group (:data:`~tikigames.paiko.movegen.GROUP`), the squares of their
        #: tiles that may move, sorted: :meth:`random_action` draws among their slots.
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

    def result_text(self) -> str | None:
        """Paikō's words for the end, once over: ``White wins``, ``Black wins`` or ``a draw``
        (the text rendering and the pictures say it so).

        >>> import tikigames
        >>> tikigames.load("paiko").new_initial_state().result_text() is None
        True
        """
        if self._phase != OVER:
            return None
        return result_words(self.winner())

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

    def captures(self, index: int = -1) -> list[tuple[str, int, str, str]]:
        """The tiles the action ``history()[index]`` captured (by default the last action's),
        as ``(square, player, tile, facing)`` in square order, as they stood before: what its
        undo record holds, so asking costs nothing on the way. A deployed Sai captures with its
        follow-up (``stay`` or its shift or turn), a ``give`` never.

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> state.apply_action(state.legal_actions()[0])
        >>> state.captures(), state.captures(0)
        ([], [])

        Raises:
            IndexError: no action has that index.
        """
        if not -self.move_number() <= index < self.move_number():
            raise IndexError(f"no action {index} in a history of {self.move_number()}")
        record = self._undo_record(index)
        if record is None or len(record) != 3:  # a draft or a give
            return []
        removed: tuple[tuple[int, int], ...] = record[1]
        return [
            (SQUARE_NAMES[s], piece >> 5, TILES[piece >> 2 & 7], FACINGS[piece & 3])
            for s, piece in sorted(removed)
        ]

    def capturing(self, since: int = 0) -> list[int]:
        """The history indices, from ``since`` on, of the actions that captured (see
        :meth:`captures`), in order: kept as they are applied, so asking costs the answer.

        >>> import tikigames
        >>> tikigames.load("paiko").new_initial_state().capturing()
        []
        """
        captured = self._captured
        k = len(captured)
        while k and captured[k - 1] >= since:
            k -= 1
        return captured[k:]

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
        table = self._lay.table
        if phase == PLAYING:
            p = self._mover
            supply = self._supply[p]
            if supply is None:
                supply = self._supply_of(p)
            legal = turn_actions(
                table, self._board, self._maps, p, self._tiles[p], self._moving[p], supply,
                self._blocked(p),
            )  # fmt: skip
            return legal or [table.pass_]
        if phase == FOLLOW_UP:
            return follow_up_actions(table, self._board, self._maps, self._sai)
        if phase == PICKING:
            gives = table.gives
            reserve = self._reserve[self._mover]
            return [gives[tile] for tile in range(NUM_TILES) if reserve[tile]]
        if phase == DRAFTING:
            drafts = table.drafts
            reserve = self._reserve[DRAFT_ORDER[self._step]]
            return [drafts[tile] for tile in range(NUM_TILES) if reserve[tile]]
        return []

    def _blocked(self, p: int) -> int:
        """The square of p's tile that the repetition limit stops this turn, else −1."""
        limit = self._lay.move_limit
        return self._last[p] if limit and self._count[p] >= limit else -1

    def _supply_of(self, p: int) -> Supply:
        """What p's hand and reserve allow (:func:`~tikigames.paiko.movegen.supply_of`), kept
        in ``_supply`` until they change."""
        lay = self._lay
        supply = self._supply[p] = supply_of(
            lay.table, self._reserve[p], self._hand[p], lay.draw_exact
        )
        return supply

    def random_action(self, rng: Random) -> PaikoAction:
        """One legal action drawn uniformly from ``rng`` — during a turn without listing them.

        In the phase ``play`` (with no legal list cached) this is the rejection sampler of
        :func:`~tikigames.paiko.movegen.sample_turn_action`, which draws candidates by the
        same rules :meth:`legal_actions` lists (about 1.8 draws on average). After
        :data:`~tikigames.paiko.movegen.ATTEMPTS` misses (or with no candidate: only ``pass``
        is legal) the legal list is built, cached, and drawn from with one more
        ``rng.random()``, which is uniform too. The other phases draw from the (short) legal
        list, one ``rng.random()``.

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
        if self._phase != PLAYING or self._legal_if_cached() is not None:
            return super().random_action(rng)
        p = self._mover
        supply = self._supply[p]
        if supply is None:
            supply = self._supply_of(p)
        limit = self._lay.move_limit  # :meth:`_blocked`, without the call on the hot path
        blocked = self._last[p] if limit and self._count[p] >= limit else -1
        action = sample_turn_action(
            self._lay.table, self._board, self._maps, p, self._tiles[p], self._movers[p], supply,
            blocked, rng,
        )  # fmt: skip
        return super().random_action(rng) if action is None else action

    def rollout_action(self, rng: Random) -> PaikoAction:
        """The search bots' playout policy: captures first, then points, and tiles kept out of
        reach — a heuristic for search bots, not a rule (``MCTSBot`` also expands first the
        move it picks, a prior).

        During a turn, when an opponent tile is one threat from capture (its danger is 1): a
        deploy of the hand that threatens it (:meth:`_capturing_deploy`: it always captures),
        else the best capturing shift, turn or redeploy (:meth:`_capturing_move`). Otherwise
        :data:`ROLLOUT_CANDIDATES` uniform draws (:meth:`random_action`, which builds no legal
        list; :data:`NODE_CANDIDATES` when the list is at hand, as at a node of the tree, where
        a draw is one ``rng.random()``) are weighed by :meth:`_rollout_worth` and the best is
        played, the first on a tie; with probability :data:`ROLLOUT_EXPLORE` the first is
        played unweighed, so that playouts stay varied. In a Sai's follow-up it stays when
        that captures; the draft, the picks and the other follow-ups are uniform. A step costs
        about 4 uniform draws, not a legal list.

        >>> import random, tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> rng = random.Random(2)
        >>> while state.phase() != "play":
        ...     state.apply_unchecked(state.rollout_action(rng))
        >>> state.rollout_action(rng) in state.legal_actions()
        True
        """
        phase = self._phase
        if phase != PLAYING:
            if phase == FOLLOW_UP and self._sai_captures():
                return self._lay.table.stay
            return self.random_action(rng)
        p = self._mover
        prey = self._prey(1 - p)
        if prey:
            capture = self._capturing_deploy(p, prey)
            if capture is None:
                capture = self._capturing_move(p, prey)
            if capture is not None:
                return capture
        best = self.random_action(rng)
        if rng.random() < ROLLOUT_EXPLORE:
            return best
        best_worth = self._rollout_worth(best, p, prey)
        candidates = ROLLOUT_CANDIDATES if self._legal_if_cached() is None else NODE_CANDIDATES
        for _ in range(candidates - 1):
            action = self.random_action(rng)
            worth = self._rollout_worth(action, p, prey)
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def _sai_captures(self) -> bool:
        """Whether the deployed Sai awaiting its follow-up threatens an opponent tile that is
        capturable now (so ``stay`` captures it)."""
        sai = self._sai
        q = 1 - self._mover
        board = self._board
        danger = self._maps.danger[q]
        for s in THREAT[board[sai] & 31][sai]:
            if board[s] >= 0 and board[s] >> 5 == q and danger[s] > BLOCKED + 1:
                return True
        return False

    def _prey(self, q: int) -> int:
        """The squares of q's tiles that one more threat captures (danger 1), as a mask."""
        danger = self._maps.danger[q]
        prey = 0
        for s in self._tiles[q]:
            if danger[s] > BLOCKED:
                prey |= BIT[s]
        return prey

    def _capturing_deploy(self, p: int, prey: int) -> PaikoAction | None:
        """A deploy of p's hand that threatens a tile of ``prey`` (:meth:`_prey`), so captures
        it, else ``None``: the first found, by tile and facing. A Sai is left out (it captures
        only once its follow-up is done), and a Fire that would threaten a fragile own tile
        (the deploy rule)."""
        supply = self._supply[p]
        if supply is None:
            supply = self._supply_of(p)
        tiles = supply[1][2]
        if not tiles:
            return None
        maps = self._maps
        targets = deploy_targets(maps, p)
        if not targets:
            return None
        table = self._lay.table
        for s in self._tiles[1 - p]:
            if not BIT[s] & prey:
                continue
            for tile in tiles:
                if tile in (LOTUS, SAI):
                    continue
                for facing in range(4) if FACED[tile] else range(1):
                    found = THREATENED_FROM_BITS[tile << 2 | facing][s] & targets
                    if found and tile == FIRE:
                        fragile = fragile_of(maps, p, self._tiles[p])[0]
                        if fragile:
                            found ^= found & fire_unsafe(fragile)[facing]
                    if found:
                        return table.deploys[tile][nth_square(found, 0)][facing]
        return None

    def _capturing_move(self, p: int, prey: int) -> PaikoAction | None:
        """A shift, turn or Water's redeploy of p that newly threatens a tile of ``prey``
        (:meth:`_prey`), so captures it — the best of them by :meth:`_rollout_worth` — else
        ``None``. Masks find the tiles that could end a move on a square threatening one (in
        reach, ``MOVE_BITS``; not too dangerous to enter, ``maps.free``; threatening it from
        there, ``ATTACK_BITS``; for a Water's redeploy, a deploy square); only for those are
        the tile's legal actions listed (:func:`~tikigames.paiko.movegen.tile_actions`) to
        check its candidate moves."""
        board = self._board
        table = self._lay.table
        maps = self._maps
        blocked = self._blocked(p)
        free = maps.free[p]
        targets = -1
        best: PaikoAction | None = None
        best_worth = -math.inf
        victims = [s for s in self._tiles[1 - p] if BIT[s] & prey]
        for src in self._moving[p]:
            if src == blocked:
                continue
            kind = board[src] & 31
            tile = kind >> 2
            here = BIT[src]
            zone = MOVE_BITS[tile][src] & (free | here)
            threat = THREAT_BITS[kind][src]
            found: list[PaikoAction] = []
            for s in victims:
                if threat & BIT[s]:
                    continue
                spots = ATTACK_BITS[tile][s] & zone
                if tile == WATER:
                    if targets < 0:
                        targets = deploy_targets(maps, p)
                    landing = THREATENED_FROM_BITS[kind][s] & targets
                    if landing:
                        row = table.redeploys[src]
                        for dst in squares_of(landing):
                            redeploy = row[dst]
                            if redeploy is not None:
                                found.append(redeploy)
                if not spots:
                    continue
                faced = FACED[tile]
                if spots ^ (spots & here):
                    rows = table.shift_actions[src]
                    for i, bit in enumerate(table.shift_bits[src]):
                        if bit & spots:
                            for facing in range(4) if faced else range(1):
                                if THREATENED_FROM_BITS[tile << 2 | facing][s] & bit:
                                    found.append(rows[i][facing])
                if spots & here:
                    for facing in range(4):
                        if (
                            facing != kind & 3
                            and THREATENED_FROM_BITS[tile << 2 | facing][s] & here
                        ):
                            found.append(table.turns[src][facing])
            if not found:
                continue
            legal = tile_actions(table, board, maps, p, self._tiles[p], src, blocked)
            for action in found:
                if action in legal:
                    worth = self._rollout_worth(action, p, prey)
                    if worth > best_worth:
                        best, best_worth = action, worth
        return best

    def _rollout_worth(self, action: PaikoAction, p: int, prey: int) -> float:
        """How good p's ``action`` looks to the rollout policy, from the maps before it (a
        heuristic for search bots, not a rule): the points it gains (a tile's value where it
        ends minus where it was), each tile of ``prey`` it newly threatens (captured: its
        points and :data:`CAPTURE_WORTH`), less :data:`RISK` times the moved tile's worth if
        it ends one threat from capture, plus as much if it leaves such a square. A draw, a
        Lotus or a pass is worth 0."""
        kind = action.kind
        board = self._board
        if kind == DEPLOY:
            tile = action.tile
            if tile == LOTUS:
                return 0.0
            new = tile << 2 | action.facing
            dst = action.dst
            src = -1
            old = 0
            worth = float(VALUE[p][dst])
        elif SHIFT <= kind <= REDEPLOY:
            src, dst = action.src, action.dst
            old = board[src] & 31
            new = old & ~3 | action.facing
            worth = float(VALUE[p][dst] - VALUE[p][src])
        else:
            return 0.0
        hits = THREAT_BITS[new][dst] & prey
        if hits and src >= 0:
            hits ^= hits & THREAT_BITS[old][src]
        q = 1 - p
        if hits:
            for s in self._tiles[q]:
                if BIT[s] & hits:
                    worth += CAPTURE_WORTH
                    if board[s] >> 2 & 7 != LOTUS:
                        worth += VALUE[q][s]
        maps = self._maps
        against = maps.against[p][dst]
        cover = maps.cover[p][dst]
        bit = BIT[dst]
        if new >> 2 == FIRE:
            against += 1  # a Fire threatens its own square
        if src >= 0:
            if THREAT_BITS[old][src] & bit and old >> 2 == FIRE:
                against -= 1  # the Fire's own threat there moves with it
            if COVER_BITS[old][src] & bit:
                cover -= 1
            if maps.danger[p][src] > BLOCKED:
                worth += RISK * (VALUE[p][src] + CAPTURE_WORTH)
        if against - (cover > 0) >= 1:
            worth -= RISK * (VALUE[p][dst] + CAPTURE_WORTH)
        return worth

    # ----------------------------------------------------------------- apply / undo

    def _restore(self, snapshot: tuple[int, ...]) -> None:
        """Put back the scalar fields :meth:`_do` recorded."""
        last, count = self._last, self._count
        (
            self._phase, self._mover, last[0], last[1], count[0], count[1], self._passes,
            self._turns, self._sai, self._picks, self._winner,
        ) = snapshot  # fmt: skip

    def _do(self, action: PaikoAction) -> Any:
        kind = action.kind
        if kind == DRAFT:
            player = DRAFT_ORDER[self._step]
            self._reserve[player][action.tile] -= 1
            self._hand[player][action.tile] += 1
            self._supply[player] = None
            self._step += 1
            if self._step == len(DRAFT_ORDER):
                self._phase = PLAYING
            return None
        # The scalar fields, which :meth:`_restore` puts back (built here, not by a call: this
        # runs at every action).
        last, count = self._last, self._count
        snapshot = (
            self._phase, self._mover, last[0], last[1], count[0], count[1], self._passes,
            self._turns, self._sai, self._picks, self._winner,
        )  # fmt: skip
        if SHIFT <= kind <= REDEPLOY:  # a shift, a turn in place or a Water's redeploy: most
            p = self._mover
            src, dst = action.src, action.dst
            moved = self._board[src]
            self._lift(src, moved)
            piece = moved & ~3 | action.facing
            self._place(dst, piece)
            if self._lay.move_limit:
                count[p] = count[p] + 1 if last[p] == src else 1
                last[p] = dst
            self._passes = 0
            self._phase = PLAYING
            self._sai = -1
            # Nothing to capture unless the tile threatens an occupied square (checked before
            # the call: most shifts capture nothing).
            removed: tuple[tuple[int, int], ...] = (
                self._capture(p, piece, dst)
                if THREAT_BITS[piece & 31][dst] & self._maps.taken
                else ()
            )
            record = (snapshot, removed, moved)
            if not self._picks:
                self._finish_turn()
            return record
        if kind == GIVE:
            capturer = self._mover
            self._reserve[capturer][action.tile] -= 1
            self._hand[capturer][action.tile] += 1
            self._supply[capturer] = None
            self._picks -= 1
            if not self._picks:
                self._finish_turn()
            return snapshot
        p = self._mover
        removed = ()
        moved = EMPTY
        if kind == DRAW:
            reserve, hand = self._reserve[p], self._hand[p]
            for tile, n in action.draw:
                reserve[tile] -= n
                hand[tile] += n
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
                return (snapshot, removed, moved)
            removed = self._capture(p, piece, action.dst)
        elif kind == STAY:
            square = self._sai
            self._phase = PLAYING
            self._sai = -1
            removed = self._capture(p, self._board[square], square)
        else:  # a pass
            self._reset_moves(p)
            self._passes += 1
        if not self._picks:
            self._finish_turn()
        return (snapshot, removed, moved)

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
        self._captured.append(self.move_number())
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
            or (self._lay.max_turns and self._turns >= self._lay.max_turns)
        ):
            self._phase = OVER
        else:
            self._mover = 1 - p
            self._phase = PLAYING

    def _undo_last(self, action: PaikoAction, record: Any) -> None:
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
            self._captured.pop()
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
            return type(self)(self.game, self)
        return cast(Self, PaikoState(self.game, self))

    def _copy_into(self, new: PaikoState) -> None:
        new._lay = self._lay
        new._board = self._board.copy()
        new._captured = self._captured.copy()
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

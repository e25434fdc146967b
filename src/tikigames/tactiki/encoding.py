"""TacTiki's observation tensor: what a player knows, as planes of floats for learning.

The tensor holds every piece of the board in its place, every rank the observer knows, the two
defeated pools and the turn's progress (the setup, whose turn it is, the half-turn, the pass
streak and the turn limit): all that the observer's legal actions depend on, so two positions
whose legal actions differ never share a tensor. It reads the observation's fields alone, never
a state, so it can hold no secret the observation does not.

Board planes are indexed ``[level, row, col]`` (``rank`` puts the rank first): ``row``
is the square's rank − 1 and ``col`` its file (a1 is ``[0, 0]``, e5 ``[4, 4]``), the squares the
action ids name, for both observers; ``level`` counts down from the top of the column (0 is
the top piece, the one that moves and is attacked first). Twenty levels hold every piece of
the game, so no column is ever cut. Seats are relative: "own" is the observer, "opponent" the
other player; for a spectator "own" is TIKI (seat 0) and "opponent" TAC, and ``seat`` is all 0.

>>> import tikigames
>>> game = tikigames.load("tactiki")
>>> state = game.new_initial_state()
>>> state.apply_action(state.parse_action("3@b1"))
>>> layout = game.observation_tensor_layout()
>>> mine, theirs = state.observation(0).tensor(), state.observation(1).tensor()
>>> layout.view(mine, "rank")[2 * 20 * 25 + 1], layout.view(theirs, "unknown")[1]  # 3 on b1
(1.0, 1.0)
"""

from __future__ import annotations

from typing import Final

from tikigames.core.encoding import ObservationEncoder, Plane, TensorLayout, TensorValues
from tikigames.tactiki.data import (
    COPIES,
    NUM_SQUARES,
    PIECES_PER_PLAYER,
    RANKS,
    SIZE,
    START_SQUARES,
    TacTikiRules,
)
from tikigames.tactiki.observation import Piece, TacTikiObservation

__all__ = ["LEVELS", "POOL_SCALE", "RANK_SCALE", "STACK_SCALE", "TacTikiEncoder"]

#: Levels of the board planes: every piece of both players, so that a column is never cut.
LEVELS: Final = 2 * PIECES_PER_PLAYER
#: A column's count of one player's pieces is divided by this (a player's pieces: at most 1).
STACK_SCALE: Final = float(PIECES_PER_PLAYER)
#: A pool's size is divided by this (a player's pieces: at most 1).
POOL_SCALE: Final = float(PIECES_PER_PLAYER)
#: A pool's count of one rank is divided by this (the copies of a rank: at most 1).
RANK_SCALE: Final = float(COPIES)
#: The setup is the first this many actions (every piece placed, one per action).
SETUP_ACTIONS: Final = 2 * PIECES_PER_PLAYER

_LEVEL_SIZE: Final = LEVELS * NUM_SQUARES  # one per-level plane
_BOARD: Final = "[level, row, col]: level 0 the top of the column, row = rank − 1, col = file"


def _planes(rules: TacTikiRules) -> list[Plane]:
    """The planes for ``rules``: the same shapes for every option (only a description varies)."""
    if rules.max_turns is None:
        turns = "always 0: without max_turns the count of turns changes nothing"
    else:
        turns = f"finished turns / max_turns ({rules.max_turns}): 1 when the limit draws"
    level = (LEVELS, SIZE, SIZE)
    return [
        Plane("own", level, f"1 where the level holds an own piece; {_BOARD}"),
        Plane("opponent", level, "1 where the level holds an opponent's piece"),
        Plane(
            "rank",
            (len(RANKS), LEVELS, SIZE, SIZE),
            "[rank − 1, level, row, col]: one-hot rank of each piece whose rank the observer"
            " knows (every own piece; an opponent's once a battle revealed it)",
        ),
        Plane("unknown", level, "1 where the level holds a piece whose rank the observer lacks"),
        Plane(
            "revealed",
            level,
            "1 where a battle showed the piece's rank to both players (the opponent knows it)",
        ),
        Plane(
            "blocked",
            level,
            "1 where the piece directly above belongs to the other player: blocked since a tie",
        ),
        Plane(
            "stack",
            (2, SIZE, SIZE),
            f"[own/opponent, row, col]: each player's pieces in the column / {STACK_SCALE:g}"
            " (a statue needs 5)",
        ),
        Plane(
            "locked",
            (SIZE, SIZE),
            "1 on a start field whose top piece is the other player's: locked for good",
        ),
        Plane(
            "start_fields",
            (2, SIZE, SIZE),
            "[own/opponent, row, col]: 1 on the own start fields (plane 0), the opponent's (1)",
        ),
        Plane("seat", (2,), "the observer is TIKI (0) or TAC (1), one-hot; all 0 for a spectator"),
        Plane("to_act", (3,), "who acts, one-hot: own, opponent, nobody (the game is over)"),
        Plane("setup", (1,), "1 during the setup (the first 20 actions, the placements)"),
        Plane("second_move", (1,), "1 when the player to act makes the second move of a turn"),
        Plane("pass_streak", (1,), "1 when the last turn was a pass (a pass now draws)"),
        Plane("turns", (1,), turns),
        Plane(
            "pool_size",
            (2,),
            f"[own/opponent]: defeated pieces in the pool / {POOL_SCALE:g}",
        ),
        Plane(
            "pool_ranks",
            (2, len(RANKS)),
            f"[own/opponent, rank − 1]: pieces of the rank that may be in the pool"
            f" / {RANK_SCALE:g} (the own pool exactly; the opponent's: every rank defeated, less"
            " the reincarnated ones revealed since; all of them while their sum is the size)",
        ),
    ]


_DEFAULT: Final = TensorLayout(_planes(TacTikiRules(strict_statue=False, max_turns=300)))

# Offsets: the same for every rules (the planes' shapes do not depend on them).
_OWN: Final = _DEFAULT.offset("own")
_OPPONENT: Final = _DEFAULT.offset("opponent")
_RANK: Final = _DEFAULT.offset("rank")
_UNKNOWN: Final = _DEFAULT.offset("unknown")
_REVEALED: Final = _DEFAULT.offset("revealed")
_BLOCKED: Final = _DEFAULT.offset("blocked")
_STACK: Final = _DEFAULT.offset("stack")
_LOCKED: Final = _DEFAULT.offset("locked")
_START: Final = _DEFAULT.offset("start_fields")
_SEAT: Final = _DEFAULT.offset("seat")
_TO_ACT: Final = _DEFAULT.offset("to_act")
_SETUP: Final = _DEFAULT.offset("setup")
_SECOND: Final = _DEFAULT.offset("second_move")
_PASSES: Final = _DEFAULT.offset("pass_streak")
_TURNS: Final = _DEFAULT.offset("turns")
_POOL_SIZE: Final = _DEFAULT.offset("pool_size")
_POOL_RANKS: Final = _DEFAULT.offset("pool_ranks")


def _features(me: int) -> dict[Piece, tuple[int, ...]]:
    """Per piece as an observation holds it, the offsets of the per-level planes it sets, with
    ``me`` the seat called "own" (0 for a spectator)."""
    table: dict[Piece, tuple[int, ...]] = {}
    for owner in (0, 1):
        side = _OWN if owner == me else _OPPONENT
        for revealed in (False, True):
            extra = (_REVEALED,) if revealed else ()
            table[(owner, None, revealed)] = (side, _UNKNOWN, *extra)
            for rank in RANKS:
                rank_offset = _RANK + (rank - 1) * _LEVEL_SIZE
                table[(owner, rank, revealed)] = (side, rank_offset, *extra)
    return table


#: ``_FEATURES[me][piece]``: the offsets of the planes (at level 0, square 0) a piece sets,
#: with ``me`` the "own" seat; every one steps by ``NUM_SQUARES`` a level.
_FEATURES: Final = (_features(0), _features(1))
#: ``_HOME[square]``: the seat whose start field the square is, or −1.
_HOME: Final = tuple(
    next((seat for seat in (0, 1) if square in START_SQUARES[seat]), -1)
    for square in range(NUM_SQUARES)
)


class TacTikiEncoder(ObservationEncoder[TacTikiRules, TacTikiObservation]):
    """TacTiki's observation tensor (``Game.encoder_class``), in the planes below. About 70 of
    its 5,146 values are not 0: :meth:`_write` sets them into the list of ``obs.tensor()`` or
    the dict of ``obs.sparse_tensor()``. Every rules value has the same shapes and offsets
    (this module's constants); only the ``turns`` description differs."""

    def planes(self, rules: TacTikiRules) -> list[Plane]:
        """The planes for ``rules``.

        >>> from tikigames.tactiki.data import TacTikiRules
        >>> from tikigames.tactiki.encoding import TacTikiEncoder
        >>> layout = TacTikiEncoder(TacTikiRules(strict_statue=False, max_turns=None)).layout
        >>> layout.size, layout.plane("rank").shape
        (5146, (5, 20, 5, 5))
        """
        return _planes(rules)

    def encode(self, obs: TacTikiObservation) -> list[float]:
        """The tensor of ``obs`` (``obs.tensor()``) in its game's layout."""
        values = self.layout.zeros()
        self._write(obs, values)
        return values

    def encode_sparse(self, obs: TacTikiObservation) -> dict[int, float]:
        """The values of ``obs``'s tensor that are not 0 (``obs.sparse_tensor()``), by index."""
        values: dict[int, float] = {}
        self._write(obs, values)
        return values

    def _write(self, obs: TacTikiObservation, values: TensorValues) -> None:
        """Set in ``values`` (all 0) the values of ``obs``'s tensor that are not 0, by index in
        its game's layout, from the observation's fields alone: the board, the pools, and the
        turn's progress."""
        player = obs.player
        me = 0 if player is None else player
        features = _FEATURES[me]
        for square, column in enumerate(obs.board):
            height = len(column)
            if not height:
                continue
            own = 0
            for index in range(height):
                piece = column[index]
                owner = piece[0]
                level = height - 1 - index
                at = level * NUM_SQUARES + square
                for offset in features[piece]:
                    values[offset + at] = 1.0
                if index + 1 < height and column[index + 1][0] != owner:
                    values[_BLOCKED + at] = 1.0
                if owner == me:
                    own += 1
            if own:
                values[_STACK + square] = own / STACK_SCALE
            if own < height:
                values[_STACK + NUM_SQUARES + square] = (height - own) / STACK_SCALE
            home = _HOME[square]
            if home >= 0 and column[height - 1][0] != home:
                values[_LOCKED + square] = 1.0
        for seat in (0, 1):
            plane = _START + (0 if seat == me else NUM_SQUARES)
            for square in START_SQUARES[seat]:
                values[plane + square] = 1.0
        if player is not None:
            values[_SEAT + player] = 1.0
        current = obs.current_player
        if current < 0:
            values[_TO_ACT + 2] = 1.0
        else:
            values[_TO_ACT + (0 if current == me else 1)] = 1.0
        if len(obs.history) < SETUP_ACTIONS:
            values[_SETUP] = 1.0
        if obs.second_move:
            values[_SECOND] = 1.0
        if obs.passes:
            values[_PASSES] = 1.0
        limit = self.rules.max_turns
        if limit is not None and obs.turns:
            values[_TURNS] = obs.turns / limit
        for seat in (0, 1):
            side = 0 if seat == me else 1
            if obs.pool_sizes[seat]:
                values[_POOL_SIZE + side] = obs.pool_sizes[seat] / POOL_SCALE
            base = _POOL_RANKS + side * len(RANKS) - 1
            pool = obs.pools[seat]
            for rank in dict.fromkeys(pool):
                share = 0.0
                for _ in range(pool.count(rank)):  # added as many times: the same rounding
                    share += 1.0 / RANK_SCALE
                values[base + rank] = share

"""What a TacTiki player knows: every move, the owner and order of every piece, every rank a
battle revealed, and their own ranks — but not the ranks the opponent chose in the setup or in a
reincarnation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import MAX_HISTORY, expect_int
from tikigames.tactiki.data import PIECES_PER_PLAYER, REVEALED, rank_of
from tikigames.tactiki.state import TacTikiState

if TYPE_CHECKING:
    from tikigames.tactiki.game import TacTiki

__all__ = ["Piece", "TacTikiObservation"]

#: A piece as an observer sees it: ``(owner, rank or None if unknown, revealed to both)``.
Piece = tuple[int, int | None, bool]


def _piece_views(viewer: int | None) -> tuple[Piece, ...]:
    """Every piece code (0–63) as ``viewer`` sees it."""
    views = []
    for code in range(64):
        owner, revealed = code & 1, bool(code & REVEALED)
        known = revealed or owner == viewer
        views.append((owner, rank_of(code) if known else None, revealed))
    return tuple(views)


#: Piece views for seat 0, seat 1 and the spectator (index −1).
_VIEWS = (_piece_views(0), _piece_views(1), _piece_views(None))


@dataclass(frozen=True, kw_only=True, repr=False)
class TacTikiObservation(Observation["TacTiki"]):
    """A TacTiki observation.

    >>> import tikigames
    >>> state = tikigames.load("tactiki").new_initial_state()
    >>> state.apply_action(state.parse_action("3@b1"))
    >>> state.observation(0).board[1], state.observation(1).board[1]
    (((0, 3, False),), ((0, None, False),))
    >>> state.observation(1).history
    ('?@b1',)

    Attributes:
        board: 25 columns, in the order a1, b1, …, e1, a2, …, e5; each a tuple of pieces bottom
            to top, each piece ``(owner, rank, revealed)``: ``rank`` is ``None`` where the
            observer does not know it, ``revealed`` whether a battle showed it to both players.
        pool_sizes: the number of defeated pieces in each player's pool.
        pools: per player, the ranks that may be in the pool, sorted: the observer's own pool
            exactly; of another pool every rank defeated less the ranks of reincarnated pieces
            revealed since — it holds ``pool_sizes[p]`` of them (all of them when the lengths
            agree).
        battles: one entry per attack, ``(history index, ranks)``: the attacker's rank, then
            each defender's rank in the order met (the results follow from the strength rule).
        turns: the number of finished turns.
        second_move: whether the player to move is making the second move of a turn.
        passes: consecutive passes so far (two end the game).
        winner: the seat that built a statue, else ``None``.
    """

    board: tuple[tuple[Piece, ...], ...]
    pool_sizes: tuple[int, int]
    pools: tuple[tuple[int, ...], tuple[int, ...]]
    battles: tuple[tuple[int, tuple[int, ...]], ...]
    turns: int
    second_move: bool
    passes: int
    winner: int | None

    @classmethod
    def _fields_of(cls, state: TacTikiState, player: int | None) -> dict[str, Any]:
        view = _VIEWS[-1 if player is None else player]
        defeated = (state.defeated(0), state.defeated(1))
        return {
            "board": tuple(tuple(map(view.__getitem__, column)) for column in state.board_codes()),
            "pool_sizes": (len(defeated[0]), len(defeated[1])),
            "pools": tuple(
                tuple(defeated[seat] if seat == player else state.pool_candidates(seat))
                for seat in (0, 1)
            ),
            "battles": tuple(state.battles()),
            "turns": state.turns(),
            "second_move": state.is_second_move(),
            "passes": state.passes(),
            "winner": state.winner(),
        }

    @classmethod
    def _knowledge_from_json(cls, game: TacTiki, data: Mapping[str, Any]) -> dict[str, Any]:
        # The resampler reads the battle log (the ranks each attack revealed); every other
        # field is checked by comparison with a resampled state's observation.
        battles = data["battles"]
        if not isinstance(battles, list) or len(battles) > MAX_HISTORY:
            raise InvalidStateError("'battles' must be a list of [index, [ranks]]")
        parsed = []
        for index, entry in enumerate(battles):
            field = f"battles[{index}]"
            if not isinstance(entry, list) or len(entry) != 2:
                raise InvalidStateError(f"{field!r} must be [history index, [ranks]]")
            at = expect_int(entry[0], field, 0, MAX_HISTORY)
            ranks = entry[1]
            if not isinstance(ranks, list) or not 2 <= len(ranks) <= 2 * PIECES_PER_PLAYER:
                raise InvalidStateError(f"{field!r} must list the ranks of a battle")
            parsed.append((at, tuple(expect_int(rank, field, 1, 5) for rank in ranks)))
        return {"battles": tuple(parsed)}

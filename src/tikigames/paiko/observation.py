"""What a Paikō player knows: everything. Paikō has no hidden information, so an observation
holds the whole position (in a readable, JSON-ready form) beside the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tikigames.core.observation import Observation
from tikigames.paiko.data import FACINGS, SQUARE_NAMES, TILES

if TYPE_CHECKING:
    from tikigames.paiko.state import PaikoState

__all__ = ["PaikoObservation", "observe"]


class PaikoObservation(Observation):
    """A Paikō observation (the same for both players and a spectator, but for ``player``).

    Attributes:
        phase: ``"draft"``, ``"play"``, ``"follow-up"`` (a deployed Sai may still shift or
            turn), ``"picks"`` (the captured player chooses tiles for the capturer) or
            ``"over"``.
        board: each tile on the board as ``(square, player, tile, facing)``, in square order
            (reading order as White sees the board).
        hands: each player's hand, tile names in canonical order.
        reserves: each player's reserve, tile names in canonical order.
        lost: how many tiles each player has had captured.
        scores: each player's points.
        turn: turns played since the draft.
        passes: passes in a row (two end the game).
        last_moved: per player, ``(square, count)``: the tile moved on their last turn and on
            how many of their turns in a row it moved (``(None, 0)`` when not tracked).
        pending_sai: the square of a deployed Sai awaiting its follow-up, or ``None``.
        picks: the captured player's picks still to make.
        winner: the winner once the game is over (``None`` before, and for a draw).
    """

    __slots__ = (
        "phase",
        "board",
        "hands",
        "reserves",
        "lost",
        "scores",
        "turn",
        "passes",
        "last_moved",
        "pending_sai",
        "picks",
        "winner",
    )
    _fields = __slots__

    phase: str
    board: tuple[tuple[str, int, str, str], ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    reserves: tuple[tuple[str, ...], tuple[str, ...]]
    lost: tuple[int, int]
    scores: tuple[int, int]
    turn: int
    passes: int
    last_moved: tuple[tuple[str | None, int], tuple[str | None, int]]
    pending_sai: str | None
    picks: int
    winner: int | None

    def __str__(self) -> str:
        from tikigames.paiko.render import render_observation

        return render_observation(self)


def _names(counts: list[int]) -> tuple[str, ...]:
    return tuple(name for name, count in zip(TILES, counts, strict=True) for _ in range(count))


def observe(state: PaikoState, player: int | None) -> PaikoObservation:
    """``player``'s observation of ``state``."""
    from tikigames.paiko.state import OVER, PHASE_NAMES

    current = state.current_player()
    legal = state.legal_actions() if player is not None and current == player else None
    board = tuple(
        (SQUARE_NAMES[s], piece >> 5, TILES[piece >> 2 & 7], FACINGS[piece & 3])
        for s, piece in enumerate(state._board)
        if piece >= 0
    )
    last = state._last
    count = state._count
    return PaikoObservation(
        state.game,
        player,
        current,
        state._seen(player),
        legal,
        phase=PHASE_NAMES[state._phase],
        board=board,
        hands=(_names(state._hand[0]), _names(state._hand[1])),
        reserves=(_names(state._reserve[0]), _names(state._reserve[1])),
        lost=(state._lost[0], state._lost[1]),
        scores=(state._score[0], state._score[1]),
        turn=state._turns,
        passes=state._passes,
        last_moved=tuple(
            (SQUARE_NAMES[last[p]] if last[p] >= 0 else None, count[p]) for p in (0, 1)
        ),
        pending_sai=SQUARE_NAMES[state._sai] if state._sai >= 0 else None,
        picks=state._picks,
        winner=state._winner if state._phase == OVER and state._winner >= 0 else None,
    )

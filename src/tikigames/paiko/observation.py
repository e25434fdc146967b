"""What a Paikō player knows: everything. Paikō has no hidden information, so an observation
holds the whole position (in a readable, JSON-ready form) beside the history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tikigames.core.observation import Observation
from tikigames.paiko.state import PaikoState

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko  # noqa: F401 (base class)

__all__ = ["PaikoObservation"]


@dataclass(frozen=True, kw_only=True, repr=False)
class PaikoObservation(Observation["Paiko"]):
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

    @classmethod
    def _fields_of(cls, state: PaikoState, player: int | None) -> dict[str, Any]:
        lost, scores, last = state.lost(), state.scores(), state.last_moved()
        return {
            "phase": state.phase(),
            "board": tuple(state.board()),
            "hands": (tuple(state.hand(0)), tuple(state.hand(1))),
            "reserves": (tuple(state.reserve(0)), tuple(state.reserve(1))),
            "lost": (lost[0], lost[1]),
            "scores": (scores[0], scores[1]),
            "turn": state.turn(),
            "passes": state.passes(),
            "last_moved": (last[0], last[1]),
            "pending_sai": state.pending_sai(),
            "picks": state.picks(),
            "winner": state.winner(),
        }

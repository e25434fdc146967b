"""What a Paikō player knows: everything. Paikō has no hidden information, so an observation
holds the whole position (in a readable, JSON-ready form) beside the history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from tikigames.core.observation import Observation
from tikigames.paiko.state import PaikoState

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko  # noqa: F401 (base class)

__all__ = ["LOOK_BACK", "PaikoObservation"]

#: How many actions back a picture looks for its highlighted action (the picks of a capture,
#: the move that captured, a Sai's deploy before its follow-up), and so how far back an
#: observation keeps the captures.
LOOK_BACK: Final = 30
#: The field that is no part of the observation's knowledge as JSON carries it (see
#: :attr:`PaikoObservation.captures`).
_NOT_IN_JSON: Final = frozenset({"captures"})


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
        captures: ``(index, tiles)`` for each of the last 2 · :data:`LOOK_BACK` + 1 actions
            of the history that captured: its index and the tiles it removed, as in ``board``
            (the state's ``captures(index)``), for the pictures. Like ``legal`` it follows
            from the rest (the history replays to it), so it is neither compared nor written
            to JSON.
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
    captures: tuple[tuple[int, tuple[tuple[str, int, str, str], ...]], ...] = field(
        default=(), compare=False
    )

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The fields of the JSON form: all the game's own but ``captures``."""
        return tuple(name for name in super().field_names() if name not in _NOT_IN_JSON)

    @classmethod
    def _fields_of(cls, state: PaikoState, player: int | None) -> dict[str, Any]:
        lost, scores, last = state.lost(), state.scores(), state.last_moved()
        # The window holds the captures a picture may highlight: a give up to LOOK_BACK back
        # highlights the capture it pays for, a few picks earlier.
        capturing = state.capturing(state.move_number() - 1 - 2 * LOOK_BACK)
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
            "captures": tuple([(i, tuple(state.captures(i))) for i in capturing])
            if capturing
            else (),
        }

"""What a Tiki Topple player knows: everything but the other players' secret cards of the round
being played (every card of a finished round is revealed to all)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import expect_int
from tikigames.tiki_topple.data import NUM_SECRETS
from tikigames.tiki_topple.state import TikiToppleState

if TYPE_CHECKING:
    from tikigames.tiki_topple.game import TikiTopple

__all__ = ["TikiToppleObservation"]


@dataclass(frozen=True, kw_only=True, repr=False)
class TikiToppleObservation(Observation["TikiTopple"]):
    """A Tiki Topple observation.

    Attributes:
        round: the round being played (1-based; tiebreak rounds continue the count).
        starter: the seat that starts this round.
        seats: the seats taking part in this round (all, except in a tiebreak).
        line: the tikis in the line, top first.
        removed: the tikis toasted this round, in order.
        hands: each seat's remaining action cards (``up1`` … ``toast``).
        scores: each seat's game total (finished rounds).
        secret: the observer's own secret card this round (an id 0–26), or ``None``.
        revealed: per finished round, each seat's secret card (``None`` for a seat that sat out).
        round_points: per finished round, each seat's points.
        winners: the winning seats once the game is over, else ``()``.
    """

    round: int
    starter: int
    seats: tuple[int, ...]
    line: tuple[str, ...]
    removed: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    secret: int | None
    revealed: tuple[tuple[int | None, ...], ...]
    round_points: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]

    @classmethod
    def _fields_of(cls, state: TikiToppleState, player: int | None) -> dict[str, Any]:
        return {
            "round": state.round_number(),
            "starter": state.starter(),
            "seats": state.seats(),
            "line": tuple(state.line()),
            "removed": tuple(state.toasted()),
            "hands": tuple(tuple(state.hand(seat)) for seat in range(state.game.num_players)),
            "scores": tuple(state.scores()),
            "secret": None if player is None else state.secret(player),
            "revealed": tuple(state.round_cards()),
            "round_points": tuple(tuple(points) for points in state.round_scores()),
            "winners": state.winners(),
        }

    @classmethod
    def _knowledge_from_json(cls, game: TikiTopple, data: Mapping[str, Any]) -> dict[str, Any]:
        revealed = data["revealed"]
        if not isinstance(revealed, list) or len(revealed) > 100_000:
            raise InvalidStateError("'revealed' must be a list of rounds")
        rounds = []
        for index, cards in enumerate(revealed):
            if not isinstance(cards, list) or len(cards) != game.num_players:
                raise InvalidStateError(f"revealed[{index}] must list {game.num_players} cards")
            rounds.append(
                tuple(
                    expect_int(card, f"revealed[{index}]", 0, NUM_SECRETS - 1, allow_none=True)
                    for card in cards
                )
            )
        return {"revealed": tuple(rounds)}

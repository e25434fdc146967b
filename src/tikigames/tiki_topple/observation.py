"""What a Tiki Topple player knows: everything but the other players' secret cards of the round
being played (every card of a finished round is revealed to all)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import expect_int
from tikigames.tiki_topple.data import CARD_NAMES, NUM_SECRETS, TIKIS

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.tiki_topple.state import TikiToppleState

__all__ = ["TikiToppleObservation", "observe"]


class TikiToppleObservation(Observation):
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

    __slots__ = (
        "round",
        "starter",
        "seats",
        "line",
        "removed",
        "hands",
        "scores",
        "secret",
        "revealed",
        "round_points",
        "winners",
    )
    _fields = __slots__

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
    def _knowledge_from_json(cls, game: Game[Any], data: Mapping[str, Any]) -> dict[str, Any]:
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

    def __str__(self) -> str:
        from tikigames.tiki_topple.render import render_observation

        return render_observation(self)


def observe(state: TikiToppleState, player: int | None) -> TikiToppleObservation:
    """``player``'s observation of ``state``."""
    secret = state._secrets[player] if player is not None else -1
    return TikiToppleObservation.of(
        state,
        player,
        round=state._round,
        starter=state._starter,
        seats=state._seats,
        line=tuple(TIKIS[tiki] for tiki in state._line),
        removed=tuple(TIKIS[tiki] for tiki in state._removed),
        hands=tuple(
            tuple(CARD_NAMES[kind] for kind in range(5) for _ in range(hand[kind]))
            for hand in state._hands
        ),
        scores=tuple(state._scores),
        secret=secret if secret >= 0 else None,
        revealed=tuple(
            tuple(card if card >= 0 else None for card in cards) for cards in state._round_cards
        ),
        round_points=tuple(state._round_points),
        winners=state._winners,
    )

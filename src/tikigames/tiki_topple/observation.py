"""What a Tiki Topple player knows: everything but the other players' secret cards of the round
being played (every card of a finished round is revealed to all)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import expect_int
from tikigames.tiki_topple.actions import LINE, SECRET_BASE, TikiToppleAction
from tikigames.tiki_topple.data import NUM_SECRETS, TOAST
from tikigames.tiki_topple.state import RoundSoFar, TikiToppleState, round_so_far

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
        round_starter: the seat that played first in the last round dealt (``starter``, but
            still the finished round's until the next line is dealt). It follows from the
            history, so it is neither compared nor written in the JSON: it is kept for
            :attr:`round_so_far`.
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
    round_starter: int = field(default=-1, compare=False)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The fields of the JSON: all the game's own but :attr:`round_starter`, which
        follows from the others."""
        return tuple(name for name in super().field_names() if name != "round_starter")

    @cached_property
    def round_so_far(self) -> RoundSoFar:
        """The last round dealt, told from the history as the observer saw it (the other
        players' secret cards hidden): its seats, its line, the deals and each card played,
        with its seat and its tiki's positions; what the picture draws (see
        :meth:`TikiToppleState.round_so_far
        <tikigames.tiki_topple.state.TikiToppleState.round_so_far>`, which tells the same
        with every card face up). Worked out on first use.

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> rng = random.Random(2)
        >>> for _ in range(6):
        ...     state.apply_action(state.random_action(rng))
        >>> told = state.observation(1).round_so_far
        >>> told.deals, len(told.plays), told.plays == state.round_so_far().plays
        (((0, 'secret ?'), (1, 'secret 3')), 3, True)
        """
        history = self.history
        if not history:
            return round_so_far(0, False, self.seats, self.round_starter, ())
        table = self.game.action_table
        hidden = table[SECRET_BASE].hidden
        told: list[tuple[TikiToppleAction | None, str]] = []
        for text in reversed(history):
            action = None if text == hidden else table.parse(text)
            told.append((action, text))
            if action is not None and action.kind == LINE:
                break
        else:
            return round_so_far(0, False, self.seats, self.round_starter, ())
        told.reverse()
        last = told[-1][0]
        current = self.current_player
        finished = current == TERMINAL or (
            current == CHANCE and last is not None and last.kind <= TOAST
        )
        if finished:
            cards = self.revealed[-1]
            seats = tuple(seat for seat, card in enumerate(cards) if card is not None)
            return round_so_far(len(self.revealed), True, seats, self.round_starter, told)
        return round_so_far(len(self.revealed) + 1, False, self.seats, self.round_starter, told)

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
            "round_starter": state.round_starter(),
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

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
from tikigames.tiki_topple.actions import LINE, SECRET, SECRET_BASE, TikiToppleAction
from tikigames.tiki_topple.data import NUM_SECRETS, TOAST, TOPPLE
from tikigames.tiki_topple.state import RoundSoFar, TikiToppleState, round_so_far
from tikigames.tiki_topple.words import (
    describe_card,
    ordinal,
    result_words,
    score_in_words,
    seats_in_words,
    tiki_name,
)

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

    def history_in_words(self) -> tuple[str, ...]:
        """Each action of the history as this player saw it, its text then in words (who
        played a card the terminal says beside it): a line dealt, who is dealt a secret card
        (the observer's own named; the others' named once their round is over), where each
        card moved its tiki, and after a round's last card what every secret card scored, tiki
        by tiki, and at the end the result. Told from the observation alone, replaying the
        line from the texts.

        >>> import tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> for text in ["line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo",
        ...              "secret 18", "secret 3", "up3 hookipa", "topple nani"]:
        ...     state.apply_action(state.parse_action(text))
        >>> for words in state.observation(1).history_in_words():
        ...     print(words)
        line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo: the line of round 1 is \
dealt, top first
        secret ?: player 0 is dealt a secret card, face down
        secret 3: you are dealt secret card #3 Wikiwiki / Hookipa / Akamai
        up3 hookipa: Hookipa climbs from 7th to 4th
        topple nani: Nani drops from 1st to the bottom (9th)
        """
        table = self.game.action_table
        hidden = table[SECRET_BASE].hidden
        history = self.history
        revealed = self.revealed
        over = self.current_player == CHANCE or self.current_player == TERMINAL
        words: list[str] = []
        line: list[int] = []
        number = 0  # the round being told, 1-based
        seats: tuple[int, ...] = ()
        deals = 0
        for index, text in enumerate(history):
            action = None if text == hidden else table.parse(text)
            if action is not None and action.kind == LINE:
                number += 1
                line = list(action.line)
                deals = 0
                if number <= len(revealed):
                    cards = revealed[number - 1]
                    seats = tuple(seat for seat, card in enumerate(cards) if card is not None)
                else:
                    seats = self.seats
                tiebreak = ""
                if len(seats) < len(self.scores):
                    tiebreak = f" (a tiebreak between players {seats_in_words(seats)})"
                words.append(f"{text}: the line of round {number}{tiebreak} is dealt, top first")
                continue
            if action is None or action.kind == SECRET:
                seat = seats[deals]
                deals += 1
                words.append(f"{text}: {self._deal_in_words(seat, action, number)}")
                continue
            said = _card_in_words(text, action, line)
            ends = history[index + 1].startswith("line ") if index + 1 < len(history) else over
            if ends and number <= len(revealed):
                said += f"; round {number} is over: " + "; ".join(
                    f"player {seat} had {score_in_words(card, points, line)}"
                    for seat, (card, points) in enumerate(
                        zip(revealed[number - 1], self.round_points[number - 1], strict=True)
                    )
                    if card is not None
                )
                if index + 1 == len(history) and self.winners:
                    said += f"; the game is over: {result_words(self.winners, self.scores)}"
            words.append(said)
        return tuple(words)

    def _deal_in_words(self, seat: int, action: TikiToppleAction | None, number: int) -> str:
        """A secret card dealt to ``seat`` in round ``number`` (``action`` ``None``: face down
        to this observer)."""
        who = "you are" if seat == self.player else f"player {seat} is"
        if action is not None:
            return f"{who} dealt secret card {describe_card(action.card)}"
        said = f"{who} dealt a secret card, face down"
        if number <= len(self.revealed):
            card = self.revealed[number - 1][seat]
            if card is not None:
                said += f" (shown at the round's end: {describe_card(card)})"
        return said

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


def _card_in_words(text: str, action: TikiToppleAction, line: list[int]) -> str:
    """An action card played on ``line`` (tiki ids, top first; changed as the card changes
    it): where its tiki went."""
    kind = action.kind
    if kind == TOAST:
        tiki = line.pop()
        return f"{text}: {tiki_name(tiki)}, at the bottom, is toasted (out of the round)"
    tiki = action.tiki
    before = line.index(tiki)
    del line[before]
    after = len(line) if kind == TOPPLE else before - kind - 1
    line.insert(after, tiki)
    if kind == TOPPLE:
        if before == after:
            return f"{text}: {tiki_name(tiki)} is already at the bottom and stays"
        return f"{text}: {tiki_name(tiki)} drops from {ordinal(before + 1)} to the bottom " + (
            f"({ordinal(after + 1)})"
        )
    return f"{text}: {tiki_name(tiki)} climbs from {ordinal(before + 1)} to {ordinal(after + 1)}"

"""A driver that reaches Tac-Tik positions through real actions: chosen deals (chance outcomes
are actions), exchanges and plays, all checked by the rules engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

import tikigames
from tikigames.tactik import TacTikState


class Table:
    """A game of Tac-Tik driven by text actions.

    ``deal`` takes each player's cards (in player order, e.g. ``"1 -4 5 2"``) and deals them
    round-robin from the dealer's left, as the rules do; ``give`` takes each player's card for
    the exchange (in player order) and applies them in turn order; ``play`` applies texts in
    order; ``discard`` makes the players to move throw their first card away until it is
    ``until``'s turn; ``turns`` plays one player's texts, a turn each, the others discarding in
    between; ``end_deal`` makes everybody throw cards away until the next deal.
    """

    def __init__(self, **options: Any) -> None:
        self.game = tikigames.load("tactik", **options)
        self.state: TacTikState = self.game.new_initial_state()
        self.n = self.game.num_players

    def do(self, text: str) -> None:
        self.state.apply_action(self.state.parse_action(text))

    def deal(self, *hands: str | Sequence[str]) -> None:
        """Deal ``hands[p]`` to player p (a list of card names, or one string of them)."""
        assert len(hands) == self.n
        state = self.state
        dealer = state.observation(None).dealer
        queues = [hand.split() if isinstance(hand, str) else list(hand) for hand in hands]
        size = len(queues[0])
        for i in range(size * self.n):
            player = (dealer + 1 + i) % self.n
            self.do(f"deal {queues[player].pop(0)}")

    def give(self, *cards: str) -> None:
        assert len(cards) == self.n
        dealer = self.state.observation(None).dealer
        for i in range(self.n):
            player = (dealer + 1 + i) % self.n
            assert self.state.current_player() == player
            self.do(f"give {cards[player]}")

    def play(self, *texts: str) -> None:
        for text in texts:
            self.do(text)

    def discard(self, until: int) -> None:
        """Players other than ``until`` discard their first card until ``until`` is to move."""
        while self.state.current_player() != until:
            player = self.state.current_player()
            assert player >= 0, "not a player's turn"
            self.do(f"discard {self.state.hand(player)[0]}")

    def turns(self, player: int, *texts: str) -> None:
        """Player ``player`` plays ``texts``, one per turn; before each, the others discard
        until it is ``player``'s turn again (see ``discard``)."""
        for text in texts:
            self.discard(player)
            self.do(text)

    def end_deal(self) -> None:
        """Everybody throws their cards away until the next deal."""
        while not self.state.is_chance_node():
            self.do(f"discard {self.state.hand(self.state.current_player())[0]}")

    def legal(self) -> set[str]:
        return {str(action) for action in self.state.legal_actions()}

    def pawns(self, colour: int) -> list[str]:
        return self.state.pawns(colour)


@pytest.fixture
def table() -> Callable[..., Table]:
    return Table

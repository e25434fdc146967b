"""Reading an observed Tac-Tik history: its segmentation into deals, and each deal's structure.

An observation's history is a tuple of texts, each as the observer saw it (``deal ?`` and
``give ?`` for the cards they did not see). Resampling rebuilds the hidden parts deal by deal, so
it first needs the history cut into deals and each deal read: who was served which card, who gave
which, which plays were made and by whom (following the public flow of turns), and whether the
deal is over. This module does that reading, and checks what can be checked on the texts alone;
what the cards imply is :mod:`tikigames.tactik.resample`'s business.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tikigames.core.errors import ActionError, InvalidStateError
from tikigames.tactik.actions import DEAL, DISCARD_ALL, GIVE, SEVEN, TacTikAction
from tikigames.tactik.data import NUM_CARDS, TacTikRules

if TYPE_CHECKING:
    from tikigames.tactik.game import TacTik

__all__ = ["HIDDEN_DEAL", "HIDDEN_GIVE", "Deal", "parse_deal", "segments"]

HIDDEN_DEAL = "deal ?"
HIDDEN_GIVE = "give ?"


class Deal:
    """One deal of the observed history: who was served or gave what (−1 = hidden), the plays
    with the cards they took from each hand, and whether every hand was emptied."""

    __slots__ = ("complete", "dealer", "deals", "gives", "played", "plays")

    def __init__(self, dealer: int, players: int) -> None:
        self.dealer = dealer
        self.deals: list[tuple[int, int]] = []
        self.gives: list[tuple[int, int]] = []
        self.plays: list[TacTikAction] = []
        self.played: list[list[int]] = [[0] * NUM_CARDS for _ in range(players)]
        self.complete = False


def segments(history: Sequence[str]) -> list[tuple[int, int]]:
    """The index ranges of the deals: each starts with its first ``deal`` text."""
    starts = [
        i
        for i, text in enumerate(history)
        if text.startswith("deal ") and (i == 0 or not history[i - 1].startswith("deal "))
    ]
    if not history:
        return []
    if not starts or starts[0] != 0:
        raise InvalidStateError("history[0]: the history must start with a deal")
    return list(zip(starts, [*starts[1:], len(history)], strict=True))


def parse_deal(
    game: TacTik,
    history: Sequence[str],
    span: tuple[int, int],
    dealer: int,
    player: int | None,
    revealed: list[tuple[int, ...]],
) -> Deal:
    """The structure of one deal's texts; the plays are attributed to players by following the
    public flow of turns (clockwise among the players who still hold cards; a seven's sub-moves
    by the same player)."""
    rules = game.rules
    parse = game.action_table.parse
    n = rules.players
    deal = Deal(dealer, n)
    index = span[0]
    try:
        for index in range(*span):
            text = history[index]
            if text.startswith("deal "):
                if deal.gives or deal.plays or len(deal.deals) >= rules.deal_size:
                    raise InvalidStateError("a card is dealt out of turn")
                served = (dealer + 1 + len(deal.deals)) % n
                card = -1 if text == HIDDEN_DEAL else parse(text).card
                if (card >= 0) != (served == player):
                    raise InvalidStateError("a dealt card is shown to the wrong player")
                deal.deals.append((served, card))
            elif text.startswith("give "):
                if not rules.team or deal.plays or len(deal.deals) < rules.deal_size:
                    raise InvalidStateError("a card is given out of turn")
                giver = (dealer + 1 + len(deal.gives)) % n
                card = -1 if text == HIDDEN_GIVE else parse(text).card
                if (card >= 0) != (giver == player) or len(deal.gives) >= n:
                    raise InvalidStateError("a given card is shown to the wrong player")
                deal.gives.append((giver, card))
            else:
                action = parse(text)
                if action.kind in (DEAL, GIVE):
                    raise InvalidStateError("a hidden card is written in the open")
                deal.plays.append(action)
    except ActionError as error:
        raise InvalidStateError(f"history[{index}]: {error}") from None
    if deal.plays:
        if len(deal.deals) < rules.deal_size or (rules.team and len(deal.gives) < n):
            raise InvalidStateError("a card is played before the deal and exchange are over")
        _attribute(rules, deal, revealed)
    return deal


def _attribute(rules: TacTikRules, deal: Deal, revealed: list[tuple[int, ...]]) -> None:
    n = rules.players
    sizes = [rules.hand_size] * n
    actor = (deal.dealer + 1) % n
    seven = 0
    for action in deal.plays:
        if actor < 0:
            raise InvalidStateError("a card is played after every hand is empty")
        played = deal.played[actor]
        if action.kind == SEVEN and seven:
            seven -= action.steps
        elif action.kind == DISCARD_ALL:
            if not revealed:
                raise InvalidStateError("'revealed' lists fewer hands than the discards")
            shown = revealed.pop(0)
            if len(shown) != sizes[actor]:
                raise InvalidStateError("a revealed hand has the wrong size")
            for card in shown:
                played[card] += 1
            sizes[actor] = 0
        else:
            played[action.card] += 1
            sizes[actor] -= 1
            if action.kind == SEVEN:
                seven = 7 - action.steps
        if seven > 0:
            continue
        following = [(actor + i) % n for i in range(1, n + 1)]
        actor = next((p for p in following if sizes[p] > 0), -1)
    deal.complete = actor < 0

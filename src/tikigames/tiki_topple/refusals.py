"""Why Tiki Topple refuses an action: the rule of docs/games/tiki_topple.rst that forbids it.

:func:`refusal` is the state's ``_refusal`` hook, called by ``state.illegal_reason`` and
``apply_action`` only for an action that is not legal now: it is never on the hot path, so it
reads the position through the state's public accessors, and checks the rules in the order a
player would think of them — the part of the round first (a line setup, the deal of the secret
cards, the play), then whether the card is in the player's hand, then what the card allows.

Where no rule of the game has more to say, it returns ``None`` and the state gives the core's
general words: for a secret card at a line setup ("not a possible outcome of this chance node",
the example of ``State.illegal_reason``), and for the cases the tests prove are never reached.
It imports the state only for annotations: the state imports this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.tiki_topple.actions import LINE, SECRET, TikiToppleAction
from tikigames.tiki_topple.data import (
    ALL_SECRETS,
    CARD_NAMES,
    TIKIS,
    TOAST,
    TOPPLE,
    full_hand,
)
from tikigames.tiki_topple.words import describe_card, ordinal, result_words

if TYPE_CHECKING:
    from tikigames.tiki_topple.state import TikiToppleState

__all__ = ["refusal"]

#: The action cards as the rules name them, by kind.
CARD_TITLES = ("Tiki Up 1", "Tiki Up 2", "Tiki Up 3", "Tiki Topple", "Tiki Toast")


def refusal(state: TikiToppleState, action: TikiToppleAction) -> str | None:
    """Why ``action`` (an action of the game, not legal in ``state``) is refused; ``None`` where
    the core's general words apply.

    >>> import tikigames
    >>> state = tikigames.load("tiki_topple").new_initial_state()
    >>> for text in ("line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo",
    ...              "secret 18", "secret 3"):
    ...     state.apply_action(state.parse_action(text))
    >>> table = state.game.action_table
    >>> refusal(state, table.parse("up3 wikiwiki"))
    'a tiki can move up at most as many places as there are tikis above it: Wikiwiki is 2nd'
    """
    player = state.current_player()
    if player == TERMINAL:
        return _game_over(state)
    kind = action.kind
    if player == CHANCE:
        if state.dealing_seat() is None:
            return _at_line_setup(kind)
        return _at_deal(state, action)
    if kind == LINE:
        return (
            "the line is set up only at the start of a round, before the secret cards: "
            f"round {state.round_number()} is being played"
        )
    if kind == SECRET:
        return (
            "the secret cards are dealt only at the start of a round, before the first card "
            f"is played: round {state.round_number()} is being played"
        )
    return _card(state, player, action)


def _game_over(state: TikiToppleState) -> str:
    return f"the game is over: {result_words(state.winners(), state.scores())}"


def _at_line_setup(kind: int) -> str | None:
    """Round 1: a round starts with the line setup (chance). A secret card there is simply not
    one of its outcomes: the core's words."""
    if kind == SECRET:
        return None
    return "a round starts with the line setup: no card is played before the line is dealt"


def _at_deal(state: TikiToppleState, action: TikiToppleAction) -> str | None:
    """Round 2: the secret cards are dealt after the line, one per player, from the deck."""
    seat = state.dealing_seat()
    if action.kind == LINE:
        return (
            "the line of this round is already set up: the secret cards are being dealt "
            f"(player {seat}'s is next)"
        )
    if action.kind != SECRET:
        return (
            "no card is played before every player in the round has a secret card: "
            f"player {seat}'s is being dealt"
        )
    card = action.card
    name = f"secret card {describe_card(card)}"
    for other in state.seats():
        if state.secret(other) == card:
            return (
                f"each player is dealt a different secret card: {name} was dealt to "
                f"player {other} this round"
            )
    revealed = state.round_cards()
    dealt_in = [index + 1 for index, cards in enumerate(revealed) if card in cards]
    if dealt_in and _rebuilt_this_round(state) and dealt_in[-1] == len(revealed):
        return (
            "the deck was rebuilt for this round from all 27 cards except those dealt in the "
            f"previous round: {name} was dealt in round {dealt_in[-1]}"
        )
    if dealt_in:
        return (
            "secret cards dealt in earlier rounds are gone for the rest of the game: "
            f"{name} was dealt in round {dealt_in[-1]}"
        )
    return None  # not reached: a card leaves the deck only when dealt


def _rebuilt_this_round(state: TikiToppleState) -> bool:
    """Whether the deck of this round was rebuilt, by the deal rule replayed from the cards
    of every finished round (a deck with fewer cards than players in the round becomes all
    the cards but the previous round's)."""
    deck = ALL_SECRETS
    previous = 0
    rounds = [*state.round_cards(), tuple(state.secret(seat) for seat in state.seats())]
    rebuilt = False
    for index, cards in enumerate(rounds):
        dealt = [card for card in cards if card is not None]
        # This round's players: its seats (some may not be dealt yet); earlier ones: those
        # who got a card.
        players = len(state.seats()) if index == len(rounds) - 1 else len(dealt)
        rebuilt = deck.bit_count() < players
        if rebuilt:
            deck = ALL_SECRETS & ~previous
        previous = 0
        for card in dealt:
            previous |= 1 << card
        deck &= ~previous
    return rebuilt


def _card(state: TikiToppleState, player: int, action: TikiToppleAction) -> str | None:
    """Round 3 and 5: a player plays one card of their hand, as its rule allows."""
    kind = action.kind
    title = CARD_TITLES[kind]
    hand = state.hand(player)
    if CARD_NAMES[kind] not in hand:
        cards = " ".join(hand)
        return (
            f"a card is played from the player's hand: player {player} has no {title} left "
            f"this round (hand: {cards})"
        )
    if kind == TOAST:
        if len(hand) == sum(full_hand(len(state.seats()))):
            return (
                "Tiki Toast is not allowed on a player's own first turn of the round: "
                f"this is player {player}'s first turn"
            )
        return None  # not reached: the bottom tiki can always be toasted
    tiki = action.tiki
    name = TIKIS[tiki].capitalize()
    line = state.line()
    if TIKIS[tiki] not in line:
        return f"{title} moves a tiki still in the line: {name} was toasted this round"
    position = line.index(TIKIS[tiki]) + 1
    if kind == TOPPLE:
        if position == len(line) and not state.game.rules.topple_bottom_allowed:
            return (
                "Tiki Topple may not choose the tiki already at the bottom (option "
                f"topple_bottom_allowed is off): {name} is {ordinal(position)}, the bottom"
            )
        return None  # not reached: any other tiki can be toppled
    if position - (kind + 1) < 1:
        return (
            "a tiki can move up at most as many places as there are tikis above it: "
            f"{name} is {ordinal(position)}"
        )
    return None  # not reached: an Up card held, on a tiki low enough, is legal

"""Kuhn poker: a fifth game, written on the public core API alone (:mod:`tikigames.core`).

Kuhn poker (H. W. Kuhn, 1950) is the smallest poker worth playing and the classic first game of
OpenSpiel (``kuhn_poker.py``). The deck has three cards, J < Q < K. Both players ante one chip;
chance deals player 0 a card, then player 1 one of the two left, each seen only by its holder.
Then one betting round with one-chip bets, player 0 first:

=================  ===============================================
betting            outcome
=================  ===============================================
``pass pass``      showdown: the higher card wins 1 chip
``pass bet pass``  player 0 folds: player 1 wins 1
``pass bet bet``   showdown: the higher card wins 2
``bet pass``       player 1 folds: player 0 wins 1
``bet bet``        showdown: the higher card wins 2
=================  ===============================================

The returns are the chips won and lost (±1 or ±2, zero-sum), as in OpenSpiel. The library's own
games pay +1 for a win and −1 for a loss; this game is an example, and keeps poker's stakes.

Action ids: 0 ``pass``, 1 ``bet``, 2–4 ``deal J``, ``deal Q``, ``deal K`` (chance; the other
player sees ``deal ?``). ``check`` and ``fold`` are accepted for ``pass``, ``call`` for ``bet``.

>>> import tikigames
>>> game = tikigames.load("kuhn_poker")
>>> state = game.new_initial_state()
>>> for text in ("deal K", "deal J", "bet", "call"):
...     state.apply_action(state.parse_action(text))
>>> state.returns(), state.observation(1).history
([2.0, -2.0], ('deal ?', 'deal J', 'bet', 'bet'))

The game needs nothing but :mod:`tikigames.core`; the demo at the bottom plays it with the
library's bots. Run: python examples/kuhn_poker.py
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import tikigames
from tikigames.bots import ISMCTSBot, RandomBot
from tikigames.core.action import Action, ActionTable
from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.encoding import ObservationEncoder, Plane
from tikigames.core.errors import InvalidStateError
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.registry import register
from tikigames.core.resample import Resampler
from tikigames.core.state import State

CARDS: Final = ("J", "Q", "K")
PASS, BET, DEAL = 0, 1, 2  # action ids; "deal J" is DEAL, "deal K" is DEAL + 2
#: The betting sequences that end the hand, with the cards shown or with a fold (by the last
#: to pass); any other sequence is still being played.
SHOWDOWNS: Final = ((PASS, PASS), (PASS, BET, BET), (BET, BET))
FOLDS: Final = ((PASS, BET, PASS), (BET, PASS))
ENDINGS: Final = SHOWDOWNS + FOLDS


class KuhnPokerAction(Action):
    """A Kuhn poker action. ``card`` is the card index (0 J, 1 Q, 2 K) a deal gives, negative
    for ``pass`` and ``bet``: the rules read it instead of parsing the text."""

    card: int


@dataclass(frozen=True)
class KuhnPokerRules:
    """Kuhn poker has no options: ``game.rules`` is this empty value."""


class KuhnPokerState(State[KuhnPokerAction, "KuhnPoker", "KuhnPokerObservation"]):
    """A hand of Kuhn poker: the cards dealt and the betting. Both only grow, so undo pops.

    >>> state = tikigames.load("kuhn_poker").new_initial_state()
    >>> for text in ("deal Q", "deal K", "pass", "bet"):
    ...     state.apply_action(state.parse_action(text))
    >>> state.card(0), state.betting(), state.pot(), state.current_player()
    ('Q', ['pass', 'bet'], [1, 2], 0)
    """

    __slots__ = position_fields = ("_bets", "_cards")

    def _init_position(self) -> None:
        self._cards: list[int] = []  # seat order
        self._bets: list[int] = []  # PASS or BET, in turn order

    def current_player(self) -> int:
        if len(self._cards) < 2:
            return CHANCE
        return TERMINAL if tuple(self._bets) in ENDINGS else len(self._bets) % 2

    def _generate_legal(self) -> list[KuhnPokerAction]:
        if len(self._cards) < 2:
            return [action for action, _ in self.chance_outcomes()]
        bets = self.game.action_table.actions[PASS : BET + 1]
        return [] if tuple(self._bets) in ENDINGS else list(bets)

    def chance_outcomes(self) -> list[tuple[KuhnPokerAction, float]]:
        if len(self._cards) == 2:
            return []
        left = [card for card in range(len(CARDS)) if card not in self._cards]
        return [(self.game.action_table.actions[DEAL + card], 1 / len(left)) for card in left]

    def _viewer(self, action: KuhnPokerAction) -> int:
        return len(self._cards)  # only deals are hidden: the seat being dealt sees its card

    def _do(self, action: KuhnPokerAction) -> None:  # no undo record: the action says it all
        if action.card >= 0:
            self._cards.append(action.card)
        else:
            self._bets.append(int(action))

    def _undo_last(self, action: KuhnPokerAction, record: None) -> None:
        (self._cards if action.card >= 0 else self._bets).pop()

    def _copy_into(self, new: KuhnPokerState) -> None:
        new._cards, new._bets = self._cards.copy(), self._bets.copy()

    def _position_key(self) -> tuple[Any, ...]:
        return (tuple(self._cards), tuple(self._bets))

    def card(self, seat: int) -> str | None:
        """``seat``'s card (``"J"``, ``"Q"`` or ``"K"``), or ``None`` before it is dealt."""
        return CARDS[self._cards[seat]] if seat < len(self._cards) else None

    def betting(self) -> list[str]:
        """The betting so far, in turn order (``"pass"`` and ``"bet"``)."""
        return [self.game.action_table.actions[bet].text for bet in self._bets]

    def pot(self) -> list[int]:
        """The chips each seat has put in: its ante and its bet, if any."""
        return [1 + sum(self._bets[seat::2]) for seat in (0, 1)]  # BET is 1, PASS 0

    def revealed(self) -> tuple[str, ...]:
        """Both cards, in seat order, once the hand has ended in a showdown; else ``()``."""
        shown = tuple(self._bets) in SHOWDOWNS
        return tuple(CARDS[card] for card in self._cards) if shown else ()

    def returns(self) -> list[float]:
        """The chips each player won or lost (±1 or ±2), once the hand is over."""
        if not self.is_terminal():
            return [0.0, 0.0]
        if tuple(self._bets) in SHOWDOWNS:
            loser = 0 if self._cards[0] < self._cards[1] else 1
        else:
            loser = (len(self._bets) - 1) % 2  # the last to pass folded to a bet
        lost = float(self.pot()[loser])
        return [-lost, lost] if loser == 0 else [lost, -lost]


@dataclass(frozen=True, kw_only=True, repr=False)
class KuhnPokerObservation(Observation["KuhnPoker"]):
    """What one player knows beside the history (whose betting is public).

    Attributes:
        card: the observer's own card, or ``None`` (a spectator, or before the deal).
        revealed: both cards, in seat order, after a showdown; else ``()``.
    """

    card: str | None
    revealed: tuple[str, ...]

    @classmethod
    def _fields_of(cls, state: KuhnPokerState, player: int | None) -> dict[str, Any]:
        card = None if player is None else state.card(player)
        return {"card": card, "revealed": state.revealed()}

    @classmethod
    def _knowledge_from_json(cls, game: KuhnPoker, data: Mapping[str, Any]) -> dict[str, Any]:
        # The resampler reads ``revealed``; ``card`` is checked by comparing the sample's.
        shown = data["revealed"]
        if shown not in ([], *([a, b] for a in CARDS for b in CARDS if a != b)):
            raise InvalidStateError("'revealed' must list no card or two different cards")
        return {"revealed": tuple(shown)}


class KuhnPokerEncoder(ObservationEncoder[KuhnPokerRules, KuhnPokerObservation]):
    """The observation tensor (``obs.tensor()``): the same planes under every rules."""

    def planes(self, rules: KuhnPokerRules) -> list[Plane]:
        return [
            Plane("card", (3,), "the observer's card, one-hot (J, Q, K)"),
            Plane("to_act", (2,), "the seat to act, one-hot (all 0 at a deal or the end)"),
            Plane("betting", (3, 2), "each betting turn's pass or bet, in turn order"),
            Plane("revealed", (2, 3), "each seat's card after a showdown, one-hot"),
        ]

    def encode(self, obs: KuhnPokerObservation) -> list[float]:
        """The tensor of ``obs``, from the observation alone."""
        layout = self.layout
        values = layout.zeros()
        if obs.card is not None:
            values[CARDS.index(obs.card)] = 1.0
        if obs.current_player >= 0:
            values[layout.offset("to_act") + obs.current_player] = 1.0
        for turn, text in enumerate(obs.history[2:]):  # deals first, then the betting
            values[layout.offset("betting") + 2 * turn + (text == "bet")] = 1.0
        for seat, card in enumerate(obs.revealed):
            values[layout.offset("revealed") + 3 * seat + CARDS.index(card)] = 1.0
        return values


def _describe(current: int, betting: Sequence[str]) -> list[str]:
    """The lines both renderings start with: whose turn it is and the (public) betting."""
    status = {CHANCE: "dealing", TERMINAL: "hand over"}.get(current, f"player {current} to act")
    return [f"Kuhn poker: {status}", "Betting: " + (" ".join(betting) or "none yet")]


def render_state(state: KuhnPokerState) -> str:
    """Both cards, the betting and the pot (everything: the cards are not hidden here)."""
    rows = _describe(state.current_player(), state.betting())
    pot = state.pot()
    rows += [f"Player {seat}: card {state.card(seat) or '-'}, pot {pot[seat]}" for seat in (0, 1)]
    return "\n".join(rows)


def render_observation(obs: KuhnPokerObservation) -> str:
    """The betting, the observer's card and the cards shown at a showdown, nothing else."""
    rows = _describe(obs.current_player, obs.history[2:])  # deals first, then the betting
    you = "a spectator" if obs.player is None else f"player {obs.player}, card {obs.card or '-'}"
    rows.append(f"You are {you}")
    if obs.revealed:
        rows.append(f"Showdown: player 0 {obs.revealed[0]}, player 1 {obs.revealed[1]}")
    return "\n".join(rows)


class KuhnPokerResampler(Resampler["KuhnPoker", KuhnPokerObservation, KuhnPokerState]):
    """Draws the hidden deals: every card the observer did not see, uniform among those left.

    Why that is exact. The library weighs each consistent world by the product of its chance
    outcomes' probabilities (the docs' Concepts page, "Resampling"). The only hidden parts are
    the deals (the betting is public, the same in every consistent world), and every deal of
    two distinct cards weighs 1/3 × 1/2. So all the deals that agree with what the observer
    saw weigh the same: a player's opponent holds either card the player does not (1/2 each);
    a spectator sees each of the six deals with 1/6; after a showdown the cards are known. The
    players' choices carry no weight, by the library's rule: a bet does not make a king
    likelier, since the resampler models no opponent (a bot that does can weigh the worlds
    itself). Drawing the hidden deals in order, each uniform among the cards neither dealt
    nor known, draws exactly this distribution.
    """

    def __init__(self, game: KuhnPoker, obs: KuhnPokerObservation) -> None:
        super().__init__(game, obs)
        shown = [f"deal {card}" for card in obs.revealed]  # the deals are actions 0 and 1
        self._history = shown + list(obs.history[len(shown) :])
        self._free = [card for card in CARDS if f"deal {card}" not in self._history]

    def draw(self, rng: random.Random) -> KuhnPokerState:
        free = self._free.copy()
        state = self.game.new_initial_state()
        for index, text in enumerate(self._history):
            try:  # checked: an observation loaded from JSON may claim an impossible history
                if text == "deal ?":  # a hidden deal: a card neither dealt nor known
                    text = "deal " + free.pop(rng.randrange(len(free)))
                state.apply_action(state.parse_action(text))
            except ValueError as error:  # not an action, not legal, or no card left to deal
                raise InvalidStateError(f"history[{index}]: {error}") from None
        return state


@register
class KuhnPoker(Game[KuhnPokerState, KuhnPokerObservation, KuhnPokerRules]):
    """Kuhn poker, two players, no options: ``tikigames.load("kuhn_poker")``."""

    name = "kuhn_poker"
    title = "Kuhn poker"
    option_specs = ()
    rules_class = KuhnPokerRules
    state_class = KuhnPokerState
    observation_class = KuhnPokerObservation
    resampler_class = KuhnPokerResampler
    render_state = staticmethod(render_state)
    render_observation = staticmethod(render_observation)
    encoder_class = KuhnPokerEncoder

    num_players = 2  # always: there is no ``players`` option

    def _build_table(self) -> ActionTable[KuhnPokerAction]:
        """The five actions in id order; a deal's hidden text is what the other player sees."""
        texts = ("pass", "bet", *(f"deal {name}" for name in CARDS))
        actions = [
            KuhnPokerAction.build(id_, text, "deal ?" if id_ >= DEAL else None, card=id_ - DEAL)
            for id_, text in enumerate(texts)
        ]
        aliases = {"check": actions[PASS], "fold": actions[PASS], "call": actions[BET]}
        return ActionTable(actions, aliases)


def main() -> None:
    """Play one hand, ISMCTSBot (player 0) against RandomBot, and print how it ended."""
    game = tikigames.load("kuhn_poker")
    final = tikigames.play(game, [ISMCTSBot(iterations=300), RandomBot()], seed=2026)
    print(final, f"Returns: {final.returns()}", sep="\n")


if __name__ == "__main__":
    main()

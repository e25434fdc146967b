"""Resampling a Tiki Topple state from an observation.

The only hidden information is the other players' secret cards of the round being played. The
observed history is replayed; each hidden deal of a finished round takes the revealed card, and
each hidden deal of the current round a card drawn uniformly from the deck as it stands, less the
cards the observer has seen dealt this round. Drawing in deal order without replacement makes every
consistent assignment of distinct cards equally likely — exactly the deal's own distribution.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tikigames.core.errors import ActionError, InvalidStateError
from tikigames.tiki_topple.actions import SECRET_BASE
from tikigames.tiki_topple.data import NUM_SECRETS

if TYPE_CHECKING:
    from tikigames.tiki_topple.game import TikiTopple
    from tikigames.tiki_topple.observation import TikiToppleObservation
    from tikigames.tiki_topple.state import TikiToppleState

__all__ = ["resample"]

HIDDEN_SECRET = "secret ?"


def resample(game: TikiTopple, obs: TikiToppleObservation, rng: random.Random) -> TikiToppleState:
    """A state drawn from those consistent with ``obs`` (see the module's docstring)."""
    history = obs.history
    table = game._table
    round_start = max((i for i, text in enumerate(history) if text.startswith("line ")), default=0)
    seen_this_round = 0
    for text in history[round_start:]:
        if text.startswith("secret ") and text != HIDDEN_SECRET:
            seen_this_round |= 1 << table.parse(text).card
    state = game.new_initial_state()
    for index, text in enumerate(history):
        try:
            if text == HIDDEN_SECRET:
                if not state.is_chance_node() or state._deal >= len(state._seats):
                    raise InvalidStateError("no secret card is dealt here")
                finished = len(state._round_cards)
                if finished < len(obs.revealed):
                    card = obs.revealed[finished][state._seats[state._deal]]
                    if card is None:
                        raise InvalidStateError(f"round {finished + 1}'s cards are not revealed")
                    action = state._actions[SECRET_BASE + card]
                else:
                    free = state._deck & ~seen_this_round
                    cards = [card for card in range(NUM_SECRETS) if free >> card & 1]
                    if not cards:
                        raise InvalidStateError("no card is left to deal")
                    action = state._actions[SECRET_BASE + rng.choice(cards)]
            else:
                action = table.parse(text)
            state._apply(action)  # trusted: Game.observation_from_json re-checks claimed data
        except ActionError as error:
            raise InvalidStateError(f"history[{index}]: {error}") from None
    return state

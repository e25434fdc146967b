"""Resampling a Tiki Topple state from an observation.

The only hidden information is the other players' secret cards of the round being played. Each
hidden deal of a finished round takes the revealed card, and each hidden deal of the current
round a card drawn uniformly from the deck as it stands, less the cards the observer has seen
dealt this round. Drawing in deal order without replacement makes every consistent assignment
of distinct cards equally likely — exactly the deal's own distribution.

Everything before the current round's first hidden deal is the same in every world, so the
resampler replays it once, when it is built, and each draw clones that and replays the rest: a
hidden deal is an index into the deck's bit mask (less the seen cards), drawn as ``rng.choice``
from the list of those cards would draw it, without building the list.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tikigames.core.action import ActionTable
from tikigames.core.errors import ActionError, InvalidStateError
from tikigames.core.resample import Resampler
from tikigames.tiki_topple.actions import SECRET_BASE, TikiToppleAction, TikiToppleTable
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.state import TikiToppleState

if TYPE_CHECKING:
    from tikigames.tiki_topple.game import TikiTopple

__all__ = ["TikiToppleResampler"]

HIDDEN_SECRET = "secret ?"


class TikiToppleResampler(Resampler["TikiTopple", TikiToppleObservation, TikiToppleState]):
    """Draws Tiki Topple states consistent with one observation (see the module's docstring).

    Raises:
        InvalidStateError: (when built) the observation's history is no history of the game.
    """

    def __init__(self, game: TikiTopple, obs: TikiToppleObservation) -> None:
        super().__init__(game, obs)
        history = obs.history
        table: ActionTable[TikiToppleAction] = game.action_table
        self._table = table
        self._deals: TikiToppleTable = game.action_table
        round_start = max(
            (i for i, text in enumerate(history) if text.startswith("line ")), default=0
        )
        seen = 0
        for text in history[round_start:]:
            if text.startswith("secret ") and text != HIDDEN_SECRET:
                seen |= 1 << _parse(table, text, 0).card
        #: The cards the observer saw dealt this round: no hidden deal can be one of them.
        self._seen_cards = seen
        state = game.new_initial_state()
        #: The rest of the history after the shared prefix: an action, or ``None`` for a
        #: hidden deal of the current round.
        self._rest: list[TikiToppleAction | None] = []
        finished_rounds = len(obs.revealed)
        for index, text in enumerate(history):
            if not self._rest and text == HIDDEN_SECRET:
                if len(state.round_cards()) < finished_rounds:
                    state.apply_unchecked(self._revealed_deal(state, index))
                    continue
                self._rest.append(None)  # the first hidden deal of the unfinished round
            elif self._rest:
                self._rest.append(None if text == HIDDEN_SECRET else _parse(table, text, index))
            else:
                # Trusted replay: Observation.from_json re-checks the samples of claimed data.
                state.apply_unchecked(_parse(table, text, index))
        self._prefix = state

    def _revealed_deal(self, state: TikiToppleState, index: int) -> TikiToppleAction:
        """A hidden deal of a finished round: the card revealed at its end."""
        seat = state.dealing_seat()
        if seat is None:
            raise InvalidStateError(f"history[{index}]: no secret card is dealt here")
        finished = len(state.round_cards())
        card = self.obs.revealed[finished][seat]
        if card is None:
            raise InvalidStateError(f"round {finished + 1}'s cards are not revealed")
        return self._table[SECRET_BASE + card]

    def draw(self, rng: random.Random) -> TikiToppleState:
        state = self._prefix.clone()
        deals = self._deals
        unseen = ~self._seen_cards
        for step in self._rest:
            if step is None:
                if state.dealing_seat() is None:
                    raise InvalidStateError("no secret card is dealt here")
                cards = state.deck_mask() & unseen
                count = cards.bit_count()
                if not count:
                    raise InvalidStateError("no card is left to deal")
                # rng.randrange(count) draws as rng.choice from the list of those cards would.
                step = deals.deal(cards, rng.randrange(count))
            state.apply_unchecked(step)
        return state


def _parse(table: ActionTable[TikiToppleAction], text: str, index: int) -> TikiToppleAction:
    # The base class's lookup, not the table's own ``parse``: a history is the library's own
    # text, and a resample parses all of it, so it skips the explaining wrapper.
    try:
        return ActionTable.parse(table, text)
    except ActionError as error:
        raise InvalidStateError(f"history[{index}]: {error}") from None

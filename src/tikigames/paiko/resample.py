"""Resampling a Paikō state from an observation.

Paikō hides nothing, so the only state consistent with an observation is the one it was taken
from. The resampler replays the observed history through the rules once, when it is built (each
action parsed and checked for legality, so a forged observation is refused), and every draw is a
clone of that state; ``rng`` is never used.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tikigames.core.errors import ActionError, InvalidStateError
from tikigames.core.resample import Resampler
from tikigames.paiko.observation import PaikoObservation
from tikigames.paiko.state import PaikoState

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko

__all__ = ["PaikoResampler"]


class PaikoResampler(Resampler["Paiko", PaikoObservation, PaikoState]):
    """Draws the state an observation was taken from (see the module's docstring).

    Raises:
        InvalidStateError: (when built) the observation's history is no history of the game.
    """

    def __init__(self, game: Paiko, obs: PaikoObservation) -> None:
        super().__init__(game, obs)
        state = game.new_initial_state()
        parse = game.action_table.parse
        for index, text in enumerate(obs.history):
            try:
                state.apply_action(parse(text))
            except ActionError as error:
                raise InvalidStateError(f"history[{index}]: {error}") from None
        self._state = state

    def draw(self, rng: random.Random) -> PaikoState:
        del rng  # nothing is hidden
        return self._state.clone()

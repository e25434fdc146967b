"""Resampling a Paikō state from an observation.

Paikō hides nothing, so the only state consistent with an observation is the one it was taken
from: the observed history is replayed through the rules (each action parsed and checked for
legality, so a forged observation is refused) and ``rng`` is never used.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tikigames.core.errors import ActionError, InvalidStateError

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko
    from tikigames.paiko.observation import PaikoObservation
    from tikigames.paiko.state import PaikoState

__all__ = ["resample"]


def resample(game: Paiko, obs: PaikoObservation, rng: random.Random) -> PaikoState:
    """The state ``obs`` was taken from (see the module's docstring)."""
    del rng  # nothing is hidden
    state = game.new_initial_state()
    parse = game.table.parse
    for index, text in enumerate(obs.history):
        try:
            state.apply_action(parse(text))
        except ActionError as error:
            raise InvalidStateError(f"history[{index}]: {error}") from None
    return state

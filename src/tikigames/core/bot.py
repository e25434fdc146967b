"""The :class:`Bot` protocol: bots act on observations, never on states.

The protocol is in the core layer because :func:`tikigames.play` (the one play loop) drives bots;
the bots themselves live above it, in :mod:`tikigames.bots`.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from tikigames.core.action import Action
from tikigames.core.observation import Observation

__all__ = ["Bot"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``act(obs, rng) -> Action``.

    A bot is asked only when it is to move, with its own observation; it sees the rules through
    ``obs.game`` (e.g. to resample hidden information) and draws any randomness from ``rng``, so
    a seeded game is reproducible.
    """

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        """The action to play, one of ``obs.legal_actions()``."""
        ...

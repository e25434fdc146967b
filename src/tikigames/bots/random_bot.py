"""The baseline bot."""

from __future__ import annotations

import random
from typing import Any

from mypy_extensions import mypyc_attr

from tikigames.core.action import Action
from tikigames.core.observation import Observation

__all__ = ["RandomBot"]


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Plays a uniformly random legal action.

    >>> import tikigames
    >>> from tikigames.bots import RandomBot
    >>> game = tikigames.load("tiki_topple")
    >>> state = tikigames.play(game, [RandomBot(), RandomBot()], seed=1)
    >>> state.is_terminal()
    True
    """

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        legal = obs.legal_actions()
        if not legal:
            raise ValueError("RandomBot was asked to act when it has no legal action")
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"

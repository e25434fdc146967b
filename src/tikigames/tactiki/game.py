"""The TacTiki game: options and wiring."""

from __future__ import annotations

import random

from tikigames.core.action import ActionTable
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.options import Option
from tikigames.core.registry import register
from tikigames.tactiki.actions import TacTikiAction, build_table
from tikigames.tactiki.observation import TacTikiObservation
from tikigames.tactiki.resample import resample
from tikigames.tactiki.state import TacTikiState

__all__ = ["TacTiki"]


@register
class TacTiki(Game[TacTikiState]):
    """TacTiki for two: TIKI (player 0) and TAC (player 1) each hide ten ranked pieces on their
    start row and race to stack a statue of five on one of the other's start fields.

    >>> import tikigames
    >>> game = tikigames.load("tactiki")
    >>> game.options
    {'strict_statue': False, 'max_turns': 300}
    >>> game.num_players, game.num_distinct_actions
    (2, 181)
    """

    name = "tactiki"
    title = "TacTiki"
    state_class = TacTikiState
    observation_class = TacTikiObservation
    option_specs = (
        Option(
            "strict_statue",
            bool,
            False,
            "a statue is exactly five pieces, all the builder's (default: five of theirs)",
        ),
        Option(
            "max_turns",
            int,
            300,
            "the game is drawn once this many turns are finished (None: no limit)",
            minimum=1,
            allow_none=True,
        ),
    )

    def _table_key(self) -> tuple[()]:
        return ()  # the same table for every option

    def _build_table(self) -> ActionTable[TacTikiAction]:
        return build_table()

    @property
    def num_players(self) -> int:
        return 2

    def _resample(self, obs: Observation, rng: random.Random) -> TacTikiState:
        assert isinstance(obs, TacTikiObservation)
        return resample(self, obs, rng)

"""The TacTiki game: its options, and the wiring of its parts (the top of the package)."""

from __future__ import annotations

from tikigames.core.action import ActionTable
from tikigames.core.game import Game
from tikigames.core.options import Option
from tikigames.core.registry import register
from tikigames.tactiki.actions import TacTikiAction, build_table
from tikigames.tactiki.data import TacTikiRules
from tikigames.tactiki.encoding import TacTikiEncoder
from tikigames.tactiki.help import RULES_SUMMARY, notation_examples
from tikigames.tactiki.observation import TacTikiObservation
from tikigames.tactiki.render import render_observation, render_state
from tikigames.tactiki.resample import TacTikiResampler
from tikigames.tactiki.state import TacTikiState
from tikigames.tactiki.svg import svg_observation, svg_state

__all__ = ["TacTiki"]


@register
class TacTiki(Game[TacTikiState, TacTikiObservation, TacTikiRules]):
    """TacTiki for two: TIKI (player 0) and TAC (player 1) each hide ten ranked pieces on their
    start row and race to stack a statue of five on one of the other's start fields.

    >>> import tikigames
    >>> game = tikigames.load("tactiki")
    >>> game.options
    {'strict_statue': False, 'max_turns': 300}
    >>> game.num_players, game.num_distinct_actions, game.rules.max_turns
    (2, 181, 300)
    """

    name = "tactiki"
    title = "TacTiki"
    rules_class = TacTikiRules
    state_class = TacTikiState
    observation_class = TacTikiObservation
    resampler_class = TacTikiResampler
    render_state = staticmethod(render_state)
    render_observation = staticmethod(render_observation)
    svg_state = staticmethod(svg_state)
    svg_observation = staticmethod(svg_observation)
    encoder_class = TacTikiEncoder
    rules_summary = RULES_SUMMARY
    #: A playout of the search bots stops after this many actions and is scored by the
    #: statue race (``TacTikiState.evaluate``): a heuristic for search bots, not a rule.
    rollout_cap = 0
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

    def notation_examples(self) -> list[tuple[str, str]]:
        """One example per kind of action (``tikigames.tactiki.help``): the cheat sheet."""
        return notation_examples()

    def _table_key(self) -> tuple[()]:
        return ()  # the same table for every option

    def _build_table(self) -> ActionTable[TacTikiAction]:
        return build_table()

    @property
    def num_players(self) -> int:
        return 2

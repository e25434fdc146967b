"""The Tiki Topple game: its options, and the wiring of its parts (the top of the package)."""

from __future__ import annotations

from collections.abc import Mapping

from tikigames.core.errors import OptionError
from tikigames.core.game import Game
from tikigames.core.options import Option, OptionValue
from tikigames.core.registry import register
from tikigames.tiki_topple.actions import TikiToppleTable, build_table
from tikigames.tiki_topple.data import TikiToppleRules
from tikigames.tiki_topple.encoding import TikiToppleEncoder
from tikigames.tiki_topple.help import RULES_SUMMARY, notation_examples
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.render import render_observation, render_state
from tikigames.tiki_topple.resample import TikiToppleResampler
from tikigames.tiki_topple.state import TikiToppleState
from tikigames.tiki_topple.svg import svg_observation, svg_state

__all__ = ["TikiTopple"]

_DEFAULT_ROUNDS = {2: 4, 3: 3, 4: 4}


@register
class TikiTopple(Game[TikiToppleState, TikiToppleObservation, TikiToppleRules]):
    """Tiki Topple for 2–4 players: steer your secret tikis to the top of the line.

    >>> import tikigames
    >>> game = tikigames.load("tiki_topple", players=4)
    >>> game.options
    {'players': 4, 'rounds': 4, 'first_player': 0, 'topple_bottom_allowed': True, \
'tiebreak_rounds': 3, 'target_score': None}
    >>> game.num_distinct_actions
    1360
    """

    name = "tiki_topple"
    title = "Tiki Topple"
    rules_class = TikiToppleRules
    state_class = TikiToppleState
    observation_class = TikiToppleObservation
    resampler_class = TikiToppleResampler
    render_state = staticmethod(render_state)
    render_observation = staticmethod(render_observation)
    svg_state = staticmethod(svg_state)
    svg_observation = staticmethod(svg_observation)
    encoder_class = TikiToppleEncoder
    #: The search bots' playouts stop after 5 actions and ``state.evaluate()`` scores the rest
    #: (a heuristic for search bots, not a rule). Short playouts measured better than long
    #: ones at 50 ms a move — the rest of a round and the next rounds are mostly noise the
    #: guess leaves out (the figures: the game's page, "For search bots").
    rollout_cap = 5
    rules_summary = RULES_SUMMARY
    option_specs = (
        Option("players", int, 2, "number of players", minimum=2, maximum=4),
        Option(
            "rounds",
            int,
            lambda options: _DEFAULT_ROUNDS[options["players"]],  # type: ignore[index]
            "rounds in a game (default 4 with 2 players, 3 with 3, 4 with 4)",
            minimum=1,
        ),
        Option("first_player", int, 0, "the seat that starts round 1", minimum=0, maximum=3),
        Option(
            "topple_bottom_allowed",
            bool,
            True,
            "whether Tiki Topple may target the tiki already at the bottom (a no-op)",
        ),
        Option(
            "tiebreak_rounds",
            int,
            3,
            "extra rounds at most, played by the tied leaders only",
            minimum=0,
        ),
        Option(
            "target_score",
            int,
            None,
            "older edition: end after the first round in which a total reaches this",
            minimum=1,
            allow_none=True,
        ),
    )

    def notation_examples(self) -> list[tuple[str, str]]:
        """One example per kind of action, picked from the action table (see
        :mod:`tikigames.tiki_topple.help`)."""
        return notation_examples(self.actions())

    def _check_options(self, options: Mapping[str, OptionValue]) -> None:
        players, first = options["players"], options["first_player"]
        assert isinstance(players, int) and isinstance(first, int)
        if first >= players:
            raise OptionError(f"option 'first_player' must be < players ({players}), not {first}")

    def _table_key(self) -> tuple[()]:
        return ()  # the same table for every option

    def _build_table(self) -> TikiToppleTable:
        return build_table()

    @property
    def action_table(self) -> TikiToppleTable:
        """The action table (the same for every option), with its prebuilt chance outcomes."""
        table = super().action_table
        assert isinstance(table, TikiToppleTable)
        return table

"""The Paikō game: options and wiring."""

from __future__ import annotations

from tikigames.core.game import Game
from tikigames.core.options import Option
from tikigames.core.registry import register
from tikigames.paiko.actions import PaikoTable, build_table
from tikigames.paiko.data import PaikoRules
from tikigames.paiko.encoding import PaikoEncoder
from tikigames.paiko.help import RULES_SUMMARY, notation_examples
from tikigames.paiko.observation import PaikoObservation
from tikigames.paiko.render import render_observation, render_state
from tikigames.paiko.resample import PaikoResampler
from tikigames.paiko.state import PaikoState
from tikigames.paiko.svg import svg_observation, svg_state

__all__ = ["Paiko"]


@register
class Paiko(Game[PaikoState, PaikoObservation, PaikoRules]):
    """Paikō for two players: deploy and shift tiles whose threat captures and whose cover
    protects, and score 10 points in the middlegrounds and the opponent's homeground.

    >>> import tikigames
    >>> game = tikigames.load("paiko")
    >>> game.options
    {'max_turns': 1000, 'move_limit': 3, 'draw_exact': False}
    >>> game.num_players, game.num_distinct_actions, game.rules.move_limit
    (2, 18090, 3)
    """

    name = "paiko"
    title = "Paikō"
    rules_class = PaikoRules
    state_class = PaikoState
    observation_class = PaikoObservation
    resampler_class = PaikoResampler
    render_state = staticmethod(render_state)
    render_observation = staticmethod(render_observation)
    svg_state = staticmethod(svg_state)
    svg_observation = staticmethod(svg_observation)
    encoder_class = PaikoEncoder
    rules_summary = RULES_SUMMARY
    #: A random Paikō playout is a few hundred actions of slow moves (captures cascade): a short
    #: rollout, then the points' guess (:meth:`PaikoState.evaluate`), searches better per second.
    #: Four actions of the rollout policy (:meth:`PaikoState.rollout_action`: captures, points,
    #: tiles kept out of reach) see the replies to a move — a capture back, a tile saved —
    #: and cost little: at 50 ms a move the search then tries many more moves than with 20.
    rollout_cap = 4
    #: About 260 legal actions a move: :class:`~tikigames.bots.MCTSBot` widens progressively,
    #: expanding first the rollout policy's choice (captures first). 2 beat 1 and 4 at 50 ms
    #: a move (a heuristic for search bots, not a rule).
    widening = 2.0
    option_specs = (
        Option(
            "max_turns",
            int,
            1000,
            "the game is drawn when this many turns have been played (None: no limit)",
            minimum=1,
            allow_none=True,
        ),
        Option(
            "move_limit",
            int,
            3,
            "the same tile may move on at most this many of its owner's turns in a row"
            " (None: no limit)",
            minimum=1,
            allow_none=True,
        ),
        Option("draw_exact", bool, False, "a draw takes exactly min(3, reserve) tiles"),
    )

    def notation_examples(self) -> list[tuple[str, str]]:
        """One example per kind of action, from the action table
        (:func:`tikigames.paiko.help.notation_examples`).

        >>> import tikigames
        >>> tikigames.load("paiko").notation_examples()[0]
        ('the draft: take this tile from your reserve into your hand', 'draft sword')
        """
        return notation_examples(self.action_table)

    def _table_key(self) -> tuple[()]:
        return ()  # the same table for every option

    def _build_table(self) -> PaikoTable:
        return build_table()

    @property
    def num_players(self) -> int:
        return 2

    @property
    def action_table(self) -> PaikoTable:
        """The action table with the rules engine's lookups, shared by every state of the game
        (and by every Paikō game: it does not depend on the options)."""
        table = super().action_table
        assert isinstance(table, PaikoTable)
        return table

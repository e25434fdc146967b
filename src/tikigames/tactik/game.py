"""The Tac-Tik game: its options, and the wiring of its parts (the top of the package)."""

from __future__ import annotations

from collections.abc import Mapping

from tikigames.core.action import ActionTable
from tikigames.core.errors import OptionError
from tikigames.core.game import Game
from tikigames.core.options import Option, OptionValue
from tikigames.core.registry import register
from tikigames.tactik.actions import TacTikAction, build_table
from tikigames.tactik.data import TacTikRules
from tikigames.tactik.encoding import TacTikEncoder
from tikigames.tactik.help import RULES_SUMMARY, notation_examples
from tikigames.tactik.observation import TacTikObservation
from tikigames.tactik.render import render_observation, render_state
from tikigames.tactik.resample import TacTikResampler
from tikigames.tactik.state import TacTikState
from tikigames.tactik.svg import svg_observation, svg_state

__all__ = ["TacTik"]


def _last_player(options: Mapping[str, OptionValue]) -> int:
    players = options["players"]
    assert isinstance(players, int)
    return players - 1


@register
class TacTik(Game[TacTikState, TacTikObservation, TacTikRules]):
    """Tac-Tik: 4 or 6 players in teams of two (or 2 players with two colours each) race their
    pawns round the track and into their homes, moved by cards.

    >>> import tikigames
    >>> game = tikigames.load("tactik")
    >>> game.options
    {'players': 4, 'jokers': 2, 'with_13': False, 'discard': 'any', 'first_dealer': 3, \
'seven_captures_passed': True, 'max_turns': 1000}
    >>> game.num_distinct_actions
    10971
    """

    name = "tactik"
    title = "Tac-Tik"
    rules_class = TacTikRules
    state_class = TacTikState
    observation_class = TacTikObservation
    resampler_class = TacTikResampler
    render_state = staticmethod(render_state)
    render_observation = staticmethod(render_observation)
    svg_state = staticmethod(svg_state)
    svg_observation = staticmethod(svg_observation)
    encoder_class = TacTikEncoder
    rules_summary = RULES_SUMMARY
    #: Random Tac-Tik playouts run to a thousand actions and more: a short rollout, then the
    #: race's guess (:meth:`TacTikState.evaluate`), searches far better per second. With the
    #: greedy policy (:meth:`TacTikState.rollout_action`) 20 actions stays the best cap found:
    #: at 50 ms a move an iteration costs over a millisecond, and longer playouts leave too few
    #: iterations (caps of 10 and 30 both did worse in duels; see the docs page). A heuristic
    #: for search bots, not a rule.
    rollout_cap = 20
    option_specs = (
        Option(
            "players",
            int,
            4,
            "4 or 6 players in teams, or 2 (each playing two colours)",
            choices=(2, 4, 6),
        ),
        Option("jokers", int, 2, "Jokers in the deck", choices=(0, 2, 4)),
        Option("with_13", bool, False, "add four 13s (start, or move 13)"),
        Option(
            "discard",
            str,
            "any",
            '"any": discard one card whenever you like; "stuck": your whole hand, when stuck',
            choices=("any", "stuck"),
        ),
        Option(
            "first_dealer",
            int,
            _last_player,
            "who deals first (default: the last player, so player 0 plays first)",
            minimum=0,
            maximum=5,
        ),
        Option(
            "seven_captures_passed",
            bool,
            True,
            "a seven captures every pawn it passes (else only where a sub-move lands)",
        ),
        Option(
            "max_turns",
            int,
            1000,
            "the game is drawn after this many turns",
            minimum=1,
            allow_none=True,
        ),
    )

    def _check_options(self, options: Mapping[str, OptionValue]) -> None:
        players, dealer = options["players"], options["first_dealer"]
        assert isinstance(players, int) and isinstance(dealer, int)
        if dealer >= players:
            raise OptionError(f"option 'first_dealer' must be < players ({players}), not {dealer}")

    def notation_examples(self) -> list[tuple[str, str]]:
        """One example per kind of action of these options, from the action table
        (:func:`tikigames.tactik.help.notation_examples`).

        >>> import tikigames
        >>> tikigames.load("tactik", players=2, discard="stuck").notation_examples()[-1]
        ('discard your whole hand, when no card can be played', 'discard all')
        """
        return notation_examples(self.rules, self.action_table.actions)

    def _table_key(self) -> tuple[int, bool]:
        return (self.rules.colours, self.rules.with_13)

    def _build_table(self) -> ActionTable[TacTikAction]:
        colours, with_13 = self._table_key()
        return build_table(colours, with_13)

"""The play loop: one game from start to end with bots, reproducible from one seed.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from tikigames.core.action import Action
from tikigames.core.bot import Bot
from tikigames.core.errors import IllegalActionError
from tikigames.core.game import Game
from tikigames.core.state import State

__all__ = ["play"]

#: Called after each action is applied: the state, the player who acted (``CHANCE`` for a
#: chance outcome) and the action (``state.seen_history(p)[-1]`` is how player ``p`` saw it).
OnAction = Callable[[State[Any, Any, Any], int, Action], None]


def play(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    seed: int | None = None,
    max_actions: int | None = None,
    *,
    on_action: OnAction | None = None,
) -> State[Any, Any, Any]:
    """Play one game to its end (or ``max_actions`` actions) and return the final state.

    Chance outcomes (:meth:`State.sample_chance <tikigames.core.state.State.sample_chance>`)
    and every bot draw, in turn order, from one ``random.Random(seed)``, so the same seed
    replays the same game. Each bot sees only its own observation. ``on_action``, if given, is
    told of every action once it is applied (the command line prints the moves with it).

    >>> import tikigames
    >>> from tikigames.bots import RandomBot
    >>> game = tikigames.load("tiki_topple")
    >>> first = tikigames.play(game, [RandomBot(), RandomBot()], seed=4)
    >>> first.is_terminal(), first == tikigames.play(game, [RandomBot(), RandomBot()], seed=4)
    (True, True)

    Raises:
        ValueError: ``bots`` does not have one bot per seat.
        IllegalActionError: a bot returned an action that is not legal.
    """
    if len(bots) != game.num_players:
        raise ValueError(
            f"{game.name} with these options needs {game.num_players} bots, not {len(bots)}"
        )
    rng = random.Random(seed)
    state: State[Any, Any, Any] = game.new_initial_state()
    count = 0
    while not state.is_terminal() and (max_actions is None or count < max_actions):
        player = state.current_player()
        if player < 0:
            action = state.sample_chance(rng)
            state.apply_unchecked(action)
        else:
            # A bot may return any id (a numpy integer, say): apply_action checks and coerces it,
            # and the table's action is what the history holds.
            # (Through Any: compiled, a call typed to return an Action checks that it does.)
            bot: Any = bots[player]
            chosen: Any = bot.act(state.observation(player), rng)
            try:
                state.apply_action(chosen)
            except IllegalActionError as error:
                raise IllegalActionError(f"bot {player} ({bots[player]!r}) chose {error}") from None
            action = game.action(chosen)  # (Any: compiled, no int check on the way)
        if on_action is not None:
            on_action(state, player, action)
        count += 1
    return state

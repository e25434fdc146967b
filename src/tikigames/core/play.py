"""The decision loop: the one way to drive a game from a position to its end, and ``play``.

:func:`decisions` is the loop every tool runs on — :func:`play`, the terminal, self-play, the
game server: it draws each chance outcome from one ``random.Random`` and stops at each seat's
decision, yielding a :class:`Turn`; the caller chooses (a bot, a person, a network client)
and sends the action back. Because there is one loop, there is one order of draws: a bot that
draws from the same ``rng`` sees exactly the game :func:`play` plays with the same seed.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from tikigames.core.action import Action
from tikigames.core.bot import Bot
from tikigames.core.errors import IllegalActionError
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.state import State

__all__ = ["OnAction", "Turn", "decisions", "next_turn", "play"]

#: Called after each action is applied: the state, the player who acted (``CHANCE`` for a
#: chance outcome) and the action (``state.seen_history(p)[-1]`` is how player ``p`` saw it).
OnAction = Callable[[State[Any, Any, Any], int, Action], None]


@dataclass(frozen=True)
class Turn:
    """A seat's decision, as :func:`decisions` yields it.

    Attributes:
        state: the game's state (the loop's own: read it, do not change it, except to undo
            actions before sending ``None`` back).
        player: the seat to decide.
    """

    state: State[Any, Any, Any]
    player: int

    def observation(self) -> Observation[Any]:
        """What the deciding seat knows: ``state.observation(player)``, all a bot may see."""
        obs: Observation[Any] = self.state.observation(self.player)
        return obs


def decisions(
    state: State[Any, Any, Any],
    rng: random.Random,
    *,
    max_actions: int | None = None,
    on_action: OnAction | None = None,
) -> Generator[Turn, object, None]:
    """Drive ``state`` to its end (or ``max_actions`` actions), yielding each seat's decision.

    Chance outcomes are drawn at once, each with one
    :meth:`~tikigames.core.state.State.sample_chance` ``(rng)``; at a seat's decision the loop
    yields a :class:`Turn` and waits for the action to be sent back (``generator.send``): an
    action of the game or its id, checked and applied with ``apply_action`` (an illegal one
    raises :class:`~tikigames.core.errors.IllegalActionError` out of ``send``, the state
    unchanged, and ends the loop). Sending ``None`` applies nothing and looks at the state
    again: for a caller that undid actions (a person's "undo"). ``on_action`` is told of every
    action once it is applied.

    The order of draws is the contract of reproducible play: chance outcomes and a caller that
    draws from the same ``rng`` at each decision (a bot's ``act(obs, rng)``), in turn order.

    >>> import random, tikigames
    >>> state = tikigames.load("tiki_topple").new_initial_state()
    >>> rng = random.Random(7)
    >>> loop = tikigames.decisions(state, rng)
    >>> turn = next(loop)                  # the line and the secret cards are dealt
    >>> turn.player, state.move_number()
    (0, 3)
    >>> turn = loop.send(state.parse_action("topple nani"))
    >>> turn.player, [str(action) for action in state.history()[3:]]
    (1, ['topple nani'])

    Raises:
        IllegalActionError: (from ``send``) the action sent is not legal now.
        ActionError: (from ``send``) what was sent is not an action of the game.
    """
    count = 0
    while not state.is_terminal() and (max_actions is None or count < max_actions):
        player = state.current_player()
        if player < 0:
            action: Action = state.sample_chance(rng)
            state.apply_unchecked(action)
        else:
            chosen = yield Turn(state, player)
            if chosen is None:
                continue
            state.apply_action(chosen)
            # A chosen id (a numpy integer, say) was coerced: the history holds the table's
            # action.
            action = state.game.action(chosen)
        if on_action is not None:
            on_action(state, player, action)
        count += 1


def next_turn(loop: Generator[Turn, object, None], chosen: object = None) -> Turn | None:
    """Send ``chosen`` to a :func:`decisions` loop (``None`` looks at the position again) and
    return the next :class:`Turn`, or ``None`` once the game is over (or at ``max_actions``).

    >>> import random, tikigames
    >>> from tikigames.core.play import decisions, next_turn
    >>> state = tikigames.load("tiki_topple", rounds=1).new_initial_state()
    >>> rng = random.Random(2)
    >>> loop = decisions(state, rng)
    >>> turn = next_turn(loop)
    >>> while turn is not None:
    ...     turn = next_turn(loop, turn.state.random_action(rng))
    >>> state.is_terminal()
    True

    Raises:
        IllegalActionError: the action sent is not legal now.
        ActionError: what was sent is not an action of the game.
    """
    try:
        return loop.send(chosen)
    except StopIteration:
        return None


def play(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    seed: int | None = None,
    max_actions: int | None = None,
    *,
    on_action: OnAction | None = None,
) -> State[Any, Any, Any]:
    """Play one game to its end (or ``max_actions`` actions) and return the final state.

    :func:`decisions` with a bot at every seat: chance outcomes
    (:meth:`State.sample_chance <tikigames.core.state.State.sample_chance>`) and every bot
    draw, in turn order, from one ``random.Random(seed)``, so the same seed replays the same
    game. Each bot sees only its own observation. ``on_action``, if given, is told of every
    action once it is applied (the command line prints the moves with it).

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
    loop = decisions(state, rng, max_actions=max_actions, on_action=on_action)
    turn = next_turn(loop)
    while turn is not None:
        # (Through Any: compiled, a call typed to return an Action checks that it does.)
        player = turn.player
        bot: Any = bots[player]
        chosen: Any = bot.act(turn.observation(), rng)
        try:
            turn = next_turn(loop, chosen)
        except IllegalActionError as error:
            raise IllegalActionError(f"bot {player} ({bots[player]!r}) chose {error}") from None
    return state

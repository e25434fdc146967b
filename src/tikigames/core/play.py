"""The play loop: one game from start to end with bots, reproducible from one seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import IllegalActionError
from tikigames.core.game import Game
from tikigames.core.state import State

if TYPE_CHECKING:
    from tikigames.bots.base import Bot

__all__ = ["play", "sample_chance"]


def sample_chance(state: State[Any], rng: random.Random) -> Any:
    """Draw a chance outcome of ``state`` with its probability, using ``rng``."""
    return state._sample_chance(rng)


def play(
    game: Game[Any],
    bots: Sequence[Bot],
    seed: int | None = None,
    max_actions: int | None = None,
) -> State[Any]:
    """Play one game to its end (or ``max_actions`` actions) and return the final state.

    Chance outcomes and every bot draw, in turn order, from one ``random.Random(seed)``, so the
    same seed replays the same game. Each bot sees only its own observation.

    Raises:
        ValueError: ``bots`` does not have one bot per seat.
        IllegalActionError: a bot returned an action that is not legal.
    """
    if len(bots) != game.num_players:
        raise ValueError(
            f"{game.name} with these options needs {game.num_players} bots, not {len(bots)}"
        )
    rng = random.Random(seed)
    state: State[Any] = game.new_initial_state()
    count = 0
    while not state.is_terminal() and (max_actions is None or count < max_actions):
        player = state.current_player()
        if player < 0:
            state.apply_action(sample_chance(state, rng))
        else:
            action = bots[player].act(state.observation(player), rng)
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                raise IllegalActionError(f"bot {player} ({bots[player]!r}) chose {error}") from None
        count += 1
    return state

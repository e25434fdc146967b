"""Every tikigames game as a PettingZoo AEC environment (``pip install tikigames[pettingzoo]``).

PettingZoo's AEC ("agent environment cycle") API steps one agent at a time, which is how
tabletop games are played. :func:`env` loads a game by name with its options and returns the
environment PettingZoo's classic games return: the raw :class:`TikiGamesEnv` inside
PettingZoo's ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper``.

- Agents ``player_0`` … ``player_{n-1}``: seat ``i`` of the game is ``player_i``.
- An observation is ``{"observation": obs.tensor() as float32, "action_mask":
  obs.legal_actions_mask() as int8}`` of the agent's own :class:`~tikigames.Observation`: the
  tensor never carries what the agent cannot know, and the mask of an agent not to move is
  all 0.
- Chance is not an agent: after every step (and at ``reset``) the environment draws every
  chance outcome with ``state.sample_chance(rng)``, ``rng`` a :class:`random.Random` seeded by
  ``reset(seed=…)``, so the same seed and actions replay the same game. An episode is one
  :func:`tikigames.core.play.decisions` loop, the one every tool of the library plays on: the
  agents' steps answer its decisions.
- Rewards are the game's returns, all at the end (0 before). A game cut short by its own
  ``max_turns`` option is a draw by its rules, so it ends as terminated, never as truncated.
- ``render_mode="ansi"``: :meth:`TikiGamesEnv.render` returns ``str(obs)`` of the agent to act;
  ``"human"`` prints it after every reset and step.

>>> from tikigames.adapters import pettingzoo
>>> aec = pettingzoo.env("tiki_topple", players=3)
>>> aec.possible_agents
['player_0', 'player_1', 'player_2']
>>> aec.reset(seed=7)
>>> obs, reward, terminated, truncated, info = aec.last()
>>> obs["observation"].dtype, obs["action_mask"].dtype, reward
(dtype('float32'), dtype('int8'), 0.0)

This module is an adapter: it imports the core and PettingZoo, Gymnasium and NumPy. ``import
tikigames`` never imports it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Generator
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from tikigames.adapters.arrays import tensor_array
from tikigames.core.errors import ActionError
from tikigames.core.game import Game
from tikigames.core.play import Turn, decisions, next_turn
from tikigames.core.registry import load
from tikigames.core.state import State

__all__ = ["ILLEGAL_REWARD", "RENDER_MODES", "TikiGamesEnv", "env", "raw_env"]

#: The render modes :func:`env` accepts (besides ``None``).
RENDER_MODES: Final = ("ansi", "human")
#: The reward :func:`env`'s ``TerminateIllegalWrapper`` gives an agent that plays an illegal
#: action (the game ends there, the other agents get 0), as in PettingZoo's classic games.
ILLEGAL_REWARD: Final = -1.0

Observed = dict[str, NDArray[Any]]


def env(name: str, render_mode: str | None = None, **options: Any) -> Any:
    """The game ``name`` with ``options`` as a PettingZoo AEC environment, wrapped like
    PettingZoo's classic games: an illegal action ends the game with reward -1 for its agent
    (and a warning), an action outside the action space fails an assertion, and calls out of
    order (``step`` before ``reset``) raise. ``env(...).unwrapped`` is the
    :class:`TikiGamesEnv`.

    >>> from tikigames.adapters import pettingzoo
    >>> aec = pettingzoo.env("tactiki", max_turns=40)
    >>> aec.reset(seed=1)
    >>> aec.agent_selection, aec.unwrapped.game.name
    ('player_0', 'tactiki')

    Raises:
        OptionError: an unknown game or option, or a bad option value.
        ValueError: an unknown ``render_mode``.
    """
    wrapped: Any = TikiGamesEnv(name, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class TikiGamesEnv(AECEnv):  # type: ignore[misc]
    """One tikigames game as a raw PettingZoo AEC environment (no wrappers: see :func:`env`).

    Args:
        name: the game, as for :func:`tikigames.load`.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        options: the game's options (``players`` sets the number of agents where the game has
            it).

    Unlike :func:`env`'s wrapped environment, :meth:`step` raises on a bad action, leaving the
    environment unchanged: :class:`~tikigames.IllegalActionError` for an action not legal now,
    :class:`~tikigames.ActionError` for anything that is not an action id of the game.

    Raises:
        OptionError: an unknown game or option, or a bad option value.
        ValueError: an unknown ``render_mode``.
    """

    def __init__(self, name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}: {render_mode!r}")
        self._tiki_game: Game[Any, Any, Any] = load(name, **options)
        self.render_mode = render_mode
        self.metadata = {
            "name": f"tikigames_{name}",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
        }
        players = self._tiki_game.num_players
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self._tiki_game.num_distinct_actions
        shape = self._tiki_game.observation_tensor_shape()
        # One space object per agent, returned by every call (PettingZoo seeds them in place).
        # The bounds are those the encodings keep: one-hots, flags and counts scaled to [0, 1].
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self._state: State[Any, Any, Any] = self._tiki_game.new_initial_state()
        # The episode's decision loop, waiting at the next decision (None before reset).
        self._loop: Generator[Turn, object, None] | None = None
        self._reset_bookkeeping()

    # ----------------------------------------------------------------- what it wraps

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The tikigames game (its options fixed when the environment was made)."""
        return self._tiki_game

    @property
    def game_state(self) -> State[Any, Any, Any]:
        """A copy of the current tikigames state, hidden parts included, for logging or
        analysis (changing the copy does not change the environment)."""
        return self._state.clone()

    # ----------------------------------------------------------------- the AEC API

    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box(0, 1, tensor shape, float32), action_mask=Box(0, 1,
        (num_distinct_actions,), int8))``, the same object on every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_distinct_actions)``: the game's action ids, the same object on
        every call."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the chance generator (a new one from the OS the first
        time without it; later resets without one continue the current generator).
        ``options`` is accepted, as PettingZoo requires, and ignored: the game's options are
        fixed when the environment is made."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self._state = self._tiki_game.new_initial_state()
        self._reset_bookkeeping()
        self._loop = self._resume()  # chance drawn up to the first decision
        self._select_next()
        if self.render_mode == "human":
            print(self.render())

    def observe(self, agent: str) -> Observed:
        """``agent``'s observation: its tensor (float32) and its legal-action mask (int8; all
        0 unless ``agent`` is to act)."""
        obs = self._state.observation(self._seat[agent])
        # obs.legal_actions_mask() set from the legal ids: a list as long as the action table
        # (22,579 ids in six-player Tac-Tik) would cost more to build and convert.
        mask = np.zeros(self._tiki_game.num_distinct_actions, dtype=np.int8)
        legal = obs.legal_actions()
        if legal:
            mask[legal] = 1
        return {"observation": tensor_array(obs), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The agent to act plays ``action`` (an action id: an int or a NumPy integer), then
        every chance node that follows is drawn. A terminated agent's step must be ``None``
        (its "dead step", which removes it from :attr:`agents`).

        Each agent's info then holds ``"actions"``: the notation of the action played and of
        the chance outcomes drawn after it, as that agent saw them (hidden parts ``?``).

        Raises:
            IllegalActionError: ``action`` is not legal now (nothing changes).
            ActionError: ``action`` is not an action id of the game (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        if isinstance(action, bool):
            raise ActionError(f"an action is an int id, not {action!r}")
        try:
            action_id = operator.index(action)
        except TypeError:
            raise ActionError(f"an action is an int id, not {action!r}") from None
        loop = self._loop
        assert loop is not None  # set by reset, which OrderEnforcingWrapper demands first
        before = state.move_number()
        try:
            next_turn(loop, action_id)  # applied, then chance drawn up to the next decision
        except ActionError:
            # The loop ends with the error, the state unchanged: a new one takes it up at the
            # same decision.
            self._loop = self._resume()
            raise
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for seat, other in enumerate(self.possible_agents):
            self.infos[other] = {"actions": state.seen_history(seat)[before:]}
        if state.is_terminal():
            for other, value in zip(self.possible_agents, state.returns(), strict=True):
                self.rewards[other] = float(value)
                self.terminations[other] = True
            self._accumulate_rewards()
        self._select_next()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """``str(obs)`` of the agent to act (``agent_selection``) with ``render_mode="ansi"``
        (and ``"human"``, which also prints it after every step); ``None`` without a render
        mode (with a warning, as PettingZoo's classic games)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return str(self._state.observation(self._seat[self.agent_selection]))

    def close(self) -> None:
        """Nothing to release (PettingZoo asks for ``close`` wherever ``render`` is defined)."""

    # ----------------------------------------------------------------- internals

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]

    def _resume(self) -> Generator[Turn, object, None]:
        """A decision loop on the current state, advanced to its next decision (drawing the
        chance outcomes before it, none where the state is at a decision already)."""
        assert self._rng is not None
        loop = decisions(self._state, self._rng)
        next_turn(loop)
        return loop

    def __getstate__(self) -> dict[str, Any]:
        """The environment's attributes for pickling and copying, without the loop (a
        generator does not pickle): :meth:`__setstate__` starts one again."""
        attributes = self.__dict__.copy()
        del attributes["_loop"]
        return attributes

    def __setstate__(self, attributes: dict[str, Any]) -> None:
        """Restore a pickled or copied environment: between steps the state is at a decision
        (or the end), where a new loop takes the game up without drawing anything."""
        self.__dict__.update(attributes)
        self._loop = None if self._rng is None else self._resume()

    def _select_next(self) -> None:
        """The seat to act next, or at the end the first agent, for its dead step."""
        player = self._state.current_player()
        self.agent_selection = self.possible_agents[player if player >= 0 else 0]


#: PettingZoo's name for the unwrapped environment class (``raw_env`` in its classic games).
raw_env = TikiGamesEnv

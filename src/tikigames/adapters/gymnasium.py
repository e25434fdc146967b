"""Gymnasium adapter: one seat of a tikigames game as a single-agent ``gymnasium.Env``.

The learner plays seat ``seat``; every other seat is a tikigames bot (:class:`RandomBot` unless
told otherwise), and the env plays the chance outcomes and the bots itself between the agent's
turns, so each :meth:`~TikiGamesEnv.step` is one decision of the agent. Needs the extra
``tikigames[gymnasium]`` (gymnasium and numpy); ``import tikigames`` never imports this module.

>>> from tikigames.adapters.gymnasium import env
>>> e = env("tiki_topple")  # seat 0 against RandomBot
>>> obs, info = e.reset(seed=7)
>>> obs.shape, obs.dtype, e.action_space
((285,), dtype('float32'), Discrete(1360))
>>> legal = info["action_mask"].nonzero()[0]
>>> len(legal), [e.game.action(int(i)).text for i in legal[:3]]
(30, ['up1 nani', 'up1 wikiwiki', 'up1 huhu'])
>>> _ = e.action_space.seed(7)
>>> done = False
>>> while not done:  # random legal actions to the end of the game
...     obs, reward, done, truncated, info = e.step(e.action_space.sample(info["action_mask"]))
>>> reward, truncated, info["returns"]
(1.0, False, (1.0, -1.0))

What the env gives, and why:

- **Observation**: the agent's ``obs.tensor()`` as a new float32 array each call, in
  ``Box(0.0, 1.0, game.observation_tensor_shape())``: every game of the library scales its
  tensor into [0, 1] (flags, one-hots, counts over their maximum). Computed from the agent's
  observation alone, so it never carries another seat's secret.
- **Action**: ``Discrete(game.num_distinct_actions)``, the game's action ids. The legal ones are
  ``info["action_mask"]`` (int8 0/1, the form ``Discrete.sample(mask)`` takes) and
  :meth:`~TikiGamesEnv.action_masks` (bool, what sb3-contrib's ``MaskablePPO`` calls). Both are
  all 0 once the episode is over.
- **Reward**: the agent's return (``state.returns()[seat]``: +1 win, −1 loss, 0 draw for the
  library's games) on the step that ends the game, 0 before: the game's own outcome, nothing
  shaped.
- **An illegal action** (an id the mask does not allow, or one outside the space) does not
  raise, since Gymnasium's ``check_env`` and many learners step with unmasked random actions: it
  ends the episode (``terminated``) with reward ``illegal_action_reward`` (−1.0 by default, the
  lowest return of the library's games) and ``info["illegal_action"] = True``, leaving the
  game where it was. Stepping on after the end raises ``RuntimeError``: call ``reset``.
- **Termination, no truncation**: a game with a ``max_turns`` cap ends as a terminal state whose
  returns decide (a draw unless the rules say otherwise), so ``truncated`` is always ``False``.
- **Randomness**: ``reset(seed=...)`` seeds ``self.np_random`` (Gymnasium's
  ``super().reset``), and one ``random.Random`` drawn from it plays every chance outcome and
  every bot decision of the episode, so a seed replays the episode exactly; ``reset()`` without a
  seed draws the next episode's from the same generator.
- **The loop**: an episode is one :func:`tikigames.core.play.decisions` loop, the one every
  tool of the library plays on: chance is drawn inside it, the bots answer the other seats'
  turns and each :meth:`~TikiGamesEnv.step` answers the agent's. So a seat's bot draws from the
  generator exactly as it would in :func:`tikigames.play`.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from tikigames.adapters.arrays import tensor_array
from tikigames.bots.random_bot import RandomBot
from tikigames.core.bot import Bot
from tikigames.core.game import Game
from tikigames.core.play import Turn, decisions, next_turn
from tikigames.core.registry import load
from tikigames.core.state import State

__all__ = ["TikiGamesEnv", "env"]

ObsArray = NDArray[np.float32]


class TikiGamesEnv(gymnasium.Env[ObsArray, np.int64]):
    """Seat ``seat`` of ``game`` as a single-agent Gymnasium env against tikigames bots.

    Args:
        game: a loaded game (``tikigames.load(name, **options)``) with an observation tensor.
        opponents: the bots of the other seats: ``None`` (a :class:`RandomBot` each), one
            :class:`~tikigames.core.bot.Bot` (the same object plays every other seat), or a
            sequence of ``num_players - 1`` bots, one per *other* seat in increasing seat order
            (with ``seat=1`` of three players: the bots of seats 0 and 2).
        seat: the agent's seat, ``0 <= seat < game.num_players``.
        render_mode: ``None``, ``"ansi"`` (:meth:`render` returns the agent's observation as
            text, ``str(obs)``) or ``"human"`` (prints that text).
        illegal_action_reward: the reward of an illegal action, which ends the episode.
        observation_bounds: the ``low`` and ``high`` of the observation Box. The library's
            games keep every tensor value in [0, 1] (their pages give the scales); a game of
            your own whose tensor leaves that range passes its own bounds.

    Raises:
        ValueError: ``seat`` out of range, a list of opponents of the wrong length, or an
            unknown render mode.
        TypeError: an opponent that is not a bot (it has no ``act``).
        NotImplementedError: the game declares no observation tensor.
    """

    #: Gymnasium reads the render modes from here (and wants an fps, meaningless for text).
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game: Game[Any, Any, Any],
        opponents: Bot | Sequence[Bot] | None = None,
        seat: int = 0,
        render_mode: str | None = None,
        *,
        illegal_action_reward: float = -1.0,
        observation_bounds: tuple[float, float] = (0.0, 1.0),
    ) -> None:
        players = game.num_players
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(
                f"seat must be an int in range({players}) ({game.title}: {players} players), "
                f"not {seat!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise ValueError(f"render_mode must be None or one of {modes}, not {render_mode!r}")
        self._tiki_game = game
        self._seat = seat
        self._bots = _seat_bots(opponents, seat, players)
        self._illegal_reward = float(illegal_action_reward)
        self.render_mode = render_mode
        low, high = observation_bounds
        shape = game.observation_tensor_shape()
        self.observation_space = spaces.Box(low, high, shape, np.float32)
        self.action_space = spaces.Discrete(game.num_distinct_actions)
        self._state: State[Any, Any, Any] | None = None
        self._rng = random.Random()
        # The episode's decision loop, waiting at the agent's turn (None before the first reset).
        self._loop: Generator[Turn, object, None] | None = None
        self._over = False
        self._agent_legal: set[int] = set()  # the agent's legal ids, as last observed

    # ----------------------------------------------------------------- what it plays

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The game the env plays."""
        return self._tiki_game

    @property
    def seat(self) -> int:
        """The agent's seat."""
        return self._seat

    @property
    def opponents(self) -> dict[int, Bot]:
        """The bot of every other seat, by seat."""
        return {seat: bot for seat, bot in enumerate(self._bots) if bot is not None}

    @property
    def state(self) -> State[Any, Any, Any]:
        """The episode's live game state, to inspect; changing it breaks the episode.

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._state is None:
            raise RuntimeError("the env has no episode yet: call reset() first")
        return self._state

    # ----------------------------------------------------------------- the Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """A new game, played up to the agent's first turn (chance and the bots of the seats
        before it); the agent's observation and ``info``.

        Raises:
            ValueError: ``options`` is not empty (the env takes no reset options; the game's
                options are fixed when it is loaded).
        """
        super().reset(seed=seed)
        if options:
            raise ValueError(f"the env takes no reset options, not {sorted(options)}")
        # One generator per episode, drawn from the seeded np_random: every chance outcome and
        # every bot decision come from it, so the seed fixes the whole episode.
        self._rng = random.Random(int(self.np_random.integers(0, 2**63)))
        self._state = state = self._tiki_game.new_initial_state()
        self._loop = decisions(state, self._rng)
        self._over = True  # until the loop is at the agent's turn: a bot's error ends it
        self._play_others(next_turn(self._loop))
        self._over = state.is_terminal()
        return self._observe()

    def step(
        self, action: np.int64 | int
    ) -> tuple[ObsArray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's ``action``, then chance and the bots until the agent is to move
        again or the game is over.

        Raises:
            RuntimeError: before :meth:`reset`, or after the episode ended.
        """
        state = self.state
        if self._over or self._loop is None:
            raise RuntimeError("the episode is over: call reset() to start another")
        action_id = _action_id(action, self._tiki_game.num_distinct_actions)
        if action_id not in self._agent_legal:
            self._over = True
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, self._illegal_reward, True, False, info
        self._over = True  # until the loop is at the agent's turn: a bot's error ends it
        self._play_others(next_turn(self._loop, action_id))  # legal: applied, never refused
        self._over = state.is_terminal()
        reward = state.returns()[self._seat] if self._over else 0.0
        obs, info = self._observe()
        return obs, reward, self._over, False, info

    def render(self) -> str | None:
        """The agent's observation as text (``"ansi"``), or printed (``"human"``, returns
        ``None``); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        text = str(self.state.observation(self._seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> NDArray[np.bool_]:
        """The agent's legal actions as a bool array over the action ids (sb3-contrib's
        ``MaskablePPO`` convention); all ``False`` once the episode is over."""
        mask = np.zeros(self._tiki_game.num_distinct_actions, dtype=np.bool_)
        mask[list(self._agent_legal)] = True
        return mask

    # ----------------------------------------------------------------- inside

    def _play_others(self, turn: Turn | None) -> None:
        """From ``turn`` (``None``: the game is over), the bots answer the loop's decisions,
        chance being drawn between them, until it is the agent's turn or the game is over."""
        loop, rng = self._loop, self._rng
        assert loop is not None
        while turn is not None and turn.player != self._seat:
            bot = self._bots[turn.player]
            assert bot is not None
            turn = next_turn(loop, bot.act(turn.observation(), rng))

    def __getstate__(self) -> dict[str, Any]:
        """The env's attributes for pickling and copying, without the loop (a generator does
        not pickle): :meth:`__setstate__` starts one again at the same position."""
        attributes = self.__dict__.copy()
        del attributes["_loop"]
        return attributes

    def __setstate__(self, attributes: dict[str, Any]) -> None:
        """Restore a pickled or copied env: between steps the position is the agent's turn
        (or the end), where a new loop takes the game up without drawing anything."""
        self.__dict__.update(attributes)
        self._loop = None
        if self._state is not None:
            self._loop = decisions(self._state, self._rng)
            next_turn(self._loop)

    def _observe(self) -> tuple[ObsArray, dict[str, Any]]:
        """The agent's tensor and ``info``, new objects each call; notes the legal ids."""
        state = self.state
        obs = state.observation(self._seat)
        self._agent_legal = set() if self._over else {int(action) for action in obs.legal}
        mask = np.zeros(self._tiki_game.num_distinct_actions, dtype=np.int8)
        mask[list(self._agent_legal)] = 1
        info: dict[str, Any] = {"action_mask": mask}
        if state.is_terminal():
            info["returns"] = tuple(state.returns())
        return tensor_array(obs), info

    def __repr__(self) -> str:
        return f"TikiGamesEnv({self._tiki_game!r}, seat={self._seat})"


def env(
    name: str,
    opponents: Bot | Sequence[Bot] | None = None,
    seat: int = 0,
    render_mode: str | None = None,
    **options: Any,
) -> TikiGamesEnv:
    """Seat ``seat`` of game ``name`` (loaded with ``options``) as a single-agent Gymnasium env
    in which the other seats are ``opponents`` (see :class:`TikiGamesEnv`).

    Raises:
        OptionError: an unknown game or a bad option.
        ValueError: ``seat`` out of range or a list of opponents of the wrong length.
    """
    return TikiGamesEnv(load(name, **options), opponents, seat, render_mode)


def _seat_bots(opponents: Bot | Sequence[Bot] | None, seat: int, players: int) -> list[Bot | None]:
    """The bot of each seat, ``None`` at the agent's, from the three forms ``opponents`` takes."""
    others = [other for other in range(players) if other != seat]
    if opponents is None:
        bots: list[Bot] = [RandomBot() for _ in others]
    elif isinstance(opponents, Bot):
        bots = [opponents] * len(others)
    else:
        bots = list(opponents)
        if len(bots) != len(others):
            raise ValueError(
                f"opponents must list one bot per other seat ({len(others)}: seats {others}), "
                f"not {len(bots)}"
            )
    for bot in bots:
        if not isinstance(bot, Bot):
            raise TypeError(f"an opponent must be a bot (with act(obs, rng)), not {bot!r}")
    seats: list[Bot | None] = [None] * players
    for other, bot in zip(others, bots, strict=True):
        seats[other] = bot
    return seats


def _action_id(action: object, size: int) -> int:
    """``action`` as an id in ``range(size)``, or -1 when it is none (not an integer, or out of
    the space): the env treats it as an illegal action rather than raise."""
    try:
        action_id = int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return -1
    return action_id if 0 <= action_id < size and action_id == action else -1

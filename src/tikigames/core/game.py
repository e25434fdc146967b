"""The :class:`Game` base: a game's rules with its options fixed, and the factory of its states.

A game subclasses :class:`Game`, declares its name, options and state class, and builds its
action table once (:meth:`Game._build_table`); tables are cached per class and options, so
``load`` is cheap after the first call and every state of a game shares one table.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from tikigames.core.action import Action, ActionTable
from tikigames.core.errors import (
    ActionError,
    InvalidStateError,
    OptionError,
    TikiGamesError,
)
from tikigames.core.observation import OBSERVATION_FORMAT, Observation
from tikigames.core.options import Option, OptionValue, resolve_options
from tikigames.core.serialization import (
    STATE_FORMAT,
    check_fields,
    expect_int,
    expect_object,
    expect_str,
    expect_str_list,
)
from tikigames.core.state import State

__all__ = ["Game"]

S = TypeVar("S", bound=State[Any])

_TABLES: dict[tuple[Any, ...], ActionTable[Any]] = {}

_STATE_REQUIRED = frozenset({"format", "game", "history"})
_STATE_OPTIONAL = frozenset({"options", "position"})


class Game(ABC, Generic[S]):
    """A game with its options fixed: the factory of states, the action table and the loaders.

    Games compare equal when they are the same game with the same options; they pickle by name
    and options.
    """

    #: The registry name (``tikigames.load(name)``).
    name: ClassVar[str]
    #: The name as people write it.
    title: ClassVar[str]
    #: Every option, in the order ``options`` lists them.
    option_specs: ClassVar[tuple[Option, ...]] = ()
    #: The state class of the game.
    state_class: ClassVar[type[State[Any]]]
    #: The observation class of the game.
    observation_class: ClassVar[type[Observation]] = Observation
    #: The rollout length, in actions, that search bots use by default (``max_rollout="game"``
    #: in :mod:`tikigames.bots`): long enough to finish most short games from where a search
    #: starts; a game with long random playouts and a useful :meth:`State.evaluate
    #: <tikigames.core.state.State.evaluate>` sets it short, and its guess scores the rest.
    rollout_cap: ClassVar[int | None] = 200

    def __init__(self, **options: object) -> None:
        self._options = resolve_options(self.name, self.option_specs, options)
        self._check_options(self._options)
        self._key = (self.name, tuple(self._options.items()))
        table_key = (type(self), self._table_key())
        table = _TABLES.get(table_key)
        if table is None:
            table = _TABLES[table_key] = self._build_table()
        self._table: ActionTable[Any] = table

    # ----------------------------------------------------------------- game hooks

    def _check_options(self, options: Mapping[str, OptionValue]) -> None:
        """Checks across options (raise :class:`OptionError`); the single ones are done."""

    def _table_key(self) -> tuple[Any, ...]:
        """The options the action table depends on (all of them unless narrowed)."""
        return tuple(self._options.items())

    @abstractmethod
    def _build_table(self) -> ActionTable[Any]:
        """Every action of the game with these options, in id order."""

    @property
    def num_players(self) -> int:
        """The number of seats: the ``players`` option where the game has one (a game with a
        fixed number of seats overrides this)."""
        players = self._options["players"]
        assert isinstance(players, int)
        return players

    def _resample(self, obs: Observation, rng: random.Random) -> S:
        """A state consistent with ``obs``. The default suits perfect-information games: replay
        the observed history."""
        state = self.new_initial_state()
        for index, text in enumerate(obs.history):
            try:
                state.apply_action(state.parse_action(text))
            except ActionError as error:
                raise InvalidStateError(f"history[{index}]: {error}") from None
        return state

    # ----------------------------------------------------------------- public API

    @property
    def options(self) -> dict[str, OptionValue]:
        """Every option's value (a fresh dict)."""
        return dict(self._options)

    @property
    def num_distinct_actions(self) -> int:
        """The size of the action table: every action id is in ``range(num_distinct_actions)``."""
        return len(self._table)

    def action(self, action_id: int) -> Action:
        """The action with id ``action_id`` (the table's own object).

        Raises:
            ActionError: not an int id of this game.
        """
        if type(action_id) is not int and not isinstance(action_id, Action):
            raise ActionError(f"an action id is an int, not {type(action_id).__name__}")
        if not 0 <= action_id < len(self._table):
            raise ActionError(
                f"{self.name} has action ids 0..{len(self._table) - 1}, not {action_id}"
            )
        entry: Action = self._table[action_id]
        return entry

    def actions(self) -> tuple[Action, ...]:
        """The whole action table, in id order."""
        return self._table.actions

    def new_initial_state(self) -> S:
        """The state before the first action (setup chance outcomes or a draft still to come)."""
        state: S = self.state_class(self)  # type: ignore[assignment]
        return state

    def resample(self, obs: Observation, rng: random.Random) -> S:
        """A new state consistent with ``obs``, drawn as the game's page documents.

        Each consistent state (its whole history, hidden parts included) has probability
        proportional to the product of its hidden chance outcomes' probabilities; for a
        perfect-information game the result equals the observed state.

        Raises:
            InvalidStateError: ``obs`` belongs to another game or is inconsistent.
        """
        if not isinstance(obs, Observation) or obs.game != self:
            raise InvalidStateError(f"that is not an observation of {self!r}")
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        return self._resample(obs, rng)

    def resampler(self, obs: Observation) -> Callable[[random.Random], S]:
        """Prepare to draw many states from one observation, as a search bot does once per
        iteration: ``draw = game.resampler(obs)``, then ``draw(rng)`` as often as needed.

        Each draw is distributed exactly as ``game.resample(obs, rng)``; but draws may share
        the parts of the hidden past that can no longer affect the game, which a game then
        rebuilds once instead of on every draw (Tac-Tik: the hidden cards of the deals already
        played out, whose hands are empty). Call :meth:`resample` for independent draws.

        >>> import random, tikigames
        >>> game = tikigames.load("tactik", players=2)
        >>> state = game.new_initial_state()
        >>> draw = game.resampler(state.observation(0))
        >>> world = draw(random.Random(1))
        >>> world.observation(0) == state.observation(0)
        True

        Raises:
            InvalidStateError: ``obs`` belongs to another game; or (on the first draw, which
                checks it) it is inconsistent.
        """
        if not isinstance(obs, Observation) or obs.game != self:
            raise InvalidStateError(f"that is not an observation of {self!r}")
        prepared = self._resampler(obs)

        def draw(rng: random.Random) -> S:
            if not isinstance(rng, random.Random):
                raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
            return prepared(rng)

        return draw

    def _resampler(self, obs: Observation) -> Callable[[random.Random], S]:
        """The draws of :meth:`resampler` (``obs`` and each ``rng`` are checked); by default
        each is a whole :meth:`_resample`."""
        return functools.partial(self._resample, obs)

    def state_from_json(self, data: object) -> S:
        """The state ``data`` (from :meth:`State.to_json`) describes, rebuilt by replaying its
        history through the rules.

        Raises:
            InvalidStateError: malformed data, another game or other options, an unknown field,
                a history longer than 100,000 actions, or an unparseable or illegal action
                (named by its index).
        """
        obj = expect_object(data, "state data")
        check_fields(obj, "state data", _STATE_REQUIRED, _STATE_OPTIONAL)
        if obj["format"] != STATE_FORMAT:
            raise InvalidStateError(
                f"'format' must be {STATE_FORMAT!r}, not {obj['format']!r}"[:200]
            )
        self._check_game_and_options(obj)
        history = expect_str_list(obj["history"], "history")
        state = self.new_initial_state()
        for index, text in enumerate(history):
            try:
                state.apply_action(state.parse_action(text))
            except ActionError as error:
                raise InvalidStateError(f"history[{index}]: {error}") from None
        return state

    def observation_from_json(self, data: object) -> Observation:
        """The observation ``data`` (from :meth:`Observation.to_json`) describes.

        The data is checked field by field, then a state consistent with it is resampled and its
        observation compared with the data: only an observation some real state gives is
        accepted.

        Raises:
            InvalidStateError: malformed or inconsistent data.
        """
        obj = expect_object(data, "observation data")
        fields = frozenset(
            {"format", "game", "options", "player", "current_player", "history"}
            | set(self.observation_class._fields)
        )
        check_fields(obj, "observation data", fields, frozenset())
        if obj["format"] != OBSERVATION_FORMAT:
            raise InvalidStateError(
                f"'format' must be {OBSERVATION_FORMAT!r}, not {obj['format']!r}"[:200]
            )
        self._check_game_and_options(obj)
        player = expect_int(obj["player"], "player", 0, self.num_players - 1, allow_none=True)
        current = expect_int(obj["current_player"], "current_player", -4, self.num_players - 1)
        assert current is not None
        history = tuple(expect_str_list(obj["history"], "history"))
        knowledge = self.observation_class._knowledge_from_json(self, obj)
        claimed = self.observation_class._claimed(self, player, current, history, knowledge)
        try:
            sample = self._resample(claimed, random.Random(0))
        except TikiGamesError as error:
            raise InvalidStateError(f"inconsistent observation: {error}") from None
        except (ValueError, LookupError, TypeError, AttributeError) as error:
            raise InvalidStateError(f"inconsistent observation: {error!r}") from None
        # A resampler may replay without legality checks (it trusts observations the library
        # made); claimed data is not trusted, so the sample's history is replayed with checks.
        state = self.new_initial_state()
        for index, action in enumerate(sample.history()):
            try:
                state.apply_action(action)
            except ActionError as error:
                raise InvalidStateError(
                    f"inconsistent observation: history[{index}]: {error}"
                ) from None
        real = state.observation(player)
        expected = real.to_json()
        for key, value in expected.items():
            if obj[key] != value:
                raise InvalidStateError(f"observation field {key!r} is inconsistent with the rest")
        return real

    def _check_game_and_options(self, obj: Mapping[str, Any]) -> None:
        name = expect_str(obj["game"], "game")
        if name != self.name:
            raise InvalidStateError(f"the data is of game {name[:50]!r}, not {self.name!r}")
        raw = expect_object(obj.get("options", {}), "'options'")
        try:
            options = resolve_options(self.name, self.option_specs, raw)
            self._check_options(options)
        except OptionError as error:
            raise InvalidStateError(f"'options': {error}") from None
        if options != self._options:
            raise InvalidStateError(
                f"'options' {options} differ from this game's {self._options}"[:300]
            )

    # ----------------------------------------------------------------- identity

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={value!r}" for key, value in self._options.items())
        return f"tikigames.load({self.name!r}{', ' if options else ''}{options})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (type(self), self._options))


def _load_game(cls: type[Game[Any]], options: dict[str, OptionValue]) -> Game[Any]:
    return cls(**options)

"""The :class:`Game` base: a game's rules with its options fixed, and the factory of its states.

A game subclasses :class:`Game` and *declares* its parts; the base class wires them, so no game
writes the same lines again:

=========================  =================================================================
``name``, ``title``        the registry name and the name as people write it
``option_specs``           its options (:class:`~tikigames.core.options.Option`)
``rules_class``            built once as ``rules_class(**options)``: ``game.rules``
``state_class``            its :class:`~tikigames.core.state.State`
``observation_class``      its :class:`~tikigames.core.observation.Observation`
``resampler_class``        its :class:`~tikigames.core.resample.Resampler` (default: replay)
``render_state``           ``str(state)``, as a ``staticmethod``
``render_observation``     ``str(obs)``, as a ``staticmethod``
``svg_state``              ``state.svg()``: a ``staticmethod`` of a state and picture options
``svg_observation``        ``obs.svg()``: the same, of an observation (default: the text framed)
``encoder_class``          ``obs.tensor()``: its ``ObservationEncoder`` (``core.encoding``)
``_build_table()``         every action, in id order (cached per class and ``_table_key()``)
=========================  =================================================================

Tables are cached per class and options, so ``load`` is cheap after the first call and every
state of a game shares one table; encoders are cached per class and rules the same way.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import numbers
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic

from typing_extensions import TypeVar

from tikigames.core.action import Action, ActionTable
from tikigames.core.encoding import ObservationEncoder, TensorLayout
from tikigames.core.errors import ActionError, InvalidStateError, shown
from tikigames.core.observation import Observation
from tikigames.core.options import Option, OptionValue, resolve_options
from tikigames.core.resample import ReplayResampler, Resampler
from tikigames.core.serialization import (
    STATE_FORMAT,
    check_depth,
    check_fields,
    check_game_and_options,
    expect_object,
    expect_str_list,
)
from tikigames.core.state import State
from tikigames.core.svg import PictureOptions, text_picture

__all__ = ["Game"]

S = TypeVar("S", bound=State[Any, Any, Any], default=Any)
Obs = TypeVar("Obs", bound=Observation[Any], default=Any)
R = TypeVar("R", default=Any)

_TABLES: dict[tuple[Any, ...], ActionTable[Any]] = {}
#: The encoders built so far, by encoder class and rules value.
_ENCODERS: dict[tuple[Any, Any], Any] = {}

_STATE_REQUIRED = frozenset({"format", "game", "history"})
_STATE_OPTIONAL = frozenset({"options", "position"})


class Game(ABC, Generic[S, Obs, R]):
    """A game with its options fixed: the factory of states, the action table and the loaders.

    Generic in the game's state class ``S``, observation class ``Obs`` and rules class ``R``.
    Games compare equal when they are the same game with the same options; they pickle by name
    and options.

    >>> import tikigames
    >>> game = tikigames.load("tiki_topple", players=3)
    >>> game.rules.players, game.num_players, game.num_distinct_actions
    (3, 3, 1360)
    """

    #: The registry name (``tikigames.load(name)``).
    name: ClassVar[str]
    #: The name as people write it.
    title: ClassVar[str]
    #: Every option, in the order ``options`` lists them.
    option_specs: ClassVar[tuple[Option, ...]] = ()
    #: Called once with every option by name, it builds the typed, frozen :attr:`rules`.
    rules_class: ClassVar[Callable[..., Any]]
    #: The state class of the game.
    state_class: ClassVar[type[State[Any, Any, Any]]]
    #: The observation class of the game.
    observation_class: ClassVar[type[Observation[Any]]] = Observation
    #: The resampler class of the game (see :mod:`tikigames.core.resample`).
    resampler_class: ClassVar[type[Resampler[Any, Any, Any]]] = ReplayResampler
    #: What ``str(state)`` shows, the whole position as text (a ``staticmethod`` of one state).
    render_state: ClassVar[staticmethod[[Any], str]]
    #: What ``str(obs)`` shows, what the observer knows as text (a ``staticmethod`` of one
    #: observation).
    render_observation: ClassVar[staticmethod[[Any], str]]
    #: What ``state.svg()`` draws, the whole position (a ``staticmethod`` of a state and
    #: :class:`~tikigames.core.svg.PictureOptions`); by default the state's text, framed.
    svg_state: ClassVar[staticmethod[[Any, PictureOptions], str]] = staticmethod(
        lambda state, options: text_picture(str(state), options, type(state.game).title)
    )
    #: What ``obs.svg()`` draws, what the observer knows, from the observation alone;
    #: by default the observation's text, framed.
    svg_observation: ClassVar[staticmethod[[Any, PictureOptions], str]] = staticmethod(
        lambda obs, options: text_picture(str(obs), options, type(obs.game).title)
    )
    #: The rollout length, in actions, that search bots use by default (``max_rollout="game"``
    #: in :mod:`tikigames.bots`), long enough to finish most short games from where a search
    #: starts; a game with long random playouts and a useful :meth:`State.evaluate
    #: <tikigames.core.state.State.evaluate>` sets it short, and its guess scores the rest.
    rollout_cap: ClassVar[int | None] = 200
    #: The progressive widening :class:`~tikigames.bots.MCTSBot` uses by default
    #: (``widening="game"``): a node visited ``n`` times has at most ``ceil(widening · √(n+1))``
    #: children, so a game with hundreds of legal actions a move (Paikō) gets a tree that
    #: deepens instead of a flat list; ``None`` (the default) expands every action first.
    widening: ClassVar[float | None] = None
    #: How long a search bot that plays a person thinks per move when it is given no budget
    #: (the terminal's bots and ``hint``, the game server's bots), in seconds: a bot that
    #: answers in about a second, whatever the game — an iteration count would take a tenth of
    #: a second in one game and ten seconds in another. Give ``iterations`` instead for
    #: reproducible play.
    think_seconds: ClassVar[float] = 1.0
    #: The observation tensor's encoder (see :mod:`tikigames.core.encoding`), built once per
    #: class and rules value as ``encoder_class(rules)``; ``None``: the game has no tensor.
    encoder_class: ClassVar[type[ObservationEncoder[Any, Any]] | None] = None
    #: The rules in a player's words — the goal, a turn, what each card, tile or piece does,
    #: scoring, how the game ends — as plain text (paragraphs; lines starting ``- `` are a
    #: list): what the terminal's ``help rules`` prints and the game's docs page shows.
    rules_summary: ClassVar[str] = ""

    def notation_examples(self) -> list[tuple[str, str]]:
        """``(what it does, example)`` for each kind of action, each example an action of this
        game's table (``str(action)``): the terminal's ``help notation`` and the cheat sheet on
        the game's docs page. The default: none."""
        return []

    def __init__(self, **options: object) -> None:
        self._options = self.validate_options(options)
        self._key = (self.name, tuple(self._options.items()))
        #: The options, typed and frozen (the game's ``rules_class``).
        self.rules: R = self.rules_class(**self._options)
        table_key = (type(self), self._table_key())
        table = _TABLES.get(table_key)
        if table is None:
            table = _TABLES[table_key] = self._build_table()
        self._table: ActionTable[Any] = table
        self._encoder: ObservationEncoder[R, Obs] | None = None
        #: The initial state that :meth:`new_initial_state` clones (never handed out).
        self._initial: S | None = None

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
        """How many seats the game has, which is the ``players`` option where the game has one
        (a game with a fixed number of seats overrides this)."""
        players = self._options["players"]
        assert isinstance(players, int)
        return players

    # ----------------------------------------------------------------- public API

    def validate_options(self, given: Mapping[str, object]) -> dict[str, OptionValue]:
        """Every option's value for ``given``: each checked by its declaration (type — a bool
        is never an int —, range, choices), the rest defaulted, then checked together.

        Raises:
            OptionError: an unknown option or a bad value, named in the message.
        """
        options = resolve_options(self.name, self.option_specs, given)
        self._check_options(options)
        return options

    @property
    def options(self) -> dict[str, OptionValue]:
        """Every option's value (a fresh dict)."""
        return dict(self._options)

    @property
    def action_table(self) -> ActionTable[Any]:
        """The game's action table (shared by every game of the same class and table
        options): every action in id order, and the notation parser."""
        return self._table

    @property
    def num_distinct_actions(self) -> int:
        """The size of the action table (every action id is in ``range(num_distinct_actions)``)."""
        return len(self._table)

    def observation_tensor_layout(self) -> TensorLayout:
        """The planes of every observation's :meth:`~tikigames.core.observation.Observation.tensor`
        (what each holds, its shape and offset), fixed by the game and its options.

        >>> import tikigames
        >>> layout = tikigames.load("tiki_topple").observation_tensor_layout()
        >>> layout.size == sum(plane.size for plane in layout.planes)
        True

        Raises:
            NotImplementedError: the game declares no encoding.
        """
        return self.observation_encoder().layout

    def observation_encoder(self) -> ObservationEncoder[R, Obs]:
        """The encoder behind ``obs.tensor()`` (the game's ``encoder_class``), one per game
        class and rules value.

        >>> import tikigames
        >>> game = tikigames.load("tiki_topple")
        >>> game.observation_encoder() is tikigames.load("tiki_topple").observation_encoder()
        True

        Raises:
            NotImplementedError: the game declares no encoding.
        """
        encoder = self._encoder
        if encoder is None:
            encoder_class = self.encoder_class
            if encoder_class is None:
                raise NotImplementedError(f"{self!r} declares no observation tensor")
            key = (encoder_class, self.rules)
            encoder = _ENCODERS.get(key)
            if encoder is None:
                encoder = _ENCODERS[key] = encoder_class(self.rules)
            self._encoder = encoder
        return encoder

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of every observation's tensor: ``(size,)``, the planes of
        :meth:`observation_tensor_layout` one after the other, each flattened row-major.

        Raises:
            NotImplementedError: the game declares no encoding.
        """
        return self.observation_tensor_layout().shape

    def action(self, action_id: int) -> Action:
        """The action with id ``action_id`` (the table's own object).

        Raises:
            ActionError: not an int id of this game.
        """
        if isinstance(action_id, bool) or not isinstance(action_id, numbers.Integral):
            raise ActionError(f"an action id is an int, not {type(action_id).__name__}")
        index = operator.index(action_id)  # numpy's integers too
        if not 0 <= index < len(self._table):
            raise ActionError(
                f"{self.name} has action ids 0..{len(self._table) - 1}, not {shown(index)}"
            )
        entry: Action = self._table[index]
        return entry

    def actions(self) -> tuple[Action, ...]:
        """The whole action table, in id order."""
        return self._table.actions

    def new_initial_state(self) -> S:
        """The state before the first action (setup chance outcomes or a draft still to come).

        The game builds its initial state once and hands out clones of it: a clone copies what
        the constructor computes (Paikō's threat maps: a tenth of the cost), and, compiled, it
        calls the state's class by name, which runs ``__init__`` once (see
        :meth:`State.clone <tikigames.core.state.State.clone>`).
        """
        initial = self._initial
        if initial is None:
            built: S = self.state_class(self)  # type: ignore[assignment]
            initial = self._initial = built
        return initial.clone()

    def resample(self, obs: Obs, rng: random.Random) -> S:
        """A new state consistent with ``obs``, drawn as the game's page documents.

        Each consistent state (its whole history, hidden parts included) has probability
        proportional to the product of its hidden chance outcomes' probabilities; for a
        perfect-information game the result equals the observed state.

        >>> import random, tikigames
        >>> game = tikigames.load("tiki_topple")
        >>> state = game.new_initial_state()
        >>> rng = random.Random(5)
        >>> for _ in range(3):
        ...     state.apply_action(state.sample_chance(rng))
        >>> world = game.resample(state.observation(0), rng)
        >>> world.observation(0) == state.observation(0)
        True

        Raises:
            InvalidStateError: ``obs`` belongs to another game or is inconsistent.
            TypeError: ``rng`` is not a ``random.Random``.
        """
        return self.resampler(obs)(rng)

    def resampler(self, obs: Obs, rng: random.Random | None = None) -> Resampler[Any, Obs, S]:
        """Prepare to draw many states from one observation, as a search bot does once per
        iteration: ``draw = game.resampler(obs)``, then ``draw(rng)`` as often as needed; or
        ``draw = game.resampler(obs, rng)``, then ``draw()`` draws from that ``rng``.

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
        >>> worlds = game.resampler(state.observation(0), random.Random(1))
        >>> [worlds().observation(0) == state.observation(0) for _ in range(3)]
        [True, True, True]

        Raises:
            InvalidStateError: ``obs`` belongs to another game; or (when it is prepared or on
                a draw) it is inconsistent.
            TypeError: ``rng`` is neither ``None`` nor a ``random.Random``.
        """
        if not isinstance(obs, self.observation_class) or obs.game != self:
            raise InvalidStateError(f"that is not an observation of {self!r}")
        if rng is not None and not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        prepared: Resampler[Any, Obs, S] = self.resampler_class(self, obs)
        prepared.rng = rng
        return prepared

    def state_from_json(self, data: object) -> S:
        """The state ``data`` (from :meth:`State.to_json`) describes, rebuilt by replaying its
        history through the rules.

        Raises:
            InvalidStateError: malformed data, another game or other options, an unknown field,
                a history longer than 100,000 actions, or an unparseable or illegal action
                (named by its index).
        """
        check_depth(data, "state data")
        obj = expect_object(data, "state data")
        check_fields(obj, "state data", _STATE_REQUIRED, _STATE_OPTIONAL)
        if obj["format"] != STATE_FORMAT:
            raise InvalidStateError(
                f"'format' must be {STATE_FORMAT!r}, not {shown(obj['format'])}"
            )
        check_game_and_options(self, obj)
        history = expect_str_list(obj["history"], "history")
        state = self.new_initial_state()
        for index, text in enumerate(history):
            try:
                state.apply_unchecked(state.parse_action(text))  # parse_action checked it
            except ActionError as error:
                raise InvalidStateError(f"history[{index}]: {error}") from None
        return state

    def observation_from_json(self, data: object) -> Obs:
        """The observation ``data`` (from :meth:`Observation.to_json`) describes: see
        :meth:`Observation.from_json <tikigames.core.observation.Observation.from_json>`.

        Raises:
            InvalidStateError: malformed or inconsistent data.
        """
        observation_class: Any = self.observation_class
        obs: Obs = observation_class.from_json(self, data)
        return obs

    # ----------------------------------------------------------------- identity

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={shown(value)}" for key, value in self._options.items())
        return f"tikigames.load({self.name!r}{', ' if options else ''}{options})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (type(self), self._options))


def _load_game(
    cls: type[Game[Any, Any, Any]], options: dict[str, OptionValue]
) -> Game[Any, Any, Any]:
    return cls(**options)

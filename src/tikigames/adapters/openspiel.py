"""OpenSpiel: every tikigames game as a ``pyspiel`` game called ``tikigames_<name>``.

Importing this module registers the library's games (:data:`tikigames.GAMES`) with pyspiel; their
options are the games' parameters, so OpenSpiel's Python algorithms (``MCTSBot``, ``ISMCTSBot``,
CFR on small games, RL environments) load them by name:

>>> import pyspiel
>>> import tikigames.adapters.openspiel
>>> game = pyspiel.load_game("tikigames_tiki_topple", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_game_length()
(3, 1360, 108)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1296)

What OpenSpiel needs and tikigames does not declare is written here, per game: the bound on
the number of player actions (``max_game_length``) and on chance nodes
(``max_chance_nodes_in_history``), the utility range, and whether the returns always sum to 0.
A game with no bound on its length cannot be an OpenSpiel game: ``max_turns`` set to no limit,
or Tiki Topple's ``target_score`` (the rounds go on until some total reaches it), is refused
with an :class:`~tikigames.OptionError` saying so. A game registered later (a fifth game, such
as ``examples/kuhn_poker.py``) is added with :func:`register`, which takes its bounds.

A state wraps a tikigames state (``state.tikigames_state``); a game its tikigames game
(``game.tikigames_game``). Action ids, chance outcomes and returns are the library's own.

This module is an adapter: it imports the core, numpy and pyspiel, never the games' packages
(the package ``tikigames``, imported first by Python, registers them).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import numpy as np
import pyspiel

from tikigames.adapters.arrays import write_tensor
from tikigames.core.errors import OptionError
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.options import Option, OptionValue
from tikigames.core.registry import load, registered
from tikigames.core.state import State

__all__ = [
    "PREFIX",
    "Bounds",
    "Observer",
    "OpenSpielBot",
    "OpenSpielGame",
    "OpenSpielState",
    "parameter_specification",
    "register",
    "registered_names",
    "sentinel",
]

AnyGame = Game[Any, Any, Any]
AnyState = State[Any, Any, Any]

#: The prefix of every pyspiel name: tikigames game ``tactik`` is ``tikigames_tactik``.
PREFIX: Final = "tikigames_"


@dataclass(frozen=True)
class Bounds:
    """What OpenSpiel must know about one loaded game, which tikigames does not declare.

    Attributes:
        max_game_length: the most player actions a game can have (chance outcomes not
            counted); OpenSpiel requires it finite.
        max_chance_nodes: the most chance nodes in a game's history (0: no chance).
        min_utility, max_utility: the range of every return.
        zero_sum: whether the returns always sum to 0 (true for two sides).
    """

    max_game_length: int
    max_chance_nodes: int
    min_utility: float = -1.0
    max_utility: float = 1.0
    zero_sum: bool = True


BoundsFn = Callable[[AnyGame], Bounds]


@dataclass(frozen=True)
class _Entry:
    """One registered game: its tikigames name, its bounds and the facts of its type."""

    name: str
    bounds: BoundsFn
    perfect_information: bool
    chance: bool
    specs: tuple[Option, ...]


_ENTRIES: dict[str, _Entry] = {}


# ---------------------------------------------------------------- parameters and sentinels


def sentinel(spec: Option) -> OptionValue:
    """The parameter value that stands for an option's computed default or for ``None``, or
    ``None`` when the option needs none (its default is a fixed value it cannot lack).

    OpenSpiel parameters have a fixed default of a fixed type, and no ``None``. An int option
    whose default is computed from other options, or that takes ``None``, gets the value just
    below its minimum, which no real value can take: ``0`` for an option of minimum 1 (Tiki
    Topple's ``rounds``, every ``max_turns``, Paikō's ``move_limit``), ``-1`` for an option of
    minimum 0 (Tac-Tik's ``first_dealer``).

    >>> from tikigames.adapters.openspiel import sentinel
    >>> from tikigames.core.options import Option
    >>> sentinel(Option("first_dealer", int, lambda options: 3, "who deals", minimum=0))
    -1
    >>> sentinel(Option("max_turns", int, 300, "turns", minimum=1, allow_none=True))
    0
    >>> print(sentinel(Option("jokers", int, 2, "Jokers", choices=(0, 2, 4))))
    None

    Raises:
        TypeError: the option would need a sentinel this adapter cannot give it (not an int
            with a minimum, or both computed and ``None``-able).
    """
    computed = callable(spec.default)
    if not computed and not spec.allow_none:
        return None
    if computed and (spec.allow_none or spec.default is None):
        raise TypeError(f"option {spec.name!r}: a computed default and None need two sentinels")
    if spec.kind is not int or spec.minimum is None:
        raise TypeError(f"option {spec.name!r} has no value free for a sentinel")
    return spec.minimum - 1


def parameter_specification(specs: tuple[Option, ...]) -> dict[str, int | bool | str]:
    """Every option as an OpenSpiel parameter with its fixed default: the option's own default
    where it is a fixed value, else its :func:`sentinel`."""
    spec_dict: dict[str, int | bool | str] = {}
    for spec in specs:
        mark = sentinel(spec)
        default = spec.default
        if callable(default) or default is None:
            default = mark
        assert isinstance(default, (int, bool, str))
        spec_dict[spec.name] = default
    return spec_dict


def _options(entry: _Entry, params: Mapping[str, object]) -> dict[str, object]:
    """The tikigames options of OpenSpiel parameters: a sentinel becomes ``None`` or, for a
    computed default, is left out so that tikigames computes it."""
    options: dict[str, object] = {}
    for name, value in params.items():
        spec = next((spec for spec in entry.specs if spec.name == name), None)
        if spec is not None and type(value) is int and value == sentinel(spec):
            if callable(spec.default):
                continue
            value = None
        options[name] = value
    return options


def _finite(game: AnyGame, option: str, why: str = "sets no limit") -> int:
    """The value of ``option``, which bounds the game's length; ``None`` is refused."""
    value = game.options[option]
    if value is None:
        raise OptionError(
            f"{PREFIX}{game.name}: OpenSpiel needs a finite max_game_length, and "
            f"{option}=None (parameter value 0) {why}; give {option} a positive value"
        )
    assert isinstance(value, int)
    return value


# ---------------------------------------------------------------- the four games' bounds


def _tiki_topple_bounds(game: AnyGame) -> Bounds:
    """Rounds: ``rounds`` and at most ``tiebreak_rounds`` more. A round of k players has k
    hands of 7 cards (6 with 3 or 4 players) and 1 + k chance nodes (the line, the cards)."""
    options = game.options
    if options["target_score"] is not None:
        raise OptionError(
            f"{PREFIX}tiki_topple: OpenSpiel needs a finite max_game_length, and "
            "target_score sets none (the rounds go on until a total reaches it); "
            "leave target_score at 0 (None) and use rounds"
        )
    players, rounds, extra = options["players"], options["rounds"], options["tiebreak_rounds"]
    assert isinstance(players, int) and isinstance(rounds, int) and isinstance(extra, int)
    per_round = max(k * (7 if k == 2 else 6) for k in range(2, players + 1))
    total = rounds + extra
    return Bounds(total * per_round, total * (1 + players), zero_sum=players == 2)


def _tactiki_bounds(game: AnyGame) -> Bounds:
    """20 setup placements, then at most ``max_turns`` turns of at most two moves."""
    return Bounds(20 + 2 * _finite(game, "max_turns"), 0)


def _tactik_bounds(game: AnyGame) -> Bounds:
    """At most ``max_turns`` turns of at most 7 actions (a seven's sub-moves). Each deal gives
    every player cards, and each plays at least one turn to empty a hand, so there are at most
    ``max_turns // players + 1`` deals, each of ``players`` exchanges (none with 2 players) and
    4 cards a player (6 with 2 players), each card one chance node."""
    turns = _finite(game, "max_turns")
    players = game.num_players
    deals = turns // players + 1
    exchanges = 0 if players == 2 else players * deals
    cards = (6 if players == 2 else 4) * players * deals
    return Bounds(7 * turns + exchanges, cards, zero_sum=players != 6)


def _paiko_bounds(game: AnyGame) -> Bounds:
    """17 draft actions; at most ``max_turns`` turns of at most two actions (a Sai's deploy
    and its follow-up); and the picks after captures, each taking one of the 48 tiles out of a
    reserve."""
    return Bounds(17 + 2 * _finite(game, "max_turns") + 48, 0)


_GAME_FACTS: Final[dict[str, tuple[BoundsFn, bool, bool]]] = {
    # name: (bounds, perfect information, chance)
    "tiki_topple": (_tiki_topple_bounds, False, True),
    "tactiki": (_tactiki_bounds, False, False),
    "tactik": (_tactik_bounds, False, True),
    "paiko": (_paiko_bounds, True, False),
}


# ---------------------------------------------------------------- pyspiel types and infos


def _players_range(entry: _Entry, default: AnyGame) -> tuple[int, int]:
    """The fewest and most players: the ``players`` option's range, else the default's."""
    spec = next((spec for spec in entry.specs if spec.name == "players"), None)
    if spec is None:
        return default.num_players, default.num_players
    if spec.choices is not None:
        counts = [c for c in spec.choices if isinstance(c, int)]
        return min(counts), max(counts)
    assert spec.minimum is not None and spec.maximum is not None
    return spec.minimum, spec.maximum


def _has_tensor(game: AnyGame) -> bool:
    """Whether the game declares an observation tensor."""
    try:
        game.observation_tensor_layout()
    except NotImplementedError:
        return False
    return True


def _game_type(entry: _Entry, game: AnyGame, zero_sum: bool) -> Any:
    """The pyspiel.GameType of ``game`` (its utility and tensors depend on its options)."""
    minimum, maximum = _players_range(entry, game)
    kinds = pyspiel.GameType
    tensor = _has_tensor(game)
    return pyspiel.GameType(
        short_name=PREFIX + entry.name,
        long_name=f"tikigames {type(game).title}",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=(
            kinds.ChanceMode.EXPLICIT_STOCHASTIC if entry.chance else kinds.ChanceMode.DETERMINISTIC
        ),
        information=(
            kinds.Information.PERFECT_INFORMATION
            if entry.perfect_information
            else kinds.Information.IMPERFECT_INFORMATION
        ),
        utility=kinds.Utility.ZERO_SUM if zero_sum else kinds.Utility.GENERAL_SUM,
        reward_model=kinds.RewardModel.TERMINAL,
        max_num_players=maximum,
        min_num_players=minimum,
        provides_information_state_string=True,
        provides_information_state_tensor=tensor,
        provides_observation_string=True,
        provides_observation_tensor=tensor,
        parameter_specification=parameter_specification(entry.specs),
    )


# ---------------------------------------------------------------- game, state, observer


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no stubs
    """A tikigames game as a pyspiel game; :func:`register` makes one subclass per game (a
    class, not a closure, is what pyspiel may hold until the interpreter exits).

    Attributes:
        tikigames_game: the tikigames game, loaded with the parameters as options.
    """

    tikigames_name: ClassVar[str] = ""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        entry = _ENTRIES[self.tikigames_name]
        given = dict(params or {})
        game = load(entry.name, **_options(entry, given))
        bounds = entry.bounds(game)
        size = game.num_distinct_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=size,
            # Chance outcomes are ids of the same action table.
            max_chance_outcomes=size if entry.chance else 0,
            num_players=game.num_players,
            min_utility=bounds.min_utility,
            max_utility=bounds.max_utility,
            utility_sum=0.0 if bounds.zero_sum else None,
            max_game_length=bounds.max_game_length,
        )
        full = parameter_specification(entry.specs)
        full.update({k: v for k, v in given.items() if isinstance(v, (int, bool, str))})
        super().__init__(_game_type(entry, game, bounds.zero_sum), info, full)
        self.tikigames_game = game
        self._max_chance_nodes = bounds.max_chance_nodes
        self._initial = game.new_initial_state()

    def new_initial_state(self) -> OpenSpielState:
        """A new state at the start of a game."""
        return OpenSpielState(self, self._initial.clone())

    def max_chance_nodes_in_history(self) -> int:
        """The most chance nodes a game's history holds."""
        return self._max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, object] | None = None
    ) -> Observer:
        """The observer of ``iig_obs_type`` (default: a player's observation)."""
        return Observer(self.tikigames_game, iig_obs_type, params)

    def __reduce__(self) -> tuple[Callable[[str, dict[str, Any]], Any], tuple[str, dict[str, Any]]]:
        """Pickled as its pyspiel name and parameters, and loaded again by name where it is
        unpickled, as OpenSpiel's own Python games are: so a loaded game goes to the workers
        of a process pool, a spawned one included. (Its class is made by :func:`register`, so
        pickle cannot find it by name.) Unpickling imports this module, which registers the
        library's games; a game registered later must be registered in that process too.

        >>> import pickle, pyspiel
        >>> game = pyspiel.load_game("tikigames_tactik", {"players": 2})
        >>> again = pickle.loads(pickle.dumps(game))
        >>> str(again) == str(game), again.num_players()
        (True, 2)
        """
        return _load_game, (PREFIX + self.tikigames_name, dict(self.get_parameters()))


def _load_game(name: str, params: dict[str, Any]) -> Any:
    """``pyspiel.load_game``, reached through this module so that an unpickling process
    imports it (and so registers the games) first."""
    return pyspiel.load_game(name, params)


class _Boxed:
    """The one Python attribute of a state: pyspiel clones a Python state by deep-copying its
    attributes into a new initial state, and this deep copy is the tikigames ``clone()``
    (cheap), not a copy of every object the state reaches."""

    __slots__ = ("state", "trusted")

    def __init__(self, state: AnyState) -> None:
        self.state = state
        self.trusted = False  # while replaying a resampled history: apply_unchecked

    def __deepcopy__(self, memo: dict[int, object]) -> _Boxed:
        return _Boxed(self.state.clone())


class OpenSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no stubs
    """A tikigames state behind OpenSpiel's state API (pyspiel keeps the history)."""

    def __init__(self, game: OpenSpielGame, state: AnyState) -> None:
        super().__init__(game)
        self._box = _Boxed(state)

    @property
    def tikigames_state(self) -> AnyState:
        """The tikigames state itself, not a copy; apply actions through pyspiel, which keeps
        the history, not to this."""
        return self._box.state

    def current_player(self) -> int:
        """The player to act, ``pyspiel.PlayerId.CHANCE`` (−1) or ``TERMINAL`` (−4), as in
        tikigames."""
        return self._box.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._box.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes and their probabilities (ids of the action table)."""
        outcomes: list[tuple[int, float]] = self._box.state.chance_outcomes()
        return outcomes

    def _apply_action(self, action: int) -> None:
        box = self._box
        if box.trusted:
            box.state.apply_unchecked(box.state.game.action(action))
        else:
            box.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._box.state.action_to_string(action)  # the full text (OpenSpiel's player
        # argument is who acts, not who looks)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        """The tikigames returns: 0 until the end; then +1 each winner, −1 every other player,
        0 for all on a draw."""
        return self._box.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """A new state consistent with what ``player_id`` knows, drawn by ``game.resample``
        (the exact posterior of the game's page), seeded by ``probability_sampler()``: its
        information-state string for ``player_id`` equals this state's. Its pyspiel history is
        the world's whole history, replayed through pyspiel without re-checking each action."""
        state = self._box.state
        seed = int(probability_sampler() * (1 << 53))
        world = state.game.resample(state.observation(player_id), random.Random(seed))
        return _replayed(self.get_game(), world)

    def __deepcopy__(self, memo: dict[int, object]) -> OpenSpielState:
        clone: OpenSpielState = self.clone()
        return clone

    def __str__(self) -> str:
        return str(self._box.state)


def _replayed(game: OpenSpielGame, world: AnyState) -> OpenSpielState:
    """A pyspiel state of ``game`` whose history is ``world``'s, replayed through pyspiel (which
    keeps the history) without re-checking each action: ``world`` played them already."""
    new = game.new_initial_state()
    box = new._box
    box.trusted = True
    for action in world.history():
        new.apply_action(int(action))
    box.trusted = False
    assert isinstance(new, OpenSpielState)
    return new


def _observation(state: OpenSpielState, player: int | None) -> Observation[Any]:
    obs: Observation[Any] = state.tikigames_state.observation(player)
    return obs


class Observer:
    """OpenSpiel's observer of a tikigames game (``make_py_observer``): one player's
    observation, or a spectator's for ``private_info=PrivateInfoType.NONE``.

    A tikigames observation has perfect recall (its history is everything the player saw), so
    the information state (``perfect_recall=True``) and the plain observation read the same
    observation. Strings: with ``perfect_recall`` (``information_state_string``), the
    observation's JSON, canonical (sorted keys, no spaces): equal observations give equal
    strings, so every resampled world gives the original's, and the JSON holds everything the
    player knows, so it determines the legal actions; without (``observation_string``), the
    readable ``str(obs)``. The tensor is ``obs.tensor()`` for both, float32, in
    ``game.observation_tensor_shape()``; ``dict`` holds each plane of the game's layout under
    its name, in its shape (views of ``tensor``).

    Raises:
        ValueError: observer parameters, or an observation type other than public information
            with one player's or no private information.
    """

    def __init__(
        self, game: AnyGame, iig_obs_type: Any = None, params: Mapping[str, object] | None = None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        kinds = pyspiel.PrivateInfoType
        if not iig_obs_type.public_info or private not in (kinds.SINGLE_PLAYER, kinds.NONE):
            raise ValueError(
                f"tikigames observes public information with one player's "
                f"private information or none, not {iig_obs_type!r}"
            )
        self.spectator = private == kinds.NONE
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if _has_tensor(game):
            layout = game.observation_tensor_layout()
            self.tensor = np.zeros(layout.size, np.float32)
            for plane in layout.planes:
                start = layout.offset(plane.name)
                view = self.tensor[start : start + plane.size]
                self.dict[plane.name] = view.reshape(plane.shape)

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (and so ``dict``)."""
        if self.tensor is not None:
            write_tensor(_observation(state, None if self.spectator else player), self.tensor)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """``player``'s observation of ``state`` as a string (see the class)."""
        obs = _observation(state, None if self.spectator else player)
        if self.perfect_recall:
            return json.dumps(obs.to_json(), sort_keys=True, separators=(",", ":"))
        return str(obs)


# ---------------------------------------------------------------- OpenSpiel's searches as bots


class OpenSpielBot:
    """OpenSpiel's own Python search as a tikigames :class:`~tikigames.bots.Bot`: its
    ``ISMCTSBot`` (``MCTSBot`` for a perfect-information game), with a random-rollout
    evaluator, on the game's ``tikigames_<name>`` registration — the yardstick of the bots
    page's strength ladder, and an arena seat (``tikigames arena … --players openspiel,…``).

    Like every bot it sees only its observation: each move it hands OpenSpiel a world drawn
    from it (``game.resample``) — for ISMCTS a stand-in whose information state is the
    bot's, which it resamples from; for MCTS the observed position itself. OpenSpiel's
    searches draw from a numpy ``RandomState`` seeded from ``rng``; its ISMCTS draws its worlds
    with pyspiel's own sampler besides, so in a game with hidden information its moves are not
    reproducible from ``rng``.

    Args:
        simulations: OpenSpiel's ``max_simulations`` per move (at least 2: OpenSpiel's
            ISMCTS has no visited root after one).
        seconds: a time budget per move instead: the simulations of each move are set from the
            rate the bot's previous moves reached (the first move measures it with 2), so that
            a move takes about that long — never fewer than 2, which may take longer where
            OpenSpiel is slower than that; the move then depends on the machine's speed.
        c: OpenSpiel's ``uct_c`` (2.0, its examples' value).

    >>> import random, tikigames
    >>> from tikigames.adapters.openspiel import OpenSpielBot
    >>> state = tikigames.load("tiki_topple", players=2).new_initial_state()
    >>> while state.is_chance_node():
    ...     state.apply_action(state.sample_chance(random.Random(0)))
    >>> obs = state.observation(state.current_player())
    >>> OpenSpielBot(simulations=5).act(obs, random.Random(1)) in obs.legal_actions()
    True
    """

    def __init__(
        self, simulations: int = 100, seconds: float | None = None, c: float = 2.0
    ) -> None:
        if type(simulations) is not int or simulations < 2:
            raise ValueError(f"simulations must be an int ≥ 2, not {simulations!r}"[:100])
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not 0 < seconds < float("inf")
        ):
            raise ValueError(f"seconds must be a number > 0 or None, not {seconds!r}"[:100])
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c < float("inf"):
            raise ValueError(f"c must be a finite number ≥ 0, not {c!r}"[:100])
        self.simulations = simulations
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self._rate: float | None = None  # simulations per second reached so far
        #: The simulations the last move ran (0 before the first): what ``seconds`` reached.
        self.last_simulations = 0
        self._games: dict[AnyGame, Any] = {}

    def act(self, obs: Observation[Any], rng: random.Random) -> Any:
        """OpenSpiel's choice from a world drawn from ``obs`` (one of its legal actions)."""
        from open_spiel.python.algorithms import ismcts, mcts  # the extra's; loaded when used

        game = obs.game
        legal = obs.legal_actions()
        if len(legal) == 1:  # a forced move: no search (nor a rate measured from none)
            self.last_simulations = 0
            return legal[0]
        spiel_game = self._games.get(game)
        if spiel_game is None:
            params = {
                spec.name: sentinel(spec)
                if game.options[spec.name] is None
                else game.options[spec.name]
                for spec in type(game).option_specs
            }
            spiel_game = self._games[game] = pyspiel.load_game(PREFIX + game.name, params)
        world = _replayed(spiel_game, game.resample(obs, rng))
        simulations = self.simulations
        if self.seconds is not None:
            rate = self._rate
            simulations = 2 if rate is None else max(2, round(self.seconds * rate))
        random_state = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        searcher: Any
        if spiel_game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
            searcher = mcts.MCTSBot(
                spiel_game, self.c, simulations, evaluator, random_state=random_state
            )
        else:
            searcher = ismcts.ISMCTSBot(
                spiel_game, evaluator, self.c, simulations, random_state=random_state
            )
        started = time.perf_counter()
        self.last_simulations = simulations
        action = searcher.step(world)
        elapsed = time.perf_counter() - started
        if self.seconds is not None and elapsed > 0:
            rate = simulations / elapsed
            self._rate = rate if self._rate is None else 0.7 * self._rate + 0.3 * rate
        return game.action(int(action))

    def __repr__(self) -> str:
        budget = (
            f"seconds={self.seconds}"
            if self.seconds is not None
            else (f"simulations={self.simulations}")
        )
        return f"OpenSpielBot({budget}, c={self.c})"


# ---------------------------------------------------------------- registration


def register(
    name: str,
    bounds: BoundsFn,
    *,
    perfect_information: bool = False,
    chance: bool = True,
) -> str:
    """Register tikigames game ``name`` with pyspiel as ``tikigames_<name>`` and return that
    name. The games of :data:`tikigames.GAMES` are registered when this module is imported; a
    game registered with tikigames later (a fifth game) is added with this, with its bounds;
    for ``examples/kuhn_poker.py`` (three bets at most, two deals, ±2 chips)::

        register("kuhn_poker", lambda game: Bounds(3, 2, min_utility=-2.0, max_utility=2.0))
        pyspiel.load_game("tikigames_kuhn_poker")

    Registering a name again returns it and changes nothing.

    Args:
        name: the game's tikigames name.
        bounds: the game's :class:`Bounds` for a loaded game (its options); it raises
            :class:`~tikigames.OptionError` for options that give no finite bound.
        perfect_information: whether every player sees everything.
        chance: whether the game has chance nodes.

    Raises:
        OptionError: no tikigames game has that name.
        ValueError: another game already took that pyspiel name.
    """
    if name in _ENTRIES:
        return PREFIX + name
    short = PREFIX + name
    if short in pyspiel.registered_names():
        raise ValueError(f"pyspiel already has a game called {short!r}")
    default = load(name)
    entry = _Entry(name, bounds, perfect_information, chance, tuple(type(default).option_specs))
    _ENTRIES[name] = entry
    creator = type(f"OpenSpielGame_{name}", (OpenSpielGame,), {"tikigames_name": name})
    _CREATORS.append(creator)
    try:
        zero_sum = bounds(default).zero_sum
    except OptionError:  # the defaults set no bound: the type says general-sum
        zero_sum = False
    pyspiel.register_game(_game_type(entry, default, zero_sum), creator)
    return short


def registered_names() -> tuple[str, ...]:
    """The pyspiel names of the games this module registered, sorted."""
    return tuple(sorted(PREFIX + name for name in _ENTRIES))


_CREATORS: list[type[OpenSpielGame]] = []  # kept alive as long as pyspiel holds them

for _name in registered():
    if _name in _GAME_FACTS:
        _bounds, _perfect, _chance = _GAME_FACTS[_name]
        register(_name, _bounds, perfect_information=_perfect, chance=_chance)

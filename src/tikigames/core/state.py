"""The state machinery every game shares: legality, apply/undo, history, observation histories,
clone, equality, notation and JSON.

A game subclasses :class:`State` and writes only its rules, as a handful of hooks:

========================  ==============================================================
``current_player()``      who acts: a seat, :data:`CHANCE` or :data:`TERMINAL`
``_generate_legal()``     the legal actions (chance outcomes at a chance node), sorted by id
``chance_outcomes()``     ``(action, probability)`` pairs at a chance node
``_viewer(action)``       for an action with a hidden part: the one seat that sees all of it
``_do(action)``           apply a legal action, pushing what ``_undo`` needs on ``self._undo``
``_undo_last(action)``    revert the last ``_do``
``_copy_into(new)``       copy the game's own fields into a fresh instance (for ``clone``)
``_position_key()``       a hashable tuple of everything ``==`` compares
``returns()``             per player
``evaluate()``            optional: a heuristic guess of the returns (default: ``returns()``)
``observation(player)``   the game's :class:`~tikigames.core.observation.Observation`
========================  ==============================================================

The base class keeps the history, an undo stack, each player's view of the history (appended on
apply, popped on undo, so an observation never rebuilds it), and caches the legal actions and the
hash per state version.
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from typing_extensions import Self

from tikigames.core.action import Action
from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.errors import ActionError, IllegalActionError, UndoError

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.core.observation import Observation

__all__ = ["State"]

A = TypeVar("A", bound=Action)


class State(ABC, Generic[A]):
    """One position of a game, with the history that led to it.

    Create states with :meth:`Game.new_initial_state`, :meth:`Game.state_from_json` or
    :meth:`Game.resample`, never directly.
    """

    __slots__ = (
        "_action_type",
        "_actions",
        "_game",
        "_hash",
        "_history",
        "_legal",
        "_legal_stack",
        "_undo",
        "_views",
    )

    def __init__(self, game: Game[Any]) -> None:
        self._game = game
        self._actions: tuple[A, ...] = game._table.actions
        self._action_type: type[A] = type(self._actions[0])
        self._history: list[A] = []
        #: One list per seat, then one for the spectator: each action's text as that one saw it.
        self._views: list[list[str]] = [[] for _ in range(game.num_players + 1)]
        #: Undo records pushed by ``_do``; their shape is the game's business.
        self._undo: list[Any] = []
        self._legal: list[A] | None = None
        #: The legal-action caches of the positions before each applied action, so that an
        #: undo restores them and apply/undo loops never regenerate the moves of a position.
        self._legal_stack: list[list[A] | None] = []
        self._hash: int | None = None

    # ----------------------------------------------------------------- game hooks

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act (0…n−1), :data:`~tikigames.CHANCE` or :data:`~tikigames.TERMINAL`."""

    @abstractmethod
    def _generate_legal(self) -> list[A]:
        """The legal actions, sorted by id (the outcomes at a chance node, ``[]`` when over)."""

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """``(outcome, probability)`` pairs sorted by id at a chance node, else ``[]``."""
        return []

    def _sample_chance(self, rng: Random) -> A:
        """A chance outcome drawn with its probability (a game may override this with a faster
        draw of the same distribution, e.g. for a large uniform one)."""
        outcomes = self.chance_outcomes()
        threshold = rng.random()
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if threshold < total:
                return action
        return outcomes[-1][0]

    def _viewer(self, action: A) -> int | None:
        """For an action with a hidden part: the seat that would see all of it if it were
        applied now (everyone else sees ``action.hidden``). ``None``: no seat does."""
        return None

    @abstractmethod
    def _do(self, action: A) -> None:
        """Apply ``action``, known to be legal, pushing an undo record on ``self._undo``."""

    @abstractmethod
    def _undo_last(self, action: A) -> None:
        """Revert the last ``_do(action)``, popping its undo record."""

    @abstractmethod
    def _copy_into(self, new: Any) -> None:
        """Copy the game's own fields into ``new`` (core fields are already copied)."""

    @abstractmethod
    def _position_key(self) -> tuple[Any, ...]:
        """Everything that decides what can happen next and what each player knows."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per player: all 0 until the game is over, then +1 for each winner and −1 for every
        other player (0 for all on a draw or a win shared by all)."""

    @abstractmethod
    def observation(self, player: int | None) -> Observation:
        """What ``player`` knows (``None``: a spectator)."""

    def evaluate(self) -> list[float]:
        """A heuristic guess of each player's return from this position, each in [−1, 1].

        Once the game is over this is :meth:`returns`. Before that it is what a search bot
        scores a rollout it cut short with (see ``max_rollout`` in :mod:`tikigames.bots`): a
        game with long playouts (Tac-Tik, Paikō) guesses from the board; the others keep this
        default, :meth:`returns` — zeros, "no idea", which never misleads a search.

        The guess is computed from the whole state, hidden parts included, like :meth:`returns`:
        a bot calls it on a world it drew with ``game.resample``, never on the true state.
        """
        return self.returns()

    # ----------------------------------------------------------------- queries

    @property
    def game(self) -> Game[Any]:
        """The game (its rules and options) this state belongs to."""
        return self._game

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the next action is a chance outcome."""
        return self.current_player() == CHANCE

    def legal_actions(self) -> list[A]:
        """The legal actions sorted by id: the possible outcomes at a chance node, ``[]`` once
        the game is over. The list is the caller's to keep."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        return legal.copy()

    def history(self) -> list[A]:
        """Every action applied since the initial state, chance outcomes included."""
        return self._history.copy()

    def _seen(self, player: int | None) -> tuple[str, ...]:
        """The history's texts as ``player`` saw them (``None``: the spectator)."""
        return tuple(self._views[-1 if player is None else player])

    def _check_player(self, player: object, allow_none: bool = True) -> int | None:
        if player is None and allow_none:
            return None
        if type(player) is not int or not 0 <= player < self._game.num_players:
            raise ValueError(
                f"player must be an int in 0..{self._game.num_players - 1}"
                f"{' or None' if allow_none else ''}, not {player!r}"
            )
        return player

    # ----------------------------------------------------------------- actions

    def _coerce(self, action: object) -> A:
        """The table's action for ``action`` (an action of this game or its int id)."""
        kind = type(action)
        if kind is not int and kind is not self._action_type:
            # Other integer types (e.g. numpy's) are accepted by value; bools and other games'
            # actions are not actions of this game.
            if isinstance(action, (bool, Action)) or not hasattr(kind, "__index__"):
                raise ActionError(
                    f"an action of {self._game.name} is an int or a {self._action_type.__name__},"
                    f" not {kind.__name__} {action!r}"[:200]
                )
            action = operator.index(action)  # type: ignore[arg-type]
            kind = int
        assert isinstance(action, int)
        if not 0 <= action < len(self._actions):
            raise ActionError(
                f"{self._game.name} has action ids 0..{len(self._actions) - 1}, not {int(action)}"
            )
        entry = self._actions[action]
        if kind is not int and entry is not action and entry.text != action.text:  # type: ignore[attr-defined]
            # An unpickled action is a copy of the table's entry (same id and text): accepted.
            raise ActionError(f"{action!r} belongs to a {self._game.name} game with other options")
        return entry

    def _is_legal(self, action: A) -> bool:
        # The legal list is sorted by id: a binary search needs no set built per position.
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        index = bisect_left(legal, action)
        return index < len(legal) and legal[index] is action

    def _illegal(self, action: A) -> IllegalActionError:
        player = self.current_player()
        if player == TERMINAL:
            why = "the game is over"
        elif player == CHANCE:
            why = "a chance outcome is expected"
        else:
            why = f"not legal for player {player} now"
        return IllegalActionError(f"{action.text!r}: {why}")

    def apply_action(self, action: A | int) -> None:
        """Apply ``action`` (an action of this game or its id) in place.

        Raises:
            ActionError: not an action of this game (wrong type, id out of range).
            IllegalActionError: not legal now (the game being over included).

        The state is unchanged when it raises.
        """
        entry = self._coerce(action)
        if not self._is_legal(entry):
            raise self._illegal(entry)
        self._apply(entry)

    def _apply(self, action: A) -> None:
        """Apply an action known to be legal (the trusted path of replay and resampling)."""
        hidden = action.hidden
        if hidden is None:
            text = action.text
            for view in self._views:
                view.append(text)
        else:
            viewer = self._viewer(action)
            for seat, view in enumerate(self._views):
                view.append(action.text if seat == viewer else hidden)
        self._do(action)
        self._history.append(action)
        self._legal_stack.append(self._legal)
        self._legal = None
        self._hash = None

    def undo_action(self) -> A:
        """Undo the last action (chance outcomes included) and return it.

        Raises:
            UndoError: the history is empty.
        """
        if not self._history:
            raise UndoError("there is no action to undo")
        action = self._history.pop()
        for view in self._views:
            view.pop()
        self._undo_last(action)
        self._legal = self._legal_stack.pop()
        self._hash = None
        return action

    def _replay(self, actions: Sequence[A]) -> None:
        """Apply ``actions`` without checking them (they were checked, or built by the engine)."""
        for action in actions:
            self._apply(action)

    # ----------------------------------------------------------------- notation

    def parse_action(self, text: str) -> A:
        """The action written ``text`` in the game's notation, if it is legal now.

        Raises:
            ActionError: the text names no action of the game.
            IllegalActionError: the action is not legal now.
        """
        action: A = self._game._table.parse(text)
        if not self._is_legal(action):
            raise self._illegal(action)
        return action

    def action_to_string(self, action: A | int, player: int | None = None) -> str:
        """The text of ``action`` as ``player`` would see it if it were applied now (hidden
        parts as ``?``); ``player=None`` gives the full text."""
        entry = self._coerce(action)
        if player is None:
            return entry.text
        self._check_player(player, allow_none=False)
        if entry.hidden is not None and self._viewer(entry) != player:
            return entry.hidden
        return entry.text

    # ----------------------------------------------------------------- copies, equality, JSON

    def clone(self) -> Self:
        """An independent copy, history and undo records included."""
        cls = type(self)
        new = cls.__new__(cls)
        new._game = self._game
        new._actions = self._actions
        new._action_type = self._action_type
        new._history = self._history.copy()
        new._views = [view.copy() for view in self._views]
        new._undo = self._undo.copy()
        new._legal = self._legal
        new._legal_stack = self._legal_stack.copy()
        new._hash = self._hash
        self._copy_into(new)
        return new

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self._game == other._game and self._position_key() == other._position_key()

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = self._hash = hash((self._game, self._position_key()))
        return cached

    def to_json(self) -> dict[str, Any]:
        """``{"format": "tikigames/1", "game", "options", "history", "position"}``: the history
        in notation; ``position`` is a readable board, ignored when loading."""
        return {
            "format": "tikigames/1",
            "game": self._game.name,
            "options": self._game.options,
            "history": [action.text for action in self._history],
            "position": str(self),
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} after {len(self._history)} actions>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the game and the action ids, rebuilt by a trusted replay: small, and the
        # rebuilt state holds the game's own action table.
        return (_rebuild, (self._game, [int(action) for action in self._history]))


def _rebuild(game: Game[Any], history: list[int]) -> State[Any]:
    state: State[Any] = game.new_initial_state()
    state._replay([state._actions[action] for action in history])
    return state

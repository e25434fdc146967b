"""The state machinery every game shares: legality, apply/undo, history, observation histories,
clone, equality, notation and JSON.

A game subclasses :class:`State` and writes only its rules, as a handful of hooks:

===========================  ================================================================
``_init_position()``         set the game's own fields to the initial position
``current_player()``         who acts: a seat, :data:`CHANCE` or :data:`TERMINAL`
``_generate_legal()``        the legal actions (chance outcomes at a chance node), sorted by id
``chance_outcomes()``        ``(action, probability)`` pairs at a chance node
``sample_chance(rng)``       optional: a faster draw of the same distribution
``_viewer(action)``          for an action with a hidden part: the one seat that sees all of it
``_do(action)``              apply a legal action; return the undo record ``_undo_last`` needs
``_undo_last(a, record)``    revert the last ``_do(a)``, given the record it returned
``_copy_into(new)``          copy the game's own fields into a fresh instance (for ``clone``)
``_position_key()``          a hashable tuple of everything ``==`` compares
``returns()``                per player
``evaluate()``               optional: a heuristic guess of the returns (default: ``returns()``)
``rollout_action(rng)``      optional: the search bots' playout policy (default: uniform)
===========================  ================================================================

What is the same in every game is done here from the game's declarations
(:class:`~tikigames.core.game.Game`): ``observation(player)`` builds the game's
``observation_class``, ``str(state)`` is the game's ``render_state`` and ``state.svg()`` its
``svg_state``. The base class alone keeps the
history, the undo records, the seat that saw each hidden action (from which each player's view of
the history is derived when an observation asks for it, so that applying a public action records
nothing more than the action), and caches the legal actions and the hash per state version. A game
never reads or writes these fields (the architecture test checks it); it changes them only through
one protected operation, :meth:`State._rewrite_past`, which rewrites the hidden parts of past
actions in place (a resampler's fast path) and forgets every cache derived from them itself.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import json
import numbers
import operator
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, SupportsIndex, cast, overload

from mypy_extensions import mypyc_attr
from typing_extensions import Self, TypeVar

from tikigames.core.action import Action
from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.errors import ActionError, IllegalActionError, UndoError, shown
from tikigames.core.svg import PictureOptions

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.core.observation import Observation

#: How many of the latest positions keep their legal list for an undo to restore
#: (:meth:`State.undo_action`). An undo deeper than this regenerates the list when it is next
#: asked for. The bound keeps a long game from holding a list per action (Paikō's average 254
#: entries, and 2,000 lists in a game of Tac-Tik), which the garbage collector would traverse
#: again and again: bounded, a random playout runs 12–17% faster in those games.
_LEGAL_KEPT: Final = 16
#: The index, from the end of the stack, of the entry that falls out of the bound.
_LEGAL_DROPPED: Final = -_LEGAL_KEPT - 1

__all__ = ["State", "result_in_words", "seats_in_words"]


def seats_in_words(seats: Sequence[int]) -> str:
    """``0, 1 and 3``: two seats or more, in words (the one way every game names a group of
    seats).

    >>> from tikigames.core.state import seats_in_words
    >>> seats_in_words((0, 2)), seats_in_words([0, 1, 3])
    ('0 and 2', '0, 1 and 3')
    """
    return ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def result_in_words(returns: Sequence[float]) -> str:
    """``player 0 wins``, ``players 0 and 2 win``, ``a draw``: the seats with the best return.

    >>> from tikigames.core.state import result_in_words
    >>> result_in_words([1.0, -1.0]), result_in_words([1, -1, 1, -1]), result_in_words([0, 0])
    ('player 0 wins', 'players 0 and 2 win', 'a draw')
    """
    best = max(returns)
    if all(value == best for value in returns):
        return "a draw"
    top = [seat for seat, value in enumerate(returns) if value == best]
    if len(top) == 1:
        return f"player {top[0]} wins"
    return f"players {seats_in_words(top)} win"


A = TypeVar("A", bound=Action, default=Action)
G = TypeVar("G", bound="Game[Any, Any, Any]", default=Any)
Obs = TypeVar("Obs", bound="Observation[Any]", default=Any)


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[A, G, Obs]):
    """One position of a game, with the history that led to it.

    Generic in the game's action class ``A``, game class ``G`` and observation class ``Obs``, so
    that ``state.game.rules`` and ``state.observation(p)`` have the game's own types.

    Create states with :meth:`Game.new_initial_state`, :meth:`Game.state_from_json` or
    :meth:`Game.resample`, never directly.

    >>> import tikigames
    >>> state = tikigames.load("tiki_topple").new_initial_state()
    >>> state.current_player() == tikigames.CHANCE, len(state.history())
    (True, 0)
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
        "_hidden",
        "_seen",
    )

    #: The game's own fields, declared once: the state class's ``__slots__`` are this tuple
    #: (``__slots__ = FIELDS; position_fields = FIELDS``), its ``_init_position`` sets each,
    #: its ``_copy_into`` copies each and its ``_position_key`` compares each but the
    #: :attr:`derived_fields`. :func:`tikigames.testing.check_game` proves the last two
    #: (``fields_are_copied_and_compared``): the explicit code is kept because it is what the
    #: compiled build runs fastest. Fields that are the same for every state of a game (its
    #: tables, its layout) belong to the game or its rules, not here.
    position_fields: ClassVar[tuple[str, ...]] = ()
    #: The fields of :attr:`position_fields` that ``==`` does not compare directly, because
    #: they follow from the others (a cache, a mask of a counter) or matter only under an
    #: option (a turn count without a turn cap).
    derived_fields: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, game: G, source: Self | None = None) -> None:
        """The initial state of ``game`` (:meth:`_init_position` sets the game's fields), or,
        with ``source``, a copy of ``source`` (for :meth:`clone`: ``source._copy_into`` copies
        the game's fields). Create states through the game, not by calling this."""
        self._game = game
        if source is not None:
            self._actions: tuple[A, ...] = source._actions
            self._action_type: type[A] = source._action_type
            self._history: list[A] = source._history.copy()
            self._hidden: list[tuple[int, int]] = source._hidden.copy()
            self._undo: list[Any] = source._undo.copy()
            self._legal: list[A] | None = source._legal
            self._legal_stack: list[list[A] | None] = source._legal_stack.copy()
            self._hash: int | None = source._hash
            self._seen: dict[int, list[str]] = {}
            source._copy_into(self)
            return
        self._actions = game.action_table.actions
        self._action_type = type(self._actions[0])
        self._history = []
        #: ``(index in the history, the one seat that saw it all, or -1)`` of every applied
        #: action with a hidden part: what each player saw is derived from it on demand
        #: (:meth:`seen_history`), so applying a public action records nothing at all.
        self._hidden = []
        #: Undo records pushed by ``_do``; their shape is the game's business.
        self._undo = []
        self._legal = None
        #: The legal-action caches of the positions before each applied action, so that an
        #: undo restores them and apply/undo loops never regenerate the moves of a position;
        #: ``None`` beyond the latest :data:`_LEGAL_KEPT` (and where none was generated).
        self._legal_stack = []
        self._hash = None
        #: What each seat saw (``-1``: a spectator), as far as :meth:`seen_history` was last
        #: asked: it extends a seat's list with the actions applied since, and an undo cuts
        #: every list back. Empty until asked, so applying actions costs nothing more.
        self._seen = {}
        self._init_position()

    # ----------------------------------------------------------------- game hooks

    @abstractmethod
    def _init_position(self) -> None:
        """Set the game's own fields to the initial position (``self.game`` is set)."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act (0…n−1), :data:`~tikigames.CHANCE` or :data:`~tikigames.TERMINAL`."""

    @abstractmethod
    def _generate_legal(self) -> list[A]:
        """The legal actions, sorted by id (the outcomes at a chance node, ``[]`` when over)."""

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """``(outcome, probability)`` pairs sorted by id at a chance node, else ``[]``."""
        return []

    def sample_chance(self, rng: Random) -> A:
        """At a chance node, one outcome drawn with its probability from ``rng``.

        The draw :func:`tikigames.play` and the bots use. A game may override it with a faster
        draw of the same distribution (e.g. an index into a large uniform chance node); the
        default scans :meth:`chance_outcomes`.

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> str(state.sample_chance(random.Random(1))).startswith("line ")
        True
        """
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
    def _do(self, action: A) -> Any:
        """Apply ``action``, known to be legal, and return its undo record: whatever
        :meth:`_undo_last` needs to revert it (its shape is the game's business; the base
        class keeps it)."""

    @abstractmethod
    def _undo_last(self, action: A, record: Any) -> None:
        """Revert the last ``_do(action)``, given the undo record it returned."""

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

    def result_text(self) -> str | None:
        """The result in words once the game is over (``None`` before): what the terminal, the
        pictures and the game's text rendering say of the end. The default names the seats with
        the best return (:func:`result_in_words`); a game overrides it with its own words (who
        won how, a turn limit).

        >>> import tikigames
        >>> from tikigames.bots import RandomBot
        >>> game = tikigames.load("tiki_topple")
        >>> final = tikigames.play(game, [RandomBot()] * 2, seed=4)
        >>> game.new_initial_state().result_text() is None, final.result_text()
        (True, 'player 0 wins with 18 points')
        """
        if self.current_player() != TERMINAL:
            return None
        return result_in_words(self.returns())

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
    def game(self) -> G:
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

    def legal_actions_mask(self) -> list[int]:
        """0/1 over ``range(game.num_distinct_actions)``, 1 exactly at the legal ids (at a
        chance node: the possible outcomes; all 0 once the game is over).

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> mask = state.legal_actions_mask()
        >>> len(mask) == state.game.num_distinct_actions, sum(mask) == len(state.legal_actions())
        (True, True)
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        mask = [0] * self._game.num_distinct_actions
        for action in legal:
            mask[action] = 1
        return mask

    def history(self) -> list[A]:
        """Every action applied since the initial state, chance outcomes included."""
        return self._history.copy()

    def move_number(self) -> int:
        """How many actions, chance outcomes included, were applied since the initial state
        (``len(state.history())`` without the copy; OpenSpiel's name).

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> state.apply_action(state.legal_actions()[0])
        >>> state.move_number()
        1
        """
        return len(self._history)

    @overload
    def seen_history(self, player: int) -> tuple[str, ...]: ...
    @overload
    def seen_history(self, player: None) -> tuple[str, ...]: ...
    def seen_history(self, player: object) -> tuple[str, ...]:
        """Every applied action's text as ``player`` saw it when it was applied (``None``: a
        spectator): the ``history`` of ``player``'s observation. The state keeps each seat's
        list once asked and extends it with the actions applied since, so a call costs the
        new actions and one copy, not the whole history again (an environment asks at every
        step).

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> rng = random.Random(3)
        >>> for _ in range(3):
        ...     state.apply_action(state.sample_chance(rng))
        >>> state.seen_history(1)[1:]
        ('secret ?', 'secret 17')

        Raises:
            ValueError: ``player`` is not a seat of the game or ``None``.
        """
        seat = self._check_player(player)
        key = -1 if seat is None else seat
        seen = self._seen.get(key)
        if seen is None:
            seen = self._seen[key] = []
        history = self._history
        start = len(seen)
        if start < len(history):
            seen += [action.text for action in history[start:]]
            hidden = self._hidden
            k = len(hidden) - 1
            while k >= 0 and hidden[k][0] >= start:  # the hidden actions among the new ones
                index, viewer = hidden[k]
                if viewer != seat or seat is None:
                    seen[index] = cast(str, history[index].hidden)
                k -= 1
        return tuple(seen)

    @overload
    def observation(self, player: int) -> Obs: ...
    @overload
    def observation(self, player: None) -> Obs: ...
    def observation(self, player: object) -> Obs:
        """What ``player`` knows (``None``: a spectator), as the game's observation class.

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> state.apply_action(state.sample_chance(random.Random(3)))
        >>> obs = state.observation(0)
        >>> obs.player, obs.current_player == tikigames.CHANCE, obs.secret is None
        (0, True, True)

        Raises:
            ValueError: ``player`` is not a seat of the game or ``None``.
        """
        # The class is the game's declaration, typed there as any observation class.
        observation_class: Any = self._game.observation_class
        obs: Obs = observation_class.of(self, self._check_player(player))
        return obs

    def random_action(self, rng: Random) -> A:
        """One legal action drawn uniformly from ``rng`` (at a chance node: an outcome drawn
        with its probability, :meth:`sample_chance`).

        What random rollouts call. The default draws an index into the cached legal list
        (:meth:`_draw_legal`); a game may override it to avoid building the whole list, drawing
        from the same uniform distribution, or, without chance nodes, to skip the test for one.

        >>> import random, tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> state.random_action(random.Random(0)) in state.legal_actions()
        True

        Raises:
            IllegalActionError: the game is over.
        """
        if self.current_player() == CHANCE:
            return self.sample_chance(rng)
        return self._draw_legal(rng)

    def rollout_action(self, rng: Random) -> A:
        """The action a search bot's playout takes here: the game's *rollout policy*.

        The default is :meth:`random_action` (uniform; chance outcomes with their
        probabilities). A game overrides it with a cheap policy that plays more like a person —
        captures first, pieces forward, a home completed — so that a playout cut short after
        :attr:`Game.rollout_cap <tikigames.core.game.Game.rollout_cap>` actions ends in a
        position its :meth:`evaluate` can judge. It must return a legal action (a chance
        outcome drawn with its probability at a chance node), draw only from ``rng``, and may
        read the whole state, hidden parts included, like :meth:`evaluate`: a bot calls it on
        a world it drew with ``game.resample``, never on the true state. A heuristic for
        search bots, not a rule; ``SearchBot(rollout="uniform")`` ignores it.

        >>> import random, tikigames
        >>> state = tikigames.load("tactiki").new_initial_state()
        >>> state.rollout_action(random.Random(0)) in state.legal_actions()
        True

        Raises:
            IllegalActionError: the game is over.
        """
        return self.random_action(rng)

    def _draw_legal(self, rng: Random) -> A:
        """One action of the legal list drawn uniformly with one ``rng.random()`` (a third of
        the cost of ``rng.randrange``; ``random() < 1`` times a count below 2**53 rounds to less
        than the count, so the index is always in range): :meth:`random_action` off chance
        nodes, and the whole of it for a game that has none.

        Raises:
            IllegalActionError: the game is over.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        count = len(legal)
        if not count:
            raise IllegalActionError("the game is over: there is no action to draw")
        return legal[int(rng.random() * count)]

    def _check_player(self, player: object, allow_none: bool = True) -> int | None:
        if player is None and allow_none:
            return None
        if type(player) is not int or not 0 <= player < self._game.num_players:
            raise ValueError(
                f"player must be an int in 0..{self._game.num_players - 1}"
                f"{' or None' if allow_none else ''}, not {shown(player)}"
            )
        return player

    # ----------------------------------------------------------------- actions

    def _coerce(self, action: object) -> A:
        """The table's action for ``action`` (an action of this game or its int id)."""
        kind = type(action)
        # An action object is never narrowed to ``int`` here: compiled by mypyc, an int-typed
        # variable holds a machine integer, and the object (its text) would be lost.
        given: Action | None = None
        if kind is self._action_type:
            given = cast(Action, action)
            index = int(given)
        elif kind is int:
            index = cast(int, action)
        elif isinstance(action, (bool, Action)) or not isinstance(action, numbers.Integral):
            # Other integer types (numpy's integers) are accepted by value; bools, arrays and
            # other games' actions are not actions of this game.
            raise ActionError(
                f"an action of {self._game.name} is an int or a {self._action_type.__name__},"
                f" not {kind.__name__} {shown(action)}"
            )
        else:
            index = operator.index(cast(SupportsIndex, action))
        if not 0 <= index < len(self._actions):
            raise ActionError(
                f"{self._game.name} has action ids 0..{len(self._actions) - 1}, not {shown(index)}"
            )
        entry = self._actions[index]
        if given is not None and entry is not given and entry.text != given.text:
            # An unpickled action is a copy of the table's entry (same id and text): accepted.
            raise ActionError(f"{given!r} belongs to a {self._game.name} game with other options")
        return entry

    def _is_legal(self, action: A) -> bool:
        # The legal list is sorted by id: a binary search needs no set built per position.
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        index = bisect_left(legal, action)
        return index < len(legal) and legal[index] is action

    def _refusal(self, action: A) -> str:
        """The game's hook: why ``action`` (an action of the game, not legal now) is refused,
        in the words of its rules. Only called on a refusal, never on the hot path. The default
        names the cases every game shares."""
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over"
        if player == CHANCE:
            return "not a possible outcome of this chance node"
        return f"not legal for player {player} now"

    def _illegal(self, action: A) -> IllegalActionError:
        why = self._refusal(action)
        return IllegalActionError(f"{action.text!r}: {why}", reason=why)

    @overload
    def illegal_reason(self, action: A) -> str | None: ...
    @overload
    def illegal_reason(self, action: int) -> str | None: ...
    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` (an action of this game or its id) is refused now, in the game's
        words — the rule that forbids it; ``None`` when it is legal. ``IllegalActionError``
        carries the same text as its ``reason``.

        >>> import tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> state.illegal_reason(state.legal_actions()[0]) is None
        True
        >>> state.illegal_reason(state.game.action_table.parse("secret 26"))
        'not a possible outcome of this chance node'

        Raises:
            ActionError: not an action of this game (wrong type, id out of range).
        """
        entry = self._coerce(action)
        if self._is_legal(entry):
            return None
        return self._refusal(entry)

    @overload
    def apply_action(self, action: A) -> None: ...
    @overload
    def apply_action(self, action: int) -> None: ...
    def apply_action(self, action: object) -> None:
        """Apply ``action`` (an action of this game or its id) in place.

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> state.apply_action(state.legal_actions()[0])
        >>> len(state.history())
        1
        >>> state.apply_action(10**6)
        Traceback (most recent call last):
        ...
        tikigames.core.errors.ActionError: paiko has action ids 0..18089, not 1000000

        Raises:
            ActionError: not an action of this game (wrong type, id out of range).
            IllegalActionError: not legal now (the game being over included).

        The state is unchanged when it raises.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        if type(action) is self._action_type:
            # The common case, an entry of the legal list handed out: found by identity in the
            # sorted list, it is the table's own object and legal, so nothing is coerced.
            index = bisect_left(legal, action)
            if index < len(legal) and legal[index] is action:
                self.apply_unchecked(action)
                return
        entry = self._coerce(action)
        if not self._is_legal(entry):
            raise self._illegal(entry)
        self.apply_unchecked(entry)

    def apply_unchecked(self, action: A) -> None:
        """Apply ``action`` without checking it: the fast path, for callers that know it is
        legal here.

        ``action`` must be the table's own object (from :meth:`legal_actions`,
        :meth:`random_action` or :meth:`sample_chance` of this very state, or a state equal to
        it), and legal now. It is the caller's promise, as with python-chess's ``Board.push``:
        nothing is coerced and nothing is checked, which saves the id lookup and the binary
        search in the legal list that :meth:`apply_action` does (and, in a fresh position,
        generating the legal actions at all). Search bots, resamplers, trusted replays and the
        bench use it. Broken, the promise leaves the state corrupt: anything may follow,
        including wrong results later rather than an error now.

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> rng = random.Random(0)
        >>> while not state.is_terminal():
        ...     state.apply_unchecked(state.random_action(rng))
        >>> state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
        True
        """
        if action.hidden is not None:
            viewer = self._viewer(action)
            self._hidden.append((len(self._history), -1 if viewer is None else viewer))
        self._undo.append(self._do(action))
        self._history.append(action)
        stack = self._legal_stack
        stack.append(self._legal)
        if len(stack) > _LEGAL_KEPT:
            stack[_LEGAL_DROPPED] = None
        self._legal = None
        self._hash = None

    def undo_action(self) -> A:
        """Undo the last action (chance outcomes included) and return it.

        The legal list of each of the latest 16 positions is kept, so an undo within them
        restores it and generates nothing; further back it is generated again when asked for.

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> before = state.clone()
        >>> state.apply_action(state.legal_actions()[0])
        >>> state.undo_action() == before.legal_actions()[0], state == before
        (True, True)

        Raises:
            UndoError: the history is empty.
        """
        if not self._history:
            raise UndoError("there is no action to undo")
        action = self._history.pop()
        hidden = self._hidden
        if hidden and hidden[-1][0] == len(self._history):
            hidden.pop()
        self._undo_last(action, self._undo.pop())
        self._legal = self._legal_stack.pop()
        self._hash = None
        if self._seen:
            size = len(self._history)
            for seen in self._seen.values():
                del seen[size:]
        return action

    # ----------------------------------------------------------------- protected operations

    def _legal_shared(self) -> list[A]:
        """The legal list of this position, generated and cached if need be: the cache itself,
        which the caller must not change — for a game's :meth:`rollout_action`, which reads it
        at every playout step without the copy :meth:`legal_actions` makes."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        return legal

    def _legal_if_cached(self) -> list[A] | None:
        """The legal list of this position if it was generated already (the caller must not
        change it), else ``None``: for a game's :meth:`random_action` that draws without the
        list when it has none."""
        return self._legal

    def _undo_record(self, index: int) -> Any:
        """The undo record that ``_do`` returned for ``history()[index]`` (read only)."""
        return self._undo[index]

    def _rewrite_past(
        self,
        actions: Sequence[tuple[int, A]],
        records: Sequence[tuple[int, Any]] = (),
    ) -> None:
        """Rewrite past actions (and, with ``records``, their undo records) in place: each
        ``(index, action)`` pair puts ``action`` at ``history()[index]``, each ``(index,
        record)`` pair replaces the undo record of that action.

        The one operation a game has on the bookkeeping of the base class, for a fast path that
        changes only the hidden parts of a history (a resampler turning one world into another:
        Tac-Tik's :meth:`~tikigames.tactik.state.TacTikState.redeal_unchecked`, TacTiki's world
        template). The game changes its own fields to match; this forgets every cache derived
        from the history: the legal lists of the positions after the first rewritten action,
        the hash and the views of the history kept for :meth:`seen_history` (the seat that saw
        each hidden action stays: a rewrite changes hidden parts only).

        The caller's promise, as for :meth:`apply_unchecked`: each new action has the public
        part of the one it replaces, and the rewritten history is one the game could have
        played (each action legal in turn), with the game's fields those it leads to.
        """
        history = self._history
        first = len(history)
        for index, action in actions:
            history[index] = action
            if index < first:
                first = index
        undo = self._undo
        for index, record in records:
            undo[index] = record
            if index < first:
                first = index
        stack = self._legal_stack
        # Only the latest _LEGAL_KEPT entries may hold a list (apply_unchecked drops the rest).
        for i in range(max(first + 1, len(stack) - _LEGAL_KEPT), len(stack)):
            stack[i] = None
        self._legal = None
        self._hash = None
        self._seen = {}

    def _replay(self, actions: Sequence[A]) -> None:
        """Apply ``actions`` without checking them (they were checked, or built by the engine)."""
        for action in actions:
            self.apply_unchecked(action)

    # ----------------------------------------------------------------- notation

    @overload
    def parse_action(self, text: str) -> A: ...
    @overload
    def parse_action(self, text: object) -> A: ...
    def parse_action(self, text: object) -> A:
        """The action written ``text`` in the game's notation, if it is legal now.

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> action = state.legal_actions()[0]
        >>> state.parse_action("  " + str(action).upper()) is action
        True
        >>> state.parse_action("castle kingside")
        Traceback (most recent call last):
        ...
        tikigames.core.errors.ActionError: 'castle kingside' is not an action of this game

        Raises:
            ActionError: the text names no action of the game.
            IllegalActionError: the action is not legal now.
        """
        action: A = self._game.action_table.parse(text)
        if not self._is_legal(action):
            raise self._illegal(action)
        return action

    @overload
    def action_to_string(self, action: A, player: int | None = None) -> str: ...
    @overload
    def action_to_string(self, action: int, player: int | None = None) -> str: ...
    def action_to_string(self, action: object, player: object = None) -> str:
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
        """An independent copy, history and undo records included.

        The copy is made by the constructor (``type(self)(game, source=self)``), not by
        ``__new__`` and assignments: a class compiled by mypyc cannot skip its ``__init__``.
        Compiled, calling ``type(self)`` runs ``__init__`` twice (the class's ``__new__`` and
        the base class's ``__init__`` slot both run it), so each game's state overrides this
        with a call of its class by name, which runs it once, falling back to ``type(self)``
        for a subclass.
        """
        return type(self)(self._game, self)

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

    def to_json_text(self, indent: int | None = None) -> str:
        """:meth:`to_json` as JSON text, to save a game to a file (read it back with
        :func:`tikigames.state_from_json_text`).

        >>> import tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> state.to_json_text()[:40]
        '{"format": "tikigames/1", "game": "tiki_'
        """
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False)

    def __str__(self) -> str:
        """The whole position, readable (omniscient: secrets included): the game's
        ``render_state``."""
        return self._game.render_state(self)

    def svg(
        self,
        *,
        size: int = 480,
        highlight: object = "last",
        coordinates: bool = True,
        flipped: int | None = None,
        **extra: Any,
    ) -> str:
        """A picture of the whole position (omniscient: secrets face up), as SVG text.

        ``highlight`` is an action (or its text) to outline, by default the last one applied
        (``None``: none); ``flipped`` the seat drawn at the bottom; ``extra`` the game's own
        picture options (its page lists them). See :class:`~tikigames.core.svg.PictureOptions`.

        >>> import tikigames
        >>> picture = tikigames.load("tiki_topple").new_initial_state().svg(size=300)
        >>> picture.startswith("<svg") and 'viewBox="0 0 ' in picture
        True

        Raises:
            ValueError: an option out of range, or one the game does not draw.
        """
        last = self._history[-1].text if self._history else None
        options = PictureOptions.of(size, highlight, coordinates, flipped, extra, last)
        return self._game.svg_state(self, options)

    def _repr_svg_(self) -> str:
        """Jupyter shows a state as its picture."""
        return self.svg()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} after {len(self._history)} actions>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the game and the action ids, rebuilt by a trusted replay: small, and the
        # rebuilt state holds the game's own action table.
        return (_rebuild, (self._game, [int(action) for action in self._history]))


def _rebuild(game: Game[Any, Any, Any], history: list[int]) -> State[Any, Any, Any]:
    state: State[Any, Any, Any] = game.new_initial_state()
    state._replay([state._actions[action] for action in history])
    return state

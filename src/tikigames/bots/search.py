"""What the search bots share: their settings and budget, tree nodes, UCB, random rollouts.

:class:`~tikigames.bots.MCTSBot` and :class:`~tikigames.bots.ISMCTSBot` differ only in how an
iteration walks its tree (one world searched with apply/undo, or a fresh world resampled from the
observation each time); everything around that walk lives here, once:

- :class:`SearchBot` validates the settings, answers at once when there is a single legal action,
  runs iterations until the budget (iterations, or seconds) is spent, and picks the most visited
  root edge — reporting, on request, the root's visit distribution (:meth:`SearchBot.policy`);
- :class:`Node` holds an edge's statistics (visits, summed return of the player who chose it, and
  the availability count IS-MCTS needs);
- :func:`select` is the UCB1 selection rule, :func:`rollout` the random playout with its length
  cap, and :func:`backup` credits each node with its own mover's return.

Every random choice draws from the ``rng`` handed to ``act``, and dictionaries keep insertion
order, so a search with an iteration budget is a pure function of the observation and the rng.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Container, Hashable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Final, Literal, TypeAlias

from mypy_extensions import mypyc_attr

from tikigames.core.action import Action
from tikigames.core.constants import CHANCE
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.state import State

__all__ = [
    "GAME_CAP",
    "GAME_POLICY",
    "Budget",
    "Evaluation",
    "Node",
    "RolloutCap",
    "RolloutPolicy",
    "SearchBot",
    "backup",
    "iterations",
    "most_visited",
    "play_out",
    "rollout",
    "select",
    "visit_distribution",
]

#: The default ``max_rollout``: the cap the game suggests, :attr:`Game.rollout_cap
#: <tikigames.core.game.Game.rollout_cap>`.
GAME_CAP: Final = "game"
#: What ``max_rollout`` takes: a number of actions, ``None`` (no cap) or :data:`GAME_CAP`.
RolloutCap: TypeAlias = int | Literal["game"] | None
#: ``rollout="game"``: playouts follow the game's :meth:`State.rollout_action
#: <tikigames.core.state.State.rollout_action>`; ``"uniform"``: every legal action alike.
GAME_POLICY: Final = "game"
#: What ``rollout`` takes.
RolloutPolicy: TypeAlias = Literal["game", "uniform"]
#: What ``evaluation`` takes: ``"game"``, a playout cut short is worth :meth:`State.evaluate
#: <tikigames.core.state.State.evaluate>`; ``"returns"``, it is worth ``state.returns()`` (zeros
#: before the end: "no idea").
Evaluation: TypeAlias = Literal["game", "returns"]


class Node:
    """One edge of a search tree and the node it leads to.

    Attributes:
        key: the edge's label in its parent: the action (plain UCT), or what the observer sees
            of it (IS-MCTS); ``None`` at the root.
        mover: who chose the edge: a seat, or ``CHANCE`` for a chance outcome (and for the root).
        visits: iterations that went through the edge.
        total: the sum of ``mover``'s returns over those iterations.
        avail: IS-MCTS's availability count: how often the edge was legal when its parent was
            visited (plain UCT leaves it alone and uses the parent's visits instead).
        children: the child edges, keyed by action (or by what the observer sees of it).
        untried: plain UCT's actions not expanded yet (``None`` until first visited).
    """

    __slots__ = ("avail", "children", "key", "mover", "total", "untried", "visits")

    def __init__(self, key: Hashable = None, mover: int = CHANCE) -> None:
        self.key = key
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[Hashable, Node] = {}
        self.untried: list[Action] | None = None

    def __repr__(self) -> str:
        mean = self.total / self.visits if self.visits else 0.0
        return f"<Node {self.key!r} mover={self.mover} visits={self.visits} mean={mean:+.3f}>"


def select(children: Iterable[Node], c: float, log_parent: float | None = None) -> Node:
    """The child with the highest UCB1 value from its own mover's point of view: its mean
    return plus ``c * sqrt(log(n) / visits)``, where ``n`` is the parent's visits
    (``log_parent``, plain UCT) or, when ``log_parent`` is ``None``, the child's availability
    count (IS-MCTS, where a child is not legal in every sampled world). The first child wins a
    tie. Every child must have been visited."""
    best: Node | None = None
    best_value = -math.inf
    sqrt = math.sqrt
    if log_parent is None:
        log = math.log
        for child in children:
            visits = child.visits
            value = child.total / visits + c * sqrt(log(child.avail) / visits)
            if value > best_value:
                best, best_value = child, value
    else:
        for child in children:
            visits = child.visits
            value = child.total / visits + c * sqrt(log_parent / visits)
            if value > best_value:
                best, best_value = child, value
    assert best is not None
    return best


def play_out(
    state: State[Any, Any, Any],
    rng: random.Random,
    max_actions: int | None,
    policy: RolloutPolicy = "uniform",
) -> int:
    """Play from ``state`` until the game ends or ``max_actions`` actions have been played;
    return the number of actions played. The state is left where the playout stopped (the
    caller undoes or discards it).

    Each action is drawn by ``policy``: ``"uniform"`` (the default) uniformly among the legal
    actions, ``"game"`` by the game's rollout policy, :meth:`State.rollout_action
    <tikigames.core.state.State.rollout_action>`; chance outcomes with their probabilities
    either way.
    """
    steps = 0
    limit = math.inf if max_actions is None else max_actions
    draw = state.rollout_action if policy == GAME_POLICY else state.random_action
    while steps < limit and not state.is_terminal():
        # Drawn from this state's own legal actions: the unchecked path is safe.
        state.apply_unchecked(draw(rng))
        steps += 1
    return steps


def rollout(
    state: State[Any, Any, Any], rng: random.Random, max_actions: int | None
) -> tuple[list[float], int]:
    """A uniformly random playout (:func:`play_out`) scored by the game's guess,
    ``state.evaluate()`` — the returns themselves once the game is over; returns
    ``(returns, actions played)``."""
    steps = play_out(state, rng, max_actions)
    return state.evaluate(), steps


def backup(path: Sequence[Node], returns: Sequence[float]) -> None:
    """Credit every edge of ``path`` with one visit and its own mover's return (chance edges
    count visits only): in a multi-player game each player maximises its own return."""
    for node in path:
        node.visits += 1
        mover = node.mover
        if mover >= 0:
            node.total += returns[mover]


# A Python class, not a native one: mypyc gives a native class's ``__next__`` returning ``int``
# the wrong C signature for ``tp_iternext`` (a compile error), and one call per iteration costs
# nothing beside a playout.
@mypyc_attr(native_class=False)
class Budget:
    """The search budget, as an iterator: ``count`` iterations, or — when ``seconds`` is given
    — as many as fit in that many seconds of wall time from its creation (at least one either
    way). :attr:`spent` counts the iterations started so far.

    >>> from tikigames.bots.search import Budget
    >>> budget = Budget(3, None)
    >>> list(budget), budget.spent
    ([0, 1, 2], 3)
    """

    def __init__(self, count: int, seconds: float | None) -> None:
        self.count = max(count, 1)
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.spent = 0

    def __iter__(self) -> Budget:
        return self

    def __next__(self) -> int:
        spent = self.spent
        if spent:
            deadline = self.deadline
            if deadline is None:
                if spent >= self.count:
                    raise StopIteration
            elif time.perf_counter() >= deadline:
                raise StopIteration
        self.spent = spent + 1
        return spent


def iterations(count: int, seconds: float | None) -> Iterator[int]:
    """The search budget: ``count`` iterations, or — when ``seconds`` is given — as many as fit
    in that many seconds of wall time from now (at least one either way): a :class:`Budget`."""
    return Budget(count, seconds)


def most_visited(root: Node, allowed: Container[Hashable] | None = None) -> Node:
    """The root's most visited child (the robust choice) among the keys in ``allowed`` (all by
    default); ties go to the higher mean return, then to the first expanded. The search
    guarantees at least one such child."""
    best: Node | None = None
    best_score = (-1, -math.inf)
    for key, child in root.children.items():
        if allowed is not None and key not in allowed:
            continue
        score = (child.visits, child.total / child.visits if child.visits else -math.inf)
        if score > best_score:
            best, best_score = child, score
    assert best is not None
    return best


def visit_distribution(legal: Sequence[Action], visits: Sequence[float]) -> dict[Action, float]:
    """The root's visit distribution: ``legal[i]`` gets ``visits[i]`` over the total, in the
    order of ``legal``, so the shares sum to 1 (uniform if nothing was visited, which a search
    of at least one iteration never leaves).

    >>> import tikigames
    >>> from tikigames.bots.search import visit_distribution
    >>> legal = [tikigames.load("paiko").action(i) for i in (3, 5, 8)]
    >>> list(visit_distribution(legal, [6, 2, 0]).values())
    [0.75, 0.25, 0.0]
    """
    total = 0.0
    for count in visits:
        total += count
    if total <= 0:
        share = 1.0 / len(legal)
        return {action: share for action in legal}
    return {action: count / total for action, count in zip(legal, visits, strict=True)}


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchBot(ABC):
    """The frame of a Monte Carlo tree search bot: settings, budget, the forced-move shortcut.

    Args:
        iterations: iterations per move (ignored when ``seconds`` is given).
        seconds: a wall-time budget per move instead of an iteration count; the bot is then no
            longer reproducible from its rng, since the number of iterations varies.
        c: the UCB exploration constant (returns lie in [−1, 1]); ``None``, the default, takes
            the class's :attr:`default_c` (1.4 for ``MCTSBot``, 0.7 for ``ISMCTSBot``).
        max_rollout: the cap on one rollout's length in actions: ``"game"`` (the default) for
            the game's own suggestion, :attr:`Game.rollout_cap
            <tikigames.core.game.Game.rollout_cap>`; ``None`` to play to the end. A rollout
            cut short is worth :meth:`evaluate`'s guess.
        rollout: how a playout picks its actions: ``"game"`` (the default), by the game's
            rollout policy, :meth:`State.rollout_action
            <tikigames.core.state.State.rollout_action>`; ``"uniform"``, uniformly at random.
        evaluation: what a playout cut short is worth: ``"game"`` (the default), the game's
            guess, :meth:`State.evaluate <tikigames.core.state.State.evaluate>`;
            ``"returns"``, ``state.returns()`` (zeros before the end). A bot author plugs in
            their own by overriding :meth:`evaluate` (see ``examples/custom_evaluation.py``).

    ``rollout="uniform", evaluation="returns"`` with ``max_rollout=200`` plays as the search
    bots of tikigames 0.x before game knowledge (see the bots page's strength ladder).

    Raises:
        TypeError: a setting of the wrong type (``iterations=2.5``, ``seconds="1"``…).
        ValueError: a setting out of range (no iterations, a negative time or constant…).
    """

    #: The exploration constant of a bot built without ``c``: the subclass's own.
    default_c: ClassVar[float] = 1.4

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float | None = None,
        max_rollout: RolloutCap = GAME_CAP,
        rollout: RolloutPolicy = "game",
        evaluation: Evaluation = "game",
    ) -> None:
        if c is None:
            c = self.default_c
        # A wrong type is a TypeError, a value out of range a ValueError, in both builds (a
        # compiled build checks the annotated types itself, with TypeError).
        if type(iterations) is not int:
            raise TypeError(f"iterations must be an int, not {iterations!r}"[:100])
        if iterations < 1:
            raise ValueError(f"iterations must be ≥ 1, not {iterations}")
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise TypeError(f"seconds must be a number or None, not {seconds!r}"[:100])
            if not 0 < seconds < math.inf:
                raise ValueError(f"seconds must be > 0, not {seconds}")
        if isinstance(c, bool) or not isinstance(c, (int, float)):
            raise TypeError(f"c must be a number, not {c!r}"[:100])
        if not 0 <= c < math.inf:
            raise ValueError(f"c must be a finite number ≥ 0, not {c}")
        cap: object = max_rollout  # checked as any object: its annotation is the promise
        if cap is not None and type(cap) not in (int, str):
            raise TypeError(f"max_rollout must be an int, None or {GAME_CAP!r}, not {cap!r}"[:100])
        if cap is not None and cap != GAME_CAP and not (type(cap) is int and cap >= 0):
            raise ValueError(f"max_rollout must be ≥ 0, None or {GAME_CAP!r}, not {cap!r}"[:100])
        for name, value, choices in (
            ("rollout", rollout, ("game", "uniform")),
            ("evaluation", evaluation, ("game", "returns")),
        ):
            if value not in choices:
                raise ValueError(
                    f"{name} must be {' or '.join(map(repr, choices))}, not {value!r}"[:100]
                )
        self.iterations = iterations
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.max_rollout = max_rollout
        self.rollout = rollout
        self.evaluation = evaluation
        #: The iterations the last search ran (0 before the first, and after a forced move,
        #: which is played without searching): what a ``seconds`` budget reached.
        self.last_iterations = 0

    def rollout_cap(self, game: Game[Any, Any, Any]) -> int | None:
        """The cap on a rollout's length in ``game``: ``max_rollout``, or the game's own."""
        cap = self.max_rollout
        return game.rollout_cap if cap == GAME_CAP else cap

    def playout(
        self, state: State[Any, Any, Any], rng: random.Random, max_actions: int | None
    ) -> tuple[list[float], int]:
        """The playout from a new leaf of the tree: :func:`play_out` with the bot's ``rollout``
        policy, at most ``max_actions`` actions, scored by :meth:`evaluate`; returns
        ``(returns, actions played)``. A subclass may override it; it must leave ``state``
        where the playout stopped (MCTS undoes that many actions)."""
        steps = play_out(state, rng, max_actions, self.rollout)
        return self.evaluate(state), steps

    def evaluate(self, state: State[Any, Any, Any]) -> list[float]:
        """What the position a playout stopped in is worth to each player, each in [−1, 1]:
        the returns once the game is over; before that (a playout cut short by
        ``max_rollout``) the game's guess, ``state.evaluate()``, or with
        ``evaluation="returns"`` zeros.

        The hook for a bot author's own evaluation: override it in a subclass (``state`` is a
        world drawn from the bot's observation, never the true state).
        """
        if self.evaluation == "returns":
            return state.returns()
        return state.evaluate()

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        """Search from ``obs`` and return the chosen action, one of ``obs.legal_actions()``.

        A single legal action is returned without searching (multi-step turns and forced
        picks are frequent and would waste the budget).

        Raises:
            ValueError: the observer has no legal action (it is not their turn).
        """
        return self.act_and_policy(obs, rng)[0]

    def policy(self, obs: Observation[Any], rng: random.Random) -> dict[Action, float]:
        """Search from ``obs`` and return the root's visit distribution: for each legal action,
        in ``obs.legal_actions()`` order, the share of the search's iterations that went
        through it (0.0 for an action never tried). The shares sum to 1; a forced move gets
        1.0 without searching. The search is the one :meth:`act` runs with the same ``rng``.

        Raises:
            ValueError: the observer has no legal action (it is not their turn).
        """
        return self.act_and_policy(obs, rng)[1]

    def act_and_policy(
        self, obs: Observation[Any], rng: random.Random
    ) -> tuple[Action, dict[Action, float]]:
        """One search, both answers: ``(act(obs, rng), policy(obs, rng))`` for the cost of one
        — what self-play records at every decision. The action, and what the search draws from
        ``rng``, are exactly :meth:`act`'s: reporting the distribution changes no game.

        >>> import random, tikigames
        >>> from tikigames.bots import ISMCTSBot
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.sample_chance(random.Random(0)))
        >>> obs = state.observation(state.current_player())
        >>> bot = ISMCTSBot(iterations=40)
        >>> action, policy = bot.act_and_policy(obs, random.Random(5))
        >>> action == bot.act(obs, random.Random(5)), list(policy) == obs.legal_actions()
        (True, True)
        >>> round(sum(policy.values()), 9)
        1.0

        Raises:
            ValueError: the observer has no legal action (it is not their turn).
        """
        legal = obs.legal_actions()
        if not legal:
            raise ValueError(f"{self!r} was asked to act when it has no legal action")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0], {legal[0]: 1.0}
        budget = Budget(self.iterations, self.seconds)
        try:
            return self._search(obs, legal, rng, budget)
        finally:
            self.last_iterations = budget.spent

    @abstractmethod
    def _search(
        self, obs: Observation[Any], legal: list[Action], rng: random.Random, budget: Iterator[int]
    ) -> tuple[Action, dict[Action, float]]:
        """Run one iteration per item of ``budget`` and return one of ``legal`` with the
        root's visit distribution over ``legal`` (see :func:`visit_distribution`)."""

    def __repr__(self) -> str:
        budget = (
            f"seconds={self.seconds}"
            if self.seconds is not None
            else (f"iterations={self.iterations}")
        )
        knowledge = "".join(
            f", {name}={value!r}"
            for name, value in (("rollout", self.rollout), ("evaluation", self.evaluation))
            if value != "game"
        )
        return (
            f"{type(self).__name__}({budget}, c={self.c}, max_rollout={self.max_rollout!r}"
            f"{knowledge})"
        )

    def settings(self) -> tuple[Any, ...]:
        """The settings that make two bots of a class play alike: ``(iterations, seconds, c,
        max_rollout, rollout, evaluation)``."""
        return (
            self.iterations,
            self.seconds,
            self.c,
            self.max_rollout,
            self.rollout,
            self.evaluation,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, SearchBot)
        return self.settings() == other.settings()

    def __hash__(self) -> int:
        return hash((type(self), self.settings()))

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
    "Node",
    "RolloutCap",
    "SearchBot",
    "backup",
    "iterations",
    "most_visited",
    "rollout",
    "select",
    "visit_distribution",
]

#: The default ``max_rollout``: the cap the game suggests, :attr:`Game.rollout_cap
#: <tikigames.core.game.Game.rollout_cap>`.
GAME_CAP: Final = "game"
#: What ``max_rollout`` takes: a number of actions, ``None`` (no cap) or :data:`GAME_CAP`.
RolloutCap: TypeAlias = int | Literal["game"] | None


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


def rollout(
    state: State[Any, Any, Any], rng: random.Random, max_actions: int | None
) -> tuple[list[float], int]:
    """Play uniformly random actions (chance outcomes with their probabilities) until the game
    ends or ``max_actions`` actions have been played; return ``(returns, actions played)``.

    At the cap the value is the game's guess, ``state.evaluate()``: for most games its returns
    as they stand — zeros, so the search learns nothing from a rollout that was cut short but
    is not misled either — and a heuristic from the board for the games with long playouts.
    The state is left where the rollout stopped (the caller undoes or discards it).
    """
    steps = 0
    limit = math.inf if max_actions is None else max_actions
    while steps < limit and not state.is_terminal():
        # Drawn from this state's own legal actions: the unchecked path is safe.
        state.apply_unchecked(state.random_action(rng))
        steps += 1
    return state.evaluate(), steps


def backup(path: Sequence[Node], returns: Sequence[float]) -> None:
    """Credit every edge of ``path`` with one visit and its own mover's return (chance edges
    count visits only): in a multi-player game each player maximises its own return."""
    for node in path:
        node.visits += 1
        mover = node.mover
        if mover >= 0:
            node.total += returns[mover]


def iterations(count: int, seconds: float | None) -> Iterator[int]:
    """The search budget: ``count`` iterations, or — when ``seconds`` is given — as many as fit
    in that many seconds of wall time from now (at least one either way)."""
    if seconds is None:
        return iter(range(max(count, 1)))
    return _until(time.perf_counter() + seconds)


def _until(deadline: float) -> Iterator[int]:
    done = 0
    while True:
        yield done
        done += 1
        if time.perf_counter() >= deadline:
            return


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
            cut short is worth the game's guess, ``state.evaluate()``.

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
        self.iterations = iterations
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.max_rollout = max_rollout

    def rollout_cap(self, game: Game[Any, Any, Any]) -> int | None:
        """The cap on a rollout's length in ``game``: ``max_rollout``, or the game's own."""
        cap = self.max_rollout
        return game.rollout_cap if cap == GAME_CAP else cap

    def playout(
        self, state: State[Any, Any, Any], rng: random.Random, max_actions: int | None
    ) -> tuple[list[float], int]:
        """The playout from a new leaf of the tree: :func:`rollout` (uniformly random actions,
        at most ``max_actions``), returning ``(returns, actions played)``. A subclass may
        override it with a smarter policy; it must leave ``state`` where the playout stopped
        (MCTS undoes that many actions)."""
        return rollout(state, rng, max_actions)

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
            return legal[0], {legal[0]: 1.0}
        return self._search(obs, legal, rng, iterations(self.iterations, self.seconds))

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
        return f"{type(self).__name__}({budget}, c={self.c}, max_rollout={self.max_rollout!r})"

    def settings(self) -> tuple[Any, ...]:
        """The settings that make two bots of a class play alike: ``(iterations, seconds, c,
        max_rollout)``."""
        return (self.iterations, self.seconds, self.c, self.max_rollout)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, SearchBot)
        return self.settings() == other.settings()

    def __hash__(self) -> int:
        return hash((type(self), self.settings()))

"""Plain UCT for perfect-information games."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any, Literal

from mypy_extensions import mypyc_attr

from tikigames.bots.search import (
    GAME_CAP,
    GAME_POLICY,
    Evaluation,
    Node,
    RolloutCap,
    RolloutPolicy,
    SearchBot,
    backup,
    most_visited,
    visit_distribution,
)
from tikigames.bots.search import select as select_child
from tikigames.core.action import Action
from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.state import State

__all__ = ["MCTSBot"]


@mypyc_attr(allow_interpreted_subclasses=True)
class MCTSBot(SearchBot):
    """Monte Carlo tree search (UCT) for perfect-information games such as Paikō.

    The bot asks the rules for the position it observes — ``obs.game.resample(obs, rng)``,
    which for a perfect-information game is an equal copy of the real state — and searches that
    one state in place: each iteration applies actions down the tree and a random rollout, then
    undoes them all, so no node holds a state and nothing is cloned per node.

    A node's statistics are the returns of the player who chose its edge, so any number of
    players and multi-step turns (the same player acting several times in a row) need nothing
    special. At a chance node the outcome is drawn with its probability and the walk goes on
    into that outcome's child. The move played is the root's most visited edge; :meth:`policy`
    reports the share of the iterations each root edge received.

    On a game with hidden information this searches a single sampled world as if everything
    were visible (it never sees the true state, only one guess at it): use
    :class:`~tikigames.bots.ISMCTSBot` there.

    The settings are :class:`~tikigames.bots.SearchBot`'s, with ``c=1.4`` by default, and

    Args:
        widening: progressive widening: a node visited ``n`` times may have at most
            ``ceil(widening · √(n+1))`` children before its untried actions wait; ``None``
            expands every legal action of a node before choosing among them by UCB1 (plain
            UCT). The default, ``"game"``, takes :attr:`Game.widening
            <tikigames.core.game.Game.widening>` (Paikō's ~260 actions a move widen; the
            other games do not). The next action expanded is the game's rollout policy's
            choice (:meth:`State.rollout_action <tikigames.core.state.State.rollout_action>`)
            when it is still untried — a cheap prior: captures and good moves come first —
            else uniformly among the untried (always uniform with ``rollout="uniform"``).

    >>> import random, tikigames
    >>> from tikigames.bots import MCTSBot
    >>> state = tikigames.load("paiko").new_initial_state()
    >>> obs = state.observation(0)
    >>> MCTSBot(iterations=30).act(obs, random.Random(1)) in obs.legal_actions()
    True
    """

    default_c = 1.4

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float | None = None,
        max_rollout: RolloutCap = GAME_CAP,
        rollout: RolloutPolicy = "game",
        evaluation: Evaluation = "game",
        widening: float | Literal["game"] | None = GAME_CAP,
    ) -> None:
        super().__init__(iterations, seconds, c, max_rollout, rollout, evaluation)
        value: object = widening  # checked as any object: its annotation is the promise
        if value is not None and value != GAME_CAP:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(
                    f"widening must be a number, None or {GAME_CAP!r}, not {value!r}"[:100]
                )
            if not 0 < value < math.inf:
                raise ValueError(f"widening must be > 0, not {value!r}"[:100])
            widening = float(value)
        self.widening = widening

    def widening_for(self, game: Game[Any, Any, Any]) -> float | None:
        """The widening in ``game``: ``widening``, or the game's own."""
        widening = self.widening
        return game.widening if widening == GAME_CAP else widening

    def settings(self) -> tuple[Any, ...]:
        """:meth:`SearchBot.settings <tikigames.bots.SearchBot.settings>` and ``widening``."""
        return (*super().settings(), self.widening)

    def __repr__(self) -> str:
        text = super().__repr__()
        if self.widening == GAME_CAP:
            return text
        return f"{text[:-1]}, widening={self.widening!r})"

    def _search(
        self, obs: Observation[Any], legal: list[Action], rng: random.Random, budget: Iterator[int]
    ) -> tuple[Action, dict[Action, float]]:
        state: State[Any, Any, Any] = obs.game.resample(obs, rng)
        root = Node()
        c, cap = self.c, self.rollout_cap(obs.game)
        log, sqrt = math.log, math.sqrt
        widening = self.widening_for(obs.game)
        prior = self.rollout == GAME_POLICY
        for _ in budget:
            node = root
            path: list[Node] = []
            applied = 0
            # Selection and expansion: down the tree until a new edge is added or the game ends.
            while True:
                player = state.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    action = state.sample_chance(rng)
                    child = node.children.get(action)
                    if child is None:
                        child = node.children[action] = Node(action, CHANCE)
                else:
                    untried = node.untried
                    if untried is None:
                        untried = node.untried = state.legal_actions()
                    if untried and (
                        widening is None or len(node.children) < widening * sqrt(node.visits + 1)
                    ):
                        index = -1
                        if widening is not None and prior:
                            guess = state.rollout_action(rng)
                            if guess not in node.children:
                                index = untried.index(guess)
                        if index < 0:
                            index = rng.randrange(len(untried))
                        untried[index], untried[-1] = untried[-1], untried[index]
                        action = untried.pop()
                        child = node.children[action] = Node(action, player)
                        state.apply_unchecked(action)
                        applied += 1
                        path.append(child)
                        break
                    child = select_child(node.children.values(), c, log(node.visits))
                    action = child.key
                state.apply_unchecked(action)
                applied += 1
                path.append(child)
                node = child
            returns, steps = self.playout(state, rng, cap)
            backup(path, returns)
            root.visits += 1
            for _ in range(applied + steps):
                state.undo_action()
        choice = most_visited(root).key
        assert choice in legal
        # The root's edges are the legal actions (the searched world is the observed one).
        children = root.children
        visits: list[float] = []
        for action in legal:
            child = children.get(action)
            visits.append(0.0 if child is None else float(child.visits))
        return legal[legal.index(choice)], visit_distribution(legal, visits)

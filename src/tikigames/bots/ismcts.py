"""Single-observer information-set MCTS for games with hidden information."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from typing import Any, cast

from mypy_extensions import mypyc_attr

from tikigames.bots.search import (
    Node,
    SearchBot,
    backup,
    most_visited,
    visit_distribution,
)
from tikigames.bots.search import select as select_child
from tikigames.core.action import Action
from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.observation import Observation
from tikigames.core.state import State

__all__ = ["ISMCTSBot"]


def edge_key(state: State[Any, Any, Any], action: Action, observer: int) -> Hashable:
    """What ``observer`` can tell of ``action`` applied in ``state``: the action itself when
    it has no hidden part, else its text as the observer would see it (``?`` where hidden).
    Actions the observer cannot tell apart share a key, hence a tree edge."""
    if action.hidden is None:
        return action
    return state.action_to_string(action, observer)


@mypyc_attr(allow_interpreted_subclasses=True)
class ISMCTSBot(SearchBot):
    """Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

    One tree, of the bot's own information sets: an edge is an action *as the bot would see
    it*, so opponents' hidden choices and unseen chance outcomes (a card dealt to someone else,
    a piece placed face down) share one edge. Every iteration

    1. draws a world consistent with what the bot knows — ``obs.game.resample(obs, rng)``,
       or rather the cheaper ``draw(rng)`` of ``obs.game.resampler(obs)``, which draws the
       same distribution;
    2. walks down the tree in that world: at each decision, the edges legal in this world get
       their availability count raised, and the player to move picks by UCB1 with the
       availability count in place of the parent's visits (an edge that is rarely legal is not
       punished for it); a chance outcome is drawn with its probability;
    3. adds one edge, plays a random rollout (capped, see ``max_rollout``) and credits every
       edge with the return of the player who chose it — in a multi-player game each player
       maximises its own return at its own nodes.

    When an edge stands for several actions of the world (a hidden choice), the world's action
    is drawn uniformly among them. The bot plays the most visited of its own actions at the
    root; :meth:`policy` reports the visits of those actions, normalised. It never sees the
    true state, only its observation and the worlds drawn from it.

    The tree tells positions apart by the action texts the bot saw; what an observation holds
    beyond them (e.g. ranks revealed in a battle) is taken into account by the resampled worlds
    but does not split tree nodes.

    The settings are :class:`~tikigames.bots.SearchBot`'s (an iteration is one resampled
    world), with ``c=0.7`` by default.

    >>> import tikigames
    >>> from tikigames.bots import ISMCTSBot, RandomBot
    >>> game = tikigames.load("tiki_topple", players=2)
    >>> final = tikigames.play(game, [ISMCTSBot(iterations=50), RandomBot()], seed=3)
    >>> final.is_terminal()
    True
    """

    default_c = 0.7

    def _search(
        self, obs: Observation[Any], legal: list[Action], rng: random.Random, budget: Iterator[int]
    ) -> tuple[Action, dict[Action, float]]:
        game = obs.game
        observer = obs.player
        assert observer is not None  # a seat with legal actions
        # The bot's own actions at the root, by key (normally each is its own key).
        if any(action.hidden is not None for action in legal):
            world = game.resample(obs, rng)
            mine: dict[Hashable, list[Action]] = {}
            for action in legal:
                mine.setdefault(edge_key(world, action, observer), []).append(action)
        else:
            mine = {action: [action] for action in legal}
        root = Node()
        c, cap = self.c, self.rollout_cap(obs.game)
        draw = game.resampler(obs)
        for _ in budget:
            state: State[Any, Any, Any] = draw(rng)
            node = root
            path: list[Node] = []
            while True:
                player = state.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    action = state.sample_chance(rng)
                    key = edge_key(state, action, observer)
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = Node(key, CHANCE)
                    state.apply_unchecked(action)
                    path.append(child)
                    node = child
                    continue
                actions = state.legal_actions()
                groups: dict[Hashable, list[Action]] | None = None
                keys: list[Any] = actions
                for action in actions:
                    if action.hidden is not None:
                        groups = {}
                        for each in actions:
                            groups.setdefault(edge_key(state, each, observer), []).append(each)
                        keys = list(groups)
                        break
                children = node.children
                untried: list[Hashable] = []
                available: list[Node] = []
                for key in keys:
                    child = children.get(key)
                    if child is None:
                        untried.append(key)
                    else:
                        child.avail += 1
                        available.append(child)
                if untried:
                    key = untried[rng.randrange(len(untried))]
                    child = children[key] = Node(key, player)
                    child.avail = 1
                else:
                    child = select_child(available, c)
                    key = child.key
                if groups is None:
                    # The keys are the actions themselves (a cast, not an isinstance check:
                    # compiled by mypyc, that would test for the exact class Action).
                    action = cast(Action, key)
                else:
                    group = groups[key]
                    action = group[rng.randrange(len(group))] if len(group) > 1 else group[0]
                state.apply_unchecked(action)
                path.append(child)
                if untried:
                    break  # expanded: now the rollout
                node = child
            returns, _ = self.playout(state, rng, cap)
            backup(path, returns)
        best = most_visited(root, allowed=mine)
        group = mine[best.key]
        chosen = group[rng.randrange(len(group))] if len(group) > 1 else group[0]
        # The distribution over the bot's own root edges; an edge standing for several
        # actions shares its visits among them equally, as it plays one of them uniformly.
        shares: dict[Action, float] = {}
        for key, actions in mine.items():
            child = root.children.get(key)
            each = 0.0 if child is None else child.visits / len(actions)
            for action in actions:
                shares[action] = each
        return chosen, visit_distribution(legal, [shares[action] for action in legal])

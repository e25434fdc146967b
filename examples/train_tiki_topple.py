"""Train a small Tiki Topple player against RandomBot through the Gymnasium adapter, numpy only.

The agent is seat 0 of the standard two-player game (four rounds) in
``tikigames.adapters.gymnasium.env("tiki_topple")``; the opponent is RandomBot; the reward is
the game's return at the end (+1 win, -1 loss, 0 draw), nothing shaped.

The policy is a softmax over the legal actions (the env's mask) of preferences linear in
features of each (observation, action) pair (Sutton & Barto, *Reinforcement Learning*, 2nd ed.,
section 13.1): each legal action has one one-hot feature read from the observation tensor's
planes, *which card* (up1, up2, up3, topple, toast) *on a tiki in which slot of the agent's
secret card* (top, middle, bottom or none; the ``secret_tikis`` plane) *at which position of
the line* (the ``line`` plane; a Toast's tiki is the bottom one): 5 x 4 x 9 = 180 weights. It is
trained with REINFORCE (Williams 1992): after each game, every decision's gradient of
log-probability, weighted by the return minus a running-mean baseline, is added up, and every
``batch`` games the weights take a plain gradient step.

Why these features: a policy linear in the whole tensor, one weight row per action id
(1360 x 286 weights), learned nothing in the same budget (6000 games: its win rate stayed
within 0.47-0.57 and it evaluated at 0.50): at that size the gradient estimates of a few
thousand games are noise. The 180 weights learn in a few hundred games.

It prints the learning curve (the win rate of each block of training games, the policy
sampling its actions as it learns) and then the trained policy's win rate (its most likely
action each turn) over fresh evaluation games with its 95% Wilson interval, beside the untrained
policy's (all weights 0: uniform over the legal actions, which is RandomBot).

Run: python examples/train_tiki_topple.py  (about 20 seconds)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tikigames.adapters.gymnasium import TikiGamesEnv, env
from tikigames.tiki_topple.data import CARD_NAMES, NUM_TIKIS, TIKIS

SLOTS = 4  # top, middle, bottom, not on the agent's secret card
NUM_FEATURES = len(CARD_NAMES) * SLOTS * NUM_TIKIS


class ActionFeatures:
    """The feature of each legal action, read from the observation tensor (see the module)."""

    def __init__(self, game_env: TikiGamesEnv) -> None:
        game = game_env.game
        layout = game.observation_tensor_layout()
        self.line = layout.offset("line")  # [position, tiki]
        self.slots = layout.offset("secret_tikis")  # [top/middle/bottom, tiki]
        # Each action id's card and tiki (-1: the tiki of a Toast, or a chance outcome's).
        self.card = np.full(game.num_distinct_actions, -1, dtype=np.intp)
        self.tiki = np.full(game.num_distinct_actions, -1, dtype=np.intp)
        for action_id in range(game.num_distinct_actions):
            words = game.action(action_id).text.split()
            if words[0] in CARD_NAMES:
                self.card[action_id] = CARD_NAMES.index(words[0])
                self.tiki[action_id] = TIKIS.index(words[1]) if len(words) > 1 else -1

    def __call__(self, obs: NDArray[np.float32], legal: NDArray[np.intp]) -> NDArray[np.intp]:
        """The feature index of each action in ``legal`` at observation tensor ``obs``."""
        square = NUM_TIKIS * NUM_TIKIS
        positions, tikis = np.nonzero(obs[self.line : self.line + square].reshape(9, 9))
        position = np.zeros(NUM_TIKIS, dtype=np.intp)
        position[tikis] = positions
        slots, owned = np.nonzero(obs[self.slots : self.slots + 3 * NUM_TIKIS].reshape(3, 9))
        slot = np.full(NUM_TIKIS, SLOTS - 1, dtype=np.intp)
        slot[owned] = slots
        tiki = self.tiki[legal]
        tiki = np.where(tiki < 0, tikis[np.argmax(positions)], tiki)  # a Toast: the bottom tiki
        result: NDArray[np.intp] = (self.card[legal] * SLOTS + slot[tiki]) * NUM_TIKIS
        return result + position[tiki]


class Policy:
    """A softmax over the legal actions of one weight per action feature."""

    def __init__(self, features: ActionFeatures) -> None:
        self.features = features
        self.weights = np.zeros(NUM_FEATURES)

    def probabilities(self, indices: NDArray[np.intp]) -> NDArray[np.float64]:
        """The distribution over the legal actions whose features are ``indices``."""
        preferences = self.weights[indices]
        exp = np.exp(preferences - preferences.max())
        result: NDArray[np.float64] = exp / exp.sum()
        return result

    def act(
        self, obs: NDArray[np.float32], mask: NDArray[np.int8], rng: np.random.Generator | None
    ) -> tuple[int, NDArray[np.intp], NDArray[np.float64], int]:
        """An action id, drawn with ``rng`` (its most likely with ``None``), and what REINFORCE
        needs of the choice: the features, the probabilities and the index among the legal."""
        legal = np.flatnonzero(mask)
        indices = self.features(obs, legal)
        p = self.probabilities(indices)
        index = int(np.argmax(p)) if rng is None else int(rng.choice(len(legal), p=p))
        return int(legal[index]), indices, p, index


@dataclass
class Training:
    """What :func:`train` returns: the trained policy and its learning curve."""

    policy: Policy
    block: int  #: training games per point of the curve
    curve: list[float]  #: the win rate of each block of training games, in order
    seconds: float


def train(
    episodes: int = 2000,
    seed: int = 0,
    learning_rate: float = 0.5,
    batch: int = 10,
    block: int = 100,
) -> Training:
    """Train a :class:`Policy` for seat 0 against RandomBot with REINFORCE, seeded (the env's
    deals and the bot's moves from ``reset(seed=seed)``, the policy's draws from ``seed``)."""
    start = time.perf_counter()
    game_env = env("tiki_topple")
    policy = Policy(ActionFeatures(game_env))
    rng = np.random.default_rng(seed)
    gradient = np.zeros(NUM_FEATURES)
    baseline, wins, curve = 0.0, 0, []
    obs, info = game_env.reset(seed=seed)
    for episode in range(1, episodes + 1):
        choices = []
        done, reward = False, 0.0
        while not done:
            action, indices, p, index = policy.act(obs, info["action_mask"], rng)
            choices.append((indices, p, index))
            obs, step_reward, done, _, info = game_env.step(action)
            reward = float(step_reward)
        advantage = reward - baseline
        baseline += 0.01 * advantage
        for indices, p, index in choices:
            # The gradient of log softmax at the chosen action: its feature minus the expected.
            direction = -p
            direction[index] += 1.0
            np.add.at(gradient, indices, advantage * direction)
        if episode % batch == 0:
            policy.weights += learning_rate * gradient / batch
            gradient[:] = 0.0
        wins += reward > 0
        if episode % block == 0:
            curve.append(wins / block)
            wins = 0
        obs, info = game_env.reset()
    return Training(policy, block, curve, time.perf_counter() - start)


@dataclass(frozen=True)
class Evaluation:
    """The results of :func:`evaluate`: the agent's wins, draws and losses."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate (95% for the default ``z``)."""
        return wilson(self.wins, self.games, z)

    def __str__(self) -> str:
        low, high = self.interval()
        return (
            f"win rate {self.win_rate:.3f} (95% CI {low:.3f}-{high:.3f}) over {self.games} games"
            f" ({self.wins} won, {self.draws} drawn, {self.losses} lost)"
        )


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``wins / games``."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(policy: Policy, games: int = 1000, seed: int = 1, greedy: bool = True) -> Evaluation:
    """Play ``games`` fresh games of ``policy`` (seat 0) against RandomBot: its most likely
    action each turn (``greedy``), or one drawn from it."""
    game_env = env("tiki_topple")
    rng = None if greedy else np.random.default_rng(seed)
    results = [0, 0, 0]
    obs, info = game_env.reset(seed=seed)
    for _ in range(games):
        done, reward = False, 0.0
        while not done:
            action = policy.act(obs, info["action_mask"], rng)[0]
            obs, step_reward, done, _, info = game_env.step(action)
            reward = float(step_reward)
        results[0 if reward > 0 else 1 if reward == 0 else 2] += 1
        obs, info = game_env.reset()
    return Evaluation(*results)


def main(**options: Any) -> None:
    """Train, print the curve, and evaluate the trained and the untrained policy."""
    training = train(**options)
    games = training.block * len(training.curve)
    print(f"Trained for {games} games in {training.seconds:.0f} s.")
    print("Win rate against RandomBot of each block of training games:")
    for index, rate in enumerate(training.curve):
        first = index * training.block + 1
        bar = "#" * round(rate * 40)
        print(f"  games {first:4}-{first + training.block - 1:4}  {rate:.2f}  {bar}")
    untrained = Policy(training.policy.features)  # all weights 0: uniform over the legal
    print(f"Untrained policy (as RandomBot): {evaluate(untrained, greedy=False)}")
    print(f"Trained policy (greedy):         {evaluate(training.policy)}")


if __name__ == "__main__":
    main()

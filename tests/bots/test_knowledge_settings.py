"""The search bots' game-knowledge settings: ``rollout``, ``evaluation``, ``widening``, the
``evaluate`` hook, the budget's count (``last_iterations``) and the arena's named bots."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

import tikigames
from tikigames import State
from tikigames.bots import ISMCTSBot, MCTSBot, SearchBot
from tikigames.bots.search import Budget, play_out
from tikigames.cli import main

SEARCH_BOTS: list[type[SearchBot]] = [MCTSBot, ISMCTSBot]


def decision(name: str, seed: int = 3, after: int = 12) -> tikigames.Observation:
    """The observation of the player to move at a decision with several legal actions, after
    ``after`` random actions or more."""
    rng = random.Random(seed)
    state: State[Any] = tikigames.load(name).new_initial_state()
    for _ in range(after):
        state.apply_action(state.random_action(rng))
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.random_action(rng))
    obs: tikigames.Observation = state.observation(state.current_player())
    return obs


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_knowledge_settings_are_checked(cls: type[SearchBot]) -> None:
    with pytest.raises(ValueError, match="rollout must be 'game' or 'uniform'"):
        cls(rollout="smart")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="evaluation must be 'game' or 'returns'"):
        cls(evaluation="zero")  # type: ignore[arg-type]
    bot = cls(rollout="uniform", evaluation="returns")
    assert "rollout='uniform', evaluation='returns'" in repr(bot)
    assert bot != cls() and bot == cls(rollout="uniform", evaluation="returns")
    assert ", rollout=" not in repr(cls()) and "evaluation" not in repr(cls())  # defaults unsaid


def test_widening_is_checked_and_defaults_to_the_games() -> None:
    for bad in (0, -1.0, float("inf")):
        with pytest.raises(ValueError, match="widening must be > 0"):
            MCTSBot(widening=bad)
    with pytest.raises(TypeError, match="widening must be a number"):
        MCTSBot(widening="wide")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="widening must be a number"):
        MCTSBot(widening=True)
    bot = MCTSBot()
    for name in tikigames.GAMES:
        game = tikigames.load(name)
        assert bot.widening_for(game) == game.widening
    assert MCTSBot(widening=None).widening_for(tikigames.load("paiko")) is None
    assert MCTSBot(widening=2).widening_for(tikigames.load("paiko")) == 2.0
    assert MCTSBot(widening=2) != MCTSBot(widening=3) and "widening=2.0" in repr(
        MCTSBot(widening=2)
    )


@pytest.mark.parametrize("widening", [1.0, 3.0])
def test_widening_bounds_the_children_of_the_root(widening: float) -> None:
    obs = decision("paiko", after=40)
    assert len(obs.legal_actions()) > 100  # Paikō in play: hundreds of actions a move
    iterations = 200
    bot = MCTSBot(iterations=iterations, widening=widening)
    action, policy = bot.act_and_policy(obs, random.Random(1))
    tried = sum(1 for share in policy.values() if share > 0)
    # The root is visited once per iteration: at most ceil(w * sqrt(n + 1)) children after n.
    assert 1 < tried <= widening * (iterations + 1) ** 0.5 + 1
    assert action in obs.legal_actions() and policy[action] == max(policy.values())
    plain = MCTSBot(iterations=iterations, widening=None).policy(obs, random.Random(1))
    assert sum(1 for share in plain.values() if share > 0) > tried
    assert bot.act(obs, random.Random(1)) == action  # reproducible with an iteration budget


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_the_evaluate_hook_scores_the_playouts_cut_short(cls: type[SearchBot]) -> None:
    seen: list[State[Any]] = []

    class Optimist(cls):  # type: ignore[valid-type,misc]
        def evaluate(self, state: State[Any]) -> list[float]:
            seen.append(state)
            return [1.0] * state.game.num_players

    obs = decision("tactik")
    Optimist(iterations=20, max_rollout=3).act(obs, random.Random(0))
    assert len(seen) == 20  # one playout per iteration, each scored by the hook


def test_evaluation_returns_scores_a_cut_playout_zero() -> None:
    state: State[Any] = tikigames.load("tactik", players=2).new_initial_state()
    assert ISMCTSBot(evaluation="returns").playout(state, random.Random(2), 50)[0] == [0.0, 0.0]
    state = tikigames.load("tactik", players=2).new_initial_state()
    returns, steps = ISMCTSBot().playout(state, random.Random(2), 50)
    assert steps == 50 and returns == state.evaluate()


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_play_out_follows_the_policy_asked_for(name: str) -> None:
    game = tikigames.load(name)
    for policy, draw in (("uniform", "random_action"), ("game", "rollout_action")):
        state: State[Any] = game.new_initial_state()
        twin: State[Any] = game.new_initial_state()
        rng, twin_rng = random.Random(4), random.Random(4)
        steps = play_out(state, rng, 25, policy)  # type: ignore[arg-type]
        for _ in range(steps):
            twin.apply_action(getattr(twin, draw)(twin_rng))
        assert state == twin and steps == min(25, len(twin.history()))


def test_the_budget_counts_the_iterations_run() -> None:
    assert list(Budget(0, None)) == [0]  # at least one
    timed = Budget(1, 0.01)
    assert len(list(timed)) >= 1 and timed.spent >= 1
    obs = decision("tiki_topple")
    bot = ISMCTSBot(iterations=37)
    assert bot.last_iterations == 0
    bot.act(obs, random.Random(0))
    assert bot.last_iterations == 37
    bot = ISMCTSBot(seconds=0.02)
    bot.act(obs, random.Random(0))
    assert bot.last_iterations > 1


def arena(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_the_arena_seats_two_bots_of_a_kind_by_name() -> None:
    status, out, err = arena(
        "tiki_topple", "--round-robin", "--players", "random,ismcts:before,ismcts",
        "--games", "2", "--seed", "3", "-b", "iterations=5", "-b",
        "ismcts:before.rollout=uniform", "-b", "ismcts:before.evaluation=returns",
        "--json", "-q",
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert [rating["label"] for rating in data["ratings"]] == ["random", "ismcts:before", "ismcts"]
    assert data["settings"]["ismcts:before"] == (
        "ISMCTSBot(iterations=5, c=0.7, max_rollout='game', rollout='uniform',"
        " evaluation='returns')"
    )
    assert data["settings"]["ismcts"] == "ISMCTSBot(iterations=5, c=0.7, max_rollout='game')"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--players", "ismcts:,random"), "a bot's name after ':'"),
        (("--players", "ismcts:a b,random"), "a bot's name after ':'"),
        (("--players", "alien:x,random"), "'alien' is not one of"),
        (("--players", "ismcts:x,random", "-b", "ismcts:y.c=1"), "no bot 'ismcts:y'"),
        (("--players", "ismcts,random", "-b", "rollout=clever"), "rollout must be"),
        (("--players", "mcts,random", "-b", "widening=wide"), "'widening' cannot be"),
    ],
)
def test_named_bots_and_knowledge_settings_are_checked(argv: tuple[str, ...], message: str) -> None:
    status, out, err = arena("tiki_topple", "--games", "1", *argv)
    assert status == 2 and message in err and out == ""

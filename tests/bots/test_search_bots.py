"""MCTSBot and ISMCTSBot: observations only, determinism, budgets, legality, strength.

Every test that takes a game is parametrized over ``tikigames.GAMES``, so a game registered
later is covered without editing this file.
"""

from __future__ import annotations

import ast
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames import Action, Observation, State
from tikigames.bots import Bot, ISMCTSBot, MCTSBot, RandomBot, SearchBot
from tikigames.bots.search import GAME_CAP, RolloutCap, rollout, visit_distribution

from .before import before

SEARCH_BOTS: list[type[SearchBot]] = [MCTSBot, ISMCTSBot]


def two_player(name: str) -> tikigames.Game[Any]:
    """The game's two-player variant where it has one, else its defaults."""
    try:
        return tikigames.load(name, players=2)
    except tikigames.OptionError:
        return tikigames.load(name)


def positions(game: tikigames.Game[Any], count: int, seed: int = 0) -> list[Observation]:
    """Observations of the player to move, at decisions with several legal actions, spread
    along one random game (more games if it is short)."""
    rng = random.Random(seed)
    found: list[Observation] = []
    while len(found) < count:
        state: State[Any] = game.new_initial_state()
        decisions: list[int] = []
        history: list[Action] = []
        while not state.is_terminal():
            player = state.current_player()
            if player >= 0 and len(state.legal_actions()) > 1:
                decisions.append(len(history))
            action = state.sample_chance(rng) if player < 0 else rng.choice(state.legal_actions())
            state.apply_action(action)
            history.append(action)
        picks = sorted(rng.sample(decisions, min(count - len(found), len(decisions))))
        for pick in picks:
            while len(state.history()) > pick:
                state.undo_action()
            found.append(state.observation(state.current_player()))
    return found


# ----------------------------------------------------------------- observations only


def signatures(cls: type[Any]) -> dict[str, dict[str, str]]:
    """The annotations of ``cls``'s methods (and its bases' in tikigames), read from the source:
    a class compiled by mypyc keeps no ``__annotations__``."""
    found: dict[str, dict[str, str]] = {}
    for klass in reversed(cls.__mro__):
        module = sys.modules[klass.__module__]
        if not klass.__module__.startswith("tikigames") or klass.__module__ == "tikigames.core.bot":
            continue
        path = Path(__file__).parents[2] / "src" / Path(*klass.__module__.split("."))
        tree = ast.parse(path.with_suffix(".py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == klass.__name__:
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        args = item.args.args + item.args.kwonlyargs
                        hints = {a.arg: ast.unparse(a.annotation) for a in args if a.annotation}
                        if item.returns is not None:
                            hints["return"] = ast.unparse(item.returns)
                        found[item.name] = hints
        assert module is not None
    return found


@pytest.mark.parametrize("cls", [RandomBot, MCTSBot, ISMCTSBot])
def test_bots_take_observations_never_states(cls: type[Any]) -> None:
    methods = signatures(cls)
    assert methods["act"] == {"obs": "Observation[Any]", "rng": "random.Random", "return": "Action"}
    for name, hint in methods.get("__init__", {}).items():
        assert "State" not in hint, name
    assert isinstance(cls(), Bot)


# ----------------------------------------------------------------- legality and determinism


@pytest.mark.parametrize("name", tikigames.GAMES)
@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_search_returns_a_legal_action_reproducibly(name: str, cls: type[SearchBot]) -> None:
    game = tikigames.load(name)
    bot = cls(iterations=12, max_rollout=60)
    for index, obs in enumerate(positions(game, 3, seed=len(name))):
        action = bot.act(obs, random.Random(index))
        assert action in obs.legal_actions()
        assert type(action) is type(obs.legal_actions()[0])
        assert bot.act(obs, random.Random(index)) == action  # same rng seed, same choice


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_search_bots_are_deterministic_in_a_multiplayer_game(cls: type[SearchBot]) -> None:
    game = tikigames.load("tiki_topple", players=3)
    bots: list[Bot] = [cls(iterations=20), RandomBot(), cls(iterations=20)]
    first = tikigames.play(game, bots, seed=5)
    assert first.is_terminal()
    assert tikigames.play(game, bots, seed=5).history() == first.history()


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_a_forced_move_is_played_without_searching(
    cls: type[SearchBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tikigames.load("tiki_topple", players=2)
    rng = random.Random(1)
    state: State[Any] = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) > 1:
        player = state.current_player()
        state.apply_action(
            state.sample_chance(rng) if player < 0 else rng.choice(state.legal_actions())
        )
    monkeypatch.setattr(game, "resample", _fail)
    obs = state.observation(state.current_player())
    assert cls().act(obs, random.Random(0)) == obs.legal_actions()[0]


def _fail(*args: object) -> None:
    raise AssertionError("searched a forced move")


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_acting_out_of_turn_is_an_error(cls: type[SearchBot]) -> None:
    state = tikigames.load("tiki_topple").new_initial_state()
    with pytest.raises(ValueError, match="no legal action"):
        cls().act(state.observation(0), random.Random(0))


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_settings_are_checked(cls: type[SearchBot]) -> None:
    for bad in (
        {"iterations": 0},
        {"seconds": 0},
        {"seconds": -1.5},
        {"c": -1.0},
        {"c": float("inf")},
        {"max_rollout": -1},
        {"max_rollout": "auto"},
    ):
        with pytest.raises(ValueError):
            cls(**bad)
    # (A bool for iterations is refused by the pure build; a compiled build takes it as an
    # int at the call, as it does any bool for an int argument.)
    for wrong in (
        {"iterations": 2.5},
        {"seconds": "1"},
        {"c": "0.5"},
        {"max_rollout": 2.0},
    ):
        with pytest.raises(TypeError):
            cls(**wrong)
    bot = cls(iterations=5, seconds=None, c=0.3, max_rollout=None)
    assert bot == cls(iterations=5, c=0.3, max_rollout=None) and bot != cls()
    assert "iterations=5" in repr(bot)


def test_default_settings_are_the_documented_ones() -> None:
    assert (MCTSBot().iterations, MCTSBot().seconds, MCTSBot().c) == (1000, None, 1.4)
    assert (ISMCTSBot().iterations, ISMCTSBot().seconds, ISMCTSBot().c) == (1000, None, 0.7)
    assert MCTSBot().max_rollout == ISMCTSBot().max_rollout == "game"
    assert "max_rollout='game'" in repr(MCTSBot())


#: Each game's playout length before its guess (tuned at 50 ms a move: see the games' pages).
ROLLOUT_CAPS = {"paiko": 4, "tactik": 20, "tactiki": 0, "tiki_topple": 5}


@pytest.mark.parametrize("name", tikigames.GAMES)
@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_the_default_rollout_cap_is_the_games(name: str, cls: type[SearchBot]) -> None:
    game = tikigames.load(name)
    caps: list[int | None] = []

    class Recording(cls):  # type: ignore[valid-type,misc]
        def playout(self, state: State[Any], rng: random.Random, cap: int | None) -> Any:
            caps.append(cap)
            return super().playout(state, rng, cap)

    obs = positions(game, 1, seed=5)[0]
    Recording(iterations=5).act(obs, random.Random(0))
    Recording(iterations=5, max_rollout=7).act(obs, random.Random(0))
    Recording(iterations=5, max_rollout=None).act(obs, random.Random(0))
    assert caps == [game.rollout_cap] * 5 + [7] * 5 + [None] * 5
    assert cls().rollout_cap(game) == game.rollout_cap
    assert game.rollout_cap == ROLLOUT_CAPS[name]


# ----------------------------------------------------------------- budgets


def counting(cls: type[SearchBot]) -> tuple[type[SearchBot], list[int]]:
    """A subclass of ``cls`` that counts its playouts (one per iteration)."""
    calls = [0]

    class Counting(cls):  # type: ignore[valid-type,misc]
        def playout(self, state: State[Any], rng: random.Random, cap: int | None) -> Any:
            calls[0] += 1
            return super().playout(state, rng, cap)

    return Counting, calls


@pytest.mark.parametrize("name", tikigames.GAMES)
@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_an_iteration_budget_is_spent_exactly(name: str, cls: type[SearchBot]) -> None:
    bot_class, calls = counting(cls)
    obs = positions(tikigames.load(name), 1, seed=3)[0]
    bot_class(iterations=17, max_rollout=20).act(obs, random.Random(0))
    assert calls[0] == 17


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_a_time_budget_is_respected(cls: type[SearchBot]) -> None:
    bot_class, calls = counting(cls)
    obs = positions(tikigames.load("tiki_topple"), 1, seed=4)[0]
    bot = bot_class(iterations=1, seconds=0.25)  # the time budget rules: iterations is ignored
    start = time.perf_counter()
    action = bot.act(obs, random.Random(0))
    elapsed = time.perf_counter() - start
    assert action in obs.legal_actions()
    assert 0.25 <= elapsed < 1.5  # one iteration of slack, and a loaded machine
    assert calls[0] > 1


def test_rollouts_cut_short_are_worth_the_games_guess() -> None:
    state: State[Any] = tikigames.load("tactik", players=2).new_initial_state()
    rng = random.Random(2)
    returns, steps = rollout(state, rng, 300)
    assert steps == 300 and not state.is_terminal()
    assert returns == state.evaluate() and returns != [0.0, 0.0]


def test_rollouts_stop_at_the_cap_with_the_games_guess() -> None:
    state: State[Any] = tikigames.load("tiki_topple").new_initial_state()
    before = state.to_json()
    returns, steps = rollout(state, random.Random(0), 10)
    assert (returns, steps) == (state.evaluate(), 10) and len(state.history()) == 10
    for _ in range(steps):
        state.undo_action()
    assert state.to_json() == before
    returns, steps = rollout(state, random.Random(0), None)
    assert state.is_terminal() and returns == state.returns() and sorted(returns) == [-1, 1]


# ----------------------------------------------------------------- strength

#: Each game's smoke match against RandomBot: the search bot (MCTS for the perfect-information
#: game, IS-MCTS for the others), its iterations and rollout cap, and the number of games (seats
#: rotated). Small, for CI: the issue's benchmark is ``tikigames arena`` with 1000 iterations.
#: Tac-Tik is long (over a thousand actions at random) and costs most of this file's time.
STRENGTH: dict[str, tuple[type[SearchBot], int, RolloutCap, int]] = {
    "paiko": (MCTSBot, 30, GAME_CAP, 2),
    "tactik": (ISMCTSBot, 30, GAME_CAP, 2),
    "tactiki": (ISMCTSBot, 10, GAME_CAP, 2),
    "tiki_topple": (ISMCTSBot, 100, GAME_CAP, 4),
}
DEFAULT_STRENGTH: tuple[type[SearchBot], int, RolloutCap, int] = (ISMCTSBot, 20, GAME_CAP, 2)


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_a_search_bot_beats_random(name: str) -> None:
    cls, iterations, cap, games = STRENGTH.get(name, DEFAULT_STRENGTH)
    result = tikigames.arena(
        two_player(name),
        [cls(iterations=iterations, max_rollout=cap), RandomBot()],
        games=games,
        workers=2,
        seed=1,
        labels=["search", "random"],
    )
    assert result["search"].wins > result["random"].wins, result.table()


# ----------------------------------------------------------------- visit distributions
# ``policy`` and ``act_and_policy`` report what the search saw without changing what ``act``
# plays (seeded games and the arena depend on it).

#: What ``act`` chose before the bots could report a policy (``iterations=25,
#: max_rollout=30``, ``random.Random(i)`` at the ``i``-th of ``positions(game, 6, seed=7)``;
#: Tiki Topple's two- then three-player game): a search that draws differently fails here.
PINNED: dict[tuple[str, str], list[int]] = {
    ("paiko", "MCTSBot"): [1, 0, 4, 2, 6, 2],
    ("paiko", "ISMCTSBot"): [0, 3, 0, 6, 7, 3],
    ("tactik", "MCTSBot"): [607, 621, 621, 10936, 5, 621],
    ("tactik", "ISMCTSBot"): [621, 5, 607, 5, 5, 607],
    ("tactiki", "MCTSBot"): [64, 58, 53, 73, 52, 53],
    ("tactiki", "ISMCTSBot"): [64, 58, 53, 73, 52, 53],
    ("tiki_topple", "MCTSBot"): [36, 30, 2, 30, 10, 9, 15, 2, 2, 20, 4, 13],
    ("tiki_topple", "ISMCTSBot"): [36, 30, 2, 30, 10, 9, 15, 2, 2, 20, 4, 13],
}


def variants(name: str) -> list[tikigames.Game[Any]]:
    game = tikigames.load(name)
    return [game, tikigames.load(name, players=3)] if name == "tiki_topple" else [game]


@pytest.mark.parametrize("name", sorted({name for name, _ in PINNED}))
@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_act_is_unchanged_and_act_and_policy_agrees(name: str, cls: type[SearchBot]) -> None:
    # Pinned before game knowledge: the bots set to play as then (with a cap of 30).
    bot = cls(iterations=25, **before(name, cls, max_rollout=30))
    chosen: list[int] = []
    for game in variants(name):
        for index, obs in enumerate(positions(game, 6, seed=7)):
            plain, both, alone = random.Random(index), random.Random(index), random.Random(index)
            action = bot.act(obs, plain)
            again, policy = bot.act_and_policy(obs, both)
            assert again == action and type(again) is type(action)
            assert both.getstate() == plain.getstate()  # the same draws, no more
            assert bot.policy(obs, alone) == policy and alone.getstate() == plain.getstate()
            chosen.append(int(action))
    assert chosen == PINNED[name, cls.__name__]


@pytest.mark.parametrize("name", tikigames.GAMES)
@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_the_policy_is_a_distribution_over_the_legal_actions(
    name: str, cls: type[SearchBot]
) -> None:
    iterations = 40
    bot = cls(iterations=iterations, max_rollout=30)
    for index, obs in enumerate(positions(tikigames.load(name), 3, seed=11)):
        action, policy = bot.act_and_policy(obs, random.Random(index))
        legal = obs.legal_actions()
        assert list(policy) == legal  # every legal action, in order, and nothing else
        assert all(type(key) is type(legal[0]) for key in policy)
        assert all(0.0 <= share <= 1.0 for share in policy.values())
        assert sum(policy.values()) == pytest.approx(1.0, abs=1e-12)
        if cls is MCTSBot or all(each.hidden is None for each in legal):
            # Visit counts over the iterations, and the move played is the most visited.
            visits = [share * iterations for share in policy.values()]
            assert visits == pytest.approx([round(v) for v in visits], abs=1e-9)
            assert policy[action] == max(policy.values())


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_more_iterations_spread_over_more_actions(cls: type[SearchBot]) -> None:
    obs = positions(tikigames.load("tiki_topple"), 1, seed=2)[0]
    few = cls(iterations=3).policy(obs, random.Random(0))
    assert sum(share > 0 for share in few.values()) <= 3  # three iterations, three edges at most
    many = cls(iterations=200).policy(obs, random.Random(0))
    assert sum(share > 0 for share in many.values()) > 3


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_a_forced_move_has_all_the_weight_without_a_search(
    cls: type[SearchBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tikigames.load("tiki_topple", players=2)
    rng = random.Random(1)
    state: State[Any] = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) > 1:
        player = state.current_player()
        state.apply_action(
            state.sample_chance(rng) if player < 0 else rng.choice(state.legal_actions())
        )
    monkeypatch.setattr(game, "resample", _fail)
    monkeypatch.setattr(game, "resampler", _fail)
    obs = state.observation(state.current_player())
    seeded = random.Random(0)
    before = seeded.getstate()
    only = obs.legal_actions()[0]
    assert cls().act_and_policy(obs, seeded) == (only, {only: 1.0})
    assert seeded.getstate() == before


@pytest.mark.parametrize("cls", SEARCH_BOTS)
def test_a_policy_out_of_turn_is_an_error(cls: type[SearchBot]) -> None:
    state = tikigames.load("tiki_topple").new_initial_state()
    with pytest.raises(ValueError, match="no legal action"):
        cls().policy(state.observation(0), random.Random(0))


def test_a_time_budget_gives_a_distribution_too() -> None:
    obs = positions(tikigames.load("tiki_topple"), 1, seed=4)[0]
    action, policy = ISMCTSBot(seconds=0.05).act_and_policy(obs, random.Random(0))
    assert action in policy and sum(policy.values()) == pytest.approx(1.0)


def test_visit_distribution_normalises_and_falls_back_to_uniform() -> None:
    game = tikigames.load("tiki_topple")
    a, b = game.action(4), game.action(9)  # actions, as the function is typed (and compiled)
    assert visit_distribution([a, b], [3.0, 1.0]) == {a: 0.75, b: 0.25}
    assert visit_distribution([a, b], [0.0, 0.0]) == {a: 0.5, b: 0.5}

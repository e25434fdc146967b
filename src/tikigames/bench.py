"""The figures of ``tikigames bench``: how fast each game's engine runs on this machine.

A benchmark, not a test: nothing here asserts a speed. Each figure is measured on positions of
random games (chance outcomes drawn with their probabilities):

- ``playout_actions_per_s``: random playouts, counting ``legal_actions`` + ``apply_action``;
- ``apply_undo_pairs_per_s``: every legal action applied and undone at positions along games;
- ``clone_us``, ``observation_us``, ``resample_us``: one call, 50 actions into a game.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from tikigames.core.game import Game
from tikigames.core.state import State

__all__ = ["bench_game"]

_INTO_GAME = 50


def _playouts(game: Game[Any, Any, Any], rng: random.Random, seconds: float) -> tuple[float, float]:
    """Actions/s over whole random games, and the mean game length."""
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, actions / max(games, 1)


def _positions(
    game: Game[Any, Any, Any], rng: random.Random, count: int
) -> list[State[Any, Any, Any]]:
    """``count`` positions sampled along random games."""
    positions: list[State[Any, Any, Any]] = []
    while len(positions) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(positions) < count:
            if rng.random() < 0.2:
                positions.append(state.clone())
            state.apply_unchecked(state.random_action(rng))
    return positions


def _apply_undo(game: Game[Any, Any, Any], rng: random.Random, seconds: float) -> float:
    positions = _positions(game, rng, 200)
    pairs = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for state in positions:
            for action in state.legal_actions():
                state.apply_action(action)
                state.undo_action()
            pairs += len(state.legal_actions())
    return pairs / (time.perf_counter() - start)


def _into_game(game: Game[Any, Any, Any], rng: random.Random) -> State[Any, Any, Any]:
    while True:
        state: State[Any, Any, Any] = game.new_initial_state()
        for _ in range(_INTO_GAME):
            if state.is_terminal():
                break
            state.apply_unchecked(state.random_action(rng))
        else:
            return state


def _per_call_us(call: Any, seconds: float) -> float:
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(10):
            call()
        calls += 10
    return (time.perf_counter() - start) / calls * 1e6


def bench_game(game: Game[Any, Any, Any], seconds: float = 2.0, seed: int = 0) -> dict[str, float]:
    """Measure ``game`` for about ``5 * seconds`` in all, and return the figures."""
    rng = random.Random(seed)
    actions_per_s, game_length = _playouts(game, rng, seconds)
    pairs_per_s = _apply_undo(game, rng, seconds)
    state = _into_game(game, rng)
    player = state.current_player()
    observer = player if player >= 0 else 0
    obs = state.observation(observer)
    return {
        "playout_actions_per_s": round(actions_per_s),
        "mean_game_length": round(game_length, 1),
        "apply_undo_pairs_per_s": round(pairs_per_s),
        "clone_us": round(_per_call_us(state.clone, seconds / 3), 2),
        "observation_us": round(_per_call_us(lambda: state.observation(observer), seconds / 3), 2),
        "resample_us": round(_per_call_us(lambda: game.resample(obs, rng), seconds / 3), 2),
    }

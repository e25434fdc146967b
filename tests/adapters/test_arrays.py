"""The adapters' arrays: the same values as ``obs.tensor()``, as float32, in every game."""

from __future__ import annotations

import random

import pytest

import tikigames

np = pytest.importorskip("numpy")
from tikigames.adapters.arrays import tensor_array, write_tensor  # noqa: E402


@pytest.mark.parametrize("name", ["tiki_topple", "tactiki", "tactik", "paiko"])
def test_arrays_hold_the_tensor(name: str) -> None:
    game = tikigames.load(name)
    rng = random.Random(4)
    state = game.new_initial_state()
    size = game.observation_tensor_shape()[0]
    buffer = np.full(size, 7.0, np.float32)  # whatever it held is overwritten
    for _ in range(60):
        if state.is_terminal():
            break
        for seat in range(game.num_players):
            obs = state.observation(seat)
            expected = np.array(obs.tensor(), np.float32)
            values = tensor_array(obs)
            assert values.dtype == np.float32 and values.shape == (size,)
            assert np.array_equal(values, expected)
            write_tensor(obs, buffer)
            assert np.array_equal(buffer, expected)
        state.apply_unchecked(state.random_action(rng))

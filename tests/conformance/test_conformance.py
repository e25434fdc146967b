"""The contract every registered game passes (docs: Concepts), through the public conformance suite
:func:`tikigames.testing.check_game`, on every game and option set of ``configs.py``; plus what
the library promises beyond the general contract (returns are −1, 0 or +1; the guess of
``evaluate`` lies in [−1, 1])."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tikigames
from tikigames.testing import PROPERTIES, check_game, walk

from .configs import CASES, max_steps


@pytest.mark.parametrize("prop", [*PROPERTIES, "whole_game"])
@pytest.mark.parametrize(("name", "options"), CASES)
def test_conformance(name: str, options: dict[str, Any], prop: str) -> None:
    check_game(tikigames.load(name, **options), max_steps=max_steps(name), properties=[prop])


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=st.lists(st.integers(0, 2**20), max_size=400))
def test_returns_are_wins_and_losses_and_guesses_bounded(
    name: str, options: dict[str, Any], picks: list[int]
) -> None:
    for state in walk(tikigames.load(name, **options), picks, max_steps(name)):
        assert set(state.returns()) <= {-1.0, 0.0, 1.0}
        assert all(-1.0 <= value <= 1.0 for value in state.evaluate())

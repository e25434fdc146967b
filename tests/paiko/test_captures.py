"""What an action captured, as the state records it (``captures``, ``capturing``) and an
observation carries it for the pictures; and the result in Paikō's words (``result_text``)."""

from __future__ import annotations

import random

import pytest

import tikigames
from tikigames.paiko import PaikoState
from tikigames.paiko.data import SQUARE_NAMES
from tikigames.paiko.observation import LOOK_BACK

Tile = tuple[str, int, str, str]


def board_captures(before: list[Tile], after: list[Tile], source: str | None) -> list[Tile]:
    """The tiles on the board before an action and gone after it, but the one it moved."""
    left = {tile[0] for tile in after}
    return [tile for tile in before if tile[0] not in left and tile[0] != source]


def random_game(seed: int) -> PaikoState:
    """A random game, board actions preferred so that it captures often."""
    state = tikigames.load("paiko").new_initial_state()
    assert isinstance(state, PaikoState)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        busy = [a for a in legal if a.kind in (2, 3, 4, 5)]
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.9 else legal))
    return state


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_captures_are_the_tiles_the_action_removed(seed: int) -> None:
    final = random_game(seed)
    replay = final.game.new_initial_state()
    assert isinstance(replay, PaikoState)
    capturing = []
    for index, action in enumerate(final.history()):
        before = replay.board()
        replay.apply_action(action)
        source = action.src
        expected = board_captures(
            before, replay.board(), SQUARE_NAMES[source] if source >= 0 else None
        )
        assert replay.captures() == expected == final.captures(index)
        assert replay.captures(index) == expected
        if expected:
            capturing.append(index)
    assert final.capturing() == capturing
    assert capturing, "the game captured nothing: pick another seed"
    assert final.capturing(capturing[-1]) == capturing[-1:]
    assert final.capturing(final.move_number()) == []


def test_captures_of_no_action_raise() -> None:
    state = tikigames.load("paiko").new_initial_state()
    assert isinstance(state, PaikoState)
    with pytest.raises(IndexError):
        state.captures()


@pytest.mark.parametrize("seed", [0, 3])
def test_undo_forgets_the_captures(seed: int) -> None:
    final = random_game(seed)
    state = final.clone()
    while state.history():
        state.undo_action()
        assert all(i < state.move_number() for i in state.capturing())
    assert state.capturing() == []


@pytest.mark.parametrize("seed", [0, 1])
def test_observations_carry_recent_captures_outside_json(seed: int) -> None:
    final = random_game(seed)
    game = final.game
    state = game.new_initial_state()
    for action in final.history():
        state.apply_action(action)
        assert isinstance(state, PaikoState)
        since = state.move_number() - 1 - 2 * LOOK_BACK
        expected = tuple((i, tuple(state.captures(i))) for i in state.capturing(since))
        obs = state.observation(0)
        assert obs.captures == expected
        data = obs.to_json()
        assert "captures" not in data
        if expected and state.move_number() % 7 == 0:
            loaded = game.observation_from_json(data)
            assert loaded == obs and loaded.captures == obs.captures


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_result_text_in_paikos_words(seed: int) -> None:
    final = random_game(seed)
    winner = final.winner()
    expected = "a draw" if winner is None else ("White wins", "Black wins")[winner]
    assert final.result_text() == expected
    assert expected in str(final)
    final.undo_action()
    assert final.result_text() is None

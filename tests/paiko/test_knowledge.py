"""Paikō's knowledge for the search bots: ``PaikoState.rollout_action`` (the playout policy),
``PaikoState.evaluate`` (the guess at a cut playout) and ``Paiko.rollout_cap``.

Heuristics for search bots, not rules: these tests hold them to their contract — a legal action,
drawn only from the ``rng`` and deterministic for its state, the position left as it was; a
guess in [−1, 1] that is the returns once the game is over — and to what they are for: the
policy captures when a deploy captures, a deployed Sai that captures stays, and its playouts
capture and score more than uniform ones. How much stronger a bot plays is measured by
benchmarks (``/work/notes/duel.py``-style matches), not here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import tikigames
from tikigames.paiko import PaikoState
from tikigames.paiko.actions import DEPLOY

CONFIGS: list[dict[str, Any]] = [
    {},
    {"move_limit": 1, "draw_exact": True},
    {"move_limit": None},
]


def positions(seed: int, options: dict[str, Any], every: int = 1) -> Iterator[PaikoState]:
    """Every ``every``-th position of a random game (board actions preferred, so that it
    reaches crowded positions, captures, picks and Sai follow-ups), as a fresh clone."""
    state = tikigames.load("paiko", **options).new_initial_state()
    assert isinstance(state, PaikoState)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state.clone()
        legal = state.legal_actions()
        busy = [a for a in legal if a.kind in (2, 3, 4, 5)]
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.9 else legal))
        step += 1


def new_state() -> PaikoState:
    state = tikigames.load("paiko").new_initial_state()
    assert isinstance(state, PaikoState)
    return state


def play(state: PaikoState, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.parse_action(text))


@pytest.mark.parametrize(("seed", "options"), [(seed, CONFIGS[seed % 3]) for seed in range(6)])
def test_rollout_action_is_legal_deterministic_and_changes_nothing(
    seed: int, options: dict[str, Any]
) -> None:
    """In every phase, with and without a cached legal list: a legal action (the table's
    object), the same one and the same rng state from the same seed, the position unchanged."""
    table = tikigames.load("paiko", **options).action_table
    phases: set[str] = set()
    for k, state in enumerate(positions(seed, options)):
        phases.add(state.phase())
        probe = state.clone()
        if k % 2:
            probe.legal_actions()  # cached, as at a node of the tree
        first, second = random.Random(k), random.Random(k)
        action = probe.rollout_action(first)
        assert probe.rollout_action(second) is action
        assert first.getstate() == second.getstate()
        assert action in state.legal_actions() and table.actions[int(action)] is action
        assert probe == state
    assert {"draft", "play"} <= phases


def test_rollout_action_plays_whole_games() -> None:
    """Playouts by the policy alone reach the end without an illegal action or an error."""
    for seed in range(8):
        state = new_state()
        rng = random.Random(seed)
        while not state.is_terminal() and state.move_number() < 2000:
            action = state.rollout_action(rng)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.is_terminal()


def capture_ready(seed: int) -> Iterator[PaikoState]:
    """The positions of random games where the mover has a capturing deploy of a tile other
    than a Sai (whose capture waits for its follow-up)."""
    for state in positions(seed, {}, every=2):
        if state.phase() != "play":
            continue
        for action in state.legal_actions():
            if action.kind == DEPLOY and action.tile != 0:
                state.apply_action(action)
                captured = bool(state.captures())
                state.undo_action()
                if captured:
                    yield state
                    break


def test_rollout_action_takes_a_capturing_deploy() -> None:
    """Whenever a deploy of the hand captures, the policy captures (by that deploy or another
    capturing action), whatever the rng."""
    found = 0
    for seed in range(4):
        for state in capture_ready(seed):
            found += 1
            for k in range(3):
                probe = state.clone()
                probe.apply_action(probe.rollout_action(random.Random(k)))
                assert probe.captures(), state.history()[-3:]
    assert found >= 10


def test_a_deployed_sai_that_captures_stays() -> None:
    """After a Sai's deploy whose ``stay`` captures, the policy stays, whatever the rng."""
    found = 0
    for seed in range(4):
        for state in positions(seed, {}, every=2):
            if state.phase() != "play":
                continue
            for action in state.legal_actions():
                if action.kind != DEPLOY or action.tile != 0:
                    continue
                state.apply_action(action)
                stay = state.parse_action("stay")
                state.apply_action(stay)
                captured = bool(state.captures())
                state.undo_action()
                if captured:
                    found += 1
                    for k in range(3):
                        assert state.rollout_action(random.Random(k)) == stay
                state.undo_action()
    assert found >= 3


def test_policy_playouts_capture_more_than_uniform_ones() -> None:
    """Over the same positions and seeds, 12-action playouts by the policy capture many more
    tiles than uniform playouts do (354 against 22 when written): a deterministic check of the
    heuristic's direction, not a strength benchmark."""
    captured = {"policy": 0, "uniform": 0}
    for k, state in enumerate(positions(7, {}, every=6)):
        if state.phase() != "play":
            continue
        for name in captured:
            probe = state.clone()
            rng = random.Random(k)
            lost = sum(probe.lost())
            for _ in range(12):
                if probe.is_terminal():
                    break
                draw = probe.rollout_action if name == "policy" else probe.random_action
                probe.apply_unchecked(draw(rng))
            captured[name] += sum(probe.lost()) - lost
    assert captured["policy"] > 3 * captured["uniform"]


def test_evaluate_is_a_bounded_guess_and_the_returns_at_the_end() -> None:
    for seed in range(6):
        for state in positions(seed, CONFIGS[seed % 3], every=3):
            guess = state.evaluate()
            assert len(guess) == 2 and all(-1.0 <= v <= 1.0 for v in guess)
            assert guess[0] == -guess[1]
        state = new_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_unchecked(state.rollout_action(rng))
        assert state.evaluate() == state.returns()


def test_evaluate_prefers_the_player_with_the_points() -> None:
    state = new_state()
    play(state, *["draft sword"] * 3, *["draft sai"] * 3, "draft fire")
    play(state, *["draft sword"] * 3, *["draft bow"] * 3, *["draft earth"] * 3, "draft water")
    play(state, "sword@d7:N", "sword@i8:N", "d7-d9:N")  # White's Sword in the middleground
    assert state.scores() == [1, 0]
    white, black = state.evaluate()
    assert 0 < white < 1 and black == -white


def test_the_search_settings() -> None:
    """A short rollout cap, and progressive widening (about 260 actions a move)."""
    game = tikigames.load("paiko")
    assert game.rollout_cap is not None and 0 < game.rollout_cap <= 20
    assert game.widening is not None and game.widening > 0

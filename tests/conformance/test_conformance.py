"""The contract every registered game passes (DESIGN.md), over random action sequences.

Each test draws a game configuration and a random walk (a list of choice indices; chance nodes
draw from the walk too) with hypothesis, then checks one property along the walk.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tikigames
from tikigames import (
    ActionError,
    IllegalActionError,
    InvalidStateError,
    UndoError,
)
from tikigames.bots import RandomBot

from .configs import CONFIGS, DEFAULT_MAX_STEPS, MAX_STEPS

CASES = [
    pytest.param(name, options, id=f"{name}-{index}")
    for name in tikigames.GAMES
    for index, options in enumerate(CONFIGS.get(name, [{}]))
]

choices = st.lists(st.integers(0, 2**20), min_size=0, max_size=400)


def walk(name: str, options: dict[str, Any], picks: list[int]) -> list[tikigames.State[Any]]:
    """The states along a random walk (the initial state first), each an independent clone."""
    game = tikigames.load(name, **options)
    state = game.new_initial_state()
    states = [state.clone()]
    for pick in picks[: MAX_STEPS.get(name, DEFAULT_MAX_STEPS)]:
        legal = state.legal_actions()
        if not legal:
            break
        state.apply_action(legal[pick % len(legal)])
        states.append(state.clone())
    return states


def final(name: str, options: dict[str, Any], picks: list[int]) -> tikigames.State[Any]:
    return walk(name, options, picks)[-1]


def seats(state: tikigames.State[Any]) -> list[int | None]:
    return [*range(state.game.num_players), None]


def snapshot(state: tikigames.State[Any]) -> tuple[Any, ...]:
    return (
        state.history(),
        hash(state),
        json.dumps(state.to_json()),
        [state.observation(p) for p in seats(state)],
        [json.dumps(state.observation(p).to_json()) for p in seats(state)],
        state.legal_actions(),
        state.current_player(),
    )


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_legal_actions_and_chance(name: str, options: dict[str, Any], picks: list[int]) -> None:
    for state in walk(name, options, picks):
        legal = state.legal_actions()
        assert legal == sorted(legal)
        assert len(set(legal)) == len(legal)
        assert bool(legal) == (not state.is_terminal())
        assert all(0 <= a < state.game.num_distinct_actions for a in legal)
        assert all(state.game.action(int(a)) is a for a in legal)
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert all(p > 0 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        else:
            assert state.chance_outcomes() == []
            assert state.is_terminal() == (player == tikigames.TERMINAL)
            if not state.is_terminal():
                assert 0 <= player < state.game.num_players
        if not state.is_terminal():
            assert state.returns() == [0.0] * state.game.num_players
        else:
            returns = state.returns()
            assert set(returns) <= {-1.0, 0.0, 1.0}
            assert len(returns) == state.game.num_players


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices, data=st.data())
def test_illegal_and_invalid_actions_change_nothing(
    name: str, options: dict[str, Any], picks: list[int], data: st.DataObject
) -> None:
    state = final(name, options, picks)
    before = snapshot(state)
    legal = set(state.legal_actions())
    n = state.game.num_distinct_actions
    illegal = [a for a in range(n) if a not in legal]
    for action in data.draw(st.lists(st.sampled_from(illegal), max_size=5)) if illegal else []:
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
        with pytest.raises(IllegalActionError):
            state.parse_action(str(state.game.action(action)))
    for bad in (-1, n, n + 7, "0", 1.0, None, True, [0]):
        with pytest.raises(ActionError) as raised:
            state.apply_action(bad)  # type: ignore[arg-type]
        assert not isinstance(raised.value, IllegalActionError)
    for text in ("", "   ", "no such action", "🙂", "?", "x" * 10_000):
        with pytest.raises(ActionError):
            state.parse_action(text)
    assert snapshot(state) == before


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_apply_undo_restores_everything(
    name: str, options: dict[str, Any], picks: list[int]
) -> None:
    states = walk(name, options, picks)
    state = states[-1]
    history = state.history()
    for earlier in reversed(states[:-1]):
        expected = snapshot(earlier)
        action = state.undo_action()
        assert action is history.pop()
        assert state == earlier
        assert snapshot(state) == expected
    with pytest.raises(UndoError):
        state.undo_action()
    with pytest.raises(IndexError):
        state.undo_action()
    # Undo then redo every legal action of a few positions.
    for earlier in states[:: max(1, len(states) // 5)]:
        expected = snapshot(earlier)
        for action in earlier.legal_actions()[:40]:
            earlier.apply_action(action)
            earlier.undo_action()
        assert snapshot(earlier) == expected


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_clones_are_independent(name: str, options: dict[str, Any], picks: list[int]) -> None:
    state = final(name, options, picks)
    copy = state.clone()
    assert copy == state and hash(copy) == hash(state)
    assert copy.history() == state.history()
    before = snapshot(state)
    if copy.legal_actions():
        copy.apply_action(copy.legal_actions()[-1])
        assert copy != state
        assert len(copy.history()) == len(state.history()) + 1
    if copy.history():
        copy.undo_action()
        if copy.history():
            copy.undo_action()
    assert snapshot(state) == before


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_state_changes_with_each_action(
    name: str, options: dict[str, Any], picks: list[int]
) -> None:
    states = walk(name, options, picks)
    for before, after in itertools.pairwise(states):
        assert before != after
        assert len(after.observation(None).history) == len(after.history())
        for p in seats(after):
            assert len(after.observation(p).history) == len(after.history())


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_json_round_trips(name: str, options: dict[str, Any], picks: list[int]) -> None:
    state = final(name, options, picks)
    data = json.loads(json.dumps(state.to_json()))
    assert data["format"] == "tikigames/1" and data["game"] == name
    assert data["options"] == state.game.options
    loaded = tikigames.state_from_json(data)
    assert loaded == state and loaded.history() == state.history()
    assert state.game.state_from_json(data) == state
    for p in seats(state):
        obs = state.observation(p)
        obs_data = json.loads(json.dumps(obs.to_json()))
        assert obs_data["format"] == "tikigames-obs/1" and obs_data["player"] == p
        back = state.game.observation_from_json(obs_data)
        assert back == obs and hash(back) == hash(obs)
        assert back.to_json() == obs.to_json()
        assert str(back) == str(obs)
    # A loaded state can be undone to the start.
    while loaded.history():
        loaded.undo_action()
    assert loaded == state.game.new_initial_state()


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices, data=st.data())
def test_bad_json_raises_invalid_state(
    name: str, options: dict[str, Any], picks: list[int], data: st.DataObject
) -> None:
    state = final(name, options, picks)
    good = state.to_json()
    bad_cases: list[Any] = [
        None, [], "x", {**good, "format": "tikigames/2"}, {**good, "game": "chess"},
        {**good, "history": "e2e4"}, {**good, "history": [1, 2]}, {**good, "extra": 1},
        {**good, "options": {"no_such_option": 1}}, {**good, "options": []},
        {**good, "history": good["history"] + ["not an action"]},
        {**good, "history": ["x"] * 100_001},
    ]  # fmt: skip
    if good["history"]:
        cut = data.draw(st.integers(0, len(good["history"]) - 1))
        history = list(good["history"])
        history[cut] = history[cut] + " zz"
        bad_cases.append({**good, "history": history})
    if not state.is_terminal():
        illegal = [str(a) for a in state.game.actions() if a not in set(state.legal_actions())][:3]
        bad_cases += [{**good, "history": good["history"] + [text]} for text in illegal]
    else:
        bad_cases.append({**good, "history": good["history"] + [good["history"][-1]]})
    for bad in bad_cases:
        with pytest.raises(InvalidStateError):
            tikigames.state_from_json(bad)
        with pytest.raises(InvalidStateError):
            state.game.state_from_json(bad)
    obs = state.observation(0).to_json()
    bad_obs: list[Any] = [
        None, {**obs, "format": "x"}, {**obs, "player": 99}, {**obs, "player": True},
        {**obs, "history": obs["history"] + ["nonsense"]}, {**obs, "unknown": 1},
        {key: value for key, value in obs.items() if key != "history"},
        {**obs, "current_player": "me"},
    ]  # fmt: skip
    for field in obs:
        if field not in ("format", "game", "options", "player", "history"):
            bad_obs.append({**obs, field: {"not": "valid"}})
    for bad in bad_obs:
        with pytest.raises(InvalidStateError):
            state.game.observation_from_json(bad)


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices, seed=st.integers(0, 2**32))
def test_resample_is_consistent_and_hides_nothing(
    name: str, options: dict[str, Any], picks: list[int], seed: int
) -> None:
    state = final(name, options, picks)
    rng = random.Random(seed)
    for p in seats(state):
        obs = state.observation(p)
        for _ in range(3):
            sample = state.game.resample(obs, rng)
            assert sample is not state
            again = sample.observation(p)
            # The observation depends only on what p knows: a resampled state (which varies
            # what p cannot see) gives p exactly the same observation, text and JSON.
            assert again == obs and hash(again) == hash(obs)
            assert again.to_json() == obs.to_json()
            assert str(again) == str(obs)
            assert again.legal_actions() == obs.legal_actions()
            assert len(sample.history()) == len(state.history())
    with pytest.raises(InvalidStateError):
        state.game.resample("not an observation", rng)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices, seed=st.integers(0, 2**32))
def test_resampler_draws_are_consistent_and_independent_states(
    name: str, options: dict[str, Any], picks: list[int], seed: int
) -> None:
    """``game.resampler(obs)`` draws states like ``resample``'s: consistent with ``obs``, and
    each one the caller's own — playing on (and undoing) one changes no other draw."""
    state = final(name, options, picks)
    game = state.game
    rng = random.Random(seed)
    for p in seats(state):
        obs = state.observation(p)
        draw = game.resampler(obs)
        first = draw(rng)
        before = snapshot(first)
        for _ in range(2):
            sample = draw(rng)
            assert sample is not first
            assert sample.observation(p) == obs and str(sample.observation(p)) == str(obs)
            legal = sample.legal_actions()
            if legal:
                sample.apply_action(legal[rng.randrange(len(legal))])
                assert snapshot(first) == before
                sample.undo_action()
            while sample.history():  # the whole history undoes, shared past included
                sample.undo_action()
            assert sample == game.new_initial_state()
            assert snapshot(first) == before
    with pytest.raises(InvalidStateError):
        game.resampler("not an observation")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.resampler(state.observation(None))(1)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_evaluate_is_a_bounded_guess_and_the_returns_at_the_end(
    name: str, options: dict[str, Any], picks: list[int]
) -> None:
    for state in walk(name, options, picks):
        guess = state.evaluate()
        assert len(guess) == state.game.num_players
        assert all(isinstance(value, float) and -1.0 <= value <= 1.0 for value in guess)
        if state.is_terminal():
            assert guess == state.returns()
    for _ in range(len(state.history())):  # undo restores the guess with the position
        guess = state.evaluate()
        action = state.undo_action()
        state.apply_action(action)
        assert state.evaluate() == guess
        state.undo_action()


@pytest.mark.parametrize(("name", "options"), CASES)
def test_resample_varies_hidden_parts(name: str, options: dict[str, Any]) -> None:
    """Over a random game, resampling the observations that contain hidden parts gives states
    other than the true one (an observation that pinned the hidden parts down would leak)."""
    rng = random.Random(7)
    game = tikigames.load(name, **options)
    state = game.new_initial_state()
    hidden_seen = varied = 0
    for _ in range(MAX_STEPS.get(name, DEFAULT_MAX_STEPS)):
        if state.is_terminal():
            break
        for p in seats(state):
            obs = state.observation(p)
            if any("?" in text for text in obs.history):
                hidden_seen += 1
                samples = {tuple(game.resample(obs, rng).history()) for _ in range(5)}
                varied += len(samples) > 1 or samples != {tuple(state.history())}
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    if hidden_seen:
        assert varied >= hidden_seen * 0.5
    else:
        assert all(game.resample(state.observation(p), rng) == state for p in seats(state))


@pytest.mark.parametrize(("name", "options"), CASES)
@given(seed=st.integers(0, 2**32))
def test_seeded_play_is_deterministic(name: str, options: dict[str, Any], seed: int) -> None:
    game = tikigames.load(name, **options)
    bots = [RandomBot() for _ in range(game.num_players)]
    limit = MAX_STEPS.get(name, DEFAULT_MAX_STEPS)
    first = tikigames.play(game, bots, seed=seed, max_actions=limit)
    second = tikigames.play(game, bots, seed=seed, max_actions=limit)
    assert first.history() == second.history()
    assert first == second
    assert first.is_terminal() or len(first.history()) == limit


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_notation_round_trips(name: str, options: dict[str, Any], picks: list[int]) -> None:
    state = final(name, options, picks)
    for action in state.legal_actions():
        text = str(action)
        assert state.parse_action(text) is action
        assert state.parse_action(f"  {text.upper()}  ") is action
        assert state.action_to_string(action) == text
        assert state.action_to_string(int(action), None) == text
        for p in range(state.game.num_players):
            seen = state.action_to_string(action, p)
            assert seen == text or "?" in seen


@pytest.mark.parametrize(("name", "options"), CASES)
def test_every_table_entry_parses_back(name: str, options: dict[str, Any]) -> None:
    game = tikigames.load(name, **options)
    assert game.num_distinct_actions == len(game.actions())
    for index, action in enumerate(game.actions()):
        assert int(action) == index and game.action(index) is action
        assert game.action_table.parse(str(action)) is action
        assert game.action_table.parse(str(action).upper()) is action


@pytest.mark.parametrize(("name", "options"), CASES)
@given(picks=choices)
def test_pickle_round_trips(name: str, options: dict[str, Any], picks: list[int]) -> None:
    state = final(name, options, picks)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.history() == state.history()
    assert pickle.loads(pickle.dumps(state.game)) == state.game
    for p in seats(state):
        obs = state.observation(p)
        assert pickle.loads(pickle.dumps(obs)) == obs
    if copy.history():
        copy.undo_action()
        state.undo_action()
        assert copy == state


@pytest.mark.parametrize(("name", "options"), CASES)
def test_observation_rejects_bad_players(name: str, options: dict[str, Any]) -> None:
    state = tikigames.load(name, **options).new_initial_state()
    for bad in (-1, state.game.num_players, "0", 1.5, True):
        with pytest.raises(ValueError):
            state.observation(bad)  # type: ignore[arg-type]

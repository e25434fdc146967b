"""What each player knows (Paikō hides nothing): the observation's fields, its JSON round
trip and the refusal of forged ones, resampling (the observed state itself), pickles, and the
readable renderings."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

import tikigames
from tikigames import InvalidStateError
from tikigames.paiko import PaikoObservation, PaikoState

DRAFT = [f"draft {t}" for t in ("sword", "sword", "sai", "earth", "water", "fire", "bow")]
DRAFT += [f"draft {t}" for t in ("sword", "bow", "bow", "fire", "sai", "water", "lotus", "air")]
DRAFT += ["draft earth", "draft sai"]
# White's Sai is deployed on i7 facing Black's Fire on j7 (which the Sai will capture).
FOLLOW_UP = [*DRAFT, "sword@g6:N", "bow@j9:S", "sword@h6:N", "fire@j7:S", "sai@i7:E"]


def play(texts: list[str], **options: Any) -> PaikoState:
    state = tikigames.load("paiko", **options).new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    assert isinstance(state, PaikoState)
    return state


def test_observation_fields_during_a_follow_up() -> None:
    state = play(FOLLOW_UP)
    obs = state.observation(0)
    assert isinstance(obs, PaikoObservation)
    assert obs.phase == "follow-up" and obs.pending_sai == "i7" and obs.current_player == 0
    # In square order: reading order as White sees the board.
    assert obs.board == (
        ("j9", 1, "bow", "S"), ("i7", 0, "sai", "E"), ("j7", 1, "fire", "S"),
        ("g6", 0, "sword", "N"), ("h6", 0, "sword", "N"),
    )  # fmt: skip
    assert obs.hands[0] == ("sai", "bow", "fire", "earth", "water")
    assert obs.reserves[0] == (
        "sai", "sword", "bow", "bow", "lotus", "lotus", "lotus", "air", "air", "air", "fire",
        "fire", "earth", "earth", "water", "water",
    )  # fmt: skip
    assert obs.lost == (0, 0) and obs.scores == (2, 1) and obs.turn == 4 and obs.passes == 0
    assert obs.last_moved == ((None, 0), (None, 0)) and obs.picks == 0 and obs.winner is None
    assert obs.history == tuple(FOLLOW_UP)
    assert [a.text for a in obs.legal_actions()] == [a.text for a in state.legal_actions()]
    # Everything is public: the other seat and a spectator see the same, but their legal actions.
    for other in (state.observation(1), state.observation(None)):
        assert other.to_json() | {"player": 0} == obs.to_json()
        assert other.legal_actions() == []


def test_observation_fields_during_the_picks() -> None:
    state = play([*FOLLOW_UP, "stay"])
    obs = state.observation(1)
    assert obs.phase == "picks" and obs.picks == 1 and obs.current_player == 1
    assert obs.lost == (0, 1) and obs.scores == (2, 0) and obs.pending_sai is None
    assert {a.text for a in obs.legal_actions()} == {f"give {t}" for t in set(obs.reserves[0])}
    assert "Black picks a tile of White's reserve for White (1 left)" in str(obs)
    assert str(obs).splitlines()[0].endswith("you are Black")


def test_nothing_is_hidden() -> None:
    game = tikigames.load("paiko")
    assert all(a.hidden is None for a in game.actions())
    state = game.new_initial_state()
    for player in (0, 1, None):
        assert state.action_to_string(0, player) == "draft sai"


def test_json_round_trips_and_bad_observations() -> None:
    state = play([*FOLLOW_UP, "stay", "give fire", "j9-j10:S"])
    data = json.loads(json.dumps(state.to_json()))
    assert data["history"][-1] == "j9-j10:S" and "position" in data
    assert tikigames.state_from_json(data) == state
    obs = state.observation(0)
    obs_data = json.loads(json.dumps(obs.to_json()))
    assert obs_data["board"][0] == ["j10", 1, "bow", "S"]
    assert state.game.observation_from_json(obs_data) == obs
    for field, value in (("scores", [1, 9]), ("phase", "over"), ("lost", [0, 0]), ("turn", 3)):
        with pytest.raises(InvalidStateError, match=field):
            state.game.observation_from_json({**obs_data, field: value})
    with pytest.raises(InvalidStateError):
        state.game.observation_from_json({**obs_data, "history": obs_data["history"][:-1]})


def test_resample_returns_the_state() -> None:
    state = play([*FOLLOW_UP, "stay"])
    rng = random.Random(3)
    for player in (0, 1, None):
        sample = state.game.resample(state.observation(player), rng)
        assert sample == state and sample is not state and sample.history() == state.history()


def test_deep_positions_round_trip() -> None:
    """JSON, observations, resampling and pickling late in random games, where captures,
    picks and follow-ups have happened (the conformance walks stay shorter)."""
    game = tikigames.load("paiko", move_limit=2)
    rng = random.Random(11)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            if len(state.history()) % 97 == 0 or state.is_terminal():
                assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
                for player in (0, 1, None):
                    obs = state.observation(player)
                    data = json.loads(json.dumps(obs.to_json()))
                    assert game.observation_from_json(data) == obs
                    assert game.resample(obs, rng) == state
                assert pickle.loads(pickle.dumps(state)) == state
                checked += 1
        forged = state.observation(0).to_json()
        forged["history"] = [*forged["history"][:-1], "pass"]
        with pytest.raises(InvalidStateError):
            game.observation_from_json(forged)
    assert checked >= 6


def test_pickle() -> None:
    state = play(FOLLOW_UP)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.legal_actions() == state.legal_actions()
    copy.apply_action(copy.parse_action("stay"))
    assert copy != state


def test_rendering() -> None:
    state = play(FOLLOW_UP)
    text = str(state)
    lines = text.splitlines()
    assert lines[0] == "Turn 5: White's Sai on i7 may shift or turn (or stay)"
    assert lines[1].split() == list("abcdefghijklmn")
    # The diamond: rank 14 has 2 squares, rank 8 has 14 with h8 black; the quarters are named
    # in the corners.
    assert lines[2].split() == ["14", "middleground", ".", "|", ".", "Black's", "14"]
    assert lines[3].split() == ["13", "(west)", ".", ".", "|", ".", ".", "homeground", "13"]
    assert lines[15].split() == ["2", "White's", ".", ".", "|", ".", ".", "middleground", "2"]
    assert lines[16].split() == ["1", "homeground", ".", "|", ".", "(east)", "1"]
    # Rank 7: g7 is black, then White's Sai facing E on i7 and Black's Fire facing S on j7.
    assert " 7  .  .  .  .  .  .  #  | .  S> fv .  .  .  .   7" in lines
    assert " 6     .  .  .  .  .  X  | X  #  .  .  .  .      6" in lines
    assert "White: 2 points of the 10 that win, 0 tiles lost to captures" in text
    assert "Black: 1 point of the 10 that win, 0 tiles lost to captures" in text
    assert "1 in a middleground, 2 in the opponent's homeground, 0 at home" in text
    assert str(state.observation(None)).splitlines()[0].endswith("you are a spectator")
    assert state.to_json()["position"] == text

"""The public surface: options, observations, JSON, resampling, accessors, rendering, and
apply/undo over whole games."""

from __future__ import annotations

import json
import math
import pickle
import random
from typing import Any

import pytest

import tikigames
from tikigames import InvalidStateError, OptionError
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


def test_options() -> None:
    game = tikigames.load("paiko")
    assert game.options == {"max_turns": 1000, "move_limit": 3, "draw_exact": False}
    assert game.num_players == 2 and game.name == "paiko" and "paiko" in tikigames.GAMES
    unlimited = tikigames.load("paiko", max_turns=None, move_limit=None, draw_exact=True)
    assert unlimited.options == {"max_turns": None, "move_limit": None, "draw_exact": True}
    for bad in (
        {"max_turns": 0}, {"max_turns": True}, {"max_turns": 2.0}, {"move_limit": 0},
        {"move_limit": "3"}, {"draw_exact": 1}, {"draw_exact": None}, {"players": 2},
    ):  # fmt: skip
        with pytest.raises(OptionError, match=next(iter(bad)) if "players" not in bad else "no"):
            tikigames.load("paiko", **bad)


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


def test_accessors() -> None:
    state = play(FOLLOW_UP)
    assert state.tile_at("i7") == (0, "sai", "E") and state.tile_at(" J7 ") == (1, "fire", "S")
    assert state.tile_at("a7") is None
    assert state.threat(1, "j7") == 2 and state.cover(1, "j7") == 0
    assert state.threat(0, "j7") == 2  # Black's Bow on j9 (facing S) and the Fire itself
    assert state.cover(0, "a7") == 1 and state.cover(1, "a7") == 0  # homeground cover
    # The Sai on i7 faces E: it covers i8 and i6 (its left and right), not h7 behind it.
    assert state.cover(0, "i8") == 1 and state.cover(0, "h7") == 0
    assert state.scores() == [2, 1] and state.lost() == [0, 0]
    assert state.hand(1) == ["sai", "sword", "bow", "lotus", "air", "earth", "water"]
    for bad in ("a1", "o7", "", 7, None):
        with pytest.raises(ValueError):
            state.tile_at(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        state.threat(2, "a7")
    with pytest.raises(ValueError):
        state.hand(None)  # type: ignore[arg-type]


def test_rendering() -> None:
    state = play(FOLLOW_UP)
    text = str(state)
    lines = text.splitlines()
    assert lines[0] == "Turn 5: White's Sai on i7 may shift or turn (or stay)"
    assert lines[1].split() == list("abcdefghijklmn")
    # The diamond: rank 14 has 2 squares, rank 8 has 14 with h8 black.
    assert lines[2].split() == ["14", ".", "|", ".", "14"]
    # Rank 7: g7 is black, then White's Sai facing E on i7 and Black's Fire facing S on j7.
    assert " 7  .  .  .  .  .  .  #  | .  S> fv .  .  .  .   7" in lines
    assert " 6     .  .  .  .  .  X  | X  #  .  .  .  .      6" in lines
    assert "White: 2 points, 0 lost" in text and "Black: 1 point, 0 lost" in text
    assert str(state.observation(None)).splitlines()[0].endswith("you are a spectator")
    assert state.to_json()["position"] == text


def test_pickle() -> None:
    state = play(FOLLOW_UP)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.legal_actions() == state.legal_actions()
    copy.apply_action(copy.parse_action("stay"))
    assert copy != state


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_undo_exactly(seed: int) -> None:
    """Random games to the end: every undo restores the position, its hash and its JSON, and a
    clone taken on the way is untouched by what follows."""
    game = tikigames.load("paiko")
    state = game.new_initial_state()
    rng = random.Random(seed)
    keys = []
    while not state.is_terminal():
        keys.append((hash(state), state.to_json()["history"]))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        if len(keys) == 120:
            midway = state.clone()
            midway_json = midway.to_json()
    assert midway.to_json() == midway_json
    end = state.clone()
    for key in reversed(keys):
        state.undo_action()
        assert (hash(state), state.to_json()["history"]) == key
    assert state == game.new_initial_state()
    for action in end.history():
        state.apply_action(action)
    assert state == end


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


def test_evaluate_guesses_from_points_and_lost_tiles() -> None:
    """The guess is tanh((points lead + half the lost-tiles lead) / 6), antisymmetric, and the
    returns once the game is over."""
    game = tikigames.load("paiko")
    state = game.new_initial_state()
    assert state.evaluate() == [0.0, 0.0]
    rng = random.Random(3)
    seen_lead = False
    while not state.is_terminal():
        (s0, s1), (l0, l1) = state.scores(), state.lost()
        lead = math.tanh((s0 - s1 + (l1 - l0) / 2) / 6)
        assert state.evaluate() == pytest.approx([lead, -lead])
        seen_lead |= lead != 0
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert seen_lead
    assert state.evaluate() == state.returns()

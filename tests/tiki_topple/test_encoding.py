"""Tiki Topple's observation tensor: its shape per option set, the exact values of each plane on
positions reached through actions, that it carries no secret, and that it tells apart positions
whose legal actions differ."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

import tikigames
from tikigames.tiki_topple.actions import TikiToppleAction
from tikigames.tiki_topple.data import TIKIS
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.state import TikiToppleState

GROUP_LINE = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"
RULEBOOK_LINE = "line lokahi,akamai,nui,hookipa,kapu,eepo,nani,wikiwiki,huhu"
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"players": 3, "target_score": 20, "topple_bottom_allowed": False, "first_player": 2},
    {"players": 3, "rounds": 1, "tiebreak_rounds": 3},
    {"players": 4, "rounds": 1, "tiebreak_rounds": 2, "first_player": 3},
]


def play(state: TikiToppleState, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.parse_action(text))


def planes(obs: TikiToppleObservation) -> dict[str, list[float]]:
    layout = obs.game.observation_tensor_layout()
    values = obs.tensor()
    return {plane.name: layout.view(values, plane.name) for plane in layout.planes}


def one_hot(size: int, *indices: int) -> list[float]:
    values = [0.0] * size
    for index in indices:
        values[index] = 1.0
    return values


def line_plane(*names: str) -> list[float]:
    """The ``line`` plane of a line, top first: row = position, column = tiki id."""
    values = [0.0] * 81
    for position, name in enumerate(names):
        values[9 * position + TIKIS.index(name)] = 1.0
    return values


def plays_plane(players: int, *plays: tuple[int, int, str]) -> list[float]:
    """The ``plays`` plane: (row, card kind 0–4, tiki name), each worth one half."""
    values = [0.0] * (players * 45)
    for row, kind, name in plays:
        values[45 * row + 9 * kind + TIKIS.index(name)] += 0.5
    return values


def random_states(options: dict[str, Any], games: int, seed: int) -> Iterator[TikiToppleState]:
    """Every state of ``games`` random games."""
    rng = random.Random(seed)
    game = tikigames.load("tiki_topple", **options)
    for _ in range(games):
        state = game.new_initial_state()
        yield state
        while not state.is_terminal():
            state.apply_action(state.random_action(rng))
            yield state


# ---------------------------------------------------------------- shape


@pytest.mark.parametrize(("players", "size"), [(2, 285), (3, 339), (4, 393)])
def test_shape_per_number_of_players(players: int, size: int) -> None:
    for options in ({}, {"target_score": 30, "rounds": 7, "topple_bottom_allowed": False}):
        game = tikigames.load("tiki_topple", players=players, **options)
        layout = game.observation_tensor_layout()
        assert game.observation_tensor_shape() == (size,) == layout.shape
        assert [plane.name for plane in layout.planes] == [
            "phase", "to_act", "line", "toasted", "secret", "secret_tikis", "possible_secrets",
            "hands", "plays", "in_round", "starter", "scores", "round",
        ]  # fmt: skip
        assert layout.plane("line").shape == (9, 9)
        assert layout.plane("hands").shape == (players, 5)
        assert layout.plane("plays").shape == (players, 5, 9)
        assert layout.plane("scores").shape == (players,)
        assert len(game.new_initial_state().observation(0).tensor()) == size


def test_the_descriptions_name_the_score_scale() -> None:
    layout = tikigames.load("tiki_topple", players=3).observation_tensor_layout()
    assert "48 (16 points × 3 rounds)" in layout.plane("scores").description
    layout = tikigames.load("tiki_topple", target_score=25).observation_tensor_layout()
    assert "target_score (25)" in layout.plane("scores").description


# ---------------------------------------------------------------- hand-made positions


def test_the_initial_position() -> None:
    game = tikigames.load("tiki_topple", first_player=1)
    got = planes(game.new_initial_state().observation(0))
    assert got["phase"] == [1.0, 0.0, 0.0, 0.0]  # the line setup
    assert got["to_act"] == [0.0, 0.0]
    assert got["secret"] == [0.0] * 27 and got["secret_tikis"] == [0.0] * 27
    assert got["possible_secrets"] == [1.0] * 27
    assert got["hands"] == [0.0] * 10 and got["plays"] == [0.0] * 90
    assert got["in_round"] == [1.0, 1.0]
    assert got["starter"] == [0.0, 1.0]  # seat 1, the row after player 0's own
    assert got["scores"] == [0.0, 0.0] and got["round"] == [0.0, 0.0]


def test_a_position_of_the_rulebook_example_as_player_2() -> None:
    state = tikigames.load("tiki_topple", players=4).new_initial_state()
    play(state, RULEBOOK_LINE, "secret 18", "secret 3", "secret 10", "secret 14")
    assert planes(state.observation(2))["phase"] == [0.0, 0.0, 1.0, 0.0]
    # Seats 0 to 3 in turn: Up 2 on Hookipa, three Topples of the bottom tiki, then a Toast.
    play(state, "up2 hookipa", "topple huhu", "topple huhu", "topple huhu", "toast")
    got = planes(state.observation(2))  # rows: seat 2 (the observer), 3, 0, 1
    assert got["phase"] == [0.0, 0.0, 1.0, 0.0]
    assert got["to_act"] == [0.0, 0.0, 0.0, 1.0]  # seat 1
    assert got["line"] == line_plane(
        "lokahi", "hookipa", "akamai", "nui", "kapu", "eepo", "nani", "wikiwiki"
    )
    assert got["toasted"] == one_hot(9, TIKIS.index("huhu"))
    assert got["secret"] == one_hot(27, 10)  # card #10: Lokahi / Wikiwiki / Hookipa
    assert got["secret_tikis"] == [
        *one_hot(9, TIKIS.index("lokahi")),
        *one_hot(9, TIKIS.index("wikiwiki")),
        *one_hot(9, TIKIS.index("hookipa")),
    ]
    assert got["possible_secrets"] == [0.0 if card == 10 else 1.0 for card in range(27)]
    toppled = [0.5, 0.5, 0.5, 0.0, 1.0]  # up1 up2 up3 (topple played) toast toast
    assert got["hands"] == [*toppled, *toppled, 0.5, 0.0, 0.5, 0.5, 0.5, *toppled]
    assert got["plays"] == plays_plane(
        4, (0, 3, "huhu"), (1, 3, "huhu"), (2, 1, "hookipa"), (2, 4, "huhu"), (3, 3, "huhu")
    )
    assert got["in_round"] == [1.0] * 4
    assert got["starter"] == [0.0, 0.0, 1.0, 0.0]  # seat 0
    assert got["scores"] == [0.0] * 4 and got["round"] == [0.0, 0.0]

    spectator = planes(state.observation(None))  # rows: seats 0 to 3
    assert spectator["to_act"] == [0.0, 1.0, 0.0, 0.0]
    assert spectator["line"] == got["line"] and spectator["toasted"] == got["toasted"]
    assert spectator["secret"] == [0.0] * 27 and spectator["secret_tikis"] == [0.0] * 27
    assert spectator["possible_secrets"] == [1.0] * 27
    assert spectator["hands"][:5] == [0.5, 0.0, 0.5, 0.5, 0.5]
    assert spectator["plays"] == plays_plane(
        4, (0, 1, "hookipa"), (0, 4, "huhu"), (1, 3, "huhu"), (2, 3, "huhu"), (3, 3, "huhu")
    )
    assert spectator["starter"] == [1.0, 0.0, 0.0, 0.0]


def test_scores_rounds_and_the_next_deck_after_the_rulebook_round() -> None:
    state = tikigames.load("tiki_topple", players=4).new_initial_state()
    play(state, RULEBOOK_LINE, "secret 18", "secret 3", "secret 10", "secret 14")
    play(state, "up2 hookipa", "topple huhu", "topple huhu", "topple huhu", *["toast"] * 6)
    assert state.scores() == [5, 7, 11, 2]
    got = planes(state.observation(1))  # rows: seats 1, 2, 3, 0
    assert got["phase"] == [1.0, 0.0, 0.0, 0.0]  # the next round's line setup
    assert got["scores"] == [7 / 64, 11 / 64, 2 / 64, 5 / 64]  # 16 points × 4 rounds
    assert got["round"] == [0.25, 0.0]
    assert got["plays"] == [0.0] * 180  # between rounds
    gone = {18, 3, 10, 14}
    assert got["possible_secrets"] == [0.0 if c in gone else 1.0 for c in range(27)]
    assert got["starter"] == [1.0, 0.0, 0.0, 0.0]  # seat 1 starts round 2
    play(state, GROUP_LINE, "secret 0")
    got = planes(state.observation(1))
    assert got["phase"] == [0.0, 1.0, 0.0, 0.0]  # the deal
    assert got["secret"] == [0.0] * 27  # seat 1's card is not dealt yet
    assert got["line"] == line_plane(*GROUP_LINE[5:].split(","))
    assert got["toasted"] == [0.0] * 9
    play(state, "secret 1", "secret 2", "secret 4")
    got = planes(state.observation(1))
    assert got["secret"] == one_hot(27, 1)
    assert got["possible_secrets"] == [0.0 if c in gone | {1} else 1.0 for c in range(27)]
    assert got["hands"] == [0.5, 0.5, 0.5, 0.5, 1.0] * 4
    assert got["to_act"] == [1.0, 0.0, 0.0, 0.0]


def test_scores_are_scaled_by_the_target_and_capped() -> None:
    state = tikigames.load("tiki_topple", players=4, target_score=8).new_initial_state()
    play(state, RULEBOOK_LINE, "secret 18", "secret 3", "secret 10", "secret 14")
    play(state, "up2 hookipa", "topple huhu", "topple huhu", "topple huhu", *["toast"] * 6)
    # [5, 7, 11, 2]: seat 2 reached the target and leads alone, so the game is over.
    assert state.is_terminal()
    got = planes(state.observation(0))
    assert got["phase"] == [0.0, 0.0, 0.0, 1.0]
    assert got["scores"] == [5 / 8, 7 / 8, 1.0, 2 / 8]
    assert got["possible_secrets"] == [0.0] * 27 and got["to_act"] == [0.0] * 4
    assert got["round"] == [0.25, 0.0]  # one round of the (unused) 4 finished


def tiebreak_state() -> TikiToppleState:
    """Four players, one round: seats 0 and 1 tie on 9 (cards #0 and #1, Nani on top of the
    group line) and play a tiebreak round, dealt cards #5 and #6; seat 1 starts it."""
    state: TikiToppleState = tikigames.load("tiki_topple", players=4, rounds=1).new_initial_state()
    play(state, GROUP_LINE, "secret 0", "secret 1", "secret 11", "secret 17")
    play(state, *["topple eepo"] * 4, *["toast"] * 6)
    assert state.scores() == [9, 9, 0, 0]
    play(state, GROUP_LINE, "secret 5", "secret 6")
    return state


def test_a_tiebreak_round_seen_by_a_seat_sitting_it_out() -> None:
    state = tiebreak_state()
    play(state, "up1 wikiwiki")
    got = planes(state.observation(3))  # rows: seats 3, 0, 1, 2
    assert got["in_round"] == [0.0, 1.0, 1.0, 0.0]
    full = [1.0, 0.5, 0.5, 0.5, 1.0]  # the seven cards of a two-player round
    after_up1 = [0.5, 0.5, 0.5, 0.5, 1.0]
    assert got["hands"] == [0.0] * 5 + full + after_up1 + [0.0] * 5
    assert got["plays"] == plays_plane(4, (2, 0, "wikiwiki"))
    assert got["to_act"] == [0.0, 1.0, 0.0, 0.0]  # seat 0
    assert got["starter"] == [0.0, 0.0, 1.0, 0.0]  # seat 1
    assert got["scores"] == [0.0, 9 / 16, 9 / 16, 0.0]
    assert got["round"] == [1.0, 1.0]  # the one regular round finished; a tiebreak
    assert got["secret"] == [0.0] * 27
    gone = {0, 1, 11, 17}
    assert got["possible_secrets"] == [0.0 if c in gone else 1.0 for c in range(27)]
    own = planes(state.observation(0))  # rows: seats 0, 1, 2, 3
    assert own["secret"] == one_hot(27, 5)
    assert own["possible_secrets"] == [0.0 if c in gone | {5} else 1.0 for c in range(27)]
    assert own["to_act"] == [1.0, 0.0, 0.0, 0.0]


# ---------------------------------------------------------------- no secret leaks


def test_a_secret_of_another_seat_changes_nothing() -> None:
    def dealt(cards: tuple[int, ...]) -> TikiToppleState:
        state: TikiToppleState = tikigames.load("tiki_topple", players=3).new_initial_state()
        play(state, GROUP_LINE, *(f"secret {card}" for card in cards), "up3 hookipa")
        return state

    a, b = dealt((4, 9, 20)), dealt((4, 13, 20))
    assert a.observation(0).tensor() == b.observation(0).tensor()
    assert a.observation(2).tensor() == b.observation(2).tensor()
    assert a.observation(None).tensor() == b.observation(None).tensor()
    assert a.observation(1).tensor() != b.observation(1).tensor()  # the own card differs
    c = dealt((4, 9, 21))
    assert a.observation(2).tensor() != c.observation(2).tensor()


@pytest.mark.parametrize("options", OPTION_SETS[:4])
def test_a_resampled_world_gives_the_same_tensor(options: dict[str, Any]) -> None:
    rng = random.Random(5)
    game = tikigames.load("tiki_topple", **options)
    for index, state in enumerate(random_states(options, games=3, seed=1)):
        if index % 7:
            continue
        for player in [*range(game.num_players), None]:
            obs = state.observation(player)
            world = game.resample(obs, rng)
            assert world.observation(player).tensor() == obs.tensor()


# ---------------------------------------------------------------- legal actions, values


@pytest.mark.parametrize("options", OPTION_SETS)
def test_different_legal_actions_give_different_tensors(options: dict[str, Any]) -> None:
    seen: dict[tuple[int, tuple[float, ...]], list[TikiToppleAction]] = {}
    checked = 0
    for state in random_states(options, games=25, seed=2):
        player = state.current_player()
        if player < 0:
            continue
        obs = state.observation(player)
        legal = seen.setdefault((player, tuple(obs.tensor())), state.legal_actions())
        assert legal == state.legal_actions()
        checked += 1
    assert checked > 500
    assert len({tuple(legal) for legal in seen.values()}) > 50


@pytest.mark.parametrize("options", OPTION_SETS)
def test_values_are_finite_floats_in_zero_one(options: dict[str, Any]) -> None:
    game = tikigames.load("tiki_topple", **options)
    size = game.observation_tensor_layout().size
    for index, state in enumerate(random_states(options, games=4, seed=3)):
        if index % 3:
            continue
        for player in [*range(game.num_players), None]:
            values = state.observation(player).tensor()
            assert len(values) == size
            assert all(type(v) is float and math.isfinite(v) and 0.0 <= v <= 1.0 for v in values)


def test_the_planes_hold_the_observation_over_random_games() -> None:
    """Whatever the position: one phase, one starter, at most one seat to act, one tiki per
    position of the line, and the line and the toasted tikis together are the nine tikis."""
    for state in random_states({"players": 3, "rounds": 2}, games=5, seed=4):
        for player in (0, 1, 2, None):
            obs = state.observation(player)
            got = planes(obs)
            assert sum(got["phase"]) == 1.0 and sum(got["starter"]) == 1.0
            assert sum(got["to_act"]) == (1.0 if obs.current_player >= 0 else 0.0)
            assert sum(got["line"]) == len(obs.line)
            assert sum(got["line"]) + sum(got["toasted"]) == 9.0
            assert sum(got["secret"]) == (0.0 if obs.secret is None else 1.0)

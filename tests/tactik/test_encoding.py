"""Tac-Tik's observation tensor (``obs.tensor()``): its planes per option set, exact values in
positions reached through real actions, seen from several seats, and what it must not do —
leak what the observer cannot know, or give two positions with different legal actions the same
tensor.

In the 4-player game player 0 plays green (colour 0, start t0), player 1 red (t16), player 2
blue (t32), player 3 yellow (t48). Seen from seat ``o``, colour ``c`` is ``(c − o) mod C`` and
track square ``t`` is ``(t − 16·o) mod L``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

import tikigames
from tikigames.tactik.data import CARD_NAMES

Table = Any  # the conftest's driver
Factory = Callable[..., Table]


def planes(obs: Any) -> dict[str, list[float]]:
    """Every plane of ``obs.tensor()`` by name, flat."""
    layout = obs.game.observation_tensor_layout()
    values = obs.tensor()
    return {plane.name: layout.view(values, plane.name) for plane in layout.planes}


def cards(**copies: float) -> list[float]:
    """A card plane: ``copies`` by card name (``c1``, ``c10``, ``back4``, ``P``, ``J``)."""
    names = {"back4": "-4"}
    plane = [0.0] * len(CARD_NAMES)
    for key, value in copies.items():
        plane[CARD_NAMES.index(names.get(key, key.removeprefix("c")))] = value
    return plane


def one_hot(size: int, *indices: int) -> list[float]:
    return [1.0 if i in indices else 0.0 for i in range(size)]


def track_cells(plane: list[float], track: int) -> set[tuple[int, int]]:
    """The (colour, square) cells set in a ``track`` plane."""
    return {divmod(i, track) for i, value in enumerate(plane) if value}


def random_states(game: Any, seed: int, steps: int) -> Any:
    """The states of a random game, one after each action."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


OPTION_SETS = [
    {},
    {"players": 2},
    {"players": 6},
    {"jokers": 0},
    {"jokers": 4, "with_13": True},
    {"players": 6, "discard": "stuck", "with_13": True},
    {"players": 2, "jokers": 4, "seven_captures_passed": False, "max_turns": None},
]


# ----------------------------------------------------------------------------- shape


@pytest.mark.parametrize(
    ("options", "colours", "players"),
    [({}, 4, 4), ({"players": 2}, 4, 2), ({"players": 6}, 6, 6), ({"with_13": True}, 4, 4)],
)
def test_planes_and_shape_per_option_set(
    options: dict[str, Any], colours: int, players: int
) -> None:
    game = tikigames.load("tactik", **options)
    layout = game.observation_tensor_layout()
    shapes = {plane.name: plane.shape for plane in layout.planes}
    assert shapes == {
        "track": (colours, 16 * colours),
        "pieux": (colours,),
        "homes": (colours, 4),
        "reserves": (colours,),
        "acting": (colours,),
        "hand": (14,),
        "given": (14,),
        "received": (14,),
        "pile": (14,),
        "seven": (7,),
        "hand_sizes": (players,),
        "to_move": (players,),
        "dealer": (players,),
        "winners": (players,),
        "phase": (4,),
        "talon": (1,),
        "clock": (1,),
        "options": (4,),
    }
    size = colours * 16 * colours + 7 * colours + 4 * 14 + 7 + 4 * players + 4 + 1 + 1 + 4
    assert layout.size == size and game.observation_tensor_shape() == (size,)
    assert {4: {4: 373, 2: 365}, 6: {6: 715}}[colours][players] == size


def test_one_layout_per_distinct_rules() -> None:
    a = tikigames.load("tactik", jokers=4).observation_tensor_layout()
    b = tikigames.load("tactik", jokers=4).observation_tensor_layout()
    c = tikigames.load("tactik", jokers=0).observation_tensor_layout()
    assert a is b and a is not c and a.size == c.size


@pytest.mark.parametrize("options", OPTION_SETS)
def test_values_are_finite_floats_in_the_unit_interval(options: dict[str, Any]) -> None:
    game = tikigames.load("tactik", **options)
    size = game.observation_tensor_layout().size
    for state in random_states(game, seed=1, steps=400):
        for p in (None, *range(game.num_players)):
            values = state.observation(p).tensor()
            assert len(values) == size
            assert all(type(v) is float and math.isfinite(v) and 0.0 <= v <= 1.0 for v in values)


def test_the_options_plane_holds_the_rules() -> None:
    obs = tikigames.load("tactik").new_initial_state().observation(0)
    assert planes(obs)["options"] == [0.5, 0.0, 0.0, 1.0]
    game = tikigames.load("tactik", jokers=4, with_13=True, discard="stuck")
    obs = game.new_initial_state().observation(0)
    assert planes(obs)["options"] == [1.0, 1.0, 1.0, 1.0]


# ----------------------------------------------------------------------------- exact values


def test_a_deal_the_exchange_and_a_start_seen_from_two_seats(table: Factory) -> None:
    t = table()
    initial = planes(t.state.observation(0))
    assert initial["phase"] == one_hot(4, 0) and initial["to_move"] == [0.0] * 4
    assert initial["reserves"] == [1.0] * 4 and initial["talon"] == [1.0]
    assert initial["dealer"] == one_hot(4, 3)  # player 3 deals: seat 3 seen from seat 0
    assert planes(t.state.observation(1))["dealer"] == one_hot(4, 2)

    t.deal("1 7 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    seen = planes(t.state.observation(0))
    assert seen["phase"] == one_hot(4, 1) and seen["to_move"] == one_hot(4, 0)
    assert seen["hand"] == cards(c1=0.25, c2=0.25, c5=0.25, c7=0.25)
    assert seen["hand_sizes"] == [1.0] * 4 and seen["talon"] == [34 / 50]
    assert seen["given"] == seen["received"] == [0.0] * 14
    assert planes(t.state.observation(1))["hand"] == cards(c2=0.25, c3=0.75)

    t.give("7", "2", "2", "2")  # player 0 gives the 7 and gets player 2's 2
    seen = planes(t.state.observation(0))
    assert seen["hand"] == cards(c1=0.25, c2=0.5, c5=0.25)
    assert seen["given"] == cards(c7=1.0) and seen["received"] == cards(c2=1.0)
    assert planes(t.state.observation(2))["hand"] == cards(c6=0.75, c7=0.25)
    assert seen["phase"] == one_hot(4, 2) and seen["acting"] == one_hot(4, 0)

    t.play("1:start@0")  # a green pieu on t0
    for seat, colour, square in ((0, 0, 0), (1, 3, 48), (2, 2, 32)):
        seen = planes(t.state.observation(seat))
        assert track_cells(seen["track"], 64) == {(colour, square)}
        assert seen["pieux"] == one_hot(4, colour)
        assert seen["reserves"] == [0.75 if c == colour else 1.0 for c in range(4)]
        assert seen["to_move"] == one_hot(4, (1 - seat) % 4)  # player 1 is to move
        assert seen["acting"] == one_hot(4, (1 - seat) % 4)  # with red, its own colour
        assert seen["pile"] == cards(c1=0.25)
        assert seen["hand_sizes"] == [0.75 if (p + seat) % 4 == 0 else 1.0 for p in range(4)]


def test_a_pawn_on_the_track_a_seven_in_progress_and_the_pile(table: Factory) -> None:
    t = table()
    t.deal("1 7 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0")
    t.discard(0)  # the others' first cards: 2, 2, 2
    t.play("5:t0")  # an ordinary pawn on t5: no pieu any more
    for seat, colour, square in ((0, 0, 5), (2, 2, 37), (3, 1, 21)):
        seen = planes(t.state.observation(seat))
        assert track_cells(seen["track"], 64) == {(colour, square)}
        assert seen["pieux"] == [0.0] * 4
    t.discard(0)  # 3, 6, 9
    t.play("7:t5+3")  # three steps of the seven: four left, still player 0's turn
    seen = planes(t.state.observation(0))
    assert seen["seven"] == one_hot(7, 3) and seen["to_move"] == one_hot(4, 0)
    assert seen["acting"] == one_hot(4, 0)
    assert track_cells(seen["track"], 64) == {(0, 8)}
    pile = cards(c1=0.25, c2=0.75, c3=0.25, c5=0.25, c6=0.25, c7=0.25, c9=0.25)
    assert t.state.observation(0).pile == ("1", "2", "2", "2", "3", "5", "6", "7", "9")
    assert seen["pile"] == pile
    assert seen["hand"] == cards(c2=0.25)
    other = planes(t.state.observation(1))
    assert other["seven"] == one_hot(7, 3) and other["acting"] == one_hot(4, 3)
    assert other["to_move"] == one_hot(4, 3) and other["hand"] == cards(c3=0.5)
    t.play("7:t8+4")
    seen = planes(t.state.observation(0))
    assert seen["seven"] == [0.0] * 7 and seen["to_move"] == one_hot(4, 1)
    assert track_cells(seen["track"], 64) == {(0, 12)}


def test_a_pawn_in_its_home_seen_from_two_seats(table: Factory) -> None:
    t = table()
    t.deal("1 -4 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0")
    t.discard(0)
    t.play("-4:t0")  # back to t60
    t.discard(0)
    assert track_cells(planes(t.state.observation(0))["track"], 64) == {(0, 60)}
    assert track_cells(planes(t.state.observation(1))["track"], 64) == {(3, 44)}
    t.play("5:t60")  # four steps to the start square, the fifth into h0.1
    seen = planes(t.state.observation(0))
    assert seen["track"] == [0.0] * 256
    assert seen["homes"] == [1.0, 0.0, 0.0, 0.0] + [0.0] * 12
    assert seen["reserves"] == [0.75, 1.0, 1.0, 1.0]
    seen = planes(t.state.observation(1))  # green is colour 3 seen from red
    assert seen["homes"] == [0.0] * 12 + [1.0, 0.0, 0.0, 0.0]
    assert seen["reserves"] == [1.0, 1.0, 1.0, 0.75]


def test_a_finished_player_acts_with_the_partners_colour(table: Factory) -> None:
    t = table()
    t.deal("1 -4 8 2", "3 3 3 2", "10 6 6 6", "9 9 9 2")
    t.give("2", "2", "10", "2")
    t.turns(0, "1:start@0", "-4:t0", "8:t60", "10:start@0")
    t.end_deal()
    t.deal("-4 7 1 5", "3 5 5 5", "-4 6 12 12", "12 12 P P")
    t.give("5", "3", "-4", "P")
    t.turns(0, "-4:t0", "7:t60+7", "1:start@0", "-4:t0")
    t.end_deal()
    t.deal("J 10 -4 7", "7 7 1 1", "J 8 8 8", "10 10 9 2")
    t.give("7", "1", "J", "2")
    t.turns(0, "J=6:t60", "10:start@0", "-4:t0")
    t.discard(0)
    assert planes(t.state.observation(0))["acting"] == one_hot(4, 0)
    t.play("J=5:t60")  # green's fourth pawn gets home
    t.end_deal()
    t.deal("1 5 5 P", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("P", "2", "6", "2")
    t.discard(0)
    assert t.state.acting_colours() == (2,)
    seen = planes(t.state.observation(0))
    assert seen["homes"][:4] == [1.0] * 4 and seen["reserves"][0] == 0.0
    assert seen["acting"] == one_hot(4, 2)  # blue, the partner's colour
    assert planes(t.state.observation(1))["acting"] == one_hot(4, 1)  # blue, seen from red


def test_two_players_rotate_by_their_first_colour(table: Factory) -> None:
    t = table(players=2)
    t.deal("1 2 3 5 6 7", "10 9 8 12 P -4")
    t.play("1:start@0")  # player 0 starts green; player 1 (red and yellow) is to move
    mine, theirs = planes(t.state.observation(0)), planes(t.state.observation(1))
    assert track_cells(mine["track"], 64) == {(0, 0)}
    assert track_cells(theirs["track"], 64) == {(3, 48)}
    assert mine["acting"] == one_hot(4, 1, 3) and theirs["acting"] == one_hot(4, 0, 2)
    assert theirs["to_move"] == one_hot(2, 0) and mine["to_move"] == one_hot(2, 1)
    assert mine["hand_sizes"] == [5 / 6, 1.0] and theirs["hand_sizes"] == [1.0, 5 / 6]
    assert theirs["hand"] == cards(c8=0.25, c9=0.25, c10=0.25, c12=0.25, P=0.25, back4=0.25)
    assert mine["phase"] == one_hot(4, 2)  # no exchange in the 2-player variant


def test_six_players_seen_from_seat_four(table: Factory) -> None:
    t = table(players=6)
    t.deal("1 2 3 5", "2 2 2 3", "3 3 5 5", "6 6 6 8", "8 8 9 9", "9 12 12 12")
    t.give("2", "2", "3", "6", "8", "9")
    t.play("1:start@0")
    seen = planes(t.state.observation(4))
    assert track_cells(seen["track"], 96) == {(2, 32)}  # (0 − 4) mod 6, (0 − 64) mod 96
    assert seen["pieux"] == one_hot(6, 2) and seen["to_move"] == one_hot(6, 3)
    assert seen["dealer"] == one_hot(6, 1)  # player 5 deals
    assert seen["hand"] == cards(c2=0.25, c8=0.25, c9=0.5)  # gave an 8, got player 1's 2


def test_the_end_marks_the_phase_and_the_clock(table: Factory) -> None:
    t = table(max_turns=3)
    t.deal("1 1 2 2", "3 3 2 2", "5 5 6 6", "8 8 9 9")
    t.give("2", "2", "5", "8")
    t.play("1:start@0", "discard 3")
    assert planes(t.state.observation(0))["clock"] == [2 / 3]
    t.play("discard 5")
    seen = planes(t.state.observation(0))
    assert seen["phase"] == one_hot(4, 3) and seen["clock"] == [1.0]
    assert seen["to_move"] == seen["acting"] == seen["winners"] == [0.0] * 4


def test_the_winners_are_marked_from_each_seat() -> None:
    game = tikigames.load("tactik", players=2, max_turns=None)
    for seed in range(40):
        *_, state = random_states(game, seed, 6000)  # the same state, played on
        if state.winners():
            break
    else:
        pytest.fail("no random 2-player game was won")
    (winner,) = state.winners()
    for seat in (0, 1):
        seen = planes(state.observation(seat))
        assert seen["winners"] == one_hot(2, (winner - seat) % 2)
        assert seen["phase"] == one_hot(4, 3)


# ----------------------------------------------------------------------------- what it must not do


def test_a_spectator_sees_the_board_absolute_and_no_hand(table: Factory) -> None:
    t = table()
    t.deal("1 7 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("7", "2", "2", "2")
    t.play("1:start@0", "discard 3", "discard 6", "discard 9", "5:t0")
    spectator, seat0 = planes(t.state.observation(None)), planes(t.state.observation(0))
    assert track_cells(spectator["track"], 64) == {(0, 5)}
    assert spectator["hand"] == spectator["given"] == spectator["received"] == [0.0] * 14
    for name in ("track", "pieux", "homes", "reserves", "pile", "hand_sizes", "to_move"):
        assert spectator[name] == seat0[name]
    assert seat0["hand"] != [0.0] * 14


def test_other_hands_do_not_change_the_tensor(table: Factory) -> None:
    a, b = table(), table()
    a.deal("1 7 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    b.deal("1 7 5 2", "5 8 8 J", "6 6 12 2", "9 P 10 10")
    assert a.state.observation(0).tensor() == b.state.observation(0).tensor()
    assert a.state.observation(1).tensor() != b.state.observation(1).tensor()
    a.give("7", "3", "2", "9")
    b.give("7", "J", "2", "10")  # what player 0 gets from player 2 is the same
    assert a.state.observation(0).tensor() == b.state.observation(0).tensor()
    assert a.state.observation(1).tensor() != b.state.observation(1).tensor()


@pytest.mark.parametrize("options", OPTION_SETS[:3])
def test_a_resampled_world_gives_the_same_tensor(options: dict[str, Any]) -> None:
    game = tikigames.load("tactik", **options)
    rng = random.Random(7)
    checked = 0
    for i, state in enumerate(random_states(game, seed=3, steps=300)):
        if i % 15:
            continue
        for p in range(game.num_players):
            obs = state.observation(p)
            world = game.resample(obs, rng)
            assert world.observation(p).tensor() == obs.tensor()
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("options", OPTION_SETS)
def test_different_legal_actions_give_different_tensors(options: dict[str, Any]) -> None:
    game = tikigames.load("tactik", **options)
    seen: dict[tuple[int, tuple[float, ...]], list[int]] = {}
    for seed in range(8):
        for state in random_states(game, seed, 500):
            player = state.current_player()
            if player < 0:
                continue
            obs = state.observation(player)
            legal = seen.setdefault((player, tuple(obs.tensor())), obs.legal_actions())
            assert legal == obs.legal_actions(), (seed, len(state.history()))
    assert len(seen) > 1000

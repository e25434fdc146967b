"""Tac-Tik's rules, one test (or a few) per rule of ``docs/games/tactik.rst``.

Positions are reached through real actions: chosen deals (chance outcomes are actions), the
exchange and plays, all checked by the engine. In the 4-player game player 0 plays green
(colour 0, start t0), player 1 red (t16), player 2 blue (t32), player 3 yellow (t48); while
player 0 sets a position up the others throw cards away (``discard``, option ``"any"``). Whole
games, played to a win by a greedy player, check the end; ``evaluate``, the race's guess for
search bots, closes the file.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

import tikigames
from tikigames import ActionError, IllegalActionError
from tikigames.bots import RandomBot
from tikigames.tactik import TacTikState
from tikigames.tactik.state import PawnMove

Table = Any  # the conftest's driver
Factory = Callable[..., Table]


def green_at_t60(table: Factory, fourth: str, **options: Any) -> Table:
    """Player 0 starts a pawn (a pieu on t0) and moves it back to t60 with ``-4``, keeping
    ``fourth`` and a 2. Everybody gives a 2 in the exchange, so the hands stay as dealt."""
    t = table(**options)
    t.deal(f"1 -4 {fourth} 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0")
    t.discard(0)
    t.play("-4:t0")
    t.discard(0)
    assert t.pawns(0) == ["t60"]
    return t


# ----------------------------------------------------------------------------- options, deck


def test_options_and_their_defaults() -> None:
    game = tikigames.load("tactik")
    assert game.num_players == 4 and game.options["first_dealer"] == 3
    assert tikigames.load("tactik", players=6).options["first_dealer"] == 5
    assert tikigames.load("tactik", players=2).num_players == 2


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 4, "first_dealer": 4},
        {"players": 2, "first_dealer": 2},
        {"jokers": 1},
        {"jokers": True},
        {"with_13": 1},
        {"discard": "never"},
        {"max_turns": 0},
        {"seven_captures_passed": "yes"},
        {"colour": 1},
    ],
)
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(tikigames.OptionError):
        tikigames.load("tactik", **options)


@pytest.mark.parametrize(
    ("options", "size", "jokers", "thirteens"),
    [({}, 50, 2, 0), ({"jokers": 0}, 48, 0, 0), ({"jokers": 4, "with_13": True}, 56, 4, 4)],
)
def test_deck_and_deal_probabilities(
    options: dict[str, Any], size: int, jokers: int, thirteens: int
) -> None:
    state = tikigames.load("tactik", **options).new_initial_state()
    assert state.is_chance_node()
    outcomes = {str(action): p for action, p in state.chance_outcomes()}
    assert outcomes["deal 5"] == pytest.approx(4 / size)
    assert outcomes.get("deal J", 0) == pytest.approx(jokers / size)
    assert outcomes.get("deal 13", 0) == pytest.approx(thirteens / size)
    assert sum(outcomes.values()) == pytest.approx(1)
    state.apply_action(state.parse_action("deal 5"))
    outcomes = {str(action): p for action, p in state.chance_outcomes()}
    assert outcomes["deal 5"] == pytest.approx(3 / (size - 1))  # a copy fewer in the talon


def test_deal_goes_round_from_the_dealers_left(table: Factory) -> None:
    t = table(first_dealer=1)
    served = []
    for i in range(16):
        t.do(f"deal {['1', '12', '5', '6'][i % 4]}")
        served.append([p for p in range(4) if t.state.observation(p).history[-1] != "deal ?"])
    assert served == [[2], [3], [0], [1]] * 4  # one card at a time, from the dealer's left
    assert t.state.hand(2) == ["1"] * 4 and t.state.hand(3) == ["12"] * 4
    assert t.state.hand(0) == ["5"] * 4 and t.state.hand(1) == ["6"] * 4
    assert t.state.current_player() == 2  # the exchange starts left of the dealer


def test_talon_is_made_up_anew_when_it_cannot_serve_a_deal(table: Factory) -> None:
    t = table(jokers=0)  # 48 cards: exactly three deals
    for deal in range(3):
        assert t.state.observation(None).talon_size == 48 - 16 * deal
        while t.state.is_chance_node():
            t.do(str(t.state.legal_actions()[0]))
        t.give(*(t.state.hand(p)[0] for p in range(4)))
        t.end_deal()
    obs = t.state.observation(None)
    assert obs.talon_size == 48 and obs.pile == ()  # every card gathered into a new talon
    assert obs.dealer == 2  # each deal passes clockwise: 3, 0, 1, then 2
    t = table()  # 50 cards: two are left after three deals, too few for a fourth
    for _ in range(3):
        while t.state.is_chance_node():
            t.do(str(t.state.legal_actions()[-1]))
        t.give(*(t.state.hand(p)[0] for p in range(4)))
        t.end_deal()
    assert t.state.observation(None).talon_size == 50


def test_the_player_left_of_the_dealer_plays_first_and_turns_go_clockwise(
    table: Factory,
) -> None:
    t = table()
    t.deal("1 1 2 2", "3 3 2 2", "5 5 6 6", "8 8 9 9")
    assert t.state.current_player() == 0  # the first dealer is the last player
    t.give("2", "2", "5", "8")
    players = []
    for _ in range(16):
        players.append(t.state.current_player())
        t.do(f"discard {t.state.hand(t.state.current_player())[0]}")
    assert players == [0, 1, 2, 3] * 4
    t.deal("1 1 10 10", "3 3 7 7", "5 5 10 10", "8 8 7 7")
    assert t.state.observation(None).dealer == 0
    assert t.state.current_player() == 1
    t.give("10", "7", "10", "7")
    assert t.state.current_player() == 1
    assert t.state.turns() == 16  # deals and exchanges are not turns


# ----------------------------------------------------------------------------- the exchange


def test_the_exchange_is_secret_and_simultaneous(table: Factory) -> None:
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    assert t.legal() == {"give 1", "give 5", "give 7", "give J"}
    t.do("give 7")
    # Nobody but player 0 sees the choice, and the partner has not received it yet.
    assert t.state.observation(0).history[-1] == "give 7"
    assert t.state.observation(2).history[-1] == "give ?"
    assert t.state.observation(None).history[-1] == "give ?"
    assert t.state.observation(0).given == "7" and t.state.observation(0).received is None
    assert t.state.hand(0) == ["1", "5", "7", "J"]
    t.do("give 2")
    t.do("give 6")
    assert t.state.hand(2) == ["2", "6", "6", "6"]  # hands are listed in card order
    t.do("give 9")  # the dealer chooses last; the cards change hands at once
    assert t.state.hand(0) == ["1", "5", "6", "J"]
    assert t.state.hand(2) == ["2", "6", "6", "7"]
    assert t.state.hand(1) == ["3", "3", "3", "9"] and t.state.hand(3) == ["2", "2", "9", "9"]
    assert t.state.observation(2).received == "7" and t.state.observation(2).given == "6"
    assert t.state.current_player() == 0
    with pytest.raises(IllegalActionError):
        t.state.parse_action("give 5")


def test_a_hand_s_legal_lists_are_shared_by_positions_yet_the_callers_to_keep(
    table: Factory,
) -> None:
    """Two players holding the same cards give from one list, and a turn plays from one plan
    of those cards: what ``legal_actions()`` hands out is a copy, so emptying it changes
    neither the position's next list nor another position's."""
    t = table()
    t.deal("1 5 7 J", "1 5 7 J", "6 6 6 2", "9 9 9 2")
    mine = t.state.legal_actions()
    assert [t.state.action_to_string(a) for a in mine] == ["give 1", "give 5", "give 7", "give J"]
    mine.clear()
    t.do("give 7")
    assert t.legal() == {"give 1", "give 5", "give 7", "give J"}  # player 1, the same hand
    for card in ["5", "6", "9"]:
        t.do("give " + card)
    turn = t.state.legal_actions()
    again = t.state.clone()
    turn.clear()
    assert t.state.legal_actions() == again.legal_actions() != []


def test_two_player_variant_deals_six_and_has_no_exchange(table: Factory) -> None:
    t = table(players=2)
    t.deal("1 2 3 5 6 7", "8 9 10 12 P -4")
    assert t.state.current_player() == 0
    assert not any(text.startswith("give") for text in t.legal())
    assert t.state.acting_colours() == (0, 2)  # player 0 plays green and blue
    assert {"1:start@0", "1:start@2", "discard 7"} <= t.legal()
    assert "1:start@1" not in t.legal()


# ----------------------------------------------------------------------------- start and pieu


def test_start_makes_a_pieu_and_needs_a_free_start_square(table: Factory) -> None:
    t = table()
    t.deal("1 10 2 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")  # player 0 gives the 5 and gets a 2
    assert {"1:start@0", "10:start@0"} <= t.legal()
    assert "1:start@2" not in t.legal()  # only the acting colour starts
    t.play("1:start@0")
    assert t.pawns(0) == ["t0!"] and t.state.reserve(0) == 3
    t.discard(0)
    assert "10:start@0" not in t.legal()  # a pieu stands there
    assert "10:t0" in t.legal()


def test_start_captures_an_ordinary_pawn_on_the_start_square(table: Factory) -> None:
    t = table()
    t.deal("10 3 3 2", "5 5 5 2", "6 6 6 2", "1 8 8 2")
    t.give("2", "2", "2", "2")
    t.play("discard 3", "discard 5", "discard 6", "1:start@3")
    t.play("discard 3", "discard 5", "discard 6", "8:t48")
    t.play("discard 2", "discard 5", "discard 6", "8:t56")  # yellow lands on t0
    assert t.pawns(3) == ["t0"] and t.state.reserve(3) == 3
    t.play("10:start@0")
    assert t.pawns(0) == ["t0!"] and t.pawns(3) == [] and t.state.reserve(3) == 4
    assert t.state.last_move() == PawnMove(-1, 0, False) and t.state.last_captures() == (0,)


def test_a_pieu_blocks_other_colours(table: Factory) -> None:
    t = table()
    t.deal("1 2 2 3", "3 3 3 6", "6 6 6 9", "1 12 5 9")
    t.give("3", "6", "9", "9")  # yellow (player 3) ends with 1 12 5 6
    t.play("1:start@0")  # green pieu on t0
    t.discard(3)
    t.play("1:start@3")
    t.discard(3)
    t.play("12:t48")  # yellow on t60, four squares before green's pieu
    t.discard(3)
    assert t.state.hand(3) == ["5", "6"]
    assert t.legal() == {"discard 5", "discard 6"}  # both moves would pass the pieu


def test_a_pieu_blocks_its_own_colour_and_cannot_enter_home_before_a_lap(
    table: Factory,
) -> None:
    t = table()
    t.deal("1 -4 10 2", "3 3 3 2", "5 6 6 6", "9 9 9 2")
    t.give("2", "2", "5", "2")  # player 0 gets the 5
    t.play("1:start@0")
    t.discard(0)
    t.play("-4:t0")  # the pieu moved back: an ordinary pawn on t60
    t.discard(0)
    t.play("10:start@0")  # a new pieu on t0
    t.discard(0)
    # The pawn on t60 can neither enter its home (it would cross its own pieu) nor go round,
    # and the pieu itself goes along the track, not into the home.
    assert t.legal() == {"5:t0", "discard 5"}
    t.play("5:t0")
    assert t.pawns(0) == ["t5", "t60"]


def test_a_pieu_becomes_ordinary_when_swapped_and_may_then_enter_home(table: Factory) -> None:
    t = table()
    t.deal("1 2 10 3", "3 3 3 2", "P 6 6 6", "9 9 9 2")
    t.give("3", "2", "P", "2")  # player 0 gets the P
    t.play("1:start@0")
    t.discard(0)
    t.play("2:t0")  # the pieu moves 2: an ordinary pawn on t2
    assert t.pawns(0) == ["t2"]
    t.discard(0)
    t.play("10:start@0")
    assert t.pawns(0) == ["t0!", "t2"]
    t.discard(0)
    assert "P:t0~t2" in t.legal()  # own pieu with own pawn, the lower square first
    t.play("P:t0~t2")
    assert t.pawns(0) == ["t0", "t2"]  # no pieu any more
    t.end_deal()
    t.deal("1 2 12 12", "7 5 5 5", "7 7 8 8", "8 8 10 12")
    t.give("12", "7", "8", "10")
    t.discard(0)
    t.play("1:t0")  # an ordinary pawn on its start square: 1 step reaches h0.1
    assert t.pawns(0) == ["t2", "h0.1"]


# ----------------------------------------------------------------------------- forward moves


def test_home_entry_counts_the_start_square_as_a_step(table: Factory) -> None:
    t = green_at_t60(table, "3")
    t.play("3:t60")  # d = 4 ≥ 3: stays on the track
    assert t.pawns(0) == ["t63"]
    t.discard(0)
    t.play("2:t63")  # t63 → t0 (a step) → h0.1
    assert t.pawns(0) == ["h0.1"]


@pytest.mark.parametrize(
    ("card", "square"),
    [("5", "h0.1"), ("6", "h0.2"), ("8", "h0.4"), ("9", "t5"), ("12", "t8"), ("3", "t63")],
)
def test_home_entry_and_overshoot_from_four_before_the_start(
    table: Factory, card: str, square: str
) -> None:
    t = green_at_t60(table, card)
    moves = {text for text in t.legal() if text.startswith(f"{card}:")}
    assert moves == {f"{card}:t60"}  # a single action: entering is not a choice
    t.play(f"{card}:t60")
    assert t.pawns(0) == [square]


def test_an_occupied_home_square_sends_the_pawn_round(table: Factory) -> None:
    t = green_at_t60(table, "5")
    t.play("5:t60")
    assert t.pawns(0) == ["h0.1"]
    t.end_deal()
    # Player 0: a second pawn to t60, then 5 and 6 would need h0.1 free.
    t.deal("10 -4 5 8", "12 12 12 7", "6 8 8 7", "7 7 1 1")
    t.give("8", "7", "6", "1")
    t.discard(0)
    t.play("10:start@0")
    t.discard(0)
    t.play("-4:t0")
    t.discard(0)
    assert t.state.hand(0) == ["5", "6"]
    blocked = t.state.clone()
    t.play("5:t60")  # h0.1 is taken: round the track to t1
    assert t.pawns(0) == ["t1", "h0.1"]
    blocked.apply_action(blocked.parse_action("6:t60"))  # h0.2 lies past h0.1: round too
    assert blocked.pawns(0) == ["t2", "h0.1"]


def test_home_pawns_move_inside_the_home_only(table: Factory) -> None:
    t = green_at_t60(table, "5")
    t.play("5:t60")
    t.discard(0)
    assert t.legal() == {"2:h0.1", "discard 2"}  # h0.1 → h0.3; 2 more would leave the home
    t.play("2:h0.1")
    assert t.pawns(0) == ["h0.3"]
    with pytest.raises(ActionError):
        t.state.parse_action("-4:h0.3")  # a home pawn never moves back: no such action


def test_a_forward_move_captures_on_landing_and_passes_ordinary_pawns(table: Factory) -> None:
    t = table()
    t.deal("1 10 5 2", "1 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0", "1:start@1", "discard 6", "discard 9")
    t.play("10:t0", "3:t16", "discard 6", "discard 9")  # green t10, red t19 (no pieux left)
    t.play("discard 2", "3:t19", "discard 6", "discard 9")  # red t22
    t.play("5:t10")  # green passes nobody, lands t15
    t.discard(1)
    assert t.pawns(0) == ["t15"] and t.pawns(1) == ["t22"]
    t.end_deal()
    t.deal("7 7 8 8", "10 10 12 12", "J 12 12 5", "7 7 5 5")
    t.give("8", "12", "5", "5")
    t.discard(0)
    t.play("7:t15+7")  # lands on red's pawn: captured, back to its reserve
    assert t.pawns(1) == [] and t.state.reserve(1) == 4 and t.pawns(0) == ["t22"]


# ----------------------------------------------------------------------------- back 4


def test_back_four_cannot_pass_a_pieu(table: Factory) -> None:
    t = table()
    t.deal("1 2 10 3", "5 5 5 6", "-4 6 6 8", "9 9 9 8")
    t.give("3", "6", "-4", "8")
    t.play("1:start@0")
    t.discard(0)
    t.play("2:t0")
    t.discard(0)
    t.play("10:start@0")
    t.discard(0)
    assert t.legal() == {"-4:t0", "discard -4"}  # t2 would pass the pieu on t0
    t.play("-4:t0")  # the pieu may move back (it becomes an ordinary pawn)
    assert t.pawns(0) == ["t2", "t60"]


def test_back_four_cannot_land_on_a_pieu(table: Factory) -> None:
    t = table()
    t.deal("1 10 10 3", "5 5 1 6", "-4 12 12 12", "9 9 9 8")
    t.give("3", "6", "-4", "8")
    t.play("1:start@0", "discard 5", "discard 12", "discard 9")
    t.play("10:t0", "discard 5", "discard 12", "discard 9")
    t.play("10:t10", "1:start@1", "discard 12", "discard 9")  # green t20, red pieu on t16
    assert t.legal() == {"discard -4"}


def test_back_four_captures_on_landing_and_never_enters_a_home(table: Factory) -> None:
    t = table()
    t.deal("1 10 -4 2", "3 3 3 2", "6 6 6 2", "1 12 10 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0", "discard 3", "discard 6", "1:start@3")
    t.play("10:t0", "discard 3", "discard 6", "12:t48")  # green t10, yellow t60
    t.play("discard 2", "discard 3", "discard 6", "10:t60")  # yellow t6, passing t0
    assert t.pawns(3) == ["t6"]
    t.play("-4:t10")
    assert t.pawns(0) == ["t6"] and t.pawns(3) == [] and t.state.reserve(3) == 4
    t = green_at_t60(table, "3")
    t.play("3:t60")
    t.end_deal()
    t.deal("5 -4 8 8", "7 5 5 5", "7 7 7 8", "10 10 12 12")
    t.give("8", "7", "8", "10")
    t.discard(0)
    t.play("5:t63")  # t63 → t0 → h0.4
    assert t.pawns(0) == ["h0.4"]
    t.discard(0)
    assert t.legal() == {"discard -4", "discard 8"}  # a home pawn cannot move back


# ----------------------------------------------------------------------------- the seven


def test_the_seven_refuses_a_split_that_cannot_use_all_seven(table: Factory) -> None:
    t = table()
    t.deal("1 -4 2 3", "5 5 5 6", "7 6 6 6", "8 8 8 9")
    t.give("3", "6", "7", "9")  # player 0 gets the 7
    t.play("1:start@0")
    t.discard(0)
    t.play("-4:t0")
    t.discard(0)
    t.play("2:t60")  # a single pawn two squares before its start
    t.discard(0)
    # +3 … +6 would enter the home with steps left that a home pawn cannot use.
    assert t.legal() == {"7:t62+1", "7:t62+2", "7:t62+7", "discard 7"}
    t.play("7:t62+2")
    assert t.state.current_player() == 0 and t.state.observation(None).seven_left == 5
    assert t.legal() == {"7:t0+5"}  # the same player goes on; no discard mid-seven
    turns = t.state.turns()
    t.play("7:t0+5")
    assert t.pawns(0) == ["t5"] and t.state.turns() == turns + 1  # a seven is one turn
    assert t.state.current_player() == 1


@pytest.mark.parametrize("passed", [True, False])
def test_the_seven_captures_every_pawn_it_passes(table: Factory, passed: bool) -> None:
    t = table(seven_captures_passed=passed)
    t.deal("1 5 7 2", "1 -4 3 2", "6 6 6 2", "1 12 12 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0", "1:start@1", "discard 6", "1:start@3")
    t.play("5:t0", "-4:t16", "discard 6", "12:t48")
    t.play("discard 2", "discard 3", "discard 6", "12:t60")
    assert (t.pawns(0), t.pawns(1), t.pawns(3)) == (["t5"], ["t12"], ["t8"])
    t.play("7:t5+7")  # passes yellow on t8, lands on red on t12
    assert t.pawns(0) == ["t12"] and t.pawns(1) == [] and t.state.reserve(1) == 4
    assert t.pawns(3) == ([] if passed else ["t8"])
    assert t.state.last_move() == PawnMove(5, 12, False)
    assert t.state.last_captures() == ((8, 12) if passed else (12,))


def test_the_seven_splits_between_pawns(table: Factory) -> None:
    t = table()
    t.deal("1 -4 10 2", "1 5 5 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.turns(0, "1:start@0", "-4:t0", "10:start@0")  # green t60 and a pieu on t0
    t.end_deal()
    t.deal("7 8 8 12", "1 12 12 3", "3 3 8 7", "10 10 7 7")
    t.give("12", "3", "3", "7")  # player 0: 3 7 8 8
    t.discard(0)
    # t60 may not reach or pass its own pieu on t0.
    assert {text for text in t.legal() if text.startswith("7:t60")} == {
        "7:t60+1",
        "7:t60+2",
        "7:t60+3",
    }
    t.play("7:t0+3")  # the pieu moves first (it becomes ordinary), freeing the way home
    assert t.legal() == {f"7:t{square}+{n}" for square in (3, 60) for n in (1, 2, 3, 4)}
    t.play("7:t60+1", "7:t3+2", "7:t61+1")  # 3 + 1 + 2 + 1
    assert t.pawns(0) == ["t5", "t62"] and t.state.current_player() == 1


@pytest.mark.parametrize("passed", [True, False])
def test_the_seven_captures_on_the_way_home(table: Factory, passed: bool) -> None:
    t = table(seven_captures_passed=passed)
    t.deal("1 -4 7 2", "3 3 3 2", "6 6 6 2", "1 9 5 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0", "discard 3", "discard 6", "1:start@3")
    t.play("-4:t0", "discard 3", "discard 6", "9:t48")  # green t60, yellow t57
    t.play("discard 2", "discard 3", "discard 6", "5:t57")  # yellow t62
    t.play("7:t60+7")  # t61, t62, t63, the start square t0, then h0.1 … h0.3
    assert t.pawns(0) == ["h0.3"]
    assert t.pawns(3) == ([] if passed else ["t62"])


def test_a_seven_s_sub_moves_follow_the_option_also_when_memoised(table: Factory) -> None:
    """Green on t62 and t63 holds a seven. With ``seven_captures_passed`` t62 + 3 … + 6 would
    pass t63 and capture it, leaving steps that t62's pawn cannot use in the home; without it,
    t63 is passed and stays. The engine memoises a colour's seven sub-moves (shared by every
    state): the same position under both values, one after the other in one process, still
    gets each its own."""
    expected = {
        True: {"7:t62+1", "7:t62+2", "7:t62+7"},
        False: {f"7:t62+{n}" for n in range(1, 8)},
    }
    for passed in (True, False, True):
        t = table(seven_captures_passed=passed)
        t.deal("1 -4 2 9", "5 5 5 5", "6 6 6 6", "8 8 8 8")
        t.give("9", "5", "6", "8")
        t.turns(0, "1:start@0", "-4:t0", "2:t60")
        t.end_deal()
        t.deal("1 -4 3 9", "10 10 10 10", "12 12 12 12", "3 3 3 2")
        t.give("9", "10", "12", "3")
        t.turns(0, "1:start@0", "-4:t0", "3:t60")
        t.end_deal()
        t.deal("7 9 9 2", "7 7 7 2", "P P P P", "1 1 -4 -4")
        t.give("9", "7", "P", "1")
        t.discard(0)
        assert t.pawns(0) == ["t62", "t63"]
        assert {text for text in t.legal() if text.startswith("7:t62")} == expected[passed]


def test_a_seven_moves_one_colour_only(table: Factory) -> None:
    """2-player variant: green has one pawn two before its start, blue one on the track; the
    seven cannot put green home with steps left for blue."""
    t = table(players=2)
    t.deal("1 -4 2 1 7 3", "5 5 5 6 6 6")
    t.play("1:start@0", "discard 5", "-4:t0", "discard 5", "2:t60", "discard 5")
    t.play("1:start@2", "discard 6")  # blue pieu on t32
    moves = {text for text in t.legal() if text.startswith("7:t62")}
    assert moves == {"7:t62+1", "7:t62+2", "7:t62+7"}
    assert "7:t32+7" in t.legal() and "7:t32+3" in t.legal()
    t.play("7:t32+3")
    assert t.state.acting_colours() == (2,)  # the seven goes on with blue only
    assert all(text.startswith("7:t35") for text in t.legal())


# ----------------------------------------------------------------------------- swap


def test_swap_restrictions_and_notation(table: Factory) -> None:
    t = table()
    t.deal("1 10 10 2", "1 3 3 2", "1 12 P 6", "9 9 9 2")
    t.give("2", "2", "P", "2")
    t.play("1:start@0", "1:start@1", "1:start@2", "discard 9")
    t.play("10:t0", "discard 3", "12:t32", "discard 9")  # green t10, blue t44
    t.play("10:start@0", "discard 3", "discard 6", "discard 9")  # green pieu t0
    # Green's pawns first (the lower square first when both are green); never red's pieu on
    # t16; blue's ordinary pawn may be swapped.
    assert {text for text in t.legal() if text.startswith("P")} == {
        "P:t0~t10",
        "P:t0~t44",
        "P:t10~t44",
    }
    with pytest.raises(IllegalActionError):
        t.state.parse_action("P:t44~t0")  # the same swap written the other way round
    with pytest.raises(IllegalActionError):
        t.state.parse_action("P:t10~t16")
    own = t.state.clone()
    own.apply_action(own.parse_action("P:t0~t10"))
    assert own.pawns(0) == ["t0", "t10"]  # nothing moved, but the pieu is now ordinary
    t.play("P:t0~t44")
    assert t.pawns(0) == ["t10", "t44"] and t.pawns(2) == ["t0"]
    assert [t.state.reserve(c) for c in range(4)] == [2, 3, 3, 4]  # nobody captured


def test_swap_between_the_two_colours_of_the_two_player_variant(table: Factory) -> None:
    t = table(players=2)
    t.deal("1 1 P 2 3 5", "1 6 6 6 8 8")
    t.play("1:start@0", "1:start@1", "1:start@2", "discard 6", "2:t0", "discard 6")
    # Green t2 (ordinary), blue pieu t32, red pieu t16: one action, lower square first, legal
    # because it is legal with blue acting (its own pieu with any ordinary pawn).
    assert {text for text in t.legal() if text.startswith("P")} == {"P:t2~t32"}
    t.play("P:t2~t32")
    assert t.pawns(0) == ["t32"] and t.pawns(2) == ["t2"]


def test_two_ordinary_pawns_of_the_acting_colour_may_be_swapped(table: Factory) -> None:
    t = table(players=2)
    t.deal("1 2 10 P 3 5", "6 6 6 8 8 8")
    t.play("1:start@0", "discard 6", "2:t0", "discard 6", "10:start@0", "discard 6")
    t.play("5:t0", "discard 8")  # green t2 and t5, both ordinary
    assert "P:t2~t5" in t.legal()
    before = t.state.clone()
    t.play("P:t2~t5")
    assert t.pawns(0) == before.pawns(0) and t.state.hand(0) == ["3"]


# ----------------------------------------------------------------------------- joker


def test_joker_stands_for_any_card(table: Factory) -> None:
    t = table()
    t.deal("J 2 2 3", "3 3 5 5", "6 6 6 8", "9 9 9 8")
    t.give("3", "5", "8", "8")  # player 0: 2 2 8 J
    assert t.legal() == {"J=1:start@0", "discard 2", "discard 8", "discard J"}
    t.play("J=1:start@0")  # its aliases: test_notation
    assert t.pawns(0) == ["t0!"] and "J" not in t.state.hand(0)
    t.discard(0)
    assert t.legal() == {"2:t0", "8:t0", "discard 2", "discard 8"}


def test_joker_moves_sevens_swaps_and_backs(table: Factory) -> None:
    t = table()
    t.deal("1 J 2 3", "3 3 5 5", "J 6 6 8", "9 9 9 8")
    t.give("3", "5", "6", "8")
    t.play("1:start@0")
    t.discard(0)
    legal = t.legal()
    assert {"J=5:t0", "J=12:t0", "J=-4:t0", "J=7:t0+7", "J=7:t0+3"} <= legal
    assert "J=13:t0" not in legal and "J=1:start@0" not in legal  # a pieu is on t0
    assert not any(text.startswith("J=P") for text in legal)  # nothing to swap with
    t.play("J=7:t0+3")
    assert t.legal() == {"7:t3+1", "7:t3+2", "7:t3+3", "7:t3+4"}  # written as a plain 7
    t.play("7:t3+4")
    assert t.pawns(0) == ["t7"]


def test_joker_and_13_with_option_with_13(table: Factory) -> None:
    t = table(with_13=True)
    t.deal("J 13 2 3", "3 3 5 5", "13 6 6 8", "9 9 9 8")
    t.give("3", "5", "8", "8")
    assert {"J=1:start@0", "13:start@0"} <= t.legal()
    t.play("13:start@0")
    t.discard(0)
    assert "J=13:t0" in t.legal()
    t.play("J=13:t0")
    assert t.pawns(0) == ["t13"]


# ----------------------------------------------------------------------------- discards


def test_discard_any_is_always_allowed_between_sevens(table: Factory) -> None:
    t = green_at_t60(table, "7")
    assert t.legal() >= {"discard 7", "discard 2", "7:t60+7", "2:t60"}
    t.play("7:t60+3")
    assert not any(text.startswith("discard") for text in t.legal())


def test_discard_stuck_only_when_nothing_resolves_then_the_whole_hand(table: Factory) -> None:
    t = table(discard="stuck")
    t.deal("2 3 5 6", "1 1 1 2", "8 8 8 9", "1 9 9 2")
    t.give("6", "2", "8", "2")  # player 0: 2 3 5 8, nothing to move, no start card
    assert t.legal() == {"discard all"}
    t.play("discard all")
    obs = t.state.observation(3)
    assert obs.revealed == (("2", "3", "5", "8"),) and obs.hand_sizes[0] == 0
    assert t.state.turns() == 1 and t.state.current_player() == 1
    assert t.legal() == {"1:start@1"}  # a resolvable card: no discard
    t.play("1:start@1")
    assert t.state.current_player() == 2
    assert t.legal() == {"discard all"}
    t.play("discard all", "1:start@3")
    assert t.state.current_player() == 1  # player 0 sits out (no cards), and so does 2
    assert t.state.observation(None).revealed == (("2", "3", "5", "8"), ("6", "8", "8", "9"))


def test_joker_is_resolvable_in_stuck_mode(table: Factory) -> None:
    t = table(discard="stuck")
    t.deal("J 3 5 6", "1 1 1 2", "8 8 8 9", "1 9 9 2")
    t.give("6", "2", "8", "2")
    assert t.legal() == {"J=1:start@0"}


# ----------------------------------------------------------------------------- a finished player


def test_a_finished_player_moves_the_partners_pawns(table: Factory) -> None:
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
    assert t.state.acting_colours() == (0,)
    t.play("J=5:t60")  # green's fourth pawn gets home
    assert t.pawns(0) == ["h0.1", "h0.2", "h0.3", "h0.4"]
    assert not t.state.is_terminal()  # blue is not home: the team has not won
    t.end_deal()
    t.deal("1 5 5 P", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("P", "2", "6", "2")  # a finished player still exchanges
    t.discard(0)
    assert t.state.acting_colours() == (2,)  # from the next card on: the partner's colour
    assert t.legal() == {"1:start@2", "discard 1", "discard 5", "discard 6"}
    t.play("1:start@2")
    assert t.pawns(2) == ["t32!"]


# ----------------------------------------------------------------------------- the end


def test_max_turns_draws(table: Factory) -> None:
    t = table(max_turns=3)
    t.deal("1 1 2 2", "3 3 2 2", "5 5 6 6", "8 8 9 9")
    t.give("2", "2", "5", "8")
    t.play("1:start@0", "discard 3")
    assert not t.state.is_terminal()
    t.play("discard 5")
    assert t.state.is_terminal() and t.state.returns() == [0.0] * 4
    assert t.state.winners() == () and t.state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        t.state.apply_action(t.state.game.action(0))


def progress(state: TacTikState, colour: int) -> int:
    """How far ``colour``'s pawns have come: squares travelled, home pawns counting most."""
    track = state.game.rules.track
    total = 0
    for name in state.pawns(colour):
        if name.startswith("h"):
            total += 2 * track + int(name[-1])
        elif not name.endswith("!"):
            total += 1 + (int(name[1:]) - 16 * colour) % track
        else:
            total += 1
    return total


def greedy(state: TacTikState, rng: random.Random) -> Any:
    """The action that leaves the mover's team furthest ahead of the others (ties at random)."""
    rules = state.game.rules
    mine = set(rules.team_colours[state.current_player()])
    best: list[Any] = []
    top = None
    for action in state.legal_actions():
        state.apply_action(action)
        score = sum(progress(state, c) * (1 if c in mine else -1) for c in range(rules.colours))
        state.undo_action()
        if top is None or score > top:
            top, best = score, [action]
        elif score == top:
            best.append(action)
    return rng.choice(best)


def play_out(options: dict[str, Any], seed: int) -> TacTikState:
    game = tikigames.load("tactik", **options)
    rng = random.Random(seed)
    state: TacTikState = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else greedy(state, rng)
        )
    return state


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 6}, 0),
        ({"players": 2}, 1),
        ({"players": 2, "discard": "stuck", "jokers": 0}, 2),
        ({"discard": "stuck", "with_13": True, "jokers": 4}, 3),
    ],
)
def test_complete_games_end_with_a_team_home(options: dict[str, Any], seed: int) -> None:
    state = play_out({**options, "max_turns": None}, seed)
    game = state.game
    rules = game.rules
    winners = state.winners()
    assert winners and state.legal_actions() == [] and state.observation(0).phase == "over"
    for player in winners:
        for colour in rules.team_colours[player]:
            assert state.pawns(colour) == [f"h{colour}.{k}" for k in range(1, 5)]
    assert sorted(winners) == list(rules.team_players[winners[0]])
    assert state.returns() == [1.0 if p in winners else -1.0 for p in range(game.num_players)]
    assert all(state.observation(p).winners == winners for p in range(game.num_players))
    # The whole game reloads from its JSON, and undoes back to the start.
    loaded = tikigames.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded == state and loaded.returns() == state.returns()
    while loaded.history():
        loaded.undo_action()
    assert loaded == game.new_initial_state()
    # A win on the last allowed turn stands; one turn fewer is a draw.
    history = [str(action) for action in state.history()]
    for limit, expected in ((state.turns(), state.returns()), (state.turns() - 1, None)):
        limited = tikigames.load("tactik", **{**options, "max_turns": limit})
        replay = limited.new_initial_state()
        for text in history:
            if replay.is_terminal():
                break
            replay.apply_action(replay.parse_action(text))
        assert replay.is_terminal() and replay.turns() == limit
        assert replay.returns() == (expected or [0.0] * game.num_players)


def test_smoke_random_play_never_gets_stuck() -> None:
    """Random players, every option set: a player to move always has an action."""
    for options in ({}, {"players": 6, "discard": "stuck"}, {"players": 2, "discard": "stuck"}):
        game = tikigames.load("tactik", **options, max_turns=300)
        rng = random.Random(9)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                assert legal
                state.apply_action(
                    state.sample_chance(rng) if state.is_chance_node() else rng.choice(legal)
                )
            assert state.turns() == 300 or state.winners()


# ----------------------------------------------------------------------------- accessors


def test_accessors_refuse_bad_arguments() -> None:
    state = tikigames.load("tactik", players=6).new_initial_state()
    assert state.acting_colours() == () and state.winners() == () and state.turns() == 0
    assert [state.reserve(colour) for colour in range(6)] == [4] * 6
    # A value out of range is a ValueError; a value of the wrong type is refused too (a
    # compiled build checks annotated types itself, with TypeError; it also takes a bool for
    # an int, so True is refused by the pure build only, and not tested here).
    for bad, error in [(-1, ValueError), (6, ValueError)] + [
        (wrong, (TypeError, ValueError)) for wrong in ("0", None)
    ]:
        with pytest.raises(error):
            state.pawns(bad)
        with pytest.raises(error):
            state.reserve(bad)
        with pytest.raises(error):
            state.hand(bad)


# ----------------------------------------------------------------------------- the race's guess


def test_evaluate_guesses_from_the_race(table: Factory) -> None:
    """The guess is the teams' progress in laps against each other, through tanh(·/2): zero at
    the start, one started pawn worth 1/68 of a lap, a pawn in home square k worth 64 + k."""
    t = table()
    assert t.state.evaluate() == [0.0] * 4
    t.deal("1 10 2 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    t.play("1:start@0")
    lead = math.tanh(1 / 68 / 2)
    assert t.state.evaluate() == pytest.approx([lead, -lead, lead, -lead])
    t.discard(0)
    t.play("10:t0")  # green's pawn: 1 + 10 squares from its start
    lead = math.tanh(11 / 68 / 2)
    assert t.state.evaluate() == pytest.approx([lead, -lead, lead, -lead])
    undone = t.state.undo_action()
    assert t.state.evaluate() == pytest.approx([math.tanh(1 / 136), -math.tanh(1 / 136)] * 2)
    t.state.apply_action(undone)


def test_evaluate_in_the_six_player_game_weighs_each_team_against_the_others_mean() -> None:
    game = tikigames.load("tactik", players=6)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.current_player() == tikigames.CHANCE or not any(state.pawns(c) for c in range(6)):
        legal = state.legal_actions()
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            starts = [a for a in legal if "start" in str(a)]
            state.apply_action(starts[0] if starts else legal[0])
    guess = state.evaluate()
    teams = game.rules.team_players
    assert all(guess[p] == guess[q] for p, q in teams)
    mover = next(c for c in range(6) if state.pawns(c))
    ahead = [p for p in range(6) if mover in game.rules.team_colours[p]]
    assert all(guess[p] > 0 for p in ahead)
    assert all(guess[p] < 0 for p in range(6) if p not in ahead)


# ----------------------------------------------------------------------------- the last move


def test_the_last_move_is_recorded_not_guessed() -> None:
    """``last_move`` and ``last_captures`` agree with the board before and after every action
    of random games (in the 2-player variant a pawn passing another colour's start square does
    not enter its home, which a guess from the board after the move cannot tell)."""
    for players in (2, 4, 6):
        game = tikigames.load("tactik", players=players)
        colours = game.rules.colours
        for seed in range(3):
            state = game.new_initial_state()
            assert state.last_move() is None and state.last_captures() == ()
            rng = random.Random(seed)
            while not state.is_terminal():
                before = state.clone()
                action = state.random_action(rng)
                state.apply_action(action)
                move, captured = state.last_move(), state.last_captures()
                assert state.observation(None).last_move == move
                if move is None:
                    assert not captured and before.track() == state.track()
                    assert before.homes() == state.homes()
                    continue
                assert move.source == (
                    -1 - action.square if ":start@" in action.text else action.square
                )
                track = before.track()
                for square in captured:  # a pawn stood there, and its colour's reserve grew
                    assert track[square] >= 0
                gained = sum(max(0, state.reserve(c) - before.reserve(c)) for c in range(colours))
                own = sum(  # a start that captures its own colour's pawn leaves the reserve
                    1
                    for square in captured
                    if ":start@" in action.text and track[square] == square >> 4
                )
                assert len(captured) == gained + own
                if move.target < game.rules.track and not move.swap:
                    assert state.track()[move.target] >= 0


def test_the_result_in_words() -> None:
    state = tikigames.play(tikigames.load("tactik", max_turns=5), [RandomBot()] * 4, seed=1)
    assert state.result_text() == "a draw" and "Game over: a draw" in str(state)
    assert tikigames.load("tactik").new_initial_state().result_text() is None

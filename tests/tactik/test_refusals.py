"""Why Tac-Tik refuses an action: one test per rule of ``docs/games/tactik.rst`` that can refuse
one, each asserting the exact reason (``state.illegal_reason``, ``IllegalActionError.reason``
and its message) and that the refusal changes nothing; then a property over random games: every
refusal names a specific rule, never the fallback, and legal actions have no reason.

Positions are reached through real actions, as in ``test_rules.py``: in the 4-player game
player 0 plays green (start t0), 1 red (t16), 2 blue (t32), 3 yellow (t48).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, cast

import pytest

import tikigames
from tikigames import IllegalActionError
from tikigames.tactik import TacTikAction, TacTikState
from tikigames.tactik.data import CARD_INDEX
from tikigames.tactik.refusals import FALLBACK, rule_against

Table = Any  # the conftest's driver
Factory = Callable[..., Table]


def refused(state: TacTikState, text: str, reason: str) -> None:
    """``text`` is refused in ``state`` for ``reason``, by every door, and nothing changes."""
    action = state.game.action_table.parse(text)
    before = (state.history(), json.dumps(state.to_json()), state.legal_actions(), hash(state))
    assert state.illegal_reason(action) == reason
    assert state.illegal_reason(int(action)) == reason
    with pytest.raises(IllegalActionError) as raised:
        state.apply_action(action)
    assert raised.value.reason == reason and reason in str(raised.value)
    with pytest.raises(IllegalActionError) as raised:
        state.parse_action(text)
    assert raised.value.reason == reason
    after = (state.history(), json.dumps(state.to_json()), state.legal_actions(), hash(state))
    assert after == before


def green_at_t60(table: Factory, fourth: str, **options: Any) -> Table:
    """Player 0 starts a pawn and moves it back to t60 with ``-4``, keeping ``fourth`` and a 2
    (as in ``test_rules.py``)."""
    t = table(**options)
    t.deal(f"1 -4 {fourth} 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0")
    t.discard(0)
    t.play("-4:t0")
    t.discard(0)
    assert t.pawns(0) == ["t60"]
    return t


# ----------------------------------------------------------------------------- dealing


def test_dealing_a_card_the_talon_has_not() -> None:
    """Dealing and the exchange: each card dealt is a card of the talon."""
    state = tikigames.load("tactik").new_initial_state()
    refused(state, "deal 13", "the deck in use has no 13 (option with_13 is off)")
    for _ in range(2):
        state.apply_action(state.parse_action("deal J"))
    refused(state, "deal J", "no Joker (J) is left in the talon")
    state = tikigames.load("tactik", jokers=0).new_initial_state()
    refused(state, "deal J", "the deck in use has no Jokers (option jokers is 0)")


def test_the_cards_are_dealt_first() -> None:
    """Dealing and the exchange: a deal's cards are chance events, one player served at a time."""
    state = tikigames.load("tactik").new_initial_state()
    why = "the cards are being dealt: the next event is a card dealt to player {} (deal …)"
    refused(state, "give 7", why.format(0))
    for card in ("1", "2", "3", "5", "6"):
        state.apply_action(state.parse_action("deal " + card))
    refused(state, "1:start@1", why.format(1))


# ----------------------------------------------------------------------------- the exchange


def test_the_exchange_gives_a_card_of_the_hand(table: Factory) -> None:
    """The exchange: each player chooses one card of their hand for their partner."""
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    refused(t.state, "give 2", "player 0 holds no 2 to give their partner")
    t.do("give J")
    refused(t.state, "give J", "player 1 holds no Joker (J) to give their partner")


def test_the_exchange_comes_before_play(table: Factory) -> None:
    """The exchange follows every deal, before the first card is played."""
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    refused(
        t.state,
        "1:start@0",
        "the exchange comes first: player 0 chooses a card of their hand for their partner "
        "(give …)",
    )
    t.do("give 7")
    refused(
        t.state,
        "deal 5",
        "the deal is complete: now each player gives their partner a card, player 1 first (give …)",
    )


def test_no_exchange_during_play_nor_in_the_two_player_variant(table: Factory) -> None:
    """The exchange comes once, after the deal; there is none with 2 players [A]."""
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("7", "2", "2", "2")
    why = "the exchange is over: it comes right after the deal, before the first card"
    refused(t.state, "give 1", why)
    refused(t.state, "deal 5", "the deal is complete: cards are dealt only at the start of a deal")
    t = table(players=2)
    t.deal("1 2 3 5 6 7", "8 9 10 12 P -4")
    refused(t.state, "give 1", "there is no exchange in the 2-player variant")


# ----------------------------------------------------------------------------- the turn


def test_a_card_is_played_from_the_hand(table: Factory) -> None:
    """Turn: the player to move plays exactly one card from their hand."""
    t = table()
    t.deal("1 10 2 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    refused(
        t.state,
        "5:t0",
        (
            "a card is played or discarded from the hand: "
            "player 0 holds no 5 to play (their hand: 1 2 2 10)"
        ),
    )
    refused(
        t.state,
        "J=1:start@0",
        (
            "a card is played or discarded from the hand: "
            "player 0 holds no Joker (J) to play (their hand: 1 2 2 10)"
        ),
    )
    refused(
        t.state,
        "discard 7",
        (
            "a card is played or discarded from the hand: "
            "player 0 holds no 7 to discard (their hand: 1 2 2 10)"
        ),
    )


def test_discard_any_never_throws_the_whole_hand(table: Factory) -> None:
    """Option ``discard="any"``: one chosen card is discarded, never the whole hand."""
    t = table()
    t.deal("1 10 2 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    refused(
        t.state,
        "discard all",
        'the whole hand is discarded only with option discard="stuck"; with discard="any" one '
        "chosen card is (discard …)",
    )


def test_discard_stuck_only_the_whole_hand_and_only_when_stuck(table: Factory) -> None:
    """Option ``discard="stuck"``: only when no card can be resolved, then the whole hand."""
    t = table(discard="stuck")
    t.deal("2 3 5 6", "1 1 1 2", "8 8 8 9", "1 9 9 2")
    t.give("6", "2", "8", "2")
    refused(
        t.state,
        "discard 2",
        'with option discard="stuck" a single card is never discarded: the whole hand is '
        "(discard all), and only when no card in it can be resolved",
    )
    t.play("discard all")
    refused(
        t.state,
        "discard all",
        "the whole hand may be discarded only when no card in it can be resolved: 1:start@1 can "
        "be played",
    )


def test_never_anything_but_the_seven_in_the_middle_of_a_seven(table: Factory) -> None:
    """Turn: never a discard in the middle of a seven; the same player moves until the 7 steps
    are used, in sub-moves written ``7:…``."""
    t = green_at_t60(table, "7")
    t.play("7:t60+3")
    refused(
        t.state,
        "discard 2",
        (
            "no card is discarded in the middle of a seven: "
            "its remaining 4 steps must be used first (7:… sub-moves)"
        ),
    )
    refused(
        t.state,
        "2:t63",
        "a seven is being played: its remaining 4 steps must be used first (7:… sub-moves)",
    )
    refused(
        t.state,
        "J=7:t63+4",
        "the seven's card is already played: its further sub-moves are written 7:…",
    )
    t.play("7:t63+3")
    refused(
        t.state,
        "discard 2",
        (
            "no card is discarded in the middle of a seven: "
            "its remaining 1 step must be used first (7:… sub-moves)"
        ),
    )


def test_only_pawns_of_the_acting_colour_are_moved(table: Factory) -> None:
    """Card resolutions: only pawns of the acting colour are moved (and started)."""
    t = table()
    t.deal("1 2 2 3", "3 3 3 6", "6 6 6 9", "1 12 5 9")
    t.give("3", "6", "9", "9")
    t.play("1:start@0")
    t.discard(3)
    assert t.state.hand(3) == ["1", "5", "6", "12"]
    refused(
        t.state,
        "5:t0",
        "only pawns of the acting colour are moved: t0 holds a green pawn, and player 3 moves "
        "yellow",
    )
    refused(
        t.state,
        "1:start@1",
        "only pawns of the acting colour are moved: start@1 would start a red pawn, and player 3 "
        "moves yellow",
    )
    refused(
        t.state,
        "5:t50",
        ("there is no pawn on t50 to move: yellow has no pawn out (start one with 1 or 10)"),
    )
    refused(
        t.state,
        "5:h3.1",
        ("there is no pawn on h3.1 to move: yellow has no pawn out (start one with 1 or 10)"),
    )


def test_a_finished_player_moves_the_partners_colour(table: Factory) -> None:
    """Acting colour: from the card after a player's 4th pawn gets home, their partner's."""
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
    t.turns(0, "J=6:t60", "10:start@0", "-4:t0", "J=5:t60")
    t.end_deal()
    t.deal("1 5 5 P", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("P", "2", "6", "2")
    t.discard(0)
    assert t.state.acting_colours() == (2,)
    partner = "player 0 moves blue (their partner's: their own pawns are all home)"
    refused(
        t.state,
        "1:start@0",
        f"only pawns of the acting colour are moved: start@0 would start a green pawn, and "
        f"{partner}",
    )
    refused(
        t.state,
        "5:h0.1",
        f"only pawns of the acting colour are moved: h0.1 holds a green pawn, and {partner}",
    )


# ----------------------------------------------------------------------------- start


def test_start_needs_a_pawn_in_the_reserve(table: Factory) -> None:
    """Start: illegal if the reserve is empty."""
    t = table()
    t.deal("1 2 10 3", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.turns(0, "1:start@0", "2:t0", "10:start@0", "3:t0")
    t.end_deal()
    t.deal("1 5 10 8", "8 8 12 7", "10 12 12 12", "P P P 7")
    t.give("8", "8", "10", "P")
    t.turns(0, "1:start@0", "5:t0", "10:start@0")
    t.discard(0)
    assert t.state.reserve(0) == 0 and t.state.hand(0) == ["10"]
    refused(t.state, "10:start@0", "a start needs a pawn in the reserve: green's reserve is empty")


def test_start_is_illegal_while_a_pieu_stands_there(table: Factory) -> None:
    """Start: illegal if a pieu already stands on the start square (a Joker's too)."""
    t = table()
    t.deal("1 10 J 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    t.play("1:start@0")
    t.discard(0)
    why = "a start is illegal while a pieu stands on the start square: green's pieu is on t0"
    refused(t.state, "10:start@0", why)
    refused(t.state, "J=1:start@0", why)


# ----------------------------------------------------------------------------- the path rule


def test_a_pawn_in_its_home_moves_at_most_to_home_square_4(table: Factory) -> None:
    """Path rule: a pawn in home j moves to home j + k only if j + k ≤ 4."""
    t = green_at_t60(table, "5")
    t.play("5:t60")
    t.discard(0)
    assert t.pawns(0) == ["h0.1"] and t.state.hand(0) == ["2"]
    t.play("2:h0.1")
    t.end_deal()
    t.deal("5 8 8 12", "7 7 10 10", "5 8 12 12", "7 7 P P")
    t.give("12", "7", "5", "P")
    t.discard(0)
    refused(
        t.state,
        "5:h0.3",
        "a pawn in its home moves only up to home square 4: h0.3 + 5 is past h0.4",
    )


def test_the_home_squares_on_the_way_must_be_empty(table: Factory) -> None:
    """Path rule: in the home, the squares in between and at the end must be empty."""
    t = green_at_t60(table, "5")
    t.play("5:t60")
    t.discard(0)
    t.play("2:h0.1")
    t.end_deal()
    t.deal("10 -4 5 3", "12 12 12 7", "5 8 8 7", "7 7 1 1")
    t.give("5", "7", "5", "1")
    t.turns(0, "10:start@0", "-4:t0", "5:t60")
    t.discard(0)
    assert t.pawns(0) == ["h0.1", "h0.3"] and t.state.hand(0) == ["3"]
    refused(
        t.state,
        "3:h0.1",
        "in the home the squares in between and at the end must be empty: h0.3 is taken",
    )


def test_no_pieu_may_be_passed(table: Factory) -> None:
    """Path rule: no track square on the way may hold a pieu (it cannot be passed)."""
    t = table()
    t.deal("1 2 2 3", "3 3 3 6", "6 6 6 9", "1 12 5 9")
    t.give("3", "6", "9", "9")
    t.play("1:start@0")
    t.discard(3)
    t.play("1:start@3")
    t.discard(3)
    t.play("12:t48")
    t.discard(3)
    refused(
        t.state,
        "5:t60",
        "no track square on the way may hold a pieu: t60 + 5 would pass green's pieu on t0",
    )


def test_no_pawn_may_land_on_a_pieu(table: Factory) -> None:
    """Path rule: no track square on the way, the landing square included, may hold a pieu."""
    t = table()
    t.deal("1 10 6 3", "5 5 1 6", "12 12 12 12", "9 9 9 8")
    t.give("3", "6", "12", "8")
    t.play("1:start@0", "discard 5", "discard 12", "discard 9")
    t.play("10:t0", "1:start@1", "discard 12", "discard 9")
    assert t.pawns(0) == ["t10"] and t.state.hand(0) == ["6", "12"]
    refused(
        t.state,
        "6:t10",
        "no track square on the way may hold a pieu: t10 + 6 would land on red's pieu on t16",
    )
    refused(
        t.state,
        "12:t10",
        "no track square on the way may hold a pieu: t10 + 12 would pass red's pieu on t16",
    )


def test_a_pieu_bars_its_own_colour_on_the_way_home(table: Factory) -> None:
    """Path rule and pieu: a pieu blocks every pawn, its own colour's too, on the way home."""
    t = table()
    t.deal("1 -4 10 2", "3 3 3 2", "5 6 6 6", "9 9 9 2")
    t.give("2", "2", "5", "2")
    for text in ("1:start@0", "-4:t0", "10:start@0"):
        t.play(text)
        t.discard(0)
    refused(
        t.state,
        "5:t60",
        "no track square on the way may hold a pieu: t60 + 5 would pass green's own pieu on t0 "
        "on the way home",
    )


# ----------------------------------------------------------------------------- back 4


def test_back_four_cannot_pass_a_pieu(table: Factory) -> None:
    """Back 4: it may pass ordinary pawns, not pieux."""
    t = table()
    t.deal("1 2 10 3", "5 5 5 6", "-4 6 6 8", "9 9 9 8")
    t.give("3", "6", "-4", "8")
    for text in ("1:start@0", "2:t0", "10:start@0"):
        t.play(text)
        t.discard(0)
    refused(
        t.state,
        "-4:t2",
        "-4 may pass ordinary pawns, not pieux: t2 − 4 would pass green's pieu on t0",
    )


def test_back_four_cannot_land_on_a_pieu(table: Factory) -> None:
    """Back 4: it cannot land on a pieu."""
    t = table()
    t.deal("1 10 10 3", "5 5 1 6", "-4 12 12 12", "9 9 9 8")
    t.give("3", "6", "-4", "8")
    t.play("1:start@0", "discard 5", "discard 12", "discard 9")
    t.play("10:t0", "discard 5", "discard 12", "discard 9")
    t.play("10:t10", "1:start@1", "discard 12", "discard 9")
    refused(t.state, "-4:t20", "-4 cannot land on a pieu: t20 − 4 is red's pieu on t16")


# ----------------------------------------------------------------------------- the seven


def test_all_seven_steps_must_be_used(table: Factory) -> None:
    """Seven: all 7 steps must be used; a sub-move is legal only if the rest can be used."""
    t = table()
    t.deal("1 -4 2 3", "5 5 5 6", "7 6 6 6", "8 8 8 9")
    t.give("3", "6", "7", "9")
    for text in ("1:start@0", "-4:t0", "2:t60"):
        t.play(text)
        t.discard(0)
    refused(
        t.state,
        "7:t62+3",
        "all 7 steps of a seven must be used: after t62 + 3 the remaining 4 steps could not be",
    )
    t.play("7:t62+1")
    refused(
        t.state,
        "7:t63+2",
        "all 7 steps of a seven must be used: after t63 + 2 the remaining 4 steps could not be",
    )
    refused(t.state, "7:t63+7", "the seven has only 6 steps left: t63 + 7 is too many")
    refused(t.state, "7:t10+1", "there is no pawn on t10")


def test_a_seven_moves_one_colour_only(table: Factory) -> None:
    """Seven: pawns of the acting colour, never two colours (the 2-player variant)."""
    t = table(players=2)
    t.deal("1 -4 2 1 7 3", "5 5 5 6 6 6")
    t.play("1:start@0", "discard 5", "-4:t0", "discard 5", "2:t60", "discard 5")
    t.play("1:start@2", "discard 6")
    t.play("7:t32+3")
    refused(
        t.state,
        "7:t62+1",
        "a seven moves pawns of one colour only: this one moves blue, and t62 holds a green pawn",
    )


# ----------------------------------------------------------------------------- swap


def test_swap_pawns_and_notation(table: Factory) -> None:
    """Swap: pieux of other colours cannot take part; the acting colour's pawn is written
    first, and the lower square first when both are the acting colour's."""
    t = table()
    t.deal("1 10 10 2", "1 3 3 2", "1 12 P 6", "9 9 9 2")
    t.give("2", "2", "P", "2")
    t.play("1:start@0", "1:start@1", "1:start@2", "discard 9")
    t.play("10:t0", "discard 3", "12:t32", "discard 9")
    t.play("10:start@0", "discard 3", "discard 6", "discard 9")
    state = t.state
    refused(
        state,
        "P:t10~t16",
        "the pieux of other colours cannot take part in a swap: t16 is red's pieu",
    )
    refused(state, "P:t44~t0", "a swap is written with the acting colour's pawn first: P:t0~t44")
    refused(
        state,
        "P:t10~t0",
        "when both pawns are green's, the swap is written with the lower square first: P:t0~t10",
    )
    refused(state, "P:t10~t11", "there is no pawn on t11")


def test_swap_in_the_two_player_variant(table: Factory) -> None:
    """Swap, 2-player variant: one pieu only, the acting colour's; a swap between the player's
    two colours is written with the lower square first; other colours' pawns alone cannot."""
    t = table(players=2)
    t.deal("1 1 P 5 6 J", "1 1 2 3 9 9")
    t.play("1:start@0", "1:start@1", "1:start@2", "2:t16")
    refused(
        t.state,
        "P:t0~t32",
        "a swap may involve the acting colour's own pieu only: t0 and t32 are the pieux of green "
        "and blue",
    )
    t.play("discard 5", "1:start@3", "discard 6", "3:t48")
    refused(
        t.state,
        "P:t18~t51",
        "only pawns of the acting colour are moved: t18 and t51 hold red and yellow pawns, and "
        "player 0 moves green or blue",
    )
    t.play("J=2:t0", "discard 9")
    refused(
        t.state,
        "P:t32~t2",
        "when the pawns are player 0's two colours, the swap is written with the lower square "
        "first: P:t2~t32",
    )


# ----------------------------------------------------------------------------- joker and 13


def test_a_joker_and_the_13_belong_to_the_deck_in_use(table: Factory) -> None:
    """Deck and Joker: a Joker counts as any other card of the deck in use (13 only with
    ``with_13``); without ``with_13`` there is no 13, with ``jokers=0`` no Joker."""
    t = table()
    t.deal("1 J 2 3", "3 3 5 5", "J 6 6 8", "9 9 9 8")
    t.give("3", "5", "6", "8")
    t.play("1:start@0")
    t.discard(0)
    refused(t.state, "13:t0", "the deck in use has no 13 (option with_13 is off)")
    refused(
        t.state,
        "J=13:t0",
        "a Joker counts as a card of the deck in use, which has no 13 (option with_13)",
    )
    t = table(jokers=0)
    t.deal("1 10 2 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    refused(t.state, "J=1:start@0", "the deck in use has no Jokers (option jokers is 0)")


# ----------------------------------------------------------------------------- the end


def test_nothing_after_a_draw(table: Factory) -> None:
    """End: option ``max_turns`` draws the game."""
    t = table(max_turns=3)
    t.deal("1 1 2 2", "3 3 2 2", "5 5 6 6", "8 8 9 9")
    t.give("2", "2", "5", "8")
    t.play("1:start@0", "discard 3", "discard 5")
    refused(t.state, "discard 8", "the game is over: drawn after 3 turns (option max_turns)")


@pytest.mark.parametrize(("players", "won"), [(2, "player {} has won"), (4, "players {} have won")])
def test_nothing_after_a_win(players: int, won: str) -> None:
    """End: a team wins as soon as all its pawns are home. On the way, in the 2-player variant,
    acting colour: once one colour is home the player plays the other."""
    game = tikigames.load("tactik", players=players, max_turns=None)
    rng = random.Random(1)
    state: TacTikState = game.new_initial_state()
    names = ("green", "red", "blue", "yellow")
    home_colour_seen = False
    while not state.is_terminal():
        legal = state.legal_actions()
        player = state.current_player()
        acting = state.acting_colours()
        if players == 2 and len(acting) == 1 and not state.seven_left():
            (done,) = (c for c in (player, player + 2) if c not in acting)
            card = state.hand(player)[0]
            if card in ("1", "2", "3", "5", "6", "8", "9", "10", "12"):
                refused(
                    state,
                    f"{card}:h{done}.1",
                    f"only pawns of the acting colour are moved: h{done}.1 holds a "
                    f"{names[done]} pawn, and player {player} moves {names[acting[0]]} "
                    f"({names[done]}'s pawns are all home)",
                )
                home_colour_seen = True
        resolutions = [a for a in legal if not str(a).startswith("discard")]
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(resolutions or legal)
        )
    reason = "the game is over: " + won.format(" and ".join(map(str, state.winners())))
    refused(state, "deal 5", reason)
    assert home_colour_seen or players != 2


# ----------------------------------------------------------------------------- the property


OPTIONS = [
    {},
    {"players": 2},
    {"players": 6},
    {"discard": "stuck"},
    {"with_13": True, "jokers": 4, "seven_captures_passed": False},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_every_refusal_in_random_play_names_its_rule(options: dict[str, Any]) -> None:
    """In random games, every illegal action tried — mostly ones using a card the player holds,
    so that the card's own rules are reached — gets a specific reason (never the fallback),
    which the error carries; a legal action has none."""
    game = tikigames.load("tactik", max_turns=None, **options)
    table = [cast(TacTikAction, game.action(a)) for a in range(game.num_distinct_actions)]
    reasons: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state: TacTikState = game.new_initial_state()
        for _ in range(600):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if rng.random() < 0.1:
                ids = {int(a) for a in legal}
                player = state.current_player()
                held = (
                    {CARD_INDEX[card.lower()] for card in state.hand(player)}
                    if player >= 0
                    else set()
                )
                pool = [a for a in table if a.card in held and int(a) not in ids]
                tried = rng.sample(pool, min(20, len(pool))) + rng.sample(table, 5)
                for action in tried:
                    if int(action) in ids:
                        continue
                    reason = state.illegal_reason(action)
                    assert isinstance(reason, str) and reason and reason != FALLBACK, action
                    with pytest.raises(IllegalActionError) as raised:
                        state.apply_action(action)
                    assert raised.value.reason == reason
                    reasons.add(reason.split(":")[0])
                for action in rng.sample(legal, min(5, len(legal))):
                    assert state.illegal_reason(action) is None
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(legal)
            )
    assert len(reasons) >= 8  # the walk met many rules, not one


@pytest.mark.parametrize("options", OPTIONS)
def test_the_rules_against_are_the_rules(options: dict[str, Any]) -> None:
    """``rule_against`` states the rules apart from the move generator: over the whole action
    table of positions met in random games, it finds no rule against exactly the legal actions
    — so a reason is never given for a legal action, nor the fallback for an illegal one."""
    game = tikigames.load("tactik", max_turns=None, **options)
    table = [cast(TacTikAction, game.action(a)) for a in range(game.num_distinct_actions)]
    rng = random.Random(5)
    state: TacTikState = game.new_initial_state()
    checked = sevens = 0
    while checked < 40:
        legal = state.legal_actions()
        pick = rng.random() < 0.04 or state.is_terminal()
        if state.seven_left() and sevens < 8:
            pick, sevens = True, sevens + 1
        if pick:
            free = {int(a) for a in table if rule_against(state, a) is None}
            assert free == {int(a) for a in legal}, state.history()
            checked += 1
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(legal)
        )
    assert sevens == 8

"""Tac-Tik's action table (its stable id ranges) and notation: canonical texts, parsing, aliases,
hidden parts and bad input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tikigames
from tikigames import ActionError, IllegalActionError
from tikigames.tactik.actions import (
    BACK,
    DEAL,
    DISCARD,
    DISCARD_ALL,
    FORWARD,
    GIVE,
    SEVEN,
    START,
    SWAP_PAWNS,
    TacTikAction,
)

Table = Any  # the conftest's driver
Factory = Callable[..., Table]

#: The docs' action table: kind, first id and last id with 4 colours, then with 6.
RANGES = [
    (START, (0, 15), (0, 23)),
    (FORWARD, (16, 1615), (24, 2423)),
    (BACK, (1616, 1743), (2424, 2615)),
    (SEVEN, (1744, 2863), (2616, 4295)),
    (SWAP_PAWNS, (2864, 10927), (4296, 22535)),
    (DISCARD, (10928, 10941), (22536, 22549)),
    (DISCARD_ALL, (10942, 10942), (22550, 22550)),
    (GIVE, (10943, 10956), (22551, 22564)),
    (DEAL, (10957, 10970), (22565, 22578)),
]


def test_action_table_sizes_and_stable_ids() -> None:
    game = tikigames.load("tactik")
    assert game.num_distinct_actions == 10971
    assert tikigames.load("tactik", players=2).num_distinct_actions == 10971
    assert tikigames.load("tactik", players=6).num_distinct_actions == 22579
    # Ids depend on the board size only (stable for trained networks).
    with_13 = tikigames.load("tactik", with_13=True)
    for action_id in (0, 100, 5000, 10970):
        assert str(with_13.action(action_id)) == str(game.action(action_id))
    assert str(game.action(0)) == "1:start@0" and str(game.action(10970)) == "deal J"


@pytest.mark.parametrize("players", [4, 6])
def test_id_ranges_follow_the_docs(players: int) -> None:
    game = tikigames.load("tactik", players=players)
    for kind, four, six in RANGES:
        first, last = four if players == 4 else six
        ids = [int(a) for a in game.actions() if isinstance(a, TacTikAction) and a.kind == kind]
        assert ids == list(range(first, last + 1)), kind
    # Spot checks of the order inside the kinds (4 colours: 64 track squares, 80 squares).
    if players == 4:
        texts = {
            4: "10:start@0", 8: "13:start@0", 12: "J=1:start@0", 16: "1:t0",
            16 + 64: "1:h0.1", 16 + 80: "2:t0", 16 + 800: "J=1:t0", 1616: "-4:t0",
            1680: "J=-4:t0", 1744: "7:t0+1", 1750: "7:t0+7", 1751: "7:t1+1", 2304: "J=7:t0+1",
            2864: "P:t0~t1", 2864 + 63: "P:t1~t0", 6896: "J=P:t0~t1", 10928: "discard 1",
            10942: "discard all", 10943: "give 1", 10957: "deal 1",
        }  # fmt: skip
        for action_id, text in texts.items():
            assert str(game.action(action_id)) == text


def test_parsing_folds_case_and_surrounding_spaces(table: Factory) -> None:
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    give_j = next(a for a in t.game.actions() if str(a) == "give J")
    assert t.state.parse_action("  GIVE   j ") is give_j


def test_joker_notation_and_its_aliases(table: Factory) -> None:
    t = table()
    t.deal("J 2 2 3", "3 3 5 5", "6 6 6 8", "9 9 9 8")
    t.give("3", "5", "8", "8")  # player 0: 2 2 8 J
    joker = t.state.parse_action("J=1:start@0")
    assert t.state.parse_action("J=10:start@0") is joker  # one action for one effect
    assert t.state.parse_action(" j=1:START@0 ") is joker
    assert str(joker) == "J=1:start@0"
    with pytest.raises(ActionError):
        t.state.parse_action("J=13:start@0")  # no 13 in this deck
    with pytest.raises(ActionError):
        t.state.parse_action("J=J:start@0")
    t = table(with_13=True)
    t.deal("J 13 2 3", "3 3 5 5", "13 6 6 8", "9 9 9 8")
    t.give("3", "5", "8", "8")
    assert t.state.parse_action("J=13:start@0") is t.state.parse_action("J=1:start@0")


def test_hidden_parts_read_as_question_marks(table: Factory) -> None:
    t = table()
    deal_1 = t.state.parse_action("deal 1")  # player 0 is served first
    assert t.state.action_to_string(deal_1) == "deal 1"
    assert t.state.action_to_string(deal_1, 0) == "deal 1"
    assert [t.state.action_to_string(deal_1, p) for p in (1, 2, 3)] == ["deal ?"] * 3
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    give_7 = t.state.parse_action("give 7")
    assert t.state.action_to_string(give_7, 0) == "give 7"
    assert t.state.action_to_string(give_7, 2) == "give ?"


def test_bad_notation_and_illegal_actions_change_nothing(table: Factory) -> None:
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    before = (t.state.clone(), t.state.to_json(), t.state.observation(0))
    for text in ("give ?", "deal ?", "?", "give 4", "1:t64", "7:t3+8", "P:t3~t3", "discard 11"):
        with pytest.raises(ActionError) as raised:
            t.state.parse_action(text)
        assert not isinstance(raised.value, IllegalActionError)
    for text in ("give 3", "1:start@0", "deal 1", "discard all"):
        with pytest.raises(IllegalActionError):
            t.state.parse_action(text)
    with pytest.raises(IllegalActionError):
        t.state.apply_action(t.game.action(0))
    with pytest.raises(ActionError):
        t.state.apply_action(t.game.num_distinct_actions)
    assert t.state == before[0] and t.state.to_json() == before[1]
    assert t.state.observation(0) == before[2]

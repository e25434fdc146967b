"""Tiki Topple's notation and action table (docs/games/tiki_topple.rst): the ids are
public and stable, and every text parses back."""

from __future__ import annotations

import pytest

import tikigames
from tikigames import ActionError

GAME = tikigames.load("tiki_topple")


def test_the_action_table_layout_is_stable() -> None:
    texts = [str(action) for action in GAME.actions()]
    assert len(texts) == GAME.num_distinct_actions == 1360
    assert texts[0] == "up1 nani" and texts[8] == "up1 eepo"
    assert texts[9] == "up2 nani" and texts[18] == "up3 nani" and texts[27] == "topple nani"
    assert texts[36] == "toast"
    assert texts[37] == "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"
    assert texts[1332].startswith("line ") and texts[1333] == "secret 0"
    assert texts[1359] == "secret 26"
    assert all(
        tikigames.load("tiki_topple", players=4).action(i) is GAME.action(i) for i in (0, 1359)
    )


def test_notation_examples_of_the_rules() -> None:
    for text in ("up2 nani", "topple huhu", "toast", "secret 18",
                 "line nani,huhu,wikiwiki,nui,lokahi,akamai,kapu,hookipa,eepo"):  # fmt: skip
        assert str(GAME.action_table.parse(text)) == text
    state = GAME.new_initial_state()
    line = state.parse_action("LINE nani , huhu,wikiwiki, nui,lokahi,akamai,kapu,hookipa,eepo")
    assert str(line) == "line nani,huhu,wikiwiki,nui,lokahi,akamai,kapu,hookipa,eepo"
    state.apply_action(line)
    state.apply_action(state.parse_action("secret 0"))
    state.apply_action(state.parse_action("secret 1"))
    assert str(state.parse_action("  UP2 Lokahi ")) == "up2 lokahi"
    for bad in ("up4 nani", "up2", "topple", "secret 27", "secret ?", "toast nani", "up2 tiki"):
        with pytest.raises(ActionError):
            state.parse_action(bad)


def test_a_secret_card_reads_as_a_question_mark_to_the_others() -> None:
    state = GAME.new_initial_state()
    state.apply_action(state.parse_action(str(GAME.action(37))))
    deal = state.parse_action("secret 5")
    assert state.action_to_string(deal, 0) == "secret 5"
    assert state.action_to_string(deal, 1) == "secret ?"
    assert state.action_to_string(deal) == "secret 5"

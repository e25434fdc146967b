"""The action table (its stable id ranges) and the notation: canonical texts, parsing, errors."""

from __future__ import annotations

import pytest

import tikigames
from tikigames import ActionError, IllegalActionError
from tikigames.paiko import Paiko
from tikigames.paiko.actions import (
    DEPLOY,
    DRAFT,
    DRAW,
    GIVE,
    PASS,
    REDEPLOY,
    SHIFT,
    STAY,
    TURN,
    PaikoAction,
)
from tikigames.paiko.data import SQUARE_INDEX, TILE_INDEX

GAME = tikigames.load("paiko")
assert isinstance(GAME, Paiko)

#: The docs' action table: kind, first id, last id.
RANGES = [
    (DRAFT, 0, 7),
    (DRAW, 8, 171),
    (DEPLOY, 172, 2075),
    (SHIFT, 2076, 6091),
    (TURN, 6092, 6523),
    (REDEPLOY, 6524, 18079),
    (STAY, 18080, 18080),
    (GIVE, 18081, 18088),
    (PASS, 18089, 18089),
]


def action(text: str) -> PaikoAction:
    found = GAME.action_table.parse(text)
    assert isinstance(found, PaikoAction)
    return found


def test_id_ranges_are_stable() -> None:
    assert GAME.num_distinct_actions == 18090
    for kind, first, last in RANGES:
        ids = [int(a) for a in GAME.actions() if isinstance(a, PaikoAction) and a.kind == kind]
        assert ids == list(range(first, last + 1)), kind
    # Spot checks of the order inside the kinds.
    assert [GAME.action(i).text for i in (0, 7, 8, 15, 16, 171)] == [
        "draft sai", "draft water", "draw sai", "draw water", "draw sai,sai",
        "draw water,water,water",
    ]  # fmt: skip
    assert GAME.action(172).text == "sai@g14:N" and GAME.action(175).text == "sai@g14:W"
    assert GAME.action(620).text == "sword@g14:N"  # 172 + 4 × 112
    assert GAME.action(2076).text == "g14-h14:N"  # one-step targets first
    assert GAME.action(2080).text == "g14-g13:N"
    assert GAME.action(2084).text == "g14-f13:N"  # then two-step ones
    assert GAME.action(6092).text == "g14:N" and GAME.action(6524).text == "g14>h14:N"
    assert [GAME.action(i).text for i in (18080, 18081, 18089)] == ["stay", "give sai", "pass"]


def test_canonical_texts_and_decoded_fields() -> None:
    deploy = action("fire@e5:N")
    assert (deploy.kind, deploy.tile, deploy.dst, deploy.facing) == (
        DEPLOY, TILE_INDEX["fire"], SQUARE_INDEX["e5"], 0,
    )  # fmt: skip
    shift = action("e5-e7:E")
    assert (shift.kind, shift.src, shift.dst, shift.facing) == (
        SHIFT, SQUARE_INDEX["e5"], SQUARE_INDEX["e7"], 1,
    )  # fmt: skip
    turn = action("e5:W")
    assert (turn.kind, turn.src, turn.dst, turn.facing) == (TURN, *[SQUARE_INDEX["e5"]] * 2, 3)
    redeploy = action("d6>f6:N")
    assert (redeploy.kind, redeploy.src, redeploy.dst) == (
        REDEPLOY, SQUARE_INDEX["d6"], SQUARE_INDEX["f6"],
    )  # fmt: skip
    draw = action("draw bow,fire,fire")
    assert draw.kind == DRAW and draw.draw == ((TILE_INDEX["bow"], 1), (TILE_INDEX["fire"], 2))
    assert draw.size == 3
    assert action("give air").tile == TILE_INDEX["air"] and action("draft fire").kind == DRAFT
    assert str(action("stay")) == "stay" and str(action("pass")) == "pass"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("FIRE@E5:n", "fire@e5:N"),
        ("  e5-e7:e ", "e5-e7:E"),
        ("D6>F6:N", "d6>f6:N"),
        ("draw fire,bow,fire", "draw bow,fire,fire"),
        ("draw fire , bow , fire", "draw bow,fire,fire"),
        ("DRAW  Water,sai", "draw sai,water"),
        ("Give   AIR", "give air"),
        ("STAY", "stay"),
    ],
)
def test_parsing_ignores_case_space_and_draw_order(text: str, canonical: str) -> None:
    assert action(text).text == canonical


@pytest.mark.parametrize(
    "text",
    [
        "", "?", "??", "fire", "fire@e5", "fire@e5:NE", "fire@e15:N", "fire@a1:N", "dragon@e5:N",
        "sword@e5:E", "lotus@e5:W", "e5-e5:N", "e5-e8:N", "e5-g7:N", "d6>f6:E", "d6>d6:N",
        "g7>d6:N", "g7:N", "e5:", "draw", "draw sai,sai,sai,sai", "draw dragon", "draw sai,,sai",
        "draft", "draft sai,sai", "give", "give sai,air", "pass 2", "stay put",
    ],
)  # fmt: skip
def test_texts_that_are_no_action(text: str) -> None:
    state = GAME.new_initial_state()
    with pytest.raises(ActionError) as raised:
        state.parse_action(text)
    assert not isinstance(raised.value, IllegalActionError)


def test_legal_and_illegal_at_the_start() -> None:
    state = GAME.new_initial_state()
    assert [a.text for a in state.legal_actions()] == [f"draft {t}" for t in TILE_INDEX]
    with pytest.raises(IllegalActionError):
        state.parse_action("pass")
    with pytest.raises(IllegalActionError):
        state.apply_action(action("fire@e5:N"))
    with pytest.raises(ActionError):
        state.apply_action(18090)
    with pytest.raises(ActionError):
        state.apply_action(tikigames.load("tiki_topple").actions()[0])
    assert state.history() == []

"""Paikō for a person: the rules in short, the notation's cheat sheet, the history in words, the
parser's complaints and the text board's quarters and score."""

from __future__ import annotations

import random

import pytest

import tikigames
from tikigames.core.errors import ActionError
from tikigames.paiko.help import RULES_SUMMARY
from tikigames.paiko.state import PaikoState
from tikigames.testing import check_game

WHITE_DRAFT = ["sword", "sword", "sword", "earth", "earth", "fire", "water"]
BLACK_DRAFT = ["sword", "sword", "water", "fire", "sai", "bow", "lotus", "air", "earth"]
#: The capture cascade of the docs page: White's Earth on h7 takes the Water on j7, and the
#: Sword on j6 it covered.
CASCADE = [
    *("draft " + tile for tile in [*WHITE_DRAFT, *BLACK_DRAFT, "bow"]),
    "sword@g6:N", "sword@j8:N", "sword@g4:N", "sword@j7:N", "earth@h4:N", "j7-j6:N",
    "draw air", "water@j7:N", "bow@j4:N", "draw air", "g4-h5:N", "draw sai", "h5-i5:N",
    "draw sai", "earth@h7:N",
]  # fmt: skip


def play(texts: list[str], **options: object) -> PaikoState:
    state: PaikoState = tikigames.load("paiko", **options).new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


# ----------------------------------------------------------------- rules and cheat sheet


def test_the_summary_says_the_goal_and_the_end_in_a_screen_or_two() -> None:
    game = tikigames.load("paiko")
    assert game.rules_summary == RULES_SUMMARY
    lines = RULES_SUMMARY.splitlines()
    assert 25 <= len(lines) <= 45 and max(map(len, lines)) <= 88
    assert "The goal: 10 points" in RULES_SUMMARY
    assert "The end:" in RULES_SUMMARY and "draw" in RULES_SUMMARY


@pytest.mark.parametrize("options", [{}, {"move_limit": None, "draw_exact": True}])
def test_each_example_is_an_action_of_the_table(options: dict[str, object]) -> None:
    game = tikigames.load("paiko", **options)
    examples = game.notation_examples()
    kinds = {game.action_table.parse(text).kind for _, text in examples}
    assert len(kinds) == 9  # every kind of action: draft … pass
    for meaning, text in examples:
        assert meaning and str(game.action_table.parse(text)) == text


# ----------------------------------------------------------------- the history in words


def test_a_capture_says_whose_tiles_where_by_what_and_the_points() -> None:
    state = play([*CASCADE, "give lotus", "give lotus"])
    words = state.observation(1).history_in_words()
    assert len(words) == len(state.history())
    assert words[0] == "draft sword: White drafts a Sword"
    assert words[17] == "sword@g6:N: White deploys a Sword on g6 (White's homeground)"
    assert words[22] == "j7-j6:N: Black's Sword shifts from j7 to j6"
    assert words[23] == "draw air: White draws an Air from its reserve into its hand"
    capture = words[-3]
    assert capture.startswith("earth@h7:N: White deploys an Earth on h7 (the east middleground)")
    assert (
        "captures Black's Water on j7 (threatened by White's Earth on h7 and White's Bow on j4;"
        " no cover) and Black's Sword on j6 (threatened by White's Sword on i5 and White's Bow"
        " on j4; covered by Black's Water on j7, which falls too)"
    ) in capture
    assert "Black picks 2 tiles of White's reserve for White's hand" in capture
    assert capture.endswith("White has 4 points, Black 0 points")
    assert words[-2] == (
        "give lotus: Black picks a Lotus of White's reserve for White's hand (1 more to pick)"
    )
    assert words[-1] == "give lotus: Black picks a Lotus of White's reserve for White's hand"


def test_a_sai_its_follow_up_a_turn_and_a_redeploy() -> None:
    draft = [*("draft " + t for t in ["sai", "sai", "bow", "water", "fire", "sword", "air"])]
    draft += ["draft " + t for t in [*BLACK_DRAFT, "earth"]]
    state = play([*draft, "sai@f3:E", "f3:N", "draw air", "water@b6:N", "draw air", "b6>e4:N"])
    words = state.observation(0).history_in_words()[17:]
    assert words == (
        "sai@f3:E: White deploys a Sai on f3 facing E (White's homeground): it may still shift"
        " or turn",
        "f3:N: White's Sai on f3 turns to face N",
        "draw air: Black draws an Air from its reserve into its hand",
        "water@b6:N: White deploys a Water on b6 (White's homeground)",
        "draw air: Black draws an Air from its reserve into its hand",
        "b6>e4:N: White's Water redeploys from b6 to e4",
    )


def test_the_end_says_who_won_and_why() -> None:
    rng = random.Random(5)
    state = tikigames.load("paiko", max_turns=30).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.random_action(rng))
    last = state.observation(0).history_in_words()[-1]
    assert "the game is over: " in last
    assert last.endswith("(the turn limit, 30 turns)") or "wins with" in last


def test_the_words_are_the_same_in_every_resampled_world() -> None:
    check_game(
        tikigames.load("paiko"),
        examples=4,
        properties=["history_in_words_depends_only_on_the_observation"],
    )


# ----------------------------------------------------------------- refusals and notation errors


@pytest.mark.parametrize(
    "options", [{}, {"move_limit": None}, {"draw_exact": True, "max_turns": 40}]
)
def test_refusals_depend_only_on_what_the_mover_knows(options: dict[str, object]) -> None:
    check_game(
        tikigames.load("paiko", **options),
        properties=["refusals_depend_only_on_what_the_mover_knows"],
    )


def test_a_deploy_outside_your_reach_says_where_the_homeground_is() -> None:
    state = play(["draft " + t for t in [*WHITE_DRAFT, *BLACK_DRAFT, "bow"]])
    assert state.illegal_reason(state.game.action_table.parse("sword@h10:N")) == (
        "White deploys only in White's homeground (bottom left: files a–g, ranks 1–7) or on a"
        " square a tile of White's threatens: h10 is in Black's homeground, and no tile of"
        " White's threatens it"
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("sword@d5:E", "a Sword has no facing: write sword@d5:N"),
        ("air@d5:S", "an Air has no facing: write air@d5:N"),
        ("bow@d5", "a deploy ends with the facing the Bow takes, N, E, S or W: bow@d5:N"),
        ("earth@d5", "a deploy ends with :N (the Earth has no facing): earth@d5:N"),
        ("fire@d5:Q", "'Q' is not a facing: N, E, S or W"),
        ("fire@d5:", "the facing after the colon is missing: N, E, S or W"),
        (
            "swrd@d5:N",
            "'swrd' is not a tile: the tiles are sai, sword, bow, lotus, air, fire, earth and"
            " water",
        ),
        ("draft dragon", "'dragon' is not a tile: the tiles are sai, sword, bow, lotus, air,"),
        ("draw air,fire,sai,bow", "a draw takes 1 to 3 tiles, named with commas: draw air,fire"),
        ("sword@a1:N", "a1 is off the board: rank 1 holds only g1 and h1"),
        ("sword@a7:N", None),
        ("sword@z9:N", "'z9' is not a square: a file a–n and a rank 1–14, on the diamond"),
        ("d5-d9:N", "a shift goes 1 or 2 orthogonal steps over open squares, and d5 to d9 is"),
        ("d5-d6", "a shift ends with the facing the tile takes"),
        ("h8-h7:N", "h8 is a black square: no tile shifts into, out of or through one"),
        ("e5>e6:E", "a Water has no facing: its redeploy is written e5>e6:N"),
        ("e5>e5:N", "a Water redeploys onto another square"),
        ("h8:N", "h8 is a black square: only a Lotus stands there, and a Lotus never turns"),
        ("stay now", "stay is written alone"),
        ("draw", "a draw takes 1 to 3 tiles"),
        ("e5", "a square alone is no action: a turn names the facing (e5:E)"),
    ],
)
def test_text_that_is_almost_an_action_says_what_is_wrong(text: str, why: str | None) -> None:
    table = tikigames.load("paiko").action_table
    if why is None:  # a square of the diamond, a deploy of the table
        assert table.parse(text).text == text
        return
    with pytest.raises(ActionError) as raised:
        table.parse(text)
    message = str(raised.value)
    assert message.startswith(f"{text!r} is not an action of this game: ")
    assert why in message


def test_the_same_texts_parse() -> None:
    table = tikigames.load("paiko").action_table
    with pytest.raises(ActionError) as raised:
        table.parse("castle kingside")  # like no action: the core's words alone
    assert str(raised.value) == "'castle kingside' is not an action of this game"
    for action in table.actions[::7]:
        assert table.parse(action.text) is action
        assert table.parse("  " + action.text.upper() + " ") is action
    assert table.parse("draw fire, air").text == "draw air,fire"
    with pytest.raises(ActionError, match="notation must be a string"):
        table.parse(3)


# ----------------------------------------------------------------- the text board


def test_the_text_board_names_the_quarters_and_says_the_score() -> None:
    state = play(CASCADE)
    text = str(state.observation(0))
    assert "middleground" in text and "Black's" in text and "White's" in text
    assert "A tile but a Lotus scores 1 in a middleground, 2 in the opponent's homeground" in text
    assert "White: 4 points of the 10 that win, 0 tiles lost to captures" in text
    assert "Black: 0 points of the 10 that win, 2 tiles lost to captures" in text

"""Tac-Tik for a person: the rules in short, the notation's cheat sheet, the history in words
(what the terminal announces), and the parser's words for a text that is almost an action."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import tikigames
from tikigames.core.errors import ActionError
from tikigames.tactik import TacTikState
from tikigames.tactik.actions import GIVE
from tikigames.testing import check_game

from .conftest import Table

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"players": 2},
    {"players": 6, "discard": "stuck", "with_13": True},
    {"seven_captures_passed": False, "jokers": 4},
]


def _play(options: dict[str, object], seed: int, actions: int | None = None) -> TacTikState:
    game = tikigames.load("tactik", **options)
    state: TacTikState = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (actions is None or state.move_number() < actions):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_notation_examples_are_actions_written_as_the_library_writes_them(
    options: dict[str, object],
) -> None:
    game = tikigames.load("tactik", **options)
    examples = game.notation_examples()
    assert len(examples) >= 8
    for what, text in examples:
        assert what and str(game.action_table.parse(text)) == text
    texts = [text for _, text in examples]
    assert ("give 7" in texts) == (game.num_players != 2)
    assert ("discard all" in texts) == (options.get("discard") == "stuck")


def test_the_rules_summary_says_the_goal_and_the_end_on_a_screen() -> None:
    summary = type(tikigames.load("tactik")).rules_summary
    lines = summary.splitlines()
    assert 25 <= len(lines) <= 45 and max(map(len, lines)) <= 88
    assert summary.startswith("Goal:") and "The end:" in summary and "draw" in summary
    for card in ("-4:", "7:", "P:", "J (Joker)"):
        assert card in summary


def test_history_in_words_tells_the_exchange_moves_captures_and_sevens(
    table: Callable[..., Table],
) -> None:
    t = table()
    t.deal("1 8 7 5", "1 -4 5 5", "9 9 9 9", "3 3 3 6")
    t.give("5", "5", "9", "6")
    t.play("1:start@0", "1:start@1", "discard 9", "discard 3", "8:t0", "-4:t16")
    t.play("discard 9", "discard 3", "7:t8+3")
    me, red = t.state.observation(0).history_in_words(), t.state.observation(1).history_in_words()
    assert me[0] == "player 3 deals; you are dealt 1"
    assert red[0] == "player 3 deals; player 0 is dealt a card"
    assert me[16] == "you give 5 to your partner (player 2)"
    assert red[16] == "player 0 chooses a card for their partner"
    assert red[17] == "you give 5 to your partner (player 3)"
    assert me[18] == "your partner (player 2) chooses a card for you"
    assert me[19].endswith("the cards change hands: you receive 9 from player 2")
    assert red[19].endswith("the cards change hands: you receive 6 from player 3")
    assert me[20] == "you play 1: a green pawn comes out onto t0 (a pieu)"
    assert red[22] == "player 2 discards 9"
    assert me[24] == "you play 8: green pawn t0 → t8"
    assert me[25] == "player 1 plays -4: red pawn t16 → t12, 4 back"
    assert red[28] == "player 0 plays 7: green pawn t8 → t11 (3 steps, 4 left)"
    t.play("7:t11+4")
    me, red = t.state.observation(0).history_in_words(), t.state.observation(1).history_in_words()
    assert me[29] == (
        "you continue the 7: green pawn t11 → t15 (4 steps, the 7 is done); passes and "
        "captures player 1's red pawn on t12 (back to its reserve)"
    )
    assert red[29].endswith("passes and captures your red pawn on t12 (back to its reserve)")


def test_words_match_the_engine_s_captures_and_received_cards() -> None:
    for options in OPTION_SETS:
        game = tikigames.load("tactik", **options)
        state: TacTikState = game.new_initial_state()
        rng = random.Random(7)
        captures, received = [], {}
        while not state.is_terminal() and state.move_number() < 2500:
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            captures.append(len(state.last_captures()))
            if state.received(0) is not None and state.history()[-1].kind == GIVE:
                received[state.move_number() - 1] = state.received(0)
        words = state.observation(0).history_in_words()
        assert len(words) == len(state.history())
        for entry, count in zip(words, captures, strict=True):
            assert entry.count("captures") == count, entry
        for index, card in received.items():
            assert words[index].endswith(f"you receive {card} from player {game.rules.partner[0]}")


@pytest.mark.parametrize("options", OPTION_SETS)
def test_history_in_words_says_the_same_in_every_resampled_world(
    options: dict[str, object],
) -> None:
    """Words from the observation alone: every world resampled from it tells the same."""
    check_game(
        tikigames.load("tactik", **options),
        examples=3,
        max_steps=400,
        properties=["history_in_words_depends_only_on_the_observation"],
    )


def test_the_last_entry_tells_the_end() -> None:
    state = _play({"max_turns": 30}, 4)
    assert state.observation(0).history_in_words()[-1].endswith("the game is over: a draw")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("12:t99", "no square t99"),
        ("5:x3", "a pawn is named by its square"),
        ("7:t3+9", "a seven's part moves 1 to 7 steps"),
        ("P:t3~t3", "two different pawns"),
        ("discard 4", "no card 4"),
        ("Q:t3", "no card Q"),
        ("5:h4.1", "no square h4.1"),
        ("1:start@5", "colours are 0 to 3"),
        ("give ?", "hidden"),
        ("-4:h0.1", "-4 moves a pawn on the track"),
        ("P:h0.1~t3", "P swaps two pawns on the track"),
        ("7:t3", "a seven's part names its steps"),
        ("3:start@0", "only 1, 10"),
        ("5:t3+2", "5 moves one pawn, named by its square: 5:t3"),
        ("castle", "an action is a card and a pawn (5:t23)"),
    ],
)
def test_a_text_that_is_almost_an_action_is_told_what_is_wrong(text: str, words: str) -> None:
    game = tikigames.load("tactik")
    with pytest.raises(ActionError) as error:
        game.action_table.parse(text)
    assert words in str(error.value)

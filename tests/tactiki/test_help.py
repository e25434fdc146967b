"""Playing as a person: the rules in short, the cheat sheet, the parser's messages, the
history in words and what the text board says in words."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tikigames
from tikigames import ActionError
from tikigames.core.constants import TERMINAL
from tikigames.tactiki.actions import MOVE, PASS, REINCARNATE
from tikigames.tactiki.help import RULES_SUMMARY
from tikigames.testing import check_game

TIKI, TAC = 0, 1

#: The docs' start-field lock: TAC's 4 comes down the d file and beats TIKI's 3 and 2 on d1.
LOCK_SETUP = (
    "2@a1 3@a1 4@b1 5@b1 1@c1 4@c1 2@d1 3@d1 1@e1 5@e1 "
    "1@a5 1@a5 2@b5 3@b5 3@c5 4@c5 2@d5 4@d5 5@e5 5@e5"
)
LOCK_PLAY = "a1-a2 a2-a3 d5-d4 d4-d3 b1-b2 b2-b3 d3-d2 d2-d1"


def locked(play: Any) -> Any:
    state = tikigames.load("tactiki").new_initial_state()
    return play(state, f"{LOCK_SETUP} {LOCK_PLAY}")


# ----------------------------------------------------------------- rules and cheat sheet


def test_the_summary_says_the_goal_a_turn_and_the_end() -> None:
    game = tikigames.load("tactiki")
    assert type(game).rules_summary == RULES_SUMMARY
    lines = RULES_SUMMARY.splitlines()
    assert 25 <= len(lines) <= 45 and max(map(len, lines)) <= 88
    for words in ("The goal", "statue", "A turn", "a 1 beats a 5", "blocked", "stays there"):
        assert words in RULES_SUMMARY
    assert "you win" in RULES_SUMMARY and "draw" in RULES_SUMMARY


def test_each_example_is_an_action_of_the_table() -> None:
    game = tikigames.load("tactiki")
    examples = game.notation_examples()
    kinds = []
    for what, text in examples:
        action = game.action_table.parse(text)
        assert str(action) == text and what
        kinds.append(action.kind)
    assert sorted(set(kinds)) == sorted(kinds) and len(kinds) == 4  # one per kind
    assert [text for _, text in examples] == ["3@b1", "b1-b2", "3*b1", "pass"]


# ----------------------------------------------------------------- the parser's messages


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("6@a1", "the ranks are 1 to 5, not 6"),
        ("x*a1", "the ranks are 1 to 5, not x"),
        ("3@c3", "c3 is not a start field: TIKI places on a1–e1, TAC on a5–e5"),
        ("3*c3", "c3 is not a start field: TIKI brings pieces back onto a1–e1"),
        ("3@f1", "f1 is not a square of the board (files a–e, ranks 1–5: a1 … e5)"),
        ("@b1", "a placement needs its rank before @, e.g. 3@b1"),
        ("3*", "a reincarnation needs a start field after *: a square is missing"),
        ("?@b1", "is how the other player's hidden placement is shown"),
        ("a1-c1", "a1 and c1 are not neighbours"),
        ("b2-c3", "never diagonally: b2-c3"),
        ("b1-b1", "a single move goes to another square"),
        ("e6-e5", "e6 is not a square of the board"),
        ("e5", "a move needs its target too"),
        ("b1b2", "a move is written with a dash: b1-b2"),
        ("sword", "write a move as b1-b2, a placement as 3@b1, a reincarnation as 3*b1"),
    ],
)
def test_text_that_is_almost_an_action_says_what_is_wrong(text: str, says: str) -> None:
    game = tikigames.load("tactiki")
    with pytest.raises(ActionError) as raised:
        game.action_table.parse(text)
    assert f"{text!r} is not an action of TacTiki: " in str(raised.value)
    assert says in str(raised.value)


def test_which_texts_parse_is_unchanged() -> None:
    game = tikigames.load("tactiki")
    for action in game.actions():
        assert game.action_table.parse(f" {str(action).upper()} ") is action
    with pytest.raises(ActionError, match="notation must be a string"):
        game.action_table.parse(42)


# ----------------------------------------------------------------- refusals


def test_refusals_are_rules_words(start: Any, play: Any) -> None:
    state = start()
    table = state.game.action_table
    assert state.illegal_reason(table.parse("e5-e4")) == (
        "only the top piece of a field moves, and only its owner moves it: the top piece of "
        "e5 is TAC's"
    )
    assert state.illegal_reason(table.parse("pass")).startswith(
        "a pass is legal only when the player has no single move and no reincarnation: TIKI can"
    )
    assert state.illegal_reason(table.parse("5*e1")) == (
        "a reincarnation brings back a defeated piece: TIKI has none"
    )


@pytest.mark.parametrize("options", [{}, {"strict_statue": True}, {"max_turns": 30}])
def test_refusals_tell_the_mover_nothing_it_cannot_know(options: dict[str, Any]) -> None:
    check_game(
        tikigames.load("tactiki", **options),
        examples=10,
        max_steps=120,
        properties=["refusals_depend_only_on_what_the_mover_knows"],
    )


# ----------------------------------------------------------------- the history in words


def test_the_history_in_words_as_each_player_saw_it(play: Any) -> None:
    state = locked(play)
    tiki, tac, spectator = (state.observation(p).history_in_words() for p in (TIKI, TAC, None))
    assert len(tiki) == len(tac) == len(spectator) == len(state.history())
    assert tiki[0] == "TIKI places a 2 on a1"
    assert tac[0] == spectator[0] == "TIKI places a piece on a1 (rank hidden)"
    assert tac[10] == "TAC places a 1 on a5"
    assert tiki[20] == "TIKI moves its 3 a1-a2" and tac[20] == "TIKI moves a piece a1-a2"
    assert tac[22] == "TAC moves its 4 d5-d4"
    assert (
        tiki[-1]
        == tac[-1]
        == spectator[-1]
        == (
            "TAC moves d2-d1 and attacks: TAC's 4 beat TIKI's 3 and TIKI's 2; "
            "locked on d1 for good, 1 of 5 for a statue"
        )
    )


def test_reincarnations_passes_and_the_end_in_words(reincarnations: Any, play: Any) -> None:
    state = reincarnations(5, 3)
    tiki = state.observation(TIKI).history_in_words()
    tac = state.observation(TAC).history_in_words()
    assert tiki[-1] == "TAC brings a defeated piece back onto e5 (rank hidden)"
    assert tac[-1] == "TAC brings its defeated 3 back onto e5"
    game = tikigames.load("tactiki", max_turns=1)
    state = play(game.new_initial_state(), LOCK_SETUP + " a1-a2 a2-a3")
    assert state.observation(TAC).history_in_words()[-1] == (
        "TIKI moves a piece a2-a3. Game over: a draw (turn limit)"
    )


def test_a_pass_is_told_for_the_player_whose_turn_it_was() -> None:
    game = tikigames.load("tactiki", max_turns=None)
    rng = random.Random(3)
    seen = 0
    for _ in range(40):
        state = game.new_initial_state()
        for _ in range(600):
            if state.is_terminal():
                break
            player = state.current_player()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if action.kind == PASS:
                words = state.observation(None).history_in_words()[-1]
                assert words.startswith(f"{('TIKI', 'TAC')[player]} passes")
                seen += 1
        if seen:
            break
    assert seen


def test_the_words_are_the_same_in_every_resampled_world() -> None:
    check_game(
        tikigames.load("tactiki"),
        examples=6,
        max_steps=160,
        properties=["history_in_words_depends_only_on_the_observation"],
    )


# ----------------------------------------------------------------- the text board in words


def test_the_board_tells_locked_fields_and_the_statue_count(play: Any) -> None:
    text = str(locked(play).observation(TIKI))
    assert "Turn 5: TIKI (player 0) to play (move) — you are TIKI (player 0)" in text
    assert (
        "Locked for good on the other's start fields (pieces toward a statue of 5): d1 TAC 1"
        in text
    )
    assert "Defeated: TIKI 2 3; TAC none" in text


def test_the_board_tells_blocked_pieces(start: Any, play: Any) -> None:
    state = play(start({"b1": (1, 3), "b5": (1, 3)}), "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4")
    assert "Blocked (an opponent's piece on top): TAC's 3 on b4" in str(state.observation(TIKI))
    assert "Blocked (an opponent's piece on top): TAC's 3 on b4" in str(state)


def test_a_pool_blurred_by_secret_reincarnations_in_words(reincarnations: Any) -> None:
    state = reincarnations(3, 3)
    text = str(state.observation(TIKI))
    assert "TAC 1 piece, a 3 or 5 (TAC's secret reincarnations hide which)" in text


def test_the_header_offers_only_the_legal_kinds() -> None:
    """At the start of every turn of random games, the header's kinds are the legal ones."""
    names = {MOVE: "move", REINCARNATE: "reincarnate"}
    rng = random.Random(5)
    for _ in range(8):
        state = tikigames.load("tactiki", max_turns=150).new_initial_state()
        while state.current_player() != TERMINAL:
            if state.move_number() >= 20 and not state.is_second_move():
                kinds = {action.kind for action in state.legal_actions()}
                header = str(state.observation(None)).splitlines()[0]
                if kinds == {PASS}:
                    assert "(no move or reincarnation: pass)" in header
                else:
                    offered = " or ".join(names[kind] for kind in sorted(kinds))
                    assert f"to play ({offered})" in header
            state.apply_action(rng.choice(state.legal_actions()))

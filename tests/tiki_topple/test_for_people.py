"""Tiki Topple for people: the rules in short and the notation's cheat sheet, the history in
words (never more than the player knows), the parser's words for texts that are almost an
action, and a text board that says what the picture shows, with one numbering of the secret
cards everywhere."""

from __future__ import annotations

import random
import re

import pytest

import tikigames
from tikigames import ActionError
from tikigames.testing import check_game
from tikigames.tiki_topple.actions import LINE, SECRET
from tikigames.tiki_topple.data import NUM_SECRETS, POINTS, SECRET_CARDS, score_card
from tikigames.tiki_topple.state import TikiToppleState
from tikigames.tiki_topple.words import describe_card, points_by_tier

GROUP_LINE = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"
GAME = tikigames.load("tiki_topple")


def played(*texts: str, **options: object) -> TikiToppleState:
    state: TikiToppleState = tikigames.load("tiki_topple", **options).new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def finished_game(seed: int, **options: object) -> TikiToppleState:
    state: TikiToppleState = tikigames.load("tiki_topple", **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(state.random_action(rng))
    return state


# ---------------------------------------------------------------- help


def test_every_notation_example_is_an_action_written_as_it_is() -> None:
    examples = GAME.notation_examples()
    assert len(examples) == 7  # four cards with a tiki, toast, a line, a secret card
    for what, text in examples:
        assert what and str(GAME.action_table.parse(text)) == text
    kinds = {GAME.action_table.parse(text).kind for _, text in examples}
    assert kinds == set(range(7))


def test_the_rules_summary_tells_the_goal_the_cards_scoring_and_the_end() -> None:
    summary = type(GAME).rules_summary
    assert summary.startswith("Goal: the most points after the last round")
    for words in ("up1, up2, up3 TIKI", "topple TIKI", "toast:", "9 points", "the highest total"):
        assert words in summary
    lines = summary.splitlines()
    assert 20 <= len(lines) <= 45 and max(map(len, lines)) <= 88


# ---------------------------------------------------------------- one numbering of the cards


def test_the_screen_the_log_and_the_picture_number_a_card_as_its_notation() -> None:
    state = played(GROUP_LINE, "secret 18", "secret 24")
    obs = state.observation(1)
    assert "Your secret tiki card: #24 Eepo / Lokahi / Wikiwiki" in str(obs)
    assert obs.history[2] == "secret 24"
    assert obs.history_in_words()[2] == (
        "secret 24: you are dealt secret card #24 Eepo / Lokahi / Wikiwiki"
    )
    assert ">#24<" in obs.svg() and "secret card #24:" in obs.svg()
    assert "#25" not in str(obs) + obs.svg()


def test_points_by_tier_splits_every_total_of_every_card() -> None:
    for card in range(NUM_SECRETS):
        rng = random.Random(card)
        for _ in range(20):
            line = rng.sample(range(9), rng.randrange(3, 10))
            top, middle, bottom = SECRET_CARDS[card]
            expected = (
                POINTS[0] if line[0] == top else 0,
                POINTS[1] if middle in line[:2] else 0,
                POINTS[2] if bottom in line[:3] else 0,
            )
            assert points_by_tier(score_card(card, line)) == expected


# ---------------------------------------------------------------- history in words


def test_history_in_words_tells_deals_moves_and_the_round_s_scoring() -> None:
    state = played(GROUP_LINE, "secret 18", "secret 3", rounds=1, players=2)
    for text in ("up3 hookipa", "up1 wikiwiki", "topple wikiwiki", "up2 akamai", "toast"):
        state.apply_action(state.parse_action(text))
    words = state.observation(0).history_in_words()
    assert words[:3] == (
        f"{GROUP_LINE}: the line of round 1 is dealt, top first",
        "secret 18: you are dealt secret card #18 Hookipa / Lokahi / Nani",
        "secret ?: player 1 is dealt a secret card, face down",
    )
    assert words[3:] == (
        "up3 hookipa: Hookipa climbs from 7th to 4th",
        "up1 wikiwiki: Wikiwiki climbs from 2nd to 1st",
        "topple wikiwiki: Wikiwiki drops from 1st to the bottom (9th)",
        "up2 akamai: Akamai climbs from 5th to 3rd",
        "toast: Wikiwiki, at the bottom, is toasted (out of the round)",
    )
    # The rest of the rulebook's round: the last card ends it, and the game (one round).
    for text in ("topple nani", "up2 hookipa", "toast", "up1 lokahi", "up3 akamai",
                 "up1 hookipa", "toast", "toast", "up1 akamai"):  # fmt: skip
        state.apply_action(state.parse_action(text))
    assert state.is_terminal()
    words = state.observation(None).history_in_words()
    assert words[1] == (
        "secret ?: player 0 is dealt a secret card, face down (shown at the round's end: "
        "#18 Hookipa / Lokahi / Nani)"
    )
    assert words[-1] == (
        "up1 akamai: Akamai climbs from 2nd to 1st; round 1 is over: "
        "player 0 had #18 Hookipa / Lokahi / Nani: Hookipa 0 (2nd, not 1st) + Lokahi 0 "
        "(4th, not in the top 2) + Nani 0 (toasted) = 0 points; "
        "player 1 had #3 Wikiwiki / Hookipa / Akamai: Wikiwiki 0 (toasted) + Hookipa 5 (2nd) "
        "+ Akamai 2 (1st) = 7 points; the game is over: player 1 wins with 7 points"
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_history_in_words_is_the_same_in_every_world_the_player_may_be_in(players: int) -> None:
    check_game(
        tikigames.load("tiki_topple", players=players),
        examples=6,
        properties=["history_in_words_depends_only_on_the_observation"],
    )


def test_history_in_words_never_names_a_card_the_player_has_not_seen() -> None:
    state = played(GROUP_LINE, "secret 4", "secret 9", "secret 20", players=3)
    for seat, card in enumerate((4, 9, 20)):
        said = " ".join(state.observation(seat).history_in_words())
        for other in (4, 9, 20):
            assert (describe_card(other) in said) == (other == card)


# ---------------------------------------------------------------- the parser's words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("up1 bob", "'bob' is not a tiki (the tikis: nani, wikiwiki, huhu, lokahi, akamai"),
        ("topple", "topple needs a tiki, as in topple nani"),
        ("up2 nani kapu", "up2 takes one tiki"),
        ("toast nani", "toast takes no tiki: it always toasts the tiki at the bottom"),
        ("up4 nani", "the Up cards are up1, up2 and up3"),
        ("up 2 nani", "written without a space (up2 nani)"),
        ("secret 27", "the secret cards are numbered 0 to 26"),
        ("secret ?", "how another player's secret card is shown to you"),
        ("line nani,kapu", "a line names each of the nine tikis once"),
        ("line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,kapu", "each of the nine"),
        ("line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,bob", "'bob' is not a tiki"),
        ("line lokahi,wikiwiki,huhu,nani,akamai,nui,hookipa,kapu,eepo", "dealt by groups"),
        ("pass", "a move is up1, up2, up3 or topple with a tiki (up2 nani), or toast"),
    ],
)
def test_a_text_that_is_almost_an_action_is_told_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ActionError, match=re.escape(words)) as caught:
        GAME.action_table.parse(text)
    assert str(caught.value).startswith(f"{text!r} is not an action of this game: ")


def test_the_parser_still_reads_what_it_read() -> None:
    table = GAME.action_table
    for action in table:
        assert table.parse(action.text) is action
        assert table.parse("  " + action.text.upper().replace(",", " , ") + " ") is action
    with pytest.raises(ActionError, match="notation must be a string"):
        table.parse(3)


# ---------------------------------------------------------------- the text board


def test_the_board_at_a_round_s_end_shows_its_final_line_and_each_tiki_s_points() -> None:
    state = played(GROUP_LINE, "secret 18", "secret 3", players=2)
    for text in ("up3 hookipa", "up1 wikiwiki", "topple wikiwiki", "up2 akamai", "toast",
                 "topple nani", "up2 hookipa", "toast", "up1 lokahi", "up3 akamai",
                 "up1 hookipa", "toast", "toast", "up1 akamai"):  # fmt: skip
        state.apply_action(state.parse_action(text))
    assert state.is_chance_node() and state.history()[-1].kind not in (LINE, SECRET)
    board = str(state.observation(1))
    assert board.startswith("Round 1 is over; round 2 is dealt next — you are player 1\n")
    assert "Final line of round 1, top first:\n  1. Akamai" in board
    assert "Round 2: dealing" not in board
    assert (
        "  player 1 #3 Wikiwiki / Hookipa / Akamai: 7 points\n"
        "      Wikiwiki 0 (toasted) + Hookipa 5 (2nd) + Akamai 2 (1st)\n"
    ) in board
    # Once the next line is dealt, the points stay, tiki by tiki, without the old places.
    state.apply_action(state.parse_action(GROUP_LINE))
    board = str(state.observation(1))
    assert board.startswith("Round 2: dealing")
    assert "Round 1 scored (secret cards revealed):" in board
    assert "      Wikiwiki 0 + Hookipa 5 + Akamai 2\n" in board


def test_the_board_at_the_end_names_the_result_and_scores_the_last_round() -> None:
    state = finished_game(4)
    result = state.result_text()
    assert result is not None and " wins with " in result
    rounds = len(state.scored_rounds())
    for board in (str(state), str(state.observation(0)), str(state.observation(None))):
        assert board.startswith("Game over")
        assert board.endswith(f"\n{result[0].upper()}{result[1:]}.")
        assert f"Final line of round {rounds}, top first:" in board
        assert f"Round {rounds} scored (secret cards revealed):" in board
        assert "Winner" not in board and "Returns" not in board

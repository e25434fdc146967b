"""Tiki Topple: why an action is refused — one test per rule of docs/games/tiki_topple.rst that can
refuse an action (the rule's section and number in the test's name), and a property over random
games: every refusal names a rule that applies, never the general fallback."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import tikigames
from tikigames import CHANCE, TERMINAL, IllegalActionError
from tikigames.tiki_topple.actions import LINE, SECRET, TikiToppleAction
from tikigames.tiki_topple.data import CARD_NAMES, TIKIS, TOAST, TOPPLE, full_hand
from tikigames.tiki_topple.state import TikiToppleState
from tikigames.tiki_topple.words import describe_card

GROUP_LINE = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"
#: Group B first, Lokahi 2nd.
LOKAHI_2ND = "line akamai,lokahi,nui,nani,wikiwiki,huhu,hookipa,kapu,eepo"


def new(players: int = 2, **options: Any) -> TikiToppleState:
    state: TikiToppleState = tikigames.load(
        "tiki_topple", players=players, **options
    ).new_initial_state()
    return state


def start(players: int = 2, line: str = GROUP_LINE, **options: Any) -> TikiToppleState:
    """A state after the line setup and the deal of cards 0, 1, … to the seats."""
    state = new(players, **options)
    play(state, line, *(f"secret {card}" for card in range(players)))
    return state


def play(state: TikiToppleState, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.parse_action(text))


def finish_round(state: TikiToppleState, rng: random.Random) -> None:
    """Random cards until the round is over."""
    while state.current_player() >= 0:
        state.apply_action(state.random_action(rng))


def deal_round(state: TikiToppleState, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))


def refused(state: TikiToppleState, text: str) -> str:
    """The reason ``text`` is refused, checked to be the same everywhere it shows — in
    ``illegal_reason``, in the error of ``apply_action`` and ``parse_action`` (its ``reason`` and
    its message) — and checked to change nothing."""
    action = state.game.action_table.parse(text)
    before, history = state.clone(), list(state.history())
    reason = state.illegal_reason(action)
    assert isinstance(reason, str)
    assert state.illegal_reason(int(action)) == reason
    with pytest.raises(IllegalActionError) as error:
        state.apply_action(action)
    assert error.value.reason == reason
    assert str(error.value) == f"{text!r}: {reason}"
    with pytest.raises(IllegalActionError) as parsed:
        state.parse_action(text)
    assert parsed.value.reason == reason
    assert state == before and list(state.history()) == history
    return reason


# ---------------------------------------------------------------- Round 1: line setup


def test_round_1_a_round_starts_with_the_line_setup() -> None:
    state = new()
    assert refused(state, "up1 wikiwiki") == (
        "a round starts with the line setup: no card is played before the line is dealt"
    )
    assert refused(state, "toast") == (
        "a round starts with the line setup: no card is played before the line is dealt"
    )
    # A secret card is simply not an outcome of the line setup: the core's words say so.
    assert refused(state, "secret 4") == "not a possible outcome of this chance node"


def test_round_1_the_line_is_set_up_once_at_the_start_of_a_round() -> None:
    state = new()
    play(state, GROUP_LINE, "secret 0")
    assert refused(state, LOKAHI_2ND) == (
        "the line of this round is already set up: the secret cards are being dealt "
        "(player 1's is next)"
    )
    play(state, "secret 1")
    assert refused(state, GROUP_LINE) == (
        "the line is set up only at the start of a round, before the secret cards: "
        "round 1 is being played"
    )


# ---------------------------------------------------------------- Round 2: secret cards


def test_round_2_no_card_is_played_before_the_deal_is_done() -> None:
    state = new(3)
    play(state, GROUP_LINE, "secret 5")
    assert refused(state, "up3 lokahi") == (
        "no card is played before every player in the round has a secret card: "
        "player 1's is being dealt"
    )


def test_round_2_the_secret_cards_are_dealt_at_the_start_of_a_round() -> None:
    state = start()
    assert refused(state, "secret 20") == (
        "the secret cards are dealt only at the start of a round, before the first card is "
        "played: round 1 is being played"
    )


def test_round_2_each_player_gets_a_different_card() -> None:
    state = new(3)
    play(state, GROUP_LINE, "secret 18", "secret 3")
    assert refused(state, "secret 18") == (
        "each player is dealt a different secret card: secret card #18 "
        "Hookipa / Lokahi / Nani was dealt to player 0 this round"
    )
    assert refused(state, "secret 3") == (
        "each player is dealt a different secret card: secret card #3 "
        "Wikiwiki / Hookipa / Akamai was dealt to player 1 this round"
    )


def test_round_2_cards_dealt_in_earlier_rounds_are_gone() -> None:
    state = start()  # cards 0 and 1
    finish_round(state, random.Random(1))
    play(state, GROUP_LINE)
    assert state.round_number() == 2
    assert refused(state, "secret 1") == (
        "secret cards dealt in earlier rounds are gone for the rest of the game: "
        "secret card #1 Nani / Eepo / Lokahi was dealt in round 1"
    )


def test_round_2_the_deck_is_rebuilt_without_the_previous_rounds_cards() -> None:
    rng = random.Random(3)
    state = new(4, rounds=7)
    for _round in range(6):
        play(state, GROUP_LINE)
        deal_round(state, rng)
        finish_round(state, rng)
    play(state, GROUP_LINE)  # 3 cards left for 4 players: the deck is rebuilt
    sixth, fifth = state.round_cards()[-1], state.round_cards()[-2]
    assert len(state.deck()) == 23
    card = sixth[2]
    assert isinstance(card, int)
    assert refused(state, f"secret {card}") == (
        "the deck was rebuilt for this round from all 27 cards except those dealt in the "
        f"previous round: secret card {describe_card(card)} was dealt in round 6"
    )
    # The cards of round 5 are back.
    assert state.illegal_reason(state.parse_action(f"secret {fifth[0]}")) is None


# ---------------------------------------------------------------- Round 3 and 5: the hand


def test_round_5_a_card_is_played_from_the_hand() -> None:
    state = start()
    play(state, "up3 eepo", "up1 nui")
    assert refused(state, "up3 lokahi") == (
        "a card is played from the player's hand: player 0 has no Tiki Up 3 left this round "
        "(hand: up1 up1 up2 topple toast toast)"
    )
    play(state, "up1 eepo", "toast", "up1 hookipa", "toast")
    assert refused(state, "up1 wikiwiki") == (
        "a card is played from the player's hand: player 0 has no Tiki Up 1 left this round "
        "(hand: up2 topple toast toast)"
    )


def test_round_3_three_or_four_players_hold_one_tiki_up_1() -> None:
    state = start(3)
    play(state, "up1 eepo", "up2 eepo", "up3 eepo")
    assert refused(state, "up1 nui") == (
        "a card is played from the player's hand: player 0 has no Tiki Up 1 left this round "
        "(hand: up2 up3 topple toast toast)"
    )


# ---------------------------------------------------------------- Round 5: the cards


def test_round_5_tiki_up_n_cannot_lift_a_tiki_above_position_1() -> None:
    state = start(line=LOKAHI_2ND)
    assert refused(state, "up3 lokahi") == (
        "a tiki can move up at most as many places as there are tikis above it: Lokahi is 2nd"
    )
    assert refused(state, "up2 lokahi") == (
        "a tiki can move up at most as many places as there are tikis above it: Lokahi is 2nd"
    )
    assert refused(state, "up1 akamai") == (
        "a tiki can move up at most as many places as there are tikis above it: Akamai is 1st"
    )
    assert refused(state, "up3 nui") == (
        "a tiki can move up at most as many places as there are tikis above it: Nui is 3rd"
    )


def test_round_5_tiki_up_and_topple_choose_an_active_tiki() -> None:
    state = start()
    play(state, "up1 wikiwiki", "up1 huhu", "toast")  # Eepo is toasted
    assert state.toasted() == ["eepo"]
    assert refused(state, "up2 eepo") == (
        "Tiki Up 2 moves a tiki still in the line: Eepo was toasted this round"
    )
    assert refused(state, "topple eepo") == (
        "Tiki Topple moves a tiki still in the line: Eepo was toasted this round"
    )


def test_round_5_topple_of_the_bottom_tiki_with_the_option_off() -> None:
    state = start(topple_bottom_allowed=False)
    assert refused(state, "topple eepo") == (
        "Tiki Topple may not choose the tiki already at the bottom (option "
        "topple_bottom_allowed is off): Eepo is 9th, the bottom"
    )
    play(state, "up1 wikiwiki", "up1 huhu", "toast")
    assert refused(state, "topple kapu") == (
        "Tiki Topple may not choose the tiki already at the bottom (option "
        "topple_bottom_allowed is off): Kapu is 8th, the bottom"
    )


def test_round_5_no_toast_on_a_players_own_first_turn() -> None:
    state = start(3)
    for seat in range(3):
        assert refused(state, "toast") == (
            "Tiki Toast is not allowed on a player's own first turn of the round: "
            f"this is player {seat}'s first turn"
        )
        play(state, "up1 wikiwiki" if seat == 0 else "topple nani")
    assert state.illegal_reason(state.parse_action("toast")) is None


def test_round_5_toast_needs_a_toast_card_in_hand() -> None:
    state = start()
    play(state, "up1 eepo", "up1 eepo", "toast", "toast", "toast", "toast")
    assert refused(state, "toast") == (
        "a card is played from the player's hand: player 0 has no Tiki Toast left this round "
        "(hand: up1 up2 up3 topple)"
    )


# ---------------------------------------------------------------- Round 6 and the game's end


def test_round_6_cards_still_in_hand_are_not_played_after_the_round_ends() -> None:
    state = start(4)
    play(state, "up1 wikiwiki", "up1 huhu", "up1 lokahi", "up1 akamai", *["toast"] * 6)
    assert state.is_chance_node() and state.line() == ["wikiwiki", "huhu", "lokahi"]
    assert state.hand(0) == ["up2", "up3", "topple"]
    assert refused(state, "up2 nani") == (
        "a round starts with the line setup: no card is played before the line is dealt"
    )


def test_game_the_game_is_over() -> None:
    state = start(rounds=1)
    finish_round(state, random.Random(2))
    assert state.current_player() == TERMINAL and len(state.winners()) == 1
    winner = state.winners()[0]
    said = f"the game is over: player {winner} wins with {state.scores()[winner]} points"
    assert refused(state, "toast") == said
    assert refused(state, GROUP_LINE) == said


def test_game_the_tied_players_share_the_win() -> None:
    for seed in range(200):
        state = start(rounds=1, tiebreak_rounds=0)
        finish_round(state, random.Random(seed))
        if state.winners() == (0, 1):
            break
    else:
        pytest.fail("no tie in 200 games")
    assert refused(state, "secret 7") == (
        f"the game is over: players 0 and 1 share the win with {state.scores()[0]} points"
    )
    four = start(4, rounds=1, tiebreak_rounds=0)
    play(four, "topple nani", "topple wikiwiki", "topple huhu", "topple lokahi", *["toast"] * 6)
    # The line ends Akamai, Nui, Hookipa: cards 0, 2 and 3 score 2 (Nui, Akamai, Akamai in the
    # top 3), card 1 (Nani / Eepo / Lokahi) nothing.
    assert four.line() == ["akamai", "nui", "hookipa"] and four.scores() == [2, 0, 2, 2]
    assert four.winners() == (0, 2, 3)
    assert refused(four, "toast") == (
        "the game is over: players 0, 2 and 3 share the win with 2 points"
    )


# ---------------------------------------------------------------- every refusal of random play


def expected_rule(state: TikiToppleState, action: TikiToppleAction) -> str:
    """The rule that refuses ``action``, worked out from the rules independently of the
    module under test: the first words of its reason."""
    player = state.current_player()
    if player == TERMINAL:
        return "the game is over"
    if player == CHANCE:
        if state.dealing_seat() is None:
            if action.kind == SECRET:
                return "not a possible outcome of this chance node$"
            return "a round starts with the line setup"
        if action.kind == LINE:
            return "the line of this round is already set up"
        if action.kind != SECRET:
            return "no card is played before every player in the round has a secret card"
        assert action.card not in state.deck()
        if action.card in [state.secret(seat) for seat in state.seats()]:
            return "each player is dealt a different secret card"
        dealt = [r for r, cards in enumerate(state.round_cards(), 1) if action.card in cards]
        assert dealt, "a card not in the deck was dealt before"
        gone = f"secret cards dealt in earlier rounds are gone.* round {dealt[-1]}$"
        # A rebuilt deck: this round's deck is every card but the previous round's.
        previous = set(state.round_cards()[-1])
        this_round = {state.secret(seat) for seat in state.seats()} - {None}
        if dealt[-1] == len(state.round_cards()) and set(state.deck()) | this_round == (
            set(range(27)) - previous
        ):
            return f"({gone}|the deck was rebuilt for this round.* round {dealt[-1]}$)"
        return gone
    if action.kind == LINE:
        return "the line is set up only at the start of a round"
    if action.kind == SECRET:
        return "the secret cards are dealt only at the start of a round"
    hand = state.hand(player)
    if CARD_NAMES[action.kind] not in hand:
        return "a card is played from the player's hand"
    if action.kind == TOAST:
        assert len(hand) == sum(full_hand(len(state.seats())))
        return "Tiki Toast is not allowed on a player's own first turn"
    tiki = TIKIS[action.tiki]
    if tiki not in state.line():
        return f"Tiki .* moves a tiki still in the line: {tiki.capitalize()} was toasted"
    position = state.line().index(tiki) + 1
    if action.kind == TOPPLE:
        assert position == len(state.line()) and not state.game.rules.topple_bottom_allowed
        return "Tiki Topple may not choose the tiki already at the bottom"
    assert position <= action.kind + 1
    return "a tiki can move up at most as many places"


#: The rules every random game of the options below meets (the first words of their reasons).
RULES = {
    "a round starts with the line setup",
    "not a possible outcome of this chance node",
    "the line of this round is already set up",
    "no card is played before every player in the round has a secret card",
    "each player is dealt a different secret card",
    "secret cards dealt in earlier rounds are gone for the rest of the game",
    "the line is set up only at the start of a round, before the secret cards",
    "the secret cards are dealt only at the start of a round, before the first card is played",
    "a card is played from the player's hand",
    "Tiki Toast is not allowed on a player's own first turn of the round",
    "Tiki Up moves a tiki still in the line",
    "Tiki Topple moves a tiki still in the line",
    "a tiki can move up at most as many places as there are tikis above it",
    "the game is over",
}
TOPPLE_BOTTOM = (
    "Tiki Topple may not choose the tiki already at the bottom (option topple_bottom_allowed "
    "is off)"
)
REBUILT = (
    "the deck was rebuilt for this round from all 27 cards except those dealt in the previous round"
)


@pytest.mark.parametrize(
    ("options", "rules"),
    [
        ({"players": 2}, RULES),
        ({"players": 3, "topple_bottom_allowed": False}, RULES | {TOPPLE_BOTTOM}),
        ({"players": 4, "rounds": 9}, RULES | {REBUILT}),  # the deck is rebuilt twice
    ],
)
def test_every_refusal_in_random_games_names_its_rule(
    options: dict[str, Any], rules: set[str]
) -> None:
    """Every card action, every secret card and a few line setups, in every position of a few
    random games: legal ones have no reason, the others the rule that applies (never the
    fallback), and every rule that the options allow shows up."""
    game = tikigames.load("tiki_topple", **options)
    rng = random.Random(str(options))
    n = game.num_distinct_actions
    seen: set[str] = set()
    for _game in range(3):
        state = game.new_initial_state()
        while True:
            mask = state.legal_actions_mask()
            ids = [*range(37), *range(n - 27, n), *rng.sample(range(37, n - 27), 3)]
            for action_id in ids:
                reason = state.illegal_reason(action_id)
                if mask[action_id]:
                    assert reason is None
                    continue
                assert reason is not None and "not legal for player" not in reason
                action = game.action(action_id)
                assert isinstance(action, TikiToppleAction)
                assert re.match(expected_rule(state, action), reason), (str(action), reason)
                seen.add(re.sub(r"Tiki Up \d", "Tiki Up", reason.split(":")[0]))
            if state.is_terminal():
                break
            state.apply_action(state.random_action(rng))
    assert seen == rules

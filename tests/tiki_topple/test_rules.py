"""Tiki Topple: one test (at least) per rule of docs/games/tiki_topple.rst, reached by actions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import tikigames
from tikigames import CHANCE, TERMINAL, ActionError, IllegalActionError, OptionError
from tikigames.tiki_topple.data import GROUPS, SECRET_CARDS, TIKIS
from tikigames.tiki_topple.state import TikiToppleState

GROUP_LINE = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"


def start(
    players: int = 2, line: str = GROUP_LINE, secrets: tuple[int, ...] = (), **options: Any
) -> TikiToppleState:
    """A state after the line setup and the secret deal (cards 0, 1, … unless given)."""
    state: TikiToppleState = tikigames.load(
        "tiki_topple", players=players, **options
    ).new_initial_state()
    state.apply_action(state.parse_action(line))
    for card in secrets or range(players):
        state.apply_action(state.parse_action(f"secret {card}"))
    return state


def play(state: TikiToppleState, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.parse_action(text))


def finish_round(state: TikiToppleState, rng: random.Random) -> None:
    """Random cards until the round is over (the next line is up, or the game ended)."""
    while state.current_player() >= 0:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def deal_round(state: TikiToppleState, rng: random.Random) -> None:
    """Random line and random secret cards for the round about to start."""
    while state.is_chance_node():
        outcomes = state.legal_actions()
        state.apply_action(outcomes[rng.randrange(len(outcomes))])


# ---------------------------------------------------------------- components


def test_nine_tikis_in_three_groups() -> None:
    assert len(TIKIS) == 9
    assert sorted(t for group in GROUPS for t in group) == list(range(9))
    assert [TIKIS[t] for t in GROUPS[1]] == ["lokahi", "akamai", "nui"]


def test_secret_deck_table() -> None:
    assert len(SECRET_CARDS) == 27 and len(set(SECRET_CARDS)) == 27
    for card in SECRET_CARDS:
        # One tiki of each group per card.
        assert sorted(next(g for g, grp in enumerate(GROUPS) if t in grp) for t in card) == [
            0,
            1,
            2,
        ]
    for slot in range(3):
        assert Counter(card[slot] for card in SECRET_CARDS) == {t: 3 for t in range(9)}
    names = {i + 1: tuple(TIKIS[t] for t in card) for i, card in enumerate(SECRET_CARDS)}
    assert names[1] == ("nani", "hookipa", "nui")
    assert names[4] == ("wikiwiki", "hookipa", "akamai")
    assert names[11] == ("lokahi", "wikiwiki", "hookipa")
    assert names[15] == ("akamai", "huhu", "hookipa")
    assert names[19] == ("hookipa", "lokahi", "nani")


@pytest.mark.parametrize(("players", "hand"), [(2, 7), (3, 6), (4, 6)])
def test_action_hand(players: int, hand: int) -> None:
    state = start(players)
    obs = state.observation(0)
    for cards in obs.hands:
        assert len(cards) == hand
        assert Counter(cards) == {
            "up1": 2 if players == 2 else 1, "up2": 1, "up3": 1, "topple": 1, "toast": 2,
        }  # fmt: skip


# ---------------------------------------------------------------- round setup


def test_line_setup_is_1296_uniform_group_lines() -> None:
    state = tikigames.load("tiki_topple").new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1296
    assert all(p == pytest.approx(1 / 1296) for _, p in outcomes)
    for action, _ in outcomes:
        line = action.line
        for block in range(3):
            assert any(set(line[3 * block : 3 * block + 3]) == set(g) for g in GROUPS)
    # A line mixing the groups is not an action at all.
    with pytest.raises(ActionError) as error:
        state.parse_action("line nani,lokahi,huhu,wikiwiki,akamai,nui,hookipa,kapu,eepo")
    assert not isinstance(error.value, IllegalActionError)


def test_secret_cards_dealt_in_seat_order_uniformly() -> None:
    state = tikigames.load("tiki_topple", players=3).new_initial_state()
    play(state, GROUP_LINE)
    for seat, card in enumerate((5, 9, 20)):
        assert state.is_chance_node()
        assert (
            state.action_to_string(state.parse_action(f"secret {card}"), seat) == f"secret {card}"
        )
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 27 - seat
        assert all(p == pytest.approx(1 / (27 - seat)) for _, p in outcomes)
        play(state, f"secret {card}")
    assert state.observation(1).secret == 9
    # A card already dealt cannot be dealt again.
    state2 = tikigames.load("tiki_topple").new_initial_state()
    play(state2, GROUP_LINE, "secret 3")
    with pytest.raises(IllegalActionError):
        play(state2, "secret 3")


def test_cards_dealt_earlier_are_gone_and_the_deck_resets_when_short() -> None:
    rng = random.Random(3)
    state = tikigames.load("tiki_topple", players=4, rounds=7).new_initial_state()
    dealt: list[int] = []
    for _round in range(6):
        play(state, GROUP_LINE)
        for _ in range(4):
            outcomes = {a.card for a, _ in state.chance_outcomes()}
            assert not outcomes & set(dealt)
            action = state.legal_actions()[rng.randrange(len(outcomes))]
            dealt.append(action.card)
            state.apply_action(action)
        finish_round(state, rng)
    assert len(set(dealt)) == 24
    play(state, GROUP_LINE)
    # Three cards left for four players: the deck is rebuilt without the previous round's cards.
    outcomes = {a.card for a, _ in state.chance_outcomes()}
    assert outcomes == set(range(27)) - set(dealt[-4:])


def test_first_player_option_and_rotation() -> None:
    rng = random.Random(1)
    state = start(3, first_player=2)
    assert state.current_player() == 2
    order = []
    for _ in range(3):
        order.append(state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[0])
    assert order == [2, 0, 1]
    finish_round(state, rng)
    deal_round(state, rng)
    assert state.current_player() == 0  # the player after the previous starter


# ---------------------------------------------------------------- cards


def line_of(state: TikiToppleState) -> list[str]:
    return state.line()


def test_tiki_up_moves_up_and_the_passed_tikis_drop() -> None:
    state = start()
    play(state, "up2 akamai")  # position 5 -> 3
    assert line_of(state)[:6] == ["nani", "wikiwiki", "akamai", "huhu", "lokahi", "nui"]
    play(state, "up3 eepo")  # position 9 -> 6
    assert line_of(state)[5:] == ["eepo", "nui", "hookipa", "kapu"]
    play(state, "up1 wikiwiki")  # position 2 -> 1
    assert line_of(state)[:2] == ["wikiwiki", "nani"]


def test_tiki_up_cannot_go_past_the_top() -> None:
    state = start()
    legal = {str(a) for a in state.legal_actions()}
    assert "up3 huhu" not in legal and "up3 lokahi" in legal  # positions 3 and 4
    assert "up2 wikiwiki" not in legal and "up2 huhu" in legal
    assert "up1 nani" not in legal and "up1 wikiwiki" in legal
    with pytest.raises(IllegalActionError):
        play(state, "up3 huhu")


def test_topple_sends_a_tiki_to_the_bottom() -> None:
    state = start()
    play(state, "topple nani")
    assert line_of(state) == [*TIKIS[1:], "nani"]


def test_topple_of_the_bottom_tiki_is_allowed_by_default_and_a_no_op() -> None:
    state = start()
    before = line_of(state)
    play(state, "topple eepo")
    assert line_of(state) == before
    strict = start(topple_bottom_allowed=False)
    assert "topple eepo" not in {str(a) for a in strict.legal_actions()}
    with pytest.raises(IllegalActionError):
        play(strict, "topple eepo")


def test_toast_removes_the_bottom_tiki_but_not_on_a_first_turn() -> None:
    state = start()
    assert "toast" not in {str(a) for a in state.legal_actions()}
    with pytest.raises(IllegalActionError):
        play(state, "toast")
    play(state, "topple nani", "topple nani")
    assert "toast" in {str(a) for a in state.legal_actions()}
    play(state, "toast")
    assert state.observation(None).removed == ("nani",)
    assert len(line_of(state)) == 8


def test_cards_are_used_up_and_there_is_no_passing() -> None:
    state = start()
    play(state, "up3 eepo", "topple nani")
    assert "up3" not in " ".join(str(a) for a in state.legal_actions())
    assert all(str(a) != "pass" for a in state.legal_actions())
    with pytest.raises(ActionError):
        state.parse_action("pass")


# ---------------------------------------------------------------- end of round and scoring


def toast_or_wait(state: TikiToppleState) -> None:
    """Play a Toast when allowed, else topple the bottom tiki (which changes nothing)."""
    legal = {str(a): a for a in state.legal_actions()}
    if "toast" in legal:
        state.apply_action(legal["toast"])
    else:
        play(state, f"topple {state.line()[-1]}")


def test_round_ends_when_a_toast_leaves_three_tikis() -> None:
    state = start(3)
    for _ in range(3):
        toast_or_wait(state)
    for _ in range(5):
        play(state, "toast")
        assert state.current_player() >= 0
    play(state, "toast")
    assert state.line() == ["nani", "wikiwiki", "huhu"]
    assert state.current_player() == CHANCE  # at once: cards still in hand are not played
    assert [len(hand) for hand in state.observation(None).hands] == [3, 3, 3]
    assert state.observation(None).revealed == ((0, 1, 2),)


def test_round_ends_when_every_hand_is_empty() -> None:
    state = start(2)
    rng = random.Random(2)
    for turn in range(14):
        assert state.current_player() == turn % 2
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    # Two players hold four Toasts between them: five tikis stay, and the hands ran out.
    assert len(state.line()) == 5
    assert state.current_player() == CHANCE
    assert state.observation(None).round_points


def test_rulebook_scoring_example() -> None:
    """Four players; final line Lokahi, Hookipa, Akamai; cards #18, #3, #10, #14 score 5, 7,
    11 and 2."""
    state = start(
        4, line="line lokahi,akamai,nui,hookipa,kapu,eepo,nani,wikiwiki,huhu",
        secrets=(18, 3, 10, 14),
    )  # fmt: skip
    play(state, "up2 hookipa", "topple huhu", "topple huhu", "topple huhu")
    for _ in range(6):
        play(state, "toast")
    assert state.observation(None).round_points == ((5, 7, 11, 2),)
    assert state.scores() == [5, 7, 11, 2]
    assert state.round_scores() == [[5, 7, 11, 2]]


def test_removed_tikis_score_nothing_and_several_players_score_one_tiki() -> None:
    # #0 and #1 both have Nani on top; #26 (Eepo / Nui / Huhu) has its top tiki toasted.
    state = start(3, secrets=(0, 1, 26))
    while state.current_player() >= 0:
        toast_or_wait(state)
    assert state.line() == ["nani", "wikiwiki", "huhu"]
    assert "eepo" in state.observation(None).removed
    assert state.scores() == [9, 9, 2]


# ---------------------------------------------------------------- game


@pytest.mark.parametrize(("players", "rounds"), [(2, 4), (3, 3), (4, 4)])
def test_default_rounds(players: int, rounds: int) -> None:
    assert tikigames.load("tiki_topple", players=players).options["rounds"] == rounds


def play_rounds(state: TikiToppleState, rng: random.Random, count: int) -> None:
    for _ in range(count):
        deal_round(state, rng)
        finish_round(state, rng)


def test_the_game_ends_after_its_rounds_and_the_leader_wins() -> None:
    rng = random.Random(11)
    for _ in range(10):
        state = tikigames.load("tiki_topple", rounds=2, tiebreak_rounds=0).new_initial_state()
        play_rounds(state, rng, 2)
        assert state.current_player() == TERMINAL
        scores = state.scores()
        returns = state.returns()
        if scores[0] == scores[1]:
            assert returns == [0.0, 0.0]
        else:
            best = scores.index(max(scores))
            assert returns[best] == 1.0 and returns[1 - best] == -1.0


def tied_game(players: int, tiebreaks: int, target: int | None = None) -> TikiToppleState:
    """A game whose first round ends with players 0 and 1 tied (same card top, no one else
    scoring) — found by dealing cards with the same top tiki to the first two seats."""
    options: dict[str, Any] = {"players": players, "tiebreak_rounds": tiebreaks}
    if target is None:
        options["rounds"] = 1
    else:
        options["target_score"] = target
    state: TikiToppleState = tikigames.load("tiki_topple", **options).new_initial_state()
    # #0 and #1 have Nani on top and score 9 each; #11 and #17 score nothing on this line.
    play(state, GROUP_LINE)
    for card in (0, 1, 11, 17)[:players]:
        play(state, f"secret {card}")
    while state.current_player() >= 0:
        toast_or_wait(state)
    return state


def test_tiebreak_round_only_for_the_tied_with_hands_sized_for_them() -> None:
    state = tied_game(4, tiebreaks=3)
    scores = state.scores()
    assert scores[0] == scores[1] > max(scores[2:])
    assert state.current_player() == CHANCE
    play(state, GROUP_LINE)
    assert state.observation(None).seats == (0, 1)
    play(state, "secret 5", "secret 6")
    assert state.current_player() == 1  # first tied seat after the previous starter (0)
    obs = state.observation(None)
    assert len(obs.hands[0]) == 7 and obs.hands[2] == () and obs.hands[3] == ()
    assert obs.secret is None


def test_tie_remaining_after_the_tiebreak_limit_is_shared() -> None:
    state = tikigames.load("tiki_topple", players=3, rounds=1, tiebreak_rounds=0)
    state = state.new_initial_state()
    play(state, GROUP_LINE, "secret 0", "secret 1", "secret 2")  # Nani on top of all three
    while state.current_player() >= 0:
        toast_or_wait(state)
    assert state.is_terminal() and state.scores() == [9, 9, 9]
    assert state.returns() == [0.0, 0.0, 0.0]  # a win shared by all
    state3 = tied_game(3, tiebreaks=0)
    assert state3.is_terminal()
    assert state3.returns() == [1.0, 1.0, -1.0]
    assert state3.observation(2).winners == (0, 1)


def test_target_score_edition() -> None:
    state = tied_game(3, tiebreaks=0, target=9)
    assert state.is_terminal()  # the first round already reached 9
    state = tied_game(3, tiebreaks=0, target=50)
    assert state.is_chance_node() and not state.is_terminal()
    assert state.observation(None).round == 2


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1}, {"players": 5}, {"players": True}, {"players": "2"}, {"rounds": 0},
        {"first_player": 2}, {"first_player": -1}, {"tiebreak_rounds": -1},
        {"target_score": 0}, {"topple_bottom_allowed": 1}, {"colour": "red"},
    ],
)  # fmt: skip
def test_bad_options_raise_option_error(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as error:
        tikigames.load("tiki_topple", **options)
    assert next(iter(options)) in str(error.value)


def test_unknown_game() -> None:
    with pytest.raises(OptionError):
        tikigames.load("Tiki_Topple")

"""Tiki Topple's observations and resampling: nothing leaks, and resampling draws the hidden
secret cards uniformly among the consistent ones."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import tikigames
from tikigames import InvalidStateError
from tikigames.tiki_topple.state import TikiToppleState

GROUP_LINE = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"


def dealt(players: int, cards: tuple[int, ...], **options: object) -> TikiToppleState:
    state: TikiToppleState = tikigames.load(
        "tiki_topple", players=players, **options
    ).new_initial_state()
    state.apply_action(state.parse_action(GROUP_LINE))
    for card in cards:
        state.apply_action(state.parse_action(f"secret {card}"))
    return state


def test_own_secret_card_only() -> None:
    state = dealt(3, (4, 9, 20))
    for seat, card in enumerate((4, 9, 20)):
        obs = state.observation(seat)
        assert obs.secret == card
        shown = [text for text in obs.history if text.startswith("secret")]
        assert shown == [
            f"secret {c}" if s == seat else "secret ?" for s, c in enumerate((4, 9, 20))
        ]
        for other in (4, 9, 20):
            if other != card:
                assert f"#{other} " not in str(obs)
                assert f"secret {other}" not in json.dumps(obs.to_json())
    spectator = state.observation(None)
    assert spectator.secret is None
    assert [t for t in spectator.history if t.startswith("secret")] == ["secret ?"] * 3


def test_states_differing_only_in_hidden_cards_look_the_same() -> None:
    a = dealt(2, (4, 9))
    b = dealt(2, (4, 13))
    assert a != b
    assert a.observation(0) == b.observation(0)
    assert str(a.observation(0)) == str(b.observation(0))
    assert a.observation(0).to_json() == b.observation(0).to_json()
    assert a.observation(1) != b.observation(1)
    assert a.observation(None) == b.observation(None)


def test_cards_are_revealed_at_the_end_of_the_round() -> None:
    state = dealt(3, (4, 9, 20))
    rng = random.Random(0)
    while state.current_player() >= 0:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    obs = state.observation(1)
    assert obs.revealed == ((4, 9, 20),)
    assert obs.secret == 9  # this round's card is still shown until the next one is dealt
    assert "secret ?" in obs.history  # the history stays as the player saw it


def test_action_to_string_hides_the_card_of_the_seat_being_dealt() -> None:
    state = dealt(2, ())
    action = state.parse_action("secret 7")
    assert state.action_to_string(action, 0) == "secret 7"
    assert state.action_to_string(action, 1) == "secret ?"
    assert state.action_to_string(action) == "secret 7"


def test_resample_draws_the_hidden_card_uniformly() -> None:
    state = dealt(3, (4, 9, 20))
    obs = state.observation(0)
    rng = random.Random(1234)
    draws = 5200
    first: Counter[int] = Counter()
    second: Counter[int] = Counter()
    for _ in range(draws):
        sample = tikigames.load("tiki_topple", players=3).resample(obs, rng)
        assert sample.observation(0) == obs
        cards = [sample.secret(seat) for seat in range(3)]
        assert cards[0] == 4 and len(set(cards)) == 3
        first[cards[1]] += 1
        second[cards[2]] += 1
    for counts in (first, second):
        assert set(counts) == set(range(27)) - {4}
        expected = draws / 26
        chi2 = sum((counts[c] - expected) ** 2 / expected for c in counts)
        assert chi2 < 52.6  # chi-square, 25 degrees of freedom, p = 0.001


def test_resample_with_few_consistent_histories_matches_the_exact_distribution() -> None:
    """Two players deep into a long game: three cards are left in the deck, the observer holds
    one, so the opponent's card is one of exactly two, each with probability 1/2."""
    game = tikigames.load("tiki_topple", rounds=20, tiebreak_rounds=0)
    rng = random.Random(9)
    state = game.new_initial_state()
    while len(state.round_cards()) < 12:
        if state.is_chance_node():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    state.apply_action(state.parse_action(GROUP_LINE))
    left = [a.card for a, _ in state.chance_outcomes()]
    assert len(left) == 3
    state.apply_action(state.parse_action(f"secret {left[0]}"))
    state.apply_action(state.parse_action(f"secret {left[1]}"))
    obs = state.observation(0)
    counts = Counter(game.resample(obs, rng).secret(1) for _ in range(4000))
    assert set(counts) == {left[1], left[2]}
    assert abs(counts[left[1]] - 2000) < 4 * (4000 * 0.25) ** 0.5


def test_resample_keeps_revealed_cards_of_finished_rounds() -> None:
    game = tikigames.load("tiki_topple", players=4)
    rng = random.Random(4)
    state = game.new_initial_state()
    for _ in range(60):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    obs = state.observation(2)
    assert obs.revealed
    for _ in range(50):
        sample = game.resample(obs, rng)
        assert sample.round_cards() == state.round_cards()
        assert sample.observation(2) == obs


def test_resample_rejects_foreign_or_inconsistent_observations() -> None:
    state = dealt(2, (4, 9))
    obs = state.observation(0)
    with pytest.raises(InvalidStateError):
        tikigames.load("tiki_topple", players=3).resample(obs, random.Random(0))
    data = obs.to_json()
    data["history"] = [*data["history"][:2], "secret 4"]  # the observer's card dealt to seat 1
    with pytest.raises(InvalidStateError):
        state.game.observation_from_json(data)
    data = obs.to_json()
    data["secret"] = 5
    with pytest.raises(InvalidStateError):
        state.game.observation_from_json(data)
    data = obs.to_json()
    data["revealed"] = [[1, 2]]
    with pytest.raises(InvalidStateError):
        state.game.observation_from_json(data)

"""Tiki Topple's fast path: the shortcuts of the rules engine give exactly what the plain
definitions give — the legal actions of the rules, the base class's seeded draws, the deal's
uniform draws and the resampler's worlds — so seeded games, rollouts and bots are unchanged."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

import tikigames
from tikigames.core.state import State
from tikigames.tiki_topple.actions import TikiToppleTable
from tikigames.tiki_topple.data import CARD_NAMES, TIKIS

#: Option sets that reach every branch: 2–4 players, tiebreak rounds, no bottom topple.
CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"topple_bottom_allowed": False},
    {"players": 3, "rounds": 1, "tiebreak_rounds": 5},
    {"players": 4, "rounds": 1, "tiebreak_rounds": 5, "topple_bottom_allowed": False},
]


def walk(config: dict[str, Any], seed: int, games: int = 3) -> list[Any]:
    """Every position of a few random games."""
    game = tikigames.load("tiki_topple", **config)
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            positions.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        positions.append(state)
    return positions


def rules_legal(state: Any) -> list[str]:
    """The legal cards by the rules file, written out: Tiki Up n on a tiki below the top n
    places, Tiki Topple on any tiki (not the bottom one when the option forbids it), Tiki Toast
    but not as a hand's first card."""
    seat = state.current_player()
    hand = state.hand(seat)
    line = state.line()
    texts = []
    for steps, card in enumerate(("up1", "up2", "up3"), start=1):
        if card in hand:
            texts += [f"{card} {tiki}" for tiki in line[steps:]]
    if "topple" in hand:
        allowed = state.game.rules.topple_bottom_allowed
        texts += [f"topple {tiki}" for tiki in (line if allowed else line[:-1])]
    full = 7 if len(state.seats()) == 2 else 6
    if "toast" in hand and len(hand) < full:
        texts.append("toast")
    order = {
        f"{card} {tiki}": i * 9 + t
        for i, card in enumerate(CARD_NAMES)
        for t, tiki in enumerate(TIKIS)
    }
    order["toast"] = 36
    return sorted(texts, key=order.__getitem__)


def chi_square_critical(df: int, z: float = 3.29) -> float:
    """The chi-square value exceeded with probability about 0.0005 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("config", CONFIGS)
def test_legal_actions_are_those_of_the_rules(config: dict[str, Any]) -> None:
    for state in walk(config, seed=1):
        legal = state.legal_actions()
        if state.current_player() >= 0:
            assert [str(action) for action in legal] == rules_legal(state)
        elif state.is_chance_node():
            assert legal == [action for action, _ in state.chance_outcomes()]
        else:
            assert legal == []
        assert legal == sorted(legal)
        assert all(state.game.action(int(action)) is action for action in legal)


def test_the_line_setup_lists_its_1296_outcomes_and_hands_out_copies() -> None:
    state = tikigames.load("tiki_topple").new_initial_state()
    legal = state.legal_actions()
    assert len(legal) == 1296 and legal == [action for action, _ in state.chance_outcomes()]
    legal.clear()
    state.chance_outcomes().clear()
    assert len(state.legal_actions()) == 1296 and len(state.chance_outcomes()) == 1296
    assert len(tikigames.load("tiki_topple", players=3).new_initial_state().legal_actions()) == 1296


@pytest.mark.parametrize("config", CONFIGS)
def test_random_action_is_the_base_class_draw(config: dict[str, Any]) -> None:
    """The same ``rng`` gives the very action the base class draws from the legal list (one
    ``rng.random()``, an index), and at a chance node ``sample_chance``'s draw."""
    for index, state in enumerate(walk(config, seed=2)):
        if state.is_terminal():
            with pytest.raises(tikigames.IllegalActionError):
                state.random_action(random.Random(0))
            continue
        for seed in range(3):
            ours, theirs = random.Random(index * 10 + seed), random.Random(index * 10 + seed)
            action = state.clone().random_action(ours)
            if state.is_chance_node():
                assert action is state.sample_chance(theirs)
            else:
                assert action is State.random_action(state.clone(), theirs)
            assert ours.getstate() == theirs.getstate()


def test_random_action_is_uniform_over_the_legal_actions() -> None:
    """A chi-square test over many positions at once: the statistics and degrees of freedom
    of each position add up."""
    rng = random.Random(7)
    statistic, df = 0.0, 0
    for config in CONFIGS:
        positions = [s for s in walk(config, seed=3, games=1) if s.current_player() >= 0]
        for state in positions[::4]:
            legal = state.legal_actions()
            draws = 60 * len(legal)
            counts = Counter(state.random_action(rng) for _ in range(draws))
            assert set(counts) <= set(legal)
            expected = draws / len(legal)
            statistic += sum((counts[action] - expected) ** 2 / expected for action in legal)
            df += len(legal) - 1
    assert df > 1000
    assert statistic < chi_square_critical(df)


@pytest.mark.parametrize("config", CONFIGS[:3])
def test_a_secret_card_is_drawn_as_an_index_into_the_deck(config: dict[str, Any]) -> None:
    """``sample_chance`` at a deal: ``rng.randrange`` over the cards left, in id order — the
    draw of the list the outcomes give (uniform, as the outcomes say)."""
    deals = [s for s in walk(config, seed=4) if s.dealing_seat() is not None]
    assert deals
    for index, state in enumerate(deals):
        outcomes = state.chance_outcomes()
        assert {p for _, p in outcomes} == {1 / len(state.deck())}
        assert [action.card for action, _ in outcomes] == state.deck()
        ours, theirs = random.Random(index), random.Random(index)
        assert state.sample_chance(ours) is outcomes[theirs.randrange(len(outcomes))][0]
        assert ours.getstate() == theirs.getstate()


def test_the_deck_table_turns_an_index_into_the_card() -> None:
    table = tikigames.load("tiki_topple").action_table
    assert isinstance(table, TikiToppleTable)
    rng = random.Random(5)
    for deck in [0, (1 << 27) - 1, 1, 1 << 26, 0b101 << 8] + [
        rng.getrandbits(27) for _ in range(200)
    ]:
        deals = table.deals(deck)
        assert [action.card for action in deals] == [c for c in range(27) if deck >> c & 1]
        assert [table.deal(deck, i) for i in range(len(deals))] == deals


def reference_draw(game: Any, obs: Any, rng: random.Random) -> Any:
    """The resampler's definition, replayed from scratch: a hidden card of a finished round is
    the revealed one; one of the current round is ``rng.choice`` of the deck as it stands less
    the cards the observer saw dealt this round."""
    history = obs.history
    start = max((i for i, text in enumerate(history) if text.startswith("line ")), default=0)
    seen = {
        int(text.split()[1])
        for text in history[start:]
        if text.startswith("secret ") and "?" not in text
    }
    state = game.new_initial_state()
    for text in history:
        if text == "secret ?":
            finished = len(state.round_cards())
            if finished < len(obs.revealed):
                card = obs.revealed[finished][state.dealing_seat()]
            else:
                card = rng.choice([c for c in state.deck() if c not in seen])
            text = f"secret {card}"
        state.apply_action(state.parse_action(text))
    return state


@pytest.mark.parametrize("config", CONFIGS)
def test_a_prepared_resampler_draws_the_worlds_of_its_definition(config: dict[str, Any]) -> None:
    """Seeded alike, the prepared resampler and the definition draw the same worlds (so the
    same distribution), each consistent with the observation."""
    game = tikigames.load("tiki_topple", **config)
    positions = walk(config, seed=5, games=2)
    for index, state in enumerate(positions[::7]):
        observer = index % game.num_players
        obs = state.observation(observer)
        draw = game.resampler(obs)
        ours, theirs = random.Random(index), random.Random(index)
        for _ in range(3):
            world = draw(ours)
            assert world.history() == reference_draw(game, obs, theirs).history()
            assert world.observation(observer) == obs
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("config", CONFIGS)
def test_undo_through_round_ends_and_tiebreaks_restores_every_position(
    config: dict[str, Any],
) -> None:
    """Played with the fast path, then undone to the start: every position comes back, its
    legal actions regenerated afresh, while clones that share its past play on."""
    game = tikigames.load("tiki_topple", **config)
    rng = random.Random(6)
    # With one round, tiebreaks are frequent: play on until two were played by fewer seats,
    # whose hands are larger (two Tiki Up 1 for two seats) — the round fields undo must restore.
    partial = 0
    games = 0
    while games < 4 or ("tiebreak_rounds" in config and partial < 2):
        games += 1
        assert games < 100
        state = game.new_initial_state()
        seen = []
        clones = []
        while not state.is_terminal():
            if state.dealing_seat() is not None and len(state.seats()) < game.num_players:
                partial += not state.history()[-1].text.startswith("secret")
            seen.append((state.clone(), state.legal_actions(), state.to_json()))
            if rng.random() < 0.1:
                clones.append(state.clone())
            state.apply_unchecked(state.random_action(rng))
        final = state.clone()
        for clone in clones:
            for _ in range(min(4, len(clone.history()))):
                clone.undo_action()
            while not clone.is_terminal():
                clone.apply_unchecked(clone.random_action(rng))
        assert state == final
        while seen:
            state.undo_action()
            before, legal, data = seen.pop()
            assert state == before and hash(state) == hash(before)
            assert state.to_json() == data
            fresh = game.state_from_json(data)
            assert fresh.legal_actions() == legal == state.legal_actions()
            assert state.random_action(random.Random(1)) is fresh.random_action(random.Random(1))
            for seat in range(game.num_players):
                assert state.observation(seat) == before.observation(seat)

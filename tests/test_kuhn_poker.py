"""Kuhn poker, the example game of ``examples/kuhn_poker.py``, checked against its rules.

The example is not a package module, so it is loaded from its path (once per process: it
registers the game, and a second class named ``kuhn_poker`` would be refused).
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import io
import itertools
import json
import pickle
import random
import sys
import tokenize
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tikigames
from tikigames import ActionError, IllegalActionError, InvalidStateError
from tikigames.bots import Bot, ISMCTSBot, RandomBot
from tikigames.testing import check_game

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "kuhn_poker.py"


def _load_example() -> ModuleType:
    if "kuhn_poker" in sys.modules:
        return sys.modules["kuhn_poker"]
    spec = importlib.util.spec_from_file_location("kuhn_poker", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kuhn_poker"] = module  # before running it, so that its classes pickle
    spec.loader.exec_module(module)
    return module


kuhn = _load_example()

RANK = {"J": 0, "Q": 1, "K": 2}
DEALS = list(itertools.permutations("JQK", 2))
#: The rules, written out: each betting sequence that ends a hand, and who wins how much
#: ("showdown": the higher card).
OUTCOMES: dict[tuple[str, ...], tuple[int | str, int]] = {
    ("pass", "pass"): ("showdown", 1),
    ("pass", "bet", "pass"): (1, 1),
    ("pass", "bet", "bet"): ("showdown", 2),
    ("bet", "pass"): (0, 1),
    ("bet", "bet"): ("showdown", 2),
}


def play_out(texts: list[str]) -> Any:
    state = tikigames.load("kuhn_poker").new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def every_state() -> list[Any]:
    """Every state of the game tree (a clone of each), the initial state first."""
    states = []
    stack = [tikigames.load("kuhn_poker").new_initial_state()]
    while stack:
        state = stack.pop()
        states.append(state)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            stack.append(child)
    return states


def test_it_passes_the_conformance_suite() -> None:
    """The contract every game meets, over as many random walks as the hypothesis profile
    asks for (a hand is at most 5 actions long)."""
    check_game(tikigames.load("kuhn_poker"), max_steps=10)


def test_the_module_doctests_pass() -> None:
    result = doctest.testmod(kuhn)
    assert result.failed == 0 and result.attempted >= 4


def test_it_registers_itself() -> None:
    game = tikigames.load("kuhn_poker")
    assert isinstance(game, kuhn.KuhnPoker)
    assert game.name == "kuhn_poker" and game.title == "Kuhn poker"
    assert game.num_players == 2 and game.options == {} and game.rules == kuhn.KuhnPokerRules()
    assert game == tikigames.load("kuhn_poker")
    with pytest.raises(tikigames.OptionError):
        tikigames.load("kuhn_poker", players=3)
    assert pickle.loads(pickle.dumps(game)) == game


@pytest.mark.parametrize("deal", DEALS, ids="".join)
@pytest.mark.parametrize("betting", list(OUTCOMES), ids=" ".join)
def test_returns_of_every_terminal_history(deal: tuple[str, str], betting: tuple[str, ...]) -> None:
    """The 30 hands (6 deals × 5 betting sequences) pay what the rules say."""
    state = play_out([f"deal {card}" for card in deal])
    for turn, text in enumerate(betting):
        assert not state.is_terminal() and state.current_player() == turn % 2
        assert state.returns() == [0.0, 0.0]
        state.apply_action(state.parse_action(text))
    assert state.is_terminal() and state.legal_actions() == []
    winner, stake = OUTCOMES[betting]
    if winner == "showdown":
        winner = 0 if RANK[deal[0]] > RANK[deal[1]] else 1
    expected = [float(stake), -float(stake)] if winner == 0 else [-float(stake), float(stake)]
    assert state.returns() == expected


def test_the_game_tree_has_exactly_those_30_hands() -> None:
    terminal = {
        tuple(map(str, state.history())): state for state in every_state() if state.is_terminal()
    }
    expected = {
        (f"deal {deal[0]}", f"deal {deal[1]}", *betting) for deal in DEALS for betting in OUTCOMES
    }
    assert len(terminal) == 30 and set(terminal) == expected
    assert all(sum(state.returns()) == 0 for state in terminal.values())  # zero-sum


def test_chance_deals_uniformly_from_the_cards_left() -> None:
    state = tikigames.load("kuhn_poker").new_initial_state()
    assert state.current_player() == tikigames.CHANCE
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [
        ("deal J", pytest.approx(1 / 3)),
        ("deal Q", pytest.approx(1 / 3)),
        ("deal K", pytest.approx(1 / 3)),
    ]
    state.apply_action(state.parse_action("deal Q"))
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [("deal J", 0.5), ("deal K", 0.5)]
    state.apply_action(state.parse_action("deal K"))
    assert state.chance_outcomes() == [] and state.current_player() == 0


def test_action_table_and_notation() -> None:
    game = tikigames.load("kuhn_poker")
    assert [(int(a), str(a)) for a in game.actions()] == [
        (0, "pass"),
        (1, "bet"),
        (2, "deal J"),
        (3, "deal Q"),
        (4, "deal K"),
    ]
    for state in every_state():
        for action in state.legal_actions():
            assert state.parse_action(str(action)) is action
            assert state.parse_action(f"  {str(action).upper()} ") is action
    betting = play_out(["deal J", "deal K"])
    assert [str(betting.parse_action(t)) for t in ("check", "fold", "call")] == [
        "pass",
        "pass",
        "bet",
    ]
    with pytest.raises(IllegalActionError):
        betting.parse_action("deal Q")
    with pytest.raises(ActionError):
        betting.parse_action("raise")
    dealing = play_out(["deal J"])
    assert dealing.action_to_string(4, 1) == "deal K"  # player 1 is being dealt
    assert dealing.action_to_string(4, 0) == "deal ?"
    assert dealing.action_to_string(4) == "deal K"


def test_observations_hide_the_other_card() -> None:
    state = play_out(["deal K", "deal J", "pass"])
    mine, theirs, spectator = state.observation(0), state.observation(1), state.observation(None)
    assert mine.history == ("deal K", "deal ?", "pass") and mine.card == "K"
    assert theirs.history == ("deal ?", "deal J", "pass") and theirs.card == "J"
    assert spectator.history == ("deal ?", "deal ?", "pass") and spectator.card is None
    assert mine.revealed == theirs.revealed == spectator.revealed == ()
    # Player 0 cannot tell the deals K-J and K-Q apart; player 1 cannot tell K-J from Q-J.
    twin = play_out(["deal Q", "deal J", "pass"]).observation(1)
    assert play_out(["deal K", "deal Q", "pass"]).observation(0) == mine
    assert twin == theirs and twin.to_json() == theirs.to_json() and str(twin) == str(theirs)
    assert "card J" in str(theirs) and "card" not in str(spectator)
    assert [str(a) for a in theirs.legal_actions()] == ["pass", "bet"] and mine.legal == ()


def test_a_showdown_reveals_both_cards_and_a_fold_neither() -> None:
    showdown = play_out(["deal K", "deal J", "pass", "bet", "bet"])
    for player in (0, 1, None):
        assert showdown.observation(player).revealed == ("K", "J")
    folded = play_out(["deal K", "deal J", "pass", "bet", "pass"])
    for player in (0, 1, None):
        assert folded.observation(player).revealed == ()
    assert "Showdown" in str(showdown.observation(0)) and "J" not in str(folded.observation(0))


def _other_cards(obs: Any, draws: int, seed: int, slot: int) -> Counter[str]:
    draw = obs.game.resampler(obs)
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    for _ in range(draws):
        world = draw(rng)
        assert world.observation(obs.player) == obs
        counts[str(world.history()[slot]).split()[1]] += 1
    return counts


def _chi_square(counts: Counter[str], cells: list[str]) -> float:
    expected = sum(counts.values()) / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


@pytest.mark.parametrize(
    ("history", "player", "slot", "others"),
    [
        (["deal K", "deal J"], 0, 1, ["J", "Q"]),
        (["deal K", "deal J", "bet"], 1, 0, ["K", "Q"]),  # a bet makes no card likelier
        (["deal Q", "deal K", "pass", "bet"], 0, 1, ["J", "K"]),
        (["deal Q"], 1, 0, ["J", "Q", "K"]),  # player 1 before its own card
    ],
)
def test_resample_draws_the_other_card_uniformly(
    history: list[str], player: int, slot: int, others: list[str]
) -> None:
    obs = play_out(history).observation(player)
    counts = _other_cards(obs, 3000, seed=11, slot=slot)
    assert set(counts) == set(others)
    # Chi-square, 1 or 2 degrees of freedom, at p = 0.001: 10.83 and 13.82.
    assert _chi_square(counts, others) < (10.83 if len(others) == 2 else 13.82)


def test_a_spectator_resamples_the_six_deals_uniformly() -> None:
    obs = play_out(["deal K", "deal J", "bet"]).observation(None)
    draw = obs.game.resampler(obs)
    rng = random.Random(5)
    counts: Counter[tuple[str, ...]] = Counter()
    for _ in range(6000):
        world = draw(rng)
        assert world.observation(None) == obs
        counts[tuple(str(a) for a in world.history()[:2])] += 1
    cells = [(f"deal {a}", f"deal {b}") for a, b in DEALS]
    assert set(counts) == set(cells)
    expected = 1000
    statistic = sum((counts[cell] - expected) ** 2 / expected for cell in cells)
    assert statistic < 20.52  # chi-square, 5 degrees of freedom, p = 0.001


def test_resample_is_exact_when_nothing_is_hidden() -> None:
    rng = random.Random(0)
    showdown = play_out(["deal J", "deal Q", "bet", "bet"])
    for player in (0, 1, None):
        obs = showdown.observation(player)
        assert all(obs.game.resample(obs, rng) == showdown for _ in range(20))
    fresh = tikigames.load("kuhn_poker").new_initial_state()
    assert fresh.game.resample(fresh.observation(None), rng) == fresh


def test_every_state_and_observation_round_trips_through_json() -> None:
    game = tikigames.load("kuhn_poker")
    for state in every_state():
        data = json.loads(json.dumps(state.to_json()))
        assert data["history"] == [str(a) for a in state.history()]
        loaded = tikigames.state_from_json(data)
        assert loaded == state and loaded.history() == state.history()
        assert game.state_from_json(data) == state
        for player in (0, 1, None):
            obs = state.observation(player)
            obs_data = json.loads(json.dumps(obs.to_json()))
            assert obs_data["card"] == obs.card and obs_data["revealed"] == list(obs.revealed)
            back = game.observation_from_json(obs_data)
            assert back == obs and back.to_json() == obs.to_json() and str(back) == str(obs)


def test_forged_observations_are_refused() -> None:
    game = tikigames.load("kuhn_poker")
    good = play_out(["deal K", "deal J", "pass", "bet", "bet"]).observation(1).to_json()
    forged = [
        {**good, "revealed": ["K", "K"]},
        {**good, "revealed": ["K", "Q"]},  # player 1 holds J
        {**good, "revealed": ["K"]},
        {**good, "revealed": "KJ"},
        {**good, "revealed": []},  # a showdown shows the cards
        {**good, "card": "Q"},
        {**good, "history": ["deal ?", "deal J", "pass", "bet"]},  # not over: no showdown
        {**good, "history": ["deal ?", "deal ?", "pass", "bet", "bet"]},
        {**good, "history": ["deal ?", "deal J", "deal Q", "pass"]},
    ]
    for data in forged:
        with pytest.raises(InvalidStateError):
            game.observation_from_json(data)
    # Another opponent card at the showdown is another, real, observation.
    other = game.observation_from_json({**good, "revealed": ["Q", "J"]})
    assert other == play_out(["deal Q", "deal J", "pass", "bet", "bet"]).observation(1)


def test_undo_and_clone_restore_every_state() -> None:
    for state in every_state():
        before = (state.clone(), json.dumps(state.to_json()), state.observation(0))
        for action in state.legal_actions():
            state.apply_action(action)
            assert state.undo_action() is action
            assert state == before[0] and hash(state) == hash(before[0])
            assert json.dumps(state.to_json()) == before[1] and state.observation(0) == before[2]


def test_ismcts_plays_whole_games() -> None:
    game = tikigames.load("kuhn_poker")
    for seed in range(10):
        bots: list[Bot] = [ISMCTSBot(iterations=100), RandomBot()]
        if seed % 2:
            bots.reverse()
        final = tikigames.play(game, bots, seed=seed)
        assert final.is_terminal()
        assert final.returns() in ([1.0, -1.0], [-1.0, 1.0], [2.0, -2.0], [-2.0, 2.0])


@pytest.mark.parametrize(("card", "answer"), [("K", "bet"), ("J", "pass")])
def test_ismcts_calls_with_the_king_and_folds_the_jack(card: str, answer: str) -> None:
    """Facing a bet, a king always wins the showdown (call) and a jack always loses it (fold):
    the search finds both from its resampled worlds."""
    other = "Q"
    state = play_out([f"deal {other}", f"deal {card}", "bet"])
    action = ISMCTSBot(iterations=400).act(state.observation(1), random.Random(0))
    assert str(action) == answer


def test_the_script_plays_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    kuhn.main()
    out = capsys.readouterr().out
    assert out.startswith("Kuhn poker: hand over") and "Returns: [" in out


def test_the_example_is_as_short_as_the_docs_say() -> None:
    # "Writing a game", the architecture page and the README: "under 175 lines of code",
    # counting every line that holds code, docstrings and comments aside.
    source = EXAMPLE.read_text()
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
               tokenize.DEDENT, tokenize.ENDMARKER}  # fmt: skip
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            code.update(range(token.start[0], token.end[0] + 1))
    assert 100 < len(code - docstrings) < 175

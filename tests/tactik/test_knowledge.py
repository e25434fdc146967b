"""Tac-Tik's knowledge for the search bots: the rollout policy (``state.rollout_action``), the
race's guess (``state.evaluate``) and the playout cap (``TacTik.rollout_cap``).

These are heuristics, not rules: the tests check what every heuristic owes the bots — a legal
action at every kind of decision, drawn from the rng alone, a guess in [−1, 1] that is the
returns at the end — and, on positions set up through real actions, the preferences the
policy is built on (a capture, a pawn into its home, a start, not overshooting the home). How
much stronger the bots play is measured in duels, not here (the docs page gives the figures).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import tikigames
from tikigames.tactik import TacTik, TacTikState

Table = Any  # the conftest's driver
Factory = Callable[..., Table]

#: The option sets whose positions the policy is checked on: every board, both discard rules,
#: both seven rules, the largest deck.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 2},
    {"players": 6},
    {"discard": "stuck"},
    {"players": 2, "discard": "stuck", "seven_captures_passed": False},
    {"jokers": 4, "with_13": True, "seven_captures_passed": False},
]


def shares(state: TacTikState, draws: int = 300) -> Counter[str]:
    """How often each action is the policy's choice here, over ``draws`` seeds."""
    return Counter(str(state.rollout_action(random.Random(seed))) for seed in range(draws))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda options: repr(options) or "{}")
def test_rollout_action_is_legal_and_deterministic_everywhere(options: dict[str, Any]) -> None:
    """Over whole games — deals, exchanges, turns, the sub-moves of sevens, discards, the turn
    limit — the policy's choice is legal, depends on the rng alone, and leaves the state as it
    was. The games are played half by the policy and half uniformly, so that both lead-ups
    and both kinds of position occur."""
    game = tikigames.load("tactik", max_turns=400, **options)
    rng = random.Random(7)
    kinds: set[str] = set()
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            seed = rng.randrange(1 << 30)
            before = state.clone()
            action = state.rollout_action(random.Random(seed))
            assert state == before
            assert action in state.legal_actions()
            assert state.rollout_action(random.Random(seed)) == action
            kinds.add(str(action).split(":")[0].split(" ")[0])
            player = state.current_player()
            chosen = action if player < 0 or player % 2 == 0 else state.random_action(rng)
            state.apply_unchecked(chosen)
        with pytest.raises(tikigames.IllegalActionError):
            state.rollout_action(rng)
    assert {"deal", "7", "-4", "P", "discard"} <= kinds


@pytest.mark.parametrize("players", [2, 4, 6])
def test_evaluate_is_a_guess_in_range_and_the_returns_at_the_end(players: int) -> None:
    game = tikigames.load("tactik", players=players)
    rng = random.Random(players)
    state = game.new_initial_state()
    while not state.is_terminal():
        guess = state.evaluate()
        assert len(guess) == players and all(-1.0 <= value <= 1.0 for value in guess)
        state.apply_unchecked(state.rollout_action(rng))
    assert state.evaluate() == state.returns()
    assert sorted(set(state.returns())) == [-1.0, 1.0]  # the policy's games end in a win


def test_the_policy_captures(table: Factory) -> None:
    """Red's pawn went back to t12 with ``-4``; green's pieu on t0 holds a 12 and a 2: the 12
    captures red's pawn — 61 squares of its progress — and is played unless the draw is
    uniform (one step in ten)."""
    t = table()
    t.deal("1 12 2 2", "10 -4 3 3", "6 6 6 2", "9 9 9 2")
    t.give("2", "3", "2", "2")
    t.play("1:start@0", "10:start@1", "discard 6", "discard 9", "discard 2", "-4:t16")
    t.discard(0)
    assert t.legal() == {"12:t0", "2:t0", "discard 12", "discard 2"}
    counts = shares(t.state)
    assert counts["12:t0"] >= 0.85 * 300


def green_at_t60(table: Factory, fourth: str) -> Table:
    """Player 0's only pawn on t60, 4 steps before green's start square, with ``fourth`` and a
    2 in hand."""
    t = table()
    t.deal(f"1 -4 {fourth} 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0")
    t.discard(0)
    t.play("-4:t0")
    t.discard(0)
    assert t.pawns(0) == ["t60"]
    return t


def test_the_policy_enters_the_home(table: Factory) -> None:
    """A 5 takes the pawn on t60 into ``h0.1``: preferred to the 2 along the track."""
    t = green_at_t60(table, "5")
    assert t.legal() == {"5:t60", "2:t60", "discard 5", "discard 2"}
    assert shares(t.state)["5:t60"] >= 0.85 * 300


def test_the_policy_does_not_overshoot_the_home(table: Factory) -> None:
    """A 9 would take the pawn on t60 past its home and round the track again: a lap lost,
    played only by a uniform draw (one step in ten, a quarter of those)."""
    t = green_at_t60(table, "9")
    assert t.legal() == {"9:t60", "2:t60", "discard 9", "discard 2"}
    counts = shares(t.state)
    assert counts["9:t60"] <= 0.1 * 300
    assert counts["2:t60"] >= 0.75 * 300


def test_the_policy_starts_a_pawn(table: Factory) -> None:
    """With every pawn in reserve, a start is preferred to throwing a card away."""
    t = table()
    t.deal("1 2 3 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    assert t.state.current_player() == 0
    assert shares(t.state)["1:start@0"] >= 0.85 * 300


def test_the_policy_swaps_its_pawn_ahead(table: Factory) -> None:
    """Green's pawn on t2 and red's on t12 (back past its start: 61 squares of progress):
    swapping them moves green 10 squares on and costs red 10 — played rather than a discard."""
    t = table()
    t.deal("1 P 2 2", "10 -4 3 3", "6 6 6 2", "9 9 9 2")
    t.give("2", "3", "2", "2")
    t.play("1:start@0", "10:start@1", "discard 6", "discard 9", "2:t0", "-4:t16")
    t.discard(0)
    assert t.legal() == {"P:t2~t12", "discard P", "discard 2", "2:t2"}
    assert shares(t.state)["P:t2~t12"] >= 0.85 * 300


def test_the_playout_cap_is_the_game_s() -> None:
    assert TacTik.rollout_cap == tikigames.load("tactik").rollout_cap
    assert TacTik.rollout_cap is not None and TacTik.rollout_cap > 0

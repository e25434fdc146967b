"""TacTiki's knowledge for the search bots: the rollout policy (``state.rollout_action``), the
statue race's guess (``state.evaluate``) and the playout cap (``TacTiki.rollout_cap``).

These are heuristics, not rules: the tests check what every heuristic owes the bots — a legal
action in every position, drawn from the rng alone, the state left as it was; a guess in
[−1, 1], zero-sum, that is the returns at the end — and, on positions reached through real
actions, the preferences they are built on (a statue nearly built, an attack that wins). How
much stronger the bots play is measured in duels, not here (the docs page gives the figures).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import tikigames
from tikigames.tactiki import TacTiki
from tikigames.tactiki.state import TacTikiState

from .conftest import play_script, started

#: TAC's idle turn in the scripts below: its 2 on a5 steps onto b5 and back.
IDLE = "a5-b5 b5-a5"
#: From the conftest's standard setup, TIKI ties TAC's 5 on e5 with its own 5 (locking the
#: field), then brings its 4, 3, 2 onto it and its 1 to e4, while TAC idles: TIKI is to make
#: the second move of a turn, and e4-e5 builds the statue.
NEAR_STATUE = (
    f"e1-e2 e2-e3 | {IDLE} | e3-e4 e4-e5 | {IDLE} | e1-e2 e2-e3 | {IDLE} | e3-e4 e4-e5 | {IDLE}"
    f" | d1-d2 d2-d3 | {IDLE} | d3-d4 d4-e4 | {IDLE} | e4-e5 d1-d2 | {IDLE} | d2-d3 d3-d4"
    f" | {IDLE} | d4-e4 e4-e5 | {IDLE} | c1-c2 c2-c3 | {IDLE} | c3-c4 c4-d4 | {IDLE} | d4-e4"
)


def shares(state: TacTikiState, draws: int = 400) -> Counter[str]:
    """How often each action is the policy's choice here, over ``draws`` seeds."""
    return Counter(str(state.rollout_action(random.Random(seed))) for seed in range(draws))


@pytest.mark.parametrize("options", [{}, {"strict_statue": True}, {"max_turns": 40}])
def test_rollout_action_is_legal_and_deterministic_everywhere(options: dict[str, Any]) -> None:
    """Over whole games — setups, move turns, attacks, reincarnations, passes, the turn
    limit — the policy's choice is legal, depends on the rng alone, and leaves the state as it
    was. Half the moves are the policy's and half uniform, so that both kinds of lead-up
    occur; once the game is over the policy raises like ``random_action``."""
    game = tikigames.load("tactiki", **options)
    rng = random.Random(11)
    kinds: Counter[str] = Counter()
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            seed = rng.randrange(1 << 30)
            before = state.clone()
            action = state.rollout_action(random.Random(seed))
            assert state == before
            assert action in state.legal_actions()
            assert state.rollout_action(random.Random(seed)) == action
            kinds[type_of(str(action))] += 1
            chosen = action if rng.random() < 0.5 else state.random_action(rng)
            state.apply_unchecked(chosen)
        with pytest.raises(tikigames.IllegalActionError):
            state.rollout_action(rng)
    assert {"place", "move"} <= set(kinds)


def type_of(text: str) -> str:
    """An action's kind, from its text."""
    if "@" in text:
        return "place"
    if "*" in text:
        return "reincarnate"
    return "pass" if text == "pass" else "move"


def test_the_policy_reincarnates() -> None:
    """A reincarnation is in the policy's reach: its own games bring defeated pieces back."""
    game = tikigames.load("tactiki")
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = state.rollout_action(rng)
            seen[type_of(str(action))] += 1
            state.apply_unchecked(action)
    assert seen["reincarnate"] > 0


def test_evaluate_is_a_zero_sum_guess_in_range_and_the_returns_at_the_end() -> None:
    """Every guess lies in [−1, 1] and the two players' sum to zero; the setup is even; a
    finished game's guess is its returns, a win (+1/−1) and a draw at the turn limit (0/0)
    alike."""
    endings: set[tuple[float, ...]] = set()
    for max_turns in (300, 12):
        game = tikigames.load("tactiki", max_turns=max_turns)
        rng = random.Random(max_turns)
        for _ in range(4):
            state = game.new_initial_state()
            while not state.is_terminal():
                guess = state.evaluate()
                assert len(guess) == 2 and all(-1.0 <= value <= 1.0 for value in guess)
                assert guess[0] == -guess[1]
                if state.move_number() < 20:
                    assert guess == [0.0, 0.0]  # the setup: nothing to tell the sides apart
                state.apply_unchecked(state.rollout_action(rng))
            assert state.evaluate() == state.returns()
            endings.add(tuple(state.returns()))
    assert (0.0, 0.0) in endings and len(endings) >= 2


def test_a_statue_one_move_away_is_nearly_won_and_the_policy_builds_it() -> None:
    state = play_script(started(), NEAR_STATUE)
    assert state.current_player() == 0 and state.is_second_move()
    assert [owner for owner, _ in state.column("e5")].count(0) == 4
    tiki, tac = state.evaluate()
    assert tiki > 0.9 and tac == -tiki
    # The statue is one of the legal moves; the policy plays it far above a uniform share.
    legal = [str(action) for action in state.legal_actions()]
    assert "e4-e5" in legal
    assert shares(state)["e4-e5"] / 400 > 2 / len(legal)
    state.apply_action(state.parse_action("e4-e5"))
    assert state.winner() == 0 and state.evaluate() == state.returns() == [1.0, -1.0]


def test_evaluate_sees_the_race_a_locked_field_and_the_material() -> None:
    """TIKI's 5 ties TAC's 5 on e5 and locks the field: TIKI leads the race. Losing pieces
    costs: after TAC's 5 on c5 beats TIKI's 4, TIKI's lead shrinks."""
    state = play_script(started(), f"e1-e2 e2-e3 | {IDLE} | e3-e4 e4-e5 | {IDLE}")
    locked = state.evaluate()[0]
    assert locked > 0.3
    even = started()
    play_script(even, f"e1-e2 e2-e3 | {IDLE}")
    assert locked > even.evaluate()[0]
    # TIKI's 4 walks into TAC's 5 on c5 and is defeated there.
    play_script(state, "b1-b2 b2-b3 | " + IDLE + " | b3-c3 c3-c4")
    before = state.evaluate()[0]
    play_script(state, IDLE + " | c4-c5")
    assert state.defeated(0) == [4]
    assert state.evaluate()[0] < before


def test_with_strict_statues_a_field_with_the_owners_piece_under_is_out_of_the_race() -> None:
    """The same tie on e5 locks the field, but with ``strict_statue`` TAC's pieces under TIKI's
    5 forbid a statue there for good: the race no longer counts TIKI's piece in it."""
    script = f"e1-e2 e2-e3 | {IDLE} | e3-e4 e4-e5 | {IDLE}"
    default = play_script(started(), script).evaluate()[0]
    strict = play_script(started(strict_statue=True), script).evaluate()[0]
    assert strict < default


def test_the_policy_prefers_an_attack_that_wins_to_one_that_loses() -> None:
    """TIKI's 5 next to TAC's 3 on d4 (wins) and its 5 on c5 (ties: c4-c5 is worse than
    d4): the winning attack is chosen more often than the tie."""
    state = play_script(started(), f"e1-e2 e2-e3 | d5-d4 {IDLE[:5]} | e3-e4")
    assert state.is_second_move() and state.column("d4") == [(1, 3)]
    counts = shares(state)
    assert counts["e4-d4"] > counts["e4-e5"]


def test_the_cap_is_the_games_own() -> None:
    assert TacTiki.rollout_cap == tikigames.load("tactiki").rollout_cap == 0

"""Tiki Topple's knowledge for the search bots: the rollout policy (``state.rollout_action``),
the guess at a cut playout (``state.evaluate``) and the playout cap (``TikiTopple.rollout_cap``).

These are heuristics, not rules: the tests check what every heuristic owes the bots — a legal
action everywhere, drawn from the rng alone, a guess in [−1, 1] that is the returns at the end —
and, on positions set up through real actions, the preferences they are built on (topple the
rival's top tiki, lift one's own top tiki to the top, a lead on the line or in the totals is
worth something). How much stronger the bots play is measured in duels, not here (the docs page
gives the figures).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import tikigames
from tikigames.tiki_topple import TikiTopple, TikiToppleState

#: Option sets that reach every branch: 2–4 players, tiebreak rounds, no bottom topple, the
#: older edition's target score.
CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"topple_bottom_allowed": False},
    {"players": 3, "rounds": 1, "tiebreak_rounds": 5},
    {"players": 4, "rounds": 1, "tiebreak_rounds": 5, "topple_bottom_allowed": False},
    {"target_score": 20},
]

#: The line of the positions below: groups A, B, C in order (nani on top, eepo at the bottom).
LINE = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"


def position(*texts: str, **options: Any) -> TikiToppleState:
    """The two-player position reached by ``texts`` from the start."""
    state = tikigames.load("tiki_topple", **options).new_initial_state()
    assert isinstance(state, TikiToppleState)
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def shares(state: TikiToppleState, draws: int = 300) -> Counter[str]:
    """How often each action is the policy's choice here, over ``draws`` seeds."""
    return Counter(str(state.rollout_action(random.Random(seed))) for seed in range(draws))


@pytest.mark.parametrize("options", CONFIGS, ids=lambda options: repr(options) or "{}")
def test_rollout_action_is_legal_and_deterministic_everywhere(options: dict[str, Any]) -> None:
    """Over whole games — line setups, deals, every card, tiebreaks — the policy's choice is
    legal, depends on the rng alone, and leaves the state as it was. Half the games' moves are
    the policy's and half uniform, so that both kinds of lead-up occur."""
    game = tikigames.load("tiki_topple", **options)
    rng = random.Random(11)
    kinds: set[str] = set()
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            seed = rng.randrange(1 << 30)
            before = state.clone()
            action = state.rollout_action(random.Random(seed))
            assert state == before
            assert action in state.legal_actions()
            assert state.rollout_action(random.Random(seed)) == action
            kinds.add(str(action).split(" ")[0])
            chosen = action if rng.random() < 0.5 else state.random_action(rng)
            state.apply_unchecked(chosen)
        with pytest.raises(tikigames.IllegalActionError):
            state.rollout_action(rng)
    assert {"line", "secret", "up1", "up2", "up3", "topple", "toast"} <= kinds


@pytest.mark.parametrize("options", CONFIGS, ids=lambda options: repr(options) or "{}")
def test_evaluate_is_a_guess_in_range_and_the_returns_at_the_end(options: dict[str, Any]) -> None:
    """Every position of games played by the policy: a guess per player in [−1, 1]; the
    returns once the game is over; between rounds, the leader in the totals is preferred."""
    game = tikigames.load("tiki_topple", **options)
    rng = random.Random(5)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            guess = state.evaluate()
            assert len(guess) == game.num_players
            assert all(-1.0 <= value <= 1.0 for value in guess)
            scores = state.scores()
            between_rounds = state.is_chance_node() and state.dealing_seat() is None
            if between_rounds and scores[0] > scores[1]:
                assert guess[0] >= guess[1]
            elif between_rounds and scores[0] < scores[1]:
                assert guess[0] <= guess[1]
            state.apply_unchecked(state.rollout_action(rng))
        assert state.evaluate() == state.returns()


def test_the_policy_topples_the_rival_s_top_tiki() -> None:
    """Player 1's top tiki, nani, stands first (9 points); player 0's card (kapu, lokahi,
    huhu) has nothing on top. Toppling nani takes the 9 away and lifts player 0's tikis: the
    policy plays it unless its draw is uniform (one move in five)."""
    state = position(LINE, "secret 21", "secret 0")
    counts = shares(state)
    assert counts["topple nani"] >= 0.7 * 300


def test_the_policy_lifts_its_own_top_tiki_to_the_top() -> None:
    """Player 0's top tiki, wikiwiki, is second: ``up1 wikiwiki`` scores its 9 (toppling nani
    would too, but also lifts player 1's lokahi into its scoring place)."""
    state = position(LINE, "secret 3", "secret 24")
    counts = shares(state)
    assert counts["up1 wikiwiki"] >= 0.7 * 300


def test_the_policy_keeps_its_own_tikis() -> None:
    """Player 0's bottom tiki, eepo, is at the bottom: the policy does not toast it (a
    uniform draw only, one in five times one in the legal moves)."""
    state = position(LINE, "secret 26", "secret 9", "up1 kapu", "up1 hookipa")
    assert state.line()[-1] == "eepo" and "toast" in map(str, state.legal_actions())
    assert shares(state)["toast"] <= 0.05 * 300


def test_evaluate_prefers_the_player_scoring_on_the_line() -> None:
    """Player 0's nani stands first (9 points at this order), player 1 scores 2 (wikiwiki in
    the top three): player 0 is preferred, and more so as the round runs out with the line
    unchanged (less is left to chance)."""
    early = position(LINE, "secret 0", "secret 24", "up1 eepo", "up1 kapu")
    later = position(LINE, "secret 0", "secret 24", "up1 eepo", "up1 kapu", "up1 eepo", "up1 kapu")
    assert early.line() == later.line() == position(LINE).line()
    first, second = early.evaluate()
    assert first > 0 > second and first == -second
    assert later.evaluate()[0] > first


def test_the_playout_cap_is_the_game_s() -> None:
    assert TikiTopple.rollout_cap == tikigames.load("tiki_topple").rollout_cap
    assert TikiTopple.rollout_cap is not None and TikiTopple.rollout_cap > 0

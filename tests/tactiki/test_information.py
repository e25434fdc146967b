"""What each player knows (the rules' last section), the observation that holds it, and
resampling a state from it.

``resample`` draws the hidden ranks uniformly among the consistent hidden histories. On small
positions the consistent histories are enumerated by brute force (every assignment of the hidden
ranks replayed through the rules, kept when it gives the same observation), and the resampled
frequencies are checked against the uniform distribution with a chi-square test at a fixed seed;
elsewhere, marginals are checked.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections import Counter
from typing import Any

import pytest

import tikigames
from tikigames import IllegalActionError, InvalidStateError
from tikigames.tactiki.data import REINCARNATED, REVEALED, rank_of
from tikigames.tactiki.resample import uniform_reincarnations, uniform_setup

TIKI, TAC = 0, 1


# ----------------------------------------------------------------- observation


def at(square: str) -> int:
    return "abcde".index(square[0]) + 5 * (int(square[1]) - 1)


def test_own_ranks_always_and_opponent_ranks_only_once_revealed(start: Any, play: Any) -> None:
    state = start({"b1": (1, 4), "b5": (1, 3)})
    tiki, tac, spectator = (state.observation(p) for p in (TIKI, TAC, None))
    assert tiki.board[at("b1")] == ((TIKI, 1, False), (TIKI, 4, False))
    assert tac.board[at("b1")] == ((TIKI, None, False), (TIKI, None, False))
    assert spectator.board[at("b1")] == ((TIKI, None, False), (TIKI, None, False))
    assert tiki.board[at("b5")] == ((TAC, None, False), (TAC, None, False))
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4")  # TIKI's 4 beats TAC's 3
    for player in (TIKI, TAC, None):
        obs = state.observation(player)
        assert obs.board[at("b4")] == ((TIKI, 4, True),)
        assert obs.pools[TAC] == (3,) and obs.pool_sizes == (0, 1)
        assert obs.battles == ((24, (4, 3)),)
    # The revealed piece stays known while it moves about.
    play(state, "b4-c4")
    assert state.observation(TAC).board[at("c4")] == ((TIKI, 4, True),)
    # The move notation does not carry the reveal; the battles field does.
    assert state.observation(TAC).history[24] == "b3-b4"


def test_nothing_hidden_leaks_into_the_text(start: Any) -> None:
    state = start()
    for player in (TAC, None):
        text = str(state.observation(player))
        assert "X?" in text and not re.search(r"X\d", text)
        assert state.observation(player).history[:10] == tuple(
            "?@" + str(a).split("@")[1] for a in state.history()[:10]
        )
    assert not re.search(r"O\d", str(state.observation(TIKI)))
    assert "X1" in str(state.observation(TIKI)) and "O1" in str(state.observation(TAC))


def test_players_who_cannot_tell_states_apart_get_equal_observations(
    start: Any, setup: Any, play: Any
) -> None:
    one = start({"a1": (1, 2), "b1": (3, 4)})
    other = start({"a1": (2, 1), "b1": (4, 3)})
    assert one != other
    for player in (TAC, None):
        a, b = one.observation(player), other.observation(player)
        assert a == b and hash(a) == hash(b) and a.to_json() == b.to_json() and str(a) == str(b)
    assert one.observation(TIKI) != other.observation(TIKI)


def test_legal_actions_only_for_the_player_to_move(start: Any) -> None:
    state = start()
    assert state.observation(TIKI).legal_actions() == state.legal_actions()
    assert state.observation(TAC).legal_actions() == []
    assert state.observation(None).legal_actions() == []


def test_pools_after_unseen_reincarnations(reincarnations: Any) -> None:
    state = reincarnations(5, 3)
    assert state.defeated(TAC) == [3]
    tiki, tac, spectator = (state.observation(p) for p in (TIKI, TAC, None))
    assert tac.pools[TAC] == (3,)  # one's own pool exactly
    # TIKI saw a 5 and two 3s defeated and two pieces come back: one of those is left.
    assert tiki.pools[TAC] == spectator.pools[TAC] == (3, 3, 5)
    assert tiki.pool_sizes == tac.pool_sizes == (0, 1)
    blurred = "TAC 1 piece, a 3 or 5 (TAC's secret reincarnations hide which)"
    assert blurred in str(tiki) and "TAC 3" in str(tac)
    assert tiki.history[-1] == "?*e5" and tac.history[-1] == "3*e5"
    assert tiki.board[at("e5")] == ((TAC, None, False),)
    assert tac.board[at("e5")] == ((TAC, 3, False),)


def test_the_read_accessors_behind_the_observation(reincarnations: Any) -> None:
    state = reincarnations(5, 3)
    assert state.defeated(TAC) == [3] and state.pool_candidates(TAC) == [3, 3, 5]
    assert state.defeated(TIKI) == state.pool_candidates(TIKI) == []
    assert state.battles() == list(state.observation(None).battles)
    assert state.passes() == 0
    codes = state.board_codes()
    assert len(codes) == 25 and all(isinstance(column, tuple) for column in codes)
    assert [(c & 1, rank_of(c)) for c in codes[at("e5")]] == state.column("e5") == [(TAC, 3)]
    assert codes[at("e5")][0] & REINCARNATED and not codes[at("e5")][0] & REVEALED
    # The accessors hand out copies: changing them changes nothing.
    state.battles().clear()
    assert state.battles() == list(state.observation(None).battles)
    with pytest.raises(ValueError):
        state.pool_candidates(2)


def test_a_revealed_reincarnation_narrows_the_pool(reincarnations: Any, play: Any) -> None:
    state = reincarnations(3, 5)
    assert state.observation(TIKI).pools[TAC] == (3, 3, 5)
    play(state, "a2-a3 a3-a4 | e5-e4")  # TAC's reincarnated 5 ties TIKI's 5 on e4
    tiki = state.observation(TIKI)
    assert tiki.board[at("e4")] == ((TIKI, 5, True), (TAC, 5, True))
    assert tiki.pools[TAC] == (3, 3) and tiki.pool_sizes[TAC] == 1
    assert state.defeated(TAC) == [3]


def test_a_defeated_piece_is_unknown_again_once_reincarnated(start: Any, play: Any) -> None:
    state = start({"b1": (1, 4), "b5": (1, 3)})
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4 b4-c4 | b5-a5 e5-e4 | a1-a2 a2-a3")
    # TAC's 3 was defeated in public view, and b5 is empty.
    assert state.column("b5") == []
    play(state, "3*b5")
    tiki = state.observation(TIKI)
    assert tiki.board[at("b5")] == ((TAC, None, False),)
    assert tiki.pools[TAC] == (3,) and tiki.pool_sizes[TAC] == 0


def test_observation_json_round_trip_and_inconsistent_data(reincarnations: Any) -> None:
    state = reincarnations(5, 3)
    game = state.game
    for player in (TIKI, TAC, None):
        obs = state.observation(player)
        data = json.loads(json.dumps(obs.to_json()))
        assert set(data) >= {"board", "pools", "pool_sizes", "battles", "turns", "winner"}
        assert game.observation_from_json(data) == obs
    data = state.observation(TIKI).to_json()
    battles = data["battles"]
    lying = [
        {**data, "battles": [[battles[0][0], [2, 5]], *battles[1:]]},  # another rank
        {**data, "battles": battles[:-1]},  # a battle left out
        {**data, "battles": [*battles, [3, [4, 4]]]},  # a battle at a placement
        {**data, "battles": [[0, [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1]]]},
        {**data, "battles": [["0", [1, 2]]]},
        {**data, "battles": [[0, [0, 9]]]},
        {**data, "pools": [[], []]},  # TIKI cannot know TAC's pool exactly
        {**data, "pool_sizes": [0, 0]},
        {**data, "turns": 3},
        {**data, "board": [[] for _ in range(25)]},
        {**data, "history": [*data["history"][:-1], "3*e5"]},  # TIKI never saw that rank
    ]
    board = [list(map(list, column)) for column in data["board"]]
    board[at("e5")][0][1] = 3  # claim to know the rank of TAC's reincarnated piece
    lying.append({**data, "board": board})
    for bad in lying:
        with pytest.raises(InvalidStateError):
            game.observation_from_json(bad)


# ----------------------------------------------------------------- resampling


def chi_square_critical(df: int, z: float = 3.29) -> float:
    """The chi-square value exceeded with probability about 0.0005 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_uniform(counts: Counter[Any], support: set[Any]) -> None:
    assert set(counts) == support  # every consistent history occurs, and nothing else
    n = sum(counts.values())
    expected = n / len(support)
    statistic = sum((counts[k] - expected) ** 2 / expected for k in support)
    assert statistic < chi_square_critical(len(support) - 1)


def hidden_ranks(state: Any) -> tuple[int, ...]:
    """The ranks of every placement and reincarnation of ``state``'s history, in order."""
    return tuple(int(str(a)[0]) for a in state.history() if str(a)[1] in "@*")


def test_setup_placements_by_enumeration() -> None:
    game = tikigames.load("tactiki")
    squares = ["a1", "a1", "b1"]

    def placed(ranks: tuple[int, ...]) -> Any:
        state = game.new_initial_state()
        for rank, square in zip(ranks, squares, strict=True):
            state.apply_action(state.parse_action(f"{rank}@{square}"))
        return state

    truth = placed((3, 3, 5))
    for observer in (TAC, None):
        obs = truth.observation(observer)
        consistent = set()
        for ranks in itertools.product(range(1, 6), repeat=3):
            try:
                if placed(ranks).observation(observer) == obs:
                    consistent.add(ranks)
            except IllegalActionError:
                pass
        assert len(consistent) == 5**3 - 5  # any ranks, but not three of one
        rng = random.Random(2024)
        counts = Counter(hidden_ranks(game.resample(obs, rng)) for _ in range(40 * 120))
        assert_uniform(counts, consistent)
    # TIKI knows its own ranks: nothing to draw.
    assert game.resample(truth.observation(TIKI), random.Random(1)) == truth


def test_reincarnations_by_enumeration(reincarnations: Any) -> None:
    truth = reincarnations(5, 3)
    obs = truth.observation(TIKI)
    consistent = set()
    for first, second in itertools.product(range(1, 6), repeat=2):
        try:
            if reincarnations(first, second).observation(TIKI) == obs:
                consistent.add((first, second))
        except IllegalActionError:
            pass
    # With 3 3 after a 5 came back, the second one is a 3; after a 3, a 3 or a 5.
    assert consistent == {(3, 3), (3, 5), (5, 3)}
    rng = random.Random(7)
    samples = [truth.game.resample(obs, rng) for _ in range(3000)]
    counts = Counter(hidden_ranks(sample)[-2:] for sample in samples)
    assert_uniform(counts, consistent)
    # Drawing each rank uniformly from the pool would give (5, 3) half the time.
    assert abs(counts[(5, 3)] / 3000 - 1 / 3) < 0.04
    for sample in samples[:50]:
        assert sample.observation(TIKI) == obs


def test_hidden_setup_marginals_mid_game(reincarnations: Any) -> None:
    truth = reincarnations(5, 3)
    obs = truth.observation(TIKI)
    rng = random.Random(11)
    firsts: Counter[int] = Counter()
    for _ in range(2000):
        ranks = hidden_ranks(truth.game.resample(obs, rng))
        tac_setup = ranks[10:20]
        assert sorted(tac_setup) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        # b5's top piece (the 5), d5's and e5's (the 3s) were revealed in battle: fixed.
        assert (tac_setup[3], tac_setup[7], tac_setup[9]) == (5, 3, 3)
        assert ranks[:10] == hidden_ranks(truth)[:10]  # TIKI's own, known
        firsts[tac_setup[0]] += 1
    # The seven free slots take 1 1 2 2 4 4 5 in a uniformly random order.
    expected = {1: 2 / 7, 2: 2 / 7, 4: 2 / 7, 5: 1 / 7}
    statistic = sum((firsts[r] - 2000 * p) ** 2 / (2000 * p) for r, p in expected.items())
    assert set(firsts) == set(expected) and statistic < chi_square_critical(3)


def test_spectator_resamples_both_sides(reincarnations: Any) -> None:
    truth = reincarnations(3, 5)
    obs = truth.observation(None)
    rng = random.Random(3)
    tiki_firsts: Counter[int] = Counter()
    reincarnated: Counter[tuple[int, ...]] = Counter()
    for _ in range(300):
        sample = truth.game.resample(obs, rng)
        assert sample.observation(None) == obs
        ranks = hidden_ranks(sample)
        tiki_firsts[ranks[0]] += 1
        reincarnated[ranks[-2:]] += 1
    assert len(tiki_firsts) > 1 and len(reincarnated) == 3


def test_uniform_reincarnations_counts_completions() -> None:
    # Pool 3 5; a reincarnation; another 3 joins; a reincarnation.
    events = [(3, None), (5, None), (0, 0), (3, None), (0, 0)]
    rng = random.Random(5)
    counts = Counter(tuple(uniform_reincarnations(events, rng)) for _ in range(3000))
    assert_uniform(counts, {(3, 3), (3, 5), (5, 3)})
    # A later reveal pins a reincarnation down, and constrains the earlier one.
    fixed = [(3, None), (5, None), (0, 0), (3, None), (0, 5)]
    assert {tuple(uniform_reincarnations(fixed, rng)) for _ in range(50)} == {(3, 5)}
    with pytest.raises(InvalidStateError):
        uniform_reincarnations([(3, None), (0, 4)], rng)
    with pytest.raises(InvalidStateError):
        uniform_reincarnations([(0, 0)], rng)


def test_uniform_setup_respects_counts() -> None:
    rng = random.Random(9)
    for _ in range(200):
        ranks = uniform_setup([5, 0, 0, 0, 0, 0, 0, 0, 0, 5], rng)
        assert sorted(ranks) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5] and ranks[0] == ranks[-1] == 5
    with pytest.raises(InvalidStateError):
        uniform_setup([5, 5, 5], rng)
    with pytest.raises(InvalidStateError):
        uniform_setup([0] * 11, rng)


def test_resampled_states_are_independent(start: Any) -> None:
    state = start()
    obs = state.observation(TAC)
    sample = state.game.resample(obs, random.Random(0))
    sample.apply_action(sample.legal_actions()[0])
    assert state.observation(TAC) == obs and len(state.history()) == 20


def test_a_prepared_resampler_draws_as_resample_does(reincarnations: Any) -> None:
    truth = reincarnations(3, 5)
    game = truth.game
    for player in (TIKI, TAC, None):
        obs = truth.observation(player)
        draw = game.resampler(obs)
        # One resampler drawing many times carries nothing over from one draw to the next.
        mine, fresh = random.Random(4), random.Random(4)
        for _ in range(30):
            world, expected = draw(mine), game.resample(obs, fresh)
            assert world == expected and world.history() == expected.history()
            assert world.observation(player) == obs
            world.apply_action(world.legal_actions()[0])  # and its worlds are independent
    with pytest.raises(TypeError):
        game.resampler(truth.observation(TIKI))(4)


def test_prepared_draws_are_uniform_by_enumeration(reincarnations: Any) -> None:
    # The enumeration tests above, through one prepared resampler per observation (its worlds
    # are copies of a template from the second draw on).
    game = tikigames.load("tactiki")
    state = game.new_initial_state()
    for text in ["3@a1", "3@a1", "5@b1"]:
        state.apply_action(state.parse_action(text))
    draw = game.resampler(state.observation(TAC))
    rng = random.Random(2025)
    counts = Counter(hidden_ranks(draw(rng)) for _ in range(40 * 120))
    support = {ranks for ranks in itertools.product(range(1, 6), repeat=3) if len(set(ranks)) > 1}
    assert_uniform(counts, support)
    truth = reincarnations(5, 3)
    obs = truth.observation(TIKI)
    draw = game.resampler(obs)
    rng = random.Random(8)
    samples = [draw(rng) for _ in range(3000)]
    counts = Counter(hidden_ranks(sample)[-2:] for sample in samples)
    assert_uniform(counts, {(3, 3), (3, 5), (5, 3)})
    assert all(sample.observation(TIKI) == obs for sample in samples[:100])


def assert_same_state(world: Any, replay: Any) -> None:
    assert world == replay and hash(world) == hash(replay)
    assert world.history() == replay.history() and world.to_json() == replay.to_json()
    for player in (TIKI, TAC, None):
        assert world.seen_history(player) == replay.seen_history(player)
        assert world.observation(player) == replay.observation(player)
    assert world.legal_actions() == replay.legal_actions()
    assert world.defeated(TIKI) == replay.defeated(TIKI)
    assert world.defeated(TAC) == replay.defeated(TAC)


def test_prepared_draws_are_the_states_their_histories_replay_to() -> None:
    # Every draw of a prepared resampler, at positions of random games (setups, battles and
    # reincarnations), is the very state its history gives through the checked path, forwards
    # and undone action by action to the start.
    game = tikigames.load("tactiki")
    rng = random.Random(17)
    reincarnated = 0
    for _ in range(12):
        truth = game.new_initial_state()
        for _ in range(rng.randrange(5, 300)):
            if truth.is_terminal():
                break
            truth.apply_unchecked(truth.random_action(rng))
        for observer in (TIKI, TAC, None):
            obs = truth.observation(observer)
            draw = game.resampler(obs)
            for count in range(4):
                world = draw(rng)
                replay = game.new_initial_state()
                for action in world.history():
                    replay.apply_action(action)
                assert world.observation(observer) == obs
                assert_same_state(world, replay)
                reincarnated += "*" in " ".join(map(str, world.history()))
                if count == 3:
                    # Forwards, then back to the start.
                    steps = 0
                    while not world.is_terminal() and steps < 40:
                        action = world.random_action(rng)
                        world.apply_unchecked(action)
                        replay.apply_action(action)
                        steps += 1
                    assert_same_state(world, replay)
                    while replay.history():
                        assert world.undo_action() is replay.undo_action()
                        assert world == replay
                        if len(replay.history()) % 7 == 0:
                            assert_same_state(world, replay)
    assert reincarnated > 10


def test_resample_rejects_an_observation_of_another_game(start: Any) -> None:
    obs = start().observation(TIKI)
    other = tikigames.load("tactiki", strict_statue=True)
    with pytest.raises(InvalidStateError):
        other.resample(obs, random.Random(0))

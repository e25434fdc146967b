"""Bradley–Terry ratings: hand-checked cases, the likelihood equations, the intervals."""

from __future__ import annotations

import math
import random

import pytest

from tikigames.ratings import bradley_terry

ELO = 400 / math.log(10)


def test_two_players_by_hand() -> None:
    # a beats b 3 times of 4. Without a prior the fit is the observed odds, 3 to 1; the
    # curvature is n·p·(1 − p) = 4 · 3/4 · 1/4 = 3/4, so var(θa − θb) = 4/3 and, with the
    # ratings centred, var(θa) = 1/4 of that.
    a, b = bradley_terry(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)], prior=0)
    assert math.isclose(a.elo - b.elo, 400 * math.log10(3), rel_tol=1e-9)
    assert math.isclose(a.elo, -b.elo, abs_tol=1e-9)
    half = 1.959963984540054 * math.sqrt(1 / 3) * ELO
    assert math.isclose(a.high - a.elo, half, rel_tol=1e-9)
    assert math.isclose(a.elo - a.low, half, rel_tol=1e-9)
    assert (a.games, a.score, b.games, b.score) == (4, 3.0, 4, 1.0)
    # The default prior, one virtual draw: 3.5 points of 5, odds 7 to 3.
    a, b = bradley_terry(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    assert math.isclose(a.elo - b.elo, 400 * math.log10(7 / 3), rel_tol=1e-9)
    assert a.games == 4 and a.score == 3.0  # virtual games are not counted


def test_a_cycle_is_level_and_draws_count_half() -> None:
    cycle = [("a", "b", 1.0), ("b", "c", 1.0), ("c", "a", 1.0)] * 2
    ratings = bradley_terry(["a", "b", "c"], cycle, prior=0)
    assert all(math.isclose(r.elo, 0.0, abs_tol=1e-6) for r in ratings)
    drawn = bradley_terry(["x", "y"], [("x", "y", 0.5)] * 4 + [("x", "y", 1.0)], prior=0)
    # x has 3 points of 5: odds 3 to 2.
    assert math.isclose(drawn[0].elo - drawn[1].elo, 400 * math.log10(1.5), rel_tol=1e-9)


def test_the_fit_solves_the_likelihood_equations() -> None:
    rng = random.Random(1)
    players = ["p0", "p1", "p2", "p3"]
    truth = [0.0, 0.7, 1.4, -0.5]
    results = []
    for _ in range(400):
        i, j = rng.sample(range(4), 2)
        win = rng.random() < 1 / (1 + math.exp(truth[j] - truth[i]))
        results.append((players[i], players[j], 1.0 if win else 0.0))
    ratings = bradley_terry(players, results, prior=0)
    theta = [r.elo / ELO for r in ratings]
    assert math.isclose(sum(theta), 0.0, abs_tol=1e-9)
    # Each player's expected score equals its actual score at the maximum.
    for k, player in enumerate(players):
        expected = 0.0
        for a, b, _ in results:
            if player in (a, b):
                mine, other = (k, players.index(b)) if a == player else (k, players.index(a))
                expected += 1 / (1 + math.exp(theta[other] - theta[mine]))
        assert math.isclose(expected, ratings[k].score, rel_tol=1e-6)
        assert ratings[k].low < ratings[k].elo < ratings[k].high
    # 400 games recover the order of the true strengths.
    assert sorted(range(4), key=lambda k: theta[k]) == sorted(range(4), key=lambda k: truth[k])


def test_a_clean_sweep_needs_the_prior() -> None:
    sweep = [("a", "b", 1.0)] * 10
    a, b = bradley_terry(["a", "b"], sweep)
    # One virtual draw: 10.5 of 11, odds 21 to 1.
    assert math.isclose(a.elo - b.elo, 400 * math.log10(21), rel_tol=1e-9)
    with pytest.raises(ValueError, match="never"):
        bradley_terry(["a", "b"], sweep, prior=0)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="played no game"):
        bradley_terry(["a", "b", "c"], [("a", "b", 1.0)])
    with pytest.raises(ValueError, match="not two of"):
        bradley_terry(["a", "b"], [("a", "z", 1.0)])
    with pytest.raises(ValueError, match="score"):
        bradley_terry(["a", "b"], [("a", "b", 2.0)])
    with pytest.raises(ValueError, match="distinct"):
        bradley_terry(["a", "a"], [])
    with pytest.raises(ValueError, match="never"):  # two fields that never met
        bradley_terry(["a", "b", "c", "d"], [("a", "b", 1.0), ("c", "d", 0.0)])

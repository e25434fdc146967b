"""The arena: reproducible tournaments, seat rotation, team scoring, Wilson intervals."""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

import pytest

import tikigames
from tikigames.arena import GameRecord, game_seed, round_robin, wilson
from tikigames.bots import Bot, ISMCTSBot, MCTSBot, RandomBot


def test_wilson_interval() -> None:
    # Reference values (Wilson score interval, z = 1.96).
    low, high = wilson(45, 50)
    assert math.isclose(low, 0.7864, abs_tol=1e-4) and math.isclose(high, 0.9565, abs_tol=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and math.isclose(high, 0.2775, abs_tol=1e-4)
    low, high = wilson(10, 10)
    assert math.isclose(low, 0.7225, abs_tol=1e-4) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    rng = random.Random(0)
    for _ in range(200):
        trials = rng.randrange(1, 500)
        successes = rng.randrange(trials + 1)
        low, high = wilson(successes, trials)
        assert 0.0 <= low <= successes / trials <= high <= 1.0
        # The normal approximation's interval is close for mid-range rates and many trials.
        p = successes / trials
        if trials >= 200 and 0.2 < p < 0.8:
            half = 1.96 * math.sqrt(p * (1 - p) / trials)
            assert math.isclose(low, p - half, abs_tol=0.01)


def test_game_seeds_depend_on_the_seed_and_index_only() -> None:
    seeds = {game_seed(seed, index) for seed in range(5) for index in range(50)}
    assert len(seeds) == 250
    assert game_seed(7, 3) == game_seed(7, 3)


def test_same_seed_same_results_whatever_the_workers() -> None:
    game = tikigames.load("tiki_topple", players=2)
    lineup: list[Bot] = [ISMCTSBot(iterations=8), RandomBot()]
    labels = ["ismcts", "random"]
    one = tikigames.arena(game, lineup, games=6, workers=1, seed=11, labels=labels)
    two = tikigames.arena(game, lineup, games=6, workers=2, seed=11, labels=labels)
    assert one == two
    assert [r.returns for r in one.records] == [r.returns for r in two.records]
    assert one.workers == 1 and two.workers == 2
    other = tikigames.arena(game, lineup, games=6, workers=1, seed=12, labels=labels)
    assert [r.seed for r in other.records] != [r.seed for r in one.records]


def test_seats_rotate_and_counts_add_up() -> None:
    game = tikigames.load("tiki_topple", players=3)
    bots = [RandomBot(), RandomBot(), RandomBot()]
    result = tikigames.arena(game, bots, games=7, seed=3, labels=["a", "b", "c"])
    assert [r.labels for r in result.records[:4]] == [
        ("a", "b", "c"),
        ("c", "a", "b"),
        ("b", "c", "a"),
        ("a", "b", "c"),
    ]
    assert [r.index for r in result.records] == list(range(7))
    for bot in result.bots:
        assert bot.games == 7 and bot.wins + bot.draws + bot.losses == 7
        assert bot.win_rate == bot.wins / 7
        low, high = bot.win_ci
        assert low <= bot.win_rate <= high
        assert bot.moves == sum(r.moves[r.labels.index(bot.label)] for r in result.records)
    # In each game somebody wins (or all share the win): never all labels lose.
    for record in result.records:
        assert max(record.returns) >= 0
    assert result.mean_length == sum(r.length for r in result.records) / 7
    assert result.games == 7 and result.lineup == ("a", "b", "c")


def test_a_label_in_several_seats_is_one_team() -> None:
    game = tikigames.load("tiki_topple", players=4)
    bots = [RandomBot(), RandomBot(), RandomBot(), RandomBot()]
    result = tikigames.arena(game, bots, games=4, seed=5, labels=["x", "y", "x", "y"])
    assert [bot.label for bot in result.bots] == ["x", "y"]
    assert all(bot.seats == 2 for bot in result.bots)
    for record in result.records:
        # Rotation keeps the partners opposite.
        assert record.labels[0] == record.labels[2] and record.labels[1] == record.labels[3]


def test_outcome_rule() -> None:
    record = GameRecord(0, 0, ("a", "b", "a", "b"), (-1.0, 1.0, -1.0, 1.0), 10, (1,) * 4, (0,) * 4)
    assert (record.outcome("a"), record.outcome("b")) == (-1, 1)
    shared = GameRecord(0, 0, ("a", "b", "c"), (1.0, -1.0, 1.0), 10, (1,) * 3, (0,) * 3)
    assert (shared.outcome("a"), shared.outcome("b"), shared.outcome("c")) == (1, -1, 1)
    draw = GameRecord(0, 0, ("a", "b"), (0.0, 0.0), 10, (1, 1), (0, 0))
    assert draw.outcome("a") == draw.outcome("b") == 0


def test_default_labels_progress_and_json() -> None:
    game = tikigames.load("tiki_topple", players=2)
    seen: list[tuple[int, int]] = []
    result = tikigames.arena(
        game,
        [ISMCTSBot(iterations=5), RandomBot()],
        games=3,
        seed=2,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert result.lineup == (repr(ISMCTSBot(iterations=5)), "RandomBot()")
    data = json.loads(json.dumps(result.to_json()))
    assert data["games"] == 3 and data["seed"] == 2 and len(data["records"]) == 3
    assert set(data["bots"]) == set(result.lineup)
    table = result.table()
    assert "RandomBot()" in table and "mean game length" in table
    assert result["RandomBot()"].games == 3
    with pytest.raises(KeyError):
        result["nobody"]


def test_a_seed_is_drawn_and_recorded_when_none_is_given() -> None:
    game = tikigames.load("tiki_topple", players=2)
    bots = [RandomBot(), RandomBot()]
    result = tikigames.arena(game, bots, games=2, labels=["a", "b"])
    again = tikigames.arena(game, bots, games=2, seed=result.seed, labels=["a", "b"])
    assert again == result


def test_bad_arguments() -> None:
    game = tikigames.load("tiki_topple", players=2)
    with pytest.raises(ValueError, match="needs 2 bots"):
        tikigames.arena(game, [RandomBot()], games=1)
    with pytest.raises(ValueError, match="games"):
        tikigames.arena(game, [RandomBot(), RandomBot()], games=0)
    with pytest.raises(ValueError, match="workers"):
        tikigames.arena(game, [RandomBot(), RandomBot()], games=1, workers=0)
    with pytest.raises(ValueError, match="labels"):
        tikigames.arena(game, [RandomBot(), RandomBot()], games=1, labels=["a"])


def digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


BEFORE: dict[str, Any] = {"rollout": "uniform", "evaluation": "returns", "max_rollout": 200}


def test_seeded_results_are_pinned() -> None:
    """The digests of results computed before the arena moved onto the runner: the games, the
    scores, the ratings and the pairings must never change for a seed (timings left out). The
    search bots play as they did then, before game knowledge (``BEFORE``: see test_baseline)."""
    two = tikigames.load("tiki_topple", players=2)
    lineup: list[Bot] = [ISMCTSBot(iterations=10, **BEFORE), RandomBot()]
    result = tikigames.arena(two, lineup, games=8, seed=21, labels=["i", "r"], workers=2)
    scores = [
        {k: v for k, v in b.to_json().items() if k != "seconds_per_move"} for b in result.bots
    ]
    assert digest([r.to_json() for r in result.records]) == "4128ac49bec8e17d"
    assert digest(scores) == "651ab0c795ebb2b1"
    three = tikigames.load("tiki_topple", players=3)
    players: list[Bot] = [
        MCTSBot(iterations=8, **BEFORE),
        RandomBot(),
        ISMCTSBot(iterations=5, **BEFORE),
    ]
    rr = round_robin(three, players, games=3, seed=5, labels=["m", "r", "i"])
    assert digest([r.to_json() for r in rr.records]) == "a5e984cf9e1c9060"
    assert digest([rating.to_json() for rating in rr.ratings]) == "a0bc2a597a254a84"
    assert digest([pair.to_json() for pair in rr.pairings]) == "d14f20e7d99e5708"

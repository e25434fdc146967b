"""``PaikoState.random_action``: one legal action, uniformly, drawn during a turn by rejection
among candidates rather than from the whole legal list.

Three checks on positions of random games (the draft, turns with and without a move limit or
``draw_exact``, a Sai's follow-up, the victim's picks):

- exactness, deterministically: an ``rng`` whose first ``random()`` sweeps a fine grid of [0, 1)
  and that refuses a second call shows which action each first draw accepts — every legal action
  is accepted on the same number of grid points (±1), and nothing else is;
- legality and the caches, property-style: the action drawn is always the table's object, legal,
  and the state and its legal list are unchanged by the draw;
- uniformity, statistically: a chi-square test of many draws against ``legal_actions()`` per
  position, and of the kinds of action drawn over all positions.

The list and the draw ask one statement of which squares a shifting tile may pass
(``movegen.passable``); a last test holds it to its definition by the danger map.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

import tikigames
from tikigames.paiko import PaikoAction, PaikoState
from tikigames.paiko.data import BIT, FACINGS, FIRE, NUM_SQUARES, SQUARE_INDEX, THREAT_BITS, TILES
from tikigames.paiko.movegen import passable

CONFIGS: list[dict[str, Any]] = [
    {},
    {"move_limit": 1, "draw_exact": True},
    {"move_limit": None},
]


def positions(seed: int, options: dict[str, Any], every: int = 1) -> Iterator[PaikoState]:
    """Every ``every``-th position of a random game (board actions preferred, so that it
    reaches crowded positions, captures and picks), as a fresh clone: no legal list cached."""
    state = tikigames.load("paiko", **options).new_initial_state()
    assert isinstance(state, PaikoState)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state.clone()
        legal = state.legal_actions()
        busy = [a for a in legal if a.kind in (2, 3, 4, 5)]
        state.apply_action(rng.choice(busy if busy and rng.random() < 0.9 else legal))
        step += 1


class SecondCall(Exception):
    """The grid rng was asked for a second number: the first candidate was rejected."""


class Grid(random.Random):
    """An rng whose first ``random()`` is ``value`` and which refuses a second."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value: float | None = value

    def random(self) -> float:
        if self.value is None:
            raise SecondCall
        value, self.value = self.value, None
        return value


def first_draws(state: PaikoState, points: int) -> Counter[PaikoAction]:
    """How often each action is accepted at the first draw, over ``points`` grid points (the
    sampler caches nothing when it is stopped, so ``state`` is drawn from again as it is)."""
    accepted: Counter[PaikoAction] = Counter()
    for i in range(points):
        with contextlib.suppress(SecondCall):
            accepted[state.random_action(Grid((i + 0.5) / points))] += 1
    return accepted


@pytest.mark.parametrize(("seed", "options"), [(seed, CONFIGS[seed % 3]) for seed in range(3)])
def test_each_legal_action_is_one_candidate(seed: int, options: dict[str, Any]) -> None:
    """The first draw accepts every legal action on the same number of grid points (one
    candidate each, drawn uniformly), and no illegal one: the sampler is exactly uniform."""
    checked = Counter[str]()
    for state in positions(seed, options, every=8):
        legal = state.clone().legal_actions()
        accepted = first_draws(state, 4096)
        assert set(accepted) == set(legal), state.history()[-3:]
        assert max(accepted.values()) - min(accepted.values()) <= 1, state.history()[-3:]
        checked[state.phase()] += 1
    assert checked["play"] >= 20 and checked["draft"] >= 2, checked


@pytest.mark.parametrize(("seed", "options"), [(seed, CONFIGS[seed % 3]) for seed in range(6)])
def test_never_illegal_and_the_caches_stay_valid(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    table = tikigames.load("paiko", **options).action_table
    for state in positions(100 + seed, options):
        legal = state.legal_actions()
        probe = state.clone()  # no legal list cached, as in a rollout
        action = probe.random_action(rng)
        assert action in legal and table.actions[int(action)] is action
        assert probe == state and probe.legal_actions() == legal
        probe.apply_unchecked(action)
        state.apply_action(action)
        assert probe == state and probe.legal_actions() == state.legal_actions()
        probe.undo_action()
        assert probe.legal_actions() == legal


def chi_square_p(observed: list[int], expected: list[float]) -> float:
    """The upper tail of the chi-square statistic (Wilson–Hilferty's normal approximation)."""
    df = len(observed) - 1
    if df < 1:
        return 1.0
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


@pytest.mark.parametrize(("seed", "options"), [(seed, CONFIGS[seed % 3]) for seed in range(3)])
def test_draws_are_uniform_over_the_legal_actions(seed: int, options: dict[str, Any]) -> None:
    """Chi-square tests of many draws (each from a fresh clone, so the rejection sampler runs
    every time, retries included) against a uniform choice among ``legal_actions()``: per
    position, and per kind of action over all positions."""
    rng = random.Random(seed)
    kinds_seen: Counter[int] = Counter()
    kinds_expected: dict[int, float] = defaultdict(float)
    phases: Counter[str] = Counter()
    for state in positions(200 + seed, options, every=12):
        legal = state.legal_actions()
        draws = 12 * len(legal)
        counts = Counter(state.clone().random_action(rng) for _ in range(draws))
        assert set(counts) <= set(legal)
        p = chi_square_p([counts[a] for a in legal], [draws / len(legal)] * len(legal))
        assert p > 1e-5, (state.history()[-3:], p)
        for action in legal:
            kinds_seen[action.kind] += counts[action]
            kinds_expected[action.kind] += draws / len(legal)
        phases[state.phase()] += 1
    kinds = sorted(kinds_expected)
    p = chi_square_p([kinds_seen[k] for k in kinds], [kinds_expected[k] for k in kinds])
    assert p > 1e-4, (kinds_seen, kinds_expected)
    assert phases["play"] >= 10 and phases["draft"] >= 1, phases


@pytest.mark.parametrize(("seed", "options"), [(seed, CONFIGS[seed % 3]) for seed in range(3)])
def test_the_shared_passable_squares(seed: int, options: dict[str, Any]) -> None:
    """``passable``, the rule the list and the draw share, by its definition: a tile may end
    where its danger stays below 2 — unchanged for a tile that does not threaten itself, for
    a Fire its own threat taken off its pattern and put back on its new square."""
    fires = 0
    for state in positions(300 + seed, options, every=4):
        maps = state.maps()
        for p in (0, 1):
            danger = maps.danger[p]
            plain = passable(maps, p, 0)
            assert [bool(plain & BIT[s]) for s in range(NUM_SQUARES)] == [
                danger[s] < 2 for s in range(NUM_SQUARES)
            ]
            for name, player, tile, facing in state.board():
                if player != p or tile != TILES[FIRE]:
                    continue
                pattern = THREAT_BITS[FIRE << 2 | FACINGS.index(facing)][SQUARE_INDEX[name]]
                fire = passable(maps, p, pattern)
                after = [danger[s] - bool(pattern & BIT[s]) + 1 for s in range(NUM_SQUARES)]
                assert [bool(fire & BIT[s]) for s in range(NUM_SQUARES)] == [
                    level < 2 for level in after
                ]
                fires += 1
    assert fires >= 20, fires

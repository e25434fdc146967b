"""TacTiki's observation tensor: its fixed shape, the exact planes of hand-made positions, no
leak of a hidden rank, and distinct tensors wherever the legal actions differ."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import tikigames
from tikigames.tactiki.encoding import LEVELS

TIKI, TAC = 0, 1
OPTION_SETS = [{}, {"strict_statue": True, "max_turns": 40}, {"max_turns": None}]
#: Every plane, in order, with its shape (the same for every option set).
PLANES = [
    ("own", (20, 5, 5)),
    ("opponent", (20, 5, 5)),
    ("rank", (5, 20, 5, 5)),
    ("unknown", (20, 5, 5)),
    ("revealed", (20, 5, 5)),
    ("blocked", (20, 5, 5)),
    ("stack", (2, 5, 5)),
    ("locked", (5, 5)),
    ("start_fields", (2, 5, 5)),
    ("seat", (2,)),
    ("to_act", (3,)),
    ("setup", (1,)),
    ("second_move", (1,)),
    ("pass_streak", (1,)),
    ("turns", (1,)),
    ("pool_size", (2,)),
    ("pool_ranks", (2, 5)),
]
BOARD_PLANES = ("own", "opponent", "rank", "unknown", "revealed", "blocked")


def square(name: str) -> tuple[int, int]:
    """``(row, col)`` of a square: row = rank − 1, col = file."""
    return int(name[1]) - 1, "abcde".index(name[0])


def plane(obs: Any, name: str) -> list[float]:
    return list(obs.game.observation_tensor_layout().view(obs.tensor(), name))


def expected(obs: Any, name: str, ones: dict[Any, float]) -> list[float]:
    """Plane ``name`` of zeros but for ``ones`` (index tuple → value), flat row-major."""
    shape = obs.game.observation_tensor_layout().plane(name).shape
    values = [0.0] * math.prod(shape)
    for index, value in ones.items():
        assert len(index) == len(shape) and all(
            0 <= i < n for i, n in zip(index, shape, strict=True)
        )
        flat = 0
        for i, n in zip(index, shape, strict=True):
            flat = flat * n + i
        values[flat] = value
    return values


def check(obs: Any, name: str, ones: dict[Any, float]) -> None:
    assert plane(obs, name) == expected(obs, name, ones), name


def at(level: int, name: str) -> tuple[int, int, int]:
    return (level, *square(name))


def random_states(options: dict[str, Any], games: int, steps: int | None, seed: int) -> Any:
    """Every state of ``games`` random games of at most ``steps`` actions (``None``: to the
    end)."""
    rng = random.Random(seed)
    game = tikigames.load("tactiki", **options)
    for _ in range(games):
        state = game.new_initial_state()
        yield state
        played = 0
        while not state.is_terminal() and (steps is None or played < steps):
            state.apply_action(state.random_action(rng))
            played += 1
            yield state


# ----------------------------------------------------------------- shape


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_shape_is_fixed_for_every_option_set(options: dict[str, Any]) -> None:
    game = tikigames.load("tactiki", **options)
    layout = game.observation_tensor_layout()
    assert [(p.name, p.shape) for p in layout.planes] == PLANES
    assert layout.size == 10 * 500 + 125 + 21 == 5146  # board, per square, the rest
    assert game.observation_tensor_shape() == (5146,) and LEVELS == 20
    assert layout is tikigames.load("tactiki", **options).observation_tensor_layout()  # per rules
    assert len(game.new_initial_state().observation(0).tensor()) == 5146
    turns = layout.plane("turns").description
    limit = options.get("max_turns", 300)
    assert (f"({limit})" in turns) if limit else turns.startswith("always 0")


# ----------------------------------------------------------------- hand-made positions


def test_the_first_placement() -> None:
    state = tikigames.load("tactiki").new_initial_state()
    tiki = state.observation(TIKI)
    check(tiki, "to_act", {(0,): 1.0})
    check(tiki, "setup", {(0,): 1.0})
    check(tiki, "seat", {(0,): 1.0})
    check(state.observation(TAC), "to_act", {(1,): 1.0})
    check(state.observation(TAC), "seat", {(1,): 1.0})
    for name in (*BOARD_PLANES, "stack", "locked", "pool_size", "pool_ranks", "turns"):
        check(tiki, name, {})
    rows = {TIKI: 0, TAC: 4}
    for player in (TIKI, TAC):
        obs = state.observation(player)
        own = {(0, rows[player], col): 1.0 for col in range(5)}
        other = {(1, rows[1 - player], col): 1.0 for col in range(5)}
        check(obs, "start_fields", own | other)
    state.apply_action(state.parse_action("3@b1"))
    check(state.observation(TIKI), "rank", {(2, *at(0, "b1")): 1.0})
    check(state.observation(TAC), "unknown", {at(0, "b1"): 1.0})
    check(state.observation(TAC), "rank", {})


def test_a_stack_its_owners_and_its_ranks(start: Any) -> None:
    state = start()  # b1: 3 under 4; b5: 3 under 1 (STANDARD)
    tiki, tac = state.observation(TIKI), state.observation(TAC)
    check(tiki, "setup", {})
    check(tiki, "to_act", {(0,): 1.0})
    check(tac, "to_act", {(1,): 1.0})
    tiki_fields = [f"{f}1" for f in "abcde"]
    tac_fields = [f"{f}5" for f in "abcde"]
    both_levels = {at(level, sq): 1.0 for sq in tiki_fields for level in (0, 1)}
    theirs = {at(level, sq): 1.0 for sq in tac_fields for level in (0, 1)}
    check(tiki, "own", both_levels)
    check(tiki, "opponent", theirs)
    check(tiki, "unknown", theirs)
    check(tac, "own", theirs)
    check(tac, "unknown", both_levels)
    standard = {"a1": (1, 2), "b1": (3, 4), "c1": (5, 1), "d1": (2, 3), "e1": (4, 5)}
    ranks = {
        (rank - 1, *at(level, sq)): 1.0
        for sq, column in standard.items()
        for level, rank in enumerate(reversed(column))  # level 0 is the top
    }
    check(tiki, "rank", ranks)
    assert plane(tiki, "rank")[3 * 500 + 0 * 25 + 1] == 1.0  # the 4 on top of b1
    check(tiki, "revealed", {})
    check(tiki, "blocked", {})
    check(tiki, "locked", {})
    stacks = {(0, *square(sq)): 0.2 for sq in tiki_fields}
    check(tiki, "stack", stacks | {(1, *square(sq)): 0.2 for sq in tac_fields})
    check(
        tac,
        "stack",
        {(1, *square(sq)): 0.2 for sq in tiki_fields}
        | {(0, *square(sq)): 0.2 for sq in tac_fields},
    )


def test_a_rank_known_after_a_battle_the_pools_and_the_half_turn(start: Any, play: Any) -> None:
    state = start({"b1": (1, 4), "b5": (1, 3)})
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4")  # TIKI's 4 beats TAC's 3, first move
    tiki, tac, spectator = (state.observation(p) for p in (TIKI, TAC, None))
    b4 = at(0, "b4")
    fields = {at(level, f"{file}1"): 1.0 for file in "acde" for level in (0, 1)}
    check(tac, "opponent", fields | {at(0, "b1"): 1.0, b4: 1.0})
    assert plane(tac, "rank")[3 * 500 + 3 * 5 + 1] == 1.0  # rank 4, level 0, b4
    assert plane(tac, "unknown")[3 * 5 + 1] == 0.0
    for obs in (tiki, tac, spectator):
        check(obs, "revealed", {b4: 1.0})
        check(obs, "second_move", {(0,): 1.0})
        check(obs, "turns", {(0,): 2 / 300})
    # TAC's pool holds the 3: its own, exactly, for TAC; the public candidates for TIKI.
    check(tac, "pool_size", {(0,): 0.1})
    check(tac, "pool_ranks", {(0, 2): 0.5})
    check(tiki, "pool_size", {(1,): 0.1})
    check(tiki, "pool_ranks", {(1, 2): 0.5})
    check(spectator, "pool_ranks", {(1, 2): 0.5})
    play(state, "b4-c4")  # the revealed 4 stays known where it goes; TAC to act
    tac = state.observation(TAC)
    check(tac, "revealed", {at(0, "c4"): 1.0})
    check(tac, "second_move", {})
    check(tac, "to_act", {(0,): 1.0})
    check(state.observation(TIKI), "to_act", {(1,): 1.0})


def test_an_unknown_reincarnated_rank_and_an_uncertain_pool(reincarnations: Any) -> None:
    state = reincarnations(5, 3)
    tiki, tac = state.observation(TIKI), state.observation(TAC)
    assert plane(tiki, "unknown")[4 * 5 + 4] == 1.0  # level 0, e5
    assert [plane(tiki, "rank")[r * 500 + 24] for r in range(5)] == [0.0] * 5
    assert [plane(tac, "rank")[r * 500 + 24] for r in range(5)] == [0, 0, 1.0, 0, 0]
    # TIKI saw a 5 and two 3s defeated and two come back: TAC's one piece is among 3 3 5.
    check(tiki, "pool_size", {(1,): 0.1})
    check(tiki, "pool_ranks", {(1, 2): 1.0, (1, 4): 0.5})
    check(tac, "pool_size", {(0,): 0.1})
    check(tac, "pool_ranks", {(0, 2): 0.5})
    # The other worlds TIKI cannot tell apart give it the same tensor.
    other = reincarnations(3, 5)
    assert other != state and other.observation(TIKI).tensor() == tiki.tensor()
    assert other.observation(TAC).tensor() != tac.tensor()


def test_a_blocked_piece(start: Any, play: Any) -> None:
    state = start({"b1": (1, 3), "b5": (1, 3)})
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4 a1-a2")  # a tie: TIKI's 3 on TAC's 3
    assert state.column("b4") == [(TAC, 3), (TIKI, 3)]
    for player in (TIKI, TAC, None):
        obs = state.observation(player)
        check(obs, "blocked", {at(1, "b4"): 1.0})
        check(obs, "revealed", {at(0, "b4"): 1.0, at(1, "b4"): 1.0})
    tac = state.observation(TAC)
    assert plane(tac, "own")[25 + 3 * 5 + 1] == 1.0 and plane(tac, "opponent")[3 * 5 + 1] == 1.0
    assert plane(tac, "rank")[2 * 500 + 25 + 16] == plane(tac, "rank")[2 * 500 + 16] == 1.0
    check(tac, "stack", {
        **{(1, *square(f"{f}1")): 0.2 for f in "cde"}, (1, *square("a1")): 0.1,
        (1, *square("a2")): 0.1, (1, *square("b1")): 0.1, (1, *square("b4")): 0.1,
        **{(0, *square(f"{f}5")): 0.2 for f in "cde"}, (0, *square("b5")): 0.1,
        (0, *square("a4")): 0.1, (0, *square("a5")): 0.1, (0, *square("b4")): 0.1,
    })  # fmt: skip


def test_a_locked_column(start: Any, play: Any) -> None:
    state = start({"b1": (1, 5), "b5": (2, 3)})
    play(state, "b1-b2 b2-b3 | a5-a4 a4-a3 | b3-b4 b4-b5")  # the 5 beats the 3 and the 2
    assert state.column("b5") == [(TIKI, 5)]
    for player in (TIKI, TAC, None):
        obs = state.observation(player)
        check(obs, "locked", {square("b5"): 1.0})
        check(obs, "blocked", {})
    check(state.observation(TIKI), "pool_ranks", {(1, 1): 0.5, (1, 2): 0.5})
    check(state.observation(TAC), "pool_size", {(0,): 0.2})


def test_the_turn_limit_and_the_end(start: Any, play: Any) -> None:
    state = start(max_turns=2)
    play(state, "b1-b2 b2-b3")
    check(state.observation(TAC), "turns", {(0,): 0.5})
    play(state, "b5-b4 a5-a4")
    assert state.is_terminal()
    for player in (TIKI, TAC, None):
        check(state.observation(player), "to_act", {(2,): 1.0})
        check(state.observation(player), "turns", {(0,): 1.0})
    endless = play(start(max_turns=None), "b1-b2 b2-b3 | b5-b4 a5-a4")
    check(endless.observation(TIKI), "turns", {})


def test_the_pass_streak() -> None:
    passes = 0
    for state in random_states({}, 6, None, seed=5):
        for player in (TIKI, TAC, None):
            obs = state.observation(player)
            check(obs, "pass_streak", {(0,): 1.0} if obs.passes else {})
        if not state.is_terminal() and state.observation(None).passes:
            passes += 1
    assert passes > 0  # some random game passed once and went on


def test_the_spectator_sees_absolute_seats_and_no_hidden_rank(start: Any, play: Any) -> None:
    state = play(start(), "b1-b2 b2-b3 | b5-b4")
    spectator = state.observation(None)
    check(spectator, "seat", {})
    check(spectator, "to_act", {(1,): 1.0})  # TAC makes its second move
    check(spectator, "rank", {})
    tiki = state.observation(TIKI)
    for name in ("own", "opponent", "stack", "start_fields", "to_act", "second_move"):
        assert plane(spectator, name) == plane(tiki, name), name
    tac = state.observation(TAC)
    unknown = zip(plane(tiki, "unknown"), plane(tac, "unknown"), strict=True)
    assert plane(spectator, "unknown") == [a + b for a, b in unknown]


# ----------------------------------------------------------------- no leak, and distinct


def test_hidden_ranks_do_not_change_the_tensor(start: Any) -> None:
    one = start({"a5": (1, 2), "b5": (3, 4)})
    other = start({"a5": (2, 1), "b5": (4, 3)})
    assert one != other
    for player in (TIKI, None):
        assert one.observation(player).tensor() == other.observation(player).tensor()
    assert one.observation(TAC).tensor() != other.observation(TAC).tensor()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_resampled_worlds_give_the_same_tensor(options: dict[str, Any]) -> None:
    rng = random.Random(11)
    game = tikigames.load("tactiki", **options)
    for index, state in enumerate(random_states(options, 6, 120, seed=3)):
        if index % 7:
            continue
        for player in (TIKI, TAC, None):
            obs = state.observation(player)
            world = game.resample(obs, rng)
            assert world.observation(player).tensor() == obs.tensor()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_distinct_legal_actions_have_distinct_tensors(options: dict[str, Any]) -> None:
    seen: dict[tuple[int, int], list[str]] = {}  # a hash for the tensor, to spare memory
    for index, state in enumerate(random_states(options, 24, 160, seed=7)):
        for player in (TIKI, TAC):
            obs = state.observation(player)
            values = obs.tensor()
            if index % 8 == 0:  # the values: finite floats in [0, 1] (checked on a sample)
                assert set(map(type, values)) == {float} and all(map(math.isfinite, values))
                assert min(values) >= 0.0 and max(values) <= 1.0
            legal = [str(action) for action in obs.legal_actions()]
            assert seen.setdefault((player, hash(tuple(values))), legal) == legal
    assert len(seen) > 3000  # many distinct positions were compared

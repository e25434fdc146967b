"""Who made each action of a history: the state's ``mover(index)``, read off its undo records,
and an observation's ``mover(index)``, worked out from what every observer knows. The pictures
read it to name a battle's attacker; here it is checked, for every index of random games,
against the player to move recorded before each action was applied."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

import tikigames

#: ``(options, seed)`` of random games that end each way: TIKI's statue, TAC's statue, two
#: passes in a row (passes and reincarnations on the way), and the turn limit on each seat's turn.
GAMES: list[tuple[dict[str, Any], int, str]] = [
    ({}, 5, "TIKI (player 0) wins with a statue"),
    ({"strict_statue": True}, 17, "TAC (player 1) wins with a statue"),
    ({}, 3, "a draw (two passes in a row)"),
    ({"max_turns": 30}, 0, "a draw (turn limit)"),
    ({"max_turns": 31}, 0, "a draw (turn limit)"),
]
VIEWERS = (0, 1, None)


def played(options: dict[str, Any], seed: int) -> tuple[Any, list[int]]:
    """A random game to its end, with the player to move before each action, as recorded while
    playing; on the way, the last action's mover is checked at every point (the observation
    reads it off whose turn it is now)."""
    state = tikigames.load("tactiki", **options).new_initial_state()
    rng = random.Random(seed)
    recorded: list[int] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        recorded.append(state.current_player())
        state.apply_action(legal[rng.randrange(len(legal))])
        assert state.mover() == recorded[-1], len(recorded)
        for viewer in VIEWERS:
            assert state.observation(viewer).mover() == recorded[-1], (len(recorded), viewer)
    return state, recorded


@pytest.mark.parametrize(("options", "seed", "result"), GAMES)
def test_every_action_has_its_mover(options: dict[str, Any], seed: int, result: str) -> None:
    state, recorded = played(options, seed)
    assert state.result_text() == result
    size = len(recorded)
    texts = [str(action) for action in state.history()]
    # Both seats moved, twice in a row too (a move turn's second move).
    assert 0 < recorded.count(0) < size and len(set(pairwise(recorded))) == 4
    assert [state.mover(i) for i in range(size)] == recorded
    assert [state.mover(i - size) for i in range(size)] == recorded
    for viewer in VIEWERS:
        obs = state.observation(viewer)
        assert [obs.mover(i) for i in range(size)] == recorded, viewer
        assert obs.mover(-size) == recorded[0]
    if "pass" in result:
        assert texts.count("pass") > 2 and any("*" in text for text in texts)
    # A world resampled from an observation has rewritten records, the same movers.
    world = state.game.resample(state.observation(1), random.Random(seed))
    assert [world.mover(i) for i in range(size)] == recorded


def test_a_mover_of_no_action_is_refused() -> None:
    state = tikigames.load("tactiki").new_initial_state()
    with pytest.raises(IndexError, match="no action -1 in a history of 0"):
        state.mover()
    with pytest.raises(IndexError, match="no action 0 in a history of 0"):
        state.observation(0).mover(0)
    state.apply_action(state.legal_actions()[0])
    assert state.mover() == state.mover(0) == state.observation(None).mover(-1) == 0
    for bad in (1, -2):
        with pytest.raises(IndexError, match=f"no action {bad} in a history of 1"):
            state.mover(bad)
        with pytest.raises(IndexError, match=f"no action {bad} in a history of 1"):
            state.observation(1).mover(bad)

"""The fast engine against a slow, literal reading of the rules.

The reference below recomputes threat and cover from scratch for every question, tries every
candidate action on a copy of the board, and runs the capture fixpoint exactly as the rules word
it. It reads only the public observation. Random playouts then check, at every step, that the
engine's legal actions, its board after each action and its threat/cover accessors agree with it,
and that apply/undo keeps the incremental maps exact.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any

import pytest

import tikigames
from tikigames.paiko.data import (
    AIR,
    BLACK,
    COVER,
    FACED,
    FACINGS,
    FIRE,
    HOME,
    LOTUS,
    NEIGHBOURS,
    NUM_SQUARES,
    SHIFT_RANGE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    THREAT,
    TILE_INDEX,
    TILES,
    VALUE,
    WATER,
)

Board = dict[int, tuple[int, int, int]]  # square -> (player, tile, facing)


def board_of(obs: Any) -> Board:
    return {
        SQUARE_INDEX[square]: (player, TILE_INDEX[tile], FACINGS.index(facing))
        for square, player, tile, facing in obs.board
    }


def threat(board: Board, q: int, s: int) -> int:
    return sum(
        1
        for sq, (pl, tile, facing) in board.items()
        if (pl != q or tile == FIRE) and s in THREAT[tile << 2 | facing][sq]
    )


def covered(board: Board, q: int, s: int) -> int:
    if HOME[q][s]:
        return 1
    return int(
        any(
            pl == q and s in COVER[tile << 2 | facing][sq]
            for sq, (pl, tile, facing) in board.items()
        )
    )


def capturable(board: Board, q: int, s: int) -> bool:
    return threat(board, q, s) - covered(board, q, s) >= 2


def threatened_by(board: Board, p: int, s: int) -> bool:
    return any(
        pl == p and s in THREAT[tile << 2 | facing][sq] for sq, (pl, tile, facing) in board.items()
    )


def safe(board: Board, p: int) -> bool:
    return not any(pl == p and capturable(board, p, sq) for sq, (pl, _, _) in board.items())


def captured(board: Board, q: int) -> set[int]:
    """The capture fixpoint, as worded: marked non-Fires gone, marked Fires present."""
    marked: set[int] = set()
    while True:
        view = {sq: t for sq, t in board.items() if sq not in marked or t[1] == FIRE}
        new = {
            sq
            for sq, (pl, _, _) in board.items()
            if pl == q and sq not in marked and capturable(view, q, sq)
        }
        if not new:
            return marked
        marked |= new


def reachable(board: Board, p: int, origin: int) -> set[int]:
    tile = board[origin][1]
    lifted = {sq: t for sq, t in board.items() if sq != origin}
    limit = 1 if tile == FIRE else 2

    def enter(s: int) -> bool:
        return (
            not BLACK[s]
            and s not in lifted
            and threat(lifted, p, s) - covered(lifted, p, s) < limit
        )

    frontier = {origin}
    seen: set[int] = set()
    for _ in range(SHIFT_RANGE[tile]):
        frontier = {n for s in frontier for n in NEIGHBOURS[s] if enter(n)}
        seen |= frontier
    seen.discard(origin)
    return seen


def facings(tile: int) -> range:
    return range(4) if FACED[tile] else range(1)


def moves(board: Board, p: int, origin: int) -> set[str]:
    """Shifts and turns of p's tile on ``origin`` that leave no own tile capturable."""
    legal = set()
    _, tile, facing = board[origin]
    lifted = {sq: t for sq, t in board.items() if sq != origin}
    name = SQUARE_NAMES[origin]
    for target in reachable(board, p, origin):
        for f in facings(tile) if tile != LOTUS else ():
            if safe({**lifted, target: (p, tile, f)}, p):
                legal.add(f"{name}-{SQUARE_NAMES[target]}:{FACINGS[f]}")
    if FACED[tile]:
        for f in range(4):
            if f != facing and safe({**lifted, origin: (p, tile, f)}, p):
                legal.add(f"{name}:{FACINGS[f]}")
    return legal


def deployable(board: Board, p: int, s: int) -> bool:
    return (
        s not in board
        and not BLACK[s]
        and threat(board, p, s) == 0
        and (HOME[p][s] or threatened_by(board, p, s))
    )


def reference_legal(obs: Any, options: dict[str, Any]) -> set[str]:
    board = board_of(obs)
    if obs.phase == "draft":
        me = obs.current_player
        return {f"draft {t}" for t in set(obs.reserves[me])}
    if obs.phase == "picks":
        capturer = 1 - obs.current_player
        return {f"give {t}" for t in set(obs.reserves[capturer])}
    p = obs.current_player
    if obs.phase == "follow-up":
        return moves(board, p, SQUARE_INDEX[obs.pending_sai]) | {"stay"}
    legal: set[str] = set()
    reserve = [obs.reserves[p].count(t) for t in TILES]
    total = sum(reserve)
    for size in range(1, 4):
        if options["draw_exact"] and size != min(3, total):
            continue
        for combo in combinations_with_replacement(range(8), size):
            if all(combo.count(t) <= reserve[t] for t in combo):
                legal.add("draw " + ",".join(TILES[t] for t in combo))
    for t in set(obs.hands[p]):
        tile = TILE_INDEX[t]
        for s in range(NUM_SQUARES):
            if tile == LOTUS:
                ok = s not in board and threat(board, p, s) <= 2
            else:
                ok = deployable(board, p, s)
            for f in facings(tile) if ok else ():
                if safe({**board, s: (p, tile, f)}, p):
                    legal.add(f"{t}@{SQUARE_NAMES[s]}:{FACINGS[f]}")
    last, count = obs.last_moved[p]
    limit = options["move_limit"]
    for origin, (pl, tile, _) in board.items():
        if pl != p or tile in (LOTUS, AIR):
            continue
        if limit is not None and last == SQUARE_NAMES[origin] and count >= limit:
            continue
        legal |= moves(board, p, origin)
        if tile == WATER:
            lifted = {sq: t for sq, t in board.items() if sq != origin}
            for s in range(NUM_SQUARES):
                if (
                    s != origin
                    and deployable(board, p, s)
                    and safe({**lifted, s: (p, WATER, 0)}, p)
                ):
                    legal.add(f"{SQUARE_NAMES[origin]}>{SQUARE_NAMES[s]}:N")
    return legal or {"pass"}


def expected_board(before: Board, text: str, p: int, phase_after: str) -> Board | None:
    """The board after p's action ``text`` (None for actions that do not touch the board)."""
    board = dict(before)
    if "@" in text:
        tile, rest = text.split("@")
        square, facing = rest.split(":")
        board[SQUARE_INDEX[square]] = (p, TILE_INDEX[tile], FACINGS.index(facing.upper()))
        if tile == "sai":
            return board  # captures wait for the follow-up
    elif "-" in text or ">" in text:
        src, rest = text.replace(">", "-").split("-")
        dst, facing = rest.split(":")
        moved = board.pop(SQUARE_INDEX[src])[1]
        board[SQUARE_INDEX[dst]] = (p, moved, FACINGS.index(facing.upper()))
    elif ":" in text:
        square, facing = text.split(":")
        s = SQUARE_INDEX[square]
        board[s] = (p, board[s][1], FACINGS.index(facing.upper()))
    elif text != "stay":
        return None
    assert safe(board, p), "the engine allowed a self-capture"
    for sq in captured(board, 1 - p):
        del board[sq]
    return board


CONFIGS = [
    {"max_turns": 1000, "move_limit": 3, "draw_exact": False},
    {"max_turns": 1000, "move_limit": 1, "draw_exact": True},
    {"max_turns": 1000, "move_limit": None, "draw_exact": False},
]


@pytest.mark.parametrize(("seed", "options"), [(seed, CONFIGS[seed % 3]) for seed in range(6)])
def test_engine_agrees_with_the_literal_rules(seed: int, options: dict[str, Any]) -> None:
    game = tikigames.load("paiko", **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal() and steps < 260:
        obs = state.observation(None)
        legal = state.legal_actions()
        assert {a.text for a in legal} == reference_legal(obs, options), obs.history
        board = board_of(obs)
        # No tile of either side is ever capturable between turns.
        if obs.phase == "play":
            assert safe(board, 0) and safe(board, 1)
        # The incremental maps against a recount, on a few squares.
        for s in rng.sample(range(NUM_SQUARES), 6):
            for q in (0, 1):
                assert state.threat(q, SQUARE_NAMES[s]) == threat(board, q, s)
                assert state.cover(q, SQUARE_NAMES[s]) == covered(board, q, s)
        assert state.scores() == [
            sum(VALUE[q][sq] for sq, (pl, tile, _) in board.items() if pl == q and tile != LOTUS)
            for q in (0, 1)
        ]
        # Prefer board actions so that the walk reaches crowded positions and captures.
        busy = [a for a in legal if a.kind in (2, 3, 4, 5)]
        action = rng.choice(busy if busy and rng.random() < 0.9 else legal)
        p = state.current_player()
        state.apply_action(action)
        after = expected_board(board, action.text, p, state.observation(None).phase)
        if after is not None:
            assert board_of(state.observation(None)) == after, action.text
        steps += 1
    # Undo everything: the maps return to their initial values.
    fresh = game.new_initial_state()
    while state.history():
        state.undo_action()
    assert state == fresh
    assert state.maps() == fresh.maps() and state.scores() == fresh.scores()
    assert state.squares(0) == fresh.squares(0) == [] and state.squares(1) == fresh.squares(1) == []

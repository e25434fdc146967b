"""The engine against a slow, literal reading of the rules, over random games.

The reference below is written from the rules file alone, with squares as names and columns as
lists of ``(owner, rank)``; it shares no code or table with the engine. At every step of every
game it predicts the legal actions and, for the action played, the board, the pools, the player
to move, the turn count and the result. The rarer rules (a turn cut short, passes) are then
checked on the first random game positions that need them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tikigames

FILES = "abcde"
SQUARES = [f + str(r) for r in range(1, 6) for f in FILES]
Board = dict[str, list[tuple[int, int]]]


def own_row(player: int) -> str:
    return "1" if player == 0 else "5"


def opponent_row(player: int) -> str:
    return own_row(1 - player)


def beats(a: int, d: int) -> int:
    if a == d:
        return 0
    if {a, d} == {1, 5}:
        return 1 if a == 1 else -1
    return 1 if a > d else -1


def single_moves(board: Board, player: int) -> set[str]:
    moves = set()
    forward = 1 if player == 0 else -1
    for square in SQUARES:
        column = board[square]
        if not column or column[-1][0] != player:  # 1. the top piece, one's own
            continue
        if square[1] == opponent_row(player):  # 2. never from an opponent's start field
            continue
        f, r = FILES.index(square[0]), int(square[1])
        for df, dr in ((0, forward), (-1, 0), (1, 0)):  # 3. forward, left, right
            if not (0 <= f + df < 5 and 1 <= r + dr <= 5):
                continue
            target = FILES[f + df] + str(r + dr)
            covered = board[target]
            if target[1] == own_row(player) and covered and covered[-1][0] != player:
                continue  # 4. immune on one's own start field
            moves.add(f"{square}-{target}")
    return moves


def expected_legal(state: Any, board: Board, pools: list[list[int]]) -> set[str]:
    played = len(state.history())
    if played < 20:
        player = 0 if played < 10 else 1
        mine = [rank for s in SQUARES for owner, rank in board[s] if owner == player]
        return {
            f"{rank}@{f}{own_row(player)}"
            for f in FILES
            for rank in range(1, 6)
            if len(board[f + own_row(player)]) < 2 and mine.count(rank) < 2
        }
    player = state.current_player()
    legal = single_moves(board, player)
    if state.is_second_move():
        return legal
    for f in FILES:
        if not board[f + own_row(player)]:
            legal |= {f"{rank}*{f}{own_row(player)}" for rank in set(pools[player])}
    return legal or {"pass"}


def statue(column: list[tuple[int, int]], player: int, strict: bool) -> bool:
    mine = [owner for owner, _ in column if owner == player]
    if strict:
        return len(column) == 5 and len(mine) == 5
    return len(mine) >= 5


def predict(state: Any, board: Board, pools: list[list[int]], text: str) -> dict[str, Any]:
    """What playing ``text`` does, by the rules: the new board, pools and who is to play."""
    board = {s: list(c) for s, c in board.items()}
    pools = [list(p) for p in pools]
    player = state.current_player()
    turns = state.turns()
    passes = state.observation(None).passes
    result: dict[str, Any] = {"winner": None, "second": False}
    if "@" in text:
        rank, square = text.split("@")
        board[square].append((player, int(rank)))
        count = len(state.history()) + 1
        result["player"] = 0 if count < 10 or count == 20 else 1
        result.update(board=board, pools=pools, turns=0, over=False)
        return result
    end_turn = True
    if "*" in text:
        rank, square = text.split("*")
        pools[player].remove(int(rank))
        board[square].append((player, int(rank)))
        passes = 0
    elif text == "pass":
        passes += 1
    else:
        passes = 0
        source, target = text.split("-")
        attacker = board[source].pop()
        column = board[target]
        alive = True
        while column and column[-1][0] != player:
            outcome = beats(attacker[1], column[-1][1])
            if outcome > 0:
                pools[1 - player].append(column.pop()[1])
                continue
            if outcome < 0:
                pools[player].append(attacker[1])
                alive = False
            break
        if alive:
            column.append(attacker)
        if target[1] == opponent_row(player) and statue(
            column, player, state.game.options["strict_statue"]
        ):
            result.update(board=board, pools=pools, over=True, winner=player, turns=turns)
            return result
        if not state.is_second_move() and single_moves(board, player):
            end_turn = False
            result["second"] = True
    if end_turn:
        turns += 1
    limit = state.game.options["max_turns"]
    over = passes >= 2 or (limit is not None and turns >= limit)
    result.update(
        board=board,
        pools=pools,
        turns=turns,
        over=over,
        player=player if not end_turn else 1 - player,
    )
    return result


def read(state: Any) -> tuple[Board, list[list[int]]]:
    board = {s: state.column(s) for s in SQUARES}
    return board, [state.defeated(0), state.defeated(1)]


@pytest.mark.parametrize(
    ("options", "seeds"),
    [({}, range(20)), ({"strict_statue": True}, range(20, 30)), ({"max_turns": 25}, range(30, 36))],
)
def test_engine_matches_the_reference(options: dict[str, Any], seeds: range) -> None:
    game = tikigames.load("tactiki", **options)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        board, pools = read(state)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert {str(a) for a in legal} == expected_legal(state, board, pools)
            action = legal[rng.randrange(len(legal))]
            expected = predict(state, board, pools, str(action))
            state.apply_action(action)
            board, pools = read(state)
            assert board == expected["board"]
            assert [sorted(p) for p in expected["pools"]] == pools
            assert state.turns() == expected["turns"]
            assert state.is_terminal() == expected["over"]
            assert state.winner() == expected["winner"]
            if not state.is_terminal():
                assert state.current_player() == expected["player"]
                assert state.is_second_move() == expected["second"]


# ----------------------------------------------------------------- rare positions of random games


def _random_play_until(condition: Any, seeds: range = range(40)) -> Any:
    """Random games (fixed seeds) until ``condition(state_before, action, state_after)``."""
    for seed in seeds:
        rng = random.Random(seed)
        state = tikigames.load("tactiki").new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            before = state.clone()
            state.apply_action(action)
            if condition(before, action, state):
                return before, action, state
    raise AssertionError("no random game reached the position")


def test_a_turn_ends_after_one_move_when_no_second_move_exists() -> None:
    def one_move_turn(before: Any, action: Any, after: Any) -> bool:
        return (
            "-" in str(action)  # a single move
            and not before.is_second_move()
            and not after.is_terminal()
            and after.current_player() != before.current_player()
        )

    before, action, after = _random_play_until(one_move_turn)
    mover = before.current_player()
    assert after.turns() == before.turns() + 1
    assert not single_moves(read(after)[0], mover)  # the mover had no second move…
    assert after.current_player() == 1 - mover and not after.is_second_move()
    # …and the first move was legal even though it left none [A].
    assert action in before.legal_actions()


def test_pass_only_when_nothing_else_and_two_passes_draw() -> None:
    def a_pass(before: Any, action: Any, after: Any) -> bool:
        return str(action) == "pass"

    before, _, after = _random_play_until(a_pass)
    mover = before.current_player()
    assert before.legal_actions() == [before.parse_action("pass")]
    assert not single_moves(read(before)[0], mover)
    assert after.observation(None).passes == 1 or after.is_terminal()
    assert after.passes() == after.observation(None).passes
    # Pass is never legal while a move exists (e.g. on the first turn).
    state = tikigames.load("tactiki").new_initial_state()
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(tikigames.IllegalActionError):
        state.parse_action("pass")

    def second_pass(before: Any, action: Any, after: Any) -> bool:
        return str(action) == "pass" and before.observation(None).passes == 1

    before, _, after = _random_play_until(second_pass)
    assert after.is_terminal() and after.current_player() == tikigames.TERMINAL
    assert after.returns() == [0.0, 0.0] and after.winner() is None
    assert after.turns() == before.turns() + 1


def test_any_move_or_reincarnation_breaks_the_pass_streak() -> None:
    def pass_then_other(before: Any, action: Any, after: Any) -> bool:
        return before.observation(None).passes == 1 and str(action) != "pass"

    before, _, after = _random_play_until(pass_then_other)
    assert after.observation(None).passes == 0 and not after.is_terminal()
    assert str(before.history()[-1]) == "pass"

"""Plug your own evaluation into a search bot: Paikō judged by points, tiles and board presence.

A search bot plays short playouts (``max_rollout`` actions, the game's ``rollout_cap`` by
default) and scores where each one stops. Its :meth:`~tikigames.bots.SearchBot.evaluate`
hook does the scoring — by default the game's own guess, ``state.evaluate()`` — so a bot
author subclasses the bot and overrides that one method: the search, the budget, the
rollout policy and the tree stay the library's.

``state`` is a world drawn from the bot's observation (for Paikō, a perfect-information game,
the position itself), so the evaluation may read anything the state offers; here only
Paikō's public queries: ``scores()`` (points towards the 10 that win), ``lost()`` (tiles
captured from each player) and ``board()`` (the tiles in play). Each value is one player's
guess in [−1, 1]; once the game is over it must be the returns.

It plays a few seeded games of this bot against the default ``MCTSBot`` with the same number
of iterations and prints the score — a demonstration, not a measurement: a ladder at equal
time per move (``examples/strength_ladder.py``) is how to tell whether an evaluation helps.

Run: python examples/custom_evaluation.py [GAMES] [ITERATIONS]
"""

from __future__ import annotations

import math
import sys
from typing import Any

import tikigames
from tikigames.bots import MCTSBot


class BoardMCTSBot(MCTSBot):
    """UCT that values points, tiles kept and tiles on the board."""

    def evaluate(self, state: Any) -> list[float]:
        if state.is_terminal():
            returns: list[float] = state.returns()
            return returns
        scores, lost = state.scores(), state.lost()
        on_board = [0, 0]
        for _square, player, _tile, _facing in state.board():
            on_board[player] += 1
        lead = (
            (scores[0] - scores[1]) + 0.5 * (lost[1] - lost[0]) + 0.1 * (on_board[0] - on_board[1])
        )
        value = math.tanh(lead / 5)
        return [value, -value]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    game = tikigames.load("paiko")
    mine, theirs = BoardMCTSBot(iterations=iterations), MCTSBot(iterations=iterations)
    result = tikigames.arena(game, [mine, theirs], games, seed=7, labels=["board", "default"])
    record = result["board"]
    print(f"{mine!r} against {theirs!r}, {games} games, seats alternating:")
    print(f"won {record.wins}, drew {record.draws}, lost {record.losses}")


if __name__ == "__main__":
    main()

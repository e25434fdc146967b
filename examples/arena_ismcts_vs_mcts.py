"""Two search bots in the arena: information-set MCTS against determinized MCTS in Tiki Topple.

Both bots see only their own observation. ``MCTSBot`` resamples one world per move and searches
it as if it could see the other player's secret card; ``ISMCTSBot`` resamples a fresh world every
iteration and keeps one tree of what it can actually tell apart. The arena rotates the seats,
plays the games in two processes, and reports win rates with 95% confidence intervals — the same
seed gives the same table, whatever the number of workers.

Run: python examples/arena_ismcts_vs_mcts.py [GAMES] [ITERATIONS]
"""

import sys

import tikigames
from tikigames.bots import ISMCTSBot, MCTSBot


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    game = tikigames.load("tiki_topple", players=2)
    result = tikigames.arena(
        game,
        [ISMCTSBot(iterations=iterations), MCTSBot(iterations=iterations)],
        games=games,
        workers=2,
        seed=2026,
        labels=["ismcts", "mcts"],
    )
    print(result.table())
    ismcts = result["ismcts"]
    low, high = ismcts.win_ci
    print(f"IS-MCTS won {ismcts.wins} of {ismcts.games} games ({low:.0%}–{high:.0%} at 95%).")


if __name__ == "__main__":
    main()

"""Play one random game of every registered game and print how it ended.

Run: python examples/random_game.py
"""

import tikigames
from tikigames.bots import RandomBot


def main() -> None:
    for name in tikigames.GAMES:
        game = tikigames.load(name)
        bots = [RandomBot() for _ in range(game.num_players)]
        state = tikigames.play(game, bots, seed=2026, max_actions=5000)
        print(f"{game.title}: {len(state.history())} actions, returns {state.returns()}")
    print()
    game = tikigames.load("tiki_topple", players=3)
    state = tikigames.play(game, [RandomBot()] * 3, seed=7)
    print(state)


if __name__ == "__main__":
    main()

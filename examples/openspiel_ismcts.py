"""OpenSpiel's own information-set MCTS plays Tiki Topple, through pyspiel.

Importing :mod:`tikigames.adapters.openspiel` registers every game with pyspiel as
``tikigames_<name>``. OpenSpiel's Python ``ISMCTSBot`` then searches it like any OpenSpiel
game: at each move it asks the state for worlds consistent with what it knows
(``resample_from_infostate``, backed by ``game.resample``) and keys its tree by the
information-state string. Here it plays a few games against OpenSpiel's uniform random bot,
changing seats each game.

Needs the ``[openspiel]`` extra (open_spiel and numpy).
Run: python examples/openspiel_ismcts.py [GAMES] [SIMULATIONS]
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tikigames.adapters.openspiel  # noqa: F401  (registers the games with pyspiel)


def play(game: Any, bots: list[Any], rng: random.Random) -> Any:
    """One whole game: chance by its probabilities, each player by its bot."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = [probability for _, probability in outcomes]
            state.apply_action(rng.choices(outcomes, weights)[0][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    simulations = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    game = pyspiel.load_game("tikigames_tiki_topple", {"players": 2})
    random_state = np.random.RandomState(2026)
    searcher = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, random_state),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=random_state,
    )
    rng = random.Random(2026)
    outcomes = {1.0: 0, 0.0: 0, -1.0: 0}  # won, drew, lost
    for number in range(games):
        seat = number % 2  # the searcher's seat
        bots = [searcher, pyspiel.make_uniform_random_bot(1 - seat, number)]
        if seat == 1:
            bots.reverse()
        final = play(game, bots, rng)
        returns = final.returns()
        outcomes[returns[seat]] += 1
        scores = final.tikigames_state.scores()
        print(f"game {number + 1}: ISMCTS in seat {seat}, scores {scores}, returns {returns}")
    won, drew, lost = outcomes.values()
    print(f"ISMCTS, {simulations} simulations a move: won {won}, drew {drew}, lost {lost}")


if __name__ == "__main__":
    main()

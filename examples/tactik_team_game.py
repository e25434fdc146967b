"""A 4-player Tac-Tik game: a greedy team (players 0 and 2) against random players (1 and 3).

The greedy bot sees only its observation. To try its moves it asks the rules for a state
consistent with what it knows (``game.resample``: the other hands are re-dealt at random), plays
each legal action there, measures how far its team's pawns have come, and undoes it.

Run: python examples/tactik_team_game.py
"""

from __future__ import annotations

import random

import tikigames
from tikigames import Action, Observation
from tikigames.bots import Bot, RandomBot
from tikigames.tactik import TacTikState


def team_progress(state: TacTikState, colours: tuple[int, ...]) -> int:
    """Squares travelled by ``colours``' pawns; a pawn home counts as two laps."""
    track = state.game.rules.track
    total = 0
    for colour in colours:
        for name in state.pawns(colour):
            if name.startswith("h"):
                total += 2 * track + int(name[-1])
            elif not name.endswith("!"):
                total += 1 + (int(name[1:]) - 16 * colour) % track
    return total


class GreedyBot:
    """Plays the action that takes its team furthest, on a resampled state."""

    def act(self, obs: Observation, rng: random.Random) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = obs.game.resample(obs, rng)
        assert isinstance(state, TacTikState) and obs.player is not None
        n = obs.game.num_players
        colours = (obs.player, (obs.player + n // 2) % n)
        scores = []
        for action in legal:
            state.apply_action(action)
            scores.append(team_progress(state, colours))
            state.undo_action()
        best = max(scores)
        return rng.choice(
            [action for action, score in zip(legal, scores, strict=True) if score == best]
        )


def main() -> None:
    game = tikigames.load("tactik")
    bots: list[Bot] = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
    state = tikigames.play(game, bots, seed=4)
    assert isinstance(state, TacTikState)
    print(state)
    print()
    obs = state.observation(1)
    print(f"Player 1 saw {len(obs.history)} actions, e.g. {obs.history[:6]}")
    print(f"{state.turns()} turns; returns {state.returns()}")


if __name__ == "__main__":
    main()

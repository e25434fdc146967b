"""Paikō: a one-move-lookahead player against a random one, then the threat map of the end.

The greedy player (White) tries each legal action with ``apply_action`` / ``undo_action`` and
keeps the one that captures most, then scores most, then leaves the opponent fewest points; the
random player (Black) picks uniformly. Run it with no arguments::

    python examples/paiko_greedy_duel.py
"""

from __future__ import annotations

import random

import tikigames
from tikigames.bots import RandomBot
from tikigames.paiko import PaikoState


def greedy(state: PaikoState, rng: random.Random) -> tikigames.Action:
    """The action with the best (captures, own points, −opponent points), ties at random."""
    me = state.current_player()
    best: list[tikigames.Action] = []
    best_key = None
    for action in state.legal_actions():
        lost, scores = state.lost(), state.scores()
        state.apply_action(action)
        after_lost, after = state.lost(), state.scores()
        state.undo_action()
        key = (after_lost[1 - me] - lost[1 - me], after[me] - scores[me], -after[1 - me])
        if best_key is None or key > best_key:
            best, best_key = [action], key
        elif key == best_key:
            best.append(action)
    return best[rng.randrange(len(best))]


def threat_map(state: PaikoState, player: int) -> str:
    """Per square, the threat a tile of ``player`` would suffer there (``.`` for none)."""
    rows = []
    for rank in range(14, 0, -1):
        cells = []
        for file in "abcdefghijklmn":
            try:
                threat = state.threat(player, f"{file}{rank}")
            except ValueError:  # a half square off the diamond
                cells.append(" ")
                continue
            cells.append(str(threat) if threat else ".")
        rows.append(f"{rank:>2} " + " ".join(cells))
    rows.append("   " + " ".join("abcdefghijklmn"))
    return "\n".join(rows)


def main() -> None:
    rng = random.Random(2024)
    game = tikigames.load("paiko", max_turns=300)
    state: PaikoState = game.new_initial_state()
    black = RandomBot()
    while not state.is_terminal():
        if state.current_player() == 0 and state.observation(0).phase == "play":
            action = greedy(state, rng)
        else:  # Black, and White's draft (any tiles will do)
            action = black.act(state.observation(state.current_player()), rng)
        state.apply_action(action)
    obs = state.observation(None)
    print(state)
    print()
    outcome = "a draw" if obs.winner is None else f"{('White', 'Black')[obs.winner]} wins"
    print(f"After {obs.turn} turns: {outcome}; scores {obs.scores}, tiles lost {obs.lost}.")
    print()
    print("Threat against Black on each square at the end (Black's own Fires included):")
    print(threat_map(state, 1))


if __name__ == "__main__":
    main()

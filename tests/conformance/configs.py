"""The option sets the conformance suite runs each game with.

A game missing here runs with its defaults only. ``MAX_STEPS`` caps the random walks of the
suite (games that are long at random get a lower cap, still deep enough to reach their phases).
"""

from typing import Any

import pytest

import tikigames

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "tiki_topple": [
        {},
        {"players": 4},
        {"players": 3, "target_score": 20, "topple_bottom_allowed": False, "first_player": 2},
    ],
    "tactiki": [{}, {"strict_statue": True, "max_turns": 40}, {"max_turns": None}],
    "tactik": [
        {},
        {"players": 6, "discard": "stuck", "first_dealer": 2},
        {"players": 2, "jokers": 4, "with_13": True, "seven_captures_passed": False},
        {"players": 4, "jokers": 0, "discard": "stuck", "max_turns": 30},
    ],
    "paiko": [{}, {"max_turns": 40, "move_limit": 1, "draw_exact": True}],
}

MAX_STEPS: dict[str, int] = {
    "tiki_topple": 200,
    "tactiki": 160,
    "tactik": 250,
    "paiko": 180,
}


def max_steps(name: str) -> int:
    """The walk cap of game ``name``."""
    return MAX_STEPS.get(name, 200)


CASES = [
    pytest.param(name, options, id=f"{name}-{index}")
    for name in tikigames.GAMES
    for index, options in enumerate(CONFIGS.get(name, [{}]))
]

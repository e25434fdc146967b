"""tikigames: exact, fast, typed rules engines for TacTiki, Tac-Tik, Tiki Topple and Paikō.

>>> import tikigames
>>> game = tikigames.load("tiki_topple")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from __future__ import annotations

import importlib

from tikigames.core.action import Action
from tikigames.core.arena import arena
from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.errors import (
    ActionError,
    IllegalActionError,
    InvalidStateError,
    OptionError,
    TikiGamesError,
    UndoError,
)
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.play import play
from tikigames.core.registry import load, registered, state_from_json
from tikigames.core.state import State

__version__ = "0.1.0"

# Each game package registers itself when imported.
for _package in ("tiki_topple", "paiko", "tactiki", "tactik"):
    importlib.import_module(f"tikigames.{_package}")

#: The names of the registered games, sorted.
GAMES: tuple[str, ...] = registered()

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "Action",
    "ActionError",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "Observation",
    "OptionError",
    "State",
    "TikiGamesError",
    "UndoError",
    "__version__",
    "arena",
    "load",
    "play",
    "state_from_json",
]

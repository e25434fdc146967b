"""tikigames: exact, fast, typed rules engines for TacTiki, Tac-Tik, Tiki Topple and Paikō.

The package in layers, each importing only from the ones below it:

- :mod:`tikigames.core`: the interfaces every game implements or uses (actions, options,
  ``State``, ``Observation``, ``Game``, errors, JSON, the registry, the ``Bot`` protocol, the
  decision loop ``decisions`` and ``play`` on it);
- the games (:mod:`tikigames.tiki_topple`, :mod:`tikigames.tactiki`, :mod:`tikigames.tactik`,
  :mod:`tikigames.paiko`) and :mod:`tikigames.bots`, each on the core alone;
- the tools: :mod:`tikigames.arena`, :mod:`tikigames.bench`, :mod:`tikigames.testing` and
  :mod:`tikigames.cli` (the ``tikigames`` command), and this package, which gathers the API.

>>> import tikigames
>>> game = tikigames.load("tiki_topple")
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from __future__ import annotations

from tikigames import paiko, tactik, tactiki, tiki_topple
from tikigames.arena import arena
from tikigames.core import state as _core_state
from tikigames.core.action import Action
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
from tikigames.core.play import decisions, play
from tikigames.core.registry import load, registered, state_from_json, state_from_json_text
from tikigames.core.state import State

__version__ = "0.1.0"

# Each game package registers itself when imported (above).
_GAME_PACKAGES = (paiko, tactik, tactiki, tiki_topple)

#: Whether this is the compiled build (mypyc) of the package, rather than pure Python: the rules
#: engines are compiled modules then (see the docs' Performance page).
compiled: bool = not _core_state.__file__.endswith(".py")

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
    "compiled",
    "decisions",
    "load",
    "play",
    "state_from_json",
    "state_from_json_text",
]

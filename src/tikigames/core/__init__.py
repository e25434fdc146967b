"""What every game shares: actions and their tables, options, the state and observation bases,
serialisation, the registry and the play loop. Nothing here knows any particular game."""

from tikigames.core.action import Action, ActionTable
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
from tikigames.core.options import Option
from tikigames.core.state import State

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionError",
    "ActionTable",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "Observation",
    "Option",
    "OptionError",
    "State",
    "TikiGamesError",
    "UndoError",
]

"""The core layer: what every game implements or uses, and nothing above it.

Actions and their tables (:mod:`~tikigames.core.action`), options (:mod:`~tikigames.core.options`),
the :class:`State`, :class:`Observation`, :class:`Game` and
:class:`~tikigames.core.resample.Resampler` bases, the contract's errors and constants, JSON
checks (:mod:`~tikigames.core.serialization`), the registry, the :class:`Bot` protocol and the
play loop. Modules here import only from :mod:`tikigames.core` (not even a game, a bot or a tool
under ``TYPE_CHECKING``); the games, bots, adapters and tools are built on it.
"""

from tikigames.core.action import Action, ActionTable
from tikigames.core.bot import Bot
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
from tikigames.core.play import Turn, decisions, next_turn, play
from tikigames.core.registry import (
    load,
    register,
    registered,
    state_from_json,
    state_from_json_text,
)
from tikigames.core.resample import ReplayResampler, Resampler
from tikigames.core.state import State

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionError",
    "ActionTable",
    "Bot",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "Observation",
    "Option",
    "OptionError",
    "ReplayResampler",
    "Resampler",
    "State",
    "TikiGamesError",
    "Turn",
    "UndoError",
    "decisions",
    "load",
    "next_turn",
    "play",
    "register",
    "registered",
    "state_from_json",
    "state_from_json_text",
]

"""The contract's exceptions.

Every error the library raises on bad input is a :class:`TikiGamesError`; the ones about
values (options, actions, serialised data) are also :class:`ValueError`, and
:class:`UndoError` is also an :class:`IndexError` (undoing an empty history is like popping an
empty list).

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

__all__ = [
    "ActionError",
    "IllegalActionError",
    "InvalidStateError",
    "OptionError",
    "TikiGamesError",
    "UndoError",
]


class TikiGamesError(Exception):
    """Base class of every tikigames error; never raised bare."""


class OptionError(TikiGamesError, ValueError):
    """An unknown game name or option, or an option value of the wrong type or range."""


class ActionError(TikiGamesError, ValueError):
    """Not an action of this game: an id out of range, a wrong type, or unparseable notation."""


class IllegalActionError(ActionError):
    """An action of the game that is not legal in the current state."""


class InvalidStateError(TikiGamesError, ValueError):
    """Serialised data (a state or an observation) that is malformed or inconsistent."""


class UndoError(TikiGamesError, IndexError):
    """``undo_action`` on a state with an empty history."""

"""The contract's exceptions.

Every error the library raises on bad input is a :class:`TikiGamesError`; the ones about
values (options, actions, serialised data) are also :class:`ValueError`, and
:class:`UndoError` is also an :class:`IndexError` (undoing an empty history is like popping an
empty list).

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

__all__ = [
    "MAX_SHOWN",
    "ActionError",
    "IllegalActionError",
    "InvalidStateError",
    "OptionError",
    "TikiGamesError",
    "UndoError",
    "shown",
]

#: The most characters of a bad value an error message quotes.
MAX_SHOWN = 60
#: Ints with more bits are described, not written out (Python refuses to write an int of more
#: than 4,300 digits, and a message must never fail or flood a log).
_MAX_BITS = 128


class TikiGamesError(Exception):
    """Base class of every tikigames error; never raised bare."""


class OptionError(TikiGamesError, ValueError):
    """An unknown game name or option, or an option value of the wrong type or range."""


class ActionError(TikiGamesError, ValueError):
    """Not an action of this game: an id out of range, a wrong type, or unparseable notation."""


class IllegalActionError(ActionError):
    """An action of the game that is not legal in the current state.

    ``reason`` says why, in the game's words (what ``state.illegal_reason(action)`` returns);
    the message is the action's text and the reason.

    >>> from tikigames.core.errors import IllegalActionError
    >>> error = IllegalActionError("'up3 lokahi': Lokahi is 2nd", reason="Lokahi is 2nd")
    >>> error.reason
    'Lokahi is 2nd'
    """

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        #: Why the action is refused (the message itself when none was given).
        self.reason: str = message if reason is None else reason

    def __reduce__(self) -> tuple[object, ...]:
        return (_illegal_action_error, (str(self), self.reason))


def _illegal_action_error(message: str, reason: str) -> IllegalActionError:
    return IllegalActionError(message, reason=reason)


class InvalidStateError(TikiGamesError, ValueError):
    """Serialised data (a state or an observation) that is malformed or inconsistent."""


class UndoError(TikiGamesError, IndexError):
    """``undo_action`` on a state with an empty history."""


def shown(value: object) -> str:
    """A bad value as an error message quotes it: short, and never failing.

    Strings are cut to :data:`MAX_SHOWN` characters, huge ints and containers are described
    rather than written out, and an object of another type is named by its type (its own
    ``repr`` could be anything).

    >>> shown("x" * 100).endswith("'..."), shown(10**5000), shown([[[]]]), shown(2.5)
    (True, 'an int of 16610 bits', 'a list of 1 item', '2.5')
    """
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        number = int(value)
        if number.bit_length() > _MAX_BITS:
            return f"an int of {number.bit_length()} bits"
        return repr(number)
    if isinstance(value, str):
        return repr(value) if len(value) <= MAX_SHOWN else repr(value[: MAX_SHOWN - 3]) + "..."
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        count = len(value)
        return f"a {type(value).__name__} of {count} item{'' if count == 1 else 's'}"
    return f"a {type(value).__name__}"

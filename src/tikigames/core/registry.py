"""The registry of games: ``load``, ``GAMES`` and the game-independent JSON loader.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from tikigames.core.errors import InvalidStateError, OptionError, shown
from tikigames.core.game import Game
from tikigames.core.serialization import (
    check_depth,
    expect_object,
    expect_str,
    parse_json_text,
)
from tikigames.core.state import State

__all__ = ["load", "register", "registered", "state_from_json", "state_from_json_text"]

_GAMES: dict[str, type[Game[Any, Any, Any]]] = {}

G = TypeVar("G", bound=type[Game[Any, Any, Any]])


def register(cls: G) -> G:
    """Class decorator: make ``cls`` loadable as ``tikigames.load(cls.name)``."""
    if cls.name in _GAMES and _GAMES[cls.name] is not cls:
        raise AssertionError(f"two games are named {cls.name!r}")
    _GAMES[cls.name] = cls
    return cls


def registered() -> tuple[str, ...]:
    """The registered games' names, sorted."""
    return tuple(sorted(_GAMES))


def load(name: str, **options: Any) -> Game[Any, Any, Any]:
    """The game called ``name`` (exact, lowercase) with ``options``.

    >>> import tikigames
    >>> game = tikigames.load("tiki_topple", players=3)
    >>> game.num_players, game.options["rounds"]
    (3, 3)

    Raises:
        OptionError: an unknown game or option, or a bad option value (named in the message).
    """
    cls = _GAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise OptionError(f"unknown game {shown(name)}; the games are {', '.join(registered())}")
    return cls(**options)


def state_from_json(data: object) -> State[Any, Any, Any]:
    """Load a state of any game from :meth:`State.to_json` data.

    Raises:
        InvalidStateError: malformed data (the message names the field or the bad action).
    """
    check_depth(data, "state data")
    obj = expect_object(data, "state data")
    if "game" not in obj:
        raise InvalidStateError("state data has no 'game' field")
    name = expect_str(obj["game"], "game")
    cls = _GAMES.get(name)
    if cls is None:
        raise InvalidStateError(
            f"unknown game {shown(name)}; the games are {', '.join(registered())}"
        )
    raw = expect_object(obj.get("options", {}), "'options'")
    try:
        game = cls(**raw)
    except OptionError as error:
        raise InvalidStateError(f"'options': {error}") from None
    state: State[Any, Any, Any] = game.state_from_json(obj)
    return state


def state_from_json_text(text: object) -> State[Any, Any, Any]:
    """Load a state of any game from the JSON text :meth:`State.to_json_text` wrote: how a
    saved game is read back from a file.

    >>> import tikigames
    >>> state = tikigames.load("paiko").new_initial_state()
    >>> state.apply_action(state.legal_actions()[0])
    >>> tikigames.state_from_json_text(state.to_json_text()) == state
    True

    Raises:
        InvalidStateError: not JSON, or malformed data (the message says what is wrong).
    """
    return state_from_json(parse_json_text(text, "state JSON text"))

"""Checks shared by every loader of untrusted JSON-like data.

Loading never evaluates, unpickles or trusts its input: each field is type-checked here and every
failure is an :class:`InvalidStateError` naming the field.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import InvalidStateError, OptionError, shown

if TYPE_CHECKING:
    from tikigames.core.game import Game

__all__ = [
    "MAX_HISTORY",
    "MAX_JSON_TEXT",
    "OBSERVATION_FORMAT",
    "STATE_FORMAT",
    "check_depth",
    "check_fields",
    "check_game_and_options",
    "expect_int",
    "expect_object",
    "expect_str",
    "expect_str_list",
    "parse_json_text",
    "same_json",
]

STATE_FORMAT = "tikigames/1"
OBSERVATION_FORMAT = "tikigames-obs/1"
#: Longer histories are refused before anything is replayed.
MAX_HISTORY = 100_000
#: Data nested deeper is refused before anything reads it (no state or observation of the
#: library nests more than a few levels; a deep nest would exhaust Python's recursion).
MAX_DEPTH = 32
_SCALARS = frozenset({str, int, float, bool, type(None)})


#: The longest JSON text :func:`parse_json_text` reads (a history of 100,000 actions is about
#: 1.5 MB of notation).
MAX_JSON_TEXT = 16 * 1024 * 1024


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def parse_json_text(text: object, what: str) -> object:
    """The value of a JSON text, strictly: ``NaN`` and ``Infinity`` are refused, and so are
    texts over :data:`MAX_JSON_TEXT` characters and nesting deeper than the data allows.

    >>> parse_json_text('{"a": [1, 2]}', "data")
    {'a': [1, 2]}
    >>> parse_json_text("[NaN]", "data")
    Traceback (most recent call last):
    ...
    tikigames.core.errors.InvalidStateError: data is not JSON: NaN is not JSON

    Raises:
        InvalidStateError: not a string, too long, or not JSON.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        kind = type(text).__name__
        raise InvalidStateError(f"{what} must be JSON text (str or bytes), not {kind}")
    if len(text) > MAX_JSON_TEXT:
        raise InvalidStateError(f"{what} is longer than {MAX_JSON_TEXT} characters")
    try:
        value: object = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        message = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        where = ""
        if isinstance(error, json.JSONDecodeError):
            where = f" (line {error.lineno}, column {error.colno})"
        raise InvalidStateError(f"{what} is not JSON: {message[:200]}{where}") from None
    check_depth(value, what)
    return value


def check_depth(data: object, what: str) -> None:
    """``data`` nests lists and objects at most :data:`MAX_DEPTH` deep (checked without
    recursion, so no input can exhaust the stack)."""
    if not isinstance(data, (list, tuple, Mapping)):
        return
    pending: list[tuple[list[Any] | tuple[Any, ...] | Mapping[Any, Any], int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise InvalidStateError(f"{what} nests deeper than {MAX_DEPTH} levels")
        for item in value.values() if isinstance(value, Mapping) else value:
            # Only containers nest; JSON's scalars are skipped by exact type, which is much
            # cheaper than an isinstance against the Mapping ABC (a history of 100,000 texts).
            if type(item) not in _SCALARS and isinstance(item, (list, tuple, Mapping)):
                pending.append((item, depth + 1))


def same_json(a: object, b: object) -> bool:
    """``a`` and ``b`` are the same JSON value, types included: ``True``, ``1``, ``1.0`` and
    ``-0.0`` and ``0`` all differ (``==`` would equate them). Both are at most
    :data:`MAX_DEPTH` deep (:func:`check_depth`)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if isinstance(a, float) and isinstance(b, float):
        return a == b and str(a) == str(b)  # -0.0 is not 0.0
    return a == b


def expect_object(data: object, what: str) -> Mapping[str, Any]:
    """``data`` if it is a JSON object (a mapping with string keys)."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"{what} must be a JSON object, not {type(data).__name__}")
    for key in data:
        if not isinstance(key, str):
            raise InvalidStateError(f"{what} has a non-string key {shown(key)}")
    return data


def check_fields(
    data: Mapping[str, Any], what: str, required: frozenset[str], optional: frozenset[str]
) -> None:
    """Every required key is present and no key is unknown."""
    for key in required:
        if key not in data:
            raise InvalidStateError(f"{what} has no {key!r} field")
    for key in data:
        if key not in required and key not in optional:
            raise InvalidStateError(f"{what} has an unknown field {shown(key)}")


def expect_str(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidStateError(f"{field!r} must be a string, not {type(value).__name__}")
    return value


def expect_int(
    value: object, field: str, low: int, high: int, allow_none: bool = False
) -> int | None:
    """An int (not a bool) in ``low..high``, or ``None`` when allowed."""
    if value is None and allow_none:
        return None
    if type(value) is not int or not low <= value <= high:
        raise InvalidStateError(
            f"{field!r} must be an int in {low}..{high}{' or null' if allow_none else ''},"
            f" not {shown(value)}"
        )
    return value


def expect_str_list(value: object, field: str, max_length: int = MAX_HISTORY) -> list[str]:
    """A list of strings of at most ``max_length`` items."""
    if not isinstance(value, list):
        raise InvalidStateError(f"{field!r} must be a list, not {type(value).__name__}")
    if len(value) > max_length:
        raise InvalidStateError(f"{field!r} has {len(value)} items; at most {max_length} allowed")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidStateError(f"{field}[{index}] must be a string, not {type(item).__name__}")
    return value


def check_game_and_options(game: Game[Any, Any, Any], obj: Mapping[str, Any]) -> None:
    """``obj["game"]`` names ``game`` and ``obj["options"]`` (missing ones defaulted) are its
    options."""
    name = expect_str(obj["game"], "game")
    if name != game.name:
        raise InvalidStateError(f"the data is of game {name[:50]!r}, not {game.name!r}")
    raw = expect_object(obj.get("options", {}), "'options'")
    try:
        options = game.validate_options(raw)
    except OptionError as error:
        raise InvalidStateError(f"'options': {error}") from None
    expected = game.options
    differing = [key for key in expected if options[key] != expected[key]]
    if differing:
        key = differing[0]
        raise InvalidStateError(
            f"'options': {key} is {shown(options[key])} in the data, {shown(expected[key])} in"
            f" this game{f' (and {len(differing) - 1} more differ)' if len(differing) > 1 else ''}"
        )

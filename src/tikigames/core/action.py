"""Actions: ints that print as their notation, built once per game in an :class:`ActionTable`.

An action is its id (an ``int`` in ``range(game.num_distinct_actions)``) and compares, hashes and
indexes as that int. Each game subclasses :class:`Action` to carry the decoded fields its rules
engine needs (a card, a square, a piece), so applying an action never parses anything.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr
from typing_extensions import Self

from tikigames.core.errors import ActionError

__all__ = ["Action", "ActionTable"]


@mypyc_attr(native_class=False)  # an int subclass: mypyc compiles it as a Python class
class Action(int):
    """One entry of a game's action table: an ``int`` id whose ``str()`` is the canonical notation.

    ``hidden`` is the text shown to a player who may not see the action's hidden part (for
    example ``"secret ?"``); it is ``None`` for actions that are always public.
    """

    text: str
    hidden: str | None

    def __new__(cls, action_id: int, text: str, hidden: str | None = None) -> Action:
        # int.__new__, not super().__new__: the form mypyc compiles for a non-native class.
        self = int.__new__(cls, action_id)
        self.text = text
        self.hidden = hidden
        return self

    def __init__(self, action_id: int, text: str, hidden: str | None = None) -> None:
        # Fields are set in __new__; subclasses set their own decoded fields after construction.
        pass

    @classmethod
    def build(cls, action_id: int, text: str, hidden: str | None = None, **fields: Any) -> Self:
        """A table entry with its decoded ``fields`` (the attributes a game's rules read)."""
        action = cls(action_id, text, hidden)
        action.__dict__.update(fields)
        return action

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int(self)}, {self.text!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), int(self), dict(self.__dict__)))


def _rebuild(cls: type[Action], action_id: int, fields: dict[str, object]) -> Action:
    action = int.__new__(cls, action_id)
    action.__dict__.update(fields)
    return action


A = TypeVar("A", bound=Action)


def normalize_text(text: str) -> str:
    """The lookup key of a notation text: case folded, outer whitespace stripped, inner runs of
    whitespace collapsed to one space."""
    return " ".join(text.split()).lower()


@mypyc_attr(allow_interpreted_subclasses=True)
class ActionTable(Generic[A]):
    """Every action of a game, in id order, with a dictionary from notation to action.

    Args:
        actions: the actions; ``actions[i]`` must have id ``i``.
        aliases: extra accepted spellings (normalised text to action), e.g. ``J=10:start@0``.
        normalize: turns user text into a lookup key; the default folds case and whitespace.
    """

    __slots__ = ("_by_text", "_canonical", "_normalize", "actions")

    def __init__(
        self,
        actions: Sequence[A],
        aliases: Mapping[str, A] | None = None,
        normalize: Callable[[str], str] = normalize_text,
    ) -> None:
        for index, action in enumerate(actions):
            if int(action) != index:
                raise AssertionError(f"action {action.text!r} has id {int(action)}, not {index}")
        self.actions: tuple[A, ...] = tuple(actions)
        self._normalize = normalize
        by_text: dict[str, A] = {}
        for action in self.actions:
            key = normalize(action.text)
            if key in by_text:
                raise AssertionError(f"two actions are written {action.text!r}")
            by_text[key] = action
        for text, action in (aliases or {}).items():
            by_text.setdefault(normalize(text), action)
        self._by_text = by_text
        #: Canonical text → action: the fast path for texts the library wrote itself (histories
        #: being loaded or resampled), which need no normalising.
        self._canonical = {action.text: action for action in self.actions}

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, action_id: int) -> A:
        return self.actions[action_id]

    def __iter__(self) -> Iterator[A]:
        return iter(self.actions)

    def parse(self, text: object) -> A:
        """The action written ``text`` (case and surrounding whitespace ignored).

        Raises:
            ActionError: ``text`` is not a string or names no action of the table.
        """
        if not isinstance(text, str):
            raise ActionError(f"notation must be a string, not {type(text).__name__}")
        action = self._canonical.get(text)
        if action is None:
            action = self._by_text.get(self._normalize(text))
        if action is None:
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise ActionError(f"{shown!r} is not an action of this game")
        return action

"""Observations: what one player has seen and remembers (an information set).

A game subclasses :class:`Observation`, adds its typed fields as slots, and lists them in
``_fields`` (the order of its JSON). Equality, hashing and the JSON form are derived from those
fields, so two states a player cannot tell apart give equal observations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from typing_extensions import Self

from tikigames.core.action import Action

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.core.state import State

__all__ = ["OBSERVATION_FORMAT", "Observation"]

OBSERVATION_FORMAT = "tikigames-obs/1"


class Observation:
    """What ``player`` knows of a game (``player`` is ``None`` for a spectator).

    Attributes:
        game: the game, for its rules (e.g. ``obs.game.resample(obs, rng)``).
        player: the observer's seat, or ``None``.
        current_player: whose turn it is (or ``CHANCE`` / ``TERMINAL``), which is public.
        history: each action's text as ``player`` saw it when it was applied; hidden parts are
            ``?``.
    """

    __slots__ = ("_hash", "_legal", "current_player", "game", "history", "player")

    #: The game-specific fields, in JSON order; each is a slot holding JSON-like immutable data
    #: (ints, strings, ``None``, tuples of those).
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        game: Game[Any],
        player: int | None,
        current_player: int,
        history: tuple[str, ...],
        legal: Sequence[Action] | None = None,
        **fields: Any,
    ) -> None:
        self.game = game
        self.player = player
        self.current_player = current_player
        self.history = history
        self._legal: list[Action] = list(legal) if legal is not None else []
        self._hash: int | None = None
        for name in self._fields:
            setattr(self, name, fields.pop(name))
        if fields:
            raise TypeError(f"unexpected observation fields {sorted(fields)}")

    @classmethod
    def of(cls, state: State[Any], player: int | None, **fields: Any) -> Self:
        """The observation of ``player`` in ``state``: the common fields are taken from the
        state (whose turn, the history as ``player`` saw it, the legal actions when it is
        ``player``'s turn); ``fields`` are the game's own."""
        current = state.current_player()
        legal = state.legal_actions() if player is not None and current == player else None
        return cls(state.game, player, current, state._seen(player), legal, **fields)

    def legal_actions(self) -> list[Action]:
        """The observer's legal actions when it is their turn, else ``[]``."""
        return self._legal.copy()

    def _key(self) -> tuple[Any, ...]:
        return (
            self.game,
            self.player,
            self.current_player,
            self.history,
            *(getattr(self, name) for name in self._fields),
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Observation)
        return self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def to_json(self) -> dict[str, Any]:
        """``{"format": "tikigames-obs/1", "game", "options", "player", "current_player",
        "history", …the game's fields}``; :meth:`Game.observation_from_json` reads it back."""
        data: dict[str, Any] = {
            "format": OBSERVATION_FORMAT,
            "game": self.game.name,
            "options": self.game.options,
            "player": self.player,
            "current_player": self.current_player,
            "history": list(self.history),
        }
        for name in self._fields:
            data[name] = _jsonable(getattr(self, name))
        return data

    @classmethod
    def _knowledge_from_json(cls, game: Game[Any], data: Mapping[str, Any]) -> dict[str, Any]:
        """The game fields its resampler reads, parsed from JSON (the rest are checked by
        comparison after resampling). Raise ``InvalidStateError`` naming a bad field."""
        return {}

    @classmethod
    def _claimed(
        cls,
        game: Game[Any],
        player: int | None,
        current_player: int,
        history: tuple[str, ...],
        knowledge: Mapping[str, Any],
    ) -> Observation:
        """An observation as loaded data claims it, holding only what the resampler reads; it is
        never handed out (the loader returns the real observation of a resampled state)."""
        claimed = cls.__new__(cls)
        Observation.__init__(
            claimed,
            game,
            player,
            current_player,
            history,
            **{name: knowledge.get(name) for name in cls._fields},
        )
        return claimed

    def __repr__(self) -> str:
        who = "spectator" if self.player is None else f"player {self.player}"
        return f"<{type(self).__name__} of {self.game.name} for {who}, {len(self.history)} actions>"


def _jsonable(value: Any) -> Any:
    """Tuples become lists (recursively); everything else is already JSON-ready."""
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    return value

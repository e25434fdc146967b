"""Observations: what one player has seen and remembers (an information set).

A game subclasses :class:`Observation` as a frozen dataclass whose fields are its own typed
knowledge (JSON-like immutable data: ints, strings, ``None``, tuples of those), and writes one
hook, :meth:`Observation._fields_of`, that reads them off a state. Everything else is derived
from the declared fields, once, here: construction from a state (:meth:`Observation.of`),
equality and hashing (two states a player cannot tell apart give equal observations), the JSON
form and its checked loading (:meth:`Observation.from_json`), ``str()`` (the game's
``render_observation``) and ``svg()`` (its ``svg_observation``).

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

from typing_extensions import Self, TypeVar

from tikigames.core.action import Action
from tikigames.core.errors import ActionError, InvalidStateError, TikiGamesError, shown
from tikigames.core.serialization import (
    OBSERVATION_FORMAT,
    check_depth,
    check_fields,
    check_game_and_options,
    expect_int,
    expect_object,
    expect_str_list,
    same_json,
)
from tikigames.core.svg import PictureOptions

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.core.state import State

__all__ = ["OBSERVATION_FORMAT", "Observation"]

G = TypeVar("G", bound="Game[Any, Any, Any]", default=Any)

#: The fields every observation has; a game's own fields come after them.
_COMMON = frozenset({"game", "player", "current_player", "history", "legal"})


@dataclass(frozen=True, kw_only=True, repr=False)
class Observation(Generic[G]):
    """What ``player`` knows of a game (``player`` is ``None`` for a spectator).

    A game's subclass is itself a ``@dataclass(frozen=True, kw_only=True, repr=False)`` that
    adds its fields. Build observations with ``state.observation(player)`` or
    :meth:`Game.observation_from_json <tikigames.core.game.Game.observation_from_json>`.

    >>> import random, tikigames
    >>> state = tikigames.load("tiki_topple").new_initial_state()
    >>> state.apply_action(state.sample_chance(random.Random(3)))
    >>> obs = state.observation(1)
    >>> obs.history[0].startswith("line "), obs == state.clone().observation(1)
    (True, True)
    """

    #: The game, for its rules (e.g. ``obs.game.resample(obs, rng)``).
    game: G
    #: The observer's seat, or ``None`` for a spectator.
    player: int | None
    #: Whose turn it is (or ``CHANCE`` / ``TERMINAL``), which is public.
    current_player: int
    #: Each action's text as ``player`` saw it when it was applied; hidden parts are ``?``.
    history: tuple[str, ...]
    #: The observer's legal actions when it is their turn, else ``()`` (the same as
    #: :meth:`legal_actions`, which returns a list to keep).
    legal: tuple[Action, ...] = field(default=(), compare=False)

    # ----------------------------------------------------------------- the game's hook

    @classmethod
    def _fields_of(cls, state: Any, player: int | None) -> dict[str, Any]:
        """The game's own fields of ``player``'s observation of ``state`` (a state of the
        game). The default, for a game without fields of its own, is none."""
        return {}

    @classmethod
    def _knowledge_from_json(cls, game: G, data: Mapping[str, Any]) -> dict[str, Any]:
        """The game fields its resampler reads, parsed from JSON (the rest are checked by
        comparison after resampling). Raise ``InvalidStateError`` naming a bad field."""
        return {}

    # ----------------------------------------------------------------- construction

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The game's own fields, in declaration order (the order of the JSON)."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.name not in _COMMON)

    @classmethod
    def of(cls, state: State[Any, Any, Any], player: int | None) -> Self:
        """The observation of ``player`` (already checked) in ``state``: the common fields
        are taken from the state (whose turn, the history as ``player`` saw it, the legal
        actions when it is ``player``'s turn), the game's own from :meth:`_fields_of`."""
        current = state.current_player()
        legal = tuple(state.legal_actions()) if player is not None and current == player else ()
        return cls(
            game=state.game,
            player=player,
            current_player=current,
            history=state.seen_history(player),
            legal=legal,
            **cls._fields_of(state, player),
        )

    def legal_actions(self) -> list[Action]:
        """The observer's legal actions when it is their turn, else ``[]``."""
        return list(self.legal)

    # ----------------------------------------------------------------- for learning

    def tensor(self) -> list[float]:
        """What the observer knows as floats in ``game.observation_tensor_shape()`` (flat,
        row-major; the planes are on the game's page), computed from this observation alone:
        equal observations give equal tensors, and a resampled world gives its player this
        tensor again.

        >>> import tikigames
        >>> game = tikigames.load("tiki_topple")
        >>> obs = game.new_initial_state().observation(0)
        >>> len(obs.tensor()) == game.observation_tensor_shape()[0]
        True

        Raises:
            NotImplementedError: the game declares no encoding.
        """
        return self.game.observation_encoder().encode(self)

    def sparse_tensor(self) -> dict[int, float]:
        """:meth:`tensor`'s values that are not 0, by index: every index missing holds 0 (an
        index present may hold 0 too). The same tensor, cheaper to move into an array when it
        is mostly zeros — as the PettingZoo and Gymnasium adapters do:
        ``values[list(sparse)] = list(sparse.values())`` on a zeroed array.

        >>> import tikigames
        >>> obs = tikigames.load("paiko").new_initial_state().observation(0)
        >>> sparse, values = obs.sparse_tensor(), obs.tensor()
        >>> all(values[i] == sparse.get(i, 0.0) for i in range(len(values)))
        True
        >>> len(sparse) < len(values) // 10
        True

        Raises:
            NotImplementedError: the game declares no encoding.
        """
        return self.game.observation_encoder().encode_sparse(self)

    def legal_actions_mask(self) -> list[int]:
        """0/1 over ``range(game.num_distinct_actions)``, 1 exactly at the observer's legal
        ids: all 0 when it is not their turn (a chance node or another seat)."""
        mask = [0] * self.game.num_distinct_actions
        for action in self.legal:
            mask[action] = 1
        return mask

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """``{"format": "tikigames-obs/1", "game", "options", "player", "current_player",
        "history", …the game's fields}``; :meth:`Game.observation_from_json
        <tikigames.core.game.Game.observation_from_json>` reads it back."""
        data: dict[str, Any] = {
            "format": OBSERVATION_FORMAT,
            "game": self.game.name,
            "options": self.game.options,
            "player": self.player,
            "current_player": self.current_player,
            "history": list(self.history),
        }
        for name in self.field_names():
            data[name] = _jsonable(getattr(self, name))
        return data

    @classmethod
    def from_json(cls, game: G, data: object) -> Self:
        """The observation of ``game`` that ``data`` (from :meth:`to_json`) describes.

        The data is checked field by field, then a state consistent with it is resampled and
        its observation compared with the data: only an observation some real state gives is
        accepted.

        Raises:
            InvalidStateError: malformed or inconsistent data.
        """
        check_depth(data, "observation data")
        obj = expect_object(data, "observation data")
        expected_keys = frozenset(
            {"format", "game", "options", "player", "current_player", "history"}
            | set(cls.field_names())
        )
        check_fields(obj, "observation data", expected_keys, frozenset())
        if obj["format"] != OBSERVATION_FORMAT:
            raise InvalidStateError(
                f"'format' must be {OBSERVATION_FORMAT!r}, not {shown(obj['format'])}"
            )
        check_game_and_options(game, obj)
        player = expect_int(obj["player"], "player", 0, game.num_players - 1, allow_none=True)
        current = expect_int(obj["current_player"], "current_player", -4, game.num_players - 1)
        assert current is not None
        knowledge = cls._knowledge_from_json(game, obj)
        fields: dict[str, Any] = {name: knowledge.get(name) for name in cls.field_names()}
        # An observation as the data claims it, holding only what the resampler reads; it is
        # never handed out (the real observation of a resampled state is).
        claimed = cls(
            game=game,
            player=player,
            current_player=current,
            history=tuple(expect_str_list(obj["history"], "history")),
            **fields,
        )
        try:
            sample = game.resample(claimed, random.Random(0))
        except TikiGamesError as error:
            raise InvalidStateError(f"inconsistent observation: {error}") from None
        except (ValueError, LookupError, TypeError, AttributeError) as error:
            raise InvalidStateError(f"inconsistent observation: {error!r}"[:300]) from None
        # A resampler may replay without legality checks (it trusts observations the library
        # made); claimed data is not trusted, so the sample's history is replayed with checks.
        state = game.new_initial_state()
        for index, action in enumerate(sample.history()):
            try:
                state.apply_action(action)
            except ActionError as error:
                raise InvalidStateError(
                    f"inconsistent observation: history[{index}]: {error}"
                ) from None
        real: Self = state.observation(player)
        expected = real.to_json()
        for key, value in expected.items():
            if not same_json(obj[key], value):
                raise InvalidStateError(f"observation field {key!r} is inconsistent with the rest")
        return real

    # ----------------------------------------------------------------- views

    def history_in_words(self) -> tuple[str, ...]:
        """Each action of :attr:`history`, as this player saw it, in words: who did what, and
        what followed from it that the player saw (a battle and its ranks, a capture — whose
        piece, where, by what —, a card received, points scored). One entry per action, in
        order. What the terminal announces between a player's turns and its ``log`` shows; it
        depends on the observation alone, so it never tells more than the player knows. The
        default is the action's text; a game overrides it with its own words.

        >>> import tikigames
        >>> state = tikigames.load("tactiki").new_initial_state()
        >>> state.apply_action(state.legal_actions()[0])
        >>> len(state.observation(1).history_in_words()) == len(state.history())
        True
        """
        return self.history

    def __str__(self) -> str:
        """What the observer knows, readable: the game's ``render_observation``."""
        return self.game.render_observation(self)

    def svg(
        self,
        *,
        size: int = 480,
        highlight: object = "last",
        coordinates: bool = True,
        flipped: int | None = None,
        **extra: Any,
    ) -> str:
        """A picture of what the observer knows, as SVG text, drawn from this observation
        alone (so it cannot show a secret): their own secrets face up, everything hidden as a
        back or ``?``, what they have learned marked as known.

        ``highlight`` is an action's text (or the action) to outline, by default the last one
        as the observer saw it (``None``: none); ``flipped`` the seat drawn at the bottom (by
        default the observer's); ``extra`` the game's own picture options.

        Raises:
            ValueError: an option out of range, or one the game does not draw.
        """
        if flipped is None:
            flipped = self.player
        last = self.history[-1] if self.history else None
        options = PictureOptions.of(size, highlight, coordinates, flipped, extra, last)
        return self.game.svg_observation(self, options)

    def _repr_svg_(self) -> str:
        """Jupyter shows an observation as its picture."""
        return self.svg()

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

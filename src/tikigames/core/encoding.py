"""Tensors: an observation as a fixed-size vector of floats, for learning.

A game declares its encoding as data, a :class:`TensorLayout`: named planes, each with a shape
and a sentence saying what it holds. The tensor is the planes one after the other, each
flattened row-major, so ``game.observation_tensor_shape()`` is ``(layout.size,)`` and a network
that wants a board as an image reshapes that plane (``layout.view(values, "board")``). The docs
print each game's table of planes from the same layout, so the description cannot drift from
the code.

A game writes an :class:`ObservationEncoder` (declared as ``Game.encoder_class``): built once
per game class and rules value, it declares the planes (:meth:`~ObservationEncoder.planes`),
works out what its :meth:`~ObservationEncoder.encode` needs from the rules (offsets, scales,
seat orders), and fills ``layout.zeros()`` through the offsets of its planes. It reads the
observation alone, never a state, so equal observations give equal tensors and a resampled
world gives its player the same tensor: the tensor can carry no secret the observation does not.

Most of a large tensor is zeros (Paikō's 7,304 values hold about 360 others), and turning a
list of Python floats into an array costs more than building it: an encoder may write its
values into a dict instead (:meth:`~ObservationEncoder.encode_sparse`, ``obs.sparse_tensor()``),
which an adapter scatters into a zeroed array in one call.

>>> from tikigames.core.encoding import Plane, TensorLayout
>>> layout = TensorLayout([
...     Plane("card", (3,), "the observer's card, one-hot"),
...     Plane("bets", (2, 2), "who bet in which round"),
... ])
>>> layout.shape, layout.offset("bets")
((7,), 3)
>>> values = layout.zeros()
>>> values[layout.offset("card") + 2] = 1.0
>>> layout.view(values, "card")
[0.0, 0.0, 1.0]

This module is in the core layer: it imports nothing from tikigames.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any, Final, Generic, Protocol

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

__all__ = ["ObservationEncoder", "Plane", "TensorLayout", "TensorValues"]

R = TypeVar("R", default=Any)
Obs = TypeVar("Obs", default=Any)

_MAX_SIZE: Final = 1 << 24


@dataclass(frozen=True)
class Plane:
    """One named part of an observation tensor: its ``shape`` (row-major) and what it holds."""

    name: str
    shape: tuple[int, ...]
    description: str

    @property
    def size(self) -> int:
        """The number of values in the plane."""
        size = 1
        for extent in self.shape:
            size *= extent
        return size


class TensorLayout:
    """The planes of a game's observation tensor, in order, with their offsets.

    Raises:
        ValueError: a repeated or empty name, or an extent that is not a positive int.
    """

    def __init__(self, planes: Iterable[Plane]) -> None:
        self._planes = tuple(planes)
        self._offsets: dict[str, int] = {}
        self._by_name: dict[str, Plane] = {}
        offset = 0
        for plane in self._planes:
            if not plane.name or plane.name in self._offsets:
                raise ValueError(f"plane names must be distinct and non-empty: {plane.name!r}")
            if not plane.shape or any(type(n) is not int or n < 1 for n in plane.shape):
                raise ValueError(f"plane {plane.name!r} has a bad shape {plane.shape!r}")
            self._offsets[plane.name] = offset
            self._by_name[plane.name] = plane
            offset += plane.size
        if offset > _MAX_SIZE:
            raise ValueError(f"a tensor of {offset} values is too large")
        self._size = offset

    @property
    def planes(self) -> tuple[Plane, ...]:
        """The planes, in the order the tensor holds them."""
        return self._planes

    @property
    def size(self) -> int:
        """The number of values in the whole tensor."""
        return self._size

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor's shape, ``(size,)``: the planes concatenated."""
        return (self._size,)

    def offset(self, name: str) -> int:
        """The index in the tensor of plane ``name``'s first value.

        Raises:
            KeyError: no plane has that name.
        """
        return self._offsets[name]

    def plane(self, name: str) -> Plane:
        """The plane called ``name``.

        Raises:
            KeyError: no plane has that name.
        """
        return self._by_name[name]

    def zeros(self) -> list[float]:
        """A tensor of zeros, for an encoder to fill."""
        return [0.0] * self._size

    def view(self, values: Sequence[float], name: str) -> list[float]:
        """Plane ``name``'s values out of a whole tensor (flat, row-major)."""
        start = self._offsets[name]
        return list(values[start : start + self._by_name[name].size])

    def __repr__(self) -> str:
        planes = ", ".join(f"{p.name}{list(p.shape)}" for p in self._planes)
        return f"TensorLayout({planes}; {self._size} values)"


class TensorValues(Protocol):
    """What an encoder may write a tensor's values into, one index at a time: the dense list
    (``layout.zeros()``) or a dict of the sparse form. An encoder that writes both forms from
    one method takes either, and only sets values, never reads them back."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class ObservationEncoder(ABC, Generic[R, Obs]):
    """A game's observation tensor for one rules value: the :attr:`layout` of its planes, and
    :meth:`encode`, which fills it from one observation.

    A game declares its subclass as ``Game.encoder_class``; the game builds one per class and
    rules value, on first use, and keeps it (``game.observation_encoder()``), so whatever a
    subclass works out from the rules in ``__init__`` (offsets, scales, seat orders) is worked
    out once, not at every ``obs.tensor()``.

    A subclass writes :meth:`encode` (the list of every value) or :meth:`encode_sparse` (a dict
    of the values that are not 0), and the base class derives the other: write the dense form
    for a small tensor. For a large tensor of mostly zeros write both, from one method that
    sets the values into either (:class:`TensorValues`): the list for ``obs.tensor()``, a dict
    for the adapters, which scatter it into an array rather than convert a long list.

    >>> from tikigames.core.encoding import ObservationEncoder, Plane
    >>> class Coin(ObservationEncoder[None, int]):
    ...     def planes(self, rules):
    ...         return [Plane("seen", (2,), "heads, tails")]
    ...     def encode(self, obs):
    ...         values = self.layout.zeros()
    ...         values[obs] = 1.0
    ...         return values
    >>> coin = Coin(None)
    >>> coin.layout.size, coin.encode(1), coin.encode_sparse(1)
    (2, [0.0, 1.0], {1: 1.0})

    Raises:
        TypeError: (building one) the subclass writes neither :meth:`encode` nor
            :meth:`encode_sparse`.
    """

    def __init__(self, rules: R) -> None:
        cls = type(self)
        if cls.encode is ObservationEncoder.encode and (
            cls.encode_sparse is ObservationEncoder.encode_sparse
        ):
            raise TypeError(f"{cls.__name__} must write encode() or encode_sparse()")
        #: Whether the subclass writes :meth:`encode_sparse` itself: then the sparse form costs
        #: least (an adapter scatters it into a zeroed array), else the dense list does.
        self.sparse = cls.encode_sparse is not ObservationEncoder.encode_sparse
        #: The rules value the encoder was built for.
        self.rules = rules
        #: The planes of every tensor this encoder writes.
        self.layout = TensorLayout(self.planes(rules))

    @abstractmethod
    def planes(self, rules: R) -> list[Plane]:
        """The planes of the tensor for ``rules``, in order (called once, by ``__init__``)."""

    def encode(self, obs: Obs) -> list[float]:
        """``obs.tensor()``: the observation as :attr:`layout`'s values, flat, from the
        observation alone. By default :meth:`encode_sparse`'s values, scattered into
        ``layout.zeros()``."""
        values = self.layout.zeros()
        for index, value in self.encode_sparse(obs).items():
            values[index] = value
        return values

    def encode_sparse(self, obs: Obs) -> dict[int, float]:
        """``obs.sparse_tensor()``: the values of :meth:`encode` that are not 0, by index
        (every index missing holds 0; an index present may hold 0 too). By default the
        non-zeros of :meth:`encode`'s list, found in one C pass."""
        values = self.encode(obs)
        return {index: values[index] for index in compress(range(len(values)), values)}

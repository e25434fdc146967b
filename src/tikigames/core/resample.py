"""Resamplers: drawing the states an observation allows.

A search bot with hidden information draws a fresh world consistent with its observation on
every iteration, so the work that depends only on the observation (parsing its history, checking
it, rebuilding the parts of the past that can no longer matter) is done once, when a
:class:`Resampler` is built, and each :meth:`Resampler.draw` does only the rest.
:meth:`Game.resample <tikigames.core.game.Game.resample>` is one draw of a fresh resampler, and
:meth:`Game.resampler <tikigames.core.game.Game.resampler>` hands one out. A game declares its
class as ``Game.resampler_class``; :class:`ReplayResampler`, the default, suits
perfect-information games.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from tikigames.core.errors import ActionError, InvalidStateError

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.core.observation import Observation
    from tikigames.core.state import State

__all__ = ["ReplayResampler", "Resampler"]

G = TypeVar("G", bound="Game[Any, Any, Any]", default=Any)
Obs = TypeVar("Obs", bound="Observation[Any]", default=Any)
S = TypeVar("S", bound="State[Any, Any, Any]", default=Any)


@mypyc_attr(allow_interpreted_subclasses=True)
class Resampler(ABC, Generic[G, Obs, S]):
    """Draws states consistent with one observation, each from the distribution the game's page
    documents (for hidden information: the exact posterior, docs: Concepts).

    Build it with ``game.resampler(obs)`` or ``game.resampler(obs, rng)`` (which checks that
    ``obs`` is the game's); call it with a ``random.Random``, or with nothing to draw from the
    ``rng`` it was built with. A subclass prepares what it can in ``__init__`` and implements
    :meth:`draw`. Draws must be independent states; they may share the parts of the hidden
    past that can no longer affect the game (Tac-Tik's finished deals), which the game's page
    then says.

    >>> import random, tikigames
    >>> game = tikigames.load("tiki_topple")
    >>> state = game.new_initial_state()
    >>> draw = game.resampler(state.observation(0))
    >>> draw(random.Random(1)) == state
    True
    >>> bound = game.resampler(state.observation(0), random.Random(1))
    >>> bound() == state
    True
    """

    def __init__(self, game: G, obs: Obs) -> None:
        self.game = game
        self.obs = obs
        #: The generator a call without one draws from (``game.resampler(obs, rng)``).
        self.rng: random.Random | None = None

    @abstractmethod
    def draw(self, rng: random.Random) -> S:
        """One consistent state (``rng`` already checked). May raise ``InvalidStateError`` for
        an observation no state gives (some games find out only when drawing)."""

    def __call__(self, rng: random.Random | None = None) -> S:
        """One consistent state, drawn with ``rng`` (a ``random.Random``), or, when it is
        omitted, with the generator the resampler was built with.

        Raises:
            TypeError: ``rng`` is not a ``random.Random``, or is omitted from a resampler built
                without one.
            InvalidStateError: the observation is inconsistent.
        """
        if rng is None:
            if self.rng is None:
                raise TypeError(
                    "this resampler was built without an rng: call it with a random.Random"
                )
            rng = self.rng
        elif not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        return self.draw(rng)


@mypyc_attr(allow_interpreted_subclasses=True)
class ReplayResampler(Resampler[Any, Any, Any]):
    """The resampler of a perfect-information game: the observed history, replayed (with
    checks, since an observation may come from loaded data). Every draw equals the observed
    state."""

    def draw(self, rng: random.Random) -> Any:
        state = self.game.new_initial_state()
        for index, text in enumerate(self.obs.history):
            try:
                state.apply_unchecked(state.parse_action(text))  # parse_action checked it
            except ActionError as error:
                raise InvalidStateError(f"history[{index}]: {error}") from None
        return state

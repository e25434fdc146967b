"""``tikigames.testing.check_game`` finds a broken game, and names what it breaks.

The game under test is a tiny one written here on the public core (Nim: take one or two stones
from a pile of five; whoever takes the last stone wins), once sound and once with a bug.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import tikigames
from tikigames.core import Action, ActionTable, Game, Observation, State, register
from tikigames.core.constants import TERMINAL
from tikigames.core.encoding import ObservationEncoder, Plane
from tikigames.testing import PROPERTIES, ConformanceError, check_game


class NimState(State[Action, "Nim", Observation[Any]]):
    __slots__ = ("_taken",)
    position_fields = ("_taken",)

    def _init_position(self) -> None:
        self._taken: list[int] = []

    def _left(self) -> int:
        return 5 - sum(int(take) + 1 for take in self._taken)

    def current_player(self) -> int:
        return TERMINAL if self._left() <= 0 else len(self._taken) % 2

    def _generate_legal(self) -> list[Action]:
        return (
            []
            if self._left() <= 0
            else list(self.game.action_table.actions[: min(2, self._left())])
        )

    def _do(self, action: Action) -> None:
        self._taken.append(action)

    def _undo_last(self, action: Action, record: Any) -> None:
        self._taken.pop()

    def _copy_into(self, new: NimState) -> None:
        new._taken = self._taken.copy()

    def _position_key(self) -> tuple[Any, ...]:
        return tuple(self._taken)

    def returns(self) -> list[float]:
        if self._left() > 0:
            return [0.0, 0.0]
        winner = (len(self._taken) - 1) % 2
        return [1.0 if seat == winner else -1.0 for seat in (0, 1)]


@dataclass(frozen=True)
class NimRules:
    """Nim has no options."""


def render(thing: object) -> str:
    return repr(thing)


class NimEncoder(ObservationEncoder[Any, Observation[Any]]):
    def planes(self, rules: Any) -> list[Plane]:
        return [Plane("left", (6,), "stones left, one-hot")]

    def encode(self, obs: Observation[Any]) -> list[float]:
        values = self.layout.zeros()
        values[5 - sum(int(text[-1]) for text in obs.history)] = 1.0
        return values


class BlindNimEncoder(NimEncoder):
    def encode(self, obs: Observation[Any]) -> list[float]:
        return self.layout.zeros()


class SparseNimEncoder(NimEncoder):
    """Writes its sparse form itself, and gets it wrong: one stone off."""

    def encode_sparse(self, obs: Observation[Any]) -> dict[int, float]:
        return {4 - sum(int(text[-1]) for text in obs.history): 1.0}


@register  # check_game loads its states from JSON through the registry
class Nim(Game[NimState, Observation[Any], NimRules]):
    name = "nim_for_tests"
    title = "Nim"
    rules_class = NimRules
    state_class: ClassVar[type[NimState]] = NimState
    render_state = staticmethod(render)
    render_observation = staticmethod(render)
    encoder_class = NimEncoder

    @property
    def num_players(self) -> int:
        return 2

    def _build_table(self) -> ActionTable[Action]:
        return ActionTable([Action(0, "take 1"), Action(1, "take 2")])


class EagerNimState(NimState):
    """Pays out before the game is over: a breach of the returns rule."""

    def returns(self) -> list[float]:
        return [1.0, -1.0] if len(self._taken) >= 2 else super().returns()


class EagerNim(Nim):
    state_class = EagerNimState


class BlindNim(Nim):
    """Its tensor forgets how many stones are left: positions with other legal actions share
    a tensor, which a learner could not act on."""

    name = "blind_nim_for_tests"
    encoder_class = BlindNimEncoder


class MisreadNim(Nim):
    """Its sparse tensor is not its tensor."""

    name = "misread_nim_for_tests"
    encoder_class = SparseNimEncoder


def test_check_game_passes_a_sound_game() -> None:
    check_game(Nim(), examples=10, max_steps=10)


def test_check_game_reports_the_broken_property() -> None:
    with pytest.raises(ConformanceError, match=r"legal_actions_and_chance.*returns before the end"):
        check_game(EagerNim(), examples=10, max_steps=10, properties=["legal_actions_and_chance"])


def test_check_game_finds_a_tensor_that_loses_what_decides_the_legal_actions() -> None:
    with pytest.raises(ConformanceError, match=r"tensors_encode.*equal tensors"):
        check_game(
            BlindNim(), examples=20, max_steps=10, properties=["tensors_encode_the_observation"]
        )


def test_check_game_finds_a_sparse_tensor_that_is_not_the_tensor() -> None:
    with pytest.raises(ConformanceError, match=r"tensors_encode.*sparse tensor of 0 differs"):
        check_game(
            MisreadNim(), examples=5, max_steps=4, properties=["tensors_encode_the_observation"]
        )


def test_check_game_on_a_library_game_and_unknown_properties() -> None:
    check_game(tikigames.load("tiki_topple"), examples=3, max_steps=20)
    assert "json_round_trips" in PROPERTIES
    with pytest.raises(KeyError):
        check_game(tikigames.load("tiki_topple"), properties=["no_such_property"])

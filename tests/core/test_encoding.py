"""The encoder base class: a subclass writes the dense or the sparse form, the other is derived."""

from __future__ import annotations

import pytest

from tikigames.core.encoding import ObservationEncoder, Plane


class Dense(ObservationEncoder[int, list[float]]):
    def planes(self, rules: int) -> list[Plane]:
        return [Plane("values", (rules,), "the observation itself")]

    def encode(self, obs: list[float]) -> list[float]:
        return list(obs)


class Sparse(ObservationEncoder[int, list[float]]):
    def planes(self, rules: int) -> list[Plane]:
        return [Plane("values", (rules,), "the observation itself")]

    def encode_sparse(self, obs: list[float]) -> dict[int, float]:
        return {i: v for i, v in enumerate(obs) if v}


class Neither(ObservationEncoder[int, list[float]]):
    def planes(self, rules: int) -> list[Plane]:
        return [Plane("values", (rules,), "the observation itself")]


OBSERVATION = [0.0, 0.5, 0.0, 0.0, 1.0, 0.25]


def test_the_sparse_form_is_derived_from_the_dense_one() -> None:
    encoder = Dense(6)
    assert not encoder.sparse
    assert encoder.encode_sparse(OBSERVATION) == {1: 0.5, 4: 1.0, 5: 0.25}
    assert encoder.encode_sparse([0.0] * 6) == {}


def test_the_dense_form_is_derived_from_the_sparse_one() -> None:
    encoder = Sparse(6)
    assert encoder.sparse
    dense = encoder.encode(OBSERVATION)
    assert dense == OBSERVATION and all(type(v) is float for v in dense)
    assert encoder.encode([0.0] * 6) == [0.0] * 6


def test_an_encoder_must_write_one_form() -> None:
    with pytest.raises(TypeError, match="Neither must write encode"):
        Neither(6)

"""``tikigames.testing.check_game`` finds a broken game, and names what it breaks."""

from __future__ import annotations

import pytest

import tikigames
from tikigames.testing import PROPERTIES, ConformanceError, check_game
from tikigames.tiki_topple import TikiTopple, TikiToppleState


class _EagerState(TikiToppleState):
    """Pays out before the game is over: a breach of the returns rule."""

    def returns(self) -> list[float]:
        return [1.0, -1.0] if len(self.history()) > 3 else [0.0, 0.0]


class _EagerGame(TikiTopple):
    state_class = _EagerState


def test_check_game_reports_the_broken_property() -> None:
    with pytest.raises(ConformanceError, match=r"legal_actions_and_chance.*returns before the end"):
        check_game(_EagerGame(), examples=5, max_steps=20, properties=["legal_actions_and_chance"])


def test_check_game_passes_a_sound_game_and_rejects_unknown_properties() -> None:
    check_game(tikigames.load("tiki_topple"), examples=3, max_steps=20)
    assert "json_round_trips" in PROPERTIES
    with pytest.raises(KeyError):
        check_game(tikigames.load("tiki_topple"), properties=["no_such_property"])

"""Tac-Tik's pictures: valid, deterministic SVG; the options; no leak of a hidden card."""

from __future__ import annotations

import random
from collections.abc import Callable
from xml.etree import ElementTree

import pytest

import tikigames
from tikigames.tactik import TacTikState

from .conftest import Table

SVG = "{http://www.w3.org/2000/svg}"


def _random_state(players: int, seed: int, steps: int) -> TacTikState:
    state = tikigames.load("tactik", players=players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_unchecked(state.random_action(rng))
    assert isinstance(state, TacTikState)
    return state


def _started(table: Callable[..., Table]) -> Table:
    t = table()
    t.deal("1 -4 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0")
    return t


@pytest.mark.parametrize("players", [2, 4, 6])
def test_pictures_are_xml_with_a_viewbox_and_deterministic(players: int) -> None:
    for seed, steps in ((1, 0), (2, 30), (3, 250)):
        state = _random_state(players, seed, steps)
        for picture, again in (
            (state.svg(), state.clone().svg()),
            (state.observation(0).svg(), state.clone().observation(0).svg()),
            (state.observation(None).svg(size=200), state.observation(None).svg(size=200)),
        ):
            root = ElementTree.fromstring(picture)
            assert root.get("viewBox") and picture == again
    # A track of 16 squares per colour, each numbered.
    svg = _random_state(players, 0, 0).svg()
    colours = 6 if players == 6 else 4
    assert f"<title>t{16 * colours - 1}</title>" in svg and f"t{16 * colours}" not in svg


def test_a_start_draws_the_pieu_and_an_arrow_from_the_reserve(
    table: Callable[..., Table],
) -> None:
    t = _started(table)
    svg = t.state.svg()
    assert "green pieu on t0" in svg and 'marker-end="url(#arrow)"' in svg
    assert t.state.svg(highlight=None).count("marker-end") == 0
    # Every hand face up in the state's picture; backs in another player's.
    assert "player 1&#x27;s card 3" in svg or "player 1's card 3" in svg
    seen = t.state.observation(0).svg()
    assert "player 1's card" not in seen and "player 1: 4 cards" in seen
    assert "player 0's card 5" in seen


def test_options(table: Callable[..., Table]) -> None:
    state = _started(table).state
    big, small = state.svg(size=900), state.svg(size=300)
    assert 'width="900"' in big and 'width="300"' in small
    numbered, plain = state.svg(), state.svg(coordinates=False)
    assert ">63</text>" in numbered and ">63</text>" not in plain
    assert state.svg(flipped=1) != state.svg(flipped=0) == state.svg()
    # An observation is drawn from its player's side by default.
    assert state.observation(2).svg() == state.observation(2).svg(flipped=2)
    assert state.observation(2).svg() != state.observation(2).svg(flipped=0)
    board = state.svg(panel=False)
    assert float(ElementTree.fromstring(board).get("viewBox").split()[2]) < float(  # type: ignore[union-attr]
        ElementTree.fromstring(state.svg()).get("viewBox").split()[2]  # type: ignore[union-attr]
    )
    with pytest.raises(ValueError, match="unknown picture option"):
        state.svg(glow=True)
    with pytest.raises(ValueError):
        state.svg(flipped=4)
    with pytest.raises(ValueError):
        state.svg(panel="yes")


def test_swap_is_a_double_arrow(table: Callable[..., Table]) -> None:
    t = table()
    t.deal("1 P 5 2", "1 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0", "1:start@1", "discard 6", "discard 9", "discard 5", "3:t16")
    t.play("discard 6", "discard 9", "P:t0~t19")
    svg = t.state.svg()
    assert 'marker-start="url(#arrow)"' in svg
    assert "green pawn on t19" in svg and "red pawn on t0" in svg


def test_a_seven_in_progress_shows_the_steps_left(table: Callable[..., Table]) -> None:
    t = table()
    t.deal("1 7 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("2", "2", "2", "2")
    t.play("1:start@0", "discard 3", "discard 6", "discard 9", "7:t0+3")
    svg = t.state.svg()
    assert "7: 4 steps left (green)" in svg and "green pawn on t3" in svg


def test_observations_do_not_leak_hidden_cards(table: Callable[..., Table]) -> None:
    # Two deals that differ only in player 1's hidden cards look the same to player 0.
    first, second = table(), table()
    first.deal("1 -4 5 2", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    second.deal("1 -4 5 2", "8 8 8 12", "6 6 6 2", "9 9 9 2")
    assert first.state.observation(0).svg() == second.state.observation(0).svg()
    assert first.state.svg() != second.state.svg()
    # Resampled worlds draw the observer's picture byte for byte the same.
    state = _random_state(4, 9, 120)
    for seed in range(3):
        world = state.game.resample(state.observation(1), random.Random(seed))
        assert world.observation(1).svg() == state.observation(1).svg()
    # A spectator sees no card in anybody's hand.
    spectator = first.state.observation(None).svg()
    assert "card 3" not in spectator and "card 1" not in spectator


def test_a_picture_renders_to_png() -> None:
    cairosvg = pytest.importorskip("cairosvg")
    png = cairosvg.svg2png(bytestring=_random_state(6, 4, 200).svg().encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000

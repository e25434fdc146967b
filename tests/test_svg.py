"""The pictures' shared machinery (``tikigames.core.svg``) and the picture API of states and
observations; each game's own drawing is tested in its folder (``test_svg.py``)."""

from __future__ import annotations

import random
from xml.etree import ElementTree

import pytest

import tikigames
from tikigames.core.svg import SEAT_COLOURS, SEAT_LETTERS, PictureOptions, Svg, text_picture

SVG = "{http://www.w3.org/2000/svg}"


def test_svg_escapes_text_and_titles_and_is_deterministic() -> None:
    def draw() -> str:
        picture = Svg(100.0, 50.0)
        picture.rect(1, 2, 30.333333, 4, fill="#FFFFFF", stroke="#000000", title='<a & "b">')
        picture.circle(10, 10, 3.5, fill="#E69F00")
        picture.polygon([(0, 0), (1.005, 2), (3, 0)], fill="#0072B2")
        picture.line(0, 0, 10, 10, arrow=True)
        picture.text(5, 5, "x < y & z", size=9)
        return picture.render(size=200)

    svg = draw()
    assert svg == draw()
    root = ElementTree.fromstring(svg)
    assert root.get("viewBox") == "0 0 100 50" and root.get("width") == "200"
    assert root.get("height") == "100"
    assert root.find(f"{SVG}rect/{SVG}title").text == '<a & "b">'  # type: ignore[union-attr]
    assert root.find(f"{SVG}text").text == "x < y & z"  # type: ignore[union-attr]
    assert 'width="30.33"' in svg and "1,2" in svg  # rounded, no trailing zeros


def test_picture_options_are_checked() -> None:
    with pytest.raises(ValueError):
        PictureOptions(size=5)
    for wrong in ({"size": "big"}, {"coordinates": 1}, {"flipped": "me"}, {"highlight": 3}):
        with pytest.raises(TypeError):
            PictureOptions(**wrong)
    with pytest.raises(ValueError, match="unknown picture option 'glow'"):
        PictureOptions(extra={"glow": True}).check_extra(["overlay"])
    assert len(SEAT_COLOURS) == len(SEAT_LETTERS) == 6 and len(set(SEAT_COLOURS)) == 6


def test_text_picture_frames_every_line() -> None:
    svg = text_picture("one\ntwo & three", PictureOptions(size=100), title="T")
    root = ElementTree.fromstring(svg)
    texts = [node.text for node in root.iter(f"{SVG}text")]
    assert texts == ["T", "one", "two & three"]


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_states_and_observations_draw_and_show_in_jupyter(name: str) -> None:
    state = tikigames.load(name).new_initial_state()
    rng = random.Random(2)
    for _ in range(25):
        state.apply_unchecked(state.random_action(rng))
    for picture in (state.svg(), state._repr_svg_(), state.observation(0).svg(size=200)):
        root = ElementTree.fromstring(picture)
        assert root.tag == f"{SVG}svg" and len(root.get("viewBox", "").split()) == 4
    assert state.svg(highlight=None) == state.svg(highlight=None)
    assert state.svg(size=300) != state.svg(size=600)
    assert state.observation(1)._repr_svg_() == state.observation(1).svg()
    with pytest.raises(ValueError):
        state.svg(size=3)
    with pytest.raises(ValueError):
        state.svg(no_such_option=True)

"""Paikō's pictures (``tikigames.paiko.svg``): valid, deterministic SVG of real positions, the
options (size, coordinates, flipped, highlight, overlay, destinations), and observations that
draw the same board as the state."""

from __future__ import annotations

import random
import re
from typing import Any
from xml.etree import ElementTree

import pytest

import tikigames
from tikigames.paiko.data import HOME, SQUARE_NAMES
from tikigames.paiko.state import PaikoState

from .test_rules import CASCADE, LANES, SAI_SETUP, WIN, draft, play

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ElementTree.Element:
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg" and len(root.get("viewBox", "").split()) == 4
    return root


def titles(svg: str) -> list[str]:
    return [node.text or "" for node in parse(svg).iter(f"{SVG}title")]


def texts(svg: str) -> list[str]:
    return [node.text or "" for node in parse(svg).iter(f"{SVG}text")]


def shape_with_title(svg: str, title: str) -> ElementTree.Element:
    for node in parse(svg).iter():
        found = node.find(f"{SVG}title")
        if found is not None and found.text == title:
            return node
    raise AssertionError(f"no shape titled {title!r}")


def centre(node: ElementTree.Element) -> tuple[float, float]:
    if node.tag == f"{SVG}circle":
        return float(node.get("cx", "")), float(node.get("cy", ""))
    x, y = float(node.get("x", "")), float(node.get("y", ""))
    return x + float(node.get("width", "")) / 2, y + float(node.get("height", "")) / 2


def squares_titled(svg: str, pattern: str) -> set[str]:
    """The squares named by the titles matching ``{square}: <pattern>``."""
    found = set()
    for title in titles(svg):
        match = re.fullmatch(r"([a-n]\d+): " + pattern, title)
        if match:
            found.add(match.group(1))
    return found


def random_states(seed: int, every: int = 15) -> list[PaikoState]:
    state = tikigames.load("paiko").new_initial_state()
    assert isinstance(state, PaikoState)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_unchecked(state.random_action(rng))
        if len(state.history()) % every == 0:
            states.append(state.clone())
    states.append(state)
    return states


# ---------------------------------------------------------------- valid and deterministic


@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_draw_with_every_option(seed: int) -> None:
    rng = random.Random(seed)
    for state in random_states(seed):
        for overlay in (None, 0, 1):
            own = state.board()
            square = rng.choice(own)[0] if own else "e5"
            extra = {"overlay": overlay, "destinations": square}
            options: dict[str, Any] = {k: v for k, v in extra.items() if v is not None}
            flipped = rng.choice([None, 0, 1])
            coordinates = rng.random() < 0.5
            picture = state.svg(flipped=flipped, coordinates=coordinates, **options)
            parse(picture)
            assert picture == state.clone().svg(flipped=flipped, coordinates=coordinates, **options)
            for player in (None, 0, 1):
                seen = state.observation(player).svg(**options)
                parse(seen)
                assert seen == state.observation(player).svg(**options)


def test_pictures_are_byte_identical_for_equal_inputs() -> None:
    state = play([*CASCADE, "earth@h7:N"])
    assert state.svg() == play([*CASCADE, "earth@h7:N"]).svg() == state.clone().svg()
    assert state.svg(overlay=1) == state.clone().svg(overlay=1)
    obs = state.observation(1)
    assert obs.svg() == state.clone().observation(1).svg()
    # Drawn from the observation alone: its JSON round trip draws the same picture.
    assert state.game.observation_from_json(obs.to_json()).svg() == obs.svg()


def test_a_resampled_world_draws_the_same_observation() -> None:
    state = play([*CASCADE, "earth@h7:N", "give lotus"])
    for player in (None, 0, 1):
        obs = state.observation(player)
        world = state.game.resample(obs, random.Random(3))
        assert world.observation(player).svg() == obs.svg()
        assert world.observation(player).svg(overlay=0) == obs.svg(overlay=0)


def test_a_spectator_sees_the_whole_board() -> None:
    # Paikō hides nothing: the spectator's picture is the state's, but for who is watching.
    state = play([*CASCADE, "earth@h7:N"])
    spectator = state.observation(None).svg(overlay=0)
    assert "seen by a spectator; " in spectator
    assert spectator.replace("seen by a spectator; ", "") == state.svg(overlay=0)


def test_cairosvg_renders_a_picture() -> None:
    cairosvg = pytest.importorskip("cairosvg")
    png = cairosvg.svg2png(bytestring=play(CASCADE).svg(size=400, overlay=0).encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


# ---------------------------------------------------------------- what is drawn


def test_tiles_squares_quarters_hands_and_status() -> None:
    state = play(LANES)
    picture = state.svg()
    found = titles(picture)
    assert len([t for t in found if re.fullmatch(r"[a-n]\d+: .*", t)]) == 112
    assert "g7: a black square (only a Lotus may stand here)" in found
    assert "d4: White's homeground" in found and "k11: Black's homeground" in found
    assert "d11: a middleground" in found and "k4: a middleground" in found
    assert {"White Fire on g4, facing S", "White Sword on g6", "Black Bow on h9, facing S"} <= set(
        found
    )
    assert "White's hand: 2 Sai" in found and "Black's reserve: 1 Bow" in found
    words = texts(picture)
    assert "Paikō — Turn 5: White to act" in words
    assert "White: 0 points, 0 lost" in words and "Black: 0 points, 0 lost" in words
    draft_picture = play(draft()[:3]).svg()
    assert "Paikō — Draft, tile 4 of 17: White drafts" in texts(draft_picture)


def test_phases_and_the_end() -> None:
    follow_up = play([*SAI_SETUP, "sai@i7:E"]).svg()
    assert "Paikō — Turn 5, follow-up: White's Sai on i7 may shift, turn or stay" in texts(
        follow_up
    )
    picks = play([*CASCADE, "earth@h7:N"]).svg()
    assert "Paikō — Turn 15, picks: Black picks 2 tiles of White's reserve for White" in texts(
        picks
    )
    over = play([*WIN, "sword@f8:N", "give fire"]).svg()
    assert "Paikō — Game over after 23 turns: White wins" in texts(over)
    assert "White: 10 points, 0 lost — wins" in texts(over)


def test_size_changes_width_and_height() -> None:
    state = play(LANES)
    small, large = parse(state.svg(size=300)), parse(state.svg(size=900))
    assert small.get("viewBox") == large.get("viewBox")
    assert float(large.get("width", "")) == 900 > float(small.get("width", "")) == 300
    assert float(large.get("height", "")) == 3 * float(small.get("height", ""))


def test_coordinates_off_removes_the_square_names() -> None:
    state = play(LANES)
    labels = {"a", "g", "h", "n", "1", "7", "8", "14"}
    assert labels <= set(texts(state.svg()))
    assert not {"a", "g", "h", "n", "10", "14"} & set(texts(state.svg(coordinates=False)))


def test_flipped_turns_the_board_and_an_observation_takes_its_players_side() -> None:
    state = play(LANES)
    title = "White Sword on g6"
    x0, y0 = centre(shape_with_title(state.svg(), title))
    x1, y1 = centre(shape_with_title(state.svg(flipped=1), title))
    assert (x0, y0) != (x1, y1)
    # Half a turn round the board's centre.
    g7 = "g7: a black square (only a Lotus may stand here)"
    middle = centre(shape_with_title(state.svg(), g7))
    flipped_g7 = centre(shape_with_title(state.svg(flipped=1), g7))
    assert middle[0] + flipped_g7[0] == pytest.approx(x0 + x1)
    assert middle[1] + flipped_g7[1] == pytest.approx(y0 + y1)
    assert x1 > x0 and y1 < y0  # g6, left of and below the centre, goes right and up
    assert centre(shape_with_title(state.observation(1).svg(), title)) == (x1, y1)
    assert centre(shape_with_title(state.observation(0).svg(), title)) == (x0, y0)
    assert centre(shape_with_title(state.observation(1).svg(flipped=0), title)) == (x0, y0)
    with pytest.raises(ValueError, match="flipped"):
        state.svg(flipped=2)


def outlines(svg: str) -> list[tuple[float, float]]:
    """The centres of the highlight's outlines (black rects of the outline's width)."""
    return [
        centre(node)
        for node in parse(svg).iter(f"{SVG}rect")
        if node.get("stroke-width") == "2.5" and node.get("stroke") == "#000000"
    ]


def cell(svg: str, square: str) -> tuple[float, float]:
    for title in titles(svg):
        if title.startswith(f"{square}: "):
            return centre(shape_with_title(svg, title))
    raise AssertionError(square)


def arrows(svg: str) -> list[ElementTree.Element]:
    return [node for node in parse(svg).iter(f"{SVG}line") if node.get("marker-end")]


def test_highlight_outlines_a_deploy_and_arrows_a_shift() -> None:
    state = play([*LANES, "earth@g5:N"])
    picture = state.svg()
    assert outlines(picture) == [cell(picture, "g5")] and not arrows(picture)
    assert "highlighted: earth@g5:N" in texts(picture)
    assert not outlines(state.svg(highlight=None)) and "highlighted" not in state.svg(
        highlight=None
    )
    shifted = play([*LANES, "g6-h5:N"])
    picture = shifted.svg()
    (arrow,) = arrows(picture)
    assert (float(arrow.get("x1", "")), float(arrow.get("y1", ""))) == cell(picture, "g6")
    assert outlines(picture) == [cell(picture, "g6")]  # the square it left, dashed
    # Any action's text may be highlighted, in the history or not.
    preview = shifted.svg(highlight="fire@a7:S")
    assert outlines(preview) == [cell(preview, "a7")]
    with pytest.raises(ValueError):
        shifted.svg(highlight="no such move")


def test_highlight_marks_a_capture_and_a_pick_shows_the_capture_it_pays_for() -> None:
    captured = {"captured: Black Water on j7", "captured: Black Sword on j6"}
    after = play([*CASCADE, "earth@h7:N"])
    assert captured <= set(titles(after.svg()))
    assert "captured: 2 tiles (crossed out)" in texts(after.svg())
    assert not any(t.startswith("captured") for t in titles(after.svg(highlight=None)))
    picked = play([*CASCADE, "earth@h7:N", "give lotus"])
    picture = picked.svg()
    assert captured <= set(titles(picture)) and outlines(picture) == [cell(picture, "h7")]
    assert "highlighted: give lotus" in texts(picture)
    # An observation finds the same captures (it replays its history).
    for player in (None, 0, 1):
        assert captured <= set(titles(picked.observation(player).svg()))
    # A Sai's captures wait for its follow-up: "stay" outlines the deploy and marks the capture.
    stayed = play([*SAI_SETUP, "sai@i7:E", "stay"]).svg()
    assert "captured: Black Fire on j7, facing S" in titles(stayed)
    assert outlines(stayed) == [cell(stayed, "i7")]


def test_overlay_draws_threat_counts_and_cover() -> None:
    state = play(CASCADE)
    picture = state.svg(overlay=0)
    assert "overlay: White's threat and cover" in " ".join(texts(picture))
    counts = {}
    for title in titles(picture):
        match = re.fullmatch(r"([a-n]\d+): threatened by (\d+) of White's tiles?", title)
        if match:
            counts[match.group(1)] = int(match.group(2))
    # Black has no Fire here: White's threat is the threat against Black.
    expected = {s: state.threat(1, s) for s in SQUARE_NAMES if state.threat(1, s)}
    assert counts == expected and counts["j6"] == 2 and counts["j7"] == 1
    covered = squares_titled(state.svg(overlay=1), "covered by Black")
    away = {s for i, s in enumerate(SQUARE_NAMES) if not HOME[1][i]}
    assert covered & away == {s for s in away if state.cover(1, s)} == {"j6", "i7", "k7"}
    assert not squares_titled(picture, "covered by White")  # no White tile covers
    for bad in (2, -1, "0", True, 0.0):
        with pytest.raises(ValueError, match="overlay"):
            state.svg(overlay=bad)


def test_destinations_mark_where_a_tile_may_go() -> None:
    state = play(LANES)
    picture = state.svg(destinations="G6")
    shifts = {a.text for a in state.legal_actions() if a.text.startswith("g6-")}
    assert squares_titled(picture, "a shift may end here") == {t[3:5] for t in shifts}
    fire = state.svg(destinations="g4")
    turns = {t.rsplit("face ", 1)[1] for t in titles(fire) if "may turn to face" in t}
    assert turns == {"N", "E", "W"}
    water = play([*draft(), "water@g5:N", "bow@h9:S", "draw fire", "bow@h10:S"])
    rings = squares_titled(water.svg(destinations="g5"), "the Water may redeploy here")
    assert {"h4", "f6", "a7"} <= rings and "h6" not in rings
    # The tile of the player not to act, an empty square: nothing to mark.
    assert "shift may end" not in state.svg(destinations="h9")
    assert "shift may end" not in state.svg(destinations="a7")
    # An observation marks its player's own moves when it is their turn.
    assert squares_titled(state.observation(0).svg(destinations="g6"), "a shift may end here")
    assert "shift may end" not in state.observation(1).svg(destinations="g6")
    for bad in ("z9", "", 5):
        with pytest.raises(ValueError, match="destinations"):
            state.svg(destinations=bad)


def test_unknown_picture_options_raise() -> None:
    state = play(LANES)
    with pytest.raises(ValueError, match="unknown picture option 'glow'"):
        state.svg(glow=True)
    with pytest.raises(ValueError, match="unknown picture option"):
        state.observation(0).svg(overlays=0)


@pytest.mark.parametrize("seed", [3, 4])
def test_an_observation_marks_what_the_state_marks(seed: int) -> None:
    # An observation replays its history only when the highlighted action may have captured;
    # along a whole game it draws the same captures and outlines as the state.
    for state in random_states(seed, every=1):
        texts_ = [action.text for action in state.history()]
        for highlight in sorted(set(texts_[-3:])):
            spectator = state.observation(None).svg(highlight=highlight)
            assert spectator.replace("seen by a spectator; ", "") == state.svg(highlight=highlight)

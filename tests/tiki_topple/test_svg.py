"""Tiki Topple's pictures: valid, deterministic SVG; the options; the cards each seat played,
as the state and the observation tell them; and no secret in a picture its viewer cannot know."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree

import pytest

import tikigames
from tikigames.tiki_topple.data import CARD_NAMES, TIKIS, full_hand
from tikigames.tiki_topple.state import TikiToppleState

SVG = "{http://www.w3.org/2000/svg}"
RULEBOOK = [
    "line lokahi,akamai,nui,hookipa,kapu,eepo,nani,wikiwiki,huhu",
    *(f"secret {card}" for card in (18, 3, 10, 14)),
    "up2 hookipa", "topple huhu", "topple huhu", "topple huhu",
]  # fmt: skip
PANEL = re.compile(r"<title>player (\d) \([A-F]\)( \(to play\))?</title>")


def played(players: int, *texts: str, **options: Any) -> TikiToppleState:
    state: TikiToppleState = tikigames.load(
        "tiki_topple", players=players, **options
    ).new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def random_states(options: dict[str, Any], games: int, seed: int) -> Iterator[TikiToppleState]:
    """Every state of ``games`` random games."""
    game = tikigames.load("tiki_topple", **options)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        yield state
        while not state.is_terminal():
            state.apply_unchecked(state.random_action(rng))
            yield state


def texts_of(svg: str) -> list[str]:
    return [node.text or "" for node in ElementTree.fromstring(svg).iter(f"{SVG}text")]


def titles_of(svg: str) -> list[str]:
    return [node.text or "" for node in ElementTree.fromstring(svg).iter(f"{SVG}title")]


def positions(svg: str) -> list[str]:
    """The position numbers written beside the line."""
    root = ElementTree.fromstring(svg)
    return [node.text or "" for node in root.iter(f"{SVG}text") if node.get("x") == "40"]


def panels(svg: str) -> list[int]:
    """The seats' panels, top to bottom."""
    return [int(match.group(1)) for match in PANEL.finditer(svg)]


# ---------------------------------------------------------------- valid, deterministic, options


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 3}, {"players": 4, "rounds": 1}, {"players": 3, "target_score": 12}],
)
def test_every_picture_is_svg_with_a_viewbox_and_deterministic(options: dict[str, Any]) -> None:
    for index, state in enumerate(random_states(options, games=3, seed=5)):
        if index % 3:
            continue
        for picture, again in (
            (state.svg(), state.clone().svg()),
            *((state.observation(p).svg(), state.observation(p).svg()) for p in (None, 0, 1)),
        ):
            root = ElementTree.fromstring(picture)
            assert root.tag == f"{SVG}svg" and len(root.get("viewBox", "").split()) == 4
            assert picture == again


def test_size_coordinates_and_the_unknown_option() -> None:
    state = played(4, *RULEBOOK)
    small, large = state.svg(size=200), state.svg(size=900)
    for svg, size in ((small, 200), (large, 900)):
        root = ElementTree.fromstring(svg)
        assert max(float(root.get("width", 0)), float(root.get("height", 0))) == size
    assert small.split(">", 1)[1] == large.split(">", 1)[1]  # the same drawing, scaled
    assert positions(state.svg()) == [str(position) for position in range(1, 10)]
    assert positions(state.svg(coordinates=False)) == []
    with pytest.raises(ValueError, match="unknown picture option 'glow'"):
        state.svg(glow=True)
    with pytest.raises(ValueError, match="targets"):
        state.svg(targets="yes")


def test_the_targets_option_marks_the_secret_tiers_on_the_line() -> None:
    state = played(4, *RULEBOOK)
    with_targets = titles_of(state.svg())
    # Player 0 holds #18 (Hookipa / Lokahi / Nani): its badges name the tiers' rules.
    assert "player 0 (A)'s top tiki: 9 at position 1" in with_targets
    assert "player 0 (A)'s middle tiki: 5 in the top 2 (scoring now)" in with_targets
    assert not any("tiki: " in title for title in titles_of(state.svg(targets=False)))


def test_flipped_puts_that_seat_at_the_bottom() -> None:
    state = played(4, *RULEBOOK)
    assert panels(state.svg()) == [0, 1, 2, 3]
    assert panels(state.svg(flipped=1)) == [2, 3, 0, 1]
    assert panels(state.observation(2).svg()) == [3, 0, 1, 2]  # the observer's own seat
    assert panels(state.observation(None).svg()) == [0, 1, 2, 3]
    assert panels(state.observation(2).svg(flipped=0)) == [1, 2, 3, 0]
    assert "Player 2 (you)" in texts_of(state.observation(2).svg(flipped=0))
    with pytest.raises(ValueError, match="flipped"):
        state.svg(flipped=4)


def test_the_last_card_is_highlighted_with_its_tiki_and_an_arrow() -> None:
    state = played(4, *RULEBOOK[:5], "up2 hookipa")
    svg = state.svg()
    assert svg.count('stroke-width="3"') == 2  # the tiki and the card in player 0's discards
    assert svg.count('marker-end="url(#arrow)"') == 1  # the arrow, from 4 up to 2
    assert 'stroke-dasharray="4 3" marker-end' not in svg  # a played move: a solid arrow
    plain = state.svg(highlight=None)
    assert 'stroke-width="3"' not in plain and "marker-end" not in plain
    # A move not in the history is drawn as a proposal: the tiki outlined, a dashed arrow.
    proposal = state.svg(highlight="up3 kapu")
    assert proposal.count('stroke-width="3"') == 1 and 'stroke-dasharray="4 3"' in proposal
    # A card dealt: that seat's card outlined; the setup: its three groups bracketed.
    assert state.svg(highlight="secret 10").count('stroke-width="3"') == 1
    setup = played(4, RULEBOOK[0])
    assert {"group A", "group B", "group C"} <= set(texts_of(setup.svg()))


def test_a_toast_outlines_the_tiki_set_aside() -> None:
    state = played(4, *RULEBOOK, "toast")
    svg = state.svg()
    assert "Huhu (yellow, square, group A): toasted, out of the round" in titles_of(svg)
    assert svg.count('stroke-width="3"') == 2 and "marker-end" in svg


# ---------------------------------------------------------------- the discards, told


def test_the_discards_are_the_full_hand_minus_the_cards_left() -> None:
    """At every step of random games (tiebreaks included), the cards the observation tells each
    seat played this round (what the picture draws) are those missing from its hand, and the
    state tells the same round, its secret cards face up."""
    checked_tiebreak = False
    for options in ({"players": 4, "rounds": 1}, {"players": 3}, {}):
        for state in random_states(options, games=25, seed=3):
            obs = state.observation(None)
            told = obs.round_so_far
            whole = state.round_so_far()
            assert told._replace(deals=()) == whole._replace(deals=())
            assert [seat for seat, _ in told.deals] == [seat for seat, _ in whole.deals]
            assert all(text == "secret ?" for _, text in told.deals)
            if told.number == 0:
                continue
            if not told.finished:
                assert told.seats == obs.seats
            checked_tiebreak |= len(told.seats) < obs.game.num_players
            hand = full_hand(len(told.seats))
            for seat in range(obs.game.num_players):
                kinds = Counter(play.kind for play in told.plays if play.seat == seat)
                left = Counter(CARD_NAMES.index(name) for name in obs.hands[seat])
                expected = [hand[kind] for kind in range(5)] if seat in told.seats else [0] * 5
                assert [kinds[kind] + left[kind] for kind in range(5)] == expected
            if told.plays and told.plays[-1].text != "toast":
                last = told.plays[-1]
                assert obs.line.index(TIKIS[last.tiki]) == last.after
    assert checked_tiebreak


def test_the_round_told_is_neither_compared_nor_written() -> None:
    """Between rounds, the observation's ``round_starter`` (kept for ``round_so_far``) is the
    finished round's starter, not the next one's; it follows from the history, so ``==``
    ignores it and the JSON leaves it out."""
    game = tikigames.load("tiki_topple", players=3)
    state = next(
        s for s in random_states({"players": 3}, games=1, seed=8)
        if s.round_so_far().finished and not s.is_terminal()
    )  # fmt: skip
    obs = state.observation(0)
    assert obs.round_starter == state.round_starter() == obs.round_so_far.plays[0].seat
    assert state.round_starter() != state.starter()
    assert "round_starter" not in obs.to_json()
    assert obs == game.observation_from_json(obs.to_json())
    assert obs == dataclasses.replace(obs, round_starter=-1)


# ---------------------------------------------------------------- nothing leaks


def test_the_state_shows_every_card_an_observation_only_its_own() -> None:
    state = played(4, *RULEBOOK)
    whole = titles_of(state.svg())
    for seat, card in enumerate((18, 3, 10, 14)):
        assert any(title.startswith(f"player {seat} (") and f"card #{card}:" in title
                   for title in whole)  # fmt: skip
    seen = titles_of(state.observation(1).svg())
    assert any("secret card #3:" in title for title in seen)
    assert sum("secret card: hidden" in title for title in seen) == 3
    assert not any(f"card #{card}:" in title for title in seen for card in (18, 10, 14))
    spectator = state.observation(None).svg()
    assert "secret card #" not in spectator and spectator.count("secret card: hidden") == 4


def test_worlds_a_player_cannot_tell_apart_draw_the_same_picture() -> None:
    for other in (0, 2, 5, 26):
        if other == 3:
            continue
        one = played(2, RULEBOOK[0], "secret 3", f"secret {other}", "up1 nui")
        two = played(2, RULEBOOK[0], "secret 3", f"secret {(other + 7) % 27}", "up1 nui")
        assert one.observation(0).svg() == two.observation(0).svg()
        assert one.observation(None).svg() == two.observation(None).svg()
        assert one.svg() != two.svg()
        assert "player 1 (B)'s top tiki" in one.svg()  # the whole position marks its tiers
        assert "player 1 (B)'s top tiki" not in one.observation(0).svg()
    # Resampled worlds draw the observer's picture byte for byte the same.
    rng = random.Random(9)
    for state in random_states({"players": 3}, games=2, seed=8):
        if rng.random() < 0.2:
            for p in (None, 0, 1, 2):
                obs = state.observation(p)
                world = state.game.resample(obs, rng)
                assert world.observation(p).svg() == obs.svg()


def test_a_finished_round_reveals_every_card_to_everyone() -> None:
    state = played(4, *RULEBOOK, *["toast"] * 6)
    assert state.is_chance_node()  # the next round's line is up
    spectator = state.observation(None).svg()
    texts = texts_of(spectator)
    assert all(f"#{card}" in texts for card in (18, 3, 10, 14))
    assert {"+5 this round", "+7 this round", "+11 this round", "+2 this round"} <= set(texts)
    assert "Round 1 of 4 is over: the cards are shown and scored" in texts
    # The final line is Lokahi, Hookipa, Akamai; #3's middle tiki Hookipa scores (5 + 2 = 7).
    assert "middle tiki Hookipa: 5 in the top 2 (scoring now)" in titles_of(spectator)


# ---------------------------------------------------------------- it renders


def test_a_picture_rasterises() -> None:
    cairosvg = pytest.importorskip("cairosvg")
    png = cairosvg.svg2png(bytestring=played(4, *RULEBOOK).observation(1).svg().encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000

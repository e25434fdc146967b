"""TacTiki's pictures (``tikigames.tactiki.svg``): valid, deterministic SVG; the options; what
each picture shows (ranks, blocked pieces, locks, statue counts, pools, the highlighted move and
its battle); and that an observation's picture shows nothing its player does not know."""

from __future__ import annotations

import random
import re
from typing import Any
from xml.etree import ElementTree

import pytest

import tikigames
from tikigames.tactiki.data import PLAYER_NAMES

from .conftest import reincarnation_game
from .test_rules import DUEL, LOCK, LOCK_SCRIPT, RULEBOOK, RULEBOOK_SCRIPT, march

SVG = "{http://www.w3.org/2000/svg}"
TIKI, TAC = 0, 1


def parse(svg: str) -> ElementTree.Element:
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg" and len(root.get("viewBox", "").split()) == 4
    return root


def titles(svg: str) -> list[str]:
    return [node.text or "" for node in parse(svg).iter(f"{SVG}title")]


def tile_titles(svg: str) -> list[str]:
    """The hover texts of the tiles on the board, e.g. ``TIKI 4 on c3 (rank known to both)``."""
    return [t for t in titles(svg) if re.match(r"(TIKI|TAC) [1-5?] on [a-e][1-5] ", t)]


def labels(svg: str) -> list[str]:
    """The coordinates drawn around the board (files, then ranks, as they appear)."""
    root = parse(svg)
    return [
        node.text or ""
        for node in root.iter(f"{SVG}text")
        if node.get("font-size") == "12" and node.get("fill") == "#444444"
    ]


def random_states(seed: int, count: int) -> list[Any]:
    game = tikigames.load("tactiki")
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 300)):
            if state.is_terminal():
                break
            state.apply_unchecked(state.random_action(rng))
        states.append(state)
    return states


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"size": 200},
    {"coordinates": False},
    {"flipped": 1},
    {"flipped": 0},
    {"highlight": None},
    {"legend": False},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_picture_is_svg_and_deterministic(options: dict[str, Any]) -> None:
    for state in random_states(3, 12):
        picture = state.svg(**options)
        parse(picture)
        assert picture == state.clone().svg(**options)
        for player in (0, 1, None):
            seen = state.observation(player).svg(**options)
            parse(seen)
            assert seen == state.observation(player).svg(**options)


def test_size_changes_width_and_height_not_the_drawing() -> None:
    state = reincarnation_game()
    small, large = parse(state.svg(size=240)), parse(state.svg(size=960))
    assert small.get("viewBox") == large.get("viewBox")
    assert float(large.get("height", 0)) == 960 and float(small.get("height", 0)) == 240
    assert float(large.get("width", 0)) == pytest.approx(4 * float(small.get("width", 0)), abs=0.05)


def test_coordinates_are_drawn_unless_turned_off() -> None:
    state = reincarnation_game()
    assert labels(state.svg()) == [x for f, r in zip("abcde", "54321", strict=True) for x in (f, r)]
    assert labels(state.svg(coordinates=False)) == []
    assert labels(state.observation(0).svg(coordinates=False)) == []


def test_flipped_draws_the_other_start_row_at_the_bottom() -> None:
    state = reincarnation_game()

    def a1(svg: str) -> tuple[float, float]:
        for node in parse(svg).iter(f"{SVG}rect"):
            title = node.find(f"{SVG}title")
            if title is not None and title.text == "a1: TIKI's start field":
                return float(node.get("x", 0)), float(node.get("y", 0))
        raise AssertionError("no a1")

    (x0, y0), (x1, y1) = a1(state.svg()), a1(state.svg(flipped=1))
    assert y0 > y1 and x0 < x1  # bottom left from TIKI's side, top right from TAC's
    assert labels(state.svg(flipped=1)) == [
        x for f, r in zip("edcba", "12345", strict=True) for x in (f, r)
    ]
    # An observation is drawn from its player's side by default; a spectator's from TIKI's.
    obs = state.observation(TAC)
    assert obs.svg() == obs.svg(flipped=1) != obs.svg(flipped=0)
    spectator = state.observation(None)
    assert spectator.svg() == spectator.svg(flipped=0)
    with pytest.raises(ValueError, match="flipped"):
        state.svg(flipped=2)


def test_extra_options() -> None:
    state = reincarnation_game()
    assert "dot: rank known to both" in state.svg()
    assert "dot: rank known to both" not in state.svg(legend=False)
    assert len(state.svg(legend=False)) < len(state.svg())
    with pytest.raises(ValueError, match="unknown picture option 'glow'"):
        state.svg(glow=True)
    with pytest.raises(ValueError, match="legend"):
        state.observation(0).svg(legend="yes")


def rulebook(start: Any, play: Any) -> Any:
    """The rulebook's column attack: TIKI's 4 on c3 attacks TAC's column 5, 1, 3 on c4."""
    return play(start(RULEBOOK), RULEBOOK_SCRIPT + " | c3-c4")


def highlights(svg: str) -> list[ElementTree.Element]:
    return [node for node in parse(svg).iter() if node.get("class") == "highlight"]


def test_the_last_move_is_an_arrow_and_a_battles_column_is_outlined(start: Any, play: Any) -> None:
    state = rulebook(start, play)
    svg = state.svg()
    arrow, outline = sorted(highlights(svg), key=lambda node: node.tag)
    assert outline.tag == f"{SVG}rect" and arrow.tag == f"{SVG}g"
    # c4 from TIKI's side: the third file, the second row of squares from the top.
    assert (float(outline.get("x", 0)), float(outline.get("y", 0))) == (
        22 + 160 + 2.5,
        52 + 80 + 2.5,
    )
    assert "Battle on c4: TIKI's 4 attacked TAC's column: beat 3, beat 1, lost to 5" in svg
    assert svg == state.svg(highlight="c3-c4") == state.svg(highlight=" C3 - C4 ")
    # TAC's view shows the same battle (the reveals are public).
    assert "beat 3, beat 1, lost to 5" in state.observation(TAC).svg()
    # A move without a battle: an arrow only.
    play(state, "a2-a3")
    only = highlights(state.svg())
    assert [node.tag for node in only] == [f"{SVG}g"]
    assert "Last action: a2-a3" in state.svg()
    # An older battle, highlighted by its text, is still told (its mover: state.mover(index)).
    play(state, "a4-b4 b4-b3")
    older = state.svg(highlight="c3-c4")
    assert "TIKI's 4 attacked TAC's column: beat 3, beat 1, lost to 5" in older
    assert len(highlights(older)) == 2
    # No highlight, a pass, a placement, bad text.
    assert highlights(state.svg(highlight=None)) == []
    assert highlights(state.svg(highlight="pass")) == []
    placed = highlights(state.observation(TAC).svg(highlight="?@b1"))
    assert [node.tag for node in placed] == [f"{SVG}rect"]
    for bad in ("b1-b3", "a1-b2", "e1-a2", "6@a1", "x", "c3-c4-c5"):
        with pytest.raises(ValueError, match="highlight"):
            state.svg(highlight=bad)


def test_every_battle_names_its_attacker() -> None:
    # Highlight each battle of random games, last or older, in the whole position and in every
    # view: the note names the player who made the move (here read off a replay of the history).
    for state in random_states(8, 6):
        history = state.history()
        views = [state] + [state.observation(viewer) for viewer in (0, 1, None)]
        for index, ranks in state.battles():
            replay = state.game.new_initial_state()
            for action in history[:index]:
                replay.apply_action(action)
            mover = PLAYER_NAMES[replay.current_player()]
            text = str(history[index])
            note = f"{mover}'s {ranks[0]} attacked"
            for view in views:
                assert note in view.svg(highlight=text) or _later(history, index, text)
            replay.apply_action(history[index])
            assert note in replay.svg() and note in replay.observation(None).svg()


def _later(history: list[Any], index: int, text: str) -> bool:
    """Whether the same move was made again later (the highlight names the last one)."""
    return any(str(action) == text for action in history[index + 1 :])


def test_the_state_shows_every_rank_and_the_observation_only_what_is_known(
    start: Any, play: Any
) -> None:
    state = rulebook(start, play)
    everything = tile_titles(state.svg())
    assert len(everything) == 17 and not any(" ? on " in t for t in everything)
    assert "TAC 5 on c4 (rank known to both)" in everything
    assert "TIKI 3 on b1 (rank secret from TAC)" in everything
    tac = tile_titles(state.observation(TAC).svg())
    assert "TAC 5 on c4 (rank known to both)" in tac
    assert "TIKI ? on b1 (rank unknown to you)" in tac and "TIKI 3 on b1" not in " ".join(tac)
    assert "TAC 2 on a4 (rank secret from TIKI)" in tac
    spectator = tile_titles(state.observation(None).svg())
    assert all("(rank unknown to you)" in t or "(rank known to both)" in t for t in spectator)


def test_blocked_pieces_locks_and_statue_counts(start: Any, play: Any) -> None:
    tie = play(duel_start(start, 3, 3), DUEL)
    assert "TAC 3 on b4 (rank known to both; blocked)" in tile_titles(tie.svg())
    assert 'stroke-dasharray="3 2"' in tie.svg()
    locked = play(start(LOCK), LOCK_SCRIPT)
    svg = locked.svg()
    assert "locked: on TIKI's start field, this column never moves again" in titles(svg)
    assert "TAC's pieces here: 1 of the 5 a statue needs" in titles(svg)
    # TIKI marches five pieces onto d5 (a tie left TAC's 3 under them).
    for strict in (False, True):
        game = start({"d1": (2, 3), "d5": (2, 3)}, strict_statue=strict)
        svg = play(game, march()).svg()
        never = " (never a statue here: not all theirs)" if strict else ""
        assert f"TIKI's pieces here: 5 of the 5 a statue needs{never}" in titles(svg)
        assert ("TIKI wins with a statue" in svg) is not strict


def duel_start(start: Any, attacker: int, defender: int) -> Any:
    other = next(r for r in range(1, 6) if r not in (attacker, defender))
    return start({"b1": (other, attacker), "b5": (other, defender)})


def test_pools_exact_for_their_owner_and_candidates_after_a_reincarnation() -> None:
    state = reincarnation_game(first=3, second=5)  # TAC's pool: one of 3, 3, 5 left
    assert state.defeated(TAC) == [3]
    mine = state.observation(TAC).svg()
    theirs = state.observation(TIKI).svg()
    assert "TAC: defeated 3" in titles(mine) and "among" not in mine
    assert "TAC: a defeated piece, rank unknown to you" in titles(theirs)
    assert "among 3 3 5" in theirs and "TAC: defeated" not in " ".join(titles(theirs))
    assert "TAC: defeated 3" in titles(state.svg())


def test_indistinguishable_states_draw_the_same_observation() -> None:
    # Two setups that differ only in TIKI's hidden ranks: TAC and the spectator see the same.
    game = tikigames.load("tactiki")
    pictures = []
    for order in ("1 2 3 4 5 1 2 3 4 5", "5 4 3 2 1 5 4 3 2 1"):
        state = game.new_initial_state()
        squares = ["a1", "a1", "b1", "b1", "c1", "c1", "d1", "d1", "e1", "e1"]
        for rank, square in zip(order.split(), squares, strict=True):
            state.apply_action(state.parse_action(f"{rank}@{square}"))
        for text in ("3@a5", "4@a5"):
            state.apply_action(state.parse_action(text))
        pictures.append((state.observation(TAC).svg(), state.observation(None).svg(), state))
    assert pictures[0][0] == pictures[1][0] and pictures[0][1] == pictures[1][1]
    assert pictures[0][2].svg() != pictures[1][2].svg()
    spectator = pictures[0][1]
    assert not any(re.search(r"TIKI [1-5] on", t) for t in titles(spectator))
    assert not any(re.search(r"TAC [1-5] on", t) for t in titles(spectator))
    # Resampled worlds draw the observer's picture byte for byte the same.
    for state in random_states(5, 8):
        for player in (0, 1, None):
            obs = state.observation(player)
            world = game.resample(obs, random.Random(1))
            assert world.observation(player).svg() == obs.svg()


def test_a_picture_renders_to_png() -> None:
    cairosvg = pytest.importorskip("cairosvg")
    state = reincarnation_game()
    png = cairosvg.svg2png(bytestring=state.observation(TIKI).svg(size=300).encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000

"""Paikō's observation tensor (:mod:`tikigames.paiko.encoding`): its shape per option set, the
exact values of hand-made positions (reached through actions by notation), Black's view as the
board turned half a turn, agreement with the rules engine's own threat/cover/support maps, and
over random games: finite floats, no dependence on anything but the observation, and distinct
tensors wherever the legal actions differ."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import tikigames
from tikigames.core.action import Action
from tikigames.core.constants import TERMINAL
from tikigames.paiko import PaikoState
from tikigames.paiko.data import (
    BLACK,
    COORDS,
    FACINGS,
    HOME,
    NUM_SQUARES,
    SQUARE_NAMES,
    TILE_INDEX,
    TILES,
    PaikoRules,
)
from tikigames.paiko.encoding import (
    CELLS,
    PICKS_SCALE,
    SCORE_CAP,
    THREAT_LEVELS,
    TURN_SCALE,
    PaikoEncoder,
)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"max_turns": 40, "move_limit": 1, "draw_exact": True},
    {"max_turns": None, "move_limit": None},
]
SIZE = 7304  # the planes of the game's page: 37 board planes of 14 × 14, and 52 scalars


def play(texts: list[str], **options: Any) -> PaikoState:
    """A new game with ``options`` after the actions ``texts`` (each must be legal)."""
    state = tikigames.load("paiko", **options).new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    assert isinstance(state, PaikoState)
    return state


def tensor(state: PaikoState, player: int | None) -> dict[str, list[float]]:
    """``player``'s tensor of ``state``, plane by plane."""
    values = state.observation(player).tensor()
    layout = state.game.observation_tensor_layout()
    return {plane.name: layout.view(values, plane.name) for plane in layout.planes}


def cell(square: str, view: int) -> int:
    """The cell of ``square`` in a board plane of ``view`` (1: Black's, turned half a turn)."""
    x, y = ord(square[0]) - ord("a"), 14 - int(square[1:])
    return (13 - y) * 14 + (13 - x) if view == 1 else y * 14 + x


def marked(plane: list[float], view: int) -> set[str]:
    """The squares where a 14 × 14 plane is not 0."""
    return {s for s in SQUARE_NAMES if plane[cell(s, view)]}


def sub(plane: list[float], index: int, size: int = CELLS) -> list[float]:
    return plane[index * size : (index + 1) * size]


def counts(tiles: dict[str, int]) -> list[float]:
    """A hand or reserve row: the count of each type / 3."""
    return [tiles.get(name, 0) / 3 for name in TILES]


# ---------------------------------------------------------------- layout


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_shape_is_fixed_for_every_option_set(options: dict[str, Any]) -> None:
    game = tikigames.load("paiko", **options)
    layout = game.observation_tensor_layout()
    assert game.observation_tensor_shape() == (SIZE,) == layout.shape
    shapes = {plane.name: plane.shape for plane in layout.planes}
    assert shapes["tiles"] == (2, 8, 14, 14) and shapes["threat"] == (2, THREAT_LEVELS, 14, 14)
    other = PaikoEncoder(PaikoRules(1, None, True)).layout
    assert shapes == {p.name: p.shape for p in other.planes}
    assert layout is tikigames.load("paiko", **options).observation_tensor_layout()
    for state in [game.new_initial_state(), *random_states(1, 60, seed=2, **options)[-1:]]:
        for player in (0, 1, None):
            values = state.observation(player).tensor()
            assert len(values) == SIZE and set(map(type, values)) == {float}


def test_the_descriptions_name_the_scaling_of_the_options() -> None:
    limited = PaikoEncoder(PaikoRules(max_turns=40, move_limit=2, draw_exact=False)).layout
    assert "/ 40" in limited.plane("turn").description
    assert "/ 2" in limited.plane("last_moved").description
    free = PaikoEncoder(PaikoRules(max_turns=None, move_limit=None, draw_exact=False)).layout
    assert str(TURN_SCALE) in free.plane("turn").description
    assert "no move_limit" in free.plane("last_moved").description


# ---------------------------------------------------------------- hand-made positions

WHITE = ["lotus", "sai", "sword", "fire", "water", "earth", "bow"]
BLACK_9 = ["sword"] * 3 + ["bow"] * 3 + ["earth"] * 3
HAND_MADE = [f"draft {tile}" for tile in WHITE + BLACK_9 + ["air"]] + [
    "lotus@h9:N",  # covers its 3×3 block, i9 included (Black's homeground: only a Lotus)
    "sword@k10:N",
    "draw sai,sword",
    "sword@k8:N",  # with k10's, 2 threats against White on j9 and k9
    "sai@g6:E",  # threatens h6; its follow-up is pending
]


@pytest.mark.parametrize("player", [0, 1])
def test_a_hand_made_position_holds_exactly_its_tiles_and_counts(player: int) -> None:
    state = play(HAND_MADE)
    planes = tensor(state, player)
    view, white, black = player, player, 1 - player  # the seats' indices in the planes
    tiles = planes["tiles"]
    where = {
        (seat, TILES[tile]): marked(sub(tiles, seat * 8 + tile), view)
        for seat in (0, 1)
        for tile in range(8)
    }
    assert {key: squares for key, squares in where.items() if squares} == {
        (white, "lotus"): {"h9"},
        (white, "sai"): {"g6"},
        (black, "sword"): {"k10", "k8"},
    }
    assert sum(tiles) == 4.0
    # The Sai faces E: as White sees it, W as Black does (the board is turned); the Lotus and
    # the Swords have no facing.
    facing = planes["facing"]
    seen = "E" if player == 0 else "W"
    for index, name in enumerate(FACINGS):
        assert marked(sub(facing, index), view) == ({"g6"} if name == seen else set())
    assert marked(planes["pending_sai"], view) == {"g6"}
    assert planes["phase"] == [0.0, 0.0, 1.0, 0.0, 0.0]  # follow-up
    assert planes["to_act"] == ([1.0, 0.0] if player == 0 else [0.0, 1.0])
    assert planes["observer"] == ([1.0, 0.0] if player == 0 else [0.0, 1.0])
    hands, reserves = planes["hands"], planes["reserves"]
    assert sub(hands, white, 8) == counts(
        {"sai": 1, "sword": 2, "bow": 1, "air": 1, "fire": 1, "earth": 1, "water": 1}
    )
    assert sub(hands, black, 8) == counts({"sword": 1, "bow": 3, "earth": 3})
    assert sub(reserves, white, 8) == counts(
        {"sai": 1, "sword": 1, "bow": 2, "lotus": 2, "air": 2, "fire": 2, "earth": 2, "water": 2}
    )
    black_reserve = {"sai": 3, "lotus": 3, "air": 3, "fire": 3, "water": 3}
    assert sub(reserves, black, 8) == counts(black_reserve)
    assert planes["lost"] == planes["scores"] == planes["winner"] == [0.0, 0.0]
    assert planes["picks"] == planes["passes"] == [0.0]
    assert planes["turn"] == [4 / 1000]
    assert planes["options"] == [0.0, 1 / 3]


@pytest.mark.parametrize("player", [0, 1])
def test_threat_cover_and_support_of_a_hand_made_position(player: int) -> None:
    state = play(HAND_MADE)
    planes = tensor(state, player)
    view, white, black = player, player, 1 - player
    threat = planes["threat"]

    def level(seat: int, k: int) -> set[str]:
        return marked(sub(threat, seat * THREAT_LEVELS + k), view)

    # Black's two Swords threaten their neighbours (l11 is off the board): 2 threats where
    # they overlap.
    swords = {"j11", "k11", "j10", "l10", "j9", "k9", "l9"} | {
        "j9", "k9", "l9", "j8", "l8", "j7", "k7", "l7",
    }  # fmt: skip
    assert level(white, 0) == swords
    assert level(white, 1) == {"j9", "k9", "l9"}
    assert level(white, 2) == level(white, 3) == set()
    assert state.threat(0, "j9") == 2 and state.threat(0, "k9") == 2
    assert level(black, 0) == {"h6"} and level(black, 1) == set()  # the Sai, facing E
    cover = planes["cover"]
    white_home = {SQUARE_NAMES[s] for s in range(NUM_SQUARES) if HOME[0][s]}
    black_home = {SQUARE_NAMES[s] for s in range(NUM_SQUARES) if HOME[1][s]}
    lotus = {"g10", "h10", "i10", "g9", "h9", "i9", "g8", "h8", "i8"}
    sai = {"g7", "g5"}  # the Sai facing E covers the squares at its sides
    assert marked(sub(cover, white), view) == white_home | lotus | sai
    assert marked(sub(cover, black), view) == black_home
    assert "i9" not in white_home and state.cover(0, "i9") == 1  # covered by the Lotus
    assert "j9" not in marked(sub(cover, white), view) and state.cover(0, "j9") == 0
    support = planes["support"]
    assert marked(sub(support, white), view) == white_home | {"h6"}
    assert marked(sub(support, black), view) == black_home | swords


def test_the_board_plane_is_the_diamond_and_its_black_squares() -> None:
    for player in (0, 1, None):
        board = tensor(play([]), player)["board"]
        view = 1 if player == 1 else 0
        assert marked(sub(board, 0), view) == set(SQUARE_NAMES) and sum(board) == 112 + 4
        assert marked(sub(board, 1), view) == {"f9", "h8", "g7", "i6"}
    assert sum(BLACK) == 4 and len(COORDS) == 112


CASCADE = [
    *(f"draft {t}" for t in ("sword", "sword", "sword", "earth", "earth", "fire", "water")),
    *(f"draft {t}" for t in ("sword", "sword", "water", "fire", "sai", "bow", "lotus", "air")),
    "draft earth",
    "draft bow",
    *("sword@g6:N", "sword@j8:N", "sword@g4:N", "sword@j7:N", "earth@h4:N", "j7-j6:N"),
    *("draw air", "water@j7:N", "bow@j4:N", "draw air", "g4-h5:N", "draw sai", "h5-i5:N"),
    "draw sai",
    "earth@h7:N",  # captures Black's Water on j7 and, its cover gone, the Sword on j6
]


def test_pending_picks_the_victim_to_act_and_the_lost_counts() -> None:
    state = play(CASCADE)
    assert state.phase() == "picks" and state.picks() == 2 and state.current_player() == 1
    black, white = tensor(state, 1), tensor(state, 0)
    assert black["phase"] == white["phase"] == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert black["picks"] == white["picks"] == [2 / PICKS_SCALE]
    assert black["to_act"] == [1.0, 0.0] and white["to_act"] == [0.0, 1.0]
    assert black["lost"] == [2 / 24, 0.0] and white["lost"] == [0.0, 2 / 24]
    lotus = TILE_INDEX["lotus"]
    assert white["hands"][lotus] == 0.0 and white["reserves"][lotus] == 1.0
    state.apply_action(state.parse_action("give lotus"))
    white = tensor(state, 0)
    assert white["picks"] == [1 / PICKS_SCALE]
    assert white["hands"][lotus] == 1 / 3 and white["reserves"][lotus] == 2 / 3


def test_the_last_moved_tile_and_its_count() -> None:
    before = CASCADE[: CASCADE.index("h5-i5:N") + 2]  # White moved g4-h5 then h5-i5
    state = play(before)
    assert state.last_moved()[0] == ("i5", 2)
    for player in (0, 1):
        last = tensor(state, player)["last_moved"]
        own = 0 if player == 0 else 1  # White's row
        assert marked(sub(last, own), player) == {"i5"}
        assert sub(last, own)[cell("i5", player)] == 2 / 3
        assert sum(last) == 2 / 3  # Black's last move was a draw
    unlimited = play(before, move_limit=None)
    assert sum(tensor(unlimited, 0)["last_moved"]) == 0.0
    assert tensor(unlimited, 0)["options"] == [0.0, 0.0]


SCORING = [
    *(f"draft {t}" for t in ("sword", "sword", "sword", "earth", "earth", "earth", "water")),
    *(f"draft {t}" for t in ("sword", "sword", "water", "fire", "sai", "bow", "lotus", "air")),
    "draft earth",
    "draft water",
    *("sword@d7:N", "sword@h9:N", "earth@d8:N", "bow@g9:N", "earth@e8:N", "draw air"),
    *("earth@d9:N", "draw air", "water@e9:N", "draw sai", "water@d10:N", "draw sai"),
    *("draw bow,bow,water", "draw fire", "bow@c8:N", "draw fire", "bow@c9:N", "draw lotus"),
    *("water@e10:N", "draw lotus", "sword@f10:N", "draw sword"),
]


def test_scores_and_the_winner() -> None:
    state = play(SCORING)
    assert state.scores() == [9, 1]  # Black's Bow on g9 is in a middleground
    assert tensor(state, 0)["scores"] == [0.9, 0.1]
    assert tensor(state, 1)["scores"] == [0.1, 0.9]
    state.apply_action(state.parse_action("sword@f8:N"))
    state.apply_action(state.parse_action("give fire"))
    assert state.winner() == 0 and state.scores()[0] == 10
    white, black = tensor(state, 0), tensor(state, 1)
    assert white["scores"][0] == 1.0 and white["winner"] == [1.0, 0.0]
    assert black["scores"][1] == 1.0 and black["winner"] == [0.0, 1.0]
    assert white["phase"] == [0.0, 0.0, 0.0, 0.0, 1.0] and white["to_act"] == [0.0, 0.0]
    assert max(white["scores"]) <= SCORE_CAP


# ---------------------------------------------------------------- orientation and spectator


def turned(plane: list[float]) -> list[float]:
    """A stack of 14 × 14 planes turned half a turn."""
    return [v for start in range(0, len(plane), CELLS) for v in plane[start : start + CELLS][::-1]]


def random_states(games: int, steps: int, seed: int, **options: Any) -> list[PaikoState]:
    """Every state of ``games`` random games of up to ``steps`` actions."""
    rng = random.Random(seed)
    game = tikigames.load("paiko", **options)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply_action(state.random_action(rng))
            assert isinstance(state, PaikoState)
            found.append(state.clone())
    return found


def test_black_sees_whites_tensor_with_the_board_turned_and_the_seats_swapped() -> None:
    for state in random_states(3, 90, seed=5)[::7]:
        white, black = tensor(state, 0), tensor(state, 1)
        for name in ("tiles", "threat", "cover", "support", "last_moved"):
            half = len(white[name]) // 2
            own, opponent = white[name][:half], white[name][half:]
            assert black[name] == turned(opponent) + turned(own), name
        assert black["board"] == turned(white["board"])
        assert black["pending_sai"] == turned(white["pending_sai"])
        n, e, s, w = (sub(white["facing"], i) for i in range(4))
        assert black["facing"] == turned(s) + turned(w) + turned(n) + turned(e)
        for name in ("hands", "reserves", "lost", "scores", "to_act", "winner"):
            half = len(white[name]) // 2
            assert black[name] == white[name][half:] + white[name][:half], name


def test_a_spectator_sees_whites_tensor_but_for_the_observer_plane() -> None:
    for state in [play(HAND_MADE), play(CASCADE), *random_states(2, 80, seed=9)[::9]]:
        spectator, white = tensor(state, None), tensor(state, 0)
        assert spectator["observer"] == [0.0, 0.0] and white["observer"] == [1.0, 0.0]
        del spectator["observer"], white["observer"]
        assert spectator == white


# ---------------------------------------------------------------- against the rules engine


def test_the_maps_planes_are_the_rules_engines_maps() -> None:
    """Threat, cover and support, derived from the observed board, agree with the maps the
    rules engine keeps incrementally (read here through the state, which the encoding never
    does)."""
    for state in random_states(4, 160, seed=3)[::5]:
        maps = state.maps()
        for player in (0, 1):
            planes = tensor(state, player)
            for color in (0, 1):
                seat = color ^ player
                for s, name in enumerate(SQUARE_NAMES):
                    at = cell(name, player)
                    levels = [
                        planes["threat"][(seat * THREAT_LEVELS + k) * CELLS + at]
                        for k in range(THREAT_LEVELS)
                    ]
                    expected = min(maps.against[color][s], THREAT_LEVELS)
                    assert levels == [1.0] * expected + [0.0] * (THREAT_LEVELS - expected)
                    assert planes["cover"][seat * CELLS + at] == float(maps.cover[color][s] > 0)
                    support = planes["support"][seat * CELLS + at]
                    assert support == float(maps.support[color][s] > 0)


# ---------------------------------------------------------------- over random games


def decode(state: PaikoState, player: int | None) -> dict[str, Any]:
    """The observation's fields read back from ``player``'s tensor alone: with the rules, they
    decide the legal actions (the position is these fields; the picks are capped)."""
    game = state.game
    rules = game.rules
    planes = tensor(state, player)
    view = 1 if player == 1 else 0
    at = {cell(name, view): name for name in SQUARE_NAMES}
    board = []
    for name in SQUARE_NAMES:
        for seat in (0, 1):
            for tile in range(8):
                if planes["tiles"][(seat * 8 + tile) * CELLS + cell(name, view)]:
                    faced = [f for f in range(4) if sub(planes["facing"], f)[cell(name, view)]]
                    facing = FACINGS[(faced[0] + 2 * view) % 4] if faced else "N"
                    board.append((name, seat ^ view, TILES[tile], facing))

    def seats(plane: str, scale: float) -> tuple[int, int]:
        found = [round(v * scale) for v in planes[plane]]
        return (found[view], found[1 - view])  # White's, Black's

    def tiles_of(plane: str) -> tuple[tuple[str, ...], ...]:
        rows = [sub(planes[plane], seat, 8) for seat in (view, 1 - view)]
        return tuple(
            tuple(TILES[t] for t in range(8) for _ in range(round(row[t] * 3))) for row in rows
        )

    last = []
    for seat in (view, 1 - view):
        row = sub(planes["last_moved"], seat)
        found = [(at[c], round(v * (rules.move_limit or 1))) for c, v in enumerate(row) if v]
        last.append(found[0] if found else (None, 0))
    sai = [c for c, v in enumerate(planes["pending_sai"]) if v]
    to_act = [i ^ view for i, v in enumerate(planes["to_act"]) if v]
    winner = [i ^ view for i, v in enumerate(planes["winner"]) if v]
    return {
        "phase": ("draft", "play", "follow-up", "picks", "over")[planes["phase"].index(1.0)],
        "board": tuple(board),
        "hands": tiles_of("hands"),
        "reserves": tiles_of("reserves"),
        "lost": seats("lost", 24),
        "scores": seats("scores", 10),
        "turn": round(planes["turn"][0] * (rules.max_turns or TURN_SCALE)),
        "passes": round(planes["passes"][0] * 2),
        "last_moved": tuple(last),
        "pending_sai": at[sai[0]] if sai else None,
        "picks": round(planes["picks"][0] * PICKS_SCALE),
        "winner": winner[0] if winner else None,
        "current_player": to_act[0] if to_act else TERMINAL,
    }


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_tensor_holds_every_field_the_legal_actions_depend_on(options: dict[str, Any]) -> None:
    """Random walks rarely meet two positions that differ in one field only, so the tensor is
    read back: every field of the observation that, with the rules, decides the legal actions
    (what ``==`` compares) comes back from the tensor alone."""
    phases = set()
    for state in random_states(3, 200, seed=17, **options)[::3]:
        for player in (0, 1, None):
            obs = state.observation(player)
            expected = {name: getattr(obs, name) for name in obs.field_names()}
            expected["picks"] = min(obs.picks, PICKS_SCALE)
            expected["current_player"] = obs.current_player
            assert decode(state, player) == expected
            phases.add(obs.phase)
    assert phases == {"draft", "play", "follow-up", "picks", "over"}


@pytest.mark.parametrize("options", OPTION_SETS)
def test_distinct_legal_actions_get_distinct_tensors(options: dict[str, Any]) -> None:
    seen: dict[tuple[int | None, tuple[float, ...]], list[Action]] = {}
    positions = 0
    for state in random_states(8, 200, seed=11, **options):
        for player in (0, 1, None):
            obs = state.observation(player)
            values = obs.tensor()
            assert set(map(type, values)) == {float} and all(map(math.isfinite, values))
            assert min(values) >= 0.0 and max(values) <= SCORE_CAP
            legal = seen.setdefault((player, tuple(values)), obs.legal_actions())
            assert legal == obs.legal_actions()
            positions += 1
    assert len(seen) > positions // 2  # the walks do reach different positions


def test_the_tensor_depends_on_the_observation_alone() -> None:
    """Paikō hides nothing, so there is nothing to leak; the tensor is a function of the
    observation: an observation rebuilt from its JSON, and the observation of a resampled
    world, give the same tensor."""
    rng = random.Random(1)
    for state in random_states(2, 120, seed=21)[::10]:
        game = state.game
        for player in (0, 1, None):
            obs = state.observation(player)
            again = game.observation_from_json(obs.to_json())
            assert again.tensor() == obs.tensor()
            if player is not None:
                assert game.resample(obs, rng).observation(player).tensor() == obs.tensor()

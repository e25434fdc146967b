"""Paikō's observation tensor: the board as 14×14 image planes seen from the observer's side,
then the hands, reserves and counters as scalars (the planes are listed on the game's page).

Orientation. The board planes are the 14×14 grid of squares (x, y), row y, column x, the
half squares off the diamond always 0. Black's observation turns the board half a turn (x →
13 − x, y → 13 − y, and every facing with it: N ↔ S, E ↔ W), so every player sees their own
homeground at the bottom left and faces N toward the opponent, as White does; the diamond and
its black squares map onto themselves. A spectator sees the board as White does. Seats are
relative: "own" is the observer and "opponent" the other player (for a spectator, White and
Black).

Threat, cover and support are what the rules' maps (:class:`~tikigames.paiko.maps.PaikoMaps`)
would hold for the observed board, summed from the same pattern tables (``data.THREAT``,
``data.COVER``) tile by tile: the tensor never reads a state.

>>> import tikigames
>>> state = tikigames.load("paiko").new_initial_state()
>>> state.apply_action(state.parse_action("draft fire"))
>>> values = state.observation(0).tensor()
>>> layout = state.game.observation_tensor_layout()
>>> layout.view(values, "hands")[:8], layout.view(values, "to_act")
([0.0, 0.0, 0.0, 0.0, 0.0, 0.3333333333333333, 0.0, 0.0], [1.0, 0.0])
"""

from __future__ import annotations

from typing import Final

from tikigames.core.encoding import ObservationEncoder, Plane, TensorLayout, TensorValues
from tikigames.paiko.data import (
    BLACK,
    COORDS,
    COPIES,
    COVER,
    FACED,
    FACINGS,
    FIRE,
    HOME,
    NUM_SQUARES,
    NUM_TILES,
    PHASE_NAMES,
    SIZE,
    SQUARE_INDEX,
    THREAT,
    TILE_INDEX,
    WIN_POINTS,
    PaikoRules,
    kind_of,
)
from tikigames.paiko.observation import PaikoObservation

__all__ = [
    "PICKS_SCALE",
    "SCORE_CAP",
    "THREAT_LEVELS",
    "TURN_SCALE",
    "PaikoEncoder",
]

#: The cells of one board plane: the 14×14 grid.
CELLS: Final = SIZE * SIZE
#: The threat planes are a thermometer: threat ≥ 1, ≥ 2, … ≥ THREAT_LEVELS. The rules tell
#: apart 0 (deploy), 2 (capture; a Lotus's deploy) and 3 (capture under cover).
THREAT_LEVELS: Final = 4
#: Scores are points / WIN_POINTS (1.0 is the winning total), capped at this many times it.
SCORE_CAP: Final = 2.0
#: Pending picks are picks / PICKS_SCALE, capped at 1.0.
PICKS_SCALE: Final = 8
#: Without a ``max_turns``, the turn counter is turns / TURN_SCALE, capped at 1.0.
TURN_SCALE: Final = 1000
#: Tiles each player owns (the lost counts are lost / ALL_TILES).
ALL_TILES: Final = NUM_TILES * COPIES

#: ``CELL[view][s]``: the cell of square s in a board plane, for view 0 (White's, and a
#: spectator's) and view 1 (Black's: the board turned half a turn).
CELL: Final = (
    tuple(y * SIZE + x for x, y in COORDS),
    tuple((SIZE - 1 - y) * SIZE + (SIZE - 1 - x) for x, y in COORDS),
)
#: A facing's index (N, E, S, W), per view: Black's view turns every facing half a turn.
FACING_IN_VIEW: Final = (
    {name: index for index, name in enumerate(FACINGS)},
    {name: (index + 2) % 4 for index, name in enumerate(FACINGS)},
)
#: A hand's or reserve's count of one tile type is scaled by 1 / COPIES.
THIRD: Final = 1 / COPIES


def _board_constants() -> tuple[list[float], list[float]]:
    """The ``board`` plane (on the diamond, black squares) and the homeground part of the
    ``cover`` and ``support`` planes (own homeground, opponent's), the same in every view."""
    board = [0.0] * (2 * CELLS)
    home = [0.0] * (2 * CELLS)
    for s in range(NUM_SQUARES):
        cell = CELL[0][s]
        board[cell] = 1.0
        if BLACK[s]:
            board[CELLS + cell] = 1.0
        for seat in (0, 1):  # White's homeground is at the bottom left of view 0
            if HOME[seat][s]:
                home[seat * CELLS + cell] = 1.0
    return board, home


BOARD_PLANE, HOME_PLANES = _board_constants()


def _planes(rules: PaikoRules) -> list[Plane]:
    limit = rules.move_limit
    turns = rules.max_turns
    last = (
        f"count / {limit} (1.0: it may not move again next turn)"
        if limit is not None
        else "all 0 (no move_limit)"
    )
    turn = f"turns played / {turns}" if turns is not None else f"min(turns / {TURN_SCALE}, 1)"
    return [
        Plane(
            "tiles",
            (2, NUM_TILES, SIZE, SIZE),
            "1 where a tile stands, by owner (own, opponent) and type (sai sword bow lotus air"
            " fire earth water)",
        ),
        Plane(
            "facing",
            (4, SIZE, SIZE),
            "the facing (N E S W, in the observer's view) of each Sai, Bow and Fire, one-hot;"
            " 0 for the five tiles whose pattern ignores the facing",
        ),
        Plane(
            "threat",
            (2, THREAT_LEVELS, SIZE, SIZE),
            "the threat a tile of that seat (own, opponent) suffers or would suffer there,"
            f" own Fires included, as a thermometer: level k is 1 when threat ≥ k + 1"
            f" (k = 0…{THREAT_LEVELS - 1})",
        ),
        Plane(
            "cover",
            (2, SIZE, SIZE),
            "1 where a tile of that seat would be covered: its homeground or a square one of"
            " its tiles covers",
        ),
        Plane(
            "support",
            (2, SIZE, SIZE),
            "1 where that seat's deploy rule allows a tile (threat permitting): its homeground"
            " or a square one of its tiles threatens",
        ),
        Plane("last_moved", (2, SIZE, SIZE), f"per seat, at its last-moved tile: {last}"),
        Plane("pending_sai", (SIZE, SIZE), "1 at a deployed Sai awaiting its follow-up"),
        Plane("board", (2, SIZE, SIZE), "constant: 1 on the 112 squares; 1 on the black squares"),
        Plane("hands", (2, NUM_TILES), f"per seat and tile type, the count in hand / {COPIES}"),
        Plane("reserves", (2, NUM_TILES), f"per seat and type, the count in reserve / {COPIES}"),
        Plane("lost", (2,), f"per seat, the tiles it has had captured / {ALL_TILES}"),
        Plane(
            "scores",
            (2,),
            f"per seat, points / {WIN_POINTS} (1.0 wins), capped at {SCORE_CAP}",
        ),
        Plane("phase", (len(PHASE_NAMES),), "one-hot: draft, play, follow-up, picks, over"),
        Plane("to_act", (2,), "the seat to act (own, opponent), one-hot; 0 once over"),
        Plane("picks", (1,), f"the captured player's picks still to make / {PICKS_SCALE}, ≤ 1"),
        Plane("passes", (1,), "passes in a row / 2 (two end the game)"),
        Plane("turn", (1,), turn),
        Plane("winner", (2,), "once over, the winner (own, opponent), one-hot; 0 for a draw"),
        Plane("observer", (2,), "the observer's seat (White, Black), one-hot; 0 for a spectator"),
        Plane(
            "options",
            (2,),
            "the options: draw_exact (0/1); 1 / move_limit (0 without one)",
        ),
    ]


#: The offsets of the planes, the same under every rules.
_BASE: Final = TensorLayout(_planes(PaikoRules(max_turns=1000, move_limit=3, draw_exact=False)))
TILES_AT: Final = _BASE.offset("tiles")
FACING_AT: Final = _BASE.offset("facing")
THREAT_AT: Final = _BASE.offset("threat")
COVER_AT: Final = _BASE.offset("cover")
SUPPORT_AT: Final = _BASE.offset("support")
LAST_AT: Final = _BASE.offset("last_moved")
SAI_AT: Final = _BASE.offset("pending_sai")
BOARD_AT: Final = _BASE.offset("board")
HANDS_AT: Final = _BASE.offset("hands")
RESERVES_AT: Final = _BASE.offset("reserves")
LOST_AT: Final = _BASE.offset("lost")
SCORES_AT: Final = _BASE.offset("scores")
PHASE_AT: Final = _BASE.offset("phase")
TO_ACT_AT: Final = _BASE.offset("to_act")
PICKS_AT: Final = _BASE.offset("picks")
PASSES_AT: Final = _BASE.offset("passes")
TURN_AT: Final = _BASE.offset("turn")
WINNER_AT: Final = _BASE.offset("winner")
OBSERVER_AT: Final = _BASE.offset("observer")
OPTIONS_AT: Final = _BASE.offset("options")
PHASE_INDEX: Final = {name: index for index, name in enumerate(PHASE_NAMES)}


#: What one tile of the observed board adds to the tensor (:func:`_effect`): the indices it
#: sets to 1 and the threat it adds, per view and ``(square, player, tile, facing)``, filled
#: as tiles are met.
Effect = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
_EFFECTS: Final[tuple[dict[tuple[str, int, str, str], Effect], ...]] = ({}, {})


def _effect(view: int, entry: tuple[str, int, str, str]) -> Effect:
    """The tensor indices a tile sets to 1 in ``view`` — its type's cell, its facing's if it
    has one, the squares its pattern threatens in its owner's ``support`` and those it covers
    in its owner's ``cover`` — and its threat as ``(counter, first level's index)`` pairs,
    one per square and threatened seat (the opponent's; its owner's too for a Fire). The
    patterns are the rules' own tables (``data.THREAT``, ``data.COVER``)."""
    name, player, tile_name, facing_name = entry
    square, tile = SQUARE_INDEX[name], TILE_INDEX[tile_name]
    kind = kind_of(tile, FACINGS.index(facing_name))
    cells = CELL[view]
    seat = player ^ view
    marks = [TILES_AT + (seat * NUM_TILES + tile) * CELLS + cells[square]]
    if FACED[tile]:
        marks.append(FACING_AT + FACING_IN_VIEW[view][facing_name] * CELLS + cells[square])
    threatened = THREAT[kind][square]
    marks += [SUPPORT_AT + seat * CELLS + cells[t] for t in threatened]
    marks += [COVER_AT + seat * CELLS + cells[t] for t in COVER[kind][square]]
    victims = (1 - seat, seat) if tile == FIRE else (1 - seat,)
    hits = [
        (victim * CELLS + cells[t], THREAT_AT + (victim * THREAT_LEVELS * CELLS) + cells[t])
        for victim in victims
        for t in threatened
    ]
    return tuple(marks), tuple(hits)


#: The values every tensor starts from, by index: the ``board`` plane and the homegrounds in
#: the ``cover`` and ``support`` planes (228 of them).
_CONSTANT: Final[dict[int, float]] = {
    at + index: value
    for at, plane in (
        (COVER_AT, HOME_PLANES),
        (SUPPORT_AT, HOME_PLANES),
        (BOARD_AT, BOARD_PLANE),
    )
    for index, value in enumerate(plane)
    if value
}


#: The ``hands`` and ``reserves`` values of a tuple of tile names, filled as tuples are met (at
#: most 4⁸ of them: up to 3 tiles of each of 8 types).
_SHARES: Final[dict[tuple[str, ...], tuple[tuple[int, float], ...]]] = {}


def _shares(tiles: tuple[str, ...]) -> tuple[tuple[int, float], ...]:
    """``(tile index, share)`` for each type in ``tiles``: a third per tile, added up (at most 3
    of a type: 1/3 added up to 3 times is 1.0)."""
    shares: dict[int, float] = {}
    for tile_name in tiles:
        tile = TILE_INDEX[tile_name]
        shares[tile] = shares.get(tile, 0.0) + THIRD
    return tuple(shares.items())


class PaikoEncoder(ObservationEncoder[PaikoRules, PaikoObservation]):
    """Paikō's observation tensor (``Game.encoder_class``), in the planes below. About 360 of
    its 7,304 values are not 0, 228 of them the same in every tensor: both forms start from
    those (a list, or a dict for the sparse form) and :meth:`_write` sets the others. Only the
    descriptions of the scaled counters depend on the rules, never a shape or an offset (this
    module's constants)."""

    def planes(self, rules: PaikoRules) -> list[Plane]:
        """The planes for ``rules``."""
        return _planes(rules)

    def encode(self, obs: PaikoObservation) -> list[float]:
        """The tensor of ``obs`` (``obs.tensor()``) in the game's layout."""
        values = self.layout.zeros()
        values[COVER_AT : COVER_AT + 2 * CELLS] = HOME_PLANES
        values[SUPPORT_AT : SUPPORT_AT + 2 * CELLS] = HOME_PLANES
        values[BOARD_AT : BOARD_AT + 2 * CELLS] = BOARD_PLANE
        self._write(obs, values)
        return values

    def encode_sparse(self, obs: PaikoObservation) -> dict[int, float]:
        """The values of ``obs``'s tensor that are not 0 (``obs.sparse_tensor()``), by index."""
        values = _CONSTANT.copy()
        self._write(obs, values)
        return values

    def _write(self, obs: PaikoObservation, values: TensorValues) -> None:
        """Set in ``values`` (holding the constant values) the values of ``obs``'s tensor that
        vary and are not 0, by index in the game's layout, from the observation's fields alone;
        see the module's docstring for the orientation.

        Threat, cover and support are summed from the rules' pattern tables tile by tile, as
        :class:`~tikigames.paiko.maps.PaikoMaps` sums them (the tests check the two agree):
        building a whole ``PaikoMaps`` would cost more than the rest of the tensor."""
        observer = obs.player
        view = 1 if observer == 1 else 0  # the seat encoded first; a spectator's is White
        cells = CELL[view]
        effects = _EFFECTS[view]
        against = [0] * (2 * CELLS)
        for entry in obs.board:
            effect = effects.get(entry)
            if effect is None:
                effect = effects[entry] = _effect(view, entry)
            marks, hits = effect
            for index in marks:
                values[index] = 1.0
            for counter, first in hits:
                level = against[counter]
                against[counter] = level + 1
                if level < THREAT_LEVELS:
                    values[first + level * CELLS] = 1.0
        rules = self.rules
        limit = rules.move_limit
        for player in (0, 1):
            seat = player ^ view
            last, count = obs.last_moved[player]
            if last is not None and limit is not None:
                values[LAST_AT + seat * CELLS + cells[SQUARE_INDEX[last]]] = min(count / limit, 1.0)
            for at, tiles in (
                (HANDS_AT + seat * NUM_TILES, obs.hands[player]),
                (RESERVES_AT + seat * NUM_TILES, obs.reserves[player]),
            ):
                shares = _SHARES.get(tiles)
                if shares is None:
                    shares = _SHARES[tiles] = _shares(tiles)
                for tile, share in shares:
                    values[at + tile] = share
            if obs.lost[player]:
                values[LOST_AT + seat] = obs.lost[player] / ALL_TILES
            if obs.scores[player]:
                values[SCORES_AT + seat] = min(obs.scores[player] / WIN_POINTS, SCORE_CAP)
        if obs.pending_sai is not None:
            values[SAI_AT + cells[SQUARE_INDEX[obs.pending_sai]]] = 1.0
        values[PHASE_AT + PHASE_INDEX[obs.phase]] = 1.0
        if obs.current_player >= 0:
            values[TO_ACT_AT + (obs.current_player ^ view)] = 1.0
        if obs.picks:
            values[PICKS_AT] = min(obs.picks / PICKS_SCALE, 1.0)
        if obs.passes:
            values[PASSES_AT] = obs.passes / 2
        turns = rules.max_turns
        if obs.turn:
            values[TURN_AT] = (
                obs.turn / turns if turns is not None else min(obs.turn / TURN_SCALE, 1.0)
            )
        if obs.winner is not None:
            values[WINNER_AT + (obs.winner ^ view)] = 1.0
        if observer is not None:
            values[OBSERVER_AT + observer] = 1.0
        if rules.draw_exact:
            values[OPTIONS_AT] = 1.0
        if limit is not None:
            values[OPTIONS_AT + 1] = 1.0 / limit

"""Text renderings: the diamond board, a state, an observation, and a tile's patterns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tikigames.core.constants import TERMINAL
from tikigames.paiko.data import (
    BLACK,
    COVER_OFFSETS,
    FACED,
    FACINGS,
    PLAYER_NAMES,
    SIZE,
    SQUARE_INDEX,
    THREAT_OFFSETS,
    TILE_INDEX,
    TILE_LETTERS,
    result_words,
    rotate,
    square_at,
)

if TYPE_CHECKING:
    from tikigames.paiko.observation import PaikoObservation
    from tikigames.paiko.state import PaikoState

__all__ = ["pattern_diagram", "render_board", "render_observation", "render_state"]

#: How a facing is drawn after the tile's letter.
ARROWS = "^>v<"

LEGEND = (
    "White upper case, Black lower case: S sai, X sword, B bow, L lotus, A air, F fire,"
    " E earth, W water; ^ > v < facing; # black square"
)


def _cell(square: int, tiles: Mapping[int, tuple[int, int, int]]) -> str:
    tile = tiles.get(square)
    if tile is None:
        return "# " if BLACK[square] else ". "
    player, kind, facing = tile
    letter = TILE_LETTERS[kind] if player == 0 else TILE_LETTERS[kind].lower()
    return letter + (ARROWS[facing] if FACED[kind] else " ")


def render_board(tiles: Mapping[int, tuple[int, int, int]]) -> list[str]:
    """The diamond as White sees it, one text row per rank (``tiles``: square index to
    ``(player, tile, facing)``). A bar and a rule split the four quarters: White's homeground
    is bottom-left, Black's top-right."""
    files = " ".join(chr(ord("a") + x) + " " for x in range(SIZE))
    header = "    " + files[: 3 * 7] + "  " + files[3 * 7 :].rstrip()
    rows = [header]
    for y in range(SIZE):
        cells = []
        for x in range(SIZE):
            square = square_at(x, y)
            cells.append(_cell(square, tiles) if square >= 0 else "  ")
        left = " ".join(cells[:7])
        right = " ".join(cells[7:])
        rank = SIZE - y
        rows.append(f"{rank:>2}  {left} | {right}".rstrip().ljust(4 + 3 * SIZE + 1) + f"  {rank}")
        if y == 6:
            rows.append("    " + "-" * (3 * 7 - 1) + "-+-" + "-" * (3 * 7 - 1))
    rows.append(header)
    return rows


def _tiles(board: Sequence[tuple[str, int, str, str]]) -> dict[int, tuple[int, int, int]]:
    return {
        SQUARE_INDEX[square]: (player, TILE_INDEX[tile], FACINGS.index(facing))
        for square, player, tile, facing in board
    }


def _status(obs: PaikoObservation) -> str:
    current = obs.current_player
    if current == TERMINAL:
        return f"Game over after {obs.turn} turns: {result_words(obs.winner)}"
    name = PLAYER_NAMES[current]
    if obs.phase == "draft":
        drafted = sum(len(hand) for hand in obs.hands)
        return f"Draft, tile {drafted + 1} of 17: {name} drafts"
    turn = f"Turn {obs.turn + 1}"
    if obs.phase == "follow-up":
        return f"{turn}: {name}'s Sai on {obs.pending_sai} may shift or turn (or stay)"
    if obs.phase == "picks":
        other = PLAYER_NAMES[1 - current]
        return f"{turn}: {name} picks a tile of {other}'s reserve for {other} ({obs.picks} left)"
    return f"{turn}: {name} to act"


def _player_lines(obs: PaikoObservation) -> list[str]:
    rows = []
    for p in (0, 1):
        square, count = obs.last_moved[p]
        moved = f"; moved {square} {count}× in a row" if square is not None else ""
        rows.append(
            f"{PLAYER_NAMES[p]}: {_count(obs.scores[p], 'point')}, {obs.lost[p]} lost{moved}\n"
            f"  hand:    {' '.join(obs.hands[p]) or '(empty)'}\n"
            f"  reserve: {' '.join(obs.reserves[p]) or '(empty)'}"
        )
    return rows


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _render(obs: PaikoObservation, who: str) -> str:
    rows = [_status(obs) + who, *render_board(_tiles(obs.board)), LEGEND, *_player_lines(obs)]
    if obs.passes:
        rows.append(f"Passes in a row: {obs.passes}")
    return "\n".join(rows)


def render_state(state: PaikoState) -> str:
    """The whole position (Paikō hides nothing): a spectator's observation, rendered."""
    return _render(state.observation(None), "")


def render_observation(obs: PaikoObservation) -> str:
    """The whole position, as the observer sees it."""
    who = (
        " — you are a spectator" if obs.player is None else f" — you are {PLAYER_NAMES[obs.player]}"
    )
    return _render(obs, who)


def pattern_diagram(tile: str, facing: str = "N") -> str:
    """A tile's patterns drawn around it: ``x`` threatened, ``o`` covered, ``.`` neither; the
    tile's letter marks its own square (a Fire threatens it too, a Lotus covers it).

    >>> print(pattern_diagram("sai", "E"))
    o .
    S x
    o .
    """
    kind = TILE_INDEX[tile]
    turn = FACINGS.index(facing)
    threat = {rotate(dx, dy, turn) for dx, dy in THREAT_OFFSETS[kind]}
    cover = {rotate(dx, dy, turn) for dx, dy in COVER_OFFSETS[kind]}
    marked = threat | cover | {(0, 0)}
    xs = [dx for dx, _ in marked]
    ys = [dy for _, dy in marked]
    rows = []
    for dy in range(min(ys), max(ys) + 1):
        cells = []
        for dx in range(min(xs), max(xs) + 1):
            if (dx, dy) == (0, 0):
                cells.append(TILE_LETTERS[kind])
            elif (dx, dy) in threat:
                cells.append("x")
            elif (dx, dy) in cover:
                cells.append("o")
            else:
                cells.append(".")
        rows.append(" ".join(cells))
    return "\n".join(rows)

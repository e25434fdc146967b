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
    WIN_POINTS,
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
#: How the quarters score, under the board (their names are written in the board's corners).
SCORING = (
    "A tile but a Lotus scores 1 in a middleground, 2 in the opponent's homeground, 0 at home;"
    f" {WIN_POINTS} points at the end of your turn win"
)
#: The names written in the blank corners of the diamond, two lines each: ``(row, text, left)``
#: with rows of :func:`render_board`'s output (1 is rank 14) and ``left`` for the left side.
QUARTER_LABELS = (
    (1, "middleground", True),
    (2, "(west)", True),
    (1, "Black's", False),
    (2, "homeground", False),
    (SIZE, "White's", True),
    (SIZE + 1, "homeground", True),
    (SIZE, "middleground", False),
    (SIZE + 1, "(east)", False),
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


def label_quarters(rows: list[str]) -> list[str]:
    """:func:`render_board`'s rows with the quarters named in the diamond's blank corners
    (:data:`QUARTER_LABELS`), as the pictures tint them.

    >>> print("\\n".join(label_quarters(render_board({}))[:3]))
        a  b  c  d  e  f  g    h  i  j  k  l  m  n
    14  middleground      .  | .           Black's   14
    13  (west)         .  .  | .  .     homeground   13
    """
    rows = list(rows)
    for row, text, left in QUARTER_LABELS:
        line = rows[row]
        # Left: after the rank and two spaces; right: three spaces before the rank.
        start = 4 if left else len(line) - len(line.split()[-1]) - 3 - len(text)
        assert not line[start - 1 : start + len(text) + 1].strip(), "a label on a square"
        rows[row] = line[:start] + text + line[start + len(text) :]
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
    limit = obs.game.rules.move_limit
    for p in (0, 1):
        square, count = obs.last_moved[p]
        moved = ""
        if square is not None:
            moved = f"; the tile on {square} moved on {_count(count, 'turn')} in a row"
            moved += f" (at most {limit})" if limit else ""
        rows.append(
            f"{PLAYER_NAMES[p]}: {_count(obs.scores[p], 'point')} of the {WIN_POINTS} that win,"
            f" {_count(obs.lost[p], 'tile')} lost to captures{moved}\n"
            f"  hand:    {' '.join(obs.hands[p]) or '(empty)'}\n"
            f"  reserve: {' '.join(obs.reserves[p]) or '(empty)'}"
        )
    return rows


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _render(obs: PaikoObservation, who: str) -> str:
    board = label_quarters(render_board(_tiles(obs.board)))
    rows = [_status(obs) + who, *board, LEGEND, SCORING, *_player_lines(obs)]
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

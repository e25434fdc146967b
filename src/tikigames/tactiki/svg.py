"""TacTiki's pictures: the 5×5 board with every column drawn as a stack of tiles, bottom to
top, and both defeated pools.

``state.svg()`` draws every rank face up; ``obs.svg()`` draws what the observer knows, from the
observation's fields alone: their own ranks, the ranks battles revealed, ``?`` for the rest,
and an opponent's pool as ``n`` unknown pieces among its candidate ranks once a reincarnation
has blurred it.

A tile is its owner's colour *and* shape *and* letter: TIKI's are orange, square-cornered and
lettered ``X``; TAC's blue, round-ended and lettered ``O`` (the letters of ``str(state)``). A
white dot marks a rank known to both players (a battle showed it); a dashed black outline a
*blocked* piece (an opponent's piece sits directly on it, after a tie); a padlock a column on an
opponent's start field, which never moves again; a badge ``n/5`` the intruder's pieces on an
opponent's start field (five make a statue). The highlighted move is an arrow from its source
to its target, and a battle's column is outlined; so is a placement's or a reincarnation's
field. A battle's reveals are spelled out under the board, with its attacker: the
state's or the observation's ``mover(index)``.

Picture options beyond the common ones (``options.extra``): ``legend`` (default ``True``), the
two lines of explanation at the bottom.

A picture costs well under a millisecond: the elements that do not depend on the position (the
squares, the labels) and those that recur (a tile of a given owner, rank and place in a column
of a given height) are written once and kept, so that drawing a position mostly joins strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final
from xml.sax.saxutils import escape

from tikigames.core.constants import TERMINAL
from tikigames.core.svg import PALETTE, SEAT_COLOURS, PictureOptions, Svg
from tikigames.tactiki.data import (
    FILES,
    NUM_SQUARES,
    OUTCOME,
    PIECE_LETTERS,
    PIECES_PER_PLAYER,
    PLAYER_NAMES,
    REVEALED,
    SIZE,
    SQUARE_NAMES,
    SQUARES,
    START_ROW,
    STATUE,
    rank_of,
)
from tikigames.tactiki.observation import Piece, TacTikiObservation
from tikigames.tactiki.state import TacTikiState

__all__ = ["EXTRA_OPTIONS", "svg_observation", "svg_state"]

#: The game's own picture options (``options.extra``).
EXTRA_OPTIONS: Final = ("legend",)

# Geometry, in user units: a square is CELL wide; tiles are TILE_W × TILE_H (lower in tall
# columns, so that every piece of a column fits in its square).
CELL: Final = 80.0
TILE_W: Final = 62.0
TILE_H: Final = 15.0
#: Where a column stands in its square: centred on STACK_MIDDLE, at most STACK_ROOM high (the
#: top of the square is left to the badges).
STACK_ROOM: Final = 60.0
STACK_MIDDLE: Final = 48.0
HEADER: Final = 24.0
STRIP: Final = 28.0
FILE_ROW: Final = 16.0
NOTE: Final = 18.0
LEGEND: Final = 30.0
SIDE: Final = 10.0
RANK_COLUMN: Final = 22.0
BOARD: Final = SIZE * CELL

#: Each seat's tile colour, the text colour on it, and the light tint of its start row.
COLOURS: Final = (SEAT_COLOURS[0], SEAT_COLOURS[1])
INK: Final = (PALETTE["black"], PALETTE["white"])
TINT: Final = ("#F8E5BF", "#CCE1EF")
#: The colour of highlight outlines (the arrow is black on a white halo).
HIGHLIGHT: Final = PALETTE["green"]
LABEL: Final = "#444444"

#: A piece code as the whole position shows it: every rank face up.
_FACE_UP: Final = tuple((code & 1, rank_of(code), bool(code & REVEALED)) for code in range(64))
_SETUP_ACTIONS: Final = 2 * PIECES_PER_PLAYER
#: The seat whose start row a square is on, else −1.
_HOME: Final = tuple(
    0 if sq // SIZE == START_ROW[0] else 1 if sq // SIZE == START_ROW[1] else -1
    for sq in range(NUM_SQUARES)
)


def svg_state(state: TacTikiState, options: PictureOptions) -> str:
    """The whole position: every rank face up; a white dot on the ranks both players know."""
    columns = [tuple(map(_FACE_UP.__getitem__, column)) for column in state.board_codes()]
    defeated = (state.defeated(0), state.defeated(1))
    return _draw(
        columns,
        (tuple(defeated[0]), tuple(defeated[1])),
        (len(defeated[0]), len(defeated[1])),
        [action.text for action in state.history()],
        state.battles(),
        state.current_player(),
        state.turns(),
        state.is_second_move(),
        state.passes(),
        state.winner(),
        state.mover,
        None,
        True,
        state.game.rules.strict_statue,
        options,
    )


def svg_observation(obs: TacTikiObservation, options: PictureOptions) -> str:
    """What ``obs.player`` knows, drawn from the observation alone."""
    return _draw(
        obs.board,
        obs.pools,
        obs.pool_sizes,
        obs.history,
        obs.battles,
        obs.current_player,
        obs.turns,
        obs.second_move,
        obs.passes,
        obs.winner,
        obs.mover,
        obs.player,
        False,
        obs.game.rules.strict_statue,
        options,
    )


# ----------------------------------------------------------------- texts


def _status(
    actions: int, current: int, turns: int, second: bool, passes: int, winner: int | None
) -> str:
    if current == TERMINAL:
        if winner is not None:
            return f"{PLAYER_NAMES[winner]} wins with a statue"
        return "Draw: two passes in a row" if passes >= 2 else "Draw: the turn limit"
    if actions < _SETUP_ACTIONS:
        placed = actions % PIECES_PER_PLAYER + 1
        return f"Setup: {PLAYER_NAMES[current]} places piece {placed} of {PIECES_PER_PLAYER}"
    move = " (second move)" if second else ""
    return f"Turn {turns + 1}: {PLAYER_NAMES[current]} to play{move}"


def _parse_highlight(text: str) -> tuple[int, int]:
    """``(source, target)`` squares of a highlighted action's text: a move's from and to
    squares, a placement's or reincarnation's field as ``(-1, field)``, ``(-1, -1)`` for a pass.

    Raises:
        ValueError: the text is not TacTiki notation.
    """
    clean = "".join(text.split()).lower()
    if clean == "pass":
        return -1, -1
    if len(clean) == 5 and clean[2] == "-":
        source = SQUARES.get(clean[:2], -1)
        target = SQUARES.get(clean[3:], -1)
        if source >= 0 and target >= 0:
            step = abs(source - target)
            if step == SIZE or (step == 1 and source // SIZE == target // SIZE):
                return source, target  # neighbours, as every move's squares are
    elif len(clean) == 4 and clean[1] in "@*" and clean[0] in "12345?":
        target = SQUARES.get(clean[2:], -1)
        if target >= 0:
            return -1, target
    raise ValueError(f"highlight {text!r} is not a TacTiki action's text"[:100])


def _battle_note(square: int, mover: int, ranks: tuple[int, ...]) -> str:
    attacker = ranks[0]
    parts = []
    for other in ranks[1:]:
        result = OUTCOME[attacker][other]
        parts.append(("beat " if result > 0 else "lost to " if result < 0 else "tied with ")
                     + str(other))  # fmt: skip
    return (
        f"Battle on {SQUARE_NAMES[square]}: {PLAYER_NAMES[mover]}'s {attacker} attacked "
        f"{PLAYER_NAMES[1 - mover]}'s column: " + ", ".join(parts)
    )


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _rect(
    x: float,
    y: float,
    width: float,
    height: float,
    fill: str,
    stroke: str = "",
    stroke_width: float = 0.0,
    rx: float = 0.0,
    dash: str = "",
    title: str = "",
) -> str:
    """A ``<rect>`` element's text (the attributes left out where empty)."""
    text = (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(height)}"'
        + (f' rx="{_n(rx)}"' if rx else "")
        + f' fill="{fill}"'
        + (f' stroke="{stroke}" stroke-width="{_n(stroke_width)}"' if stroke else "")
        + (f' stroke-dasharray="{dash}"' if dash else "")
    )
    return text + (f"><title>{escape(title)}</title></rect>" if title else "/>")


def _text(
    x: float,
    y: float,
    content: str,
    size: float,
    fill: str = PALETTE["black"],
    anchor: str = "middle",
    bold: bool = False,
) -> str:
    """A ``<text>`` element's text, its baseline at ``y``."""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-family="sans-serif"'
        f' fill="{fill}" text-anchor="{anchor}"' + (' font-weight="bold"' if bold else "")
        + f">{escape(content)}</text>"
    )  # fmt: skip


# ----------------------------------------------------------------- the pieces kept


#: ``(bottom, coordinates, legend)`` → the backdrop, the squares, the frame and the labels.
_BACKGROUNDS: Final[dict[tuple[int, bool, bool], str]] = {}
#: ``(bottom, coordinates)`` → per square, its cell's top-left corner.
_CORNERS: Final[dict[tuple[int, bool], tuple[tuple[float, float], ...]]] = {}
#: ``(bottom, coordinates)`` → per square, the ``<g>`` opening that moves a column there.
_PLACES: Final[dict[tuple[int, bool], tuple[str, ...]]] = {}
#: ``(height, index, owner, rank or 0, revealed, blocked)`` → a tile's title start and the rest.
_TILES: Final[dict[tuple[int, int, int, int, bool, bool], tuple[str, str]]] = {}
#: ``(intruder, count, possible, locked)`` → the marks of a start field (cell coordinates).
_MARKS: Final[dict[tuple[int, int, bool, bool], str]] = {}
#: ``(seat, x, end, y, ranks, size)`` → a defeated pool's strip.
_POOLS: Final[dict[tuple[int, float, float, float, tuple[int, ...], int], str]] = {}
#: ``(bottom, coordinates, source, target)`` → the highlight of an action.
_HIGHLIGHTS: Final[dict[tuple[int, bool, int, int, bool], str]] = {}
#: ``(omniscient, y)`` → the legend's two lines.
_LEGENDS: Final[dict[tuple[bool, float], str]] = {}


def _layout(coordinates: bool, legend: bool) -> tuple[float, float, float, float]:
    """``(left, width, height, below)``: the board's left edge, the picture's size and the top
    of the strip under the board."""
    left = RANK_COLUMN if coordinates else SIDE
    width = left + BOARD + SIDE
    below = HEADER + STRIP + BOARD + (FILE_ROW if coordinates else 4.0)
    height = below + STRIP + NOTE + (LEGEND if legend else 0.0)
    return left, width, height, below


def _corners(bottom: int, coordinates: bool) -> tuple[tuple[float, float], ...]:
    key = (bottom, coordinates)
    found = _CORNERS.get(key)
    if found is None:
        left = RANK_COLUMN if coordinates else SIDE
        corners = []
        for square in range(NUM_SQUARES):
            row, file = divmod(square, SIZE)
            col = file if bottom == 0 else SIZE - 1 - file
            line = SIZE - 1 - row if bottom == 0 else row
            corners.append((left + col * CELL, HEADER + STRIP + line * CELL))
        found = _CORNERS[key] = tuple(corners)
        _PLACES[key] = tuple(f'<g transform="translate({_n(x)},{_n(y)})">' for x, y in found)
    return found


def _background(bottom: int, coordinates: bool, legend: bool) -> str:
    key = (bottom, coordinates, legend)
    found = _BACKGROUNDS.get(key)
    if found is not None:
        return found
    left, width, height, _ = _layout(coordinates, legend)
    top = HEADER + STRIP
    parts = [_rect(0, 0, width, height, PALETTE["white"])]
    for square, (x, y) in enumerate(_corners(bottom, coordinates)):
        home = _HOME[square]
        name = SQUARE_NAMES[square]
        parts.append(
            _rect(
                x, y, CELL, CELL, TINT[home] if home >= 0 else PALETTE["board"],
                PALETTE["grey"], 1.0,
                title=f"{name}: {PLAYER_NAMES[home]}'s start field" if home >= 0 else name,
            )
        )  # fmt: skip
    parts.append(_rect(left, top, BOARD, BOARD, "none", PALETTE["black"], 2.0))
    if coordinates:
        for index in range(SIZE):
            file = index if bottom == 0 else SIZE - 1 - index
            rank = SIZE - index if bottom == 0 else index + 1
            x = left + (index + 0.5) * CELL
            parts.append(_text(x, top + BOARD + 13, FILES[file], 12, LABEL))
            parts.append(_text(left / 2, top + (index + 0.5) * CELL + 4, str(rank), 12, LABEL))
    found = _BACKGROUNDS[key] = "".join(parts)
    return found


def _tile(count: int, index: int, piece: Piece, blocked: bool) -> tuple[str, str]:
    """A tile as ``(title start, rest)``: the caller puts `` on {square}`` between them."""
    owner, rank, revealed = piece
    key = (count, index, owner, rank or 0, revealed, blocked)
    found = _TILES.get(key)
    if found is not None:
        return found
    h = TILE_H if count * TILE_H <= STACK_ROOM else STACK_ROOM / count
    left = (CELL - TILE_W) / 2
    top = STACK_MIDDLE + count * h / 2 - (index + 1) * h
    font = h * 0.8
    if rank is None:
        about = "rank unknown to you"
    elif revealed:
        about = "rank known to both"
    else:
        about = f"rank secret from {PLAYER_NAMES[1 - owner]}"
    if blocked:
        about += "; blocked"
    shown = "?" if rank is None else str(rank)
    ink = INK[owner]
    baseline = top + h * 0.5 + font * 0.36
    body = _rect(
        left, top + 0.5, TILE_W, h - 1, COLOURS[owner],
        PALETTE["black"] if blocked else "#333333", 1.8 if blocked else 0.6,
        (h - 1) / 2 if owner == 1 else 1.0, "3 2" if blocked else "",
    ) + _text(left + 9, baseline, PIECE_LETTERS[owner], font * 0.9, ink) + _text(
        left + TILE_W / 2, baseline, shown, font, ink, bold=True
    )  # fmt: skip
    if revealed:
        body += (
            f'<circle cx="{_n(left + TILE_W - 9)}" cy="{_n(top + h / 2)}"'
            f' r="{_n(min(3.4, h * 0.24))}" fill="#FFFFFF" stroke="#000000" stroke-width="0.8"/>'
        )
    found = _TILES[key] = (
        f"<g><title>{PLAYER_NAMES[owner]} {shown}",
        f" ({about})</title>{body}</g>",
    )
    return found


def _marks(intruder: int, count: int, possible: bool, locked: bool) -> str:
    """A start field's marks, in cell coordinates: the padlock of a column the intruder holds
    (it never moves again), and the intruder's count toward a statue."""
    key = (intruder, count, possible, locked)
    found = _MARKS.get(key)
    if found is not None:
        return found
    home = PLAYER_NAMES[1 - intruder]
    parts = []
    if locked:
        parts.append(
            f"<g><title>locked: on {home}'s start field, this column never moves again</title>"
            '<path d="M 7.5 11 v -3 a 3 3 0 0 1 6 0 v 3" fill="none" stroke="#000000"'
            ' stroke-width="1.6"/>' + _rect(5.5, 10.5, 10, 8, PALETTE["black"], rx=1.0) + "</g>"
        )
    name = PLAYER_NAMES[intruder]
    title = f"{name}'s pieces here: {count} of the {STATUE} a statue needs" + (
        "" if possible else " (never a statue here: not all theirs)"
    )
    parts.append(
        f"<g><title>{escape(title)}</title>"
        + _rect(CELL - 31, 4, 27, 14, COLOURS[intruder] if possible else PALETTE["light"],
                "#333333", 0.6, 3.0)
        + _text(CELL - 17.5, 15, f"{count}/{STATUE}", 10,
                INK[intruder] if possible else PALETTE["black"], bold=True)
        + "</g>"
    )  # fmt: skip
    found = _MARKS[key] = "".join(parts)
    return found


def _pool(x: float, end: float, y: float, seat: int, ranks: tuple[int, ...], size: int) -> str:
    """``seat``'s defeated pool in a strip at ``(x, y)``: a tile per piece; ``?`` tiles and the
    candidate ranks where the viewer cannot pin the pool down."""
    key = (seat, x, end, y, ranks, size)
    found = _POOLS.get(key)
    if found is not None:
        return found
    label = f"{PLAYER_NAMES[seat]} ({PIECE_LETTERS[seat]}) defeated:"
    parts = [_text(x, y + 15, label, 11, anchor="start", bold=True)]
    at = x + len(label) * 6.9 + 4
    if not size:
        parts.append(_text(at, y + 15, "none", 11, "#555555", "start"))
    else:
        known = len(ranks) == size
        shown: list[int] = list(ranks) if known else [0] * size
        among = "" if known else "among " + " ".join(map(str, ranks))
        # Tiles 21 apart, closer when the strip would overflow.
        pitch = min(21.0, (end - at - len(among) * 6.2) / size)
        tile = min(18.0, pitch - 1.5)
        for rank in shown:
            what = f"defeated {rank}" if rank else "a defeated piece, rank unknown to you"
            parts.append(
                f"<g><title>{PLAYER_NAMES[seat]}: {what}</title>"
                + _rect(at, y + 4, tile, 15, COLOURS[seat], "#333333", 0.6,
                        min(7.5, tile / 2) if seat == 1 else 1.0)
                + _text(at + tile / 2, y + 15.5, str(rank) if rank else "?", 10.5, INK[seat],
                        bold=True)
                + "</g>"
            )  # fmt: skip
            at += pitch
        if among:
            parts.append(_text(at + 2, y + 15, among, 11, "#333333", "start"))
    found = _POOLS[key] = "".join(parts)
    return found


def _highlight(bottom: int, coordinates: bool, source: int, target: int, outline: bool) -> str:
    """An arrow across the border of a move's two squares, clear of the middle of each, where
    its column stands (a vertical one in the middle of the file, a horizontal one above the
    columns); and, with ``outline``, the target square outlined."""
    key = (bottom, coordinates, source, target, outline)
    found = _HIGHLIGHTS.get(key)
    if found is not None:
        return found
    corners = _corners(bottom, coordinates)
    tx, ty = corners[target]
    parts = []
    if outline:
        parts.append(
            f'<rect class="highlight" x="{_n(tx + 2.5)}" y="{_n(ty + 2.5)}"'
            f' width="{_n(CELL - 5)}" height="{_n(CELL - 5)}" rx="4" fill="none"'
            f' stroke="{HIGHLIGHT}" stroke-width="5"/>'
        )
    if source >= 0:
        sx, sy = corners[source]
        dx = (tx - sx) / CELL
        dy = (ty - sy) / CELL
        if dy:
            x1 = x2 = sx + CELL / 2
            border = sy + CELL / 2 + dy * CELL / 2
            y1, y2 = border - dy * 28, border + dy * 10
        else:
            y1 = y2 = sy + 24
            border = sx + CELL / 2 + dx * CELL / 2
            x1, x2 = border - dx * 28, border + dx * 10
        # The head: a triangle whose tip is at (x2, y2); the shaft stops inside it.
        bx, by = x2 - dx * 12, y2 - dy * 12
        head = " ".join(
            f"{_n(px)},{_n(py)}"
            for px, py in ((x2, y2), (bx + dy * 7, by - dx * 7), (bx - dy * 7, by + dx * 7))
        )
        line = f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(bx + dx)}" y2="{_n(by + dy)}"'
        parts.append(
            f'<g class="highlight">{line} stroke="#FFFFFF" stroke-width="8"/>'
            f'<polygon points="{head}" fill="#FFFFFF" stroke="#FFFFFF" stroke-width="4"/>'
            f'{line} stroke="#000000" stroke-width="3.5"/>'
            f'<polygon points="{head}" fill="#000000"/></g>'
        )
    found = _HIGHLIGHTS[key] = "".join(parts)
    return found


def _legend(omniscient: bool, y: float) -> str:
    key = (omniscient, y)
    found = _LEGENDS.get(key)
    if found is None:
        first = "Columns bottom to top · X: TIKI (square) · O: TAC (round)" + (
            "" if omniscient else " · ?: rank unknown to you"
        )
        second = "dot: rank known to both · dashed: blocked · padlock: never moves · n/5: statue"
        found = _LEGENDS[key] = _text(SIDE, y, first, 9.5, LABEL, "start") + _text(
            SIDE, y + 13, second, 9.5, LABEL, "start"
        )
    return found


# ----------------------------------------------------------------- the drawing


def _draw(
    columns: Sequence[Sequence[Piece]],
    pools: Sequence[Sequence[int]],
    pool_sizes: Sequence[int],
    history: Sequence[str],
    battles: Sequence[tuple[int, tuple[int, ...]]],
    current: int,
    turns: int,
    second: bool,
    passes: int,
    winner: int | None,
    mover: Callable[[int], int],
    viewer: int | None,
    omniscient: bool,
    strict: bool,
    options: PictureOptions,
) -> str:
    options.check_extra(EXTRA_OPTIONS)
    legend = options.extra.get("legend", True)
    if type(legend) is not bool:
        raise ValueError(f"legend must be True or False, not {legend!r}"[:100])
    flipped = options.flipped
    if flipped is not None and flipped not in (0, 1):
        raise ValueError(f"flipped must be 0 (TIKI), 1 (TAC) or None, not {flipped!r}"[:100])
    bottom = flipped or 0
    coordinates = options.coordinates
    left, width, height, below = _layout(coordinates, legend)
    picture = Svg(width, height)
    picture.raw(_background(bottom, coordinates, legend))

    # The header: the status, and whose picture it is.
    status = _status(len(history), current, turns, second, passes, winner)
    if omniscient:
        who = "whole position"
    elif viewer is None:
        who = "spectator's view"
    else:
        who = f"{PLAYER_NAMES[viewer]}'s view"
    picture.raw(
        _text(SIDE, 17, status, 13, anchor="start", bold=True)
        + _text(width - SIDE, 17, who, 11, "#555555", "end")
    )

    # The columns, and the marks of the start fields.
    _corners(bottom, coordinates)  # computes the places too
    places = _PLACES[(bottom, coordinates)]
    for square in range(NUM_SQUARES):
        column = columns[square]
        if not column:
            continue
        count = len(column)
        name = SQUARE_NAMES[square]
        parts = [places[square]]
        for index in range(count):
            piece = column[index]
            blocked = index + 1 < count and column[index + 1][0] != piece[0]
            start, rest = _tile(count, index, piece, blocked)
            parts.append(f"{start} on {name}{rest}")
        home = _HOME[square]
        if home >= 0:
            intruder = 1 - home
            mine = 0
            for piece in column:
                if piece[0] == intruder:
                    mine += 1
            if mine:
                possible = not strict or mine == count
                parts.append(_marks(intruder, mine, possible, column[-1][0] == intruder))
        parts.append("</g>")
        picture.raw("".join(parts))

    # The highlight, and what it did.
    note = ""
    if options.highlight is not None:
        source, target = _parse_highlight(options.highlight)
        clean = "".join(options.highlight.split()).lower()
        index = len(history) - 1
        while index >= 0 and history[index] != clean:
            index -= 1
        ranks: tuple[int, ...] = ()
        if index >= 0 and source >= 0:
            for at, seen in reversed(battles):
                if at == index:
                    ranks = seen
                    break
                if at < index:
                    break
        if target >= 0:
            picture.raw(_highlight(bottom, coordinates, source, target, source < 0 or bool(ranks)))
        if ranks:
            note = _battle_note(target, mover(index), ranks)
        elif index == len(history) - 1 and index >= 0:
            note = "Last action: " + clean
        else:
            note = "Highlighted: " + clean

    # The defeated pools, each beside its owner's start row.
    end = left + BOARD
    top_seat = 1 - bottom
    picture.raw(
        _pool(left, end, HEADER + 2, top_seat, tuple(pools[top_seat]), pool_sizes[top_seat])
        + _pool(left, end, below + 2, bottom, tuple(pools[bottom]), pool_sizes[bottom])
    )
    y = below + STRIP + 13
    if note:
        # A long battle gets smaller text, so that the note fits the picture's width.
        size = min(11.0, (width - 2 * SIDE) / (len(note) * 0.58))
        picture.raw(_text(SIDE, y, note, size, anchor="start"))
    if legend:
        picture.raw(_legend(omniscient, y + 15))
    return picture.render(options.size)

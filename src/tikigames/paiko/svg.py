"""Pictures of Paikō positions: ``state.svg()`` and ``obs.svg()``.

The diamond's 112 squares are drawn as White sees them (``flipped=1`` turns the board half
round, so that Black's homeground is at the bottom; an observation is drawn from its player's
side). The half squares on the diamond's edge, which are not part of the game, stay blank; the
diamond's diagonals split the four quarters; each homeground is tinted with its owner's colour,
the middlegrounds are plain and the four black squares black. A tile is its letter (``S`` Sai,
``X`` Sword, ``B`` Bow, ``L`` Lotus, ``A`` Air, ``F`` Fire, ``E`` Earth, ``W`` Water); White's
tiles are light discs with an orange rim, Black's dark rounded squares with a blue rim, and the
Sai, Bow and Fire carry a notch on the side they face. Beside the board: each player's points,
lost tiles, hand and reserve (by tile type, with counts), the phase and whose turn it is.

The highlighted action (by default the last one) is drawn on the board: a deploy outlined, a
shift as an arrow, a Water's redeploy as a dashed arrow, a turn outlined, and the tiles it
captured as crossed-out ghosts. A ``give`` (the captured player's pick) highlights the capture
it pays for (the captures are the state's, ``state.captures(index)``, which an observation
carries). Two picture options of Paikō's own (``options.extra``):

``overlay=<player>``
    that player's threat — how many of their tiles threaten each square, in a small vermillion
    disc (a Fire's count weighs against every tile, its own side's too) — and the squares their
    tiles cover, framed in green (their homeground covers them as well, unframed).
``destinations="<square>"``
    where the tile on that square may go, from the legal actions: a dot for a shift, a ring for
    a Water's redeploy, and notches beside the tile for its turns in place.

Paikō hides nothing, so a state and its observations draw the same board; only the default
orientation, the observer's name and the legal actions (the observer's own, when it is their
turn) differ.

>>> import tikigames
>>> state = tikigames.load("paiko").new_initial_state()
>>> for text in ["draft sword"] * 3 + ["draft fire"] * 3 + ["draft sai"]:
...     state.apply_action(state.parse_action(text))
>>> picture = state.svg(size=300, overlay=0)
>>> picture.startswith("<svg") and "Draft, tile 8 of 17: Black drafts" in picture
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tikigames.core.constants import TERMINAL
from tikigames.core.svg import PALETTE, SEAT_COLOURS, PictureOptions, Svg
from tikigames.paiko.actions import (
    DEPLOY,
    GIVE,
    REDEPLOY,
    SHIFT,
    STAY,
    TURN,
    PaikoAction,
    PaikoTable,
)
from tikigames.paiko.data import (
    BLACK,
    COORDS,
    DRAFT_ORDER,
    FACED,
    FACINGS,
    HOME,
    NUM_SQUARES,
    NUM_TILES,
    PLAYER_NAMES,
    SAI,
    SIZE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TILE_INDEX,
    TILE_LETTERS,
    TILES,
    kind_of,
    result_words,
    square_at,
)
from tikigames.paiko.maps import PaikoMaps
from tikigames.paiko.observation import LOOK_BACK, PaikoObservation
from tikigames.paiko.state import PaikoState

__all__ = ["EXTRA_OPTIONS", "svg_observation", "svg_state"]

#: The picture options of Paikō's own (``state.svg(overlay=0, destinations="e5")``).
EXTRA_OPTIONS = ("overlay", "destinations")

#: A tile on the board: ``(square, player, tile, facing)``, as ``state.board()`` gives it.
Tile = tuple[str, int, str, str]

#: The side of a square, in the picture's units.
CELL = 30.0
#: The board's top-left corner (the diamond's bounding box) and the side panel's left edge.
BOARD_X = 8.0
BOARD_Y = 44.0
PANEL_X = BOARD_X + (SIZE + 2) * CELL + 14
WIDTH = PANEL_X + 262
HEIGHT = BOARD_Y + (SIZE + 2) * CELL + 8


#: The panel's two rows per player.
ROW_NAMES = ("hand", "reserve")
#: Tile names as the pictures write them.
TITLES = tuple(name.capitalize() for name in TILES)
#: The screen direction of each facing as White sees the board (N is up).
DIRECTIONS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))

HIGHLIGHT = PALETTE["black"]
CAPTURE = PALETTE["vermillion"]
THREAT_COLOUR = PALETTE["vermillion"]
COVER_COLOUR = PALETTE["green"]
MOVES = PALETTE["purple"]
#: The width of a highlighted square's outline.
OUTLINE = 2.5
GRID = "#B8B0A0"
EDGE = "#E6E0D2"
DARK_TILE = "#2B2B2B"
FAINT = "#BBBBBB"
LABEL = "#5A5040"
GHOST_INK = "#555555"


def _tint(colour: str, amount: float) -> str:
    """``colour`` (``#RRGGBB``) mixed with white: ``amount`` of the colour, the rest white."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * amount) for c in channels]
    return "#" + "".join(f"{c:02X}" for c in mixed)


#: Each player's homeground tint and tile rim.
HOME_TINTS = (_tint(SEAT_COLOURS[0], 0.3), _tint(SEAT_COLOURS[1], 0.25))
RIMS = (SEAT_COLOURS[0], SEAT_COLOURS[1])
#: Darker shades of the seat colours, for text on white.
NAME_INKS = ("#9C6B00", "#005A8C")


class _View:
    """What a picture shows, read from a state's accessors or an observation's fields."""

    __slots__ = (
        "board",
        "current",
        "hands",
        "last_moved",
        "legal",
        "lost",
        "observer",
        "passes",
        "pending_sai",
        "phase",
        "picks",
        "reserves",
        "scores",
        "turn",
        "winner",
    )

    def __init__(
        self,
        board: list[Tile],
        hands: list[list[str]],
        reserves: list[list[str]],
        lost: list[int],
        scores: list[int],
        phase: str,
        current: int,
        turn: int,
        passes: int,
        pending_sai: str | None,
        picks: int,
        winner: int | None,
        last_moved: list[tuple[str | None, int]],
        legal: list[PaikoAction],
        observer: str,
    ) -> None:
        self.board = board
        self.hands = hands
        self.reserves = reserves
        self.lost = lost
        self.scores = scores
        self.phase = phase
        self.current = current
        self.turn = turn
        self.passes = passes
        self.pending_sai = pending_sai
        self.picks = picks
        self.winner = winner
        self.last_moved = last_moved
        self.legal = legal
        self.observer = observer


class _Marks:
    """The highlighted action as drawn: the move, the square of a Sai's deploy whose follow-up
    the move is (or −1), the tiles it captured, and its text."""

    __slots__ = ("captured", "deployed", "move", "text")

    def __init__(
        self, move: PaikoAction | None, deployed: int, captured: list[Tile], text: str
    ) -> None:
        self.move = move
        self.deployed = deployed
        self.captured = captured
        self.text = text


# ---------------------------------------------------------------- reading the options


def _overlay(options: PictureOptions) -> int:
    value = options.extra.get("overlay")
    if value is None:
        return -1
    if type(value) is not int or value not in (0, 1):
        raise ValueError(f"overlay must be a player, 0 or 1, not {value!r}"[:100])
    return int(value)


def _destinations(options: PictureOptions) -> int:
    value = options.extra.get("destinations")
    if value is None:
        return -1
    square = SQUARE_INDEX.get(value.strip().lower(), -1) if isinstance(value, str) else -1
    if square < 0:
        raise ValueError(f"destinations must name a square such as 'e5', not {value!r}"[:100])
    return square


def _bottom(options: PictureOptions) -> int:
    flipped = options.flipped
    if flipped is None:
        return 0
    if flipped not in (0, 1):
        raise ValueError(f"flipped must be a player, 0 or 1, not {flipped!r}")
    return flipped


# ---------------------------------------------------------------- the highlighted action


#: The actions that change the board (a ``give`` only pays for a capture).
BOARD_KINDS = (DEPLOY, SHIFT, TURN, REDEPLOY, STAY)


def _marks(
    text: str | None,
    table: PaikoTable,
    history: Sequence[str],
    start: int,
    captures: Mapping[int, Sequence[Tile]],
) -> _Marks:
    """The highlighted action ``text`` (a ``ValueError`` when it names no action), found among
    the last actions of ``history`` (texts of the actions from index ``start`` on); the tiles
    it captured are those ``captures`` holds for its index (the state's ``captures(index)``)."""
    if text is None:
        return _Marks(None, -1, [], "")
    action = table.parse(text)
    index = _find(history, action.text)
    while index >= 0 and table.parse(history[index]).kind == GIVE:
        index -= 1  # a pick highlights the capture it pays for
    if index < 0:
        return _Marks(action, -1, [], action.text)
    move = table.parse(history[index])
    if move.kind not in BOARD_KINDS:
        return _Marks(action, -1, [], action.text)
    deployed = -1
    if index > 0 and move.kind in (STAY, SHIFT, TURN):
        before = table.parse(history[index - 1])
        if before.kind == DEPLOY and before.tile == SAI:
            deployed = before.dst  # the move is the deployed Sai's follow-up
    return _Marks(move, deployed, list(captures.get(start + index, ())), action.text)


def _find(history: Sequence[str], text: str) -> int:
    """The index of the last ``text`` among the last :data:`LOOK_BACK` of ``history``, or −1."""
    for index in range(len(history) - 1, max(-1, len(history) - 1 - LOOK_BACK), -1):
        if history[index] == text:
            return index
    return -1


# ---------------------------------------------------------------- geometry


class _Geometry:
    """Screen positions of squares for one orientation."""

    __slots__ = ("bottom",)

    def __init__(self, bottom: int) -> None:
        self.bottom = bottom

    def cell(self, square: int) -> tuple[float, float]:
        """The top-left corner of a square."""
        x, y = COORDS[square]
        if self.bottom == 1:
            x, y = SIZE - 1 - x, SIZE - 1 - y
        return BOARD_X + (x + 1) * CELL, BOARD_Y + (y + 1) * CELL

    def centre(self, square: int) -> tuple[float, float]:
        left, top = self.cell(square)
        return left + CELL / 2, top + CELL / 2

    def direction(self, facing: int) -> tuple[float, float]:
        dx, dy = DIRECTIONS[facing]
        return (-dx, -dy) if self.bottom == 1 else (dx, dy)


def _board_square(geometry: _Geometry, column: int, row: int) -> int:
    """The square drawn at screen column and row (0…13), or −1."""
    if geometry.bottom == 1:
        return square_at(SIZE - 1 - column, SIZE - 1 - row)
    return square_at(column, row)


# ---------------------------------------------------------------- drawing


def _tile_title(tile: Tile) -> str:
    square, player, name, facing = tile
    kind = TILE_INDEX[name]
    faced = f", facing {facing}" if FACED[kind] else ""
    return f"{PLAYER_NAMES[player]} {TITLES[kind]} on {square}{faced}"


def _draw_tile(
    picture: Svg,
    cx: float,
    cy: float,
    radius: float,
    player: int,
    kind: int,
    direction: tuple[float, float] | None,
    title: str | None,
    ghost: bool = False,
    letter: bool = True,
) -> None:
    """One tile: White's a light disc, Black's a dark rounded square; the letter of its type
    (unless ``letter`` is false: the owner's glyph); a notch toward ``direction`` (a Sai, Bow
    or Fire)."""
    rim = RIMS[player]
    fill = "none" if ghost else (PALETTE["white"] if player == 0 else DARK_TILE)
    ink = GHOST_INK if ghost else (PALETTE["black"] if player == 0 else PALETTE["white"])
    width = radius * 0.2
    if direction is not None:
        dx, dy = direction
        tip = radius + radius * 0.55
        base = radius * 0.72
        half = radius * 0.42
        picture.polygon(
            [
                (cx + dx * tip, cy + dy * tip),
                (cx + dx * base - dy * half, cy + dy * base + dx * half),
                (cx + dx * base + dy * half, cy + dy * base - dx * half),
            ],
            fill=FAINT if ghost else rim,
        )
    if player == 0:
        picture.circle(
            cx, cy, radius, fill=fill, stroke=rim, stroke_width=width,
            title=title, dash="3 2" if ghost else None,
        )  # fmt: skip
    else:
        side = radius * 1.8
        picture.rect(
            cx - side / 2, cy - side / 2, side, side, fill=fill, stroke=rim,
            stroke_width=width, rx=radius * 0.35, title=title, dash="3 2" if ghost else None,
        )  # fmt: skip
    if letter:
        picture.text(
            cx, cy + radius * 0.42, TILE_LETTERS[kind], size=radius * 1.2, fill=ink, weight="bold"
        )


#: The empty board's elements by orientation and coordinates, drawn once (the same text every
#: picture would draw, so the pictures stay byte-identical).
_BOARDS: dict[tuple[int, bool], str] = {}
#: The same for the pieces every picture repeats, by what decides their text: tiles on the
#: board (at most 2 · 112 · 2 · 8 · 4 of them, far fewer in practice), the panel's slots and
#: the overlay's marks.
_TILES: dict[tuple[int, int, int, int, int], str] = {}
_SLOTS: dict[tuple[float, int, int, int, int], str] = {}
_COVERS: dict[tuple[int, int, int], str] = {}
_THREATS: dict[tuple[int, int, int, int], str] = {}


def _board_fragment(bottom: int, coordinates: bool) -> str:
    key = (bottom, coordinates)
    fragment = _BOARDS.get(key)
    if fragment is None:
        picture = Svg(WIDTH, HEIGHT)
        _draw_board(picture, _Geometry(bottom), coordinates)
        fragment = picture.fragment()
        _BOARDS[key] = fragment
    return fragment


def _tile_fragment(bottom: int, tile: Tile) -> str:
    """A tile on the board."""
    square, player, name, facing = tile
    kind, turn, index = TILE_INDEX[name], FACINGS.index(facing), SQUARE_INDEX[square]
    key = (bottom, index, player, kind, turn)
    fragment = _TILES.get(key)
    if fragment is None:
        picture = Svg(WIDTH, HEIGHT)
        geometry = _Geometry(bottom)
        cx, cy = geometry.centre(index)
        direction = geometry.direction(turn) if FACED[kind] else None
        _draw_tile(picture, cx, cy, CELL * 0.34, player, kind, direction, _tile_title(tile))
        fragment = picture.fragment()
        _TILES[key] = fragment
    return fragment


def _draw_board(picture: Svg, geometry: _Geometry, coordinates: bool) -> None:
    half = (SIZE + 2) * CELL / 2
    mid_x, mid_y = BOARD_X + half, BOARD_Y + half
    picture.polygon(
        [(mid_x, BOARD_Y), (BOARD_X + 2 * half, mid_y), (mid_x, BOARD_Y + 2 * half),
         (BOARD_X, mid_y)],
        fill=EDGE, stroke=GRID, stroke_width=1.0,
    )  # fmt: skip
    for square in range(NUM_SQUARES):
        left, top = geometry.cell(square)
        name = SQUARE_NAMES[square]
        if BLACK[square]:
            fill, title = PALETTE["black"], f"{name}: a black square (only a Lotus may stand here)"
        elif HOME[0][square]:
            fill, title = HOME_TINTS[0], f"{name}: White's homeground"
        elif HOME[1][square]:
            fill, title = HOME_TINTS[1], f"{name}: Black's homeground"
        else:
            fill, title = PALETTE["board"], f"{name}: a middleground"
        picture.rect(left, top, CELL, CELL, fill=fill, stroke=GRID, stroke_width=0.6, title=title)
    # The quarters split along the diamond's diagonals.
    picture.line(mid_x, BOARD_Y, mid_x, BOARD_Y + 2 * half, stroke="#5A5040", stroke_width=2.0)
    picture.line(BOARD_X, mid_y, BOARD_X + 2 * half, mid_y, stroke="#5A5040", stroke_width=2.0)
    _draw_quarter_names(picture, geometry)
    if not coordinates:
        return
    # Each edge of the diamond takes one kind of label, in the half squares outside it: the
    # files of the left half below the board and those of the right half above it, the ranks
    # of the top half on the left and those of the bottom half on the right.
    for column in range(SIZE):
        rows = [row for row in range(SIZE) if _board_square(geometry, column, row) >= 0]
        below = column < SIZE // 2
        square = _board_square(geometry, column, rows[-1] if below else rows[0])
        _edge_label(picture, geometry, square, 0, 1 if below else -1, SQUARE_NAMES[square][0])
    for row in range(SIZE):
        columns = [column for column in range(SIZE) if _board_square(geometry, column, row) >= 0]
        on_left = row < SIZE // 2
        square = _board_square(geometry, columns[0] if on_left else columns[-1], row)
        _edge_label(picture, geometry, square, -1 if on_left else 1, 0, SQUARE_NAMES[square][1:])


def _edge_label(
    picture: Svg, geometry: _Geometry, square: int, dx: int, dy: int, text: str
) -> None:
    """``text`` in the half square beside ``square`` (one step ``dx``, ``dy`` on the screen),
    in the half of it that lies inside the diamond."""
    cx, cy = geometry.centre(square)
    hx, hy = cx + dx * CELL, cy + dy * CELL
    middle = BOARD_X + (SIZE + 2) * CELL / 2
    sx = 1.0 if hx < middle else -1.0
    sy = 1.0 if hy < BOARD_Y + (SIZE + 2) * CELL / 2 else -1.0
    size = CELL * 0.36
    picture.text(hx + sx * CELL / 6, hy + sy * CELL / 6 + size * 0.36, text, size=size, fill=LABEL)


def _draw_quarter_names(picture: Svg, geometry: _Geometry) -> None:
    """Each quarter's name in the corner of the picture beside it."""
    span = (SIZE + 2) * CELL
    corners = (
        (BOARD_X + CELL * 1.6, BOARD_Y + CELL * 0.9, "start"),
        (BOARD_X + span - CELL * 1.6, BOARD_Y + CELL * 0.9, "end"),
        (BOARD_X + CELL * 1.6, BOARD_Y + span - CELL * 1.4, "start"),
        (BOARD_X + span - CELL * 1.6, BOARD_Y + span - CELL * 1.4, "end"),
    )
    for x, y, anchor in corners:
        # The quarter the corner touches: the square one step inside the diamond's edge.
        column = 3 if anchor == "start" else SIZE - 4
        row = 3 if y < BOARD_Y + span / 2 else SIZE - 4
        square = _board_square(geometry, column, row)
        if HOME[0][square]:
            name, colour = "White's homeground", NAME_INKS[0]
        elif HOME[1][square]:
            name, colour = "Black's homeground", NAME_INKS[1]
        else:
            name, colour = "middleground", LABEL
        first, second = name.split(" ") if " " in name else (name, "")
        picture.text(x, y, first, size=CELL * 0.42, fill=colour, anchor=anchor, weight="bold")
        if second:
            picture.text(
                x, y + CELL * 0.5, second, size=CELL * 0.42, fill=colour, anchor=anchor,
                weight="bold",
            )  # fmt: skip


def _overlay_maps(board: list[Tile], player: int) -> tuple[list[int], list[bool]]:
    """How many of ``player``'s tiles threaten each square, and which squares they cover
    (none for ``player`` −1: no overlay): the engine's maps of the board
    (:class:`~tikigames.paiko.maps.PaikoMaps`) less the homeground's share."""
    if player < 0:
        return [0] * NUM_SQUARES, [False] * NUM_SQUARES
    maps = PaikoMaps()
    for place, owner, name, facing in board:
        piece = owner << 5 | kind_of(TILE_INDEX[name], FACINGS.index(facing))
        maps.place(SQUARE_INDEX[place], piece)
    home, support, cover = HOME[player], maps.support[player], maps.cover[player]
    return (
        [support[s] - home[s] for s in range(NUM_SQUARES)],
        [cover[s] - home[s] > 0 for s in range(NUM_SQUARES)],
    )


def _cover_fragment(bottom: int, square: int, player: int) -> str:
    key = (bottom, square, player)
    fragment = _COVERS.get(key)
    if fragment is None:
        picture = Svg(WIDTH, HEIGHT)
        left, top = _Geometry(bottom).cell(square)
        picture.rect(
            left + 2.5, top + 2.5, CELL - 5, CELL - 5, stroke=COVER_COLOUR, stroke_width=2.5,
            title=f"{SQUARE_NAMES[square]}: covered by {PLAYER_NAMES[player]}",
        )  # fmt: skip
        fragment = picture.fragment()
        _COVERS[key] = fragment
    return fragment


def _threat_fragment(bottom: int, square: int, player: int, count: int) -> str:
    key = (bottom, square, player, count)
    fragment = _THREATS.get(key)
    if fragment is None:
        picture = Svg(WIDTH, HEIGHT)
        left, top = _Geometry(bottom).cell(square)
        who = PLAYER_NAMES[player]
        picture.circle(
            left + CELL * 0.78, top + CELL * 0.22, CELL * 0.19, fill=THREAT_COLOUR,
            stroke=PALETTE["white"], stroke_width=0.8,
            title=f"{SQUARE_NAMES[square]}: threatened by {count} of {who}'s tiles",
        )  # fmt: skip
        picture.text(
            left + CELL * 0.78, top + CELL * 0.32, str(count), size=CELL * 0.3,
            fill=PALETTE["white"], weight="bold",
        )  # fmt: skip
        fragment = picture.fragment()
        _THREATS[key] = fragment
    return fragment


def _outline(picture: Svg, geometry: _Geometry, square: int, dash: str | None = None) -> None:
    """A square's outline: black inside a white halo, so that it shows beside black squares."""
    left, top = geometry.cell(square)
    inset = 2.0
    side = CELL - 2 * inset
    picture.rect(left + inset, top + inset, side, side, stroke=PALETTE["white"], stroke_width=5.0)
    picture.rect(
        left + inset, top + inset, side, side, stroke=HIGHLIGHT, stroke_width=OUTLINE, dash=dash
    )


def _draw_outlines(picture: Svg, geometry: _Geometry, marks: _Marks) -> None:
    """The highlighted squares (under the tiles, so that a tile's notch stays visible): a
    deploy, a turn, a Sai's deploy before its follow-up, and (dashed) where a move started."""
    if marks.deployed >= 0:
        _outline(picture, geometry, marks.deployed)
    move = marks.move
    if move is None:
        return
    if move.kind in (DEPLOY, TURN):
        _outline(picture, geometry, move.dst)
    elif move.kind in (SHIFT, REDEPLOY):
        _outline(picture, geometry, move.src, dash="4 3")


def _draw_arrow(picture: Svg, geometry: _Geometry, marks: _Marks) -> None:
    """A shift's arrow, or a redeploy's dashed one (over the tiles)."""
    move = marks.move
    if move is None or move.kind not in (SHIFT, REDEPLOY):
        return
    x1, y1 = geometry.centre(move.src)
    x2, y2 = geometry.centre(move.dst)
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    shorten = CELL * 0.3 / length
    picture.line(
        x1, y1, x2 - (x2 - x1) * shorten, y2 - (y2 - y1) * shorten, stroke=HIGHLIGHT,
        stroke_width=3.0, arrow=True, dash="6 3" if move.kind == REDEPLOY else None,
    )  # fmt: skip


def _draw_captures(picture: Svg, geometry: _Geometry, captured: list[Tile]) -> None:
    for tile in captured:
        square = SQUARE_INDEX[tile[0]]
        kind = TILE_INDEX[tile[2]]
        cx, cy = geometry.centre(square)
        direction = geometry.direction(FACINGS.index(tile[3])) if FACED[kind] else None
        title = "captured: " + _tile_title(tile)
        _draw_tile(picture, cx, cy, CELL * 0.36, tile[1], kind, direction, title, ghost=True)
        reach = CELL * 0.38
        for sign in (1.0, -1.0):
            picture.line(
                cx - reach, cy - reach * sign, cx + reach, cy + reach * sign, stroke=CAPTURE,
                stroke_width=2.2,
            )  # fmt: skip


def _draw_destinations(
    picture: Svg, geometry: _Geometry, origin: int, legal: list[PaikoAction]
) -> None:
    shifts = {a.dst for a in legal if a.kind == SHIFT and a.src == origin}
    redeploys = {a.dst for a in legal if a.kind == REDEPLOY and a.src == origin}
    turns = sorted({a.facing for a in legal if a.kind == TURN and a.src == origin})
    for square in sorted(shifts | redeploys):
        cx, cy = geometry.centre(square)
        name = SQUARE_NAMES[square]
        if square in shifts:
            picture.circle(
                cx, cy, CELL * 0.17, fill=MOVES, stroke=PALETTE["white"], stroke_width=1.0,
                title=f"{name}: a shift may end here",
            )  # fmt: skip
        if square in redeploys:
            picture.circle(
                cx, cy, CELL * 0.34, stroke=MOVES, stroke_width=2.5,
                title=f"{name}: the Water may redeploy here",
            )  # fmt: skip
    cx, cy = geometry.centre(origin)
    for facing in turns:
        dx, dy = geometry.direction(facing)
        tip, base, half = CELL * 0.5, CELL * 0.36, CELL * 0.13
        picture.polygon(
            [(cx + dx * tip, cy + dy * tip),
             (cx + dx * base - dy * half, cy + dy * base + dx * half),
             (cx + dx * base + dy * half, cy + dy * base - dx * half)],
            fill="none", stroke=MOVES, stroke_width=1.5,
            title=f"{SQUARE_NAMES[origin]}: may turn to face {FACINGS[facing]}",
        )  # fmt: skip


def _status(view: _View) -> str:
    if view.current == TERMINAL:
        return f"Game over after {view.turn} turns: {result_words(view.winner)}"
    name = PLAYER_NAMES[view.current]
    if view.phase == "draft":
        drafted = sum(len(hand) for hand in view.hands)
        return f"Draft, tile {drafted + 1} of {len(DRAFT_ORDER)}: {name} drafts"
    turn = f"Turn {view.turn + 1}"
    if view.phase == "follow-up":
        return f"{turn}, follow-up: {name}'s Sai on {view.pending_sai} may shift, turn or stay"
    if view.phase == "picks":
        other = PLAYER_NAMES[1 - view.current]
        tiles = "tile" if view.picks == 1 else "tiles"
        return f"{turn}, picks: {name} picks {view.picks} {tiles} of {other}'s reserve for {other}"
    return f"{turn}: {name} to act"


def _counts(names: list[str]) -> list[int]:
    counts = [0] * NUM_TILES
    for name in names:
        counts[TILE_INDEX[name]] += 1
    return counts


def _draw_row(picture: Svg, top: float, row: int, names: list[str], player: int) -> None:
    """A hand (``row`` 0) or a reserve (1): each tile type with its count."""
    label = ROW_NAMES[row]
    picture.text(PANEL_X + 4, top + 4, label, size=10, anchor="start", fill="#555555")
    counts = _counts(names)
    for kind in range(NUM_TILES):
        picture.raw(_slot_fragment(top, row, player, kind, counts[kind]))


def _slot_fragment(top: float, row: int, player: int, kind: int, count: int) -> str:
    key = (top, row, player, kind, count)
    fragment = _SLOTS.get(key)
    if fragment is None:
        picture = Svg(WIDTH, HEIGHT)
        cx = PANEL_X + 62 + kind * 25.0
        title = f"{PLAYER_NAMES[player]}'s {ROW_NAMES[row]}: {count} {TITLES[kind]}"
        if count:
            _draw_tile(picture, cx, top, 8.5, player, kind, None, title)
            picture.text(cx + 8, top + 12, str(count), size=9, anchor="start", weight="bold")
        else:
            picture.circle(cx, top, 3.0, fill=FAINT, title=title)
        fragment = picture.fragment()
        _SLOTS[key] = fragment
    return fragment


def _draw_panel(picture: Svg, view: _View, bottom: int, marks: _Marks) -> None:
    top = BOARD_Y + 6
    for player in (1 - bottom, bottom):
        name = PLAYER_NAMES[player]
        acting = view.current == player
        winner = view.winner == player and view.current == TERMINAL
        _draw_tile(picture, PANEL_X + 10, top, 8.0, player, 0, None, None, letter=False)
        points = "point" if view.scores[player] == 1 else "points"
        header = f"{name}: {view.scores[player]} {points}, {view.lost[player]} lost"
        if winner:
            header += " — wins"
        picture.text(
            PANEL_X + 24, top + 4.5, header, size=12.5, anchor="start",
            weight="bold" if acting or winner else None,
        )  # fmt: skip
        if acting:
            picture.polygon(
                [(PANEL_X - 10, top - 5), (PANEL_X - 2, top), (PANEL_X - 10, top + 5)],
                fill=PALETTE["black"],
                title=f"{name} to act",
            )
        _draw_row(picture, top + 26, 0, view.hands[player], player)
        _draw_row(picture, top + 52, 1, view.reserves[player], player)
        moved, count = view.last_moved[player]
        if moved is not None and count:
            picture.text(
                PANEL_X + 4, top + 75, f"moved the tile on {moved} {count}× in a row",
                size=9.5, anchor="start", fill="#555555",
            )  # fmt: skip
        top += 100
    lines = [
        "S Sai · X Sword · B Bow · L Lotus",
        "A Air · F Fire · E Earth · W Water",
        "White: light discs, orange rim",
        "Black: dark squares, blue rim",
        "notch: the facing (Sai, Bow, Fire)",
        "tinted: the two homegrounds",
    ]
    if view.passes:
        lines.append(f"passes in a row: {view.passes}")
    for line in lines:
        picture.text(PANEL_X + 4, top + 4, line, size=10.5, anchor="start", fill="#333333")
        top += 15
    if marks.captured:
        fell = len(marks.captured)
        picture.text(
            PANEL_X + 4, top + 8, f"captured: {fell} tile{'' if fell == 1 else 's'} (crossed out)",
            size=10.5, anchor="start", fill=CAPTURE, weight="bold",
        )  # fmt: skip


def _draw(view: _View, options: PictureOptions, marks: _Marks) -> str:
    overlay = _overlay(options)
    destinations = _destinations(options)
    bottom = _bottom(options)
    geometry = _Geometry(bottom)
    picture = Svg(WIDTH, HEIGHT)
    picture.rect(0, 0, WIDTH, HEIGHT, fill=PALETTE["white"])
    picture.text(8, 18, "Paikō — " + _status(view), size=14, anchor="start", weight="bold")
    under = view.observer
    if marks.text:
        under += ("; " if under else "") + f"highlighted: {marks.text}"
    if overlay >= 0:
        under += ("; " if under else "") + f"overlay: {PLAYER_NAMES[overlay]}'s threat and cover"
    if under:
        picture.text(8, 35, under, size=11, anchor="start", fill="#444444")
    picture.raw(_board_fragment(bottom, options.coordinates))
    threat, cover = _overlay_maps(view.board, overlay)
    for square in range(NUM_SQUARES):
        if cover[square]:
            picture.raw(_cover_fragment(bottom, square, overlay))
    _draw_outlines(picture, geometry, marks)
    for tile in view.board:
        picture.raw(_tile_fragment(bottom, tile))
    for square in range(NUM_SQUARES):
        if threat[square]:
            picture.raw(_threat_fragment(bottom, square, overlay, threat[square]))
    _draw_captures(picture, geometry, marks.captured)
    _draw_arrow(picture, geometry, marks)
    if destinations >= 0:
        _draw_destinations(picture, geometry, destinations, view.legal)
    _draw_panel(picture, view, bottom, marks)
    return picture.render(options.size)


# ---------------------------------------------------------------- the two entry points


def _legal(actions: list[object]) -> list[PaikoAction]:
    return [action for action in actions if isinstance(action, PaikoAction)]


def svg_state(state: PaikoState, options: PictureOptions) -> str:
    """The whole position (``state.svg()``)."""
    options.check_extra(EXTRA_OPTIONS)
    table = state.game.action_table
    view = _View(
        board=state.board(),
        hands=[state.hand(0), state.hand(1)],
        reserves=[state.reserve(0), state.reserve(1)],
        lost=state.lost(),
        scores=state.scores(),
        phase=state.phase(),
        current=state.current_player(),
        turn=state.turn(),
        passes=state.passes(),
        pending_sai=state.pending_sai(),
        picks=state.picks(),
        winner=state.winner(),
        last_moved=state.last_moved(),
        legal=_legal(list(state.legal_actions())),
        observer="",
    )
    history = [action.text for action in state.history()[-LOOK_BACK - 1 :]]
    start = state.move_number() - len(history)
    captures = {index: state.captures(index) for index in state.capturing(start)}
    return _draw(view, options, _marks(options.highlight, table, history, start, captures))


def svg_observation(obs: PaikoObservation, options: PictureOptions) -> str:
    """What the observer sees (``obs.svg()``): the whole position, from their side."""
    options.check_extra(EXTRA_OPTIONS)
    table = obs.game.action_table
    view = _View(
        board=list(obs.board),
        hands=[list(obs.hands[0]), list(obs.hands[1])],
        reserves=[list(obs.reserves[0]), list(obs.reserves[1])],
        lost=list(obs.lost),
        scores=list(obs.scores),
        phase=obs.phase,
        current=obs.current_player,
        turn=obs.turn,
        passes=obs.passes,
        pending_sai=obs.pending_sai,
        picks=obs.picks,
        winner=obs.winner,
        last_moved=list(obs.last_moved),
        legal=_legal(list(obs.legal_actions())),
        observer="seen by a spectator"
        if obs.player is None
        else f"seen by {PLAYER_NAMES[obs.player]}",
    )
    marks = _marks(options.highlight, table, obs.history, 0, dict(obs.captures))
    return _draw(view, options, marks)

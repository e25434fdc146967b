"""Pictures of Tac-Tik: the track as a ring of 16 squares per colour, with each colour's start
square, home (4 squares, inwards from the start square) and reserve; pawns as shapes that carry
their colour and its letter (partners — or the two colours of one player in the 2-player
variant — share a shape: circle, diamond, square), a pieu ringed in black; the discard pile's
top, the talon and a seven in progress in the middle; and beside the board each player's hand.

``state.svg()`` shows every hand face up; ``obs.svg()`` the observer's hand face up (with the
card they gave and the one they received), the others' as backs with their count. It is drawn
from the observation's fields alone, so it cannot show a hidden card.

The picture's own option (``extra``): ``panel`` (default ``True``): draw the players' panel
beside the board; ``False`` draws the board alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from tikigames.core.svg import PALETTE, PictureOptions, Svg
from tikigames.tactik.data import COLOUR_LETTERS, COLOUR_NAMES, TacTikRules, geometry
from tikigames.tactik.observation import TacTikObservation
from tikigames.tactik.state import PawnMove, TacTikState

__all__ = ["svg_observation", "svg_state"]

#: The pitch of the track (user units between two squares' centres).
_P = 20.0
_PANEL = 300.0
_ROW = 52.0
#: The panel's smallest text, in user units (readable when the picture is shown page-wide).
_SMALL = 10.0
#: Each colour name's fill (the Okabe–Ito palette) and the letter's colour on it.
_FILL = {
    "green": PALETTE["green"],
    "red": PALETTE["vermillion"],
    "blue": PALETTE["blue"],
    "yellow": PALETTE["yellow"],
    "black": PALETTE["black"],
    "white": PALETTE["white"],
}
_INK = {"blue": PALETTE["white"], "black": PALETTE["white"]}
_SHAPES = ("circle", "diamond", "square")
_EXTRA = ("panel",)


class _Board:
    """The fixed geometry of one orientation: every square's centre, the reserves' slots."""

    __slots__ = ("centre", "homes", "labels", "radius", "reserves", "side", "squares")

    def __init__(self, colours: int, bottom: int) -> None:
        track = 16 * colours
        self.radius = radius = _P * track / (2 * math.pi)
        self.side = side = 2 * radius + 3.4 * _P
        self.centre = centre = side / 2
        step = 2 * math.pi / track

        def at(square: float, inward: float, along: float = 0.0) -> tuple[float, float]:
            a = math.pi / 2 + (square - 16 * bottom) * step
            cos, sin = math.cos(a), math.sin(a)
            r = radius - inward
            return (centre + r * cos - along * sin, centre + r * sin + along * cos)

        self.squares = [at(x, 0.0) for x in range(track)]
        self.labels = [at(x, -0.95 * _P) for x in range(track)]
        self.homes = [[at(16 * c, (k + 1.15) * _P) for k in range(4)] for c in range(colours)]
        self.reserves = [
            [at(16 * c, (1.3 + row) * _P, (1.5 + col) * _P) for row in (0, 1) for col in (0, 1)]
            for c in range(colours)
        ]


@cache
def _board(colours: int, bottom: int) -> _Board:
    return _Board(colours, bottom)


class _Hand:
    """What a picture shows of one player's hand: its cards (``None``: backs), its size, and
    the exchange's cards (given, received) when they are shown."""

    __slots__ = ("cards", "count", "given", "received")

    def __init__(
        self, cards: Sequence[str] | None, count: int, given: str | None, received: str | None
    ) -> None:
        self.cards = cards
        self.count = count
        self.given = given
        self.received = received


def _fragment(draw: Callable[[Svg], None]) -> str:
    """The elements ``draw`` makes, as text (drawn once, then reused: pictures stay fast)."""
    picture = Svg(1.0, 1.0)
    draw(picture)
    return picture.fragment()


def _pawn(
    picture: Svg,
    rules: TacTikRules,
    colour: int,
    xy: tuple[float, float],
    title: str,
    *,
    pieu: bool = False,
    scale: float = 1.0,
) -> None:
    """A pawn: its team's shape in its colour, with its colour's letter; a pieu ringed."""
    picture.raw(_pawn_text(rules.colours, colour, xy[0], xy[1], title, pieu, scale))


@lru_cache(maxsize=8192)
def _pawn_text(
    colours: int, colour: int, x: float, y: float, title: str, pieu: bool, scale: float
) -> str:
    name = COLOUR_NAMES[colours][colour]
    fill, ink = _FILL[name], _INK.get(name, PALETTE["black"])
    shape = _SHAPES[colour % (colours // 2)]

    def draw(picture: Svg) -> None:
        if pieu:
            picture.circle(x, y, 10.5 * scale, fill=PALETTE["white"], stroke=PALETTE["black"],
                           stroke_width=2.6 * scale, title=title)  # fmt: skip
        if shape == "circle":
            picture.circle(x, y, 7.2 * scale, fill=fill, stroke=PALETTE["black"],
                           stroke_width=1.2, title=title)  # fmt: skip
        elif shape == "diamond":
            d = 8.6 * scale
            picture.polygon([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], fill=fill,
                            stroke=PALETTE["black"], stroke_width=1.2, title=title)  # fmt: skip
        else:
            h = 6.4 * scale
            picture.rect(x - h, y - h, 2 * h, 2 * h, fill=fill, stroke=PALETTE["black"],
                         stroke_width=1.2, title=title)  # fmt: skip
        letter = COLOUR_LETTERS[colours][colour].upper()
        picture.text(x, y + 3.3 * scale, letter, size=9.5 * scale, fill=ink, weight="bold",
                     title=title)  # fmt: skip

    return _fragment(draw)


def _card(
    picture: Svg,
    x: float,
    y: float,
    name: str | None,
    *,
    w: float = 20.0,
    h: float = 28.0,
    title: str | None = None,
    stroke_width: float = 1.0,
    dash: str | None = None,
) -> None:
    """A card face (``name``) or back (``None``), top left at (x, y)."""
    picture.raw(_card_text(x, y, name, w, h, title, stroke_width, dash))


@lru_cache(maxsize=8192)
def _card_text(
    x: float,
    y: float,
    name: str | None,
    w: float,
    h: float,
    title: str | None,
    stroke_width: float,
    dash: str | None,
) -> str:
    stroke = PALETTE["black"]

    def draw(picture: Svg) -> None:
        if name is None:
            picture.rect(x, y, w, h, fill=PALETTE["sky"], stroke=stroke,
                         stroke_width=stroke_width, rx=2.5,
                         title=title or "a hidden card")  # fmt: skip
            picture.rect(x + 3, y + 3, w - 6, h - 6, fill="none", stroke=PALETTE["white"],
                         stroke_width=1.0, rx=1.5)  # fmt: skip
            return
        picture.rect(x, y, w, h, fill=PALETTE["white"], stroke=stroke,
                     stroke_width=stroke_width, rx=2.5, title=title or f"card {name}",
                     dash=dash)  # fmt: skip
        size = h * 0.42 if len(name) < 2 else h * 0.36
        picture.text(x + w / 2, y + h / 2 + size * 0.36, name, size=size, weight="bold",
                     title=title or f"card {name}")  # fmt: skip

    return _fragment(draw)


def _last_card(history: Sequence[str], revealed: Sequence[Sequence[str]]) -> str | None:
    """The card on top of the pile: the card of the last action that played or discarded one."""
    index = len(history) - 1
    while index >= 0 and history[index].startswith(("deal ", "give ")):
        index -= 1
    if index < 0:
        return None
    text = history[index]
    if text == "discard all":
        return revealed[-1][-1] if revealed and revealed[-1] else None
    if text.startswith("discard "):
        return text[8:]
    head = text.split(":", 1)[0]
    if head not in ("7", "J=7"):
        return "J" if head.startswith("J=") else head
    start = index
    while start > 0 and history[start - 1].split(":", 1)[0] in ("7", "J=7"):
        start -= 1
    card, done = "7", 0
    for text in history[start : index + 1]:
        if done == 0:
            card = "J" if text.startswith("J=") else "7"
        done = (done + int(text.rsplit("+", 1)[1])) % 7
    return card


def _move(text: str, obs: TacTikObservation) -> PawnMove | None:
    """The squares the highlighted action joined, as the engine recorded them
    (``obs.last_move``): a square number, or ``-1 - c`` for colour c's reserve; ``None`` when
    the action is not the last one or moved no pawn."""
    if not obs.history or text != obs.history[-1]:
        return None
    return obs.last_move


def _status(obs: TacTikObservation) -> str:
    rules = obs.game.rules
    names = COLOUR_NAMES[rules.colours]

    def who(p: int) -> str:
        return f"Player {p} ({'+'.join(names[c] for c in rules.own_colours[p])})"

    if obs.phase == "deal":
        return f"Dealing: card {sum(obs.hand_sizes) + 1} of {rules.deal_size}"
    if obs.phase == "exchange":
        return f"Exchange: {who(obs.current_player)} gives"
    if obs.phase == "play":
        return f"{who(obs.current_player)} to play"
    if obs.winners:
        return "Won: players " + " and ".join(map(str, obs.winners))
    return "Game over: a draw"


@cache
def _static(colours: int, bottom: int, coordinates: bool) -> str:
    """What never changes in one orientation: the track, its numbers, the homes, the reserves'
    slots."""
    names = COLOUR_NAMES[colours]
    board = _board(colours, bottom)

    def draw(picture: Svg) -> None:
        cx = board.centre
        picture.circle(cx, cx, board.radius, stroke=PALETTE["grey"], stroke_width=1.0)
        for x, (sx, sy) in enumerate(board.squares):
            if x % 16 == 0:
                c = x // 16
                title = f"t{x}: {names[c]}'s start square"
                picture.circle(sx, sy, 9.0, fill=PALETTE["white"], stroke=_FILL[names[c]],
                               stroke_width=3.5, title=title)  # fmt: skip
                if names[c] == "white":
                    picture.circle(sx, sy, 10.8, stroke=PALETTE["black"], stroke_width=0.8)
            else:
                picture.circle(sx, sy, 7.0, fill=PALETTE["light"], stroke=PALETTE["grey"],
                               stroke_width=0.8, title=f"t{x}")  # fmt: skip
            if coordinates:
                lx, ly = board.labels[x]
                weight = "bold" if x % 16 == 0 else None
                picture.text(lx, ly + 2.2, str(x), size=6.5, weight=weight)
        for c in range(colours):
            fill = PALETTE["black"] if names[c] == "white" else _FILL[names[c]]
            for k, (hx, hy) in enumerate(board.homes[c]):
                picture.rect(hx - 8, hy - 8, 16, 16, fill=PALETTE["white"], stroke=fill,
                             stroke_width=2.2, rx=3,
                             title=f"h{c}.{k + 1}: {names[c]}'s home")  # fmt: skip
                if coordinates:
                    picture.text(hx + 11, hy + 2, str(k + 1), size=5.5, fill=PALETTE["grey"])
            for rx, ry in board.reserves[c]:
                picture.circle(rx, ry, 8.0, stroke=fill, stroke_width=1.0, dash="2 2",
                               title=f"{names[c]}'s reserve")  # fmt: skip

    return _fragment(draw)


def _draw(
    obs: TacTikObservation, hands: Sequence[_Hand], options: PictureOptions, viewer: int | None
) -> str:
    options.check_extra(_EXTRA)
    panel = options.extra.get("panel", True)
    if type(panel) is not bool:
        raise ValueError(f"panel must be True or False, not {panel!r}"[:100])
    rules = obs.game.rules
    colours, track = rules.colours, rules.track
    names = COLOUR_NAMES[colours]
    geo = geometry(colours)
    flipped = options.flipped
    if flipped is not None and not 0 <= flipped < rules.players:
        raise ValueError(f"flipped must be a seat in 0..{rules.players - 1}, not {flipped}")
    bottom = rules.own_colours[flipped][0] if flipped is not None else 0
    board = _board(colours, bottom)
    side = board.side
    picture = Svg(side + (_PANEL if panel else 0.0), side)
    # The background covers the whole picture, the panel's part included (the panel is
    # drawn over it).
    picture.rect(0, 0, picture.width, side, fill=PALETTE["board"])
    picture.raw(_static(colours, bottom, options.coordinates))
    for c in range(colours):
        for xy in board.reserves[c][: obs.reserves[c]]:
            _pawn(picture, rules, c, xy, f"{names[c]} pawn in reserve", scale=0.85)
    cx = board.centre
    # Pawns.
    pieux = set(obs.pieux)
    for x, c in enumerate(obs.track):
        if c >= 0:
            pieu = x == 16 * c and c in pieux
            what = "pieu" if pieu else "pawn"
            _pawn(picture, rules, c, board.squares[x], f"{names[c]} {what} on t{x}", pieu=pieu)
    for c in range(colours):
        for k, flag in enumerate(obs.homes[c]):
            if flag:
                title = f"{names[c]} pawn home on h{c}.{k + 1}"
                _pawn(picture, rules, c, board.homes[c][k], title)
    # The middle: the pile's top, the talon, a seven in progress.
    top = _last_card(obs.history, obs.revealed) if obs.pile else None
    if top is not None:
        _card(picture, cx - 44, cx - 36, top, w=34, h=48, title=f"top of the pile: {top}")
    else:
        picture.rect(cx - 44, cx - 36, 34, 48, stroke=PALETTE["grey"], dash="3 3", rx=3,
                     title="the pile is empty")  # fmt: skip
    picture.text(cx - 27, cx + 24, f"pile {len(obs.pile)}", size=8)
    _card(picture, cx + 10, cx - 36, None, w=34, h=48, title=f"talon: {obs.talon_size} cards")
    picture.text(cx + 27, cx + 24, f"talon {obs.talon_size}", size=8)
    if obs.seven_left and obs.seven_colour is not None:
        colour = names[obs.seven_colour]
        text = f"7: {obs.seven_left} step{'s' if obs.seven_left > 1 else ''} left ({colour})"
        title = f"a seven in progress, moving {colour}"
        picture.text(cx, cx - 46, text, size=11, weight="bold", title=title)
    # The highlight.
    move = _move(options.highlight, obs) if options.highlight else None
    if move is not None:

        def point(square: int) -> tuple[float, float]:
            if square < 0:
                rx = board.reserves[-1 - square]
                return ((rx[0][0] + rx[3][0]) / 2, (rx[0][1] + rx[3][1]) / 2)
            if square < track:
                return board.squares[square]
            c, k = divmod(square - track, 4)
            return board.homes[c][k]

        a, b, both = move
        if -colours <= a < geo.squares and -colours <= b < geo.squares:
            (ax, ay), (bx, by) = point(a), point(b)
            length = math.hypot(bx - ax, by - ay) or 1.0
            ux, uy = (bx - ax) / length, (by - ay) / length
            gap = 9.0
            picture.circle(ax, ay, 11.5, stroke=PALETTE["black"], stroke_width=1.4, dash="3 2")
            picture.circle(bx, by, 12.0, stroke=PALETTE["black"], stroke_width=2.2)
            sx, sy = ax + ux * gap, ay + uy * gap
            ex, ey = bx - ux * (gap + 3), by - uy * (gap + 3)
            if both:
                picture.raw(
                    f'<line x1="{sx:.2f}" y1="{sy:.2f}" x2="{ex:.2f}" y2="{ey:.2f}" '
                    'stroke="#000000" stroke-width="2" marker-start="url(#arrow)" '
                    'marker-end="url(#arrow)"/>'
                )
            else:
                picture.line(sx, sy, ex, ey, stroke_width=2.0, arrow=True)
    if panel:
        _panel(picture, obs, hands, options, side, viewer)
    return picture.render(options.size)


def _panel(
    picture: Svg,
    obs: TacTikObservation,
    hands: Sequence[_Hand],
    options: PictureOptions,
    left: float,
    viewer: int | None,
) -> None:
    rules = obs.game.rules
    names = COLOUR_NAMES[rules.colours]
    picture.rect(left, 0, _PANEL, picture.height, fill=PALETTE["white"])
    x0 = left + 10
    picture.text(x0, 24, _status(obs), size=15, anchor="start", weight="bold")
    sub = f"turn {obs.turns}"
    if rules.team:
        sub += "; teams " + ", ".join(
            "+".join(map(str, team)) for team in sorted(set(rules.team_players))
        )
    if viewer is not None:
        sub += f"; you are player {viewer}"
    picture.text(x0, 42, sub, size=11, anchor="start")
    highlight = options.highlight or ""
    for p, hand in enumerate(hands):
        y = 58 + p * _ROW
        if p == obs.current_player:
            picture.rect(left + 3, y - 3, _PANEL - 6, _ROW - 2, fill=PALETTE["light"],
                         stroke=PALETTE["black"], stroke_width=1.0, rx=4,
                         title=f"player {p} to move")  # fmt: skip
        for i, c in enumerate(rules.own_colours[p]):
            _pawn(picture, rules, c, (x0 + 9 + 20 * i, y + 11), f"player {p}: {names[c]}")
        label = f"P{p}" + (" (you)" if p == viewer else "")
        label += " · dealer" if p == obs.dealer else ""
        picture.text(x0, y + 43, label, size=_SMALL, anchor="start")
        cx = x0 + 52
        if hand.cards is None:
            for i in range(hand.count):
                _card(picture, cx + 16 * i, y, None, title=f"player {p}: {hand.count} cards")
            if hand.count:
                picture.text(cx + 16 * hand.count + 8, y + 19, f"×{hand.count}", size=_SMALL + 1,
                             anchor="start")  # fmt: skip
        else:
            for i, name in enumerate(hand.cards):
                _card(picture, cx + 22 * i, y, name, title=f"player {p}'s card {name}")
            if not hand.cards:
                picture.text(cx, y + 19, "no cards", size=_SMALL, anchor="start",
                             fill=PALETTE["grey"])  # fmt: skip
        ex = left + _PANEL - 66
        if hand.given is not None:
            stroke = 2.2 if highlight == f"give {hand.given}" and p == _giver(obs) else 1.0
            _card(picture, ex, y + 13, hand.given, w=17, h=24, dash="2 1.5", stroke_width=stroke,
                  title=f"player {p} gives {hand.given} to their partner")  # fmt: skip
            picture.text(ex + 8.5, y + 9, "gives", size=_SMALL, fill=PALETTE["black"])
        if hand.received is not None:
            _card(picture, ex + 36, y + 13, hand.received, w=17, h=24, stroke_width=1.6,
                  title=f"player {p} received {hand.received}")  # fmt: skip
            picture.text(ex + 44.5, y + 9, "got", size=_SMALL, fill=PALETTE["black"])


def _giver(obs: TacTikObservation) -> int:
    """The player who made the last give (the one before the player to choose now)."""
    players = obs.game.rules.players
    if obs.current_player >= 0:
        return (obs.current_player - 1) % players
    return obs.dealer


def svg_state(state: TacTikState, options: PictureOptions) -> str:
    """The whole position, every hand face up, with each player's exchange."""
    obs = state.observation(None)
    players = state.game.rules.players
    hands = [
        _Hand(state.hand(p), state.hand_sizes()[p], state.given(p), state.received(p))
        for p in range(players)
    ]
    return _draw(obs, hands, options, None)


def svg_observation(obs: TacTikObservation, options: PictureOptions) -> str:
    """What ``obs.player`` knows: their hand face up, the others' as backs."""
    hands = [
        _Hand(obs.hand, size, obs.given, obs.received)
        if p == obs.player
        else _Hand(None, size, None, None)
        for p, size in enumerate(obs.hand_sizes)
    ]
    return _draw(obs, hands, options, obs.player)

"""Pictures of Tiki Topple: the line of tikis as a totem (position 1 at the top), the toasted
tikis set aside below it, and one panel per seat with its secret card, the cards it has played
this round and the cards left in its hand.

Every tiki is drawn in its colour (``data.COLOURS``) *and* with its name and a mark of its own
(a circle, a triangle, a square…), so that colour is never the only cue; seats have their
colour and letter (``SEAT_COLOURS``, ``SEAT_LETTERS``). The secret cards' tiers are marked on
the line with badges (``A9``: seat A's top tiki, 9 points at position 1; ``A5``: its middle
tiki, 5 in the top two; ``A2``: its bottom tiki, 2 in the top three).

A picture is drawn from a :class:`_View`, built either from a state (every secret card face up)
or from an observation alone (the other players' cards of the round being played as backs; a
finished round's cards as revealed). Who played which card this round, and where it moved its
tiki, is told by the state's ``round_so_far()`` or the observation's ``round_so_far`` (from
the public history): the picture reads those facts, it replays nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, NamedTuple
from xml.sax.saxutils import escape

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.svg import PALETTE, SEAT_COLOURS, SEAT_LETTERS, PictureOptions, Svg
from tikigames.tiki_topple.data import (
    CARD_NAMES,
    COLOURS,
    GROUPS,
    NUM_TIKIS,
    POINTS,
    SECRET_CARDS,
    TIKIS,
    TOAST,
    TOPPLE,
    score_card,
)
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.state import Play, TikiToppleState
from tikigames.tiki_topple.words import card_name

__all__ = ["svg_observation", "svg_state"]

#: The picture options of Tiki Topple's own (``options.extra``).
EXTRA_OPTIONS = ("targets",)

#: Display colours of the data's colour names; the Okabe–Ito ones where the name fits.
_HEX = {
    "red": "#C8281E",
    "blue": PALETTE["blue"],
    "yellow": PALETTE["yellow"],
    "purple": "#7D55B4",
    "orange": PALETTE["orange"],
    "brown": "#8C5A3C",
    "grey": PALETTE["grey"],
    "green": PALETTE["green"],
    "pink": PALETTE["purple"],
}


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return PALETTE["black"] if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#FFFFFF"


_FILL = tuple(_HEX[colour] for colour in COLOURS)
_TIKI_INK = tuple(_ink(colour) for colour in _FILL)
_SEAT_INK = tuple(_ink(colour) for colour in SEAT_COLOURS)
_NAMES = tuple(name.capitalize() for name in TIKIS)
_GROUP_OF = tuple(next(g for g, group in enumerate(GROUPS) if tiki in group) for tiki in range(9))
_MARK_NAMES = (
    "circle", "triangle", "square", "diamond", "star", "hexagon", "cross", "down triangle",
    "bars",
)  # fmt: skip
#: A card's symbol and word, by kind (``UP1`` … ``TOAST``).
_CARD_SYMBOL = ("\u21911", "\u21912", "\u21913", "\u2193", "\u2715")
_CARD_WORD = ("up 1", "up 2", "up 3", "topple", "toast")
_CARD_TITLE = ("Tiki Up 1", "Tiki Up 2", "Tiki Up 3", "Tiki Topple", "Tiki Toast")
_TIER = ("top", "middle", "bottom")
_TIER_RULE = ("9 at position 1", "5 in the top 2", "2 in the top 3")
_LEGEND = (
    "Scoring at the round's end: 9 for a card's top tiki at position 1, 5 for its middle",
    "tiki in positions 1\u20132, 2 for its bottom tiki in 1\u20133; toasted tikis score nothing.",
)

# Card states of a seat in a view.
_NOT_DEALT, _HIDDEN = -1, -2

# Geometry, in user units.
_HEADER = 34.0
_PITCH = 38.0
_BLOCK_H = 32.0
_NUM_X = 40.0
_LANE_X = 50.0
_BLOCK_X = 66.0
_BLOCK_W = 138.0
_BADGE_W = 26.0
_BADGE_PITCH = 29.0
_PANEL_W = 336.0
_PANEL_H = 102.0
_PANEL_GAP = 8.0
_GROUP_W = 70.0
_HIGHLIGHT = 3.0


class _View(NamedTuple):
    """Everything a picture shows (built from a state or from an observation alone)."""

    players: int
    rounds: int
    target: int | None
    round: int  # the round drawn (0: no line dealt yet)
    finished: bool  # the round drawn is over (its cards are revealed)
    current: int  # the seat to move, CHANCE or TERMINAL
    seats: tuple[int, ...]  # the seats taking part in the round drawn
    line: tuple[int, ...]
    removed: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # cards left, by kind counts
    cards: tuple[int, ...]  # each seat's secret card, _NOT_DEALT or _HIDDEN
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    viewer: int | None  # the observer (None: a spectator, or the whole position)
    whole: bool  # the whole position (a state's picture)
    setup: str  # the round's line text ("" before it)
    deals: tuple[tuple[int, str], ...]  # (seat, text) of each card dealt this round
    plays: tuple[Play, ...]


def _counts(names: Sequence[str]) -> tuple[int, ...]:
    counts = [0] * 5
    for name in names:
        counts[CARD_NAMES.index(name)] += 1
    return tuple(counts)


def _view_of_state(state: TikiToppleState) -> _View:
    game = state.game
    rules = game.rules
    n = game.num_players
    told = state.round_so_far()
    cards = tuple(_NOT_DEALT if (card := state.secret(s)) is None else card for s in range(n))
    return _View(
        n, rules.rounds, rules.target_score, told.number, told.finished,
        state.current_player(), told.seats,
        tuple(TIKIS.index(name) for name in state.line()),
        tuple(TIKIS.index(name) for name in state.toasted()),
        tuple(_counts(state.hand(seat)) for seat in range(n)), cards, tuple(state.scores()),
        state.winners(), None, True, told.setup, told.deals, told.plays,
    )  # fmt: skip


def _view_of_observation(obs: TikiToppleObservation) -> _View:
    game = obs.game
    rules = game.rules
    n = game.num_players
    told = obs.round_so_far
    if told.finished:
        cards = tuple(_NOT_DEALT if card is None else card for card in obs.revealed[-1])
    else:
        dealt = {seat for seat, _ in told.deals}
        shown = [_HIDDEN if seat in dealt else _NOT_DEALT for seat in range(n)]
        if obs.player is not None and obs.secret is not None:
            shown[obs.player] = obs.secret
        cards = tuple(shown)
    return _View(
        n, rules.rounds, rules.target_score, told.number, told.finished, obs.current_player,
        told.seats, tuple(TIKIS.index(name) for name in obs.line),
        tuple(TIKIS.index(name) for name in obs.removed),
        tuple(_counts(hand) for hand in obs.hands), cards, obs.scores, obs.winners,
        obs.player, False, told.setup, told.deals, told.plays,
    )  # fmt: skip


# ------------------------------------------------------------------------------ drawing
#
# The pieces that never change (a tiki's block, a badge, a card) are drawn once, on first use,
# into fragments of SVG text (:func:`_memo`); a picture places them with
# ``<g transform="translate(x y)">``, which keeps a picture well under a millisecond.


def _fragment(draw: Callable[..., None], *args: object) -> str:
    """What ``draw(picture, *args)`` draws, as SVG elements (without the ``<svg>`` around)."""
    picture = Svg(1.0, 1.0)
    draw(picture, *args)
    return picture.fragment()


def _titled(title: str, fragment: str) -> str:
    """``fragment`` with hover text ``title`` (for the ``<g>`` that :func:`_place` wraps)."""
    return f"<title>{escape(title)}</title>{fragment}"


def _at(x: float, y: float, fragment: str) -> str:
    return f'<g transform="translate({x:g} {y:g})">{fragment}</g>'


def _place(picture: Svg, x: float, y: float, fragment: str) -> None:
    """``fragment`` moved to (``x``, ``y``)."""
    picture.raw(f'<g transform="translate({x:g} {y:g})">{fragment}</g>')


def _mark(picture: Svg, tiki: int, cx: float, cy: float, r: float, fill: str) -> None:
    """Tiki ``tiki``'s own mark, a shape of radius about ``r`` centred at (``cx``, ``cy``)."""
    if tiki == 0:
        picture.circle(cx, cy, r * 0.8, fill=fill)
    elif tiki == 2:
        side = r * 1.4
        picture.rect(cx - side / 2, cy - side / 2, side, side, fill=fill)
    elif tiki == 8:
        width = r * 0.45
        picture.rect(cx - r * 0.8, cy - r * 0.85, width, r * 1.7, fill=fill)
        picture.rect(cx + r * 0.8 - width, cy - r * 0.85, width, r * 1.7, fill=fill)
    else:
        picture.polygon([(cx + x * r, cy + y * r) for x, y in _SHAPES[tiki]], fill=fill)


_SHAPES: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    1: ((0.0, -1.0), (0.95, 0.7), (-0.95, 0.7)),
    3: ((0.0, -1.0), (0.8, 0.0), (0.0, 1.0), (-0.8, 0.0)),
    4: (
        (0.0, -1.0), (0.22, -0.31), (0.95, -0.31), (0.36, 0.12), (0.59, 0.81), (0.0, 0.38),
        (-0.59, 0.81), (-0.36, 0.12), (-0.95, -0.31), (-0.22, -0.31),
    ),
    5: ((0.0, -0.9), (0.78, -0.45), (0.78, 0.45), (0.0, 0.9), (-0.78, 0.45), (-0.78, -0.45)),
    6: (
        (-0.3, -0.9), (0.3, -0.9), (0.3, -0.3), (0.9, -0.3), (0.9, 0.3), (0.3, 0.3), (0.3, 0.9),
        (-0.3, 0.9), (-0.3, 0.3), (-0.9, 0.3), (-0.9, -0.3), (-0.3, -0.3),
    ),
    7: ((0.0, 1.0), (0.95, -0.7), (-0.95, -0.7)),
}  # fmt: skip


def _chip(picture: Svg, tiki: int, cx: float, cy: float, r: float) -> None:
    """A small disc in the tiki's colour with its mark (for cards and the discards)."""
    picture.circle(cx, cy, r, fill=_FILL[tiki], stroke=PALETTE["black"], stroke_width=0.6)
    _mark(picture, tiki, cx, cy, r * 0.6, _TIKI_INK[tiki])


def _block(picture: Svg, tiki: int) -> None:
    """A tiki in the line, its top edge at y = 0."""
    picture.rect(_BLOCK_X, 0, _BLOCK_W, _BLOCK_H, fill=_FILL[tiki], stroke=PALETTE["black"], rx=6)
    cx, cy = _BLOCK_X + 17, _BLOCK_H / 2
    picture.circle(cx, cy, 11, fill="#FFFFFF", stroke=PALETTE["black"], stroke_width=0.8)
    _mark(picture, tiki, cx, cy, 7.5, PALETTE["black"])
    ink = _TIKI_INK[tiki]
    picture.text(_BLOCK_X + 34, cy + 5, _NAMES[tiki], size=14, anchor="start", weight="bold",
                 fill=ink)  # fmt: skip
    picture.text(_BLOCK_X + _BLOCK_W - 6, cy + 4, COLOURS[tiki], size=8, anchor="end", fill=ink)


def _toasted(picture: Svg, tiki: int) -> None:
    """A toasted tiki, set aside (indented, dashed), its slot's top edge at y = 0."""
    x, w = _BLOCK_X + 18, _BLOCK_W - 18
    picture.rect(x, 4, w, _BLOCK_H - 8, fill="#FFFFFF", stroke="#666666", stroke_width=1.2, rx=5,
                 dash="5 3")  # fmt: skip
    _chip(picture, tiki, x + 12, _BLOCK_H / 2, 8)
    picture.text(x + 26, _BLOCK_H / 2 + 4, _NAMES[tiki], size=11, anchor="start", fill="#555555")
    picture.text(x + w - 6, _BLOCK_H / 2 + 4, "\u2715 toast", size=9, anchor="end", fill="#555555")


def _badge(picture: Svg, seat: int, tier: int, scoring: bool) -> None:
    picture.rect(0, 0, _BADGE_W, 18, fill=SEAT_COLOURS[seat], stroke=PALETTE["black"],
                 stroke_width=1.8 if scoring else 0.6, rx=4)  # fmt: skip
    picture.text(_BADGE_W / 2, 13, f"{SEAT_LETTERS[seat]}{POINTS[tier]}", size=11, weight="bold",
                 fill=_SEAT_INK[seat])  # fmt: skip


def _played(picture: Svg, kind: int, tiki: int) -> None:
    picture.rect(0, 0, 25, 42, fill="#FFFFFF", stroke=PALETTE["black"], stroke_width=0.8, rx=3)
    picture.text(12.5, 13, _CARD_SYMBOL[kind], size=11, weight="bold")
    _chip(picture, tiki, 12.5, 23, 5.5)
    picture.text(12.5, 38, _CARD_WORD[kind], size=6.5)


def _in_hand(picture: Svg, kind: int) -> None:
    picture.rect(0, 0, 25, 42, fill=PALETTE["light"], stroke=PALETTE["grey"], stroke_width=0.8,
                 rx=3, dash="3 2")  # fmt: skip
    picture.text(12.5, 19, _CARD_SYMBOL[kind], size=11, fill="#555555")
    picture.text(12.5, 38, _CARD_WORD[kind], size=6.5, fill="#555555")


def _card_face(picture: Svg, card: int) -> None:
    picture.rect(0, 0, _CARD_W, _CARD_H, fill="#FFFDF5", stroke=PALETTE["black"], rx=5)
    picture.text(_CARD_W - 5, 11, card_name(card), size=8.5, anchor="end", fill="#555555")
    picture.text(5, 11, "secret card", size=8.5, anchor="start", fill="#555555")


def _card_row(picture: Svg, tiki: int, tier: int, state: int) -> None:
    """One tier of a face-up card (state: 0 not scoring, 1 scoring now, 2 toasted), its
    baseline at y = 0."""
    scoring = state == 1
    picture.rect(4, -10, 15, 13, fill=PALETTE["yellow"] if scoring else "#FFFFFF",
                 stroke=PALETTE["black"], stroke_width=0.6, rx=2)  # fmt: skip
    picture.text(11.5, 0, str(POINTS[tier]), size=10, weight="bold")
    _chip(picture, tiki, 28, -3.5, 6)
    mark = (" \u2713", "", " \u2715")[state] if state else ""
    picture.text(38, 0, _NAMES[tiki] + mark, size=10.5, anchor="start",
                 fill="#777777" if state == 2 else PALETTE["black"])  # fmt: skip


def _card_back(picture: Svg) -> None:
    picture.rect(0, 0, _CARD_W, _CARD_H, fill="#5A3E2B", stroke=PALETTE["black"], rx=5)
    picture.rect(5, 5, _CARD_W - 10, _CARD_H - 10, stroke="#C9A66B", stroke_width=1.0, rx=3)
    picture.text(_CARD_W / 2, _CARD_H / 2 + 9, "?", size=26, weight="bold", fill="#F2E3C6")


def _card_missing(picture: Svg) -> None:
    picture.rect(0, 0, _CARD_W, _CARD_H, stroke=PALETTE["grey"], dash="4 3", rx=5)
    picture.text(_CARD_W / 2, _CARD_H / 2 + 4, "not dealt yet", size=10, fill="#555555")


def _head(picture: Svg, seat: int, to_move: bool, playing: bool, you: bool, won: bool) -> None:
    """A seat's panel: its frame, letter and name, and whether it is to play or has won."""
    title = f"player {seat} ({SEAT_LETTERS[seat]})" + (" (to play)" if to_move else "")
    picture.rect(0, 0, _PANEL_W, _PANEL_H, fill="#FFFFFF" if playing else PALETTE["light"],
                 stroke=SEAT_COLOURS[seat], stroke_width=4.0 if to_move else 2.0, rx=8,
                 title=title)  # fmt: skip
    picture.circle(17, 17, 11, fill=SEAT_COLOURS[seat], stroke=PALETTE["black"], stroke_width=1.0)
    picture.text(17, 22, SEAT_LETTERS[seat], size=13, weight="bold", fill=_SEAT_INK[seat])
    label = f"Player {seat}" + (" (you)" if you else "")
    picture.text(34, 22, label, size=13, anchor="start", weight="bold")
    tag = "\u25c0 to play" if to_move else ("\u2605 wins" if won else "")
    if tag:
        picture.text(42 + 7.6 * len(label), 22, tag, size=11, anchor="start", weight="bold",
                     fill="#333333")  # fmt: skip
    if not playing:
        picture.text(10, 60, "sits this round out (tiebreak)", size=11, anchor="start",
                     fill="#555555")  # fmt: skip


def _now(picture: Svg, finished: bool, points: int) -> None:
    text = f"+{points} this round" if finished else f"{points} if it ended now"
    picture.text(_PANEL_W - 10, 36, text, size=9.5, anchor="end", fill="#333333")


def _zones(picture: Svg) -> None:
    """The scoring places: which tier scores at positions 1, 2 and 3."""
    for position in range(3):
        y = _HEADER + position * _PITCH
        picture.rect(4, y - 2, _BLOCK_X + _BLOCK_W - 2, _PITCH,
                     fill="#FFF4C8" if position else "#FFE88A")  # fmt: skip
        label = " ".join(str(POINTS[t]) for t in range(position, 3))
        picture.text(7, y + _BLOCK_H / 2 + 4, label, size=9, anchor="start", fill="#6B5600")


_CARD_W, _CARD_H = 120.0, 62.0


def _number_label(picture: Svg, position: int) -> None:
    y = _HEADER + position * _PITCH + _BLOCK_H / 2
    picture.text(_NUM_X, y + 5, str(position + 1), size=13, weight="bold")


def _out_label(picture: Svg, position: int) -> None:
    y = _HEADER + position * _PITCH + _BLOCK_H / 2
    picture.text(_NUM_X, y + 4, "out", size=9, fill="#555555")


def _caption(picture: Svg, text: str, anchor: str) -> None:
    picture.text(0, 0, text, size=8.5, anchor=anchor, fill="#555555")


def _legend(picture: Svg) -> None:
    for row, text in enumerate(_LEGEND):
        picture.text(8, 13 * row, text, size=10, anchor="start", fill="#333333")


_SEATS = range(len(SEAT_COLOURS))


def _player(seat: int) -> str:
    return f"player {seat} ({SEAT_LETTERS[seat]})"


def _tiki_title(tiki: int, where: str) -> str:
    group = "ABC"[_GROUP_OF[tiki]]
    return f"{_NAMES[tiki]} ({COLOURS[tiki]}, {_MARK_NAMES[tiki]}, group {group}): {where}"


def _badge_title(seat: int, tier: int, scoring: bool) -> str:
    now = " (scoring now)" if scoring else ""
    return f"{_player(seat)}'s {_TIER[tier]} tiki: {_TIER_RULE[tier]}{now}"


def _played_title(kind: int, tiki: int) -> str:
    if kind == TOAST:
        return f"{_CARD_TITLE[kind]} played: {_NAMES[tiki]} toasted (toast)"
    return f"{_CARD_TITLE[kind]} played on {_NAMES[tiki]} ({CARD_NAMES[kind]} {TIKIS[tiki]})"


def _row_title(tiki: int, tier: int, state: int) -> str:
    now = ("", " (scoring now)", " (toasted)")[state]
    return f"{_TIER[tier]} tiki {_NAMES[tiki]}: {_TIER_RULE[tier]}{now}"


_MEMO: dict[tuple[object, ...], str] = {}


def _memo(make: Callable[..., str], *args: object) -> str:
    """``make(*args)``, made once: the pieces a picture places are drawn on first use."""
    key = (make, *args)
    piece = _MEMO.get(key)
    if piece is None:
        piece = _MEMO[key] = make(*args)
    return piece


def _block_at(tiki: int, position: int) -> str:
    title = _tiki_title(tiki, f"position {position + 1}")
    return _at(0, _HEADER + position * _PITCH, _titled(title, _memo(_fragment, _block, tiki)))


def _toasted_at(tiki: int, position: int) -> str:
    title = _tiki_title(tiki, "toasted, out of the round")
    return _at(0, _HEADER + position * _PITCH, _titled(title, _memo(_fragment, _toasted, tiki)))


def _badge_piece(seat: int, tier: int, scoring: bool) -> str:
    return _titled(_badge_title(seat, tier, scoring), _fragment(_badge, seat, tier, scoring))


def _played_piece(kind: int, tiki: int) -> str:
    return _titled(_played_title(kind, tiki), _fragment(_played, kind, tiki))


def _in_hand_piece(kind: int) -> str:
    return _titled(f"{_CARD_TITLE[kind]}, still in hand", _fragment(_in_hand, kind))


def _row_piece(tiki: int, tier: int, state: int) -> str:
    return _titled(_row_title(tiki, tier, state), _fragment(_card_row, tiki, tier, state))


def _back_piece(seat: int) -> str:
    return _titled(f"{_player(seat)}'s secret card: hidden", _memo(_fragment, _card_back))


def _missing_piece(seat: int) -> str:
    title = f"{_player(seat)}'s secret card: not dealt yet"
    return _titled(title, _memo(_fragment, _card_missing))


def _status(view: _View) -> str:
    if view.round == 0:
        return "Round 1: the line is dealt next"
    if view.target is not None:
        name = f"Round {view.round} (first to {view.target})"
    elif view.round > view.rounds or len(view.seats) < view.players:
        name = f"Round {view.round}: tiebreak"
    else:
        name = f"Round {view.round} of {view.rounds}"
    if view.current == TERMINAL:
        head = f"Game over after round {view.round}: "
        winners = view.winners
        if len(winners) == 1:
            return f"{head}{_player(winners[0])} wins"
        return head + " and ".join(_player(seat) for seat in winners) + " share the win"
    if view.finished:
        return f"{name} is over: the cards are shown and scored"
    if view.current == CHANCE:
        return f"{name}: dealing the secret cards"
    return f"{name}: {_player(view.current)} to play"


def _order(players: int, flipped: int | None) -> list[int]:
    """The seats' panels, top to bottom: the flipped seat last (at the bottom), the others
    above it in turn order."""
    if flipped is None:
        return list(range(players))
    if not 0 <= flipped < players:
        raise ValueError(f"flipped must be a seat (0..{players - 1}) or None, not {flipped}")
    return [(flipped + 1 + index) % players for index in range(players)]


def _draw(view: _View, options: PictureOptions) -> str:
    options.check_extra(EXTRA_OPTIONS)
    targets = options.extra.get("targets", True)
    if type(targets) is not bool:
        raise ValueError(f"picture option 'targets' must be True or False, not {targets!r}"[:100])
    order = _order(view.players, options.flipped)
    highlight = (options.highlight or "").strip().lower()
    play = next((p for p in reversed(view.plays) if p.text == highlight), None)
    dealt = next((seat for seat, text in reversed(view.deals) if text == highlight), None)
    shown = [s for s in order if view.cards[s] >= 0] if targets else []
    show_groups = bool(view.setup) and highlight == view.setup and not view.plays
    badge_x = _BLOCK_X + _BLOCK_W + 6
    panel_x = badge_x + _BADGE_PITCH * len(shown) + (_GROUP_W if show_groups else 0) + 10
    width = panel_x + _PANEL_W + 8
    line_bottom = _HEADER + NUM_TIKIS * _PITCH + 6
    panels_bottom = _HEADER + view.players * (_PANEL_H + _PANEL_GAP) + 4
    height = max(line_bottom, panels_bottom) + 32
    picture = Svg(width, height)
    picture.rect(0, 0, width, height, fill=PALETTE["board"])
    picture.text(8, 22, _status(view), size=15, anchor="start", weight="bold")
    if view.whole:
        who = "the whole position"
    elif view.viewer is None:
        who = "what a spectator knows"
    else:
        who = f"what {_player(view.viewer)} knows"
    picture.text(width - 8, 22, who, size=11, anchor="end", fill="#555555")
    picture.raw(_memo(_fragment, _zones))

    # The line, top first, with the secret cards' tiers; then the toasted tikis, set aside in
    # the places they left.
    line = view.line
    cards = [(column, seat, SECRET_CARDS[view.cards[seat]]) for column, seat in enumerate(shown)]
    for position, tiki in enumerate(line):
        y = _HEADER + position * _PITCH
        if options.coordinates:
            picture.raw(_memo(_fragment, _number_label, position))
        picture.raw(_memo(_block_at, tiki, position))
        for column, seat, tikis in cards:
            if tiki in tikis:
                tier = tikis.index(tiki)
                x = badge_x + column * _BADGE_PITCH
                _place(picture, x, y + 7, _memo(_badge_piece, seat, tier, position <= tier))
    if view.removed:
        top = _HEADER + len(line) * _PITCH - 4
        picture.line(4, top, _BLOCK_X + _BLOCK_W + 2, top, stroke="#555555", dash="4 3")
        picture.text(6, top + 11, "toasted", size=9, anchor="start", fill="#555555")
    for index, tiki in enumerate(view.removed):
        position = NUM_TIKIS - 1 - index
        if options.coordinates:
            picture.raw(_memo(_fragment, _out_label, position))
        picture.raw(_memo(_toasted_at, tiki, position))

    # The highlight: the tiki outlined, and an arrow for its move (solid: the last card played;
    # dashed: a move that is not in this round's history, e.g. one being considered).
    if play is not None:
        if play.kind == TOAST:
            _outline(picture, NUM_TIKIS - 1 - view.removed.index(play.tiki), toasted=True)
        elif play.tiki in line:
            _outline(picture, line.index(play.tiki), toasted=False)
        if play is view.plays[-1]:
            _arrow(picture, play.before, play.after, play.kind, dashed=False)
    elif highlight:
        _proposed(picture, view, highlight)
    if show_groups:
        _groups(picture, line, badge_x + _BADGE_PITCH * len(shown) + 4)

    _place(picture, 0, height - 21, _memo(_fragment, _legend))
    for index, seat in enumerate(order):
        y = _HEADER + index * (_PANEL_H + _PANEL_GAP)
        _panel(picture, view, seat, panel_x, y, play, dealt == seat)
    return picture.render(options.size)


def _outline(picture: Svg, position: int, toasted: bool) -> None:
    y = _HEADER + position * _PITCH
    if toasted:
        x, w = _BLOCK_X + 16, _BLOCK_W - 14
        picture.rect(x, y + 2, w, _BLOCK_H - 4, stroke=PALETTE["black"],
                     stroke_width=_HIGHLIGHT, rx=6)  # fmt: skip
    else:
        picture.rect(_BLOCK_X - 1, y - 1, _BLOCK_W + 2, _BLOCK_H + 2, stroke=PALETTE["black"],
                     stroke_width=_HIGHLIGHT, rx=7)  # fmt: skip


def _groups(picture: Svg, line: tuple[int, ...], x: float) -> None:
    """The three groups of the setup, bracketed (only drawn before any card is played)."""
    for start in range(0, NUM_TIKIS, 3):
        y1 = _HEADER + start * _PITCH
        y2 = y1 + 2 * _PITCH + _BLOCK_H
        picture.line(x, y1, x + 6, y1, stroke_width=1.5)
        picture.line(x, y1, x, y2, stroke_width=1.5)
        picture.line(x, y2, x + 6, y2, stroke_width=1.5)
        group = "ABC"[_GROUP_OF[line[start]]]
        picture.text(x + 10, (y1 + y2) / 2 + 4, f"group {group}", size=11, anchor="start")


def _row_y(position: int) -> float:
    return _HEADER + position * _PITCH + _BLOCK_H / 2


def _arrow(picture: Svg, before: int, after: int, kind: int, dashed: bool) -> None:
    """An arrow in the lane left of the line, from where the tiki was to where it went."""
    if kind == TOAST:
        y1, y2 = _row_y(before) - _PITCH / 2 - 2, _row_y(before)
        x1, x2 = _BLOCK_X - 4, _BLOCK_X + 14
        path = f"M {x1:.0f} {y1:.0f} L {x1:.0f} {y2:.0f} L {x2:.0f} {y2:.0f}"
    else:
        y1, y2 = _row_y(before), _row_y(after)
        x1 = _LANE_X + 4
        path = (
            f"M {_BLOCK_X:.0f} {y1:.0f} L {x1:.0f} {y1:.0f} L {x1:.0f} {y2:.0f} "
            f"L {_BLOCK_X - 1:.0f} {y2:.0f}"
        )
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    picture.raw(
        f'<path d="{path}" fill="none" stroke="#000000" stroke-width="2.2"{dash}'
        ' marker-end="url(#arrow)"/>'
    )


def _proposed(picture: Svg, view: _View, highlight: str) -> None:
    """A move that is not in this round's history: the tiki outlined, a dashed arrow."""
    line = view.line
    if highlight == "toast":
        if len(line) > 3:
            y = _HEADER + (len(line) - 1) * _PITCH
            picture.rect(_BLOCK_X - 2, y - 2, _BLOCK_W + 4, _BLOCK_H + 4, stroke=PALETTE["black"],
                         stroke_width=_HIGHLIGHT, dash="4 3", rx=7)  # fmt: skip
        return
    word, _, name = highlight.partition(" ")
    if word not in CARD_NAMES[:TOAST] or name not in TIKIS or TIKIS.index(name) not in line:
        return
    kind = CARD_NAMES.index(word)
    before = line.index(TIKIS.index(name))
    _outline(picture, before, toasted=False)
    after = len(line) - 1 if kind == TOPPLE else before - kind - 1
    if after >= 0 and after != before:
        _arrow(picture, before, after, kind, dashed=True)


def _panel(
    picture: Svg, view: _View, seat: int, x: float, y: float, play: Play | None, dealt: bool
) -> None:
    """One seat: its letter, total, secret card, the cards played and those left in hand."""
    playing = seat in view.seats if view.round else True
    to_move = view.current == seat
    you = seat == view.viewer and not view.whole
    won = seat in view.winners
    _place(picture, x, y, _memo(_fragment, _head, seat, to_move, playing, you, won))
    picture.text(x + _PANEL_W - 10, y + 22, f"{view.scores[seat]} pts", size=13, anchor="end",
                 weight="bold", title=f"{_player(seat)}'s game total")  # fmt: skip
    if not playing:
        return
    card = view.cards[seat]
    cx, cy = x + 8, y + 34
    if card == _NOT_DEALT:
        _place(picture, cx, cy, _memo(_missing_piece, seat))
    elif card == _HIDDEN:
        _place(picture, cx, cy, _memo(_back_piece, seat))
    else:
        tikis = SECRET_CARDS[card]
        names = " / ".join(_NAMES[tiki] for tiki in tikis)
        title = f"{_player(seat)}'s secret card {card_name(card)}: {names}"
        _place(picture, cx, cy, _titled(title, _memo(_fragment, _card_face, card)))
        line = view.line
        for tier, tiki in enumerate(tikis):
            state = 1 if tiki in line[: tier + 1] else 2 if tiki in view.removed else 0
            _place(picture, cx, cy + 24 + 15 * tier, _memo(_row_piece, tiki, tier, state))
        _place(picture, x, y, _memo(_fragment, _now, view.finished, score_card(card, list(line))))
    if dealt:
        picture.rect(cx - 1, cy - 1, _CARD_W + 2, _CARD_H + 2, stroke=PALETTE["black"],
                     stroke_width=_HIGHLIGHT, rx=6)  # fmt: skip
    if view.round:
        _hand(picture, view, seat, x + 134, y + 42, play)


def _hand(picture: Svg, view: _View, seat: int, x: float, y: float, play: Play | None) -> None:
    """The cards ``seat`` played this round (in order), then the cards left in its hand."""
    played = [p for p in view.plays if p.seat == seat]
    left = [kind for kind in range(5) for _ in range(view.hands[seat][kind])]
    for index, item in enumerate(played):
        cx = x + 27 * index
        _place(picture, cx, y, _memo(_played_piece, item.kind, item.tiki))
        if item is play:
            picture.rect(cx - 1, y - 1, 27, 44, stroke=PALETTE["black"], stroke_width=_HIGHLIGHT,
                         rx=4)  # fmt: skip
    for index, kind in enumerate(left):
        _place(picture, x + 27 * (len(played) + index), y, _memo(_in_hand_piece, kind))
    if played:
        _place(picture, x, y + 51, _memo(_fragment, _caption, "played", "start"))
    if left:
        _place(
            picture,
            x + 27 * (len(played) + len(left)) - 2,
            y + 51,
            _memo(_fragment, _caption, "in hand", "end"),
        )
    if not played and not left:
        picture.text(x, y + 24, "no cards left", size=10, anchor="start", fill="#555555")


def svg_state(state: TikiToppleState, options: PictureOptions) -> str:
    """The whole position: the line, the toasted tikis, every seat's secret card face up."""
    return _draw(_view_of_state(state), options)


def svg_observation(obs: TikiToppleObservation, options: PictureOptions) -> str:
    """What the observer knows, from the observation alone: the other players' cards of the
    round being played as backs, a finished round's cards as revealed."""
    return _draw(_view_of_observation(obs), options)

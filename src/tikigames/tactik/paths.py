"""Tac-Tik's path rule: where a pawn lands, which squares it enters on the way, and what blocks it.

These are pure functions of plain data — the board's size, the pawn's square and colour, the
distance, and the occupancy the rule looks at (the bitmask of pieux, the colour's home squares,
its pawns) — so that the rule can be read, and tested, apart from the state that calls them.
Squares are numbered as in :mod:`tikigames.tactik.data`: ``0 … L−1`` the track, ``L + 4·c + k − 1``
home square ``k`` of colour ``c``. A destination of −1 means the move is not possible.

A pieu can only stand on its own colour's start square, which is a multiple of 16, and no card
moves more than 13 squares, so a move crosses at most one start square and the pieu check is one
bit test.

Whether a forward move is possible at all depends on little: on the track, only on the pieux
(the home squares decide where the pawn lands, never whether it can move); in the home, only on
the colour's home squares. :func:`forward_bars` tabulates, per colour, square and distance, the
bits of an *occupancy word* (:func:`occupancy`) that bar the move, so that move generation is one
table look-up and one ``&`` per pawn and card.

On the 4-colour board (L = 64, green's home squares are 64 … 67):

>>> forward_dest(64, 4, 60, 5, 0, 0, 0)  # 4 steps to green's start square, the 5th into h0.1
64
>>> forward_dest(64, 4, 60, 9, 0, 0, 0)  # too far for the home: round the track to t5
5
>>> forward_dest(64, 4, 60, 5, 0, 0b0001, 0)  # green's own pieu on t0 bars the way
-1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from tikigames.tactik.data import PAWNS

__all__ = [
    "NEVER",
    "Memo",
    "back_bars",
    "back_dest",
    "entered",
    "forward_bars",
    "forward_dest",
    "forward_entries",
    "forward_rows",
    "occupancy",
    "seven_after",
    "seven_feasible",
    "seven_moves",
    "seven_offsets",
]

#: What :func:`seven_feasible` has found, per (pawns, pieux, steps left).
Memo = dict[tuple[tuple[int, ...], int, int], bool]

#: The bit of an occupancy word that is always set: a table entry holding it bars the move
#: whatever the board (a pawn that would leave its home, or stands in another colour's).
NEVER: Final = 1 << 15
#: Where a colour's home bitmask sits in its occupancy word (above the pieux, at most 6 bits).
HOME_SHIFT: Final = 8


def occupancy(pieux: int, home: int) -> int:
    """The occupancy word of a colour whose home bitmask is ``home``, under ``pieux``: what
    :func:`forward_bars` and :func:`back_bars` are tested against.

    >>> bars = forward_bars(4)[0]
    >>> bool(occupancy(0b0001, 0) & bars[16 * 60 + 5])  # green's pieu on t0 bars t60 + 5
    True
    >>> bool(occupancy(0, 0) & bars[16 * 60 + 5])
    False
    """
    return pieux | home << HOME_SHIFT | NEVER


def forward_dest(track: int, colours: int, x: int, n: int, c: int, pieux: int, home: int) -> int:
    """Where the pawn of colour ``c`` on square ``x`` lands after ``n`` steps forward, or −1.

    ``track`` is L, ``colours`` C; ``pieux`` is the bitmask of colours with a pieu on their start
    square, ``home`` the bitmask of colour ``c``'s occupied home squares (bit k − 1 for home
    square k). The rule:

    - in its home (home square j), the pawn moves to home square j + n if that is at most 4 and
      the squares in between and at the end are empty;
    - on the track, with d the steps to its own start square (a pieu there must go once round
      first, d = L): if d < n ≤ d + 4 it enters its home at square n − d — compulsory — unless a
      home square up to that one is occupied (it then goes along the track) or its own pieu
      stands in the way (it cannot move at all);
    - along the track, no square passed or landed on may hold a pieu; ordinary pawns are passed
      (and one on the landing square is captured: the caller's business).

    >>> forward_dest(64, 4, 63, 2, 0, 0, 0)  # t63 → t0 (a step) → h0.1
    64
    >>> forward_dest(64, 4, 60, 6, 0, 0, 0b0001)  # h0.1 taken: h0.2 lies past it, so round
    2
    >>> forward_dest(64, 4, 64, 2, 0, 0, 0b0001)  # h0.1 → h0.3 inside the home
    66
    >>> forward_dest(64, 4, 64, 4, 0, 0, 0b0001)  # h0.1 + 4 would leave the home
    -1
    >>> forward_dest(64, 4, 0, 5, 0, 0b0001, 0)  # green's pieu goes along the track, not home
    5
    >>> forward_dest(64, 4, 60, 5, 3, 0b0001, 0)  # yellow cannot pass green's pieu on t0
    -1
    """
    if x >= track:  # in its home: further in, over empty squares only
        j = x - track - PAWNS * c  # 0-based
        t = j + n
        if t >= PAWNS or home & ((1 << (t + 1)) - (1 << (j + 1))):
            return -1
        return x + n
    start = c << 4
    own_pieu = pieux >> c & 1
    d = track if own_pieu and x == start else (start - x) % track
    if d < n <= d + PAWNS:
        if own_pieu:  # the pawn would cross its own pieu: neither way in nor round
            return -1
        j = n - d
        if not home & ((1 << j) - 1):
            return track + PAWNS * c + j - 1
    # Along the track: the next start square is 16 − x mod 16 away.
    if 16 - (x & 15) <= n and pieux >> ((x >> 4) + 1) % colours & 1:
        return -1
    return (x + n) % track


@cache
def forward_bars(colours: int) -> tuple[tuple[int, ...], ...]:
    """Per colour ``c``, per square ``x`` and distance ``n`` (entry ``16·x + n``, n 1–13): the
    bits of ``occupancy(pieux, home)`` that make ``forward_dest(…, x, n, c, pieux, home)`` −1,
    so that the move is possible exactly when ``occupancy(pieux, home) & entry == 0``.

    On the track the bar is one pieu: the colour's own when the move would enter or cross its
    start square on the way home, else that of the start square crossed (none from the colour's
    own start square: with its pieu there it goes round, without it it may go home). In the home
    it is the home squares passed and landed on, or ``NEVER`` past home square 4 (and in another
    colour's home, where the colour's pawns never stand).

    >>> bars = forward_bars(4)
    >>> bars[3][16 * 60 + 5] == 1 << 0  # yellow passes t0: only green's pieu bars it
    True
    >>> bars[0][16 * 64 + 2] == 0b0110 << HOME_SHIFT  # h0.1 + 2 passes h0.2, lands on h0.3
    True
    """
    geo_track = 16 * colours
    squares = geo_track + PAWNS * colours
    tables = []
    for c in range(colours):
        start = c << 4
        entries = [NEVER] * (16 * squares)
        for x in range(squares):
            for n in range(1, 16):
                if x >= geo_track:
                    if x - geo_track - PAWNS * c not in range(PAWNS):
                        continue
                    j = x - geo_track - PAWNS * c
                    t = j + n
                    if t < PAWNS:
                        entries[16 * x + n] = ((1 << (t + 1)) - (1 << (j + 1))) << HOME_SHIFT
                    continue
                d = (start - x) % geo_track
                if x == start:
                    bar = 0
                elif d < n <= d + PAWNS:
                    bar = 1 << c
                elif 16 - (x & 15) <= n:
                    bar = 1 << ((x >> 4) + 1) % colours
                else:
                    bar = 0
                entries[16 * x + n] = bar
        tables.append(tuple(entries))
    return tuple(tables)


@cache
def forward_rows(colours: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """:func:`forward_bars` by distance: per colour ``c`` and distance ``n``, the bars of every
    square (``forward_rows(C)[c][n][x] == forward_bars(C)[c][16·x + n]``), so that a card's
    moves read one row.

    >>> forward_rows(4)[3][5][60] == forward_bars(4)[3][16 * 60 + 5]
    True
    """
    squares = 16 * colours + PAWNS * colours
    return tuple(
        tuple(tuple(bars[16 * x + n] for x in range(squares)) for n in range(16))
        for bars in forward_bars(colours)
    )


@cache
def forward_entries(colours: int) -> tuple[tuple[int, ...], ...]:
    """Per colour ``c``, per track square ``x`` and distance ``n`` (entry ``16·x + n``): the home
    square ``j`` (1–4) that the move enters when it may (its home squares up to ``j`` empty,
    and not from its own start square as a pieu), else 0.

    >>> forward_entries(4)[0][16 * 60 + 5], forward_entries(4)[0][16 * 60 + 9]
    (1, 0)
    """
    track = 16 * colours
    tables = []
    for c in range(colours):
        entries = [0] * (16 * track)
        for x in range(track):
            d = ((c << 4) - x) % track
            for n in range(1, 16):
                if d < n <= d + PAWNS:
                    entries[16 * x + n] = n - d
        tables.append(tuple(entries))
    return tuple(tables)


@cache
def back_bars(colours: int) -> tuple[int, ...]:
    """Per square: the bits of an occupancy word that make ``back_dest`` −1 (``NEVER`` in a
    home, which ``-4`` never leaves).

    >>> back_bars(4)[2], back_bars(4)[20] == 1 << 1, back_bars(4)[64] == NEVER
    (1, True, True)
    """
    track = 16 * colours
    return tuple(
        NEVER if x >= track else 1 << (x >> 4) if 1 <= x & 15 <= 4 else 0
        for x in range(track + PAWNS * colours)
    )


def back_dest(track: int, x: int, pieux: int) -> int:
    """Where the pawn on track square ``x`` lands after ``-4``, or −1 (a pieu in the way).

    It moves 4 squares anticlockwise, passing ordinary pawns but not a pieu, never landing on
    one, and never entering a home (so it may go back past its own start square).

    >>> back_dest(64, 2, 0)  # past green's start square, which is empty, to t62
    62
    >>> back_dest(64, 2, 0b0001)  # a green pieu on t0 is in the way
    -1
    >>> back_dest(64, 0, 0b0001)  # the pieu itself may move back
    60
    >>> back_dest(64, 20, 0b0010)  # landing on red's pieu on t16 is refused
    -1
    """
    r = x & 15
    if 1 <= r <= 4 and pieux >> (x >> 4) & 1:
        return -1
    return (x - 4) % track


def entered(track: int, x: int, y: int, n: int, c: int) -> Sequence[int]:
    """The track squares a forward move of colour ``c`` from ``x`` to ``y`` (``n`` steps)
    enters before landing: those it passes, and on the way home those up to and including its
    start square. What a seven captures when ``seven_captures_passed`` is on.

    >>> entered(64, 5, 12, 7, 0)
    [6, 7, 8, 9, 10, 11]
    >>> entered(64, 60, 66, 7, 0)  # into h0.3: t61, t62, t63 and the start square t0
    [61, 62, 63, 0]
    >>> entered(64, 64, 65, 1, 0)  # inside the home: no track square
    ()
    """
    if x >= track:
        return ()
    if y < track:
        return [(x + i) % track for i in range(1, n)]
    d = ((c << 4) - x) % track
    return [(x + i) % track for i in range(1, d + 1)]


def seven_after(
    track: int, c: int, pawns: tuple[int, ...], x: int, y: int, n: int, pieux: int, passed: bool
) -> tuple[tuple[int, ...], int]:
    """Colour ``c``'s pawns (sorted squares) and the pieux after a sub-move of a seven from
    ``x`` to ``y`` (``n`` steps): its own pawns on the squares entered (``passed``, the option
    ``seven_captures_passed``) or landed on are captured, and a pieu that moves is one no more.

    >>> seven_after(64, 0, (0, 3, 10), 0, 5, 5, 0b0001, True)  # the pieu passes t3: captured
    ((5, 10), 0)
    >>> seven_after(64, 0, (0, 3, 10), 0, 5, 5, 0b0001, False)
    ((3, 5, 10), 0)
    """
    if passed and x < track:
        # The track squares entered are x+1 … x+span: up to the landing square, or on the
        # way home up to the start square.
        span = n if y < track else ((c << 4) - x) % track
        after = [
            y,
            *(p for p in pawns if p != x and not (p < track and 0 < (p - x) % track <= span)),
        ]
    else:
        after = [y, *(p for p in pawns if p != x and p != y)]
    after.sort()
    if x == c << 4:
        pieux &= ~(1 << c)
    return tuple(after), pieux


def _home_mask(track: int, c: int, pawns: tuple[int, ...]) -> int:
    """Colour ``c``'s occupied home squares as a bitmask, from its pawns' squares."""
    base = track + PAWNS * c
    home = 0
    for x in pawns:
        if x >= track:
            home |= 1 << (x - base)
    return home


def seven_feasible(
    track: int,
    colours: int,
    c: int,
    pawns: tuple[int, ...],
    pieux: int,
    r: int,
    passed: bool,
    memo: Memo,
) -> bool:
    """Whether colour ``c``'s pawns on ``pawns`` (sorted squares) can move ``r`` more steps in
    sub-moves of a seven. Only the colour's own pawns, its home and the pieux matter: the seven
    may capture the colour's own pawns, and never moves or removes a pieu of another colour.
    ``memo`` keeps what was found (share it between the calls on one position).

    >>> seven_feasible(64, 4, 0, (62,), 0, 5, True, {})  # t62 + 5 = h0.3
    True
    >>> seven_feasible(64, 4, 0, (66,), 0, 2, True, {})  # h0.3 has one square left
    False
    """
    if r == 0:
        return True
    key = (pawns, pieux, r)
    known = memo.get(key)
    if known is not None:
        return known
    home = _home_mask(track, c, pawns)
    for x in pawns:
        if forward_dest(track, colours, x, r, c, pieux, home) >= 0:
            memo[key] = True
            return True
    for x in pawns:
        for n in range(1, r):
            y = forward_dest(track, colours, x, n, c, pieux, home)
            if y >= 0:
                after, after_pieux = seven_after(track, c, pawns, x, y, n, pieux, passed)
                if seven_feasible(track, colours, c, after, after_pieux, r - n, passed, memo):
                    memo[key] = True
                    return True
    memo[key] = False
    return False


def seven_moves(
    track: int, colours: int, c: int, pawns: tuple[int, ...], pieux: int, r: int, passed: bool
) -> list[tuple[int, int]]:
    """The legal sub-moves ``(square, steps)`` of colour ``c``'s pawns (sorted squares) with
    ``r`` steps of a seven left: those after which the rest of the seven can still be used.

    >>> seven_moves(64, 4, 0, (62,), 0, 7, True)  # +3 … +6 would strand steps in the home
    [(62, 1), (62, 2), (62, 7)]
    """
    offsets = seven_offsets(track, colours, c, pawns, pieux, r, passed)
    return [(offset // 7, offset % 7 + 1) for offset in offsets]


def seven_offsets(
    track: int, colours: int, c: int, pawns: tuple[int, ...], pieux: int, r: int, passed: bool
) -> list[int]:
    """:func:`seven_moves` as offsets ``7·square + steps − 1``, in order (the seven actions'
    order in the action table).

    A pawn on the track with no start square within ``r`` steps, or only another colour's
    without its pieu, may take any part of them (nothing can bar it, and it can go on with the
    rest); elsewhere a sub-move whose pawn can go on with the whole rest is kept at once (one
    look-up in :func:`forward_bars`), and only the others search the rest with
    :func:`seven_feasible`.

    >>> seven_offsets(64, 4, 0, (62,), 0, 7, True)  # t62 + 1, + 2 or + 7, as in seven_moves
    [434, 435, 440]
    >>> len(seven_offsets(64, 4, 0, (5, 62), 0, 7, True))  # t5 can take any rest: 2 × 7
    14
    """
    bars = forward_bars(colours)[c]
    entries = forward_entries(colours)[c]
    home = _home_mask(track, c, pawns)
    occ = pieux | home << HOME_SHIFT | NEVER
    base = track + PAWNS * c
    start = c << 4
    at_start_pieu = pieux >> c & 1
    memo: Memo | None = None
    offsets: list[int] = []
    for x in pawns:
        first = 7 * x - 1
        if x < track and x != start:
            # Within reach, no start square, or that of another colour with no pieu on it: no
            # bar and no way home, for any part of the steps and for the rest after it.
            k = ((x >> 4) + 1) % colours
            if 16 - (x & 15) > r or (k != c and not pieux >> k & 1):
                offsets += range(first + 1, first + r + 1)
                continue
        at = x << 4
        for n in range(1, r + 1):
            if occ & bars[at + n]:
                continue
            if n < r:
                # Where it lands, and whether it can go on with the whole rest: its bar is a
                # pieu on the track, the home squares in the home (those after the sub-move).
                if x >= track:
                    y = x + n
                    after_occ = (home & ~(1 << (x - base)) | 1 << (y - base)) << HOME_SHIFT
                else:
                    j = entries[at + n]
                    if j and not home & ((1 << j) - 1) and not (x == start and at_start_pieu):
                        y = base + j - 1
                        after_occ = (home | 1 << (j - 1)) << HOME_SHIFT
                    else:
                        y = (x + n) % track
                        after_occ = pieux & ~(1 << c) if x == start else pieux
                if (after_occ | NEVER) & bars[(y << 4) + r - n]:
                    if memo is None:
                        memo = {}
                    after, after_pieux = seven_after(track, c, pawns, x, y, n, pieux, passed)
                    if not seven_feasible(
                        track, colours, c, after, after_pieux, r - n, passed, memo
                    ):
                        continue
            offsets.append(first + n)
    return offsets

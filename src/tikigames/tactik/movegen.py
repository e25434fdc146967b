"""Tac-Tik's move generator: the legal plays of a position — starts, forward moves, ``-4``,
sevens, swaps, discards — and the tables it reads.

The position is read as plain data: the board list of the state (see :class:`Tables` for its
layout), the hand to play and the seven under way. What is the same for every state of a game
(its rules, its action table, the board's offsets, the path rule's tables, the memos shared by
clones) is one :class:`Tables` object per game (:func:`tables_of`), which a state holds by
reference. Where a pawn may go is the path rule's business (:mod:`tikigames.tactik.paths`).

>>> import tikigames
>>> game = tikigames.load("tactik")
>>> t = tables_of(game.rules, game.action_table.actions)
>>> board = [-1] * t.track + [0] * 4 + [4] * 4 + [0] + [-1] * 16  # the initial board
>>> hand = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]  # a 1 and a Joker
>>> [str(action) for action in play_legal(t, board, hand, 0, 0, -1)]
['1:start@0', 'J=1:start@0', 'discard 1', 'discard J']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tikigames.tactik.actions import Layout, TacTikAction, layout
from tikigames.tactik.data import HOME_FULL, PAWNS, TacTikRules
from tikigames.tactik.deals import Deals, deals_of
from tikigames.tactik.paths import (
    HOME_SHIFT,
    NEVER,
    back_bars,
    forward_entries,
    forward_rows,
    seven_offsets,
)

__all__ = ["Tables", "acting_colours", "colour_sevens", "play_legal", "swap_pairs", "tables_of"]


class Tables:
    """What every state of one game reads and none changes: the rules, the action table and
    its id layout, the deal tables, the path rule's tables, the sevens' memo, and the layout
    of the board list.

    The board is one list of ints: ``[0, track)`` the track (the colour on each square, −1
    empty); ``homes + c`` colour c's home bitmask; ``res + c`` its reserve; ``pieu`` the
    bitmask of colours with a pieu; ``pos + 4c + i`` the square of colour c's i-th pawn (−1 in
    reserve; the order of a colour's pawns is arbitrary and not part of the position)."""

    __slots__ = (
        "actions", "back_bars", "colours", "deal_size", "deals", "discard_all", "discard_any",
        "entries", "homes", "lay", "partner", "passed", "pieu", "players", "pos", "res", "rows",
        "rules", "sevens", "size", "team", "track",
    )  # fmt: skip

    def __init__(self, rules: TacTikRules, actions: tuple[TacTikAction, ...]) -> None:
        colours = rules.colours
        self.rules = rules
        self.actions = actions
        self.lay: Layout = layout(colours)
        self.deals: Deals = deals_of(actions, rules)
        self.colours = colours
        self.track = track = rules.track
        self.players = rules.players
        self.team = rules.team
        self.deal_size = rules.deal_size
        self.passed = rules.passed
        self.partner = rules.partner
        self.discard_any = rules.discard_any
        self.homes = track
        self.res = track + colours
        self.pieu = track + 2 * colours
        self.pos = track + 2 * colours + 1
        #: The board list's length.
        self.size = self.pos + PAWNS * colours
        self.discard_all = actions[self.lay.discard_all]
        self.rows = forward_rows(colours)
        self.entries = forward_entries(colours)
        self.back_bars = back_bars(colours)
        #: The memo of :func:`colour_sevens`, shared by the games of the same board and seven
        #: rule.
        self.sevens = _SEVENS.setdefault((colours, rules.passed), {})

    def initial_board(self) -> list[int]:
        """The board list before the first deal: the track empty, every pawn in reserve."""
        colours = self.colours
        return (
            [-1] * self.track + [0] * colours + [PAWNS] * colours + [0] + [-1] * (PAWNS * colours)
        )


#: Per number of colours and ``seven_captures_passed``: the memo of :func:`colour_sevens`, by
#: ``(colour, pieux, steps left, *the colour's pawns' squares, sorted)``; emptied when it holds
#: ``_SEVENS_MAX`` keys (some 270 bytes each: 18 MB at most; tuples of ints, which the
#: garbage collector stops tracking).
_SEVENS: dict[tuple[int, bool], dict[tuple[int, ...], tuple[int, ...]]] = {}
_SEVENS_MAX: Final = 1 << 16

#: The tables of each game's rules, by its action table's id (checked on use).
_TABLES: dict[tuple[int, TacTikRules], Tables] = {}


def tables_of(rules: TacTikRules, actions: tuple[TacTikAction, ...]) -> Tables:
    """The shared tables of the game of ``rules``, whose action table is ``actions``."""
    key = (id(actions), rules)
    entry = _TABLES.get(key)
    if entry is None or entry.actions is not actions:
        entry = _TABLES[key] = Tables(rules, actions)
    return entry


def acting_colours(t: Tables, b: list[int], player: int) -> tuple[int, ...]:
    """The colours ``player`` moves on board ``b``: their own, or their partner's once theirs
    is home (in the 2-player variant, each of their colours not yet home)."""
    rules = t.rules
    homes = t.homes
    if t.team:
        if b[homes + player] == HOME_FULL:
            return (rules.partner[player],)
        return (player,)
    return tuple(c for c in rules.own_colours[player] if b[homes + c] != HOME_FULL)


def play_legal(
    t: Tables, b: list[int], hand: list[int], player: int, seven: int, seven_colour: int
) -> list[TacTikAction]:
    """The legal actions of ``player`` holding ``hand`` (a count per kind) on board ``b``, or,
    with ``seven`` steps left of a seven moving ``seven_colour``, its further sub-moves. Built
    in id order — starts, forward moves (the cards in hand, then a Joker's), ``-4``, sevens,
    swaps, discards, each run in square order — so that nothing is sorted but the pawns.

    What the hand can play is looked up once per hand (:meth:`Deals.hand
    <tikigames.tactik.deals.Deals.hand>`: the cards' action runs, in id order), and whether a
    pawn can move is one look-up in the path rule's tables
    (:func:`~tikigames.tactik.paths.forward_bars`) against its colour's occupancy word."""
    deals = t.deals
    if seven:
        further = deals.sevens[0]  # a seven's further sub-moves: plain sevens
        return [further[offset] for offset in colour_sevens(t, b, seven_colour, seven)]
    colours: tuple[int, ...]
    if t.team:
        colours = (t.partner[player],) if b[t.homes + player] == HOME_FULL else (player,)
    else:
        colours = acting_colours(t, b, player)
    pieux = b[t.pieu]
    legal: list[TacTikAction] = []
    # The memo read directly, its method only on a miss.
    plan = deals.hands.get(tuple(hand)) or deals.hand(hand)
    res = t.res
    starts = plan.starts
    if starts:
        starters = [c for c in colours if b[res + c] and not pieux >> c & 1]
        if starters:
            actions = t.actions
            for base in starts:
                for c in starters:
                    legal.append(actions[base + c])
    pos, homes = t.pos, t.homes
    bars = t.back_bars
    forwards, backs = plan.forwards, plan.backs
    if len(colours) == 1:
        # The pawns of the one acting colour, in square order, against its occupancy.
        c = colours[0]
        occ = pieux | b[homes + c] << HOME_SHIFT | NEVER
        rows = t.rows[c]
        first = pos + PAWNS * c
        xs = b[first : first + PAWNS]
        xs.sort()
        if b[res + c]:  # the pawns in reserve, at −1, come first
            del xs[: b[res + c]]
        for steps, moves in forwards:
            row = rows[steps]
            for x in xs:
                if not occ & row[x]:
                    legal.append(moves[x])
        if backs:
            unbarred = [x for x in xs if not occ & bars[x]]
            for moves in backs:
                legal += [moves[x] for x in unbarred]
    else:
        # Several colours (the 2-player variant): their pawns merged in square order, each
        # with its colour's occupancy and bars.
        movers: list[tuple[int, int, tuple[tuple[int, ...], ...]]] = []
        for c in colours:
            occ = pieux | b[homes + c] << HOME_SHIFT | NEVER
            rows = t.rows[c]
            first = pos + PAWNS * c
            for x in b[first : first + PAWNS]:
                if x >= 0:
                    movers.append((x, occ, rows))
        movers.sort()
        for steps, moves in forwards:
            for x, occ, rows in movers:
                if not occ & rows[steps][x]:
                    legal.append(moves[x])
        if backs:
            unbarred = [x for x, occ, _ in movers if not occ & bars[x]]
            for moves in backs:
                legal += [moves[x] for x in unbarred]
    sevens = plan.sevens
    if sevens:
        offsets: Sequence[int]
        if len(colours) == 1:
            offsets = colour_sevens(t, b, colours[0], 7)
        else:
            offsets = sorted([offset for c in colours for offset in colour_sevens(t, b, c, 7)])
        for moves in sevens:
            legal += [moves[offset] for offset in offsets]
    swaps = plan.swaps
    if swaps:
        pairs = swap_pairs(t, b, colours)
        for moves in swaps:
            legal += [moves[pair] for pair in pairs]
    if t.discard_any:
        legal += plan.discards
    elif not legal:
        legal.append(t.discard_all)
    return legal


def colour_sevens(t: Tables, b: list[int], c: int, r: int) -> tuple[int, ...]:
    """The legal sub-moves of colour ``c`` with ``r`` steps left on board ``b``, as offsets
    into the seven actions (``7·square + steps − 1``), in order.

    Memoised (``Tables.sevens``) by all they depend on: the colour, the pieux, the steps left
    and the colour's pawns' squares (−1 in reserve). Each costs a search of the rest of the
    steps (:func:`~tikigames.tactik.paths.seven_offsets`, 2.7 µs on average in random games),
    and a colour's pawns keep their squares over the turns its player discards or a partner
    plays: after the first few hundred games, about two lookups in three find the offsets
    known."""
    first = t.pos + PAWNS * c
    pieux = b[t.pieu]
    squares = b[first : first + PAWNS]
    squares.sort()
    key = (c, pieux, r, *squares)
    memo = t.sevens
    found = memo.get(key)
    if found is None:
        pawns = tuple([x for x in squares if x >= 0])
        if len(memo) >= _SEVENS_MAX:
            memo.clear()
        found = memo[key] = tuple(seven_offsets(t.track, t.colours, c, pawns, pieux, r, t.passed))
    return found


def swap_pairs(t: Tables, b: list[int], colours: tuple[int, ...]) -> list[int]:
    """Ordered-pair indices of the legal swaps of ``colours`` on board ``b``, sorted, each
    written as the rules say: the acting colour's pawn first, the lower square first when both
    are the player's."""
    track = t.track
    pair_base = track - 1
    pieux = b[t.pieu]
    pos = t.pos
    ordinary = [
        x
        for x in b[pos : pos + PAWNS * t.colours]
        if 0 <= x < track and (x & 15 or not pieux >> (x >> 4) & 1)
    ]
    ordinary.sort()
    if len(colours) == 1:
        # One colour: pairs come out in order, (own, other) with other ascending for each
        # own pawn ascending; a pair of own pawns once, from its lower square.
        c = colours[0]
        mine = [x for x in ordinary if b[x] == c]
        others = ordinary
        if pieux >> c & 1:
            mine.append(c << 4)
            mine.sort()
            others = [*ordinary, c << 4]
            others.sort()
        ordered: list[int] = []
        for a in mine:
            row = a * pair_base
            for other in others:
                if other <= a and b[other] == c:
                    continue
                ordered.append(row + (other if other < a else other - 1))
        return ordered
    pairs: set[int] = set()
    for c in colours:
        mine = [x for x in ordinary if b[x] == c]
        others = ordinary
        if pieux >> c & 1:
            mine.append(c << 4)
            others = [*ordinary, c << 4]
        for a in mine:
            for other in others:
                if other == a:
                    continue
                if b[other] in colours:
                    first, second = (a, other) if a < other else (other, a)
                else:
                    first, second = a, other
                pairs.add(first * pair_base + (second if second < first else second - 1))
    return sorted(pairs)

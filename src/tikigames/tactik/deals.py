"""Tac-Tik's deal tables and hand plans: what a chance node and a hand can produce, looked up.

Every state of one action table shares one :class:`Deals` (:func:`deals_of`): the deal actions,
the legal list of each set of kinds left in the talon, the ``(action, probability)`` pair of
each count out of each talon size, and each hand's :class:`HandPlan`. Built as met, so that a
chance node allocates nothing but the list it returns, and a turn neither scans the hand nor
looks up what each card does.

>>> import tikigames
>>> game = tikigames.load("tactik")
>>> deals = deals_of(game.action_table.actions, game.rules)
>>> plan = deals.hand([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])  # a 1 and a Joker
>>> [str(action) for action in plan.discards], [str(action) for action in plan.gives]
(['discard 1', 'discard J'], ['give 1', 'give J'])
>>> len(plan.forwards), len(plan.sevens), deals.kinds(0b101)[0]
(10, 1, (0, 2))
"""

from __future__ import annotations

from typing import Final, NamedTuple

from tikigames.tactik.actions import Layout, TacTikAction, layout
from tikigames.tactik.data import (
    BACK4,
    C7,
    FORWARD_CARDS,
    FORWARD_OF,
    JOKER,
    NUM_CARDS,
    START_OF,
    STEPS,
    SWAP,
    TacTikRules,
)

__all__ = ["HANDS_MAX", "Deals", "HandPlan", "deals_of", "kinds_mask"]


class HandPlan(NamedTuple):
    """What a hand can play, each run in id order, so that a turn's legal list comes out
    sorted. The rows of ``backs``, ``sevens`` and ``swaps`` are sliced to those the hand holds
    out of the pair (the card's row, a Joker's row)."""

    #: The id of each start action the hand's cards allow, for colour 0 (add the colour).
    starts: tuple[int, ...]
    #: Per forward card (then each card a Joker stands for): its steps and its actions by square.
    forwards: tuple[tuple[int, tuple[TacTikAction, ...]], ...]
    #: The ``-4`` (and Joker ``-4``) actions by square.
    backs: tuple[tuple[TacTikAction, ...], ...]
    #: The sevens' (and Joker sevens') actions by offset ``7·square + steps − 1``.
    sevens: tuple[tuple[TacTikAction, ...], ...]
    #: The swaps' (and Joker swaps') actions by ordered pair of track squares.
    swaps: tuple[tuple[TacTikAction, ...], ...]
    #: One discard per kind held.
    discards: list[TacTikAction]
    #: One give per kind held: the exchange's legal list.
    gives: list[TacTikAction]


#: The most hands a table keeps (see ``Deals.hands``): a 6-card hand has some 38,000 forms.
HANDS_MAX: Final = 1 << 16


class Deals:
    """What the deal phase and the hands read, for one action table (see the module)."""

    __slots__ = (
        "actions", "backs", "deal", "discard", "forwards", "give", "hands", "joker_forward",
        "legal", "pairs", "sevens", "starts", "swaps",
    )  # fmt: skip

    def __init__(
        self,
        actions: tuple[TacTikAction, ...],
        lay: Layout,
        colours: int,
        joker_forward: tuple[int, ...],
    ) -> None:
        self.actions = actions
        self.joker_forward = joker_forward
        self.deal = actions[lay.deal : lay.deal + NUM_CARDS]
        self.discard = actions[lay.discard : lay.discard + NUM_CARDS]
        self.give = actions[lay.give : lay.give + NUM_CARDS]
        squares, track = lay.squares, lay.track
        n = len(FORWARD_CARDS)
        #: The forward actions by square of each forward card, then of each Joker forward.
        self.forwards = [
            actions[lay.forward + i * squares : lay.forward + (i + 1) * squares]
            for i in range(2 * n)
        ]
        #: The ``-4`` and Joker ``-4`` actions by square, the sevens' and the Joker sevens' by
        #: offset, the swaps' and the Joker swaps' by pair.
        self.backs = (
            actions[lay.back : lay.back + track],
            actions[lay.back + track : lay.back + 2 * track],
        )
        self.sevens = (
            actions[lay.seven : lay.seven + 7 * squares],
            actions[lay.seven + 7 * squares : lay.seven + 14 * squares],
        )
        pairs = track * (track - 1)
        self.swaps = (
            actions[lay.swap : lay.swap + pairs],
            actions[lay.swap + pairs : lay.swap + 2 * pairs],
        )
        #: Per card kind, the id of its start action for colour 0, or −1.
        self.starts = tuple(
            lay.start + START_OF[k] * colours if START_OF[k] >= 0 else -1 for k in range(NUM_CARDS)
        )
        #: Bitmask of the kinds in the talon → its kinds and the legal deal actions.
        self.legal: dict[int, tuple[tuple[int, ...], list[TacTikAction]]] = {}
        #: Talon size → the pair of kind k with c copies left, at ``8·k + c``.
        self.pairs: dict[int, list[tuple[TacTikAction, float]]] = {}
        #: A hand (its count per kind) → its plan.
        self.hands: dict[tuple[int, ...], HandPlan] = {}

    def hand(self, hand: list[int]) -> HandPlan:
        """The plan of ``hand`` (a count per kind)."""
        key = tuple(hand)
        entry = self.hands.get(key)
        if entry is None:
            if len(self.hands) >= HANDS_MAX:
                self.hands.clear()
            kinds = [k for k in range(NUM_CARDS) if hand[k]]
            joker = 1 if hand[JOKER] else 0
            forwards = [
                (STEPS[k], self.forwards[FORWARD_OF[k]]) for k in kinds if FORWARD_OF[k] >= 0
            ]
            if joker:
                n = len(FORWARD_CARDS)
                forwards += [
                    (STEPS[FORWARD_CARDS[i]], self.forwards[n + i]) for i in self.joker_forward
                ]
            # Each pair of rows is (the card's, a Joker's): sliced to those the hand holds.
            entry = self.hands[key] = HandPlan(
                starts=tuple(self.starts[k] for k in kinds if self.starts[k] >= 0),
                forwards=tuple(forwards),
                backs=self.backs[1 - (hand[BACK4] > 0) : 1 + joker],
                sevens=self.sevens[1 - (hand[C7] > 0) : 1 + joker],
                swaps=self.swaps[1 - (hand[SWAP] > 0) : 1 + joker],
                discards=[self.discard[k] for k in kinds],
                gives=[self.give[k] for k in kinds],
            )
        return entry

    def kinds(self, mask: int) -> tuple[tuple[int, ...], list[TacTikAction]]:
        """The kinds of the bitmask ``mask``, in card order, and their deal actions."""
        entry = self.legal.get(mask)
        if entry is None:
            kinds = tuple(k for k in range(NUM_CARDS) if mask >> k & 1)
            entry = self.legal[mask] = (kinds, [self.deal[k] for k in kinds])
        return entry

    def row(self, size: int) -> list[tuple[TacTikAction, float]]:
        """The outcome pairs of a talon of ``size`` cards (see ``pairs``)."""
        row = self.pairs.get(size)
        if row is None:
            row = self.pairs[size] = [
                (self.deal[k], count / size) for k in range(NUM_CARDS) for count in range(8)
            ]
        return row


def kinds_mask(counts: list[int]) -> int:
    """The kinds of a count per kind, as a bitmask (bit k: kind k).

    >>> kinds_mask([2, 0, 1] + [0] * 11)
    5
    """
    mask = 0
    for k in range(NUM_CARDS):
        if counts[k]:
            mask |= 1 << k
    return mask


#: The deal tables of each action table, by the id of its actions' tuple (checked on use).
_DEALS: dict[int, Deals] = {}


def deals_of(actions: tuple[TacTikAction, ...], rules: TacTikRules) -> Deals:
    """The deal tables of ``actions``, the action table of ``rules`` (which fixes the layout,
    and the Joker's forward cards through ``with_13``)."""
    entry = _DEALS.get(id(actions))
    if entry is None or entry.actions is not actions or entry.joker_forward != rules.joker_forward:
        entry = _DEALS[id(actions)] = Deals(
            actions, layout(rules.colours), rules.colours, rules.joker_forward
        )
    return entry

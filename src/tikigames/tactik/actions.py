"""Tac-Tik's action table: every action of a board of C colours, ids stable across releases.

With L = 16·C track squares and Q = L + 4·C nameable squares (4 colours: L = 64, Q = 80,
10,971 actions; 6 colours: L = 96, Q = 120, 22,579 actions), the kinds in id order are:

=============  ==================  ===============================================================
kind           count               text
=============  ==================  ===============================================================
start          4 · C               ``1:start@{s}``, ``10:…``, ``13:…``, ``J=1:…`` (card-major)
forward        20 · Q              ``{card}:{pawn}`` for the 10 forward cards, then ``J={card}:…``
back 4         2 · L               ``-4:{pawn}``, then ``J=-4:{pawn}``
seven          2 · Q · 7           ``7:{pawn}+{n}``, then ``J=7:{pawn}+{n}`` (pawn-major, n 1–7)
swap           2 · L · (L − 1)     ``P:{a}~{b}``, then ``J=P:{a}~{b}`` (a-major, b ≠ a)
discard        14                  ``discard {card}`` in card order
discard all    1                   ``discard all``
give           14                  ``give {card}`` (others see ``give ?``)
deal           14                  chance: ``deal {card}`` (others see ``deal ?``)
=============  ==================  ===============================================================

Cards are in the order ``1 2 3 5 6 7 8 9 10 12 13 -4 P J``; the forward cards in the order
``1 2 3 5 6 8 9 10 12 13``; squares in the order ``t0 … t(L−1)``, then ``h0.1 … h0.4``,
``h1.1`` …. The ``13`` actions exist with every option (so that ids never depend on
``with_13``); without ``with_13`` they are never legal.
"""

from __future__ import annotations

from functools import cache

from mypy_extensions import mypyc_attr

from tikigames.core.action import Action, ActionTable
from tikigames.tactik.data import (
    BACK4,
    C1,
    C7,
    C10,
    C13,
    CARD_NAMES,
    FORWARD_CARDS,
    JOKER,
    NUM_CARDS,
    START_CARDS,
    STEPS,
    SWAP,
    geometry,
)

__all__ = [
    "BACK",
    "DEAL",
    "DISCARD",
    "DISCARD_ALL",
    "FORWARD",
    "GIVE",
    "SEVEN",
    "START",
    "SWAP_PAWNS",
    "Layout",
    "TacTikAction",
    "build_table",
    "layout",
]

# Action kinds.
START, FORWARD, BACK, SEVEN, SWAP_PAWNS, DISCARD, DISCARD_ALL, GIVE, DEAL = range(9)

#: Start variants in id order: the three start cards, then a Joker standing for a start card.
_START_VARIANTS = (C1, C10, C13, JOKER)


@mypyc_attr(native_class=False)  # an int subclass: mypyc compiles it as a Python class
class TacTikAction(Action):
    """A Tac-Tik action with its decoded fields.

    Attributes:
        kind: ``START`` … ``DEAL``.
        card: the card that leaves the hand (``JOKER`` for a Joker; for a discard, a give or a
            deal, the card concerned); −1 for ``discard all``.
        value: the card the action acts as (a Joker's chosen card), else ``card``.
        square: the pawn's square (the first pawn of a swap); for a start, the colour.
        other: the second pawn's square of a swap, else −1.
        steps: the steps of a forward move or of a sub-move of a seven (4 for ``-4``), else 0.
    """

    kind: int
    card: int
    value: int
    square: int
    other: int
    steps: int


class Layout:
    """The id ranges of the table for a board of ``colours`` colours."""

    __slots__ = (
        "back",
        "deal",
        "discard",
        "discard_all",
        "forward",
        "give",
        "seven",
        "size",
        "squares",
        "start",
        "swap",
        "track",
    )

    def __init__(self, colours: int) -> None:
        geo = geometry(colours)
        self.track = track = geo.track
        self.squares = squares = geo.squares
        self.start = 0
        self.forward = self.start + len(_START_VARIANTS) * colours
        self.back = self.forward + 2 * len(FORWARD_CARDS) * squares
        self.seven = self.back + 2 * track
        self.swap = self.seven + 2 * squares * 7
        self.discard = self.swap + 2 * track * (track - 1)
        self.discard_all = self.discard + NUM_CARDS
        self.give = self.discard_all + 1
        self.deal = self.give + NUM_CARDS
        self.size = self.deal + NUM_CARDS

    def pair(self, a: int, b: int) -> int:
        """The index of the ordered pair of track squares ``(a, b)``, ``a ≠ b``."""
        return a * (self.track - 1) + (b if b < a else b - 1)


@cache
def layout(colours: int) -> Layout:
    """The shared id layout of a board of ``colours`` colours."""
    return Layout(colours)


def _label(card: int, joker: bool) -> str:
    return f"J={CARD_NAMES[card]}" if joker else CARD_NAMES[card]


def build_table(colours: int, with_13: bool) -> ActionTable[TacTikAction]:
    """Every action of a board of ``colours`` colours, in id order (see the module docstring).
    ``with_13`` only adds the parsing alias ``J=13:start@{s}``."""
    geo = geometry(colours)
    lay = layout(colours)
    names = geo.names
    track = geo.track
    actions: list[TacTikAction] = []

    def add(text: str, kind: int, card: int, value: int, **fields: int) -> None:
        hidden = {GIVE: "give ?", DEAL: "deal ?"}.get(kind)
        fields = {"square": -1, "other": -1, "steps": 0, **fields}
        actions.append(
            TacTikAction.build(
                len(actions), text, hidden, kind=kind, card=card, value=value, **fields
            )
        )

    for variant in _START_VARIANTS:
        label = "J=1" if variant == JOKER else CARD_NAMES[variant]
        for colour in range(colours):
            add(
                f"{label}:start@{colour}",
                START,
                variant,
                C1 if variant == JOKER else variant,
                square=colour,
            )
    for joker in (False, True):
        for card in FORWARD_CARDS:
            used = JOKER if joker else card
            for square in range(geo.squares):
                text = f"{_label(card, joker)}:{names[square]}"
                add(text, FORWARD, used, card, square=square, steps=STEPS[card])
    for joker in (False, True):
        for square in range(track):
            add(f"{_label(BACK4, joker)}:{names[square]}", BACK, JOKER if joker else BACK4, BACK4,
                square=square, steps=4)  # fmt: skip
    for joker in (False, True):
        for square in range(geo.squares):
            for steps in range(1, 8):
                text = f"{_label(C7, joker)}:{names[square]}+{steps}"
                add(text, SEVEN, JOKER if joker else C7, C7, square=square, steps=steps)
    for joker in (False, True):
        for a in range(track):
            for b in range(track):
                if a != b:
                    text = f"{_label(SWAP, joker)}:{names[a]}~{names[b]}"
                    add(text, SWAP_PAWNS, JOKER if joker else SWAP, SWAP, square=a, other=b)
    for card in range(NUM_CARDS):
        add(f"discard {CARD_NAMES[card]}", DISCARD, card, card)
    add("discard all", DISCARD_ALL, -1, -1)
    for card in range(NUM_CARDS):
        add(f"give {CARD_NAMES[card]}", GIVE, card, card)
    for card in range(NUM_CARDS):
        add(f"deal {CARD_NAMES[card]}", DEAL, card, card)
    assert len(actions) == lay.size
    aliases: dict[str, TacTikAction] = {}
    joker_start = lay.start + len(START_CARDS) * colours
    for colour in range(colours):
        aliases[f"j=10:start@{colour}"] = actions[joker_start + colour]
        if with_13:
            aliases[f"j=13:start@{colour}"] = actions[joker_start + colour]
    return ActionTable(actions, aliases=aliases)


# The start variant of each card that may start a pawn (the Joker's is JOKER).
START_VARIANT = {card: index for index, card in enumerate(_START_VARIANTS)}
assert C13 in START_VARIANT

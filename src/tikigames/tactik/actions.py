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

from tikigames.core.action import Action, ActionTable, normalize_text
from tikigames.core.errors import ActionError
from tikigames.tactik.data import (
    BACK4,
    C1,
    C7,
    C10,
    C13,
    CARD_INDEX,
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
    "TacTikTable",
    "build_table",
    "explain",
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


def _square_problem(name: str, colours: int) -> str | None:
    """What is wrong with ``name`` as a pawn's square (``None``: nothing)."""
    geo = geometry(colours)
    if name in geo.names:
        return None
    last = f"h{colours - 1}.4"
    where = f"the track is t0 … t{geo.track - 1}, the homes h0.1 … {last}"
    if name[:1] in ("t", "h") and name[1:].replace(".", "", 1).isdigit():
        return f"there is no square {name} ({where})"
    return f"a pawn is named by its square ({where}), not {name!r}"


def explain(text: str, colours: int, with_13: bool) -> str:
    """What is wrong with ``text``, which names no action of a board of ``colours`` colours:
    the words of the parser's error, for a person who almost wrote an action.

    >>> explain("7:t3+9", 4, False)
    "a seven's part moves 1 to 7 steps, not 9"
    >>> explain("discard 4", 4, False)
    'there is no card 4 (the cards are 1 2 3 5 6 7 8 9 10 12 13 -4 P J)'
    """
    t = normalize_text(text)
    cards = "the cards are " + " ".join(CARD_NAMES)
    if "?" in t:
        return "a ? stands for a card hidden from you, not an action: name the card"
    word, _, rest = t.partition(" ")
    if word in ("discard", "give", "deal") and rest:
        if rest == "all" and word == "discard":
            return "write it discard all"
        if rest not in CARD_INDEX:
            return f"there is no card {rest.upper()} ({cards})"
        return f"write it {word} followed by one card ({cards})"
    head, colon, body = t.partition(":")
    if not colon:
        return (
            "an action is a card and a pawn (5:t23), a start (1:start@0), a seven's part "
            "(7:t23+3), a swap (P:t3~t40), a discard (discard 5) or a give (give 5)"
        )
    joker = head.startswith("j=")
    name = head[2:] if joker else head
    if name not in CARD_INDEX or (joker and name == "j"):
        return f"there is no card {head.upper()} ({cards}; a Joker played as 5 is J=5)"
    card = CARD_INDEX[name]
    label = CARD_NAMES[card]
    if card == JOKER:
        return "a Joker is played as another card: J=5:t23, J=7:t23+3, J=P:t3~t40"
    if body.startswith("start@"):
        if card not in START_CARDS:
            starters = "1, 10 (or 13)" if with_13 else "1, 10"
            return f"only {starters} or a Joker (J=1) start a pawn, not {label}"
        colour = body[6:]
        if not colour.isdigit() or int(colour) >= colours:
            return f"the colours are 0 to {colours - 1}, not {colour!r}"
        return f"write a start {label}:start@{{colour}}"
    if card == C7:
        pawn, plus, steps = body.rpartition("+")
        if not plus:
            return f"a seven's part names its steps: 7:{{pawn}}+{{1 to 7}}, like 7:{body}+3"
        if not steps.isdigit() or not 1 <= int(steps) <= 7:
            return f"a seven's part moves 1 to 7 steps, not {steps}"
        return _square_problem(pawn, colours) or "write a seven's part 7:{pawn}+{steps}"
    if card == SWAP:
        a, tilde, b = body.partition("~")
        if not tilde:
            return "P swaps two pawns: P:{your pawn}~{the other pawn}, like P:t3~t40"
        problem = _square_problem(a, colours) or _square_problem(b, colours)
        if problem:
            return problem
        if a == b:
            return "P swaps two different pawns"
        return "P swaps two pawns on the track, not in a home"
    if "+" in body or "~" in body:
        pawn = body.replace("~", "+").partition("+")[0]
        return f"{label} moves one pawn, named by its square: {label}:{pawn} (steps only for a 7)"
    problem = _square_problem(body, colours)
    if card == BACK4:
        return problem or "-4 moves a pawn on the track, not in a home"
    return problem or f"{label} moves one pawn: {label}:{{pawn}}, like {label}:t23"


@mypyc_attr(allow_interpreted_subclasses=True)
class TacTikTable(ActionTable[TacTikAction]):
    """The action table, whose parser says what is wrong with a text that is almost an action
    (:func:`explain`); which texts parse is the table's, unchanged."""

    __slots__ = ("colours", "with_13")

    def __init__(
        self,
        actions: list[TacTikAction],
        aliases: dict[str, TacTikAction],
        colours: int,
        with_13: bool,
    ) -> None:
        super().__init__(actions, aliases=aliases)
        self.colours = colours
        self.with_13 = with_13

    def parse(self, text: object) -> TacTikAction:
        """The action written ``text`` (see :meth:`ActionTable.parse
        <tikigames.core.action.ActionTable.parse>`).

        >>> import tikigames
        >>> try:
        ...     tikigames.load("tactik").action_table.parse("P:t3~t3")
        ... except tikigames.ActionError as error:
        ...     print(error)
        'P:t3~t3' is not an action of this game: P swaps two different pawns
        """
        try:
            return super().parse(text)
        except ActionError as error:
            if not isinstance(text, str):
                raise
            why = explain(text, self.colours, self.with_13)
            raise ActionError(f"{error}: {why}") from None


def build_table(colours: int, with_13: bool) -> TacTikTable:
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
    return TacTikTable(actions, aliases, colours, with_13)


# The start variant of each card that may start a pawn (the Joker's is JOKER).
START_VARIANT = {card: index for index, card in enumerate(_START_VARIANTS)}
assert C13 in START_VARIANT

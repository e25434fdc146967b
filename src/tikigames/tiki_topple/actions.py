"""Tiki Topple's action table (1360 ids, stable across releases).

======  ==========================  =========================================
ids     kind                        text
======  ==========================  =========================================
0–8     Tiki Up 1 on tiki 0–8       ``up1 nani`` … ``up1 eepo``
9–17    Tiki Up 2                   ``up2 {tiki}``
18–26   Tiki Up 3                   ``up3 {tiki}``
27–35   Tiki Topple                 ``topple {tiki}``
36      Tiki Toast                  ``toast``
37–1332 chance: a line setup        ``line t1,…,t9`` (the 1296 group-respecting lines)
1333–   chance: a secret card       ``secret 0`` … ``secret 26``
======  ==========================  =========================================
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from mypy_extensions import mypyc_attr

from tikigames.core.action import Action, ActionTable
from tikigames.core.errors import ActionError
from tikigames.tiki_topple.data import (
    CARD_NAMES,
    GROUPS,
    NUM_SECRETS,
    NUM_TIKIS,
    TIKIS,
    TOAST,
    TOPPLE,
)

#: Action kinds beyond the five cards (``UP1`` … ``TOAST`` are 0–4).
LINE, SECRET = 5, 6

LINE_BASE = 37
NUM_LINES = 1296
SECRET_BASE = LINE_BASE + NUM_LINES

#: The secret deck is read in chunks of this many cards (one ``SECRET_CHUNKS`` lookup each).
CHUNK = 9
NUM_CHUNKS = 3
_CHUNK_MASK = (1 << CHUNK) - 1
assert NUM_CHUNKS * CHUNK == NUM_SECRETS


@mypyc_attr(native_class=False)  # an int subclass: mypyc compiles it as a Python class
class TikiToppleAction(Action):
    """A Tiki Topple action with its decoded fields.

    Attributes:
        kind: a card (``UP1`` … ``TOAST``), ``LINE`` or ``SECRET``.
        tiki: the tiki moved by an Up or Topple card, else −1.
        line: the line of a setup outcome (tiki ids, top first), else ``()``.
        card: the secret card of a deal outcome, else −1.
    """

    kind: int
    tiki: int
    line: tuple[int, ...]
    card: int


def _action(action_id: int, text: str, kind: int, **fields: Any) -> TikiToppleAction:
    defaults: dict[str, Any] = {"tiki": -1, "line": (), "card": -1}
    hidden = "secret ?" if kind == SECRET else None
    return TikiToppleAction.build(action_id, text, hidden, kind=kind, **{**defaults, **fields})


def all_lines() -> list[tuple[int, ...]]:
    """The 1296 setup lines in id order: group order, then the order inside each group."""
    lines = []
    for first, second, third in permutations(GROUPS):
        for a in permutations(first):
            for b in permutations(second):
                for c in permutations(third):
                    lines.append(a + b + c)
    return lines


class TikiToppleTable(ActionTable[TikiToppleAction]):
    """The action table, with what the rules engine reads of it prebuilt.

    The lookups by bit mask turn a set of tikis (bit ``t`` for tiki ``t``) or a part of the
    secret deck into its actions in id order with one index, so listing the legal actions
    builds no list of ids, sorts nothing and decodes nothing.

    Attributes:
        line_outcomes: the line setup's chance outcomes, ``(action, 1/1296)`` in id order: the
            same at every setup, so built once here rather than at every chance node.
        line_actions: the 1296 line setups in id order, the legal list of every setup. Shared:
            the state hands out copies and never changes it.
        card_actions: ``card_actions[kind][mask]``, for an Up card or Tiki Topple (kinds
            0–3): that card played on each tiki of ``mask``, in id order.
        secret_chunks: ``secret_chunks[c][mask]``: the deals of cards ``9c + i`` for each bit
            ``i`` of ``mask`` (a 9-bit part of the deck, shifted down), in id order.
    """

    __slots__ = ("card_actions", "line_actions", "line_outcomes", "secret_chunks")

    def __init__(self, actions: list[TikiToppleAction]) -> None:
        super().__init__(actions, normalize=_normalize)
        p = 1.0 / NUM_LINES
        table = self.actions
        self.line_outcomes = [(table[LINE_BASE + i], p) for i in range(NUM_LINES)]
        self.line_actions = list(table[LINE_BASE:SECRET_BASE])
        self.card_actions: tuple[tuple[tuple[TikiToppleAction, ...], ...], ...] = tuple(
            tuple(
                tuple(table[kind * NUM_TIKIS + bit] for bit in _bits(mask))
                for mask in range(1 << NUM_TIKIS)
            )
            for kind in range(TOPPLE + 1)
        )
        self.secret_chunks: tuple[tuple[tuple[TikiToppleAction, ...], ...], ...] = tuple(
            tuple(
                tuple(table[SECRET_BASE + chunk * CHUNK + bit] for bit in _bits(mask))
                for mask in range(1 << CHUNK)
            )
            for chunk in range(NUM_CHUNKS)
        )

    def parse(self, text: object) -> TikiToppleAction:
        """The action written ``text`` (case, and spaces around a line's commas, ignored).

        >>> table = build_table()
        >>> table.parse("Up2 Nani").text
        'up2 nani'
        >>> table.parse("up2 bob")
        Traceback (most recent call last):
        ...
        tikigames.core.errors.ActionError: 'up2 bob' is not an action of this game: 'bob' is \
not a tiki (the tikis: nani, wikiwiki, huhu, lokahi, akamai, nui, hookipa, kapu, eepo)

        Raises:
            ActionError: ``text`` names no action; for a text that is almost one, the message
                says what is wrong with it.
        """
        try:
            return ActionTable.parse(self, text)
        except ActionError as error:
            if not isinstance(text, str):
                raise
            raise ActionError(f"{error}: {what_is_wrong(_normalize(text))}") from None

    def deals(self, deck: int) -> list[TikiToppleAction]:
        """The deals of the cards in ``deck`` (bit ``c`` for card ``c``), in id order."""
        chunks = self.secret_chunks
        return [
            *chunks[0][deck & _CHUNK_MASK],
            *chunks[1][deck >> CHUNK & _CHUNK_MASK],
            *chunks[2][deck >> 2 * CHUNK],
        ]

    def deal(self, deck: int, index: int) -> TikiToppleAction:
        """``deals(deck)[index]``, without building the list (``0 <= index < popcount``)."""
        chunks = self.secret_chunks
        low = chunks[0][deck & _CHUNK_MASK]
        if index < len(low):
            return low[index]
        index -= len(low)
        middle = chunks[1][deck >> CHUNK & _CHUNK_MASK]
        if index < len(middle):
            return middle[index]
        return chunks[2][deck >> 2 * CHUNK][index - len(middle)]


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    return [bit for bit in range(mask.bit_length()) if mask >> bit & 1]


def build_table() -> TikiToppleTable:
    actions: list[TikiToppleAction] = []
    for kind in range(TOPPLE + 1):
        for tiki, name in enumerate(TIKIS):
            actions.append(_action(len(actions), f"{CARD_NAMES[kind]} {name}", kind, tiki=tiki))
    actions.append(_action(len(actions), "toast", TOAST))
    for line in all_lines():
        text = "line " + ",".join(TIKIS[tiki] for tiki in line)
        actions.append(_action(len(actions), text, LINE, line=line))
    for card in range(NUM_SECRETS):
        actions.append(_action(len(actions), f"secret {card}", SECRET, card=card))
    return TikiToppleTable(actions)


def what_is_wrong(text: str) -> str:
    """Why ``text`` (normalised, and not an action) is not one: the part that is wrong, and
    what is allowed there.

    >>> what_is_wrong("toast nani")
    'toast takes no tiki: it always toasts the tiki at the bottom'
    >>> what_is_wrong("secret 27")
    'the secret cards are numbered 0 to 26'
    """
    words = text.split(" ")
    first, rest = words[0], words[1:]
    tikis = "the tikis: " + ", ".join(TIKIS)
    moves = "a move is up1, up2, up3 or topple with a tiki (up2 nani), or toast"
    if first in CARD_NAMES[:TOAST]:
        if not rest:
            return f"{first} needs a tiki, as in {first} {TIKIS[0]} ({tikis})"
        if len(rest) > 1:
            return f"{first} takes one tiki, as in {first} {TIKIS[0]}"
        return f"{rest[0]!r} is not a tiki ({tikis})"
    if first == CARD_NAMES[TOAST]:
        return "toast takes no tiki: it always toasts the tiki at the bottom"
    if first == "secret":
        if rest == ["?"]:
            return (
                "'secret ?' is how another player's secret card is shown to you; a deal is "
                f"written secret 0 to secret {NUM_SECRETS - 1}"
            )
        return f"the secret cards are numbered 0 to {NUM_SECRETS - 1}"
    if first == "line":
        names = " ".join(rest).split(",")
        unknown = [name for name in names if name not in TIKIS]
        if unknown:
            return f"{unknown[0]!r} is not a tiki ({tikis})"
        if len(names) != NUM_TIKIS or len(set(names)) != NUM_TIKIS:
            return "a line names each of the nine tikis once, top first, separated by commas"
        groups = "; ".join(", ".join(TIKIS[tiki] for tiki in group) for group in GROUPS)
        return (
            f"a line is dealt by groups: positions 1-3, 4-6 and 7-9 each hold one group ({groups})"
        )
    if first in ("up", "tiki") or first.startswith("up"):
        return "the Up cards are up1, up2 and up3, written without a space (up2 nani)"
    return f"{moves}; line and secret are dealt by chance"


def _normalize(text: str) -> str:
    """Case and whitespace folded; spaces around the commas of a line ignored."""
    folded = " ".join(text.split()).lower()
    return folded.replace(" ,", ",").replace(", ", ",")

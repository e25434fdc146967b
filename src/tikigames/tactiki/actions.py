"""TacTiki's action table (181 ids, stable across releases) and the move geometry built on it.

=======  =====================================  ===============================
ids      kind                                   text
=======  =====================================  ===============================
0–49     setup placement: start field × rank    ``1@a1`` … ``5@e1``, ``1@a5`` … ``5@e5``
50–129   single move: from square, then to      ``a1-b1``, ``a1-a2``, … ``e5-e4``, ``e5-d5``
130–179  reincarnation: start field × rank      ``1*a1`` … ``5*e5``
180      pass                                   ``pass``
=======  =====================================  ===============================

Placements and reincarnations list the start fields a1…e1 then a5…e5, each with ranks 1–5;
moves are ordered by their from square (a1, b1, …, e5) and then by their to square. The actions
are built once, when the module is imported, so the per-square move lists below hold the very
objects of the table and legal-move generation allocates nothing but the result list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from mypy_extensions import mypyc_attr

from tikigames.core.action import Action, ActionTable
from tikigames.core.errors import ActionError
from tikigames.tactiki.data import (
    FORWARD,
    NUM_SQUARES,
    ON_START,
    PLAYER_NAMES,
    RANKS,
    SIZE,
    SQUARE_NAMES,
    SQUARES,
    START_ROW,
    START_SQUARES,
)

# Action kinds.
PLACE: Final = 0
MOVE: Final = 1
REINCARNATE: Final = 2
PASS: Final = 3

MOVE_BASE: Final = 50
REINCARNATE_BASE: Final = 130
PASS_ID: Final = 180


@mypyc_attr(native_class=False)  # an int subclass: mypyc compiles it as a Python class
class TacTikiAction(Action):
    """A TacTiki action with its decoded fields.

    Attributes:
        kind: ``PLACE``, ``MOVE``, ``REINCARNATE`` or ``PASS``.
        square: the start field of a placement or reincarnation, or a move's from square; −1
            for a pass.
        target: a move's to square, else −1.
        rank: the rank placed or reincarnated, else 0.
        owner: the player a placement or reincarnation belongs to (by its start row), else −1.
    """

    kind: int
    square: int
    target: int
    rank: int
    owner: int


def _neighbours(square: int) -> list[int]:
    """The orthogonal neighbours of ``square``, in ascending order."""
    row, file = divmod(square, SIZE)
    out = []
    if row > 0:
        out.append(square - SIZE)
    if file > 0:
        out.append(square - 1)
    if file < SIZE - 1:
        out.append(square + 1)
    if row < SIZE - 1:
        out.append(square + SIZE)
    return out


def _putting(kind: int, sign: str) -> Iterator[tuple[str, str | None, dict[str, int]]]:
    """The placements (``@``) or reincarnations (``*``): each start field, each rank."""
    for owner, squares in enumerate(START_SQUARES):
        for square in squares:
            name = SQUARE_NAMES[square]
            fields = {"kind": kind, "square": square, "owner": owner}
            for rank in RANKS:
                yield f"{rank}{sign}{name}", f"?{sign}{name}", {**fields, "rank": rank}


def _specs() -> Iterator[tuple[str, str | None, dict[str, int]]]:
    """Every action's text, hidden text and decoded fields, in id order."""
    yield from _putting(PLACE, "@")
    for square in range(NUM_SQUARES):
        for target in _neighbours(square):
            text = f"{SQUARE_NAMES[square]}-{SQUARE_NAMES[target]}"
            yield text, None, {"kind": MOVE, "square": square, "target": target}
    yield from _putting(REINCARNATE, "*")
    yield "pass", None, {"kind": PASS}


_DEFAULTS = {"square": -1, "target": -1, "rank": 0, "owner": -1}
ACTIONS: Final = tuple(
    TacTikiAction.build(action_id, text, hidden, **{**_DEFAULTS, **fields})
    for action_id, (text, hidden, fields) in enumerate(_specs())
)
assert ACTIONS[MOVE_BASE].kind == MOVE and ACTIONS[REINCARNATE_BASE].kind == REINCARNATE
assert ACTIONS[PASS_ID].kind == PASS and len(ACTIONS) == PASS_ID + 1


def _by_square_and_rank(kind: int) -> dict[int, tuple[TacTikiAction, ...]]:
    """Start field → the actions of ``kind`` putting a piece there, indexed by rank − 1."""
    grid: dict[int, list[TacTikiAction]] = {}
    for action in ACTIONS:
        if action.kind == kind:
            grid.setdefault(action.square, []).append(action)
    return {square: tuple(row) for square, row in grid.items()}


#: ``PLACEMENTS[square][rank - 1]`` / ``REINCARNATIONS[square][rank - 1]``: the action putting a
#: piece of ``rank`` on start field ``square``.
PLACEMENTS: Final = _by_square_and_rank(PLACE)
REINCARNATIONS: Final = _by_square_and_rank(REINCARNATE)
PASS_ACTION: Final = ACTIONS[PASS_ID]


def _reincarnations_for(player: int) -> tuple[tuple[TacTikiAction, ...], ...]:
    """``player``'s reincarnations in id order, by a key of bit ``file`` set where the start
    field of ``file`` is empty and bit ``4 + rank`` where the pool holds a piece of ``rank``."""
    table = []
    for key in range(1 << (SIZE + len(RANKS))):
        table.append(
            tuple(
                REINCARNATIONS[square][rank - 1]
                for file, square in enumerate(START_SQUARES[player])
                if key >> file & 1
                for rank in RANKS
                if key >> (SIZE - 1 + rank) & 1
            )
        )
    return tuple(table)


#: ``REINCARNATION_SETS[player][key]``: see ``_reincarnations_for``.
REINCARNATION_SETS: Final = (_reincarnations_for(0), _reincarnations_for(1))


def _moves_for(player: int) -> tuple[tuple[tuple[TacTikiAction, int, bool], ...], ...]:
    """Per square, the moves ``player`` may make from it by geometry (rules 2 and 3): one step
    forward, left or right, never from an opponent's start field. Each entry is ``(action, to,
    guarded)``; ``guarded`` marks a target on the player's own start row, which rule 4 closes
    while the opponent's piece is on top there."""
    opponent = 1 - player
    out = []
    for square in range(NUM_SQUARES):
        moves = []
        if not ON_START[opponent][square]:
            allowed = {square + FORWARD[player]}
            if square % SIZE > 0:
                allowed.add(square - 1)
            if square % SIZE < SIZE - 1:
                allowed.add(square + 1)
            for action in ACTIONS[MOVE_BASE:REINCARNATE_BASE]:
                if action.square == square and action.target in allowed:
                    moves.append((action, action.target, ON_START[player][action.target]))
        out.append(tuple(moves))
    return tuple(out)


#: ``MOVES[player][square]``: see ``_moves_for``; entries are in id order.
MOVES: Final = (_moves_for(0), _moves_for(1))

#: Bit ``square`` set for each of ``player``'s start fields (the state keeps, per player, a
#: mask of the squares whose top piece it owns).
START_MASKS: Final = tuple(sum(1 << square for square in row) for row in START_SQUARES)
#: ``mask >> START_SHIFTS[player] & 31``: the bits of ``player``'s start fields, a1 (or a5) first.
START_SHIFTS: Final = tuple(row[0] for row in START_SQUARES)
#: The squares ``player`` may move from by geometry: all but the opponent's start fields. Each
#: has a forward move, which rule 4 never closes, so owning the top piece of one of them is
#: having a legal move.
MOVABLE: Final = tuple((1 << NUM_SQUARES) - 1 - START_MASKS[1 - player] for player in (0, 1))


def _row_moves(player: int, row: int) -> tuple[tuple[TacTikiAction, ...], ...]:
    """``player``'s legal moves from ``row``, in id order, by the row's key: bit ``file`` set
    where the player owns the top piece of the row's square ``file``; on the player's own start
    row also bit ``5 + file`` where the opponent does (rule 4 closes those squares to the
    left and right moves along the row, the only moves that end there)."""
    first = row * SIZE
    guarded_row = row == START_ROW[player]
    table = []
    for key in range(1 << (2 * SIZE if guarded_row else SIZE)):
        moves = []
        for file in range(SIZE):
            if key >> file & 1:
                for action, target, guarded in MOVES[player][first + file]:
                    assert not guarded or first <= target < first + SIZE
                    if not (guarded and key >> (SIZE + target - first) & 1):
                        moves.append(action)
        table.append(tuple(moves))
    return tuple(table)


#: ``ROW_MOVES[player][row][key]``: see ``_row_moves``. Legal-move generation is one lookup
#: per row the player can move from (all but the opponent's start row), in row order.
ROW_MOVES: Final = tuple(tuple(_row_moves(player, row) for row in range(SIZE)) for player in (0, 1))

#: The hidden texts players see for the other side's placements and reincarnations
#: (``?@b1``, ``?*c1``), mapped to ``(kind, square)``; they are not actions.
HIDDEN_TEXTS: Final = {
    action.hidden: (action.kind, action.square) for action in ACTIONS if action.hidden is not None
}


def _normalize(text: str) -> str:
    """Case folded and every space removed (``B1 - B2`` reads as ``b1-b2``)."""
    return "".join(text.split()).lower()


_FORMS: Final = "write a move as b1-b2, a placement as 3@b1, a reincarnation as 3*b1, or pass"
_PUTTING: Final = re.compile(r"(.*?)([@*])(.*)")
_MOVING: Final = re.compile(r"([a-z]+\d+)-([a-z]+\d+)")


def _square_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a square, or ``None`` for a square of the board."""
    if name in SQUARES:
        return None
    if not name:
        return "a square is missing"
    return f"{name} is not a square of the board (files a–e, ranks 1–5: a1 … e5)"


def explain(text: str) -> str:
    """Why ``text`` (already normalised) is no action: what is wrong with it, or the forms.

    >>> explain("6@a1"), explain("3@c3")
    ('the ranks are 1 to 5, not 6', 'c3 is not a start field: TIKI places on a1–e1, TAC on a5–e5')
    >>> explain("a1-c1")
    'a single move goes one step to a neighbouring square: a1 and c1 are not neighbours'
    >>> explain("a1-f1")
    'f1 is not a square of the board (files a–e, ranks 1–5: a1 … e5)'
    """
    putting = _PUTTING.fullmatch(text)
    if putting is not None:
        rank, sign, square = putting.groups()
        what = "a placement" if sign == "@" else "a reincarnation"
        example = f"3{sign}b1"
        if rank == "?":
            return (
                f"?{sign}… is how the other player's hidden {what[2:]} is shown; write your "
                f"own with its rank, e.g. {example}"
            )
        if not rank:
            return f"{what} needs its rank before {sign}, e.g. {example}"
        if rank not in [str(r) for r in RANKS]:
            return f"the ranks are 1 to 5, not {rank}"
        problem = _square_problem(square)
        if problem is not None:
            return f"{what} needs a start field after {sign}: {problem}"
        rows = [f"{SQUARE_NAMES[row[0]]}–{SQUARE_NAMES[row[-1]]}" for row in START_SQUARES]
        verb, onto = ("places", "on") if sign == "@" else ("brings pieces back", "onto")
        return (
            f"{square} is not a start field: {PLAYER_NAMES[0]} {verb} {onto} {rows[0]}, "
            f"{PLAYER_NAMES[1]} {onto} {rows[1]}"
        )
    moving = _MOVING.fullmatch(text)
    if moving is not None:
        for name in moving.groups():
            problem = _square_problem(name)
            if problem is not None:
                return problem
        source, target = moving.groups()
        if source == target:
            return f"a single move goes to another square, not from {source} to {source}"
        if source[0] != target[0] and source[1:] != target[1:]:
            return f"a piece moves forward, left or right, never diagonally: {source}-{target}"
        return (
            "a single move goes one step to a neighbouring square: "
            f"{source} and {target} are not neighbours"
        )
    if text in SQUARES:
        return f"a move needs its target too, e.g. {text}-… (from-to, with a dash)"
    joined = re.fullmatch(r"([a-z]\d)([a-z]\d)", text)
    if joined is not None:
        return f"a move is written with a dash: {joined.group(1)}-{joined.group(2)}"
    return _FORMS


class TacTikiActionTable(ActionTable[TacTikiAction]):
    """The action table, whose errors say what is wrong with a text that is almost an action
    (a rank out of range, a square off the board or not a start field, a move that is not one
    step); the texts that parse are the base table's.

    >>> build_table().parse("3@c3")
    Traceback (most recent call last):
    ...
    tikigames.core.errors.ActionError: '3@c3' is not an action of TacTiki: c3 is not a start \
field: TIKI places on a1–e1, TAC on a5–e5
    """

    __slots__ = ()

    def parse(self, text: object) -> TacTikiAction:
        try:
            return super().parse(text)
        except ActionError:
            if not isinstance(text, str):
                raise
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise ActionError(f"{shown!r} is not an action of TacTiki: {explain(_normalize(text))}")


def build_table() -> ActionTable[TacTikiAction]:
    """The action table over the prebuilt actions."""
    return TacTikiActionTable(ACTIONS, normalize=_normalize)

"""TacTiki for a person at the table: the rules in short and the notation's cheat sheet.

What the terminal's ``help rules`` and ``help notation`` print and the game's docs page shows
(the ``tikigames-help`` directive): :data:`RULES_SUMMARY`, the rules in a player's words, and
:func:`notation_examples`, one example per kind of action, each taken from the action table so
that the cheat sheet cannot drift from the notation.
"""

from __future__ import annotations

from typing import Final

from tikigames.tactiki.actions import (
    MOVES,
    PASS_ACTION,
    PLACEMENTS,
    REINCARNATIONS,
)
from tikigames.tactiki.data import FORWARD, SQUARE_NAMES, SQUARES

__all__ = ["RULES_SUMMARY", "notation_examples"]

RULES_SUMMARY: Final = """\
Two players, TIKI (X, player 0) and TAC (O, player 1), on a 5×5 island. The goal: be
the first to stack a statue, five of your pieces in one column on one of your
opponent's start fields (TIKI's are a1–e1, TAC's a5–e5).

The setup: each player has ten pieces, two each of ranks 1 to 5. TIKI places all
ten, then TAC, two on each of their own start fields. Both see where a piece goes;
only its owner sees its rank.

A turn is one of:
- a move turn: two single moves, with one piece or two. A single move takes the top
  piece of one of your columns one step forward, left or right (never backward or
  diagonally) and puts it on top of the column there. With no second move left, the
  turn ends.
- a reincarnation: put one of your defeated pieces, of a rank you choose in secret,
  alone on one of your empty start fields. Your opponent sees where, not which rank.
- a pass, only when you can neither move nor reincarnate.

A battle: a piece that lands on your opponent's piece attacks down the column. Each
piece it meets is shown to both players with the attacker; the higher rank wins, but
a 1 beats a 5. A beaten defender leaves the board and the attack goes on down; a
beaten attacker leaves the board and the attack ends; equal ranks tie: both stay,
the attacker on top, and the attack ends. Defeated pieces go to their owner's pool,
to come back by reincarnation.

Blocked and locked:
- only a top piece moves: a piece with an opponent's piece on it is blocked until
  that piece leaves.
- a piece that ends a move on one of the opponent's start fields stays there for
  good, with everything under it; the opponent can no longer attack it or move onto
  that field.

The end: you win as soon as a column on one of your opponent's start fields holds
five of your pieces (with the option strict_statue: exactly five, all yours). Two
passes in a row, or the turn limit (option max_turns, 300 turns by default), end the
game in a draw."""


def notation_examples() -> list[tuple[str, str]]:
    """One example per kind of action, ``(what it does, text)``, each an action of the table.

    >>> [text for _, text in notation_examples()]
    ['3@b1', 'b1-b2', '3*b1', 'pass']
    >>> notation_examples()[2][0]
    'reincarnate a defeated piece: its rank * one of your empty start fields — here a 3 back on b1'
    """
    field = SQUARES["b1"]
    place = PLACEMENTS[field][2]
    move = next(a for a, to, _ in MOVES[0][field] if to == field + FORWARD[0])
    back = REINCARNATIONS[field][2]
    source, target = SQUARE_NAMES[move.square], SQUARE_NAMES[move.target]
    return [
        (
            "place a piece (setup): its rank @ one of your start fields — here a "
            f"{place.rank} on {SQUARE_NAMES[place.square]}",
            place.text,
        ),
        (
            "move a top piece one step forward, left or right, from-to — here "
            f"{source} to {target}; landing on an opponent's piece attacks it",
            move.text,
        ),
        (
            "reincarnate a defeated piece: its rank * one of your empty start fields — here a "
            f"{back.rank} back on {SQUARE_NAMES[back.square]}",
            back.text,
        ),
        ("pass: only when you can neither move nor reincarnate", PASS_ACTION.text),
    ]

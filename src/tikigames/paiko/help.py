"""Paikō for a person at the table: the rules in short and the notation's cheat sheet.

What the terminal's ``help rules`` and ``help notation`` print and the game's docs page shows
(the ``tikigames-help`` directive): :data:`RULES_SUMMARY`, the rules in a player's words, and
:func:`notation_examples`, one example per kind of action, each taken from the action table so
that the cheat sheet cannot drift from the notation.
"""

from __future__ import annotations

from typing import Final

from tikigames.paiko.actions import PaikoTable
from tikigames.paiko.data import AIR, BOW, EAST, FIRE, LOTUS, NORTH, SQUARE_INDEX, SWORD, WEST

__all__ = ["RULES_SUMMARY", "notation_examples"]

RULES_SUMMARY: Final = """\
Two players, White (player 0, upper-case letters) and Black (player 1, lower case), on a
diamond of 112 squares split into four quarters: White's homeground bottom left (files
a–g, ranks 1–7), Black's top right (h–n, 8–14), and two middlegrounds; only a Lotus may
stand on the four black squares, and nothing moves through them. The goal: 10 points
at the end of your turn. Each of your tiles on the board but a Lotus scores 1 in
a middleground and 2 in your opponent's homeground (0 at home).

Each player owns 24 tiles, 3 of each type, all in the reserve at first. The draft:
White takes 7 tiles into its hand, Black 9, White 1 more. Then the players alternate;
a turn is one action:
- draw 1 to 3 tiles of your choice from your reserve into your hand;
- deploy a tile of your hand on an empty square, with a facing: a square with no threat
  against you, in your homeground or threatened by one of your own tiles;
- shift one of your tiles 1 or 2 orthogonal steps (an Earth 1) through passable empty
  squares, then give it any facing; or turn a Sai, Bow or Fire in place;
- redeploy a Water: lift it and deploy it again by the deploy rule;
- pass, only when nothing else is legal.

The tiles (facing N means toward rank 14):
- Sai: threatens the square ahead, covers the two at its sides; right after its deploy
  it may also shift or turn (or stay), in the same turn.
- Sword: threatens its 8 neighbours.
- Bow: threatens the squares 2, 3 and 4 ahead.
- Lotus: covers its 3×3 block; never moves, scores nothing; deploys on any empty square
  (black ones too) where the threat against you is at most 2.
- Air: threatens the 8 knight's-move squares; never moves.
- Fire: threatens 5 squares two ahead, 3 one ahead and its own square; its threat counts
  against every tile, yours and itself included.
- Earth: threatens 1 and 2 squares away in each orthogonal direction.
- Water: threatens its diagonal neighbours, covers its orthogonal ones.

Threat and cover: a tile's threat is how many opponent tiles (and own Fires) threaten
its square; its cover is 1 in its homeground or where an own tile covers it. A tile is
captured when threat minus cover is 2 or more. After your action every capturable tile
of your opponent falls (a falling tile stops covering, so others may fall with it); for
each lost tile your opponent picks one tile of your reserve for your hand. Your own
action may never leave one of your tiles capturable. A shift passes only squares where
that difference would be below 2 (below 1 for a Fire). A tile may not move on more than
3 of your turns in a row.

The end: 10 points at the end of your turn win. Two passes in a row, both players
having lost 13 tiles with 5 points or fewer each, or the turn limit (option max_turns,
1000 by default) end the game in a draw."""


def notation_examples(table: PaikoTable) -> list[tuple[str, str]]:
    """One example per kind of action, ``(what it does, text)``, each an action of ``table``.

    >>> from tikigames.paiko.actions import build_table
    >>> [text for _, text in notation_examples(build_table())]
    ['draft sword', 'draw air,fire', 'sword@g6:N', 'bow@e5:E', 'g6-h5:N', 'e5:W', 'b6>h7:N', \
'stay', 'give lotus', 'pass']
    """
    square = SQUARE_INDEX
    draw = next(a for a in table.draws if a.draw == ((AIR, 1), (FIRE, 1)))
    shift = next(acts[NORTH] for t, _, acts in table.far[square["g6"]] if t == square["h5"])
    redeploy = table.redeploys[square["b6"]][square["h7"]]
    assert redeploy is not None
    return [
        ("the draft: take this tile from your reserve into your hand", table.drafts[SWORD].text),
        ("draw 1 to 3 tiles of your reserve into your hand (names joined by commas)", draw.text),
        (
            "deploy a tile of your hand on a square (a tile without facing: Sword, Lotus, Air,"
            " Earth, Water, is written :N)",
            table.deploys_n[SWORD][square["g6"]].text,
        ),
        (
            "deploy a Sai, Bow or Fire with its facing: N, E, S or W",
            table.deploys[BOW][square["e5"]][EAST].text,
        ),
        (
            "shift your tile from the first square to the second (1 or 2 orthogonal steps, an"
            " Earth 1), facing N after it",
            shift.text,
        ),
        (
            "turn your Sai, Bow or Fire on this square to face W",
            table.turns[square["e5"]][WEST].text,
        ),
        ("redeploy your Water from the first square onto the second", redeploy.text),
        ("right after deploying a Sai: leave it as it is (or shift or turn it)", table.stay.text),
        (
            "after a capture, the captured player picks a tile of the capturer's reserve for"
            " the capturer's hand",
            table.gives[LOTUS].text,
        ),
        ("pass: only when no other action is legal", table.pass_.text),
    ]

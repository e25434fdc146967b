"""Paikō's things in a player's words: a tile type, a tile with its owner and square, the
tiles threatening a square, the quarter a square lies in, points. One owner for the texts that
the refusals (:mod:`tikigames.paiko.refusals`), the history in words (the observation), the
parser's complaints and the text board print, so that they cannot name a thing differently.

Tile types are written as the rules write them (``Sai``, ``Sword`` …), a tile on the board as
its owner's, its type and its square (``Black's Bow on h9``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tikigames.paiko.data import (
    AIR,
    BLACK,
    BLACK_HOME,
    EARTH,
    FIRE,
    LOTUS,
    PLAYER_NAMES,
    QUARTER,
    SQUARE_NAMES,
    THREAT_SETS,
    TILES,
    WEST_MIDDLE,
    WHITE_HOME,
)

__all__ = [
    "HOMEGROUNDS",
    "Pieces",
    "a_tile",
    "and_list",
    "owned",
    "placed",
    "points",
    "quarter_name",
    "score_in_words",
    "threatening",
    "threats_in_words",
    "tile_count",
    "tile_name",
]

#: The tiles on the board: square → (player, tile, facing), the ints of ``data``.
Pieces = dict[int, tuple[int, int, int]]

#: Where each player's homeground lies, as the text board and the refusals say it.
HOMEGROUNDS: Final = (
    "bottom left: files a–g, ranks 1–7",
    "top right: files h–n, ranks 8–14",
)


def tile_name(tile: int) -> str:
    """A tile type as the rules write it: ``Sai``, ``Sword`` …"""
    return TILES[tile].capitalize()


def a_tile(tile: int) -> str:
    """``a Sword``, ``an Air``.

    >>> a_tile(AIR), a_tile(LOTUS)
    ('an Air', 'a Lotus')
    """
    return f"{'an' if tile in (AIR, EARTH) else 'a'} {tile_name(tile)}"


def tile_count(n: int, tile: int) -> str:
    """``no Fire``, ``1 Fire``, ``2 Fires`` (``Lotuses``)."""
    if not n:
        return f"no {tile_name(tile)}"
    if n == 1:
        return f"1 {tile_name(tile)}"
    return f"{n} {tile_name(tile)}{'es' if tile == LOTUS else 's'}"


def and_list(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def owned(pieces: Pieces, square: int) -> str:
    """``Black's Bow``: the tile on ``square`` with its owner."""
    player, tile, _ = pieces[square]
    return f"{PLAYER_NAMES[player]}'s {tile_name(tile)}"


def placed(pieces: Pieces, square: int) -> str:
    """``Black's Bow on h9``."""
    return f"{owned(pieces, square)} on {SQUARE_NAMES[square]}"


def threatening(pieces: Pieces, p: int, square: int) -> list[int]:
    """The squares of the tiles whose threat counts against a tile of ``p`` on ``square``, in
    square order: the opponent's tiles whose pattern holds it, and ``p``'s own Fires."""
    return sorted(
        s
        for s, (q, tile, facing) in pieces.items()
        if (q != p or tile == FIRE) and square in THREAT_SETS[tile << 2 | facing][s]
    )


def threats_in_words(pieces: Pieces, p: int, square: int) -> str:
    """The tiles of :func:`threatening`, in words (``Black's Bow on h9 and White's own Fire on
    e5``)."""
    names = [
        placed(pieces, s).replace("'s ", "'s own ", 1) if pieces[s][0] == p else placed(pieces, s)
        for s in threatening(pieces, p, square)
    ]
    return and_list(names)


def quarter_name(square: int) -> str:
    """The part of the board ``square`` lies in: ``White's homeground``, ``Black's
    homeground``, ``the west middleground`` (top left) or ``the east middleground`` (bottom
    right), with ``a black square`` said first for one.

    >>> from tikigames.paiko.data import SQUARE_INDEX
    >>> quarter_name(SQUARE_INDEX["h10"]), quarter_name(SQUARE_INDEX["f9"])
    ("Black's homeground", 'a black square in the west middleground')
    """
    quarter = QUARTER[square]
    if quarter == WHITE_HOME:
        name = f"{PLAYER_NAMES[0]}'s homeground"
    elif quarter == BLACK_HOME:
        name = f"{PLAYER_NAMES[1]}'s homeground"
    else:
        name = "the west middleground" if quarter == WEST_MIDDLE else "the east middleground"
    return f"a black square in {name}" if BLACK[square] else name


def points(n: int) -> str:
    """``1 point``, ``3 points``."""
    return f"{n} point{'' if n == 1 else 's'}"


def score_in_words(scores: Sequence[int]) -> str:
    """Both players' points in words.

    >>> score_in_words([3, 1])
    'White has 3 points, Black 1 point'
    """
    return f"{PLAYER_NAMES[0]} has {points(scores[0])}, {PLAYER_NAMES[1]} {points(scores[1])}"

"""Tiki Topple's things in a player's words: a secret card, a place in the line, what a card
scored, the result. One owner for the texts that the text board, the history in words, the
refusals and the pictures print, so that they cannot number or name a thing differently.

A secret card is numbered as the notation numbers it: ``secret 24`` deals card ``#24``
(0–26; the source's printed list counts its rows from 1, one more).
"""

from __future__ import annotations

from collections.abc import Sequence

from tikigames.core.state import seats_in_words
from tikigames.tiki_topple.data import POINTS, SECRET_CARDS, TIKIS

__all__ = [
    "card_name",
    "describe_card",
    "ordinal",
    "points_by_tier",
    "result_words",
    "score_in_words",
    "seats_in_words",
    "tiers_in_words",
    "tiki_name",
]

#: What each tier of a secret card needs to score, in words (top, middle, bottom).
_NEEDS: tuple[str, str, str] = ("1st", "in the top 2", "in the top 3")


def tiki_name(tiki: int) -> str:
    """A tiki's name as a player reads it: ``Wikiwiki``."""
    return TIKIS[tiki].capitalize()


def card_name(card: int) -> str:
    """``#24``: the card's number, the one of its notation ``secret 24``."""
    return f"#{card}"


def describe_card(card: int) -> str:
    """The card's number and its tikis, top / middle / bottom.

    >>> describe_card(18)
    '#18 Hookipa / Lokahi / Nani'
    """
    return f"{card_name(card)} " + " / ".join(tiki_name(tiki) for tiki in SECRET_CARDS[card])


def ordinal(position: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … (a place in the line, 1 at the top)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(position, "th")
    return f"{position}{suffix}"


def result_words(winners: Sequence[int], scores: Sequence[int]) -> str:
    """Who won, and with how many points.

    >>> result_words((1,), [12, 35]), result_words((0, 2), [18, 9, 18])
    ('player 1 wins with 35 points', 'players 0 and 2 share the win with 18 points')
    """
    points = scores[winners[0]]
    if len(winners) == 1:
        return f"player {winners[0]} wins with {points} points"
    return f"players {seats_in_words(winners)} share the win with {points} points"


def points_by_tier(points: int) -> tuple[int, int, int]:
    """The points of a card's top, middle and bottom tiki that add up to ``points``: there is
    one way for each total, since 9, 5 and 2 add up differently in every combination.

    >>> points_by_tier(11), points_by_tier(7), points_by_tier(0)
    ((9, 0, 2), (0, 5, 2), (0, 0, 0))
    """
    for mask in range(8):
        tiers = tuple(POINTS[tier] if mask >> tier & 1 else 0 for tier in range(3))
        if sum(tiers) == points:
            return tiers[0], tiers[1], tiers[2]
    raise ValueError(f"no secret card scores {points} points")


def score_in_words(card: int, points: int, line: Sequence[int] | None = None) -> str:
    """What ``card`` scored, tiki by tiki: each tiki's points and, given the round's final
    ``line`` (tiki ids, top first), where it stood.

    >>> score_in_words(18, 5, [3, 6, 4])
    '#18 Hookipa / Lokahi / Nani: Hookipa 0 (2nd, not 1st) + Lokahi 5 (1st) + Nani 0 \
(toasted) = 5 points'
    >>> score_in_words(18, 5)
    '#18 Hookipa / Lokahi / Nani: Hookipa 0 + Lokahi 5 + Nani 0 = 5 points'
    """
    return f"{describe_card(card)}: " + tiers_in_words(card, points, line) + f" = {points} points"


def tiers_in_words(card: int, points: int, line: Sequence[int] | None = None) -> str:
    """The tiki by tiki part of :func:`score_in_words`: ``Hookipa 0 + Lokahi 5 + Nani 0``."""
    parts = []
    for tier, (tiki, won) in enumerate(
        zip(SECRET_CARDS[card], points_by_tier(points), strict=True)
    ):
        where = ""
        if line is not None:
            if tiki not in line:
                where = " (toasted)"
            else:
                place = ordinal(list(line).index(tiki) + 1)
                where = f" ({place})" if won else f" ({place}, not {_NEEDS[tier]})"
        parts.append(f"{tiki_name(tiki)} {won}{where}")
    return " + ".join(parts)

"""Tiki Topple's components: the tikis, the secret deck and the action hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: Tiki ids 0–8 in group order A, B, C; the id is the index.
TIKIS: Final = ("nani", "wikiwiki", "huhu", "lokahi", "akamai", "nui", "hookipa", "kapu", "eepo")
#: Display colours (those of Nui, Kapu and Eepo are our assumption).
COLOURS: Final = ("red", "blue", "yellow", "purple", "orange", "brown", "grey", "green", "pink")
#: The three groups of the line setup, by tiki id.
GROUPS: Final = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
NUM_TIKIS: Final = 9

_SECRET_ROWS = """
nani hookipa nui | nani eepo lokahi | nani eepo akamai | wikiwiki hookipa akamai
wikiwiki kapu lokahi | wikiwiki eepo nui | huhu hookipa lokahi | huhu kapu akamai
huhu kapu nui | lokahi nani kapu | lokahi wikiwiki hookipa | lokahi huhu eepo
akamai nani kapu | akamai wikiwiki eepo | akamai huhu hookipa | nui nani eepo
nui wikiwiki kapu | nui huhu hookipa | hookipa lokahi nani | hookipa akamai nani
hookipa nui wikiwiki | kapu lokahi huhu | kapu akamai wikiwiki | kapu nui nani
eepo lokahi wikiwiki | eepo akamai huhu | eepo nui huhu
"""

#: Secret card id (rulebook row − 1) → (top, middle, bottom) tiki ids.
SECRET_CARDS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (TIKIS.index(top), TIKIS.index(middle), TIKIS.index(bottom))
    for top, middle, bottom in (
        row.split() for row in _SECRET_ROWS.replace("\n", "|").split("|") if row.strip()
    )
)
NUM_SECRETS: Final = len(SECRET_CARDS)
ALL_SECRETS: Final = (1 << NUM_SECRETS) - 1

#: Points for the top tiki at position 1, the middle one in the top 2, the bottom one in the top 3.
POINTS: Final = (9, 5, 2)

#: Action card kinds, in action-id order.
UP1, UP2, UP3, TOPPLE, TOAST = range(5)
CARD_NAMES: Final = ("up1", "up2", "up3", "topple", "toast")


def full_hand(players_in_round: int) -> tuple[int, int, int, int, int]:
    """Card counts of a fresh hand: two Tiki Up 1 with 2 players in the round, else one."""
    return (2 if players_in_round == 2 else 1, 1, 1, 1, 2)


def score_card(card: int, line: list[int]) -> int:
    """What secret card ``card`` scores on the final ``line`` (top first)."""
    top, middle, bottom = SECRET_CARDS[card]
    points = 0
    if line[0] == top:
        points += POINTS[0]
    if middle in line[:2]:
        points += POINTS[1]
    if bottom in line[:3]:
        points += POINTS[2]
    return points


@dataclass(frozen=True)
class TikiToppleRules:
    """The options of a Tiki Topple game, typed (``game.rules``; see the game's options)."""

    players: int
    rounds: int
    first_player: int
    topple_bottom_allowed: bool
    tiebreak_rounds: int
    target_score: int | None

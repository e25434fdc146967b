"""Tiki Topple's help for people: the rules in short and the notation's cheat sheet, what the
terminal's ``help`` prints and the game's docs page shows (``.. tikigames-help::``). The
examples are actions picked from the action table by kind, so they cannot drift from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tikigames.core.action import Action
from tikigames.tiki_topple.actions import LINE, SECRET, TikiToppleAction
from tikigames.tiki_topple.data import TOAST, TOPPLE, UP1, UP2, UP3

__all__ = ["RULES_SUMMARY", "notation_examples"]

RULES_SUMMARY: Final = """\
Goal: the most points after the last round (4 rounds with 2 or 4 players, 3 with 3).
Points come from the three tikis on your secret card, near the top of a line of nine.

A round: nine tikis are lined up (position 1 is the top), and each player is dealt one
secret card naming a top, a middle and a bottom tiki; only you see yours. Everyone gets
a hand of action cards: Tiki Up 1 (two of them with 2 players), Tiki Up 2, Tiki Up 3,
Tiki Topple and two Tiki Toasts. Players take turns, one card per turn, no passing.
A card moves any tiki, yours or not, so hide which ones you are after. The tikis:
nani, wikiwiki, huhu, lokahi, akamai, nui, hookipa, kapu, eepo.

- up1, up2, up3 TIKI: that tiki climbs 1, 2 or 3 places; the ones it passes drop one.
  It cannot climb above position 1.
- topple TIKI: that tiki drops to the bottom; the ones below it rise one place.
- toast: the tiki at the bottom leaves the line for the round and scores nothing.
  Not on your own first turn of a round.

The round ends when a Toast leaves three tikis in the line, or when every hand is empty.
The secret cards are then shown and scored on the final line:
- your top tiki: 9 points if it is 1st;
- your middle tiki: 5 points if it is in the top 2;
- your bottom tiki: 2 points if it is in the top 3.

Each new round deals a new line and new secret cards (cards dealt before are gone), and
the next player starts it. Secret cards are numbered 0 to 26: card #24 is dealt as
secret 24. After the last round the highest total wins; tied leaders play tiebreak
rounds on their own (3 at most by default), and a tie after those is shared."""

#: What each kind of action does, by kind (the cards, then the chance outcomes).
_MEANINGS: Final = (
    (UP1, "Tiki Up 1: the tiki climbs one place"),
    (UP2, "Tiki Up 2: the tiki climbs two places"),
    (UP3, "Tiki Up 3: the tiki climbs three places"),
    (TOPPLE, "Tiki Topple: the tiki drops to the bottom"),
    (TOAST, "Tiki Toast: the bottom tiki leaves the line for the round"),
    (LINE, "chance: the round's line is dealt, top first"),
    (SECRET, "chance: a secret card is dealt (secret ? when it is not yours)"),
)


def notation_examples(actions: Sequence[Action]) -> list[tuple[str, str]]:
    """``(what it does, example)`` per kind of action, each example the first action of its
    kind in ``actions`` (the game's table), as written.

    >>> import tikigames
    >>> for what, text in notation_examples(tikigames.load("tiki_topple").actions())[3:6]:
    ...     print(f"{text:16} {what}")
    topple nani      Tiki Topple: the tiki drops to the bottom
    toast            Tiki Toast: the bottom tiki leaves the line for the round
    line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo chance: the round's line is \
dealt, top first
    """
    first: dict[int, str] = {}
    for action in actions:
        assert isinstance(action, TikiToppleAction)
        first.setdefault(action.kind, str(action))
    return [(what, first[kind]) for kind, what in _MEANINGS]

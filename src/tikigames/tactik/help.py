"""Tac-Tik in a player's words: the rules in short and the notation's cheat sheet.

What the terminal's ``help rules`` and ``help notation`` print and the game's docs page shows
(``.. tikigames-help:: tactik``): :data:`RULES_SUMMARY` is the game's ``rules_summary``, and
:func:`notation_examples` builds ``notation_examples()`` from the game's own action table, so
that every example is an action the parser accepts, written as the library writes it.

>>> import tikigames
>>> game = tikigames.load("tactik")
>>> examples = dict(notation_examples(game.rules, game.action_table.actions))
>>> examples["start a pawn: the card, then the colour (0 green, 1 red, 2 blue, 3 yellow)"]
'1:start@0'
>>> game.action_table.parse("7:t23+3").text in examples.values()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from tikigames.tactik.actions import (
    BACK,
    DISCARD,
    DISCARD_ALL,
    FORWARD,
    GIVE,
    SEVEN,
    START,
    SWAP_PAWNS,
    TacTikAction,
)
from tikigames.tactik.data import C1, C2, C5, C7, C12, COLOUR_NAMES, JOKER, TacTikRules

__all__ = ["RULES_SUMMARY", "notation_examples"]

RULES_SUMMARY: Final = """\
Goal: race your four pawns once round the track and into your home. Partners sit
opposite and play as a team (green with blue, red with yellow); the first team with all
its pawns home wins. With 2 players each plays two colours; with 6, three teams of two.

The board: 16 squares per colour, t0, t1, ... clockwise; colour c starts on t(16c), and
its home squares h{c}.1 to h{c}.4 lie just past that start square. Pawns start in the
reserve.

A deal: everyone gets 4 cards (6 with 2 players), then gives one of them, in secret, to
their partner; the cards change hands when all have chosen. Then, clockwise, each player
plays one card a turn until every hand is empty, and the next player deals.

On your turn play one card to move one of your pawns, or discard a card with no effect
(with option discard="stuck": the whole hand, and only when no card can be played).
Once your own pawns are all home you move your partner's pawns.

- 1, 10 (and 13): bring a pawn from the reserve onto your start square, or move forward.
- 2 3 5 6 8 9 12: move one pawn forward that many squares.
- -4: move one pawn on the track 4 squares back.
- 7: 7 steps split among your pawns as you like, one part per action, all 7 used.
- P: swap one of your pawns with any pawn on the track (not another colour's pieu).
- J (Joker): play it as any other card.

A freshly started pawn is a pieu: nobody may pass it or land on it, not even its own
colour, until it moves on. A pawn that lands on another pawn, of any colour (your
partner's too), sends it back to its reserve; a seven captures every pawn it passes.
A pawn enters its home when a forward move reaches past its start square and the
home squares on the way are free (compulsory); a pieu must go round first. Home pawns
may still move forward inside the home.

The end: the first team with all its pawns home wins. After 1000 turns (option
max_turns) the game is a draw.
"""


def _first(actions: Sequence[TacTikAction], test: Callable[[TacTikAction], bool]) -> TacTikAction:
    """The first action of the table that passes ``test``."""
    return next(action for action in actions if test(action))


def notation_examples(rules: TacTikRules, actions: Sequence[TacTikAction]) -> list[tuple[str, str]]:
    """``(what it does, example)`` per kind of action of a game with ``rules``, each example
    an action of its table ``actions`` (``str(action)``); a kind the options rule out (the
    exchange with 2 players, the discard of the other option) is left out."""
    colours = COLOUR_NAMES[rules.colours]
    legend = ", ".join(f"{c} {name}" for c, name in enumerate(colours[:4]))
    if rules.colours > 4:
        legend += ", ..."
    track = rules.track
    examples = [
        (
            f"start a pawn: the card, then the colour ({legend})",
            _first(actions, lambda a: a.kind == START and a.card == C1 and a.square == 0),
        ),
        (
            "move a pawn forward: the card, then the square the pawn is on",
            _first(actions, lambda a: a.kind == FORWARD and a.card == C5 and a.square == 23),
        ),
        (
            "move a pawn inside its home (home square 1 of colour 0)",
            _first(actions, lambda a: a.kind == FORWARD and a.card == C2 and a.square == track),
        ),
        (
            "play a Joker as another card: J=card",
            _first(
                actions,
                lambda a: (
                    a.kind == FORWARD and a.card == JOKER and a.value == C12 and a.square == 23
                ),
            ),
        ),
        (
            "move a pawn 4 squares back",
            _first(actions, lambda a: a.kind == BACK and a.card != JOKER and a.square == 17),
        ),
        (
            "one part of a seven: the pawn, + the steps; go on until all 7 are used",
            _first(
                actions,
                lambda a: a.kind == SEVEN and a.card == C7 and a.square == 23 and a.steps == 3,
            ),
        ),
        (
            "swap two pawns with a P: your pawn first, then the other",
            _first(
                actions,
                lambda a: (
                    a.kind == SWAP_PAWNS and a.card != JOKER and (a.square, a.other) == (3, 40)
                ),
            ),
        ),
    ]
    if rules.discard_any:
        examples.append(
            (
                "discard one card, with no effect",
                _first(actions, lambda a: a.kind == DISCARD and a.card == C12),
            )
        )
    else:
        examples.append(
            (
                "discard your whole hand, when no card can be played",
                _first(actions, lambda a: a.kind == DISCARD_ALL),
            )
        )
    if rules.team:
        examples.append(
            (
                "the exchange: give a card to your partner",
                _first(actions, lambda a: a.kind == GIVE and a.card == C7),
            )
        )
    return [(what, str(action)) for what, action in examples]

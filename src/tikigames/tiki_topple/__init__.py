"""Tiki Topple: 2–4 players play action cards to push their secret tikis to the top of a line
of nine. Registered as ``tiki_topple``; see the docs page for the rules as implemented.

A game package, in the games' layer: its modules import only :mod:`tikigames.core` and the
package itself, in the order data → actions → state → observation → render → resample → game
(see the docs' Architecture page)."""

from tikigames.tiki_topple.actions import TikiToppleAction
from tikigames.tiki_topple.game import TikiTopple
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.state import TikiToppleState

__all__ = ["TikiTopple", "TikiToppleAction", "TikiToppleObservation", "TikiToppleState"]

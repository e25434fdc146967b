"""TacTiki: two players hide ranked pieces on their start rows, fight down columns and race to
build a statue on the other's side. Registered as ``tactiki``; see the docs page for the rules as
implemented.

A game package, in the games' layer: its modules import only :mod:`tikigames.core` and the
package itself, in the order data → actions → state → observation → render → resample → game
(see the docs' Architecture page)."""

from tikigames.tactiki.actions import TacTikiAction
from tikigames.tactiki.game import TacTiki
from tikigames.tactiki.observation import TacTikiObservation
from tikigames.tactiki.state import TacTikiState

__all__ = ["TacTiki", "TacTikiAction", "TacTikiObservation", "TacTikiState"]

"""Paikō: two players deploy and shift tiles on a diamond board; threat captures, cover
protects, and 10 points in the middlegrounds and the enemy homeground win. Registered as
``paiko``; see the docs page for the rules as implemented.

A game package, in the games' layer: its modules import only :mod:`tikigames.core` and the
package itself, in the order data → actions → state → observation → render → resample → game
(see the docs' Architecture page)."""

from tikigames.paiko.actions import PaikoAction
from tikigames.paiko.game import Paiko
from tikigames.paiko.observation import PaikoObservation
from tikigames.paiko.state import PaikoState

__all__ = ["Paiko", "PaikoAction", "PaikoObservation", "PaikoState"]

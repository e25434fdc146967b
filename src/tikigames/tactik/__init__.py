"""Tac-Tik: 4 or 6 players in teams of two (or 2 players with two colours each) race four pawns
each round a track and into their homes, moved by cards. Registered as ``tactik``; see the docs
page for the rules as implemented.

A game package, in the games' layer: its modules import only :mod:`tikigames.core` and the
package itself, in the order data → actions → paths → deals → movegen → refusals → state →
observation → render → resample → game (see the docs' Architecture page)."""

from tikigames.tactik.actions import TacTikAction
from tikigames.tactik.game import TacTik
from tikigames.tactik.observation import TacTikObservation
from tikigames.tactik.state import TacTikState

__all__ = ["TacTik", "TacTikAction", "TacTikObservation", "TacTikState"]

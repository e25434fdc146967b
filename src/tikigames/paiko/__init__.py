"""Paikō: two players deploy and shift tiles on a diamond board; threat captures, cover
protects, and 10 points in the middlegrounds and the enemy homeground win. Registered as
``paiko``; see the docs page for the rules as implemented."""

from tikigames.paiko.actions import PaikoAction
from tikigames.paiko.game import Paiko
from tikigames.paiko.observation import PaikoObservation
from tikigames.paiko.state import PaikoState

__all__ = ["Paiko", "PaikoAction", "PaikoObservation", "PaikoState"]

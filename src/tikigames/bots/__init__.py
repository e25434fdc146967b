"""Bots: players that see only their own observations.

``Bot`` is the protocol; ``RandomBot`` the baseline.
"""

from tikigames.bots.base import Bot
from tikigames.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]

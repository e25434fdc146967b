"""Bots: players that see only their own observations.

``Bot`` is the protocol; ``RandomBot`` the baseline; ``MCTSBot`` (UCT, for perfect-information
games) and ``ISMCTSBot`` (information-set MCTS, for hidden information) search from the
observation by resampling the worlds it allows.
"""

from tikigames.bots.base import Bot
from tikigames.bots.ismcts import ISMCTSBot
from tikigames.bots.mcts import MCTSBot
from tikigames.bots.random_bot import RandomBot
from tikigames.bots.search import SearchBot

__all__ = ["Bot", "ISMCTSBot", "MCTSBot", "RandomBot", "SearchBot"]

"""Bots: players that see only their own observations.

``Bot`` is the protocol; ``RandomBot`` the baseline; ``MCTSBot`` (UCT, for perfect-information
games) and ``ISMCTSBot`` (information-set MCTS, for hidden information) search from the
observation by resampling the worlds it allows.

Bots are a layer above the core and beside the games: they import only from
:mod:`tikigames.core` and :mod:`tikigames.bots`, and know no game (they play any game through the
:class:`~tikigames.core.state.State` interface).
"""

from collections.abc import Callable

from tikigames.bots.ismcts import ISMCTSBot
from tikigames.bots.mcts import MCTSBot
from tikigames.bots.random_bot import RandomBot
from tikigames.bots.search import SearchBot
from tikigames.core.bot import Bot

__all__ = ["BOTS", "Bot", "ISMCTSBot", "MCTSBot", "RandomBot", "SearchBot"]

#: The bots by the name the tools call them (``--players random,ismcts``, a server's seat
#: kinds): each is built with its keyword settings (``iterations=``, ``seconds=``…).
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "mcts": MCTSBot, "ismcts": ISMCTSBot}

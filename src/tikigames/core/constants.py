"""Special values of :meth:`State.current_player` (the OpenSpiel convention).

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CHANCE", "TERMINAL"]

#: ``current_player()`` at a chance node: the next action is drawn from ``chance_outcomes()``.
CHANCE: Final = -1
#: ``current_player()`` once the game is over.
TERMINAL: Final = -4

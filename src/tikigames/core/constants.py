"""Special values of :meth:`State.current_player` (the OpenSpiel convention)."""

from __future__ import annotations

from typing import Final

__all__ = ["CHANCE", "TERMINAL"]

#: ``current_player()`` at a chance node: the next action is drawn from ``chance_outcomes()``.
CHANCE: Final = -1
#: ``current_player()`` once the game is over.
TERMINAL: Final = -4

"""The settings that make today's search bots play as they did before game knowledge
(tikigames at commit 6cfa235): uniform playouts, each game's cap and guess of that time, no
widening. ``test_baseline`` checks they replay that commit's choices; the strength ladder
(``docs/bots.rst``) calls the bots so set "before"."""

from __future__ import annotations

from typing import Any

from tikigames.bots import MCTSBot, SearchBot

BEFORE_KNOWLEDGE: dict[str, dict[str, Any]] = {
    "tactiki": {"rollout": "uniform", "evaluation": "returns", "max_rollout": 200},
    "tiki_topple": {"rollout": "uniform", "evaluation": "returns", "max_rollout": 200},
    "tactik": {"rollout": "uniform", "max_rollout": 20},
    "paiko": {"rollout": "uniform", "max_rollout": 20},
}


def before(name: str, cls: type[SearchBot], **settings: Any) -> dict[str, Any]:
    """The keyword arguments of a ``cls`` bot in game ``name`` as before game knowledge, with
    ``settings`` on top."""
    made = {**BEFORE_KNOWLEDGE[name], **settings}
    if issubclass(cls, MCTSBot):
        made.setdefault("widening", None)
    return made

"""The search bots before game knowledge stay reachable, exactly: the settings the bots page's
strength ladder calls "today's bots" replay the choices recorded from tikigames at commit
6cfa235 (``tests/golden/bots.baseline.json``: seeded positions of every game, the action and the
root's visit distribution of ``ISMCTSBot``/``MCTSBot`` with 60 iterations).

The ladder compares the new defaults against these settings; if this test fails, the ladder
no longer measures what it says.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.bots import ISMCTSBot, MCTSBot, SearchBot

from .before import BEFORE_KNOWLEDGE, before

GOLDEN = Path(__file__).parent.parent / "golden" / "bots.baseline.json"

CASES: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


def test_every_game_and_bot_is_recorded() -> None:
    assert {case["game"] for case in CASES} == set(BEFORE_KNOWLEDGE) == set(tikigames.GAMES)
    assert {(case["game"], case["bot"]) for case in CASES} >= {
        ("paiko", "mcts"),
        ("tactik", "mcts"),
    }


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['game']}-{c['bot']}-{c['seed']}-{len(c['history'])}" for c in CASES]
)
def test_the_bots_before_game_knowledge_replay_their_choices(case: dict[str, Any]) -> None:
    state = tikigames.load(case["game"]).new_initial_state()
    for action in case["history"]:
        state.apply_action(action)
    obs = state.observation(state.current_player())
    cls: type[SearchBot] = ISMCTSBot if case["bot"] == "ismcts" else MCTSBot
    bot = cls(iterations=case["iterations"], **before(case["game"], cls))
    action, policy = bot.act_and_policy(obs, random.Random(case["seed"]))
    assert int(action) == case["action"]
    assert [round(policy[a], 12) for a in obs.legal_actions()] == case["policy"]

"""Golden files: what a release promises stays the same, checked against files in ``tests/golden``.

Per game, the whole action table (id → notation: trained networks and saved games depend on
it), and seeded playthroughs in the spirit of OpenSpiel's: every action with the text each
player saw, and at checkpoints each player's observation text, JSON and tensor, the legal
actions and the returns. A change of ids, notation, rules, observations or tensors fails here
loudly; it is then either reverted or released as a documented break, with the files written
again by::

    TIKIGAMES_WRITE_GOLDEN=1 python -m pytest tests/test_golden.py

The walks draw from ``random.Random(seed)`` through the contract alone (``legal_actions()`` and
``chance_outcomes()``), never through a game's own samplers, whose draws may change with an
optimisation without changing any rule.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import struct
from pathlib import Path
from typing import Any

import pytest

import tikigames

GOLDEN = Path(__file__).parent / "golden"
WRITE = os.environ.get("TIKIGAMES_WRITE_GOLDEN") == "1"

#: (game, options, seed, the number of actions to play at most).
PLAYTHROUGHS: list[tuple[str, dict[str, Any], int, int]] = [
    ("tiki_topple", {}, 1, 400),
    ("tiki_topple", {"players": 4}, 2, 400),
    ("tactiki", {}, 1, 400),
    ("tactik", {"players": 4}, 1, 400),
    ("tactik", {"players": 2, "jokers": 4}, 2, 300),
    ("paiko", {}, 1, 400),
]
#: A checkpoint every this many actions (and at the end).
EVERY = 100


def _step(state: Any, rng: random.Random) -> Any:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        point, total = rng.random(), 0.0
        for action, probability in outcomes:
            total += probability
            if point < total:
                return action
        return outcomes[-1][0]
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def _tensor_digest(values: list[float]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(values)}d", *values)).hexdigest()[:16]


def _checkpoint(state: Any, lines: list[str]) -> None:
    game = state.game
    lines.append(
        f"=== after {len(state.history())} actions: current player "
        f"{state.current_player()}, returns {state.returns()}"
    )
    lines.append("legal: " + " ".join(str(int(a)) for a in state.legal_actions()))
    for player in [*range(game.num_players), None]:
        obs = state.observation(player)
        who = "spectator" if player is None else f"player {player}"
        lines.append(f"--- {who}: str(obs)")
        lines.extend(str(obs).splitlines())
        lines.append(f"--- {who}: obs.to_json()")
        lines.append(json.dumps(obs.to_json(), sort_keys=True, ensure_ascii=False))
        lines.append(f"--- {who}: tensor sha256 {_tensor_digest(obs.tensor())}")


def playthrough(name: str, options: dict[str, Any], seed: int, limit: int) -> str:
    """The playthrough's text: the same on every machine, build and Python version."""
    game = tikigames.load(name, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    lines = [f"# {game!r}, seed {seed}, at most {limit} actions"]
    _checkpoint(state, lines)
    while not state.is_terminal() and len(state.history()) < limit:
        player = state.current_player()
        action = _step(state, rng)
        state.apply_action(action)
        seen = {p: state.seen_history(p)[-1] for p in range(game.num_players)}
        seen_as = " | ".join(f"p{p}: {text}" for p, text in seen.items() if text != str(action))
        lines.append(
            f"{len(state.history())}. [{player}] {int(action)} {action}"
            + (f" | {seen_as}" if seen_as else "")
        )
        if len(state.history()) % EVERY == 0:
            _checkpoint(state, lines)
    _checkpoint(state, lines)
    return "\n".join(lines) + "\n"


def action_table(name: str, options: dict[str, Any]) -> str:
    game = tikigames.load(name, **options)
    return "".join(f"{int(action)} {action}\n" for action in game.actions())


def _compare(path: Path, text: str) -> None:
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: write it with TIKIGAMES_WRITE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, text.splitlines(), strict=False), 1):
        assert got == want, (
            f"{path.name}:{number} changed:\n  was: {want[:300]}\n  now: {got[:300]}"
        )
    assert len(text.splitlines()) == len(expected), f"{path.name}: the length changed"


#: Every distinct action table: each game's by default, and Tac-Tik's six-player table (the
#: only option that changes a table: more seats, more pawns to name).
TABLES: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in ("paiko", "tactik", "tactiki", "tiki_topple")),
    ("tactik", {"players": 6}),
]


def _suffix(options: dict[str, Any]) -> str:
    return "".join(f"-{key}{value}" for key, value in sorted(options.items()))


@pytest.mark.parametrize(("name", "options"), TABLES)
def test_the_action_table_is_unchanged(name: str, options: dict[str, Any]) -> None:
    _compare(GOLDEN / f"{name}{_suffix(options)}.actions.txt", action_table(name, options))


@pytest.mark.parametrize(("name", "options", "seed", "limit"), PLAYTHROUGHS)
def test_the_seeded_playthrough_is_unchanged(
    name: str, options: dict[str, Any], seed: int, limit: int
) -> None:
    path = GOLDEN / f"{name}{_suffix(options)}.seed{seed}.txt"
    _compare(path, playthrough(name, options, seed, limit))

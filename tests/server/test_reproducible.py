"""A seeded game of bots on the server is the game :func:`tikigames.play` plays with that seed:
the server runs on the core's decision loop, and a bot's worker hands the rng back."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import tikigames
from tikigames.bots import ISMCTSBot, RandomBot
from tikigames.server import create_app


def _finished(client: TestClient, game_id: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if view["terminal"]:
            return view
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not end within {timeout} s")


@pytest.mark.parametrize("name", ["tiki_topple", "tactiki"])
def test_a_seeded_game_of_bots_is_the_one_play_plays(name: str, tmp_path: Path) -> None:
    seats = ["random", {"kind": "ismcts", "settings": {"iterations": 20}}]
    app = create_app(tmp_path / "games.sqlite", executor=ThreadPoolExecutor(1))
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": name, "seats": seats, "seed": 11})
        assert created.status_code == 201
        view = _finished(client, created.json()["id"])
    game = tikigames.load(name)
    expected = tikigames.play(game, [RandomBot(), ISMCTSBot(iterations=20)], seed=11)
    assert view["observation"] == expected.observation(None).to_json()
    assert view["returns"] == list(expected.returns())
    assert view["move_number"] == expected.move_number()

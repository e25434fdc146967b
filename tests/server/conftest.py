"""The server's tests' common ground: an application on a temporary database, its client, the
contract's shapes, and the true game replayed beside the server's to say what each seat must see.

The replay is the test's own: ``tikigames.load(name, **options).new_initial_state()``, each
chance outcome drawn with ``sample_chance`` from ``random.Random(seed)`` as soon as it is due
(what the core's decision loop does, and all it does with the rng when only people play), and
the seats' moves applied as the server acknowledged them.
"""

from __future__ import annotations

import json
import queue
import random
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

try:  # the server extra: without it, each test module here skips (pytest.importorskip)
    import httpx
    from starlette.applications import Starlette
    from starlette.testclient import TestClient, WebSocketTestSession
    from starlette.websockets import WebSocketDisconnect

    from tikigames.server import create_app
except ImportError:  # pragma: no cover - a conftest cannot skip: it would stop pytest
    pass

import tikigames
from tikigames.core.game import Game
from tikigames.core.state import State

#: The keys of a view, exactly, as the contract lists them (not read from the server).
VIEW_KEYS = frozenset(
    {
        "game",
        "options",
        "seat",
        "move_number",
        "current_player",
        "terminal",
        "returns",
        "observation",
        "text",
        "svg",
        "legal",
    }
)
#: Seconds a test waits for a WebSocket message before it fails (a push that never comes).
RECEIVE_TIMEOUT = 10.0


def as_json(value: object) -> Any:
    """``value`` as a client reads it: through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def assert_refusal(response: httpx.Response, status: int) -> dict[str, str]:
    """The refusal's body, checked: ``status``, and exactly ``{"error"}`` or
    ``{"error", "reason"}``, each a non-empty string."""
    assert response.status_code == status, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert isinstance(body, dict), body
    assert set(body) in ({"error"}, {"error", "reason"}), body
    assert all(isinstance(value, str) and value for value in body.values()), body
    return body


def assert_view(view: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    """``view`` is ``expected`` key by key, with the contract's keys and no other."""
    assert set(view) == VIEW_KEYS, sorted(set(view) ^ VIEW_KEYS)
    assert set(expected) == VIEW_KEYS
    for key in sorted(VIEW_KEYS):
        assert view[key] == expected[key], (key, view["seat"], view["move_number"])


def receive(socket: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT) -> Any:
    """The next JSON message of ``socket``; a test fails (rather than hangs) when none comes.
    A close is raised as the client's ``WebSocketDisconnect``."""
    box: queue.Queue[tuple[bool, Any]] = queue.Queue()

    def take() -> None:
        try:
            box.put((True, socket.receive_json()))
        except BaseException as error:  # handed over to the test's thread
            box.put((False, error))

    threading.Thread(target=take, daemon=True).start()
    try:
        received, value = box.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"no WebSocket message within {timeout} s") from None
    if not received:
        raise value
    return value


def refused_socket(client: TestClient, url: str) -> int:
    """The code the WebSocket at ``url`` is closed with: it must be closed before it is
    accepted, no view sent."""
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url):
        pass  # pragma: no cover - never reached: the socket is not accepted
    return closed.value.code


class Replay:
    """The true game of a server's match, played beside it from the same seed."""

    def __init__(self, name: str, options: Mapping[str, Any], seed: int) -> None:
        self.game: Game[Any, Any, Any] = tikigames.load(name, **options)
        self.state: State[Any, Any, Any] = self.game.new_initial_state()
        self.rng = random.Random(seed)
        self._draw()

    def _draw(self) -> None:
        while not self.state.is_terminal() and self.state.current_player() < 0:
            self.state.apply_action(self.state.sample_chance(self.rng))

    def play(self, action_id: int) -> None:
        """Apply a seat's move (checked: it must be legal) and the chance outcomes after it."""
        self.state.apply_action(self.game.action(action_id))
        self._draw()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What the contract says ``seat`` must receive, built from the true state."""
        state = self.state
        obs = state.observation(seat)
        terminal = state.is_terminal()
        to_move = state.current_player()
        legal = state.legal_actions() if seat is not None and seat == to_move else []
        view: dict[str, Any] = as_json(
            {
                "game": self.game.name,
                "options": self.game.options,
                "seat": seat,
                "move_number": state.move_number(),
                "current_player": to_move,
                "terminal": terminal,
                "returns": list(state.returns()) if terminal else None,
                "observation": obs.to_json(),
                "text": str(obs),
                "svg": obs.svg(),
                "legal": [{"id": int(action), "text": action.text} for action in legal],
            }
        )
        return view

    def log(self, seat: int | None) -> list[str]:
        """The log ``seat`` must receive: its observation's history in words."""
        return list(self.state.observation(seat).history_in_words())


@dataclass(frozen=True)
class Created:
    """A game the API created: its id, each seat's token (``None`` for a bot) and the body."""

    id: str
    tokens: list[str | None]
    body: dict[str, Any]

    def token(self, seat: int) -> str:
        """The token of a human ``seat``."""
        token = self.tokens[seat]
        assert token is not None
        return token


class Api:
    """The contract's calls on a client, each checked for its success status."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def create(
        self,
        game: str,
        seats: Sequence[object],
        *,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Created:
        request: dict[str, Any] = {"game": game, "seats": list(seats)}
        if seed is not None:
            request["seed"] = seed
        if options is not None:
            request["options"] = dict(options)
        response = self.client.post("/api/games", json=request)
        assert response.status_code == 201, response.text[:300]
        body: dict[str, Any] = response.json()
        return Created(body["id"], [seat["token"] for seat in body["seats"]], body)

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        params = {} if token is None else {"token": token}
        response = self.client.get(f"/api/games/{game_id}", params=params)
        assert response.status_code == 200, response.text[:300]
        view: dict[str, Any] = response.json()
        return view

    def log(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        params = {} if token is None else {"token": token}
        response = self.client.get(f"/api/games/{game_id}/log", params=params)
        assert response.status_code == 200, response.text[:300]
        log: dict[str, Any] = response.json()
        return log

    def move(self, game_id: str, body: object) -> httpx.Response:
        response: httpx.Response = self.client.post(f"/api/games/{game_id}/moves", json=body)
        return response

    def play(self, game_id: str, token: str, action: int | str, move_number: int) -> Any:
        """A move that must be accepted; the new view."""
        body = {"token": token, "action": action, "move_number": move_number}
        response = self.move(game_id, body)
        assert response.status_code == 200, response.text[:300]
        return response.json()

    def everything(self, created: Created) -> list[Any]:
        """Every view and log of a game (each human seat's, the spectator's): equal before and
        after a refusal, since a refusal changes nothing."""
        tokens = [token for token in created.tokens if token is not None]
        return [
            (self.view(created.id, token), self.log(created.id, token)) for token in [*tokens, None]
        ]


@pytest.fixture
def app_path(tmp_path: Path) -> Path:
    """The database of the test's application."""
    return tmp_path / "games.sqlite"


@pytest.fixture
def app(app_path: Path) -> Iterator[Starlette]:
    """An application whose bots think in one thread (quick to start, enough for tests where
    the bots do not matter)."""
    executor = ThreadPoolExecutor(1)
    try:
        yield create_app(app_path, executor=executor)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    """A client of ``app``, its application started (the games loaded, the bots woken)."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient) -> Api:
    return Api(client)

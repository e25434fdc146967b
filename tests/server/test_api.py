"""The server's HTTP and WebSocket contract: what it creates, what it answers, what it refuses.

Every refusal is checked three ways: its status, its body (exactly ``{"error"}`` or
``{"error", "reason"}``), and that it changed nothing — every seat's view and log, and the
spectator's, are what they were — while the server goes on serving.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")  # starlette.testclient's transport

from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import tikigames
from tikigames.bots import RandomBot
from tikigames.server import create_app
from tikigames.server.app import MAX_BODY, MAX_MESSAGE, SECURITY_HEADERS
from tikigames.server.matches import BOT_LIMITS, SEAT_KINDS
from tikigames.server.matches import VIEW_KEYS as SERVER_VIEW_KEYS

from .conftest import (
    VIEW_KEYS,
    Api,
    Created,
    Replay,
    assert_refusal,
    assert_view,
    receive,
    refused_socket,
)

# ----------------------------------------------------------------- helpers


def _games(app: Starlette) -> int:
    """How many games the application holds."""
    return len(app.state.server.matches)


def _serves(client: TestClient) -> None:
    """The server still answers."""
    assert client.get("/api/catalog").status_code == 200


def _wait_view(
    api: Api,
    game_id: str,
    token: str | None,
    ready: Callable[[dict[str, Any]], bool],
    timeout: float = 60.0,
) -> dict[str, Any]:
    """The first view of ``token``'s seat that is ``ready`` (a bot has answered, say)."""
    deadline = time.monotonic() + timeout
    while True:
        view = api.view(game_id, token)
        if ready(view):
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"game {game_id}: no ready view within {timeout} s")
        time.sleep(0.02)


def _assert_error_message(message: Any, *, reason: bool | None = None) -> dict[str, str]:
    """A WebSocket refusal: exactly ``{"error"}`` or ``{"error", "reason"}``, strings."""
    assert isinstance(message, dict), message
    keys = set(message)
    assert keys in ({"error"}, {"error", "reason"}), message
    if reason is not None:
        assert ("reason" in keys) == reason, message
    assert all(isinstance(value, str) and value for value in message.values())
    return message


# ----------------------------------------------------------------- creating games

#: One game of each: (name, options asked, seats, the options the game must then have).
NEW_GAMES = [
    pytest.param("tiki_topple", {"rounds": 1}, ["human"] * 3, {"players": 3, "rounds": 1}, id="tt"),
    pytest.param(
        "tactik", {"jokers": 0}, ["human", "random"], {"players": 2, "jokers": 0}, id="tac"
    ),
    pytest.param(
        "tactiki",
        {"strict_statue": True},
        ["human", {"kind": "ismcts", "settings": {"iterations": 10}}],
        {"strict_statue": True},
        id="tki",
    ),
    pytest.param("paiko", None, ["human", {"kind": "mcts"}], {}, id="paiko"),
]


@pytest.mark.parametrize(("name", "options", "seats", "expected"), NEW_GAMES)
def test_a_new_game_of_each(
    api: Api,
    name: str,
    options: dict[str, Any] | None,
    seats: list[Any],
    expected: dict[str, Any],
) -> None:
    created = api.create(name, seats, seed=12, options=options)
    body = created.body
    assert set(body) == {"id", "seats", "watch"}
    assert isinstance(created.id, str) and created.id
    assert body["watch"] == f"/watch/{created.id}"
    assert len(body["seats"]) == len(seats)
    for index, (entry, asked) in enumerate(zip(body["seats"], seats, strict=True)):
        kind = asked if isinstance(asked, str) else asked["kind"]
        assert set(entry) == {"seat", "kind", "token", "url"}
        assert entry["seat"] == index and entry["kind"] == kind
        if kind == "human":
            assert isinstance(entry["token"], str) and len(entry["token"]) >= 22
            assert entry["url"] == f"/play/{created.id}?token={entry['token']}"
        else:
            assert entry["token"] is None and entry["url"] is None
    humans = [token for token in created.tokens if token is not None]
    assert len(set(humans)) == len(humans)
    # The seats' count set ``players``; the options asked are the game's; the seed drew the
    # chance outcomes (the human seat 0 moves first in each, so no bot has moved yet).
    game = tikigames.load(name, **expected)
    replay = Replay(name, expected, 12)
    assert game.num_players == len(seats)
    assert replay.state.current_player() == 0
    assert api.view(created.id)["options"] == game.options
    assert_view(api.view(created.id), replay.view(None))
    for seat, token in enumerate(created.tokens):
        if token is not None:
            assert_view(api.view(created.id, token), replay.view(seat))


def test_the_seed_draws_the_chance_outcomes(api: Api) -> None:
    same = [api.create("tiki_topple", ["human", "human"], seed=5) for _ in range(2)]
    other = api.create("tiki_topple", ["human", "human"], seed=6)
    drawn = [api.create("tiki_topple", ["human", "human"]) for _ in range(3)]
    line = [api.view(game.id)["observation"]["line"] for game in [*same, other]]
    assert line[0] == line[1] != line[2]
    # No seed: one is drawn. Seat 0's whole deal (the line: one of 1,296; its secret card and
    # hand) is the same in three such games about never (two lines alone match once in 1,296).
    deals = {str(api.view(game.id, game.token(0))["observation"]) for game in drawn}
    assert len(deals) > 1
    assert api.view(same[0].id, same[0].token(0)) == api.view(same[1].id, same[1].token(0))
    largest = api.create("tiki_topple", ["human", "human"], seed=2**63 - 1)
    assert_view(api.view(largest.id), Replay("tiki_topple", {}, 2**63 - 1).view(None))


def _ok(**fields: Any) -> dict[str, Any]:
    """A good new game's request, with ``fields`` changed."""
    return {"game": "tiki_topple", "seats": ["human", "human"], "seed": 1, **fields}


def _bot(**settings: Any) -> dict[str, Any]:
    return _ok(seats=["human", {"kind": "ismcts", "settings": settings}])


#: Bad new games' requests and a word the refusal must name.
BAD_NEW_GAMES = [
    pytest.param(_ok(colour="red"), "colour", id="unknown-field"),
    pytest.param(_ok(seats=["human", {"kind": "human", "team": 1}]), "team", id="seat-field"),
    pytest.param(_bot(depth=3), "depth", id="bot-setting"),
    pytest.param(
        _ok(seats=["human", {"kind": "random", "settings": {"seconds": 1}}]),
        "seconds",
        id="random-settings",
    ),
    pytest.param(_ok(seats=["human", {"kind": "human", "settings": {}}]), "human", id="human-set"),
    pytest.param(_ok(seats=["human", {"settings": {}}]), "kind", id="seat-no-kind"),
    pytest.param(_ok(seats=["human", {"kind": 3}]), "kind", id="seat-kind-int"),
    pytest.param(_ok(seats=["human", 3]), "seat 1", id="seat-int"),
    pytest.param(_ok(seats=["human", "alphazero"]), "alphazero", id="seat-kind"),
    pytest.param(_ok(seats=["human", "Human"]), "Human", id="seat-kind-case"),
    pytest.param(_ok(seats=[]), "seats", id="no-seats"),
    pytest.param(_ok(seats="human,human"), "seats", id="seats-string"),
    pytest.param({"game": "tiki_topple", "seed": 1}, "seats", id="seats-missing"),
    pytest.param(_ok(seats=["human"] * 17), "seats", id="seats-17"),
    pytest.param(_ok(seats=["human"] * 5), "players", id="seats-5"),
    pytest.param(_ok(game="tactiki", seats=["human"] * 3), "seats", id="seats-count"),
    pytest.param(_ok(game="tactik", seats=["human"] * 3), "players", id="tactik-3"),
    pytest.param(_ok(game="chess"), "chess", id="unknown-game"),
    pytest.param(_ok(game=None), "game", id="game-null"),
    pytest.param({"seats": ["human", "human"]}, "game", id="game-missing"),
    pytest.param(_ok(game=["tiki_topple"]), "game", id="game-list"),
    pytest.param(_ok(options={"colour": 1}), "colour", id="unknown-option"),
    pytest.param(_ok(options={"rounds": "two"}), "rounds", id="option-type"),
    pytest.param(_ok(options={"rounds": True}), "rounds", id="option-bool"),
    pytest.param(_ok(options={"rounds": 0}), "rounds", id="option-range"),
    pytest.param(_ok(options={"players": 3}), "seats", id="players-vs-seats"),
    pytest.param(_ok(options=[1]), "options", id="options-list"),
    pytest.param(_ok(seed="7"), "seed", id="seed-string"),
    pytest.param(_ok(seed=True), "seed", id="seed-bool"),
    pytest.param(_ok(seed=7.0), "seed", id="seed-float"),
    pytest.param(_ok(seed=-1), "seed", id="seed-negative"),
    pytest.param(_ok(seed=2**63), "seed", id="seed-64-bits"),
    pytest.param(_ok(seed=[7]), "seed", id="seed-list"),
    pytest.param(_bot(iterations=int(BOT_LIMITS["iterations"]) + 1), "iterations", id="iter-max"),
    pytest.param(_bot(seconds=BOT_LIMITS["seconds"] + 0.5), "seconds", id="seconds-max"),
    pytest.param(_bot(iterations="many"), "iterations", id="iterations-type"),
    pytest.param(_bot(iterations=0), "iterations", id="iterations-zero"),
    pytest.param(_bot(iterations=2.5), "iterations", id="iterations-float"),
    pytest.param(_bot(seconds=-1), "seconds", id="seconds-negative"),
    pytest.param(_bot(c="wide"), "c", id="c-type"),
    pytest.param(_bot(max_rollout=-1), "max_rollout", id="max-rollout-negative"),
    pytest.param(
        _ok(seats=["human", {"kind": "ismcts", "settings": [50]}]), "settings", id="settings-list"
    ),
]


@pytest.mark.parametrize(("request_body", "named"), BAD_NEW_GAMES)
def test_a_bad_new_game_is_refused_naming_what(
    app: Starlette, client: TestClient, request_body: dict[str, Any], named: str
) -> None:
    held = _games(app)
    response = client.post("/api/games", json=request_body)
    assert named in assert_refusal(response, 400)["error"]
    assert _games(app) == held
    _serves(client)


@pytest.mark.parametrize("cap", [None, 10**9])
def test_an_unbounded_rollout_is_refused(app: Starlette, client: TestClient, cap: Any) -> None:
    held = _games(app)
    request = _bot(seconds=0.1, max_rollout=cap) | {"options": {"rounds": 1_000_000}}
    response = client.post("/api/games", json=request)
    assert "max_rollout" in assert_refusal(response, 400)["error"]
    assert _games(app) == held


#: Bodies that are not a JSON object.
NOT_OBJECTS = [
    pytest.param(b"{not json", id="not-json"),
    pytest.param(b"", id="empty"),
    pytest.param(b"\xff\xfe{}", id="not-utf8"),
    pytest.param(b"[]", id="list"),
    pytest.param(b'"game"', id="string"),
    pytest.param(b"3", id="number"),
    pytest.param(b"null", id="null"),
    pytest.param(b"[" * 100_000, id="deep"),
    pytest.param(b'{"seed": 1' + b"0" * 5000 + b"}", id="huge-int"),
]


@pytest.mark.parametrize("content", NOT_OBJECTS)
def test_a_new_game_must_be_a_json_object(
    app: Starlette, client: TestClient, content: bytes
) -> None:
    response = client.post(
        "/api/games", content=content, headers={"content-type": "application/json"}
    )
    assert_refusal(response, 400)
    assert _games(app) == 0
    _serves(client)


def _padded(body: bytes, size: int) -> bytes:
    """``body`` (JSON) padded with spaces to ``size`` bytes: still the same JSON."""
    return body + b" " * (size - len(body))


def _chunks(content: bytes, size: int = 100_000) -> Iterator[bytes]:
    """``content`` sent chunked: no content-length at all."""
    for start in range(0, len(content), size):
        yield content[start : start + size]


def test_a_body_over_one_megabyte_is_refused(app: Starlette, client: TestClient) -> None:
    game = b'{"game": "tiki_topple", "seats": ["human", "human"]}'
    over = _padded(game, MAX_BODY + 1)
    assert MAX_BODY == 1 << 20
    # Declared, lying (a small length declared) and chunked (none declared).
    assert_refusal(client.post("/api/games", content=over), 413)
    lying = client.post("/api/games", content=over, headers={"content-length": "52"})
    assert_refusal(lying, 413)
    assert_refusal(client.post("/api/games", content=_chunks(over)), 413)
    huge = client.post("/api/games", content=game, headers={"content-length": str(10**12)})
    assert_refusal(huge, 413)
    assert _games(app) == 0
    # Exactly one megabyte is read.
    assert client.post("/api/games", content=_padded(game, MAX_BODY)).status_code == 201
    assert client.post("/api/games", content=_chunks(_padded(game, MAX_BODY))).status_code == 201
    assert _games(app) == 2


# ----------------------------------------------------------------- moves


@dataclass(frozen=True)
class Turn:
    """A game at a seat's decision: the mover's token, the other seat's, and a legal move."""

    token: str
    other: str
    number: int
    action: int
    text: str


def _move(turn: Turn, **fields: Any) -> dict[str, Any]:
    """The mover's legal move's body, with ``fields`` changed."""
    return {"token": turn.token, "action": turn.action, "move_number": turn.number, **fields}


def _without(turn: Turn, key: str) -> dict[str, Any]:
    body = _move(turn)
    del body[key]
    return body


#: Bad moves: (status, the body built from the turn, a word the refusal must name or None).
BAD_MOVES = [
    pytest.param(400, lambda t: _move(t, undo=True), "undo", id="unknown-field"),
    pytest.param(400, lambda t: _without(t, "move_number"), "move_number", id="number-missing"),
    pytest.param(400, lambda t: _move(t, move_number=str(t.number)), "move_number", id="n-str"),
    pytest.param(400, lambda t: _move(t, move_number=True), "move_number", id="number-bool"),
    pytest.param(400, lambda t: _move(t, move_number=float(t.number)), "move_number", id="n-float"),
    pytest.param(400, lambda t: _move(t, move_number=None), "move_number", id="number-null"),
    pytest.param(400, lambda t: _without(t, "action"), "action", id="action-missing"),
    pytest.param(400, lambda t: _move(t, action=[t.action]), "action", id="action-list"),
    pytest.param(400, lambda t: _move(t, action=None), "action", id="action-null"),
    pytest.param(400, lambda t: _move(t, action=True), "action", id="action-bool"),
    pytest.param(400, lambda t: _move(t, action=False), "action", id="action-false"),
    pytest.param(400, lambda t: _move(t, action=float(t.action)), "action", id="action-float"),
    pytest.param(400, lambda t: _move(t, action={"id": t.action}), "action", id="action-object"),
    pytest.param(403, lambda t: _without(t, "token"), "token", id="token-missing"),
    pytest.param(403, lambda t: _move(t, token=None), "token", id="token-null"),
    pytest.param(403, lambda t: _move(t, token="A" * 22), "token", id="token-made-up"),
    pytest.param(403, lambda t: _move(t, token=12345), "token", id="token-int"),
    pytest.param(409, lambda t: _move(t, move_number=t.number - 1), "move", id="stale"),
    pytest.param(409, lambda t: _move(t, move_number=t.number + 1), "move", id="future"),
    pytest.param(409, lambda t: _move(t, move_number=10**30), "move", id="huge-number"),
    pytest.param(409, lambda t: _move(t, token=t.other), "turn", id="not-your-turn"),
    pytest.param(409, lambda t: _move(t, token=t.other, action=t.text), "turn", id="not-yours-2"),
    pytest.param(422, lambda t: _move(t, action="fly away"), None, id="unparseable"),
    pytest.param(422, lambda t: _move(t, action=""), None, id="empty-text"),
    pytest.param(422, lambda t: _move(t, action="x" * 10_000), None, id="long-text"),
    pytest.param(422, lambda t: _move(t, action=10**9), None, id="id-too-large"),
    pytest.param(422, lambda t: _move(t, action=-1), None, id="id-negative"),
]


@pytest.fixture
def two_people(api: Api) -> tuple[Created, Turn]:
    """A Tiki Topple game of two people, seat 0 to move."""
    created = api.create("tiki_topple", ["human", "human"], seed=3)
    view = api.view(created.id, created.token(0))
    choice = view["legal"][0]
    number = view["move_number"]
    turn = Turn(created.token(0), created.token(1), number, choice["id"], choice["text"])
    return created, turn


@pytest.mark.parametrize(("status", "build", "named"), BAD_MOVES)
def test_a_bad_move_is_refused_and_changes_nothing(
    api: Api,
    two_people: tuple[Created, Turn],
    status: int,
    build: Callable[[Turn], dict[str, Any]],
    named: str | None,
) -> None:
    created, turn = two_people
    before = api.everything(created)
    body = assert_refusal(api.move(created.id, build(turn)), status)
    if named is not None:
        assert named in body["error"]
    assert ("reason" in body) == (status == 422), body
    assert api.everything(created) == before
    # The refused seat can still play its move.
    assert api.play(created.id, turn.token, turn.action, turn.number)["move_number"] > turn.number


@pytest.mark.parametrize("content", [*NOT_OBJECTS, pytest.param(b'["token"]', id="list-2")])
def test_a_move_must_be_a_json_object(
    api: Api, two_people: tuple[Created, Turn], content: bytes
) -> None:
    created, _ = two_people
    before = api.everything(created)
    response = api.client.post(f"/api/games/{created.id}/moves", content=content)
    assert_refusal(response, 400)
    assert api.everything(created) == before


def test_a_move_over_one_megabyte_is_refused(api: Api, two_people: tuple[Created, Turn]) -> None:
    created, turn = two_people
    before = api.everything(created)
    url = f"/api/games/{created.id}/moves"
    body = (
        f'{{"token": "{turn.token}", "action": {turn.action}, "move_number": {turn.number}}}'
    ).encode()
    over = _padded(body, MAX_BODY + 1)
    assert_refusal(api.client.post(url, content=over), 413)
    assert_refusal(api.client.post(url, content=_chunks(over)), 413)
    assert_refusal(api.client.post(url, content=over, headers={"content-length": "10"}), 413)
    assert api.everything(created) == before
    assert api.client.post(url, content=_padded(body, MAX_BODY)).status_code == 200


def test_an_illegal_move_is_refused_with_the_games_reason(
    api: Api, two_people: tuple[Created, Turn]
) -> None:
    created, turn = two_people
    replay = Replay("tiki_topple", {}, 3)
    legal = set(replay.state.legal_actions())
    game = replay.game
    actions = [game.action(i) for i in range(game.num_distinct_actions)]
    illegal = [action for action in actions if action not in legal]
    before = api.everything(created)
    sample = random.Random(0).sample(illegal, 12)
    for action in sample:
        reason = replay.state.illegal_reason(action)
        assert reason is not None
        for named in (int(action), action.text, f"  {action.text}  "):
            body = assert_refusal(api.move(created.id, _move(turn, action=named)), 422)
            assert set(body) == {"error", "reason"}
            assert body["reason"] == reason
    assert api.everything(created) == before


def test_unknown_games_are_404(api: Api, two_people: tuple[Created, Turn]) -> None:
    created, turn = two_people
    before = api.everything(created)
    for path in ("/api/games/nosuch", "/api/games/nosuch/log", f"/api/games/{created.id}x"):
        assert_refusal(api.client.get(path, params={"token": turn.token}), 404)
    assert_refusal(api.move("nosuch", _move(turn)), 404)
    for path in ("/play/nosuch", "/watch/nosuch"):
        page = api.client.get(path, params={"token": turn.token})
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    # Unknown routes and methods of the API answer JSON errors too.
    assert_refusal(api.client.get("/api/nothing"), 404)
    assert_refusal(api.client.get("/api/games"), 405)
    assert_refusal(api.client.delete(f"/api/games/{created.id}"), 405)
    assert_refusal(api.client.put(f"/api/games/{created.id}/moves", json=_move(turn)), 405)
    assert api.everything(created) == before


def test_a_finished_game_takes_no_move(api: Api) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=8, options={"rounds": 1})
    tokens = [created.token(0), created.token(1)]
    chooser = random.Random(8)
    view = api.view(created.id)
    while not view["terminal"]:
        mover = tokens[view["current_player"]]
        choice = chooser.choice(api.view(created.id, mover)["legal"])
        view = api.play(created.id, mover, choice["text"], view["move_number"])
        view = api.view(created.id)
    assert view["returns"] is not None and view["current_player"] == -4
    assert all(api.view(created.id, token)["legal"] == [] for token in tokens)
    before = api.everything(created)
    for token in tokens:
        body = {"token": token, "action": 0, "move_number": view["move_number"]}
        assert "over" in assert_refusal(api.move(created.id, body), 409)["error"]
    assert api.everything(created) == before


def test_a_move_the_store_could_not_keep_is_undone(
    app: Starlette, api: Api, two_people: tuple[Created, Turn], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed commit answers 503 and is forgotten: the views are what they were, and the
    next move (another one) is shown as played, not the forgotten one."""
    created, turn = two_people
    store = app.state.server.store
    before = api.everything(created)

    def full(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "update", full)
    assert_refusal(api.move(created.id, _move(turn)), 503)
    monkeypatch.undo()
    assert api.everything(created) == before
    replay = Replay("tiki_topple", {}, 3)
    other = next(a for a in api.view(created.id, turn.token)["legal"] if a["id"] != turn.action)
    after = api.play(created.id, turn.token, other["id"], turn.number)
    replay.play(other["id"])
    assert_view(after, replay.view(0))
    assert_view(api.view(created.id), replay.view(None))


def test_a_bot_whose_move_was_not_stored_tries_again(
    app: Starlette, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = api.create(
        "tiki_topple", ["human", {"kind": "ismcts", "settings": {"iterations": 5}}], seed=3
    )
    store = app.state.server.store
    update = store.update
    calls: list[int] = []

    def once_full(game_id: str, record: tuple[str, str, str], move_number: int) -> None:
        calls.append(move_number)
        if len(calls) == 2:  # the bot's first answer
            raise OSError("disk full")
        update(game_id, record, move_number)

    monkeypatch.setattr(store, "update", once_full)
    view = api.view(created.id, created.token(0))
    api.play(created.id, created.token(0), view["legal"][0]["id"], view["move_number"])
    _wait_view(api, created.id, created.token(0), lambda v: v["current_player"] == 0, 4.0)


# ----------------------------------------------------------------- what else it answers


def test_the_view_keys_are_the_contracts(api: Api, two_people: tuple[Created, Turn]) -> None:
    assert frozenset(SERVER_VIEW_KEYS) == VIEW_KEYS
    created, turn = two_people
    for token in (turn.token, turn.other, None):
        view = api.view(created.id, token)
        assert set(view) == VIEW_KEYS
        assert view["returns"] is None and view["terminal"] is False
    log = api.log(created.id, turn.token)
    assert set(log) == {"move_number", "log"} and log["move_number"] == turn.number
    assert all(isinstance(line, str) for line in log["log"])


def test_the_catalog(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert set(catalog) == {"games", "seat_kinds"}
    assert catalog["seat_kinds"] == list(SEAT_KINDS)
    assert set(catalog["seat_kinds"]) == {"human", "random", "mcts", "ismcts"}
    assert [game["name"] for game in catalog["games"]] == list(tikigames.GAMES)
    option_keys = {"name", "kind", "default", "doc", "minimum", "maximum", "choices", "allow_none"}
    for entry in catalog["games"]:
        assert set(entry) == {"name", "players", "options"}
        game = tikigames.load(entry["name"])
        assert entry["players"] == game.num_players
        assert [option["name"] for option in entry["options"]] == [
            spec.name for spec in game.option_specs
        ]
        assert all(set(option) == option_keys for option in entry["options"])


def test_every_answer_has_the_security_headers(
    api: Api, client: TestClient, two_people: tuple[Created, Turn]
) -> None:
    created, turn = two_people
    answers = [
        client.get("/"),
        client.get("/api/catalog"),
        client.get(f"/api/games/{created.id}"),
        client.get(f"/play/{created.id}", params={"token": turn.token}),
        client.get(f"/play/{created.id}"),
        client.get(f"/watch/{created.id}"),
        client.get("/static/play.js"),
        client.get("/api/games/nosuch"),
        client.get("/nothing"),
        client.post("/api/games", content=b"["),
    ]
    for response in answers:
        for header, value in SECURITY_HEADERS.items():
            assert response.headers.get(header) == value, (response.url, header)
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp
    # The token is never echoed into a page.
    page = client.get(f"/play/{created.id}", params={"token": turn.token})
    assert turn.token not in page.text


# ----------------------------------------------------------------- the WebSocket


def test_the_websocket_plays_and_refuses(api: Api, client: TestClient) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=3)
    replay = Replay("tiki_topple", {}, 3)
    base = f"/ws/games/{created.id}"
    with (
        client.websocket_connect(f"{base}?token={created.token(0)}") as mine,
        client.websocket_connect(f"{base}?token={created.token(1)}") as theirs,
        client.websocket_connect(base) as spectator,
    ):
        view = receive(mine)
        assert view == api.view(created.id, created.token(0))
        receive(theirs)
        receive(spectator)
        before = api.everything(created)
        number = view["move_number"]
        legal = view["legal"][0]
        illegal = next(
            replay.game.action(i)
            for i in range(replay.game.num_distinct_actions)
            if replay.game.action(i) not in replay.state.legal_actions()
        )
        illegal_reason = replay.state.illegal_reason(illegal)
        assert illegal_reason
        # (message, a word the error names, the reason: None for none, "" for any)
        refused: list[tuple[Any, str | None, str | None]] = [
            ("not json", None, None),
            ("[1]", None, None),
            ({"action": legal["id"]}, "move_number", None),
            ({"move_number": number}, "action", None),
            ({"action": legal["id"], "move_number": number, "token": "x"}, "token", None),
            ({"action": legal["id"], "move_number": number - 1}, "move", None),
            ({"action": [1], "move_number": number}, "action", None),
            ({"action": "fly away", "move_number": number}, None, ""),
            ({"action": illegal.text, "move_number": number}, None, illegal_reason),
            ({"action": int(illegal), "move_number": number}, None, illegal_reason),
        ]
        for message, named, reason in refused:
            if isinstance(message, str):
                mine.send_text(message)
            else:
                mine.send_json(message)
            answer = _assert_error_message(receive(mine), reason=reason is not None)
            if named is not None:
                assert named in answer["error"], answer
            if reason:
                assert answer["reason"] == reason
        # Not its turn: seat 1's socket is refused.
        theirs.send_json({"action": legal["id"], "move_number": number})
        assert "turn" in _assert_error_message(receive(theirs), reason=False)["error"]
        assert api.everything(created) == before
        # A legal move: its answer is the new view, and every watcher gets its own.
        mine.send_json({"action": legal["text"], "move_number": number})
        replay.play(legal["id"])
        assert_view(receive(mine), replay.view(0))
        assert_view(receive(theirs), replay.view(1))
        assert_view(receive(spectator), replay.view(None))


def test_a_websocket_with_a_bad_token_gets_no_view(api: Api, client: TestClient) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=3)
    for query in ("?token=" + "A" * 22, "?token=", "?token=x"):
        assert refused_socket(client, f"/ws/games/{created.id}{query}") == 1008


def test_an_oversized_websocket_message_closes_it(api: Api, client: TestClient) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=3)
    before = api.everything(created)
    with client.websocket_connect(f"/ws/games/{created.id}?token={created.token(0)}") as socket:
        view = receive(socket)
        socket.send_text(" " * MAX_MESSAGE)  # the largest: read (and not JSON)
        _assert_error_message(receive(socket), reason=False)
        legal = view["legal"][0]
        move = f'{{"action": {legal["id"]}, "move_number": {view["move_number"]}}}'
        socket.send_text(move + " " * (MAX_MESSAGE + 1 - len(move)))
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 1009
    assert api.everything(created) == before


def test_a_binary_websocket_message_closes_it(api: Api, client: TestClient) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=3)
    with client.websocket_connect(f"/ws/games/{created.id}?token={created.token(0)}") as socket:
        view = receive(socket)
        socket.send_bytes(f'{{"action": 0, "move_number": {view["move_number"]}}}'.encode())
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 1003


def test_a_websocket_that_sends_too_much_is_slowed_down(api: Api, client: TestClient) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=3)
    before = api.everything(created)
    with client.websocket_connect(f"/ws/games/{created.id}?token={created.token(0)}") as socket:
        view = receive(socket)
        stale = {"action": view["legal"][0]["id"], "move_number": view["move_number"] - 1}
        for _ in range(30):
            socket.send_json(stale)
        answers = [_assert_error_message(receive(socket))["error"] for _ in range(30)]
        assert not any("too many" in answer for answer in answers[:20]), answers
        assert any("too many" in answer for answer in answers[20:]), answers
        assert api.everything(created) == before
        # The allowance comes back: after a pause, a move is played.
        time.sleep(0.5)
        socket.send_json({"action": view["legal"][0]["id"], "move_number": view["move_number"]})
        assert receive(socket)["move_number"] > view["move_number"]


# ----------------------------------------------------------------- bots in worker processes


def test_bots_think_in_the_default_process_pool(app_path: Path) -> None:
    """A person against a random bot in a worker process: after each answer every view is the
    replay's, where the bot draws from the game's rng after the chance outcomes (as in
    ``tikigames.play``)."""
    options = {"rounds": 1}
    app = create_app(app_path)
    with TestClient(app) as client:
        assert isinstance(app.state.server.executor, ProcessPoolExecutor)
        api = Api(client)
        created = api.create("tiki_topple", ["human", "random"], seed=21, options=options)
        replay = Replay("tiki_topple", options, 21)
        bot, chooser = RandomBot(), random.Random(21)
        token = created.token(0)
        while True:
            view = _wait_view(api, created.id, token, lambda v: v["current_player"] != 1)
            assert_view(view, replay.view(0))
            assert_view(api.view(created.id), replay.view(None))
            if view["terminal"]:
                break
            choice = chooser.choice(view["legal"])
            api.play(created.id, token, choice["id"], view["move_number"])
            replay.play(choice["id"])
            while replay.state.current_player() == 1:
                replay.play(int(bot.act(replay.state.observation(1), replay.rng)))
    assert replay.state.is_terminal()

"""No seat sees more than its own observation, over the wire, and no token opens another seat.

The main test plays two people's seats through the HTTP API and the WebSocket with random legal
moves, and after every move checks each view (both seats' and the spectator's, fetched and
pushed) against the test's own replay of the true game: key by key what
``state.observation(seat)`` gives, nothing more. Then the seats' hidden facts are checked to
differ between the views (a seat's secret is in its view and in no other).
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")  # starlette.testclient's transport

from starlette.testclient import TestClient, WebSocketTestSession

from .conftest import (
    Api,
    Created,
    Replay,
    as_json,
    assert_refusal,
    assert_view,
    receive,
    refused_socket,
)

#: The games played to their end (options shorten the long ones), with their seeds.
GAMES = [
    pytest.param("tiki_topple", {}, 7, id="tiki_topple"),
    pytest.param("tactiki", {"max_turns": 40}, 5, id="tactiki"),
    pytest.param("tactik", {"players": 2, "max_turns": 40}, 3, id="tactik-2"),
    pytest.param("paiko", {"max_turns": 30}, 2, id="paiko"),
]
#: The games where a seat knows what another does not (Paikō hides nothing).
HIDDEN = ("tiki_topple", "tactiki", "tactik")


def _hidden_facts_differ(name: str, views: list[dict[str, Any]]) -> bool:
    """Check the seats' hidden facts in ``views`` (seat 0's, seat 1's, the spectator's); say
    whether the two seats' observations differ at all here."""
    observations = [view["observation"] for view in views]
    histories = [obs["history"] for obs in observations]
    differ = False
    for seat, other in ((0, 1), (1, 0)):
        mine, theirs = histories[seat], histories[other]
        for index, (entry, their_entry) in enumerate(zip(mine, theirs, strict=True)):
            if entry != their_entry:
                differ = True
                # One of the two is the masked entry, and so is the spectator's.
                assert "?" in entry or "?" in their_entry, (index, entry, their_entry)
                assert "?" in histories[2][index], (index, histories[2][index])
        shown = json.dumps(views[seat])
        if name == "tiki_topple":
            obs, their_obs = observations[seat], observations[other]
            unrevealed = len(obs["revealed"]) < obs["round"]
            if unrevealed and obs["secret"] is not None and their_obs["secret"] is not None:
                assert obs["secret"] != their_obs["secret"]
                assert observations[2]["secret"] is None
                their_line = next(
                    line
                    for line in views[other]["text"].splitlines()
                    if line.startswith("Your secret tiki card")
                )
                assert their_line not in shown
                assert json.dumps(their_line)[1:-1] not in shown
        elif name == "tactiki":
            for field in observations[seat]["board"]:
                for owner, rank, revealed in field:
                    if owner == other and not revealed:
                        assert rank is None, (seat, field)
                    if owner == seat:
                        assert rank is not None, (seat, field)
    if name == "tactiki":
        spectator_ranks = [
            rank
            for field in observations[2]["board"]
            for _, rank, revealed in field
            if not revealed
        ]
        assert all(rank is None for rank in spectator_ranks)
    return differ


@pytest.mark.parametrize(("name", "options", "seed"), GAMES)
def test_each_seat_sees_exactly_its_observation(
    api: Api, client: TestClient, name: str, options: dict[str, Any], seed: int
) -> None:
    created = api.create(name, ["human", "human"], seed=seed, options=options)
    replay = Replay(name, options, seed)
    tokens: list[str | None] = [created.token(0), created.token(1), None]
    seats: list[int | None] = [0, 1, None]
    chooser = random.Random(seed)
    hidden_seen = False
    with ExitStack() as stack:
        sockets: list[WebSocketTestSession] = []
        for token in tokens:
            query = "" if token is None else f"?token={token}"
            sockets.append(
                stack.enter_context(client.websocket_connect(f"/ws/games/{created.id}{query}"))
            )
        # Each socket's view, pushed on connect and then after each move (taken before the
        # next GETs: a move sent by a socket is played once its pushes are out).
        pushed = [receive(socket) for socket in sockets]
        for step in range(10_000):
            views = [api.view(created.id, token) for token in tokens]
            for seat, view in zip(seats, views, strict=True):
                assert_view(view, replay.view(seat))
            assert pushed == views
            hidden_seen = _hidden_facts_differ(name, views) or hidden_seen
            if step % 5 == 0 or views[0]["terminal"]:
                for seat, token in zip(seats, tokens, strict=True):
                    expected = {"move_number": replay.state.move_number(), "log": replay.log(seat)}
                    assert api.log(created.id, token) == expected
            if views[0]["terminal"]:
                break
            mover = views[0]["current_player"]
            assert views[1 - mover]["legal"] == [] and views[2]["legal"] == []
            choice = chooser.choice(views[mover]["legal"])
            action = choice["id"] if step % 2 else choice["text"]
            number = views[mover]["move_number"]
            if step % 3 == 2:  # by the mover's WebSocket: its answer is the broadcast view
                sockets[mover].send_json({"action": action, "move_number": number})
            else:
                after = api.play(created.id, created.token(mover), action, number)
                assert after == api.view(created.id, tokens[mover])
            replay.play(choice["id"])
            pushed = [receive(socket) for socket in sockets]
        else:
            raise AssertionError(f"{name} did not end")
    assert replay.state.is_terminal()
    assert views[2]["returns"] == as_json(replay.state.returns())
    if name in HIDDEN:
        assert hidden_seen, "the seats' views never differed: nothing hidden was checked"


def test_a_seat_cannot_read_or_move_for_another(api: Api) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=4)
    replay = Replay("tiki_topple", {}, 4)
    first, second = created.token(0), created.token(1)
    assert first != second and min(len(first), len(second)) >= 22  # 128 bits, URL-safe
    for seat, token in ((0, first), (1, second)):
        entry = created.body["seats"][seat]
        assert entry == {
            "seat": seat,
            "kind": "human",
            "token": token,
            "url": f"/play/{created.id}?token={token}",
        }
        # The token says the seat; nothing in the request picks another.
        response = api.client.get(
            f"/api/games/{created.id}", params={"token": token, "seat": str(1 - seat)}
        )
        assert response.status_code == 200
        assert_view(response.json(), replay.view(seat))
    before = api.everything(created)
    view = api.view(created.id, first)
    assert view["current_player"] == 0
    # Seat 1 tries seat 0's move: not its turn, whatever the action.
    for action in (view["legal"][0]["id"], view["legal"][0]["text"]):
        body = {"token": second, "action": action, "move_number": view["move_number"]}
        assert "turn" in assert_refusal(api.move(created.id, body), 409)["error"]
    assert api.everything(created) == before
    # Seat 0 moves; now seat 0 cannot move seat 1's turn.
    choice = view["legal"][0]
    after = api.play(created.id, first, choice["id"], view["move_number"])
    replay.play(choice["id"])
    assert after["current_player"] == 1
    before = api.everything(created)
    their = api.view(created.id, second)
    body = {"token": first, "action": their["legal"][0]["id"], "move_number": after["move_number"]}
    assert "turn" in assert_refusal(api.move(created.id, body), 409)["error"]
    assert api.everything(created) == before
    assert_view(api.view(created.id, second), replay.view(1))


def _bad_tokens(other: Created) -> list[str]:
    """Tokens that open no seat of a game: another game's, made-up ones of every shape."""
    return [
        other.token(0),
        other.token(1),
        "A" * 22,
        "x",
        "",
        "t" * 65,
        "é" * 22,
        other.token(0)[:-1],
        other.token(0).upper() if other.token(0).upper() != other.token(0) else "B" * 22,
    ]


def test_a_token_opens_nothing_of_another_game(api: Api, client: TestClient) -> None:
    game = api.create("tactiki", ["human", "human"], seed=1)
    other = api.create("tactiki", ["human", "human"], seed=1)
    before = api.everything(game)
    view = api.view(game.id, game.token(0))
    for token in _bad_tokens(other):
        assert_refusal(client.get(f"/api/games/{game.id}", params={"token": token}), 403)
        assert_refusal(client.get(f"/api/games/{game.id}/log", params={"token": token}), 403)
        body = {"token": token, "action": view["legal"][0]["id"]}
        assert_refusal(api.move(game.id, {**body, "move_number": view["move_number"]}), 403)
        page = client.get(f"/play/{game.id}", params={"token": token})
        assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
        assert refused_socket(client, f"/ws/games/{game.id}?token={token}") == 1008
    # A token that is not a string, in a move's body.
    for strange in (7, None, ["x"], {"t": 1}, True):
        body = {"token": strange, "action": view["legal"][0]["id"]}
        assert_refusal(api.move(game.id, {**body, "move_number": view["move_number"]}), 403)
    # An unknown game answers 404 to a good token of another game; its socket closes.
    assert_refusal(client.get("/api/games/nosuchgame", params={"token": game.token(0)}), 404)
    assert refused_socket(client, f"/ws/games/nosuchgame?token={game.token(0)}") == 1008
    assert api.everything(game) == before
    # The other game's own tokens still open its seats, and only them.
    assert api.view(other.id, other.token(1))["seat"] == 1


def test_the_spectator_sees_the_public_observation_and_cannot_move(
    api: Api, client: TestClient
) -> None:
    created = api.create("tiki_topple", ["human", "human"], seed=9)
    replay = Replay("tiki_topple", {}, 9)
    view = api.view(created.id)
    assert view["seat"] is None and view["legal"] == []
    assert_view(view, replay.view(None))
    assert api.log(created.id)["log"] == replay.log(None)
    before = api.everything(created)
    seat_view = api.view(created.id, created.token(0))
    choice = seat_view["legal"][0]
    # No token: not a move (403), over HTTP and over the spectator's socket.
    body = {"action": choice["id"], "move_number": seat_view["move_number"]}
    assert_refusal(api.move(created.id, body), 403)
    with client.websocket_connect(f"/ws/games/{created.id}") as socket:
        assert receive(socket) == view
        socket.send_json(body)
        refusal = receive(socket)
        assert set(refusal) == {"error"} and "spectator" in refusal["error"]
    assert api.everything(created) == before
    # The seat's page needs a token; the spectator's page does not.
    page = client.get(f"/play/{created.id}")
    assert page.status_code == 403 and "text/html" in page.headers["content-type"]
    assert client.get(f"/watch/{created.id}").status_code == 200
    assert client.get(f"/play/{created.id}", params={"token": created.token(0)}).status_code == 200
    # The pages carry no view: the secret card is not in the seat's page.
    secret_line = next(
        line for line in seat_view["text"].splitlines() if line.startswith("Your secret")
    )
    for path in (f"/play/{created.id}?token={created.token(0)}", f"/watch/{created.id}"):
        html = client.get(path).text
        assert secret_line not in html and str(seat_view["observation"]["secret"]) not in html


def test_views_are_the_same_for_every_watcher_and_change_only_with_the_game(
    api: Api, client: TestClient
) -> None:
    """Two sockets of one seat get the same pushes; a refused move pushes nothing (the next
    message after it is the next accepted move's view)."""
    created = api.create("tactiki", ["human", "human"], seed=2)
    url = f"/ws/games/{created.id}?token={created.token(0)}"
    with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
        first = receive(one)
        assert receive(two) == first
        stale = {"token": created.token(0), "action": first["legal"][0]["id"], "move_number": 5}
        assert_refusal(api.move(created.id, stale), 409)
        legal = first["legal"][0]["id"]
        after = api.play(created.id, created.token(0), legal, first["move_number"])
        assert receive(one) == after == receive(two)
        assert after["move_number"] == first["move_number"] + 1

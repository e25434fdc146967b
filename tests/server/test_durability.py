"""A server killed with SIGKILL and started again on the same ``--db`` resumes every game where
its players last saw it, bots included; the database is one server's, and a bad ``--db`` is one
line and exit status 2.

These tests run the real command (``python -m tikigames.cli serve``) in a subprocess, on a
free port, and talk to it over HTTP. Each server's processes (its bots' workers too) are
recorded while it runs, and whatever of them is left is ended, by its id, when the test ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

import httpx

from tikigames.server import Match, Store

#: Seconds a server has to start answering (a loaded CI machine imports slowly).
START_TIMEOUT = 60.0
#: Seconds a bot has to answer.
BOT_TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="SIGKILL and /proc: Linux"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _command(db: Path | str, port: int) -> list[str]:
    return [sys.executable, "-m", "tikigames.cli", "serve", "--db", str(db), "--port", str(port)]


def _descendants(pid: int) -> set[int]:
    """The processes ``pid`` started (its bots' workers, their resource tracker), and theirs."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{parent}/task"):
                with contextlib.suppress(OSError):
                    children = Path(f"/proc/{parent}/task/{task}/children").read_text()
                    for child in map(int, children.split()):
                        if child not in found:
                            found.add(child)
                            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class Served:
    """One ``tikigames serve`` subprocess and what it started."""

    def __init__(self, db: Path, logs: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.stderr = logs / f"serve-{self.port}.err"
        with open(self.stderr, "wb") as err:
            self.process = subprocess.Popen(
                _command(db, self.port), stdout=subprocess.DEVNULL, stderr=err
            )
        self.children: set[int] = set()

    def ready(self) -> httpx.Client:
        """A client of the server, once it answers."""
        deadline = time.monotonic() + START_TIMEOUT
        with httpx.Client(base_url=self.url, timeout=30.0) as probe:
            while True:
                if self.process.poll() is not None:
                    raise AssertionError(f"the server exited: {self.stderr.read_text()[-2000:]}")
                with contextlib.suppress(httpx.TransportError):
                    if probe.get("/api/catalog").status_code == 200:
                        return httpx.Client(base_url=self.url, timeout=30.0)
                if time.monotonic() > deadline:
                    raise AssertionError(f"the server did not answer within {START_TIMEOUT} s")
                time.sleep(0.05)

    def note_children(self) -> set[int]:
        """Record the server's processes now (a killed server's workers are orphans)."""
        self.children |= _descendants(self.process.pid)
        return set(self.children)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        self.note_children()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def end(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and end what it started, by id: a server
        stopped so has its workers a few seconds to go; a killed one's are ended at once."""
        if self.process.poll() is None:
            self.note_children()
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
            deadline = time.monotonic() + 5.0
            while any(_alive(pid) for pid in self.children) and time.monotonic() < deadline:
                time.sleep(0.1)
        for pid in self.children:
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[[Path], Served]]:
    """Start ``tikigames serve`` on a database; every server started is ended afterwards."""
    started: list[Served] = []

    def start(db: Path) -> Served:
        served = Served(db, tmp_path)
        started.append(served)
        return served

    yield start
    for served in started:
        served.end()


# ----------------------------------------------------------------- helpers over HTTP


def _create(http: httpx.Client, game: str, seats: list[Any], seed: int) -> dict[str, Any]:
    response = http.post("/api/games", json={"game": game, "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _token(created: dict[str, Any], seat: int) -> str:
    token: str = created["seats"][seat]["token"]
    return token


def _view(http: httpx.Client, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = http.get(f"/api/games/{game_id}", params={} if token is None else {"token": token})
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def _seen(http: httpx.Client, game_id: str, tokens: list[str | None]) -> list[Any]:
    """Every given seat's view and log: what must survive the kill."""
    return [
        (
            _view(http, game_id, token),
            http.get(
                f"/api/games/{game_id}/log", params={} if token is None else {"token": token}
            ).json(),
        )
        for token in tokens
    ]


def _play(http: httpx.Client, game_id: str, token: str, action: int, number: int) -> Any:
    body = {"token": token, "action": action, "move_number": number}
    response = http.post(f"/api/games/{game_id}/moves", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def _wait(
    http: httpx.Client, game_id: str, token: str, ready: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    deadline = time.monotonic() + BOT_TIMEOUT
    while True:
        view = _view(http, game_id, token)
        if ready(view):
            return view
        assert time.monotonic() < deadline, f"game {game_id}: the bot did not answer"
        time.sleep(0.05)


def _my_turn(view: dict[str, Any]) -> bool:
    return bool(view["terminal"] or view["current_player"] == view["seat"])


def _until_the_bot_answers(http: httpx.Client, game_id: str, token: str) -> None:
    """Play the person's moves (a TacTiki turn is two) until the bot has answered one."""
    for _ in range(4):
        view = _view(http, game_id, token)
        after = _play(http, game_id, token, view["legal"][0]["id"], view["move_number"])
        assert after["move_number"] > view["move_number"]
        if _wait(http, game_id, token, _my_turn)["move_number"] > after["move_number"]:
            return
    raise AssertionError(f"game {game_id}: the bot never answered")


# ----------------------------------------------------------------- the tests


def test_a_killed_server_resumes_every_game(
    serve: Callable[[Path], Served], tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite"
    first = serve(db)
    chooser = random.Random(1)
    with first.ready() as http:
        # TacTiki: a person against ISMCTS, played until the bot has answered a few times.
        bot = {"kind": "ismcts", "settings": {"iterations": 50}}
        tactiki = _create(http, "tactiki", ["human", bot], seed=5)
        tactiki_token = _token(tactiki, 0)
        while True:
            view = _wait(http, tactiki["id"], tactiki_token, _my_turn)
            if view["move_number"] >= 24 or view["terminal"]:
                break
            choice = chooser.choice(view["legal"])
            _play(http, tactiki["id"], tactiki_token, choice["id"], view["move_number"])
        assert view["move_number"] >= 24 and not view["terminal"]
        # Tiki Topple: two people.
        topple = _create(http, "tiki_topple", ["human", "human"], seed=7)
        topple_tokens = [_token(topple, 0), _token(topple, 1)]
        for _ in range(6):
            view = _view(http, topple["id"])
            mover = topple_tokens[view["current_player"]]
            choice = chooser.choice(_view(http, topple["id"], mover)["legal"])
            _play(http, topple["id"], mover, choice["id"], view["move_number"])
        # Tiki Topple against a bot that thinks 3 s: killed right after the person's move.
        slow = {"kind": "ismcts", "settings": {"seconds": 3.0}}
        thinking = _create(http, "tiki_topple", ["human", slow], seed=9)
        thinking_token = _token(thinking, 0)
        games: dict[str, list[str | None]] = {
            tactiki["id"]: [tactiki_token, None],
            topple["id"]: [*topple_tokens, None],
            thinking["id"]: [thinking_token, None],
        }
        view = _view(http, thinking["id"], thinking_token)
        _play(http, thinking["id"], thinking_token, view["legal"][0]["id"], view["move_number"])
        seen = {game_id: _seen(http, game_id, tokens) for game_id, tokens in games.items()}
        first.kill()
    assert seen[thinking["id"]][0][0]["current_player"] == 1  # the bot was thinking
    assert first.children, "the server started no worker for its bots"

    # What the file holds is what the players were last shown: every view, rebuilt from it.
    with Store(db) as store:
        rows = {row.id: row for row in store.rows()}
    assert set(rows) == set(games)
    for game_id, tokens in games.items():
        row = rows[game_id]
        match = Match.restore(row.id, row.seats, row.seed, row.state, row.rng)
        for token, (view, log) in zip(tokens, seen[game_id], strict=True):
            seat = match.seat_of(token)
            assert json.loads(json.dumps(match.view(seat))) == view
            assert match.log(seat) == log["log"]

    second = serve(db)
    with second.ready() as http:
        for game_id in (tactiki["id"], topple["id"]):
            assert _seen(http, game_id, games[game_id]) == seen[game_id]
        # The bot that was thinking thinks again: first the game as it was left (or, on a
        # slow machine, already answered), then its answer.
        before = seen[thinking["id"]][0][0]
        now = _view(http, thinking["id"], thinking_token)
        history = before["observation"]["history"]
        assert now == before or (
            now["move_number"] > before["move_number"]
            and now["observation"]["history"][: len(history)] == history
        )
        answered = _wait(http, thinking["id"], thinking_token, _my_turn)
        assert answered["move_number"] > before["move_number"]
        assert answered["observation"]["history"][: len(history)] == history
        # Play goes on: a person's move is accepted, and the bots answer.
        for game_id, token in ((tactiki["id"], tactiki_token), (thinking["id"], thinking_token)):
            _until_the_bot_answers(http, game_id, token)
        view = _view(http, topple["id"])
        mover = topple_tokens[view["current_player"]]
        legal = _view(http, topple["id"], mover)["legal"]
        assert _play(http, topple["id"], mover, legal[0]["id"], view["move_number"])
        # The tokens are the same seats' after the restart, and no other token opens one.
        assert _view(http, topple["id"], topple_tokens[1])["seat"] == 1
        bad = http.get(f"/api/games/{topple['id']}", params={"token": tactiki_token})
        assert bad.status_code == 403 and set(bad.json()) == {"error"}
        second.note_children()


def test_a_second_server_on_the_same_database_is_refused(
    serve: Callable[[Path], Served], tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite"
    first = serve(db)
    with first.ready() as http:
        created = _create(http, "paiko", ["human", "human"], seed=1)
        refused = subprocess.run(
            _command(db, _free_port()), capture_output=True, text=True, timeout=120
        )
        assert refused.returncode == 2, refused.stderr
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tikigames:"), refused.stderr
        assert str(db) in lines[0] and "in use" in lines[0]
        # The first server goes on, its game untouched.
        token = _token(created, 0)
        view = _view(http, created["id"], token)
        assert _play(http, created["id"], token, view["legal"][0]["id"], view["move_number"])


def test_a_bad_database_path_is_one_line_and_status_2(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_bytes(b"these are not games\n")
    target = tmp_path / "target.sqlite"
    target.write_bytes(b"")
    link = tmp_path / "link.sqlite"
    link.symlink_to(target)
    folder = tmp_path / "folder"
    folder.mkdir()
    cases = {
        "missing folder": tmp_path / "missing" / "games.sqlite",
        "symbolic link": link,
        "not SQLite": text,
        "a folder": folder,
    }
    before = sorted(os.listdir(tmp_path))
    running = {
        case: subprocess.Popen(
            _command(path, _free_port()),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for case, path in cases.items()
    }
    for case, process in running.items():
        out, err = process.communicate(timeout=120)
        assert process.returncode == 2, (case, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tikigames: "), (case, err)
        assert str(cases[case]) in lines[0] and "Traceback" not in err, (case, err)
        assert out == ""
    # Nothing was written: the text file, the link's target, no lock or journal beside them.
    assert text.read_bytes() == b"these are not games\n"
    assert target.read_bytes() == b"" and link.is_symlink()
    assert sorted(os.listdir(tmp_path)) == before
    assert os.listdir(folder) == []


def test_a_killed_servers_workers_do_not_outlive_it(
    serve: Callable[[Path], Served], tmp_path: Path
) -> None:
    """A worker waits on its server's queue: orphaned by a SIGKILL, it would wait forever (and
    its resource tracker with it), one more idle process per crash."""
    served = serve(tmp_path / "games.sqlite")
    with served.ready() as http:
        created = _create(http, "tiki_topple", ["human", "random"], seed=2)
        token = _token(created, 0)
        view = _view(http, created["id"], token)
        _play(http, created["id"], token, view["legal"][0]["id"], view["move_number"])
        _wait(http, created["id"], token, _my_turn)
        workers = served.note_children()
        assert workers
        served.kill()
    deadline = time.monotonic() + 3.0
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]

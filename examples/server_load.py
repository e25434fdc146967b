"""Load the game server on loopback: bot games, spectators, polling clients and people's moves.

A benchmark, not a test (it fails only when a request fails). It starts ``tikigames serve`` in
a process of its own, on a free port and a new SQLite file (or uses the server at ``--url``),
and for ``--seconds`` keeps going at once:

* ``--games`` games of bots (all ``random``; every fourth has an ``ismcts`` seat of 30
  iterations), each followed to its end by a spectator on the WebSocket, then replaced by a new
  one;
* ``--humans`` games of people: a thread plays every seat over HTTP — it reads the seat's view,
  then posts a random legal move — so each move is a committed write;
* ``--clients`` polling clients, each reading a view of a random live game (a spectator's, or a
  seat's) every ``--interval`` seconds (0: as fast as the server answers).

It prints the games finished and actions applied per second, and the latencies (p50, p95,
p99) of each kind of request. The defaults are small, for CI's run of every example (about
15 s); docs/server.rst gives figures at realistic sizes and the command that measured them.

Run: python examples/server_load.py [--games N] [--clients M] [--humans K] [--seconds S]
        [--game NAME] [--interval SECONDS] [--url http://HOST:PORT]
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import tikigames

#: What ``tikigames serve`` needs beyond the package (the ``server`` extra).
SERVER_EXTRA = ("starlette", "uvicorn", "websockets")
#: The settings of the search bot in every fourth game of bots: a few milliseconds a move.
ISMCTS_SEAT = {"kind": "ismcts", "settings": {"iterations": 30}}


@dataclass
class Results:
    """What the threads measured, under one lock: latencies in seconds, by kind of request."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    #: Games finished and actions applied (chance outcomes included), by kind of game.
    games_finished: dict[str, int] = field(default_factory=lambda: {"bots": 0, "people": 0})
    actions: dict[str, int] = field(default_factory=lambda: {"bots": 0, "people": 0})
    errors: list[str] = field(default_factory=list)
    #: The games being played: id → the tokens of their seats (none for a game of bots).
    live: dict[str, list[str]] = field(default_factory=dict)

    def timed(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies.setdefault(kind, []).append(seconds)

    def finished(self, kind: str, actions: int, ended: bool) -> None:
        with self.lock:
            self.games_finished[kind] += ended
            self.actions[kind] += actions

    def failed(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Client:
    """One keep-alive HTTP connection, as a browser tab would hold: JSON in, JSON out."""

    def __init__(self, host: str, port: int) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=60)

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any, float]:
        """``(status, JSON body, seconds)``; a connection the server closed is opened again."""
        data = None if body is None else json.dumps(body).encode()
        headers = {} if data is None else {"Content-Type": "application/json"}
        for attempt in (1, 2):
            start = time.perf_counter()
            try:
                self.connection.request(method, path, data, headers)
                response = self.connection.getresponse()
                payload = response.read()
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                if attempt == 2:
                    raise
                continue
            return response.status, json.loads(payload), time.perf_counter() - start
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.connection.close()


def new_game(client: Client, results: Results, game: str, seats: list[object]) -> Any:
    status, body, seconds = client.call("POST", "/api/games", {"game": game, "seats": seats})
    if status != 201:
        raise RuntimeError(f"POST /api/games: {status} {body}")
    results.timed("create a game (POST)", seconds)
    return body


def bot_games(url: str, game: str, seats: list[object], results: Results, until: float) -> None:
    """Games of bots, one after another, each watched to its end on the WebSocket."""
    from websockets.sync.client import connect  # optional: tikigames[server]

    parts = urllib.parse.urlsplit(url)
    client = Client(parts.hostname or "127.0.0.1", parts.port or 80)
    while time.monotonic() < until:
        created = new_game(client, results, game, seats)
        with results.lock:
            results.live[created["id"]] = []
        moves, ended = 0, False
        with connect(f"ws://{parts.netloc}/ws/games/{created['id']}") as socket_:
            while not ended and time.monotonic() < until:
                try:
                    view = json.loads(socket_.recv(timeout=max(0.01, until - time.monotonic())))
                except TimeoutError:
                    break
                moves, ended = view["move_number"], view["terminal"]
        with results.lock:
            del results.live[created["id"]]
        results.finished("bots", moves, ended)
    client.close()


def human_games(
    client: Client, game: str, seats: int, results: Results, until: float, seed: int
) -> None:
    """Games of people: each seat reads its view, then posts a random legal move."""
    rng = random.Random(seed)
    while time.monotonic() < until:
        created = new_game(client, results, game, ["human"] * seats)
        game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        with results.lock:
            results.live[game_id] = tokens
        status, view, _ = client.call("GET", f"/api/games/{game_id}?token={tokens[0]}")
        while status == 200 and not view["terminal"] and time.monotonic() < until:
            if view["seat"] != view["current_player"]:
                path = f"/api/games/{game_id}?token={tokens[view['current_player']]}"
                status, view, seconds = client.call("GET", path)
                results.timed("a seat's view after a move (GET)", seconds)
                continue
            move = {
                "token": tokens[view["seat"]],
                "action": rng.choice(view["legal"])["id"],
                "move_number": view["move_number"],
            }
            status, view, seconds = client.call("POST", f"/api/games/{game_id}/moves", move)
            results.timed("a move (POST)", seconds)
        if status != 200:
            results.failed(f"game {game_id}: {status} {view}")
            break
        with results.lock:
            del results.live[game_id]
        results.finished("people", view["move_number"], view["terminal"])


def poller(client: Client, results: Results, interval: float, until: float, seed: int) -> None:
    """A page that polls: a view of a random live game (a seat's or a spectator's)."""
    rng = random.Random(seed)
    while time.monotonic() < until:
        with results.lock:
            games = list(results.live.items())
        if games:
            game_id, tokens = rng.choice(games)
            token = rng.choice([None, *tokens])
            query = "" if token is None else f"?token={token}"
            status, body, seconds = client.call("GET", f"/api/games/{game_id}{query}")
            if status == 200:
                results.timed("a polled view (GET)", seconds)
            else:
                results.failed(f"GET {game_id}: {status} {body}")
        time.sleep(interval if games else 0.01)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(folder: str) -> Iterator[str]:
    """``tikigames serve`` on a free loopback port and a new database; yields its URL."""
    port = free_port()
    db = os.path.join(folder, "load.sqlite")
    command = [sys.executable, "-m", "tikigames.cli", "serve", "--port", str(port), "--db", db]
    with open(os.path.join(folder, "server.log"), "w+b") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                probe = Client("127.0.0.1", port)
                try:
                    if probe.call("GET", "/api/catalog")[0] == 200:
                        break
                except OSError:
                    pass
                finally:
                    probe.close()
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"the server did not start:\n{log.read().decode()}")
                time.sleep(0.1)
            yield url
        finally:
            server.send_signal(signal.SIGINT)  # uvicorn's graceful stop
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def guarded(name: str, results: Results, work: Callable[[], None]) -> threading.Thread:
    """A thread running ``work``; what it raises is a failure of the run, not a lost thread."""

    def body() -> None:
        try:
            work()
        except Exception as error:
            results.failed(f"{name}: {type(error).__name__}: {error}")

    return threading.Thread(target=body, name=name, daemon=True)


def run(url: str, args: argparse.Namespace) -> Results:
    """Every thread, for ``args.seconds``; the results once the last has stopped."""
    results = Results()
    seats = tikigames.load(args.game).num_players
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    until = time.monotonic() + args.seconds
    threads = []
    for slot in range(args.games):
        kinds: list[object] = ["random"] * seats
        if slot % 4 == 3:
            kinds[0] = ISMCTS_SEAT
        work = partial(bot_games, url, args.game, kinds, results, until)
        threads.append(guarded(f"bot games {slot}", results, work))
    for slot in range(args.humans):
        work = partial(human_games, Client(host, port), args.game, seats, results, until, slot)
        threads.append(guarded(f"human games {slot}", results, work))
    for slot in range(args.clients):
        work = partial(poller, Client(host, port), results, args.interval, until, slot)
        threads.append(guarded(f"poller {slot}", results, work))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def percentiles(samples: list[float]) -> str:
    """p50, p95 and p99 of ``samples`` (seconds), in milliseconds."""
    if len(samples) < 2:
        return "(too few samples)"
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return "  ".join(f"{cuts[p - 1] * 1000:7.1f}" for p in (50, 95, 99))


def cpu_seconds(who: int) -> float:
    """The processor time (user and system) of ``resource.RUSAGE_SELF`` or ``RUSAGE_CHILDREN``
    (the server and its bots' workers, once it has stopped)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def report(results: Results, args: argparse.Namespace) -> None:
    seconds = args.seconds
    print(
        f"{args.game}: {args.games} games of bots and {args.humans} of people at a time, "
        f"{args.clients} polling clients (every {args.interval:g} s), {seconds:g} s"
    )
    print(f"{'games of':36s} {'finished':>7s} {'per s':>7s}   {'actions':>7s}  {'per s':>7s}")
    for kind in ("bots", "people"):
        games, actions = results.games_finished[kind], results.actions[kind]
        print(
            f"{kind:36s} {games:7d} {games / seconds:7.2f}   {actions:7d}  {actions / seconds:7.1f}"
        )
    print()
    print(f"{'request':36s} {'count':>7s} {'per s':>7s}   {'p50':>7s}  {'p95':>7s}  {'p99':>7s} ms")
    for kind, samples in sorted(results.latencies.items()):
        rate = len(samples) / seconds
        print(f"{kind:36s} {len(samples):7d} {rate:7.1f}   {percentiles(samples)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games of bots at a time (4)")
    parser.add_argument("--humans", type=int, default=2, help="games of people at a time (2)")
    parser.add_argument("--clients", type=int, default=4, help="polling clients (4)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long (10)")
    parser.add_argument("--interval", type=float, default=0.1,
                        help="a polling client's pause between two views, s (0.1)")  # fmt: skip
    parser.add_argument("--game", default="tiki_topple", choices=list(tikigames.GAMES))
    parser.add_argument("--url", help="load this server instead of starting one")
    args = parser.parse_args()
    missing = [name for name in SERVER_EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        print(f"skipped: the server extra is not installed ({', '.join(missing)} missing): "
              "pip install 'tikigames[server]'")  # fmt: skip
        return 0
    if args.url:
        results = run(args.url.rstrip("/"), args)
    else:
        with tempfile.TemporaryDirectory() as folder, serving(folder) as url:
            results = run(url, args)
    report(results, args)
    # The clients share the machine with the server: say how the processors were shared.
    clients = cpu_seconds(resource.RUSAGE_SELF)
    server = (
        ""
        if args.url
        else f"the server and its bots {cpu_seconds(resource.RUSAGE_CHILDREN):.1f} s, "
    )
    print(f"\nprocessor time: {server}these clients {clients:.1f} s ({os.cpu_count()} processors)")
    for error in results.errors[:10]:
        print("failed:", error, file=sys.stderr)
    return 1 if results.errors else 0


if __name__ == "__main__":
    sys.exit(main())

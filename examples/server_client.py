"""A client of the game server in a few lines of the standard library: HTTP and JSON.

It asks the server for a game of Tiki Topple, a person against the ``random`` bot, then plays
the person's seat with the first legal move each turn until the game ends, and prints the
game's log as the seat saw it. The server decides everything: the client only reads its
seat's view (``GET /api/games/ID?token=…``) and posts moves (``POST /api/games/ID/moves``),
and never sees the bot's secret card before the round's end shows it. A page would take the
views from the WebSocket (``/ws/games/ID?token=…``) instead of asking again.

Without ``--url`` it serves a game server of its own, in this process, on a free port and a
new database (that needs the server extra: ``pip install 'tikigames[server]'``).

Run: python examples/server_client.py [--url http://127.0.0.1:8000] [--seed 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def call(url: str, body: object = None) -> Any:
    """GET ``url`` (or POST ``body`` as JSON) and return the JSON answer; a refusal stops the
    client with the server's ``{"error": …}``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as refusal:
        raise SystemExit(f"{refusal.code}: {json.load(refusal)}") from None


def play(server: str, seed: int) -> None:
    """One game: the person's seat (0) plays its first legal move each turn."""
    # A seed makes the game reproducible (and its deal known to whoever chose it).
    new = {"game": "tiki_topple", "seats": ["human", "random"], "seed": seed}
    created = call(f"{server}/api/games", new)
    game, token = created["id"], created["seats"][0]["token"]
    print(f"game {game}")
    print(f"  seat 0's page:     {server}{created['seats'][0]['url']}")
    print(f"  a spectator's:     {server}{created['watch']}")
    while True:
        view = call(f"{server}/api/games/{game}?token={token}")
        if view["terminal"]:
            break
        if view["current_player"] != view["seat"]:
            time.sleep(0.05)  # the bot is thinking, in a worker process of the server
            continue
        move = view["legal"][0]
        print(f"move {view['move_number']}: {move['text']}")
        # The move number says which position the move was chosen in: had the game moved on
        # meanwhile, the server would refuse it (409) rather than play it somewhere else.
        answer = {"token": token, "action": move["id"], "move_number": view["move_number"]}
        call(f"{server}/api/games/{game}/moves", answer)
    log = call(f"{server}/api/games/{game}/log?token={token}")
    print("\nThe game as seat 0 saw it:")
    print("\n".join(f"  {number:3d}. {words}" for number, words in enumerate(log["log"], 1)))
    print(f"\nreturns: {view['returns']}")


@contextmanager
def local_server() -> Iterator[str]:
    """A game server in this process (uvicorn in a thread), on a free port and a new
    database; yields its URL and stops it afterwards."""
    import uvicorn  # optional: tikigames[server]

    from tikigames.server import create_app  # optional: needs Starlette (tikigames[server])

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(os.path.join(folder, "games.sqlite"))
        # No access log: a seat's token is in its URLs.
        config = uvicorn.Config(app, port=0, log_level="warning", access_log=False)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run)
        thread.start()
        while not server.started:
            if not thread.is_alive():
                raise SystemExit("the server did not start")
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: serve one here)")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed (7)")
    args = parser.parse_args()
    if args.url:
        play(args.url.rstrip("/"), args.seed)
    elif not all(importlib.util.find_spec(name) for name in ("starlette", "uvicorn")):
        print("skipped: serving a game needs the server extra: pip install 'tikigames[server]'")
    else:
        with local_server() as url:
            play(url, args.seed)


if __name__ == "__main__":
    main()

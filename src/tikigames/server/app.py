"""The web application: the JSON API, the WebSocket, the pages, and the bots' worker pool.

:func:`create_app` builds a Starlette application around one SQLite file. The process that
serves it owns every game in that file (:class:`~tikigames.server.store.Store` locks it):
moves are applied in the event loop — each is checked and applied in microseconds — and
committed before they are acknowledged; bots think in a pool of worker processes, never in
the event loop, so a slow search never delays another game's page.

Everything a client sends is checked before it is used (:func:`read_json` caps the body,
refuses what is not a JSON object, and :class:`~tikigames.server.matches.Match` names each bad
field); everything sent back is a :meth:`~tikigames.server.matches.Match.view` — a seat's
observation — or ``{"error": …}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import tikigames
from tikigames.core.errors import TikiGamesError, shown
from tikigames.runner import die_with_parent
from tikigames.server import pages
from tikigames.server.matches import SEAT_KINDS, Match, Refusal, think
from tikigames.server.store import Store

__all__ = [
    "MAX_BODY",
    "MAX_GAMES",
    "MAX_MESSAGE",
    "SECURITY_HEADERS",
    "SEND_TIMEOUT",
    "Server",
    "create_app",
    "read_json",
]

log = logging.getLogger("tikigames.server")

#: The largest request body accepted, in bytes (a larger one → 413).
MAX_BODY: Final = 1 << 20
#: The largest WebSocket message accepted, in characters (a larger one closes the socket).
MAX_MESSAGE: Final = 4096
#: Seconds a watcher has to take a view before it is dropped (a stalled client must not hold
#: up the others).
SEND_TIMEOUT: Final = 5.0
#: The most games one server holds; a new one beyond is refused (503) until restarted with
#: another database.
MAX_GAMES: Final = 10_000
#: A WebSocket may send this many messages at once, then one per :data:`_REFILL` seconds.
_BURST: Final = 20
_REFILL: Final = 0.2
#: The headers of every response: no script but ours, no framing, no referrer (tokens are in
#: the seats' URLs), no sniffing.
SECURITY_HEADERS: Final[Mapping[str, str]] = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def _error(status: int, message: str, reason: str | None = None) -> JSONResponse:
    return _json(Refusal(status, message, reason).body(), status)


def _json(body: object, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status)


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request's body as a JSON object, read at most ``limit`` bytes.

    Raises:
        Refusal: 413 for a longer body, 400 for one that is not UTF-8 JSON or not an object.
    """
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Refusal(413, f"the request body is over {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refusal(413, f"the request body is over {limit} bytes")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refusal(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise Refusal(400, f"the request body must be a JSON object, not {shown(data)}")
    return data


@dataclass(eq=False)
class _Watcher:
    """One open WebSocket: its seat, and its allowance of messages (a token bucket)."""

    socket: WebSocket
    seat: int | None
    allowance: float = _BURST
    checked: float = field(default_factory=time.monotonic)

    def may_send(self) -> bool:
        now = time.monotonic()
        self.allowance = min(_BURST, self.allowance + (now - self.checked) / _REFILL)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Server:
    """The games of one database, in memory, and what changes them.

    Every change of a match goes through :meth:`_commit`: it is stored (and on the disk)
    before the change is acknowledged, and forgotten if the store fails. Each match has a lock,
    so a person's move and its bot's answer never interleave.

    The commit runs in the event loop, on purpose: while it waits for the disk nothing else
    runs, so no client — the mover, an opponent, a spectator — can see a position that is not
    yet on the disk. (A commit in another thread would let a view of the uncommitted move out,
    and a crash would then take back what a player saw.) It costs one ``fsync`` a move.
    """

    def __init__(self, db_path: str | os.PathLike[str], executor: Executor | None) -> None:
        self.db_path = db_path
        self.matches: dict[str, Match] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.watchers: dict[str, set[_Watcher]] = {}
        self.bots: dict[str, asyncio.Task[None]] = {}
        self._given_executor = executor
        self.executor: Executor | None = executor
        # Opened now, so that a bad path or a database in use is said at once.
        self.store: Store | None = Store(db_path)

    # ----------------------------------------------------------------- life

    async def start(self) -> None:
        """Open the database, load every game in it, and set the bots that are to move
        thinking. A stored game that no longer loads is logged and left in the file."""
        if self.store is None:  # started again after a stop
            self.store = Store(self.db_path)
        for row in self.store.rows():
            try:
                match = Match.restore(row.id, row.seats, row.seed, row.state, row.rng)
            except TikiGamesError as error:
                log.warning("game %s is not resumed: %s", row.id, error)
                continue
            if match.move_number != row.move_number:
                # The record changed the loop's draws (a chance node stored unresolved): store
                # where the game now stands.
                self.store.update(match.id, match.record(), match.move_number)
            self._add(match)
        if self.executor is None:
            self.executor = _process_pool()
        for match in self.matches.values():
            self._wake_bot(match)
        log.info("serving %d games from %s", len(self.matches), self.db_path)

    async def stop(self) -> None:
        """Stop the bots' searches and close the database (what was stored stays)."""
        for task in list(self.bots.values()):
            task.cancel()
        for task in list(self.bots.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.executor is not None and self._given_executor is None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        if self.store is not None:
            self.store.close()
            self.store = None

    def _add(self, match: Match) -> None:
        self.matches[match.id] = match
        self.locks[match.id] = asyncio.Lock()
        self.watchers[match.id] = set()

    def match(self, match_id: str) -> Match:
        """The match ``match_id``.

        Raises:
            Refusal: (404) there is no such game.
        """
        match = self.matches.get(match_id)
        if match is None:
            raise Refusal(404, f"there is no game {shown(match_id)}")
        return match

    # ----------------------------------------------------------------- changes

    def _commit(self, match: Match, before: tuple[int, Any]) -> None:
        """Store ``match`` as it now stands; if the store fails, undo back to ``before``."""
        assert self.store is not None
        try:
            self.store.update(match.id, match.record(), match.move_number)
        except Exception:
            match.rollback(before)
            log.exception("game %s: a move could not be stored and was undone", match.id)
            raise Refusal(503, "the move could not be stored; it was not played") from None

    async def create(self, request: object) -> tuple[Match, list[str | None]]:
        """A new match, stored, its bots set thinking."""
        assert self.store is not None
        if len(self.matches) >= MAX_GAMES:
            raise Refusal(503, f"this server holds {MAX_GAMES} games, its most; try later")
        match_id = secrets.token_hex(8)
        while match_id in self.matches:
            match_id = secrets.token_hex(8)
        match, tokens = Match.create(match_id, request)
        self.store.insert(match.id, match.game.name, match.seed, match.record(), match.move_number)
        self._add(match)
        self._wake_bot(match)
        return match, tokens

    async def move(self, match: Match, seat: int | None, action: object, number: object) -> None:
        """A person's move: checked, applied, stored, told to every watcher."""
        async with self.locks[match.id]:
            before = match.mark()
            match.move(seat, action, number)
            self._commit(match, before)
        self._wake_bot(match)
        await self.broadcast(match)

    def _wake_bot(self, match: Match) -> None:
        """Set the bot to move (if one is) thinking, in the worker pool."""
        if match.bot_to_move() is None:
            return
        task = self.bots.get(match.id)
        if task is not None and not task.done():
            return
        self.bots[match.id] = asyncio.get_running_loop().create_task(self._bots_play(match))

    async def _bots_play(self, match: Match) -> None:
        """Let the bots move until a person is to move or the game is over."""
        loop = asyncio.get_running_loop()
        while True:
            async with self.locks[match.id]:
                asked = match.bot_to_move()
                if asked is None:
                    return
                seat, bot, obs = asked
                number = match.move_number
                rng = match.mark()[1]
            assert self.executor is not None
            worker_rng = _rng_at(rng)
            try:
                action_id, after = await loop.run_in_executor(
                    self.executor, think, bot, obs, worker_rng
                )
            except asyncio.CancelledError:
                raise
            except BrokenProcessPool:
                log.error("the bots' worker pool broke (a worker died); starting a new one")
                self.executor = _process_pool()
                continue
            except Exception:
                log.exception("game %s: the bot of seat %d failed; retrying", match.id, seat)
                await asyncio.sleep(1.0)
                continue
            async with self.locks[match.id]:
                if match.move_number != number:
                    continue
                before = match.mark()
                try:
                    match.play_bot(seat, action_id, after)
                    self._commit(match, before)
                except Refusal as refusal:
                    log.error("game %s: %s", match.id, refusal.message)
                    if refusal.status != 503:
                        return
                    stored = False
                else:
                    stored = True
            if not stored:  # undone, as the store failed: think again in a moment
                await asyncio.sleep(1.0)
                continue
            await self.broadcast(match)

    async def broadcast(self, match: Match) -> None:
        """Send each watcher of ``match`` its own seat's view, all at once; a watcher that
        does not take it within :data:`SEND_TIMEOUT` seconds is closed and forgotten."""
        watchers = list(self.watchers.get(match.id, ()))
        await asyncio.gather(*(self._send_view(match, watcher) for watcher in watchers))

    async def _send_view(self, match: Match, watcher: _Watcher) -> None:
        try:
            text = match.view_text(watcher.seat)
            await asyncio.wait_for(watcher.socket.send_text(text), SEND_TIMEOUT)
        except Exception:  # a socket that went away or stalls
            self.watchers[match.id].discard(watcher)
            with contextlib.suppress(Exception):
                await watcher.socket.close(code=1001)

    # ----------------------------------------------------------------- the HTTP API

    async def post_game(self, request: Request) -> Response:
        match, tokens = await self.create(await read_json(request))
        seats = []
        for seat, token in zip(match.seats, tokens, strict=True):
            url = None if token is None else f"/play/{match.id}?token={token}"
            seats.append({"seat": seat.seat, "kind": seat.kind, "token": token, "url": url})
        body = {"id": match.id, "seats": seats, "watch": f"/watch/{match.id}"}
        return _json(body, 201)

    async def get_game(self, request: Request) -> Response:
        match = self.match(request.path_params["game_id"])
        seat = match.seat_of(request.query_params.get("token"))
        return _view_response(match, seat)

    async def get_log(self, request: Request) -> Response:
        match = self.match(request.path_params["game_id"])
        seat = match.seat_of(request.query_params.get("token"))
        return _json({"move_number": match.move_number, "log": match.log(seat)})

    async def post_move(self, request: Request) -> Response:
        data = await read_json(request)
        match = self.match(request.path_params["game_id"])
        unknown = [key for key in data if key not in ("token", "action", "move_number")]
        if unknown:
            raise Refusal(400, f"unknown field {shown(unknown[0])} (token, action, move_number)")
        seat = match.seat_of(data.get("token"))
        if seat is None:
            raise Refusal(403, "a move needs its seat's token")
        if "action" not in data:
            raise Refusal(400, "'action' is missing")
        await self.move(match, seat, data["action"], data.get("move_number"))
        return _view_response(match, seat)

    async def get_catalog(self, request: Request) -> Response:
        return _json(catalog())

    # ----------------------------------------------------------------- the WebSocket

    async def socket(self, websocket: WebSocket) -> None:
        """The live view of a seat (or a spectator): sent on connect and after every change;
        moves may be sent as ``{"action", "move_number"}``."""
        try:
            match = self.match(websocket.path_params["game_id"])
            seat = match.seat_of(websocket.query_params.get("token"))
        except Refusal:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        watcher = _Watcher(websocket, seat)
        self.watchers[match.id].add(watcher)
        try:
            await websocket.send_text(match.view_text(seat))
            while True:
                text = await websocket.receive_text()
                if len(text) > MAX_MESSAGE:
                    await websocket.close(code=1009)
                    return
                if not watcher.may_send():
                    await _send_error(websocket, Refusal(429, "too many messages; slow down"))
                    continue
                await self._socket_move(websocket, match, seat, text)
        except WebSocketDisconnect:
            pass
        except KeyError:  # a binary frame: receive_text finds no text
            await websocket.close(code=1003)
        finally:
            self.watchers[match.id].discard(watcher)

    async def _socket_move(
        self, socket: WebSocket, match: Match, seat: int | None, text: str
    ) -> None:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            await _send_error(socket, Refusal(400, "a message must be a JSON object"))
            return
        try:
            if not isinstance(data, dict):
                raise Refusal(400, f"a message must be a JSON object, not {shown(data)}")
            unknown = [key for key in data if key not in ("action", "move_number")]
            if unknown:
                raise Refusal(400, f"unknown field {shown(unknown[0])} (action, move_number)")
            if "action" not in data:
                raise Refusal(400, "'action' is missing")
            await self.move(match, seat, data["action"], data.get("move_number"))
        except Refusal as refusal:
            await _send_error(socket, refusal)

    # ----------------------------------------------------------------- the pages

    async def lobby(self, request: Request) -> Response:
        return _page(pages.lobby())

    async def play_page(self, request: Request) -> Response:
        match = self.match(request.path_params["game_id"])
        seat = match.seat_of(request.query_params.get("token"))
        if seat is None:
            raise Refusal(403, "this page needs a seat's token; /watch/ID shows the game")
        return _page(pages.play(match.game.name))

    async def watch_page(self, request: Request) -> Response:
        match = self.match(request.path_params["game_id"])
        return _page(pages.watch(match.game.name))


def _process_pool() -> ProcessPoolExecutor:
    """The bots' worker processes: one fewer than the processors (the event loop keeps one), at
    least one, at most four; started by ``spawn`` (a fork of a process running an event loop
    and threads is not safe), each dying with the server."""
    workers = max(1, min(4, (os.cpu_count() or 2) - 1))
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        # A server killed with SIGKILL takes its bots' workers with it.
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def _rng_at(state: Any) -> random.Random:
    """A ``random.Random`` at ``state``, for a bot's worker (the match's own stays put until
    the bot's move is applied)."""
    rng = random.Random()
    rng.setstate(state)
    return rng


async def _send_error(socket: WebSocket, refusal: Refusal) -> None:
    await socket.send_text(json.dumps(refusal.body()))


def _view_response(match: Match, seat: int | None) -> Response:
    """A seat's view, as the JSON text every watcher of that seat shares (serialised once a
    move)."""
    return Response(match.view_text(seat), media_type="application/json")


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status)


def catalog() -> dict[str, Any]:
    """What the lobby offers: each game with its seats and options, and the seat kinds."""
    games = []
    for name in tikigames.GAMES:
        game = tikigames.load(name)
        options = [
            {
                "name": spec.name,
                "kind": spec.kind.__name__,
                "default": game.options.get(spec.name),
                "doc": spec.doc,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
                "choices": None if spec.choices is None else list(spec.choices),
                "allow_none": spec.allow_none,
            }
            for spec in game.option_specs
        ]
        games.append({"name": name, "players": game.num_players, "options": options})
    return {"games": games, "seat_kinds": list(SEAT_KINDS)}


class _SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (static files too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, with_headers)


def _refusals(
    handler: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """``handler`` with each :class:`Refusal` answered as its JSON error (an HTML page for
    the pages)."""

    async def answer(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as refusal:
            if request.url.path.startswith("/api/"):
                return _json(refusal.body(), refusal.status)
            return _page(pages.error(refusal.status, refusal.message), refusal.status)

    return answer


async def _not_found(request: Request, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    message = error.detail if isinstance(error, HTTPException) else "internal error"
    if request.url.path.startswith("/api/"):
        return _error(status, str(message))
    return _page(pages.error(status, str(message)), status)


def create_app(db_path: str | os.PathLike[str], *, executor: Executor | None = None) -> Starlette:
    """The ASGI application serving the games stored in ``db_path`` (created if missing; the
    file is opened and locked at once, and its games loaded when the application starts).

    ``executor`` runs the bots' searches; by default a pool of worker processes (one fewer
    than the processors, at least one, at most four), shut down with the application.

    >>> import tempfile, os
    >>> app = create_app(os.path.join(tempfile.mkdtemp(), "games.sqlite"))
    >>> sorted(route.path for route in app.routes)[:3]
    ['/', '/api/catalog', '/api/games']
    >>> app.state.server.store.close()

    Raises:
        StoreError: the database cannot be used (a bad path, not a database, another server
            holds it).
    """
    server = Server(db_path, executor)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    routes = [
        Route("/", _refusals(server.lobby)),
        Route("/api/catalog", _refusals(server.get_catalog)),
        Route("/api/games", _refusals(server.post_game), methods=["POST"]),
        Route("/api/games/{game_id}", _refusals(server.get_game)),
        Route("/api/games/{game_id}/log", _refusals(server.get_log)),
        Route("/api/games/{game_id}/moves", _refusals(server.post_move), methods=["POST"]),
        Route("/play/{game_id}", _refusals(server.play_page)),
        Route("/watch/{game_id}", _refusals(server.watch_page)),
        WebSocketRoute("/ws/games/{game_id}", server.socket),
        Mount("/static", StaticFiles(directory=pages.STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(_SecurityHeaders)],
        exception_handlers={HTTPException: _not_found},
    )
    app.state.server = server
    return app

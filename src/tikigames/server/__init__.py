"""An authoritative game server: play in the browser, each seat seeing only its own view.

Install the ``server`` extra (``pip install 'tikigames[server]'``: Starlette, uvicorn,
websockets) and run ``tikigames serve``, or serve :func:`create_app` with any ASGI server.
The server holds every state; a client only ever receives its own seat's observation
(:mod:`tikigames.server.matches`), every accepted move is committed to SQLite before it is
acknowledged (:mod:`tikigames.server.store`), and bots think in worker processes
(:mod:`tikigames.server.app`). ``import tikigames`` never imports this package.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

from tikigames.server.app import create_app
from tikigames.server.matches import Match, Refusal
from tikigames.server.store import Store, StoreError

__all__ = ["Match", "Refusal", "Store", "StoreError", "create_app"]

"""The server's pages: plain HTML shells; the script in ``static/`` fills them from the API.

No text of a game is written into these pages: each page carries only its game's name (for
the title, escaped), and the script reads the views over the WebSocket and inserts every
string from the game as text (``textContent``), the picture as an image.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Final

__all__ = ["STATIC", "error", "lobby", "play", "watch"]

#: The folder of the pages' script, style sheet and templates.
STATIC: Final = Path(__file__).resolve().parent / "static"


def _shell(title: str, body: str, script: str | None = None) -> str:
    tag = f'<script src="/static/{script}" defer></script>' if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        f'<link rel="stylesheet" href="/static/style.css">{tag}</head>'
        f"<body>{body}</body></html>\n"
    )


def lobby() -> str:
    """The lobby: start a game."""
    return _shell("tikigames", '<main id="lobby"></main>', "lobby.js")


def play(game: str) -> str:
    """A seat's page of a ``game``."""
    return _shell(f"{game} — tikigames", '<main id="table" data-role="seat"></main>', "play.js")


def watch(game: str) -> str:
    """The spectator's page of a ``game``."""
    return _shell(f"{game} — tikigames", '<main id="table" data-role="watch"></main>', "play.js")


def error(status: int, message: str) -> str:
    """A page that says what went wrong (``message`` escaped)."""
    return _shell(
        f"{status} — tikigames",
        f"<main><h1>{status}</h1><p>{html.escape(message)}</p>"
        '<p><a href="/">The lobby</a></p></main>',
    )

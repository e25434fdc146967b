"""The server's pages: plain HTML shells; the scripts in ``static/`` fill them from the API.

No text of a game is written into these pages: each page carries only its game's name (for
the title and heading, escaped), and the scripts read the views over the WebSocket and insert
every string from the game as text (``textContent``), the picture as an image (an SVG drawn
as an image runs no script). The server's Content-Security-Policy allows no inline script or
style, so the pages have neither: what they do is in ``static/*.js``, how they look in
``static/style.css``, and the scripts are ES modules (``common.js`` holds what both share).

The seat's page lists the legal moves grouped as the terminal groups them: the grouping's
facts — the separators and the cap — belong to :mod:`tikigames.terminal` and are written
into the page (``data-separators``, ``data-cap``), so the script holds only the rule.

>>> SEPARATORS  # group_key("c6-b6:N") is "c6"
' *+,-:=>@~'
>>> page = play("tactiki")
>>> 'data-role="seat"' in page and 'data-cap="40"' in page and "<script>" not in page
True
>>> "data-separators" in watch("paiko") and 'id="notation"' not in watch("paiko")
True
>>> error(404, "there is no game '<x>'").count("&lt;x&gt;")
1
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Final

from tikigames import terminal

__all__ = ["SEPARATORS", "STATIC", "error", "lobby", "play", "watch"]

#: The folder of the pages' scripts and style sheet (served at ``/static/``).
STATIC: Final = Path(__file__).resolve().parent / "static"

#: The characters at which :func:`tikigames.terminal.group_key` ends an action's group, in
#: order: the terminal's :data:`~tikigames.terminal.SEPARATORS`, their one owner.
SEPARATORS: Final = "".join(sorted(terminal.SEPARATORS))


def _shell(title: str, body: str, script: str | None = None) -> str:
    tag = f'<script type="module" src="/static/{script}"></script>' if script else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        '<link rel="icon" href="data:,">'  # no icon to fetch (and no 404 for it)
        f"<title>{html.escape(title)}</title>"
        f'<link rel="stylesheet" href="/static/style.css">{tag}</head>'
        f"<body>{body}</body></html>\n"
    )


def _bar(heading: str = "") -> str:
    """The bar at the top of every page: the way home, a heading, the connection's state."""
    return (
        '<header class="bar"><a class="home" href="/">tikigames</a>'
        f'<span class="bar-title">{html.escape(heading)}</span>'
        '<span id="connection" class="connection" role="status" hidden></span></header>'
    )


#: The lobby's form, filled by ``lobby.js`` from ``/api/catalog``.
_LOBBY: Final = """
<main id="lobby" class="lobby">
<h1>Start a game</h1>
<p id="lobby-error" class="refusal" role="alert" hidden></p>
<form id="new-game" class="card" novalidate hidden>
  <div class="field"><label for="game">Game</label><select id="game" name="game"></select></div>
  <fieldset id="options" class="options"><legend>Options</legend></fieldset>
  <fieldset id="seats" class="seats"><legend>Seats</legend></fieldset>
  <div class="field"><label for="seed">Seed</label>
    <input id="seed" type="number" min="0" step="1" placeholder="random" inputmode="numeric">
    <small>the same seed draws the same chances (deals, draws) for the same moves</small></div>
  <p class="actions"><button id="start" class="primary" type="submit">Start the game</button></p>
</form>
<section id="started" class="card" hidden>
  <h2>Game <code id="game-id"></code> started</h2>
  <p>Each person plays from their own seat's link: send the others theirs.</p>
  <ul id="seat-links" class="seat-links"></ul>
  <p>Anyone may watch: <a id="watch-link"></a></p>
  <p class="actions"><a id="open-seat" class="button primary"></a>
    <button id="another" type="button">Start another</button></p>
</section>
</main>
"""


def lobby() -> str:
    """The lobby: pick a game, its options and seats, start it, and hand out the seats' links."""
    return _shell("tikigames", _bar() + _LOBBY, "lobby.js")


def _table(game: str, role: str) -> str:
    """The page of a game, for a seat (``role="seat"``: with the moves and the notation box)
    or a spectator (``"watch"``)."""
    moves = (
        '<section id="moves-panel" class="panel moves-panel" aria-labelledby="moves-title">'
        '<h2 id="moves-title">Moves <span id="move-count" class="count"></span></h2>'
        '<div id="moves" class="moves"></div>'
        '<form id="notation" class="notation" novalidate>'
        '<label for="notation-input">Notation</label>'
        '<input id="notation-input" type="text" autocomplete="off" autocapitalize="off" '
        'spellcheck="false" maxlength="200" placeholder="type a move">'
        '<button id="notation-play" class="primary" type="submit">Play</button></form>'
        '<div id="refusal" class="refusal" role="alert" hidden>'
        '<strong id="refusal-error"></strong> <span id="refusal-reason"></span></div>'
        "</section>"
        if role == "seat"
        else ""
    )
    table = (
        f'<main id="table" class="table" data-role="{role}" '
        f'data-separators="{html.escape(SEPARATORS)}" data-cap="{terminal.CAP}">'
        '<section class="board">'
        '<div class="status"><p id="turn" class="turn" aria-live="polite">Loading…</p>'
        '<span id="move-number" class="move-number"></span></div>'
        '<p id="headline" class="headline"></p>'
        '<figure class="picture"><img id="picture" alt="the position" hidden></figure>'
        '<details class="text-view"><summary>The position as text</summary>'
        '<pre id="text"></pre></details>'
        "</section>"
        f'<aside class="side">{moves}'
        '<section class="panel log-panel" aria-labelledby="log-title">'
        '<h2 id="log-title">What happened</h2><ol id="log" class="log"></ol></section>'
        "</aside></main>"
    )
    return _bar(game) + table


def play(game: str) -> str:
    """A seat's page of a ``game``: the script reads the seat's token from its address."""
    return _shell(f"{game} — tikigames", _table(game, "seat"), "play.js")


def watch(game: str) -> str:
    """The spectator's page of a ``game``: the same table, without moves."""
    return _shell(f"{game} (watching) — tikigames", _table(game, "watch"), "play.js")


def error(status: int, message: str) -> str:
    """A page that says what went wrong (``message`` escaped)."""
    body = (
        f'<main class="message"><h1>{status}</h1><p>{html.escape(message)}</p>'
        '<p><a href="/">Back to the lobby</a></p></main>'
    )
    return _shell(f"{status} — tikigames", _bar() + body)

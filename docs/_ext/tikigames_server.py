"""Sphinx directive ``tikigames-server-view``: what the game server sends a seat, drawn when the
docs build from a real match of the server (:class:`tikigames.server.matches.Match`), so that
the server's page in the docs cannot drift from the server (no checked-in screenshot).

::

    .. tikigames-server-view:: tactiki
       :seats: ["human", "random"]
       :seed: 4
       :moves: 40
       :seat: 0
       :show: picture
       :caption: What seat 0 sees.

The match is created as ``POST /api/games`` creates it (``{"game", "seats", "seed"}``) and
played as the server plays it: a bot seat moves with :func:`~tikigames.server.matches.think`
from the match's rng and :meth:`~tikigames.server.matches.Match.play_bot`, a human seat with
:meth:`~tikigames.server.matches.Match.move` and a legal move drawn with
``random.Random(seed)``; until ``:moves:`` actions are applied and ``:seat:`` (an index, or
``spectator``) is to move. ``:show:`` is ``picture`` (the default: the view's ``svg``, embedded
as the ``tikigames-picture`` directive embeds a picture, with the caption), ``json`` (the view
as the API sends it, abridged: the long strings cut, the lists counted) or ``both``.
"""

from __future__ import annotations

import html
import json
import random
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata
from tikigames_pictures import figure_html

import tikigames

# tikigames.server's __init__ imports its web layer (Starlette), so this needs the server's
# packages, which the docs extra holds, although Match itself needs only the standard library.
from tikigames.server.matches import Match, think

#: How much of a long string or list the abridged view keeps.
_KEEP_CHARS = 60
_KEEP_ITEMS = 3


def _seat(text: str | None) -> int | None:
    if text is None:
        return 0
    return None if text == "spectator" else int(text)


def play_match(game: str, seats: list[object], seed: int, moves: int, seat: int | None) -> Match:
    """A match as the server would hold it after ``moves`` actions (more, if ``seat`` is not
    to move then: the page shows the seat's legal moves)."""
    match, _ = Match.create("docs", {"game": game, "seats": seats, "seed": seed})
    people = random.Random(seed)
    while match.turn is not None:
        if match.move_number >= moves and (seat is None or match.turn.player == seat):
            break
        asked = match.bot_to_move()
        if asked is None:
            player = match.turn.player
            view = match.view(player)
            match.move(player, people.choice(view["legal"])["id"], view["move_number"])
        else:
            bot_seat, bot, observation = asked
            rng = random.Random()
            rng.setstate(match.mark()[1])
            action_id, after = think(bot, observation, rng)
            match.play_bot(bot_seat, action_id, after)
    return match


def _abridged(value: Any) -> str:
    """``value`` as JSON, a long string cut and a long list counted."""
    if isinstance(value, str) and len(value) > _KEEP_CHARS:
        return _dumps(value[:_KEEP_CHARS])[:-1] + f'…" ({len(value)} characters)'
    if isinstance(value, list) and len(value) > _KEEP_ITEMS:
        shown = ", ".join(_dumps(item) for item in value[:_KEEP_ITEMS])
        return f"[{shown}, … {len(value) - _KEEP_ITEMS} more]"
    if isinstance(value, dict) and len(_dumps(value)) > 2 * _KEEP_CHARS:
        items = list(value.items())[: _KEEP_ITEMS - 1]
        shown = ", ".join(f"{_dumps(key)}: {_dumps(item)}" for key, item in items)
        return f"{{{shown}, … {len(value) - len(items)} more keys}}"
    return _dumps(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def abridged_view(view: dict[str, Any]) -> str:
    """The view as the API sends it, one key a line, each value abridged."""
    lines = [f"  {json.dumps(key)}: {_abridged(value)}" for key, value in view.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


class ServerViewDirective(Directive):
    required_arguments = 1
    option_spec = {
        "seats": directives.unchanged,
        "seed": directives.nonnegative_int,
        "moves": directives.nonnegative_int,
        "seat": directives.unchanged,
        "show": lambda text: directives.choice(text, ("picture", "json", "both")),
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            seats = json.loads(self.options.get("seats", '["human", "random"]'))
            seat = _seat(self.options.get("seat"))
            match = play_match(
                name, seats, self.options.get("seed", 0), self.options.get("moves", 0), seat
            )
            view = match.view(seat)
        except (tikigames.TikiGamesError, ValueError) as error:
            raise self.error(f"tikigames-server-view {name}: {error}") from None
        show = self.options.get("show", "picture")
        out: list[nodes.Node] = []
        if show != "json":
            caption = self.options.get("caption", "")
            who = "a spectator" if seat is None else f"seat {seat}"
            alt = caption or f"{match.game.title}: what the server sends {who}"
            html_text = figure_html(view["svg"], alt, html.escape(caption))
            out.append(nodes.raw("", html_text, format="html"))
        if show != "picture":
            text = abridged_view(view)
            out.append(nodes.literal_block(text, text, language="text"))
        return out


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-server-view", ServerViewDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

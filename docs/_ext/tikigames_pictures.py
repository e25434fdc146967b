"""Sphinx directive ``tikigames-picture``: a picture of a real engine state, drawn when the docs
build, so that no picture can drift from the rules (none is a checked-in image file).

::

    .. tikigames-picture:: tiki_topple
       :options: {"players": 4}
       :player: 1
       :size: 360
       :highlight: last
       :extra: {"overlay": 0}
       :seed: 3
       :moves: 12
       :caption: What player 1 sees after twelve random actions.

       line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo
       secret 0

The content lists actions in the game's notation, applied in order (checked by the rules:
an illegal one fails the build, naming it); then ``:moves:`` random actions drawn with
``random.Random(seed)`` (chance by its probabilities). ``:player:`` draws that player's
observation (``spectator`` for a spectator's) instead of the whole position; ``:highlight:`` is
``last`` (the default), ``none`` or an action's text; ``:extra:`` the game's own picture
options as JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

import tikigames


def _json(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text else {}


class PictureDirective(Directive):
    required_arguments = 1
    has_content = True
    option_spec = {
        "options": directives.unchanged,
        "player": directives.unchanged,
        "size": directives.positive_int,
        "highlight": directives.unchanged,
        "extra": directives.unchanged,
        "seed": directives.nonnegative_int,
        "moves": directives.nonnegative_int,
        "caption": directives.unchanged,
        "coordinates": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            game = tikigames.load(name, **_json(self.options.get("options")))
            state = game.new_initial_state()
            for number, line in enumerate(self.content, 1):
                text = line.strip()
                if text and not text.startswith("#"):
                    try:
                        state.apply_action(state.parse_action(text))
                    except tikigames.ActionError as error:
                        raise self.error(f"line {number} ({text!r}): {error}") from None
            rng = random.Random(self.options.get("seed", 0))
            for _ in range(self.options.get("moves", 0)):
                if state.is_terminal():
                    break
                state.apply_unchecked(state.random_action(rng))
            highlight: object = self.options.get("highlight", "last")
            if highlight == "none":
                highlight = None
            settings: dict[str, Any] = {
                "size": self.options.get("size", 420),
                "highlight": highlight,
                "coordinates": self.options.get("coordinates", "yes") != "no",
                **_json(self.options.get("extra")),
            }
            player = self.options.get("player")
            if player is None:
                svg = state.svg(**settings)
            else:
                seat = None if player == "spectator" else int(player)
                svg = state.observation(seat).svg(**settings)
        except (tikigames.TikiGamesError, ValueError) as error:
            raise self.error(f"tikigames-picture {name}: {error}") from None
        caption = self.options.get("caption", "")
        html = f'<figure class="tikigames-picture">{svg}'
        if caption:
            html += f"<figcaption>{nodes.Text(caption).astext()}</figcaption>"
        html += "</figure>"
        return [nodes.raw("", html, format="html")]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-picture", PictureDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

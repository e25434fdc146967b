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

A picture goes into the page as an ``<img>`` whose source is the SVG itself (a ``data:`` URI),
not as inline ``<svg>``: an image is a document of its own, which no style sheet of the page
reaches. Inline, the theme's rules matched the pictures' insides — Furo's ``.highlight
{width: 100%}`` stretched TacTiki's ``<rect class="highlight">`` (the battle outline) across
the page — and no CSS can undo that for an SVG shape, as a CSS ``width`` overrides the
element's ``width`` attribute and no value gives the attribute back; ids (``#arrow``, the
groups of ``define``) would also clash between the pictures of one page. The cost: the
elements' ``<title>`` tooltips do not show in an image (the caption and the alt text say what
it is). :func:`figure_html` is shared with the index's gallery.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any
from urllib.parse import quote

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

import tikigames


def _json(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text else {}


#: What a ``data:`` URI keeps as it is: printable ASCII but for ``%``, ``#``, ``"``, ``&``, ``<``,
#: ``>`` and space (encoded, so the URI is valid and safe in an HTML attribute).
_SAFE = "".join(chr(c) for c in range(33, 127) if chr(c) not in '%#"&<>')
_SIZE = re.compile(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')


def figure_html(svg: str, alt: str, caption_html: str = "") -> str:
    """A ``<figure class="tikigames-picture">`` holding ``svg`` as an image (a ``data:`` URI: see
    above) of the picture's own width and height, which the style sheet lets shrink to the
    page's width keeping its proportions, and its caption (HTML, escaped by the caller)."""
    size = _SIZE.match(svg)
    if size is None:
        raise ValueError("a picture's <svg> has no width and height")
    width, height = size.groups()
    source = "data:image/svg+xml;charset=utf-8," + quote(svg, safe=_SAFE)
    out = (
        '<figure class="tikigames-picture">'
        f'<img src="{source}" width="{width}" height="{height}" alt="{html.escape(alt)}">'
    )
    if caption_html:
        out += f"<figcaption>{caption_html}</figcaption>"
    return out + "</figure>"


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
        alt = caption or f"{game.title}: a picture of a position"
        return [nodes.raw("", figure_html(svg, alt, html.escape(caption)), format="html")]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-picture", PictureDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

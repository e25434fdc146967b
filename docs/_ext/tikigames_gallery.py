"""Sphinx directive ``tikigames-gallery``: one picture of each game, each drawn when the docs build
from a seeded random position (``state.svg()``), side by side, each linking to its game's page —
the index's first sight of the games, never a checked-in image.

::

    .. tikigames-gallery::

       tactiki 40 3
       tactik 60

Each line names a game, how many random actions to play from its start (chance outcomes drawn
with their probabilities) and the seed of ``random.Random`` (default 0). The pictures are
embedded as the ``tikigames-picture`` directive embeds them (see ``tikigames_pictures``).
"""

from __future__ import annotations

import html
import random

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata
from tikigames_pictures import figure_html

import tikigames


class GalleryDirective(Directive):
    has_content = True
    option_spec = {"size": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        figures = []
        for number, line in enumerate(self.content, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            try:
                name, moves, seed = words[0], int(words[1]), int(words[2]) if len(words) > 2 else 0
                game = tikigames.load(name)
            except (IndexError, ValueError, tikigames.TikiGamesError) as error:
                raise self.error(f"tikigames-gallery line {number} ({line!r}): {error}") from None
            rng = random.Random(seed)
            state = game.new_initial_state()
            for _ in range(moves):
                if state.is_terminal():
                    break
                state.apply_unchecked(state.random_action(rng))
            svg = state.svg(size=self.options.get("size", 400), highlight=None)
            page = env.app.builder.get_relative_uri(env.docname, f"games/{name}")
            caption = f'<a href="{html.escape(page)}">{html.escape(game.title)}</a>'
            alt = f"{game.title}: a position after {moves} random actions"
            figures.append(figure_html(svg, alt, caption))
        body = "".join(figures)
        return [nodes.raw("", f'<div class="tikigames-gallery">{body}</div>', format="html")]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-gallery", GalleryDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

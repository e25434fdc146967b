"""Sphinx directive ``tikigames-help``: a game's rules in short and its notation's cheat sheet,
read from the game class when the docs build (the same text the terminal's ``help rules`` and
``help notation`` print), so the page and the terminal cannot say different things.

::

    .. tikigames-help:: tiki_topple

It renders the game's ``rules_summary`` (plain paragraphs, a line starting ``- `` a list item,
the next lines continuing it) and its ``notation_examples()`` as a table of example and
meaning. The text is plain, not reST: nothing in it is markup. Each part is left out while the
game has none (an empty summary, no examples); the directive then renders nothing for it.
Options of the game (``:options:`` as JSON) load it as the examples need.
"""

from __future__ import annotations

import json
import sys

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

import tikigames


def summary_nodes(text: str) -> list[nodes.Node]:
    """The paragraphs and lists of a ``rules_summary``: paragraphs are separated by blank lines;
    in one, a line starting ``- `` begins a list item and the lines after it continue it (as
    the terminal wraps them)."""
    out: list[nodes.Node] = []
    for block in text.strip().split("\n\n"):
        items: list[str] = []
        for raw in block.strip().splitlines():
            line = raw.strip()
            if line.startswith("- ") or not items:
                items.append(line)
            else:
                items[-1] += " " + line
        listing: nodes.bullet_list | None = None
        for item in items:
            if item.startswith("- "):
                if listing is None:
                    listing = nodes.bullet_list(bullet="-")
                    out.append(listing)
                entry = nodes.list_item()
                entry += nodes.paragraph(text=item[2:].strip())
                listing += entry
            elif item:
                listing = None
                out.append(nodes.paragraph(text=item))
    return out


def notation_table(examples: list[tuple[str, str]]) -> nodes.table:
    """A two-column table: each example as code, what it does beside it."""
    table = nodes.table(classes=["tikigames-notation"])
    group = nodes.tgroup(cols=2)
    table += group
    for width in (30, 70):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for title in ("notation", "what it does"):
        row += nodes.entry("", nodes.paragraph(text=title))
    head += row
    body = nodes.tbody()
    group += body
    for what, example in examples:
        row = nodes.row()
        row += nodes.entry("", nodes.paragraph("", "", nodes.literal(text=example)))
        row += nodes.entry("", nodes.paragraph(text=what))
        body += row
    return table


class HelpDirective(Directive):
    required_arguments = 1
    has_content = False
    option_spec = {"options": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            options = json.loads(self.options.get("options") or "{}")
            game = tikigames.load(name, **options)
            summary = type(game).rules_summary
            examples = game.notation_examples()
        except (tikigames.TikiGamesError, ValueError) as error:
            raise self.error(f"tikigames-help {name}: {error}") from None
        source = getattr(sys.modules.get(type(game).__module__), "__file__", None)
        if source:  # the page is read again when the game's module changes
            self.state.document.settings.env.note_dependency(source)
        out = summary_nodes(summary) if summary.strip() else []
        if examples:
            out.append(notation_table(list(examples)))
        return out


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-help", HelpDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

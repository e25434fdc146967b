"""Sphinx directive ``tikigames-tensor``: the table of a game's observation tensor planes, read
from the game's own :class:`~tikigames.core.encoding.TensorLayout` when the docs build, so the
documented encoding is the encoding the code produces.

::

    .. tikigames-tensor:: tactik
       :options: {"players": 4}
"""

from __future__ import annotations

import json

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

import tikigames


def _row(*cells: str) -> nodes.row:
    row = nodes.row()
    for text in cells:
        entry = nodes.entry()
        entry += nodes.paragraph(text=text)
        row += entry
    return row


class TensorDirective(Directive):
    required_arguments = 1
    option_spec = {"options": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        options = json.loads(self.options.get("options") or "{}")
        game = tikigames.load(self.arguments[0], **options)
        layout = game.observation_tensor_layout()
        table = nodes.table()
        group = nodes.tgroup(cols=4)
        table += group
        for width in (14, 10, 8, 68):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row("plane", "shape", "offset", "what it holds")
        group += head
        body = nodes.tbody()
        for plane in layout.planes:
            shape = " × ".join(str(extent) for extent in plane.shape)
            body += _row(plane.name, shape, str(layout.offset(plane.name)), plane.description)
        group += body
        title = nodes.title(text=f"{game!r}: shape {layout.shape}, {layout.size} values")
        table.insert(0, title)
        return [table]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-tensor", TensorDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

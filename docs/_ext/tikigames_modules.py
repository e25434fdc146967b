"""Sphinx directives ``tikigames-modules`` and ``tikigames-game-files``: the package's modules, read
from ``src/tikigames`` when the docs build, so the Architecture page lists every module there is,
each with the first sentence of its own docstring, and no hand-written table can drift.

::

    .. tikigames-modules:: core

    .. tikigames-game-files::

``tikigames-modules`` takes a layer (``core``, ``games``, ``bots``, ``adapters`` or ``tools``) and
draws a table of its modules and their summaries (for ``games``, one table per game);
``tikigames-game-files`` draws which game has which file. The listing walks the file tree and reads
each docstring with :mod:`ast` (nothing is imported), and :func:`package_modules` is what
``tests/test_docs_architecture.py`` checks against the tree.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "tikigames"
# The layers, bottom to top. A subpackage that is not core, bots or adapters is a game; a module
# at the top of the package is a tool.
LAYERS = ("core", "games", "bots", "adapters", "tools")
_NAMED_LAYERS = frozenset({"core", "bots", "adapters"})
#: The subpackages of the tools' layer (the package's own top-level modules are tools too).
_TOOL_PACKAGES = ("", "server")
# The end of a docstring's first sentence: a full stop (or ! ?) before a space and a capital.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


class Module(NamedTuple):
    name: str  # dotted: tikigames.tactik.paths
    layer: str  # one of LAYERS
    package: str  # the subpackage (a game's name, core, bots, adapters), "" for a tool
    file: str  # the file's name inside its package: paths.py
    summary: str  # the first sentence of the module's docstring
    path: Path


def summary(docstring: str | None) -> str:
    """The first sentence of a docstring's first paragraph, on one line.

    >>> summary("Plain UCT for perfect-information games.\\n\\nMore.")
    'Plain UCT for perfect-information games.'
    >>> summary("What a player knows: everything. The rest\\nfollows.")
    'What a player knows: everything.'
    """
    paragraph = " ".join((docstring or "").strip().split("\n\n")[0].split())
    return _SENTENCE_END.split(paragraph, maxsplit=1)[0]


def package_modules(package: Path = PACKAGE) -> list[Module]:
    """Every module of the package, in layer order, then by package and file name."""
    found = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        dotted = [package.name, *parts[:-1]]
        if parts[-1] != "__init__.py":
            dotted.append(parts[-1].removesuffix(".py"))
        sub = parts[0] if len(parts) > 1 else ""
        layer = sub if sub in _NAMED_LAYERS else "tools" if sub in _TOOL_PACKAGES else "games"
        text = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        found.append(Module(".".join(dotted), layer, sub, parts[-1], summary(text), path))
    return sorted(found, key=lambda m: (LAYERS.index(m.layer), m.package, m.file != "__init__.py"))


def _table(widths: tuple[int, ...], head: list[nodes.Node], title: str = "") -> nodes.table:
    table = nodes.table(classes=["tikigames-modules"])
    if title:
        table += nodes.title(text=title)
        table["ids"].append(nodes.make_id(f"modules-{title}"))
    group = nodes.tgroup(cols=len(widths))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    row = nodes.row()
    for cell in head:
        entry = nodes.entry()
        entry += cell
        row += entry
    thead = nodes.thead()
    thead += row
    group += thead
    group += nodes.tbody()
    return table


def _add_row(table: nodes.table, cells: list[nodes.Node]) -> None:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell
        row += entry
    body = table.next_node(nodes.tbody)
    body += row


class _ModulesBase(Directive):
    def _inline(self, text: str) -> nodes.paragraph:
        """``text`` parsed as inline reST (so a docstring's roles become links)."""
        parsed, messages = self.state.inline_text(text, self.lineno)
        paragraph = nodes.paragraph()
        paragraph.extend(parsed)
        paragraph.extend(messages)
        return paragraph

    def _modules(self) -> list[Module]:
        modules = package_modules()
        env = self.state.document.settings.env
        for module in modules:
            env.note_dependency(str(module.path))
        return modules


class ModulesDirective(_ModulesBase):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        layer = self.arguments[0]
        if layer not in LAYERS:
            raise self.error(f"tikigames-modules: {layer!r} is not one of {', '.join(LAYERS)}")
        modules = [m for m in self._modules() if m.layer == layer]
        tables: list[nodes.Node] = []
        for package in dict.fromkeys(m.package for m in modules):
            title = f"tikigames.{package}" if layer == "games" else ""
            head = [nodes.paragraph(text="module"), nodes.paragraph(text="what it holds")]
            table = _table((30, 70), head, title)
            for module in (m for m in modules if m.package == package):
                cell = self._inline(f":mod:`{module.name}`")
                _add_row(table, [cell, self._inline(module.summary)])
            tables.append(table)
        return tables


class GameFilesDirective(_ModulesBase):
    def run(self) -> list[nodes.Node]:
        modules = [m for m in self._modules() if m.layer == "games"]
        games = list(dict.fromkeys(m.package for m in modules))
        files = sorted({m.file for m in modules}, key=lambda f: (f != "__init__.py", f))
        present = {(m.package, m.file) for m in modules}
        head: list[nodes.Node] = [nodes.paragraph(text="file")]
        head += [nodes.paragraph("", "", nodes.literal(text=game)) for game in games]
        table = _table((20, *(10 for _ in games)), head)
        for file in files:
            cells: list[nodes.Node] = [nodes.paragraph("", "", nodes.literal(text=file))]
            for game in games:
                cells.append(nodes.paragraph(text="✓" if (game, file) in present else "—"))
            _add_row(table, cells)
        return [table]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-modules", ModulesDirective)
    app.add_directive("tikigames-game-files", GameFilesDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

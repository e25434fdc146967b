"""Sphinx directive ``tikigames-bench``: the Performance page's plot and summary table, drawn when
the docs build from a committed run of ``tikigames bench --compare --json`` (the JSON of
:meth:`tikigames.bench.BenchRun.to_json`), so the page shows exactly the figures of that file.

::

    .. tikigames-bench:: data/bench-pure.json

The path is relative to the page's source. The plot (matplotlib, an SVG in the build's
``_images/``) shows each game's two playout rates as multiples of OpenSpiel's Python
tic-tac-toe, and its ``legal_per_s`` as a multiple of python-chess's, each the median of the
run's paired rounds; the table gives the rates themselves. The plot is drawn for the ``html``
builder only; the table for every builder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

import tikigames

#: The yardstick of the playout multiples (an OpenSpiel game of ``compare.multiples``).
YARDSTICK = "python_tic_tac_toe"


def rate(value: float) -> str:
    """A rate in three significant figures, with ``k`` or ``M``: 1.48M, 709k, 66.1k."""
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def _titles(data: dict[str, Any]) -> dict[str, str]:
    return {name: tikigames.load(name).title for name in data["games"]}


def draw(data: dict[str, Any], path: Path) -> None:
    """Two panels: the playout multiples of the yardstick, and ``legal_per_s`` over
    python-chess's (each game a row; log scale; 1 is the yardstick)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import FuncFormatter

    titles = _titles(data)
    names = sorted(data["games"], key=lambda name: titles[name])[::-1]
    multiples = data["compare"]["multiples"]
    figure, (left, right) = pyplot.subplots(
        1, 2, figsize=(8.0, 3.6), dpi=100, gridspec_kw={"width_ratios": [3, 2]}, sharey=True
    )
    rows = range(len(names))
    height = 0.38
    for offset, key, colour, label in (
        (height / 2, "openspiel_style_per_s", "#0072B2", "OpenSpiel-style playout"),
        (-height / 2, "library_style_per_s", "#E69F00", "fast path (apply_unchecked)"),
    ):
        values = [multiples[name][YARDSTICK][key] for name in names]
        bars = left.barh([r + offset for r in rows], values, height, color=colour, label=label)
        left.bar_label(bars, [f"{v:.3g}×" for v in values], padding=2, fontsize=8)
    left.axvline(1.0, color="#555555", linewidth=1, linestyle="--")
    left.set_xscale("log")
    left.set_xlabel("playout actions/s × OpenSpiel's Python tic-tac-toe")
    chess = [multiples[name]["chess"]["legal_per_s"] for name in names]
    bars = right.barh(list(rows), chess, height * 1.5, color="#009E73")
    right.bar_label(bars, [f"{v:.3g}×" for v in chess], padding=2, fontsize=8)
    right.axvline(1.0, color="#555555", linewidth=1, linestyle="--")
    right.set_xscale("log")
    right.set_xlabel("legal actions/s × python-chess")
    left.set_yticks(list(rows), [titles[name] for name in names])
    for axes in (left, right):
        axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}×"))
        axes.grid(axis="x", alpha=0.3, which="both")
        low, high = axes.get_xlim()
        axes.set_xlim(min(low, 0.5), high * 3)  # room for the labels, and 1 always shown
    environment = data["environment"]
    build = "compiled" if environment["compiled"] else "pure Python"
    figure.suptitle(
        f"tikigames {environment['tikigames']}, {build}, Python {environment['python']}: "
        f"medians of {data['rounds']} paired rounds",
        fontsize=10,
    )
    figure.legend(*left.get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=8)
    figure.tight_layout(rect=(0.0, 0.07, 1.0, 1.0))
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)


def summary_table(data: dict[str, Any]) -> nodes.table:
    """One row per game: its rates, and its multiples of the yardsticks."""
    titles = _titles(data)
    multiples = data["compare"]["multiples"]
    head = (
        "game",
        "playout/s",
        "fast/s",
        "× py tic-tac-toe",
        "legal/s",
        "× python-chess",
        "search it/s",
    )
    rows = []
    for name in sorted(data["games"], key=lambda name: titles[name]):
        figures = data["games"][name]
        against = multiples[name][YARDSTICK]
        rows.append(
            (
                titles[name],
                rate(figures["openspiel_style_per_s"]),
                rate(figures["library_style_per_s"]),
                f"{against['openspiel_style_per_s']:.3g} / {against['library_style_per_s']:.3g}",
                rate(figures["legal_per_s"]),
                f"{multiples[name]['chess']['legal_per_s']:.3g}",
                rate(figures["search_it_per_s"]),
            )
        )
    table = nodes.table(classes=["tikigames-bench-summary"])
    group = nodes.tgroup(cols=len(head))
    table += group
    for _ in head:
        group += nodes.colspec(colwidth=1)
    thead = nodes.thead()
    group += thead
    line = nodes.row()
    for text in head:
        line += nodes.entry("", nodes.paragraph(text=text))
    thead += line
    body = nodes.tbody()
    group += body
    for cells in rows:
        line = nodes.row()
        for text in cells:
            line += nodes.entry("", nodes.paragraph(text=text))
        body += line
    return table


class BenchDirective(Directive):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        relative, absolute = env.relfn2path(self.arguments[0], env.docname)
        env.note_dependency(relative)
        try:
            data = json.loads(Path(absolute).read_text(encoding="utf-8"))
            table = summary_table(data)
        except (OSError, ValueError, KeyError) as error:
            raise self.error(f"tikigames-bench {self.arguments[0]}: {error!r}") from None
        out: list[nodes.Node] = []
        if env.app.builder.name == "html":
            image = "tikigames-bench-" + Path(absolute).stem + ".svg"
            draw(data, Path(env.app.outdir) / "_images" / image)
            src = "../" * env.docname.count("/") + "_images/" + image
            alt = "bar chart: each game's playout and legal-action rates as multiples"
            out.append(
                nodes.raw(
                    "",
                    f'<figure class="tikigames-bench"><img src="{src}" width="800" '
                    f'height="360" alt="{alt}"></figure>',
                    format="html",
                )
            )
        out.append(table)
        return out


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-bench", BenchDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

"""Sphinx directive ``tikigames-training``: runs ``examples/train_tiki_topple.py`` (its seeded
defaults) when the HTML docs build, draws its learning curve with matplotlib into the build's
``_images/`` as an SVG, and states the measured win rates with their 95% intervals, so the page
shows what the script does today, not a figure pasted once.

::

    .. tikigames-training::

It does nothing for any builder but ``html`` (the doctest builder runs no training). The run
takes a few seconds to half a minute.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.util.typing import ExtensionMetadata

import tikigames

SCRIPT = Path(__file__).resolve().parent.parent.parent / "examples" / "train_tiki_topple.py"
IMAGE = "tikigames-training-curve.svg"


def _example() -> ModuleType:
    """The example script as a module (examples/ is no package: loaded from its file, and
    registered first, as its dataclasses need)."""
    spec = importlib.util.spec_from_file_location("train_tiki_topple", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _draw(training: Any, trained: Any, untrained: Any, path: Path) -> None:
    """The learning curve, with the evaluations' win rates and intervals, as an SVG."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    block = training.block
    games = [block * (index + 1) for index in range(len(training.curve))]
    total = games[-1]
    figure, axes = pyplot.subplots(figsize=(7.0, 3.8), dpi=100)
    axes.plot(games, training.curve, marker="o", color="#1f77b4", label="training (sampling)")
    for result, colour, label in (
        (trained, "#2ca02c", "trained, greedy: evaluation"),
        (untrained, "#7f7f7f", "untrained (uniform): evaluation"),
    ):
        low, high = result.interval()
        axes.axhspan(low, high, color=colour, alpha=0.2, linewidth=0)
        axes.axhline(result.win_rate, color=colour, linestyle="--", label=label)
    axes.set_xlim(0, total)
    axes.set_ylim(0.0, 1.0)
    axes.set_xlabel(f"training games against RandomBot (blocks of {block})")
    axes.set_ylabel("win rate")
    axes.set_title("Tiki Topple, seat 0: REINFORCE on 180 action features")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="svg", metadata={"Date": None})
    pyplot.close(figure)


def _paragraph(text: str) -> nodes.paragraph:
    return nodes.paragraph(text=text)


#: The slot part of a feature, as the text says it.
_SLOTS = ("its top tiki", "its middle tiki", "its bottom tiki", "a tiki not on its card")


def _preferences(example: Any, weights: Any, count: int = 4) -> str:
    """The ``count`` largest weights, each said as the situation it prefers."""
    cards, slots, positions = len(example.CARD_NAMES), example.SLOTS, example.NUM_TIKIS
    table = weights.reshape(cards, slots, positions)
    said = []
    for index in weights.argsort()[::-1][:count]:
        card, rest = divmod(int(index), slots * positions)
        slot, position = divmod(rest, positions)
        said.append(
            f"{example.CARD_NAMES[card]} on {_SLOTS[slot]} at position {position + 1} "
            f"({table[card, slot, position]:+.1f})"
        )
    return "; ".join(said)


class TrainingDirective(Directive):
    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        app = env.app
        if app.builder.name != "html":
            return []
        env.note_dependency(str(SCRIPT))
        start = time.perf_counter()
        example = _example()
        training = example.train()
        trained = example.evaluate(training.policy)
        untrained = example.evaluate(example.Policy(training.policy.features), greedy=False)
        seconds = time.perf_counter() - start
        _draw(training, trained, untrained, Path(app.outdir) / "_images" / IMAGE)
        depth = env.docname.count("/")
        src = "../" * depth + "_images/" + IMAGE
        caption = (
            f"The win rate of each block of {training.block} training games, and the "
            "evaluations' win rates with their 95% Wilson intervals (bands)."
        )
        html = (
            f'<figure class="tikigames-training"><img src="{src}" width="700" '
            f'alt="learning curve: win rate against RandomBot by training games">'
            f"<figcaption>{nodes.Text(caption).astext()}</figcaption></figure>"
        )
        first, last = training.curve[0], training.curve[-1]
        games = training.block * len(training.curve)
        t_low, t_high = trained.interval()
        u_low, u_high = untrained.interval()
        items = nodes.bullet_list()
        for text in (
            f"Training: {games} games in {training.seconds:.0f} s; the win rate of the first "
            f"block of {training.block} was {first:.2f}, of the last {last:.2f}.",
            f"Trained policy (its most likely action each turn): {trained.wins} wins in "
            f"{trained.games} evaluation games ({trained.draws} drawn), win rate "
            f"{trained.win_rate:.3f}, 95% interval [{t_low:.3f}, {t_high:.3f}].",
            f"Untrained policy (all weights 0: uniform over the legal actions, as RandomBot): "
            f"{untrained.wins} wins in {untrained.games} ({untrained.draws} drawn), win rate "
            f"{untrained.win_rate:.3f}, 95% interval [{u_low:.3f}, {u_high:.3f}].",
            "Its strongest preferences (the largest weights): "
            f"{_preferences(example, training.policy.weights)}.",
            f"The whole run (training and both evaluations) took {seconds:.0f} s on the "
            f"machine that built this page (tikigames {tikigames.__version__}, "
            f"{'compiled' if tikigames.compiled else 'pure Python'}).",
        ):
            item = nodes.list_item()
            item += _paragraph(text)
            items += item
        return [nodes.raw("", html, format="html"), items]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("tikigames-training", TrainingDirective)
    return {"version": tikigames.__version__, "parallel_read_safe": True}

"""The Architecture page's module tables cover the whole package (docs: Architecture).

The tables are drawn at build time by ``docs/_ext/tikigames_modules.py``; this checks, without
building the docs, that its listing is every module under ``src/tikigames``, each with a summary
and a layer, and that the page draws every layer there is.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "tikigames"
EXTENSION = ROOT / "docs" / "_ext" / "tikigames_modules.py"
PAGE = ROOT / "docs" / "architecture.rst"

pytest.importorskip("sphinx")


def load_extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tikigames_modules", EXTENSION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def dotted(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_the_listing_is_every_module_of_the_package() -> None:
    listed = [module.name for module in load_extension().package_modules()]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(dotted(path) for path in PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer_and_a_summary() -> None:
    extension = load_extension()
    for module in extension.package_modules():
        assert module.layer in extension.LAYERS, module.name
        assert module.summary, f"{module.name} has no docstring to summarise"


def test_the_page_draws_every_layer_and_the_game_files() -> None:
    extension = load_extension()
    text = PAGE.read_text(encoding="utf-8")
    drawn = re.findall(r"^\s*\.\. tikigames-modules:: (\w+)\s*$", text, re.MULTILINE)
    assert sorted(drawn) == sorted({module.layer for module in extension.package_modules()})
    assert re.search(r"^\s*\.\. tikigames-game-files::\s*$", text, re.MULTILINE)


def test_the_games_layer_is_the_subpackages_outside_core_bots_adapters_and_server() -> None:
    modules = load_extension().package_modules()
    games = {m.package for m in modules if m.layer == "games"}
    subpackages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert games == subpackages - {"core", "bots", "adapters", "server"}
    assert {m.layer for m in modules if m.package == "server"} == {"tools"}
    assert {"tiki_topple", "tactiki", "tactik", "paiko"} <= games

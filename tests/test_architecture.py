"""The layout's rules, checked on the source with ``ast`` (docs: Architecture).

- Layers import downwards only: the core imports only the core (not even under
  ``TYPE_CHECKING``); a game imports the core and itself; the bots the core and themselves;
  adapters the core, the bots and themselves; the tools (arena, bench, cli, testing and the
  package's ``__init__``) anything.
- No import cycles between modules at run time (imports under ``TYPE_CHECKING`` are for
  annotations only and do not count).
- No import inside a function, except of an optional third-party package.
- No module reads or writes another module's underscore names: ``obj._x`` is allowed only when
  ``_x`` is defined in the same module (``self._x`` of one's own class or a base class always is).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "tikigames"
GAMES = ("tiki_topple", "tactiki", "tactik", "paiko")
TOOLS = (
    "tikigames",
    "tikigames.arena",
    "tikigames.bench",
    "tikigames.bench_frameworks",
    "tikigames.cli",
    "tikigames.ratings",
    "tikigames.records",
    "tikigames.terminal",
    "tikigames.testing",
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(), str(path)) for name, path in MODULES.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    if module in TOOLS:
        return "tools"
    if parts[1] in GAMES:
        return f"game:{parts[1]}"
    return parts[1]  # core, bots, adapters


ALLOWED = {
    "core": {"core"},
    "bots": {"core", "bots"},
    "adapters": {"core", "bots", "adapters"},
}


def allowed(source: str, target: str) -> bool:
    src, dst = layer(source), layer(target)
    if src == "tools":
        return True
    if src.startswith("game:"):
        return dst in ("core", src)
    return dst in ALLOWED[src]


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module) -> Iterator[tuple[str, bool, ast.AST]]:
    """Every ``tikigames`` module a module imports at its top level: (name, type_checking, node).
    ``from tikigames import x`` names the module ``tikigames.x`` where it exists."""

    def targets(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif node.module is not None and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in MODULES else node.module

    def walk(body: list[ast.stmt], type_checking: bool) -> Iterator[tuple[str, bool, ast.AST]]:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in targets(node):
                    if name.split(".")[0] == "tikigames":
                        yield name, type_checking, node
            elif isinstance(node, ast.If):
                yield from walk(node.body, type_checking or is_type_checking(node))
                yield from walk(node.orelse, type_checking)
            elif isinstance(node, ast.Try):
                yield from walk(node.body, type_checking)

    yield from walk(tree.body, False)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_layers_import_downwards(module: str) -> None:
    for target, type_checking, node in imports(TREES[module]):
        if layer(module) == "core" or not type_checking:
            where = f"{module}:{node.lineno}"
            assert allowed(module, target), f"{where} imports {target} ({layer(target)})"


def test_no_runtime_import_cycles() -> None:
    graph = {
        module: {t for t, type_checking, _ in imports(tree) if not type_checking and t != module}
        for module, tree in TREES.items()
    }
    state: dict[str, int] = {}  # 1: on the stack, 2: done

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycle = [*stack[stack.index(target) :], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target in graph and target not in state:
                visit(target, [*stack, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_imports_inside_functions(module: str) -> None:
    for node in ast.walk(TREES[module]):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                names = [inner.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                # Only an optional third-party package may be imported lazily.
                assert top != "tikigames" and top not in sys.stdlib_module_names, (
                    f"{module}:{inner.lineno} imports {name} inside {node.name}()"
                )


def defined_private_names(tree: ast.Module) -> set[str]:
    """The underscore names a module defines: functions, classes, class and instance
    attributes (``self._x = …``, ``__slots__`` entries, annotations), module globals."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            for item in ast.walk(node.value):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    names.add(item.value)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def receiver_is_own(node: ast.Attribute) -> bool:
    base = node.value
    if isinstance(base, ast.Name) and base.id in ("self", "cls"):
        return True
    return (
        isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super"
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_reads_of_other_modules_private_names(module: str) -> None:
    tree = TREES[module]
    own = defined_private_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tikigames"):
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                assert not private, f"{module}:{node.lineno} imports {alias.name}"
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or name.startswith("__") or receiver_is_own(node):
            continue
        assert name in own, f"{module}:{node.lineno} reads {ast.unparse(node)}"


def test_every_game_package_has_the_same_files() -> None:
    common = {"__init__", "data", "actions", "state", "observation", "render", "resample", "game"}
    for game in GAMES:
        files = {path.stem for path in (PACKAGE / game).glob("*.py")}
        assert common <= files, f"{game} lacks {sorted(common - files)}"


def test_every_module_says_what_it_is_for() -> None:
    for module, tree in TREES.items():
        assert ast.get_docstring(tree), f"{module} has no docstring"

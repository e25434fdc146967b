"""The layout's rules, checked on the source with ``ast`` (docs: Architecture).

- Layers import downwards only: the core imports only the core (not even under
  ``TYPE_CHECKING``); a game imports the core and itself; the bots the core and themselves;
  adapters the core, the bots and themselves; the tools (arena, bench, cli, testing, the
  ``server`` package and the package's ``__init__``) anything.
- No import cycles between modules at run time (imports under ``TYPE_CHECKING`` are for
  annotations only and do not count).
- No import inside a function, except of an optional third-party package.
- No module reads or writes another module's underscore names: ``obj._x`` is allowed only when
  ``_x`` is defined in the same module; ``self._x`` also when ``_x`` is a method the core
  declares for its subclasses (a hook such as ``_do``, or a protected operation such as
  ``State._rewrite_past``), never a base class's data.
- No module outside the core touches a field of the core's ``State`` (its history, undo records
  and caches): games change them only through the protected operations.
- One decision loop: outside ``core/play.py`` no function both draws chance outcomes
  (``sample_chance``) and asks a bot (``act``); the tools run on ``decisions``.
- Facts from their owner: no picture or text rendering replays the engine (applies or parses
  actions, builds states) or slices rendered SVG text; the terminal does not look for words in
  the rendered board.
- No file refers to a file outside the repository.
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
    "tikigames.runner",
    "tikigames.selfplay",
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
    if module in TOOLS or module.startswith("tikigames.server"):  # the server: a tool package
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


def imports(tree: ast.Module) -> Iterator[tuple[str, bool, ast.stmt]]:
    """Every ``tikigames`` module a module imports at its top level: (name, type_checking, node).
    ``from tikigames import x`` names the module ``tikigames.x`` where it exists."""

    def targets(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif node.module is not None and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in MODULES else node.module

    def walk(body: list[ast.stmt], type_checking: bool) -> Iterator[tuple[str, bool, ast.stmt]]:
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


def core_private_names() -> tuple[set[str], set[str]]:
    """The core's private methods (hooks and protected operations its subclasses may call on
    ``self``) and its private data (fields and slots), over every module of ``core/``."""
    methods: set[str] = set()
    data: set[str] = set()
    for module, tree in TREES.items():
        if layer(module) != "core":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        methods.add(item.name)
        data |= defined_private_names(tree)
    private = {name for name in methods if name.startswith("_") and not name.startswith("__")}
    return private, data - private - {name for name in data if name[1:2].isupper()}


CORE_METHODS, CORE_DATA = core_private_names()
#: Every underscore name some module of the package defines (what is not, on ``self``, is a
#: third-party base class's: PettingZoo's ``AECEnv``, say).
DEFINED = set().union(*(defined_private_names(tree) for tree in TREES.values()))


def core_state_fields() -> set[str]:
    """The fields of ``tikigames.core.state.State``: its ``__slots__`` and what it assigns."""
    tree = TREES["tikigames.core.state"]
    state = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "State")
    fields: set[str] = set()
    for node in ast.walk(state):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            fields |= {
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            fields.add(node.attr)
    return fields


CORE_STATE_FIELDS = core_state_fields()


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
        if not name.startswith("_") or name.startswith("__") or name in own:
            continue
        if receiver_is_own(node) and name not in DEFINED:
            continue
        # On ``self``: a hook or protected operation the core declares, never its data.
        assert receiver_is_own(node) and name in CORE_METHODS, (
            f"{module}:{node.lineno} reads {ast.unparse(node)}"
        )


def test_the_core_state_fields_are_known() -> None:
    assert {"_history", "_undo", "_legal", "_legal_stack", "_hash", "_seen"} <= CORE_STATE_FIELDS


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) != "core"))
def test_no_module_outside_the_core_touches_the_core_states_fields(module: str) -> None:
    for node in ast.walk(TREES[module]):
        if isinstance(node, ast.Attribute) and node.attr in CORE_STATE_FIELDS:
            where = f"{module}:{node.lineno}"
            raise AssertionError(
                f"{where} touches {ast.unparse(node)}, a field of the core's State"
            )


def calls(node: ast.AST) -> set[str]:
    """The names of the methods and functions called inside ``node``."""
    names: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Attribute):
                names.add(func.attr)
            elif isinstance(func, ast.Name):
                names.add(func.id)
    return names


def test_one_decision_loop() -> None:
    loops = []
    for module, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # noqa: SIM102
                if {"sample_chance", "act"} <= calls(node):
                    loops.append(f"{module}.{node.name}")
    assert loops == ["tikigames.core.play.decisions"] or not loops, loops
    play = TREES["tikigames.core.play"]
    assert any(
        isinstance(n, ast.FunctionDef) and n.name == "decisions" and "sample_chance" in calls(n)
        for n in play.body
    )
    for tool in ("tikigames.core.play", "tikigames.terminal", "tikigames.selfplay"):
        if tool != "tikigames.core.play":
            assert "decisions" in calls(TREES[tool]), f"{tool} does not run on decisions"


#: What replays the engine, which no drawing module does (looking an action up in the table by
#: its text, ``table.parse``, is a lookup of the action's decoded fields, not a replay).
ENGINE_CALLS = {"apply_action", "apply_unchecked", "parse_action", "new_initial_state",
                "state_from_json", "undo_action", "clone"}  # fmt: skip


def code_strings(tree: ast.Module) -> Iterator[ast.Constant]:
    """The string constants of a module's code (docstrings left out)."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # noqa: SIM102
            if id(node) not in docstrings:
                yield node


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if m.rsplit(".", 1)[-1] in ("svg", "render"))
)
def test_pictures_and_renderings_read_facts_not_replays(module: str) -> None:
    replays = calls(TREES[module]) & ENGINE_CALLS
    assert not replays, f"{module} replays the engine: {sorted(replays)}"


def test_no_module_slices_rendered_text() -> None:
    for module, tree in TREES.items():
        for node in code_strings(tree):
            if module != "tikigames.core.svg":
                assert "</defs>" not in str(node.value), f"{module}:{node.lineno} slices SVG text"
            if module == "tikigames.terminal":
                assert "Game over" not in str(node.value), f"{module}:{node.lineno} greps the board"


#: The files of the repository that may name others: all that git tracks, less data.
OUTSIDE = ("DESIGN" + ".md", "shared" + "/rules", "../" + "shared", "shared" + "/seeds")


def test_no_file_refers_to_a_file_outside_the_repository() -> None:
    root = SRC.parent
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if not path.is_file() or any(p.startswith(".") or p == "_build" for p in parts):
            continue
        if parts[0] not in ("src", "tests", "docs", "examples") and len(parts) > 1:
            continue
        if path.suffix not in (".py", ".rst", ".md", ".txt", ".toml", ".cfg", ".in", ".yaml"):
            continue
        text = path.read_text(errors="replace")
        for name in OUTSIDE:
            assert name not in text, f"{path.relative_to(root)} refers to {name}"


def test_every_game_package_has_the_same_files() -> None:
    common = {"__init__", "data", "actions", "state", "observation", "render", "resample", "game"}
    for game in GAMES:
        files = {path.stem for path in (PACKAGE / game).glob("*.py")}
        assert common <= files, f"{game} lacks {sorted(common - files)}"


def test_every_module_says_what_it_is_for() -> None:
    for module, tree in TREES.items():
        assert ast.get_docstring(tree), f"{module} has no docstring"

"""Build script: the package compiled with mypyc where it can be, pure Python where not.

``pip install .`` and ``python -m build`` compile the modules listed in :data:`COMPILED` with
mypyc (the same typed source; interpreted Python keeps working wherever a module is not
compiled). ``TIKIGAMES_PURE=1`` forces the pure-Python build (a ``py3-none-any`` wheel), and an
editable install (``pip install -e .``) is always pure, so that edits to the source take effect.
Where the C compiler fails, the build falls back to pure Python.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
PACKAGE = Path("src", "tikigames")

#: The modules kept interpreted: the games' wiring (``game.py``: subclasses of the interpreted
#: ``Game``), observations (frozen dataclasses built from keyword arguments), the ``Bot``
#: protocol, the registry (``load`` refuses any bad name with OptionError, where a compiled
#: ``name: str`` would raise TypeError), exceptions with two bases, and the tools, whose speed
#: is the user's own loop.
INTERPRETED = {
    "__init__.py",
    "game.py",
    "observation.py",
    "errors.py",
    "bot.py",
    "registry.py",
    "runner.py",
    "arena.py",
    "bench.py",
    "cli.py",
    "ratings.py",
    "records.py",
    "selfplay.py",
    "terminal.py",
    "bench_frameworks.py",
    "testing.py",
}


def compiled_modules() -> list[str]:
    return sorted(
        str(path)
        for path in PACKAGE.rglob("*.py")
        if path.name not in INTERPRETED and not {"adapters", "server"} & set(path.parts)
    )


def pure_requested() -> bool:
    return os.environ.get("TIKIGAMES_PURE", "").strip().lower() in ("1", "true", "yes")


#: The commands that build the package's modules; mypyc is run only for these (not for an
#: editable install, an sdist, or the metadata a build asks for first).
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def extensions() -> list[Extension]:
    """The compiled modules, or none: the pure build, asked for or editable."""
    if pure_requested() or not BUILDS & set(sys.argv[1:]):
        return []
    from mypyc.build import mypycify

    return list(mypycify(compiled_modules(), opt_level="3", debug_level="0"))


class OptionalBuildExt(build_ext):
    """A compiler error leaves the pure-Python modules in place instead of failing the
    install (the wheel then holds the interpreted modules only)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any failure to compile means "pure"
            self.warn(f"tikigames: compiling with mypyc failed, pure Python is used: {error}")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})

"""Run the docstring examples of every module of the installed tikigames (compiled or not).

pytest's --doctest-modules reads .py files only; a compiled module is a shared library, so the
wheels' runs in .ci/run use this instead: it imports each module and runs doctest on the
objects themselves. (mypyc keeps the docstrings of modules, classes and functions, but not of
the methods of native classes: the compiled build runs fewer examples.) Exits non-zero on any
failure, or if it found fewer examples than ``--min`` (so that a change in how doctest finds
them cannot pass silently).
"""

from __future__ import annotations

import argparse
import doctest
import importlib
import pkgutil
import sys

import tikigames


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--min", type=int, default=1, help="fewest examples expected")
    args = parser.parse_args()
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names = ["tikigames"] + [
        info.name for info in pkgutil.walk_packages(tikigames.__path__, "tikigames.")
    ]
    for name in names:
        module = importlib.import_module(name)
        for test in finder.find(module, name):  # each module's globals, as pytest's
            runner.run(test)
    result = runner.summarize(verbose=False)
    print(f"{result.attempted} docstring examples in {len(names)} modules, {result.failed} failed")
    if result.failed or result.attempted < args.min:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Check that a source archive holds what a packager or a reader needs: the package, its build
files, the tests, the docs, the examples and the changelog; and nothing built or cached.

Usage: ``python .ci/check_sdist.py dist/tikigames-X.tar.gz`` (exits non-zero, naming what is
missing or what should not be there).
"""

from __future__ import annotations

import sys
import tarfile

REQUIRED = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "src/tikigames/__init__.py",
    "src/tikigames/py.typed",
    "tests/conformance/test_conformance.py",
    "tests/golden/",
    "docs/conf.py",
    "docs/index.rst",
    "docs/_ext/",
    "examples/kuhn_poker.py",
    ".ci/run",
)
FORBIDDEN = ("__pycache__", ".pyc", ".so", "docs/_build/", ".hypothesis")


def main(path: str) -> int:
    with tarfile.open(path) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    missing = [item for item in REQUIRED if not any(name.startswith(item) for name in names)]
    unwanted = sorted({name for name in names for bad in FORBIDDEN if bad in name})
    for item in missing:
        print(f"{path}: missing {item}")
    for name in unwanted[:20]:
        print(f"{path}: should not hold {name}")
    if missing or unwanted:
        return 1
    print(f"{path}: {len(names)} files, tests, docs, examples and changelog included")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

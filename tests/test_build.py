"""Which build runs: ``tikigames.compiled`` says it, and CI checks it says the truth.

CI runs the suite twice, on the pure-Python build and on the compiled one, and sets
``TIKIGAMES_EXPECT_COMPILED`` to ``1`` or ``0`` for each run; outside CI the variable is unset
and only the flag's consistency with the modules' files is checked.
"""

from __future__ import annotations

import importlib.metadata
import os

import tikigames
import tikigames.core.state
import tikigames.tactik.state


def test_the_compiled_flag_tells_the_build() -> None:
    assert isinstance(tikigames.compiled, bool)
    compiled_files = [
        not module.__file__.endswith(".py")  # type: ignore[union-attr]
        for module in (tikigames.core.state, tikigames.tactik.state)
    ]
    assert compiled_files == [tikigames.compiled] * 2
    expected = os.environ.get("TIKIGAMES_EXPECT_COMPILED")
    if expected is not None:
        assert tikigames.compiled == (expected == "1")


def test_the_version_is_the_same_in_the_package_and_its_metadata() -> None:
    # The metadata comes from pyproject.toml: a release bumps both (docs/releasing.rst).
    assert importlib.metadata.version("tikigames") == tikigames.__version__

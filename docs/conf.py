"""Sphinx configuration: built in CI with ``-W`` (warnings are errors) and its doctests run."""

from __future__ import annotations

import sys
from pathlib import Path

import tikigames

# The docs' own extensions (docs/_ext): pictures of real engine states (and the index's gallery,
# and the game server's view of a seat), the tensor and module tables, the games' rules and
# notation, the training curve and the Performance page's plot, all read from the package (or a
# committed bench run) at build time.
# Everything they and autodoc import is in the ``docs`` extra: pip install -e '.[docs]'.
sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "tikigames"
author = "tikigames developers"
copyright = "2026, tikigames developers"
release = tikigames.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "tikigames_pictures",
    "tikigames_tensors",
    "tikigames_training",
    "tikigames_modules",
    "tikigames_gallery",
    "tikigames_bench",
    "tikigames_help",
    "tikigames_server",
]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
python_use_unqualified_type_names = True
autodoc_default_options = {"members": True, "undoc-members": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True
doctest_test_doctest_blocks = "default"
doctest_global_setup = "import random, json, tikigames"

html_theme = "furo"
html_title = f"tikigames {release}"
html_static_path = ["_static"]
html_css_files = ["tikigames.css"]
exclude_patterns = ["_build"]

"""pytest's set-up for the docstring examples of ``src/`` (not part of the package).

``--import-mode=importlib`` imports each module file by itself. Collected before the package
was imported, ``tikigames/arena.py`` would be loaded a second time, and the second copy bound
over the package's ``tikigames.arena`` — the function the docstrings call — so that module's
examples failed when run alone. Importing the package first puts every module in
``sys.modules``, where pytest finds it and loads nothing twice.
"""

import tikigames  # noqa: F401

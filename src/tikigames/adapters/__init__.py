"""Adapters: the games in the frameworks people search and train with, each an optional extra.

- :mod:`tikigames.adapters.openspiel` (extra ``[openspiel]``): importing it registers every game
  with ``pyspiel`` as ``tikigames_<name>``;
- :mod:`tikigames.adapters.pettingzoo` (extra ``[pettingzoo]``): ``env(name, ...)``, an AEC
  environment with action masks;
- :mod:`tikigames.adapters.gymnasium` (extra ``[gymnasium]``): ``env(name, opponents, seat,
  ...)``, one seat against bots.

This package imports none of them: each is imported only when you import it, so ``import
tikigames`` never needs a framework.
"""

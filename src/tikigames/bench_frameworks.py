"""``tikigames bench --frameworks``: the games' speed through the frameworks' own APIs, side by
side with the frameworks' own games, in one run on one machine.

:func:`bench_frameworks` has two separate parts:

- **PettingZoo.** Each tikigames game (default options) through
  :func:`tikigames.adapters.pettingzoo.env`, and PettingZoo's classic environments where they
  install (``pip install 'pettingzoo[classic]'``: connect four, tic-tac-toe, Leduc and Texas
  hold'em, chess), all wrapped as ``env()`` wraps them, all driven by one loop: for each agent
  of ``agent_iter()``, ``last()``, a uniform legal action from the observation's
  ``action_mask`` (``None`` for a dead agent) and ``step``. The figure is agent steps per
  second, dead steps included, episodes played one after another to the end.
- **OpenSpiel.** Each tikigames game as ``tikigames_<name>`` through the OpenSpiel adapter
  (:mod:`tikigames.adapters.openspiel`, where it is installed), and OpenSpiel's own games
  written in Python (tic-tac-toe, Kuhn poker, Liar's poker), all driven by the loop an
  OpenSpiel user writes: ``legal_actions()`` or ``chance_outcomes()``, one drawn at random,
  ``apply_action``. The figure is actions per second, chance outcomes included.

Each figure is the median of ``rounds`` rounds of about ``seconds`` each, the rounds of a part
interleaved (each round measures every environment in turn), so that a load that comes and goes
on the machine weighs on all of them alike. A benchmark, not a test: nothing here asserts a
speed. PettingZoo, OpenSpiel and the adapters are imported only when measured; what is missing
is left out, with a line saying what to install.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import tikigames
from tikigames.bench import (
    Measuring,
    check_budget,
    environment,
    openspiel_style,
    optional_module,
    package_version,
    rate_text,
)

__all__ = [
    "OPENSPIEL_PYTHON_GAMES",
    "PETTINGZOO_GAMES",
    "FrameworkRate",
    "FrameworksRun",
    "bench_frameworks",
]

#: PettingZoo's classic environments measured, by name, with their module.
PETTINGZOO_GAMES: Final[dict[str, str]] = {
    "tictactoe_v3": "pettingzoo.classic.tictactoe_v3",
    "connect_four_v3": "pettingzoo.classic.connect_four_v3",
    "leduc_holdem_v4": "pettingzoo.classic.leduc_holdem_v4",
    "texas_holdem_v4": "pettingzoo.classic.texas_holdem_v4",
    "chess_v6": "pettingzoo.classic.chess_v6",
}
#: OpenSpiel's games written in Python measured, by name, with the module that registers each
#: (not :data:`tikigames.bench.OPENSPIEL_YARDSTICKS`, the C++ and Python yardsticks of
#: ``tikigames bench --compare``).
OPENSPIEL_PYTHON_GAMES: Final[dict[str, str]] = {
    "python_tic_tac_toe": "open_spiel.python.games.tic_tac_toe",
    "python_kuhn_poker": "open_spiel.python.games.kuhn_poker",
    "python_liars_poker": "open_spiel.python.games.liars_poker",
}
_PETTINGZOO_ADAPTER: Final = "tikigames.adapters.pettingzoo"
_OPENSPIEL_ADAPTER: Final = "tikigames.adapters.openspiel"


@dataclass(frozen=True)
class FrameworkRate:
    """One environment's figure: ``steps_per_s`` is the median over the rounds, ``samples``
    every round's value, ``mean_length`` the steps of an episode (``None`` if no episode ended
    within the time).

    Attributes:
        framework: ``"pettingzoo"`` or ``"openspiel"``.
        name: the environment's or the game's name in that framework.
        tikigames: whether it is a tikigames game (else the framework's own).
    """

    framework: str
    name: str
    tikigames: bool
    steps_per_s: float
    samples: list[float]
    mean_length: float | None


@dataclass(frozen=True)
class FrameworksRun:
    """One run of :func:`bench_frameworks`: where it ran, each framework's version (``None``
    when it is not installed), every figure, and what was left out and why."""

    environment: dict[str, Any]
    seconds: float
    rounds: int
    versions: dict[str, str | None]
    rates: list[FrameworkRate]
    missing: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The run as JSON data: ``environment``, ``seconds``, ``rounds``, ``versions``,
        ``missing`` and, under ``pettingzoo`` and ``openspiel``, per name, ``tikigames``,
        ``steps_per_s``, ``samples`` and ``mean_length``."""
        data: dict[str, Any] = {
            "environment": self.environment,
            "seconds": self.seconds,
            "rounds": self.rounds,
            "versions": self.versions,
            "missing": self.missing,
        }
        for framework in ("pettingzoo", "openspiel"):
            data[framework] = {
                rate.name: {
                    "tikigames": rate.tikigames,
                    "steps_per_s": rate.steps_per_s,
                    "samples": rate.samples,
                    "mean_length": rate.mean_length,
                }
                for rate in self.rates
                if rate.framework == framework
            }
        return data


# The loops. Each runs for about ``seconds`` of wall time (at least one step) and draws its
# random choices from ``rng``.


def _pettingzoo_steps(aec: Any, seconds: float, rng: random.Random) -> tuple[float, float | None]:
    """Agent steps/s of random legal play on the AEC environment ``aec``, and the mean
    episode length (``None`` if none ended)."""
    steps = episodes = ended_steps = 0
    aec.reset(seed=rng.randrange(2**31))
    start = time.perf_counter()
    while True:
        for _agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            aec.step(action)
            steps += 1
            if time.perf_counter() - start >= seconds:
                break
        else:  # the episode ended
            episodes += 1
            ended_steps = steps
            aec.reset()
            continue
        break
    elapsed = time.perf_counter() - start
    agent_steps_per_s = steps / elapsed
    return agent_steps_per_s, (ended_steps / episodes if episodes else None)


#: A measuring loop: (the environment or game, seconds, rng) -> (steps/s, mean length).
_Loop = Callable[[Any, float, random.Random], tuple[float, float | None]]


@dataclass(frozen=True)
class _Target:
    """One environment or game to measure, with its loop."""

    framework: str
    name: str
    ours: bool
    loop: _Loop
    target: Any


def _measure(
    targets: Sequence[_Target], seconds: float, rounds: int, seed: int
) -> list[FrameworkRate]:
    """Every target's medians over ``rounds`` rounds. The rounds are interleaved (round ``r``
    measures each target in turn, drawing from ``random.Random(seed + r)``), so that a load
    that comes and goes on the machine weighs on all of them alike."""
    measured: list[list[tuple[float, float | None]]] = [[] for _ in targets]
    for r in range(rounds):
        for index, target in enumerate(targets):
            rng = random.Random(seed + r)
            measured[index].append(target.loop(target.target, seconds, rng))
    rates = []
    for target, results in zip(targets, measured, strict=True):
        samples = [rate for rate, _ in results]
        lengths = [length for _, length in results if length is not None]
        length = statistics.median(lengths) if lengths else None
        median = statistics.median(samples)
        rates.append(
            FrameworkRate(target.framework, target.name, target.ours, median, samples, length)
        )
    return rates


# The table, a line at a time.

_NAME_WIDTH: Final = 30


def _line(rate: FrameworkRate | None) -> str:
    if rate is None:
        return f"{'environment':{_NAME_WIDTH}}{'steps/s':>10}{'length':>10}"
    length = "" if rate.mean_length is None else f"{rate.mean_length:.1f}"
    label = rate.name if rate.tikigames else f"{rate.name} (own)"
    return f"{label:{_NAME_WIDTH}}{rate_text(rate.steps_per_s):>10}{length:>10}"


def _pettingzoo_part(
    names: Sequence[str], seconds: float, rounds: int, seed: int, say: Callable[[str], None]
) -> tuple[list[FrameworkRate], list[str]]:
    adapter = optional_module(_PETTINGZOO_ADAPTER, needs_optional=True)
    if adapter is None:
        return [], ["pettingzoo (pip install 'tikigames[pettingzoo]')"]
    targets = [_Target("pettingzoo", name, True, _pettingzoo_steps, adapter.env(name))
               for name in names]  # fmt: skip
    missing = []
    for name, module_name in PETTINGZOO_GAMES.items():
        module = optional_module(module_name, needs_optional=True)
        if module is None:
            missing.append(f"{name} (pip install 'pettingzoo[classic]')")
        else:
            targets.append(_Target("pettingzoo", name, False, _pettingzoo_steps, module.env()))
    rates = _measure(targets, seconds, rounds, seed)
    say("PettingZoo: agent steps/s of last(), a random legal action from the mask and step()")
    say(_line(None))
    for rate in rates:
        say(_line(rate))
    return rates, missing


def _openspiel_part(
    names: Sequence[str], seconds: float, rounds: int, seed: int, say: Callable[[str], None]
) -> tuple[list[FrameworkRate], list[str]]:
    pyspiel = optional_module("pyspiel", needs_optional=True)
    if pyspiel is None:
        return [], ["open_spiel (pip install 'tikigames[openspiel]')"]
    missing = []
    games: list[tuple[str, bool]] = []
    # Importing the adapter registers tikigames_<name>.
    if optional_module(_OPENSPIEL_ADAPTER, needs_optional=True) is None:
        missing.append(f"tikigames_<name> ({_OPENSPIEL_ADAPTER} is not available)")
    else:
        games += [(f"tikigames_{name}", True) for name in names]
    for name, module_name in OPENSPIEL_PYTHON_GAMES.items():
        # Importing it registers the game.
        if optional_module(module_name, needs_optional=True) is None:
            missing.append(f"{name} ({module_name} is not installed)")
        else:
            games.append((name, False))
    targets = [
        _Target("openspiel", name, ours, openspiel_style, pyspiel.load_game(name))
        for name, ours in games
    ]
    rates = _measure(targets, seconds, rounds, seed)
    say("OpenSpiel: actions/s of legal_actions() or chance_outcomes(), a random one, apply_action")
    say(_line(None))
    for rate in rates:
        say(_line(rate))
    return rates, missing


def bench_frameworks(
    names: Sequence[str] = tikigames.GAMES,
    seconds: float = 1.0,
    rounds: int = 3,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    measuring: Measuring | None = None,
) -> FrameworksRun:
    """Measure the games ``names`` (default options) and the frameworks' own games through
    PettingZoo, then through OpenSpiel, as far as each is installed, and return the run.

    ``progress`` gets the run's text a line at a time (what ``tikigames bench --frameworks``
    prints): the machine, then each part's table once the part is measured (its rounds are
    interleaved: each round measures every environment of the part in turn), then what was
    left out. ``measuring`` (:data:`tikigames.bench.Measuring`) gets ``"PettingZoo"`` and
    ``"OpenSpiel"`` as each part starts, then ``None``.

    Raises:
        ValueError: ``seconds`` is not positive or ``rounds`` is below 1.
    """
    check_budget(seconds, rounds)
    say = progress or (lambda line: None)
    env = environment()
    versions = {name: package_version(name) for name in ("pettingzoo", "open_spiel")}
    say(
        f"tikigames {env['tikigames']} (compiled = {env['compiled']}), Python {env['python']}, "
        f"{env['platform']}, {env['cpus']} CPUs; PettingZoo {versions['pettingzoo']}, "
        f"OpenSpiel {versions['open_spiel']}"
    )
    say(f"medians of {rounds} round{'s' if rounds > 1 else ''} of {seconds:g} s; (own): the "
        "framework's own game")  # fmt: skip
    starting = measuring or (lambda part: None)
    starting("PettingZoo")
    rates, missing = _pettingzoo_part(names, seconds, rounds, seed, say)
    say("")
    starting("OpenSpiel")
    more_rates, more_missing = _openspiel_part(names, seconds, rounds, seed, say)
    starting(None)
    rates += more_rates
    missing += more_missing
    for line in missing:
        say(f"left out: {line}")
    return FrameworksRun(env, seconds, rounds, versions, rates, missing)

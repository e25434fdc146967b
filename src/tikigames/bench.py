"""The figures of ``tikigames bench``: how fast each game's engine runs on this machine.

A benchmark, not a test: nothing here asserts a speed. Every figure is measured on positions of
random games, one game after another in one process, and is the median of several rounds, so
that a busy machine still gives figures worth comparing (:data:`FIGURES` defines them; the docs'
Performance page explains them). With ``compare``, OpenSpiel's tic-tac-toe (Python and C++) and
its C++ ``maedn`` run through the very loop of ``openspiel_style_per_s`` in the same run, and
python-chess generates legal moves, as yardsticks: each game's rates are then also given as
multiples of theirs. The yardsticks are measured anew in each round of each game, in slices of
0.1 s taken in turn with the slices of the game's three rates, and a multiple is the median of
the rounds' ratios: on a machine shared with other jobs a rate can move by half within a second,
and a yardstick measured even seconds before the game would carry that drift into its
multiples. OpenSpiel and python-chess are optional (``tikigames[compare]``),
imported only when asked for.

The loops here are the user's own and stay interpreted (the compiled build leaves this module
out): they measure the engines as a Python caller drives them.

>>> import tikigames
>>> result = bench_game(tikigames.load("tiki_topple"), seconds=0.01, rounds=1)
>>> sorted(result.figures) == sorted(FIGURES)
True

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import math
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

import tikigames
from tikigames.bots import ISMCTSBot, MCTSBot
from tikigames.core.bot import Bot
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.state import State

__all__ = [
    "FIGURES",
    "OPENSPIEL_YARDSTICKS",
    "Bench",
    "BenchRun",
    "Comparison",
    "Counts",
    "Measuring",
    "Meter",
    "bench",
    "bench_game",
    "check_budget",
    "environment",
    "in_turns",
    "openspiel_style",
    "optional_module",
    "package_version",
    "rate_text",
]

#: The search bot's iterations per move in ``search_it_per_s``.
_SEARCH_ITERATIONS: Final = 200

#: Every figure :func:`bench_game` measures, by its key in :attr:`Bench.figures` and the JSON:
#: a rate per second (``_per_s``) or microseconds per call (``_us``).
FIGURES: Final[dict[str, str]] = {
    "openspiel_style_per_s": "playout actions/s through legal_actions(), chance_outcomes() and "
    "apply_action (a chance outcome drawn from the list), as an OpenSpiel user writes it",
    "library_style_per_s": "playout actions/s through the fast path: "
    "apply_unchecked(random_action(rng)), which draws chance outcomes with sample_chance",
    "legal_per_s": "legal actions generated per second of legal_actions() (that time only), "
    "over the fresh positions of random games",
    "apply_undo_per_s": "apply_action + undo_action pairs/s: every legal action at 200 "
    "positions of random games",
    "clone_us": "µs per state.clone(), 50 actions into a random game",
    "observation_us": "µs per state.observation(player), 50 actions into a random game",
    "resample_us": "µs per game.resample(obs, rng) (prepare, then draw), 50 actions into a game",
    "resampler_draw_us": "µs per draw(rng) of a prepared draw = game.resampler(obs), "
    "50 actions into a game",
    "svg_us": "µs per state.svg() (the whole position's picture), 50 actions into a game",
    "obs_svg_us": "µs per obs.svg() (one player's picture), 50 actions into a game",
    "tensor_us": "µs per obs.tensor() (one player's observation tensor), 50 actions into a game",
    "search_it_per_s": f"search iterations/s of ISMCTSBot (MCTSBot for Paikō) at "
    f"iterations={_SEARCH_ITERATIONS}, at 30 positions of random games",
    "mean_game_length": "actions per random game, chance outcomes included",
}

#: The OpenSpiel games of ``compare``, each with the module that registers it (``None``: a game
#: of OpenSpiel's C++ core).
OPENSPIEL_YARDSTICKS: Final[dict[str, str | None]] = {
    "python_tic_tac_toe": "open_spiel.python.games.tic_tac_toe",
    "tic_tac_toe": None,
    "maedn": None,
}

#: The optional modules of ``compare``, with the distribution that installs each.
_DISTRIBUTIONS: Final[dict[str, str]] = {"pyspiel": "open_spiel", "chess": "chess"}

_MCTS_GAMES: Final = ("paiko",)  # perfect information: MCTSBot, not ISMCTSBot
_INTO_GAME: Final = 50
_SEARCH_POSITIONS: Final = 30
_UNDO_POSITIONS: Final = 200
#: The seconds of one slice of a rate measured in turns with others (:func:`in_turns`).
_SLICE: Final = 0.1

#: The structured progress of :func:`bench` and of
#: :func:`~tikigames.bench_frameworks.bench_frameworks`: called with the name of what is
#: measured from now on (a game's name, or a part of the run), and with ``None`` once nothing
#: is measured any more. A status line shows it, without reading the run's printed lines.
Measuring = Callable[[str | None], None]


@dataclass(frozen=True)
class Bench:
    """The figures of one game, or of one yardstick of ``compare``: ``figures`` are the medians
    over the rounds and ``samples`` every round's value, by the keys of :data:`FIGURES`."""

    name: str
    figures: dict[str, float]
    samples: dict[str, list[float]]


@dataclass(frozen=True)
class Comparison:
    """The yardsticks of ``compare``: OpenSpiel's games and python-chess, ``None`` where the
    package is missing (``missing`` names the distributions to install)."""

    openspiel: list[Bench] | None = None
    openspiel_version: str | None = None
    chess: Bench | None = None
    chess_version: str | None = None
    missing: list[str] = field(default_factory=list)
    #: Per game, per yardstick (an OpenSpiel game's name, or ``"chess"``), the yardstick's rate
    #: in each of the game's rounds, measured in turns with the game's rates
    #: (``openspiel_style_per_s``, or python-chess's ``legal_per_s``).
    paired: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def multiples(self, result: Bench) -> dict[str, dict[str, float]]:
        """``result``'s rates as multiples of each yardstick's: per OpenSpiel game, both
        playout rates over that game's ``openspiel_style_per_s``; under ``"chess"``, the
        ``legal_per_s`` over python-chess's. Each is the median over ``result``'s rounds of
        the round's rate over the yardstick's rate measured in turns with it (:attr:`paired`);
        a result without paired rounds is divided by the yardstick's median."""
        paired = self.paired.get(result.name, {})

        def ratio(key: str, reference: Bench, yardstick: str, figure: str) -> float:
            rates = paired.get(yardstick)
            own = result.samples[key]
            if rates is None or len(rates) != len(own):
                return result.figures[key] / reference.figures[figure]
            return statistics.median(mine / theirs for mine, theirs in zip(own, rates, strict=True))

        ratios: dict[str, dict[str, float]] = {}
        for reference in self.openspiel or ():
            ratios[reference.name] = {
                key: ratio(key, reference, reference.name, "openspiel_style_per_s")
                for key in ("openspiel_style_per_s", "library_style_per_s")
            }
        if self.chess is not None:
            ratios["chess"] = {
                "legal_per_s": ratio("legal_per_s", self.chess, "chess", "legal_per_s")
            }
        return ratios


@dataclass(frozen=True)
class BenchRun:
    """One run of :func:`bench`: where and how it ran, and every result."""

    environment: dict[str, Any]
    seconds: float
    rounds: int
    games: list[Bench]
    comparison: Comparison | None = None

    def to_json(self) -> dict[str, Any]:
        """The run as JSON data, with the keys ``environment`` (:func:`environment`),
        ``seconds``, ``rounds``, ``games`` (per game, its figures), ``samples`` (per game, every
        round's values) and, with ``compare``, ``compare``: ``openspiel`` (``version`` and
        ``games``, their figures), ``chess`` (``version`` and ``legal_per_s``), either ``None``
        when missing, ``multiples`` (per game, :meth:`Comparison.multiples`), ``missing``,
        and ``paired`` (:attr:`Comparison.paired`)."""
        data: dict[str, Any] = {
            "environment": self.environment,
            "seconds": self.seconds,
            "rounds": self.rounds,
            "games": {result.name: result.figures for result in self.games},
            "samples": {result.name: result.samples for result in self.games},
        }
        comparison = self.comparison
        if comparison is not None:
            openspiel = chess = None
            if comparison.openspiel is not None:
                games = {reference.name: reference.figures for reference in comparison.openspiel}
                openspiel = {"version": comparison.openspiel_version, "games": games}
            if comparison.chess is not None:
                legal = comparison.chess.figures["legal_per_s"]
                chess = {"version": comparison.chess_version, "legal_per_s": legal}
            data["compare"] = {
                "openspiel": openspiel,
                "chess": chess,
                "multiples": {result.name: comparison.multiples(result) for result in self.games},
                "missing": comparison.missing,
                "paired": comparison.paired,
            }
        return data


def environment() -> dict[str, Any]:
    """Which build of tikigames and which Python run the bench, on what machine: the keys
    ``tikigames`` (the version), ``compiled`` (:data:`tikigames.compiled`), ``python``,
    ``implementation``, ``platform`` and ``cpus``."""
    return {
        "tikigames": tikigames.__version__,
        "compiled": tikigames.compiled,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
    }


# The measurements. Each runs for about ``seconds`` of wall time, but at least one game, one
# pass or one move, and draws everything from ``rng``.


def openspiel_style(game: Any, seconds: float, rng: random.Random) -> tuple[float, float]:
    """Actions/s and the mean length of random playouts written as an OpenSpiel user does,
    whole games for at least ``seconds``. ``game`` is a tikigames game, an OpenSpiel one or a
    tikigames game through the OpenSpiel adapter: the same loop drives all three, so their
    rates compare."""
    actions, spent, games = _openspiel_counts(game, seconds, rng)
    return actions / spent, actions / games


#: What one slice of a rate counted: the things counted (actions, legal actions or moves), the
#: seconds spent on them, and the games played.
Counts = tuple[int, float, int]


def _openspiel_counts(game: Any, seconds: float, rng: random.Random) -> Counts:
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            actions += 1
        games += 1
    return actions, time.perf_counter() - start, games


def _library_counts(game: Game[Any, Any, Any], seconds: float, rng: random.Random) -> Counts:
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_unchecked(state.random_action(rng))
            actions += 1
        games += 1
    return actions, time.perf_counter() - start, games


def _legal_counts(game: Game[Any, Any, Any], seconds: float, rng: random.Random) -> Counts:
    generated = games = 0
    spent = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            before = time.perf_counter()
            legal = state.legal_actions()
            spent += time.perf_counter() - before
            generated += len(legal)
            state.apply_action(legal[rng.randrange(len(legal))])
        games += 1
    return generated, spent, games


def _chess_legal_counts(chess: Any, seconds: float, rng: random.Random) -> Counts:
    """python-chess's ``legal_per_s``, counted as the games' is: legal moves and the time of
    ``list(board.legal_moves)`` only, over the positions of random games."""
    generated = games = 0
    spent = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over():
            before = time.perf_counter()
            legal = list(board.legal_moves)
            spent += time.perf_counter() - before
            generated += len(legal)
            board.push(legal[rng.randrange(len(legal))])
        games += 1
    return generated, spent, games


class Meter:
    """One rate measured a slice at a time (:func:`in_turns`): ``measure(seconds, rng)`` counts
    one slice, and the rate is the counts summed over the slices."""

    __slots__ = ("counted", "games", "measure", "rng", "spent")

    def __init__(
        self, measure: Callable[[float, random.Random], Counts], rng: random.Random
    ) -> None:
        self.measure = measure
        self.rng = rng
        self.counted = self.games = 0
        self.spent = 0.0

    def run(self, seconds: float) -> None:
        counted, spent, games = self.measure(seconds, self.rng)
        self.counted += counted
        self.spent += spent
        self.games += games

    @property
    def rate(self) -> float:
        return self.counted / self.spent

    @property
    def per_game(self) -> float:
        return self.counted / self.games


def in_turns(meters: Sequence[Meter], seconds: float) -> None:
    """Run each meter for about ``seconds`` in all, in slices of about ``_SLICE`` (0.1) seconds
    taken in turn: a change of the machine's speed slower than one turn of the slices reaches
    every meter alike, so the ratio of two of them keeps only faster noise."""
    slices = max(1, round(seconds / _SLICE))
    for _ in range(slices):
        for meter in meters:
            meter.run(seconds / slices)


def _states(game: Game[Any, Any, Any], count: int, rng: random.Random) -> list[Any]:
    """``count`` positions of random games (one in five), cloned."""
    found: list[State[Any, Any, Any]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if rng.random() < 0.2:
                found.append(state.clone())
            state.apply_unchecked(state.random_action(rng))
    return found


def _apply_undo_per_s(game: Game[Any, Any, Any], seconds: float, rng: random.Random) -> float:
    positions = _states(game, _UNDO_POSITIONS, rng)
    pairs = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in positions:
            legal = state.legal_actions()
            for action in legal:
                state.apply_action(action)
                state.undo_action()
            pairs += len(legal)
    return pairs / (time.perf_counter() - start)


def _into_game(game: Game[Any, Any, Any], rng: random.Random) -> State[Any, Any, Any]:
    """A state ``_INTO_GAME`` actions into a random game (one that lasts that long)."""
    while True:
        state: State[Any, Any, Any] = game.new_initial_state()
        for _ in range(_INTO_GAME):
            if state.is_terminal():
                break
            state.apply_unchecked(state.random_action(rng))
        else:
            return state


def _per_call_us(call: Callable[[], object], seconds: float) -> float:
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            call()
        calls += 10
    return (time.perf_counter() - start) / calls * 1e6


def _observations(game: Game[Any, Any, Any], count: int, rng: random.Random) -> list[Any]:
    """``count`` observations of the player to move where there is a choice (one in ten such
    decisions of random games)."""
    found: list[Observation[Any]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            player = state.current_player()
            if player >= 0 and len(state.legal_actions()) > 1 and rng.random() < 0.1:
                found.append(state.observation(player))
            state.apply_unchecked(state.random_action(rng))
    return found


def _search_it_per_s(game: Game[Any, Any, Any], seconds: float, rng: random.Random) -> float:
    bot: Bot = (MCTSBot if game.name in _MCTS_GAMES else ISMCTSBot)(iterations=_SEARCH_ITERATIONS)
    # The same positions in every round: how long an iteration takes depends on the position.
    observations = _observations(game, _SEARCH_POSITIONS, random.Random(1))
    done = 0
    start = time.perf_counter()
    for obs in observations:
        bot.act(obs, rng)
        done += _SEARCH_ITERATIONS
        if time.perf_counter() - start > seconds:
            break
    return done / (time.perf_counter() - start)


def _round(
    game: Game[Any, Any, Any],
    seconds: float,
    rng: random.Random,
    alongside: Sequence[Meter] = (),
) -> dict[str, float]:
    """Every figure once: ``seconds`` per rate, a third of it per figure in µs. The three
    rates that ``compare`` relates to a yardstick are measured in turns with the meters
    ``alongside`` (the yardsticks', :func:`in_turns`)."""
    playout = Meter(partial(_openspiel_counts, game), rng)
    library = Meter(partial(_library_counts, game), rng)
    legal = Meter(partial(_legal_counts, game), rng)
    in_turns([*alongside, playout, library, legal], seconds)
    figures = {
        "openspiel_style_per_s": playout.rate,
        "library_style_per_s": library.rate,
        "legal_per_s": legal.rate,
        "apply_undo_per_s": _apply_undo_per_s(game, seconds, rng),
    }
    state = _into_game(game, rng)
    player = state.current_player()
    observer = player if player >= 0 else 0
    obs = state.observation(observer)
    draw = game.resampler(obs)
    figures["clone_us"] = _per_call_us(state.clone, seconds / 3)
    figures["observation_us"] = _per_call_us(lambda: state.observation(observer), seconds / 3)
    figures["resample_us"] = _per_call_us(lambda: game.resample(obs, rng), seconds / 3)
    figures["resampler_draw_us"] = _per_call_us(lambda: draw(rng), seconds / 3)
    figures["svg_us"] = _per_call_us(state.svg, seconds / 3)
    figures["obs_svg_us"] = _per_call_us(obs.svg, seconds / 3)
    figures["tensor_us"] = _per_call_us(obs.tensor, seconds / 3)
    figures["search_it_per_s"] = _search_it_per_s(game, seconds, rng)
    figures["mean_game_length"] = playout.per_game
    return figures


def _medians(name: str, rounds: Sequence[dict[str, float]]) -> Bench:
    samples = {key: [figures[key] for figures in rounds] for key in rounds[0]}
    return Bench(name, {key: statistics.median(values) for key, values in samples.items()}, samples)


def check_budget(seconds: float, rounds: int) -> None:
    """``seconds`` and ``rounds`` make a measurement (a ``ValueError`` says what is wrong)."""
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds!r}")


def bench_game(
    game: Game[Any, Any, Any], seconds: float = 1.0, rounds: int = 3, seed: int = 0
) -> Bench:
    """Measure every figure of :data:`FIGURES` on ``game`` in each of ``rounds`` rounds (round
    ``r`` draws from ``random.Random(seed + r)``), about ``6 * seconds`` a round, and return
    the medians.

    Raises:
        ValueError: ``seconds`` is not positive or ``rounds`` is below 1.
    """
    check_budget(seconds, rounds)
    measured = [_round(game, seconds, random.Random(seed + r)) for r in range(rounds)]
    return _medians(game.name, measured)


def optional_module(module: str, *, needs_optional: bool = False) -> Any:
    """The optional module ``module``, imported by name, or ``None`` where it is not installed.
    A package it fails to import is an error, unless ``needs_optional`` (the module's own
    dependencies are optional too, as PettingZoo's classic games need pygame and rlcard)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module and not needs_optional:
            raise
        return None


def package_version(distribution: str) -> str | None:
    """The installed version of ``distribution``, or ``None``."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


# The text of a run, line by line as it goes (``progress``).


def rate_text(value: float) -> str:
    """Three significant digits: 812, 81.2k, 8.12M."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale * 0.9995:  # what rounds to 1000 of a unit is 1 of the next
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def _us(value: float) -> str:
    return f"{value:,.0f}" if value >= 999.5 else f"{value:.3g}"


def _times(value: float) -> str:
    return _us(value) + "x"


#: The columns of a game's line: key, title, format.
_COLUMNS: Final[tuple[tuple[str, str, Callable[[float], str]], ...]] = (
    ("openspiel_style_per_s", "playout/s", rate_text),
    ("library_style_per_s", "fast/s", rate_text),
    ("legal_per_s", "legal/s", rate_text),
    ("apply_undo_per_s", "apply+undo/s", rate_text),
    ("clone_us", "clone µs", _us),
    ("observation_us", "obs µs", _us),
    ("resample_us", "resample µs", _us),
    ("resampler_draw_us", "draw µs", _us),
    ("svg_us", "svg µs", _us),
    ("obs_svg_us", "obs svg µs", _us),
    ("tensor_us", "tensor µs", _us),
    ("search_it_per_s", "search it/s", rate_text),
    ("mean_game_length", "length", lambda value: f"{value:.1f}"),
)
_NAME_WIDTH: Final = 14
_YARDSTICK_WIDTH: Final = 28


def _row(name: str, cells: Sequence[str], widths: Sequence[int], first: int = _NAME_WIDTH) -> str:
    return f"{name:{first}}" + "".join(f"{c:>{w + 2}}" for c, w in zip(cells, widths, strict=True))


def _line(result: Bench | None) -> str:
    """The games' table: its head for ``None``, else ``result``'s line."""
    widths = [max(len(title), 6) for _, title, _ in _COLUMNS]
    if result is None:
        return _row("game", [title for _, title, _ in _COLUMNS], widths)
    cells = [show(result.figures[key]) for key, _, show in _COLUMNS]
    return _row(result.name, cells, widths)


def _header(env: dict[str, Any], seconds: float, rounds: int) -> list[str]:
    build = "the mypyc build" if env["compiled"] else "pure Python"
    return [
        f"tikigames {env['tikigames']}, tikigames.compiled = {env['compiled']} ({build}); "
        f"Python {env['python']} ({env['implementation']}), {env['platform']}, "
        f"{env['cpus']} CPUs",
        f"medians of {rounds} round{'s' if rounds > 1 else ''}, {seconds:g} s per rate and "
        f"{seconds / 3:.3g} s per µs figure (definitions: tikigames bench --help)",
    ]


def _yardstick(name: str, playout: float | None, legal: float | None) -> str:
    cells = ["" if value is None else rate_text(value) for value in (playout, legal)]
    return _row(name, cells, [9, 9], _YARDSTICK_WIDTH)


def _multiples_table(run: BenchRun) -> list[str]:
    comparison = run.comparison
    if comparison is None or not run.games or not (comparison.openspiel or comparison.chess):
        return []  # no yardstick, or no game to divide by it
    titles = [reference.name for reference in comparison.openspiel or ()]
    titles += ["python-chess"] if comparison.chess is not None else []
    rows = []
    for result in run.games:
        ratios = comparison.multiples(result)
        cells = [
            f"{_times(pair['openspiel_style_per_s'])} / {_times(pair['library_style_per_s'])}"
            for name, pair in ratios.items()
            if name != "chess"
        ]
        if "chess" in ratios:
            cells.append(_times(ratios["chess"]["legal_per_s"]))
        rows.append((result.name, cells))
    widths = [
        max(len(title), *(len(cells[i]) for _, cells in rows)) for i, title in enumerate(titles)
    ]
    return [
        "",
        "as multiples of the yardsticks' rates (OpenSpiel: playout/s and fast/s over its "
        "playout/s; python-chess: legal/s over its legal/s):",
        _row("game", titles, widths),
        *(_row(name, cells, widths) for name, cells in rows),
    ]


class _Yardsticks:
    """The yardsticks of ``compare`` that are installed, ready to be measured a round at a
    time: OpenSpiel's games (loaded once) and python-chess."""

    def __init__(self, say: Callable[[str], None]) -> None:
        modules = {module: optional_module(module) for module in _DISTRIBUTIONS}
        self.missing = [_DISTRIBUTIONS[name] for name, module in modules.items() if module is None]
        for distribution in self.missing:
            say(
                f"{distribution} is not installed, so --compare leaves it out "
                f"(pip install {distribution}, or pip install 'tikigames[compare]')"
            )
        pyspiel, self.chess = modules["pyspiel"], modules["chess"]
        self.openspiel: dict[str, Any] | None = None
        if pyspiel is not None:
            self.openspiel = {}
            for name, module in OPENSPIEL_YARDSTICKS.items():
                if module is not None:
                    importlib.import_module(module)  # registers the Python game with pyspiel
                self.openspiel[name] = pyspiel.load_game(name)
        self.rounds: list[dict[str, dict[str, float]]] = []

    def meters(self, rng: random.Random) -> dict[str, Meter]:
        """A round's meter of each yardstick, by name (``"chess"``: python-chess's), to be run
        in turns with a game's (:func:`in_turns`) and then :meth:`record`-ed."""
        meters = {
            name: Meter(partial(_openspiel_counts, game), rng)
            for name, game in (self.openspiel or {}).items()
        }
        if self.chess is not None:
            meters["chess"] = Meter(partial(_chess_legal_counts, self.chess), rng)
        return meters

    def record(self, meters: dict[str, Meter]) -> dict[str, float]:
        """Keep a round's :meth:`meters`, once run; return each one's rate by name."""
        measured: dict[str, dict[str, float]] = {}
        for name, meter in meters.items():
            if name == "chess":
                measured[name] = {"legal_per_s": meter.rate}
            else:
                measured[name] = {
                    "openspiel_style_per_s": meter.rate,
                    "mean_game_length": meter.per_game,
                }
        self.rounds.append(measured)
        return {name: meter.rate for name, meter in meters.items()}

    def measure(self, seconds: float, rng: random.Random) -> dict[str, float]:
        """One round of the yardsticks alone: each one's rate by name."""
        meters = self.meters(rng)
        in_turns(list(meters.values()), seconds)
        return self.record(meters)

    def comparison(self, paired: dict[str, dict[str, list[float]]]) -> Comparison:
        """Every round measured so far, as the run's :class:`Comparison`."""
        openspiel = chess = None
        if self.openspiel is not None:
            openspiel = [
                _medians(name, [measured[name] for measured in self.rounds])
                for name in self.openspiel
            ]
        if self.chess is not None:
            chess = _medians("python-chess", [measured["chess"] for measured in self.rounds])
        return Comparison(
            openspiel,
            package_version("open_spiel") if self.openspiel is not None else None,
            chess,
            package_version("chess") if self.chess is not None else None,
            self.missing,
            paired,
        )


def _yardstick_lines(comparison: Comparison) -> list[str]:
    if not (comparison.openspiel or comparison.chess):
        return []
    lines = ["", _row("yardstick", ["playout/s", "legal/s"], [9, 9], _YARDSTICK_WIDTH)]
    for reference in comparison.openspiel or ():
        module = OPENSPIEL_YARDSTICKS[reference.name]
        label = f"{reference.name} ({'Python' if module else 'C++'})"
        lines.append(_yardstick(label, reference.figures["openspiel_style_per_s"], None))
    if comparison.chess is not None:
        chess = comparison.chess
        lines.append(_yardstick(chess.name, None, chess.figures["legal_per_s"]))
    return lines


def bench(
    names: Sequence[str] = tikigames.GAMES,
    seconds: float = 1.0,
    rounds: int = 3,
    compare: bool = False,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    measuring: Measuring | None = None,
) -> BenchRun:
    """Measure the games ``names`` as :func:`bench_game` does and return the run. With
    ``compare``, the yardsticks (OpenSpiel's games, then python-chess, as far as they are
    installed) are measured in each round of each game, with the round's generator, in slices
    of 0.1 s taken in turn with the slices of the game's three rates (playouts both ways and
    legal actions: a round of ``seconds`` is ``seconds`` of each, ten slices of each at the
    default 1 s), and each multiple is the median of the rounds' ratios
    (:meth:`Comparison.multiples`); a yardstick's figures are its medians over every round of
    the run.

    ``progress`` gets the run's text a line at a time, as soon as each line is known: first the
    build and the Python version, then each game's line as it is measured, then (with
    ``compare``) the yardsticks' lines and the multiples. That is what ``tikigames bench``
    prints. ``measuring`` (:data:`Measuring`) gets each game's name as its measurement starts
    (``"the yardsticks"`` when ``compare`` measures them with no game), then ``None``.

    >>> from tikigames.bench import bench
    >>> started = []
    >>> run = bench(["tiki_topple"], seconds=0.01, rounds=1, measuring=started.append)
    >>> started
    ['tiki_topple', None]

    Raises:
        ValueError: ``seconds`` is not positive or ``rounds`` is below 1.
    """
    check_budget(seconds, rounds)
    say = progress or (lambda line: None)
    starting = measuring or (lambda name: None)
    env = environment()
    for line in _header(env, seconds, rounds):
        say(line)
    yardsticks = _Yardsticks(say) if compare else None
    say(_line(None))
    results = []
    paired: dict[str, dict[str, list[float]]] = {}
    for name in names:
        game = tikigames.load(name)
        starting(name)
        measured, pairs = [], []
        for r in range(rounds):
            if yardsticks is None:
                measured.append(_round(game, seconds, random.Random(seed + r)))
                continue
            meters = yardsticks.meters(random.Random(seed + r))
            alongside = list(meters.values())
            measured.append(_round(game, seconds, random.Random(seed + r), alongside))
            pairs.append(yardsticks.record(meters))
        results.append(_medians(name, measured))
        say(_line(results[-1]))
        if pairs:
            paired[name] = {key: [pair[key] for pair in pairs] for key in pairs[0]}
    comparison = None
    if yardsticks is not None:
        if not yardsticks.rounds:  # no game: the yardsticks alone
            starting("the yardsticks")
            for r in range(rounds):
                yardsticks.measure(seconds, random.Random(seed + r))
        comparison = yardsticks.comparison(paired)
    starting(None)
    if comparison is not None:
        for line in _yardstick_lines(comparison):
            say(line)
    run = BenchRun(env, seconds, rounds, results, comparison)
    for line in _multiples_table(run):
        say(line)
    return run

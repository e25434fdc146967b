"""The arena: a tournament of bots over many seeded games, played in parallel processes or on
a Ray cluster, recorded durably as it goes.

Reproducibility comes first: game ``i`` is played with a seed derived from the tournament's seed
and ``i`` alone (:func:`game_seed`), and with the lineup rotated ``i`` seats, so the results are
the same whatever the backend, the number of workers and whichever worker plays which game. The
bots are sent to each worker once; they should keep no state between games (the library's bots
keep none), or the results would depend on which games a worker happened to play.

Bots are scored by **label**: seats with the same label are one team (Tac-Tik's partners sit
opposite, so a lineup ``a, b, a, b`` keeps them opposite under rotation). A label *wins* a game
when one of its seats has a positive return, *loses* when all of its seats have negative
returns, and *draws* otherwise (a draw, or a win shared by every player). Rates carry Wilson 95%
confidence intervals.

Durability: with ``out=FILE`` each finished game is appended to a JSON-lines file
(:mod:`tikigames.records`) at once, and ``resume=True`` plays only the games the file lacks.
Faults: a bot that raises, or a worker process that dies, costs its game only — the game is
reported as a :class:`GameError` with its index and seed, apart from the results, and the
tournament goes on. :func:`round_robin` plays every pairing of several bots and rates them
(:mod:`tikigames.ratings`).

A tool, in the top layer: built on the library, it may import any of it. Ray is imported only
when ``backend="ray"``.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import os
import random
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Literal

from tikigames.core.action import Action
from tikigames.core.bot import Bot
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.play import play
from tikigames.ratings import Rating, bradley_terry
from tikigames.records import RecordFile

__all__ = [
    "ArenaResult",
    "BotRecord",
    "GameError",
    "GameRecord",
    "Pairing",
    "arena",
    "game_seed",
    "round_robin",
    "wilson",
]

#: Where the games are played: in local processes, or as tasks on a Ray cluster.
Backend = Literal["processes", "ray"]

#: The first line of an ``out=`` file: what it records (its other keys identify the tournament).
RECORDS_FORMAT = "tikigames-arena/1"

#: The error of a game whose worker died twice (the message is the same on every backend).
WORKER_DIED = "WorkerDied: the worker process died while playing this game, twice"

#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): unlike the normal
    approximation it stays inside [0, 1] and is sound for rates near 0 or 1 and few trials.

    >>> from tikigames.arena import wilson
    >>> low, high = wilson(45, 50)
    >>> round(low, 3), round(high, 3)
    (0.786, 0.957)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament seeded ``seed``: a hash of both, so that it
    depends on nothing else (not on the workers, nor on Python's hash randomisation)."""
    digest = hashlib.sha256(f"tikigames-arena/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class GameRecord:
    """One game of a tournament.

    Attributes:
        index: the game's number (0-based); the lineup was rotated ``index`` seats.
        seed: the seed ``tikigames.play`` was given (see :func:`game_seed`).
        labels: the label of the bot in each seat.
        returns: each seat's return.
        length: the number of actions, chance outcomes included.
        moves: the number of decisions each seat took (forced moves included).
        seconds: each seat's thinking time (not compared: it varies from run to run).
    """

    index: int
    seed: int
    labels: tuple[str, ...]
    returns: tuple[float, ...]
    length: int
    moves: tuple[int, ...]
    seconds: tuple[float, ...] = field(compare=False)

    def outcome(self, label: str) -> int:
        """+1 if ``label`` won this game (one of its seats has a positive return), −1 if it lost
        (all its seats negative), 0 otherwise."""
        pairs = zip(self.returns, self.labels, strict=True)
        mine = [r for r, seat_label in pairs if seat_label == label]
        if any(r > 0 for r in mine):
            return 1
        if all(r < 0 for r in mine):
            return -1
        return 0

    def to_json(self, *, seconds: bool = False) -> dict[str, Any]:
        """The record as a JSON-ready dict (with the timings if ``seconds``)."""
        data: dict[str, Any] = {
            "index": self.index,
            "seed": self.seed,
            "labels": list(self.labels),
            "returns": list(self.returns),
            "length": self.length,
            "moves": list(self.moves),
        }
        if seconds:
            data["seconds"] = list(self.seconds)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """The record :meth:`to_json` wrote (timings default to 0 when absent)."""
        moves = tuple(int(m) for m in data["moves"])
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            labels=tuple(str(label) for label in data["labels"]),
            returns=tuple(float(r) for r in data["returns"]),
            length=int(data["length"]),
            moves=moves,
            seconds=tuple(float(x) for x in data.get("seconds", [0.0] * len(moves))),
        )


@dataclass(frozen=True)
class GameError:
    """A game that could not be played to its end: a bot raised, or its worker died (twice).
    ``tikigames.play(game, seated_bots, seed=error.seed)`` replays it.

    Attributes:
        index: the game's number; its lineup was rotated as for any game of that number.
        seed: its seed (see :func:`game_seed`).
        labels: the label of the bot in each seat.
        error: the exception's type and message (or :data:`WORKER_DIED`).
        details: the traceback, or what the backend said (not compared).
    """

    index: int
    seed: int
    labels: tuple[str, ...]
    error: str
    details: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        """The error as a JSON-ready dict."""
        return {
            "index": self.index,
            "seed": self.seed,
            "labels": list(self.labels),
            "error": self.error,
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameError:
        """The error :meth:`to_json` wrote."""
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            labels=tuple(str(label) for label in data["labels"]),
            error=str(data["error"]),
            details=str(data.get("details", "")),
        )


@dataclass(frozen=True)
class Pairing:
    """The games of a round robin between two labels, from ``a``'s side.

    Attributes:
        a, b: the two labels, in the order of the players given.
        games: the games played between them (errors not counted).
        a_wins, draws, b_wins: how they ended (a draw: both won, or neither).
    """

    a: str
    b: str
    games: int
    a_wins: int
    draws: int
    b_wins: int

    def to_json(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict."""
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_wins": self.a_wins,
            "draws": self.draws,
            "b_wins": self.b_wins,
        }


@dataclass(frozen=True)
class BotRecord:
    """One label's results over a tournament.

    Attributes:
        label: the bot's label.
        seats: how many seats the label holds in each game (more than one: a team; in a round
            robin of a game of an odd number of seats, where it varies, the most it held).
        games, wins, draws, losses: counts of the games it played (see the module's docstring
            for the rule).
        mean_return: the mean over games of the label's mean return per seat.
        moves: decisions taken in all (forced moves included).
        seconds: thinking time in all (not compared).
    """

    label: str
    seats: int
    games: int
    wins: int
    draws: int
    losses: int
    mean_return: float
    moves: int
    seconds: float = field(compare=False)

    @property
    def win_rate(self) -> float:
        """Wins per game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def draw_rate(self) -> float:
        """Draws per game."""
        return self.draws / self.games if self.games else 0.0

    @property
    def loss_rate(self) -> float:
        """Losses per game."""
        return self.losses / self.games if self.games else 0.0

    @property
    def win_ci(self) -> tuple[float, float]:
        """The Wilson 95% confidence interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def draw_ci(self) -> tuple[float, float]:
        """The Wilson 95% confidence interval of the draw rate."""
        return wilson(self.draws, self.games)

    @property
    def loss_ci(self) -> tuple[float, float]:
        """The Wilson 95% confidence interval of the loss rate."""
        return wilson(self.losses, self.games)

    @property
    def seconds_per_move(self) -> float:
        """Mean thinking time per decision."""
        return self.seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        """The counts, rates and intervals as a JSON-ready dict."""
        return {
            "label": self.label,
            "seats": self.seats,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "win_ci": list(self.win_ci),
            "draw_rate": self.draw_rate,
            "draw_ci": list(self.draw_ci),
            "loss_rate": self.loss_rate,
            "loss_ci": list(self.loss_ci),
            "mean_return": self.mean_return,
            "moves": self.moves,
            "seconds_per_move": self.seconds_per_move,
        }


@dataclass(frozen=True)
class ArenaResult:
    """A tournament's results: per label (:attr:`bots`, or ``result[label]``) and per game.

    Equal seeds give equal results (``==`` ignores timings, the backend, the worker count, the
    elapsed time and how many games were read back from an ``out`` file).

    Attributes:
        game: the game played, with its options.
        seed: the tournament's seed (drawn at random when none was given).
        lineup: the label of each bot as given, before rotation (a round robin: the players).
        bots: one record per distinct label, in lineup order.
        records: one record per game played to its end, in game order.
        workers: the number of workers (not compared).
        elapsed: wall time in seconds of this run (not compared).
        errors: the games that failed, in game order, apart from :attr:`records`.
        round_robin: whether this is a round robin (:func:`round_robin`).
        ratings: a round robin's Bradley–Terry ratings (Elo scale, 95% intervals), in lineup
            order; empty otherwise, or when the games so far cannot rate every player.
        backend: ``"processes"`` or ``"ray"`` (not compared).
        resumed: how many games (and errors) were read back from the ``out`` file rather than
            played (not compared).
    """

    game: Game[Any, Any, Any]
    seed: int
    lineup: tuple[str, ...]
    bots: tuple[BotRecord, ...]
    records: tuple[GameRecord, ...]
    workers: int = field(compare=False)
    elapsed: float = field(compare=False)
    errors: tuple[GameError, ...] = ()
    round_robin: bool = False
    ratings: tuple[Rating, ...] = ()
    backend: str = field(default="processes", compare=False)
    resumed: int = field(default=0, compare=False)

    def __getitem__(self, label: str) -> BotRecord:
        for record in self.bots:
            if record.label == label:
                return record
        raise KeyError(label)

    @property
    def games(self) -> int:
        """The number of games played to their end (errors apart)."""
        return len(self.records)

    @property
    def mean_length(self) -> float:
        """The mean number of actions per game, chance outcomes included."""
        return sum(r.length for r in self.records) / len(self.records) if self.records else 0.0

    @property
    def mean_moves(self) -> float:
        """The mean number of decisions per game (all seats, forced moves included)."""
        total = sum(sum(r.moves) for r in self.records)
        return total / len(self.records) if self.records else 0.0

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        """A round robin's results per pair of labels, in the order of the pairs played (empty
        for other tournaments)."""
        if not self.round_robin:
            return ()
        return tuple(
            _pairing(a, b, self.records) for a, b in itertools.combinations(self.lineup, 2)
        )

    def table(self) -> str:
        """A readable table: per label the win, draw and loss rates with their 95% intervals,
        the mean return and the thinking time per move; then the mean game length; a round
        robin's ratings and pairings; the errors, each with its game's index and seed."""
        options = ", ".join(f"{k}={v}" for k, v in self.game.options.items())
        failed = f" ({len(self.errors)} more failed)" if self.errors else ""
        kind = (
            "round robin of every pairing, seats rotated" if self.round_robin else "seats rotated"
        )
        lines = [
            f"{self.game.name} ({options}): {self.games} games{failed}, seed {self.seed}, {kind}",
            f"{'bot':<16} {'seats':>5} {'win':>22} {'draw':>22} {'loss':>22}"
            f" {'return':>7} {'s/move':>8}",
        ]

        def rate(value: float, interval: tuple[float, float]) -> str:
            return f"{value:6.1%} [{interval[0]:5.1%}, {interval[1]:5.1%}]"

        for bot in self.bots:
            lines.append(
                f"{bot.label:<16} {bot.seats:>5} {rate(bot.win_rate, bot.win_ci):>22}"
                f" {rate(bot.draw_rate, bot.draw_ci):>22} {rate(bot.loss_rate, bot.loss_ci):>22}"
                f" {bot.mean_return:>+7.3f} {bot.seconds_per_move:>8.4f}"
            )
        lines.append(
            f"mean game length: {self.mean_length:.1f} actions ({self.mean_moves:.1f} decisions);"
            f" 95% Wilson intervals; {self.elapsed:.1f} s on {self.workers} worker(s)"
            f" ({self.backend})" + (f", {self.resumed} game(s) resumed" if self.resumed else "")
        )
        if self.round_robin:
            lines.append(
                "ratings (Bradley–Terry, Elo scale, mean 0, 95% Wald intervals, 1 virtual draw"
                " per pairing):"
            )
            lines.append(f"{'rank':>4} {'bot':<16} {'elo':>7} {'interval':>18} {'score':>14}")
            ranked = sorted(self.ratings, key=lambda r: -r.elo)
            for rank, rating in enumerate(ranked, 1):
                interval = f"[{rating.low:+.0f}, {rating.high:+.0f}]"
                score = f"{rating.score:g} of {rating.games}"
                lines.append(
                    f"{rank:>4} {rating.label:<16} {rating.elo:>+7.0f} {interval:>18} {score:>14}"
                )
            if not self.ratings:
                lines.append("     (too few games to rate every bot)")
            for pair in self.pairings:
                lines.append(
                    f"  {pair.a} vs {pair.b}: {pair.a_wins} won, {pair.draws} drawn,"
                    f" {pair.b_wins} lost of {pair.games}"
                )
        for error in self.errors:
            lines.append(f"error in game {error.index} (seed {error.seed}): {error.error}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def to_json(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict: the settings, the per-label figures, the games, the
        errors (and a round robin's ratings and pairings)."""
        data: dict[str, Any] = {
            "game": self.game.name,
            "options": self.game.options,
            "games": self.games,
            "seed": self.seed,
            "backend": self.backend,
            "workers": self.workers,
            "elapsed_s": self.elapsed,
            "resumed": self.resumed,
            "lineup": list(self.lineup),
            "mean_length": self.mean_length,
            "mean_moves": self.mean_moves,
            "bots": {bot.label: bot.to_json() for bot in self.bots},
            "records": [r.to_json() for r in self.records],
            "errors": [e.to_json() for e in self.errors],
        }
        if self.round_robin:
            data["ratings"] = [rating.to_json() for rating in self.ratings]
            data["pairings"] = [pair.to_json() for pair in self.pairings]
        return data


def _pairing(a: str, b: str, records: Iterable[GameRecord]) -> Pairing:
    a_wins = draws = b_wins = 0
    for record in records:
        if a not in record.labels or b not in record.labels:
            continue
        first, second = record.outcome(a) == 1, record.outcome(b) == 1
        if first and not second:
            a_wins += 1
        elif second and not first:
            b_wins += 1
        else:
            draws += 1
    return Pairing(a, b, a_wins + draws + b_wins, a_wins, draws, b_wins)


class _Timed:
    """A seat's bot, counting its decisions and thinking time (it sees what the bot sees)."""

    __slots__ = ("bot", "moves", "seconds")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.moves = 0
        self.seconds = 0.0

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        start = time.perf_counter()
        action = self.bot.act(obs, rng)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action

    def __repr__(self) -> str:
        return repr(self.bot)


#: A game to play: its index, and for each seat the entry of the bots that sits there.
_Task = tuple[int, tuple[int, ...]]
_Outcome = GameRecord | GameError


class _Player:
    """What a worker plays with: the game, the bots, their labels and the tournament's seed,
    sent to it once. It is also the Ray backend's actor class."""

    def __init__(
        self, game: Game[Any, Any, Any], bots: Sequence[Bot], labels: Sequence[str], seed: int
    ) -> None:
        self.game = game
        self.bots = tuple(bots)
        self.labels = tuple(labels)
        self.seed = seed

    def play(self, task: _Task) -> _Outcome:
        """Play one game; a bot's exception becomes a :class:`GameError`."""
        index, entries = task
        seed = game_seed(self.seed, index)
        labels = tuple(self.labels[k] for k in entries)
        seats = [_Timed(self.bots[k]) for k in entries]
        try:
            final = play(self.game, seats, seed=seed)
        except Exception as error:  # a bot's fault: report it, play on
            return GameError(
                index, seed, labels, f"{type(error).__name__}: {error}", traceback.format_exc()
            )
        return GameRecord(
            index=index,
            seed=seed,
            labels=labels,
            returns=tuple(final.returns()),
            length=len(final.history()),
            moves=tuple(seat.moves for seat in seats),
            seconds=tuple(seat.seconds for seat in seats),
        )


# The player of each worker process, set once by _setup.
_WORKER: list[_Player] = []


def _setup(player: _Player) -> None:
    _WORKER[:] = [player]


def _play_task(task: _Task) -> _Outcome:
    return _WORKER[0].play(task)


def _died(player: _Player, task: _Task, details: str) -> GameError:
    index, entries = task
    labels = tuple(player.labels[k] for k in entries)
    return GameError(index, game_seed(player.seed, index), labels, WORKER_DIED, details)


def _play_processes(
    player: _Player, tasks: Sequence[_Task], workers: int, done: Callable[[_Outcome], None]
) -> None:
    """Play ``tasks`` in ``workers`` processes (in this one if 1). When a worker dies, every
    game it might have been playing is played again alone, in a fresh process: a game whose
    worker dies a second time is reported as an error."""
    if workers == 1:
        for task in tasks:
            done(player.play(task))
        return
    queue = deque(tasks)
    suspects: deque[_Task] = deque()
    context = multiprocessing.get_context()
    while queue or suspects:
        alone = bool(suspects)
        pool = ProcessPoolExecutor(1 if alone else workers, context, _setup, (player,))
        running: dict[Future[_Outcome], _Task] = {}
        try:
            if alone:
                task = suspects.popleft()
                running[pool.submit(_play_task, task)] = task
            while running or (queue and not alone):
                while queue and not alone and len(running) < 2 * workers:
                    task = queue.popleft()
                    running[pool.submit(_play_task, task)] = task
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                broken = False
                for future in sorted(finished, key=lambda f: running[f][0]):
                    task = running.pop(future)
                    try:
                        done(future.result())
                    except BrokenProcessPool as error:
                        broken = True
                        if alone:
                            done(_died(player, task, str(error)))
                        else:
                            suspects.append(task)
                if broken:
                    wait(running)
                    for future, task in sorted(running.items(), key=lambda item: item[1][0]):
                        if future.exception() is None:
                            done(future.result())
                        else:
                            suspects.append(task)
                    running.clear()
                    break
        finally:
            pool.shutdown(wait=not running, cancel_futures=True)


def _play_ray(
    player: _Player,
    tasks: Sequence[_Task],
    workers: int | None,
    address: str | None,
    done: Callable[[_Outcome], None],
) -> int:
    """Play ``tasks`` on a Ray cluster (a local one if Ray is not initialised and no
    ``address`` is given), one actor per worker holding the bots, one game in flight per actor.
    A game whose actor dies is played again on a fresh actor; if that one dies too, it is
    reported as an error. Returns the number of workers."""
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]  # optional: tikigames[ray]
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("backend='ray' needs Ray: pip install 'tikigames[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    actors: list[Any] = []
    try:
        if workers is None:
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call, unused-ignore]
            workers = max(1, int(resources.get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(_Player)
        # Into the object store once; each actor fetches them once, when it starts.
        game, bots = ray.put(player.game), ray.put(player.bots)

        def fresh() -> Any:
            actor = remote.remote(game, bots, player.labels, player.seed)
            actors.append(actor)
            return actor

        queue = deque(tasks)
        pending: dict[Any, tuple[Any, _Task, int]] = {}

        def submit(actor: Any, task: _Task, attempt: int) -> None:
            pending[actor.play.remote(task)] = (actor, task, attempt)

        for _ in range(min(workers, len(queue))):
            submit(fresh(), queue.popleft(), 0)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            actor, task, attempt = pending.pop(ready[0])
            try:
                outcome: _Outcome = ray.get(ready[0])
            except ray.exceptions.RayActorError as error:
                actor = fresh()
                if attempt == 0:
                    submit(actor, task, 1)
                    continue
                outcome = _died(player, task, str(error))
            done(outcome)
            if queue:
                submit(actor, queue.popleft(), 0)
        return workers
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()


def _summarise(labels: Sequence[str], records: Sequence[GameRecord]) -> tuple[BotRecord, ...]:
    result = []
    for label in dict.fromkeys(labels):
        played = [record for record in records if label in record.labels]
        means = []
        moves = 0
        seconds = 0.0
        seats = sum(1 for each in labels if each == label)
        for record in played:
            mine = [i for i, seat_label in enumerate(record.labels) if seat_label == label]
            seats = max(seats, len(mine))
            means.append(sum(record.returns[i] for i in mine) / len(mine))
            moves += sum(record.moves[i] for i in mine)
            seconds += sum(record.seconds[i] for i in mine)
        outcomes = [record.outcome(label) for record in played]
        games = len(played)
        result.append(
            BotRecord(
                label=label,
                seats=seats,
                games=games,
                wins=outcomes.count(1),
                draws=outcomes.count(0),
                losses=outcomes.count(-1),
                mean_return=sum(means) / games if games else 0.0,
                moves=moves,
                seconds=seconds,
            )
        )
    return tuple(result)


def _rate(players: Sequence[str], records: Sequence[GameRecord]) -> tuple[Rating, ...]:
    results = []
    for a, b in itertools.combinations(players, 2):
        pair = _pairing(a, b, records)
        results += [(a, b, 1.0)] * pair.a_wins + [(a, b, 0.5)] * pair.draws
        results += [(a, b, 0.0)] * pair.b_wins
    try:
        return bradley_terry(players, results)
    except ValueError:  # a player without games (all of them failed): no ratings
        return ()


def _check(game: Game[Any, Any, Any], games: int, workers: int | None, backend: str) -> None:
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be an int ≥ 1, not {games!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be an int ≥ 1 or None, not {workers!r}")
    if backend not in ("processes", "ray"):
        raise ValueError(f"backend must be 'processes' or 'ray', not {backend!r}")


def _run(
    kind: str,
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    names: Sequence[str],
    tasks: Sequence[_Task],
    workers: int | None,
    seed: int | None,
    backend: str,
    address: str | None,
    out: str | os.PathLike[str] | None,
    resume: bool,
    progress: Callable[[int, int], None] | None,
) -> ArenaResult:
    """Play ``tasks`` (skipping those ``out`` holds when resuming), recording each outcome as
    it comes, and gather the results."""
    header: dict[str, Any] = {
        "format": RECORDS_FORMAT,
        "tournament": kind,
        "game": game.name,
        "options": dict(game.options),
        "games": len(tasks),
        "labels": list(names),
        "bots": [repr(bot) for bot in bots],
    }
    if seed is None and out is not None and resume:
        found = RecordFile.read_header(out)
        if found is not None and isinstance(found.get("seed"), int):
            seed = found["seed"]  # resuming continues the recorded tournament's seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    header["seed"] = seed
    player = _Player(game, bots, names, seed)
    records: dict[int, GameRecord] = {}
    errors: dict[int, GameError] = {}
    # A tournament may grow: resumed with more games, it plays only the new ones (each game's
    # index, seed and seats do not depend on the number of games).
    store = None if out is None else RecordFile.open(out, header, resume=resume, growing=("games",))
    start = time.perf_counter()
    try:
        if store is not None:
            expected = {index: entries for index, entries in tasks}
            for data in store.records:
                outcome: _Outcome = (
                    GameError.from_json(data) if "error" in data else GameRecord.from_json(data)
                )
                if outcome.index >= len(tasks):  # a tournament's games are 0, 1, … in order
                    raise ValueError(
                        f"{out} holds game {outcome.index}, beyond the {len(tasks)} games "
                        "asked: a tournament can grow, not shrink"
                    )
                entries = expected.get(outcome.index)
                if (
                    entries is None
                    or outcome.seed != game_seed(seed, outcome.index)
                    or outcome.labels != tuple(names[k] for k in entries)
                    or outcome.index in records
                    or outcome.index in errors
                ):
                    raise ValueError(f"{out}: game {outcome.index} is not of this tournament")
                if isinstance(outcome, GameError):
                    errors[outcome.index] = outcome
                else:
                    records[outcome.index] = outcome
        resumed = len(records) + len(errors)
        todo = [task for task in tasks if task[0] not in records and task[0] not in errors]

        def done(outcome: _Outcome) -> None:
            if store is not None:
                if isinstance(outcome, GameError):
                    store.append(outcome.to_json())
                else:
                    store.append(outcome.to_json(seconds=True))
            if isinstance(outcome, GameError):
                errors[outcome.index] = outcome
            else:
                records[outcome.index] = outcome
            if progress is not None:
                progress(len(records) + len(errors), len(tasks))

        if backend == "ray":
            used = _play_ray(player, todo, workers, address, done) if todo else workers or 1
        else:
            used = min(workers or os.cpu_count() or 1, max(1, len(todo)))
            _play_processes(player, todo, used, done)
    finally:
        if store is not None:
            store.close()
    played = tuple(records[index] for index in sorted(records))
    return ArenaResult(
        game=game,
        seed=seed,
        lineup=tuple(names),
        bots=_summarise(names, played),
        records=played,
        workers=used,
        elapsed=time.perf_counter() - start,
        errors=tuple(errors[index] for index in sorted(errors)),
        round_robin=kind == "round-robin",
        ratings=_rate(names, played) if kind == "round-robin" else (),
        backend=backend,
        resumed=resumed,
    )


def arena(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    games: int = 100,
    workers: int | None = 1,
    seed: int | None = None,
    *,
    labels: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend = "processes",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
) -> ArenaResult:
    """Play ``games`` games of ``game`` between ``bots`` (one per seat, rotated between games)
    on ``workers`` workers, and return the results per label and per game.

    Args:
        game: the game with its options (its ``num_players`` must match ``bots``).
        bots: the lineup, one bot per seat; lineup entry ``k`` sits in seat
            ``(k + i) mod n`` in game ``i``. Bots must pickle when ``workers > 1`` or on Ray.
        games: how many games.
        workers: worker processes (1: play in this process; ``None``: one per CPU of this
            machine, or of the Ray cluster).
        seed: the tournament's seed; game ``i`` is seeded with :func:`game_seed(seed, i)
            <game_seed>`, so the same seed gives the same results whatever ``workers`` and
            ``backend``. ``None`` draws one (recorded in the result), or, when resuming, takes
            the one recorded in ``out``.
        labels: one label per entry of ``bots``; entries with the same label are one team and
            are scored together. Default: each bot's ``repr()``.
        progress: called as ``progress(done, games)`` after each finished game (``done``
            counts the games read back when resuming, and the errors).
        backend: ``"processes"``, or ``"ray"``: every game is a task on a Ray cluster, played
            by one of ``workers`` actors that each receive the bots once. Ray is imported only
            then (extra ``tikigames[ray]``).
        address: the Ray cluster to join (``"auto"``, ``"HOST:PORT"``); ``None`` starts a local
            one for the tournament, unless Ray is initialised already.
        out: a file that each finished game's record is appended to at once, durably (JSON
            lines: :mod:`tikigames.records`), so that a crash loses only the games in play.
        resume: with ``out``, play only the games the file does not hold yet (it must be of
            the same tournament: game, options, labels, bots' reprs and seed, and at most
            ``games`` games, so that a tournament grows when resumed with more). Without it an
            existing ``out`` file is an error, never overwritten.

    Raises:
        ValueError: the lineup does not fit the game, a count is below 1, or ``out`` holds
            another tournament.
        FileExistsError: ``out`` holds games and ``resume`` is false.

    A bot that raises loses nothing but its game: it is reported in ``result.errors`` with its
    index and seed, and counted apart from the results. So is a game whose worker process
    dies, after one more try in a fresh worker (with ``workers > 1`` or on Ray: one process
    plays in this one, and cannot survive its death).

    >>> import tikigames
    >>> from tikigames.bots import ISMCTSBot, RandomBot
    >>> game = tikigames.load("tiki_topple", players=2)
    >>> result = tikigames.arena(game, [ISMCTSBot(iterations=30), RandomBot()], games=4,
    ...                          seed=1, labels=["ismcts", "random"])
    >>> result["ismcts"].wins + result["ismcts"].draws + result["ismcts"].losses
    4
    >>> result == tikigames.arena(game, [ISMCTSBot(iterations=30), RandomBot()], games=4,
    ...                           seed=1, labels=["ismcts", "random"])
    True
    """
    if len(bots) != game.num_players:
        raise ValueError(
            f"{game.name} with these options needs {game.num_players} bots, not {len(bots)}"
        )
    _check(game, games, workers, backend)
    names = list(labels) if labels is not None else [repr(bot) for bot in bots]
    if len(names) != len(bots):
        raise ValueError(f"{len(bots)} bots need {len(bots)} labels, not {len(names)}")
    n = len(bots)
    # Rotate: lineup entry k sits in seat (k + index) mod n.
    tasks = [(index, tuple((seat - index) % n for seat in range(n))) for index in range(games)]
    return _run(
        "lineup", game, bots, names, tasks, workers, seed, backend, address, out, resume, progress
    )


def round_robin(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    games: int = 10,
    workers: int | None = 1,
    seed: int | None = None,
    *,
    labels: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend = "processes",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
) -> ArenaResult:
    """Play every pairing of ``bots``, ``games`` games each with the seats rotated, and rate
    the bots (Bradley–Terry on the Elo scale with 95% intervals: :mod:`tikigames.ratings`).

    The pairings are those of ``itertools.combinations`` in the order of ``bots``; with ``P``
    pairings, pairing ``p``'s game ``j`` is the tournament's game ``j · P + p``, seeded
    :func:`game_seed(seed, j · P + p) <game_seed>`: the games are played round by round, every
    pairing's game ``j`` before any game ``j + 1``, so that an interrupted run has played
    every pairing alike, and a tournament resumed with more ``games`` keeps the games it has
    (``resume``, in :func:`arena`). In a game of ``n`` seats the pair
    ``(a, b)`` fills them alternately, ``a, b, a, b, …``, rotated ``j`` seats — two seats: the
    pair swaps seats every game; Tac-Tik's four: ``a``'s partners sit opposite, a team against
    a team. With an odd number of seats the pair's first ``n`` games start from ``a, b, a, …``
    and the next ``n`` from ``b, a, b, …``, and so on, so that over ``2n`` games each holds as
    many seats as the other in every position. A game counts for the pair as a win of one
    when it won (in the arena's sense) and the other did not, otherwise as a draw.

    The other arguments are those of :func:`arena`; ``labels`` must be distinct.

    >>> import tikigames
    >>> from tikigames.bots import MCTSBot, RandomBot
    >>> from tikigames.arena import round_robin
    >>> game = tikigames.load("tiki_topple", players=2)
    >>> result = round_robin(game, [MCTSBot(iterations=20), MCTSBot(iterations=5), RandomBot()],
    ...                      games=2, seed=1, labels=["mcts20", "mcts5", "random"])
    >>> [(p.a, p.b, p.games) for p in result.pairings]
    [('mcts20', 'mcts5', 2), ('mcts20', 'random', 2), ('mcts5', 'random', 2)]
    >>> [r.label for r in result.ratings], result["random"].games
    (['mcts20', 'mcts5', 'random'], 4)
    """
    if len(bots) < 2:
        raise ValueError(f"a round robin needs at least 2 bots, not {len(bots)}")
    _check(game, games, workers, backend)
    names = list(labels) if labels is not None else [repr(bot) for bot in bots]
    if len(names) != len(bots) or len(set(names)) != len(names):
        raise ValueError(f"{len(bots)} bots need {len(bots)} distinct labels, not {names}")
    n = game.num_players
    pairs = list(itertools.combinations(range(len(bots)), 2))
    tasks: list[_Task] = []
    for j in range(games):
        swap = n % 2 == 1 and (j // n) % 2 == 1
        for p, (a, b) in enumerate(pairs):
            first, second = (b, a) if swap else (a, b)
            base = [first if seat % 2 == 0 else second for seat in range(n)]
            tasks.append((j * len(pairs) + p, tuple(base[(seat - j) % n] for seat in range(n))))
    return _run(
        "round-robin",
        game,
        bots,
        names,
        tasks,
        workers,
        seed,
        backend,
        address,
        out,
        resume,
        progress,
    )

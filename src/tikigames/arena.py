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
(:mod:`tikigames.records`, locked while the tournament runs) at once, and ``resume=True`` plays
only the games the file lacks, after checking every record it holds in full (docs: Running long
jobs). Faults: a bot that raises, or a worker process that dies twice, costs its game only — the
game is reported as a :class:`GameError` with its index and seed, apart from the results, and
the tournament goes on. The games are played by :mod:`tikigames.runner` (local processes or
Ray, the same for self-play). :func:`round_robin` plays every pairing of several bots and rates
them (:mod:`tikigames.ratings`).

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from tikigames.core.action import Action
from tikigames.core.bot import Bot
from tikigames.core.errors import shown
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.play import play
from tikigames.ratings import Rating, bradley_terry
from tikigames.records import RecordFile, RecordsError, printable
from tikigames.runner import WORKER_DIED, Backend, Done, Runner, RunSettings

__all__ = [
    "WORKER_DIED",
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

#: The first line of an ``out=`` file: what it records (its other keys identify the tournament).
RECORDS_FORMAT = "tikigames-arena/1"

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
        data = _lists(asdict(self))
        if not seconds:
            del data["seconds"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record :meth:`to_json` wrote (timings default to 0 when absent), checked in
        full: every key there and of its type, one return, move count and timing per seat,
        finite numbers, ints that are ints (not bools, not floats).

        >>> from tikigames.arena import GameRecord
        >>> GameRecord.from_json({"index": 0.7, "seed": 1, "labels": ["a"], "returns": [1.0],
        ...                       "length": 3, "moves": [2]})
        Traceback (most recent call last):
        ...
        tikigames.records.RecordsError: its 'index' must be an int ≥ 0, not 0.7

        Raises:
            RecordsError: a key is missing, unknown or malformed (the message names it).
        """
        _keys(data, ("index", "seed", "labels", "returns", "length", "moves"), ("seconds",))
        labels = _labels(data)
        seats = len(labels)
        return cls(
            index=_natural(data, "index"),
            seed=_natural(data, "seed"),
            labels=labels,
            returns=_numbers(data, "returns", seats),
            length=_natural(data, "length"),
            moves=tuple(_natural_in(data, "moves", seats)),
            seconds=_numbers(data, "seconds", seats, least=0.0)
            if "seconds" in data
            else (0.0,) * seats,
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
        return _lists(asdict(self))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameError:
        """The error :meth:`to_json` wrote, checked in full as :meth:`GameRecord.from_json`
        checks a record.

        Raises:
            RecordsError: a key is missing, unknown or malformed (the message names it).
        """
        _keys(data, ("index", "seed", "labels", "error"), ("details",))
        details = data.get("details", "")
        if not isinstance(details, str):
            raise RecordsError(f"its 'details' must be a string, not {shown(details)}")
        error = data["error"]
        if not isinstance(error, str):
            raise RecordsError(f"its 'error' must be a string, not {shown(error)}")
        return cls(
            index=_natural(data, "index"),
            seed=_natural(data, "seed"),
            labels=_labels(data),
            error=error,
            details=details,
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
        return asdict(self)


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
        robin's ratings and pairings; the errors, each with its game's index and seed. Labels
        and errors are shown with their control characters escaped
        (:func:`~tikigames.records.printable`): they may come from a record file."""
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
                f"{printable(bot.label):<16} {bot.seats:>5} {rate(bot.win_rate, bot.win_ci):>22}"
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
                    f"{rank:>4} {printable(rating.label):<16} {rating.elo:>+7.0f}"
                    f" {interval:>18} {score:>14}"
                )
            if not self.ratings:
                lines.append("     (too few games to rate every bot)")
            for pair in self.pairings:
                lines.append(
                    f"  {printable(pair.a)} vs {printable(pair.b)}: {pair.a_wins} won,"
                    f" {pair.draws} drawn,"
                    f" {pair.b_wins} lost of {pair.games}"
                )
        for error in self.errors:
            lines.append(
                f"error in game {error.index} (seed {error.seed}): {printable(error.error)}"
            )
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


def _lists(data: dict[str, Any]) -> dict[str, Any]:
    """``asdict``'s tuples as JSON's lists (so that a dict reads back equal to itself)."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}


def _keys(data: Mapping[str, Any], required: Sequence[str], optional: Sequence[str]) -> None:
    missing = [key for key in required if key not in data]
    if missing:
        raise RecordsError(f"it lacks {printable(', '.join(repr(k) for k in missing))}")
    unknown = sorted(set(data) - {*required, *optional})
    if unknown:
        raise RecordsError(f"it has unknown key(s) {printable(', '.join(map(repr, unknown)))}")


def _natural(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if type(value) is not int or value < 0:
        raise RecordsError(f"its {key!r} must be an int ≥ 0, not {shown(value)}")
    return value


def _sized(data: Mapping[str, Any], key: str, seats: int | None) -> list[Any]:
    value = data[key]
    if not isinstance(value, list) or not value or (seats is not None and len(value) != seats):
        per = f"one per seat ({seats})" if seats is not None else "not empty"
        raise RecordsError(f"its {key!r} must be a list, {per}, not {shown(value)}")
    return value


def _natural_in(data: Mapping[str, Any], key: str, seats: int) -> list[int]:
    values = _sized(data, key, seats)
    for value in values:
        if type(value) is not int or value < 0:
            raise RecordsError(f"its {key!r} must hold ints ≥ 0, not {shown(value)}")
    return values


def _numbers(
    data: Mapping[str, Any], key: str, seats: int, least: float = -math.inf
) -> tuple[float, ...]:
    numbers = []
    for value in _sized(data, key, seats):
        if (
            type(value) not in (int, float)
            or not math.isfinite(value)
            or value < least
            or abs(value) > 2**53
        ):
            bound = "" if least == -math.inf else f" ≥ {least:g}"
            raise RecordsError(f"its {key!r} must hold finite numbers{bound}, not {shown(value)}")
        numbers.append(float(value))
    return tuple(numbers)


def _labels(data: Mapping[str, Any]) -> tuple[str, ...]:
    labels = _sized(data, "labels", None)
    for label in labels:
        if not isinstance(label, str):
            raise RecordsError(f"its 'labels' must hold strings, not {shown(label)}")
    return tuple(labels)


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


_Outcome = GameRecord | GameError


@dataclass(frozen=True)
class _Seating:
    """Who sits where in each game of a tournament, computed from the game's index alone (so
    that no list of games is built, whatever their number).

    ``pairs`` empty: a lineup of ``seats`` bots, entry ``k`` in seat ``(k + index) mod seats``.
    Otherwise a round robin: game ``j · P + p`` is pairing ``p``'s game ``j``."""

    seats: int
    pairs: tuple[tuple[int, int], ...] = ()

    def entries(self, index: int) -> tuple[int, ...]:
        """For each seat of game ``index``, the entry of the bots that sits there."""
        n = self.seats
        if not self.pairs:
            return tuple((seat - index) % n for seat in range(n))
        j, p = divmod(index, len(self.pairs))
        a, b = self.pairs[p]
        swap = n % 2 == 1 and (j // n) % 2 == 1
        first, second = (b, a) if swap else (a, b)
        base = [first if seat % 2 == 0 else second for seat in range(n)]
        return tuple(base[(seat - j) % n] for seat in range(n))


class _Player:
    """The runner's job: what a worker plays with — the game, the bots, their labels, the
    seating and the tournament's seed, sent to it once. Called with a game's index, it plays
    that game (a bot's exception goes up to the runner, which reports it)."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        bots: Sequence[Bot],
        labels: Sequence[str],
        seed: int,
        seating: _Seating,
    ) -> None:
        self.game = game
        self.bots = tuple(bots)
        self.labels = tuple(labels)
        self.seed = seed
        self.seating = seating

    def seats(self, index: int) -> tuple[str, ...]:
        """The label in each seat of game ``index``."""
        return tuple(self.labels[k] for k in self.seating.entries(index))

    def __call__(self, index: int) -> GameRecord:
        seed = game_seed(self.seed, index)
        seats = [_Timed(self.bots[k]) for k in self.seating.entries(index)]
        final = play(self.game, seats, seed=seed)
        return GameRecord(
            index=index,
            seed=seed,
            labels=self.seats(index),
            returns=tuple(final.returns()),
            length=len(final.history()),
            moves=tuple(seat.moves for seat in seats),
            seconds=tuple(seat.seconds for seat in seats),
        )


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


def _check_games(games: int) -> None:
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be an int ≥ 1, not {games!r}")


@dataclass(frozen=True)
class _Tournament:
    """What :func:`arena` and :func:`round_robin` ask :func:`_run` to play.

    Attributes:
        kind: ``"lineup"`` or ``"round-robin"`` (the file header's ``tournament``).
        game, bots, labels: the game, the bots and one label per bot.
        seating: who sits where in each game.
        games: the number of games of the tournament (a round robin's, all pairings).
        seed: the tournament's seed, or ``None`` (read back when resuming, else drawn).
        run: the workers and the backend.
        out, resume, progress: as :func:`arena` takes them.
    """

    kind: Literal["lineup", "round-robin"]
    game: Game[Any, Any, Any]
    bots: tuple[Bot, ...]
    labels: tuple[str, ...]
    seating: _Seating
    games: int
    seed: int | None
    run: RunSettings
    out: str | os.PathLike[str] | None
    resume: bool
    progress: Callable[[int, int], None] | None

    def header(self, seed: int) -> dict[str, Any]:
        """The first line of its ``out`` file."""
        return {
            "format": RECORDS_FORMAT,
            "tournament": self.kind,
            "game": self.game.name,
            "options": dict(self.game.options),
            "games": self.games,
            "labels": list(self.labels),
            "bots": [repr(bot) for bot in self.bots],
            "seed": seed,
        }

    def seed_to_use(self) -> int:
        """The seed given; else, when resuming, the one recorded in ``out``; else a new one."""
        if self.seed is not None:
            return self.seed
        if self.out is not None and self.resume:
            found = RecordFile.read_header(self.out)
            if found is not None:
                recorded = found.get("seed")
                if type(recorded) is not int or recorded < 0:
                    raise RecordsError(f"{self.out}: its header's seed is {shown(recorded)}")
                return recorded
        return random.SystemRandom().randrange(2**63)


def _read_back(
    store: RecordFile, player: _Player, games: int
) -> tuple[dict[int, GameRecord], dict[int, GameError]]:
    """The games ``store`` holds, each checked in full against the tournament: a record that is
    malformed, of another tournament, beyond ``games`` or a second, different record of a game is
    refused with its line number."""
    records: dict[int, GameRecord] = {}
    errors: dict[int, GameError] = {}
    first: dict[int, int] = {}
    for line, data in zip(store.lines, store.records, strict=True):
        where = f"{store.path}, line {line}"
        try:
            outcome: _Outcome = (
                GameError.from_json(data) if "error" in data else GameRecord.from_json(data)
            )
        except RecordsError as error:
            raise RecordsError(f"{where}: {error}") from None
        index = outcome.index
        if index >= games:  # a tournament's games are 0, 1, … in order
            raise RecordsError(
                f"{where}: game {index} is beyond the {games} games asked: a tournament can "
                "grow, not shrink"
            )
        if outcome.seed != game_seed(player.seed, index) or outcome.labels != player.seats(index):
            raise RecordsError(f"{where}: game {index} is not of this tournament")
        if index in first:
            if (records.get(index) or errors.get(index)) != outcome:
                raise RecordsError(
                    f"{where}: game {index} is recorded twice, differently (line {first[index]})"
                )
            continue
        first[index] = line
        if isinstance(outcome, GameError):
            errors[index] = outcome
        else:
            records[index] = outcome
    return records, errors


def _run(tournament: _Tournament) -> ArenaResult:
    """Play the tournament's games (skipping those ``out`` holds when resuming), recording each
    outcome as it comes, and gather the results."""
    t = tournament
    seed = t.seed_to_use()
    player = _Player(t.game, t.bots, t.labels, seed, t.seating)
    # A tournament may grow: resumed with more games, it plays only the new ones (each game's
    # index, seed and seats do not depend on the number of games).
    store = (
        None
        if t.out is None
        else RecordFile.open(t.out, t.header(seed), resume=t.resume, growing=("games",))
    )
    start = time.perf_counter()
    try:
        records, errors = ({}, {}) if store is None else _read_back(store, player, t.games)
        resumed = len(records) + len(errors)

        def todo() -> Iterator[int]:  # drawn by the runner as workers free up
            return (i for i in range(t.games) if i not in records and i not in errors)

        with Runner(player, t.run, limit=t.games - resumed) as runner:
            for outcome in runner.run(todo()):
                if isinstance(outcome, Done):
                    finished: _Outcome = outcome.result
                else:
                    index = outcome.task
                    labels = player.seats(index)
                    seed_i = game_seed(seed, index)
                    finished = GameError(index, seed_i, labels, outcome.error, outcome.details)
                if isinstance(finished, GameError):
                    if store is not None:
                        store.append(finished.to_json())
                    errors[finished.index] = finished
                else:
                    if store is not None:
                        store.append(finished.to_json(seconds=True))
                    records[finished.index] = finished
                if t.progress is not None:
                    t.progress(len(records) + len(errors), t.games)
            used = runner.workers
    finally:
        if store is not None:
            store.close()
    played = tuple(records[index] for index in sorted(records))
    return ArenaResult(
        game=t.game,
        seed=seed,
        lineup=t.labels,
        bots=_summarise(t.labels, played),
        records=played,
        workers=used,
        elapsed=time.perf_counter() - start,
        errors=tuple(errors[index] for index in sorted(errors)),
        round_robin=t.kind == "round-robin",
        ratings=_rate(t.labels, played) if t.kind == "round-robin" else (),
        backend=t.run.backend,
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
        ValueError: the lineup does not fit the game, or a count is below 1.
        RecordsError: ``out`` is not a records file of the arena (it is left as it is), holds
            another tournament, or a record that is malformed or not of this one (the message
            names the line) — a ``ValueError``.
        RecordsExistError: ``out`` holds games and ``resume`` is false (a
            ``FileExistsError``).
        RecordsInUseError: another run is writing ``out``.
        RecordsFileError: ``out`` is a symbolic link or not a regular file.

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
    _check_games(games)
    run = RunSettings(workers, backend, address)
    names = tuple(labels) if labels is not None else tuple(repr(bot) for bot in bots)
    if len(names) != len(bots):
        raise ValueError(f"{len(bots)} bots need {len(bots)} labels, not {len(names)}")
    seating = _Seating(len(bots))  # lineup entry k sits in seat (k + index) mod n
    return _run(
        _Tournament(
            "lineup", game, tuple(bots), names, seating, games, seed, run, out, resume, progress
        )
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
    _check_games(games)
    run = RunSettings(workers, backend, address)
    names = tuple(labels) if labels is not None else tuple(repr(bot) for bot in bots)
    if len(names) != len(bots) or len(set(names)) != len(names):
        raise ValueError(f"{len(bots)} bots need {len(bots)} distinct labels, not {list(names)}")
    pairs = tuple(itertools.combinations(range(len(bots)), 2))
    seating = _Seating(game.num_players, pairs)
    total = games * len(pairs)
    return _run(
        _Tournament(
            "round-robin",
            game,
            tuple(bots),
            names,
            seating,
            total,
            seed,
            run,
            out,
            resume,
            progress,
        )
    )

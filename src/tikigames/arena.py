"""The arena: a tournament of bots over many seeded games, played in parallel processes.

Reproducibility comes first: game ``i`` is played with a seed derived from the tournament's seed
and ``i`` alone (:func:`game_seed`), and with the lineup rotated ``i`` seats, so the results are
the same whatever the number of worker processes and whichever worker plays which game. The
bots are sent to each worker once; they should keep no state between games (the library's bots
keep none), or the results would depend on which games a worker happened to play.

Bots are scored by **label**: seats with the same label are one team (Tac-Tik's partners sit
opposite, so a lineup ``a, b, a, b`` keeps them opposite under rotation). A label *wins* a game
when one of its seats has a positive return, *loses* when all of its seats have negative
returns, and *draws* otherwise (a draw, or a win shared by every player). Rates carry Wilson 95%
confidence intervals.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tikigames.core.action import Action
from tikigames.core.bot import Bot
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.play import play

__all__ = ["ArenaResult", "BotRecord", "GameRecord", "arena", "game_seed", "wilson"]

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


@dataclass(frozen=True)
class BotRecord:
    """One label's results over a tournament.

    Attributes:
        label: the bot's label.
        seats: how many seats the label holds in each game (more than one: a team).
        games, wins, draws, losses: counts of games (see the module's docstring for the rule).
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

    Equal seeds give equal results (``==`` ignores timings, the worker count and the elapsed
    time).

    Attributes:
        game: the game played, with its options.
        seed: the tournament's seed (drawn at random when none was given).
        lineup: the label of each bot as given, before rotation.
        bots: one record per distinct label, in lineup order.
        records: one record per game, in game order.
        workers: the number of worker processes (not compared).
        elapsed: wall time in seconds (not compared).
    """

    game: Game[Any, Any, Any]
    seed: int
    lineup: tuple[str, ...]
    bots: tuple[BotRecord, ...]
    records: tuple[GameRecord, ...]
    workers: int = field(compare=False)
    elapsed: float = field(compare=False)

    def __getitem__(self, label: str) -> BotRecord:
        for record in self.bots:
            if record.label == label:
                return record
        raise KeyError(label)

    @property
    def games(self) -> int:
        """The number of games played."""
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

    def table(self) -> str:
        """A readable table: per label the win, draw and loss rates with their 95% intervals,
        the mean return and the thinking time per move; then the mean game length."""
        options = ", ".join(f"{k}={v}" for k, v in self.game.options.items())
        lines = [
            f"{self.game.name} ({options}): {self.games} games, seed {self.seed}, seats rotated",
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
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def to_json(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict: the settings, the per-label figures, the games."""
        return {
            "game": self.game.name,
            "options": self.game.options,
            "games": self.games,
            "seed": self.seed,
            "workers": self.workers,
            "elapsed_s": self.elapsed,
            "lineup": list(self.lineup),
            "mean_length": self.mean_length,
            "mean_moves": self.mean_moves,
            "bots": {bot.label: bot.to_json() for bot in self.bots},
            "records": [
                {
                    "index": r.index,
                    "seed": r.seed,
                    "labels": list(r.labels),
                    "returns": list(r.returns),
                    "length": r.length,
                    "moves": list(r.moves),
                }
                for r in self.records
            ],
        }


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


# What each worker process plays with, set once by _setup (and in-process when workers == 1).
_WORKER: dict[str, Any] = {}


def _setup(
    game: Game[Any, Any, Any], lineup: Sequence[Bot], labels: Sequence[str], seed: int
) -> None:
    _WORKER.update(game=game, lineup=tuple(lineup), labels=tuple(labels), seed=seed)


def _play_one(index: int) -> GameRecord:
    game: Game[Any, Any, Any] = _WORKER["game"]
    lineup: tuple[Bot, ...] = _WORKER["lineup"]
    labels: tuple[str, ...] = _WORKER["labels"]
    n = len(lineup)
    # Rotate: lineup entry k sits in seat (k + index) mod n.
    order = [(seat - index) % n for seat in range(n)]
    seats = [_Timed(lineup[k]) for k in order]
    seed = game_seed(_WORKER["seed"], index)
    final = play(game, seats, seed=seed)
    return GameRecord(
        index=index,
        seed=seed,
        labels=tuple(labels[k] for k in order),
        returns=tuple(final.returns()),
        length=len(final.history()),
        moves=tuple(seat.moves for seat in seats),
        seconds=tuple(seat.seconds for seat in seats),
    )


def _default_labels(bots: Sequence[Bot]) -> list[str]:
    return [repr(bot) for bot in bots]


def _summarise(labels: Sequence[str], records: Sequence[GameRecord]) -> tuple[BotRecord, ...]:
    result = []
    for label in dict.fromkeys(labels):
        outcomes = [record.outcome(label) for record in records]
        means = []
        moves = 0
        seconds = 0.0
        for record in records:
            mine = [i for i, seat_label in enumerate(record.labels) if seat_label == label]
            means.append(sum(record.returns[i] for i in mine) / len(mine))
            moves += sum(record.moves[i] for i in mine)
            seconds += sum(record.seconds[i] for i in mine)
        games = len(records)
        result.append(
            BotRecord(
                label=label,
                seats=sum(1 for each in labels if each == label),
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


def arena(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    games: int = 100,
    workers: int = 1,
    seed: int | None = None,
    *,
    labels: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games of ``game`` between ``bots`` (one per seat, rotated between games)
    in ``workers`` processes, and return the results per label and per game.

    Args:
        game: the game with its options (its ``num_players`` must match ``bots``).
        bots: the lineup, one bot per seat; lineup entry ``k`` sits in seat
            ``(k + i) mod n`` in game ``i``. Bots must pickle when ``workers > 1``.
        games: how many games.
        workers: worker processes (1: play in this process).
        seed: the tournament's seed; game ``i`` is seeded with :func:`game_seed(seed, i)
            <game_seed>`, so the same seed gives the same results whatever ``workers``.
            ``None`` draws one (recorded in the result).
        labels: one label per entry of ``bots``; entries with the same label are one team and
            are scored together. Default: each bot's ``repr()``.
        progress: called as ``progress(done, games)`` after each finished game.

    Raises:
        ValueError: the lineup does not fit the game, or a count is below 1.

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
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be an int ≥ 1, not {games!r}")
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be an int ≥ 1, not {workers!r}")
    names = list(labels) if labels is not None else _default_labels(bots)
    if len(names) != len(bots):
        raise ValueError(f"{len(bots)} bots need {len(bots)} labels, not {len(names)}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    start = time.perf_counter()
    records: list[GameRecord] = []
    workers = min(workers, games)
    if workers == 1:
        _setup(game, bots, names, seed)
        try:
            for index in range(games):
                records.append(_play_one(index))
                if progress is not None:
                    progress(len(records), games)
        finally:
            _WORKER.clear()
    else:
        context = multiprocessing.get_context()
        with context.Pool(workers, _setup, (game, list(bots), names, seed)) as pool:
            for record in pool.imap_unordered(_play_one, range(games)):
                records.append(record)
                if progress is not None:
                    progress(len(records), games)
    records.sort(key=lambda record: record.index)
    return ArenaResult(
        game=game,
        seed=seed,
        lineup=tuple(names),
        bots=_summarise(names, records),
        records=tuple(records),
        workers=workers,
        elapsed=time.perf_counter() - start,
    )

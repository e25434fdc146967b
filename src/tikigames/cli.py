"""The ``tikigames`` command: list the games, play one in the terminal, benchmark the engines,
run a tournament of bots, record self-play data, serve games to browsers.

::

    tikigames list
    tikigames play tiki_topple --players human,ismcts --seed 7 -o rounds=2 -b iterations=2000
    tikigames bench [GAME] [--seconds S] [--rounds R] [--compare | --frameworks] [--json]
    tikigames arena tactiki --players ismcts,random --games 200 --workers 2 --seed 1 [--json]
    tikigames arena tiki_topple --players ismcts,mcts,random --round-robin --out rr.jsonl --resume
    tikigames render saved.json [--player P] [-O OUT.svg|OUT.png]
    tikigames selfplay tiki_topple --players ismcts -b iterations=400 --out data [--resume]
    tikigames serve [--host 127.0.0.1] [--port 8000] [--db tikigames.sqlite]

One grammar for every command that plays a game: ``GAME``, ``--players`` (who sits in each
seat, by kind: ``human``, ``random``, ``mcts``, ``ismcts``), ``-o KEY=VALUE`` (a game option),
``-b [KIND.]KEY=VALUE`` (a bot setting) and ``--seed N``; ``arena`` and ``selfplay`` share
``--games``, ``--workers``, ``--backend``, ``--address``, ``--out``, ``--resume`` and ``-q``.
Each is declared once, in a parent parser. A bad path or a bad file is one line
``tikigames: …`` on stderr and exit status 2, never a traceback, and text that came from a
file or a bot is printed with its control characters escaped.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import re
import stat
import sys
import textwrap
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, NamedTuple, TextIO

import tikigames
from tikigames.arena import ArenaResult, arena, round_robin
from tikigames.bench import FIGURES, BenchRun, bench, optional_module
from tikigames.bench_frameworks import FrameworksRun, bench_frameworks
from tikigames.bots import BOTS, Bot
from tikigames.bots.search import GAME_CAP, RolloutCap
from tikigames.core.errors import OptionError, shown
from tikigames.core.game import Game
from tikigames.core.options import OptionValue
from tikigames.core.serialization import OBSERVATION_FORMAT, expect_object, expect_str
from tikigames.core.state import State
from tikigames.records import RecordFile, printable
from tikigames.selfplay import SelfPlayError, selfplay
from tikigames.terminal import COMMANDS, Abandoned, Table, Ticker, plain

__all__ = ["BOTS", "BOT_SETTINGS", "SEARCH_BOTS", "build_parser", "main"]

#: The bots ``selfplay`` accepts: those that give their search's policy (``act_and_policy``).
SEARCH_BOTS: Final = ("ismcts", "mcts")


class _Streams(NamedTuple):
    """Where a command reads and writes (``main``'s arguments, else the process's)."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO


#: A subcommand: its parsed arguments and streams in, its exit status out
#: (``set_defaults(func=…)`` names it).
_Command = Callable[[argparse.Namespace, _Streams], int]


def _optional(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        return None if text.strip().lower() in ("none", "null") else kind(text)

    return parse


def _rollout_cap(text: str) -> RolloutCap:
    """``max_rollout``: a number of actions, ``none`` (no cap) or ``game`` (the game's own)."""
    return GAME_CAP if text.strip().lower() == GAME_CAP else _optional(int)(text)


def _widening(text: str) -> float | str | None:
    """``widening``: a number, ``none`` (plain UCT) or ``game`` (the game's own)."""
    return GAME_CAP if text.strip().lower() == GAME_CAP else _optional(float)(text)


#: The settings ``-b KEY=VALUE`` accepts, with their parsers; each bot takes those its
#: constructor has.
BOT_SETTINGS: dict[str, Callable[[str], Any]] = {
    "iterations": int,
    "seconds": _optional(float),
    "c": float,
    "max_rollout": _rollout_cap,
    "rollout": str,
    "evaluation": str,
    "widening": _widening,
    "simulations": int,
}


def _key_value(text: str) -> tuple[str, str]:
    """``-o KEY=VALUE``, split once, as argparse reads it (the value is parsed by the game's
    declaration of the option, in :func:`_game_options`)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"takes KEY=VALUE, not {text!r}")
    return key.strip(), value


def _lineup(text: str, kinds: Collection[str]) -> list[str]:
    """``--players``: one bot per seat, each ``KIND`` (one of ``kinds``) or ``KIND:NAME`` — a
    second bot of a kind, with settings of its own (``-b KIND:NAME.KEY=VALUE``); the entry as
    written is the bot's label in every table."""
    lineup: list[str] = []
    for entry in text.split(","):
        label = entry.strip().lower()
        kind, colon, name = label.partition(":")
        if kind not in kinds:
            raise OptionError(f"--players: {shown(kind)} is not one of {', '.join(kinds)}")
        if colon and (kind == "human" or not name.replace("-", "").replace("_", "").isalnum()):
            raise OptionError(
                f"--players: {shown(label)}: a bot's name after ':' is letters, digits, - and _"
            )
        lineup.append(label)
    return lineup


def _kind(label: str) -> str:
    """The bot kind of a ``--players`` entry: ``ismcts`` of ``ismcts:before``."""
    return label.partition(":")[0]


#: Bots the tools seat besides :data:`tikigames.bots.BOTS`, each from an optional extra:
#: kind → (module, class, extra).
OPTIONAL_BOTS: Final = {
    "openspiel": ("tikigames.adapters.openspiel", "OpenSpielBot", "openspiel"),
}


def _bot_class(kind: str) -> Callable[..., Bot]:
    """The bot of ``kind``: :data:`~tikigames.bots.BOTS`' or, imported now, an optional one."""
    if kind in BOTS:
        return BOTS[kind]
    module_name, name, extra = OPTIONAL_BOTS[kind]
    module = optional_module(module_name, needs_optional=True)
    if module is None:
        raise OptionError(f"bot {kind!r} needs the {extra} extra: pip install 'tikigames[{extra}]'")
    made: Callable[..., Bot] = getattr(module, name)
    return made


def _bot_settings(labels: Sequence[str], pairs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per bot of the lineup, the keyword arguments ``-b`` gives it: ``KEY=VALUE`` goes to
    every bot that takes ``KEY``, ``LABEL.KEY=VALUE`` to that bot only."""
    settings: dict[str, dict[str, Any]] = {
        label: {} for label in labels if _kind(label) in BOTS or _kind(label) in OPTIONAL_BOTS
    }
    for pair in pairs:
        target, sep, text = pair.partition("=")
        if not sep:
            raise OptionError(f"-b takes KEY=VALUE or BOT.KEY=VALUE, not {pair!r}")
        name, dot, key = target.strip().lower().rpartition(".")
        if dot and name not in settings:
            raise OptionError(f"-b {pair!r}: there is no bot {name!r} among the players")
        parse = BOT_SETTINGS.get(key)
        if parse is None:
            raise OptionError(f"unknown bot setting {key!r} (settings: {', '.join(BOT_SETTINGS)})")
        try:
            value = parse(text.strip())
        except ValueError:
            raise OptionError(f"bot setting {key!r} cannot be {text.strip()!r}") from None
        takers = [
            label
            for label in ([name] if dot else settings)
            if key in inspect.signature(_bot_class(_kind(label))).parameters
        ]
        if not takers:
            raise OptionError(f"-b {pair!r}: no bot among the players takes {key!r}")
        for label in takers:
            settings[label][key] = value
    return settings


def _make_bots(
    labels: Sequence[str], pairs: Sequence[str], seconds: float | None = None
) -> dict[str, Bot]:
    """One bot per distinct label of ``labels`` (humans aside), with its ``-b`` settings; with
    ``seconds``, a search bot given neither ``iterations`` nor ``seconds`` thinks that long."""
    bots: dict[str, Bot] = {}
    for label, settings in _bot_settings(labels, pairs).items():
        kind = _kind(label)
        takes_seconds = "seconds" in inspect.signature(_bot_class(kind)).parameters
        if (
            seconds is not None
            and takes_seconds
            and not {"iterations", "seconds", "simulations"} & settings.keys()
        ):
            settings["seconds"] = seconds
        try:
            bots[label] = _bot_class(kind)(**settings)
        except (TypeError, ValueError) as error:
            raise OptionError(f"{label}: {error}") from None
    return bots


def _game_options(name: str, pairs: Sequence[tuple[str, str]]) -> dict[str, OptionValue]:
    """``-o KEY=VALUE`` as the game's options, each value parsed once, by its declaration
    (the last of a repeated key counts)."""
    specs = {spec.name: spec for spec in tikigames.load(name).option_specs}
    options: dict[str, OptionValue] = {}
    for key, value in pairs:
        spec = specs.get(key)
        if spec is None:
            raise OptionError(f"{name} has no option {key!r} (options: {', '.join(specs)})")
        options[spec.name] = spec.parse(value)
    return options


def _has_players_option(name: str) -> bool:
    return any(spec.name == "players" for spec in tikigames.load(name).option_specs)


def _players_option(options: dict[str, OptionValue]) -> int | None:
    """The seats ``-o players=N`` asks for, if it does."""
    seats = options.get("players")
    return seats if isinstance(seats, int) and not isinstance(seats, bool) else None


def _seats_allowed(name: str) -> str:
    """The numbers of seats game ``name`` can have, in words: ``2 to 4``, ``2, 4 or 6``, ``2``."""
    game = tikigames.load(name)
    spec = next((spec for spec in game.option_specs if spec.name == "players"), None)
    if spec is None:
        return str(game.num_players)
    if spec.choices:
        counts = [str(choice) for choice in spec.choices]
        return ", ".join(counts[:-1]) + " or " + counts[-1] if len(counts) > 1 else counts[0]
    low = spec.minimum if spec.minimum is not None else 1
    return f"{low} to {spec.maximum}" if spec.maximum is not None else f"{low} or more"


def _load(
    name: str, options: dict[str, OptionValue], seats: int, lineup: Sequence[str] = ()
) -> Game[Any, Any, Any]:
    """The game ``name`` with ``options``, its ``players`` option set to ``seats`` where it has
    one that ``-o`` left alone; refused if it then has another number of seats. A number of
    seats the game cannot have is said of ``lineup``, the ``--players`` list that asked for
    it, where there is one."""

    def wrong_count() -> OptionError:
        return OptionError(
            f"--players needs one name per seat: {name} needs {_seats_allowed(name)} players, "
            f"got {len(lineup)} ({','.join(lineup)})"
        )

    spec = next((o for o in tikigames.load(name).option_specs if o.name == "players"), None)
    if "players" not in options and spec is not None:
        try:
            spec.validate(seats)
        except OptionError:
            if lineup:
                raise wrong_count() from None
            raise
        game = tikigames.load(name, **{**options, "players": seats})
    else:
        game = tikigames.load(name, **options)
    if game.num_players != seats:
        if lineup and "players" not in options:
            raise wrong_count()
        raise OptionError(f"{name} with these options has {game.num_players} seats, not {seats}")
    return game


def _deprecated(stderr: TextIO, old: str, new: str) -> None:
    print(f"tikigames: {old} is deprecated; write {new}", file=stderr)


def _os_reason(error: OSError) -> str:
    """What went wrong with a path, in words: ``d: Is a directory``."""
    if error.strerror is None or error.filename is None:
        return str(error)  # a message of the library's own, or no path to name
    where = os.fsdecode(error.filename)
    if error.filename2 is not None:
        where += f" → {os.fsdecode(error.filename2)}"
    return f"{where}: {error.strerror}"


#: The names ``play --svg DIR`` writes in DIR: each seat's picture and page, and the picture
#: being written.
_PICTURE_NAME: Final = re.compile(r"(?:player\d+|spectator)\.(?:svg|html)(?:\.part)?")
#: Relative to a directory's descriptor where the platform can (POSIX), so that the directory
#: cannot be swapped for another between the check and the writes.
_AT: Final = (
    os.open in os.supports_dir_fd
    and os.rename in os.supports_dir_fd
    and os.unlink in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and os.listdir in os.supports_fd
)
_NOFOLLOW: Final[int] = getattr(os, "O_NOFOLLOW", 0)
_CREATE: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class _PictureWriter:
    """``play --svg DIR``: after every action, each human's view as ``DIR/player<P>.svg``,
    and a page ``DIR/player<P>.html`` that shows it and reloads itself every second, for
    people who want to watch in a browser.

    It overwrites nothing it did not write and follows no link. DIR is created if missing;
    an existing DIR is used only if every entry in it is a regular file of the names above (an
    earlier ``--svg`` run's), and DIR itself may not be a symbolic link. Each file is written
    under a name of its own, created exclusively without following links, then renamed over
    the previous one: a rename replaces a link planted there, never what it points to, and a
    browser never reads a half-written picture."""

    def __init__(self, directory: str, seats: Sequence[int]) -> None:
        self.directory = directory
        self.fd: int | None = None
        self.seats: list[int | None] = [*seats] or [None]  # no human: a spectator's view
        try:
            self._open()
            for seat in self.seats:
                name = _picture_name(seat)
                self._write(
                    f"{name}.html",
                    '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="1">'
                    f'<title>tikigames: {name}</title><img src="{name}.svg" alt="{name}\'s view">',
                )
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        """Make or check the directory, and hold it open where the platform can."""
        directory, path = self.directory, Path(self.directory)
        try:
            if path.is_symlink():
                raise OptionError(f"--svg {directory} is a symbolic link; give a directory")
            path.mkdir(parents=True, exist_ok=True)
            if _AT:
                self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW)
            strangers = sorted(
                name
                for name in os.listdir(directory if self.fd is None else self.fd)
                if not self._ours(name)
            )
        except FileExistsError:
            raise OptionError(f"--svg {directory} is a file, not a directory") from None
        except OSError as error:
            raise OptionError(f"--svg {directory}: {error.strerror or error}") from None
        if strangers:
            more = ", …" if len(strangers) > 3 else ""
            raise OptionError(
                f"--svg {directory} holds files that play did not write "
                f"({', '.join(strangers[:3])}{more}); give a new or an empty directory"
            )

    def _path(self, name: str) -> str:
        return name if self.fd is not None else os.path.join(self.directory, name)

    def _ours(self, name: str) -> bool:
        if not _PICTURE_NAME.fullmatch(name):
            return False
        found = os.stat(self._path(name), dir_fd=self.fd, follow_symlinks=False)
        return stat.S_ISREG(found.st_mode)

    def _write(self, name: str, text: str) -> None:
        part = self._path(name + ".part")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(part, dir_fd=self.fd)  # left by a run that was killed while writing
        fd = os.open(part, _CREATE, 0o644, dir_fd=self.fd)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(part, self._path(name), src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def describe(self) -> str:
        """Where the pictures are written, in words, for ``play`` to say at the start."""
        names = [_picture_name(seat) for seat in self.seats]
        pages = ", ".join(os.path.join(self.directory, f"{name}.html") for name in names)
        return (
            f"after every move, {' and '.join(f'{name}.svg' for name in names)} in "
            f"{self.directory} (open {pages} in a browser: it reloads itself)"
        )

    def write(self, state: State[Any, Any, Any]) -> None:
        for seat in self.seats:
            self._write(f"{_picture_name(seat)}.svg", state.observation(seat).svg())

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> _PictureWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _picture_name(seat: int | None) -> str:
    return "spectator" if seat is None else f"player{seat}"


def _play(args: argparse.Namespace, streams: _Streams) -> int:
    """``tikigames play``: 0 once the game is over or a player quits, 1 when the input ran out
    before the end."""
    options = _game_options(args.game, args.option or [])
    if args.players is None:  # a human against random bots, in each seat the game has
        seats = _players_option(options) or tikigames.load(args.game).num_players
        args.players = ",".join(["human"] + ["random"] * (seats - 1))
    kinds = _lineup(args.players, ("human", *BOTS))
    game = _load(args.game, options, len(kinds), kinds)
    # A bot playing a person thinks about a second a move, unless told otherwise.
    made = _make_bots(kinds, args.bot or [], game.think_seconds if "human" in kinds else None)
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    with contextlib.ExitStack() as stack:
        pictures = stack.enter_context(_PictureWriter(args.svg, humans)) if args.svg else None
        table = Table(
            game,
            kinds,
            made,
            streams.stdin,
            streams.stdout,
            seed=args.seed,
            verbose=args.verbose,
            on_action=None if pictures is None else pictures.write,
        )
        print(
            f"{game.title}: " + ", ".join(f"player {s} {k}" for s, k in enumerate(kinds))
            + (" (type help for the commands)" if humans else ""),
            file=streams.stdout,
        )  # fmt: skip
        if pictures is not None:
            print(printable(f"Pictures: {pictures.describe()}"), file=streams.stdout)
        try:
            table.play()
        except Abandoned as left:
            print("Game abandoned.", file=streams.stdout)
            return 0 if left.by_quit else 1
    return 0


def _bench(args: argparse.Namespace, streams: _Streams) -> int:
    names = [args.game] if args.game else list(tikigames.GAMES)
    lines = (
        streams.stderr if args.json else streams.stdout
    )  # the progress; stdout stays clean for the JSON
    isatty = getattr(lines, "isatty", None)
    measured: list[str | None] = [None]  # what is being measured, for the status line

    def status(elapsed: float) -> str:
        return f"  measuring {measured[0]}… {elapsed:.0f} s" if measured[0] else ""

    ticker = Ticker(lines, status, bool(isatty and isatty()), every=1.0)

    def say(line: str) -> None:
        ticker.clear()
        print(line, file=lines, flush=True)
        if measured[0]:
            ticker.draw()

    def measuring(name: str | None) -> None:
        measured[0] = name
        ticker.start = time.perf_counter()
        if name:
            ticker.draw()
        else:
            ticker.clear()

    run: BenchRun | FrameworksRun
    with ticker:
        if args.frameworks:  # each part prints its table whole, once measured
            run = bench_frameworks(names, args.seconds, args.rounds, progress=say,
                                   measuring=measuring)  # fmt: skip
        else:
            run = bench(names, args.seconds, args.rounds, compare=args.compare, progress=say,
                        measuring=measuring)  # fmt: skip
    if args.json:
        json.dump(run.to_json(), streams.stdout, indent=2)
        streams.stdout.write("\n")
    return 0


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = kind(text)
        if not value > 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be positive, not {text!r}")
        return value

    return parse


_BENCH_FIGURES = "figures (medians over the rounds):\n" + "\n".join(
    textwrap.fill(f"{key}: {doc}", 92, initial_indent="  ", subsequent_indent="      ")
    for key, doc in FIGURES.items()
)


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 100 else f"{seconds / 60:.0f} min"


class _ProgressBar:
    """The arena's progress on ``stream`` (stderr: stdout stays clean for the table or the
    JSON), from the start: games finished and in play, elapsed time and the time left. On a
    terminal it is one line redrawn in place every second (also while the first games are
    played); elsewhere a line per finished game."""

    def __init__(self, stream: TextIO, games: int, workers: int | None, width: int = 30) -> None:
        self.stream = stream
        self.games = games
        self.workers = None if workers is None else min(workers, games)
        self.width = width
        self.done = 0
        self.resumed: int | None = None  # games read back from --out, known at the first call
        isatty = getattr(stream, "isatty", None)
        self.ticker = Ticker(stream, self.line, bool(isatty and isatty()), every=1.0)

    def line(self, elapsed: float) -> str:
        done, total = self.done, self.games
        workers = total if self.workers is None else self.workers  # None: the cluster's
        playing = min(workers, total - done)  # a worker starts the next game at once
        filled = self.width * done // total
        now = done - (self.resumed or 0)  # the games of this run, for the time left
        left = f"~{_minutes(elapsed / now * (total - done))} left" if now else "ETA after a game"
        return (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games, "
            + (f"{playing} playing, " if self.workers is not None else "")
            + f"{_minutes(elapsed)} elapsed, {left}"
        )

    def __enter__(self) -> _ProgressBar:
        self.ticker.__enter__()
        if not self.ticker.live:  # the games started: said at once, not after the first ends
            print(self.line(0.0), file=self.stream, flush=True)
        return self

    def __exit__(self, *exc: object) -> None:
        self.ticker.stop.set()
        if self.ticker.live:  # the last state of the bar stays on the screen
            self.ticker.__exit__()
            self.stream.write(self.line(self.ticker.elapsed) + "\n")
            self.stream.flush()

    def __call__(self, done: int, total: int) -> None:
        if self.resumed is None:  # the first call follows this run's first game
            self.resumed = done - 1
        self.done = done
        self.games = total
        if self.ticker.live:
            self.ticker.draw()
        else:
            print(self.line(self.ticker.elapsed), file=self.stream, flush=True)


def _arena(args: argparse.Namespace, streams: _Streams) -> int:
    if "human" in (kind.strip().lower() for kind in args.players.split(",")):
        raise OptionError("the arena plays bots only; use " + ", ".join(BOTS))
    kinds = _lineup(args.players, (*BOTS, *OPTIONAL_BOTS))
    made = _make_bots(kinds, args.bot or [])
    options = _game_options(args.game, args.option or [])
    if args.round_robin:
        if len(kinds) < 2 or len(set(kinds)) != len(kinds):
            raise OptionError("--round-robin takes two or more distinct --players")
        # -o players=N, else head to head where the game has a players option, else its seats
        seats = _players_option(options) or (
            2 if _has_players_option(args.game) else tikigames.load(args.game).num_players
        )
    else:
        seats = len(kinds)
    game = _load(args.game, options, seats, () if args.round_robin else kinds)
    workers = args.workers if args.workers is not None or args.backend == "ray" else 1
    if args.games < 1 or (workers is not None and workers < 1):
        raise OptionError("--games and --workers must be at least 1")
    if args.resume and not args.out:
        raise OptionError("--resume continues the tournament of an --out file: give --out")
    if args.address and args.backend != "ray":
        raise OptionError("--address is the Ray cluster's: give --backend ray")
    if args.out and not args.resume and RecordFile.read_header(args.out) is not None:
        raise OptionError(f"{args.out} holds a tournament: --resume it, or choose another file")
    pairings = len(kinds) * (len(kinds) - 1) // 2 if args.round_robin else 1
    bar = _ProgressBar(streams.stderr, args.games * pairings, workers)
    play = round_robin if args.round_robin else arena
    with contextlib.nullcontext() if args.quiet else bar:
        try:
            result: ArenaResult = play(
                game,
                [made[kind] for kind in kinds],
                games=args.games,
                workers=workers,
                seed=args.seed,
                labels=kinds,
                progress=None if args.quiet else bar,
                backend=args.backend,
                address=args.address,
                out=args.out,
                resume=args.resume,
            )
        except ImportError as error:
            raise OptionError(str(error)) from None  # Ray missing
    # An error's text is the bot's, or read back from --out on --resume: any text at all. It
    # is printed on one line, its control characters escaped (the JSON escapes them anyway).
    shown_errors = tuple(replace(failed, error=printable(failed.error)) for failed in result.errors)
    if args.json:
        data = result.to_json()
        data["settings"] = {kind: repr(bot) for kind, bot in made.items()}
        json.dump(data, streams.stdout, indent=2)
        streams.stdout.write("\n")
    else:
        print(replace(result, errors=shown_errors).table(), file=streams.stdout)
        for kind, bot in made.items():
            print(f"{kind}: {bot!r}", file=streams.stdout)
    for failed in shown_errors:
        print(
            f"tikigames: game {failed.index} (seed {failed.seed}, seats"
            f" {', '.join(failed.labels)}) failed: {failed.error}",
            file=streams.stderr,
        )
    return 1 if result.errors else 0


def _selfplay_lineup(args: argparse.Namespace, stderr: TextIO) -> tuple[str, int | None, list[str]]:
    """The search bot, the seats the command line asks for (if it does) and the ``-b``
    settings: from the grammar of every command (``--players ismcts``, or one kind per seat),
    or from the deprecated one of earlier versions (``--bot ismcts``, ``--players N``)."""
    settings: list[str] = []
    named: list[str] = []  # --bot KIND, deprecated: -b and --bot are bot settings everywhere
    for text in args.bot or []:
        if "=" not in text and text.strip().lower() in BOTS:
            named.append(text.strip().lower())
            _deprecated(stderr, f"--bot {named[-1]}", f"--players {named[-1]}")
        else:
            settings.append(text)
    players: str | None = args.players
    seats = None
    if players is not None and players.strip().isdigit():  # --players N, deprecated
        _deprecated(stderr, f"--players {players.strip()}", f"-o players={players.strip()}")
        seats, players = int(players), None
    if players is None:
        kinds = named[-1:] or [SEARCH_BOTS[0]]
    elif named:
        raise OptionError("name the bot once, with --players (--bot KIND is deprecated)")
    else:
        kinds = _lineup(players, SEARCH_BOTS)
    if kinds[0] not in SEARCH_BOTS or len(set(kinds)) > 1:
        raise OptionError(
            "self-play seats one search bot in every seat: --players " + " or ".join(SEARCH_BOTS)
        )
    return kinds[0], (len(kinds) if len(kinds) > 1 else seats), settings


def _selfplay(args: argparse.Namespace, streams: _Streams) -> int:
    """``tikigames selfplay GAME --players ismcts --games N --out DIR``: the search bot
    against itself in every seat, each decision a record in DIR's Parquet shards."""
    kind, seats, settings = _selfplay_lineup(args, streams.stderr)
    made = _make_bots([kind], settings)
    options = _game_options(args.game, args.option or [])
    if seats is None:  # -o players=N, else the game's own count
        seats = _players_option(options) or tikigames.load(args.game).num_players
    game = _load(args.game, options, seats)
    workers = 1 if args.workers is None else args.workers
    if args.games < 1 or workers < 1 or args.shard_games < 1:
        raise OptionError("--games, --workers and --shard-games must be at least 1")
    if args.address and args.backend != "ray":
        raise OptionError("--address is the Ray cluster's: give --backend ray")
    bar = _ProgressBar(streams.stderr, args.games, workers)

    def progress(done: int, total: int) -> None:
        bar.games = total  # on --resume, only the missing shards' games are played
        bar(done, total)

    try:
        with contextlib.nullcontext() if args.quiet else bar:
            run = selfplay(
                game,
                made[kind],  # type: ignore[arg-type]  # a search bot: it has act_and_policy
                args.games,
                args.seed,
                args.out,
                workers=workers,
                backend=args.backend,
                address=args.address,
                resume=args.resume,
                shard_games=args.shard_games,
                progress=None if args.quiet else progress,
            )
    except ImportError as error:
        raise OptionError(str(error)) from None  # pyarrow or Ray missing
    except SelfPlayError as failed:  # a game, not the command line: exit status 1, as arena's
        print(printable(f"tikigames: {failed}"), file=streams.stderr)
        return 1
    print(
        printable(
            f"{game.name}: {run.games} games, seed {run.seed}; {run.played} played now "
            f"({run.games - run.played} found in shards), {run.decisions} decisions written, "
            f"{len(run.shards)} shard(s) in {run.out}; {run.elapsed:.1f} s"
        ),
        file=streams.stdout,
    )
    print(f"{kind}: {made[kind]!r}", file=streams.stdout)
    return 0


def _render(args: argparse.Namespace, streams: _Streams) -> int:
    """``tikigames render FILE.json``: the picture of a saved state or observation."""
    if args.option:
        raise OptionError(
            "render takes the game and its options from the file, and -o KEY=VALUE is a game "
            "option in every command: write the picture with -O/--output FILE"
        )
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except OSError as error:
        raise OptionError(f"cannot read {args.file}: {_os_reason(error)}") from None
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, nested too deep
        raise OptionError(f"cannot read {args.file}: {error}"[:300]) from None
    try:
        if isinstance(data, dict) and data.get("format") == OBSERVATION_FORMAT:
            if args.player is not None:
                raise OptionError("--player is for a saved state; an observation has its player")
            name = expect_str(data.get("game"), "game")
            options = expect_object(data.get("options", {}), "'options'")
            game = tikigames.load(name, **options)
            picture = game.observation_from_json(data).svg(size=args.size)
        else:
            state = tikigames.state_from_json(data)
            if args.player is None:
                picture = state.svg(size=args.size)
            elif args.player == "spectator":
                picture = state.observation(None).svg(size=args.size)
            elif args.player.strip().isdigit():
                picture = state.observation(int(args.player)).svg(size=args.size)
            else:
                raise OptionError(f"--player takes a seat or spectator, not {shown(args.player)}")
    except (tikigames.TikiGamesError, ValueError) as error:
        raise OptionError(f"{args.file}: {error}"[:300]) from None
    png = args.output is not None and Path(args.output).suffix.lower() == ".png"
    if args.png and not args.output:
        raise OptionError("--png writes a file: give -O OUT.png")
    if args.png and not png:
        raise OptionError(f"--png writes PNG, but {args.output} does not end in .png")
    if png:
        try:
            import cairosvg  # type: ignore[import-untyped]  # optional: tikigames[png]
        except ImportError:
            raise OptionError(
                f"{args.output} is a PNG, which needs cairosvg: pip install 'tikigames[png]' "
                "(or write .svg)"
            ) from None
        cairosvg.svg2png(bytestring=picture.encode(), write_to=args.output)
    elif args.output:
        Path(args.output).write_text(picture, encoding="utf-8")
    else:
        streams.stdout.write(picture + "\n")
    return 0


def _serve(args: argparse.Namespace, streams: _Streams) -> int:
    """``tikigames serve``: the game server (:mod:`tikigames.server`) under uvicorn."""
    server = optional_module("tikigames.server", needs_optional=True)
    if server is None:
        raise OptionError("serve needs the server extra: pip install 'tikigames[server]'")
    import uvicorn  # optional: tikigames[server]

    try:
        app = server.create_app(args.db)
    except server.StoreError as error:
        raise OptionError(str(error)) from None
    print(f"tikigames: serving {args.db} on http://{args.host}:{args.port}/ (Ctrl-C stops)",
          file=streams.stderr)  # fmt: skip
    # No access log: the seats' tokens are in their URLs.
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=1 << 16, access_log=False,
                log_level="warning")  # fmt: skip
    return 0


def _list(args: argparse.Namespace, streams: _Streams) -> int:
    for name in tikigames.GAMES:
        game = tikigames.load(name)
        print(
            f"{name:12} {game.title} — {game.num_players} players by default", file=streams.stdout
        )
        for spec in game.option_specs:
            print(f"    {spec.name} = {spec.describe_default()}: {spec.doc}", file=streams.stdout)
    return 0


# The parent parsers: each option shared by several commands is declared once, here.


def _game_parent() -> argparse.ArgumentParser:
    """``GAME``, ``-o KEY=VALUE`` and ``--seed``: every command that plays a game."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("game", choices=tikigames.GAMES, metavar="GAME",
                        help="one of " + ", ".join(tikigames.GAMES))  # fmt: skip
    parent.add_argument("-o", "--option", action="append", type=_key_value, metavar="KEY=VALUE",
                        help="a game option (tikigames list shows them), repeatable")  # fmt: skip
    parent.add_argument("--seed", type=int, default=None,
                        help="the same seed plays the same games (default: drawn; "
                        "arena and selfplay on --resume: the recorded one)")  # fmt: skip
    return parent


def _bots_parent() -> argparse.ArgumentParser:
    """``-b [KIND.]KEY=VALUE``: every command that seats bots."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("-b", "--bot", action="append", metavar="[KIND.]KEY=VALUE",
                        help="a bot setting, for every bot that has it or for bot KIND only, "
                        "repeatable: " + ", ".join(BOT_SETTINGS))  # fmt: skip
    return parent


def _runs_parent() -> argparse.ArgumentParser:
    """The options of a run of many games, which ``arena`` and ``selfplay`` share."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--games", type=int, default=100,
                        help="default: 100 (arena --round-robin: per pairing)")  # fmt: skip
    parent.add_argument("--workers", type=int, default=None,
                        help="worker processes, or the CPUs of the local Ray started "
                        "(default: 1; arena on a Ray cluster: its CPUs)")  # fmt: skip
    parent.add_argument("--backend", choices=("processes", "ray"), default="processes",
                        help="where the games run (ray: needs tikigames[ray])")  # fmt: skip
    parent.add_argument("--address", default=None, metavar="auto|HOST:PORT",
                        help="the Ray cluster to join (default: start a local one)")  # fmt: skip
    parent.add_argument("--resume", action="store_true",
                        help="continue the run in --out: play only the games it lacks, with "
                        "its seed")  # fmt: skip
    parent.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return parent


def _json_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--json", action="store_true",
                        help="print the results as JSON (the progress goes to stderr)")  # fmt: skip
    return parent


def _players(parser: argparse.ArgumentParser, default: str | None, doc: str) -> None:
    """``--players``: the one shared option whose default and meaning are each command's."""
    parser.add_argument("--players", default=default, metavar="KIND[,KIND…]",
                        help=doc + (f" (default: {default})" if default else ""))  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tikigames",
        description=textwrap.fill(plain(" ".join(__doc__.split("\n\n")[0].split())), 79),
        epilog="examples:\n"
        + textwrap.indent(plain(textwrap.dedent(__doc__.split("::")[1].split("\n\n")[1])), "  ")
        + "\n\nEach command's options: tikigames COMMAND --help.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    build = "the compiled build (mypyc)" if tikigames.compiled else "pure Python"
    parser.add_argument(
        "--version",
        action="version",
        version=f"tikigames {tikigames.__version__} ({build}; tikigames.compiled = "
        f"{tikigames.compiled})",
    )
    game, bots, runs, as_json = _game_parent(), _bots_parent(), _runs_parent(), _json_parent()
    commands = parser.add_subparsers(dest="name", required=True, metavar="COMMAND")
    listing = commands.add_parser("list", help="the games and their options")
    listing.set_defaults(func=_list)

    play = commands.add_parser(
        "play",
        parents=[game, bots],
        help="play a game in the terminal",
        epilog="while playing, type a move (a unique start of one is completed: Enter plays "
        "it) or a command:\n"
        + "\n".join(f"  {name:22} {doc}" for name, doc in COMMANDS.items())
        + "\ncolour: on a terminal, unless NO_COLOR is set"
        + "\nexit status: 0 once the game is over or a player quits, 1 if the input ran out "
        "first, 2 for a usage error or a bad path",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _players(play, None,
             "who sits in each seat, comma-separated: human or " + ", ".join(BOTS) + "; the "
             "number of names sets the number of players (default: human, then random in "
             "each other seat of the game's default number, or of -o players=N); a search "
             "bot facing a human thinks about a second a move (the game's think_seconds) "
             "unless -b gives it iterations or seconds")  # fmt: skip
    play.add_argument("-v", "--verbose", action="store_true", help="print chance outcomes")
    play.add_argument("--svg", metavar="DIR", default=None,
                      help="after every move, each human's view as DIR/player<P>.svg (DIR: "
                      "new, or holding only such files)")  # fmt: skip
    play.set_defaults(func=_play)

    bench_ = commands.add_parser(
        "bench",
        parents=[as_json],
        help="measure the engines",
        epilog=_BENCH_FIGURES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench_.add_argument("game", nargs="?", choices=tikigames.GAMES, help="default: every game")
    bench_.add_argument(
        "--seconds",
        type=_positive(float),
        default=1.0,
        help="per rate measured, a third of it per µs figure (default: 1)",
    )
    bench_.add_argument(
        "--rounds",
        type=_positive(int),
        default=3,
        help="rounds, whose medians are the figures (default: 3)",
    )
    bench_.add_argument(
        "--compare",
        action="store_true",
        help="also measure OpenSpiel's tic-tac-toe (Python and C++) and maedn, "
        "and python-chess's legal moves, where installed, in turns with each game's compared "
        "rates (slices of 0.1 s), and give each game's rates as multiples of theirs (medians "
        "of the rounds' ratios)",
    )
    bench_.add_argument(
        "--frameworks",
        action="store_true",
        help="instead, steps/s through PettingZoo and OpenSpiel, beside their own games",
    )
    bench_.set_defaults(func=_bench)

    tour = commands.add_parser(
        "arena",
        parents=[game, bots, runs, as_json],
        help="a tournament of bots, in parallel processes or on a Ray cluster",
        epilog="exit status: 0, or 1 if some games failed (each is reported with its index and"
        " seed, and the tournament goes on), 2 for a usage error, a bad path or a bad file",
    )
    _players(tour, "ismcts,random",
             "the bot in each seat, comma-separated (with --round-robin: the bots to pair): "
             + ", ".join((*BOTS, *OPTIONAL_BOTS)) + "; KIND:NAME names a second bot of a kind,"
             " set with -b KIND:NAME.KEY=VALUE")  # fmt: skip
    tour.add_argument("--round-robin", action="store_true",
                      help="every pairing of --players, seats rotated, and Bradley–Terry ratings "
                      "(two seats unless -o players=N)")  # fmt: skip
    tour.add_argument("--out", default=None, metavar="FILE",
                      help="append each finished game to FILE (JSON lines), durably; with "
                      "--resume, more --games than it holds grows the tournament")  # fmt: skip
    tour.set_defaults(func=_arena)

    selfplay_ = commands.add_parser(
        "selfplay",
        parents=[game, bots, runs],
        help="a search bot against itself: its decisions as training data (Parquet)",
        epilog="one record per decision: the observation tensor, the legal mask, the search's "
        "visit distribution and the seat's final return (docs: Self-play data; needs "
        "tikigames[data], and tikigames[ray] for --backend ray). Exit status: 0, 1 if a game "
        "failed (the shards written stay; --resume plays the rest), 2 for a usage error, a bad "
        "path or a bad file. Deprecated: --bot KIND (write --players KIND) and --players N "
        "(write -o players=N).",
    )
    _players(selfplay_, None,
             "the search bot, " + " or ".join(SEARCH_BOTS) + ": once for every seat of the "
             "game (-o players=N for another number), or once per seat (default: "
             f"{SEARCH_BOTS[0]})")  # fmt: skip
    selfplay_.add_argument("--out", required=True, metavar="DIR", help="the shards' directory")
    selfplay_.add_argument("--shard-games", type=int, default=10,
                           help="games per shard (default: 10)")  # fmt: skip
    selfplay_.set_defaults(func=_selfplay)

    serve = commands.add_parser(
        "serve",
        help="the game server: play in the browser (needs tikigames[server])",
        epilog="the lobby is at http://HOST:PORT/; every accepted move is committed to --db "
        "before it is acknowledged, and a server started again on the same file resumes every "
        "game (docs: Serving games on the web)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1 (this machine)")
    serve.add_argument("--port", type=int, default=8000, help="default: 8000")
    serve.add_argument("--db", default="tikigames.sqlite",
                       help="the SQLite file of the games, created if missing, owned by this "
                       "server alone (default: tikigames.sqlite)")  # fmt: skip
    serve.set_defaults(func=_serve)

    render = commands.add_parser("render", help="draw a saved state or observation (SVG or PNG)")
    render.add_argument("file", help="a state's or an observation's JSON "
                        "(state.to_json_text(), obs.to_json())")  # fmt: skip
    render.add_argument("--player", default=None,
                        help="for a state: draw this seat's view (or 'spectator')")  # fmt: skip
    render.add_argument("-O", "--output", default=None,
                        help="the file to write: PNG if its name ends in .png (needs "
                        "tikigames[png]), else SVG (default: SVG on stdout)")  # fmt: skip
    render.add_argument("--size", type=int, default=480, help="pixels of the longer side")
    render.add_argument("--png", action="store_true",
                        help="write PNG: -O must end in .png (which alone says PNG)")  # fmt: skip
    render.add_argument("-o", "--option", action="append", help=argparse.SUPPRESS)
    render.set_defaults(func=_render)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:  # fmt: skip
    """Run the command line; returns the exit status: 0, 1 (a game's input ran out before its
    end, or a game failed in the arena), 2 (a usage error, a bad path or a bad file: one line
    ``tikigames: …`` on stderr), 130 (interrupted) or 141 (the reader of stdout went away)."""
    args = build_parser().parse_args(argv)
    streams = _Streams(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    command: _Command = args.func
    try:
        return command(args, streams)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``tikigames arena … | head``): stop without a traceback. At
        # exit Python flushes stdout again, which would raise again: point it at /dev/null.
        if streams.stdout is sys.stdout:
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a program its pipe stopped
    except OSError as error:  # a path: missing, a directory, not writable…
        print(printable(f"tikigames: {_os_reason(error)}"), file=streams.stderr)
        return 2
    except (tikigames.TikiGamesError, ValueError) as error:  # a bad option, value or file
        print(printable(f"tikigames: {error}"), file=streams.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

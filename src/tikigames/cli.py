"""The ``tikigames`` command: list the games, play one in the terminal, benchmark the engines,
run a tournament of bots, record self-play data.

::

    tikigames list
    tikigames play tiki_topple --players human,ismcts --seed 7 -o rounds=2 -b iterations=2000
    tikigames bench [GAME] [--seconds S] [--rounds R] [--compare | --frameworks] [--json]
    tikigames arena tactiki --players ismcts,random --games 200 --workers 2 --seed 1 [--json]
    tikigames arena tiki_topple --players ismcts,mcts,random --round-robin --out rr.jsonl --resume
    tikigames render saved.json [--player P] [-o OUT.svg] [--png]
    tikigames selfplay tiki_topple --bot ismcts -b iterations=400 --games 100 --out data [--resume]

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import tikigames
from tikigames.arena import ArenaResult, arena, round_robin
from tikigames.bench import FIGURES, BenchRun, bench
from tikigames.bench_frameworks import FrameworksRun, bench_frameworks
from tikigames.bots import Bot, ISMCTSBot, MCTSBot, RandomBot
from tikigames.bots.search import GAME_CAP, RolloutCap
from tikigames.core.errors import OptionError
from tikigames.core.game import Game
from tikigames.core.options import OptionValue
from tikigames.core.serialization import OBSERVATION_FORMAT
from tikigames.core.state import State
from tikigames.records import RecordFile
from tikigames.selfplay import selfplay
from tikigames.terminal import COMMANDS, Abandoned, Table, Ticker, plain

__all__ = ["main"]

#: The bots ``--players`` accepts, by name (``human`` is handled by the command itself).
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "mcts": MCTSBot, "ismcts": ISMCTSBot}


def _optional(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        return None if text.strip().lower() in ("none", "null") else kind(text)

    return parse


def _rollout_cap(text: str) -> RolloutCap:
    """``max_rollout``: a number of actions, ``none`` (no cap) or ``game`` (the game's own)."""
    return GAME_CAP if text.strip().lower() == GAME_CAP else _optional(int)(text)


#: The settings ``-b KEY=VALUE`` accepts, with their parsers; each bot takes those its
#: constructor has.
BOT_SETTINGS: dict[str, Callable[[str], Any]] = {
    "iterations": int,
    "seconds": _optional(float),
    "c": float,
    "max_rollout": _rollout_cap,
}


def _bot_settings(kinds: Sequence[str], pairs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per bot name, the keyword arguments ``-b`` gives it: ``KEY=VALUE`` goes to every bot of
    the lineup that takes ``KEY``, ``NAME.KEY=VALUE`` to bot ``NAME`` only."""
    settings: dict[str, dict[str, Any]] = {kind: {} for kind in kinds if kind in BOTS}
    for pair in pairs:
        target, sep, text = pair.partition("=")
        if not sep:
            raise OptionError(f"-b takes KEY=VALUE or NAME.KEY=VALUE, not {pair!r}")
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
            kind
            for kind in ([name] if dot else settings)
            if key in inspect.signature(BOTS[kind]).parameters
        ]
        if not takers:
            raise OptionError(f"-b {pair!r}: no bot among the players takes {key!r}")
        for kind in takers:
            settings[kind][key] = value
    return settings


def _make_bots(kinds: Sequence[str], pairs: Sequence[str]) -> dict[str, Bot]:
    """One bot per distinct name of ``kinds`` (humans aside), with its ``-b`` settings."""
    for kind in kinds:
        if kind != "human" and kind not in BOTS:
            raise OptionError(f"unknown player {kind!r}; use human or {', '.join(BOTS)}")
    bots: dict[str, Bot] = {}
    for kind, settings in _bot_settings(kinds, pairs).items():
        try:
            bots[kind] = BOTS[kind](**settings)
        except (TypeError, ValueError) as error:
            raise OptionError(f"{kind}: {error}") from None
    return bots


def _load_for_players(name: str, seats: int, pairs: Sequence[str]) -> Game[Any, Any, Any]:
    """The game ``name`` with ``-o KEY=VALUE`` options (each parsed by its declaration), its
    ``players`` option set to the number of seats where the game has one."""
    specs = {spec.name: spec for spec in tikigames.load(name).option_specs}
    options: dict[str, OptionValue] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"-o takes KEY=VALUE, not {pair!r}")
        spec = specs.get(key.strip())
        if spec is None:
            raise OptionError(f"{name} has no option {key.strip()!r} (options: {', '.join(specs)})")
        options[spec.name] = spec.parse(value)
    if "players" in specs and "players" not in options:
        options["players"] = seats
    game = tikigames.load(name, **options)
    if game.num_players != seats:
        raise OptionError(f"{name} with these options has {game.num_players} seats, not {seats}")
    return game


class _PictureWriter:
    """``play --svg DIR``: after every action, each human's view as ``DIR/player<P>.svg``,
    and a page ``DIR/player<P>.html`` that shows it and reloads itself every second, for
    people who want to watch in a browser."""

    def __init__(self, directory: Path, seats: Sequence[int]) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.seats: list[int | None] = [*seats] or [None]  # no human: a spectator's view
        for seat in self.seats:
            name = _picture_name(seat)
            (directory / f"{name}.html").write_text(
                '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="1">'
                f'<title>tikigames: {name}</title><img src="{name}.svg" alt="{name}\'s view">'
            )

    def write(self, state: State[Any, Any, Any]) -> None:
        for seat in self.seats:
            picture = state.observation(seat).svg()
            target = self.directory / f"{_picture_name(seat)}.svg"
            partial = target.with_suffix(".svg.part")
            partial.write_text(picture)
            partial.replace(target)  # a browser never reads a half-written picture


def _picture_name(seat: int | None) -> str:
    return "spectator" if seat is None else f"player{seat}"


def _play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    kinds = [kind.strip().lower() for kind in args.players.split(",")]
    made = _make_bots(kinds, args.bot or [])
    game = _load_for_players(args.game, len(kinds), args.option or [])
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    pictures = _PictureWriter(Path(args.svg), humans) if args.svg else None
    table = Table(
        game,
        kinds,
        made,
        stdin,
        stdout,
        seed=args.seed,
        verbose=args.verbose,
        on_action=None if pictures is None else pictures.write,
    )
    print(
        f"{game.title}: " + ", ".join(f"player {s} {k}" for s, k in enumerate(kinds))
        + (" (type help for the commands)" if humans else ""),
        file=stdout,
    )  # fmt: skip
    try:
        table.play()
    except Abandoned:
        print("Game abandoned.", file=stdout)
        return 1
    return 0


def _bench(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    names = [args.game] if args.game else list(tikigames.GAMES)
    lines = stderr if args.json else stdout  # the progress; stdout stays clean for the JSON

    isatty = getattr(lines, "isatty", None)
    waiting = [""]  # the game being measured, for the status line
    measured: list[str] = []

    def status(elapsed: float) -> str:
        return f"  measuring {waiting[0]}… {elapsed:.0f} s" if waiting[0] else ""

    ticker = Ticker(lines, status, bool(isatty and isatty()), every=1.0)

    def show(line: str) -> None:
        ticker.clear()
        print(line, file=lines, flush=True)
        # After the games' table head or a game's line, the next game is being measured.
        first = line.split()[0] if line.strip() else ""
        if (first == "game" and not measured) or (first in names and first not in measured):
            measured.extend([first] if first in names else [])
            following = [name for name in names if name not in measured]
            waiting[0] = following[0] if following else ""
            ticker.start = time.perf_counter()
            ticker.draw()

    def say(line: str) -> None:
        ticker.clear()
        print(line, file=lines, flush=True)

    run: BenchRun | FrameworksRun
    with ticker:
        if args.frameworks:  # each part prints its table whole, once measured
            waiting[0] = "steps/s through the frameworks"
            run = bench_frameworks(names, args.seconds, args.rounds, progress=say)
        else:
            run = bench(names, args.seconds, args.rounds, compare=args.compare, progress=show)
    if args.json:
        json.dump(run.to_json(), stdout, indent=2)
        stdout.write("\n")
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


def _round_robin_seats(name: str, pairs: Sequence[str]) -> int:
    """A round robin's seats: ``-o players=N`` if given, else 2 (the pairs play head to head)
    where the game has a ``players`` option, else the game's own number."""
    game = tikigames.load(name)
    if "players" not in {spec.name for spec in game.option_specs}:
        return game.num_players
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key.strip() == "players" and value.strip().isdigit():
            return int(value)
    return 2


def _arena(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    kinds = [kind.strip().lower() for kind in args.players.split(",")]
    if "human" in kinds:
        raise OptionError("the arena plays bots only; use " + ", ".join(BOTS))
    made = _make_bots(kinds, args.bot or [])
    if args.round_robin:
        if len(kinds) < 2 or len(set(kinds)) != len(kinds):
            raise OptionError("--round-robin takes two or more distinct --players")
        seats = _round_robin_seats(args.game, args.option or [])
    else:
        seats = len(kinds)
    game = _load_for_players(args.game, seats, args.option or [])
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
    bar = _ProgressBar(stderr, args.games * pairings, workers)
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
        except (FileExistsError, ValueError, ImportError, ConnectionError) as error:
            raise OptionError(str(error)) from None  # --out's, or Ray missing or unreachable
    if args.json:
        data = result.to_json()
        data["settings"] = {kind: repr(bot) for kind, bot in made.items()}
        json.dump(data, stdout, indent=2)
        stdout.write("\n")
    else:
        print(result.table(), file=stdout)
        for kind, bot in made.items():
            print(f"{kind}: {bot!r}", file=stdout)
    for failed in result.errors:
        print(
            f"tikigames: game {failed.index} (seed {failed.seed}, seats"
            f" {', '.join(failed.labels)}) failed: {failed.error}",
            file=stderr,
        )
    return 1 if result.errors else 0


def _selfplay(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """``tikigames selfplay GAME --bot ismcts --games N --out DIR``: the search bot against
    itself in every seat, each decision a record in DIR's Parquet shards."""
    made = _make_bots([args.kind], args.bot or [])
    seats = args.players
    if seats is None:  # the game's own count, or the one ``-o players=N`` asks for
        seats = tikigames.load(args.game).num_players
        for pair in args.option or []:
            key, _, value = pair.partition("=")
            if key.strip() == "players" and value.strip().isdigit():
                seats = int(value)
    game = _load_for_players(args.game, seats, args.option or [])
    if args.games < 1 or args.workers < 1 or args.shard_games < 1:
        raise OptionError("--games, --workers and --shard-games must be at least 1")
    bar = _ProgressBar(stderr, args.games, args.workers)

    def progress(done: int, total: int) -> None:
        bar.games = total  # on --resume, only the missing shards' games are played
        bar(done, total)

    try:
        with contextlib.nullcontext() if args.quiet else bar:
            run = selfplay(
                game,
                made[args.kind],  # type: ignore[arg-type]  # a search bot: it has act_and_policy
                args.games,
                args.seed,
                args.out,
                workers=args.workers,
                backend=args.backend,
                address=args.address,
                resume=args.resume,
                shard_games=args.shard_games,
                progress=None if args.quiet else progress,
            )
    except (FileExistsError, ImportError, ValueError) as error:
        raise OptionError(str(error)) from None
    print(
        f"{game.name}: {run.games} games, seed {run.seed}; {run.played} played now "
        f"({run.games - run.played} found in shards), {run.decisions} decisions written, "
        f"{len(run.shards)} shard(s) in {run.out}; {run.elapsed:.1f} s",
        file=stdout,
    )
    print(f"{args.kind}: {made[args.kind]!r}", file=stdout)
    return 0


def _render(args: argparse.Namespace, stdout: TextIO) -> int:
    """``tikigames render FILE.json``: the picture of a saved state or observation."""
    try:
        data = json.loads(Path(args.file).read_text())
    except (OSError, ValueError) as error:
        raise OptionError(f"cannot read {args.file!r}: {error}"[:300]) from None
    try:
        if isinstance(data, dict) and data.get("format") == OBSERVATION_FORMAT:
            game = tikigames.load(str(data.get("game")), **dict(data.get("options") or {}))
            if args.player is not None:
                raise OptionError("--player is for a saved state; an observation has its player")
            picture = game.observation_from_json(data).svg(size=args.size)
        else:
            state = tikigames.state_from_json(data)
            if args.player is None:
                picture = state.svg(size=args.size)
            else:
                seat = None if args.player == "spectator" else int(args.player)
                picture = state.observation(seat).svg(size=args.size)
    except (tikigames.InvalidStateError, ValueError) as error:
        raise OptionError(f"{args.file}: {error}"[:300]) from None
    if args.png:
        if not args.output:
            raise OptionError("--png writes a file: give -o OUT.png")
        try:
            import cairosvg  # type: ignore[import-untyped]  # optional: tikigames[png]
        except ImportError:
            raise OptionError("--png needs cairosvg: pip install 'tikigames[png]'") from None
        cairosvg.svg2png(bytestring=picture.encode(), write_to=args.output)
    elif args.output:
        Path(args.output).write_text(picture)
    else:
        stdout.write(picture + "\n")
    return 0


def _list(stdout: TextIO) -> int:
    for name in tikigames.GAMES:
        game = tikigames.load(name)
        print(f"{name:12} {game.title} — {game.num_players} players by default", file=stdout)
        for spec in game.option_specs:
            print(f"    {spec.name} = {spec.describe_default()}: {spec.doc}", file=stdout)
    return 0


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
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("list", help="the games and their options")
    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        epilog="while playing, type a move (or a unique start of one) or a command:\n"
        + "\n".join(f"  {name:15} {doc}" for name, doc in COMMANDS.items())
        + "\ncolour: on a terminal, unless NO_COLOR is set",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("game", choices=tikigames.GAMES)
    play.add_argument("--players", default="human,random",
                      help="comma-separated: human or " + ", ".join(BOTS))  # fmt: skip
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("-o", "--option", action="append", metavar="KEY=VALUE")
    play.add_argument("-b", "--bot", action="append", metavar="[NAME.]KEY=VALUE",
                      help="a bot setting: " + ", ".join(BOT_SETTINGS))  # fmt: skip
    play.add_argument("-v", "--verbose", action="store_true", help="print chance outcomes")
    bench_ = commands.add_parser(
        "bench",
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
    bench_.add_argument(
        "--json",
        action="store_true",
        help="print the results as JSON (the progress goes to stderr)",
    )
    tour = commands.add_parser(
        "arena",
        help="a tournament of bots, in parallel processes or on a Ray cluster",
        epilog="exit status: 0, or 1 if some games failed (each is reported with its index and"
        " seed, and the tournament goes on), 2 for a usage error",
    )
    tour.add_argument("game", choices=tikigames.GAMES)
    tour.add_argument("--players", default="ismcts,random",
                      help="comma-separated bots, one per seat (with --round-robin: the bots to "
                      "pair): " + ", ".join(BOTS))  # fmt: skip
    tour.add_argument("--games", type=int, default=100,
                      help="default: 100 (with --round-robin: per pairing)")  # fmt: skip
    tour.add_argument("--workers", type=int, default=None,
                      help="workers (default: 1; with Ray: the cluster's CPUs)")  # fmt: skip
    tour.add_argument("--round-robin", action="store_true",
                      help="every pairing of --players, seats rotated, and Bradley–Terry ratings "
                      "(two seats unless -o players=N)")  # fmt: skip
    tour.add_argument("--backend", choices=("processes", "ray"), default="processes",
                      help="where the games run (ray: needs tikigames[ray])")  # fmt: skip
    tour.add_argument("--address", default=None, metavar="auto|HOST:PORT",
                      help="the Ray cluster to join (default: start a local one)")  # fmt: skip
    tour.add_argument("--out", default=None, metavar="FILE",
                      help="append each finished game to FILE (JSON lines), durably")  # fmt: skip
    tour.add_argument("--resume", action="store_true",
                      help="play only the games --out FILE lacks, with its seed "
                      "(more --games than it holds: the tournament grows)")  # fmt: skip
    tour.add_argument("--seed", type=int, default=None, help="default: drawn and printed")
    tour.add_argument("-o", "--option", action="append", metavar="KEY=VALUE")
    tour.add_argument("-b", "--bot", action="append", metavar="[NAME.]KEY=VALUE",
                      help="a bot setting: " + ", ".join(BOT_SETTINGS))  # fmt: skip
    tour.add_argument("--json", action="store_true")
    tour.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    selfplay_ = commands.add_parser(
        "selfplay",
        help="a search bot against itself: its decisions as training data (Parquet)",
        epilog="one record per decision: the observation tensor, the legal mask, the search's "
        "visit distribution and the seat's final return (docs: Self-play data; needs "
        "tikigames[data], and tikigames[ray] for --backend ray)",
    )
    selfplay_.add_argument("game", choices=tikigames.GAMES)
    selfplay_.add_argument("--bot", dest="kind", choices=["ismcts", "mcts"], default="ismcts",
                           help="the search bot in every seat (default: ismcts)")  # fmt: skip
    selfplay_.add_argument("-b", dest="bot", action="append", metavar="KEY=VALUE",
                           help="a bot setting: " + ", ".join(BOT_SETTINGS))  # fmt: skip
    selfplay_.add_argument("--games", type=int, default=100, help="default: 100")
    selfplay_.add_argument("--out", required=True, metavar="DIR", help="the shards' directory")
    selfplay_.add_argument("--resume", action="store_true",
                           help="keep DIR's shards, play only the missing ones' games")  # fmt: skip
    selfplay_.add_argument("--players", type=int, default=None,
                           help="seats (default: the game's)")  # fmt: skip
    selfplay_.add_argument("--workers", type=int, default=1,
                           help="worker processes, or a local Ray's CPUs (default: 1)")  # fmt: skip
    selfplay_.add_argument("--backend", choices=["processes", "ray"], default="processes")
    selfplay_.add_argument("--address", default=None,
                           help="with --backend ray: the cluster (auto, HOST:PORT)")  # fmt: skip
    selfplay_.add_argument("--seed", type=int, default=None,
                           help="default: drawn (on --resume: the run's)")  # fmt: skip
    selfplay_.add_argument("--shard-games", type=int, default=10,
                           help="games per shard (default: 10)")  # fmt: skip
    selfplay_.add_argument("-o", "--option", action="append", metavar="KEY=VALUE")
    selfplay_.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    render = commands.add_parser("render", help="draw a saved state or observation as SVG")
    render.add_argument("file", help="a state's or an observation's JSON (to_json)")
    render.add_argument("--player", default=None,
                        help="for a state: draw this seat's view (or 'spectator')")  # fmt: skip
    render.add_argument("-o", "--output", default=None, help="the file to write (default: stdout)")
    render.add_argument("--size", type=int, default=480, help="pixels of the longer side")
    render.add_argument("--png", action="store_true", help="write PNG (needs tikigames[png])")
    play.add_argument("--svg", metavar="DIR", default=None,
                      help="after every move, each human's view as DIR/player<P>.svg")  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:  # fmt: skip
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if args.command == "list":
            return _list(stdout)
        if args.command == "play":
            return _play(args, stdin, stdout)
        if args.command == "arena":
            return _arena(args, stdout, stderr)
        if args.command == "render":
            return _render(args, stdout)
        if args.command == "selfplay":
            return _selfplay(args, stdout, stderr)
        return _bench(args, stdout, stderr)
    except OptionError as error:
        print(f"tikigames: {error}", file=stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``tikigames arena … | head``): stop without a traceback. At
        # exit Python flushes stdout again, which would raise again: point it at /dev/null.
        if stdout is sys.stdout:
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a program its pipe stopped


if __name__ == "__main__":
    sys.exit(main())

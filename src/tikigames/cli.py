"""The ``tikigames`` command: list the games, play one in the terminal, benchmark the engines,
run a tournament of bots.

::

    tikigames list
    tikigames play tiki_topple --players human,ismcts --seed 7 -o rounds=2 -b iterations=2000
    tikigames bench [GAME] [--seconds S] [--rounds R] [--compare | --frameworks] [--json]
    tikigames arena tactiki --players ismcts,random --games 200 --workers 2 --seed 1 [--json]
    tikigames render saved.json [--player P] [-o OUT.svg] [--png]

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import tikigames
from tikigames.arena import arena
from tikigames.bench import FIGURES, BenchRun, bench
from tikigames.bench_frameworks import FrameworksRun, bench_frameworks
from tikigames.bots import Bot, ISMCTSBot, MCTSBot, RandomBot
from tikigames.bots.search import GAME_CAP, RolloutCap
from tikigames.core.action import Action
from tikigames.core.constants import CHANCE
from tikigames.core.errors import ActionError, IllegalActionError, OptionError
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.options import OptionValue
from tikigames.core.serialization import OBSERVATION_FORMAT
from tikigames.core.state import State

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


_CLEAR = "\033[2J\033[H"


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


def _ask(prompt: str, stdin: TextIO, stdout: TextIO) -> str | None:
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    return None if line == "" else line.strip()


class _Abandoned(Exception):
    """A human quit, or their input ran out."""


class HumanBot:
    """A person at the terminal, as a :class:`~tikigames.core.bot.Bot`: shown their observation
    and its legal actions, asked for a move until one is legal.

    With ``hot_seat`` (several humans at one screen), the screen is cleared and the next
    human asked to take the seat before anything of theirs is shown.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, hot_seat: bool) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.hot_seat = hot_seat
        self.seated: int | None = None

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        player = obs.player
        out = self.stdout
        if self.hot_seat and self.seated != player:
            out.write(_CLEAR)
            prompt = f"Player {player}: press Enter when only you can see the screen. "
            if _ask(prompt, self.stdin, out) is None:
                raise _Abandoned
        self.seated = player
        legal = obs.legal_actions()
        print(str(obs), file=out)
        print("Legal: " + ", ".join(str(action) for action in legal), file=out)
        while True:
            text = _ask(f"player {player}> ", self.stdin, out)
            if text is None or text.lower() in ("quit", "exit"):
                raise _Abandoned
            if not text:
                continue  # an empty line: just ask again
            try:
                action = obs.game.action_table.parse(text)
                if action not in legal:
                    raise IllegalActionError(f"{action.text!r}: not legal for player {player} now")
                return legal[legal.index(action)]
            except ActionError as error:
                print(f"Not accepted: {error}. Type one of the legal actions, or quit.", file=out)


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
    human = HumanBot(stdin, stdout, hot_seat=len(humans) > 1)
    lineup: list[Bot] = [human if kind == "human" else made[kind] for kind in kinds]
    viewer = humans[0] if len(humans) == 1 else None

    pictures = _PictureWriter(Path(args.svg), humans) if args.svg else None

    def show(state: State[Any, Any, Any], player: int, action: Action) -> None:
        if pictures is not None:
            pictures.write(state)
        seen = state.seen_history(viewer)[-1]
        if player == CHANCE:
            if args.verbose:
                print(f"chance: {seen}", file=stdout)
        elif kinds[player] != "human":
            print(f"player {player} ({kinds[player]}): {seen}", file=stdout)

    print(
        f"{game.title}: " + ", ".join(f"player {s} {k}" for s, k in enumerate(kinds)), file=stdout
    )
    try:
        state = tikigames.play(game, lineup, seed=args.seed, on_action=show)
    except _Abandoned:
        print("Game abandoned.", file=stdout)
        return 1
    if len(humans) > 1:
        stdout.write(_CLEAR)
    print("\nGame over.\n" + str(state), file=stdout)
    returns = state.returns()
    print("Returns: " + ", ".join(f"player {s} {r:+g}" for s, r in enumerate(returns)), file=stdout)
    return 0


def _bench(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    names = [args.game] if args.game else list(tikigames.GAMES)
    lines = stderr if args.json else stdout  # the progress; stdout stays clean for the JSON

    def show(line: str) -> None:
        print(line, file=lines, flush=True)

    run: BenchRun | FrameworksRun
    if args.frameworks:
        run = bench_frameworks(names, args.seconds, args.rounds, progress=show)
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


class _ProgressBar:
    """A one-line progress bar redrawn in place on ``stream`` (stderr: stdout stays clean for
    the table or the JSON)."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        elapsed = time.perf_counter() - self.start
        left = elapsed / done * (total - done)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games,"
            f" {elapsed:.0f} s elapsed, ~{left:.0f} s left "
        )
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def _arena(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    kinds = [kind.strip().lower() for kind in args.players.split(",")]
    if "human" in kinds:
        raise OptionError("the arena plays bots only; use " + ", ".join(BOTS))
    made = _make_bots(kinds, args.bot or [])
    game = _load_for_players(args.game, len(kinds), args.option or [])
    if args.games < 1 or args.workers < 1:
        raise OptionError("--games and --workers must be at least 1")
    result = arena(
        game,
        [made[kind] for kind in kinds],
        games=args.games,
        workers=args.workers,
        seed=args.seed,
        labels=kinds,
        progress=None if args.quiet else _ProgressBar(stderr),
    )
    if args.json:
        data = result.to_json()
        data["settings"] = {kind: repr(bot) for kind, bot in made.items()}
        json.dump(data, stdout, indent=2)
        stdout.write("\n")
    else:
        print(result.table(), file=stdout)
        for kind, bot in made.items():
            print(f"{kind}: {bot!r}", file=stdout)
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
    parser = argparse.ArgumentParser(prog="tikigames", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="the games and their options")
    play = commands.add_parser("play", help="play a game in the terminal")
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
        "and python-chess's legal moves, where installed",
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
    tour = commands.add_parser("arena", help="a tournament of bots, in parallel processes")
    tour.add_argument("game", choices=tikigames.GAMES)
    tour.add_argument("--players", default="ismcts,random",
                      help="comma-separated bots, one per seat: " + ", ".join(BOTS))  # fmt: skip
    tour.add_argument("--games", type=int, default=100, help="default: 100")
    tour.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    tour.add_argument("--seed", type=int, default=None, help="default: drawn and printed")
    tour.add_argument("-o", "--option", action="append", metavar="KEY=VALUE")
    tour.add_argument("-b", "--bot", action="append", metavar="[NAME.]KEY=VALUE",
                      help="a bot setting: " + ", ".join(BOT_SETTINGS))  # fmt: skip
    tour.add_argument("--json", action="store_true")
    tour.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
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
        return _bench(args, stdout, stderr)
    except OptionError as error:
        print(f"tikigames: {error}", file=stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

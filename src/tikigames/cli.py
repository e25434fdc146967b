"""The ``tikigames`` command: list the games, play one in the terminal, benchmark the engines.

::

    tikigames list
    tikigames play tiki_topple --players human,random --seed 7 -o rounds=2
    tikigames bench [GAME] [--seconds S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import tikigames
from tikigames.bots import Bot, RandomBot
from tikigames.core.bench import bench_game
from tikigames.core.errors import ActionError, OptionError
from tikigames.core.game import Game
from tikigames.core.options import OptionValue
from tikigames.core.play import sample_chance

__all__ = ["main"]

#: The bots ``--players`` accepts, by name (``human`` is handled by the command itself).
BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}

_CLEAR = "\033[2J\033[H"


def _parse_value(game_name: str, key: str, text: str) -> OptionValue:
    """An option value from ``-o KEY=VALUE``, typed by the option's declaration."""
    specs = {spec.name: spec for spec in tikigames.load(game_name).option_specs}
    spec = specs.get(key)
    if spec is None:
        raise OptionError(f"{game_name} has no option {key!r} (options: {', '.join(specs)})")
    lowered = text.strip().lower()
    if lowered in ("none", "null") and spec.allow_none:
        return None
    if spec.kind is bool:
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        raise OptionError(f"option {key!r} takes true or false, not {text!r}")
    if spec.kind is int:
        try:
            return int(lowered)
        except ValueError:
            raise OptionError(f"option {key!r} takes an integer, not {text!r}") from None
    return text.strip()


def _load_for_players(name: str, seats: int, pairs: Sequence[str]) -> Game[Any]:
    options: dict[str, OptionValue] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"-o takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = _parse_value(name, key.strip(), value)
    base = tikigames.load(name)
    if "players" in base.options and "players" not in options:
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


def _play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    kinds = [kind.strip().lower() for kind in args.players.split(",")]
    for kind in kinds:
        if kind != "human" and kind not in BOTS:
            raise OptionError(f"unknown player {kind!r}; use human or {', '.join(BOTS)}")
    game = _load_for_players(args.game, len(kinds), args.option or [])
    bots: dict[int, Bot] = {
        seat: BOTS[kind]() for seat, kind in enumerate(kinds) if kind != "human"
    }
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    rng = random.Random(args.seed)
    state = game.new_initial_state()
    viewer = humans[0] if len(humans) == 1 else None
    last_human: int | None = None
    print(
        f"{game.title}: " + ", ".join(f"player {s} {k}" for s, k in enumerate(kinds)), file=stdout
    )
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            action = sample_chance(state, rng)
            if args.verbose:
                print(f"chance: {state.action_to_string(action, viewer)}", file=stdout)
            state.apply_action(action)
            continue
        if player in bots:
            action = bots[player].act(state.observation(player), rng)
            print(f"player {player} ({kinds[player]}): {state.action_to_string(action, viewer)}",
                  file=stdout)  # fmt: skip
            state.apply_action(action)
            continue
        if len(humans) > 1 and last_human != player:
            stdout.write(_CLEAR)
            if _ask(f"Player {player}: press Enter when only you can see the screen. ",
                    stdin, stdout) is None:  # fmt: skip
                return 1
        last_human = player
        obs = state.observation(player)
        print(str(obs), file=stdout)
        print("Legal: " + ", ".join(str(action) for action in obs.legal_actions()), file=stdout)
        while True:
            text = _ask(f"player {player}> ", stdin, stdout)
            if text is None or text.lower() in ("quit", "exit"):
                print("Game abandoned.", file=stdout)
                return 1
            try:
                state.apply_action(state.parse_action(text))
                break
            except ActionError as error:
                print(
                    f"Not accepted: {error}. Type one of the legal actions, or quit.", file=stdout
                )
    if len(humans) > 1:
        stdout.write(_CLEAR)
    print("\nGame over.\n" + str(state), file=stdout)
    returns = state.returns()
    print("Returns: " + ", ".join(f"player {s} {r:+g}" for s, r in enumerate(returns)), file=stdout)
    return 0


def _bench(args: argparse.Namespace, stdout: TextIO) -> int:
    names = [args.game] if args.game else list(tikigames.GAMES)
    results = {name: bench_game(tikigames.load(name), seconds=args.seconds) for name in names}
    if args.json:
        json.dump(results, stdout, indent=2)
        stdout.write("\n")
        return 0
    columns = list(next(iter(results.values())))
    print(f"{'game':12} " + " ".join(f"{c:>22}" for c in columns), file=stdout)
    for name, figures in results.items():
        print(f"{name:12} " + " ".join(f"{figures[c]:>22}" for c in columns), file=stdout)
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
    play.add_argument("-v", "--verbose", action="store_true", help="print chance outcomes")
    bench = commands.add_parser("bench", help="measure the engines")
    bench.add_argument("game", nargs="?", choices=tikigames.GAMES)
    bench.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    bench.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:  # fmt: skip
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        if args.command == "list":
            return _list(stdout)
        if args.command == "play":
            return _play(args, stdin, stdout)
        return _bench(args, stdout)
    except OptionError as error:
        print(f"tikigames: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""The bots' strength ladder: a round robin at equal time per move, for each game.

For each game it runs, through the command line, ::

    tikigames arena GAME --round-robin --players random,KIND:before,KIND,openspiel
        --games N --seed 2026 -b seconds=S -b KIND:before.rollout=uniform …

where ``KIND`` is the game's search bot (``mcts`` for Paikō, ``ismcts`` for the others):

- ``random``: :class:`~tikigames.bots.RandomBot`;
- ``KIND:before``: the search bot set to play as it did before game knowledge (uniform
  playouts, the caps and guesses of that time: ``BEFORE`` below — ``tests/bots/test_baseline.py``
  checks these settings replay that version's choices exactly);
- ``KIND``: the search bot with its defaults (the game's rollout policy, evaluation, cap and,
  for Paikō, progressive widening);
- ``openspiel``: OpenSpiel's own Python ``ISMCTSBot`` (``MCTSBot`` for Paikō) on the game's
  ``tikigames_<name>`` registration, its simulations set from its own measured rate so that a
  move takes the same time (:class:`~tikigames.adapters.openspiel.OpenSpielBot`).

Every pairing plays ``N`` games, seats alternating; the arena gives each bot's score and the
Bradley–Terry ratings with 95% intervals. Then every search bot thinks for ``S`` seconds on
the same positions (decisions along seeded games), to report the iterations (simulations) a
move each reached. It prints, per game, a table of each pairing — score with a 95% Wilson
interval, wins/draws/losses — and the ratings.

A benchmark, not a test: the defaults are tiny, for CI's run of every example (one game, two
games a pairing, 10 ms a move). The bots page's table was measured with
``--games 40 --seconds 0.05 --workers 2`` on a quiet 2-core machine.
Needs the ``[openspiel]`` extra (for the ``openspiel`` seat).

Run: python examples/strength_ladder.py [--games N] [--seconds S] [--workers W] [--save DIR]
        [GAME ...]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import tikigames
import tikigames.cli
from tikigames.adapters.openspiel import OpenSpielBot
from tikigames.bots import ISMCTSBot, MCTSBot, SearchBot

#: Per game: the search bot's kind, and the settings that make it play as before game knowledge.
BEFORE: dict[str, tuple[str, dict[str, Any]]] = {
    "tactiki": ("ismcts", {"rollout": "uniform", "evaluation": "returns", "max_rollout": 200}),
    "tactik": ("ismcts", {"rollout": "uniform", "max_rollout": 20}),
    "tiki_topple": ("ismcts", {"rollout": "uniform", "evaluation": "returns", "max_rollout": 200}),
    "paiko": ("mcts", {"rollout": "uniform", "max_rollout": 20, "widening": None}),
}


def ladder_command(name: str, games: int, seconds: float, workers: int) -> list[str]:
    """The ``tikigames arena --round-robin`` command of game ``name``'s ladder."""
    kind, settings = BEFORE[name]
    command = ["tikigames", "arena", name, "--round-robin"]
    command += ["--players", f"random,{kind}:before,{kind},openspiel"]
    command += ["--games", str(games), "--workers", str(workers), "--seed", "2026"]
    command += ["-b", f"seconds={seconds}"]
    game = tikigames.load(name)
    if any(spec.name == "players" for spec in game.option_specs):
        # The round robin is head to head unless told: the game's default count of seats (in
        # Tac-Tik's four, each bot of a pairing is a team of two partners).
        command += ["-o", f"players={game.num_players}"]
    for key, value in settings.items():
        command += ["-b", f"{kind}:before.{key}={'none' if value is None else value}"]
    return [*command, "--json", "--quiet"]


def wilson(score: float, games: int) -> tuple[float, float]:
    """A 95% Wilson interval of a score out of ``games`` (draws count half)."""
    if not games:
        return 0.0, 1.0
    z = 1.959964
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def positions(game: tikigames.Game[Any], count: int) -> list[Any]:
    """Observations of the player to move at decisions with several legal actions, spread
    along seeded random games."""
    rng = random.Random(11)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            decision = not state.is_chance_node() and len(state.legal_actions()) > 1
            if decision and rng.random() < 0.1:
                found.append(state.observation(state.current_player()))
            state.apply_action(state.random_action(rng))
    return found


def iterations_a_move(bot: SearchBot | OpenSpielBot, observations: list[Any]) -> float:
    """The median iterations (OpenSpiel: simulations) ``bot`` reaches in a move."""
    counts: list[int] = []
    rng = random.Random(5)
    for obs in observations:
        bot.act(obs, rng)
        counts.append(bot.last_iterations if isinstance(bot, SearchBot) else bot.last_simulations)
    return statistics.median(counts)


def run(name: str, games: int, seconds: float, workers: int, save: str | None = None) -> None:
    command = ladder_command(name, games, seconds, workers)
    print("$", " ".join(command), flush=True)
    out = io.StringIO()
    status = tikigames.cli.main(command[1:], stdout=out)
    if status:
        sys.exit(f"the arena failed (status {status})")
    result = json.loads(out.getvalue())
    if save:  # the arena's whole answer, for a later look
        Path(save, f"ladder-{name}.json").write_text(out.getvalue())
    kind, settings = BEFORE[name]
    game = tikigames.load(name)
    cls = MCTSBot if kind == "mcts" else ISMCTSBot
    bots: dict[str, SearchBot | OpenSpielBot] = {
        f"{kind}:before": cls(seconds=seconds, **settings),
        kind: cls(seconds=seconds),
        "openspiel": OpenSpielBot(seconds=seconds),
    }
    observations = positions(game, 20)
    bots["openspiel"].act(observations[0], random.Random(0))  # its first move measures its rate
    reached = {label: iterations_a_move(bot, observations) for label, bot in bots.items()}
    print(f"{name}: {games} games a pairing, {seconds} s a move, mean length "
          f"{result['mean_length']:.0f} actions")  # fmt: skip
    for pair in result["pairings"]:
        a, b, played = pair["a"], pair["b"], pair["games"]
        score = pair["a_wins"] + pair["draws"] / 2
        low, high = wilson(score, played)
        print(
            f"  {a:>14} vs {b:<14} {score / played:.2f} [{low:.2f}, {high:.2f}]  "
            f"W/D/L {pair['a_wins']}/{pair['draws']}/{pair['b_wins']}  iterations a move "
            f"{reached.get(a, 0):.0f} vs {reached.get(b, 0):.0f}"
        )
    for rating in result["ratings"]:
        low, high = rating["elo_ci"]
        label = rating["label"]
        spent = result["bots"][label]["seconds_per_move"]
        print(
            f"  {label:>14}  Elo {rating['elo']:+6.0f}  [{low:+.0f}, {high:+.0f}]"
            f"  {spent:.3f} s a move"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME", default=["tiki_topple"])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=0.01)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--save", metavar="DIR", help="write each arena's JSON there")
    args = parser.parse_args()
    for name in args.names:
        run(name, args.games, args.seconds, args.workers, args.save)


if __name__ == "__main__":
    main()

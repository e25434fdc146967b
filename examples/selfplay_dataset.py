"""Write a small self-play data set of Tiki Topple, read it back into numpy arrays, check it.

ISMCTSBot plays both seats of a few one-round games; every decision becomes a record (the
seat's observation tensor, the legal mask, the search's visit distribution, the move, the seat's
final return), written as Parquet shards of two games each (docs: Self-play data). The script
then reads the directory back twice — with pyarrow directly, which shows the schema, and with
``tikigames.selfplay.arrays``, which gives the arrays a training loop wants (the policy made
dense over every action id) — and checks what a training pipeline relies on: the shapes, that
the policy is a distribution over exactly the legal actions with the move played among its
most visited, and that the returns are those of the games replayed from their seeds.

Needs ``pip install 'tikigames[data]'`` (pyarrow and numpy).

Run: python examples/selfplay_dataset.py [DIR]  (a few seconds; a temporary DIR by default)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

import tikigames
from tikigames.bots import ISMCTSBot
from tikigames.selfplay import arrays, read, selfplay

GAMES = 6
ITERATIONS = 300


def main(out: Path) -> None:
    game = tikigames.load("tiki_topple", players=2, rounds=1)
    bot = ISMCTSBot(iterations=ITERATIONS)
    run = selfplay(game, bot, games=GAMES, seed=7, out=out, shard_games=2)
    print(f"wrote {run.decisions} records of {run.games} games in {run.elapsed:.1f} s:")
    for path in run.shards:
        print(f"  {path.name}  {path.stat().st_size:,} bytes")

    table = read(out)  # one pyarrow.Table, in game order
    print(f"\n{table.num_rows} rows; columns:")
    for field in table.schema:
        print(f"  {field.name:15} {field.type}")

    data = arrays(table)
    rows = table.num_rows
    ids = game.num_distinct_actions
    size = game.observation_tensor_shape()[0]
    obs, mask, policy = data["observation"], data["legal_mask"], data["policy"]
    action, final_return = data["action"], data["final_return"]

    # Shapes and types, as documented.
    assert obs.shape == (rows, size) and obs.dtype == np.float32
    assert mask.shape == (rows, ids) and mask.dtype == np.bool_
    assert policy.shape == (rows, ids) and policy.dtype == np.float32
    # The policy: a distribution over exactly the legal actions; the move is legal and among
    # the most visited (ties go to the better mean, hence "among").
    assert np.allclose(policy.sum(axis=1), 1.0, atol=1e-5)
    assert (policy[~mask] == 0).all() and (policy >= 0).all()
    chosen = policy[np.arange(rows), action]
    assert mask[np.arange(rows), action].all()
    assert np.allclose(chosen, policy.max(axis=1))
    # The returns: each seat's final return in its game, as the game replayed from its seed.
    for index in range(GAMES):
        rows_of_game = data["game_index"] == index
        seeds = set(data["seed"][rows_of_game].tolist())
        assert len(seeds) == 1
        final = tikigames.play(game, [bot] * game.num_players, seed=seeds.pop())
        expected = np.array(final.returns(), dtype=np.float32)[data["seat"][rows_of_game]]
        assert (final_return[rows_of_game] == expected).all()

    forced = mask.sum(axis=1) == 1
    searched = ~forced
    safe = np.where(policy > 0, policy, 1.0)
    entropy = -(policy * np.log(safe)).sum(axis=1)
    print(
        f"\nchecked: {rows} records, {forced.sum()} forced moves (one legal action, all the "
        f"weight on it);\nover the {searched.sum()} searched decisions, on average "
        f"{mask[searched].sum(axis=1).mean():.1f} legal actions, {chosen[searched].mean():.0%} "
        f"of the {ITERATIONS} iterations on the move played, policy entropy "
        f"{entropy[searched].mean():.2f} nats;\nreturns: "
        f"{(final_return > 0).mean():.0%} of the records from the winner's side"
    )


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as directory:
            main(Path(directory))

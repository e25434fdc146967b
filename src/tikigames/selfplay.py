"""Self-play data: a search bot plays every seat, and each of its decisions becomes a training
record — the observation tensor, the legal mask, the search's visit distribution and the final
return of the seat that decided — written as Parquet shards (docs: Self-play data).

Game ``i`` is played with the arena's seed for game ``i`` (:func:`tikigames.arena.game_seed`)
and exactly as ``tikigames.play(game, [bot] * n, seed=...)`` plays it, so every record can be
replayed, and the records depend on nothing but the game, the bot, the seed and ``i``: not on
the backend, the number of workers or the order in which games finish.

Games are grouped into shards of ``shard_games`` consecutive games (``games-000000-000009
.parquet`` holds games 0 to 9). A shard is written to a temporary file in the same directory,
flushed to disk and renamed into place (``os.replace``, atomic), once all its games are done:
a run that is killed leaves whole shards only, and ``resume=True`` plays just the games of
the shards that are missing. ``selfplay.json`` in the directory records the run's settings,
so that a resumed run cannot mix records of another game, bot or seed.

pyarrow (``pip install 'tikigames[data]'``) and Ray (``tikigames[ray]``) are imported only
when used. A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

import tikigames
from tikigames.arena import game_seed
from tikigames.core.action import Action
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.state import State

__all__ = [
    "FORMAT",
    "MANIFEST",
    "Decision",
    "PolicyBot",
    "SelfPlayRun",
    "arrays",
    "play_game",
    "read",
    "schema",
    "selfplay",
    "shard_name",
]

#: The format's name and version, in every shard's metadata and in the manifest.
FORMAT = "tikigames-selfplay/1"
#: The run's settings, next to the shards.
MANIFEST = "selfplay.json"
#: The key of a shard's own metadata (JSON) in the Parquet file's key-value metadata.
METADATA_KEY = b"tikigames"

Backend = Literal["processes", "ray"]


@runtime_checkable
class PolicyBot(Protocol):
    """A bot that reports its search's visit distribution with its move (``MCTSBot``,
    ``ISMCTSBot``): what self-play needs at every decision."""

    def act_and_policy(
        self, obs: Observation[Any], rng: random.Random
    ) -> tuple[Action, dict[Action, float]]: ...


@dataclass(frozen=True)
class Decision:
    """One record: a seat's decision in a self-play game (a row of a shard).

    Attributes:
        index: the game's number in the run.
        seed: the game's seed (``game_seed(run_seed, index)``): ``tikigames.play(game,
            [bot] * n, seed=seed)`` replays the game.
        step: the number of actions, chance outcomes included, played before this decision
            (its index in ``state.history()``).
        seat: the seat that decided.
        observation: ``obs.tensor()``, the seat's observation tensor (flattened).
        mask: ``obs.legal_actions_mask()``.
        policy: the search's visit distribution over the legal actions, in id order.
        action: the action played.
        final_return: the seat's return at the end of the game.
    """

    index: int
    seed: int
    step: int
    seat: int
    observation: list[float]
    mask: list[int]
    policy: dict[Action, float]
    action: Action
    final_return: float


def play_game(
    game: Game[Any, Any, Any], bot: PolicyBot, seed: int, index: int = 0
) -> list[Decision]:
    """Play one game of ``bot`` against itself in every seat and return its decisions in order
    (forced moves included, with all the weight on the one action). Chance and the bot draw
    from one ``random.Random(seed)`` in the order ``tikigames.play`` draws, so the game is
    the one ``tikigames.play(game, [bot] * game.num_players, seed=seed)`` plays.

    >>> import tikigames
    >>> from tikigames.bots import ISMCTSBot
    >>> from tikigames.selfplay import play_game
    >>> game = tikigames.load("tiki_topple", rounds=1)
    >>> decisions = play_game(game, ISMCTSBot(iterations=10), seed=3)
    >>> final = tikigames.play(game, [ISMCTSBot(iterations=10)] * 2, seed=3)
    >>> all(final.history()[d.step] == d.action for d in decisions)
    True
    >>> {d.final_return for d in decisions if d.seat == 0} == {final.returns()[0]}
    True
    """
    rng = random.Random(seed)
    state: State[Any, Any, Any] = game.new_initial_state()
    seen: list[tuple[int, int, list[float], list[int], dict[Action, float], Action]] = []
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            state.apply_unchecked(state.sample_chance(rng))
            continue
        obs = state.observation(player)
        step = len(state.history())
        action, policy = bot.act_and_policy(obs, rng)
        state.apply_action(action)
        seen.append((step, player, obs.tensor(), obs.legal_actions_mask(), policy, action))
    returns = state.returns()
    return [
        Decision(index, seed, step, seat, tensor, mask, policy, action, returns[seat])
        for step, seat, tensor, mask, policy, action in seen
    ]


# ----------------------------------------------------------------- the Parquet schema


def _arrow() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, imported when first needed (they are optional)."""
    try:
        import pyarrow  # type: ignore[import-untyped,import-not-found,unused-ignore]
        import pyarrow.parquet  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise ImportError("self-play data is Parquet: pip install 'tikigames[data]'") from None
    return pyarrow, pyarrow.parquet


def schema(game: Game[Any, Any, Any]) -> Any:
    """The Arrow schema of ``game``'s records (a ``pyarrow.Schema``): the tensor and the mask
    are fixed-size lists, so a column reads back as one ``(rows, size)`` array."""
    pa, _ = _arrow()
    return pa.schema(
        [
            pa.field("game", pa.string(), nullable=False),
            pa.field("options", pa.string(), nullable=False),
            pa.field("seed", pa.uint64(), nullable=False),
            pa.field("game_index", pa.int32(), nullable=False),
            pa.field("step", pa.int32(), nullable=False),
            pa.field("seat", pa.int16(), nullable=False),
            pa.field(
                "observation",
                pa.list_(pa.float32(), game.observation_tensor_shape()[0]),
                nullable=False,
            ),
            pa.field("legal_mask", pa.list_(pa.bool_(), game.num_distinct_actions), False),
            pa.field("policy_actions", pa.list_(pa.int32()), nullable=False),
            pa.field("policy", pa.list_(pa.float32()), nullable=False),
            pa.field("action", pa.int32(), nullable=False),
            pa.field("final_return", pa.float32(), nullable=False),
        ]
    )


def options_json(game: Game[Any, Any, Any]) -> str:
    """The game's options as compact JSON: ``tikigames.load(name, **json.loads(text))``."""
    return json.dumps(game.options, separators=(",", ":"))


def _table(game: Game[Any, Any, Any], decisions: Sequence[Decision], metadata: Any) -> Any:
    pa, _ = _arrow()
    rows = len(decisions)
    columns = {
        "game": [game.name] * rows,
        "options": [options_json(game)] * rows,
        "seed": [d.seed for d in decisions],
        "game_index": [d.index for d in decisions],
        "step": [d.step for d in decisions],
        "seat": [d.seat for d in decisions],
        "observation": [d.observation for d in decisions],
        "legal_mask": [[bool(bit) for bit in d.mask] for d in decisions],
        "policy_actions": [[int(action) for action in d.policy] for d in decisions],
        "policy": [list(d.policy.values()) for d in decisions],
        "action": [int(d.action) for d in decisions],
        "final_return": [d.final_return for d in decisions],
    }
    table_schema = schema(game).with_metadata({METADATA_KEY: json.dumps(metadata)})
    return pa.Table.from_pydict(columns, schema=table_schema)


def shard_name(first: int, last: int) -> str:
    """The file of the shard holding games ``first`` to ``last`` (both included).

    >>> from tikigames.selfplay import shard_name
    >>> shard_name(10, 19)
    'games-000010-000019.parquet'
    """
    return f"games-{first:06d}-{last:06d}.parquet"


def _shards(games: int, shard_games: int) -> list[range]:
    return [range(first, min(first + shard_games, games)) for first in range(0, games, shard_games)]


def _write_atomically(path: Path, write: Callable[[Any], None]) -> None:
    """Write ``path`` whole or not at all: into a temporary file of the same directory, flushed
    to disk, then renamed over ``path`` (a rename within a directory is atomic)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(partial, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    finally:
        if partial.exists():
            partial.unlink()


def _write_shard(path: Path, table: Any) -> None:
    _, pq = _arrow()
    _write_atomically(path, lambda file: pq.write_table(table, file, compression="zstd"))


# ----------------------------------------------------------------- running games


@dataclass(frozen=True)
class SelfPlayRun:
    """What :func:`selfplay` did.

    Attributes:
        out: the directory.
        seed: the run's seed (drawn at random when none was given).
        games: the run's number of games.
        played: the games played by this call (the others were found in shards on resume).
        decisions: the records this call wrote.
        shards: every shard of the run, in game order.
        elapsed: wall time in seconds.
    """

    out: Path
    seed: int
    games: int
    played: int
    decisions: int
    shards: tuple[Path, ...]
    elapsed: float


# What each worker process plays with, set once by _setup (and in-process when workers == 1).
_WORKER: dict[str, Any] = {}


def _setup(game: Game[Any, Any, Any], bot: PolicyBot, seed: int) -> None:
    _WORKER.update(game=game, bot=bot, seed=seed)


def _play_indexed(index: int) -> tuple[int, list[Decision]]:
    seed = game_seed(_WORKER["seed"], index)
    return index, play_game(_WORKER["game"], _WORKER["bot"], seed, index)


def _ray_game(
    game: Game[Any, Any, Any], bot: PolicyBot, seed: int, index: int
) -> tuple[int, list[Decision]]:
    return index, play_game(game, bot, game_seed(seed, index), index)


def _run_processes(
    game: Game[Any, Any, Any], bot: PolicyBot, seed: int, indices: list[int], workers: int
) -> Iterator[tuple[int, list[Decision]]]:
    if workers == 1:
        _setup(game, bot, seed)
        try:
            for index in indices:
                yield _play_indexed(index)
        finally:
            _WORKER.clear()
        return
    context = multiprocessing.get_context()
    with context.Pool(workers, _setup, (game, bot, seed)) as pool:
        yield from pool.imap_unordered(_play_indexed, indices)


def _run_ray(
    game: Game[Any, Any, Any],
    bot: PolicyBot,
    seed: int,
    indices: list[int],
    workers: int,
    address: str | None,
) -> Iterator[tuple[int, list[Decision]]]:
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]  # optional: tikigames[ray]
    except ImportError:
        raise ImportError("backend='ray' needs Ray: pip install 'tikigames[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address is None:  # a local cluster of this machine's `workers` CPUs
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        task = ray.remote(_ray_game)
        # The game and the bot go to the object store once, not once per game.
        game_ref, bot_ref = ray.put(game), ray.put(bot)
        pending = [task.remote(game_ref, bot_ref, seed, index) for index in indices]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def _manifest(
    game: Game[Any, Any, Any], bot: PolicyBot, seed: int | None, shard_games: int
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": game.name,
        "options": game.options,
        "bot": repr(bot),
        "seed": seed,
        "shard_games": shard_games,
    }


def _check_directory(
    out: Path, manifest: dict[str, Any], expected: set[str], resume: bool
) -> dict[str, Any]:
    """The run's settings, after checking that ``out`` may receive them: empty (or without a
    manifest and shards) for a new run; for a resumed one, the same settings (the seed may be
    left out: it is read back) and no shard that this run would not write."""
    path = out / MANIFEST
    present = sorted(p.name for p in out.glob("games-*.parquet"))
    if not path.exists():
        if present:
            raise FileExistsError(f"{out} holds shards but no {MANIFEST}: not a self-play run")
        return manifest
    if not resume:
        raise FileExistsError(
            f"{out} already holds a self-play run: resume it (resume=True, --resume) "
            "or choose another directory"
        )
    found: dict[str, Any] = json.loads(path.read_text())
    if manifest["seed"] is None:
        manifest = {**manifest, "seed": found.get("seed")}
    for key, value in manifest.items():
        if found.get(key) != value:
            raise ValueError(
                f"cannot resume {out}: its {key} is {found.get(key)!r}, not {value!r}"[:300]
            )
    strays = [name for name in present if name not in expected]
    if strays:
        raise ValueError(
            f"cannot resume {out}: {strays[0]} is not a shard of this run "
            f"({len(strays)} such file(s); was it run with another number of games?)"
        )
    for stale in out.glob(".games-*.tmp"):  # a shard being written when a run was killed
        stale.unlink()
    return found


def selfplay(
    game: Game[Any, Any, Any],
    bot: PolicyBot,
    games: int,
    seed: int | None = None,
    out: str | os.PathLike[str] = "selfplay",
    *,
    workers: int = 1,
    backend: Backend = "processes",
    address: str | None = None,
    resume: bool = False,
    shard_games: int = 10,
    progress: Callable[[int, int], None] | None = None,
) -> SelfPlayRun:
    """Play ``games`` games of ``bot`` against itself and write every decision to Parquet
    shards in the directory ``out`` (see the module's docstring and the docs' schema).

    Args:
        game: the game with its options.
        bot: a bot with ``act_and_policy`` (``MCTSBot``, ``ISMCTSBot``), in every seat; it
            must pickle when ``workers > 1`` or with Ray, and should keep no state between
            games.
        games: how many games.
        seed: the run's seed; game ``i`` is seeded with ``game_seed(seed, i)``. ``None``
            draws one (or, on resume, takes the recorded one).
        out: the directory (created if missing).
        workers: worker processes; with Ray, the CPUs of the local cluster it starts.
        backend: ``"processes"`` (local ones) or ``"ray"``: every game a Ray task, on the
            cluster at ``address`` (``"auto"``, ``"HOST:PORT"``) or on a local one started
            for the run; the records are the same.
        address: the Ray cluster to join (Ray only).
        resume: keep the shards already in ``out`` and play only the missing ones' games.
        shard_games: games per shard: what a crash can lose at most, per worker.
        progress: called as ``progress(done, to_play)`` after each finished game.

    Raises:
        TypeError: ``bot`` has no ``act_and_policy``.
        ValueError: a count below 1, an unknown backend, or a run to resume that does not
            match these settings.
        FileExistsError: ``out`` holds a run already and ``resume`` is false.
        ImportError: pyarrow (or Ray, for that backend) is not installed.
    """
    if not isinstance(bot, PolicyBot):
        raise TypeError(f"self-play needs a bot with act_and_policy (a search bot), not {bot!r}")
    for name, count in (("games", games), ("workers", workers), ("shard_games", shard_games)):
        if type(count) is not int or count < 1:
            raise ValueError(f"{name} must be an int ≥ 1, not {count!r}")
    if backend not in ("processes", "ray"):
        raise ValueError(f"backend must be 'processes' or 'ray', not {backend!r}")
    _arrow()  # before any game is played
    start = time.perf_counter()
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    shards = _shards(games, shard_games)
    paths = [directory / shard_name(r[0], r[-1]) for r in shards]
    wanted = _manifest(game, bot, seed, shard_games)
    manifest = _check_directory(directory, wanted, {p.name for p in paths}, resume)
    if manifest["seed"] is None:
        manifest["seed"] = random.SystemRandom().randrange(2**63)
    run_seed: int = manifest["seed"]
    text = json.dumps(manifest, indent=2) + "\n"
    _write_atomically(directory / MANIFEST, lambda file: file.write(text.encode()))

    missing = [k for k, path in enumerate(paths) if not path.exists()]
    indices = [index for k in missing for index in shards[k]]
    waiting: dict[int, dict[int, list[Decision]]] = {k: {} for k in missing}
    shard_of = {index: k for k in missing for index in shards[k]}
    written = done = 0
    if backend == "ray":
        finished = _run_ray(game, bot, run_seed, indices, min(workers, len(indices) or 1), address)
    else:
        finished = _run_processes(game, bot, run_seed, indices, min(workers, len(indices) or 1))
    for index, decisions in finished:
        k = shard_of[index]
        waiting[k][index] = decisions
        done += 1
        if len(waiting[k]) == len(shards[k]):
            ready = waiting.pop(k)
            rows = [d for i in shards[k] for d in ready[i]]
            first, last = shards[k][0], shards[k][-1]
            metadata = {**manifest, "games": [first, last], "version": tikigames.__version__}
            _write_shard(paths[k], _table(game, rows, metadata))
            written += len(rows)
        if progress is not None:
            progress(done, len(indices))
    return SelfPlayRun(
        out=directory,
        seed=run_seed,
        games=games,
        played=done,
        decisions=written,
        shards=tuple(paths),
        elapsed=time.perf_counter() - start,
    )


# ----------------------------------------------------------------- reading it back


def read(out: str | os.PathLike[str]) -> Any:
    """Every shard of the run in ``out`` as one ``pyarrow.Table``, in game order (the records
    of a game in the order they were taken). Shards still missing are simply absent.

    Raises:
        FileNotFoundError: ``out`` holds no self-play run.
    """
    pa, pq = _arrow()

    directory = Path(out)
    if not (directory / MANIFEST).exists():
        raise FileNotFoundError(f"{directory} holds no self-play run ({MANIFEST} is missing)")
    paths = sorted(directory.glob("games-*.parquet"))
    if not paths:
        manifest = json.loads((directory / MANIFEST).read_text())
        game = tikigames.load(manifest["game"], **manifest["options"])
        return schema(game).empty_table()
    return pa.concat_tables([pq.read_table(path) for path in paths])


def arrays(table: Any) -> dict[str, Any]:
    """A table of records (:func:`read`) as numpy arrays, one per column, for training: the
    ``observation`` ``(rows, size)`` float32, ``legal_mask`` ``(rows, num_distinct_actions)``
    bool, ``policy`` made dense — ``(rows, num_distinct_actions)`` float32, 0 off the legal
    actions — and every other column ``(rows,)``.

    >>> import tempfile, tikigames
    >>> from tikigames.bots import ISMCTSBot
    >>> from tikigames.selfplay import arrays, read, selfplay
    >>> game = tikigames.load("tiki_topple", rounds=1)
    >>> with tempfile.TemporaryDirectory() as out:
    ...     run = selfplay(game, ISMCTSBot(iterations=5), games=2, seed=1, out=out)
    ...     data = arrays(read(out))
    >>> data["observation"].shape == (run.decisions, *game.observation_tensor_shape())
    True
    >>> bool((data["policy"][~data["legal_mask"]] == 0).all())
    True
    """
    import numpy as np  # optional: tikigames[data]

    rows = table.num_rows
    result: dict[str, Any] = {}
    for name in table.column_names:
        column = table.column(name).combine_chunks()
        if name in ("observation", "legal_mask"):
            width = column.type.list_size
            values = column.flatten().to_numpy(zero_copy_only=False)
            result[name] = values.reshape(rows, width)
        elif name not in ("policy_actions", "policy"):
            result[name] = column.to_numpy(zero_copy_only=False)
    width = table.schema.field("legal_mask").type.list_size
    dense = np.zeros((rows, width), dtype=np.float32)
    ids = table.column("policy_actions").combine_chunks()
    shares = table.column("policy").combine_chunks()
    row_of = np.repeat(np.arange(rows), np.diff(ids.offsets.to_numpy()))
    dense[row_of, ids.flatten().to_numpy()] = shares.flatten().to_numpy()
    result["policy"] = dense
    return result

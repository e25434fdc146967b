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
the shards that are missing — or that fail their check: each shard found is read whole, and its
metadata (game, options, bot, seed, game range) and rows (every game of its range, each row
seeded as its game) must be this run's. ``selfplay.json`` in the directory records the run's
settings, so that a resumed run cannot mix records of another game, bot or seed, and
:func:`read` refuses a directory whose shards are not all of its run. One run at a time
writes a directory (it is locked while a run writes it).

The games are played by :mod:`tikigames.runner`, as the arena's: in local processes or on Ray,
a worker that dies costs a second try of its game, and a game that fails stops the run
(:class:`SelfPlayError`) with the shards written so far in place. pyarrow (``pip install
'tikigames[data]'``) and Ray (``tikigames[ray]``) are imported only when used. A tool, in the
top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import tikigames
from tikigames.arena import game_seed
from tikigames.core.action import Action
from tikigames.core.errors import TikiGamesError, shown
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.play import decisions, next_turn
from tikigames.core.state import State
from tikigames.records import (
    RecordsError,
    RecordsExistError,
    locked_directory,
    printable,
)
from tikigames.runner import Backend, Done, Runner, RunSettings

__all__ = [
    "FORMAT",
    "MANIFEST",
    "Decision",
    "PolicyBot",
    "SelfPlayError",
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
#: A shard's file name: its first and last games.
_SHARD_NAME = re.compile(r"games-(\d{6,})-(\d{6,})\.parquet")


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
    (forced moves included, with all the weight on the one action). It runs on the decision loop
    (:func:`~tikigames.core.play.decisions`) with one ``random.Random(seed)``, as
    ``tikigames.play`` does, so the game is the one ``tikigames.play(game, [bot] *
    game.num_players, seed=seed)`` plays.

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
    loop = decisions(state, rng)
    turn = next_turn(loop)
    while turn is not None:
        obs = turn.observation()
        action, policy = bot.act_and_policy(obs, rng)
        seen.append(
            (state.move_number(), turn.player, obs.tensor(), obs.legal_actions_mask(), policy,
             action)
        )  # fmt: skip
        turn = next_turn(loop, action)
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
    """Write ``path`` whole or not at all: into a temporary file of the same directory (created
    afresh, never through a link), flushed to disk, then renamed over ``path`` (a rename within a
    directory is atomic, and replaces a link rather than following it)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()  # left by a killed run whose pid this one reuses
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        with os.fdopen(os.open(partial, flags, 0o644), "wb") as file:
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
        rejected: on resume, each shard found that failed its check (and was played again),
            with why: ``"games-000000-000009.parquet: its seed is 5, not 4"``. The file is
            kept aside as ``….parquet.rejected``.
    """

    out: Path
    seed: int
    games: int
    played: int
    decisions: int
    shards: tuple[Path, ...]
    elapsed: float
    rejected: tuple[str, ...] = ()


class SelfPlayError(TikiGamesError, RuntimeError):
    """A game of a self-play run failed: its bot raised, or its worker died twice. The shards
    written before stay; ``resume=True`` plays the rest (the failed game again, too).

    Its attributes: ``index`` and ``seed``, the game's number and seed
    (``tikigames.play(game, [bot] * n, seed=seed)`` replays it); ``error``, the exception's
    type and message (or the runner's ``WORKER_DIED``); ``details``, its traceback, or what
    the backend said.
    """

    def __init__(self, index: int, seed: int, error: str, details: str) -> None:
        super().__init__(
            f"game {index} (seed {seed}) failed: {printable(error)}; the shards written stay, "
            "and resuming plays the rest"
        )
        self.index, self.seed, self.error, self.details = index, seed, error, details

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.index, self.seed, self.error, self.details))


@dataclass(frozen=True)
class _SelfPlayer:
    """The runner's job: the game, the bot and the run's seed, sent to each worker once;
    called with a game's index, it plays that game."""

    game: Game[Any, Any, Any]
    bot: PolicyBot
    seed: int

    def __call__(self, index: int) -> list[Decision]:
        return play_game(self.game, self.bot, game_seed(self.seed, index), index)


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


def _read_manifest(out: Path) -> dict[str, Any]:
    """The run's settings as ``selfplay.json`` records them (checked to be a manifest)."""
    path = out / MANIFEST
    try:
        found = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as error:
        raise RecordsError(f"{path} is not a self-play manifest (not JSON: {error})") from None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise RecordsError(f"{path} is not a {FORMAT} manifest")
    if type(found.get("seed")) is not int or not isinstance(found.get("options"), dict):
        raise RecordsError(f"{path}: its seed or options are malformed")
    return found


def _shard_fault(
    table: Any, manifest: dict[str, Any], games: range, game: Game[Any, Any, Any]
) -> str | None:
    """Why ``table`` (a shard read whole) is not the shard of ``games`` of the run ``manifest``
    describes, or ``None`` if it is: its metadata, its columns, and its rows — every game of
    the range there, in order, each row seeded as its game."""
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    try:
        meta = json.loads(raw) if raw is not None else None
    except ValueError:
        meta = None
    if not isinstance(meta, dict):
        return "it has no self-play metadata"
    for key, value in {**manifest, "games": [games[0], games[-1]]}.items():
        if meta.get(key) != value:
            return f"its {key} is {printable(shown(meta.get(key)))}, not {shown(value)}"
    if table.schema.remove_metadata() != schema(game):
        return "its columns are not the schema's"
    indices = table.column("game_index").to_pylist()
    if sorted(set(indices)) != list(games) or indices != sorted(indices):
        return f"its rows are not those of games {games[0]} to {games[-1]}"
    seed = manifest["seed"]
    seeds = table.column("seed").to_pylist()
    if any(s != game_seed(seed, i) for i, s in zip(indices, seeds, strict=True)):
        return f"its rows are not seeded from the run's seed {seed}"
    if set(table.column("game").to_pylist()) != {game.name} or set(
        table.column("options").to_pylist()
    ) != {options_json(game)}:
        return "its rows are of another game or options"
    return None


def _load_shard(
    path: Path, manifest: dict[str, Any], games: range, game: Game[Any, Any, Any]
) -> tuple[Any, str | None]:
    """The shard at ``path`` read whole, and why it is not the run's (``None``: it is)."""
    _, pq = _arrow()
    try:
        table = pq.read_table(path)
    except Exception as error:  # ArrowInvalid, OSError…: a truncated or emptied file
        return None, f"it is not readable Parquet ({type(error).__name__})"
    return table, _shard_fault(table, manifest, games, game)


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
            raise RecordsError(f"{out} holds shards but no {MANIFEST}: not a self-play run")
        return manifest
    if not resume:
        raise RecordsExistError(
            f"{out} already holds a self-play run: resume it (resume=True, --resume) "
            "or choose another directory"
        )
    found = _read_manifest(out)
    if manifest["seed"] is None:
        manifest = {**manifest, "seed": found.get("seed")}
    for key, value in manifest.items():
        if found.get(key) != value:
            raise RecordsError(
                f"cannot resume {out}: its {key} is {shown(found.get(key))}, not {shown(value)}"
            )
    strays = [name for name in present if name not in expected]
    if strays:
        raise RecordsError(
            f"cannot resume {out}: {printable(strays[0])} is not a shard of this run "
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
        workers: worker processes; with Ray, the actors (and the CPUs of the local cluster
            it starts).
        backend: ``"processes"`` (local ones) or ``"ray"``: the games played by Ray actors,
            on the cluster at ``address`` (``"auto"``, ``"HOST:PORT"``) or on a local one
            started for the run; the records are the same.
        address: the Ray cluster to join (Ray only).
        resume: keep the shards already in ``out`` that pass their check, and play only the
            games of the others (a shard that fails is renamed ``….parquet.rejected`` and
            listed in :attr:`SelfPlayRun.rejected`).
        shard_games: games per shard: what a crash can lose at most, per worker.
        progress: called as ``progress(done, to_play)`` after each finished game.

    Raises:
        TypeError: ``bot`` has no ``act_and_policy``.
        ValueError: a count below 1 or an unknown backend.
        RecordsError: ``out`` holds a run that does not match these settings (a
            ``ValueError``).
        RecordsExistError: ``out`` holds a run already and ``resume`` is false (a
            ``FileExistsError``).
        RecordsInUseError: another run is writing ``out``.
        SelfPlayError: a game failed (the shards written so far stay).
        ImportError: pyarrow (or Ray, for that backend) is not installed.
    """
    if not isinstance(bot, PolicyBot):
        raise TypeError(f"self-play needs a bot with act_and_policy (a search bot), not {bot!r}")
    for name, count in (("games", games), ("workers", workers), ("shard_games", shard_games)):
        if type(count) is not int or count < 1:
            raise ValueError(f"{name} must be an int ≥ 1, not {count!r}")
    settings = RunSettings(workers, backend, address)
    _arrow()  # before any game is played
    start = time.perf_counter()
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    with locked_directory(directory):  # one run at a time writes a directory
        shards = _shards(games, shard_games)
        paths = [directory / shard_name(r[0], r[-1]) for r in shards]
        wanted = _manifest(game, bot, seed, shard_games)
        manifest = _check_directory(directory, wanted, {p.name for p in paths}, resume)
        if manifest["seed"] is None:
            manifest["seed"] = random.SystemRandom().randrange(2**63)
        run_seed: int = manifest["seed"]
        text = json.dumps(manifest, indent=2) + "\n"
        _write_atomically(directory / MANIFEST, lambda file: file.write(text.encode()))

        missing: list[int] = []
        rejected: list[str] = []
        for k, path in enumerate(paths):
            if not path.exists():
                missing.append(k)
                continue
            _, fault = _load_shard(path, manifest, shards[k], game)
            if fault is not None:  # played again; the file is kept aside, not destroyed
                os.replace(path, path.with_name(path.name + ".rejected"))
                rejected.append(f"{path.name}: {fault}")
                missing.append(k)
        total = sum(len(shards[k]) for k in missing)
        waiting: dict[int, dict[int, list[Decision]]] = {}
        written = done = 0
        job = _SelfPlayer(game, bot, run_seed)
        todo = (index for k in missing for index in shards[k])
        with Runner(job, settings, limit=total) as runner:
            for outcome in runner.run(todo):
                if not isinstance(outcome, Done):
                    index = outcome.task
                    seed_i = game_seed(run_seed, index)
                    raise SelfPlayError(index, seed_i, outcome.error, outcome.details)
                index = outcome.task
                k = index // shard_games  # the shards hold shard_games games each, from game 0
                waiting.setdefault(k, {})[index] = outcome.result
                done += 1
                if len(waiting[k]) == len(shards[k]):
                    ready = waiting.pop(k)
                    rows = [d for i in shards[k] for d in ready[i]]
                    first, last = shards[k][0], shards[k][-1]
                    metadata = {
                        **manifest,
                        "games": [first, last],
                        "version": tikigames.__version__,
                    }
                    _write_shard(paths[k], _table(game, rows, metadata))
                    written += len(rows)
                if progress is not None:
                    progress(done, total)
        return SelfPlayRun(
            out=directory,
            seed=run_seed,
            games=games,
            played=done,
            decisions=written,
            shards=tuple(paths),
            elapsed=time.perf_counter() - start,
            rejected=tuple(rejected),
        )


# ----------------------------------------------------------------- reading it back


def read(out: str | os.PathLike[str]) -> Any:
    """Every shard of the run in ``out`` as one ``pyarrow.Table``, in game order (the records
    of a game in the order they were taken). Shards still missing are simply absent; each shard
    there is checked as a resumed run checks it (its metadata, columns and rows must be the
    run's), so that a directory never mixes runs.

    Raises:
        FileNotFoundError: ``out`` holds no self-play run.
        RecordsError: a shard is not of the run (another seed, game or bot, truncated,
            emptied…), or the manifest is malformed.
    """
    pa, _ = _arrow()
    directory = Path(out)
    if not (directory / MANIFEST).exists():
        raise FileNotFoundError(f"{directory} holds no self-play run ({MANIFEST} is missing)")
    manifest = _read_manifest(directory)
    game = tikigames.load(manifest["game"], **manifest["options"])
    tables = []
    for path in sorted(directory.glob("games-*.parquet")):
        match = _SHARD_NAME.fullmatch(path.name)
        if match is None or int(match[2]) < int(match[1]):
            raise RecordsError(f"{path} is not a shard of the run in {directory} (its name)")
        games = range(int(match[1]), int(match[2]) + 1)
        table, fault = _load_shard(path, manifest, games, game)
        if fault is not None:
            raise RecordsError(
                f"{path} is not a shard of the run in {directory}: {fault} "
                "(a directory holds one run: resuming it plays such a shard again)"
            )
        tables.append(table)
    if not tables:
        return schema(game).empty_table()
    return pa.concat_tables(tables)


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

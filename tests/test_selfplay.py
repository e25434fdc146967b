"""Self-play data: the records, their schema, whole shards only, resuming, and the same records
from every backend (docs: Self-play data)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.arena import game_seed
from tikigames.bots import ISMCTSBot, MCTSBot, RandomBot
from tikigames.cli import main
from tikigames.records import RecordsError, RecordsInUseError, locked_directory
from tikigames.selfplay import (
    FORMAT,
    MANIFEST,
    SelfPlayError,
    arrays,
    play_game,
    read,
    schema,
    selfplay,
    shard_name,
)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
np = pytest.importorskip("numpy")

GAME = tikigames.load("tiki_topple", rounds=1)
BOT = ISMCTSBot(iterations=6)
SEED = 4
GAMES, SHARD = 6, 2  # three shards of two games


def run(out: Path, **kwargs: Any) -> Any:
    settings: dict[str, Any] = {"games": GAMES, "seed": SEED, "shard_games": SHARD}
    settings.update(kwargs)
    return selfplay(GAME, BOT, out=out, **settings)


def tables_equal(a: Any, b: Any) -> bool:
    return bool(a.equals(b, check_metadata=True))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run, in one process."""
    out = tmp_path_factory.mktemp("reference")
    result = run(out)
    assert result.played == GAMES and result.seed == SEED
    return out


# ----------------------------------------------------------------- the records


def test_a_game_is_the_one_play_plays() -> None:
    decisions = play_game(GAME, BOT, seed=11, index=3)
    final = tikigames.play(GAME, [BOT] * GAME.num_players, seed=11)
    history = final.history()
    assert [d.step for d in decisions] == [
        step for step in range(len(history)) if _mover(final, step) >= 0
    ]
    assert all(history[d.step] == d.action for d in decisions)
    assert {(d.index, d.seed) for d in decisions} == {(3, 11)}
    for d in decisions:
        assert d.final_return == final.returns()[d.seat]
        assert list(d.policy) == [a for a, bit in enumerate(d.mask) if bit]


def _mover(final: tikigames.State[Any], step: int) -> int:
    state = final.clone()
    while len(state.history()) > step:
        state.undo_action()
    return state.current_player()


def test_the_shards_follow_the_documented_schema(reference: Path) -> None:
    paths = sorted(reference.glob("*.parquet"))
    assert [p.name for p in paths] == [shard_name(0, 1), shard_name(2, 3), shard_name(4, 5)]
    manifest = json.loads((reference / MANIFEST).read_text())
    assert manifest == {
        "format": FORMAT,
        "game": "tiki_topple",
        "options": GAME.options,
        "bot": repr(BOT),
        "seed": SEED,
        "shard_games": SHARD,
    }
    for first, path in zip((0, 2, 4), paths, strict=True):
        table = pq.read_table(path)
        assert table.schema.remove_metadata() == schema(GAME)
        meta = json.loads(table.schema.metadata[b"tikigames"])
        assert meta == {**manifest, "games": [first, first + 1], "version": tikigames.__version__}
        assert sorted(set(table.column("game_index").to_pylist())) == [first, first + 1]

    table = read(reference)
    size, ids = GAME.observation_tensor_shape()[0], GAME.num_distinct_actions
    assert table.schema.field("observation").type == pa.list_(pa.float32(), size)
    assert table.schema.field("legal_mask").type == pa.list_(pa.bool_(), ids)
    rows = table.to_pylist()
    assert {row["game"] for row in rows} == {"tiki_topple"}
    assert {row["options"] for row in rows} == {json.dumps(GAME.options, separators=(",", ":"))}
    # Every record against a replay of its game.
    for index in range(GAMES):
        mine = [row for row in rows if row["game_index"] == index]
        seed = game_seed(SEED, index)
        assert {row["seed"] for row in mine} == {seed}
        final = tikigames.play(GAME, [BOT] * GAME.num_players, seed=seed)
        assert [row["step"] for row in mine] == sorted(row["step"] for row in mine)
        for row in mine:
            state = final.clone()
            while len(state.history()) > row["step"]:
                state.undo_action()
            obs = state.observation(row["seat"])
            assert state.current_player() == row["seat"]
            assert row["observation"] == pytest.approx(obs.tensor())
            assert row["legal_mask"] == [bool(bit) for bit in obs.legal_actions_mask()]
            assert row["policy_actions"] == [int(a) for a in obs.legal_actions()]
            assert sum(row["policy"]) == pytest.approx(1.0, abs=1e-5)
            assert all(p >= 0 for p in row["policy"])
            assert row["action"] == final.history()[row["step"]]
            assert row["final_return"] == final.returns()[row["seat"]]


def test_seeded_records_are_pinned(tmp_path: Path) -> None:
    """The digest of a run's records computed before self-play moved onto the runner (the bot
    set to play as it did then, before game knowledge: see tests/bots/test_baseline.py)."""
    before = ISMCTSBot(iterations=6, rollout="uniform", evaluation="returns", max_rollout=200)
    selfplay(GAME, before, 4, 7, tmp_path, shard_games=2)
    table = read(tmp_path)
    columns = {name: table.column(name).to_pylist() for name in table.column_names}
    text = json.dumps(columns, sort_keys=True).encode()
    assert (table.num_rows, hashlib.sha256(text).hexdigest()[:16]) == (56, "b3f9bb767c0d858f")


def test_arrays_are_ready_for_training(reference: Path) -> None:
    data = arrays(read(reference))
    rows = len(data["action"])
    assert data["observation"].shape == (rows, *GAME.observation_tensor_shape())
    assert data["observation"].dtype == np.float32
    assert data["legal_mask"].shape == data["policy"].shape == (rows, GAME.num_distinct_actions)
    assert np.allclose(data["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert (data["policy"][~data["legal_mask"]] == 0).all()
    assert data["legal_mask"][np.arange(rows), data["action"]].all()
    assert set(np.unique(data["final_return"])) <= {-1.0, 0.0, 1.0}


def test_the_backend_and_the_workers_do_not_change_the_records(
    reference: Path, tmp_path: Path
) -> None:
    run(tmp_path, workers=2)
    assert tables_equal(read(tmp_path), read(reference))


def test_ray_gives_the_records_of_the_processes(reference: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    result = run(tmp_path, backend="ray", workers=2)  # a local Ray of 2 CPUs, shut down after
    assert result.played == GAMES
    assert tables_equal(read(tmp_path), read(reference))


# ----------------------------------------------------------------- whole shards, resuming


def test_resuming_plays_only_the_missing_shards_games(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    (out / shard_name(2, 3)).unlink()
    calls: list[tuple[int, int]] = []
    result = run(
        out, seed=None, resume=True, progress=lambda done, total: calls.append((done, total))
    )
    assert result.seed == SEED  # read back from the manifest
    assert (result.played, calls) == (2, [(1, 2), (2, 2)])
    assert tables_equal(read(out), read(reference))
    again = run(out, resume=True)  # nothing left to play
    assert (again.played, again.decisions) == (0, 0)
    assert tables_equal(read(out), read(reference))


def test_a_shard_is_written_whole_or_not_at_all(
    reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[int] = []
    real = pq.write_table

    def crash_in_the_second(table: Any, where: Any, **kwargs: Any) -> None:
        written.append(1)
        if len(written) == 2:
            where.write(b"PAR1 half a shard")
            raise OSError("disk gone")
        real(table, where, **kwargs)

    monkeypatch.setattr(pq, "write_table", crash_in_the_second)
    with pytest.raises(OSError, match="disk gone"):
        run(tmp_path)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([MANIFEST, shard_name(0, 1)])
    pq.read_table(tmp_path / shard_name(0, 1))  # whole
    # A temporary file left by a killed writer is cleared on resume.
    stale = tmp_path / f".{shard_name(2, 3)}.999.tmp"
    stale.write_bytes(b"PAR1 half")
    result = run(tmp_path, resume=True)
    assert result.played == 4 and not stale.exists()
    assert tables_equal(read(tmp_path), read(reference))


def test_a_killed_run_resumes_to_the_uninterrupted_records(tmp_path: Path) -> None:
    games = 60
    script = (
        "import sys, tikigames\n"
        "from tikigames.bots import ISMCTSBot\n"
        "from tikigames.selfplay import selfplay\n"
        "selfplay(tikigames.load('tiki_topple', rounds=1), ISMCTSBot(iterations=6),"
        f" games={games}, seed=9, out=sys.argv[1], shard_games=1, resume=True)\n"
    )
    killed = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen([sys.executable, "-c", script, str(killed)], env=env)
    deadline = time.monotonic() + 30
    while len(list(killed.glob("*.parquet"))) < 3 and child.poll() is None:
        assert time.monotonic() < deadline, "no shard appeared"
        time.sleep(0.02)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    shards = sorted(killed.glob("*.parquet"))
    assert 3 <= len(shards) < games, "the run was not interrupted"
    for path in shards:
        pq.read_table(path)  # every shard in place is whole
    resumed = selfplay(GAME, BOT, games=games, seed=9, out=killed, shard_games=1, resume=True)
    assert resumed.played == games - len(shards)
    whole = selfplay(GAME, BOT, games=games, seed=9, out=tmp_path / "whole", shard_games=1)
    assert tables_equal(read(killed), read(whole.out))


def test_a_run_is_not_overwritten_nor_resumed_with_other_settings(
    reference: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    with pytest.raises(FileExistsError, match="resume"):
        run(out)
    with pytest.raises(ValueError, match="seed"):
        run(out, seed=SEED + 1, resume=True)
    with pytest.raises(ValueError, match="bot"):
        selfplay(GAME, ISMCTSBot(iterations=7), GAMES, SEED, out, shard_games=SHARD, resume=True)
    with pytest.raises(ValueError, match="shard_games"):
        run(out, shard_games=3, resume=True)
    with pytest.raises(ValueError, match="not a shard of this run"):
        run(out, games=5, resume=True)  # games 4 and 5 are one shard already
    grown = run(out, games=8, resume=True)  # more games: new shards after the old
    assert grown.played == 2 and len(grown.shards) == 4


def test_a_bad_shard_is_played_again_on_resume(reference: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    run(other, seed=SEED + 1)  # a run of another seed, to copy a shard from
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    truncated, emptied, foreign = (out / shard_name(first, first + 1) for first in (0, 2, 4))
    truncated.write_bytes(truncated.read_bytes()[:-100])
    emptied.write_bytes(b"")
    shutil.copyfile(other / shard_name(4, 5), foreign)
    with pytest.raises(RecordsError, match="not a shard of the run"):
        read(out)  # refused, not ArrowInvalid nor rows of two seeds
    result = run(out, resume=True)
    assert result.played == GAMES and len(result.rejected) == 3
    assert "not readable Parquet" in result.rejected[0] and "seed" in result.rejected[2]
    assert tables_equal(read(out), read(reference))
    assert sorted(p.name for p in out.glob("*.rejected")) == [
        shard_name(first, first + 1) + ".rejected" for first in (0, 2, 4)
    ]  # kept aside, not destroyed


def test_a_shard_with_rows_of_another_seed_is_refused(reference: Path, tmp_path: Path) -> None:
    """Metadata that says the run's, rows that are not: the rows are checked too."""
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    path = out / shard_name(2, 3)
    table = pq.read_table(path)
    seeds = pa.array([seed + 1 for seed in table.column("seed").to_pylist()], pa.uint64())
    pq.write_table(
        table.set_column(table.schema.get_field_index("seed"), table.schema.field("seed"), seeds),
        path,
    )
    with pytest.raises(RecordsError, match="seeded"):
        read(out)
    assert run(out, resume=True).played == 2
    assert tables_equal(read(out), read(reference))


def test_one_run_at_a_time_writes_a_directory(tmp_path: Path) -> None:
    with locked_directory(tmp_path), pytest.raises(RecordsInUseError, match="in use"):
        run(tmp_path)


def test_a_failed_game_stops_the_run_with_its_seed(tmp_path: Path) -> None:
    class Failing(ISMCTSBot):
        def act_and_policy(self, obs: Any, rng: Any) -> Any:
            raise RuntimeError("no\x1b[2J policy")

    with pytest.raises(SelfPlayError, match=r"game 0 \(seed \d+\) failed: RuntimeError") as caught:
        selfplay(GAME, Failing(iterations=2), 2, 1, tmp_path)
    assert caught.value.seed == game_seed(1, 0) and "\x1b" not in str(caught.value)


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="act_and_policy"):
        selfplay(GAME, RandomBot(), 2, 1, tmp_path)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games"):
        selfplay(GAME, BOT, 0, 1, tmp_path)
    with pytest.raises(ValueError, match="backend"):
        selfplay(GAME, BOT, 2, 1, tmp_path, backend="dask")  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        read(tmp_path)


# ----------------------------------------------------------------- the command line


def test_the_command_line_writes_and_resumes(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "cli"
    args = ["selfplay", "paiko", "--bot", "mcts", "-b", "iterations=4", "--games", "1"]
    args += ["--out", str(out), "--seed", "2", "-o", "max_turns=6", "-q"]
    assert main(args) == 0
    assert "1 played now" in capsys.readouterr().out
    data = arrays(read(out))
    assert set(data["game"]) == {"paiko"} and len(data["action"]) > 0
    assert main(args) == 2  # the run is there: --resume or another directory
    assert "already holds" in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0
    assert "0 played now (1 found in shards)" in capsys.readouterr().out
    expected = selfplay(tikigames.load("paiko", max_turns=6), MCTSBot(iterations=4), 1, 2,
                        tmp_path / "api")  # fmt: skip
    assert tables_equal(read(out), read(expected.out))

"""The runner under the arena and self-play: lazy tasks, one rule for faults, and workers that
die with their parent (a real SIGKILL of each)."""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.arena import round_robin
from tikigames.bots import RandomBot
from tikigames.core.action import Action
from tikigames.core.observation import Observation
from tikigames.runner import WORKER_DIED, Done, Failed, Runner, RunSettings

PACKAGE_ROOT = Path(tikigames.__file__).resolve().parent.parent
GAME = tikigames.load("tiki_topple", players=2)


def square(x: int) -> int:
    if x == 3:
        raise RuntimeError("three is refused")
    return x * x


def die_on_five(x: int) -> int:
    if x == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


class DieOnce:
    """Kills its own process (SIGKILL) the first time it plays ``x``, as a marker file tells."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __call__(self, x: int) -> int:
        if x == 4 and not os.path.exists(self.marker):
            Path(self.marker).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return -x


def outcomes(job: Any, tasks: Any, workers: int) -> dict[int, Done[int, int] | Failed[int]]:
    with Runner(job, RunSettings(workers=workers)) as runner:
        return {o.task: o for o in runner.run(tasks)}


@pytest.mark.parametrize("workers", [1, 2])
def test_results_and_a_job_that_raises(workers: int) -> None:
    found = outcomes(square, range(6), workers)
    assert sorted(found) == list(range(6))
    failed = found[3]
    assert isinstance(failed, Failed) and failed.error == "RuntimeError: three is refused"
    assert "Traceback" in failed.details and "square" in failed.details
    assert {k: o.result for k, o in found.items() if isinstance(o, Done)} == {
        k: k * k for k in range(6) if k != 3
    }


def test_a_worker_killed_once_is_replaced_and_its_task_played_again(tmp_path: Path) -> None:
    found = outcomes(DieOnce(str(tmp_path / "killed")), range(10), 2)
    assert (tmp_path / "killed").exists()  # a worker really died
    assert {k: o.result for k, o in found.items() if isinstance(o, Done)} == {
        k: -k for k in range(10)
    }


def test_a_task_that_kills_every_worker_fails_alone() -> None:
    found = outcomes(die_on_five, range(10), 2)
    failed = found.pop(5)
    assert isinstance(failed, Failed) and failed.error == WORKER_DIED
    assert "SIGKILL" in failed.details
    assert all(isinstance(o, Done) and o.result == k for k, o in found.items())


def test_tasks_are_drawn_lazily() -> None:
    drawn: list[int] = []

    def endless() -> Iterator[int]:
        for x in itertools.count():
            drawn.append(x)
            yield x

    runner: Runner[int, int] = Runner(abs, RunSettings(workers=2))
    with runner:
        for seen, _ in enumerate(runner.run(endless()), 1):
            assert len(drawn) <= seen + 4  # two in flight per worker, at most
            if seen == 50:
                break
    assert runner.workers == 2


class KillOnce:
    """Plays as RandomBot, but kills its worker (SIGKILL) on its first decision in the run."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        if not os.path.exists(self.marker):
            Path(self.marker).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return RandomBot().act(obs, rng)

    def __repr__(self) -> str:
        return "KillOnce()"


def test_the_arena_replays_the_game_of_a_killed_worker(tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    labels = ["k", "r"]
    killed = tikigames.arena(
        GAME, [KillOnce(str(marker)), RandomBot()], games=6, workers=2, seed=3, labels=labels
    )
    assert marker.exists() and not killed.errors
    plain = tikigames.arena(GAME, [RandomBot(), RandomBot()], games=6, seed=3, labels=labels)
    assert killed.records == plain.records


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; its new parent reaps it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("backend", ["arena", "selfplay"])
def test_workers_die_with_their_parent(tmp_path: Path, backend: str) -> None:
    if backend == "arena":
        call = (
            "tikigames.arena(game, [ISMCTSBot(iterations=300), RandomBot()], games=200,"
            " workers=2, seed=1)"
        )
    else:
        pytest.importorskip("pyarrow")
        call = (
            f"from tikigames.selfplay import selfplay; selfplay(game, ISMCTSBot(iterations=300),"
            f" games=200, seed=1, out={str(tmp_path / 'sp')!r}, workers=2)"
        )
    script = (
        "import tikigames\n"
        "from tikigames.bots import ISMCTSBot, RandomBot\n"
        "game = tikigames.load('tiki_topple', players=2)\n" + call + "\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)}
    parent = subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, start_new_session=True
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers := children(parent.pid)) < 2:
            assert parent.poll() is None and time.monotonic() < deadline, "no workers started"
            time.sleep(0.05)
        time.sleep(0.3)  # the workers are playing
        os.kill(parent.pid, signal.SIGKILL)  # the parent alone, not its process group
        parent.wait()
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "orphaned workers play on"
            time.sleep(0.05)
        assert parent.stdout is not None
        assert parent.stdout.read() == b""  # EOF: no worker holds the parent's stdout
    finally:  # if the test failed: leave nothing running
        if parent.poll() is None:
            os.killpg(parent.pid, signal.SIGKILL)
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


class Stop(Exception):
    pass


def stop_after_three(done: int, total: int) -> None:
    if done == 3:
        raise Stop


@pytest.mark.parametrize("workers", [1, 2])
def test_memory_does_not_grow_with_the_number_of_games(workers: int) -> None:
    """A trillion games: nothing is built per game before the first is played."""
    bots = [RandomBot(), RandomBot()]
    with pytest.raises(Stop):
        tikigames.arena(
            GAME, bots, games=10**12, workers=workers, seed=1, progress=stop_after_three
        )
    with pytest.raises(Stop):
        round_robin(GAME, [*bots, RandomBot()], games=10**12, seed=1, labels=["a", "b", "c"],
                    workers=workers, progress=stop_after_three)  # fmt: skip

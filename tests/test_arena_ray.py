"""The Ray backend: the same results as local processes for the same seed and lineup, the
bots sent once per worker, errors and dead workers reported, durable records resumed. One local
Ray for the module (``ray.init(num_cpus=2)``): it takes seconds to start."""

from __future__ import annotations

import os
import pickle
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.arena import WORKER_DIED, round_robin
from tikigames.bots import Bot, ISMCTSBot, RandomBot
from tikigames.core.action import Action
from tikigames.core.observation import Observation

ray = pytest.importorskip("ray")

GAME = tikigames.load("tiki_topple", players=2)


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    # The test bots below live in this module, which Ray's workers cannot import: send them
    # by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


class Counted:
    """A random bot that notes in ``log`` the process of every copy of it unpickled."""

    def __init__(self, log: str) -> None:
        self.log = log

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        with open(self.log, "a") as log:
            log.write(f"{os.getpid()}\n")

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        legal = obs.legal_actions()
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "Counted()"


class Flaky:
    """Fails on 2% of its decisions, the same for the same seed: raises, or kills its worker."""

    def __init__(self, die: bool = False) -> None:
        self.die = die

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        legal = obs.legal_actions()
        if rng.random() < 0.02:
            if self.die:
                os._exit(3)
            raise RuntimeError("the flaky bot failed")
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"Flaky(die={self.die})"


def test_ray_plays_the_same_games_as_processes() -> None:
    bots: list[Bot] = [ISMCTSBot(iterations=8), RandomBot()]
    labels = ["ismcts", "random"]
    local = tikigames.arena(GAME, bots, games=6, workers=2, seed=11, labels=labels)
    remote = tikigames.arena(GAME, bots, games=6, workers=2, seed=11, labels=labels, backend="ray")
    assert remote == local and remote.backend == "ray" and remote.workers == 2
    assert [r.returns for r in remote.records] == [r.returns for r in local.records]
    players: list[Bot] = [ISMCTSBot(iterations=5), RandomBot(), RandomBot()]
    names = ["ismcts", "r1", "r2"]
    assert round_robin(GAME, players, games=2, seed=3, labels=names, backend="ray") == (
        round_robin(GAME, players, games=2, seed=3, labels=names)
    )
    # workers=None: one actor per CPU of the cluster.
    assert tikigames.arena(GAME, bots, games=2, workers=None, seed=1, backend="ray").workers == 2


def test_bots_are_sent_once_per_worker(tmp_path: Path) -> None:
    log = tmp_path / "unpickled.txt"
    bot = Counted(str(log))
    pickle.loads(pickle.dumps(bot))  # the log works
    assert log.read_text().count("\n") == 1
    log.unlink()
    result = tikigames.arena(GAME, [bot, bot], games=8, workers=2, seed=1, backend="ray")
    assert result.games == 8
    # Two actors, each unpickling the lineup once (the two seats are one object).
    pids = log.read_text().split()
    assert len(pids) == 2 and len(set(pids)) == 2


def test_durable_records_resume_on_ray(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    bots = [RandomBot(), RandomBot()]
    whole = tikigames.arena(GAME, bots, games=6, workers=2, seed=2, labels=["a", "b"])
    tikigames.arena(GAME, bots, games=6, workers=2, seed=2, labels=["a", "b"], out=out,
                    backend="ray")  # fmt: skip
    out.write_text("".join(out.read_text().splitlines(keepends=True)[:4]))  # 3 games kept
    resumed = tikigames.arena(
        GAME, bots, games=6, workers=2, labels=["a", "b"], out=out, resume=True, backend="ray"
    )
    assert resumed == whole and resumed.resumed == 3


# Last: after a worker is killed, this machine's Ray once hung exporting the next actor class.
def test_errors_and_dead_workers_on_ray(tmp_path: Path) -> None:
    labels = ["flaky", "random"]
    raising = tikigames.arena(GAME, [Flaky(), RandomBot()], games=6, seed=5, labels=labels)
    assert raising.errors
    on_ray = tikigames.arena(
        GAME, [Flaky(), RandomBot()], games=6, workers=2, seed=5, labels=labels, backend="ray"
    )
    assert on_ray == raising
    dying = tikigames.arena(
        GAME, [Flaky(die=True), RandomBot()], games=6, workers=2, seed=5, labels=labels,
        backend="ray", out=tmp_path / "dying.jsonl",
    )  # fmt: skip
    assert [e.index for e in dying.errors] == [e.index for e in raising.errors]
    assert all(e.error == WORKER_DIED for e in dying.errors)
    assert dying.records == raising.records

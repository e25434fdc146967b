"""The arena's durable records, resume after a crash (a real SIGKILL), errors reported apart
from the results, and round robins with ratings."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames import cli
from tikigames.arena import WORKER_DIED, game_seed, round_robin
from tikigames.bots import Bot, ISMCTSBot, RandomBot
from tikigames.cli import main
from tikigames.core.action import Action
from tikigames.core.observation import Observation
from tikigames.records import RecordFile

#: Where the tikigames under test lives (the source or an installed wheel), for a subprocess.
PACKAGE_ROOT = Path(tikigames.__file__).resolve().parent.parent
GAME = tikigames.load("tiki_topple", players=2)


class Flaky:
    """Plays at random, but fails on 2% of its decisions (the same ones for the same seed):
    it raises, or with ``die`` kills its process."""

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


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_out_records_every_game_and_resume_skips_them(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    bots: list[Bot] = [ISMCTSBot(iterations=5), RandomBot()]
    whole = tikigames.arena(GAME, bots, games=6, seed=4, labels=["i", "r"], out=out)
    header, *records = lines(out)
    assert header["format"] == "tikigames-arena/1" and header["seed"] == 4
    assert header["labels"] == ["i", "r"] and header["games"] == 6
    assert sorted(r["index"] for r in records) == list(range(6))
    assert [r["returns"] for r in records] == [list(r.returns) for r in whole.records]
    # Cut the file after three games, the last of them torn half-way, as a crash would.
    text = out.read_text().splitlines(keepends=True)
    out.write_text("".join(text[:3]) + text[3][:25])
    seen: list[tuple[int, int]] = []
    resumed = tikigames.arena(
        GAME,
        bots,
        games=6,
        labels=["i", "r"],
        out=out,
        resume=True,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert resumed == whole and resumed.seed == 4  # the seed came from the file
    assert resumed.resumed == 2 and seen == [(3, 6), (4, 6), (5, 6), (6, 6)]
    assert sorted(r["index"] for r in lines(out)[1:]) == list(range(6))  # each game once
    # All there: resuming plays nothing.
    again = tikigames.arena(GAME, bots, games=6, labels=["i", "r"], out=out, resume=True)
    assert again == whole and again.resumed == 6 and len(lines(out)) == 7


def test_out_refuses_to_overwrite_or_mix_tournaments(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    bots = [RandomBot(), RandomBot()]
    tikigames.arena(GAME, bots, games=2, seed=1, labels=["a", "b"], out=out)
    with pytest.raises(FileExistsError):
        tikigames.arena(GAME, bots, games=2, seed=1, labels=["a", "b"], out=out)
    with pytest.raises(ValueError, match="seed"):
        tikigames.arena(GAME, bots, games=2, seed=2, labels=["a", "b"], out=out, resume=True)
    with pytest.raises(ValueError, match="labels"):
        tikigames.arena(GAME, bots, games=2, seed=1, labels=["a", "c"], out=out, resume=True)
    with pytest.raises(ValueError, match="games"):  # fewer games than the file was started with
        tikigames.arena(GAME, bots, games=1, seed=1, labels=["a", "b"], out=out, resume=True)
    assert len(lines(out)) == 3  # untouched
    # A record that is not of this tournament (a seed that does not match its index).
    header, first, second = lines(out)
    second["seed"] += 1
    out.write_text("".join(json.dumps(x) + "\n" for x in (header, first, second)))
    with pytest.raises(ValueError, match="not of this tournament"):
        tikigames.arena(GAME, bots, games=2, seed=1, labels=["a", "b"], out=out, resume=True)


def test_a_tournament_grows_when_resumed_with_more_games(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    bots: list[Bot] = [ISMCTSBot(iterations=5), RandomBot()]
    whole = tikigames.arena(GAME, bots, games=7, seed=3, labels=["i", "r"])
    tikigames.arena(GAME, bots, games=4, seed=3, labels=["i", "r"], out=out)
    grown = tikigames.arena(GAME, bots, games=7, labels=["i", "r"], out=out, resume=True)
    assert grown == whole and grown.resumed == 4
    header, *records = lines(out)
    assert header["games"] == 4 and sorted(r["index"] for r in records) == list(range(7))
    # A round robin too: its game j of every pairing comes before any game j + 1.
    rr_bots: list[Bot] = [ISMCTSBot(iterations=5), RandomBot(), RandomBot()]
    labels = ["i", "r1", "r2"]
    rr_whole = round_robin(GAME, rr_bots, games=5, seed=8, labels=labels)
    rr_out = tmp_path / "rr.jsonl"
    round_robin(GAME, rr_bots, games=2, seed=8, labels=labels, out=rr_out)
    rr_grown = round_robin(GAME, rr_bots, games=5, labels=labels, out=rr_out, resume=True)
    assert rr_grown == rr_whole and rr_grown.resumed == 6
    # Never shrink: below what the file was started with, or below what it holds now.
    for fewer in (3, 5):
        with pytest.raises(ValueError, match="can grow, not shrink"):
            tikigames.arena(GAME, bots, games=fewer, labels=["i", "r"], out=out, resume=True)
    # The other settings still must match.
    with pytest.raises(ValueError, match="labels"):
        tikigames.arena(GAME, bots, games=8, labels=["i", "x"], out=out, resume=True)
    with pytest.raises(ValueError, match="games"):
        RecordFile.open(out, {**header, "games": True}, resume=True, growing=("games",))


def test_a_torn_line_before_the_last_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    out.write_text('{"format": "demo"}\n{"ind\n{"index": 2}\n')
    with pytest.raises(ValueError, match="line 2"):
        RecordFile.open(out, {"format": "demo"}, resume=True)


def arena_command(out: Path, *more: str) -> list[str]:
    return [sys.executable, "-m", "tikigames.cli", "arena", "tiki_topple",
            "--players", "ismcts,random", "--games", "30", "--workers", "2", "--seed", "9",
            "-b", "iterations=15", "--out", str(out), "--json", "-q", *more]  # fmt: skip


def test_a_run_killed_with_sigkill_resumes_to_the_same_table(tmp_path: Path) -> None:
    out = tmp_path / "killed.jsonl"
    env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)}
    run = subprocess.Popen(
        arena_command(out), env=env, stdout=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and run.poll() is None:
        if out.exists() and out.read_text().count("\n") >= 5:  # the header and 4 games
            break
        time.sleep(0.01)
    os.killpg(run.pid, signal.SIGKILL)  # the tournament and its workers, all at once
    run.wait()
    recorded = [r["index"] for r in lines(out)[1:]]
    assert 4 <= len(recorded) < 30, "the run was not interrupted"
    finished = subprocess.run(
        arena_command(out, "--resume"), env=env, capture_output=True, text=True, check=True
    )
    resumed = json.loads(finished.stdout)
    assert resumed["resumed"] == len(recorded)
    whole = tikigames.arena(
        GAME, [ISMCTSBot(iterations=15), RandomBot()], games=30, seed=9, labels=["ismcts", "random"]
    ).to_json()
    assert resumed["records"] == whole["records"]
    timing = ("seconds_per_move",)
    for label in ("ismcts", "random"):
        mine = {k: v for k, v in resumed["bots"][label].items() if k not in timing}
        assert mine == {k: v for k, v in whole["bots"][label].items() if k not in timing}
    indices = [r["index"] for r in lines(out)[1:]]
    assert sorted(indices) == list(range(30))  # nothing lost, nothing twice


def test_a_bot_that_raises_costs_its_game_only() -> None:
    bots: list[Bot] = [Flaky(), RandomBot()]
    result = tikigames.arena(GAME, bots, games=10, seed=5, labels=["flaky", "random"])
    assert 0 < len(result.errors) < 10
    assert result.games + len(result.errors) == 10
    assert result["flaky"].games == result.games  # the summary counts results only
    failed = {e.index for e in result.errors}
    assert failed.isdisjoint(r.index for r in result.records)
    for error in result.errors:
        assert error.seed == game_seed(5, error.index)
        assert error.error == "RuntimeError: the flaky bot failed"
        assert "Traceback" in error.details
        # Replayable: the same seats and seed raise again.
        seated = [bots[0] if label == "flaky" else bots[1] for label in error.labels]
        with pytest.raises(RuntimeError):
            tikigames.play(GAME, seated, seed=error.seed)
    assert "error in game" in result.table()
    assert len(result.to_json()["errors"]) == len(result.errors)
    # Workers change nothing, errors included.
    assert (
        tikigames.arena(GAME, bots, games=10, workers=2, seed=5, labels=["flaky", "random"])
        == result
    )


def test_a_worker_that_dies_costs_its_game_only() -> None:
    dying = tikigames.arena(
        GAME, [Flaky(die=True), RandomBot()], games=8, workers=2, seed=5, labels=["flaky", "random"]
    )
    raising = tikigames.arena(
        GAME, [Flaky(), RandomBot()], games=8, seed=5, labels=["flaky", "random"]
    )
    assert 0 < len(dying.errors) < 8
    assert [e.index for e in dying.errors] == [e.index for e in raising.errors]
    assert all(e.error == WORKER_DIED for e in dying.errors)
    assert dying.records == raising.records  # the other games, in flight or not, were played


def test_round_robin_pairs_every_bot_and_rates_them(tmp_path: Path) -> None:
    bots: list[Bot] = [ISMCTSBot(iterations=10), RandomBot(), RandomBot()]
    labels = ["ismcts", "r1", "r2"]
    result = round_robin(GAME, bots, games=4, seed=2, labels=labels)
    assert result.round_robin and result.games == 12
    # Round by round: game j of the pairings in order, then game j + 1, seats swapped every
    # game; each bot plays 2 pairings of 4 games.
    assert [r.labels for r in result.records[:6]] == [
        ("ismcts", "r1"), ("ismcts", "r2"), ("r1", "r2"),
        ("r1", "ismcts"), ("r2", "ismcts"), ("r2", "r1"),
    ]  # fmt: skip
    assert [set(r.labels) for r in result.records[2::3]] == [{"r1", "r2"}] * 4
    assert all(bot.games == 8 for bot in result.bots)
    assert [r.seed for r in result.records] == [game_seed(2, i) for i in range(12)]
    for pair in result.pairings:
        assert pair.a_wins + pair.draws + pair.b_wins == pair.games == 4
    assert [r.label for r in result.ratings] == labels
    assert sum(r.elo for r in result.ratings) == pytest.approx(0.0, abs=1e-9)
    best = max(result.ratings, key=lambda r: r.elo)
    assert best.score == max(r.score for r in result.ratings)
    assert "Bradley–Terry" in result.table() and "ismcts vs r1" in result.table()
    data = json.loads(json.dumps(result.to_json()))
    assert [r["label"] for r in data["ratings"]] == labels and len(data["pairings"]) == 3
    # A two-bot round robin is the plain arena between them.
    two = round_robin(GAME, bots[:2], games=4, seed=2, labels=labels[:2])
    plain = tikigames.arena(GAME, bots[:2], games=4, seed=2, labels=labels[:2])
    assert two.records == plain.records and len(two.ratings) == 2
    # Durable and resumable too.
    out = tmp_path / "rr.jsonl"
    round_robin(GAME, bots, games=4, seed=2, labels=labels, out=out)
    out.write_text("".join(out.read_text().splitlines(keepends=True)[:6]))
    assert round_robin(GAME, bots, games=4, labels=labels, out=out, resume=True) == result


def test_round_robin_seats_for_more_than_two() -> None:
    three = tikigames.load("tiki_topple", players=3)
    result = round_robin(three, [RandomBot(), RandomBot()], games=6, seed=1, labels=["a", "b"])
    assert [r.labels for r in result.records] == [
        ("a", "b", "a"), ("a", "a", "b"), ("b", "a", "a"),  # a holds two seats, rotated
        ("b", "a", "b"), ("b", "b", "a"), ("a", "b", "b"),  # then b does
    ]  # fmt: skip
    assert result["a"].seats == 2 and result["a"].games == 6
    four = tikigames.load("tactik", players=4)
    labels = ["x", "y", "z"]
    teams = round_robin(four, [RandomBot()] * 3, games=1, seed=1, labels=labels, workers=2)
    for record in teams.records:  # partners opposite: a team against a team
        assert record.labels[0] == record.labels[2] != record.labels[1] == record.labels[3]


def test_round_robin_arguments() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        round_robin(GAME, [RandomBot()], games=1)
    with pytest.raises(ValueError, match="distinct"):
        round_robin(GAME, [RandomBot(), RandomBot()], games=1, labels=["a", "a"])
    with pytest.raises(ValueError, match="backend"):
        tikigames.arena(GAME, [RandomBot(), RandomBot()], games=1, backend="threads")  # type: ignore[arg-type]


def run_arena(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_the_command_line_round_robin_out_and_resume(tmp_path: Path) -> None:
    out = str(tmp_path / "rr.jsonl")
    args = ("tiki_topple", "--players", "mcts,ismcts,random", "--round-robin", "--games", "2",
            "-b", "iterations=5", "--seed", "3", "--out", out, "--json")  # fmt: skip
    status, text, err = run_arena(*args)
    assert status == 0 and "12" not in err.splitlines()[0]  # progress: 6 games in all
    assert err.splitlines()[-1].startswith("[###") and "6/6 games" in err
    data = json.loads(text)
    assert data["games"] == 6 and data["options"]["players"] == 2
    assert [r["label"] for r in data["ratings"]] == ["mcts", "ismcts", "random"]
    assert [(p["a"], p["b"]) for p in data["pairings"]] == [
        ("mcts", "ismcts"), ("mcts", "random"), ("ismcts", "random")
    ]  # fmt: skip
    status, again, _ = run_arena(*args, "--resume", "-q")
    assert status == 0 and json.loads(again)["records"] == data["records"]
    assert json.loads(again)["resumed"] == 6
    status, table, _ = run_arena(*args[:-1], "--resume", "-q")
    assert status == 0 and "Bradley–Terry" in table and "mcts vs ismcts" in table


def test_the_command_line_reports_failed_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(cli.BOTS, "flaky", Flaky)
    status, out, err = run_arena("tiki_topple", "--players", "flaky,random", "--games", "6",
                                 "--seed", "5", "-q")  # fmt: skip
    failed = [line for line in err.splitlines() if "failed: RuntimeError" in line]
    assert status == 1 and failed and all("seed " in line for line in failed)
    assert f"({len(failed)} more failed)" in out.splitlines()[0]


def test_the_command_line_usage_errors(tmp_path: Path) -> None:
    status, _, err = run_arena("tiki_topple", "--players", "random,random", "--games", "2",
                               "--out", str(tmp_path / "a.jsonl"), "-q")  # fmt: skip
    assert status == 0 and err == ""
    for argv in (
        ("--resume",),  # no --out
        ("--address", "auto"),  # not Ray
        ("--out", str(tmp_path / "a.jsonl")),  # exists: not overwritten
        ("--out", str(tmp_path / "a.jsonl"), "--resume", "--games", "1"),  # fewer games
        ("--out", str(tmp_path / "a.jsonl"), "--resume", "--seed", "7"),  # another tournament
        ("--round-robin", "--players", "random,random"),  # the same bot twice
        ("--round-robin", "--players", "random"),
    ):
        status, _, err = run_arena("tiki_topple", "--players", "random,random", "--games", "2",
                                   *argv, "-q")  # fmt: skip
        assert status == 2 and err.startswith("tikigames: "), argv

"""The ``tikigames`` command."""

from __future__ import annotations

import importlib.util
import io
import json
import random
from typing import Any

import tikigames
from tikigames.cli import main


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


def test_list_shows_every_game_and_option() -> None:
    status, out = run("list")
    assert status == 0
    assert "tiki_topple" in out and "tiebreak_rounds" in out


def test_play_bots_only() -> None:
    status, out = run("play", "tiki_topple", "--players", "random,random,random", "--seed", "3")
    assert status == 0
    assert out.count("Game over") == 1 and "Returns:" in out
    assert "\nGame over: player 2 wins. Returns: player 0 -1, player 1 -1, player 2 +1\n" in out
    assert "player 2 (random)" in out


def test_play_human_rejects_bad_input_and_asks_again() -> None:
    every_card = [str(a) for a in tikigames.load("tiki_topple").actions()[:37]]
    script = "pass\nup9 nani\n" + "\n".join(every_card * 20) + "\n"
    status, out = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                      "-o", "rounds=1", stdin=script)  # fmt: skip
    assert status == 0 and out.count("Game over") == 1
    assert "Not accepted: 'pass' is not an action" in out
    assert "Your secret tiki card" in out
    assert "Your moves (" in out


def test_play_hot_seat_clears_the_screen_between_humans() -> None:
    script = "\n" + "topple eepo\n" * 3
    status, out = run(
        "play", "tiki_topple", "--players", "human,human", "--seed", "1", stdin=script
    )
    assert status == 1  # input ran out: abandoned
    assert "\033[2J\033[3J" in out and "press Enter" in out


def test_play_rejects_bad_options(capsys: object) -> None:
    status, _ = run("play", "tiki_topple", "--players", "human,random", "-o", "rounds=zero")
    assert status == 2
    status, _ = run("play", "tiki_topple", "--players", "human,alien")
    assert status == 2
    status, _ = run("play", "tiki_topple", "--players", "random")
    assert status == 2


def run_arena(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_arena_json_is_reproducible_and_shows_progress() -> None:
    args = ("tiki_topple", "--players", "ismcts,random", "--games", "3", "--seed", "4",
            "-b", "iterations=8", "--json")  # fmt: skip
    status, out, err = run_arena(*args)
    assert status == 0
    data = json.loads(out)
    assert data["games"] == 3 and data["seed"] == 4 and data["options"]["players"] == 2
    assert set(data["bots"]) == {"ismcts", "random"}
    ismcts = data["bots"]["ismcts"]
    assert ismcts["wins"] + ismcts["draws"] + ismcts["losses"] == 3
    assert ismcts["win_ci"][0] <= ismcts["win_rate"] <= ismcts["win_ci"][1]
    assert data["settings"]["ismcts"].startswith("ISMCTSBot(iterations=8,")
    assert "3/3 games" in err and "[" in err
    again = json.loads(run_arena(*args, "--workers", "2", "-q")[1])
    assert again["records"] == data["records"]


def test_arena_table_with_a_team() -> None:
    status, out, err = run_arena("tiki_topple", "--players", "random,mcts,random,mcts",
                                 "--games", "2", "--seed", "1", "-b", "mcts.iterations=3",
                                 "-q")  # fmt: skip
    assert status == 0 and err == ""
    assert "mean game length" in out and "95%" in out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line}
    assert lines["random"][1] == "2" and lines["mcts"][1] == "2"  # two seats each
    assert "mcts: MCTSBot(iterations=3," in out


def test_play_with_search_bots_and_settings() -> None:
    status, out = run("play", "tiki_topple", "--players", "mcts,ismcts", "--seed", "2",
                      "-b", "iterations=5", "-b", "ismcts.c=0.5")  # fmt: skip
    assert status == 0 and "player 1 (ismcts)" in out and out.count("Game over: ") == 1
    for cap in ("game", "none", "12"):
        status, out, _ = run_arena("tiki_topple", "--players", "ismcts,random", "--games", "1",
                                   "-b", "iterations=3", "-b", f"max_rollout={cap}")  # fmt: skip
        shown = {"game": "'game'", "none": "None", "12": "12"}[cap]
        assert status == 0 and f"max_rollout={shown})" in out


def test_bad_bot_settings_and_players() -> None:
    for argv in (
        ("--players", "ismcts,random", "-b", "depth=3"),  # no such setting
        ("--players", "ismcts,random", "-b", "random.iterations=3"),  # random takes none
        ("--players", "ismcts,random", "-b", "iterations=0"),  # out of range
        ("--players", "ismcts,random", "-b", "iterations=many"),  # not an int
        ("--players", "ismcts,random", "-b", "mcts.iterations=3"),  # no mcts playing
        ("--players", "ismcts,random", "-b", "iterations"),  # no value
        ("--players", "ismcts,random", "-b", "max_rollout=auto"),  # neither int, none nor game
        ("--players", "human,random"),  # the arena plays bots only
        ("--players", "ismcts,alien"),
        ("--players", "ismcts,random", "--games", "0"),
    ):
        status, _, err = run_arena("tiki_topple", *argv)
        assert status == 2, argv
        assert err.startswith("tikigames: "), argv


def test_render_draws_saved_states_and_observations(tmp_path: Any) -> None:
    state = tikigames.load("tactiki").new_initial_state()
    rng = random.Random(0)
    for _ in range(30):
        state.apply_unchecked(state.random_action(rng))
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(state.to_json()))
    status, out = run("render", str(saved))
    assert status == 0 and out.strip() == state.svg()
    status, out = run("render", str(saved), "--player", "1", "--size", "300")
    assert status == 0 and out.strip() == state.observation(1).svg(size=300)
    seen = tmp_path / "obs.json"
    seen.write_text(json.dumps(state.observation(0).to_json()))
    assert run("render", str(seen), "-o", str(tmp_path / "o.svg"))[0] == 0
    assert (tmp_path / "o.svg").read_text() == state.observation(0).svg()
    if importlib.util.find_spec("cairosvg") is not None:  # the optional extra [png]
        assert run("render", str(seen), "--png", "-o", str(tmp_path / "o.png"))[0] == 0
        assert (tmp_path / "o.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for bad in (str(tmp_path / "missing.json"), str(seen) + "x"):
        assert run("render", bad)[0] == 2
    (tmp_path / "bad.json").write_text('{"format": "tikigames/1", "game": "chess"}')
    assert run("render", str(tmp_path / "bad.json"))[0] == 2


def test_play_writes_each_humans_view_as_a_picture(tmp_path: Any) -> None:
    script = ("\n".join(str(a) for a in tikigames.load("tiki_topple").actions()[:37]) + "\n") * 30
    status, _ = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                    "-o", "rounds=1", "--svg", str(tmp_path), stdin=script)  # fmt: skip
    assert status == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["player0.html", "player0.svg"]
    assert (tmp_path / "player0.svg").read_text().startswith("<svg")
    assert 'http-equiv="refresh"' in (tmp_path / "player0.html").read_text()


class _ClosedPipe(io.StringIO):
    """A stdout whose reader went away, as ``tikigames … | head`` leaves it."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    err = io.StringIO()
    assert main(["list"], stdout=_ClosedPipe(), stderr=err) == 141 and err.getvalue() == ""

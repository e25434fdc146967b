"""The ``tikigames`` command."""

from __future__ import annotations

import importlib.util
import io
import itertools
import json
import random
import re
import sys
from typing import Any

import pytest

import tikigames
from tikigames.cli import build_parser, main


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
    assert "Returns" not in out
    assert re.search(r"\nResult: player 2 wins[^\n]*\.\n$", out)
    assert "player 2 (random)" in out


def test_play_human_rejects_bad_input_and_asks_again() -> None:
    every_card = [str(a) for a in tikigames.load("tiki_topple").actions()[:37]]
    script = "pass\nup9 nani\n" + "\n".join(every_card * 20) + "\n"
    status, out = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                      "-o", "rounds=1", stdin=script)  # fmt: skip
    assert status == 0 and out.count("\nResult: ") == 1
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
    assert status == 0 and "player 1 (ismcts)" in out and out.count("\nResult: ") == 1
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
    assert run("render", str(seen), "-O", str(tmp_path / "o.svg"))[0] == 0
    assert (tmp_path / "o.svg").read_text() == state.observation(0).svg()
    assert run("render", str(seen), "--output", str(tmp_path / "p.svg"))[0] == 0
    assert (tmp_path / "p.svg").read_text() == state.observation(0).svg()
    # -o is a game option in every command; render's output is -O, and says so.
    assert run("render", str(seen), "-o", str(tmp_path / "q.svg"))[0] == 2
    assert not (tmp_path / "q.svg").exists()
    if importlib.util.find_spec("cairosvg") is not None:  # the optional extra [png]
        assert run("render", str(seen), "--png", "-O", str(tmp_path / "o.png"))[0] == 0
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


def test_every_command_that_plays_speaks_one_grammar() -> None:
    parser = build_parser()
    for command in ("play", "arena", "selfplay"):
        args = parser.parse_args(
            [command, "tiki_topple", "-o", "rounds=2", "--option", "players=3", "-b",
             "iterations=5", "--bot", "mcts.c=0.5", "--players", "mcts", "--seed", "4",
             *(["--out", "x"] if command == "selfplay" else [])]
        )  # fmt: skip
        assert args.option == [("rounds", "2"), ("players", "3")], command
        assert args.bot == ["iterations=5", "mcts.c=0.5"], command
        assert (args.players, args.seed) == ("mcts", 4), command
    # render's output is -O: -o is a game option everywhere
    args = parser.parse_args(["render", "saved.json", "-O", "out.svg"])
    assert args.output == "out.svg"
    with pytest.raises(SystemExit) as exited:
        parser.parse_args(["play", "tiki_topple", "-o", "rounds"])  # not KEY=VALUE
    assert exited.value.code == 2


def test_the_players_option_is_parsed_once_by_its_declaration() -> None:
    status, out, _ = run_arena("tiki_topple", "--players", "random,mcts", "--round-robin",
                               "--games", "1", "-o", "players=3", "-b", "iterations=2",
                               "--seed", "1", "--json", "-q")  # fmt: skip
    assert status == 0 and json.loads(out)["options"]["players"] == 3
    for value in ("three", "3.5", "1"):
        status, _, err = run_arena("tiki_topple", "--players", "random,mcts", "--round-robin",
                                   "--games", "1", "-o", f"players={value}", "-q")  # fmt: skip
        assert status == 2 and err.startswith("tikigames: "), value
    status, _, err = run_arena("tiki_topple", "--players", "random,random", "-o", "players=3")
    assert status == 2 and "3 seats, not 2" in err


def test_selfplay_names_its_bot_as_every_command_does(tmp_path: Any) -> None:
    pytest.importorskip("pyarrow")

    runs = itertools.count()

    def selfplay(*argv: str) -> tuple[int, str, str]:  # each run in a directory of its own
        out, err = io.StringIO(), io.StringIO()
        status = main(["selfplay", "tiki_topple", "--games", "1", "-q", "--seed", "1",
                       "-b", "iterations=2", "--out", str(tmp_path / str(next(runs))), *argv],
                      stdout=out, stderr=err)  # fmt: skip
        return status, out.getvalue(), err.getvalue()

    status, out, err = selfplay("--players", "mcts")
    assert status == 0 and err == "" and "mcts: MCTSBot(iterations=2," in out
    status, out, err = selfplay("--players", "ismcts,ismcts,ismcts")  # one per seat
    assert status == 0 and "ismcts: ISMCTSBot(iterations=2," in out
    assert json.loads((tmp_path / "1" / "selfplay.json").read_text())["options"]["players"] == 3
    status, out, err = selfplay("-o", "players=4")
    assert status == 0 and "ismcts: ISMCTSBot(" in out  # the default bot
    # The grammar of earlier versions still works, and says what to write now.
    status, out, err = selfplay("--bot", "mcts", "--players", "3")
    assert status == 0 and "mcts: MCTSBot(iterations=2," in out
    assert "--bot mcts is deprecated; write --players mcts" in err
    assert "--players 3 is deprecated; write -o players=3" in err
    for argv in (
        ("--players", "random"),  # not a search bot
        ("--players", "ismcts,mcts"),  # one bot in every seat
        ("--players", "mcts", "--bot", "ismcts"),  # the bot named twice
    ):
        status, _, err = selfplay(*argv)
        assert status == 2 and err.startswith("tikigames: "), argv


# Playing as a person (issue #27).


def test_play_seats_the_games_default_number_of_players() -> None:
    status, out = run("play", "tactik", "--seed", "1", stdin="quit\n")
    assert status == 0
    assert out.startswith("Tac-Tik: player 0 human, player 1 random, player 2 random, "
                          "player 3 random (type help")  # fmt: skip
    status, out = run("play", "tiki_topple", "-o", "players=3", "--seed", "1", stdin="quit\n")
    assert status == 0 and "player 2 random (type help" in out


def test_play_help_says_the_number_of_names_sets_the_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the number of names sets the number of players" in text
    assert "help [rules|notation]" in text and "exit status: 0 once the game is over" in text


def test_quit_is_no_error_but_input_that_runs_out_is() -> None:
    status, out = run("play", "tiki_topple", "--seed", "1", stdin="quit\n")
    assert status == 0 and out.endswith("Game abandoned.\n")
    status, out = run("play", "tiki_topple", "--seed", "1", stdin="")
    assert status == 1 and out.endswith("Game abandoned.\n")


def test_play_svg_says_where_it_writes(tmp_path: Any) -> None:
    status, out = run("play", "tiki_topple", "--players", "random,random", "--seed", "1",
                      "-o", "rounds=1", "--svg", str(tmp_path / "pics"))  # fmt: skip
    assert status == 0
    line = next(line for line in out.splitlines() if line.startswith("Pictures: "))
    assert "spectator.svg" in line and str(tmp_path / "pics" / "spectator.html") in line


def test_a_bot_list_of_the_wrong_length_is_said_of_the_bot_list() -> None:
    for argv, words in (
        (("arena", "tiki_topple", "--players", "ismcts"),
         "--players needs one name per seat: tiki_topple needs 2 to 4 players, got 1 (ismcts)"),
        (("play", "tactik", "--players", "human,random,random"),
         "--players needs one name per seat: tactik needs 2, 4 or 6 players, got 3 "
         "(human,random,random)"),
        (("play", "paiko", "--players", "human"),
         "--players needs one name per seat: paiko needs 2 players, got 1 (human)"),
    ):  # fmt: skip
        err = io.StringIO()
        assert main(list(argv), stdout=io.StringIO(), stderr=err) == 2, argv
        assert err.getvalue() == f"tikigames: {words}\n"
    # -o players=N against another number of names still names both
    err = io.StringIO()
    many = ["arena", "tiki_topple", "--players", "random,random", "-o", "players=3"]
    assert main(many, stdout=io.StringIO(), stderr=err) == 2
    assert "3 seats, not 2" in err.getvalue()


def test_render_writes_what_the_output_suffix_says(tmp_path: Any, monkeypatch: Any) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(tikigames.load("tactiki").new_initial_state().to_json_text())
    status, _ = run("render", str(saved), "-O", str(tmp_path / "x.svg"))
    assert status == 0 and (tmp_path / "x.svg").read_text().startswith("<svg")
    err = io.StringIO()
    assert main(["render", str(saved), "--png", "-O", str(tmp_path / "x2.svg")], stderr=err) == 2
    assert "--png writes PNG, but" in err.getvalue() and not (tmp_path / "x2.svg").exists()
    if importlib.util.find_spec("cairosvg") is not None:
        assert run("render", str(saved), "-O", str(tmp_path / "x.png"))[0] == 0
        assert (tmp_path / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if tikigames[png] were missing
    err = io.StringIO()
    assert main(["render", str(saved), "-O", str(tmp_path / "y.png")], stderr=err) == 2
    assert "needs cairosvg: pip install 'tikigames[png]'" in err.getvalue()
    assert not (tmp_path / "y.png").exists()

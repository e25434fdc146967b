"""The ``tikigames`` command."""

from __future__ import annotations

import io
import json

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
    assert "Game over." in out and "Returns:" in out
    assert "player 2 (random)" in out


def test_play_human_rejects_bad_input_and_asks_again() -> None:
    every_card = [str(a) for a in tikigames.load("tiki_topple").actions()[:37]]
    script = "pass\nup9 nani\n" + "\n".join(every_card * 20) + "\n"
    status, out = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                      "-o", "rounds=1", stdin=script)  # fmt: skip
    assert status == 0 and "Game over." in out
    assert "Not accepted: 'pass' is not an action" in out
    assert "Your secret tiki card" in out
    assert "Legal:" in out


def test_play_hot_seat_clears_the_screen_between_humans() -> None:
    script = "\n" + "topple eepo\n" * 3
    status, out = run(
        "play", "tiki_topple", "--players", "human,human", "--seed", "1", stdin=script
    )
    assert status == 1  # input ran out: abandoned
    assert "\033[2J" in out and "press Enter" in out


def test_play_rejects_bad_options(capsys: object) -> None:
    status, _ = run("play", "tiki_topple", "--players", "human,random", "-o", "rounds=zero")
    assert status == 2
    status, _ = run("play", "tiki_topple", "--players", "human,alien")
    assert status == 2
    status, _ = run("play", "tiki_topple", "--players", "random")
    assert status == 2


def test_bench_json() -> None:
    status, out = run("bench", "tiki_topple", "--seconds", "0.05", "--json")
    assert status == 0
    figures = json.loads(out)["tiki_topple"]
    assert figures["playout_actions_per_s"] > 0 and figures["resample_us"] > 0

"""Playing at the terminal (``tikigames.terminal``): hot seat through a real pseudo-terminal,
move entry that scales, the commands, colour and the thinking line."""

from __future__ import annotations

import io
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.bots import RandomBot
from tikigames.cli import main
from tikigames.core.action import Action
from tikigames.core.observation import Observation
from tikigames.terminal import CAP, CLEAR, Table, group_key, summarise

SRC = Path(__file__).resolve().parent.parent / "src"
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


class TTY(io.StringIO):
    """A captured stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(*argv: str, stdin: str = "", stdout: io.StringIO | None = None) -> tuple[int, str]:
    out = stdout if stdout is not None else io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


# Hot seat, through a pseudo-terminal.


def test_a_whole_hot_seat_game_shows_no_secret_after_the_hand_over() -> None:
    """Two humans play a whole one-round Tiki Topple at one (pseudo-)terminal. Every hand-over
    clears the screen and the scrollback; after the clear that opens a player's turn, nothing of
    the other player's secret card is on the screen."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(SRC), "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tikigames.cli", "play", "tiki_topple", "--players",
         "human,human", "--seed", "5", "-o", "rounds=1"],
        stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    received = b""
    answered = 0  # prompts answered so far
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal: the game is over
                    break
                if not chunk:
                    break
                received += chunk
            text = COLOUR.sub("", received.decode(errors="replace"))
            prompts = re.findall(r"(press Enter when only you can see the screen\. |player \d> )$",
                                 text[-200:])  # fmt: skip
            if not prompts or text.count("> ") + text.count("screen. ") <= answered:
                if process.poll() is not None and not ready:
                    break
                continue
            answered = text.count("> ") + text.count("screen. ")
            if prompts[0].startswith("press"):
                os.write(master, b"\n")
            else:  # the first move listed
                moves = text[text.rindex("Your moves") :].splitlines()[1]
                os.write(master, moves.strip().split("  ")[0].encode() + b"\n")
        process.wait(10)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    text = COLOUR.sub("", received.decode(errors="replace"))
    assert process.returncode == 0, text[-2000:]
    assert "Game over: " in text and text.count("Game over") == 1
    segments = text.split(CLEAR)
    secrets: dict[int, set[str]] = {0: set(), 1: set()}
    turns: list[tuple[int, str]] = []
    for index, segment in enumerate(segments[1:], 1):
        mine = re.search(r"you are player (\d)", segment)
        if mine is None or "Game over" in segment:
            continue
        seat = int(mine.group(1))
        # The clear before this turn closed a hand-over that named this player.
        assert (
            f"Player {seat}'s turn." in segments[index - 1] and "press Enter" in segments[index - 1]
        )
        assert "you are" not in segments[index - 1]
        turns.append((seat, segment))
        secrets[seat].update(re.findall(r"Your secret tiki card: (#\d+ [A-Za-z /]+)", segment))
    assert {seat for seat, _ in turns} == {0, 1} and all(len(s) == 1 for s in secrets.values())
    for seat, segment in turns:
        other = next(iter(secrets[1 - seat]))
        assert other not in segment, f"player {1 - seat}'s secret in player {seat}'s turn"
        assert f"you are player {1 - seat}" not in segment
    # Each turn after the first names what the other player did since, as this player saw it.
    assert sum("Since your last turn:" in segment for _, segment in turns) == len(turns)
    assert re.search(r"player 1: (up\d|topple|toast)", turns[2][1])


# Move entry.


def busiest(name: str, seed: int = 0, steps: int = 400) -> Observation[Any]:
    """The observation with the most legal actions met in a random game of ``name``."""
    state = tikigames.load(name).new_initial_state()
    rng = random.Random(seed)
    best: Observation[Any] | None = None
    for _ in range(steps):
        if state.is_terminal():
            break
        player = state.current_player()
        if player >= 0:
            obs = state.observation(player)
            if best is None or len(obs.legal) > len(best.legal):
                best = obs
        state.apply_unchecked(state.random_action(rng))
    assert best is not None
    return best


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_no_more_than_the_cap_of_actions_is_shown_at_a_busy_position(name: str) -> None:
    obs = busiest(name)
    texts = [str(action) for action in obs.legal_actions()]
    shown = summarise(texts)
    items = [item for line in shown for item in re.split(r"  +| · ", line.strip()) if item]
    assert len(items) <= CAP + 1, (name, len(texts), shown)
    if len(texts) > CAP:
        counts = [int(m) for m in re.findall(r"\((\d+)\)", " ".join(shown))]
        singles = [item for item in items if not item.endswith(")")]
        assert sum(counts) + len(singles) == len(texts)  # every action is in one group
    else:
        assert sorted(items) == sorted(texts)  # all of them, each once


#: Paikō's draft, whatever is left: a line per tile kind, the ones no longer legal refused.
TILES = ("sai", "sword", "bow", "lotus", "air", "fire", "earth", "water")
DRAFTS = "".join(f"draft {tile}\n" for tile in TILES)


def test_paiko_after_the_draft_is_listed_by_tile() -> None:
    obs = busiest("paiko")
    assert len(obs.legal) > 300  # the position the issue was about: ~900 actions
    status, out = run("play", "paiko", "--players", "human,random", "--seed", "2",
                      stdin=DRAFTS * 6 + "moves sai\nquit\n")  # fmt: skip
    assert status == 1 and "Game abandoned." in out
    listing = out[out.rindex("Your moves (") :]
    head, first = listing.splitlines()[:2]
    assert "by first part; moves PREFIX lists a group" in head
    assert "sai (" in first and "draw (" in first and len(listing.split("player 0>")[0]) < 600
    assert "Moves starting with 'sai' (" in out and "sai@" in out


def test_group_key_takes_the_text_before_the_first_separator() -> None:
    texts = {"c6-b6:N": "c6", "sai@f2:W": "sai", "10:start@1": "10", "-4:t21": "-4",
             "J=7:t3+2": "J", "3*e1": "3", "up1 nani": "up1", "draw lotus,air": "draw",
             "toast": "toast"}  # fmt: skip
    assert {text: group_key(text) for text in texts} == texts


def test_a_unique_prefix_is_accepted_and_an_ambiguous_one_explained() -> None:
    status, out = run("play", "paiko", "--players", "human,random", "--seed", "2",
                      stdin="dr\ndraft s\ndraft sa\nquit\n")  # fmt: skip
    assert status == 1
    assert "'dr' could be any of 8 moves; type more of it:" in out
    assert "'draft s' could be any of 2 moves" in out and "draft sai  draft sword" in out
    assert "  = draft sai" in out
    assert "Draft, tile 2 of 17" in out  # the move was played


def test_an_illegal_action_is_refused_with_the_way_on() -> None:
    status, out = run("play", "tactiki", "--players", "human,random", "--seed", "1",
                      stdin="a1-a2\nnonsense\nquit\n")  # fmt: skip
    assert status == 1
    assert "Not accepted: 'a1-a2' is not legal now." in out
    assert "Not accepted: 'nonsense' is not an action" in out
    assert "moves to list them, help for more" in out


# The commands.


def test_help_board_log_moves_and_hint() -> None:
    status, out = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                      stdin="help\nboard\nlog\nmoves up2\nmoves zz\nhint\nquit\n")  # fmt: skip
    assert status == 1
    parts = out.split("player 0> ")
    helped, board, log, moves, nothing, hint = parts[1:7]
    assert "Tiki Topple: 2–4 players play action cards" in helped  # the rules in short
    assert "up1 nani" in helped and "``" not in helped  # the notation, as plain text
    assert "Full rules: https://" in helped and "undo" in helped and "hint" in helped
    assert "Your secret tiki card" in board and "Your moves (" in board
    assert re.search(r"1\. chance: line \w+", log) and "chance: secret " in log
    assert "Moves starting with 'up2' (" in moves and "up1" not in moves.split("\n", 1)[1]
    assert "No legal move starts with 'zz'." in nothing
    assert re.match(r"Hint \(IS-MCTS, 1000 iterations, [\d.]+ s\): (up\d \w+|topple \w+|toast)",
                    hint)  # fmt: skip


def test_undo_goes_back_to_the_humans_previous_decision() -> None:
    status, out = run("play", "paiko", "--players", "human,random", "--seed", "2",
                      stdin="undo\ndraft sai\ndraft sword\nundo\nmoves\nquit\n")  # fmt: skip
    assert status == 1
    assert "Nothing to undo: this is your first decision." in out
    after = out.split("Back to your previous decision.")[1]
    # Back before the second draft: White's hand holds the Sai only, and no Sword yet.
    assert re.search(r"hand: +sai\n", after.split("Your moves")[0])


def test_undo_is_refused_in_hot_seat() -> None:
    status, out = run("play", "tiki_topple", "--players", "human,human", "--seed", "1",
                      stdin="\nundo\nquit\n")  # fmt: skip
    assert status == 1 and "No undo in hot seat" in out


def test_a_table_of_bots_replays_tikigames_play() -> None:
    """The terminal's loop draws from the seed's rng in the order tikigames.play does."""
    for name in ("tiki_topple", "tactiki"):
        game = tikigames.load(name)
        table = Table(game, ["random", "random"], {"random": RandomBot()}, io.StringIO(),
                      io.StringIO(), seed=11)  # fmt: skip
        assert table.play() == tikigames.play(game, [RandomBot(), RandomBot()], seed=11)


# Readable output.


def test_one_game_over_line_with_the_result_in_words() -> None:
    status, out = run("play", "tactiki", "--players", "random,random", "--seed", "3")
    assert status == 0 and out.count("Game over") == 1
    words = r"(a draw \(two passes in a row\)|(TIKI|TAC) \(player \d\) wins with a statue)"
    assert re.search(rf"\nGame over: {words}\. Returns: player 0 [+-]\d, player 1 [+-]\d\n", out)


def test_colour_on_a_terminal_only_and_never_with_no_color(monkeypatch: Any) -> None:
    args = ("play", "tiki_topple", "--players", "human,random", "--seed", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert "\x1b[" in run(*args, stdin="board\nquit\n", stdout=TTY())[1]
    assert "\x1b" not in run(*args, stdin="board\nquit\n")[1]  # not a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in run(*args, stdin="board\nquit\n", stdout=TTY())[1]


class SlowBot:
    """Thinks for 0.3 s over its first two moves, then plays at once."""

    def __init__(self) -> None:
        self.slow = 2

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        if self.slow:
            self.slow -= 1
            time.sleep(0.3)
        return obs.legal_actions()[0]


def test_a_thinking_line_while_a_bot_searches(monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    game = tikigames.load("tiki_topple", rounds=1)
    out = TTY()
    Table(game, ["slow", "slow"], {"slow": SlowBot()}, io.StringIO(), out, seed=1,
          thinking_after=0.05).play()  # fmt: skip
    text = out.getvalue()
    assert re.search(r"\rplayer [01] \(slow\) thinking… 0\.\d s", text)
    assert "\x1b" not in text  # redrawn with \r and blanked with spaces: no escape code
    quiet = io.StringIO()
    Table(game, ["slow", "slow"], {"slow": SlowBot()}, io.StringIO(), quiet, seed=1,
          thinking_after=0.05).play()  # fmt: skip
    assert "thinking" not in quiet.getvalue() and "\r" not in quiet.getvalue()


def test_renders_say_who_won_a_battle_and_a_tie_and_number_the_track() -> None:
    state = tikigames.load("tactiki").new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_unchecked(state.random_action(rng))
    battle = r"Last battle: \S+ revealed [\d ]+ — the attacking \d (beat|lost|tied)"
    assert re.search(battle, str(state.observation(0)))
    tactik = tikigames.load("tactik").new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        tactik.apply_unchecked(tactik.random_action(rng))
    text = str(tactik.observation(1))
    assert " 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15" in text
    assert re.search(r"\[.\].*   [a-zA-Z] t\d+", text)  # a row's pawns named by their square
    game = tikigames.load("tiki_topple", tiebreak_rounds=0)
    for seed in range(200):
        final = tikigames.play(game, [RandomBot(), RandomBot()], seed=seed)
        if final.returns()[0] == final.returns()[1]:
            break
    shown = str(final.observation(0))
    assert "A tie: players 0 and 1 share the win" in shown and "Winner" not in shown
    assert re.search(r"Round \d+ scored \(secret cards revealed\):\n  player 0 #\d+ ", shown)
    assert re.search(r"\n  player 1 #\d+ \w+ / \w+ / \w+: \d+ points\n", shown)


# The other commands.


def test_version_and_a_plain_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"tikigames {tikigames.__version__} (")
    assert f"tikigames.compiled = {tikigames.compiled}" in line
    for argv in (["--help"], ["play", "--help"], ["arena", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = capsys.readouterr().out
        assert "``" not in text and ":class:" not in text and ":func:" not in text
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "run a tournament of bots." in text  # the first sentence whole
    assert "tikigames play tiki_topple" in text  # the examples


def test_arena_progress_from_the_start() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["arena", "tiki_topple", "--players", "random,random", "--games", "3",
                   "--seed", "1", "--workers", "2"], stdout=out, stderr=err)  # fmt: skip
    assert status == 0
    lines = err.getvalue().splitlines()
    assert re.match(r"\[\.+\] 0/3 games, 2 playing, 0 s elapsed, ETA after a game$", lines[0])
    assert re.match(r"\[#+\.*\] 1/3 games, 2 playing, \d+ s elapsed, ~\d+ s left$", lines[1])
    assert lines[-1].startswith("[" + "#" * 30 + "] 3/3 games, 0 playing")


def test_arena_bar_is_redrawn_in_place_on_a_terminal() -> None:
    err = TTY()
    status = main(["arena", "tiki_topple", "--players", "random,random", "--games", "2",
                   "--seed", "1"], stdout=io.StringIO(), stderr=err)  # fmt: skip
    assert status == 0
    text = err.getvalue()
    assert text.startswith("\r[") and "0/2 games, 1 playing" in text
    assert text.endswith("2/2 games, 0 playing, 0 s elapsed, ~0 s left\n")


def test_bench_says_which_game_it_measures_on_a_terminal() -> None:
    out = TTY()
    status = main(["bench", "tactik", "--seconds", "0.01", "--rounds", "1"], stdout=out,
                  stderr=io.StringIO())  # fmt: skip
    assert status == 0
    text = out.getvalue()
    assert "\r  measuring tactik… 0 s" in text
    line = re.search(r"\r +\rtactik +\d", text)  # its line, once the status line was blanked
    assert line is not None and text.index("measuring tactik") < line.start()

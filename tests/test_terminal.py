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
from tikigames.core.errors import ActionError
from tikigames.core.observation import Observation
from tikigames.core.play import decisions, next_turn
from tikigames.terminal import (
    CAP,
    CLEAR,
    Table,
    group_key,
    kinds_of,
    notation_text,
    rules_text,
    summarise,
)

SRC = Path(__file__).resolve().parent.parent / "src"
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
#: Colours, cursor moves, bracketed paste and other escapes that readline and the table write.
ESCAPE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[=>])")
UP = b"\x1b[A"


class TTY(io.StringIO):
    """A captured stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(*argv: str, stdin: str = "", stdout: io.StringIO | None = None) -> tuple[int, str]:
    out = stdout if stdout is not None else io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


def first_move(text: str) -> bytes:
    """The first move listed under the last ``Your moves`` heading of ``text`` (after the kinds
    of move, ``  - …`` lines, where the heading has them on lines of their own)."""
    lines = text[text.rindex("Your moves") :].splitlines()[1:]
    listed = next(line for line in lines if not line.startswith("  - "))
    return listed.strip().split("  ")[0].encode()


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
                os.write(master, first_move(text) + b"\n")
        process.wait(10)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
    text = COLOUR.sub("", received.decode(errors="replace"))
    assert process.returncode == 0, text[-2000:]
    assert re.search(r"\nResult: [^\n]+\.\r\n$", text) and "Returns" not in text
    segments = text.split(CLEAR)
    secrets: dict[int, set[str]] = {0: set(), 1: set()}
    turns: list[tuple[int, str]] = []
    for index, segment in enumerate(segments[1:], 1):
        mine = re.search(r"you are player (\d)", segment)
        if mine is None or "Result: " in segment:
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
    assert re.search(r"\d+\. player 1: \S", turns[2][1])


# Move entry.


def first_decision(name: str, seed: int, **options: Any) -> Any:
    """The state at the first decision of ``play NAME --seed SEED`` (seat 0's, with the seed's
    chance outcomes), as the table shows it to the human in seat 0."""
    state = tikigames.load(name, **options).new_initial_state()
    turn = next_turn(decisions(state, random.Random(seed)))
    assert turn is not None and turn.player == 0
    return state


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
    assert status == 0 and "Game abandoned." in out  # a quit is no error
    listing = out[out.rindex("Your moves (") :]
    head, *rest = listing.split("player 0>")[0].splitlines()
    moves = [line for line in rest if not line.startswith("  - ")]  # not the kinds of move
    assert "by first part; moves PREFIX lists a group" in head
    assert "sai (" in moves[0] and "draw (" in moves[0] and len("\n".join(moves)) < 600
    assert "Moves starting with 'sai' (" in out and "sai@" in out


def test_group_key_takes_the_text_before_the_first_separator() -> None:
    texts = {"c6-b6:N": "c6", "sai@f2:W": "sai", "10:start@1": "10", "-4:t21": "-4",
             "J=7:t3+2": "J", "3*e1": "3", "up1 nani": "up1", "draw lotus,air": "draw",
             "toast": "toast"}  # fmt: skip
    assert {text: group_key(text) for text in texts} == texts


def test_a_unique_prefix_is_completed_then_played_on_enter() -> None:
    status, out = run("play", "paiko", "--players", "human,random", "--seed", "2",
                      stdin="dr\ndraft s\ndraft sa\n\nquit\n")  # fmt: skip
    assert status == 0
    assert "'dr' could be any of 8 moves; type more of it:" in out
    assert "'draft s' could be any of 2 moves" in out and "draft sai  draft sword" in out
    proposed, played = out.split("draft sa → draft sai — press Enter to play it, or type another")
    assert "Draft, tile 2 of 17" not in proposed and "Draft, tile 2 of 17" in played


def test_a_completed_prefix_is_not_played_when_another_line_follows() -> None:
    status, out = run("play", "paiko", "--players", "human,random", "--seed", "2",
                      stdin="draft sa\nmoves\n\ndraft sw\n\nquit\n")  # fmt: skip
    assert status == 0
    assert "draft sa → draft sai" in out and "draft sw → draft sword" in out
    before, after = out.split("draft sw → draft sword")
    assert "Draft, tile 2 of 17" not in before  # a command in between dropped the proposal
    assert "Draft, tile 2 of 17" in after and re.search(r"hand: +sword\n", after)


def test_an_illegal_action_is_refused_with_the_way_on() -> None:
    status, out = run("play", "tactiki", "--players", "human,random", "--seed", "1",
                      stdin="a1-a2\nnonsense\nquit\n")  # fmt: skip
    assert status == 0
    state = first_decision("tactiki", 1)
    why = state.illegal_reason(state.game.action_table.parse("a1-a2"))
    assert why and f"Not accepted: 'a1-a2': {why}" in out
    assert "is not legal now" not in out
    assert "Not accepted: 'nonsense' is not an action" in out
    assert "moves to list them, help for more" in out


# The commands.


def test_help_board_log_moves_and_hint() -> None:
    status, out = run("play", "tiki_topple", "--players", "human,random", "--seed", "1",
                      stdin="help\nboard\nlog\nmoves up2\nmoves zz\nhint\nquit\n")  # fmt: skip
    assert status == 0
    parts = out.split("player 0> ")
    helped, board, log, moves, nothing, hint = parts[1:7]
    assert "Tiki Topple — the rules in short:" in helped
    assert "How moves are written" in helped and "up1 " in helped
    assert "undo" in helped and "hint" in helped and "help [rules|notation]" in helped
    # For players: no reST, no action-table ids, no link to pages that are not published.
    assert "``" not in helped and "===" not in helped and "http" not in helped
    assert "ids" not in helped.split() and "action table" not in helped
    assert "Your secret tiki card" in board and "Your moves (" in board
    words = first_decision("tiki_topple", 1).observation(0).history_in_words()
    assert words and all(f"{i + 1:4}. chance: {w}\n" in log for i, w in enumerate(words))
    assert "Moves starting with 'up2' (" in moves and "up1" not in moves.split("\n", 1)[1]
    assert "No legal move starts with 'zz'." in nothing
    # A second of search (the game's think_seconds), as a bot facing a person thinks.
    assert re.match(r"Hint \(IS-MCTS, [\d.]+ s\): (up\d \w+|topple \w+|toast)", hint)


def test_undo_goes_back_to_the_humans_previous_decision() -> None:
    status, out = run("play", "paiko", "--players", "human,random", "--seed", "2",
                      stdin="undo\ndraft sai\ndraft sword\nundo\nmoves\nquit\n")  # fmt: skip
    assert status == 0
    assert "Nothing to undo: this is your first decision." in out
    after = out.split("Back to your previous decision.")[1]
    # Back before the second draft: White's hand holds the Sai only, and no Sword yet.
    assert re.search(r"hand: +sai\n", after.split("Your moves")[0])


def test_undo_is_refused_in_hot_seat() -> None:
    status, out = run("play", "tiki_topple", "--players", "human,human", "--seed", "1",
                      stdin="\nundo\nquit\n")  # fmt: skip
    assert status == 0 and "No undo in hot seat" in out


def test_a_table_of_bots_replays_tikigames_play() -> None:
    """The terminal's loop draws from the seed's rng in the order tikigames.play does."""
    for name in ("tiki_topple", "tactiki"):
        game = tikigames.load(name)
        table = Table(game, ["random", "random"], {"random": RandomBot()}, io.StringIO(),
                      io.StringIO(), seed=11)  # fmt: skip
        assert table.play() == tikigames.play(game, [RandomBot(), RandomBot()], seed=11)


# Readable output.


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_the_game_ends_with_the_result_in_words_and_no_returns(name: str) -> None:
    """One last line, the game's own words for its result (``result_text``): no "Returns",
    a reinforcement-learning word, for people."""
    seats = tikigames.load(name).num_players
    status, out = run("play", name, "--players", ",".join(["random"] * seats), "--seed", "3")
    final = tikigames.play(tikigames.load(name), [RandomBot()] * seats, seed=3)
    words = final.result_text()
    assert status == 0 and words
    assert out.endswith(f"\nResult: {words}{'' if words.endswith('.') else '.'}\n")
    assert "Returns" not in out and out.count("Result: ") == 1


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
    assert "record self-play data, serve games to browsers." in " ".join(text.split())  # whole
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


# Playing and learning as a person: refusals that say why, help in a player's words, what
# happened told in words, a hot seat that keeps each player's typing to themselves.

# Refusals in words.

#: Per game, texts refused at seat 0's first decision with seed 1 (the issue's examples).
REFUSED = {
    "tiki_topple": ["toast"],
    "tactiki": ["e5-e4", "pass", "5*e1"],
    "tactik": ["12:t0", "discard 7"],
    "paiko": ["sword@h10:N", "sword@d5:E"],
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_refusal_says_why_in_the_games_words(name: str) -> None:
    """A move of the game that is not legal now is refused with ``state.illegal_reason``; text
    that is no move at all with what the game's parser found wrong with it."""
    texts = REFUSED[name]
    status, out = run("play", name, "--seed", "1", stdin="\n".join([*texts, "quit"]) + "\n")
    assert status == 0, out
    assert "is not legal now" not in out
    state = first_decision(name, 1)
    for text in texts:
        try:
            action = state.game.action_table.parse(text)
        except ActionError as error:
            expected = f"Not accepted: {error}"
        else:
            reason = state.illegal_reason(action)
            assert reason, text
            expected = f"Not accepted: {action.text!r}: {reason}"
        assert expected in out, (text, out[-3000:])


def test_a_refusal_offers_the_closest_legal_moves() -> None:
    status, out = run("play", "tiki_topple", "--seed", "1", stdin="up1 wikiwkii\nquit\n")
    assert status == 0
    assert re.search(r"Closest legal moves: up1 wikiwiki(, [\w ]+)* \(moves lists them all", out)
    status, out = run("play", "tiki_topple", "--seed", "1", stdin="zzzzzz\nquit\n")
    assert "Closest legal moves" not in out and "moves to list them, help for more" in out


def test_the_heading_offers_only_the_kinds_of_move_that_are_legal(monkeypatch: Any) -> None:
    """The game's notation examples name the kinds; a turn's heading counts the legal moves
    of each, and names no kind that has none (TacTiki's setup: placing only)."""
    examples = [("place a piece", "1@a1"), ("move a piece", "a1-a2"),
                ("reincarnate a piece", "3*a1"), ("pass", "pass")]  # fmt: skip
    cls = type(tikigames.load("tactiki"))
    monkeypatch.setattr(cls, "notation_examples", lambda self: examples)
    status, out = run("play", "tactiki", "--seed", "1", stdin="quit\n")
    assert status == 0
    headings = re.findall(r"Your moves \(.*", out)
    assert headings == ["Your moves (25: place a piece (25)):"]
    game = tikigames.load("tactiki")
    assert kinds_of(game, ["a1-a2", "b2-b3", "pass"]) == [("move a piece", 2), ("pass", 1)]
    # Kinds too long for the heading go on lines of their own, before the moves.
    paiko = [("draft a tile from your reserve into your hand", "draft sai"),
             ("put a tile from your hand onto the board, facing a way", "sai@f2:W"),
             ("move a tile of yours on the board, and face it a way", "c6-b6:N")]  # fmt: skip
    monkeypatch.setattr(type(tikigames.load("paiko")), "notation_examples", lambda self: paiko)
    status, out = run("play", "paiko", "--seed", "2", stdin=DRAFTS * 6 + "quit\n")
    listing = out[out.rindex("Your moves (") :].splitlines()
    assert re.fullmatch(r"Your moves \(\d+, of \d kinds?\) — by first part; moves PREFIX lists a "
                        r"group:", listing[0])  # fmt: skip
    assert re.fullmatch(r"  - put a tile from your hand onto the board, facing a way \(\d+\)",
                        listing[1])  # fmt: skip
    assert "draft a tile" not in "\n".join(listing)  # the draft is over


# Help for players.


def test_help_prints_the_rules_the_notation_and_the_commands(monkeypatch: Any) -> None:
    cls = type(tikigames.load("tiki_topple"))
    monkeypatch.setattr(cls, "rules_summary", "Push your tikis up.\n\n- up1: one place up")
    examples = [("push a tiki up 1", "up1 nani"), ("toast", "toast")]
    monkeypatch.setattr(cls, "notation_examples", lambda self: examples)
    status, out = run("play", "tiki_topple", "--seed", "1",
                      stdin="help\nhelp rules\nhelp notation\nhelp me\nquit\n")  # fmt: skip
    assert status == 0
    helped, rules, notation, wrong = out.split("player 0> ")[1:5]
    assert "Push your tikis up." in helped and "  - up1: one place up" in helped
    assert "  up1 nani  push a tiki up 1" in helped and "  toast     toast" in helped
    assert "quit" in helped and "http" not in helped and "pydoc" not in helped
    assert "Push your tikis up." in rules and "up1 nani" not in rules and "quit" not in rules
    assert "push a tiki up 1" in notation and "Push your" not in notation
    assert "help takes rules, notation or nothing" in wrong


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_help_falls_back_gracefully_while_a_game_has_no_texts(name: str) -> None:
    game = tikigames.load(name)
    rules = rules_text(game)
    assert rules[0] == f"{game.title} — the rules in short:" and len(rules) > 1
    if not type(game).rules_summary:
        assert rules[-1] == f"  More: python -m pydoc tikigames.{name}"
    legal = [str(a) for a in first_decision(name, 1).legal_actions()]
    notation = "\n".join(notation_text(game, legal))
    examples = game.notation_examples() or [("", legal[0])]  # the game's, else the moves at hand
    assert all(example in notation for _, example in examples)
    for text in (*rules, notation):
        assert "``" not in text and ":class:" not in text and "http" not in text


# What happened, in words.


def test_the_log_and_the_bots_moves_are_told_in_the_games_words(monkeypatch: Any) -> None:
    """``history_in_words`` is what the terminal tells: the bots' moves as they happen, and
    ``log``."""
    cls = type(tikigames.load("tiki_topple").new_initial_state().observation(0))
    original = cls.history_in_words
    monkeypatch.setattr(cls, "history_in_words",
                        lambda self: tuple(f"<{w}>" for w in original(self)))  # fmt: skip
    move = str(first_decision("tiki_topple", 1).legal_actions()[0])
    status, out = run("play", "tiki_topple", "--seed", "1", stdin=f"{move}\nlog\nquit\n")
    assert status == 0
    assert re.search(r"player 1 \(random\): <(up\d|topple|toast)[^>]*>\n", out), out[-2000:]
    log = out.split("player 0> ")[-2]
    assert re.search(r"   1\. chance: <line ", log) and re.search(r"\d\. player 0 \(you\): <", log)


# Hot seat: nothing typed by one player is reachable by the next.


class Terminal:
    """A child process on a pseudo-terminal, driven as a person would: read what it shows,
    type keys."""

    def __init__(self, *argv: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(SRC), "TERM": "xterm", "NO_COLOR": "1"}
        env.pop("INPUTRC", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tikigames.cli", *argv],
            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        self.raw = b""

    @property
    def text(self) -> str:
        return ESCAPE.sub("", self.raw.decode(errors="replace"))

    def read(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.raw += chunk

    def expect(self, pattern: str, after: int, timeout: float = 20) -> int:
        """Wait until ``pattern`` shows after character ``after`` of :attr:`text`; its end."""
        deadline = time.monotonic() + timeout
        ended = False
        while time.monotonic() < deadline and not ended:
            ended = self.process.poll() is not None  # then one last look at all it wrote
            self.read(0.2 if ended else 0.1)
            found = re.compile(pattern).search(self.text, after)
            if found:
                return found.end()
        raise AssertionError(f"no {pattern!r} in {self.text[after:][-1500:]!r}")

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        os.close(self.master)


def test_hot_seat_keeps_each_players_typing_to_themselves() -> None:
    """Player 0 types a secret (refused), a ``moves`` query and a move; at player 1's hand-over
    and turn, Up recalls none of it and the screen never shows it; player 1's own line is
    recalled, and so are player 0's at their next turn."""
    secret = b"my secret is zanzibar42"
    term = Terminal("play", "tiki_topple", "--players", "human,human", "--seed", "5")
    try:
        at = term.expect(r"press Enter when only you can see the screen\. $", 0)
        term.type(b"\n")
        at = term.expect(r"player 0> $", at)
        for line in (secret, b"moves topple"):
            term.type(line + b"\n")
            at = term.expect(r"player 0> $", at)
        term.type(first_move(term.text) + b"\n")
        # Player 1's hand-over: Up there recalls nothing, and Enter goes on.
        at = term.expect(r"Player 1: press Enter when only you can see the screen\. $", at)
        handover = term.text.rindex("Player 1's turn.", 0, at)
        term.type(UP + UP)
        term.read(0.5)
        term.type(b"\n")
        at = term.expect(r"player 1> $", at)
        term.type(b"moves up1\n")  # player 1's own line
        at = term.expect(r"player 1> $", at)
        term.type(UP)
        term.expect(r"moves up1$", at)  # Up works, and recalls player 1's line
        term.type(UP + UP + UP)  # and nothing older
        term.read(0.5)
        seen = term.text[handover:]
        assert "zanzibar" not in seen and "moves topple" not in seen
        term.type(b"\x15" + first_move(term.text) + b"\n")  # Ctrl-U: the line emptied
        at = term.expect(r"Player 0: press Enter when only you can see the screen\. $", at)
        term.type(b"\n")
        at = term.expect(r"player 0> $", at)
        term.type(UP + UP)  # player 0's lines are theirs again: their move, then the query
        term.expect(r"moves topple$", at)
        term.type(b"\x15quit\n")
        term.expect(r"Game abandoned\.", at)
        assert term.process.wait(30) == 0  # a quit is no error
    finally:
        term.close()


def test_a_unique_start_is_completed_and_played_on_enter_at_a_terminal() -> None:
    term = Terminal("play", "paiko", "--seed", "2")
    try:
        at = term.expect(r"player 0> $", 0)
        term.type(b"draft sa\n")
        at = term.expect(r"draft sa → draft sai — press Enter to play it, or type another move"
                         r"\r\nplayer 0> $", at)  # fmt: skip
        term.type(b"\n")
        at = term.expect(r"Draft, tile 2 of 17", at)
        term.expect(r"player 0> $", at)
        term.type(b"quit\n")
        assert term.process.wait(10) == 0
    finally:
        term.close()

"""Playing in the terminal: the table that seats humans and bots, the human's move entry and
commands, the hot-seat hand-over, colour and the "thinking…" line (``tikigames play``).

A human is shown only what their observation says (``str(obs)``, ``obs.history``, its legal
actions); the full state is printed once, when the game is over. In hot seat (several humans
at one screen) the screen *and* the scrollback are cleared before each human's turn, the
next player is named and presses Enter, then sees what happened since their last turn as they
saw it.

Move entry scales with the number of legal actions: no more than :data:`CAP` of them are
printed; more are grouped by the text before their first separator (``c6-b6:N`` under ``c6``,
``sai@f2:W`` under ``sai``, ``10:start@1`` under ``10``), and ``moves PREFIX`` lists a group. A
unique prefix of a legal action is accepted, and ``readline`` (where Python has it) completes
actions and commands with Tab.

Colour is plain ANSI, used when the output is a terminal and ``NO_COLOR`` is not set: a few
escapes need no dependency, and the core keeps its two.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import os
import random
import re
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from tikigames.bots import ISMCTSBot
from tikigames.core.action import Action
from tikigames.core.bot import Bot
from tikigames.core.constants import CHANCE
from tikigames.core.errors import ActionError
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.state import State

try:
    import readline
except ImportError:  # not on every platform (Windows): then no line editing or Tab completion
    readline = None  # type: ignore[assignment]

__all__ = [
    "CAP",
    "CLEAR",
    "COMMANDS",
    "Abandoned",
    "Style",
    "Table",
    "Ticker",
    "group_key",
    "plain",
    "result_in_words",
    "summarise",
    "wants_colour",
]

#: The most legal actions printed at once; more are shown as groups.
CAP = 40

#: Home, clear the screen, clear the scrollback (``ESC[3J``): the hand-over in hot seat, so that
#: the next player cannot scroll back to the previous one's secrets.
CLEAR = "\033[H\033[2J\033[3J"

#: What a human may type besides an action, with what it does (``help`` prints this).
COMMANDS: dict[str, str] = {
    "help": "the rules in short, the notation and these commands",
    "moves [PREFIX]": "list every legal move, or those that start with PREFIX",
    "board": "show your view of the game again",
    "log": "every move so far, as you saw it",
    "hint": "ask a short search (IS-MCTS) for a move",
    "undo": "against bots: go back to your previous decision (not in hot seat)",
    "quit": "abandon the game",
}

#: The characters that end an action's first part, its group (``c6-b6:N``: ``c6``).
_SEPARATORS = frozenset(" -@:*~>=+,")

#: How long a bot may think before the "thinking…" line appears, and how often it is redrawn.
THINKING_AFTER = 0.3
_REDRAW = 0.1


class Abandoned(Exception):
    """A human quit, or their input ran out."""


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)
    or the terminal is ``dumb``."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Style:
    """ANSI styles, or nothing: ``Style(False).bold("x") == "x"``.

    >>> Style(True).bold("Game over")
    '\\x1b[1mGame over\\x1b[0m'
    >>> Style(False).error("no")
    'no'
    """

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def _wrap(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.colour else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def error(self, text: str) -> str:
        return self._wrap("31", text)

    def move(self, text: str) -> str:
        return self._wrap("36", text)

    def heading(self, text: str) -> str:
        return self._wrap("1;33", text)


def plain(text: str) -> str:
    """reST markup made plain text: roles (``:class:`~a.B``` → ``B``), literals, the ``::`` of a
    literal block.

    >>> plain("see :class:`~tikigames.bots.MCTSBot` and ``up1 nani``::")
    'see MCTSBot and up1 nani:'
    """

    def role(match: re.Match[str]) -> str:
        target = match.group(1)
        shown = re.match(r"(.*?)\s*<.*>$", target)
        if shown:
            return shown.group(1)
        return target.lstrip("~").rsplit(".", 1)[-1] if target.startswith("~") else target

    text = re.sub(r":[a-z:]+:`([^`]*)`", role, text)
    text = text.replace("``", "")
    return re.sub(r"::$", ":", text, flags=re.MULTILINE)


def group_key(text: str, depth: int = 1) -> str:
    """An action's text up to its ``depth``-th separator (a separator at the start, as in
    ``-4:t21``, does not count): the group it is listed under.

    >>> group_key("c6-b6:N"), group_key("sai@f2:W"), group_key("-4:t21"), group_key("stay")
    ('c6', 'sai', '-4', 'stay')
    >>> group_key("c6-b6:N", 2)
    'c6-b6'
    """
    seen = 0
    for index in range(1, len(text)):
        if text[index] in _SEPARATORS:
            seen += 1
            if seen == depth:
                return text[:index]
    return text


def _groups(texts: Sequence[str], depth: int) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for text in texts:
        groups.setdefault(group_key(text, depth), []).append(text)
    return groups


def _wrap(items: Sequence[str], width: int, indent: str = "  ", sep: str = "  ") -> list[str]:
    """``items`` joined by ``sep`` and wrapped, never inside an item (``up1 nani``)."""
    text = sep.join(item.replace(" ", "\xa0") for item in items)
    lines = textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent)
    return [line.replace("\xa0", " ") for line in lines]


def _group_lines(groups: Sequence[Sequence[str]], width: int) -> list[str]:
    """Groups of actions on lines: two spaces between actions, `` · `` between groups."""
    text = " · ".join("  ".join(item.replace(" ", "\xa0") for item in group) for group in groups)
    lines = textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="  ")
    return [line.replace("\xa0", " ") for line in lines]


def summarise(texts: Sequence[str], width: int = 100, cap: int = CAP) -> list[str]:
    """The lines that show the actions ``texts``: all of them, a group per run of the same first
    part, when there are at most ``cap``; else their groups with counts, at the shallowest
    depth with at most ``cap`` groups (one level deeper where a single group holds them all).

    >>> summarise(["a1-b1", "a1-a2", "b1-c1"])
    ['  a1-b1  a1-a2 · b1-c1']
    >>> for line in summarise([f"x{i}:{d}" for i in range(12) for d in "NESW"], width=50):
    ...     print(line)
      x0 (4)  x1 (4)  x2 (4)  x3 (4)  x4 (4)  x5 (4)
      x6 (4)  x7 (4)  x8 (4)  x9 (4)  x10 (4)  x11 (4)
    """
    if len(texts) <= cap:
        return _group_lines(list(_groups(texts, 1).values()), width)
    depth = 1
    groups = _groups(texts, depth)
    while len(groups) == 1 and depth < 8:  # one group holds them all: split it further
        depth += 1
        groups = _groups(texts, depth)
    shown = list(groups.items())
    lines = _wrap(
        [f"{key} ({len(group)})" if len(group) > 1 else group[0] for key, group in shown[:cap]],
        width,
    )
    if len(shown) > cap:
        lines.append(f"  … and {len(shown) - cap} more groups")
    return lines


def result_in_words(returns: Sequence[float]) -> str:
    """``player 0 wins``, ``players 0 and 2 win``, ``a draw``: the seats with the best return.

    >>> result_in_words([1.0, -1.0]), result_in_words([1, -1, 1, -1]), result_in_words([0, 0])
    ('player 0 wins', 'players 0 and 2 win', 'a draw')
    """
    best = max(returns)
    if all(value == best for value in returns):
        return "a draw"
    top = [seat for seat, value in enumerate(returns) if value == best]
    if len(top) == 1:
        return f"player {top[0]} wins"
    return f"players {', '.join(map(str, top[:-1]))} and {top[-1]} win"


def _first_paragraph(doc: str | None) -> str:
    if not doc:
        return ""
    paragraph = doc.strip().split("\n\n")[0]
    sentences = [s for s in re.split(r"(?<=\.)\s+", paragraph) if "Registered as" not in s]
    return plain(" ".join(" ".join(sentences).split()))


def _game_help(game: Game[Any, Any, Any]) -> list[str]:
    """The rules in short and the notation, from the game's own package: its docstring, and the
    docstring of its action table's module (every game package has ``actions``)."""
    package = type(game).__module__.rpartition(".")[0]
    rules = _first_paragraph(getattr(sys.modules.get(package), "__doc__", None))
    lines = [f"{game.title}: {rules}" if rules else game.title]
    actions = getattr(sys.modules.get(package + ".actions"), "__doc__", None)
    if actions:
        notation = [plain(line) for line in actions.strip().splitlines()[1:]]
        kept = [line for line in notation if not set(line.strip()) <= {"="} or not line.strip()]
        lines += ["", "The notation (the action table: ids, kind, text):", *kept]
    lines.append(f"Full rules: https://tikigames.readthedocs.io/en/latest/games/{game.name}.html")
    return lines


class Ticker:
    """A status line redrawn in place on a terminal, from a second thread that only writes
    (``render(elapsed)`` gives its text), blanked out at the end; nothing where ``live`` is
    false (not a terminal). The bot's "thinking…" line and the progress of ``bench`` and
    ``arena``. It uses no escape code, only ``\\r`` and spaces.
    """

    def __init__(
        self,
        stream: TextIO,
        render: Callable[[float], str],
        live: bool,
        after: float = 0.0,
        every: float = _REDRAW,
    ) -> None:
        self.stream = stream
        self.render = render
        self.live = live
        self.after = after
        self.every = every
        self.start = time.perf_counter()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.drawn = 0  # the longest line drawn, to be blanked out
        self.thread: threading.Thread | None = None

    def __enter__(self) -> Ticker:
        if self.live:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
        return self

    def _run(self) -> None:
        if self.stop.wait(self.after):
            return
        while True:
            self.draw()
            if self.stop.wait(self.every):
                return

    def draw(self) -> None:
        """Redraw the line now (also from the main thread, when what it shows has changed)."""
        if not self.live:
            return
        with self.lock:
            line = self.render(self.elapsed)
            self.stream.write("\r" + line.ljust(self.drawn))
            self.stream.flush()
            self.drawn = max(self.drawn, len(line))

    def clear(self) -> None:
        """Blank the line out (before something else is printed)."""
        with self.lock:
            if self.drawn:
                self.stream.write("\r" + " " * self.drawn + "\r")
                self.stream.flush()
                self.drawn = 0

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()
        self.clear()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def _thinking(stream: TextIO, label: str, live: bool, after: float) -> Ticker:
    return Ticker(stream, lambda elapsed: f"{label} thinking… {elapsed:.1f} s", live, after)


class _Undo(Exception):
    """The human asked to go back to their previous decision."""


class Table:
    """One game at the terminal: humans (``"human"`` in ``kinds``) and bots, played to the end.

    The loop draws from one ``random.Random(seed)`` exactly as :func:`tikigames.play` does
    (chance outcomes and bots' draws, in turn order), so a game without ``undo`` replays the
    same from the same seed. ``on_action(state)`` is told of every action once applied.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        kinds: Sequence[str],
        bots: Mapping[str, Bot],
        stdin: TextIO,
        stdout: TextIO,
        *,
        seed: int | None = None,
        verbose: bool = False,
        colour: bool | None = None,
        on_action: Callable[[State[Any, Any, Any]], None] | None = None,
        thinking_after: float = THINKING_AFTER,
        hint_iterations: int = 1000,
    ) -> None:
        self.game = game
        self.kinds = list(kinds)
        self.bots = dict(bots)
        self.stdin = stdin
        self.out = stdout
        self.seed = seed
        self.verbose = verbose
        self.style = Style(wants_colour(stdout) if colour is None else colour)
        self.on_action = on_action
        self.thinking_after = thinking_after
        self.hint_iterations = hint_iterations
        self.humans = [seat for seat, kind in enumerate(self.kinds) if kind == "human"]
        self.hot_seat = len(self.humans) > 1
        # A lone human sees the bots' moves as they saw them; otherwise a spectator's view.
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.interactive = (
            readline is not None and stdin is sys.stdin and stdout is sys.stdout and stdin.isatty()
        )
        isatty = getattr(stdout, "isatty", None)
        self.live = bool(isatty and isatty())  # the thinking line is redrawn on terminals only
        self.state: State[Any, Any, Any] = game.new_initial_state()
        self.actors: list[int] = []  # who took each action of the history (public)
        self.seen_until = {seat: 0 for seat in self.humans}  # history length at their last move
        self.interludes: dict[int, list[str]] = {seat: [] for seat in self.humans}
        self.seated: int | None = None
        self.decisions: list[tuple[State[Any, Any, Any], list[int]]] = []
        self.legal_texts: list[str] = []
        self.thought = 0.0  # the last bot's thinking time

    # The loop.

    def play(self) -> State[Any, Any, Any]:
        """Play to the end and return the final state; :class:`Abandoned` if a human quits."""
        rng = random.Random(self.seed)
        if self.interactive:
            readline.set_completer(self._complete)
            readline.set_completer_delims("")
            readline.parse_and_bind("tab: complete")
        state = self.state
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:
                action = state.sample_chance(rng)
                state.apply_unchecked(action)
            elif self.kinds[player] == "human":
                try:
                    action = self._human(player)
                except _Undo:
                    state = self.state
                    continue
                state.apply_action(action)
                self.seen_until[player] = len(self.actors) + 1
            else:
                action = self._bot(player, rng)
                state.apply_action(action)
            self.actors.append(player)
            self._after(player)
        self._game_over()
        return state

    def _after(self, player: int) -> None:
        state = self.state
        if self.on_action is not None:
            self.on_action(state)
        if player == CHANCE:
            if self.verbose and not self.hot_seat:
                print(
                    self.style.dim(f"chance: {state.seen_history(self.viewer)[-1]}"), file=self.out
                )
            return
        if self.kinds[player] != "human" and not self.hot_seat:
            seen = state.seen_history(self.viewer)[-1]
            took = f" ({self.thought:.1f} s)" if self.thought >= 1 else ""
            print(f"player {player} ({self.kinds[player]}): {self.style.move(seen)}{took}",
                  file=self.out)  # fmt: skip
        if state.is_chance_node():
            # A player's move handed over to chance: a round or a deal is over. Each human sees
            # the position as it stands before the next deal (the round's end, its points).
            for seat in self.humans:
                view = str(state.observation(seat))
                if self.hot_seat:
                    self.interludes[seat].append(view)
                else:
                    print("\n" + self.style.heading("Before the next deal:"), file=self.out)
                    print(view, file=self.out)

    def _bot(self, player: int, rng: random.Random) -> Action:
        label = f"player {player} ({self.kinds[player]})"
        bot = self.bots[self.kinds[player]]
        with _thinking(self.out, label, self.live, self.thinking_after) as clock:
            action = bot.act(self.state.observation(player), rng)
        self.thought = clock.elapsed
        return action

    def _game_over(self) -> None:
        state = self.state
        if self.hot_seat:
            self.out.write(CLEAR)
        lines = str(state).splitlines()
        ending = next((line for line in lines if line.startswith("Game over")), None)
        body = [line for line in lines if line is not ending]
        returns = state.returns()
        words = result_in_words(returns)
        if ending is not None and ending.rstrip(".") != "Game over":
            words = ending.partition(":")[2].strip() or words
        print("\n" + "\n".join(body), file=self.out)
        scores = ", ".join(f"player {seat} {value:+g}" for seat, value in enumerate(returns))
        print(self.style.bold(f"Game over: {words}.") + f" Returns: {scores}", file=self.out)

    # A human's turn.

    def _ask(self, prompt: str) -> str:
        self.out.flush()
        if self.interactive:
            try:
                line = input(prompt)
            except EOFError:
                raise Abandoned from None
        else:
            self.out.write(prompt)
            self.out.flush()
            line = self.stdin.readline()
            if line == "":
                raise Abandoned
        return " ".join(line.split())  # "up1  nani " is "up1 nani"

    def _human(self, player: int) -> Action:
        if not self.hot_seat:
            self.decisions.append((self.state.clone(), list(self.actors)))
        out = self.out
        obs = self.state.observation(player)
        if self.hot_seat and self.seated != player:
            out.write(CLEAR)
            print(self.style.heading(f"Player {player}'s turn."), file=out)
            self._ask(f"Player {player}: press Enter when only you can see the screen. ")
            out.write(CLEAR)
        if self.hot_seat:
            self._recap(obs)
        self.seated = player
        legal = obs.legal_actions()
        self.legal_texts = [str(action) for action in legal]
        print(str(obs), file=out)
        self._show_moves(self.legal_texts)
        while True:
            text = self._ask(f"player {player}> ")
            if not text:
                continue  # an empty line: just ask again
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit"):
                raise Abandoned
            if command in ("help", "?"):
                self._help(player)
            elif command == "moves":
                self._list(rest.strip())
            elif command == "board":
                print(str(obs), file=out)
                self._show_moves(self.legal_texts)
            elif command == "log":
                self._log(obs, 0)
            elif command == "hint":
                self._hint(obs)
            elif command == "undo":
                self._undo()
            else:
                action = self._resolve(obs, legal, text)
                if action is not None:
                    return action

    def _resolve(self, obs: Observation[Any], legal: list[Action], text: str) -> Action | None:
        """The legal action ``text`` names, exactly or as a unique prefix; else None, said why."""
        out = self.out
        try:
            action = obs.game.action_table.parse(text)
        except ActionError as error:
            parsed, reason = None, str(error)
        else:
            if action in legal:
                return legal[legal.index(action)]
            parsed, reason = action, f"{action.text!r} is not legal now"
        low = text.lower()
        matches = [a for a in legal if str(a).lower().startswith(low)]
        if parsed is None and len(matches) == 1:
            print(f"  = {self.style.move(str(matches[0]))}", file=out)
            return matches[0]
        if parsed is None and matches:
            print(f"{text!r} could be any of {len(matches)} moves; type more of it:", file=out)
            for line in summarise([str(a) for a in matches]):
                print(line, file=out)
            return None
        print(self.style.error(f"Not accepted: {reason}."), file=out)
        print(
            "Type a legal move (or the start of one), moves to list them, help for more.", file=out
        )
        return None

    def _show_moves(self, texts: Sequence[str]) -> None:
        many = len(texts) > CAP
        head = f"Your moves ({len(texts)}):"
        if many:
            head = f"Your moves ({len(texts)}, by first part; moves PREFIX lists a group):"
        print(self.style.heading(head), file=self.out)
        for line in summarise(texts):
            print(line, file=self.out)

    def _list(self, prefix: str) -> None:
        if not prefix:
            for group in _groups(self.legal_texts, 1).values():
                for line in _wrap(group, 100):
                    print(line, file=self.out)
            return
        chosen = [t for t in self.legal_texts if t.lower().startswith(prefix.lower())]
        if not chosen:
            print(self.style.error(f"No legal move starts with {prefix!r}."), file=self.out)
            return
        print(self.style.heading(f"Moves starting with {prefix!r} ({len(chosen)}):"), file=self.out)
        for line in summarise(chosen):
            print(line, file=self.out)

    def _help(self, player: int) -> None:
        print("\n".join(_game_help(self.game)), file=self.out)
        print(self.style.heading("\nCommands (anything else is read as a move):"), file=self.out)
        for name, doc in COMMANDS.items():
            print(f"  {name:15} {doc}", file=self.out)
        print(
            "A move may be typed in full or as any start of it that only one legal move has"
            + (" (Tab completes)." if self.interactive else "."),
            file=self.out,
        )

    def _log(self, obs: Observation[Any], start: int) -> None:
        for index in range(start, len(obs.history)):
            actor = self.actors[index]
            who = "chance" if actor == CHANCE else f"player {actor}"
            you = " (you)" if actor == obs.player else ""
            print(f"  {index + 1:4}. {who}{you}: {obs.history[index]}", file=self.out)

    def _recap(self, obs: Observation[Any]) -> None:
        """Hot seat: what happened since this player's last move, as they saw it."""
        player = obs.player
        assert player is not None
        start = self.seen_until[player]
        if start < len(obs.history):
            print(self.style.heading("Since your last turn:"), file=self.out)
            self._log(obs, start)
        for view in self.interludes[player]:
            print(self.style.heading("Before the next deal, you saw:"), file=self.out)
            print(view, file=self.out)
        if start < len(obs.history) or self.interludes[player]:
            print(file=self.out)
        self.interludes[player] = []
        self.seen_until[player] = len(obs.history)

    def _hint(self, obs: Observation[Any]) -> None:
        bot = ISMCTSBot(iterations=self.hint_iterations)
        rng = random.Random(len(obs.history))  # its own: the game's draws stay as they were
        with _thinking(self.out, "hint: IS-MCTS", self.live, self.thinking_after) as clock:
            action = bot.act(obs, rng)
        print(
            f"Hint (IS-MCTS, {self.hint_iterations} iterations, {clock.elapsed:.1f} s): "
            + self.style.move(str(action)),
            file=self.out,
        )

    def _undo(self) -> None:
        if self.hot_seat:
            print(self.style.error("No undo in hot seat: the others have seen the move."),
                  file=self.out)  # fmt: skip
            return
        if len(self.decisions) < 2:
            print(self.style.error("Nothing to undo: this is your first decision."), file=self.out)
            return
        self.decisions.pop()  # this decision
        state, actors = self.decisions.pop()  # the previous one, asked again by the loop
        self.state = state
        self.actors = actors
        print(self.style.heading("Back to your previous decision."), file=self.out)
        raise _Undo

    def _complete(self, text: str, index: int) -> str | None:
        words = [*self.legal_texts, *(name.split()[0] for name in COMMANDS)]
        matches = [word for word in words if word.lower().startswith(text.lower())]
        return matches[index] if index < len(matches) else None

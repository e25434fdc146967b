"""Playing in the terminal: the table that seats humans and bots, the human's move entry and
commands, the hot-seat hand-over, colour and the "thinking…" line (``tikigames play``).

A human is shown only what their observation says (``str(obs)``, its history in words, its
legal actions); the full state is printed once, when the game is over. In hot seat (several
humans at one screen) the screen *and* the scrollback are cleared before each human's turn,
each seat has a line-editing history of its own (nothing one player typed can be recalled by
the next with the Up key), the next player is named and presses Enter, then reads what
happened since their last turn as they saw it.

Move entry scales with the number of legal actions: no more than :data:`CAP` of them are
printed; more are grouped by the text before their first separator (``c6-b6:N`` under ``c6``,
``sai@f2:W`` under ``sai``, ``10:start@1`` under ``10``), and ``moves PREFIX`` lists a group. A
unique prefix of a legal action is completed and shown, then played on Enter; a refusal says
why, in the game's words (``state.illegal_reason``, or what the notation's parser found
wrong), and offers the closest legal moves. ``readline`` (where Python has it) completes
actions and commands with Tab.

Colour is plain ANSI, used when the output is a terminal and ``NO_COLOR`` is not set: a few
escapes need no dependency, and the core keeps its two.

A tool, in the top layer: built on the library, it may import any of it.
"""

from __future__ import annotations

import difflib
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
from tikigames.core.play import decisions, next_turn
from tikigames.core.state import State, result_in_words

try:
    import readline
except ImportError:  # not on every platform (Windows): then no line editing or Tab completion
    readline = None  # type: ignore[assignment]

__all__ = [
    "CAP",
    "CLEAR",
    "COMMANDS",
    "SEPARATORS",
    "Abandoned",
    "Style",
    "Table",
    "Ticker",
    "group_key",
    "kinds_of",
    "plain",
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
    "help [rules|notation]": "these commands, the rules in short and how moves are written",
    "moves [PREFIX]": "list every legal move, or those that start with PREFIX",
    "board": "show your view of the game again",
    "log": "everything that happened so far, as you saw it",
    "hint": "ask a short search (IS-MCTS) for a move",
    "undo": "against bots: go back to your previous decision (not in hot seat)",
    "quit": "leave the game",
}

#: The characters that end an action's first part, its group (``c6-b6:N``: ``c6``); the server's
#: pages group moves at the same characters (:mod:`tikigames.server.pages`).
SEPARATORS = frozenset(" -@:*~>=+,")

#: How long a bot may think before the "thinking…" line appears, and how often it is redrawn.
THINKING_AFTER = 0.3
_REDRAW = 0.1


class Abandoned(Exception):
    """A human quit (``quit``: ``by_quit`` is true), or their input ran out."""

    def __init__(self, by_quit: bool = False) -> None:
        super().__init__("quit" if by_quit else "the input ran out")
        self.by_quit = by_quit


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
        if text[index] in SEPARATORS:
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


def _first_paragraph(doc: str | None) -> str:
    if not doc:
        return ""
    paragraph = doc.strip().split("\n\n")[0]
    sentences = [s for s in re.split(r"(?<=\.)\s+", paragraph) if "Registered as" not in s]
    return plain(" ".join(" ".join(sentences).split()))


def _paragraphs(text: str, width: int) -> list[str]:
    """Plain text of paragraphs, wrapped to ``width``; a line starting ``- `` is a list item,
    wrapped under its own text."""
    lines: list[str] = []
    for paragraph in text.strip().split("\n\n"):
        items: list[str] = []
        for line in paragraph.strip().splitlines():
            line = line.strip()
            if line.startswith("- ") or not items:
                items.append(line)
            else:
                items[-1] += " " + line
        for item in items:
            indent = "    " if item.startswith("- ") else "  "
            lines += textwrap.wrap(item, width, initial_indent="  ", subsequent_indent=indent)
        lines.append("")
    return lines[:-1]


def rules_text(game: Game[Any, Any, Any], width: int = 100) -> list[str]:
    """The rules in a player's words, from the game's ``rules_summary``; while a game has none,
    the first paragraph of its package's docstring, and where to read more (its installed
    documentation: ``python -m pydoc tikigames.<game>``).

    >>> import tikigames
    >>> lines = rules_text(tikigames.load("tiki_topple"))
    >>> lines[0]
    'Tiki Topple — the rules in short:'
    """
    lines = [f"{game.title} — the rules in short:"]
    summary = type(game).rules_summary
    if summary.strip():
        return lines + _paragraphs(summary, width)
    package = type(game).__module__.rpartition(".")[0]
    first = _first_paragraph(getattr(sys.modules.get(package), "__doc__", None))
    if first:
        lines += textwrap.wrap(first, width, initial_indent="  ", subsequent_indent="  ")
    lines.append(f"  More: python -m pydoc {package}")
    return lines


def notation_text(
    game: Game[Any, Any, Any], legal: Sequence[str] = (), width: int = 100
) -> list[str]:
    """How moves are written: one example per kind of action with what it does (the game's
    ``notation_examples``); while a game has none, one move of each group of the ``legal``
    moves at hand.

    >>> import tikigames
    >>> for line in notation_text(tikigames.load("tactiki"), ["a1-a2", "a1-b1", "pass"], 80):
    ...     print(line)  # doctest: +ELLIPSIS
    How moves are written (type one, or a start of it that only one legal move has):
      3@b1   place a piece (setup): its rank @ one of your start fields — here a 3
             on b1
      b1-b2  move a top piece one step forward, left or right, from-to — here b1 to
             ...
      pass   pass: only when you can neither move nor reincarnate
    """
    lines = ["How moves are written (type one, or a start of it that only one legal move has):"]
    examples = game.notation_examples()
    if examples:
        column = min(max(len(example) for _, example in examples), 24)
        for what, example in examples:
            lines += textwrap.wrap(
                f"{example:{column}}  {what}",
                width,
                initial_indent="  ",
                subsequent_indent=" " * (column + 4),
            )
        return lines
    if legal:
        shown = [group[0] for group in _groups(legal, 1).values()]
        items = [f"{text}," for text in shown[:12]] + [f"… ({len(shown) - 12} more)"]
        if len(shown) <= 12:
            items = [*items[: len(shown) - 1], shown[-1]]
        lines += _wrap(["for example:", *items], width, sep=" ")
    return lines


def _shape(text: str) -> str:
    """The form of an action's text, its names and numbers blanked, a first word kept where it
    is a keyword (two letters or more, followed by a space, a digit or the end: ``up``,
    ``draft``, ``pass``): actions of one kind share a form.

    >>> _shape("up2 akamai"), _shape("sai@f2:W"), _shape("c6-b6:N"), _shape("draw lotus,air")
    ('up# a', 'a@a#:a', 'a#-a#:a', 'draw a,a')
    """
    keyword = re.match(r"[A-Za-z]{2,}(?=[\s\d]|$)", text)
    head = keyword.group(0) if keyword else ""
    return head + re.sub(r"[A-Za-z]+", "a", re.sub(r"\d+", "#", text[len(head) :]))


def _common_start(first: str, second: str) -> int:
    """How many characters ``first`` and ``second`` share from the start."""
    count = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        count += 1
    return count


def kinds_of(game: Game[Any, Any, Any], texts: Sequence[str]) -> list[tuple[str, int]]:
    """What the actions ``texts`` do, by kind — ``(what it does, how many)`` in the order of the
    game's ``notation_examples`` — so that a turn's heading offers only the kinds of move that
    are legal. An action is of the kind of the example of its form (:func:`_shape`) that shares
    the longest start with it; an action of no example's form is left out (none at all while
    the game has no examples).

    >>> import tikigames
    >>> game = tikigames.load("tiki_topple")
    >>> game.notation_examples = lambda: [("push a tiki up 1", "up1 nani"),
    ...     ("push a tiki up 2", "up2 nani"), ("topple a tiki", "topple nani")]
    >>> kinds_of(game, ["up1 huhu", "up2 kapu", "up2 nui"])
    [('push a tiki up 1', 1), ('push a tiki up 2', 2)]
    """
    examples = game.notation_examples()
    if not examples:
        return []
    counts = [0] * len(examples)
    forms = [_shape(example) for _, example in examples]
    for text in texts:
        form = _shape(text)
        same = [i for i, shape in enumerate(forms) if shape == form]
        if same:
            counts[max(same, key=lambda i: _common_start(examples[i][1], text))] += 1
    return [(what, counts[i]) for i, (what, _) in enumerate(examples) if counts[i]]


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


def _sentence(text: str) -> str:
    """``text`` ending with a full stop, unless it ends with one already (or ``?``, ``!``)."""
    return text if text.endswith((".", "?", "!")) else text + "."


class _Histories:
    """Hot seat: each seat's own ``readline`` history, swapped in at each hand-over, so that
    nothing one player typed (a move refused, a ``moves PREFIX``, a note) can be recalled by the
    next with the Up key. Only where ``readline`` edits the input (``active``)."""

    def __init__(self, active: bool) -> None:
        self.active = active
        self.lines: dict[int, list[str]] = {}
        self.owner: int | None = None

    def seat(self, owner: int | None) -> None:
        """Keep the lines typed so far as the current owner's, and leave ``owner``'s loaded
        (nobody's: an empty history, for the hand-over's prompt and the game's end)."""
        if not self.active:
            return
        if self.owner is not None:
            count = readline.get_current_history_length()
            self.lines[self.owner] = [
                line for line in map(readline.get_history_item, range(1, count + 1)) if line
            ]
        readline.clear_history()
        for line in self.lines.get(owner, []) if owner is not None else []:
            readline.add_history(line)
        self.owner = owner


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
        hint_iterations: int | None = None,
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
        self.histories = _Histories(self.interactive and self.hot_seat)
        isatty = getattr(stdout, "isatty", None)
        self.live = bool(isatty and isatty())  # the thinking line is redrawn on terminals only
        self.state: State[Any, Any, Any] = game.new_initial_state()
        self.actors: list[int] = []  # who took each action of the history (public)
        self.seen_until = {seat: 0 for seat in self.humans}  # history length at their last move
        self.interludes: dict[int, list[str]] = {seat: [] for seat in self.humans}
        self.seated: int | None = None
        #: Per decision of the lone human: the move number and the actors before it (undo).
        self.decisions: list[tuple[int, list[int]]] = []
        self.legal_texts: list[str] = []
        #: The legal action a unique prefix was completed to, played if the next line is empty.
        self.proposed: Action | None = None
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
        loop = decisions(state, rng, on_action=self._after)
        try:
            turn = next_turn(loop)
            while turn is not None:
                player = turn.player
                chosen: Action | None
                if self.kinds[player] == "human":
                    try:
                        chosen = self._human(player)
                    except _Undo:
                        chosen = None  # the loop looks at the position again
                    else:
                        self.seen_until[player] = len(self.actors) + 1
                else:
                    chosen = self._bot(player, rng)
                turn = next_turn(loop, chosen)
        finally:
            self.histories.seat(None)  # in hot seat, nobody's lines are left to recall
        self._game_over()
        return state

    def _words(self, state: State[Any, Any, Any], viewer: int | None) -> tuple[str, ...]:
        """The history as ``viewer`` saw it, in words (the game's ``history_in_words``)."""
        words: tuple[str, ...] = state.observation(viewer).history_in_words()
        return words

    def _after(self, state: State[Any, Any, Any], player: int, action: Action) -> None:
        self.actors.append(player)
        if self.on_action is not None:
            self.on_action(state)
        if player == CHANCE:
            if self.verbose and not self.hot_seat:
                seen = self._words(state, self.viewer)[-1]
                print(self.style.dim(f"chance: {seen}"), file=self.out)
            return
        if self.kinds[player] != "human" and not self.hot_seat:
            seen = self._words(state, self.viewer)[-1]
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
        """The whole final position, then the result in words (the game's ``result_text``)."""
        state = self.state
        if self.hot_seat:
            self.out.write(CLEAR)
        print("\n" + str(state), file=self.out)
        words = state.result_text() or result_in_words(state.returns())
        print(self.style.bold(_sentence(f"Result: {words}")), file=self.out)

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

    def _hand_over(self, player: int) -> None:
        """Hot seat: clear the screen and the scrollback, leave nobody's input history to
        recall, name the next player and wait for them; then load their own history."""
        self.histories.seat(None)
        self.out.write(CLEAR)
        print(self.style.heading(f"Player {player}'s turn."), file=self.out)
        self._ask(f"Player {player}: press Enter when only you can see the screen. ")
        self.out.write(CLEAR)
        self.histories.seat(None)  # what was typed at the hand-over is nobody's
        self.histories.seat(player)

    def _human(self, player: int) -> Action:
        if not self.hot_seat:
            self.decisions.append((self.state.move_number(), list(self.actors)))
        out = self.out
        obs = self.state.observation(player)
        if self.hot_seat and self.seated != player:
            self._hand_over(player)
        if self.hot_seat:
            self._recap(obs)
        self.seated = player
        self.proposed = None
        legal = obs.legal_actions()
        self.legal_texts = [str(action) for action in legal]
        print(str(obs), file=out)
        self._show_moves(self.legal_texts)
        while True:
            text = self._ask(f"player {player}> ")
            proposed, self.proposed = self.proposed, None
            if not text:
                if proposed is not None:
                    return proposed
                continue  # an empty line: just ask again
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit"):
                raise Abandoned(by_quit=True)
            if command in ("help", "?"):
                self._help(rest.strip().lower())
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
                self._go_back()
            else:
                action = self._resolve(obs, legal, text)
                if action is not None:
                    return action

    def _resolve(self, obs: Observation[Any], legal: list[Action], text: str) -> Action | None:
        """The legal action ``text`` names exactly; else None, and said why: a unique start of
        a legal action is completed and proposed (:attr:`proposed`, played on Enter), an
        ambiguous start lists what it could be, and a refusal gives the game's reason and the
        closest legal moves."""
        out = self.out
        try:
            action = obs.game.action_table.parse(text)
        except ActionError as error:
            parsed, reason = None, str(error)
        else:
            if action in legal:
                return legal[legal.index(action)]
            why = self.state.illegal_reason(action) or "not legal now"
            parsed, reason = action, f"{action.text!r}: {why}"
        low = text.lower()
        matches = [a for a in legal if str(a).lower().startswith(low)]
        if parsed is None and len(matches) == 1:
            self.proposed = matches[0]
            print(f"{text} → {self.style.move(str(matches[0]))} — press Enter to play it, "
                  "or type another move", file=out)  # fmt: skip
            return None
        if parsed is None and matches:
            print(f"{text!r} could be any of {len(matches)} moves; type more of it:", file=out)
            for line in summarise([str(a) for a in matches]):
                print(line, file=out)
            return None
        print(self.style.error(_sentence(f"Not accepted: {reason}")), file=out)
        close = self._closest(text)
        if close:
            print("Closest legal moves: " + ", ".join(self.style.move(t) for t in close)
                  + " (moves lists them all, help for more)", file=out)  # fmt: skip
        else:
            print("Type a legal move (or the start of one), moves to list them, help for more.",
                  file=out)  # fmt: skip
        return None

    def _closest(self, text: str, count: int = 5) -> list[str]:
        """The legal moves whose text is closest to ``text`` (difflib's ratio, case aside)."""
        by_lower = {legal.lower(): legal for legal in self.legal_texts}
        close = difflib.get_close_matches(text.lower(), list(by_lower), n=count, cutoff=0.6)
        return [by_lower[match] for match in close]

    def _show_moves(self, texts: Sequence[str]) -> None:
        """The heading — how many moves, and of which kinds (only kinds that are legal) — and
        the moves, grouped when there are many."""
        kinds = kinds_of(self.game, texts)
        of = ": " + ", ".join(f"{what} ({count})" for what, count in kinds) if kinds else ""
        grouped = " — by first part; moves PREFIX lists a group" if len(texts) > CAP else ""
        head = f"Your moves ({len(texts)}{of}){grouped}"
        apart = len(head) > 100  # the kinds on lines of their own
        if apart:
            sort = "kind" if len(kinds) == 1 else "kinds"
            head = f"Your moves ({len(texts)}, of {len(kinds)} {sort}){grouped}"
        print(self.style.heading(head + ":"), file=self.out)
        for what, count in kinds if apart else ():
            print(f"  - {what} ({count})", file=self.out)
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

    def _help(self, topic: str) -> None:
        """``help``: the commands, the rules and the notation; ``help rules``, ``help
        notation``: one of them."""
        out = self.out
        if topic not in ("", "rules", "notation"):
            print(self.style.error(f"help takes rules, notation or nothing, not {topic!r}."),
                  file=out)  # fmt: skip
            return
        if topic in ("", "rules"):
            lines = rules_text(self.game)
            print(self.style.heading(lines[0]), file=out)
            print("\n".join(lines[1:]), file=out)
        if topic in ("", "notation"):
            lines = notation_text(self.game, self.legal_texts)
            print(self.style.heading(("\n" if not topic else "") + lines[0]), file=out)
            print("\n".join(lines[1:]), file=out)
        if topic:
            return
        print(self.style.heading("\nCommands (anything else is read as a move):"), file=out)
        for name, doc in COMMANDS.items():
            print(f"  {name:22} {doc}", file=out)
        print(
            "A start of a move that only one legal move has is completed: Enter plays it"
            + ("; Tab completes too." if self.interactive else "."),
            file=out,
        )

    def _log(self, obs: Observation[Any], start: int) -> None:
        """What happened from history entry ``start`` on, in the words of ``obs``'s player."""
        words = obs.history_in_words()
        for index in range(start, len(words)):
            actor = self.actors[index]
            who = "chance" if actor == CHANCE else f"player {actor}"
            you = " (you)" if actor == obs.player else ""
            print(f"  {index + 1:4}. {who}{you}: {words[index]}", file=self.out)

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
        """A short search's move: the game's :attr:`~tikigames.core.game.Game.think_seconds`
        of IS-MCTS, or ``hint_iterations`` iterations when given (reproducible)."""
        iterations = self.hint_iterations
        if iterations is None:
            bot = ISMCTSBot(seconds=self.game.think_seconds)
        else:
            bot = ISMCTSBot(iterations=iterations)
        rng = random.Random(len(obs.history))  # its own: the game's draws stay as they were
        with _thinking(self.out, "hint: IS-MCTS", self.live, self.thinking_after) as clock:
            action = bot.act(obs, rng)
        budget = "" if iterations is None else f"{iterations} iterations, "
        print(
            f"Hint (IS-MCTS, {budget}{clock.elapsed:.1f} s): " + self.style.move(str(action)),
            file=self.out,
        )

    def _go_back(self) -> None:
        if self.hot_seat:
            print(self.style.error("No undo in hot seat: the others have seen the move."),
                  file=self.out)  # fmt: skip
            return
        if len(self.decisions) < 2:
            print(self.style.error("Nothing to undo: this is your first decision."), file=self.out)
            return
        self.decisions.pop()  # this decision
        moves, actors = self.decisions.pop()  # the previous one, asked again by the loop
        while self.state.move_number() > moves:
            self.state.undo_action()
        self.actors = actors
        print(self.style.heading("Back to your previous decision."), file=self.out)
        raise _Undo

    def _complete(self, text: str, index: int) -> str | None:
        words = [*self.legal_texts, *(name.split()[0] for name in COMMANDS)]
        matches = [word for word in words if word.lower().startswith(text.lower())]
        return matches[index] if index < len(matches) else None

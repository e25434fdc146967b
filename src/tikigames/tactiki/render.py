"""Text renderings of a TacTiki state (everything) and observation (what one player knows).

The board is drawn like a chess diagram from TIKI's side: rank 5 (TAC's start fields) on top,
files a–e left to right. Each square lists its column bottom to top; a piece is its owner's
letter (``X`` TIKI, ``O`` TAC) and its rank, ``?`` where the viewer does not know the rank, and
``*`` once a battle has shown the rank to both players. Under the board, in words, what the
pictures mark: the columns locked on an opponent's start field (and how far each is from a
statue), the blocked pieces, and the defeated pools; the header offers only the kinds of turn
that are legal.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tikigames.core.constants import TERMINAL
from tikigames.tactiki.data import (
    FILES,
    NUM_SQUARES,
    ON_START,
    PIECE_LETTERS,
    PIECES_PER_PLAYER,
    PLAYER_NAMES,
    REVEALED,
    SIZE,
    SQUARE_NAMES,
    START_SQUARES,
    STATUE,
    battle_words,
    rank_of,
    seat_words,
)
from tikigames.tactiki.state import TacTikiState, result_words

if TYPE_CHECKING:
    from tikigames.tactiki.observation import Piece, TacTikiObservation

__all__ = ["render_observation", "render_state"]

_SETUP_ACTIONS = 2 * PIECES_PER_PLAYER
#: The width the lines in words under the board are wrapped to.
_WIDTH = 88


def _token(owner: int, rank: int | None, revealed: bool) -> str:
    return f"{PIECE_LETTERS[owner]}{'?' if rank is None else rank}{'*' if revealed else ''}"


def _board(columns: Sequence[Sequence[str]]) -> list[str]:
    cells = [" ".join(tokens) or "." for tokens in columns]
    widths = [max(len(cells[row * SIZE + f]) for row in range(SIZE)) for f in range(SIZE)]
    rows = ["    " + "   ".join(FILES[f].ljust(widths[f]) for f in range(SIZE)).rstrip()]
    notes = {SIZE - 1: f"  {PLAYER_NAMES[1]} start fields", 0: f"  {PLAYER_NAMES[0]} start fields"}
    for row in reversed(range(SIZE)):
        line = " | ".join(cells[row * SIZE + f].ljust(widths[f]) for f in range(SIZE))
        rows.append(f"{row + 1} | {line} |{notes.get(row, '')}")
    return rows


def _choices(board: Sequence[Sequence[Piece]], pool_size: int, player: int) -> str:
    """The kinds of turn ``player`` may take at the start of a turn, by the rules: a move from
    any square it owns the top piece of, but the opponent's start fields (each such square has
    a forward move no rule closes); a reincarnation with a defeated piece and an empty start
    field of its own; a pass only when neither."""
    move = any(
        board[square] and board[square][-1][0] == player and not ON_START[1 - player][square]
        for square in range(NUM_SQUARES)
    )
    back = pool_size > 0 and any(not board[square] for square in START_SQUARES[player])
    if move and back:
        return "move or reincarnate"
    if move or back:
        return "move" if move else "reincarnate"
    return "no move or reincarnation: pass"


def _status(
    actions: int,
    current: int,
    turns: int,
    second: bool,
    passes: int,
    winner: int | None,
    choices: str,
) -> str:
    if current == TERMINAL:
        return f"Game over after {turns} turns: {result_words(winner, passes)}"
    if actions < _SETUP_ACTIONS:
        placed = actions % PIECES_PER_PLAYER
        return f"Setup: {seat_words(current)} places piece {placed + 1} of {PIECES_PER_PLAYER}"
    move = "second move" if second else choices
    return f"Turn {turns + 1}: {seat_words(current)} to play ({move})"


def _ranks(ranks: Sequence[int]) -> str:
    return " ".join(map(str, ranks)) if ranks else "none"


def _marks(board: Sequence[Sequence[Piece]], strict: bool) -> list[str]:
    """What the pictures mark, in words: the columns an intruder holds on an opponent's start
    field (locked for good, and its pieces toward a statue) and the blocked pieces (an
    opponent's piece directly on them)."""
    locked = []
    blocked = []
    for square in range(NUM_SQUARES):
        column = board[square]
        name = SQUARE_NAMES[square]
        for index in range(len(column) - 1):
            owner, rank, _ = column[index]
            if column[index + 1][0] != owner:
                shown = "?" if rank is None else rank
                blocked.append(f"{PLAYER_NAMES[owner]}'s {shown} on {name}")
        for home in (0, 1):
            if column and ON_START[home][square] and column[-1][0] != home:
                intruder = PLAYER_NAMES[1 - home]
                count = sum(1 for piece in column if piece[0] != home)
                words = f"{name} {intruder} {count}"
                if strict and count < len(column):
                    words += f" (never a statue: not all {intruder}'s)"
                locked.append(words)
    rows = []
    if locked:
        rows += _wrap(
            f"Locked for good on the other's start fields (pieces toward a statue of {STATUE}): "
            + ", ".join(locked)
        )
    if blocked:
        rows += _wrap("Blocked (an opponent's piece on top): " + ", ".join(blocked))
    return rows


def _wrap(line: str) -> list[str]:
    return textwrap.wrap(line, _WIDTH, subsequent_indent="  ")


def _pool(seat: int, ranks: Sequence[int], size: int) -> str:
    """A defeated pool in words: its ranks when known; after secret reincarnations, how many
    pieces and which ranks they may be."""
    name = PLAYER_NAMES[seat]
    if not size:
        return f"{name} none"
    if len(ranks) == size:
        return f"{name} {_ranks(ranks)}"
    pieces = "1 piece" if size == 1 else f"{size} pieces"
    if size == 1:
        *others, last = sorted(set(ranks))
        among = f"a {', '.join(map(str, others))} or {last}" if others else f"a {last}"
    else:
        among = "among " + _ranks(ranks)
    return f"{name} {pieces}, {among} ({name}'s secret reincarnations hide which)"


_LEGEND = (
    f"Columns bottom to top; {PIECE_LETTERS[0]} = {seat_words(0)}, "
    f"{PIECE_LETTERS[1]} = {seat_words(1)}"
)

#: A piece code as the whole position shows it: every rank, and whether both players know it.
_FACE_UP = tuple((code & 1, rank_of(code), bool(code & REVEALED)) for code in range(64))


def render_state(state: TacTikiState) -> str:
    """Everything: every rank, with ``*`` on the ranks both players know."""
    board = [[_FACE_UP[code] for code in column] for column in state.board_codes()]
    current = state.current_player()
    sizes = [len(state.defeated(seat)) for seat in (0, 1)]
    rows = [
        _status(
            state.move_number(),
            current,
            state.turns(),
            state.is_second_move(),
            state.passes(),
            state.winner(),
            _choices(board, sizes[current], current) if current >= 0 else "",
        )
    ]
    rows += _board([[_token(*piece) for piece in column] for column in board])
    rows.append(_LEGEND + "; * = rank known to both.")
    rows += _marks(board, state.game.rules.strict_statue)
    pools = (_pool(seat, state.defeated(seat), sizes[seat]) for seat in (0, 1))
    rows += _wrap("Defeated: " + "; ".join(pools))
    return "\n".join(rows)


def render_observation(obs: TacTikiObservation) -> str:
    """What the observer knows: unknown ranks as ``?``; a pool the observer cannot pin down as
    its size and the ranks it may hold."""
    who = "a spectator" if obs.player is None else seat_words(obs.player)
    current = obs.current_player
    rows = [
        _status(
            len(obs.history),
            current,
            obs.turns,
            obs.second_move,
            obs.passes,
            obs.winner,
            _choices(obs.board, obs.pool_sizes[current], current) if current >= 0 else "",
        )
        + f" — you are {who}"
    ]
    rows += _board([[_token(*piece) for piece in column] for column in obs.board])
    rows.append(_LEGEND + "; ? = rank unknown to you; * = rank known to both.")
    rows += _marks(obs.board, obs.game.rules.strict_statue)
    pools = (_pool(seat, obs.pools[seat], obs.pool_sizes[seat]) for seat in (0, 1))
    rows += _wrap("Defeated: " + "; ".join(pools))
    if obs.battles:
        index, ranks = obs.battles[-1]
        rows.append(
            f"Last battle: {obs.history[index]} revealed {_ranks(ranks)} — {battle_words(ranks)}"
        )
    return "\n".join(rows)

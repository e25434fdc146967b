"""Text renderings of a TacTiki state (everything) and observation (what one player knows).

The board is drawn like a chess diagram from TIKI's side: rank 5 (TAC's start fields) on top,
files a–e left to right. Each square lists its column bottom to top; a piece is its owner's
letter (``X`` TIKI, ``O`` TAC) and its rank, ``?`` where the viewer does not know the rank, and
``*`` once a battle has shown the rank to both players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tikigames.core.constants import TERMINAL
from tikigames.tactiki.data import (
    FILES,
    PIECE_LETTERS,
    PIECES_PER_PLAYER,
    PLAYER_NAMES,
    REVEALED,
    SIZE,
    outcome,
    rank_of,
    seat_words,
)
from tikigames.tactiki.state import TacTikiState, result_words

if TYPE_CHECKING:
    from tikigames.tactiki.observation import TacTikiObservation

__all__ = ["render_observation", "render_state"]

_SETUP_ACTIONS = 2 * PIECES_PER_PLAYER


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


def _status(
    actions: int, current: int, turns: int, second: bool, passes: int, winner: int | None
) -> str:
    if current == TERMINAL:
        return f"Game over after {turns} turns: {result_words(winner, passes)}"
    if actions < _SETUP_ACTIONS:
        placed = actions % PIECES_PER_PLAYER
        return f"Setup: {seat_words(current)} places piece {placed + 1} of {PIECES_PER_PLAYER}"
    move = "second move" if second else "move, reincarnate or pass"
    return f"Turn {turns + 1}: {seat_words(current)} to play ({move})"


def _ranks(ranks: Sequence[int]) -> str:
    return " ".join(map(str, ranks)) if ranks else "none"


_LEGEND = (
    f"Columns bottom to top; {PIECE_LETTERS[0]} = {seat_words(0)}, "
    f"{PIECE_LETTERS[1]} = {seat_words(1)}"
)


def render_state(state: TacTikiState) -> str:
    """Everything: every rank, with ``*`` on the ranks both players know."""
    columns = [
        [_token(code & 1, rank_of(code), bool(code & REVEALED)) for code in column]
        for column in state.board_codes()
    ]
    rows = [
        _status(
            state.move_number(),
            state.current_player(),
            state.turns(),
            state.is_second_move(),
            state.passes(),
            state.winner(),
        )
    ]
    rows += _board(columns)
    rows.append(_LEGEND + "; * = rank known to both.")
    pools = (_ranks(state.defeated(seat)) for seat in (0, 1))
    rows.append("Defeated: " + "; ".join(f"{PLAYER_NAMES[s]} {p}" for s, p in enumerate(pools)))
    return "\n".join(rows)


def _battle(ranks: Sequence[int]) -> str:
    """Who won, in words: ``the attacking 4 beat the 3 and the 1, then lost to the 5``."""
    attacker, *defenders = ranks
    beaten = []
    end = ""
    for defender in defenders:
        result = outcome(attacker, defender)
        if result > 0:
            beaten.append(f"the {defender}")
        elif result < 0:
            end = f"lost to the {defender}"
        else:
            end = f"tied with the {defender} (both stay)"
    words = [f"beat {' and '.join(beaten)}"] if beaten else []
    words += [end] if end else []
    return f"the attacking {attacker} " + ", then ".join(words)


def _pool(ranks: Sequence[int], size: int) -> str:
    if len(ranks) == size or not size:
        return _ranks(ranks[:size])
    return f"{size} of {_ranks(ranks)}"


def render_observation(obs: TacTikiObservation) -> str:
    """What the observer knows: unknown ranks as ``?``; a pool the observer cannot pin down as
    ``n of`` its candidate ranks."""
    who = "a spectator" if obs.player is None else seat_words(obs.player)
    columns = [[_token(*piece) for piece in column] for column in obs.board]
    rows = [
        _status(
            len(obs.history),
            obs.current_player,
            obs.turns,
            obs.second_move,
            obs.passes,
            obs.winner,
        )
        + f" — you are {who}"
    ]
    rows += _board(columns)
    rows.append(_LEGEND + "; ? = rank unknown to you; * = rank known to both.")
    rows.append(
        "Defeated: "
        + "; ".join(f"{PLAYER_NAMES[s]} {_pool(obs.pools[s], obs.pool_sizes[s])}" for s in (0, 1))
    )
    if obs.battles:
        index, ranks = obs.battles[-1]
        rows.append(
            f"Last battle: {obs.history[index]} revealed {_ranks(ranks)} — {_battle(ranks)}"
        )
    return "\n".join(rows)

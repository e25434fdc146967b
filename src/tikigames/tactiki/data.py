"""TacTiki's board, pieces and strength rule, as precomputed tables.

Squares are numbered 0–24 in the order a1, b1, …, e1, a2, …, e5 (``square = 5 * row + file``,
``row = rank - 1``). Rank 1 is TIKI's row of start fields, rank 5 TAC's.

A piece on the board is a small int: bit 0 its owner, bits 1–3 its rank (1–5), then two flags:
``REVEALED`` once a battle has shown its rank to both players, and ``REINCARNATED`` for a piece
put back by a reincarnation (its rank was chosen secretly from the pool, which matters for what
the opponent knows of that pool).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

TIKI: Final = 0
TAC: Final = 1
PLAYER_NAMES: Final = ("TIKI", "TAC")
#: The letters ``str(state)`` and ``str(obs)`` write each player's pieces with.
PIECE_LETTERS: Final = ("X", "O")

FILES: Final = "abcde"
SIZE: Final = 5
NUM_SQUARES: Final = SIZE * SIZE
SQUARE_NAMES: Final = tuple(f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(NUM_SQUARES))
SQUARES: Final = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

#: Each player's row of start fields (row index) and the squares in it.
START_ROW: Final = (0, SIZE - 1)
START_SQUARES: Final = tuple(tuple(row * SIZE + file for file in range(SIZE)) for row in START_ROW)
#: ``ON_START[player][square]``: whether ``square`` is one of ``player``'s start fields.
ON_START: Final = tuple(tuple(sq // SIZE == row for sq in range(NUM_SQUARES)) for row in START_ROW)
#: One step forward, in squares, for each player.
FORWARD: Final = (SIZE, -SIZE)

RANKS: Final = (1, 2, 3, 4, 5)
#: Pieces of each rank a player owns.
COPIES: Final = 2
PIECES_PER_PLAYER: Final = COPIES * len(RANKS)
#: Pieces of the mover's on one of the opponent's start fields that make a statue.
STATUE: Final = 5

# Piece encoding.
OWNER: Final = 1
RANK_SHIFT: Final = 1
REVEALED: Final = 16
REINCARNATED: Final = 32


def piece(owner: int, rank: int, flags: int = 0) -> int:
    """The code of a piece of ``owner`` with ``rank`` (and flags)."""
    return owner | rank << RANK_SHIFT | flags


def rank_of(code: int) -> int:
    """The rank (1–5) of a piece code."""
    return (code >> RANK_SHIFT) & 7


def outcome(attacker: int, defender: int) -> int:
    """+1 if rank ``attacker`` beats rank ``defender``, −1 if it loses, 0 for a tie.

    The higher rank wins, except that a 1 beats a 5 (and only a 5).
    """
    if attacker == defender:
        return 0
    if attacker == 1 and defender == 5:
        return 1
    if attacker == 5 and defender == 1:
        return -1
    return 1 if attacker > defender else -1


#: ``OUTCOME[attacker][defender]`` for ranks 1–5 (index 0 unused), the table the engine reads.
OUTCOME: Final = tuple(tuple(outcome(a, d) if a and d else 0 for d in range(6)) for a in range(6))


def seat_words(seat: int) -> str:
    """A seat as the text rendering and the result in words name it.

    >>> seat_words(1)
    'TAC (player 1)'
    """
    return f"{PLAYER_NAMES[seat]} (player {seat})"


def battle_words(ranks: Sequence[int], attacker: int | None = None) -> str:
    """A battle in words, from its ranks (the attacker's, then each defender's in the order
    met; the results follow from the strength rule): the text rendering's ``Last battle`` line
    and the history in words, which names the owners (``attacker``: the attacking seat).

    >>> battle_words((4, 3, 1, 5))
    'the attacking 4 beat the 3 and the 1, then lost to the 5'
    >>> battle_words((3, 3), attacker=0)
    "TIKI's 3 tied with TAC's 3 (both stay)"
    """
    if attacker is None:
        mine, theirs = "the attacking ", "the "
    else:
        mine, theirs = f"{PLAYER_NAMES[attacker]}'s ", f"{PLAYER_NAMES[1 - attacker]}'s "
    rank, *defenders = ranks
    beaten = []
    end = ""
    for defender in defenders:
        result = outcome(rank, defender)
        if result > 0:
            beaten.append(f"{theirs}{defender}")
        elif result < 0:
            end = f"lost to {theirs}{defender}"
        else:
            end = f"tied with {theirs}{defender} (both stay)"
    words = [f"beat {' and '.join(beaten)}"] if beaten else []
    words += [end] if end else []
    return f"{mine}{rank} " + ", then ".join(words)


@dataclass(frozen=True)
class TacTikiRules:
    """The options of a TacTiki game, typed (``game.rules``; see the game's options)."""

    strict_statue: bool
    max_turns: int | None


# ----------------------------------------------------------------- search bots' heuristics


#: The deepest a piece counts as lying under others in ``STATUE_COSTS`` (deeper is as deep).
MAX_DEPTH: Final = 9


def _statue_costs(player: int) -> tuple[tuple[int, ...], ...]:
    """Per square and depth (``square * (MAX_DEPTH + 1) + depth``), the single moves a piece of
    ``player``'s lying under ``depth`` others needs to reach each of the opponent's start
    fields (file a to e): the rows still ahead, the files across, and one per piece above it
    (each must move away first)."""
    target_row = START_ROW[1 - player]
    return tuple(
        tuple(abs(target_row - sq // SIZE) + abs(file - sq % SIZE) + depth for file in range(SIZE))
        for sq in range(NUM_SQUARES)
        for depth in range(MAX_DEPTH + 1)
    )


#: ``STATUE_COSTS[player][square * (MAX_DEPTH + 1) + depth][file]``: see ``_statue_costs``;
#: what the search bots' evaluation counts (a heuristic, not a rule).
STATUE_COSTS: Final = (_statue_costs(TIKI), _statue_costs(TAC))
#: ``ADVANCE[player][square]``: rows ``square`` lies ahead of ``player``'s start row (0–4),
#: for the search bots' rollout policy (a heuristic, not a rule).
ADVANCE: Final = tuple(
    tuple(abs(sq // SIZE - START_ROW[player]) for sq in range(NUM_SQUARES)) for player in (0, 1)
)

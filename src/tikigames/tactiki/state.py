"""TacTiki's rules engine.

The board is 25 columns (lists of piece codes, bottom to top; see ``tikigames.tactiki.data``).
Besides the board the state keeps each player's defeated pool (exact counts), what the public
knows of each pool (the candidate ranks: every rank defeated, less the ranks of reincarnated
pieces revealed since), the battle log (the ranks each attack revealed), and the turn counters.

Beside them it keeps, per player, a bit mask of the squares whose top piece the player owns: it
decides the legal moves (one table lookup per row, see ``ROW_MOVES``) and whether a second move
exists, and is updated with every piece that moves.

Every action pushes one undo record ``(meta, ...)`` whose ``meta`` holds the counters and the
masks before it; a plain move records only the piece it moved, an attack a copy of the attacked
column and of the two small pool tables. Records hold tuples only, so clones may share them.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING, Any

from tikigames.core.constants import TERMINAL
from tikigames.core.errors import IllegalActionError
from tikigames.core.state import State
from tikigames.tactiki.actions import (
    MOVABLE,
    MOVE,
    PASS,
    PASS_ACTION,
    PLACE,
    PLACEMENTS,
    REINCARNATE,
    REINCARNATION_SETS,
    ROW_MOVES,
    START_MASKS,
    START_SHIFTS,
    TacTikiAction,
)
from tikigames.tactiki.data import (
    COPIES,
    NUM_SQUARES,
    ON_START,
    OUTCOME,
    PIECES_PER_PLAYER,
    RANKS,
    REINCARNATED,
    REVEALED,
    SQUARES,
    START_SQUARES,
    STATUE,
    rank_of,
)

if TYPE_CHECKING:
    from tikigames.tactiki.game import TacTiki  # noqa: F401 (base class)
    from tikigames.tactiki.observation import TacTikiObservation  # noqa: F401 (base class)

__all__ = ["TacTikiState"]

# Phases.
SETUP, PLAY, OVER = range(3)
#: ``_winner`` once the game ended in a draw (−1 while it goes on).
DRAW = 2
#: ``code & _ORIGIN == REINCARNATED``: a reincarnated piece no battle has revealed yet, whose
#: first reveal takes its rank off the public candidates of its owner's pool.
_ORIGIN = REINCARNATED | REVEALED


class TacTikiState(State[TacTikiAction, "TacTiki", "TacTikiObservation"]):
    """A TacTiki position. See the game's docs page for the rules and the notation.

    Beside the :class:`~tikigames.core.state.State` interface, the position can be read with
    the accessors below (the whole position, every rank included: a program that must not see
    the hidden ranks reads an observation instead). The observation and the text renderings
    read the state through them.

    >>> import tikigames
    >>> state = tikigames.load("tactiki").new_initial_state()
    >>> for text in ["3@a1", "5@a1"]:
    ...     state.apply_action(state.parse_action(text))
    >>> state.column("a1"), state.board_codes()[0], state.turns(), state.passes()
    ([(0, 3), (0, 5)], (6, 10), 0, 0)
    >>> state.defeated(1), state.pool_candidates(1), state.battles(), state.winner()
    ([], [], [], None)
    """

    __slots__ = (
        "_battles",
        "_board",
        "_candidates",
        "_max_turns",
        "_passes",
        "_phase",
        "_placed",
        "_player",
        "_pool",
        "_step",
        "_strict",
        "_tops",
        "_turns",
        "_winner",
    )

    def _init_position(self) -> None:
        game = self.game
        rules = game.rules
        self._max_turns = rules.max_turns
        self._strict = rules.strict_statue
        self._board: list[list[int]] = [[] for _ in range(NUM_SQUARES)]
        # The three per-player tables are flat lists of 12: ``[6 * player + rank]`` per rank,
        # and ``[6 * player]`` the player's total.
        #: Setup: pieces placed.
        self._placed = [0] * 12
        #: Defeated pools, exactly.
        self._pool = [0] * 12
        #: What the public knows of each pool: the ranks that may be in it (index 0 unused).
        self._candidates = [0] * 12
        #: ``(history index, (attacker's rank, each defender's rank met, top down))``.
        self._battles: list[tuple[int, tuple[int, ...]]] = []
        self._phase = SETUP
        self._player = 0
        #: 0 at the start of a turn, 1 for the second move of a move turn.
        self._step = 0
        self._turns = 0
        self._passes = 0
        self._winner = -1
        #: Per player: bit ``square`` set where the player owns the top piece.
        self._tops = [0, 0]

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        return self._player if self._phase != OVER else TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def _generate_legal(self) -> list[TacTikiAction]:
        phase = self._phase
        player = self._player
        base = 6 * player
        if phase == PLAY:
            legal = self._moves(player)
            if self._step == 0:
                pool = self._pool
                if pool[base]:
                    tops = self._tops
                    empty = START_MASKS[player] & ~(tops[0] | tops[1])
                    if empty:
                        key = empty >> START_SHIFTS[player]
                        for rank in RANKS:
                            if pool[base + rank]:
                                key |= 1 << (4 + rank)
                        legal += REINCARNATION_SETS[player][key]
                if not legal:
                    legal.append(PASS_ACTION)
            return legal
        if phase == SETUP:
            board = self._board
            placed = self._placed
            ranks = [r - 1 for r in RANKS if placed[base + r] < COPIES]
            legal = []
            for square in START_SQUARES[player]:
                if len(board[square]) < COPIES:
                    row = PLACEMENTS[square]
                    legal.extend([row[i] for i in ranks])
            return legal
        return []

    def _moves(self, player: int) -> list[TacTikiAction]:
        """``player``'s legal single moves, in id order: one lookup per row it can move from."""
        tops = self._tops
        if player == 0:
            own = tops[0]
            rows = ROW_MOVES[0]
            return [
                *rows[0][own & 31 | (tops[1] & 31) << 5],
                *rows[1][own >> 5 & 31],
                *rows[2][own >> 10 & 31],
                *rows[3][own >> 15 & 31],
            ]
        own = tops[1]
        rows = ROW_MOVES[1]
        return [
            *rows[1][own >> 5 & 31],
            *rows[2][own >> 10 & 31],
            *rows[3][own >> 15 & 31],
            *rows[4][own >> 20 | (tops[0] >> 20) << 5],
        ]

    def _viewer(self, action: TacTikiAction) -> int | None:
        # Placements and reincarnations hide their rank from all but the player making them.
        return self._player

    def returns(self) -> list[float]:
        winner = self._winner
        if winner < 0 or winner == DRAW:
            return [0.0, 0.0]
        return [1.0 if seat == winner else -1.0 for seat in (0, 1)]

    # ----------------------------------------------------------------- reading the position

    def winner(self) -> int | None:
        """The seat that built a statue, once it has; ``None`` while the game goes on or after
        a draw."""
        return self._winner if self._winner in (0, 1) else None

    def turns(self) -> int:
        """The number of finished turns (move turns, reincarnations and passes; setup
        placements do not count)."""
        return self._turns

    def is_second_move(self) -> bool:
        """Whether the player to move is making the second move of a move turn."""
        return self._phase == PLAY and self._step == 1

    def column(self, square: str) -> list[tuple[int, int]]:
        """The pieces on ``square`` (e.g. ``"c3"``) bottom to top, as ``(owner, rank)``.

        Raises:
            ValueError: ``square`` is not a square of the board.
        """
        index = SQUARES.get(square.strip().lower()) if isinstance(square, str) else None
        if index is None:
            raise ValueError(f"{square!r} is not a square (a1 … e5)")
        return [(code & 1, rank_of(code)) for code in self._board[index]]

    def defeated(self, player: int) -> list[int]:
        """The ranks in ``player``'s defeated pool, sorted.

        Raises:
            ValueError: ``player`` is not a seat (0 or 1).
        """
        return self._ranks(self._pool, player)

    def pool_candidates(self, player: int) -> list[int]:
        """What the opponent (and a spectator) knows of ``player``'s pool: the ranks that may
        be in it, sorted — every rank defeated, less the ranks of reincarnated pieces revealed
        since. The pool holds ``len(defeated(player))`` of them.

        Raises:
            ValueError: ``player`` is not a seat (0 or 1).
        """
        return self._ranks(self._candidates, player)

    def _ranks(self, table: list[int], player: int) -> list[int]:
        seat = self._check_player(player, allow_none=False)
        assert seat is not None
        base = 6 * seat
        return [r for r in RANKS for _ in range(table[base + r])]

    def board_codes(self) -> tuple[tuple[int, ...], ...]:
        """The 25 columns a1, b1, …, e1, a2, …, e5, each its pieces' codes bottom to top: the
        encoding of ``tikigames.tactiki.data`` (owner bit, rank, ``REVEALED``, ``REINCARNATED``),
        which the observation and the renderings read the position through."""
        return tuple(map(tuple, self._board))

    def battles(self) -> list[tuple[int, tuple[int, ...]]]:
        """The battle log: per attack, in order, ``(history index, ranks)`` — the attacker's
        rank, then each defender's rank in the order met."""
        return self._battles.copy()

    def passes(self) -> int:
        """The consecutive passes just made (two end the game in a draw)."""
        return self._passes

    # ----------------------------------------------------------------- the fast path

    def random_action(self, rng: Random) -> TacTikiAction:
        # The base class's draw (the same index for the same rng: seeded bots play the same
        # games), less its test for a chance node, which TacTiki never has.
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal()
        count = len(legal)
        if not count:
            raise IllegalActionError("the game is over: there is no action to draw")
        return legal[min(int(rng.random() * count), count - 1)]

    def apply_unchecked(self, action: TacTikiAction) -> None:
        # The base class's bookkeeping, written out for TacTiki's three views (the two seats,
        # then the spectator): a placement or reincarnation shows its rank to its maker only,
        # the player to move.
        views = self._views
        hidden = action.hidden
        text = action.text
        if hidden is None:
            views[0].append(text)
            views[1].append(text)
        elif self._player == 0:
            views[0].append(text)
            views[1].append(hidden)
            text = hidden
        else:
            views[0].append(hidden)
            views[1].append(text)
            text = hidden
        views[2].append(text)
        self._do(action)
        self._history.append(action)
        self._legal_stack.append(self._legal)
        self._legal = None
        self._hash = None

    # ----------------------------------------------------------------- apply / undo

    def _do(self, action: TacTikiAction) -> None:
        kind = action.kind
        tops = self._tops
        player = self._player
        meta = (
            self._phase, player, self._step, self._turns, self._passes, self._winner,
            tops[0], tops[1],
        )  # fmt: skip
        board = self._board
        if kind == MOVE:
            square = action.square
            source = board[square]
            piece = source.pop()
            if not source:
                tops[player] ^= 1 << square
            elif source[-1] & 1 != player:
                tops[player] ^= 1 << square
                tops[1 - player] |= 1 << square
            target = action.target
            column = board[target]
            if column and column[-1] & 1 != player:
                snapshot = (tuple(column), tuple(self._pool), tuple(self._candidates))
                self._undo.append((meta, piece, snapshot))
                if self._attack(piece, column):
                    tops[player] |= 1 << target
                    tops[1 - player] &= ~(1 << target)
            else:
                self._undo.append((meta, piece, None))
                column.append(piece)
                tops[player] |= 1 << target
            self._passes = 0
            if (
                len(column) >= STATUE
                and ON_START[1 - player][target]
                and self._statue(column, player)
            ):
                self._phase = OVER
                self._winner = player
            elif self._step == 0 and tops[player] & MOVABLE[player]:
                # Every square a player may move from has a forward move, never closed.
                self._step = 1
            else:
                self._end_turn()
        elif kind == PLACE:
            self._undo.append(meta)
            square = action.square
            base = 6 * player
            board[square].append(player | action.rank << 1)
            tops[player] |= 1 << square
            placed = self._placed
            placed[base + action.rank] += 1
            placed[base] += 1
            if placed[base] == PIECES_PER_PLAYER:
                if player == 0:
                    self._player = 1
                else:
                    self._phase = PLAY
                    self._player = 0
        elif kind == REINCARNATE:
            self._undo.append(meta)
            square = action.square
            base = 6 * player
            board[square].append(player | action.rank << 1 | REINCARNATED)
            tops[player] |= 1 << square
            self._pool[base] -= 1
            self._pool[base + action.rank] -= 1
            self._passes = 0
            self._end_turn()
        else:
            self._undo.append(meta)
            self._passes += 1
            self._end_turn()
            if self._passes >= 2:
                self._phase = OVER
                self._winner = DRAW

    def _attack(self, piece: int, column: list[int]) -> bool:
        """``piece`` attacks down ``column``: each defender met is revealed with the attacker and
        the weaker one defeated, until the attacker loses, ties, or meets its own or the
        bottom. The attacker ends on top of the column unless defeated; returns whether it
        did (else the defender it met stays on top)."""
        player = piece & 1
        rank = (piece >> 1) & 7
        ranks = [rank]
        candidates = self._candidates
        if piece & _ORIGIN == REINCARNATED:
            candidates[6 * player + rank] -= 1
        piece |= REVEALED
        while column and column[-1] & 1 != player:
            defender = column[-1]
            other = (defender >> 1) & 7
            ranks.append(other)
            if defender & _ORIGIN == REINCARNATED:
                candidates[6 * (defender & 1) + other] -= 1
            result = OUTCOME[rank][other]
            if result > 0:
                column.pop()
                self._defeat(defender & 1, other)
                continue
            column[-1] = defender | REVEALED
            if result < 0:
                self._defeat(player, rank)
                piece = -1
            break
        self._battles.append((len(self._history), tuple(ranks)))
        if piece >= 0:
            column.append(piece)
            return True
        return False

    def _defeat(self, owner: int, rank: int) -> None:
        base = 6 * owner
        self._pool[base] += 1
        self._pool[base + rank] += 1
        self._candidates[base + rank] += 1

    def _statue(self, column: list[int], player: int) -> bool:
        """Whether ``column``, on one of the opponent's start fields, is a statue of
        ``player``'s (an attacker that lost there leaves the opponent's piece on top)."""
        if column[-1] & 1 != player:
            return False
        if self._strict:
            return len(column) == STATUE and all(code & 1 == player for code in column)
        return sum(1 for code in column if code & 1 == player) >= STATUE

    def _end_turn(self) -> None:
        self._turns += 1
        self._step = 0
        limit = self._max_turns
        if limit is not None and self._turns >= limit:
            self._phase = OVER
            self._winner = DRAW
        else:
            self._player ^= 1

    def _undo_last(self, action: TacTikiAction) -> None:
        record = self._undo.pop()
        kind = action.kind
        board = self._board
        if kind == MOVE:
            meta, piece, snapshot = record
            if snapshot is None:
                board[action.target].pop()
            else:
                column, pool, candidates = snapshot
                board[action.target] = list(column)
                self._pool = list(pool)
                self._candidates = list(candidates)
                self._battles.pop()
            board[action.square].append(piece)
        else:
            meta = record
            if kind != PASS:
                board[action.square].pop()
                base = 6 * meta[1]
                table = self._placed if kind == PLACE else self._pool
                step = -1 if kind == PLACE else 1
                table[base] += step
                table[base + action.rank] += step
        (
            self._phase, self._player, self._step, self._turns, self._passes, self._winner,
            tops0, tops1,
        ) = meta  # fmt: skip
        tops = self._tops
        tops[0] = tops0
        tops[1] = tops1

    # ----------------------------------------------------------------- copies and identity

    def _copy_into(self, new: TacTikiState) -> None:
        new._max_turns = self._max_turns
        new._strict = self._strict
        new._board = [column.copy() for column in self._board]
        new._placed = self._placed.copy()
        new._pool = self._pool.copy()
        new._candidates = self._candidates.copy()
        new._battles = self._battles.copy()
        new._phase = self._phase
        new._player = self._player
        new._step = self._step
        new._turns = self._turns
        new._passes = self._passes
        new._winner = self._winner
        new._tops = self._tops.copy()

    def _position_key(self) -> tuple[Any, ...]:
        # The turn count matters only while it can end the game.
        turns = self._turns if self._max_turns is not None else -1
        return (
            self._phase, self._player, self._step, self._passes, self._winner, turns,
            tuple(map(tuple, self._board)), tuple(self._pool), tuple(self._candidates),
        )  # fmt: skip

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

from bisect import bisect_left
from collections.abc import Sequence
from operator import add
from random import Random
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Self

from tikigames.core.constants import TERMINAL
from tikigames.core.errors import IllegalActionError
from tikigames.core.state import State
from tikigames.tactiki import refusals
from tikigames.tactiki.actions import (
    MOVABLE,
    MOVE,
    PASS,
    PASS_ACTION,
    PLACE,
    PLACEMENTS,
    REINCARNATE,
    REINCARNATION_SETS,
    REINCARNATIONS,
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
    from tikigames.tactiki.game import TacTiki
    from tikigames.tactiki.observation import TacTikiObservation  # noqa: F401 (base class)

__all__ = ["TacTikiState", "WorldTemplate"]

# Phases.
SETUP, PLAY, OVER = range(3)
#: ``_winner`` once the game ended in a draw (−1 while it goes on).
DRAW = 2
#: A tagged piece code (see ``WorldTemplate``) holds its tag above this many bits.
TAG_SHIFT = 6
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
        "_tagging",
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
        #: Only in a ``WorldTemplate``'s replay: each piece put down carries, above its code's
        #: six bits, the history index of the action that put it down.
        self._tagging = False

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        return self._player if self._phase != OVER else TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def is_chance_node(self) -> bool:
        return False  # TacTiki has no chance: the players set their stacks up themselves

    def _generate_legal(self) -> list[TacTikiAction]:
        phase = self._phase
        player = self._player
        if phase == PLAY:
            # The single moves, one table lookup per row the player can move from (the own
            # start row's key also holds where the opponent is on top: rule 4).
            tops = self._tops
            own = tops[player]
            rows = ROW_MOVES[player]
            if player == 0:
                legal = [
                    *rows[0][own & 31 | (tops[1] & 31) << 5],
                    *rows[1][own >> 5 & 31],
                    *rows[2][own >> 10 & 31],
                    *rows[3][own >> 15 & 31],
                ]
            else:
                legal = [
                    *rows[1][own >> 5 & 31],
                    *rows[2][own >> 10 & 31],
                    *rows[3][own >> 15 & 31],
                    *rows[4][own >> 20 | (tops[0] >> 20) << 5],
                ]
            if self._step == 0:
                pool = self._pool
                base = 6 * player
                if pool[base]:
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
            base = 6 * player
            ranks = [r - 1 for r in RANKS if placed[base + r] < COPIES]
            legal = []
            for square in START_SQUARES[player]:
                if len(board[square]) < COPIES:
                    row = PLACEMENTS[square]
                    legal.extend([row[i] for i in ranks])
            return legal
        return []

    def _viewer(self, action: TacTikiAction) -> int | None:
        # Placements and reincarnations hide their rank from all but the player making them.
        return self._player

    def _refusal(self, action: TacTikiAction) -> str:
        # Why an action is refused, by the rules (see ``tikigames.tactiki.refusals``).
        return refusals.refusal(self, action)

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
        # The base class's ``min(…, count − 1)`` never binds: ``random() < 1`` times a count
        # below 2**53 rounds to less than the count.
        return legal[int(rng.random() * count)]

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
            code = player | action.rank << 1
            if self._tagging:
                code |= len(self._history) << TAG_SHIFT
            board[square].append(code)
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
            code = player | action.rank << 1 | REINCARNATED
            if self._tagging:
                code |= len(self._history) << TAG_SHIFT
            board[square].append(code)
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

    def clone(self) -> Self:
        """:meth:`State.clone <tikigames.State.clone>`, with the class named so that compiled,
        ``__init__`` runs once (see the base class)."""
        if type(self) is not TacTikiState:  # a subclass: its own class, at the cost of the slot
            return type(self)(self._game, self)
        return cast(Self, TacTikiState(self._game, self))

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
        new._tagging = False

    def _core_lists(self) -> tuple[list[TacTikiAction], list[Any]]:
        """The base class's history and undo records, for ``WorldTemplate`` to patch. What
        each player saw is derived from the history, so the views kept of it are forgotten."""
        self._history_rewritten()
        return self._history, self._undo

    def _position_key(self) -> tuple[Any, ...]:
        # The turn count matters only while it can end the game.
        turns = self._turns if self._max_turns is not None else -1
        return (
            self._phase, self._player, self._step, self._passes, self._winner, turns,
            tuple(map(tuple, self._board)), tuple(self._pool), tuple(self._candidates),
        )  # fmt: skip


class WorldTemplate:
    """One history replayed with its pieces told apart, to copy with other hidden ranks: how the
    resampler builds its worlds without replaying the history for each.

    The worlds of one observation differ only in the ranks of the pieces put down unseen (by
    a placement or a reincarnation) that no battle revealed. Such a piece never fought, and a
    rank matters to the course of a game only in a battle; so every world goes through the
    same moves, turns, battles and masks, and differs only in those pieces' codes, the pools
    and setup counts they pass through, and the texts of the actions that put them down. The
    template replays one world once, each piece tagged with the history index of the action
    that put it down, and notes where the varying pieces appear — the board, the undo records
    (a moved piece, an attacked column, a pool copied after a varying reincarnation), the
    history and its maker's view. :meth:`copy` is then a clone and a few patches, and gives
    exactly the state a replay of the same history with the new ranks gives, undo records
    included (a copy undoes to the start).

    >>> import random, tikigames
    >>> game = tikigames.load("tactiki")
    >>> state = game.new_initial_state()
    >>> for text in ["3@a1", "5@a1"]:
    ...     state.apply_action(state.parse_action(text))
    >>> template = WorldTemplate(game, state.history(), [0])  # the first piece's rank varies
    >>> world = template.copy([4])
    >>> [str(action) for action in world.history()], world.column("a1")
    (['4@a1', '5@a1'], [(0, 4), (0, 5)])

    Args:
        game: the game.
        actions: a history (trusted: each action legal in turn).
        varying: the history indices of the placements and reincarnations whose ranks vary,
            in increasing order.

    Raises:
        ValueError: a piece of ``varying`` fights in ``actions`` (its rank could change the
            course of the game), or an index of ``varying`` puts no piece down.
    """

    __slots__ = ("_attacks", "_base", "_columns", "_moves", "_placements", "_pool", "_reinc",
                 "_slots", "_template_ranks")  # fmt: skip

    def __init__(
        self, game: TacTiki, actions: Sequence[TacTikiAction], varying: Sequence[int]
    ) -> None:
        state = game.new_initial_state()
        state._tagging = True
        for action in actions:
            state.apply_unchecked(action)
        #: A varying piece's number in ``varying``, plus one: its tag in the recipes below.
        number = {index: j + 1 for j, index in enumerate(varying)}
        history, records = state._core_lists()
        #: Per varying piece: its history index, the row of actions by rank, and its maker.
        self._slots: list[tuple[int, tuple[TacTikiAction, ...], int]] = []
        self._template_ranks: list[int] = []
        #: ``(number − 1, 6 × owner, template rank)`` of the varying placements and
        #: reincarnations; with the reincarnations' history indices.
        self._placements: list[tuple[int, int, int]] = []
        self._reinc: list[tuple[int, int, int]] = []
        reinc_at: list[int] = []
        for j, index in enumerate(varying):
            action = history[index]
            if action.kind == PLACE:
                rows = PLACEMENTS[action.square]
                self._placements.append((j, 6 * action.owner, action.rank))
            elif action.kind == REINCARNATE:
                rows = REINCARNATIONS[action.square]
                self._reinc.append((j, 6 * action.owner, action.rank))
                reinc_at.append(index)
            else:
                raise ValueError(f"history[{index}] puts no piece down")
            self._slots.append((index, rows, action.owner))
            self._template_ranks.append(action.rank)

        def recode(code: int) -> int:
            return (code & 63) | number.get(code >> TAG_SHIFT, 0) << TAG_SHIFT

        base = state.clone()
        undo: list[Any] = []
        self._moves: list[tuple[int, tuple[int, ...], int]] = []
        self._attacks: list[Any] = []
        battles = iter(state._battles)
        for index, record in enumerate(records):
            if len(record) != 3:  # a placement, reincarnation or pass: the counters only
                undo.append(record)
                continue
            meta, piece, snapshot = record
            if snapshot is None:
                undo.append((meta, piece & 63, None))
                if piece >> TAG_SHIFT in number:
                    self._moves.append((index, meta, recode(piece)))
                continue
            column, pool, candidates = snapshot
            _, ranks = next(battles)
            fighters = [piece, *column[len(column) - len(ranks) + 1 :]]
            if any(code >> TAG_SHIFT in number for code in fighters):
                raise ValueError(f"a varying piece fights at history[{index}]")
            undo.append((meta, piece & 63, (tuple([c & 63 for c in column]), pool, candidates)))
            later = bisect_left(reinc_at, index)  # the varying reincarnations before it
            if later or any(code >> TAG_SHIFT in number for code in column):
                recipe = (index, meta, piece & 63, tuple(map(recode, column)), pool, later)
                self._attacks.append((*recipe, candidates))
        base._core_lists()[1][:] = undo
        self._columns: list[tuple[int, tuple[int, ...]]] = []
        for square, column in enumerate(state._board):
            base._board[square] = [code & 63 for code in column]
            if any(code >> TAG_SHIFT in number for code in column):
                self._columns.append((square, tuple(map(recode, column))))
        self._pool = tuple(state._pool)
        self._base = base

    def copy(self, ranks: Sequence[int]) -> TacTikiState:
        """The state of the template's history with ``ranks[j]`` the rank of the piece put
        down at ``varying[j]`` (each rank one the rules allow there: the caller's promise)."""
        world = self._base.clone()
        # ``lut[number]`` turns a recipe's code into the world's: the template's rank bits
        # exchanged for the drawn ones (number 0, a fixed piece, keeps its code).
        lut = [0]
        lut += [(old ^ new) << 1 for old, new in zip(self._template_ranks, ranks, strict=True)]
        history, undo = world._core_lists()
        for (index, rows, _owner), rank in zip(self._slots, ranks, strict=True):
            history[index] = rows[rank - 1]
        if self._placements:
            placed = world._placed
            for j, base, old in self._placements:
                placed[base + old] -= 1
                placed[base + ranks[j]] += 1
        # ``shifts[k]``: what the varying reincarnations before the k + 1-th changed in a pool.
        shift = [0] * 12
        shifts = [shift]
        for j, base, old in self._reinc:
            shift = shift.copy()
            shift[base + old] += 1
            shift[base + ranks[j]] -= 1
            shifts.append(shift)
        if self._reinc:
            world._pool = list(map(add, self._pool, shift))
        board = world._board
        for square, column in self._columns:
            board[square] = [(code & 63) ^ lut[code >> TAG_SHIFT] for code in column]
        for index, meta, piece in self._moves:
            undo[index] = (meta, (piece & 63) ^ lut[piece >> TAG_SHIFT], None)
        for index, meta, piece, column, pool, later, candidates in self._attacks:
            codes = tuple([(code & 63) ^ lut[code >> TAG_SHIFT] for code in column])
            if later:
                pool = tuple(map(add, pool, shifts[later]))
            undo[index] = (meta, piece, (codes, pool, candidates))
        return world

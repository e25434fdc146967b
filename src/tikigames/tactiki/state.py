"""TacTiki's rules engine.

The board is 25 columns (lists of piece codes, bottom to top; see ``tikigames.tactiki.data``).
Besides the board the state keeps each player's defeated pool (exact counts), what the public
knows of each pool (the candidate ranks: every rank defeated, less the ranks of reincarnated
pieces revealed since), the battle log (the ranks each attack revealed), and the turn counters.

Beside them it keeps, per player, a bit mask of the squares whose top piece the player owns: it
decides the legal moves (one table lookup per row, see ``ROW_MOVES``) and whether a second move
exists, and is updated with every piece that moves.

Every action's undo record (what ``_do`` returns, kept by the base class) holds ``meta``,
the counters and the masks before it: a placement's, a reincarnation's or a pass's record is
``meta`` itself; a move's is ``(meta, snapshot)``: ``snapshot`` is ``None`` for a plain move
(its undo takes the piece back off the target), and for an attack ``(piece, column, pool,
candidates)``, the attacker's code and copies of the attacked column and of the two small pool
tables. A plain move's record names no piece, so it is the same in every world of a history
whatever ranks its hidden pieces have. Records hold tuples only, so clones may share them. The
resampler's world template (:class:`tikigames.tactiki.resample.WorldTemplate`) reads and
rewrites them, through :meth:`TacTikiState.undo_record` and
:meth:`TacTikiState.rewrite_hidden_unchecked`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import add
from random import Random
from typing import TYPE_CHECKING, Any, Final, cast

from typing_extensions import Self

from tikigames.core.constants import TERMINAL
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
    ROW_MOVES,
    START_MASKS,
    START_SHIFTS,
    TacTikiAction,
)
from tikigames.tactiki.data import (
    ADVANCE,
    COPIES,
    MAX_DEPTH,
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
    STATUE_COSTS,
    TacTikiRules,
    rank_of,
    seat_words,
)

if TYPE_CHECKING:
    from tikigames.tactiki.game import TacTiki  # noqa: F401 (base class)
    from tikigames.tactiki.observation import TacTikiObservation  # noqa: F401 (base class)

__all__ = ["TAG_SHIFT", "TacTikiState", "result_words"]

# Phases.
SETUP, PLAY, OVER = range(3)
#: ``_winner`` once the game ended in a draw (−1 while it goes on).
DRAW = 2
#: A tagged piece code (see :meth:`TacTikiState.tag_pieces`) holds its tag above this many bits.
TAG_SHIFT = 6
#: ``code & _ORIGIN == REINCARNATED``: a reincarnated piece no battle has revealed yet, whose
#: first reveal takes its rank off the public candidates of its owner's pool.
_ORIGIN = REINCARNATED | REVEALED


# The search bots' knowledge (see ``evaluate`` and ``rollout_action``): heuristics, not rules.
#: Moves a statue race counts for an opponent's start field whose top piece is the opponent's
#: (it has to be attacked first).
EVAL_ATTACK: Final = 2.0
#: Moves a race counts for a piece of the defeated pool (a reincarnation turn, then the way).
EVAL_POOL: Final = 7.0
#: Moves of the race one piece more on the board is worth.
EVAL_MATERIAL: Final = 0.5
#: The race's lead in moves that ``tanh`` turns into a value of about 0.76.
EVAL_SCALE: Final = 2.0
#: The rollout policy's draws per action (the best of them is played).
ROLLOUT_DRAWS: Final = 3
#: A race that cannot finish (fewer than five pieces left for any field).
_FAR: Final = 99.0
#: Depths per square in ``STATUE_COSTS``.
_DEPTHS: Final = MAX_DEPTH + 1


def result_words(winner: int | None, passes: int) -> str:
    """The end of a game in TacTiki's words, from its winner (``None``: a draw) and the passes
    made last: what ``state.result_text()`` says and the text renderings print after ``Game
    over after n turns:``.

    >>> result_words(1, 0), result_words(None, 2), result_words(None, 0)
    ('TAC (player 1) wins with a statue', 'a draw (two passes in a row)', 'a draw (turn limit)')
    """
    if winner is not None:
        return f"{seat_words(winner)} wins with a statue"
    return "a draw (two passes in a row)" if passes >= 2 else "a draw (turn limit)"


#: The state's own fields (see ``State.position_fields``).
_FIELDS: Final = (
    "_battles",
    "_board",
    "_candidates",
    "_passes",
    "_phase",
    "_placed",
    "_player",
    "_pool",
    "_rules",
    "_step",
    "_tagging",
    "_tops",
    "_turns",
    "_winner",
)


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

    __slots__ = _FIELDS
    position_fields = _FIELDS
    #: Not compared by ``==``: the game's options (``_rules``, the same for every state), what
    #: follows from the board and pools (the masks ``_tops``, the setup counts ``_placed``), the
    #: battle log (how the position came about, like the history), the turn count without a
    #: turn limit, and the flag of a world template's replay.
    derived_fields = frozenset({"_battles", "_placed", "_rules", "_tagging", "_tops", "_turns"})

    def _init_position(self) -> None:
        #: The game's options (``game.rules``), the same object for every state of the game.
        self._rules: TacTikiRules = self.game.rules
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
        #: Only after :meth:`tag_pieces` (a world template's replay): each piece put down carries,
        #: above its code's six bits, the history index of the action that put it down.
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

    def result_text(self) -> str | None:
        """The result in TacTiki's words (:func:`result_words`): who built a statue, or why the
        game was drawn; ``None`` while it goes on.

        >>> import tikigames
        >>> state = tikigames.load("tactiki", max_turns=1).new_initial_state()
        >>> for _ in range(20):
        ...     state.apply_action(state.legal_actions()[0])
        >>> state.result_text()
        >>> while not state.is_terminal():
        ...     state.apply_action(state.legal_actions()[0])
        >>> state.turns(), state.result_text()
        (1, 'a draw (turn limit)')
        """
        if self._phase != OVER:
            return None
        return result_words(self.winner(), self._passes)

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

    def mover(self, index: int = -1) -> int:
        """The seat that made the action ``history()[index]`` (by default the last): the
        player to play before it (TacTiki has no chance: every action is a seat's). Its undo
        record keeps that player, so asking costs a lookup and playing nothing. Who moved is
        public: an observation tells it too (:meth:`TacTikiObservation.mover
        <tikigames.tactiki.observation.TacTikiObservation.mover>`), and the pictures read it
        from either to name a battle's attacker.

        A move turn may hold two moves, so the seats do not simply alternate: TIKI's first
        move below has a second one.

        >>> import tikigames
        >>> state = tikigames.load("tactiki").new_initial_state()
        >>> while state.move_number() < 20:  # the setup: TIKI's ten pieces, then TAC's
        ...     state.apply_action(state.legal_actions()[0])
        >>> for text in ["a1-a2", "a2-a3", "a5-a4"]:
        ...     state.apply_action(state.parse_action(text))
        >>> state.mover(0), state.mover(19), state.mover(20), state.mover(21), state.mover()
        (0, 1, 0, 0, 1)

        Raises:
            IndexError: no action has that index.
        """
        size = self.move_number()
        if not -size <= index < size:
            raise IndexError(f"no action {index} in a history of {size}")
        record = self._undo_record(index)
        # A move's record is (meta, snapshot), every other one meta itself; meta[1] the player.
        meta = record[0] if len(record) == 2 else record
        seat: int = meta[1]
        return seat

    def passes(self) -> int:
        """The consecutive passes just made (two end the game in a draw)."""
        return self._passes

    # ----------------------------------------------------------------- the fast path

    def random_action(self, rng: Random) -> TacTikiAction:
        """:meth:`State.random_action <tikigames.State.random_action>` without the test for a
        chance node, which TacTiki never has (a tenth of a random playout's time, measured)."""
        return self._draw_legal(rng)

    # ----------------------------------------------------------------- search bots' knowledge

    def evaluate(self) -> list[float]:
        """The returns once over; before that a guess from the statue race, a heuristic for
        search bots, not a rule (bots call it on worlds they drew, so it reads every rank).

        Each player's race is the fewest single moves they need to finish a statue on one of
        the opponent's start fields: the pieces still missing there (five less the player's
        own already there under their own top piece), each brought by the nearest of the
        player's movable pieces (its distance in moves, plus one per piece above it: see
        ``STATUE_COSTS``; a piece of the defeated pool costs ``EVAL_POOL``), plus
        ``EVAL_ATTACK`` where the opponent holds the field's top; with ``strict_statue`` a
        field where the opponent's piece lies under the player's top is out of the race. The
        player to move is
        credited with the moves left in their turn, each piece on the board with
        ``EVAL_MATERIAL`` moves. The lead ``d`` in moves gives ``tanh(d / EVAL_SCALE)`` to the
        leader and its opposite to the other. The setup is even: ``[0, 0]``."""
        phase = self._phase
        if phase != PLAY:
            return self.returns() if phase == OVER else [0.0, 0.0]
        board = self._board
        # Per player: the costs of its movable pieces to each opponent's start field (one
        # tuple of five per piece), its pieces already in each of those fields (under its own
        # top), and what each field costs beyond the pieces (an attack, or no statue ever).
        pieces: list[list[tuple[int, ...]]] = [[], []]
        have = [[0] * 5, [0] * 5]
        extra = [[0.0] * 5, [0.0] * 5]
        costs = STATUE_COSTS
        strict = self._rules.strict_statue
        for square in range(NUM_SQUARES):
            column = board[square]
            if not column:
                continue
            index = len(column) - 1
            top = column[index] & 1
            base = square * _DEPTHS
            if square < 5 or square >= 20:
                # A start field: its owner's pieces move only from the top run; the intruder's
                # pieces are locked, and count toward a statue when the intruder holds the top.
                owner = 0 if square < 5 else 1
                if top != owner:
                    held = 0
                    for code in column:
                        if code & 1 == top:
                            held += 1
                    have[top][square % 5] = held
                    if strict and held < len(column):
                        extra[top][square % 5] = _FAR  # an owner's piece under: never a statue
                    continue
                extra[1 - owner][square % 5] = EVAL_ATTACK
                table = costs[owner]
                own = pieces[owner]
                while index >= 0 and column[index] & 1 == owner:
                    own.append(table[base])
                    if base % _DEPTHS < MAX_DEPTH:
                        base += 1
                    index -= 1
                continue
            end = base + MAX_DEPTH
            while index >= 0:
                owner = column[index] & 1
                pieces[owner].append(costs[owner][base])
                if base < end:
                    base += 1
                index -= 1
        pool = self._pool
        race = [0.0, 0.0]
        for player in (0, 1):
            mine = pieces[player]
            count = len(mine)
            spare = pool[6 * player]
            best = _FAR
            file = 0
            # One tuple per file: every movable piece's cost to that field.
            for each in zip(*mine, strict=True) if mine else [()] * 5:
                need = STATUE - have[player][file]
                if count >= need:
                    cost = float(sum(sorted(each)[:need]))
                elif count + spare >= need:
                    cost = sum(each) + EVAL_POOL * (need - count)
                else:
                    file += 1
                    continue
                cost += extra[player][file]
                if cost < best:
                    best = cost
                file += 1
            race[player] = best - EVAL_MATERIAL * (PIECES_PER_PLAYER - spare)
        race[self._player] -= 2 - self._step
        value = math.tanh((race[1] - race[0]) / EVAL_SCALE)
        return [value, -value]

    def rollout_action(self, rng: Random) -> TacTikiAction:
        """The search bots' playout policy, a heuristic, not a rule: the best of
        ``ROLLOUT_DRAWS`` uniform draws from the legal actions (the first drawn on a tie),
        by a score read off the board: a move onto an opponent's start field the mover holds
        (a statue grows) 5, onto an empty one 4; an attack whose first battle the mover wins
        3, ties 1, loses −3; a forward move 1 more; a reincarnation 1. It reads the ranks
        (bots call it on worlds they drew) and draws only from ``rng``."""
        legal = self._legal_shared()
        count = len(legal)
        if count == 0:
            return self._draw_legal(rng)  # raises: the game is over
        if count == 1 or self._phase != PLAY:
            return legal[int(rng.random() * count)]
        player = self._player
        board = self._board
        advance = ADVANCE[player]
        opponent_start = ON_START[1 - player]
        best = legal[0]
        best_score = -9  # below every score: the first draw is taken
        for _ in range(ROLLOUT_DRAWS):
            action = legal[int(rng.random() * count)]
            kind = action.kind
            if kind == MOVE:
                target = action.target
                score = advance[target] - advance[action.square]
                column = board[target]
                if column:
                    top = column[-1]
                    if top & 1 != player:
                        result = OUTCOME[board[action.square][-1] >> 1 & 7][top >> 1 & 7]
                        score += 3 if result > 0 else (1 if result == 0 else -3)
                    elif opponent_start[target]:
                        score += 5
                elif opponent_start[target]:
                    score += 4
            elif kind == REINCARNATE:
                score = 1
            else:
                score = 0
            if score > best_score:
                best, best_score = action, score
        return best

    # ----------------------------------------------------------------- apply / undo

    def _do(self, action: TacTikiAction) -> Any:
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
                snapshot = (piece, tuple(column), tuple(self._pool), tuple(self._candidates))
                record: Any = (meta, snapshot)
                if self._attack(piece, column):
                    tops[player] |= 1 << target
                    tops[1 - player] &= ~(1 << target)
            else:
                record = (meta, None)
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
            return record
        if kind == PLACE:
            square = action.square
            base = 6 * player
            code = player | action.rank << 1
            if self._tagging:
                code |= self.move_number() << TAG_SHIFT
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
            return meta
        if kind == REINCARNATE:
            square = action.square
            base = 6 * player
            code = player | action.rank << 1 | REINCARNATED
            if self._tagging:
                code |= self.move_number() << TAG_SHIFT
            board[square].append(code)
            tops[player] |= 1 << square
            self._pool[base] -= 1
            self._pool[base + action.rank] -= 1
            self._passes = 0
            self._end_turn()
            return meta
        self._passes += 1
        self._end_turn()
        if self._passes >= 2:
            self._phase = OVER
            self._winner = DRAW
        return meta

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
        self._battles.append((self.move_number(), tuple(ranks)))
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
        if self._rules.strict_statue:
            return len(column) == STATUE and all(code & 1 == player for code in column)
        return sum(1 for code in column if code & 1 == player) >= STATUE

    def _end_turn(self) -> None:
        self._turns += 1
        self._step = 0
        limit = self._rules.max_turns
        if limit is not None and self._turns >= limit:
            self._phase = OVER
            self._winner = DRAW
        else:
            self._player ^= 1

    def _undo_last(self, action: TacTikiAction, record: Any) -> None:
        kind = action.kind
        board = self._board
        if kind == MOVE:
            meta, snapshot = record
            if snapshot is None:
                board[action.square].append(board[action.target].pop())
            else:
                piece, column, pool, candidates = snapshot
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
            return type(self)(self.game, self)
        return cast(Self, TacTikiState(self.game, self))

    def _copy_into(self, new: TacTikiState) -> None:
        new._rules = self._rules
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

    # ----------------------------------------------------------------- the world template's path

    def tag_pieces(self) -> None:
        """From now on, tell the pieces put down apart: each placement's or reincarnation's
        piece carries, above its code's six bits (:data:`TAG_SHIFT`), the history index of
        the action that put it down — on the board, and in the attacked columns the undo
        records copy. Such codes are no codes of ``tikigames.tactiki.data``: only the
        resampler's world template (:class:`tikigames.tactiki.resample.WorldTemplate`) reads
        a tagged replay, and its clones are untagged again (the codes they copied are not).
        One flag read per placement or reincarnation is all it costs the others.

        >>> import tikigames
        >>> from tikigames.tactiki.data import rank_of
        >>> from tikigames.tactiki.state import TAG_SHIFT
        >>> state = tikigames.load("tactiki").new_initial_state()
        >>> state.tag_pieces()
        >>> for text in ["3@a1", "5@a1"]:
        ...     state.apply_unchecked(state.parse_action(text))
        >>> [(code >> TAG_SHIFT, rank_of(code)) for code in state.board_codes()[0]]
        [(0, 3), (1, 5)]
        """
        self._tagging = True

    def undo_record(self, index: int) -> Any:
        """The undo record of ``history()[index]`` (read only; its shape is in the module's
        docstring): for the world template, which patches the ones of its worlds."""
        return self._undo_record(index)

    def rewrite_hidden_unchecked(
        self,
        actions: Sequence[tuple[int, TacTikiAction]],
        records: Sequence[tuple[int, Any]],
        columns: Sequence[tuple[int, list[int]]],
        placed: Sequence[tuple[int, int]] = (),
        pool: Sequence[int] | None = None,
    ) -> None:
        """Make this state another world of its history, whose hidden ranks differ: put each
        ``(index, action)`` of ``actions`` at ``history()[index]`` and each ``(index, record)``
        of ``records`` as its undo record, each ``(square, codes)`` of ``columns`` as that
        square's column (the list is kept), add each ``(index, change)`` of ``placed`` to the
        setup counts (``[6 * player + rank]``) and ``pool[i]`` to the defeated pools' table's
        entry ``i``; the caches derived from the history are forgotten.

        The world template's fast path (:class:`tikigames.tactiki.resample.WorldTemplate`),
        unchecked: the caller promises that the result is exactly the state that a replay of
        the rewritten history gives (each new action the placement or reincarnation of a piece
        that never fought, in place of one of another rank).

        >>> import tikigames
        >>> game = tikigames.load("tactiki")
        >>> state, replay = game.new_initial_state(), game.new_initial_state()
        >>> for one, other in [("3@a1", "4@a1"), ("5@a1", "5@a1")]:
        ...     state.apply_action(state.parse_action(one))
        ...     replay.apply_action(replay.parse_action(other))
        >>> four = replay.history()[0]
        >>> state.rewrite_hidden_unchecked([(0, four)], [], [(0, [8, 10])], [(3, -1), (4, 1)])
        >>> state == replay, state.history() == replay.history()
        (True, True)
        >>> state.legal_actions() == replay.legal_actions()
        True
        """
        board = self._board
        for square, column in columns:
            board[square] = column
        if placed:
            table = self._placed
            for index, change in placed:
                table[index] += change
        if pool is not None:
            self._pool = list(map(add, self._pool, pool))
        self._rewrite_past(actions, records)

    def _position_key(self) -> tuple[Any, ...]:
        # The turn count matters only while it can end the game.
        turns = self._turns if self._rules.max_turns is not None else -1
        return (
            self._phase, self._player, self._step, self._passes, self._winner, turns,
            tuple(map(tuple, self._board)), tuple(self._pool), tuple(self._candidates),
        )  # fmt: skip

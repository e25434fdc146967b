"""Resampling a TacTiki state from an observation.

The hidden parts of a history are the ranks of the placements and reincarnations the observer did
not make (both players' for a spectator); everything else — every move, every rank a battle
revealed, every defeat — is public. :class:`TacTikiResampler` draws the hidden ranks
**uniformly among all the hidden histories consistent with the observation**:

1. *Follow the pieces.* The public history is replayed on a board of piece identities (one per
   placement or reincarnation). A battle's revealed ranks fix the ranks of the pieces it met and
   decide which of them are defeated; each defeat adds a known rank to its owner's pool.
2. *Draw the setup ranks.* A player's placements must use each rank at most twice (exactly twice
   once the setup is over); the revealed ones are fixed. The free ranks are drawn by first
   choosing how many of each rank (each count vector weighted by its number of orderings) and
   then a random order: every consistent sequence is equally likely.
3. *Draw the reincarnation ranks.* Each must be in the pool at its moment, which depends on the
   earlier choices, so the consistent sequences are counted by dynamic programming over the pool's
   contents and drawn forwards in proportion to the number of completions. Drawing each rank
   uniformly from the pool would over-weight the sequences with fewer later options.

The setup and the reincarnations constrain each other in nothing (the pool only ever holds
defeated, hence revealed, ranks), and nor do the two players, so the product of these uniform
draws is uniform over the consistent histories.

Step 1 and the counting tables of steps 2 and 3 depend on the observation alone, so the
resampler does them once, when it is built; each draw only draws the ranks and builds the state
of its history. The first draw replays that history through the rules engine, trusted
(``Observation.from_json`` replays the samples of claimed data with checks and compares their
observation with the claim). The second replays it once more into a
:class:`WorldTemplate`, and from then on every world is a copy of the
template with the drawn ranks: the pieces whose ranks vary never fought, so every world goes
through the same moves and battles, and the copy is exactly the state the replay gives, undo
records included. Draws consume ``rng`` exactly as a fresh ``resample`` does, so a seeded
search plays the same moves either way.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from math import factorial
from operator import add
from typing import TYPE_CHECKING, Any

from tikigames.core.action import ActionTable
from tikigames.core.errors import ActionError, InvalidStateError
from tikigames.core.resample import Resampler
from tikigames.tactiki.actions import (
    HIDDEN_TEXTS,
    MOVE,
    PLACE,
    PLACEMENTS,
    REINCARNATE,
    REINCARNATIONS,
    TacTikiAction,
)
from tikigames.tactiki.data import (
    COPIES,
    NUM_SQUARES,
    ON_START,
    PIECES_PER_PLAYER,
    RANKS,
    outcome,
)
from tikigames.tactiki.observation import TacTikiObservation
from tikigames.tactiki.state import TAG_SHIFT, TacTikiState

if TYPE_CHECKING:
    from tikigames.tactiki.game import TacTiki

__all__ = ["TacTikiResampler", "WorldTemplate", "uniform_reincarnations", "uniform_setup"]

#: A pool event: ``(rank, None)`` a defeated piece of ``rank`` joins the pool; ``(0, piece)`` a
#: reincarnation takes ``piece`` (whose rank may be known or not) out of it.
Event = tuple[int, int | None]


class _Pieces:
    """Step 1: the public history replayed on a board of piece identities."""

    def __init__(self) -> None:
        self.owner: list[int] = []
        #: Each piece's rank, 0 while unknown.
        self.rank: list[int] = []
        self.board: list[list[int]] = [[] for _ in range(NUM_SQUARES)]
        #: Per player: the pieces of its placements, in order.
        self.placed: tuple[list[int], list[int]] = ([], [])
        #: Per player: its pool's events, in order.
        self.events: tuple[list[Event], list[Event]] = ([], [])
        #: History index → the piece a placement or reincarnation put on the board.
        self.created: dict[int, int] = {}

    def fix(self, piece: int, rank: int) -> None:
        if self.rank[piece] not in (0, rank):
            raise InvalidStateError(f"a piece is revealed as both {self.rank[piece]} and {rank}")
        self.rank[piece] = rank

    def put(self, index: int, kind: int, square: int, rank: int) -> None:
        owner = 0 if ON_START[0][square] else 1
        piece = len(self.owner)
        self.owner.append(owner)
        self.rank.append(rank)
        self.board[square].append(piece)
        self.created[index] = piece
        if kind == PLACE:
            self.placed[owner].append(piece)
        else:
            self.events[owner].append((0, piece))

    def move(self, source: int, target: int, ranks: Sequence[int] | None) -> None:
        if not self.board[source]:
            raise InvalidStateError("a move from an empty square")
        attacker = self.board[source].pop()
        column = self.board[target]
        column.append(attacker)
        if ranks is None:
            return
        self.fix(attacker, ranks[0])
        for position, rank in enumerate(ranks[1:], 2):
            if len(column) < 2 or self.owner[column[-2]] == self.owner[attacker]:
                raise InvalidStateError("a battle with no defender")
            defender = column[-2]
            self.fix(defender, rank)
            result = outcome(ranks[0], rank)
            if result > 0:
                del column[-2]
                self.events[self.owner[defender]].append((rank, None))
                continue
            if result < 0:
                column.pop()
                self.events[self.owner[attacker]].append((ranks[0], None))
            if position != len(ranks):
                raise InvalidStateError("a battle goes on after it stopped")
            break


class TacTikiResampler(Resampler["TacTiki", TacTikiObservation, TacTikiState]):
    """Draws TacTiki states consistent with one observation (see the module's docstring).

    Building it does step 1 once — the public history parsed and followed on the board of piece
    identities, and the counting tables of steps 2 and 3 — so each draw only draws the hidden
    ranks and builds the state (a replay, then from the second draw on a copy of a template).

    Raises:
        InvalidStateError: (when built) the observation's history and battles are no history of
            the game.
    """

    def __init__(self, game: TacTiki, obs: TacTikiObservation) -> None:
        super().__init__(game, obs)
        table: ActionTable[TacTikiAction] = game.action_table
        battles = dict(obs.battles)
        if len(battles) != len(obs.battles):
            raise InvalidStateError("two battles at one history index")
        pieces = _Pieces()
        #: The history: an action, or ``(kind, square)`` for a hidden placement or
        #: reincarnation, whose rank is that of the piece it created.
        self._steps: list[TacTikiAction | tuple[int, int]] = []
        for index, text in enumerate(obs.history):
            hidden = HIDDEN_TEXTS.get(text)
            if hidden is not None:
                kind, square = hidden
                pieces.put(index, kind, square, 0)
                self._steps.append(hidden)
                continue
            try:
                action = table.parse(text)
            except ActionError as error:
                raise InvalidStateError(f"history[{index}]: {error}") from None
            if action.kind == MOVE:
                pieces.move(action.square, action.target, battles.pop(index, None))
            elif action.kind in (PLACE, REINCARNATE):
                pieces.put(index, action.kind, action.square, action.rank)
            self._steps.append(action)
        if battles:
            raise InvalidStateError(f"a battle at history index {min(battles)}, which is no move")
        ranks = pieces.rank
        #: The ranks every draw shares (0 for a piece whose rank is drawn).
        self._ranks = ranks
        #: The pieces the hidden steps created, in history order.
        self._created = [
            pieces.created[i]
            for i, step in enumerate(self._steps)
            if not isinstance(step, TacTikiAction)
        ]
        #: The hidden steps whose pieces no battle revealed (their ranks vary from draw to
        #: draw): their history indices, and their pieces.
        self._varying_at: list[int] = []
        self._varying: list[int] = []
        created = iter(self._created)
        for index, step in enumerate(self._steps):
            if not isinstance(step, TacTikiAction):
                piece = next(created)
                if not ranks[piece]:
                    self._varying_at.append(index)
                    self._varying.append(piece)
        #: Built on the second draw, if the observation allows (see ``WorldTemplate``).
        self._template: WorldTemplate | None = None
        self._drawn = False
        self._exact = True
        #: Per player: its placements and their draw, then its reincarnations and theirs.
        self._draws = []
        for seat in (0, 1):
            placed = pieces.placed[seat]
            events = pieces.events[seat]
            known = [(added, None if taken is None else ranks[taken]) for added, taken in events]
            taken_pieces = [taken for _, taken in events if taken is not None]
            self._draws.append(
                (
                    placed,
                    _SetupDraw([ranks[piece] for piece in placed]),
                    taken_pieces,
                    _ReincarnationDraw(known),
                )
            )

    def draw(self, rng: random.Random) -> TacTikiState:
        ranks = self._ranks.copy()
        for placed, setup, taken, reincarnations in self._draws:
            for piece, rank in zip(placed, setup.draw(rng), strict=True):
                ranks[piece] = rank
            for piece, rank in zip(taken, reincarnations.draw(rng), strict=True):
                ranks[piece] = rank
        template = self._template
        if template is None and self._drawn and self._exact:
            # The second draw: from now on, worlds are copies of a template (see the module).
            try:
                template = WorldTemplate(self.game, self._history_of(ranks), self._varying_at)
            except ValueError:  # a varying piece fights: data no history gives; replay it
                self._exact = False
            self._template = template
        self._drawn = True
        if template is not None:
            return template.copy([ranks[piece] for piece in self._varying])
        state = self.game.new_initial_state()
        # Trusted replay: Observation.from_json re-checks the samples of claimed data.
        for action in self._history_of(ranks):
            state.apply_unchecked(action)
        return state

    def _history_of(self, ranks: list[int]) -> list[TacTikiAction]:
        """The history with the pieces of the hidden steps given ``ranks``."""
        created = iter(self._created)
        history = []
        for step in self._steps:
            if not isinstance(step, TacTikiAction):
                kind, square = step
                rows = PLACEMENTS if kind == PLACE else REINCARNATIONS
                step = rows[square][ranks[next(created)] - 1]
            history.append(step)
        return history


class WorldTemplate:
    """One history replayed with its pieces told apart, to copy with other hidden ranks: how the
    resampler builds its worlds without replaying the history for each.

    The worlds of one observation differ only in the ranks of the pieces put down unseen (by
    a placement or a reincarnation) that no battle revealed. Such a piece never fought, and a
    rank matters to the course of a game only in a battle; so every world goes through the
    same moves, turns, battles and masks, and differs only in those pieces' codes, the pools
    and setup counts they pass through, and the texts of the actions that put them down. The
    template replays one world once, each piece tagged with the history index of the action
    that put it down (:meth:`TacTikiState.tag_pieces`), and notes where the varying pieces
    appear — the board, the undo records (an attacked column, a pool copied after a
    varying reincarnation) and the history. :meth:`copy` is then a clone and a few
    patches (:meth:`TacTikiState.rewrite_hidden_unchecked`), and gives exactly the state a
    replay of the same history with the new ranks gives, undo records included (a copy undoes
    to the start).

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

    __slots__ = ("_attacks", "_base", "_columns", "_placements", "_reinc", "_slots",
                 "_template_ranks")  # fmt: skip

    def __init__(
        self, game: TacTiki, actions: Sequence[TacTikiAction], varying: Sequence[int]
    ) -> None:
        state = game.new_initial_state()
        state.tag_pieces()
        for action in actions:
            state.apply_unchecked(action)
        #: A varying piece's number in ``varying``, plus one: its tag in the recipes below.
        number = {index: j + 1 for j, index in enumerate(varying)}
        history = state.history()
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
        # A finished setup holds two pieces of each rank in whatever order they were placed:
        # its counts are every world's, and need no patch.
        done = [0, 0]
        for action in history:
            if action.kind == PLACE:
                done[action.owner] += 1
        self._placements = [
            entry for entry in self._placements if done[entry[1] // 6] < PIECES_PER_PLAYER
        ]

        def recode(code: int) -> int:
            return (code & 63) | number.get(code >> TAG_SHIFT, 0) << TAG_SHIFT

        # The attacks' records: untagged for the base, and a recipe for the copies of those
        # whose column holds a varying piece or whose pools follow a varying reincarnation.
        # (A plain move's record names no piece: every world's is the replay's.)
        undo: list[tuple[int, Any]] = []
        self._attacks: list[Any] = []
        battles = iter(state.battles())
        for index in range(len(history)):
            record = state.undo_record(index)
            if len(record) != 2 or record[1] is None:
                continue  # a placement's, reincarnation's, pass's or plain move's
            meta, (piece, column, pool, candidates) = record
            _, ranks = next(battles)
            fighters = [piece, *column[len(column) - len(ranks) + 1 :]]
            if any(code >> TAG_SHIFT in number for code in fighters):
                raise ValueError(f"a varying piece fights at history[{index}]")
            untagged = tuple([c & 63 for c in column])
            undo.append((index, (meta, (piece & 63, untagged, pool, candidates))))
            later = bisect_left(reinc_at, index)  # the varying reincarnations before it
            if later or any(code >> TAG_SHIFT in number for code in column):
                recipe = (index, meta, piece & 63, tuple(map(recode, column)), pool, later)
                self._attacks.append((*recipe, candidates))
        self._columns: list[tuple[int, tuple[int, ...]]] = []
        board = []
        for square, column in enumerate(state.board_codes()):
            board.append((square, [code & 63 for code in column]))
            if any(code >> TAG_SHIFT in number for code in column):
                self._columns.append((square, tuple(map(recode, column))))
        base = state.clone()  # untagged, but for the codes it copied: untag them
        base.rewrite_hidden_unchecked((), undo, board)
        self._base = base

    def copy(self, ranks: Sequence[int]) -> TacTikiState:
        """The state of the template's history with ``ranks[j]`` the rank of the piece put
        down at ``varying[j]`` (each rank one the rules allow there: the caller's promise)."""
        world = self._base.clone()
        # ``lut[number]`` turns a recipe's code into the world's: the template's rank bits
        # exchanged for the drawn ones (number 0, a fixed piece, keeps its code).
        lut = [0]
        lut += [(old ^ new) << 1 for old, new in zip(self._template_ranks, ranks, strict=True)]
        actions = [
            (index, rows[rank - 1])
            for (index, rows, _owner), rank in zip(self._slots, ranks, strict=True)
        ]
        placed: list[tuple[int, int]] = []
        for j, base, old in self._placements:
            placed.append((base + old, -1))
            placed.append((base + ranks[j], 1))
        # ``shifts[k]``: what the varying reincarnations before the k + 1-th changed in a pool.
        shift = [0] * 12
        shifts = [shift]
        for j, base, old in self._reinc:
            shift = shift.copy()
            shift[base + old] += 1
            shift[base + ranks[j]] -= 1
            shifts.append(shift)
        columns = [
            (square, [(code & 63) ^ lut[code >> TAG_SHIFT] for code in column])
            for square, column in self._columns
        ]
        records: list[tuple[int, Any]] = []
        for index, meta, piece, column, pool, later, candidates in self._attacks:
            codes = tuple([(code & 63) ^ lut[code >> TAG_SHIFT] for code in column])
            if later:
                pool = tuple(map(add, pool, shifts[later]))
            records.append((index, (meta, (piece, codes, pool, candidates))))
        world.rewrite_hidden_unchecked(
            actions, records, columns, placed, shift if self._reinc else None
        )
        return world


def uniform_setup(fixed: Sequence[int], rng: random.Random) -> list[int]:
    """Ranks for a player's placements, uniform among the sequences that use each rank at most
    twice and agree with ``fixed`` (a rank, or 0 where free)."""
    return _SetupDraw(fixed).draw(rng)


class _SetupDraw:
    """Step 2 for one player, prepared: the count vectors of the free ranks and their weights."""

    def __init__(self, fixed: Sequence[int]) -> None:
        self.fixed = list(fixed)
        caps = {rank: COPIES for rank in RANKS}
        for rank in fixed:
            if rank:
                caps[rank] -= 1
                if caps[rank] < 0:
                    raise InvalidStateError(f"more than {COPIES} pieces of rank {rank} placed")
        free = sum(1 for rank in fixed if not rank)
        caps_vector = tuple(caps[rank] for rank in RANKS)
        #: The count vectors to draw from, with their weights; one vector needs no draw.
        self.vectors: list[tuple[int, ...]] = []
        self.weights: list[int] = []
        if not free:
            self.vectors = [(0,) * len(RANKS)]
        elif free == sum(caps_vector):  # a finished setup: the remaining pieces, in some order
            self.vectors = [caps_vector]
        else:
            # Every count vector of the free ranks, weighted by its number of orderings.
            vectors: list[tuple[int, ...]] = [()]
            for cap in caps_vector:
                vectors = [(*v, n) for v in vectors for n in range(cap + 1)]
            self.vectors = [v for v in vectors if sum(v) == free]
            if not self.vectors:
                raise InvalidStateError("more placements than pieces")
            self.weights = [factorial(free) // _product_of_factorials(v) for v in self.vectors]
        self.free = free

    def draw(self, rng: random.Random) -> list[int]:
        if not self.free:
            return self.fixed.copy()
        counts = self.vectors[0] if not self.weights else _pick(self.vectors, self.weights, rng)
        drawn = [rank for rank, n in zip(RANKS, counts, strict=True) for _ in range(n)]
        rng.shuffle(drawn)
        it = iter(drawn)
        return [rank or next(it) for rank in self.fixed]


def uniform_reincarnations(
    events: Sequence[tuple[int, int | None]], rng: random.Random
) -> list[int]:
    """The rank of each reincarnation in ``events``, uniform among the consistent sequences.

    ``events`` is a player's pool history: ``(rank, None)`` a defeated piece of ``rank`` joins
    the pool; ``(0, rank)`` a reincarnation takes a piece out of it — of that rank, or of any rank
    in the pool when ``rank`` is 0.
    """
    return _ReincarnationDraw(events).draw(rng)


class _ReincarnationDraw:
    """Step 3 for one player, prepared: the number of consistent completions from each pool
    reachable before each event, and from them each reincarnation's choices."""

    def __init__(self, events: Sequence[tuple[int, int | None]]) -> None:
        self.events = list(events)
        self.counts: list[dict[tuple[int, ...], int]] = []
        #: The pool before the first reincarnation.
        self.start = _EMPTY
        #: Per reincarnation, by the pool before it: the total weight of its choices, and each
        #: choice as ``(weight, the pool before the next reincarnation, the rank taken)``.
        self.choices: list[dict[tuple[int, ...], tuple[int, list[Choice]]]] = []
        if all(added for added, _ in events):
            return  # no reincarnation: nothing to draw
        # Forward: the pools reachable before each event.
        layers: list[set[tuple[int, ...]]] = [{_EMPTY}]
        for added, known in events:
            layer = set()
            for pool in layers[-1]:
                for nxt in _after(pool, added, known):
                    layer.add(nxt)
            layers.append(layer)
        # Backward: the number of consistent completions from each reachable pool.
        counts: list[dict[tuple[int, ...], int]] = [{pool: 1 for pool in layers[-1]}]
        for (added, known), layer in zip(reversed(events), reversed(layers[:-1]), strict=True):
            later = counts[-1]
            counts.append(
                {pool: sum(later[n] for n in _after(pool, added, known)) for pool in layer}
            )
        counts.reverse()
        if not counts[0][_EMPTY]:
            raise InvalidStateError("a reincarnation of a rank that is not in the pool")
        self.counts = counts
        self.start = self._through_defeats(_EMPTY, 0)
        for step, (added, known) in enumerate(self.events):
            if added:
                continue
            table = {}
            for pool, total in counts[step].items():
                if not total:
                    continue
                options = []
                for nxt in _after(pool, added, known):
                    weight = counts[step + 1][nxt]
                    if weight:  # a choice of no completion is never drawn
                        rank = next(r for r in RANKS if nxt[r] < pool[r])
                        options.append((weight, self._through_defeats(nxt, step + 1), rank))
                table[pool] = (total, options)
            self.choices.append(table)

    def _through_defeats(self, pool: tuple[int, ...], step: int) -> tuple[int, ...]:
        """``pool`` after the defeats from event ``step`` to the next reincarnation."""
        for added, _ in self.events[step:]:
            if not added:
                break
            pool = (*pool[:added], pool[added] + 1, *pool[added + 1 :])
        return pool

    def draw(self, rng: random.Random) -> list[int]:
        # Forward, each choice in proportion to its completions: ``_pick`` over the prepared
        # choices (the same draws of ``rng``, the same result).
        chosen = []
        pool = self.start
        for table in self.choices:
            total, options = table[pool]
            threshold = rng.randrange(total)
            for weight, nxt, rank in options:
                threshold -= weight
                if threshold < 0:
                    chosen.append(rank)
                    pool = nxt
                    break
        return chosen


#: A reincarnation's choice: see ``_ReincarnationDraw.choices``.
Choice = tuple[int, tuple[int, ...], int]
_EMPTY: tuple[int, ...] = (0,) * 6


def _after(pool: tuple[int, ...], added: int, known: int | None) -> list[tuple[int, ...]]:
    """The pools an event can leave ``pool`` in."""
    if added:
        return [(*pool[:added], pool[added] + 1, *pool[added + 1 :])]
    ranks = [known] if known else RANKS
    return [(*pool[:r], pool[r] - 1, *pool[r + 1 :]) for r in ranks if pool[r]]


def _product_of_factorials(counts: Sequence[int]) -> int:
    product = 1
    for n in counts:
        product *= factorial(n)
    return product


def _pick(
    options: Sequence[tuple[int, ...]], weights: Sequence[int], rng: random.Random
) -> tuple[int, ...]:
    """One of ``options`` with probability proportional to its (int) weight, exactly."""
    threshold = rng.randrange(sum(weights))
    for option, weight in zip(options, weights, strict=True):
        threshold -= weight
        if threshold < 0:
            return option
    raise AssertionError("unreachable")

"""What a TacTiki player knows: every move, the owner and order of every piece, every rank a
battle revealed, and their own ranks — but not the ranks the opponent chose in the setup or in a
reincarnation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tikigames.core.constants import TERMINAL
from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import MAX_HISTORY, expect_int
from tikigames.tactiki.actions import ACTIONS, HIDDEN_TEXTS, MOVE, PASS, PLACE
from tikigames.tactiki.data import (
    ON_START,
    OUTCOME,
    PIECES_PER_PLAYER,
    PLAYER_NAMES,
    REVEALED,
    SQUARE_NAMES,
    STATUE,
    battle_words,
    rank_of,
)
from tikigames.tactiki.state import TacTikiState, result_words

if TYPE_CHECKING:
    from tikigames.tactiki.game import TacTiki

__all__ = ["Piece", "TacTikiObservation"]

#: A piece as an observer sees it: ``(owner, rank or None if unknown, revealed to both)``.
Piece = tuple[int, int | None, bool]


def _piece_views(viewer: int | None) -> tuple[Piece, ...]:
    """Every piece code (0–63) as ``viewer`` sees it."""
    views = []
    for code in range(64):
        owner, revealed = code & 1, bool(code & REVEALED)
        known = revealed or owner == viewer
        views.append((owner, rank_of(code) if known else None, revealed))
    return tuple(views)


#: Piece views for seat 0, seat 1 and the spectator (index −1).
_VIEWS = (_piece_views(0), _piece_views(1), _piece_views(None))

#: Every text a history holds, as ``(kind, square, target, rank or None)``: the actions' texts
#: and the hidden ones (``?@b1``, ``?*c1``) of the other side's placements and reincarnations.
_TEXTS: dict[str, tuple[int, int, int, int | None]] = {
    **{a.text: (a.kind, a.square, a.target, a.rank or None) for a in ACTIONS},
    **{text: (kind, square, -1, None) for text, (kind, square) in HIDDEN_TEXTS.items()},
}


#: An action as :func:`_followed` tells it: its ``_TEXTS`` entry, its mover, the piece, the
#: column and the ranks of its battle.
_Step = tuple[
    tuple[int, int, int, int | None], int, list[Any], list[list[Any]], tuple[int, ...] | None
]


def _followed(
    history: Sequence[str], battles: Sequence[tuple[int, tuple[int, ...]]]
) -> Iterator[_Step]:
    """The board followed along ``history`` by owners and the ranks its player knew, from
    public facts alone: per action, once it is done, ``(entry, mover, piece, column, ranks)``
    — what its text says (``(kind, square, target, rank or None)``), the seat that made it (a
    placement's or reincarnation's by its start row, a move's by the piece it moves, a pass by
    the turn: it follows the other's), the piece it put down or moved as ``[owner, rank or
    None]`` (``[]`` for a pass and for an attacker that lost), the column it went to (``[]``
    for a pass), and the ranks its battle revealed (``battles``; ``None`` for no battle), which
    removed the defeated. The one place that follows a history: the words and the movers read
    it, so that a picture never does.

    >>> [mover for _, mover, _, _, _ in _followed(["3@a1", "?@a5", "a1-a2", "pass"], [])]
    [0, 1, 0, 1]
    """
    known = dict(battles)
    board: list[list[list[Any]]] = [[] for _ in SQUARE_NAMES]
    mover = 1  # the setup's last placement is TAC's: a pass follows the other's turn
    for index, text in enumerate(history):
        entry = _TEXTS[text]
        kind, square, target, rank = entry
        if kind == PASS:
            mover = 1 - mover
            yield entry, mover, [], [], None
            continue
        if kind != MOVE:
            mover = 0 if ON_START[0][square] else 1
            piece: list[Any] = [mover, rank]
            column = board[square]
            column.append(piece)
            yield entry, mover, piece, column, None
            continue
        piece = board[square].pop()
        mover = piece[0]
        column = board[target]
        ranks = known.get(index)
        if ranks is not None:
            piece[1] = ranks[0]
            for other in ranks[1:]:
                column[-1][1] = other
                result = OUTCOME[ranks[0]][other]
                if result > 0:
                    column.pop()
                    continue
                if result < 0:
                    piece = []
                break
        if piece:
            column.append(piece)
        yield entry, mover, piece, column, ranks


def history_words(
    history: Sequence[str],
    battles: Sequence[tuple[int, tuple[int, ...]]],
    ending: str | None,
) -> tuple[str, ...]:
    """Each action of ``history`` in words, as the player whose history it is saw it: who did
    it (a placement's or reincarnation's owner by its start row, a move's by the piece it
    moves, a pass by the turn), the ranks the player knew then, each battle's reveals and
    results (``battles``), a column locked on an opponent's start field; ``ending`` (the
    result in words) follows the last action of a finished game. The board is followed by
    owners and known ranks alone, from these facts: no engine replays anything.

    >>> history_words(["3@a1", "?@a5", "a1-a2", "a5-a4", "a2-a3", "a4-a3"], [(5, (2, 3))], None)
    ... # doctest: +NORMALIZE_WHITESPACE
    ('TIKI places a 3 on a1', 'TAC places a piece on a5 (rank hidden)',
     'TIKI moves its 3 a1-a2', 'TAC moves a piece a5-a4', 'TIKI moves its 3 a2-a3',
     "TAC moves a4-a3 and attacks: TAC's 2 lost to TIKI's 3")
    """
    words = []
    for (kind, square, target, rank), mover, piece, column, ranks in _followed(history, battles):
        who = PLAYER_NAMES[mover]
        if kind == PASS:
            words.append(f"{who} passes")
            continue
        name = SQUARE_NAMES[square]
        if kind == PLACE:
            what = "a piece" if rank is None else f"a {rank}"
            hidden = " (rank hidden)" if rank is None else ""
            words.append(f"{who} places {what} on {name}{hidden}")
            continue
        if kind != MOVE:
            if rank is None:
                words.append(f"{who} brings a defeated piece back onto {name} (rank hidden)")
            else:
                words.append(f"{who} brings its defeated {rank} back onto {name}")
            continue
        move = f"{name}-{SQUARE_NAMES[target]}"
        if ranks is None:
            what = "a piece" if piece[1] is None else f"its {piece[1]}"
            said = f"{who} moves {what} {move}"
        else:
            said = f"{who} moves {move} and attacks: {battle_words(ranks, mover)}"
        if piece and ON_START[1 - mover][target]:
            count = sum(1 for other in column if other[0] == mover)
            said += f"; locked on {SQUARE_NAMES[target]} for good, {count} of {STATUE} for a statue"
        words.append(said)
    if ending is not None and words:
        words[-1] += f". Game over: {ending}"
    return tuple(words)


@dataclass(frozen=True, kw_only=True, repr=False)
class TacTikiObservation(Observation["TacTiki"]):
    """A TacTiki observation.

    >>> import tikigames
    >>> state = tikigames.load("tactiki").new_initial_state()
    >>> state.apply_action(state.parse_action("3@b1"))
    >>> state.observation(0).board[1], state.observation(1).board[1]
    (((0, 3, False),), ((0, None, False),))
    >>> state.observation(1).history
    ('?@b1',)

    Attributes:
        board: 25 columns, in the order a1, b1, …, e1, a2, …, e5; each a tuple of pieces bottom
            to top, each piece ``(owner, rank, revealed)``: ``rank`` is ``None`` where the
            observer does not know it, ``revealed`` whether a battle showed it to both players.
        pool_sizes: the number of defeated pieces in each player's pool.
        pools: per player, the ranks that may be in the pool, sorted: the observer's own pool
            exactly; of another pool every rank defeated less the ranks of reincarnated pieces
            revealed since — it holds ``pool_sizes[p]`` of them (all of them when the lengths
            agree).
        battles: one entry per attack, ``(history index, ranks)``: the attacker's rank, then
            each defender's rank in the order met (the results follow from the strength rule).
        turns: the number of finished turns.
        second_move: whether the player to move is making the second move of a turn.
        passes: consecutive passes so far (two end the game).
        winner: the seat that built a statue, else ``None``.
    """

    board: tuple[tuple[Piece, ...], ...]
    pool_sizes: tuple[int, int]
    pools: tuple[tuple[int, ...], tuple[int, ...]]
    battles: tuple[tuple[int, tuple[int, ...]], ...]
    turns: int
    second_move: bool
    passes: int
    winner: int | None

    @classmethod
    def _fields_of(cls, state: TacTikiState, player: int | None) -> dict[str, Any]:
        view = _VIEWS[-1 if player is None else player]
        defeated = (state.defeated(0), state.defeated(1))
        return {
            "board": tuple(tuple(map(view.__getitem__, column)) for column in state.board_codes()),
            "pool_sizes": (len(defeated[0]), len(defeated[1])),
            "pools": tuple(
                tuple(defeated[seat] if seat == player else state.pool_candidates(seat))
                for seat in (0, 1)
            ),
            "battles": tuple(state.battles()),
            "turns": state.turns(),
            "second_move": state.is_second_move(),
            "passes": state.passes(),
            "winner": state.winner(),
        }

    def history_in_words(self) -> tuple[str, ...]:
        """Each action of the history as this player saw it, in words (:func:`history_words`).

        >>> import tikigames
        >>> state = tikigames.load("tactiki").new_initial_state()
        >>> for text in ["3@b1", "2@b1"]:
        ...     state.apply_action(state.parse_action(text))
        >>> state.observation(1).history_in_words()
        ('TIKI places a piece on b1 (rank hidden)', 'TIKI places a piece on b1 (rank hidden)')
        >>> state.observation(0).history_in_words()[-1]
        'TIKI places a 2 on b1'
        """
        ending = None
        if self.current_player == TERMINAL:
            ending = result_words(self.winner, self.passes)
        return history_words(self.history, self.battles, ending)

    def mover(self, index: int = -1) -> int:
        """The seat that made the action ``history[index]`` (by default the last): public, as
        every owner is, so every observer tells the same as the state's
        :meth:`TacTikiState.mover <tikigames.tactiki.state.TacTikiState.mover>`. Worked out
        when asked, so that making an observation costs nothing more: the last action past
        the setup from whose turn it is now, any other by following the owners of the pieces
        along the history, as :meth:`history_in_words` does.

        >>> import tikigames
        >>> state = tikigames.load("tactiki").new_initial_state()
        >>> while state.move_number() < 20:
        ...     state.apply_action(state.legal_actions()[0])
        >>> for text in ["a1-a2", "a2-a3", "a5-a4"]:
        ...     state.apply_action(state.parse_action(text))
        >>> obs = state.observation(0)
        >>> obs.history[19:], [obs.mover(i) for i in (0, 19, 20, 21)], obs.mover()
        (('?@e5', 'a1-a2', 'a2-a3', 'a5-a4'), [0, 1, 0, 0], 1)

        Raises:
            IndexError: no action has that index.
        """
        size = len(self.history)
        if not -size <= index < size:
            raise IndexError(f"no action {index} in a history of {size}")
        if index < 0:
            index += size
        if index == size - 1 and index >= 2 * PIECES_PER_PLAYER:
            current = self.current_player
            if self.second_move:
                return current  # the first move of the turn being played
            if current != TERMINAL:
                return 1 - current  # it ended a turn: the other's now
            if self.winner is not None:
                return self.winner  # the move that built the statue
            return (self.turns - 1) % 2  # it ended the last turn; TIKI plays the even ones
        for at, (_, mover, _, _, _) in enumerate(_followed(self.history, self.battles)):
            if at == index:
                return mover
        raise AssertionError("unreachable: index is in range")  # pragma: no cover

    @classmethod
    def _knowledge_from_json(cls, game: TacTiki, data: Mapping[str, Any]) -> dict[str, Any]:
        # The resampler reads the battle log (the ranks each attack revealed); every other
        # field is checked by comparison with a resampled state's observation.
        battles = data["battles"]
        if not isinstance(battles, list) or len(battles) > MAX_HISTORY:
            raise InvalidStateError("'battles' must be a list of [index, [ranks]]")
        parsed = []
        for index, entry in enumerate(battles):
            field = f"battles[{index}]"
            if not isinstance(entry, list) or len(entry) != 2:
                raise InvalidStateError(f"{field!r} must be [history index, [ranks]]")
            at = expect_int(entry[0], field, 0, MAX_HISTORY)
            ranks = entry[1]
            if not isinstance(ranks, list) or not 2 <= len(ranks) <= 2 * PIECES_PER_PLAYER:
                raise InvalidStateError(f"{field!r} must list the ranks of a battle")
            parsed.append((at, tuple(expect_int(rank, field, 1, 5) for rank in ranks)))
        return {"battles": tuple(parsed)}

"""What a Paikō player knows: everything. Paikō has no hidden information, so an observation
holds the whole position (in a readable, JSON-ready form) beside the history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from tikigames.core.observation import Observation
from tikigames.paiko.actions import (
    DEPLOY,
    DRAFT,
    DRAW,
    GIVE,
    PASS,
    REDEPLOY,
    STAY,
    TURN,
    PaikoAction,
)
from tikigames.paiko.data import (
    COVER_SETS,
    FACED,
    FACINGS,
    HOME,
    LOTUS,
    PLAYER_NAMES,
    QUARTER,
    SAI,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TIE_LOST,
    TIE_POINTS,
    TILE_INDEX,
    result_words,
)
from tikigames.paiko.state import PaikoState
from tikigames.paiko.words import (
    Pieces,
    a_tile,
    and_list,
    owned,
    placed,
    points,
    quarter_name,
    score_in_words,
    threats_in_words,
    tile_count,
)

if TYPE_CHECKING:
    from tikigames.paiko.game import Paiko  # noqa: F401 (base class)

__all__ = ["LOOK_BACK", "PaikoObservation"]

#: How many actions back a picture looks for its highlighted action (the picks of a capture,
#: the move that captured, a Sai's deploy before its follow-up), and so how far back an
#: observation keeps the captures.
LOOK_BACK: Final = 30
#: The field that is no part of the observation's knowledge as JSON carries it (see
#: :attr:`PaikoObservation.captures`).
_NOT_IN_JSON: Final = frozenset({"captures"})


@dataclass(frozen=True, kw_only=True, repr=False)
class PaikoObservation(Observation["Paiko"]):
    """A Paikō observation (the same for both players and a spectator, but for ``player``).

    Attributes:
        phase: ``"draft"``, ``"play"``, ``"follow-up"`` (a deployed Sai may still shift or
            turn), ``"picks"`` (the captured player chooses tiles for the capturer) or
            ``"over"``.
        board: each tile on the board as ``(square, player, tile, facing)``, in square order
            (reading order as White sees the board).
        hands: each player's hand, tile names in canonical order.
        reserves: each player's reserve, tile names in canonical order.
        lost: how many tiles each player has had captured.
        scores: each player's points.
        turn: turns played since the draft.
        passes: passes in a row (two end the game).
        last_moved: per player, ``(square, count)``: the tile moved on their last turn and on
            how many of their turns in a row it moved (``(None, 0)`` when not tracked).
        pending_sai: the square of a deployed Sai awaiting its follow-up, or ``None``.
        picks: the captured player's picks still to make.
        winner: the winner once the game is over (``None`` before, and for a draw).
        captures: ``(index, tiles)`` for each of the last 2 · :data:`LOOK_BACK` + 1 actions
            of the history that captured: its index and the tiles it removed, as in ``board``
            (the state's ``captures(index)``), for the pictures. Like ``legal`` it follows
            from the rest (the history replays to it), so it is neither compared nor written
            to JSON.
    """

    phase: str
    board: tuple[tuple[str, int, str, str], ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    reserves: tuple[tuple[str, ...], tuple[str, ...]]
    lost: tuple[int, int]
    scores: tuple[int, int]
    turn: int
    passes: int
    last_moved: tuple[tuple[str | None, int], tuple[str | None, int]]
    pending_sai: str | None
    picks: int
    winner: int | None
    captures: tuple[tuple[int, tuple[tuple[str, int, str, str], ...]], ...] = field(
        default=(), compare=False
    )

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The fields of the JSON form: all the game's own but ``captures``."""
        return tuple(name for name in super().field_names() if name not in _NOT_IN_JSON)

    @classmethod
    def _fields_of(cls, state: PaikoState, player: int | None) -> dict[str, Any]:
        lost, scores, last = state.lost(), state.scores(), state.last_moved()
        # The window holds the captures a picture may highlight: a give up to LOOK_BACK back
        # highlights the capture it pays for, a few picks earlier.
        capturing = state.capturing(state.move_number() - 1 - 2 * LOOK_BACK)
        return {
            "phase": state.phase(),
            "board": tuple(state.board()),
            "hands": (tuple(state.hand(0)), tuple(state.hand(1))),
            "reserves": (tuple(state.reserve(0)), tuple(state.reserve(1))),
            "lost": (lost[0], lost[1]),
            "scores": (scores[0], scores[1]),
            "turn": state.turn(),
            "passes": state.passes(),
            "last_moved": (last[0], last[1]),
            "pending_sai": state.pending_sai(),
            "picks": state.picks(),
            "winner": state.winner(),
            "captures": tuple([(i, tuple(state.captures(i))) for i in capturing])
            if capturing
            else (),
        }

    def history_in_words(self) -> tuple[str, ...]:
        """Each action of the history in words (Paikō hides nothing, so every player saw the
        same): the action's text, then who did what with which tile, where, and what followed
        — the tiles it captured (whose, where, threatened by which tiles against what cover),
        the picks due, the points when they change, and the end with its reason.

        Told from the observation alone: its history replays, from the start, on a fresh
        state of the same game (a millisecond for a few hundred actions).

        >>> import tikigames
        >>> state = tikigames.load("paiko").new_initial_state()
        >>> white = ["sword", "sword", "sword", "earth", "earth", "fire", "water"]
        >>> black = ["sword", "sword", "water", "fire", "sai", "bow", "lotus", "air", "earth"]
        >>> moves = ["sword@g6:N", "sword@j8:N", "sword@g4:N", "sword@j7:N", "earth@h4:N",
        ...          "j7-j6:N", "draw air", "water@j7:N", "bow@j4:N", "draw air", "g4-h5:N",
        ...          "draw sai", "h5-i5:N", "draw sai", "earth@h7:N", "give lotus"]
        >>> for text in ["draft " + tile for tile in white + black + ["bow"]] + moves:
        ...     state.apply_action(state.parse_action(text))
        >>> for words in state.observation(0).history_in_words()[-4:]:
        ...     print(words)
        h5-i5:N: White's Sword shifts from h5 to i5
        draw sai: Black draws a Sai from its reserve into its hand
        earth@h7:N: White deploys an Earth on h7 (the east middleground) and captures Black's \
Water on j7 (threatened by White's Earth on h7 and White's Bow on j4; no cover) and Black's Sword \
on j6 (threatened by White's Sword on i5 and White's Bow on j4; covered by Black's Water on j7, \
which falls too); Black picks 2 tiles of White's reserve for White's hand; White has 4 points, \
Black 0 points
        give lotus: Black picks a Lotus of White's reserve for White's hand (1 more to pick)
        """
        game = self.game
        table = game.action_table
        state = game.new_initial_state()
        words: list[str] = []
        for text in self.history:
            action = table.parse(text)
            mover = state.current_player()
            before = _pieces(state.board())
            scores = state.scores()
            picks = state.picks()
            state.apply_unchecked(action)
            told = [_deed(action, mover, before, picks, state.pending_sai())]
            captured = state.captures()
            if captured:
                told[0] += " and captures " + _captured(captured, _pieces(state.board()))
                told.append(_picks_due(mover, state.picks()))
            if state.scores() != scores:
                told.append(score_in_words(state.scores()))
            if state.is_terminal():
                told.append(_end(state))
            words.append(f"{text}: " + "; ".join(told))
        return tuple(words)


def _pieces(board: list[tuple[str, int, str, str]]) -> Pieces:
    """The tiles of ``board`` (``PaikoState.board()``) by square index, as ints."""
    return {
        SQUARE_INDEX[square]: (player, TILE_INDEX[tile], FACINGS.index(facing))
        for square, player, tile, facing in board
    }


def _deed(action: PaikoAction, mover: int, before: Pieces, picks: int, sai: str | None) -> str:
    """What the mover did, in words, from the board ``before`` the action."""
    who = PLAYER_NAMES[mover]
    kind = action.kind
    if kind == DRAFT:
        return f"{who} drafts {a_tile(action.tile)}"
    if kind == DRAW:
        drawn = [a_tile(t) if n == 1 else tile_count(n, t) for t, n in action.draw]
        return f"{who} draws {and_list(drawn)} from its reserve into its hand"
    if kind == GIVE:
        capturer = PLAYER_NAMES[1 - mover]
        more = f" ({picks - 1} more to pick)" if picks > 1 else ""
        return (
            f"{who} picks {a_tile(action.tile)} of {capturer}'s reserve for {capturer}'s hand{more}"
        )
    if kind == PASS:
        return f"{who} passes"
    dst = SQUARE_NAMES[action.dst]
    facing = f" facing {FACINGS[action.facing]}"
    if kind == DEPLOY:
        tile = action.tile
        deployed = (
            f"{who} deploys {a_tile(tile)} on {dst}{facing if FACED[tile] else ''}"
            f" ({quarter_name(action.dst)})"
        )
        return deployed + (": it may still shift or turn" if tile == SAI else "")
    if kind == STAY:
        return f"{who}'s Sai stays on {sai}" if sai else f"{who}'s Sai stays"
    src = SQUARE_NAMES[action.src]
    name = owned(before, action.src)
    if kind == TURN:
        return f"{name} on {src} turns to face {FACINGS[action.facing]}"
    verb = "redeploys" if kind == REDEPLOY else "shifts"
    faced = facing if FACED[before[action.src][1]] else ""
    into = "" if QUARTER[action.src] == QUARTER[action.dst] else f" ({quarter_name(action.dst)})"
    return f"{name} {verb} from {src} to {dst}{faced}{into}"


def _captured(captured: list[tuple[str, int, str, str]], after: Pieces) -> str:
    """The tiles an action captured, each with the tiles threatening it and its cover on the
    board just before they fell (``after`` with them put back)."""
    fallen = _pieces(captured)
    board = {**after, **fallen}
    told = []
    for square, (victim, tile, _) in sorted(fallen.items()):
        coverers = [
            s
            for s, (owner, kind, turned) in board.items()
            if owner == victim and square in COVER_SETS[kind << 2 | turned][s] and s != square
        ]
        if HOME[victim][square]:
            cover = "covered by its homeground"
        elif coverers:
            names = [placed(board, s) for s in coverers]
            fell = all(s in fallen for s in coverers)
            cover = f"covered by {and_list(names)}{', which falls too' if fell else ''}"
        elif tile == LOTUS:
            cover = "covered by itself"
        else:
            cover = "no cover"
        threats = threats_in_words(board, victim, square)
        told.append(f"{placed(board, square)} (threatened by {threats}; {cover})")
    return and_list(told)


def _picks_due(capturer: int, picks: int) -> str:
    """The picks a capture sets up (none when the capturer's reserve is empty)."""
    victim, name = PLAYER_NAMES[1 - capturer], PLAYER_NAMES[capturer]
    if not picks:
        return f"{name}'s reserve is empty: no picks"
    tiles = "a tile" if picks == 1 else f"{picks} tiles"
    return f"{victim} picks {tiles} of {name}'s reserve for {name}'s hand"


def _end(state: PaikoState) -> str:
    """The end in words, with its reason."""
    winner = state.winner()
    result = result_words(winner)
    if winner is not None:
        return f"the game is over: {result} with {points(state.scores()[winner])}"
    if state.passes() >= 2:
        why = "two passes in a row"
    elif state.game.rules.max_turns and state.turn() >= state.game.rules.max_turns:
        why = f"the turn limit, {state.turn()} turns"
    else:
        why = f"both players have lost {TIE_LOST} tiles or more with {TIE_POINTS} points or fewer"
    return f"the game is over: {result} ({why})"

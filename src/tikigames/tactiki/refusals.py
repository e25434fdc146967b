"""Why TacTiki refuses an action: the rule of ``docs/games/tactiki.rst`` that forbids it.

``state.illegal_reason(action)`` and ``IllegalActionError.reason`` come from here (the state's
``_refusal`` hook calls ``refusal`` only for an action that is not legal). The rules are checked
in the order a player thinks of them: the end of the game, then the phase (setup or play) and
the half-turn, then the rules of the action's kind in the order the rules file lists them. Each
check is the rule itself, read through the state's public accessors (never the legal list), so
``rule_against`` is an independent statement of the rules: it returns ``None`` exactly for the
legal actions (the tests hold it to that), and a reason never names a rule that does not apply.

The reasons name the squares, the pieces' owners and the mover's own ranks, never a rank the
mover cannot know (an opponent's piece is "TAC's", not "TAC's 3").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tikigames.tactiki.actions import ACTIONS, MOVE, PASS, PLACE, REINCARNATE, TacTikiAction
from tikigames.tactiki.data import (
    COPIES,
    FORWARD,
    ON_START,
    PIECES_PER_PLAYER,
    PLAYER_NAMES,
    SQUARE_NAMES,
    START_SQUARES,
)

if TYPE_CHECKING:
    from tikigames.tactiki.state import TacTikiState

__all__ = ["refusal", "rule_against"]

#: What each kind of action is called in a reason.
_KIND_NAMES = {PLACE: "placement", MOVE: "move", REINCARNATE: "reincarnation", PASS: "pass"}


def refusal(state: TacTikiState, action: TacTikiAction) -> str:
    """Why ``action`` (not legal in ``state``) is refused: the rule that forbids it, with the
    piece and square it concerns.

    >>> import tikigames
    >>> state = tikigames.load("tactiki").new_initial_state()
    >>> for text in ["3@a1", "5@a1"]:
    ...     state.apply_action(state.parse_action(text))
    >>> refusal(state, state.game.action_table.parse("1@a1"))
    'every start field ends with exactly 2 pieces: a1 has 2 already'
    """
    why = rule_against(state, action)
    if why is None:  # never reached for an illegal action (tests/tactiki/test_refusals.py)
        return f"{action.text} is not legal for {PLAYER_NAMES[state.current_player()]} now"
    return why


def rule_against(state: TacTikiState, action: TacTikiAction) -> str | None:
    """The rule that forbids ``action`` in ``state``, or ``None`` when no rule does (the action
    is legal)."""
    if state.is_terminal():
        return _game_over(state)
    player = state.current_player()
    # Every piece is on the board or in a defeated pool once the setup is done; fewer during it.
    pieces = sum(map(len, state.board_codes())) + len(state.defeated(0)) + len(state.defeated(1))
    if pieces < 2 * PIECES_PER_PLAYER:
        return _in_setup(state, action, player)
    kind = action.kind
    if kind == PLACE:
        return "the setup is over: pieces are placed only before play begins"
    if kind == MOVE:
        return _against_move(state, action, player)
    if kind == REINCARNATE:
        return _against_reincarnation(state, action, player)
    return _against_pass(state, player)


def _name(player: int) -> str:
    return PLAYER_NAMES[player]


def _row(player: int) -> str:
    """A player's start fields, written ``a1–e1``."""
    squares = START_SQUARES[player]
    return f"{SQUARE_NAMES[squares[0]]}–{SQUARE_NAMES[squares[-1]]}"


def _pieces(count: int) -> str:
    return f"{count} piece" if count == 1 else f"{count} pieces"


def _game_over(state: TacTikiState) -> str:
    """End of the game: a statue, two passes or the turn limit."""
    winner = state.winner()
    if winner is not None:
        square = SQUARE_NAMES[state.history()[-1].target]  # the statue's last piece arrived
        return f"the game is over: {_name(winner)} built a statue on {square}"
    if state.passes() >= 2:
        return "the game is over: drawn by two consecutive passes"
    return f"the game is over: drawn at the turn limit (max_turns={state.game.rules.max_turns})"


def _in_setup(state: TacTikiState, action: TacTikiAction, player: int) -> str | None:
    """Setup: TIKI places all 10 pieces, then TAC; each on one of the player's own start
    fields, two to a field, each rank twice."""
    mine = [a for a in state.history() if a.owner == player]  # the setup's placements
    if action.kind != PLACE:
        return (
            f"there is no {_KIND_NAMES[action.kind]} during the setup: TIKI places all 10 "
            f"pieces, then TAC all 10 ({_name(player)} has placed {len(mine)})"
        )
    square = SQUARE_NAMES[action.square]
    if action.owner != player:
        return (
            f"a player places its pieces on its own start fields: {square} is "
            f"{_name(action.owner)}'s, {_name(player)}'s are {_row(player)}"
        )
    held = len(state.column(square))
    if held >= COPIES:
        return f"every start field ends with exactly {COPIES} pieces: {square} has {held} already"
    rank = action.rank
    if sum(1 for a in mine if a.rank == rank) >= COPIES:
        return (
            f"every rank is used exactly twice: {_name(player)} has placed both its {rank}s already"
        )
    return None


def _against_move(state: TacTikiState, action: TacTikiAction, player: int) -> str | None:
    """Single move, rules 1–4, in the rules file's order."""
    source = SQUARE_NAMES[action.square]
    target = SQUARE_NAMES[action.target]
    column = state.column(source)
    # Rule 1: P is the top piece of X and belongs to the player.
    if not column:
        return f"a move takes the top piece of a field: {source} is empty"
    if column[-1][0] != player:
        blocked = len(column) > 1 and column[-2][0] == player
        return (
            "only the top piece of a field moves, and only its owner moves it: the top piece "
            f"of {source} is {_name(1 - player)}'s"
            + (f", which blocks {_name(player)}'s piece under it" if blocked else "")
        )
    # Rule 2: X is not one of the opponent's start fields.
    if ON_START[1 - player][action.square]:
        return (
            "a piece on an opponent's start field never moves again: "
            f"{source} is a start field of {_name(1 - player)}'s"
        )
    # Rule 3: one step forward, left or right (the table holds orthogonal steps only).
    if action.target == action.square - FORWARD[player]:
        return (
            "a piece moves one step forward, left or right, never backward: "
            f"{source}-{target} is backward for {_name(player)}"
        )
    # Rule 4: not onto one of the mover's own start fields held by the opponent.
    if ON_START[player][action.target]:
        onto = state.column(target)
        if onto and onto[-1][0] != player:
            return (
                "a piece standing on its opponent's start field is immune: "
                f"{_name(1 - player)}'s piece on top of {target}, a start field of "
                f"{_name(player)}'s, cannot be entered or attacked"
            )
    return None


def _second_move(state: TacTikiState, what: str, player: int) -> str | None:
    """A reincarnation or a pass is a whole turn: never the second move of a move turn."""
    if not state.is_second_move():
        return None
    return (
        f"a {what} is a whole turn, made only at its start: {_name(player)} has made the first "
        "move of a move turn and must make a second single move"
    )


def _against_reincarnation(state: TacTikiState, action: TacTikiAction, player: int) -> str | None:
    """Reincarnation turn: one of the player's defeated pieces, alone on one of the player's
    own start fields that holds no piece at all."""
    second = _second_move(state, "reincarnation", player)
    if second is not None:
        return second
    square = SQUARE_NAMES[action.square]
    if action.owner != player:
        return (
            f"a reincarnated piece goes on one of its owner's start fields: {square} is "
            f"{_name(action.owner)}'s, {_name(player)}'s are {_row(player)}"
        )
    pool = state.defeated(player)
    if not pool:
        return f"a reincarnation brings back a defeated piece: {_name(player)} has none"
    if action.rank not in pool:
        ranks = ", ".join(map(str, pool))
        return (
            "a reincarnation brings back one of the player's defeated pieces: "
            f"{_name(player)} has no defeated {action.rank} (its defeated pool holds {ranks})"
        )
    held = len(state.column(square))
    if held:
        return (
            "a reincarnated piece goes alone on a start field that holds no piece at all: "
            f"{square} holds {_pieces(held)}"
        )
    return None


def _against_pass(state: TacTikiState, player: int) -> str | None:
    """Pass: only at the start of a turn with no single move and no reincarnation."""
    second = _second_move(state, "pass", player)
    if second is not None:
        return second
    # The rules themselves say whether a move or a reincarnation is open (not the legal list).
    moves = [a for a in ACTIONS if a.kind == MOVE and _against_move(state, a, player) is None]
    returns = [
        a
        for a in ACTIONS
        if a.kind == REINCARNATE and _against_reincarnation(state, a, player) is None
    ]
    if moves:
        can = f"move {moves[0].text}"
    elif returns:
        can = f"reincarnate, e.g. {returns[0].text}"
    else:
        return None
    return (
        "a pass is legal only when the player has no single move and no reincarnation: "
        f"{_name(player)} can {can}"
    )

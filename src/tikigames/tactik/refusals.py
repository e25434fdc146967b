"""Why a Tac-Tik action is refused: the rule of ``docs/games/tactik.rst`` that forbids it.

:func:`refusal` is the state's ``_refusal`` hook, behind ``state.illegal_reason(action)`` and
``IllegalActionError.reason``. It is called only for an action that is not legal now, never on
the hot path, so it is written for clarity: it reads the position through the state's public
accessors ("Reading the position" on the docs page) and the path rule's pure functions
(:mod:`tikigames.tactik.paths`), and it checks the rules in the order a player would think of
them — the phase (dealing, exchange, play, over), a seven under way, the option ``discard``,
the card in hand, the pawn named and its colour, then the card's own rule (a start's reserve
and pieu, the path rule, ``-4``'s pieux, the seven's steps, the swap's pawns and its notation).
Those checks are :func:`rule_against`, a statement of the rules apart from the move generator:
it finds no rule against exactly the legal actions (the tests hold it to that, over whole
action tables), so a reason never names a rule that does not apply.

>>> import tikigames
>>> state = tikigames.load("tactik").new_initial_state()
>>> state.illegal_reason(state.game.action_table.parse("give 7"))
'the cards are being dealt: the next event is a card dealt to player 0 (deal …)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tikigames.tactik.actions import (
    BACK,
    DEAL,
    DISCARD,
    DISCARD_ALL,
    GIVE,
    SEVEN,
    START,
    SWAP_PAWNS,
    TacTikAction,
)
from tikigames.tactik.data import (
    C13,
    CARD_NAMES,
    COLOUR_NAMES,
    JOKER,
    PAWNS,
    TacTikRules,
    geometry,
)
from tikigames.tactik.paths import forward_dest, seven_after, seven_feasible

if TYPE_CHECKING:
    from tikigames.tactik.state import TacTikState

__all__ = ["FALLBACK", "refusal", "rule_against"]

#: The reason given when no specific rule matches. The tests prove that random play never
#: reaches it: every refusal names its rule.
FALLBACK: Final = "not a legal play in this position"


def refusal(state: TacTikState, action: TacTikAction) -> str:
    """Why ``action`` (an action of the game, not legal in ``state``) is refused: the rule
    that forbids it, naming the player, the card, the pawn and the squares concerned."""
    why = rule_against(state, action)
    return FALLBACK if why is None else why


def rule_against(state: TacTikState, action: TacTikAction) -> str | None:
    """The rule that forbids ``action`` in ``state``, or ``None`` when none does: the action
    is legal (the tests hold it to that, both ways). Each check is the rule itself, read
    through the public accessors, not the legal list — but for ``discard all`` with option
    ``discard="stuck"``, whose rule is that no other play is legal.

    >>> import tikigames
    >>> state = tikigames.load("tactik").new_initial_state()
    >>> rule_against(state, state.legal_actions()[0]) is None
    True
    """
    phase = state.phase()
    if phase == "over":
        return _over(state)
    if phase == "deal":
        return _dealing(state, action)
    if phase == "exchange":
        return _exchange(state, action)
    return _play(state, action)


# ----------------------------------------------------------------------------- wording


def _card(kind: int) -> str:
    """A card as the reasons name it: its notation, ``Joker (J)`` for a Joker."""
    return "Joker (J)" if kind == JOKER else CARD_NAMES[kind]


def _colour(rules: TacTikRules, colour: int) -> str:
    return COLOUR_NAMES[rules.colours][colour]


def _square(rules: TacTikRules, square: int) -> str:
    return geometry(rules.colours).names[square]


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"


def _moves(state: TacTikState, rules: TacTikRules, acting: tuple[int, ...]) -> str:
    """``player 0 moves green`` — and why, when the acting colour is not the player's own."""
    player = state.current_player()
    names = " or ".join(_colour(rules, c) for c in acting)
    if rules.team and acting != (player,):
        return f"player {player} moves {names} (their partner's: their own pawns are all home)"
    if not rules.team and len(acting) == 1:
        other = next(c for c in rules.own_colours[player] if c not in acting)
        return f"player {player} moves {names} ({_colour(rules, other)}'s pawns are all home)"
    return f"player {player} moves {names}"


# ----------------------------------------------------------------------------- the board


def _pieux(state: TacTikState) -> int:
    """The colours with a pieu on their start square, as a bitmask (bit c: colour c)."""
    mask = 0
    for c in state.pieux():
        mask |= 1 << c
    return mask


def _home(state: TacTikState, colour: int) -> int:
    """``colour``'s occupied home squares, as a bitmask (bit k − 1: home square k)."""
    mask = 0
    for k, taken in enumerate(state.homes()[colour]):
        if taken:
            mask |= 1 << k
    return mask


def _owner(state: TacTikState, rules: TacTikRules, square: int) -> int:
    """The colour of the pawn on ``square`` (track or home), −1 when it is empty."""
    track = rules.track
    if square < track:
        return state.track()[square]
    colour, k = divmod(square - track, PAWNS)
    return colour if state.homes()[colour][k] else -1


def _own_pawns(state: TacTikState, rules: TacTikRules, colour: int) -> tuple[int, ...]:
    """The squares of ``colour``'s pawns on the board, sorted (as the path rule takes them)."""
    on_track = [x for x, c in enumerate(state.track()) if c == colour]
    base = rules.track + PAWNS * colour
    at_home = [base + k for k, taken in enumerate(state.homes()[colour]) if taken]
    return tuple(on_track + at_home)


def _is_pieu(state: TacTikState, square: int) -> bool:
    return not square & 15 and square >> 4 in state.pieux()


# ----------------------------------------------------------------------------- the phases


def _over(state: TacTikState) -> str:
    winners = state.winners()
    if not winners:
        return f"the game is over: drawn after {state.turns()} turns (option max_turns)"
    if len(winners) == 1:
        return f"the game is over: player {winners[0]} has won"
    return f"the game is over: players {' and '.join(map(str, winners))} have won"


def _dealing(state: TacTikState, action: TacTikAction) -> str | None:
    rules: TacTikRules = state.game.rules
    if action.kind == DEAL:
        card = action.card
        if not rules.deck[card]:
            if card == C13:
                return "the deck in use has no 13 (option with_13 is off)"
            return "the deck in use has no Jokers (option jokers is 0)"
        if state.talon()[card]:
            return None
        return f"no {_card(card)} is left in the talon"
    served = (state.dealer() + 1 + state.dealt()) % rules.players
    return f"the cards are being dealt: the next event is a card dealt to player {served} (deal …)"


def _exchange(state: TacTikState, action: TacTikAction) -> str | None:
    player = state.current_player()
    if action.kind == GIVE:
        if CARD_NAMES[action.card] in state.hand(player):
            return None
        return f"player {player} holds no {_card(action.card)} to give their partner"
    if action.kind == DEAL:
        return (
            f"the deal is complete: now each player gives their partner a card, "
            f"player {player} first (give …)"
        )
    return (
        f"the exchange comes first: player {player} chooses a card of their hand for their "
        f"partner (give …)"
    )


def _play(state: TacTikState, action: TacTikAction) -> str | None:
    rules: TacTikRules = state.game.rules
    player = state.current_player()
    kind = action.kind
    if kind == DEAL:
        return "the deal is complete: cards are dealt only at the start of a deal"
    if kind == GIVE:
        if not rules.team:
            return "there is no exchange in the 2-player variant"
        return "the exchange is over: it comes right after the deal, before the first card"
    if state.seven_left():
        return _seven_under_way(state, rules, action)
    if kind == DISCARD_ALL:
        if rules.discard_any:
            return (
                'the whole hand is discarded only with option discard="stuck"; with '
                'discard="any" one chosen card is (discard …)'
            )
        if all(other.kind == DISCARD_ALL for other in state.legal_actions()):
            return None
        return (
            "the whole hand may be discarded only when no card in it can be resolved: "
            f"{state.legal_actions()[0]} can be played"
        )
    card = action.card
    if not rules.deck[card]:
        if card == C13:
            return "the deck in use has no 13 (option with_13 is off)"
        return "the deck in use has no Jokers (option jokers is 0)"
    hand = state.hand(player)
    if not hand.count(CARD_NAMES[card]):
        verb = "discard" if kind == DISCARD else "play"
        return (
            f"a card is played or discarded from the hand: player {player} holds no "
            f"{_card(card)} to {verb} (their hand: {' '.join(hand)})"
        )
    if kind == DISCARD:
        if rules.discard_any:
            return None
        return (
            'with option discard="stuck" a single card is never discarded: the whole hand is '
            "(discard all), and only when no card in it can be resolved"
        )
    if card == JOKER and action.value == C13 and not rules.with_13:
        return "a Joker counts as a card of the deck in use, which has no 13 (option with_13)"
    acting = state.acting_colours()
    if kind == START:
        return _start(state, rules, action, acting)
    if kind == SWAP_PAWNS:
        return _swap(state, rules, action, acting)
    x = action.square
    why = _pawn(state, rules, x, acting)
    if why is not None:
        return why
    colour = _owner(state, rules, x)
    if kind == BACK:
        return _back(state, rules, x)
    why = _path(state, rules, colour, x, action.steps)
    if why is not None:
        return why
    if kind == SEVEN:
        return _rest_of_seven(state, rules, colour, x, action.steps, 7)
    return None


# ----------------------------------------------------------------------------- the cards


def _pawn(state: TacTikState, rules: TacTikRules, x: int, acting: tuple[int, ...]) -> str | None:
    """Why the pawn on ``x`` cannot be moved by the card at all (no pawn there, or not one of
    the acting colour), or ``None``."""
    colour = _owner(state, rules, x)
    if colour < 0:
        return f"there is no pawn on {_square(rules, x)} to move: {_where(state, rules, acting)}"
    if colour not in acting:
        return (
            f"only pawns of the acting colour are moved: {_square(rules, x)} holds a "
            f"{_colour(rules, colour)} pawn, and {_moves(state, rules, acting)}"
        )
    return None


def _where(state: TacTikState, rules: TacTikRules, acting: tuple[int, ...]) -> str:
    """Where the acting colours' pawns are, to name one: ``green's pawns are on t5, h0.1``."""
    parts = []
    for c in acting:
        pawns = [name.rstrip("!") for name in state.pawns(c)]
        if pawns:
            parts.append(f"{_colour(rules, c)}'s pawns are on {', '.join(pawns)}")
        else:
            parts.append(f"{_colour(rules, c)} has no pawn out (start one with 1 or 10)")
    return "; ".join(parts)


def _start(
    state: TacTikState, rules: TacTikRules, action: TacTikAction, acting: tuple[int, ...]
) -> str | None:
    colour = action.square
    name = _colour(rules, colour)
    if colour not in acting:
        return (
            f"only pawns of the acting colour are moved: start@{colour} would start a {name} "
            f"pawn, and {_moves(state, rules, acting)}"
        )
    if not state.reserve(colour):
        return f"a start needs a pawn in the reserve: {name}'s reserve is empty"
    if colour in state.pieux():
        return (
            "a start is illegal while a pieu stands on the start square: "
            f"{name}'s pieu is on t{colour << 4}"
        )
    return None


def _path(state: TacTikState, rules: TacTikRules, colour: int, x: int, n: int) -> str | None:
    """Why the path rule bars colour ``colour``'s pawn on ``x`` from moving ``n`` steps
    forward (the same cases as :func:`~tikigames.tactik.paths.forward_dest`), or ``None``."""
    track = rules.track
    name = _square(rules, x)
    home = _home(state, colour)
    if x >= track:
        j = x - track - PAWNS * colour  # 0-based
        if j + n >= PAWNS:
            last = _square(rules, track + PAWNS * colour + PAWNS - 1)
            return f"a pawn in its home moves only up to home square 4: {name} + {n} is past {last}"
        for k in range(j + 1, j + n + 1):
            if home >> k & 1:
                taken = _square(rules, track + PAWNS * colour + k)
                return (
                    "in the home the squares in between and at the end must be empty: "
                    f"{taken} is taken"
                )
        return None
    pieux = state.pieux()
    start = colour << 4
    own_pieu = colour in pieux
    d = track if own_pieu and x == start else (start - x) % track
    if d < n <= d + PAWNS and own_pieu:
        return (
            f"no track square on the way may hold a pieu: {name} + {n} would pass "
            f"{_colour(rules, colour)}'s own pieu on t{start} on the way home"
        )
    ahead = 16 - (x & 15)
    k = ((x >> 4) + 1) % rules.colours
    if (
        ahead <= n
        and k in pieux
        and forward_dest(track, rules.colours, x, n, colour, _pieux(state), home) < 0
    ):
        verb = "land on" if ahead == n else "pass"
        return (
            f"no track square on the way may hold a pieu: {name} + {n} would {verb} "
            f"{_colour(rules, k)}'s pieu on t{k << 4}"
        )
    return None


def _back(state: TacTikState, rules: TacTikRules, x: int) -> str | None:
    r = x & 15
    k = x >> 4
    if 1 <= r <= 4 and k in state.pieux():
        pieu = f"{_colour(rules, k)}'s pieu on t{k << 4}"
        if r == 4:
            return f"-4 cannot land on a pieu: {_square(rules, x)} − 4 is {pieu}"
        return f"-4 may pass ordinary pawns, not pieux: {_square(rules, x)} − 4 would pass {pieu}"
    return None


def _rest_of_seven(
    state: TacTikState, rules: TacTikRules, colour: int, x: int, n: int, left: int
) -> str | None:
    """Why a sub-move of ``n`` steps with ``left`` steps of the seven left is refused, once the
    path rule allows it: the rest could not be used."""
    track, colours = rules.track, rules.colours
    pieux = _pieux(state)
    pawns = _own_pawns(state, rules, colour)
    y = forward_dest(track, colours, x, n, colour, pieux, _home(state, colour))
    if y < 0:
        return None
    after, after_pieux = seven_after(track, colour, pawns, x, y, n, pieux, rules.passed)
    if seven_feasible(track, colours, colour, after, after_pieux, left - n, rules.passed, {}):
        return None
    return (
        f"all 7 steps of a seven must be used: after {_square(rules, x)} + {n} the "
        f"remaining {_steps(left - n)} could not be"
    )


def _seven_under_way(state: TacTikState, rules: TacTikRules, action: TacTikAction) -> str | None:
    left = state.seven_left()
    kind = action.kind
    if kind in (DISCARD, DISCARD_ALL):
        return (
            "no card is discarded in the middle of a seven: its remaining "
            f"{_steps(left)} must be used first (7:… sub-moves)"
        )
    if kind != SEVEN:
        return (
            f"a seven is being played: its remaining {_steps(left)} must be used first "
            "(7:… sub-moves)"
        )
    if action.card == JOKER:
        return "the seven's card is already played: its further sub-moves are written 7:…"
    x = action.square
    colour = _owner(state, rules, x)
    seven = state.seven_colour()
    assert seven is not None
    if colour < 0:
        return f"there is no pawn on {_square(rules, x)}"
    if colour != seven:
        return (
            f"a seven moves pawns of one colour only: this one moves {_colour(rules, seven)}, "
            f"and {_square(rules, x)} holds a {_colour(rules, colour)} pawn"
        )
    n = action.steps
    if n > left:
        return f"the seven has only {_steps(left)} left: {_square(rules, x)} + {n} is too many"
    why = _path(state, rules, colour, x, n)
    if why is not None:
        return why
    return _rest_of_seven(state, rules, colour, x, n, left)


def _swap(
    state: TacTikState, rules: TacTikRules, action: TacTikAction, acting: tuple[int, ...]
) -> str | None:
    a, b = action.square, action.other
    on = state.track()
    for x in (a, b):
        if on[x] < 0:
            return f"there is no pawn on {_square(rules, x)}"
    for x in (a, b):
        if _is_pieu(state, x) and on[x] not in acting:
            return (
                f"the pieux of other colours cannot take part in a swap: {_square(rules, x)} is "
                f"{_colour(rules, on[x])}'s pieu"
            )
    if _is_pieu(state, a) and _is_pieu(state, b):
        return (
            "a swap may involve the acting colour's own pieu only: "
            f"{_square(rules, a)} and {_square(rules, b)} are the pieux of "
            f"{_colour(rules, on[a])} and {_colour(rules, on[b])}"
        )
    ca, cb = on[a], on[b]
    label = "J=P" if action.card == JOKER else "P"
    if ca not in acting and cb not in acting:
        return (
            f"only pawns of the acting colour are moved: {_square(rules, a)} and "
            f"{_square(rules, b)} hold {_colour(rules, ca)} and {_colour(rules, cb)} pawns, and "
            f"{_moves(state, rules, acting)}"
        )
    swapped = f"{label}:{_square(rules, b)}~{_square(rules, a)}"
    if ca not in acting:
        return f"a swap is written with the acting colour's pawn first: {swapped}"
    if cb in acting and a > b:
        if ca == cb:
            both = f"both pawns are {_colour(rules, ca)}'s"
        else:
            both = f"the pawns are player {state.current_player()}'s two colours"
        return f"when {both}, the swap is written with the lower square first: {swapped}"
    return None

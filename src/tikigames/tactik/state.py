"""Tac-Tik's rules engine.

A deal is: one chance outcome per card dealt (round-robin from the dealer's left), then in the
team games one secret ``give`` per player (the cards change hands when the last has chosen), then
one card per turn until every hand is empty. The board is one flat list of ints (see
``TacTikState``); a move logs each entry it overwrites, as its index and its old value in a flat
list of ints (no tuple per entry for the garbage collector to track), and undo writes them
back. Deals, gives and the end of a deal are undone from small records of their own. Where a pawn
may go is the path rule's business (:mod:`tikigames.tactik.paths`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from typing_extensions import Self

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.state import State
from tikigames.tactik.actions import (
    BACK,
    DEAL,
    DISCARD,
    DISCARD_ALL,
    GIVE,
    SEVEN,
    START,
    SWAP_PAWNS,
    Layout,
    TacTikAction,
    layout,
)
from tikigames.tactik.data import (
    BACK4,
    C7,
    CARD_NAMES,
    FORWARD_CARDS,
    FORWARD_OF,
    HOME_FULL,
    JOKER,
    NUM_CARDS,
    PAWNS,
    START_OF,
    STEPS,
    SWAP,
    TacTikRules,
    geometry,
)
from tikigames.tactik.paths import (
    HOME_SHIFT,
    NEVER,
    back_bars,
    entered,
    forward_entries,
    forward_rows,
    seven_offsets,
)
from tikigames.tactik.refusals import refusal

if TYPE_CHECKING:
    from random import Random

    from tikigames.tactik.game import TacTik  # noqa: F401 (base class)
    from tikigames.tactik.observation import TacTikObservation  # noqa: F401 (base class)

__all__ = ["TacTikState"]

# Phases.
DEALING, EXCHANGE, PLAY, OVER = range(4)
PHASE_NAMES = ("deal", "exchange", "play", "over")
#: The log of a play that moves no pawn (a discard): shared, since nothing is written to it.
NO_LOG: Final[tuple[()]] = ()


def _names(counts: list[int]) -> list[str]:
    """The cards of a count per kind, in card order."""
    return [CARD_NAMES[k] for k in range(NUM_CARDS) for _ in range(counts[k])]


#: What a hand can play (see ``_Deals.hand``): the id of each of its start actions for colour 0
#: (add the colour); per forward card, its steps and its actions by square; the action rows of
#: its ``-4`` and Joker ``-4`` (by square), of its sevens (by offset), of its swaps (by pair);
#: its discards; and its gives (the exchange's legal list).
_Plan = tuple[
    tuple[int, ...],
    tuple[tuple[int, tuple[TacTikAction, ...]], ...],
    tuple[tuple[TacTikAction, ...], ...],
    tuple[tuple[TacTikAction, ...], ...],
    tuple[tuple[TacTikAction, ...], ...],
    list[TacTikAction],
    list[TacTikAction],
]


class _Deals:
    """What the deal phase and the hands read, per action table: the deal actions, the legal
    list for each set of kinds left in the talon, the ``(action, probability)`` pair of each
    count out of each talon size, and each hand's plan. Built as met and shared by every state
    of the table, so that a chance node allocates nothing but the list it returns, and a turn
    neither scans the hand nor looks up what each card does."""

    __slots__ = (
        "actions", "backs", "deal", "discard", "forwards", "give", "hands", "joker_forward",
        "legal", "pairs", "sevens", "starts", "swaps",
    )  # fmt: skip

    def __init__(
        self,
        actions: tuple[TacTikAction, ...],
        lay: Layout,
        colours: int,
        joker_forward: tuple[int, ...],
    ) -> None:
        self.actions = actions
        self.joker_forward = joker_forward
        self.deal = actions[lay.deal : lay.deal + NUM_CARDS]
        self.discard = actions[lay.discard : lay.discard + NUM_CARDS]
        self.give = actions[lay.give : lay.give + NUM_CARDS]
        squares, track = lay.squares, lay.track
        n = len(FORWARD_CARDS)
        #: The forward actions by square of each forward card, then of each Joker forward.
        self.forwards = [
            actions[lay.forward + i * squares : lay.forward + (i + 1) * squares]
            for i in range(2 * n)
        ]
        #: The ``-4`` and Joker ``-4`` actions by square, the sevens' and the Joker sevens' by
        #: offset, the swaps' and the Joker swaps' by pair.
        self.backs = (
            actions[lay.back : lay.back + track],
            actions[lay.back + track : lay.back + 2 * track],
        )
        self.sevens = (
            actions[lay.seven : lay.seven + 7 * squares],
            actions[lay.seven + 7 * squares : lay.seven + 14 * squares],
        )
        pairs = track * (track - 1)
        self.swaps = (
            actions[lay.swap : lay.swap + pairs],
            actions[lay.swap + pairs : lay.swap + 2 * pairs],
        )
        #: Per card kind, the id of its start action for colour 0, or −1.
        self.starts = tuple(
            lay.start + START_OF[k] * colours if START_OF[k] >= 0 else -1 for k in range(NUM_CARDS)
        )
        #: Bitmask of the kinds in the talon → its kinds and the legal deal actions.
        self.legal: dict[int, tuple[tuple[int, ...], list[TacTikAction]]] = {}
        #: Talon size → the pair of kind k with c copies left, at ``8·k + c``.
        self.pairs: dict[int, list[tuple[TacTikAction, float]]] = {}
        #: A hand (its count per kind) → its plan.
        self.hands: dict[tuple[int, ...], _Plan] = {}

    def hand(self, hand: list[int]) -> _Plan:
        """The plan of ``hand`` (a count per kind): each run in id order, so that a turn's
        legal list comes out sorted (see ``_Plan``)."""
        key = tuple(hand)
        entry = self.hands.get(key)
        if entry is None:
            if len(self.hands) >= _HANDS_MAX:  # a 6-card hand has some 38,000 forms
                self.hands.clear()
            kinds = [k for k in range(NUM_CARDS) if hand[k]]
            joker = 1 if hand[JOKER] else 0
            forwards = [
                (STEPS[k], self.forwards[FORWARD_OF[k]]) for k in kinds if FORWARD_OF[k] >= 0
            ]
            if joker:
                n = len(FORWARD_CARDS)
                forwards += [
                    (STEPS[FORWARD_CARDS[i]], self.forwards[n + i]) for i in self.joker_forward
                ]
            # Each pair of rows is (the card's, a Joker's): sliced to those the hand holds.
            entry = self.hands[key] = (
                tuple(self.starts[k] for k in kinds if self.starts[k] >= 0),
                tuple(forwards),
                self.backs[1 - (hand[BACK4] > 0) : 1 + joker],
                self.sevens[1 - (hand[C7] > 0) : 1 + joker],
                self.swaps[1 - (hand[SWAP] > 0) : 1 + joker],
                [self.discard[k] for k in kinds],
                [self.give[k] for k in kinds],
            )
        return entry

    def kinds(self, mask: int) -> tuple[tuple[int, ...], list[TacTikAction]]:
        """The kinds of the bitmask ``mask``, in card order, and their deal actions."""
        entry = self.legal.get(mask)
        if entry is None:
            kinds = tuple(k for k in range(NUM_CARDS) if mask >> k & 1)
            entry = self.legal[mask] = (kinds, [self.deal[k] for k in kinds])
        return entry

    def row(self, size: int) -> list[tuple[TacTikAction, float]]:
        """The outcome pairs of a talon of ``size`` cards (see ``pairs``)."""
        row = self.pairs.get(size)
        if row is None:
            row = self.pairs[size] = [
                (self.deal[k], count / size) for k in range(NUM_CARDS) for count in range(8)
            ]
        return row


#: The most hands a table keeps (see ``_Deals.hands``).
_HANDS_MAX = 1 << 16


def _mask(counts: list[int]) -> int:
    """The kinds of a count per kind, as a bitmask (bit k: kind k)."""
    mask = 0
    for k in range(NUM_CARDS):
        if counts[k]:
            mask |= 1 << k
    return mask


#: The deal tables of each action table, by the id of its actions' tuple (checked on use).
_DEALS: dict[int, _Deals] = {}

#: Per number of colours and ``seven_captures_passed``: the memo of ``_seven_offsets``, by
#: ``(colour, pieux, steps left, *the colour's pawns' squares, sorted)``; emptied when it holds
#: ``_SEVENS_MAX`` keys (some 270 bytes each: 18 MB at most; tuples of ints, which the
#: garbage collector stops tracking).
_SEVENS: dict[tuple[int, bool], dict[tuple[int, ...], tuple[int, ...]]] = {}
_SEVENS_MAX: Final = 1 << 16


def _deals(actions: tuple[TacTikAction, ...], rules: TacTikRules) -> _Deals:
    """The deal tables of ``actions``, the action table of ``rules`` (which fixes the layout,
    and the Joker's forward cards through ``with_13``)."""
    entry = _DEALS.get(id(actions))
    if entry is None or entry.actions is not actions or entry.joker_forward != rules.joker_forward:
        entry = _DEALS[id(actions)] = _Deals(
            actions, layout(rules.colours), rules.colours, rules.joker_forward
        )
    return entry


# ----------------------------------------------------------------------------- the state


class TacTikState(State[TacTikAction, "TacTik", "TacTikObservation"]):
    """A Tac-Tik position. See the game's docs page for the rules and the notation.

    Beside the :class:`~tikigames.core.state.State` interface, the position can be read with
    the accessors of "reading the position" below (the whole position, every hand included: a
    program that must not see the hands reads an observation instead). The observation, the
    text rendering and the resampler read the state through them.

    >>> import tikigames
    >>> state = tikigames.load("tactik").new_initial_state()
    >>> for card in ["1", "3", "6", "9"] * 4:
    ...     state.apply_action(state.parse_action("deal " + card))
    >>> state.phase(), state.dealer(), state.current_player(), state.hand(0)
    ('exchange', 3, 0, ['1', '1', '1', '1'])
    >>> state.hand_sizes(), state.talon_size(), state.given(0)
    ((4, 4, 4, 4), 34, None)
    >>> for card in ["1", "3", "6", "9"]:
    ...     state.apply_action(state.parse_action("give " + card))
    >>> state.apply_action(state.parse_action("1:start@0"))
    >>> state.pawns(0), state.pieux(), state.reserve(0), state.received(0), state.pile()
    (['t0!'], (0,), 3, '6', ['1'])

    The board ``_b`` is one list: ``[0, L)`` the track (the colour on each square, −1 empty);
    ``HOMES + c`` colour c's home bitmask; ``RES + c`` its reserve; ``PIEU`` the bitmask of
    colours with a pieu; ``POS + 4c + i`` the square of colour c's i-th pawn (−1 in reserve; the
    order of a colour's pawns is arbitrary and not part of the position).
    """

    __slots__ = (
        "_b",
        "_back_bars",
        "_entries",
        "_rows",
        "_dealer",
        "_deals",
        "_dealt",
        "_gives",
        "_hands",
        "_lay",
        "_phase",
        "_pile",
        "_player",
        "_received",
        "_revealed",
        "_rules",
        "_seven",
        "_seven_colour",
        "_sevens",
        "_sizes",
        "_talon",
        "_talon_kinds",
        "_talon_size",
        "_turns",
        "_winners",
    )

    def _init_position(self) -> None:
        game = self.game
        rules: TacTikRules = game.rules
        self._rules = rules
        self._lay = layout(rules.colours)
        colours, track = rules.colours, rules.track
        self._b: list[int] = (
            [-1] * track + [0] * colours + [PAWNS] * colours + [0] + [-1] * (PAWNS * colours)
        )
        n = rules.players
        self._hands: list[list[int]] = [[0] * NUM_CARDS for _ in range(n)]
        self._sizes: list[int] = [0] * n
        self._talon: list[int] = list(rules.deck)
        self._talon_size = rules.deck_size
        #: The kinds left in the talon, as a bitmask (bit k: kind k), kept with the talon.
        self._talon_kinds = rules.deck_kinds
        self._deals = _deals(self._actions, rules)
        self._rows = forward_rows(colours)
        self._sevens = _SEVENS.setdefault((colours, rules.passed), {})
        self._entries = forward_entries(colours)
        self._back_bars = back_bars(colours)
        #: Cards played or discarded since the talon was last made up, per kind.
        self._pile: list[int] = [0] * NUM_CARDS
        #: The hands shown by each ``discard all``, in order.
        self._revealed: list[tuple[int, ...]] = []
        self._phase = DEALING
        self._player = CHANCE
        self._dealer = rules.first_dealer
        self._dealt = 0
        #: This deal's exchange: the card each player chose (−1 not yet) and received (−1).
        self._gives: list[int] = [-1] * n
        self._received: list[int] = [-1] * n
        #: Steps left of a seven being played, and the colour it moves (−1).
        self._seven = 0
        self._seven_colour = -1
        self._turns = 0
        self._winners: tuple[int, ...] = ()

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._player == TERMINAL

    def is_chance_node(self) -> bool:
        return self._player == CHANCE

    def returns(self) -> list[float]:
        n = self._rules.players
        if self._phase != OVER or not self._winners:
            return [0.0] * n
        return [1.0 if p in self._winners else -1.0 for p in range(n)]

    def evaluate(self) -> list[float]:
        """The returns once over; before that a guess from the race: each team's pawns'
        progress (a pawn in reserve 0, on the track one more than the squares it has come from
        its start square, in home square ``k`` the track's length plus ``k``), in laps, against
        the other teams' mean, through ``tanh`` so that a lead of one lap is worth about 0.46.
        Cards in hand are not counted. A heuristic for search bots, not a rule."""
        if self._phase == OVER:
            return self.returns()
        rules = self._rules
        b = self._b
        track = rules.track
        lap = float(track + PAWNS)
        first = rules.pos
        progress = []
        for colour in range(rules.colours):
            start = colour << 4
            total = 0
            for slot in range(first + PAWNS * colour, first + PAWNS * (colour + 1)):
                x = b[slot]
                if x >= track:
                    total += track + 1 + (x - track) % PAWNS
                elif x >= 0:
                    total += 1 + (x - start) % track
            progress.append(total / lap)
        teams = rules.team_colours
        team_progress = [sum(progress[c] for c in teams[p]) for p in range(rules.players)]
        # Every team appears once per member in team_progress: average per distinct team.
        distinct = {teams[p]: team_progress[p] for p in range(rules.players)}
        overall = sum(distinct.values())
        others = len(distinct) - 1
        return [math.tanh((mine - (overall - mine) / others) / 2) for mine in team_progress]

    def chance_outcomes(self) -> list[tuple[TacTikAction, float]]:
        if self._phase != DEALING:
            return []
        deals = self._deals
        # The memos read directly, their methods only on a miss: two calls fewer per deal.
        size, mask = self._talon_size, self._talon_kinds
        row = deals.pairs.get(size) or deals.row(size)
        kinds = (deals.legal.get(mask) or deals.kinds(mask))[0]
        talon = self._talon
        return [row[8 * k + talon[k]] for k in kinds]

    def sample_chance(self, rng: Random) -> TacTikAction:
        """A card drawn with probability proportional to its copies left in the talon: the
        ``⌊u · size⌋``-th card of the talon in card order, for ``u = rng.random()`` — the kind
        whose running count first exceeds ``u · size``, as :meth:`chance_outcomes` weighs."""
        deals = self._deals
        kinds = deals.kinds(self._talon_kinds)[0]
        talon = self._talon
        left = int(rng.random() * self._talon_size)
        for k in kinds:
            left -= talon[k]
            if left < 0:
                return deals.deal[k]
        return deals.deal[kinds[-1]]

    def _viewer(self, action: TacTikAction) -> int | None:
        if action.kind == DEAL:
            return (self._dealer + 1 + self._dealt) % self._rules.players
        if action.kind == GIVE:
            return self._player
        return None

    # ----------------------------------------------------------------- reading the position

    def acting_colours(self) -> tuple[int, ...]:
        """The colours the player to move may move with the next card (the seven's colour
        during a seven); ``()`` off a player's turn."""
        if self._phase != PLAY:
            return ()
        if self._seven:
            return (self._seven_colour,)
        return self._acting(self._player)

    def _acting(self, player: int) -> tuple[int, ...]:
        rules = self._rules
        homes = self._rules.homes
        b = self._b
        if rules.team:
            if b[homes + player] == HOME_FULL:
                return (rules.partner[player],)
            return (player,)
        return tuple(c for c in rules.own_colours[player] if b[homes + c] != HOME_FULL)

    def hand(self, player: int) -> list[str]:
        """``player``'s cards, in card order (an omniscient accessor: observations show only the
        observer's own hand)."""
        self._check_player(player, allow_none=False)
        return _names(self._hands[player])

    def _check_colour(self, colour: object) -> int:
        colours = self._rules.colours
        if type(colour) is not int or not 0 <= colour < colours:
            raise ValueError(f"colour must be an int in 0..{colours - 1}, not {colour!r}")
        return colour

    def pawns(self, colour: int) -> list[str]:
        """The squares of ``colour``'s pawns on the board (track then home), sorted; a pieu is
        marked with ``!`` (``t16!``)."""
        self._check_colour(colour)
        rules = self._rules
        names = geometry(rules.colours).names
        pos = self._rules.pos
        squares = sorted(x for x in self._b[pos + PAWNS * colour : pos + PAWNS * (colour + 1)])
        pieu = self._b[self._rules.pieu] >> colour & 1
        return [names[x] + ("!" if pieu and x == colour << 4 else "") for x in squares if x >= 0]

    def reserve(self, colour: int) -> int:
        """How many of ``colour``'s pawns are in its reserve."""
        return self._b[self._rules.res + self._check_colour(colour)]

    def turns(self) -> int:
        """Turns played so far (a whole seven counts once; deals and exchanges do not)."""
        return self._turns

    def winners(self) -> tuple[int, ...]:
        """The winning players once a team has won, else ``()`` (a draw included)."""
        return self._winners

    def phase(self) -> str:
        """``"deal"``, ``"exchange"``, ``"play"`` or ``"over"``."""
        return PHASE_NAMES[self._phase]

    def dealer(self) -> int:
        """The player who deals (or dealt) the current deal."""
        return self._dealer

    def dealt(self) -> int:
        """The cards dealt so far in the current deal (the deal's size once it is dealt)."""
        return self._dealt

    def track(self) -> tuple[int, ...]:
        """The colour of the pawn on each track square, −1 when empty."""
        return tuple(self._b[: self._rules.track])

    def pieux(self) -> tuple[int, ...]:
        """The colours whose pieu stands on their start square, in colour order."""
        pieux = self._b[self._rules.pieu]
        return tuple(c for c in range(self._rules.colours) if pieux >> c & 1)

    def homes(self) -> tuple[tuple[int, ...], ...]:
        """Per colour, its four home squares: 1 occupied, 0 empty."""
        b, homes = self._b, self._rules.homes
        return tuple(
            tuple(b[homes + c] >> k & 1 for k in range(PAWNS)) for c in range(self._rules.colours)
        )

    def hand_sizes(self) -> tuple[int, ...]:
        """The number of cards in each player's hand."""
        return tuple(self._sizes)

    def talon(self) -> tuple[int, ...]:
        """The copies of each card kind left in the talon, in card order (``CARD_NAMES``)."""
        return tuple(self._talon)

    def talon_size(self) -> int:
        """The cards left in the talon."""
        return self._talon_size

    def pile(self) -> list[str]:
        """The cards played or discarded since the talon was last made up, in card order."""
        return _names(self._pile)

    def revealed(self) -> list[tuple[str, ...]]:
        """The hand shown by each ``discard all`` so far, in order."""
        return [tuple(CARD_NAMES[k] for k in shown) for shown in self._revealed]

    def given(self, player: int) -> str | None:
        """The card ``player`` chose for their partner in this deal's exchange, or ``None``."""
        self._check_player(player, allow_none=False)
        card = self._gives[player]
        return CARD_NAMES[card] if card >= 0 else None

    def received(self, player: int) -> str | None:
        """The card ``player`` received in this deal's exchange (once it resolved), or
        ``None``."""
        self._check_player(player, allow_none=False)
        card = self._received[player]
        return CARD_NAMES[card] if card >= 0 else None

    def seven_left(self) -> int:
        """The steps left of a seven being played (0 when none is)."""
        return self._seven

    def seven_colour(self) -> int | None:
        """The colour the seven being played moves, or ``None``."""
        return self._seven_colour if self._seven else None

    def _refusal(self, action: TacTikAction) -> str:
        """The rule that forbids ``action`` (see :mod:`tikigames.tactik.refusals`)."""
        return refusal(self, action)

    # ----------------------------------------------------------------- the resampler's fast path

    def redeal_unchecked(self, start: int, cards: Sequence[int], gives: Sequence[int]) -> None:
        """Rewrite the hidden cards of the deal under way, as if it had been played with them:
        ``cards[i]`` is the kind of its i-th dealt card and ``gives[i]`` that of its i-th give,
        the deal's first card being action ``start`` of the history. Hands, talon, exchange,
        history and every player's view of it become what replaying the deal so would give.

        The resampler's fast path: its worlds differ only there, so it rewrites a copy of one
        world rather than replaying the deal in each. Like :meth:`apply_unchecked`, nothing is
        checked: ``cards`` and ``gives`` must be as long as the deal's, and consistent with its
        plays (every card played was held when it was played) — a broken promise leaves the
        state corrupt.

        >>> import tikigames
        >>> state = tikigames.load("tactik").new_initial_state()
        >>> for card in ["1", "3", "6", "9"] * 4:
        ...     state.apply_action(state.parse_action("deal " + card))
        >>> state.redeal_unchecked(0, [0, 1, 2, 3] + [5] * 12, [])
        >>> state.hand(0), state.hand(1), state.talon()[:4], state.seen_history(0)[:2]
        (['1', '7', '7', '7'], ['2', '7', '7', '7'], (3, 3, 3, 3), ('deal 1', 'deal ?'))
        """
        rules = self._rules
        n = rules.players
        # What each player saw is derived from the history (and the seat that saw each hidden
        # action, the same whatever the card): rewriting the history rewrites the views.
        history = self._history
        deal = self._deals.deal
        give = self._actions[self._lay.give : self._lay.give + NUM_CARDS]
        talon, hands = self._talon, self._hands
        first = self._dealer + 1
        for i in range(len(cards)):
            card = cards[i]
            old = history[start + i]
            if old.card != card:
                served = (first + i) % n
                hand = hands[served]
                hand[old.card] -= 1
                hand[card] += 1
                talon[old.card] += 1
                talon[card] -= 1
                new = deal[card]
                history[start + i] = new
        resolved = len(gives) == n
        at = start + len(cards)
        for i in range(len(gives)):
            card = gives[i]
            old = history[at + i]
            if old.card != card:
                giver = (first + i) % n
                self._gives[giver] = card
                if resolved:
                    mate = rules.partner[giver]
                    hands[giver][old.card] += 1
                    hands[giver][card] -= 1
                    hands[mate][old.card] -= 1
                    hands[mate][card] += 1
                    self._received[mate] = card
                new = give[card]
                history[at + i] = new
        self._talon_kinds = _mask(talon)
        # The legal lists cached for the positions inside the deal depend on its cards.
        stack = self._legal_stack
        for i in range(start + 1, len(stack)):
            stack[i] = None
        self._legal = None
        self._hash = None
        self._history_rewritten()

    # ----------------------------------------------------------------- legal actions

    def _generate_legal(self) -> list[TacTikAction]:
        phase = self._phase
        if phase == PLAY:
            return self._play_legal()
        if phase == DEALING:
            # Shared, never mutated: the base class copies the legal list it hands out.
            deals, mask = self._deals, self._talon_kinds
            return (deals.legal.get(mask) or deals.kinds(mask))[1]
        if phase == EXCHANGE:  # the gives of the hand's plan: shared, as above
            deals, hand = self._deals, self._hands[self._player]
            return (deals.hands.get(tuple(hand)) or deals.hand(hand))[6]
        return []

    def _play_legal(self) -> list[TacTikAction]:
        """The legal actions of the player to move, built in id order — starts, forward moves
        (the cards in hand, then a Joker's), ``-4``, sevens, swaps, discards, each run in square
        order — so that nothing is sorted but the pawns.

        What the hand can play is looked up once per hand (``_Deals.hand``: the cards' action
        runs, in id order), and whether a pawn can move is one look-up in the path rule's
        tables (:func:`~tikigames.tactik.paths.forward_bars`) against its colour's occupancy
        word."""
        rules = self._rules
        b = self._b
        if self._seven:
            further = self._deals.sevens[0]  # a seven's further sub-moves: plain sevens
            return [
                further[offset] for offset in self._seven_offsets(self._seven_colour, self._seven)
            ]
        player = self._player
        hand = self._hands[player]
        colours: tuple[int, ...]
        if rules.team:
            colours = (
                (rules.partner[player],) if b[rules.homes + player] == HOME_FULL else (player,)
            )
        else:
            colours = self._acting(player)
        pieux = b[rules.pieu]
        legal: list[TacTikAction] = []
        deals = self._deals  # its memo read directly, its method only on a miss
        starts, forwards, backs, sevens, swaps, discards, _ = deals.hands.get(
            tuple(hand)
        ) or deals.hand(hand)
        res = rules.res
        if starts:
            starters = [c for c in colours if b[res + c] and not pieux >> c & 1]
            if starters:
                actions = self._actions
                for base in starts:
                    for c in starters:
                        legal.append(actions[base + c])
        pos, homes = rules.pos, rules.homes
        back_bars = self._back_bars
        if len(colours) == 1:
            # The pawns of the one acting colour, in square order, against its occupancy.
            c = colours[0]
            occ = pieux | b[homes + c] << HOME_SHIFT | NEVER
            rows = self._rows[c]
            first = pos + PAWNS * c
            xs = b[first : first + PAWNS]
            xs.sort()
            if b[res + c]:  # the pawns in reserve, at −1, come first
                del xs[: b[res + c]]
            for steps, moves in forwards:
                row = rows[steps]
                for x in xs:
                    if not occ & row[x]:
                        legal.append(moves[x])
            if backs:
                unbarred = [x for x in xs if not occ & back_bars[x]]
                for moves in backs:
                    legal += [moves[x] for x in unbarred]
        else:
            # Several colours (the 2-player variant): their pawns merged in square order, each
            # with its colour's occupancy and bars.
            movers: list[tuple[int, int, tuple[tuple[int, ...], ...]]] = []
            for c in colours:
                occ = pieux | b[homes + c] << HOME_SHIFT | NEVER
                rows = self._rows[c]
                first = pos + PAWNS * c
                for x in b[first : first + PAWNS]:
                    if x >= 0:
                        movers.append((x, occ, rows))
            movers.sort()
            for steps, moves in forwards:
                for x, occ, rows in movers:
                    if not occ & rows[steps][x]:
                        legal.append(moves[x])
            if backs:
                unbarred = [x for x, occ, _ in movers if not occ & back_bars[x]]
                for moves in backs:
                    legal += [moves[x] for x in unbarred]
        if sevens:
            offsets: Sequence[int]
            if len(colours) == 1:
                offsets = self._seven_offsets(colours[0], 7)
            else:
                offsets = sorted([offset for c in colours for offset in self._seven_offsets(c, 7)])
            for moves in sevens:
                legal += [moves[offset] for offset in offsets]
        if swaps:
            pairs = self._swap_pairs(colours)
            for moves in swaps:
                legal += [moves[pair] for pair in pairs]
        if rules.discard_any:
            legal += discards
        elif not legal:
            legal.append(self._actions[self._lay.discard_all])
        return legal

    def _seven_offsets(self, c: int, r: int) -> tuple[int, ...]:
        """The legal sub-moves of colour ``c`` with ``r`` steps left, as offsets into the
        seven actions (``7·square + steps − 1``), in order.

        Memoised (``_SEVENS``) by all they depend on: the colour, the pieux, the steps left and
        the colour's pawns' squares (−1 in reserve). Each costs a search of the rest of the
        steps (:func:`~tikigames.tactik.paths.seven_offsets`, 2.7 µs on average in random
        games), and a colour's pawns keep their squares over the turns its player discards or
        a partner plays: after the first few hundred games, about two lookups in three find the
        offsets known."""
        rules = self._rules
        b = self._b
        first = rules.pos + PAWNS * c
        pieux = b[rules.pieu]
        squares = b[first : first + PAWNS]
        squares.sort()
        key = (c, pieux, r, *squares)
        memo = self._sevens
        found = memo.get(key)
        if found is None:
            pawns = tuple([x for x in squares if x >= 0])
            if len(memo) >= _SEVENS_MAX:
                memo.clear()
            found = memo[key] = tuple(
                seven_offsets(rules.track, rules.colours, c, pawns, pieux, r, rules.passed)
            )
        return found

    def _swap_pairs(self, colours: tuple[int, ...]) -> list[int]:
        """Ordered-pair indices of the legal swaps, sorted, each written as the rules say: the
        acting colour's pawn first, the lower square first when both are the player's."""
        b = self._b
        rules = self._rules
        track = rules.track
        pair_base = track - 1
        pieux = b[rules.pieu]
        pos = rules.pos
        ordinary = [
            x
            for x in b[pos : pos + PAWNS * rules.colours]
            if 0 <= x < track and (x & 15 or not pieux >> (x >> 4) & 1)
        ]
        ordinary.sort()
        if len(colours) == 1:
            # One colour: pairs come out in order, (own, other) with other ascending for each
            # own pawn ascending; a pair of own pawns once, from its lower square.
            c = colours[0]
            mine = [x for x in ordinary if b[x] == c]
            others = ordinary
            if pieux >> c & 1:
                mine.append(c << 4)
                mine.sort()
                others = [*ordinary, c << 4]
                others.sort()
            ordered: list[int] = []
            for a in mine:
                row = a * pair_base
                for other in others:
                    if other <= a and b[other] == c:
                        continue
                    ordered.append(row + (other if other < a else other - 1))
            return ordered
        pairs: set[int] = set()
        for c in colours:
            mine = [x for x in ordinary if b[x] == c]
            others = ordinary
            if pieux >> c & 1:
                mine.append(c << 4)
                others = [*ordinary, c << 4]
            for a in mine:
                for other in others:
                    if other == a:
                        continue
                    if b[other] in colours:
                        first, second = (a, other) if a < other else (other, a)
                    else:
                        first, second = a, other
                    pairs.add(first * pair_base + (second if second < first else second - 1))
        return sorted(pairs)

    # ----------------------------------------------------------------- apply

    def _do(self, action: TacTikAction) -> None:
        kind = action.kind
        if kind == DEAL:
            self._do_deal(action.card)
        elif kind == GIVE:
            self._do_give(action.card)
        else:
            self._do_play(action)

    def _do_deal(self, card: int) -> None:
        rules = self._rules
        served = (self._dealer + 1 + self._dealt) % rules.players
        talon = self._talon
        left = talon[card] - 1
        talon[card] = left
        if not left:
            self._talon_kinds ^= 1 << card
        self._talon_size -= 1
        self._hands[served][card] += 1
        self._sizes[served] += 1
        self._dealt += 1
        if self._dealt == rules.deal_size:
            self._phase = EXCHANGE if rules.team else PLAY
            self._player = (self._dealer + 1) % rules.players
        self._undo.append(None)

    def _do_give(self, card: int) -> None:
        rules = self._rules
        n = rules.players
        player = self._player
        self._gives[player] = card
        if player == self._dealer:  # the last to choose: the cards change hands
            hands, gives, received = self._hands, self._gives, self._received
            for p in range(n):
                hands[p][gives[p]] -= 1
            for p in range(n):
                card = gives[rules.partner[p]]
                hands[p][card] += 1
                received[p] = card
            self._phase = PLAY
            self._player = (self._dealer + 1) % n
        else:
            self._player = (player + 1) % n
        self._undo.append(None)

    def _do_play(self, action: TacTikAction) -> None:
        kind = action.kind
        player = self._player
        # What undo restores, read before the play changes it; the record is one flat tuple
        # (one object per play for the garbage collector to track, not three).
        phase, dealer, dealt, seven, seven_colour, turns, winners = (
            self._phase, self._dealer, self._dealt, self._seven, self._seven_colour,
            self._turns, self._winners,
        )  # fmt: skip
        log: list[int] | tuple[()] = NO_LOG
        used: int | tuple[int, ...] | None
        if kind == DISCARD_ALL:
            hand = self._hands[player]
            used = tuple(k for k in range(NUM_CARDS) for _ in range(hand[k]))
            self._hands[player] = [0] * NUM_CARDS
            self._sizes[player] = 0
            for k in used:
                self._pile[k] += 1
            self._revealed.append(used)
        else:
            if kind == SEVEN and self._seven:
                used = None  # a further sub-move of the seven being played
            else:
                used = action.card
                self._hands[player][used] -= 1
                self._sizes[player] -= 1
                self._pile[used] += 1
            if kind != DISCARD:
                moved: list[int] = []
                colour = self._move(action, moved)
                log = moved
                if kind == SEVEN and not self._seven:
                    self._seven = 7
                    self._seven_colour = colour
            if kind == SEVEN:
                self._seven -= action.steps
                if not self._seven:
                    self._seven_colour = -1
        # A seven with steps left goes on in the same turn; anything else ends it.
        extra = None if self._seven else self._end_turn(player)
        self._undo.append(
            (phase, player, dealer, dealt, seven, seven_colour, turns, winners, log, used, extra)
        )

    def _end_turn(self, player: int) -> tuple[Any, ...] | None:
        """The turn is over: a win, the turn limit, the next player, or the next deal (whose
        talon is made up anew when it cannot serve a full deal). Returns what undo needs
        beyond the scalars (the talon, pile and exchange of a finished deal)."""
        rules = self._rules
        self._turns += 1
        b = self._b
        homes = self._rules.homes
        for c in rules.team_colours[player]:
            if b[homes + c] != HOME_FULL:
                break
        else:
            self._winners = rules.team_players[player]
            self._phase = OVER
            self._player = TERMINAL
            return None
        if rules.max_turns is not None and self._turns >= rules.max_turns:
            self._phase = OVER
            self._player = TERMINAL
            return None
        n = rules.players
        sizes = self._sizes
        for i in range(1, n + 1):
            nxt = (player + i) % n
            if sizes[nxt]:
                self._player = nxt
                return None
        self._dealer = (self._dealer + 1) % n
        self._dealt = 0
        self._phase = DEALING
        self._player = CHANCE
        extra: tuple[Any, ...] = (self._gives, self._received, None)
        self._gives = [-1] * n
        self._received = [-1] * n
        if self._talon_size < rules.deal_size:
            # The talon and the pile are replaced, not changed: the record keeps the old ones
            # (and undo copies them back, since clones share the records).
            extra = (
                extra[0], extra[1], (self._talon, self._talon_size, self._talon_kinds, self._pile)
            )  # fmt: skip
            self._talon = list(rules.deck)
            self._talon_size = rules.deck_size
            self._talon_kinds = rules.deck_kinds
            self._pile = [0] * NUM_CARDS
        return extra

    # ----------------------------------------------------------------- moves on the board

    def _capture(self, x: int, log: list[int]) -> None:
        """The ordinary pawn on track square ``x`` goes back to its reserve (the square itself
        is left for the caller to overwrite)."""
        b = self._b
        colour = b[x]
        pos = self._rules.pos + PAWNS * colour
        slot = b.index(x, pos, pos + PAWNS)
        log += (slot, x)
        b[slot] = -1
        res = self._rules.res + colour
        log += (res, b[res])
        b[res] += 1

    def _move(self, action: TacTikAction, log: list[int]) -> int:
        """Apply a resolution's effect on the board, logging every overwritten entry; returns
        the colour of the (first) pawn moved."""
        b = self._b
        rules = self._rules
        track = rules.track
        kind = action.kind
        pieu = self._rules.pieu
        if kind == START:
            c = action.square
            start = c << 4
            if b[start] >= 0:
                self._capture(start, log)
            pos = self._rules.pos + PAWNS * c
            slot = b.index(-1, pos, pos + PAWNS)
            res = self._rules.res + c
            log += (start, b[start], pieu, b[pieu], res, b[res], slot, -1)
            b[start] = c
            b[pieu] |= 1 << c
            b[res] -= 1
            b[slot] = start
            return c
        if kind == SWAP_PAWNS:
            x, y = action.square, action.other
            cx, cy = b[x], b[y]
            pos = self._rules.pos
            sx = b.index(x, pos + PAWNS * cx, pos + PAWNS * (cx + 1))
            sy = b.index(y, pos + PAWNS * cy, pos + PAWNS * (cy + 1))
            log += (x, cx, y, cy, sx, x, sy, y, pieu, b[pieu])
            b[x], b[y] = cy, cx
            b[sx], b[sy] = y, x
            for square, colour in ((x, cx), (y, cy)):
                if square == colour << 4:
                    b[pieu] &= ~(1 << colour)
            return cx
        x = action.square
        c = b[x] if x < track else (x - track) // PAWNS
        n = action.steps
        if kind == BACK:
            y = (x - 4) % track
        elif x >= track:
            y = x + n
        else:
            # forward_dest, for a move known to be possible: into the home if it may enter
            # (its squares up to j empty, and not a pieu leaving its own start square).
            j = self._entries[c][(x << 4) + n]
            if (
                j
                and not b[rules.homes + c] & ((1 << j) - 1)
                and not (x == c << 4 and b[pieu] >> c & 1)
            ):
                y = track + PAWNS * c + j - 1
            else:
                y = (x + n) % track
        pos = self._rules.pos + PAWNS * c
        slot = b.index(x, pos, pos + PAWNS)
        log += (pieu, b[pieu])
        if x < track:
            log += (x, c)
            b[x] = -1
            if x == c << 4:
                b[pieu] &= ~(1 << c)
        else:
            home = self._rules.homes + c
            log += (home, b[home])
            b[home] &= ~(1 << (x - track - PAWNS * c))
        if kind == SEVEN and rules.passed:
            for square in entered(track, x, y, n, c):
                if b[square] >= 0:
                    self._capture(square, log)
                    log += (square, b[square])
                    b[square] = -1
        if y < track:
            if b[y] >= 0:
                self._capture(y, log)
            log += (y, b[y])
            b[y] = c
        else:
            home = self._rules.homes + c
            log += (home, b[home])
            b[home] |= 1 << (y - track - PAWNS * c)
        log += (slot, x)
        b[slot] = y
        return c

    # ----------------------------------------------------------------- undo

    def _undo_last(self, action: TacTikAction) -> None:
        record = self._undo.pop()
        kind = action.kind
        rules = self._rules
        if kind == DEAL:
            self._dealt -= 1
            served = (self._dealer + 1 + self._dealt) % rules.players
            card = action.card
            talon = self._talon
            if not talon[card]:
                self._talon_kinds |= 1 << card
            talon[card] += 1
            self._talon_size += 1
            self._hands[served][card] -= 1
            self._sizes[served] -= 1
            self._phase = DEALING
            self._player = CHANCE
            return
        if kind == GIVE:
            if self._phase == PLAY:  # the exchange had resolved
                hands, gives, received = self._hands, self._gives, self._received
                for p in range(rules.players):
                    hands[p][received[p]] -= 1
                    received[p] = -1
                for p in range(rules.players):
                    hands[p][gives[p]] += 1
                self._phase = EXCHANGE
                self._player = self._dealer
            else:
                self._player = (self._player - 1) % rules.players
            self._gives[self._player] = -1
            return
        (
            self._phase, player, self._dealer, self._dealt, self._seven, self._seven_colour,
            self._turns, self._winners, log, used, extra,
        ) = record  # fmt: skip
        if extra is not None:
            gives, received, made_up = extra
            self._gives, self._received = gives.copy(), received.copy()
            if made_up is not None:
                talon, self._talon_size, self._talon_kinds, pile = made_up
                self._talon, self._pile = talon.copy(), pile.copy()
        self._player = player
        b = self._b
        for i in range(len(log) - 2, -1, -2):
            b[log[i]] = log[i + 1]
        if kind == DISCARD_ALL:
            hand = self._hands[player]
            for k in used:
                hand[k] += 1
                self._pile[k] -= 1
            self._sizes[player] = len(used)
            self._revealed.pop()
        elif used is not None:
            self._hands[player][used] += 1
            self._sizes[player] += 1
            self._pile[used] -= 1

    # ----------------------------------------------------------------- copies and identity

    def clone(self) -> Self:
        """:meth:`State.clone <tikigames.State.clone>`, with the class named so that compiled,
        ``__init__`` runs once (see the base class)."""
        if type(self) is not TacTikState:  # a subclass: its own class, at the cost of the slot
            return type(self)(self._game, self)
        return cast(Self, TacTikState(self._game, self))

    def _copy_into(self, new: TacTikState) -> None:
        new._rules = self._rules
        new._lay = self._lay
        new._b = self._b.copy()
        new._hands = [hand.copy() for hand in self._hands]
        new._sizes = self._sizes.copy()
        new._talon = self._talon.copy()
        new._talon_size = self._talon_size
        new._talon_kinds = self._talon_kinds
        new._deals = self._deals
        new._rows = self._rows
        new._sevens = self._sevens
        new._entries = self._entries
        new._back_bars = self._back_bars
        new._pile = self._pile.copy()
        new._revealed = self._revealed.copy()
        new._phase = self._phase
        new._player = self._player
        new._dealer = self._dealer
        new._dealt = self._dealt
        new._gives = self._gives.copy()
        new._received = self._received.copy()
        new._seven = self._seven
        new._seven_colour = self._seven_colour
        new._turns = self._turns
        new._winners = self._winners

    def _position_key(self) -> tuple[Any, ...]:
        turns = self._turns if self._rules.max_turns is not None else -1
        return (
            self._phase, self._player, self._dealer, self._dealt, self._seven,
            self._seven_colour, turns, self._winners, tuple(self._b[: self._rules.pos]),
            tuple(map(tuple, self._hands)), tuple(self._talon), tuple(self._gives),
            tuple(self._received),
        )  # fmt: skip

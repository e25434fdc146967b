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
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

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
    TacTikAction,
)
from tikigames.tactik.data import CARD_NAMES, HOME_FULL, NUM_CARDS, PAWNS, geometry
from tikigames.tactik.deals import kinds_mask
from tikigames.tactik.movegen import Tables, acting_colours, play_legal, tables_of
from tikigames.tactik.paths import entered
from tikigames.tactik.refusals import refusal

if TYPE_CHECKING:
    from random import Random

    from tikigames.tactik.game import TacTik  # noqa: F401 (base class)
    from tikigames.tactik.observation import TacTikObservation  # noqa: F401 (base class)

__all__ = ["PawnMove", "TacTikState", "result_words"]

# Phases.
DEALING, EXCHANGE, PLAY, OVER = range(4)
PHASE_NAMES = ("deal", "exchange", "play", "over")
#: The log of a play that moves no pawn (a discard): shared, since nothing is written to it.
NO_LOG: Final[tuple[()]] = ()


def _names(counts: list[int]) -> list[str]:
    """The cards of a count per kind, in card order."""
    return [CARD_NAMES[k] for k in range(NUM_CARDS) for _ in range(counts[k])]


def result_words(winners: Sequence[int]) -> str:
    """The end of a game in Tac-Tik's words, from its winners (``()``: a draw, by the turn
    limit): what ``state.result_text()`` says and the text rendering prints after
    ``Game over:``.

    >>> result_words((0, 2)), result_words((1,)), result_words(())
    ('players 0 and 2 won', 'player 1 won', 'a draw')
    """
    if len(winners) > 1:
        return "players " + " and ".join(map(str, winners)) + " won"
    if winners:
        return f"player {winners[0]} won"
    return "a draw"


class PawnMove(NamedTuple):
    """The squares a move joined (see :meth:`TacTikState.last_move`): square numbers (``0 …
    L−1`` the track, ``L + 4·c + k − 1`` home square ``k`` of colour ``c``), or ``−1 − c`` for
    colour ``c``'s reserve."""

    #: Where the (first) pawn came from: a square, or a reserve for a start.
    source: int
    #: Where it went: a square (the second pawn's, for a swap).
    target: int
    #: Whether the two pawns changed places (a swap) rather than one moving.
    swap: bool


# ----------------------------------------------------------------------------- rollout policy

# The weights of :meth:`TacTikState.rollout_action`'s greedy score, in squares of progress: a
# heuristic for search bots, not a rule. Chosen by hand, not tuned (duels of 30 to 70 games, all
# that fitted in the time, cannot tell small changes apart); the docs page has the figures.
#: Bonus for a pawn that enters its home (safe from then on, and the way to win).
ROLLOUT_HOME: Final = 8.0
#: Bonus for a start (a pawn out of the reserve is worth more than its one square).
ROLLOUT_START: Final = 6.0
#: Bonus for capturing another team's pawn, beyond the progress it loses.
ROLLOUT_CAPTURE: Final = 4.0
#: The spread of the uniform noise added to each score: near-equal moves are drawn at random.
ROLLOUT_NOISE: Final = 3.0
#: The chance that a step is drawn uniformly instead (the playouts must stay varied).
ROLLOUT_EPSILON: Final = 0.1


# ----------------------------------------------------------------------------- the state

#: The position's fields: the board list ``_b`` (its layout: :class:`~tikigames.tactik.movegen.
#: Tables`), the hands (a count per kind) and their sizes, the talon, the pile, the hands shown,
#: the phase, whose turn, the deal and its exchange, a seven under way, the turns, the winners;
#: and ``_t``, the tables every state of the game shares.
_FIELDS: Final = (
    "_t",
    "_b",
    "_hands",
    "_sizes",
    "_talon",
    "_talon_size",
    "_talon_kinds",
    "_pile",
    "_revealed",
    "_phase",
    "_player",
    "_dealer",
    "_dealt",
    "_gives",
    "_received",
    "_seven",
    "_seven_colour",
    "_turns",
    "_winners",
)


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
    """

    __slots__ = _FIELDS
    position_fields = _FIELDS
    #: The shared tables; what follows from the hands and the talon (the sizes, the talon's
    #: size and kinds, the pile: the deck less the talon and the hands); the hands shown by
    #: ``discard all`` (a record of the history, not of the position: ``==`` compares
    #: positions).
    derived_fields = frozenset(
        {"_t", "_sizes", "_talon_size", "_talon_kinds", "_pile", "_revealed"}
    )

    def _init_position(self) -> None:
        game = self.game
        rules = game.rules
        self._t: Tables = tables_of(rules, game.action_table.actions)
        self._b: list[int] = self._t.initial_board()
        n = rules.players
        self._hands: list[list[int]] = [[0] * NUM_CARDS for _ in range(n)]
        self._sizes: list[int] = [0] * n
        self._talon: list[int] = list(rules.deck)
        self._talon_size = rules.deck_size
        #: The kinds left in the talon, as a bitmask (bit k: kind k), kept with the talon.
        self._talon_kinds = rules.deck_kinds
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
        n = self._t.players
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
        t = self._t
        rules = t.rules
        b = self._b
        track = t.track
        lap = float(track + PAWNS)
        first = t.pos
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

    def rollout_action(self, rng: Random) -> TacTikAction:
        """The search bots' playout policy: greedy on the race, with noise. A heuristic for
        search bots, not a rule.

        Deals are drawn as :meth:`sample_chance` draws them and gives uniformly (as
        :meth:`random_action`). On a player's turn, with probability ``ROLLOUT_EPSILON`` a legal
        action is drawn uniformly; otherwise each legal action is scored by what it changes in
        the race that :meth:`evaluate` judges — the squares of progress the moved pawn gains
        (a pawn that overshoots its home and must go round again loses a lap), plus the
        progress of every pawn it captures (another team's: a gain, plus ``ROLLOUT_CAPTURE``;
        its own team's: a loss), ``ROLLOUT_HOME`` for a pawn entering its home,
        ``ROLLOUT_START`` for a start; a swap counts both pawns' changes; a discard is 0 — and
        the best score plus ``ROLLOUT_NOISE`` times a uniform draw is played. Another team's
        progress counts once with two teams, half with three (as in :meth:`evaluate`'s mean).

        Its cost is one legal list (as :meth:`random_action`'s) and a few integer operations
        per legal action.

        >>> import random, tikigames
        >>> state = tikigames.load("tactik").new_initial_state()
        >>> state.rollout_action(random.Random(0)) in state.legal_actions()
        True
        """
        if self._phase != PLAY:
            return self.random_action(rng)
        legal = self._legal_if_cached()
        if legal is None:
            legal = self._generate_legal()
        count = len(legal)
        if count == 1:
            return legal[0]
        if rng.random() < ROLLOUT_EPSILON:
            return legal[int(rng.random() * count)]
        t = self._t
        b = self._b
        track = t.track
        homes = t.homes
        pieux = b[t.pieu]
        entries = t.entries
        passed = t.passed
        rules = t.rules
        mine = 0
        for c in rules.team_colours[self._player]:
            mine |= 1 << c
        # Another team's progress, against one's own: once with two teams, half with three.
        other = 1.0 if rules.colours == 4 or not rules.team else 0.5
        best = legal[0]
        best_score = -math.inf
        for action in legal:
            kind = action.kind
            score = 0.0
            if kind == START:
                c = action.square
                start = c << 4
                score = 1.0 + ROLLOUT_START
                v = b[start]
                if v >= 0:  # an ordinary pawn on the start square is captured
                    lost = 1 + (start - (v << 4)) % track
                    score += -lost if mine >> v & 1 else other * (lost + ROLLOUT_CAPTURE)
            elif kind == SWAP_PAWNS:
                x, y = action.square, action.other
                cx, cy = b[x], b[y]
                # Each pawn's progress from the other's square, minus from its own.
                gx = (y - (cx << 4)) % track - (x - (cx << 4)) % track
                gy = (x - (cy << 4)) % track - (y - (cy << 4)) % track
                score = float(gx) if mine >> cx & 1 else -other * gx
                score += gy if mine >> cy & 1 else -other * gy
            elif kind <= SEVEN:  # FORWARD, BACK, SEVEN: one pawn from x to y
                x = action.square
                n = action.steps
                if x >= track:  # further into its home
                    score = float(n)
                else:
                    c = b[x]
                    start = c << 4
                    if kind == BACK:
                        y = (x - 4) % track
                    else:
                        j = entries[c][(x << 4) + n]
                        if (
                            j
                            and not b[homes + c] & ((1 << j) - 1)
                            and not (x == start and pieux >> c & 1)
                        ):
                            y = track + PAWNS * c + j - 1
                        else:
                            y = (x + n) % track
                    if y >= track:  # into its home
                        # Home square k is worth L + k: y − 4c − L + 1 = k.
                        score = y - PAWNS * c - (x - start) % track + ROLLOUT_HOME
                        span = (start - x) % track  # the track squares entered: to the start
                    else:
                        score = float((y - start) % track - (x - start) % track)
                        span = n - 1
                        v = b[y]
                        if v >= 0:
                            lost = 1 + (y - (v << 4)) % track
                            score += -lost if mine >> v & 1 else other * (lost + ROLLOUT_CAPTURE)
                    if kind == SEVEN and passed:
                        for i in range(1, span + 1):
                            z = (x + i) % track
                            v = b[z]
                            if v >= 0:
                                lost = 1 + (z - (v << 4)) % track
                                score += (
                                    -lost if mine >> v & 1 else other * (lost + ROLLOUT_CAPTURE)
                                )
            score += ROLLOUT_NOISE * rng.random()
            if score > best_score:
                best, best_score = action, score
        return best

    def chance_outcomes(self) -> list[tuple[TacTikAction, float]]:
        if self._phase != DEALING:
            return []
        deals = self._t.deals
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
        deals = self._t.deals
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
            return (self._dealer + 1 + self._dealt) % self._t.players
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
        return acting_colours(self._t, self._b, self._player)

    def hand(self, player: int) -> list[str]:
        """``player``'s cards, in card order (an omniscient accessor: observations show only the
        observer's own hand)."""
        self._check_player(player, allow_none=False)
        return _names(self._hands[player])

    def _check_colour(self, colour: object) -> int:
        colours = self._t.colours
        if type(colour) is not int or not 0 <= colour < colours:
            raise ValueError(f"colour must be an int in 0..{colours - 1}, not {colour!r}")
        return colour

    def pawns(self, colour: int) -> list[str]:
        """The squares of ``colour``'s pawns on the board (track then home), sorted; a pieu is
        marked with ``!`` (``t16!``)."""
        self._check_colour(colour)
        t = self._t
        names = geometry(t.colours).names
        pos = t.pos
        squares = sorted(x for x in self._b[pos + PAWNS * colour : pos + PAWNS * (colour + 1)])
        pieu = self._b[t.pieu] >> colour & 1
        return [names[x] + ("!" if pieu and x == colour << 4 else "") for x in squares if x >= 0]

    def reserve(self, colour: int) -> int:
        """How many of ``colour``'s pawns are in its reserve."""
        return self._b[self._t.res + self._check_colour(colour)]

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
        return tuple(self._b[: self._t.track])

    def pieux(self) -> tuple[int, ...]:
        """The colours whose pieu stands on their start square, in colour order."""
        pieux = self._b[self._t.pieu]
        return tuple(c for c in range(self._t.colours) if pieux >> c & 1)

    def homes(self) -> tuple[tuple[int, ...], ...]:
        """Per colour, its four home squares: 1 occupied, 0 empty."""
        b, homes = self._b, self._t.homes
        return tuple(
            tuple(b[homes + c] >> k & 1 for k in range(PAWNS)) for c in range(self._t.colours)
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

    def result_text(self) -> str | None:
        """The result in Tac-Tik's words once the game is over (:func:`result_words`: ``players
        0 and 2 won``, ``a draw`` at the turn limit), ``None`` before."""
        if self._phase != OVER:
            return None
        return result_words(self._winners)

    def last_move(self) -> PawnMove | None:
        """The squares the last action joined, as the engine applied it: a start from its
        colour's reserve to the start square, a swap's two squares, a pawn's move from its
        square to where it landed (a home square when it went in); ``None`` when the last
        action moved no pawn (a deal, a give, a discard) or there is none. Public: what every
        player saw.

        >>> import tikigames
        >>> state = tikigames.load("tactik").new_initial_state()
        >>> for text in ["deal 1", "deal 3", "deal 6", "deal 9"] * 4:
        ...     state.apply_action(state.parse_action(text))
        >>> for text in ["give 1", "give 3", "give 6", "give 9"]:
        ...     state.apply_action(state.parse_action(text))
        >>> state.last_move() is None
        True
        >>> state.apply_action(state.parse_action("1:start@0"))
        >>> state.last_move()
        PawnMove(source=-1, target=0, swap=False)
        """
        number = self.move_number()
        if not number:
            return None
        record = self._undo_record(number - 1)
        if record is None or not record[8]:  # a deal, a give, or a play that moved no pawn
            return None
        log: Sequence[int] = record[8]
        action: TacTikAction = record[11]
        kind = action.kind
        if kind == START:
            return PawnMove(-1 - action.square, action.square << 4, False)
        if kind == SWAP_PAWNS:
            return PawnMove(action.square, action.other, True)
        # A pawn's move ends with its slot's entry (its old square): the slot holds the new one.
        return PawnMove(action.square, self._b[log[-2]], False)

    def last_captures(self) -> tuple[int, ...]:
        """The squares whose pawns the last action captured (sent back to their reserves), in
        the order it captured them; ``()`` when it captured none. Public, like the move.

        >>> import tikigames
        >>> state = tikigames.load("tactik").new_initial_state()
        >>> state.last_captures()
        ()
        """
        number = self.move_number()
        if not number:
            return ()
        record = self._undo_record(number - 1)
        if record is None:
            return ()
        # In the log, a capture is its pawn's slot (old value: its square) followed by its
        # reserve; a start's own reserve follows the pieux' entry instead.
        log: Sequence[int] = record[8]
        t = self._t
        res, pieu, pos = t.res, t.pieu, t.pos
        return tuple(
            log[i - 1] for i in range(2, len(log), 2) if res <= log[i] < pieu and log[i - 2] >= pos
        )

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
        t = self._t
        n = t.players
        # What each player saw is derived from the history (and the seat that saw each hidden
        # action, the same whatever the card): rewriting the history rewrites the views.
        history = self.history()
        deals = t.deals
        deal, give = deals.deal, deals.give
        talon, hands = self._talon, self._hands
        first = self._dealer + 1
        rewritten: list[tuple[int, TacTikAction]] = []
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
                rewritten.append((start + i, deal[card]))
        resolved = len(gives) == n
        at = start + len(cards)
        partner = t.partner
        for i in range(len(gives)):
            card = gives[i]
            old = history[at + i]
            if old.card != card:
                giver = (first + i) % n
                self._gives[giver] = card
                if resolved:
                    mate = partner[giver]
                    hands[giver][old.card] += 1
                    hands[giver][card] -= 1
                    hands[mate][old.card] -= 1
                    hands[mate][card] += 1
                    self._received[mate] = card
                rewritten.append((at + i, give[card]))
        self._talon_kinds = kinds_mask(talon)
        # The core forgets what depended on the old cards (the legal lists inside the deal).
        self._rewrite_past(rewritten)

    # ----------------------------------------------------------------- legal actions

    def _generate_legal(self) -> list[TacTikAction]:
        phase = self._phase
        if phase == PLAY:
            player = self._player
            return play_legal(
                self._t, self._b, self._hands[player], player, self._seven, self._seven_colour
            )
        if phase == DEALING:
            # Shared, never mutated: the base class copies the legal list it hands out.
            deals, mask = self._t.deals, self._talon_kinds
            return (deals.legal.get(mask) or deals.kinds(mask))[1]
        if phase == EXCHANGE:  # the gives of the hand's plan: shared, as above
            deals, hand = self._t.deals, self._hands[self._player]
            return (deals.hands.get(tuple(hand)) or deals.hand(hand)).gives
        return []

    # ----------------------------------------------------------------- apply

    def _do(self, action: TacTikAction) -> tuple[Any, ...] | None:
        """Apply ``action``; its undo record is ``None`` for a deal or a give (undone from
        the position alone), a play's flat tuple otherwise (see :meth:`_do_play`)."""
        kind = action.kind
        if kind == DEAL:
            self._do_deal(action.card)
            return None
        if kind == GIVE:
            self._do_give(action.card)
            return None
        return self._do_play(action)

    def _do_deal(self, card: int) -> None:
        t = self._t
        served = (self._dealer + 1 + self._dealt) % t.players
        talon = self._talon
        left = talon[card] - 1
        talon[card] = left
        if not left:
            self._talon_kinds ^= 1 << card
        self._talon_size -= 1
        self._hands[served][card] += 1
        self._sizes[served] += 1
        self._dealt += 1
        if self._dealt == t.deal_size:
            self._phase = EXCHANGE if t.team else PLAY
            self._player = (self._dealer + 1) % t.players

    def _do_give(self, card: int) -> None:
        t = self._t
        n = t.players
        player = self._player
        self._gives[player] = card
        if player == self._dealer:  # the last to choose: the cards change hands
            hands, gives, received = self._hands, self._gives, self._received
            for p in range(n):
                hands[p][gives[p]] -= 1
            for p in range(n):
                card = gives[t.partner[p]]
                hands[p][card] += 1
                received[p] = card
            self._phase = PLAY
            self._player = (self._dealer + 1) % n
        else:
            self._player = (player + 1) % n

    def _do_play(self, action: TacTikAction) -> tuple[Any, ...]:
        """A card played (or a seven's further sub-move); returns its undo record, one flat
        tuple: the scalars before it, the player, the board's log (each overwritten entry's
        index and old value), the card or cards used, what the end of a deal replaced, and the
        action (for :meth:`last_move`)."""
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
        return (
            phase, player, dealer, dealt, seven, seven_colour, turns, winners, log, used, extra,
            action,
        )  # fmt: skip

    def _end_turn(self, player: int) -> tuple[Any, ...] | None:
        """The turn is over: a win, the turn limit, the next player, or the next deal (whose
        talon is made up anew when it cannot serve a full deal). Returns what undo needs
        beyond the scalars (the talon, pile and exchange of a finished deal)."""
        t = self._t
        rules = t.rules
        self._turns += 1
        b = self._b
        homes = t.homes
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
        t = self._t
        colour = b[x]
        pos = t.pos + PAWNS * colour
        slot = b.index(x, pos, pos + PAWNS)
        log += (slot, x)
        b[slot] = -1
        res = t.res + colour
        log += (res, b[res])
        b[res] += 1

    def _move(self, action: TacTikAction, log: list[int]) -> int:
        """Apply a resolution's effect on the board, logging every overwritten entry; returns
        the colour of the (first) pawn moved."""
        b = self._b
        t = self._t
        track = t.track
        kind = action.kind
        pieu = t.pieu
        if kind == START:
            c = action.square
            start = c << 4
            if b[start] >= 0:
                self._capture(start, log)
            pos = t.pos + PAWNS * c
            slot = b.index(-1, pos, pos + PAWNS)
            res = t.res + c
            log += (start, b[start], pieu, b[pieu], res, b[res], slot, -1)
            b[start] = c
            b[pieu] |= 1 << c
            b[res] -= 1
            b[slot] = start
            return c
        if kind == SWAP_PAWNS:
            x, y = action.square, action.other
            cx, cy = b[x], b[y]
            pos = t.pos
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
            j = t.entries[c][(x << 4) + n]
            if j and not b[t.homes + c] & ((1 << j) - 1) and not (x == c << 4 and b[pieu] >> c & 1):
                y = track + PAWNS * c + j - 1
            else:
                y = (x + n) % track
        pos = t.pos + PAWNS * c
        slot = b.index(x, pos, pos + PAWNS)
        log += (pieu, b[pieu])
        if x < track:
            log += (x, c)
            b[x] = -1
            if x == c << 4:
                b[pieu] &= ~(1 << c)
        else:
            home = t.homes + c
            log += (home, b[home])
            b[home] &= ~(1 << (x - track - PAWNS * c))
        if kind == SEVEN and t.passed:
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
            home = t.homes + c
            log += (home, b[home])
            b[home] |= 1 << (y - track - PAWNS * c)
        log += (slot, x)
        b[slot] = y
        return c

    # ----------------------------------------------------------------- undo

    def _undo_last(self, action: TacTikAction, record: Any) -> None:
        kind = action.kind
        n = self._t.players
        if kind == DEAL:
            self._dealt -= 1
            served = (self._dealer + 1 + self._dealt) % n
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
                for p in range(n):
                    hands[p][received[p]] -= 1
                    received[p] = -1
                for p in range(n):
                    hands[p][gives[p]] += 1
                self._phase = EXCHANGE
                self._player = self._dealer
            else:
                self._player = (self._player - 1) % n
            self._gives[self._player] = -1
            return
        (
            self._phase, player, self._dealer, self._dealt, self._seven, self._seven_colour,
            self._turns, self._winners, log, used, extra, _,
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
            return type(self)(self.game, self)
        return cast(Self, TacTikState(self.game, self))

    def _copy_into(self, new: TacTikState) -> None:
        new._t = self._t
        new._b = self._b.copy()
        new._hands = [hand.copy() for hand in self._hands]
        new._sizes = self._sizes.copy()
        new._talon = self._talon.copy()
        new._talon_size = self._talon_size
        new._talon_kinds = self._talon_kinds
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
        t = self._t
        turns = self._turns if t.rules.max_turns is not None else -1
        return (
            self._phase, self._player, self._dealer, self._dealt, self._seven,
            self._seven_colour, turns, self._winners, tuple(self._b[: t.pos]),
            tuple(map(tuple, self._hands)), tuple(self._talon), tuple(self._gives),
            tuple(self._received),
        )  # fmt: skip

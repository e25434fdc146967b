"""Tiki Topple's rules engine.

A round is: a chance outcome for the line, one chance outcome per secret card (dealt in seat
order to the players in the round), then one card per turn until a Toast leaves three tikis or
every hand is empty. Turn-by-turn changes are undone from small records (the position an Up or
Topple card moved a tiki from); the rare round transitions (a new line, a round's end) replace
the fields they change by new objects and keep the old ones as their record.

Speed comes from lookups: the line is also kept as a bit mask of its tikis, and the action table
lists each card's actions on each set of tikis, and each part of the secret deck's deals, so
the legal actions are joined from a few prebuilt tuples and a random action or a secret card is
an index into one (see the game's page, "Performance").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from math import sqrt, tanh
from random import Random
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

from typing_extensions import Self

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.errors import IllegalActionError
from tikigames.core.state import State
from tikigames.tiki_topple import refusals
from tikigames.tiki_topple.actions import (
    LINE,
    NUM_LINES,
    SECRET,
    TikiToppleAction,
    TikiToppleTable,
)
from tikigames.tiki_topple.data import (
    ALL_SECRETS,
    CARD_NAMES,
    NUM_SECRETS,
    NUM_TIKIS,
    SECRET_CARDS,
    TIKIS,
    TOAST,
    TOPPLE,
    TikiToppleRules,
    full_hand,
    score_card,
)
from tikigames.tiki_topple.words import result_words, seats_in_words

if TYPE_CHECKING:
    from tikigames.tiki_topple.game import TikiTopple  # noqa: F401 (base class)
    from tikigames.tiki_topple.observation import TikiToppleObservation  # noqa: F401 (base class)

__all__ = [
    "Play",
    "RoundSoFar",
    "ScoredRound",
    "TikiToppleState",
    "round_so_far",
    "seats_in_words",
]

#: A hand's card names in card order, by its counts of each card (a hand holds two at most).
_HAND_TEXTS: dict[tuple[int, ...], tuple[str, ...]] = {
    counts: tuple(CARD_NAMES[kind] for kind in range(5) for _ in range(counts[kind]))
    for counts in product(range(3), repeat=5)
}

# Knowledge for the search bots: heuristics, not rules (see the game's page, "For search
# bots").

#: ``evaluate``: a lead of this many points, with one round still to play, is worth tanh(1)
#: ≈ 0.76 (about the spread of one round's lead between two players; random play gives 4.8).
_ROUND_SPREAD: Final = 6.0
#: ``evaluate``: the spread still to come when no card is left to play (a round in progress
#: always leaves something to chance in the guess, and the scale never reaches 0).
_SPREAD_FLOOR: Final = 0.05
#: ``rollout_action``: the share of moves drawn uniformly (the others are the mover's best).
_EXPLORE: Final = 0.2
#: ``rollout_action``: what a secret card's top, middle and bottom tiki is worth at each
#: position (top first): the points it scores there, then less the farther down it stands
#: (a tiki a few places down can still be lifted into its place).
_POTENTIAL: Final = (
    (9.0, 5.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.5, 0.25),
    (5.0, 5.0, 3.0, 2.0, 1.5, 1.0, 0.5, 0.25, 0.1),
    (2.0, 2.0, 2.0, 1.2, 0.8, 0.5, 0.3, 0.2, 0.1),
)
#: Per secret card, per tiki: the tiki's slot on the card (0 top, 1 middle, 2 bottom), or −1.
_SLOTS: Final = tuple(
    tuple(card.index(tiki) if tiki in card else -1 for tiki in range(NUM_TIKIS))
    for card in SECRET_CARDS
)

# Phases.
_LINE, _SECRET, _PLAY, _OVER = range(4)

#: The line keeps this many tikis after the Toast that ends a round.
_FINAL_LINE = 3

#: Every tiki, as a bit mask (bit ``t`` for tiki ``t``).
_ALL_TIKIS = (1 << NUM_TIKIS) - 1

#: The id of the Tiki Toast card.
_TOAST_ID = TOAST * NUM_TIKIS


class _Layout:
    """What is the same in every state of a game with these rules: the action table's
    lookups the engine reads on every turn, and the options it reads. One per rule set
    (:func:`_layout`), held by each state in one slot."""

    __slots__ = (
        "card_actions",
        "line_actions",
        "line_outcomes",
        "players",
        "rules",
        "table",
        "toast",
        "topple_bottom",
    )

    def __init__(self, table: TikiToppleTable, rules: TikiToppleRules) -> None:
        self.table = table
        self.card_actions = table.card_actions
        self.line_actions = table.line_actions
        self.line_outcomes = table.line_outcomes
        self.toast: TikiToppleAction = table.actions[_TOAST_ID]
        self.rules = rules
        self.players = rules.players
        self.topple_bottom = rules.topple_bottom_allowed


#: ``_Layout`` by rules: the few rule sets of a run, each laid out once.
_LAYOUTS: dict[TikiToppleRules, _Layout] = {}


def _layout(table: TikiToppleTable, rules: TikiToppleRules) -> _Layout:
    lay = _LAYOUTS.get(rules)
    if lay is None or lay.table is not table:
        lay = _LAYOUTS[rules] = _Layout(table, rules)
    return lay


class ScoredRound(NamedTuple):
    """A finished round, as the engine recorded it when it scored it.

    Attributes:
        cards: each seat's secret card (−1 for a seat that sat the round out).
        points: each seat's points.
        starter: the seat that played first.
    """

    cards: tuple[int, ...]
    points: tuple[int, ...]
    starter: int


class Play(NamedTuple):
    """A card played in a round: by whom, which card, and where its tiki went.

    Attributes:
        seat: the seat that played it.
        text: the action's text (``up2 nui``, ``toast``).
        kind: the card (``UP1`` … ``TOAST``).
        tiki: the tiki it moved, or the one it toasted.
        before: the tiki's position before (0-based, top first; a toasted tiki: the length of
            the line it left).
        after: the tiki's position after (a toasted tiki: as ``before``).
    """

    seat: int
    text: str
    kind: int
    tiki: int
    before: int
    after: int


class RoundSoFar(NamedTuple):
    """The last round dealt, as its public actions tell it (what a picture of the table
    draws): :meth:`TikiToppleState.round_so_far` and the observation's ``round_so_far``.

    Attributes:
        number: the round's number (0 before the first line is dealt).
        finished: the round is over (scored).
        seats: the seats taking part in it.
        starter: the seat that plays first in it.
        setup: the text of its line (``""`` before the first).
        deals: each secret card dealt in it so far: ``(seat, text)``, the text as seen.
        plays: each card played in it so far, in turn order.
    """

    number: int
    finished: bool
    seats: tuple[int, ...]
    starter: int
    setup: str
    deals: tuple[tuple[int, str], ...]
    plays: tuple[Play, ...]


def round_so_far(
    number: int,
    finished: bool,
    seats: tuple[int, ...],
    starter: int,
    actions: Sequence[tuple[TikiToppleAction | None, str]],
) -> RoundSoFar:
    """Round ``number`` (``finished`` or not), played by ``seats`` from ``starter``, told by
    its ``actions`` from its line on: ``(action, text as seen)`` pairs, the action ``None`` for
    a secret card whose text is hidden (no actions: no line is dealt yet). Each card's seat
    follows from the turn order, each tiki's positions from the line.

    >>> import tikigames
    >>> table = tikigames.load("tiki_topple").action_table
    >>> texts = ["line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo", "secret 3",
    ...          "secret ?", "up2 huhu", "toast"]
    >>> actions = [(None if text.endswith("?") else table.parse(text), text) for text in texts]
    >>> told = round_so_far(1, False, (0, 1), 1, actions)
    >>> told.deals
    ((0, 'secret 3'), (1, 'secret ?'))
    >>> [(play.seat, play.text, play.before, play.after) for play in told.plays]
    [(1, 'up2 huhu', 2, 0), (0, 'toast', 8, 8)]
    """
    if not actions:
        return RoundSoFar(number, finished, seats, starter, "", (), ())
    setup = actions[0][0]
    assert setup is not None and setup.kind == LINE
    line = list(setup.line)
    deals: list[tuple[int, str]] = []
    plays: list[Play] = []
    turn = seats.index(starter)
    for action, text in actions[1:]:
        if action is None or action.kind == SECRET:
            deals.append((seats[len(deals)], text))
            continue
        seat = seats[turn % len(seats)]
        turn += 1
        kind = action.kind
        if kind == TOAST:
            tiki = line.pop()
            plays.append(Play(seat, text, kind, tiki, len(line), len(line)))
            continue
        tiki = action.tiki
        before = line.index(tiki)
        del line[before]
        after = len(line) if kind == TOPPLE else before - kind - 1
        line.insert(after, tiki)
        plays.append(Play(seat, text, kind, tiki, before, after))
    return RoundSoFar(number, finished, seats, starter, actions[0][1], tuple(deals), tuple(plays))


#: The state's own fields (see ``State.position_fields``).
_FIELDS: Final = (
    "_deal",
    "_deck",
    "_full",
    "_hands",
    "_lay",
    "_left",
    "_line",
    "_next",
    "_phase",
    "_player",
    "_present",
    "_prev",
    "_prev_cards",
    "_removed",
    "_round",
    "_rounds",
    "_scores",
    "_seats",
    "_secrets",
    "_starter",
    "_tiebreaks",
    "_winners",
)


class TikiToppleState(State[TikiToppleAction, "TikiTopple", "TikiToppleObservation"]):
    """A Tiki Topple position. See the game's docs page for the rules and the notation.

    Beside the :class:`~tikigames.core.state.State` interface, the position can be read with
    the accessors below (the whole position, secrets included: a program that must not see the
    secrets reads an observation instead). The observation, the text rendering and the
    resampler read the state through them.

    >>> import random, tikigames
    >>> state = tikigames.load("tiki_topple").new_initial_state()
    >>> rng = random.Random(3)
    >>> for _ in range(3):
    ...     state.apply_action(state.sample_chance(rng))
    >>> state.round_number(), state.current_player(), state.hand(0)
    (1, 0, ['up1', 'up1', 'up2', 'up3', 'topple', 'toast', 'toast'])
    >>> state.line()[:3], state.secret(1)
    (['lokahi', 'nui', 'akamai'], 17)
    """

    __slots__ = _FIELDS
    position_fields = _FIELDS
    #: What follows from the compared fields: the line's mask, the hand sizes, the turn order
    #: and a fresh hand's size (from the seats), the layout of the rules.
    derived_fields = frozenset({"_full", "_lay", "_left", "_next", "_present", "_prev"})

    def _init_position(self) -> None:
        game = self.game
        rules = game.rules
        self._lay = _layout(game.action_table, rules)
        n = rules.players
        self._phase = _LINE
        self._line: list[int] = list(range(NUM_TIKIS))
        #: The tikis in the line, as a bit mask: what the legal actions are looked up by.
        self._present = _ALL_TIKIS
        self._removed: list[int] = []
        self._hands: list[list[int]] = [[0] * 5 for _ in range(n)]
        self._left: list[int] = [0] * n
        #: The cards in a fresh hand this round: a Toast is legal once a seat holds fewer.
        self._full = 0
        self._player = -1
        self._round = 1
        self._tiebreaks = 0
        self._starter = rules.first_player
        self._seats: tuple[int, ...] = tuple(range(n))
        #: Per seat of the round: the seat that plays after it, and the one before it.
        self._next: tuple[int, ...]
        self._prev: tuple[int, ...]
        self._next, self._prev = _turn_order(self._seats, n)
        self._secrets: list[int] = [-1] * n
        self._deal = 0
        self._deck = ALL_SECRETS
        self._prev_cards = 0
        self._scores: list[int] = [0] * n
        #: Per finished round: each seat's secret card, each seat's points, the starter.
        self._rounds: list[ScoredRound] = []
        self._winners: tuple[int, ...] = ()

    # ----------------------------------------------------------------- queries

    def current_player(self) -> int:
        phase = self._phase
        if phase == _PLAY:
            return self._player
        return CHANCE if phase != _OVER else TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def is_chance_node(self) -> bool:
        return self._phase == _LINE or self._phase == _SECRET

    def _generate_legal(self) -> list[TikiToppleAction]:
        phase = self._phase
        if phase == _PLAY:
            # Each card's targets are a set of tikis: the line less its top one, two or three
            # (Up cards), or the whole line (Topple, less the bottom unless it may be toppled).
            # The table lists each set's actions in id order, and the kinds follow each other
            # in id order, so the concatenation is sorted.
            player = self._player
            hand = self._hands[player]
            line = self._line
            present = self._present
            lay = self._lay
            by_mask = lay.card_actions
            legal: list[TikiToppleAction] = []
            top = 1 << line[0]
            if hand[0]:
                legal += by_mask[0][present ^ top]
            top |= 1 << line[1]
            if hand[1]:
                legal += by_mask[1][present ^ top]
            if hand[2]:
                legal += by_mask[2][present ^ top ^ 1 << line[2]]
            if hand[TOPPLE]:
                legal += by_mask[TOPPLE][present if lay.topple_bottom else present ^ 1 << line[-1]]
            if hand[TOAST] and self._left[player] != self._full:
                legal.append(lay.toast)
            return legal
        if phase == _LINE:
            # Shared by every setup: the base class copies the legal list it hands out.
            return self._lay.line_actions
        if phase == _OVER:
            return []
        return self._lay.table.deals(self._deck)

    def chance_outcomes(self) -> list[tuple[TikiToppleAction, float]]:
        phase = self._phase
        if phase == _LINE:
            # The same 1296 outcomes at every line setup: built once with the table, copied here.
            return self._lay.line_outcomes.copy()
        if phase == _SECRET:
            deals = self._lay.table.deals(self._deck)
            p = 1.0 / len(deals)
            return [(action, p) for action in deals]
        return []

    def sample_chance(self, rng: Random) -> TikiToppleAction:
        # Both chance events are uniform: draw an index instead of scanning the outcomes (the
        # secret card: the index-th card left in the deck, found without listing the deck).
        if self._phase == _LINE:
            return self._lay.line_actions[rng.randrange(NUM_LINES)]
        deck = self._deck
        return self._lay.table.deal(deck, rng.randrange(deck.bit_count()))

    def random_action(self, rng: Random) -> TikiToppleAction:
        """One legal action drawn uniformly (at a chance node: :meth:`sample_chance`).

        The draw is the base class's — one ``rng.random()``, scaled to an index into the legal
        list — but the list is not built: the index is found among the counts of each card's
        targets, then looked up in that card's targets alone. The same ``rng`` gives the same
        action as the base class, so seeded rollouts are unchanged.

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> rng = random.Random(5)
        >>> for _ in range(3):
        ...     state.apply_unchecked(state.random_action(rng))
        >>> state.random_action(rng) in state.legal_actions()
        True

        Raises:
            IllegalActionError: the game is over.
        """
        if self._phase != _PLAY:
            if self._phase == _OVER:
                raise IllegalActionError("the game is over: there is no action to draw")
            return self.sample_chance(rng)
        player = self._player
        hand = self._hands[player]
        line = self._line
        size = len(line)
        # The legal list is: Up 1 on the size − 1 tikis below the top, Up 2 on size − 2, Up 3
        # on size − 3, Topple on size (or size − 1), then Toast (see _generate_legal).
        up1 = size - 1 if hand[0] else 0
        up2 = size - 2 if hand[1] else 0
        up3 = size - 3 if hand[2] else 0
        lay = self._lay
        topple_bottom = lay.topple_bottom
        topple = (size if topple_bottom else size - 1) if hand[TOPPLE] else 0
        toast = 1 if hand[TOAST] and self._left[player] != self._full else 0
        count = up1 + up2 + up3 + topple + toast
        index = int(rng.random() * count)
        if index == count:  # rounded up from just below 1.0
            index -= 1
        by_mask = lay.card_actions
        present = self._present
        top = 1 << line[0]
        if index < up1:
            return by_mask[0][present ^ top][index]
        index -= up1
        top |= 1 << line[1]
        if index < up2:
            return by_mask[1][present ^ top][index]
        index -= up2
        if index < up3:
            return by_mask[2][present ^ top ^ 1 << line[2]][index]
        index -= up3
        if index < topple:
            return by_mask[TOPPLE][present if topple_bottom else present ^ 1 << line[-1]][index]
        return lay.toast

    def rollout_action(self, rng: Random) -> TikiToppleAction:
        """The search bots' playout policy: each player plays for its own secret card, as a
        person would — a heuristic for search bots, not a rule.

        One move in five is uniform (:meth:`random_action`, also at chance nodes). Otherwise
        the mover weighs a few candidate moves by how much they change each card's
        *potential* — the worth of each of its tikis where it stands (``_POTENTIAL``: the
        points it scores there, less and less the farther down it stands): its own card's
        change less the mean of the other players' cards' changes. The candidates are an Up
        card on one of its own tikis, Topple on another player's tiki or on the tiki just above
        one of its own, and Toast; the best one is played if it gains anything, else a uniform
        move. It reads every secret card: a search bot calls it on worlds drawn from its
        observation, where the other players' cards are guesses, and so expects each of them
        to play for the card it holds in that world. It costs 7–9 times
        :meth:`random_action`; the bots' playouts are short (:attr:`TikiTopple.rollout_cap
        <tikigames.tiki_topple.TikiTopple.rollout_cap>`).

        >>> import random, tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> for text in ["line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo",
        ...              "secret 21", "secret 0"]:  # player 1's top tiki, nani, stands first
        ...     state.apply_action(state.parse_action(text))
        >>> str(state.rollout_action(random.Random(0)))
        'topple nani'

        Raises:
            IllegalActionError: the game is over.
        """
        if self._phase != _PLAY or rng.random() < _EXPLORE:
            return self.random_action(rng)
        player = self._player
        hand = self._hands[player]
        line = self._line
        size = len(line)
        secrets = self._secrets
        mine = secrets[player]
        pos = [-1] * NUM_TIKIS
        for index in range(size):
            pos[line[index]] = index
        others: list[int] = []
        for seat in self._seats:
            if seat != player:
                others.append(secrets[seat])
        weight = 1.0 / len(others)
        best = 0.0
        best_id = -1
        # Up cards on the mover's own tikis.
        for tiki in SECRET_CARDS[mine]:
            at = pos[tiki]
            for kind in range(3):
                if hand[kind] and at > kind:
                    to = at - kind - 1
                    gain = _card_gain(mine, pos, tiki, at, to)
                    for card in others:
                        gain -= weight * _card_gain(card, pos, tiki, at, to)
                    if gain > best:
                        best, best_id = gain, kind * NUM_TIKIS + tiki
        if hand[TOPPLE]:
            # Topple on the others' tikis and on the tiki just above each of the mover's (never
            # the bottom one: it would not move).
            last = size - 1
            targets: list[int] = []
            for card in others:
                targets += SECRET_CARDS[card]
            for tiki in SECRET_CARDS[mine]:
                if pos[tiki] > 0:
                    targets.append(line[pos[tiki] - 1])
            for tiki in targets:
                at = pos[tiki]
                if 0 <= at < last:
                    gain = _card_gain(mine, pos, tiki, at, last)
                    for card in others:
                        gain -= weight * _card_gain(card, pos, tiki, at, last)
                    if gain > best:
                        best, best_id = gain, TOPPLE * NUM_TIKIS + tiki
        if hand[TOAST] and self._left[player] != self._full:
            at = size - 1
            tiki = line[at]
            gain = -_toast_loss(mine, tiki, at)
            for card in others:
                gain += weight * _toast_loss(card, tiki, at)
            if gain > best:
                return self._lay.toast
        if best_id < 0:
            return self.random_action(rng)
        return self._lay.table.actions[best_id]

    def _viewer(self, action: TikiToppleAction) -> int | None:
        # Only secret cards have a hidden part: the seat being dealt sees it.
        return self._seats[self._deal] if self._phase == _SECRET else None

    def _refusal(self, action: TikiToppleAction) -> str:
        # Why an action is refused, by the rules (see refusals), else in the core's general
        # words. Only called on a refusal.
        reason = refusals.refusal(self, action)
        return super()._refusal(action) if reason is None else reason

    # ----------------------------------------------------------------- reading the position

    def scores(self) -> list[int]:
        """Each player's game total so far (rounds already finished)."""
        return self._scores.copy()

    def round_scores(self) -> list[list[int]]:
        """Each finished round's points per player (0 for a player who sat it out)."""
        return [list(scored.points) for scored in self._rounds]

    def line(self) -> list[str]:
        """The tikis still in the line, top first (before the first setup: the group order)."""
        return [TIKIS[tiki] for tiki in self._line]

    def toasted(self) -> list[str]:
        """The tikis toasted this round, in order."""
        return [TIKIS[tiki] for tiki in self._removed]

    def round_number(self) -> int:
        """The round being played (1-based; tiebreak rounds continue the count)."""
        return self._round

    def starter(self) -> int:
        """The seat that starts this round."""
        return self._starter

    def seats(self) -> tuple[int, ...]:
        """The seats taking part in this round (all of them, except in a tiebreak)."""
        return self._seats

    def hand(self, seat: int) -> list[str]:
        """``seat``'s remaining action cards, in card order (``up1`` … ``toast``)."""
        counts = self._hands[seat]
        return list(_HAND_TEXTS[counts[0], counts[1], counts[2], counts[3], counts[4]])

    def secret(self, seat: int) -> int | None:
        """``seat``'s secret card this round (an id 0–26), or ``None`` before it is dealt or
        when the seat sits the round out."""
        card = self._secrets[seat]
        return card if card >= 0 else None

    def round_cards(self) -> list[tuple[int | None, ...]]:
        """Per finished round, each seat's secret card (``None`` for a seat that sat out)."""
        return [
            cards if -1 not in cards else tuple(c if c >= 0 else None for c in cards)
            for cards, _, _ in self._rounds
        ]

    def scored_rounds(self) -> list[ScoredRound]:
        """Each finished round as the engine scored it: the cards, the points, the starter."""
        return self._rounds.copy()

    def rounds_dealt(self) -> int:
        """How many rounds have had their line dealt (the last of them may be over)."""
        phase = self._phase
        return self._round - 1 if phase == _LINE else self._round

    def round_so_far(self) -> RoundSoFar:
        """The last round dealt, as its actions tell it: its seats and starter, its line's
        text, the secret cards dealt (texts in full) and each card played so far, with its
        seat and its tiki's positions (before the first line: round 0, with round 1's seats
        and starter and no actions). What a
        picture of the table draws; the observation tells the same from the public history.

        >>> import tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> for text in ["line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo",
        ...              "secret 3", "secret 7", "up2 huhu"]:
        ...     state.apply_action(state.parse_action(text))
        >>> told = state.round_so_far()
        >>> told.number, told.deals, told.plays[0].seat, told.plays[0].after
        (1, ((0, 'secret 3'), (1, 'secret 7')), 0, 0)
        """
        number = self.rounds_dealt()
        if not number:
            return round_so_far(0, False, self._seats, self._starter, ())
        history = self.history()
        start = len(history) - 1
        while history[start].kind != LINE:
            start -= 1
        finished = number == len(self._rounds)
        if finished:
            cards, _, starter = self._rounds[-1]
            seats = tuple(seat for seat, card in enumerate(cards) if card >= 0)
        else:
            seats, starter = self._seats, self._starter
        told = [(action, action.text) for action in history[start:]]
        return round_so_far(number, finished, seats, starter, told)

    def round_starter(self) -> int:
        """The seat that plays first in the last round dealt (:meth:`rounds_dealt`; the
        starter of round 1 before it is dealt): unlike :meth:`starter`, still the finished
        round's once it is scored and the next one is not dealt yet."""
        if self._phase == _LINE and self._rounds:
            return self._rounds[-1].starter
        return self._starter

    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, else ``()``."""
        return self._winners

    def dealing_seat(self) -> int | None:
        """The seat the next secret card goes to, at a secret-card chance node; else ``None``."""
        return self._seats[self._deal] if self._phase == _SECRET else None

    def deck(self) -> list[int]:
        """The secret cards left in the deck, by id (the rest are dealt or set aside)."""
        deck = self._deck
        return [card for card in range(NUM_SECRETS) if deck >> card & 1]

    def deck_mask(self) -> int:
        """The secret cards left in the deck as a bit mask (bit ``c`` for card ``c``): the
        resampler's draw reads it, and the action table's ``deal(mask, index)`` turns an index
        into one of its cards without listing them."""
        return self._deck

    def returns(self) -> list[float]:
        players = self._lay.players
        if self._phase != _OVER:
            return [0.0] * players
        winners = self._winners
        if len(winners) == players:
            return [0.0] * players
        return [1.0 if seat in winners else -1.0 for seat in range(players)]

    def evaluate(self) -> list[float]:
        """Each player's chances as a guess in [−1, 1] — a heuristic for search bots, not a
        rule: the returns once the game is over, else each player's lead over the best of the
        others, in points, through ``tanh(lead / (6·√R))``.

        A player's points are its game total plus a guess of what its secret card will score
        this round: what it would score at the line's current order, weighted by the share
        ``f`` of the round's cards already played, plus its tikis' potential (``_POTENTIAL``,
        as the rollout policy weighs them), weighted by ``1 − f`` — early in a round, the line
        says little about its end, and a tiki close to its place counts for some of it; ``R``
        is the number of rounds still to play after this one (none in a tiebreak, one under
        ``target_score``, where the end is not known), plus ``1 − f`` and 0.05 — between rounds,
        the rounds left. A lead counts for more the less is left to play: 6 points with one
        round to play are worth tanh(1) ≈ 0.76.

        It reads every secret card: a search bot calls it on worlds drawn from its observation,
        never on the true state.

        >>> import tikigames
        >>> state = tikigames.load("tiki_topple").new_initial_state()
        >>> for text in ["line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo",
        ...              "secret 0", "secret 24", "up1 eepo", "up1 kapu"]:
        ...     state.apply_action(state.parse_action(text))
        >>> [round(value, 3) for value in state.evaluate()]  # 9 points at this order against 2
        [0.462, -0.462]
        """
        phase = self._phase
        if phase == _OVER:
            return self.returns()
        lay = self._lay
        rules = lay.rules
        n = lay.players
        totals = [float(points) for points in self._scores]
        if self._tiebreaks or len(self._seats) < n:
            later = 0.0
        elif rules.target_score is not None:
            later = 1.0
        else:
            later = float(rules.rounds - self._round)
        if phase == _LINE:
            spread = later + 1.0  # the next round is not dealt yet
        else:
            line = self._line
            secrets = self._secrets
            seats = self._seats
            hands = self._left
            left = 0
            for seat in seats:
                left += hands[seat]
            rest = left / (self._full * len(seats))
            played = 1.0 - rest
            for seat in seats:
                card = secrets[seat]
                if card >= 0:
                    totals[seat] += played * score_card(card, line) + rest * _card_potential(
                        card, line
                    )
            spread = later + rest + _SPREAD_FLOOR
        scale = _ROUND_SPREAD * sqrt(spread)
        values = [0.0] * n
        for seat in range(n):
            best = -1.0
            for other in range(n):
                if other != seat and totals[other] > best:
                    best = totals[other]
            values[seat] = tanh((totals[seat] - best) / scale)
        return values

    def result_text(self) -> str | None:
        """Who won, and with how many points (``None`` before the end): ``player 1 wins with
        23 points``, ``players 0 and 2 share the win with 18 points``.

        >>> import tikigames
        >>> from tikigames.bots import RandomBot
        >>> final = tikigames.play(tikigames.load("tiki_topple"), [RandomBot()] * 2, seed=4)
        >>> final.result_text(), final.scores()
        ('player 0 wins with 18 points', [18, 10])
        """
        if self._phase != _OVER:
            return None
        return result_words(self._winners, self._scores)

    # ----------------------------------------------------------------- apply / undo

    def _do(self, action: TikiToppleAction) -> Any:
        # The record: an Up or Topple card's tiki's old position; a Toast's None; either
        # paired with the round's record when the card ends the round; a deal's old deck; a
        # setup's round record.
        kind = action.kind
        if kind < TOAST:
            line = self._line
            tiki = action.tiki
            position = line.index(tiki)
            del line[position]
            if kind == TOPPLE:
                line.append(tiki)
            else:
                line.insert(position - kind - 1, tiki)
            player = self._player
            self._hands[player][kind] -= 1
            left = self._left
            left[player] -= 1
            following = self._next[player]
            # The seats play in turn from hands of the same size, so the next one holds the
            # most cards: every hand is empty exactly when the next one is.
            if left[following]:
                self._player = following
                return position
            return position, self._end_round()
        if kind == TOAST:
            line = self._line
            tiki = line.pop()
            self._removed.append(tiki)
            self._present ^= 1 << tiki
            player = self._player
            self._hands[player][TOAST] -= 1
            left = self._left
            left[player] -= 1
            following = self._next[player]
            if left[following] and len(line) != _FINAL_LINE:
                self._player = following
                return None
            return None, self._end_round()
        if kind == SECRET:
            deal = self._deal
            seats = self._seats
            deck = self._deck
            self._deck = deck & ~(1 << action.card)
            self._secrets[seats[deal]] = action.card
            deal += 1
            self._deal = deal
            if deal == len(seats):
                self._phase = _PLAY
                self._player = self._starter
            return deck
        return self._start_round(action.line)

    def _undo_last(self, action: TikiToppleAction, record: Any) -> None:
        kind = action.kind
        if kind <= TOAST:
            if self._phase == _PLAY:
                self._player = self._prev[self._player]
            else:
                record, scored = record
                self._reopen_round(scored)
            player = self._player
            self._hands[player][kind] += 1
            self._left[player] += 1
            line = self._line
            if kind == TOAST:
                tiki = self._removed.pop()
                line.append(tiki)
                self._present |= 1 << tiki
                return
            position: int = record
            if kind == TOPPLE:
                line.insert(position, line.pop())
            else:
                tiki = action.tiki
                line.remove(tiki)
                line.insert(position, tiki)
        elif kind == SECRET:
            self._deal -= 1
            self._deck = record
            self._secrets[self._seats[self._deal]] = -1
            self._phase = _SECRET
            self._player = -1
        else:
            self._unstart_round(record)

    # Round transitions. Each replaces the lists it changes by new ones and returns the old
    # ones as its undo record; the undo takes copies of them, never the lists themselves,
    # because clones share the undo records (one clone's later moves must not change another's
    # past).

    def _start_round(self, line: tuple[int, ...]) -> tuple[Any, ...]:
        """A setup outcome: the new line, fresh hands, and the deck ready for the deal."""
        record = (
            self._line, self._removed, self._hands, self._left, self._full, self._secrets,
            self._deal, self._deck,
        )  # fmt: skip
        self._line = list(line)
        self._present = _ALL_TIKIS
        self._removed = []
        n = self._lay.players
        seats = self._seats
        hand = full_hand(len(seats))
        self._full = size = sum(hand)
        if len(seats) == n:
            self._hands = [list(hand) for _ in range(n)]
            self._left = [size] * n
        else:
            self._hands = [list(hand) if seat in seats else [0] * 5 for seat in range(n)]
            self._left = [size if seat in seats else 0 for seat in range(n)]
        self._secrets = [-1] * n
        self._deal = 0
        if self._deck.bit_count() < len(seats):
            self._deck = ALL_SECRETS & ~self._prev_cards
        self._phase = _SECRET
        return record

    def _unstart_round(self, record: tuple[Any, ...]) -> None:
        line, removed, hands, left, self._full, secrets, self._deal, self._deck = record
        self._line = line.copy()
        self._present = sum(1 << tiki for tiki in line)
        self._removed = removed.copy()
        self._hands = [hand.copy() for hand in hands]
        self._left = left.copy()
        self._secrets = secrets.copy()
        self._phase = _LINE

    def _end_round(self) -> tuple[Any, ...]:
        """Score the round, then start the next one, a tiebreak, or end the game; return
        the round's undo record."""
        record = (
            self._scores, self._prev_cards, self._round, self._player, self._seats,
            self._starter, self._tiebreaks,
        )  # fmt: skip
        lay = self._lay
        n = lay.players
        line = self._line
        secrets = self._secrets
        points = [0] * n
        scores = self._scores.copy()
        dealt = 0
        for seat in self._seats:
            card = secrets[seat]
            points[seat] = won = score_card(card, line)
            scores[seat] += won
            dealt |= 1 << card
        self._scores = scores
        self._rounds.append(ScoredRound(tuple(secrets), tuple(points), self._starter))
        self._prev_cards = dealt
        rules = lay.rules
        target = rules.target_score
        if self._tiebreaks or len(self._seats) < n:
            deciding = True
        elif target is None:
            deciding = self._round >= rules.rounds
        else:
            deciding = max(scores) >= target
        self._round += 1
        self._player = -1
        if not deciding:
            if len(self._seats) != n:
                self._set_seats(tuple(range(n)))
            self._starter = (self._starter + 1) % n
            self._phase = _LINE
            return record
        best = max(scores)
        tied = tuple(seat for seat in range(n) if scores[seat] == best)
        if len(tied) == 1 or self._tiebreaks >= rules.tiebreak_rounds:
            self._winners = tied
            self._phase = _OVER
            self._round -= 1
            return record
        self._tiebreaks += 1
        self._set_seats(tied)
        self._starter = min(tied, key=lambda seat: (seat - self._starter - 1) % n)
        self._phase = _LINE
        return record

    def _reopen_round(self, record: tuple[Any, ...]) -> None:
        scores, self._prev_cards, self._round, self._player, seats, self._starter, tiebreaks = (
            record
        )
        self._scores = scores.copy()
        self._tiebreaks = tiebreaks
        self._set_seats(seats)
        del self._rounds[-1]
        self._winners = ()
        self._phase = _PLAY

    def _set_seats(self, seats: tuple[int, ...]) -> None:
        """The seats of the round, and who follows and precedes whom among them."""
        self._seats = seats
        self._next, self._prev = _turn_order(seats, self._lay.players)

    # ----------------------------------------------------------------- copies and identity

    def clone(self) -> Self:
        """:meth:`State.clone <tikigames.State.clone>`, with the class named so that compiled,
        ``__init__`` runs once (see the base class)."""
        if type(self) is not TikiToppleState:  # a subclass: its own class, at the cost of the slot
            return type(self)(self.game, self)
        return cast(Self, TikiToppleState(self.game, self))

    def _copy_into(self, new: TikiToppleState) -> None:
        new._lay = self._lay
        new._phase = self._phase
        new._line = self._line.copy()
        new._present = self._present
        new._removed = self._removed.copy()
        new._hands = [hand.copy() for hand in self._hands]
        new._left = self._left.copy()
        new._full = self._full
        new._player = self._player
        new._round = self._round
        new._tiebreaks = self._tiebreaks
        new._starter = self._starter
        new._seats = self._seats
        new._next = self._next
        new._prev = self._prev
        new._secrets = self._secrets.copy()
        new._deal = self._deal
        new._deck = self._deck
        new._prev_cards = self._prev_cards
        new._scores = self._scores.copy()
        new._rounds = self._rounds.copy()
        new._winners = self._winners

    def _position_key(self) -> tuple[Any, ...]:
        return (
            self._phase, tuple(self._line), tuple(self._removed),
            tuple(map(tuple, self._hands)), self._player, self._round, self._tiebreaks,
            self._starter, self._seats, tuple(self._secrets), self._deal, self._deck,
            self._prev_cards, tuple(self._scores), tuple([cards for cards, _, _ in self._rounds]),
            self._winners,
        )  # fmt: skip


#: ``_turn_order`` by (seats, players): the few seat sets of a game, worked out once.
_TURN_ORDERS: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _turn_order(seats: tuple[int, ...], players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per seat: the seat of ``seats`` that plays after it and the one before it (−1 for a seat
    sitting the round out)."""
    key = (seats, players)
    order = _TURN_ORDERS.get(key)
    if order is None:
        following = [-1] * players
        preceding = [-1] * players
        for index, seat in enumerate(seats):
            following[seat] = seats[(index + 1) % len(seats)]
            preceding[seat] = seats[index - 1]
        order = _TURN_ORDERS[key] = (tuple(following), tuple(preceding))
    return order


def _card_gain(card: int, pos: list[int], tiki: int, at: int, to: int) -> float:
    """How much secret card ``card``'s potential (``_POTENTIAL``) changes when ``tiki`` moves
    from position ``at`` to ``to`` — ``to < at``: an Up card, the tikis it passes drop one
    place; ``to > at``: a Topple to the bottom, the tikis below rise one place. ``pos`` is each
    tiki's position (−1 once toasted). A heuristic for the rollout policy, not a rule."""
    gain = 0.0
    for slot, mine in enumerate(SECRET_CARDS[card]):
        where = pos[mine]
        if where >= 0:
            weights = _POTENTIAL[slot]
            if mine == tiki:
                gain += weights[to] - weights[where]
            elif to <= where < at:
                gain += weights[where + 1] - weights[where]
            elif at < where <= to:
                gain += weights[where - 1] - weights[where]
    return gain


def _card_potential(card: int, line: list[int]) -> float:
    """Secret card ``card``'s potential on ``line`` (``_POTENTIAL``: its tikis' worth where
    they stand). A heuristic for the evaluation, not a rule."""
    total = 0.0
    for slot, tiki in enumerate(SECRET_CARDS[card]):
        if tiki in line:
            total += _POTENTIAL[slot][line.index(tiki)]
    return total


def _toast_loss(card: int, tiki: int, at: int) -> float:
    """What secret card ``card``'s potential loses when ``tiki``, at position ``at`` (the
    bottom), is toasted. A heuristic for the rollout policy, not a rule."""
    slot = _SLOTS[card][tiki]
    return _POTENTIAL[slot][at] if slot >= 0 else 0.0

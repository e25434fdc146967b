"""Resampling a Tac-Tik state from an observation.

What a player does not see: the cards dealt to the others (and so the order they came in), and
the cards the others gave. The target (docs: Concepts) weighs each consistent history by the
product of its chance outcomes' probabilities, every consistent choice of a hidden ``give``
counting once. Deals are independent given what is public, because every card of a finished deal
ends up played or discarded face up and the talon at the start of a deal is therefore public;
so the history is rebuilt deal by deal:

- A **finished deal**: each player's cards are known as a multiset (all were played). Only the
  gives between two other partners and the order of the cards dealt to others are unknown; all
  consistent choices weigh the same, so a pair of gives is drawn in proportion to the number of
  deal orders it allows, and then the orders uniformly.
- The **current deal, while cards are being dealt**: each hidden card is drawn from the talon
  less the observer's cards of this deal — the deal itself, with the observer's cards set aside.
- The current deal **during the exchange**: the unseen cards are dealt out as if shuffled (the
  chance weight of a set of hands is the number of ways to deal them from the physical cards),
  and accepted with probability (kinds in the hand) / (hand size) for each player who has
  chosen in secret — each kind was a possible choice, each counting once; the choice is then
  drawn uniformly among the kinds.
- The current deal **after the exchange** (in the 2-player variant: after the deal): the hands
  held since the exchange are the known part
  (the cards each player has played; for the observer's partner, the card the observer gave,
  which is still in their hand unless played since) plus a free part dealt out of the remaining
  unseen cards as if shuffled. A proposal is accepted with probability proportional to the sum,
  over the hidden gives it allows, of the chance weight of the hands they imply were dealt,
  relative to the proposal's own weight (so a hand is not made likelier by holding copies of a
  card its player was seen to play: chance weighs cards dealt, not cards chosen); the gives are
  then drawn in proportion to their terms. The acceptance probability is bounded away from 0,
  and the draw is exact.

The observed history is cut into deals and read by :mod:`tikigames.tactik.history`. The rebuilt
history is replayed without checks (it is consistent by construction);
``Game.observation_from_json`` replays loaded observations' samples with checks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tikigames.core.action import ActionTable
from tikigames.core.errors import InvalidStateError
from tikigames.core.resample import Resampler
from tikigames.tactik.actions import TacTikAction, layout
from tikigames.tactik.data import CARD_NAMES, NUM_CARDS, TacTikRules
from tikigames.tactik.history import Deal, parse_deal, segments
from tikigames.tactik.observation import TacTikObservation
from tikigames.tactik.state import TacTikState

if TYPE_CHECKING:
    from tikigames.tactik.game import TacTik

__all__ = ["TacTikResampler"]

_FACTORIAL = (1, 1, 2, 6, 24, 120, 720)
#: Rejection rounds before an observation is declared inconsistent (a real one is accepted in a
#: few rounds: the acceptance probability is bounded away from 0 by construction).
_MAX_ROUNDS = 100_000

Counts = list[int]


def _counts(cards: Sequence[int]) -> Counts:
    counts = [0] * NUM_CARDS
    for card in cards:
        counts[card] += 1
    return counts


def _cards(counts: Counts) -> list[int]:
    return [k for k in range(NUM_CARDS) for _ in range(counts[k])]


def _pick(weights: Sequence[float], rng: random.Random) -> int:
    """An index drawn with probability proportional to ``weights`` (not all zero)."""
    threshold = rng.random() * sum(weights)
    last = 0
    for index, weight in enumerate(weights):
        if weight > 0:
            last = index
            threshold -= weight
            if threshold < 0:
                break
    return last


def _ratio(free: Counts, dealt: Counts, kinds: Sequence[int]) -> float:
    """∏ free_k! / dealt_k!: how a set of dealt cards' chance weight compares with that of its
    free part (the cards drawn in the proposal). ``kinds``, in card order, holds every kind where
    the two differ (the kinds of the known part)."""
    ratio = 1.0
    for k in kinds:
        f, d = free[k], dealt[k]
        if f != d:
            ratio *= _FACTORIAL[f] / _FACTORIAL[d]
    return ratio


def _swapped(held: Counts, gave: int, got: int) -> float:
    """``_ratio(free, dealt) / _ratio(free, held)`` for the hand dealt to a player who holds
    ``held`` after giving ``gave`` and receiving ``got``: dealt = held − got + gave changes two
    counts by one."""
    return 1.0 if gave == got else held[got] / (held[gave] + 1)


class TacTikResampler(Resampler["TacTik", TacTikObservation, TacTikState]):
    """Draws Tac-Tik states consistent with one observation (see the module's docstring).

    The deals already played out are independent of the current one given what is public (see
    the module's docstring), and their hands are empty: nothing in them can affect the game any
    more. So the first draw rebuilds them once — drawing their hidden cards from the target
    distribution — and replays the current deal on top; every later draw clones that world and
    rewrites only the current deal's hidden cards, freshly drawn
    (:meth:`~tikigames.tactik.TacTikState.redeal_unchecked`: the same state as a replay, at a
    fraction of its cost). Each draw is distributed as ``game.resample``'s; the draws of one
    resampler share the finished deals' hidden past. The observation is read and checked on the
    first draw (which needs the rng for the finished deals); a draw that finds it inconsistent
    keeps nothing of it, so every later draw checks it again.

    Raises:
        InvalidStateError: (on a draw) the observation is inconsistent.
    """

    def __init__(self, game: TacTik, obs: TacTikObservation) -> None:
        super().__init__(game, obs)
        self._prefix: TacTikState | None = None
        #: The current deal, still to draw: its parsed texts, span, and the card received.
        self._current: tuple[Deal, tuple[int, int], int | None] | None = None
        #: Once a draw has replayed the current deal: that world, to rewrite, the talon at the
        #: deal's start, and how to draw its hidden cards (``None`` while dealing).
        self._world: TacTikState | None = None
        self._talon: tuple[int, ...] = ()
        self._plan: _Plan | None = None

    def draw(self, rng: random.Random) -> TacTikState:
        world = self._world
        current = self._current
        if world is not None and current is not None:
            deal, span, received = current
            state = world.clone()
            plan = self._plan
            hidden = None if plan is None else plan.draw(rng)
            cards, gives = _redrawn(self.game.rules, self._talon, deal, hidden, rng)
            state.redeal_unchecked(span[0], cards, gives)
            return state
        prefix = self._prefix
        if prefix is None:
            prefix = self._prefix = self._prepare(rng)
        state = prefix.clone()
        current = self._current
        if current is not None:
            deal, span, received = current
            talon = prefix.talon()
            plan = _plan(self.game.rules, talon, deal, self.obs.player, received)
            _replay(state, deal, None if plan is None else plan.draw(rng), rng, span)
            self._talon, self._plan = talon, plan
            self._world = state.clone()
        return state

    def _prepare(self, rng: random.Random) -> TacTikState:
        """Check the whole history, rebuild the finished deals, and keep the current one."""
        game, obs = self.game, self.obs
        history = obs.history
        revealed = [tuple(CARD_NAMES.index(card) for card in hand) for hand in obs.revealed]
        state = game.new_initial_state()
        spans = segments(history)
        current = None
        for number, span in enumerate(spans):
            if state.phase() != "deal" or state.dealt():
                raise InvalidStateError(
                    f"history[{span[0]}]: a deal starts in the middle of a turn"
                )
            deal = parse_deal(game, history, span, state.dealer(), obs.player, revealed)
            last = number == len(spans) - 1
            if not deal.complete:
                if not last:
                    raise InvalidStateError(
                        f"history[{span[1]}]: a deal starts before hands are empty"
                    )
                received = None if obs.received is None else CARD_NAMES.index(obs.received)
                current = (deal, span, received)
                break
            plan = _plan(game.rules, state.talon(), deal, obs.player, None)
            _replay(state, deal, None if plan is None else plan.draw(rng), rng, span)
        if revealed:
            raise InvalidStateError("'revealed' lists more hands than the discards")
        self._current = current
        return state


def _redrawn(
    rules: TacTikRules,
    talon: Sequence[int],
    deal: Deal,
    hidden: tuple[list[list[int]], list[int]] | None,
    rng: random.Random,
) -> tuple[list[int], list[int]]:
    """The current deal's cards in deal order and its gives in order, for a world drawn by
    :class:`_Plan` — the cards :func:`_replay` would deal, drawing from ``rng`` as it does
    (while dealing, each hidden card from the talon less the observer's cards to come)."""
    cards: list[int] = []
    if hidden is not None:
        dealt = hidden[0]
        served_count = [0] * rules.players
        for served, _ in deal.deals:
            cards.append(dealt[served][served_count[served]])
            served_count[served] += 1
        return cards, [hidden[1][giver] for giver, _ in deal.gives]
    left = list(talon)
    ahead = [0] * NUM_CARDS
    for _, card in deal.deals:
        if card >= 0:
            ahead[card] += 1
    for _, card in deal.deals:
        if card >= 0:
            ahead[card] -= 1
        else:
            card = _pick([t - a for t, a in zip(left, ahead, strict=True)], rng)
        left[card] -= 1
        cards.append(card)
    return cards, [card for _, card in deal.gives]


def _plan(
    rules: TacTikRules,
    talon: Sequence[int],
    deal: Deal,
    player: int | None,
    received: int | None,
) -> _Plan | None:
    """How to draw the hidden cards of a deal whose dealing is over, ``talon`` being the talon
    at its start (see :class:`_Plan`); ``None`` while cards are still being dealt (they are then
    drawn one by one, as the deal goes).

    Raises:
        InvalidStateError: the deal is inconsistent with what the observer saw.
    """
    n = rules.players
    if len(deal.deals) < rules.deal_size:
        return None
    mine = [0] * NUM_CARDS
    for served, card in deal.deals:
        if served == player:
            mine[card] += 1
    pool = [t - m for t, m in zip(talon, mine, strict=True)]
    if min(pool) < 0:
        raise InvalidStateError("the observer was dealt cards the talon did not hold")
    by_player = [-1] * n  # each player's give: −1 when hidden or not chosen yet
    chose = [False] * n
    for giver, card in deal.gives:
        by_player[giver] = card
        chose[giver] = True
    own = [card for served, card in deal.deals if served == player]
    if rules.team and len(deal.gives) == n:
        return _AfterExchange(rules, deal, player, own, mine, pool, by_player, received)
    if rules.team:
        return _BeforeExchange(rules, player, own, pool, by_player, chose)
    return _Solo(rules, deal, player, own, mine, pool, by_player)


class _Plan:
    """The hidden cards of one deal whose dealing is over, ready to be drawn: what depends on
    the observation alone is worked out (and checked) once, when the plan is made; :meth:`draw`
    does what is random. A resampler keeps the current deal's plan for all its draws."""

    def __init__(self, rules: TacTikRules, player: int | None, own: list[int]) -> None:
        self.players = rules.players
        self.player = player
        #: The observer's dealt cards, in deal order.
        self.own = own

    def draw(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Each player's dealt cards in deal order, and each player's give (−1: not chosen)."""
        dealt, gives = self._draw(rng)
        if self.player is not None:
            dealt[self.player] = self.own.copy()
        return dealt, gives

    def _draw(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        raise NotImplementedError  # pragma: no cover


def _unseen(pool: Counts, sizes: Sequence[int]) -> list[int]:
    """The physical cards of ``pool``, in card order, to be shuffled and dealt to hands of
    ``sizes``."""
    cards = _cards(pool)
    if len(cards) < sum(sizes):
        raise InvalidStateError("too few unseen cards for the hands")
    return cards


class _BeforeExchange(_Plan):
    """Dealt hands while the exchange is under way: each player who has chosen in secret could
    have chosen any kind of their hand, so a hand weighs its number of kinds."""

    def __init__(
        self,
        rules: TacTikRules,
        player: int | None,
        own: list[int],
        pool: Counts,
        gives: list[int],
        chose: list[bool],
    ) -> None:
        super().__init__(rules, player, own)
        self.size = rules.hand_size
        self.hidden = [q for q in range(rules.players) if q != player]
        self.gives = gives
        #: Per hidden player, in order: whether they chose in secret.
        self.secret = [chose[q] and gives[q] < 0 for q in self.hidden]
        self.cards = _unseen(pool, [self.size] * len(self.hidden))

    def _draw(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        size = self.size
        secret = self.secret
        for _ in range(_MAX_ROUNDS):
            cards = self.cards.copy()
            rng.shuffle(cards)
            hands = [cards[at : at + size] for at in range(0, size * len(secret), size)]
            accept = 1.0
            for i in range(len(secret)):
                if secret[i]:
                    accept *= len(set(hands[i])) / size
            if rng.random() < accept:
                break
        else:  # pragma: no cover - a real observation is accepted long before
            raise InvalidStateError("no consistent deal found")
        dealt: list[list[int]] = [[] for _ in range(self.players)]
        gives = self.gives.copy()
        for i, q in enumerate(self.hidden):
            hand = hands[i]
            dealt[q] = hand
            if secret[i]:
                gives[q] = rng.choice(sorted(set(hand)))
        return dealt, gives


class _Solo(_Plan):
    """Dealt hands of the 2-player variant (no exchange): each hidden hand holds the cards its
    player has played, and the rest drawn from the unseen cards."""

    def __init__(
        self,
        rules: TacTikRules,
        deal: Deal,
        player: int | None,
        own: list[int],
        mine: Counts,
        pool: Counts,
        gives: list[int],
    ) -> None:
        super().__init__(rules, player, own)
        self.gives = gives
        self.hidden = [q for q in range(rules.players) if q != player]
        self.known = [deal.played[q] for q in self.hidden]
        if player is not None and any(
            p > m for p, m in zip(deal.played[player], mine, strict=True)
        ):
            raise InvalidStateError("the observer played cards they were not dealt")
        free_pool, self.sizes = _free_pool(rules, pool, self.known)
        self.cards = _unseen(free_pool, self.sizes)
        self.kinds = [_kinds(known) for known in self.known]

    def _draw(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        sizes, known, kinds = self.sizes, self.known, self.kinds
        for _ in range(_MAX_ROUNDS):
            cards = self.cards.copy()
            rng.shuffle(cards)
            accept = 1.0
            held = []
            at = 0
            for i in range(len(sizes)):
                free = _counts(cards[at : at + sizes[i]])
                at += sizes[i]
                hand = [a + b for a, b in zip(known[i], free, strict=True)]
                accept *= _ratio(free, hand, kinds[i])
                held.append(hand)
            if not sum(sizes) or rng.random() < accept:
                break
        else:  # pragma: no cover
            raise InvalidStateError("no consistent deal found")
        dealt: list[list[int]] = [[] for _ in range(self.players)]
        for q, hand in zip(self.hidden, held, strict=True):
            cards = _cards(hand)
            rng.shuffle(cards)
            dealt[q] = cards
        return dealt, self.gives.copy()


def _kinds(counts: Counts) -> list[int]:
    """The kinds of which ``counts`` holds a copy, in card order."""
    return [k for k in range(NUM_CARDS) if counts[k]]


def _free_pool(rules: TacTikRules, pool: Counts, known: list[Counts]) -> tuple[Counts, list[int]]:
    """The unseen cards left once the known parts of the hidden hands are set aside, and the
    size of each hand's free part."""
    free = pool.copy()
    sizes = []
    for counts in known:
        size = rules.hand_size - sum(counts)
        if size < 0:
            raise InvalidStateError("a player played more cards than they held")
        sizes.append(size)
        for k in range(NUM_CARDS):
            free[k] -= counts[k]
    if min(free) < 0:
        raise InvalidStateError("more cards were played than the deal held")
    return free, sizes


class _AfterExchange(_Plan):
    """Dealt hands and gives of a team game once the exchange is over.

    Parametrised by the hands held after the exchange, ``H = known + free``: the known part is
    what each player has played (and, for the observer's partner, the card the observer gave);
    the free part is dealt from the unseen cards, then accepted with probability
    ``weight / bound`` where the weight sums, over the hidden gives consistent with H, the
    chance weight of the dealt hands relative to the proposal's, and the bound (the product of
    the hand sizes per pair of hidden givers) caps it.
    """

    def __init__(
        self,
        rules: TacTikRules,
        deal: Deal,
        player: int | None,
        own: list[int],
        mine: Counts,
        pool: Counts,
        gives: list[int],
        received: int | None,
    ) -> None:
        super().__init__(rules, player, own)
        n = rules.players
        size = rules.hand_size
        partner = self.partner = rules.partner
        gives = gives.copy()
        known: dict[int, Counts] = {}
        shift = [0] * NUM_CARDS  # Σ dealt − Σ held over the hidden players
        if player is not None:
            kept = mine.copy()
            kept[gives[player]] -= 1
            if received is None:
                # A finished deal: the observer held exactly the cards they played.
                got = [h - m for h, m in zip(deal.played[player], kept, strict=True)]
                if min(got) < 0 or sum(got) != 1:
                    raise InvalidStateError("the observer's plays do not match their hand")
                received = got.index(1)
            kept[received] += 1
            if any(p > h for p, h in zip(deal.played[player], kept, strict=True)):
                raise InvalidStateError("the observer played cards they did not hold")
            mate = partner[player]
            gives[mate] = received
            known[mate] = deal.played[mate].copy()
            known[mate][gives[player]] = max(known[mate][gives[player]], 1)
            shift[received] += 1
            shift[gives[player]] -= 1
        self.gives = gives
        hidden = self.hidden = [q for q in range(n) if q != player]
        self.pairs = sorted(
            {(min(q, partner[q]), max(q, partner[q])) for q in hidden if partner[q] != player}
        )
        for q in hidden:
            known.setdefault(q, deal.played[q].copy())
        self.known = known
        #: Per hidden player, the kinds where the hand dealt and its free part may differ.
        self.kinds = {q: _kinds(known[q]) for q in hidden}
        # The free parts are drawn from the unseen cards less the known parts, corrected by what
        # the observer's partner dealt-but-gave (in the pool) and received-but-was-not-dealt.
        pool = [u - s for u, s in zip(pool, shift, strict=True)]
        free_pool, self.sizes = _free_pool(rules, pool, [known[q] for q in hidden])
        self.cards = _unseen(free_pool, self.sizes)
        self.bound = float(size * size)

    def _draw(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        player, partner, gives = self.player, self.partner, self.gives
        hidden, known, kinds, sizes = self.hidden, self.known, self.kinds, self.sizes
        bound = self.bound
        for _ in range(_MAX_ROUNDS):
            cards = self.cards.copy()
            rng.shuffle(cards)
            frees: dict[int, Counts] = {}
            held: dict[int, Counts] = {}
            at = 0
            for i in range(len(hidden)):
                q = hidden[i]
                free = [0] * NUM_CARDS
                hand = known[q].copy()
                for card in cards[at : at + sizes[i]]:
                    free[card] += 1
                    hand[card] += 1
                at += sizes[i]
                frees[q], held[q] = free, hand
            accept = 1.0
            if player is not None:
                mate = partner[player]
                accept *= _ratio(frees[mate], held[mate], kinds[mate]) * _swapped(
                    held[mate], gives[mate], gives[player]
                )
            choices = []
            for q, r in self.pairs:
                terms = _give_terms(held[q], held[r], frees[q], frees[r], kinds[q], kinds[r])
                choices.append(terms)
                accept *= sum(weight for weight, _, _ in terms) / bound
            if not sum(sizes) or rng.random() < accept:
                break
        else:  # pragma: no cover
            raise InvalidStateError("no consistent deal found")
        gives = gives.copy()
        for (q, r), terms in zip(self.pairs, choices, strict=True):
            _, gives[q], gives[r] = terms[_pick([weight for weight, _, _ in terms], rng)]
        dealt: list[list[int]] = [[] for _ in range(self.players)]
        for q in hidden:
            hand = held[q].copy()
            hand[gives[partner[q]]] -= 1
            hand[gives[q]] += 1
            cards = _cards(hand)
            rng.shuffle(cards)
            dealt[q] = cards
        return dealt, gives


def _give_terms(
    held_q: Counts,
    held_r: Counts,
    free_q: Counts,
    free_r: Counts,
    kinds_q: list[int],
    kinds_r: list[int],
) -> list[tuple[float, int, int]]:
    """For partners q and r holding ``held_q`` and ``held_r`` after the exchange: each
    consistent pair of gives (q gave a card r holds, r gave one q holds) with the relative
    chance weight of the hands it implies were dealt. ``kinds_q`` and ``kinds_r`` are where
    their hands and free parts may differ (see :func:`_ratio`)."""
    base = _ratio(free_q, held_q, kinds_q) * _ratio(free_r, held_r, kinds_r)
    holds_q = [k for k in range(NUM_CARDS) if held_q[k]]
    terms = []
    for give_q in range(NUM_CARDS):
        if held_r[give_q]:
            for give_r in holds_q:
                if give_q == give_r:  # _swapped, inline: 1.0 both ways
                    terms.append((base, give_q, give_r))
                else:
                    swapped_q = held_q[give_r] / (held_q[give_q] + 1)
                    swapped_r = held_r[give_q] / (held_r[give_r] + 1)
                    terms.append((base * swapped_q * swapped_r, give_q, give_r))
    return terms


def _replay(
    state: TacTikState,
    deal: Deal,
    hidden: tuple[list[list[int]], list[int]] | None,
    rng: random.Random,
    span: tuple[int, int],
) -> None:
    """Apply one deal's rebuilt actions (trusted: they are consistent by construction)."""
    rules = state.game.rules
    actions: ActionTable[TacTikAction] = state.game.action_table
    lay = layout(rules.colours)
    index = span[0]
    served_count = [0] * rules.players
    if hidden is None:
        # Dealing under way: draw each hidden card from the talon less the observer's cards
        # still to come in this deal.
        ahead = [0] * NUM_CARDS
        for _, card in deal.deals:
            if card >= 0:
                ahead[card] += 1
    for served, card in deal.deals:
        if hidden is not None:
            card = hidden[0][served][served_count[served]]
            served_count[served] += 1
        elif card >= 0:
            ahead[card] -= 1
        else:
            weights = [t - a for t, a in zip(state.talon(), ahead, strict=True)]
            if sum(weights) <= 0 or min(weights) < 0:
                raise InvalidStateError(f"history[{index}]: no card is left to deal")
            card = _pick(weights, rng)
        if state.talon()[card] <= 0:
            raise InvalidStateError(f"history[{index}]: the talon holds no {CARD_NAMES[card]}")
        state.apply_unchecked(actions[lay.deal + card])
        index += 1
    for giver, card in deal.gives:
        if hidden is not None:
            card = hidden[1][giver]
        if (
            state.phase() != "exchange"
            or state.current_player() != giver
            or CARD_NAMES[card] not in state.hand(giver)
        ):
            raise InvalidStateError(f"history[{index}]: that card cannot be given now")
        state.apply_unchecked(actions[lay.give + card])
        index += 1
    for action in deal.plays:
        if state.phase() != "play":
            raise InvalidStateError(f"history[{index}]: no card can be played now")
        state.apply_unchecked(action)
        index += 1

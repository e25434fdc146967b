"""Resampling a Tac-Tik state from an observation.

What a player does not see: the cards dealt to the others (and so the order they came in), and
the cards the others chose to give. The target (DESIGN.md) weighs each consistent history by the
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


def _ratio(free: Counts, dealt: Counts) -> float:
    """∏ free_k! / dealt_k!: how a set of dealt cards' chance weight compares with that of its
    free part (the cards drawn in the proposal)."""
    ratio = 1.0
    for f, d in zip(free, dealt, strict=True):
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
    distribution — and every draw clones that state and rebuilds only the current deal afresh.
    Each draw is distributed as ``game.resample``'s; the draws of one resampler share the
    finished deals' hidden past. The observation is read and checked on the first draw (which
    needs the rng for the finished deals); a draw that finds it inconsistent keeps nothing of
    it, so every later draw checks it again.

    Raises:
        InvalidStateError: (on a draw) the observation is inconsistent.
    """

    def __init__(self, game: TacTik, obs: TacTikObservation) -> None:
        super().__init__(game, obs)
        self._prefix: TacTikState | None = None
        #: The current deal, still to draw: its parsed texts, span, and the card received.
        self._current: tuple[Deal, tuple[int, int], int | None] | None = None

    def draw(self, rng: random.Random) -> TacTikState:
        prefix = self._prefix
        if prefix is None:
            prefix = self._prefix = self._prepare(rng)
        state = prefix.clone()
        if self._current is not None:
            deal, span, received = self._current
            hidden = _hidden(self.game.rules, state, deal, self.obs.player, received, rng)
            _replay(state, deal, hidden, rng, span)
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
            _replay(state, deal, _hidden(game.rules, state, deal, obs.player, None, rng), rng, span)
        if revealed:
            raise InvalidStateError("'revealed' lists more hands than the discards")
        self._current = current
        return state


def _hidden(
    rules: TacTikRules,
    state: TacTikState,
    deal: Deal,
    player: int | None,
    received: int | None,
    rng: random.Random,
) -> tuple[list[list[int]], list[int]] | None:
    """The hidden cards of a deal whose dealing is over: each player's dealt cards in deal order
    and each player's give (−1 when not chosen). ``None`` while cards are still being dealt
    (they are then drawn one by one during the replay)."""
    n = rules.players
    if len(deal.deals) < rules.deal_size:
        return None
    mine = [0] * NUM_CARDS
    for served, card in deal.deals:
        if served == player:
            mine[card] += 1
    pool = [t - m for t, m in zip(state.talon(), mine, strict=True)]
    if min(pool) < 0:
        raise InvalidStateError("the observer was dealt cards the talon did not hold")
    by_player = [-1] * n  # each player's give: −1 when hidden or not chosen yet
    chose = [False] * n
    for giver, card in deal.gives:
        by_player[giver] = card
        chose[giver] = True
    hidden = [q for q in range(n) if q != player]
    if rules.team and len(deal.gives) == n:
        dealt, gives = _after_exchange(rules, deal, player, mine, pool, by_player, received, rng)
    elif rules.team:
        dealt, gives = _before_exchange(rules, hidden, pool, by_player, chose, rng)
    else:
        dealt = _after_exchange_solo(rules, deal, player, mine, pool, rng)
        gives = by_player
    if player is not None:
        dealt[player] = [card for served, card in deal.deals if served == player]
    return dealt, gives


def _deal_out(pool: Counts, sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Shuffle the physical cards of ``pool`` and deal ``sizes[i]`` cards to slot i."""
    cards = _cards(pool)
    if len(cards) < sum(sizes):
        raise InvalidStateError("too few unseen cards for the hands")
    rng.shuffle(cards)
    hands = []
    at = 0
    for size in sizes:
        hands.append(cards[at : at + size])
        at += size
    return hands


def _before_exchange(
    rules: TacTikRules,
    hidden: list[int],
    pool: Counts,
    gives: list[int],
    chose: list[bool],
    rng: random.Random,
) -> tuple[list[list[int]], list[int]]:
    """Dealt hands while the exchange is under way: each player who has chosen in secret could
    have chosen any kind of their hand, so a hand weighs its number of kinds."""
    size = rules.hand_size
    for _ in range(_MAX_ROUNDS):
        hands = _deal_out(pool, [size] * len(hidden), rng)
        accept = 1.0
        for q, hand in zip(hidden, hands, strict=True):
            if chose[q] and gives[q] < 0:
                accept *= len(set(hand)) / size
        if rng.random() < accept:
            break
    else:  # pragma: no cover - a real observation is accepted long before
        raise InvalidStateError("no consistent deal found")
    dealt: list[list[int]] = [[] for _ in range(rules.players)]
    gives = gives.copy()
    for q, hand in zip(hidden, hands, strict=True):
        dealt[q] = hand
        if chose[q] and gives[q] < 0:
            gives[q] = rng.choice(sorted(set(hand)))
    return dealt, gives


def _after_exchange_solo(
    rules: TacTikRules,
    deal: Deal,
    player: int | None,
    mine: Counts,
    pool: Counts,
    rng: random.Random,
) -> list[list[int]]:
    """Dealt hands of the 2-player variant (no exchange): each hidden hand holds the cards its
    player has played, and the rest drawn from the unseen cards."""
    hidden = [q for q in range(rules.players) if q != player]
    known = {q: deal.played[q] for q in hidden}
    if player is not None and any(p > m for p, m in zip(deal.played[player], mine, strict=True)):
        raise InvalidStateError("the observer played cards they were not dealt")
    free_pool, sizes = _free_pool(rules, pool, [known[q] for q in hidden])
    for _ in range(_MAX_ROUNDS):
        frees = _deal_out(free_pool, sizes, rng)
        accept = 1.0
        held = []
        for q, free in zip(hidden, frees, strict=True):
            free_counts = _counts(free)
            hand = [a + b for a, b in zip(known[q], free_counts, strict=True)]
            accept *= _ratio(free_counts, hand)
            held.append(hand)
        if not sum(sizes) or rng.random() < accept:
            break
    else:  # pragma: no cover
        raise InvalidStateError("no consistent deal found")
    dealt: list[list[int]] = [[] for _ in range(rules.players)]
    for q, hand in zip(hidden, held, strict=True):
        cards = _cards(hand)
        rng.shuffle(cards)
        dealt[q] = cards
    return dealt


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


def _after_exchange(
    rules: TacTikRules,
    deal: Deal,
    player: int | None,
    mine: Counts,
    pool: Counts,
    gives: list[int],
    received: int | None,
    rng: random.Random,
) -> tuple[list[list[int]], list[int]]:
    """Dealt hands and gives of a team game once the exchange is over.

    Parametrised by the hands held after the exchange, ``H = known + free``: the known part is
    what each player has played (and, for the observer's partner, the card the observer gave);
    the free part is dealt from the unseen cards, then accepted with probability
    ``weight / bound`` where the weight sums, over the hidden gives consistent with H, the
    chance weight of the dealt hands relative to the proposal's, and the bound (the product of
    the hand sizes per pair of hidden givers) caps it.
    """
    n = rules.players
    size = rules.hand_size
    partner = rules.partner
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
    hidden = [q for q in range(n) if q != player]
    pairs = sorted(
        {(min(q, partner[q]), max(q, partner[q])) for q in hidden if partner[q] != player}
    )
    for q in hidden:
        known.setdefault(q, deal.played[q].copy())
    # The free parts are drawn from the unseen cards less the known parts, corrected by what
    # the observer's partner dealt-but-gave (in the pool) and received-but-was-not-dealt.
    pool = [u - s for u, s in zip(pool, shift, strict=True)]
    free_pool, sizes = _free_pool(rules, pool, [known[q] for q in hidden])
    bound = float(size * size)
    for _ in range(_MAX_ROUNDS):
        frees = {
            q: _counts(f) for q, f in zip(hidden, _deal_out(free_pool, sizes, rng), strict=True)
        }
        held = {q: [a + b for a, b in zip(known[q], frees[q], strict=True)] for q in hidden}
        accept = 1.0
        if player is not None:
            mate = partner[player]
            accept *= _ratio(frees[mate], held[mate]) * _swapped(
                held[mate], gives[mate], gives[player]
            )
        choices = []
        for q, r in pairs:
            terms = _give_terms(held[q], held[r], frees[q], frees[r])
            choices.append(terms)
            accept *= sum(weight for weight, _, _ in terms) / bound
        if not sum(sizes) or rng.random() < accept:
            break
    else:  # pragma: no cover
        raise InvalidStateError("no consistent deal found")
    for (q, r), terms in zip(pairs, choices, strict=True):
        _, gives[q], gives[r] = terms[_pick([weight for weight, _, _ in terms], rng)]
    dealt: list[list[int]] = [[] for _ in range(n)]
    for q in hidden:
        hand = held[q].copy()
        hand[gives[partner[q]]] -= 1
        hand[gives[q]] += 1
        cards = _cards(hand)
        rng.shuffle(cards)
        dealt[q] = cards
    return dealt, gives


def _give_terms(
    held_q: Counts, held_r: Counts, free_q: Counts, free_r: Counts
) -> list[tuple[float, int, int]]:
    """For partners q and r holding ``held_q`` and ``held_r`` after the exchange: each
    consistent pair of gives (q gave a card r holds, r gave one q holds) with the relative
    chance weight of the hands it implies were dealt."""
    base = _ratio(free_q, held_q) * _ratio(free_r, held_r)
    kinds_q = [k for k in range(NUM_CARDS) if held_q[k]]
    return [
        (base * _swapped(held_q, give_q, give_r) * _swapped(held_r, give_r, give_q), give_q, give_r)
        for give_q in [k for k in range(NUM_CARDS) if held_r[k]]
        for give_r in kinds_q
    ]


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

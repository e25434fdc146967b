"""What each Tac-Tik player knows, and resampling.

The exact tests compare ``game.resample`` with the target (docs: Concepts) computed independently:
every consistent history is enumerated (through the rules engine, which decides what is legal
and what the observer would have seen) with its weight — the product of its chance outcomes'
probabilities, every hidden choice counting once — and the frequencies of resampled states are
checked with a chi-square test (p = 0.001; seeded, so deterministic).
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import json
import math
import random
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

import pytest

import tikigames
from tikigames import IllegalActionError, InvalidStateError

Table = Any
Factory = Callable[..., Table]


def chi_square_passes(samples: Iterable[Hashable], probabilities: Mapping[Hashable, float]) -> bool:
    """Whether ``samples`` fit ``probabilities`` (chi-square, p = 0.001). Every sample must lie
    in the support; categories expected fewer than 5 times are pooled."""
    counts = collections.Counter(samples)
    n = sum(counts.values())
    assert set(counts) <= {key for key, p in probabilities.items() if p > 0}, "outside support"
    statistic = 0.0
    cells = 0
    pooled_expected = pooled_observed = 0.0
    for key, p in probabilities.items():
        expected = p * n
        if expected < 5:
            pooled_expected += expected
            pooled_observed += counts[key]
            continue
        statistic += (counts[key] - expected) ** 2 / expected
        cells += 1
    if pooled_expected > 0:
        statistic += (pooled_observed - pooled_expected) ** 2 / pooled_expected
        cells += 1
    df = max(cells - 1, 1)
    # Wilson–Hilferty: the chi-square quantile at 1 − 0.001 (z = 3.09).
    critical = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
    return statistic < critical


def normalised(weights: Mapping[Hashable, float]) -> dict[Hashable, float]:
    total = sum(weights.values())
    return {key: weight / total for key, weight in weights.items()}


def orderings(hand: Iterable[str]) -> int:
    """The number of distinct orders a hand can be dealt in."""
    counts = collections.Counter(hand)
    result = math.factorial(sum(counts.values()))
    for count in counts.values():
        result //= math.factorial(count)
    return result


# ----------------------------------------------------------------------------- observations


def test_observation_shows_own_cards_and_hides_the_others(table: Factory) -> None:
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    obs = t.state.observation(0)
    assert obs.hand == ("1", "5", "7", "J") and obs.hand_sizes == (4, 4, 4, 4)
    assert obs.talon_size == 34 and obs.phase == "exchange" and obs.dealer == 3
    assert obs.history[:4] == ("deal 1", "deal ?", "deal ?", "deal ?")
    assert t.state.observation(1).history[:4] == ("deal ?", "deal 3", "deal ?", "deal ?")
    assert set(t.state.observation(None).history) == {"deal ?"}
    assert t.state.observation(None).hand == ()
    assert obs.legal_actions() == t.state.legal_actions()
    assert t.state.observation(1).legal_actions() == []
    t.give("7", "2", "6", "2")
    obs = t.state.observation(0)
    assert obs.given == "7" and obs.received == "6" and obs.hand == ("1", "5", "6", "J")
    assert obs.history[-4:] == ("give 7", "give ?", "give ?", "give ?")  # from the dealer's left
    text = str(obs)
    assert "player 0 (green) (you): 1 5 6 J; you give 7; you received 6" in text
    assert "player 2 (blue): 4 cards" in text and "6 6 6" not in text
    t.play("1:start@0", "discard 3")
    obs = t.state.observation(2)
    assert obs.track[0] == 0 and obs.pieux == (0,) and obs.reserves == (3, 4, 4, 4)
    assert obs.pile == ("1", "3") and obs.turns == 2 and obs.hand_sizes == (3, 3, 4, 4)
    assert obs.homes == ((0, 0, 0, 0),) * 4 and obs.seven_left == 0 and obs.winners == ()


def test_observations_depend_only_on_what_the_player_saw(table: Factory) -> None:
    a, b = table(), table()
    a.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    b.deal("1 5 7 J", "2 3 8 8", "6 6 2 10", "9 12 12 2")
    assert a.state.observation(0) == b.state.observation(0)
    assert hash(a.state.observation(0)) == hash(b.state.observation(0))
    assert str(a.state.observation(0)) == str(b.state.observation(0))
    assert a.state.observation(1) != b.state.observation(1)
    assert a.state != b.state


def test_str_state_shows_everything(table: Factory) -> None:
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("7", "2", "6", "2")
    t.play("1:start@0")
    text = str(t.state)
    assert "Player 1 (red) to play" in text
    assert "green   t0   [G]" in text  # a pieu in upper case on its start square
    assert "player 3 (yellow): 2 9 9 9; gives 2; received 2" in text
    assert "Reserves:  green 3   red 4   blue 4   yellow 4" in text


# ----------------------------------------------------------------------------- JSON


def test_observation_json_round_trip_and_inconsistent_data(table: Factory) -> None:
    t = table(discard="stuck")
    t.deal("2 3 5 6", "1 1 1 2", "8 8 8 9", "1 9 9 2")
    t.give("6", "2", "8", "2")
    t.play("discard all", "1:start@1")
    obs = t.state.observation(2)
    data = json.loads(json.dumps(obs.to_json()))
    assert data["revealed"] == [["2", "3", "5", "8"]] and data["received"] == "6"
    assert t.game.observation_from_json(data) == obs
    for field, value in (
        ("received", "7"),
        ("received", None),
        ("revealed", [["2", "3", "5", "9"]]),
        ("revealed", []),
        ("revealed", [["2", "3", "5", "8"], ["1"]]),
        ("hand", ["8", "8", "9", "6"]),
        ("given", "9"),
        ("talon_size", 33),
        ("received", "X"),
        ("revealed", [["2", "3", "5", 8]]),
    ):
        with pytest.raises(InvalidStateError):
            t.game.observation_from_json({**data, field: value})
    history = list(data["history"])
    history[1] = "deal 9"  # player 2 cannot see player 1's card
    with pytest.raises(InvalidStateError):
        t.game.observation_from_json({**data, "history": history})


# ----------------------------------------------------------------------------- resampling


def random_positions(options: dict[str, Any], count: int, seed: int) -> list[Any]:
    game = tikigames.load("tactik", **options)
    rng = random.Random(seed)
    positions: list[Any] = []
    state = game.new_initial_state()
    while len(positions) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if rng.random() < 0.03:
            positions.append(state.clone())
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return positions


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 6, "discard": "stuck"}, {"players": 2, "jokers": 4, "with_13": True}],
)
def test_resampled_histories_are_legal_and_keep_what_the_observer_knows(
    options: dict[str, Any],
) -> None:
    rng = random.Random(11)
    for state in random_positions(options, 12, seed=4):
        game = state.game
        for player in [*range(game.num_players), None]:
            obs = state.observation(player)
            sample = game.resample(obs, rng)
            assert sample.observation(player) == obs
            replay = game.new_initial_state()
            played: collections.Counter[tuple[int, str]] = collections.Counter()
            for action in sample.history():
                mover = replay.current_player()
                held = replay.hand(mover) if mover >= 0 else []
                replay.apply_action(action)  # every action is legal when replayed with checks
                if str(action).startswith("deal"):
                    played.clear()  # a new deal
                elif mover >= 0 and not str(action).startswith("give"):
                    for card in collections.Counter(held) - collections.Counter(replay.hand(mover)):
                        played[(mover, card)] += 1
            assert replay == sample
            if player is not None and obs.received is not None:
                mate = game.rules.partner[player]
                assert sample.observation(mate).received == obs.given
                # The card given is still in the partner's hand unless they played one since.
                assert obs.given in sample.hand(mate) or played[(mate, obs.given)]


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 6, "discard": "stuck"}, {"players": 2, "jokers": 4, "with_13": True}],
)
def test_a_resamplers_rewritten_worlds_are_the_states_their_histories_replay_to(
    options: dict[str, Any],
) -> None:
    """After its first draw, a resampler rewrites the current deal of one world in place
    (``redeal_unchecked``) instead of replaying it: each world must be the very state its
    history gives when replayed with checks — position, every player's view, legal actions,
    JSON — and stay so when undone."""
    rng = random.Random(5)
    for state in random_positions(options, 6, seed=8):
        game = state.game
        for player in [*range(game.num_players), None]:
            obs = state.observation(player)
            draw = game.resampler(obs)
            for _ in range(3):
                world = draw(rng)
                replay = game.new_initial_state()
                for action in world.history():
                    replay.apply_action(action)
                assert world.observation(player) == obs
                for _ in range(min(15, len(replay.history())) + 1):
                    assert world == replay and hash(world) == hash(replay)
                    assert world.to_json() == replay.to_json()
                    assert world.legal_actions() == replay.legal_actions()
                    assert world.chance_outcomes() == replay.chance_outcomes()
                    for seat in [*range(game.num_players), None]:
                        assert world.seen_history(seat) == replay.seen_history(seat)
                        assert world.observation(seat) == replay.observation(seat)
                    if replay.history():
                        assert world.undo_action() is replay.undo_action()


def drawer(game: Any, obs: Any, via: str) -> Callable[[random.Random], Any]:
    """Draws by ``game.resample`` (independent) or from one ``game.resampler(obs)``."""
    if via == "resampler":
        draw: Callable[[random.Random], Any] = game.resampler(obs)
        return draw
    return lambda rng: game.resample(obs, rng)


@pytest.mark.parametrize("via", ["resample", "resampler"])
def test_resample_two_player_exact(table: Factory, via: str) -> None:
    """Deep in the talon: the observer's opponent was dealt 6 of 8 unseen cards and has played
    two; every consistent deal order is enumerated through the engine. One resampler's draws
    have the same distribution as independent resamples."""
    t = table(players=2)
    t.deal("1 1 1 1 2 2", "2 2 3 3 3 3")
    t.end_deal()
    t.deal("5 5 5 5 6 6", "6 6 7 7 7 7")
    t.end_deal()
    t.deal("8 8 8 8 9 9", "9 9 10 10 10 10")
    t.end_deal()
    start = t.state.clone()  # 14 cards left: J J P P P P -4 -4 -4 -4 12 12 12 12
    mine = ["J", "P", "P", "-4", "12", "12"]
    t.deal(" ".join(mine), "-4 P J 12 -4 -4")
    plays = ["discard -4", "discard 12", "discard J", "discard 12"]
    t.play(*plays)
    obs = t.state.observation(0)

    weights: dict[Hashable, float] = collections.defaultdict(float)
    dealer = start.observation(None).dealer

    def walk(state: Any, dealt: int, weight: float, cards: tuple[str, ...]) -> None:
        if dealt == 12:
            end = state.clone()
            try:
                for text in plays:
                    end.apply_action(end.parse_action(text))
            except IllegalActionError:
                return
            assert end.observation(0) == obs
            weights[tuple(sorted(end.hand(1)))] += weight
            return
        outcomes = {str(action): p for action, p in state.chance_outcomes()}
        served = (dealer + 1 + dealt) % 2
        options = [f"deal {mine[dealt // 2]}"] if served == 0 else list(outcomes)
        for text in options:
            if text in outcomes:
                state.apply_action(state.parse_action(text))
                seen = cards + ((text[5:],) if served else ())
                walk(state, dealt + 1, weight * outcomes[text], seen)
                state.undo_action()

    walk(start, 0, 1.0, ())
    exact = normalised(weights)
    assert len(exact) == 6
    # Not the naive shuffle of the unseen cards: a hand holding more copies of a kind the
    # opponent was seen playing is less likely (chance weighs the cards dealt, not played).
    assert exact[("12", "12", "P", "P")] == pytest.approx(1 / 7)
    rng = random.Random(5)
    draw = drawer(t.game, obs, via)
    samples = [tuple(sorted(draw(rng).hand(1))) for _ in range(1500)]
    assert chi_square_passes(samples, exact)


def team_position(table: Factory, exchange_done: bool = True) -> tuple[Any, Any, list[str]]:
    """The last deal of a 48-card talon (jokers 0): its 16 cards are 1 2 3 5 × 4. Returns the
    table, the state at the start of that deal and the plays made in it."""
    t = table(jokers=0)
    t.deal("6 6 7 7", "6 8 8 9", "6 7 7 8", "9 9 9 10")
    t.give("6", "8", "7", "9")
    t.end_deal()
    t.deal("8 10 10 10", "12 12 12 12", "-4 -4 -4 -4", "P P P P")
    t.give("8", "12", "-4", "P")
    t.end_deal()
    start = t.state.clone()
    t.deal("1 2 3 5", "1 2 2 5", "1 1 3 5", "2 3 3 5")
    plays = []
    if exchange_done:
        t.give("5", "2", "1", "3")
        plays = ["discard 5", "discard 2", "discard 1", "discard 3"] * 1
        plays += ["discard 1", "discard 5", "discard 2", "discard 1"]
        t.play(*plays)
    else:
        t.do("give 1")  # player 2
        t.do("give 3")  # player 3; player 0 is to choose
    return t, start, plays


def splits(unseen: collections.Counter[str]) -> Iterable[tuple[tuple[str, ...], ...]]:
    """Every way to deal ``unseen`` (12 cards) as three 4-card hands to players 1, 2, 3."""
    cards = sorted(unseen.elements())
    for first in sorted(set(itertools.combinations(cards, 4))):
        rest = unseen - collections.Counter(first)
        for second in sorted(set(itertools.combinations(sorted(rest.elements()), 4))):
            third = tuple(sorted((rest - collections.Counter(second)).elements()))
            yield first, second, third


def replay_deal(
    start: Any, hands: dict[int, tuple[str, ...]], gives: list[str], plays: list[str]
) -> Any:
    """The state after dealing ``hands``, giving ``gives`` (in giving order) and ``plays``, or
    ``None`` when the engine refuses it."""
    state = start.clone()
    dealer = state.observation(None).dealer
    try:
        for i in range(16):
            player = (dealer + 1 + i) % 4
            state.apply_action(state.parse_action(f"deal {hands[player][i // 4]}"))
        for card in gives:
            state.apply_action(state.parse_action(f"give {card}"))
        for text in plays:
            state.apply_action(state.parse_action(text))
    except IllegalActionError:
        return None
    return state


@pytest.mark.parametrize("via", ["resample", "resampler"])
def test_resample_team_exact_after_the_exchange(table: Factory, via: str) -> None:
    """Every consistent deal and pair of hidden gives of the current deal, weighed by the number
    of deal orders (the whole talon is dealt, so every order has the same chance), checked by
    the engine; and the hidden gives of a finished deal — drawn afresh by every resample, once
    per resampler (its draws share the finished deals)."""
    t, start, plays = team_position(table)
    obs = t.state.observation(0)
    unseen = collections.Counter({"1": 3, "2": 3, "3": 3, "5": 3})
    weights: dict[Hashable, float] = collections.defaultdict(float)
    for first, second, third in splits(unseen):
        for give_1, give_3 in itertools.product(sorted(set(first)), sorted(set(third))):
            hands = {0: ("1", "2", "3", "5"), 1: first, 2: second, 3: third}
            # Giving order from the dealer's left: 2, 3, 0, 1; player 2 gave the 1 received.
            state = replay_deal(start, hands, ["1", give_3, "5", give_1], plays)
            if state is None or state.observation(0) != obs:
                continue
            key = (tuple(state.hand(1)), tuple(state.hand(2)), tuple(state.hand(3)))
            entry = (*key, give_1, give_3)
            weights[entry] += orderings(first) * orderings(second) * orderings(third)
    exact = normalised(weights)
    assert len(exact) == 164
    # The finished first deal: players 1 and 3 held 6 8 9 9 and 8 9 9 10 after it.
    held_1, held_3 = ("6", "8", "9", "9"), ("8", "9", "9", "10")
    first_deal: dict[Hashable, float] = {}
    for give_1, give_3 in itertools.product(set(held_3), set(held_1)):
        dealt_1 = (
            collections.Counter(held_1)
            - collections.Counter([give_3])
            + collections.Counter([give_1])
        )
        dealt_3 = (
            collections.Counter(held_3)
            - collections.Counter([give_1])
            + collections.Counter([give_3])
        )
        first_deal[(give_1, give_3)] = orderings(dealt_1.elements()) * orderings(dealt_3.elements())
    first_exact = normalised(first_deal)
    rng = random.Random(3)
    current, finished = [], []
    draw = drawer(t.game, obs, via)
    for _ in range(1500):
        sample = draw(rng)
        drawn = (tuple(sample.hand(1)), tuple(sample.hand(2)), tuple(sample.hand(3)))
        current.append((*drawn, sample.observation(1).given, sample.observation(3).given))
        history = [str(action) for action in sample.history()]
        finished.append((history[17][5:], history[19][5:]))  # gives of players 1 and 3
    assert chi_square_passes(current, exact)
    if via == "resampler":
        assert len(set(finished)) == 1 and finished[0] in first_exact
        # Each resampler draws its finished deals once, as resample does: over many resamplers
        # they follow the exact distribution.
        finished = []
        for _ in range(1500):
            history = [str(action) for action in t.game.resampler(obs)(rng).history()]
            finished.append((history[17][5:], history[19][5:]))
    assert chi_square_passes(finished, first_exact)


@pytest.mark.parametrize("via", ["resample", "resampler"])
def test_resample_team_exact_during_the_exchange(table: Factory, via: str) -> None:
    """Players 2 and 3 have chosen in secret: every kind of their hands was a possible choice,
    so a hand of more kinds weighs more."""
    t, start, _ = team_position(table, exchange_done=False)
    obs = t.state.observation(0)
    unseen = collections.Counter({"1": 3, "2": 3, "3": 3, "5": 3})
    weights: dict[Hashable, float] = collections.defaultdict(float)
    checked = 0
    for first, second, third in splits(unseen):
        for give_2, give_3 in itertools.product(sorted(set(second)), sorted(set(third))):
            if checked < 200:  # the engine agrees with the enumeration (a sample of it)
                hands = {0: ("1", "2", "3", "5"), 1: first, 2: second, 3: third}
                state = replay_deal(start, hands, [give_2, give_3], [])
                assert state is not None and state.observation(0) == obs
                checked += 1
            key = (len(set(second)), len(set(third)), give_2)
            weights[key] += orderings(first) * orderings(second) * orderings(third)
    exact = normalised(weights)
    rng = random.Random(8)
    samples = []
    draw = drawer(t.game, obs, via)
    for _ in range(1500):
        sample = draw(rng)
        key = (len(set(sample.hand(2))), len(set(sample.hand(3))), sample.observation(2).given)
        samples.append(key)
    assert chi_square_passes(samples, exact)


def test_resampler_checks_the_observation_on_its_first_draw(table: Factory) -> None:
    t = table(discard="stuck")
    t.deal("2 3 5 6", "1 1 1 2", "8 8 8 9", "1 9 9 2")
    t.give("6", "2", "8", "2")
    t.play("discard all", "1:start@1")
    obs = t.state.observation(2)
    # A card player 2 cannot see.
    bad = dataclasses.replace(obs, history=(obs.history[0], "deal 9", *obs.history[2:]))
    draw = t.game.resampler(bad)  # nothing is read yet
    for _ in range(2):  # and nothing is kept from a failed first draw
        with pytest.raises(InvalidStateError):
            draw(random.Random(1))
    with pytest.raises(InvalidStateError):
        tikigames.load("tactik", players=6).resampler(obs)
    with pytest.raises(TypeError):
        t.game.resampler(obs)(None)


def test_resample_while_dealing_draws_from_the_unseen_cards(table: Factory) -> None:
    t = table()
    for text in ("deal J", "deal 5", "deal 5", "deal 7", "deal J", "deal 5"):
        t.do(text)  # player 0 got J and J; the others 5, 5, 7 and 5
    obs = t.state.observation(0)
    deck = dict(zip(tikigames.tactik.data.CARD_NAMES, t.game.rules.deck, strict=True))
    deck["J"] -= 2
    exact = normalised({card: count for card, count in deck.items() if count})
    rng = random.Random(2)
    samples = [str(t.game.resample(obs, rng).history()[1])[5:] for _ in range(2000)]
    assert chi_square_passes(samples, exact)
    assert all(str(t.game.resample(obs, rng).history()[0]) == "deal J" for _ in range(20))


def test_resample_varies_and_refuses_other_games(table: Factory) -> None:
    t = table()
    t.deal("1 5 7 J", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    rng = random.Random(0)
    obs = t.state.observation(0)
    hands = {tuple(t.game.resample(obs, rng).hand(1)) for _ in range(20)}
    assert len(hands) > 10
    with pytest.raises(InvalidStateError):
        tikigames.load("tactik", players=6).resample(obs, rng)


def test_resample_of_the_initial_state() -> None:
    game = tikigames.load("tactik", players=6)
    state = game.new_initial_state()
    for player in (0, 5, None):
        assert game.resample(state.observation(player), random.Random(1)) == state

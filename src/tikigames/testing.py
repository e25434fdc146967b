"""The conformance suite as a public tool: :func:`check_game` checks any game against the contract.

A game author calls it from their own pytest, as the project does for its four games::

    import tikigames.testing

    def test_my_game_conforms():
        tikigames.testing.check_game(tikigames.load("my_game"))

Every property is checked over random walks through the game drawn by hypothesis (so a failure
is shrunk to a short history and reported with it): legal actions sorted and non-empty until the
end, chance outcomes summing to 1, illegal and malformed actions raising the contract's errors
and changing nothing, apply/undo restoring everything, clones independent, JSON and pickle round
trips, observations that resampled worlds reproduce exactly, seeded play deterministic, notation
round trips, legal-action masks and observation tensors. A failure raises
:class:`ConformanceError` naming the property.

This module is a tool above the library (it imports the core and the bots); it needs
hypothesis, the optional extra ``tikigames[testing]``, and ``import tikigames`` never imports it.
"""

from __future__ import annotations

import copy as copy_module
import itertools
import json
import math
import pickle
import random
import struct
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from xml.etree import ElementTree

from tikigames.bots import RandomBot
from tikigames.core.constants import TERMINAL
from tikigames.core.errors import (
    ActionError,
    IllegalActionError,
    InvalidStateError,
    UndoError,
)
from tikigames.core.game import Game
from tikigames.core.play import play
from tikigames.core.registry import state_from_json
from tikigames.core.state import State

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tikigames.testing needs hypothesis: pip install 'tikigames[testing]'"
    ) from error

__all__ = ["PROPERTIES", "ConformanceError", "check_game"]

AnyState = State[Any, Any, Any]
AnyGame = Game[Any, Any, Any]


class ConformanceError(AssertionError):
    """A game broke the contract; the message names the property and what went wrong."""


def _check(condition: object, message: str) -> None:
    # Not ``assert``: the checks must run under ``python -O`` too.
    if not condition:
        raise ConformanceError(message)


def _raises(
    error: type[BaseException], what: str, call: Callable[..., object], *args: Any
) -> BaseException:
    """The ``error`` that ``call(*args)`` raises (any other outcome breaks the contract)."""
    try:
        call(*args)
    except error as raised:
        return raised
    except Exception as other:
        raise ConformanceError(
            f"{what}: expected {error.__name__}, got {type(other).__name__}: {other}"[:300]
        ) from other
    raise ConformanceError(f"{what}: expected {error.__name__}, nothing was raised")


# --------------------------------------------------------------------- walks


def walk(game: AnyGame, picks: Sequence[int], max_steps: int) -> list[AnyState]:
    """The states along a walk through ``game`` (the initial state first, each an independent
    clone): at each step the legal action ``picks[i] % len(legal)``, chance included."""
    state = game.new_initial_state()
    states = [state.clone()]
    for pick in picks[:max_steps]:
        legal = state.legal_actions()
        if not legal:
            break
        state.apply_action(legal[pick % len(legal)])
        states.append(state.clone())
    return states


def _seats(state: AnyState) -> list[int | None]:
    return [*range(state.game.num_players), None]


def _snapshot(state: AnyState) -> tuple[Any, ...]:
    """Everything a user can see of a state."""
    return (
        state.history(),
        hash(state),
        json.dumps(state.to_json()),
        [state.observation(p) for p in _seats(state)],
        [json.dumps(state.observation(p).to_json()) for p in _seats(state)],
        state.legal_actions(),
        state.current_player(),
    )


# --------------------------------------------------------------------- properties
# Each takes the game, a walk's picks, a seed and the walk's length cap.


def legal_actions_and_chance(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Legal actions sorted, distinct, table entries, non-empty iff not over; chance outcomes
    are the legal actions, with probabilities > 0 summing to 1; returns are 0 until the end."""
    for state in walk(game, picks, steps):
        legal = state.legal_actions()
        _check(legal == sorted(legal) and len(set(legal)) == len(legal), "legal: not sorted")
        _check(bool(legal) == (not state.is_terminal()), "legal: empty iff terminal")
        _check(all(game.action(int(a)) is a for a in legal), "legal: not the table's actions")
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            _check([a for a, _ in outcomes] == legal, "chance outcomes differ from legal")
            _check(all(p > 0 for _, p in outcomes), "a chance probability is not > 0")
            _check(math.isclose(sum(p for _, p in outcomes), 1.0), "chance does not sum to 1")
        else:
            _check(state.chance_outcomes() == [], "chance outcomes off a chance node")
            _check(state.is_terminal() == (player == TERMINAL), "is_terminal disagrees")
            if not state.is_terminal():
                _check(0 <= player < game.num_players, f"current_player {player} is no seat")
        returns = state.returns()
        _check(len(returns) == game.num_players, "returns: not one per player")
        _check(all(math.isfinite(r) for r in returns), "returns: not finite")
        if not state.is_terminal():
            _check(returns == [0.0] * game.num_players, "returns before the end are not 0")


def illegal_actions_change_nothing(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Illegal actions raise IllegalActionError, whose ``reason`` is ``illegal_reason`` (None
    exactly for the legal ones); malformed ones ActionError, unparseable text ActionError; the
    state is unchanged."""
    state = walk(game, picks, steps)[-1]
    before = _snapshot(state)
    legal = set(state.legal_actions())
    n = game.num_distinct_actions
    illegal = [a for a in range(n) if a not in legal]
    for action in random.Random(seed).sample(illegal, min(5, len(illegal))):
        raised = _raises(IllegalActionError, f"apply {action}", state.apply_action, action)
        reason = state.illegal_reason(action)
        _check(isinstance(reason, str) and reason, f"illegal_reason({action}) is no text")
        _check(getattr(raised, "reason", None) == reason, f"the error's reason for {action}")
        _check(str(reason) in str(raised), f"the message of {action} does not say why")
        text = str(game.action(action))
        _raises(IllegalActionError, f"parse {text!r}", state.parse_action, text)
    for action in state.legal_actions()[:5]:
        _check(state.illegal_reason(action) is None, f"illegal_reason of legal {action}")
    for bad in (-1, n, n + 7, "0", 1.0, None, True, [0]):
        raised = _raises(ActionError, f"apply {bad!r}", state.apply_action, bad)
        _check(not isinstance(raised, IllegalActionError), f"{bad!r} is not an action at all")
    for text in ("", "   ", "no such action", "🙂", "?", "x" * 10_000):
        _raises(ActionError, f"parse {text[:20]!r}", state.parse_action, text)
    _check(_snapshot(state) == before, "a refused action changed the state")


def apply_undo_restores_everything(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Undo is the exact inverse of apply: ``==``, hash, JSON, observations, legal actions."""
    states = walk(game, picks, steps)
    state = states[-1]
    history = state.history()
    for earlier in reversed(states[:-1]):
        expected = _snapshot(earlier)
        action = state.undo_action()
        _check(action is history.pop(), "undo returned another action")
        _check(state == earlier and _snapshot(state) == expected, "undo did not restore")
    _raises(UndoError, "undo at the start", state.undo_action)
    for earlier in states[:: max(1, len(states) // 5)]:
        expected = _snapshot(earlier)
        for action in earlier.legal_actions()[:40]:
            earlier.apply_action(action)
            earlier.undo_action()
        _check(_snapshot(earlier) == expected, "apply + undo of a legal action changed things")


def clones_are_independent(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """A clone equals its original, and playing or undoing on it changes nothing of the
    original."""
    state = walk(game, picks, steps)[-1]
    copy = state.clone()
    _check(copy == state and hash(copy) == hash(state), "a clone differs")
    _check(copy.history() == state.history(), "a clone's history differs")
    before = _snapshot(state)
    if copy.legal_actions():
        copy.apply_action(copy.legal_actions()[-1])
        _check(copy != state, "a position equals the one before an action")
    for _ in range(min(2, len(copy.history()))):
        copy.undo_action()
    _check(_snapshot(state) == before, "changing a clone changed the original")


def fields_are_copied_and_compared(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """The state's declared fields (``position_fields``) are its slots, a clone copies each,
    and ``==`` compares each but the ``derived_fields``: giving a clone another state's value
    of such a field makes it differ (for at least one pair of states of the walk whose values
    differ)."""
    states = walk(game, picks, steps)
    state_class = type(states[0])
    fields = state_class.position_fields
    derived = state_class.derived_fields
    _check(bool(fields), f"{state_class.__name__} declares no position_fields")
    _check(derived <= set(fields), "derived_fields not among the position_fields")
    declared: list[str] = []
    for klass in state_class.__mro__:  # interpreted: the slots below the base class
        if klass.__name__ == "State" and klass.__module__ == "tikigames.core.state":
            break
        declared += klass.__dict__.get("__slots__", ())
    if declared:  # (compiled by mypyc, a class keeps no __slots__)
        _check(sorted(declared) == sorted(fields), f"slots {declared} are not {list(fields)}")
    for state in states:
        copy = state.clone()
        for name in fields:
            _check(getattr(copy, name) == getattr(state, name), f"clone() does not copy {name}")
    rng = random.Random(seed)
    for name in fields:
        if name in derived:
            continue
        pairs = [
            (first, second)
            for first, second in itertools.permutations(states, 2)
            if getattr(first, name) != getattr(second, name)
        ]
        if not pairs:
            continue
        compared = False
        for first, second in rng.sample(pairs, min(len(pairs), 8)):
            copy = first.clone()
            setattr(copy, name, copy_module.deepcopy(getattr(second, name)))
            if copy != first:
                compared = True
                break
        _check(compared, f"== does not compare {name} (or list it in derived_fields)")


def state_changes_with_each_action(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Every action changes the position, and every observation's history grows by one."""
    for before, after in itertools.pairwise(walk(game, picks, steps)):
        _check(before != after, "an action left the position equal")
        for p in _seats(after):
            _check(len(after.observation(p).history) == len(after.history()), "history length")


def json_round_trips(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """State and observation JSON load back equal; a loaded state undoes to the start."""
    state = walk(game, picks, steps)[-1]
    data = json.loads(json.dumps(state.to_json()))
    _check(data["format"] == "tikigames/1" and data["game"] == game.name, "state JSON header")
    _check(data["options"] == game.options, "state JSON options")
    loaded = state_from_json(data)
    _check(loaded == state and loaded.history() == state.history(), "state JSON round trip")
    _check(game.state_from_json(data) == state, "game.state_from_json round trip")
    for p in _seats(state):
        obs = state.observation(p)
        obs_data = json.loads(json.dumps(obs.to_json()))
        _check(obs_data["format"] == "tikigames-obs/1" and obs_data["player"] == p, "obs header")
        back = game.observation_from_json(obs_data)
        _check(back == obs and hash(back) == hash(obs), "observation JSON round trip")
        _check(back.to_json() == obs.to_json() and str(back) == str(obs), "observation text")
    while loaded.history():
        loaded.undo_action()
    _check(loaded == game.new_initial_state(), "a loaded state does not undo to the start")


def bad_json_raises_invalid_state(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Malformed or inconsistent state and observation JSON raise InvalidStateError."""
    state = walk(game, picks, steps)[-1]
    good = state.to_json()
    bad_cases: list[Any] = [
        None, [], "x", {**good, "format": "tikigames/2"}, {**good, "game": "chess"},
        {**good, "history": "e2e4"}, {**good, "history": [1, 2]}, {**good, "extra": 1},
        {**good, "options": {"no_such_option": 1}}, {**good, "options": []},
        {**good, "history": good["history"] + ["not an action"]},
        {**good, "history": ["x"] * 100_001},
    ]  # fmt: skip
    if good["history"]:
        cut = random.Random(seed).randrange(len(good["history"]))
        history = list(good["history"])
        history[cut] = history[cut] + " zz"
        bad_cases.append({**good, "history": history})
    if not state.is_terminal():
        legal = set(state.legal_actions())
        illegal = [str(a) for a in game.actions() if a not in legal][:3]
        bad_cases += [{**good, "history": good["history"] + [text]} for text in illegal]
    else:
        bad_cases.append({**good, "history": good["history"] + [good["history"][-1]]})
    for bad in bad_cases:
        _raises(InvalidStateError, "state_from_json(bad data)", state_from_json, bad)
        _raises(InvalidStateError, "game.state_from_json", game.state_from_json, bad)
    obs = state.observation(0).to_json()
    bad_obs: list[Any] = [
        None, {**obs, "format": "x"}, {**obs, "player": 99}, {**obs, "player": True},
        {**obs, "history": obs["history"] + ["nonsense"]}, {**obs, "unknown": 1},
        {key: value for key, value in obs.items() if key != "history"},
        {**obs, "current_player": "me"},
    ]  # fmt: skip
    for field in obs:
        if field not in ("format", "game", "options", "player", "history"):
            bad_obs.append({**obs, field: {"not": "valid"}})
    for bad in bad_obs:
        _raises(InvalidStateError, "observation JSON", game.observation_from_json, bad)


def resample_is_consistent(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """A resampled world gives its player exactly the same observation (value, text, JSON,
    legal actions): an observation depends only on what its player knows."""
    state = walk(game, picks, steps)[-1]
    rng = random.Random(seed)
    for p in _seats(state):
        obs = state.observation(p)
        for _ in range(3):
            sample = game.resample(obs, rng)
            again = sample.observation(p)
            _check(sample is not state, "resample returned the state itself")
            _check(again == obs and hash(again) == hash(obs), f"resample changed obs of {p}")
            _check(again.to_json() == obs.to_json() and str(again) == str(obs), "obs text")
            _check(again.legal_actions() == obs.legal_actions(), "resampled legal actions")
            _check(len(sample.history()) == len(state.history()), "resampled history length")
    _raises(InvalidStateError, "resample(junk)", game.resample, "no observation", rng)


def refusals_depend_only_on_what_the_mover_knows(
    game: AnyGame, picks: list[int], seed: int, steps: int
) -> None:
    """The reason a player is given for refusing one of its actions (``illegal_reason``) is
    the same in every world resampled from its observation: a refusal never tells the mover
    what it cannot know (a hidden card, an opponent's rank)."""
    state = walk(game, picks, steps)[-1]
    player = state.current_player()
    if player < 0:
        return
    rng = random.Random(seed)
    legal = set(state.legal_actions())
    refused = [action for action in game.actions() if action not in legal]
    probes = rng.sample(refused, min(len(refused), 40))
    reasons = [state.illegal_reason(action) for action in probes]
    obs = state.observation(player)
    for _ in range(3):
        world = game.resample(obs, rng)
        for action, reason in zip(probes, reasons, strict=True):
            again = world.illegal_reason(action)
            _check(
                again == reason,
                f"player {player} is told {reason!r} for {action.text!r}, but {again!r} in a"
                " world it cannot tell apart",
            )


def history_in_words_depends_only_on_the_observation(
    game: AnyGame, picks: list[int], seed: int, steps: int
) -> None:
    """``obs.history_in_words()`` has one entry per action of the history, and every world
    resampled from the observation tells the same words: what the terminal announces never
    tells a player more than it knows."""
    state = walk(game, picks, steps)[-1]
    rng = random.Random(seed)
    for p in _seats(state):
        obs = state.observation(p)
        words = obs.history_in_words()
        _check(len(words) == len(obs.history), f"history_in_words of {p}: one entry per action")
        for _ in range(2):
            again = game.resample(obs, rng).observation(p).history_in_words()
            _check(again == words, f"history_in_words of {p} differs in a world it cannot tell")


def resampler_draws_independent_states(
    game: AnyGame, picks: list[int], seed: int, steps: int
) -> None:
    """``game.resampler(obs)`` draws consistent states, each the caller's own: playing on or
    undoing one (to the start, through any shared past) changes no other draw; and
    ``game.resampler(obs, rng)`` draws, called with nothing, what a fresh ``draw(rng)`` draws
    from an equal generator."""
    state = walk(game, picks, steps)[-1]
    rng = random.Random(seed)
    for p in _seats(state):
        obs = state.observation(p)
        draw = game.resampler(obs)
        first = draw(rng)
        before = _snapshot(first)
        for _ in range(2):
            sample = draw(rng)
            _check(sample is not first, "a draw returned an earlier draw")
            _check(sample.observation(p) == obs, "a draw is not consistent")
            legal = sample.legal_actions()
            if legal:
                sample.apply_action(legal[rng.randrange(len(legal))])
                _check(_snapshot(first) == before, "playing on a draw changed another")
                sample.undo_action()
            while sample.history():
                sample.undo_action()
            _check(sample == game.new_initial_state(), "a draw does not undo to the start")
            _check(_snapshot(first) == before, "undoing a draw changed another")
        bound, fresh = game.resampler(obs, random.Random(seed)), game.resampler(obs)
        twin = random.Random(seed)
        for _ in range(2):
            _check(bound() == fresh(twin), "game.resampler(obs, rng)() differs from draw(rng)")
    _raises(InvalidStateError, "resampler(junk)", game.resampler, "junk")
    _raises(TypeError, "draw(1)", game.resampler(state.observation(None)), 1)
    _raises(TypeError, "draw() unbound", game.resampler(state.observation(None)))
    _raises(TypeError, "resampler(obs, 1)", game.resampler, state.observation(None), 1)


def evaluate_is_the_returns_at_the_end(
    game: AnyGame, picks: list[int], seed: int, steps: int
) -> None:
    """``evaluate()`` has one finite value per player, equals ``returns()`` at the end and is
    restored by undo."""
    states = walk(game, picks, steps)
    for state in states:
        guess = state.evaluate()
        _check(len(guess) == game.num_players, "evaluate: not one value per player")
        _check(all(isinstance(v, float) and math.isfinite(v) for v in guess), "evaluate: float")
        if state.is_terminal():
            _check(guess == state.returns(), "evaluate at the end is not the returns")
    state = states[-1]
    for _ in range(len(state.history())):
        guess = state.evaluate()
        action = state.undo_action()
        state.apply_action(action)
        _check(state.evaluate() == guess, "undo + redo changed evaluate")
        state.undo_action()


def rollout_actions_are_legal_and_seeded(
    game: AnyGame, picks: list[int], seed: int, steps: int
) -> None:
    """``rollout_action(rng)``, the search bots' playout policy, returns a legal action (a
    possible chance outcome at a chance node), the same one for the same rng, and changes
    nothing in the state."""
    for state in walk(game, picks, steps):
        if state.is_terminal():
            draw = random.Random(seed)
            _raises(IllegalActionError, "rollout_action at the end", state.rollout_action, draw)
            continue
        before = _snapshot(state)
        legal = state.legal_actions()
        for offset in range(3):
            action = state.rollout_action(random.Random(seed + offset))
            _check(action in legal, f"rollout_action gave {str(action)!r}, not a legal action")
            again = state.rollout_action(random.Random(seed + offset))
            _check(again == action, "rollout_action differs for the same rng")
        _check(_snapshot(state) == before, "rollout_action changed the state")


def seeded_play_is_deterministic(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """``tikigames.play`` with the same seed plays the same game."""
    bots = [RandomBot() for _ in range(game.num_players)]
    first = play(game, bots, seed=seed, max_actions=steps)
    second = play(game, bots, seed=seed, max_actions=steps)
    _check(first.history() == second.history() and first == second, "seeded play differs")
    _check(first.is_terminal() or len(first.history()) == steps, "play stopped early")


def notation_round_trips(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Every legal action's text parses back to it (case and outer spaces ignored), and a
    player sees either the text or a text with ``?`` for its hidden part."""
    state = walk(game, picks, steps)[-1]
    for action in state.legal_actions():
        text = str(action)
        _check(state.parse_action(text) is action, f"{text!r} does not parse back")
        _check(state.parse_action(f"  {text.upper()}  ") is action, f"{text!r} upper-cased")
        _check(state.action_to_string(action) == text, "action_to_string(action)")
        _check(state.action_to_string(int(action), None) == text, "action_to_string(id)")
        for p in range(game.num_players):
            seen = state.action_to_string(action, p)
            _check(seen == text or "?" in seen, f"player {p} sees {seen!r} for {text!r}")


def _check_picture(svg: str, what: str) -> None:
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as error:
        raise ConformanceError(f"{what}: the picture is not XML: {error}") from None
    _check(root.tag == "{http://www.w3.org/2000/svg}svg", f"{what}: not an <svg> element")
    _check(len(root.get("viewBox", "").split()) == 4, f"{what}: no viewBox")


def pictures_are_valid_and_never_leak(
    game: AnyGame, picks: list[int], seed: int, steps: int
) -> None:
    """Every state's and observation's picture is SVG with a viewBox, the same text for equal
    inputs, and a resampled world draws its player's picture byte for byte the same (a picture
    drawn from the observation alone cannot show what its player does not know)."""
    states = walk(game, picks, steps)
    rng = random.Random(seed)
    for state in states[:: max(1, len(states) // 8)] + states[-1:]:
        picture = state.svg()
        _check_picture(picture, "state.svg()")
        _check(state.clone().svg() == picture, "equal states drew different pictures")
        for p in _seats(state):
            obs = state.observation(p)
            seen = obs.svg()
            _check_picture(seen, f"observation({p}).svg()")
            world = game.resample(obs, rng)
            _check(world.observation(p).svg() == seen, f"a resampled world changed {p}'s picture")


def pickle_round_trips(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """States, games and observations pickle; an unpickled state undoes like the original."""
    state = walk(game, picks, steps)[-1]
    copy = pickle.loads(pickle.dumps(state))
    _check(copy == state and copy.history() == state.history(), "state pickle round trip")
    _check(pickle.loads(pickle.dumps(game)) == game, "game pickle round trip")
    for p in _seats(state):
        obs = state.observation(p)
        _check(pickle.loads(pickle.dumps(obs)) == obs, "observation pickle round trip")
    if copy.history():
        copy.undo_action()
        state.undo_action()
        _check(copy == state, "an unpickled state undoes differently")


def masks_mark_the_legal_actions(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """A state's mask is 1 exactly at its legal ids (chance outcomes at a chance node, none at
    the end); an observation's mask is its legal actions when its player is to move, else 0."""
    n = game.num_distinct_actions
    for state in walk(game, picks, steps):
        mask = state.legal_actions_mask()
        _check(len(mask) == n and set(mask) <= {0, 1}, "state mask: not 0/1 over every id")
        _check([i for i, bit in enumerate(mask) if bit] == state.legal_actions(), "state mask")
        for p in _seats(state):
            obs = state.observation(p)
            bits = [i for i, bit in enumerate(obs.legal_actions_mask()) if bit]
            expected = state.legal_actions() if p == state.current_player() else []
            _check(bits == expected, f"observation mask of {p}")


def tensors_encode_the_observation(game: AnyGame, picks: list[int], seed: int, steps: int) -> None:
    """Every observation's tensor has the game's fixed shape and finite float values, depends on
    the observation alone (a resampled world gives its player the same tensor), and tells apart
    two positions of a player whose legal actions differ; its sparse form holds the same values
    (every index in range, every one missing 0)."""
    layout = game.observation_tensor_layout()
    _check(game.observation_tensor_shape() == (layout.size,), "tensor shape is not (size,)")
    rng = random.Random(seed)
    drawn = walk(game, picks, steps)
    for index, state in enumerate(drawn):
        for p in _seats(state):
            obs = state.observation(p)
            values = obs.tensor()
            _check(len(values) == layout.size, f"tensor of {p} has {len(values)} values")
            _check(all(type(v) is float and math.isfinite(v) for v in values), "tensor values")
            sparse = obs.sparse_tensor()
            _check(
                all(type(i) is int and 0 <= i < layout.size for i in sparse)
                and all(values[i] == sparse.get(i, 0.0) for i in range(layout.size)),
                f"sparse tensor of {p} differs from its tensor",
            )
            if index % 8 == 0 or index == len(drawn) - 1:
                world = game.resample(obs, rng)
                _check(world.observation(p).tensor() == values, f"resampled tensor of {p}")
    # Two positions with equal tensors and other legal actions are rarely on one walk, so the
    # drawn walk's tensors are pooled with two more walks' from the seed.
    seen: dict[tuple[int, bytes], list[Any]] = {}
    for state in drawn + [
        state
        for _ in range(2)
        for state in walk(game, [rng.randrange(2**20) for _ in range(steps)], steps)
    ]:
        player = state.current_player()
        if player < 0:
            continue
        obs = state.observation(player)
        key = (player, struct.pack(f"{layout.size}d", *obs.tensor()))
        legal = seen.setdefault(key, obs.legal_actions())
        _check(legal == obs.legal_actions(), f"equal tensors of {player}, other legal actions")


#: Every property :func:`check_game` checks over random walks, by name.
PROPERTIES: dict[str, Callable[[AnyGame, list[int], int, int], None]] = {
    prop.__name__: prop
    for prop in (
        legal_actions_and_chance,
        illegal_actions_change_nothing,
        apply_undo_restores_everything,
        clones_are_independent,
        fields_are_copied_and_compared,
        state_changes_with_each_action,
        json_round_trips,
        bad_json_raises_invalid_state,
        resample_is_consistent,
        refusals_depend_only_on_what_the_mover_knows,
        history_in_words_depends_only_on_the_observation,
        resampler_draws_independent_states,
        evaluate_is_the_returns_at_the_end,
        rollout_actions_are_legal_and_seeded,
        seeded_play_is_deterministic,
        notation_round_trips,
        pickle_round_trips,
        pictures_are_valid_and_never_leak,
        masks_mark_the_legal_actions,
        tensors_encode_the_observation,
    )
}


def _whole_game_checks(game: AnyGame, max_steps: int) -> None:
    """The checks that need no walk: the table, bad observers, resampling varies hidden parts."""
    _check(game.num_distinct_actions == len(game.actions()), "num_distinct_actions")
    for index, action in enumerate(game.actions()):
        _check(int(action) == index and game.action(index) is action, f"table entry {index}")
        _check(game.action_table.parse(str(action)) is action, f"{str(action)!r} parses back")
        _check(game.action_table.parse(str(action).upper()) is action, "upper-case parse")
    state = game.new_initial_state()
    for bad in (-1, game.num_players, "0", 1.5, True):
        _raises(ValueError, f"observation({bad!r})", state.observation, bad)
    # Over a random game, resampling observations with hidden parts gives other states than the
    # true one (an observation that pinned the hidden parts down would leak them).
    rng = random.Random(7)
    hidden = varied = 0
    for _ in range(max_steps):
        if state.is_terminal():
            break
        for p in _seats(state):
            obs = state.observation(p)
            if any("?" in text for text in obs.history):
                hidden += 1
                samples = {tuple(game.resample(obs, rng).history()) for _ in range(5)}
                varied += len(samples) > 1 or samples != {tuple(state.history())}
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    if hidden:
        _check(varied >= hidden * 0.5, f"resampling varied the hidden parts {varied}/{hidden}")
    else:
        for p in _seats(state):
            _check(game.resample(state.observation(p), rng) == state, "perfect-info resample")


def check_game(
    game: AnyGame,
    *,
    examples: int | None = None,
    max_steps: int = 200,
    properties: Iterable[str] | None = None,
) -> None:
    """Check ``game`` against the contract; raise :class:`ConformanceError` at the first
    property it breaks (hypothesis reports the shrunk walk that breaks it).

    Args:
        game: the game, with the options to check (call once per option set).
        examples: random walks per property; ``None`` takes the current hypothesis profile's
            ``max_examples`` (100 unless a profile says otherwise).
        max_steps: the longest walk, in actions; a long game needs a cap for speed, but deep
            enough to reach every phase.
        properties: the names of the properties to check (keys of :data:`PROPERTIES`, plus
            ``"whole_game"`` for the checks that need no walk); all by default.

    >>> import tikigames, tikigames.testing
    >>> tikigames.testing.check_game(
    ...     tikigames.load("tiki_topple"), examples=2, max_steps=30,
    ...     properties=["json_round_trips", "whole_game"])

    Raises:
        ConformanceError: the game breaks a property (the message names it).
        KeyError: an unknown property name.
    """
    names = [*PROPERTIES, "whole_game"] if properties is None else list(properties)
    for name in names:
        if name != "whole_game" and name not in PROPERTIES:
            raise KeyError(f"no conformance property {name!r}; see tikigames.testing.PROPERTIES")
    overrides: dict[str, Any] = {
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    }
    if examples is not None:
        overrides["max_examples"] = examples
    for name in names:
        if name == "whole_game":
            _whole_game_checks(game, max_steps)
        else:
            _run_property(game, name, max_steps, settings(**overrides))


def _run_property(game: AnyGame, name: str, max_steps: int, profile: settings) -> None:
    prop = PROPERTIES[name]

    @profile
    @given(
        picks=st.lists(st.integers(0, 2**20), max_size=max_steps),
        seed=st.integers(0, 2**32),
    )
    def run(picks: list[int], seed: int) -> None:
        try:
            prop(game, picks, seed, max_steps)
        except ConformanceError as error:
            raise ConformanceError(f"{game!r}: {name}: {error}") from None

    run()

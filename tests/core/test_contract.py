"""The library-wide contract: errors, options, loading, JSON from hostile input, play."""

from __future__ import annotations

import json
import numbers
import pickle
import random

import pytest

import tikigames
from tikigames import (
    ActionError,
    IllegalActionError,
    InvalidStateError,
    OptionError,
    TikiGamesError,
    UndoError,
)
from tikigames.bots import Bot, RandomBot


def test_error_hierarchy() -> None:
    for error in (OptionError, ActionError, IllegalActionError, InvalidStateError):
        assert issubclass(error, TikiGamesError) and issubclass(error, ValueError)
    assert issubclass(IllegalActionError, ActionError)
    assert issubclass(UndoError, TikiGamesError) and issubclass(UndoError, IndexError)


@pytest.mark.parametrize("name", sorted(tikigames.GAMES))
def test_each_initial_state_is_the_callers_own(name: str) -> None:
    # new_initial_state clones one kept state: playing on one must change no later one.
    game = tikigames.load(name)
    first = game.new_initial_state()
    fresh = type(first)(game)  # built by the constructor, not cloned
    rng = random.Random(3)
    for _ in range(30):
        if first.is_terminal():
            break
        first.apply_action(first.random_action(rng))
    second = game.new_initial_state()
    assert second is not first and second == fresh and not second.history()
    assert second.legal_actions() == fresh.legal_actions()
    assert second.to_json() == fresh.to_json() and str(second) == str(fresh)


def test_games_and_constants() -> None:
    assert "tiki_topple" in tikigames.GAMES
    assert list(tikigames.GAMES) == sorted(tikigames.GAMES)
    assert tikigames.CHANCE == -1 and tikigames.TERMINAL == -4
    for name in tikigames.GAMES:
        game = tikigames.load(name)
        assert game.name == name
        assert isinstance(game.options, dict) and game.options == tikigames.load(name).options
        assert game == tikigames.load(name, **game.options)
        assert hash(game) == hash(tikigames.load(name))
        assert eval(repr(game), {"tikigames": tikigames}) == game


def test_load_rejects_bad_names() -> None:
    for bad in ("chess", "TIKI_TOPPLE", "", None, 3):
        with pytest.raises(OptionError):
            tikigames.load(bad)  # type: ignore[arg-type]


def test_actions_are_ints_that_print_as_notation() -> None:
    game = tikigames.load("tiki_topple")
    action = game.action(9)
    assert action == 9 and isinstance(action, int) and str(action) == "up2 nani"
    assert repr(action) == "TikiToppleAction(9, 'up2 nani')"
    assert pickle.loads(pickle.dumps(action)) == action
    assert str(pickle.loads(pickle.dumps(action))) == "up2 nani"
    for bad in (-1, 1360, "9", 9.0, True):
        with pytest.raises(ActionError):
            game.action(bad)  # type: ignore[arg-type]


def test_state_from_json_hostile_inputs_never_raise_anything_else() -> None:
    good = tikigames.load("tiki_topple").new_initial_state().to_json()
    hostile = [
        {**good, "history": [[]]},
        {**good, "history": [None]},
        {**good, "options": {"players": "2"}},
        {**good, "options": {"players": 2.0}},
        {**good, "options": {"players": True}},
        {**good, "options": {"players": 10**100}},
        {**good, "options": None},
        {**good, "game": ["tiki_topple"]},
        {**good, "game": "x" * 1_000_000},
        {**good, "format": None},
        {1: 2},
        {"format": "tikigames/1"},
        {**good, "history": ["line " + "nani," * 100_000]},
        {**good, "history": ["toast"] * 100_001},
        {**good, "history": good["history"] + ["toast"]},
    ]
    for data in hostile:
        with pytest.raises(InvalidStateError) as raised:
            tikigames.state_from_json(data)
        assert len(str(raised.value)) < 400


def test_json_error_names_the_index_of_the_bad_action() -> None:
    rng = random.Random(0)
    state = tikigames.load("tiki_topple").new_initial_state()
    for _ in range(10):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    data = state.to_json()
    data["history"][6] = "line nani,wikiwiki,huhu,lokahi,akamai,nui,hookipa,kapu,eepo"
    with pytest.raises(InvalidStateError, match=r"history\[6\]"):
        tikigames.state_from_json(data)
    data["history"][6] = "not notation"
    with pytest.raises(InvalidStateError, match=r"history\[6\]"):
        tikigames.state_from_json(data)


def test_json_options_must_match_the_game() -> None:
    data = tikigames.load("tiki_topple", players=3).new_initial_state().to_json()
    with pytest.raises(InvalidStateError, match="options"):
        tikigames.load("tiki_topple").state_from_json(data)
    del data["options"]  # missing options take their defaults
    assert tikigames.load("tiki_topple").state_from_json(data).game.num_players == 2
    data["position"] = "anything: ignored"
    assert tikigames.state_from_json(json.loads(json.dumps(data))).history() == []


def test_play_is_reproducible_and_checks_bots() -> None:
    game = tikigames.load("tiki_topple", players=3)
    bots = [RandomBot(), RandomBot(), RandomBot()]
    assert all(isinstance(bot, Bot) for bot in bots)
    a = tikigames.play(game, bots, seed=5)
    b = tikigames.play(game, bots, seed=5)
    assert a.is_terminal() and a.history() == b.history()
    c = tikigames.play(game, bots, seed=6)
    assert c.history() != a.history()
    short = tikigames.play(game, bots, seed=5, max_actions=10)
    assert short.history() == a.history()[:10]
    with pytest.raises(ValueError):
        tikigames.play(game, bots[:2])

    class Cheater:
        def act(self, obs: tikigames.Observation, rng: random.Random) -> tikigames.Action:
            toast: tikigames.Action = obs.game.action(36)  # illegal on a first turn
            return toast

    with pytest.raises(IllegalActionError):
        tikigames.play(game, [Cheater(), Cheater(), Cheater()], seed=1)


def test_bots_receive_observations_only() -> None:
    seen: list[object] = []

    class Spy:
        def act(self, obs: tikigames.Observation, rng: random.Random) -> tikigames.Action:
            seen.append(obs)
            return obs.legal_actions()[0]

    tikigames.play(tikigames.load("tiki_topple"), [Spy(), Spy()], seed=2)
    assert seen and all(type(o).__name__.endswith("Observation") for o in seen)
    assert not any(isinstance(o, tikigames.State) for o in seen)


class _IndexOnly:
    """Has ``__index__`` but is no integer (as a numpy array of one element)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class _Id(_IndexOnly):
    """An integer-like id, registered as an integer as numpy's integers are."""


numbers.Integral.register(_Id)


def test_integer_types_other_than_int_are_accepted_by_value() -> None:
    state = tikigames.load("tiki_topple").new_initial_state()
    first = state.legal_actions()[0]
    state.apply_action(_Id(int(first)))
    assert state.history() == [first]
    with pytest.raises(ActionError):
        state.apply_action(_Id(10**6))
    state.undo_action()
    with pytest.raises(ActionError, match="_IndexOnly"):
        state.apply_action(_IndexOnly(int(first)))
    assert state.history() == []


def test_unpickled_states_and_actions_work_with_the_original_tables() -> None:
    game = tikigames.load("tiki_topple")
    state = tikigames.play(game, [RandomBot(), RandomBot()], seed=3, max_actions=20)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state
    copy.apply_action(copy.legal_actions()[0])  # the copy uses the game's own table
    copy.apply_action(copy.parse_action(str(copy.legal_actions()[-1])))
    # An action pickled on its own (as a bot in a worker process returns it) is accepted.
    action = pickle.loads(pickle.dumps(state.legal_actions()[0]))
    assert action is not state.legal_actions()[0]
    state.apply_action(action)
    obs = pickle.loads(pickle.dumps(state.observation(state.current_player())))
    state.apply_action(obs.legal_actions()[0])


@pytest.mark.parametrize("name", sorted(tikigames.GAMES))
def test_undo_restores_legal_lists_near_and_regenerates_them_far(name: str) -> None:
    # The legal lists of the latest 16 positions are kept for an undo (the same list objects:
    # nothing generated again); further back the list is generated when asked for, and equals
    # the one of a fresh replay either way.
    game = tikigames.load(name)
    state = game.new_initial_state()
    rng = random.Random(5)
    seen: list[list[object]] = []
    while len(seen) < 60 and not state.is_terminal():
        seen.append(state.legal_actions())
        state.apply_action(state.random_action(rng))
    # White-box, for the bound itself: only the latest 16 positions hold a list.
    held = [legal for legal in state._legal_stack if legal is not None]
    assert len(held) == min(16, len(seen))
    for depth, expected in enumerate(reversed(seen)):
        state.undo_action()
        assert (state._legal is not None) == (depth < 16)
        assert state.legal_actions() == expected
    assert state == game.new_initial_state()


@pytest.mark.parametrize("name", sorted(tikigames.GAMES))
def test_seen_history_follows_apply_undo_and_clones(name: str) -> None:
    # seen_history keeps each seat's view and extends it: after any mix of applies, undos and
    # clones it must equal the view rebuilt from scratch (a fresh replay of the history).
    game = tikigames.load(name)
    state = game.new_initial_state()
    rng = random.Random(11)
    seats = [*range(game.num_players), None]
    for step in range(120):
        if state.is_terminal() or (state.history() and rng.random() < 0.25):
            state.undo_action()
        else:
            state.apply_action(state.random_action(rng))
        if step % 7 == 3:
            state = state.clone()
        replay = game.new_initial_state()
        for action in state.history():
            replay.apply_action(action)
        for seat in rng.sample(seats, 2):
            assert state.seen_history(seat) == replay.seen_history(seat)
            assert state.observation(seat) == replay.observation(seat)

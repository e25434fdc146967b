"""The OpenSpiel adapter: every game loads in pyspiel with its options as parameters, passes
OpenSpiel's own random simulation test, is played to the end by OpenSpiel's Python search bots,
and keeps the library's ids, returns and information sets.

Skipped where open_spiel is not installed (the ``[openspiel]`` extra).
"""

from __future__ import annotations

import copy
import importlib.util
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import tikigames  # noqa: E402
from tikigames import OptionError  # noqa: E402
from tikigames.adapters import openspiel as adapter  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path) -> ModuleType:
    """A module from a file that is not part of an importable package (once per process)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


CONFIGS: dict[str, list[dict[str, Any]]] = _load(
    "_openspiel_conformance_configs", ROOT / "tests" / "conformance" / "configs.py"
).CONFIGS
kuhn = _load("kuhn_poker", ROOT / "examples" / "kuhn_poker.py")  # registers kuhn_poker
KUHN = adapter.register("kuhn_poker", lambda game: adapter.Bounds(3, 2, -2.0, 2.0))

#: Options that set no bound on a game's length: OpenSpiel refuses them.
UNBOUNDED = [
    ("tiki_topple", {"target_score": 20}),
    ("tactiki", {"max_turns": None}),
    ("tactik", {"max_turns": None}),
    ("paiko", {"max_turns": None}),
]
#: Short games, for the search bots.
SHORT: dict[str, dict[str, Any]] = {
    "tiki_topple": {"rounds": 1, "tiebreak_rounds": 0},
    "tactiki": {"max_turns": 12},
    "tactik": {"players": 2, "max_turns": 12},
    "paiko": {"max_turns": 16},
}


def params_of(options: dict[str, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of tikigames options: ``None`` is the sentinel 0."""
    return {key: 0 if value is None else value for key, value in options.items()}


def bounded(name: str, options: dict[str, Any]) -> bool:
    return options.get("max_turns", 1) is not None and options.get("target_score") is None


BOUNDED = [
    pytest.param(name, options, id=f"{name}-{index}")
    for name in tikigames.GAMES
    for index, options in enumerate(CONFIGS.get(name, [{}]))
    if bounded(name, options)
]
REFUSED = [
    pytest.param(name, options, id=f"{name}-{index}")
    for name in tikigames.GAMES
    for index, options in enumerate(CONFIGS.get(name, [{}]))
    if not bounded(name, options)
]


def random_play(state: Any, rng: random.Random, steps: int | None = None) -> Any:
    """Random actions through the pyspiel API (chance by its probabilities)."""
    count = 0
    while not state.is_terminal() and (steps is None or count < steps):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = [probability for _, probability in outcomes]
            state.apply_action(rng.choices(outcomes, weights)[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        count += 1
    return state


# ---------------------------------------------------------------- loading and parameters


def test_importing_registers_every_game() -> None:
    names = set(pyspiel.registered_names())
    assert {f"tikigames_{name}" for name in tikigames.GAMES} <= names
    assert set(adapter.registered_names()) == {f"tikigames_{n}" for n in tikigames.GAMES} | {KUHN}


def test_import_tikigames_imports_no_adapter() -> None:
    code = (
        "import sys, tikigames; "
        "bad = [m for m in ('pyspiel', 'numpy', 'tikigames.adapters.openspiel') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_every_option_is_a_parameter_with_a_fixed_default() -> None:
    expected = {
        "tiki_topple": {
            "players": 2,
            "rounds": 0,  # sentinel: the default for the number of players
            "first_player": 0,
            "topple_bottom_allowed": True,
            "tiebreak_rounds": 3,
            "target_score": 0,  # sentinel: None
        },
        "tactiki": {"strict_statue": False, "max_turns": 300},
        "tactik": {
            "players": 4,
            "jokers": 2,
            "with_13": False,
            "discard": "any",
            "first_dealer": -1,  # sentinel: the last player
            "seven_captures_passed": True,
            "max_turns": 1000,
        },
        "paiko": {"max_turns": 1000, "move_limit": 3, "draw_exact": False},
    }
    for name, spec in expected.items():
        game = pyspiel.load_game(f"tikigames_{name}")
        assert game.get_type().parameter_specification == spec
        assert game.get_parameters() == spec
        assert game.tikigames_game.options == tikigames.load(name).options


def test_load_with_parameters() -> None:
    game = pyspiel.load_game("tikigames_tactik", {"players": 6, "first_dealer": 2})
    assert game.num_players() == 6
    assert game.tikigames_game.options["first_dealer"] == 2
    assert game.num_distinct_actions() == tikigames.load("tactik", players=6).num_distinct_actions
    four = pyspiel.load_game("tikigames_tiki_topple", {"players": 4})
    assert four.num_players() == 4
    assert (
        four.tikigames_game.options["rounds"]
        == tikigames.load("tiki_topple", players=4).options["rounds"]
    )
    unlimited = pyspiel.load_game("tikigames_paiko", {"move_limit": 0})
    assert unlimited.tikigames_game.options["move_limit"] is None
    assert (
        pyspiel.load_game("tikigames_tactik", {"first_dealer": -1}).tikigames_game.options[
            "first_dealer"
        ]
        == tikigames.load("tactik").options["first_dealer"]
    )


def test_utility_and_types() -> None:
    utility = pyspiel.GameType.Utility
    cases = [
        ("tiki_topple", {}, utility.ZERO_SUM),
        ("tiki_topple", {"players": 3}, utility.GENERAL_SUM),
        ("tiki_topple", {"players": 4}, utility.GENERAL_SUM),
        ("tactik", {"players": 2}, utility.ZERO_SUM),
        ("tactik", {}, utility.ZERO_SUM),
        ("tactik", {"players": 6}, utility.GENERAL_SUM),
        ("tactiki", {}, utility.ZERO_SUM),
        ("paiko", {}, utility.ZERO_SUM),
    ]
    for name, params, expected in cases:
        game = pyspiel.load_game(f"tikigames_{name}", params)
        assert game.get_type().utility == expected, (name, params)
        assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    info = pyspiel.GameType.Information
    assert pyspiel.load_game("tikigames_paiko").get_type().information == info.PERFECT_INFORMATION
    chance = pyspiel.GameType.ChanceMode
    for name, mode in [
        ("tiki_topple", chance.EXPLICIT_STOCHASTIC),
        ("tactik", chance.EXPLICIT_STOCHASTIC),
        ("tactiki", chance.DETERMINISTIC),
        ("paiko", chance.DETERMINISTIC),
    ]:
        game = pyspiel.load_game(f"tikigames_{name}")
        assert game.get_type().chance_mode == mode
        # Chance outcomes are ids of the action table, so their bound is the table's size.
        expected = game.num_distinct_actions() if mode == chance.EXPLICIT_STOCHASTIC else 0
        assert game.max_chance_outcomes() == expected


def test_bad_parameters_give_clear_errors() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("tikigames_tactik", {"colour": 1})
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter players"):
        pyspiel.load_game("tikigames_tactik", {"players": "4"})
    with pytest.raises(OptionError, match="'players' must be one of 2, 4, 6, not 5"):
        pyspiel.load_game("tikigames_tactik", {"players": 5})
    with pytest.raises(OptionError, match="'first_player' must be < players"):
        pyspiel.load_game("tikigames_tiki_topple", {"first_player": 3})
    with pytest.raises(OptionError, match="'discard' must be one of"):
        pyspiel.load_game("tikigames_tactik", {"discard": "never"})


@pytest.mark.parametrize(("name", "options"), UNBOUNDED)
def test_a_game_without_a_length_bound_is_refused(name: str, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match="OpenSpiel needs a finite max_game_length"):
        pyspiel.load_game(f"tikigames_{name}", params_of(options))


@pytest.mark.parametrize(("name", "options"), REFUSED)
def test_conformance_sets_without_a_bound_are_refused(name: str, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match="finite max_game_length"):
        pyspiel.load_game(f"tikigames_{name}", params_of(options))


# ---------------------------------------------------------------- OpenSpiel's own checks


#: random_sim_test reads every player's observation at every step, and an observation holds the
#: whole history, so a long game costs the square of its length: the option sets run with at
#: most this many turns (every other option as given). The full lengths are checked against
#: the bounds below, in tikigames itself.
SIM_MAX_TURNS = 100


@pytest.mark.parametrize(("name", "options"), BOUNDED)
def test_random_sim_test(name: str, options: dict[str, Any]) -> None:
    params = params_of(options)
    if "max_turns" in tikigames.load(name).options:
        params["max_turns"] = min(options.get("max_turns", SIM_MAX_TURNS), SIM_MAX_TURNS)
    game = pyspiel.load_game(f"tikigames_{name}", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_random_sim_test_kuhn_poker_with_serialization() -> None:
    game = pyspiel.load_game(KUHN)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "options"), BOUNDED)
def test_games_stay_within_their_bounds(name: str, options: dict[str, Any]) -> None:
    game = pyspiel.load_game(f"tikigames_{name}", params_of(options))
    native = game.tikigames_game
    rng = random.Random(7)
    for _ in range(3):  # fast random games in tikigames itself
        state = native.new_initial_state()
        moves = chances = 0
        while not state.is_terminal():
            chance = state.is_chance_node()
            state.apply_unchecked(state.random_action(rng))
            chances += chance
            moves += not chance
        assert moves <= game.max_game_length()
        assert chances <= game.max_chance_nodes_in_history()


# ---------------------------------------------------------------- states


def test_returns_ids_and_history_are_the_librarys() -> None:
    rng = random.Random(3)
    for name in tikigames.GAMES:
        game = pyspiel.load_game(f"tikigames_{name}", params_of(SHORT[name]))
        state = random_play(game.new_initial_state(), rng)
        native = tikigames.load(name, **SHORT[name]).new_initial_state()
        for action in state.history():
            native.apply_action(action)
        assert native.is_terminal()
        assert state.returns() == native.returns() == state.tikigames_state.returns()
        assert [int(a) for a in state.tikigames_state.history()] == state.history()
        assert str(state) == str(native)


def test_clone_and_deepcopy_are_independent() -> None:
    game = pyspiel.load_game("tikigames_tactik", {"players": 2})
    state = random_play(game.new_initial_state(), random.Random(1), steps=30)
    before = (state.history(), str(state))
    for copied in (state.clone(), copy.deepcopy(state)):
        assert copied.history() == state.history()
        assert copied.tikigames_state == state.tikigames_state
        assert copied.tikigames_state is not state.tikigames_state
        random_play(copied, random.Random(2), steps=20)
        assert len(copied.history()) == len(before[0]) + 20
        assert (state.history(), str(state)) == before
        assert state.tikigames_state.history() == [
            state.tikigames_state.game.action(a) for a in before[0]
        ]


def test_illegal_actions_are_refused() -> None:
    game = pyspiel.load_game("tikigames_tactiki")
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(tikigames.IllegalActionError):
        state.apply_action(illegal)
    assert state.history() == []


def test_action_strings_are_the_notation() -> None:
    game = pyspiel.load_game("tikigames_tiki_topple")
    state = game.new_initial_state()
    action = state.legal_actions()[0]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, action) == str(
        game.tikigames_game.action(action)
    )


@pytest.mark.parametrize("name", ["tiki_topple", "tactiki", "tactik", "kuhn_poker"])
def test_resample_from_infostate(name: str) -> None:
    options = SHORT.get(name, {})
    game = pyspiel.load_game(f"tikigames_{name}", params_of(options))
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    varied = False
    for steps in (3, 8, 25, 60):
        state = random_play(game.new_initial_state(), rng, steps=steps)
        for player in range(game.num_players()):
            key = state.information_state_string(player)
            worlds = [state.resample_from_infostate(player, sampler) for _ in range(4)]
            for world in worlds:
                assert world.information_state_string(player) == key
                assert len(world.history()) == len(state.history())
                assert world.current_player() == state.current_player()
                if state.current_player() == player:
                    assert world.legal_actions() == state.legal_actions()
                random_play(world, rng)  # each world plays on to the end
                assert world.is_terminal()
            varied |= len({str(world) for world in worlds}) > 1
    assert varied, "resampling never changed the hidden parts"


def test_information_state_string_is_the_observations_json() -> None:
    game = pyspiel.load_game("tikigames_tiki_topple")
    state = random_play(game.new_initial_state(), random.Random(4), steps=6)
    for player in range(2):
        obs = state.tikigames_state.observation(player)
        assert json.loads(state.information_state_string(player)) == obs.to_json()
        assert state.observation_string(player) == str(obs)


# ---------------------------------------------------------------- observers and tensors


def _with_tensor() -> list[str]:
    names = []
    for name in [*tikigames.GAMES, "kuhn_poker"]:
        try:
            tikigames.load(name).observation_tensor_layout()
        except NotImplementedError:
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("name", _with_tensor())
def test_tensors_are_the_observations(name: str) -> None:
    game = pyspiel.load_game(f"tikigames_{name}", params_of(SHORT.get(name, {})))
    layout = game.tikigames_game.observation_tensor_layout()
    assert game.get_type().provides_observation_tensor
    assert game.observation_tensor_shape() == list(layout.shape)
    assert game.information_state_tensor_shape() == list(layout.shape)
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert list(observer.dict) == [plane.name for plane in layout.planes]
    for plane in layout.planes:
        assert observer.dict[plane.name].shape == plane.shape
    rng = random.Random(9)
    state = game.new_initial_state()
    for _ in range(12):
        for player in range(game.num_players()):
            expected = state.tikigames_state.observation(player).tensor()
            assert state.observation_tensor(player) == pytest.approx(expected)
            assert state.information_state_tensor(player) == pytest.approx(expected)
            observer.set_from(state, player)
            assert observer.tensor.tolist() == pytest.approx(expected)
            for plane in layout.planes:
                view = layout.view(expected, plane.name)
                assert observer.dict[plane.name].ravel().tolist() == pytest.approx(view)
        if state.is_terminal():
            break
        random_play(state, rng, steps=1)


def test_spectator_observer_and_unsupported_types() -> None:
    game = pyspiel.load_game("tikigames_tiki_topple")
    state = random_play(game.new_initial_state(), random.Random(2), steps=4)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = make_observation(game, public)
    assert observer.string_from(state, 0) == str(state.tikigames_state.observation(None))
    for bad in (
        pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        ),
        pyspiel.IIGObservationType(public_info=False, perfect_recall=False),
    ):
        with pytest.raises(ValueError, match="tikigames observes"):
            make_observation(game, bad)
    with pytest.raises(ValueError, match="parameters are not supported"):
        game.make_py_observer(None, {"x": 1})


# ---------------------------------------------------------------- OpenSpiel's search bots


def play_with_bots(game: Any, bots: list[Any], rng: random.Random) -> Any:
    """A whole game, each move checked legal before it is applied."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            random_play(state, rng, steps=1)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", ["tiki_topple", "tactiki", "tactik", "kuhn_poker"])
def test_ismcts_plays_whole_games(name: str) -> None:
    game = pyspiel.load_game(f"tikigames_{name}", params_of(SHORT.get(name, {})))
    random_state = np.random.RandomState(1)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    bots = []
    for _ in range(game.num_players()):
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, random_state), 2.0, 4, random_state=random_state
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        bots.append(bot)
    state = play_with_bots(game, bots, random.Random(1))
    assert state.is_terminal()
    assert state.returns() == state.tikigames_state.returns()
    assert len(state.history()) == len(state.tikigames_state.history())


def test_mcts_plays_paiko() -> None:
    game = pyspiel.load_game("tikigames_paiko", params_of(SHORT["paiko"]))
    random_state = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bots = [mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=random_state) for _ in range(2)]
    state = play_with_bots(game, bots, random.Random(2))
    assert state.is_terminal()
    assert state.returns() == state.tikigames_state.returns()


# ---------------------------------------------------------------- registering a later game


def test_register_a_later_game() -> None:
    assert adapter.register("kuhn_poker", lambda game: adapter.Bounds(3, 2)) == KUHN  # idempotent
    game = pyspiel.load_game(KUHN)
    assert (game.min_utility(), game.max_utility(), game.max_game_length()) == (-2.0, 2.0, 3)
    state = game.new_initial_state()
    for action in (4, 2, 1, 1):  # deal K, deal J, bet, call
        state.apply_action(action)
    assert state.returns() == [2.0, -2.0]
    with pytest.raises(OptionError, match="unknown game"):
        adapter.register("no_such_game", lambda game: adapter.Bounds(1, 0))


# ---------------------------------------------------------------- pickling a loaded game

#: The worker a spawned process runs: a module of its own (the tests are no importable package),
#: put on the path the spawned process inherits.
WORKER = '''
import random


def play(game, seed):
    """A random game of ``game`` (a pyspiel game, unpickled here): its history and returns."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
    return str(game), state.history(), state.returns()
'''


def test_a_loaded_game_pickles_into_a_spawned_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing
    import pickle

    game = pyspiel.load_game("tikigames_tiki_topple", {"players": 3, "rounds": 1})
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    (tmp_path / "_tikigames_spawn_worker.py").write_text(WORKER)
    monkeypatch.syspath_prepend(str(tmp_path))
    import _tikigames_spawn_worker as worker  # type: ignore[import-not-found]

    expected = worker.play(game, 5)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(worker.play, (game, 5)) == expected
    assert expected[0] == str(game) and len(expected[1]) > 0


# ----------------------------------------------------------------- OpenSpiel's search as a bot


def _decision(game: tikigames.Game[Any], seed: int) -> tikigames.Observation:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(8):
        state.apply_action(state.random_action(rng))
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.random_action(rng))
    obs: tikigames.Observation = state.observation(state.current_player())
    return obs


@pytest.mark.parametrize("name", tikigames.GAMES)
def test_openspiel_bot_plays_legal_moves(name: str) -> None:
    game = tikigames.load(name)
    obs = _decision(game, 3)
    bot = adapter.OpenSpielBot(simulations=3)
    action = bot.act(obs, random.Random(1))
    assert action in obs.legal_actions() and bot.last_simulations == 3
    if name == "paiko":  # MCTS draws from the rng alone (ISMCTS resamples with pyspiel's own)
        assert adapter.OpenSpielBot(simulations=3).act(obs, random.Random(1)) == action


def test_openspiel_bot_sets_its_simulations_from_its_time() -> None:
    game = tikigames.load("tiki_topple", players=2)
    bot = adapter.OpenSpielBot(seconds=0.5)
    for seed in range(3):
        bot.act(_decision(game, seed), random.Random(seed))
    assert bot.last_simulations > 2  # the first move measured the rate with 2
    forced = _positions_with_one_action(tikigames.load("tactiki"))[0]
    assert bot.act(forced, random.Random(0)) == forced.legal_actions()[0]
    assert bot.last_simulations == 0  # no search, and no rate measured from none


def _positions_with_one_action(game: tikigames.Game[Any]) -> list[tikigames.Observation]:
    """Observations of a player with exactly one legal action, along seeded random games."""
    found: list[tikigames.Observation] = []
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and not found:
            if not state.is_chance_node() and len(state.legal_actions()) == 1:
                found.append(state.observation(state.current_player()))
            state.apply_action(state.random_action(rng))
    return found


@pytest.mark.parametrize(
    "settings",
    [{"simulations": 1}, {"simulations": 2.5}, {"seconds": 0}, {"seconds": True}, {"c": -1}],
)
def test_openspiel_bot_settings_are_checked(settings: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        adapter.OpenSpielBot(**settings)


def test_the_arena_seats_openspiel() -> None:
    from tikigames.cli import main

    out = io.StringIO()
    status = main(
        ["arena", "tiki_topple", "--players", "openspiel,random", "--games", "2", "--seed", "1",
         "-b", "simulations=3", "--json", "-q"],
        stdout=out,
    )  # fmt: skip
    assert status == 0
    assert (
        json.loads(out.getvalue())["settings"]["openspiel"] == "OpenSpielBot(simulations=3, c=2.0)"
    )

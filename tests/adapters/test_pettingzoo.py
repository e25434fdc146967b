"""The PettingZoo adapter (:mod:`tikigames.adapters.pettingzoo`): PettingZoo's own ``api_test``
and ``seed_test`` on every game and option set of the conformance suite (and Kuhn poker, the
example game), and what the adapter promises beyond them: the observation is the player's
tensor and mask, exactly typed; an agent not to move sees an all-0 mask; chance is drawn from
the seeded generator; the rewards are the returns; the render is the acting agent's view;
illegal actions raise (raw) or end the game with -1 (wrapped)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

import tikigames
from tikigames import ActionError, IllegalActionError
from tikigames.adapters import pettingzoo as tpz

TESTS = Path(__file__).resolve().parents[1]
EXAMPLE = TESTS.parent / "examples" / "kuhn_poker.py"


def _load(name: str, path: Path) -> ModuleType:
    """A module that is not in a package, loaded once per process from its path (the example
    game registers ``kuhn_poker``: a second class of that name would be refused)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it, so that its classes pickle
    spec.loader.exec_module(module)
    return module


_load("kuhn_poker", EXAMPLE)
CONFIGS: dict[str, list[dict[str, Any]]] = _load(
    "tikigames_conformance_configs", TESTS / "conformance" / "configs.py"
).CONFIGS

#: Every game and option set of the conformance suite, and Kuhn poker.
CASES = [
    pytest.param(name, options, id=f"{name}-{index}")
    for name in (*tikigames.GAMES, "kuhn_poker")
    for index, options in enumerate(CONFIGS.get(name, [{}]))
]
#: Agent steps of ``api_test``'s and ``seed_test``'s walks (``num_cycles`` × agents): short, as
#: CI runs the suite three times.
CYCLES = 60
#: PettingZoo's advice that does not apply: the observation is a Dict (of the tensor and the
#: mask), as in its classic games, and the mask of an agent not to move is all 0 by design.
ADVICE = (
    "Observation space for each agent probably should be",
    "Observation is not a NumPy array",
    "Action mask numpy array is all zeros",
    "Observation numpy array is all zeros",
)


@pytest.fixture(autouse=True)
def _quiet_advice() -> Iterator[None]:
    with warnings.catch_warnings():
        for text in ADVICE:
            warnings.filterwarnings("ignore", message=text)
        yield


def raw(name: str, options: dict[str, Any], **kwargs: Any) -> tpz.TikiGamesEnv:
    return tpz.TikiGamesEnv(name, **kwargs, **options)


def pick(obs: dict[str, Any], rng: random.Random) -> int:
    """A uniform legal action from the mask."""
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(aec: Any, rng: random.Random, max_steps: int = 10**6) -> Iterator[str]:
    """Step ``aec`` (reset already) with random legal actions, yielding each agent as it acts;
    dead steps included, to the end or ``max_steps`` agent steps."""
    for step, agent in enumerate(aec.agent_iter()):
        if step >= max_steps:
            return
        obs, _, terminated, truncated, _ = aec.last()
        yield agent
        aec.step(None if terminated or truncated else pick(obs, rng))


@pytest.mark.parametrize(("name", "options"), CASES)
def test_pettingzoo_api_test(name: str, options: dict[str, Any]) -> None:
    api_test(tpz.env(name, **options), num_cycles=CYCLES)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_pettingzoo_seed_test(name: str, options: dict[str, Any]) -> None:
    seed_test(lambda: tpz.env(name, **options), num_cycles=CYCLES)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_observations_are_the_tensor_and_the_mask(name: str, options: dict[str, Any]) -> None:
    aec = raw(name, options)
    game = aec.game
    aec.reset(seed=11)
    rng = random.Random(5)
    shape, actions = game.observation_tensor_shape(), game.num_distinct_actions
    for _ in play(aec, rng, max_steps=120):
        state = aec.game_state
        for seat, agent in enumerate(aec.possible_agents):
            obs = aec.observe(agent)
            tensor, mask = obs["observation"], obs["action_mask"]
            assert tensor.dtype == np.float32 and tensor.shape == shape
            assert mask.dtype == np.int8 and mask.shape == (actions,)
            view = state.observation(seat)
            assert tensor.tolist() == np.asarray(view.tensor(), np.float32).tolist()
            assert mask.tolist() == view.legal_actions_mask()
            assert aec.observation_space(agent).contains(obs), f"{agent} out of bounds"
            if state.is_terminal() or agent != aec.agent_selection:
                assert not mask.any(), f"{agent} is not to move but its mask is not all 0"
            else:
                assert mask.tolist() == state.legal_actions_mask() and mask.any()


@pytest.mark.parametrize(("name", "options"), CASES)
def test_tensors_keep_the_bounds_of_the_space_for_a_whole_game(
    name: str, options: dict[str, Any]
) -> None:
    """The space promises [0, 1]: every seat's tensor at every 5th position of a whole random
    game (checked through the core, the adapter's observation being the same values)."""
    game = tikigames.load(name, **options)
    rng = random.Random(17)
    state = game.new_initial_state()
    positions = 0
    while True:
        if positions % 5 == 0 or state.is_terminal():
            for seat in range(game.num_players):
                tensor = np.asarray(state.observation(seat).tensor(), np.float32)
                assert tensor.min() >= 0.0 and tensor.max() <= 1.0, (seat, positions)
        if state.is_terminal():
            break
        state.apply_unchecked(state.random_action(rng))
        positions += 1


@pytest.mark.parametrize(("name", "options"), CASES)
def test_spaces(name: str, options: dict[str, Any]) -> None:
    aec = tpz.env(name, **options)
    game = aec.unwrapped.game
    assert aec.possible_agents == [f"player_{seat}" for seat in range(game.num_players)]
    for agent in aec.possible_agents:
        space = aec.observation_space(agent)
        assert space is aec.observation_space(agent)
        assert aec.action_space(agent) is aec.action_space(agent)
        assert aec.action_space(agent).n == game.num_distinct_actions
        assert space["observation"].shape == game.observation_tensor_shape()
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].dtype == np.int8
        assert space["action_mask"].shape == (game.num_distinct_actions,)


def test_a_whole_game_pays_the_returns_and_every_agent_takes_its_dead_step() -> None:
    aec = raw("kuhn_poker", {})
    for seed in range(20):
        aec.reset(seed=seed)
        rng = random.Random(seed)
        totals = dict.fromkeys(aec.possible_agents, 0.0)
        dead: list[str] = []
        for agent in aec.agent_iter():
            obs, reward, terminated, truncated, _ = aec.last()
            assert not truncated
            if terminated:
                dead.append(agent)
                totals[agent] = reward
                returns = aec.game_state.returns()
                aec.step(None)
            else:
                assert reward == 0.0
                aec.step(pick(obs, rng))
        assert sorted(dead) == aec.possible_agents and aec.agents == []
        assert list(totals.values()) == returns and sum(returns) == 0 and returns[0] != 0


def test_a_game_capped_by_max_turns_ends_terminated_not_truncated() -> None:
    aec = raw("tactiki", {"max_turns": 2})
    aec.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    while not any(aec.terminations.values()):
        aec.step(pick(aec.observe(aec.agent_selection), rng))
        steps += 1
    assert steps <= 40 and aec.game_state.is_terminal()  # the setup, then two turns
    assert all(aec.terminations.values()) and not any(aec.truncations.values())
    returns = aec.game_state.returns()
    assert [aec.rewards[agent] for agent in aec.possible_agents] == returns == [0.0, 0.0]


def test_chance_is_drawn_from_the_generator_seeded_in_reset() -> None:
    def history(seed: int) -> list[str]:
        aec = raw("kuhn_poker", {})
        aec.reset(seed=seed)
        list(play(aec, random.Random(0)))
        return [str(action) for action in aec.game_state.history()]

    assert history(4) == history(4)
    assert len({tuple(history(seed)) for seed in range(12)}) > 1  # the deals vary with the seed
    # reset without a seed continues the generator: the games go on differing
    aec = raw("kuhn_poker", {})
    aec.reset(seed=1)
    deals = set()
    for _ in range(12):
        deals.add(tuple(map(str, aec.game_state.history())))
        aec.reset()
    assert len(deals) > 1


def test_infos_carry_the_actions_of_the_step_as_each_agent_saw_them() -> None:
    aec = raw("kuhn_poker", {})
    aec.reset(seed=2)
    assert aec.infos == {"player_0": {}, "player_1": {}}
    aec.step(1)  # bet: public
    assert aec.infos == {"player_0": {"actions": ("bet",)}, "player_1": {"actions": ("bet",)}}
    hidden = raw("tiki_topple", {})
    hidden.reset(seed=2)
    before = len(hidden.game_state.history())
    hidden.step(pick(hidden.observe(hidden.agent_selection), random.Random(2)))
    applied = hidden.game_state.history()[before:]
    for seat, agent in enumerate(hidden.possible_agents):
        seen = hidden.infos[agent]["actions"]
        assert len(seen) == len(applied)
        assert seen == hidden.game_state.observation(seat).history[before:]


def test_numpy_integers_are_actions() -> None:
    for kind in (np.int8, np.int32, np.int64, np.uint16):
        aec = raw("kuhn_poker", {})
        aec.reset(seed=0)
        aec.step(kind(1))
        assert [str(a) for a in aec.game_state.history()][2:] == ["bet"]


def test_the_raw_environment_raises_on_a_bad_action_and_changes_nothing() -> None:
    aec = raw("kuhn_poker", {})
    aec.reset(seed=0)
    before = aec.game_state
    for bad, error in ((2, IllegalActionError), (99, ActionError), (1.0, ActionError),
                       (None, ActionError), (True, ActionError)):  # fmt: skip
        with pytest.raises(error):
            aec.step(bad)
        assert aec.game_state == before and aec.agent_selection == "player_0"


def test_the_wrapped_environment_ends_the_game_on_an_illegal_action() -> None:
    aec = tpz.env("kuhn_poker")
    aec.reset(seed=0)
    aec.step(3)  # a deal: in the action space, never legal for a player
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": tpz.ILLEGAL_REWARD, "player_1": 0.0}
    assert aec.last()[1] == tpz.ILLEGAL_REWARD  # player_0 takes its dead step first
    fresh = tpz.env("kuhn_poker")
    with pytest.raises(AssertionError, match="reset"):
        fresh.step(0)
    fresh.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        fresh.step(99)


def test_render_ansi_is_the_acting_agents_view() -> None:
    aec = raw("kuhn_poker", {}, render_mode="ansi")
    aec.reset(seed=5)
    rng = random.Random(5)
    while aec.agents:
        seat = aec.possible_agents.index(aec.agent_selection)
        assert aec.render() == str(aec.game_state.observation(seat))
        terminated = aec.terminations[aec.agent_selection]
        aec.step(None if terminated else pick(aec.observe(aec.agent_selection), rng))
    assert "Showdown" in str(aec.game_state) or "hand over" in str(aec.game_state).lower()


def test_render_human_prints_and_no_mode_warns(capsys: pytest.CaptureFixture[str]) -> None:
    aec = raw("kuhn_poker", {}, render_mode="human")
    aec.reset(seed=5)
    assert "You are player 0" in capsys.readouterr().out
    aec.step(0)
    assert "You are player 1" in capsys.readouterr().out
    quiet = raw("kuhn_poker", {})
    quiet.reset(seed=5)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw("kuhn_poker", {}, render_mode="rgb_array")


def test_reset_accepts_options_and_metadata_names_the_game() -> None:
    aec = tpz.env("tiki_topple", players=3)
    aec.reset(seed=0, options={"anything": 1})
    assert aec.metadata["name"] == "tikigames_tiki_topple"
    assert aec.metadata["is_parallelizable"] is False
    assert "ansi" in aec.metadata["render_modes"]
    assert str(aec.unwrapped) == "tikigames_tiki_topple"


def test_the_options_reach_the_game() -> None:
    with pytest.raises(tikigames.OptionError):
        tpz.env("tiki_topple", players=9)
    with pytest.raises(tikigames.OptionError):
        tpz.env("no_such_game")
    assert tpz.env("tactik", players=6).max_num_agents == 6


def test_import_tikigames_imports_no_framework() -> None:
    code = (
        "import sys, tikigames; "
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'numpy', 'tikigames.adapters.pettingzoo')"
        " if m in sys.modules]; print(bad); sys.exit(bool(bad))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_pickled_or_copied_environment_plays_on_as_the_original() -> None:
    """The episode's decision loop (a generator) does not pickle: a copy starts its own at the
    same decision, drawing nothing, so the rest of the game and its chance are the original's."""
    import copy
    import pickle

    original = raw("tiki_topple", {"players": 3})
    original.reset(seed=8)
    original.step(pick(original.observe(original.agent_selection), random.Random(0)))
    copies = [pickle.loads(pickle.dumps(original)), copy.deepcopy(original)]
    histories = []
    for aec in (original, *copies):
        list(play(aec, random.Random(1)))
        histories.append(aec.game_state.history())
    assert histories[0] == histories[1] == histories[2]

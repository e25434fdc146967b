"""The Gymnasium adapter: Gymnasium's own ``check_env`` on every game and option set, seeding,
the opponents, illegal actions, the masks and the final reward."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import tikigames  # noqa: E402
from tikigames.adapters.gymnasium import TikiGamesEnv, env  # noqa: E402
from tikigames.bots import ISMCTSBot, RandomBot  # noqa: E402
from tikigames.core.action import Action  # noqa: E402
from tikigames.core.observation import Observation  # noqa: E402


def _load_configs() -> Any:
    """The conformance suite's option sets (tests/ is not a package: loaded from its file)."""
    path = Path(__file__).resolve().parent.parent / "conformance" / "configs.py"
    spec = importlib.util.spec_from_file_location("_gymnasium_conformance_configs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = _load_configs().CASES

#: The one warning check_env gives an env made without ``gymnasium.make``: it has no spec, so
#: the checker cannot build it again in each render mode (the test through ``make`` does).
NO_SPEC = "Not able to test alternative render modes"


class Recorder:
    """A RandomBot that notes which seats it was asked to play."""

    def __init__(self) -> None:
        self.seats: list[int | None] = []

    def act(self, obs: Observation[Any], rng: random.Random) -> Action:
        self.seats.append(obs.player)
        return RandomBot().act(obs, rng)


def run_episode(e: TikiGamesEnv, seed: int | None, picker: random.Random) -> list[Any]:
    """Play one episode with legal actions drawn from ``picker``; every step's result."""
    obs, info = e.reset(seed=seed)
    steps: list[Any] = [(obs, info)]
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, truncated, info = e.step(legal[picker.randrange(len(legal))])
        steps.append((obs, reward, done, truncated, info))
    return steps


@pytest.mark.parametrize(("name", "options"), CASES)
def test_check_env_passes_on_every_game(name: str, options: dict[str, Any]) -> None:
    seats = tikigames.load(name, **options).num_players
    for seat, mode in ((0, "ansi"), (seats - 1, None)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env(name, seat=seat, render_mode=mode, **options))
        assert [str(w.message) for w in caught if NO_SPEC not in str(w.message)] == []


@pytest.mark.parametrize(("name", "options"), CASES)
def test_observations_stay_in_the_box_for_a_whole_game(name: str, options: dict[str, Any]) -> None:
    e = env(name, **options)
    steps = run_episode(e, 11, random.Random(11))
    assert all(step[0] in e.observation_space for step in steps)
    assert steps[-1][2] and e.state.is_terminal()


def test_check_env_through_gymnasium_make_checks_every_render_mode() -> None:
    gymnasium.register(
        "tikigames-test/tiki_topple-v0", entry_point=env, kwargs={"name": "tiki_topple"}
    )
    try:
        made = gymnasium.make("tikigames-test/tiki_topple-v0", render_mode="ansi")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(made.unwrapped)
        assert [str(w.message) for w in caught] == []
        made.reset(seed=1)
        assert made.render() == str(made.unwrapped.state.observation(0))
    finally:
        del gymnasium.registry["tikigames-test/tiki_topple-v0"]


def test_a_seed_replays_the_episode_and_reset_draws_the_next() -> None:
    first, second = env("tiki_topple", players=3), env("tiki_topple", players=3)
    for seed in (5, None, None):  # seeded, then the next episodes from the same generator
        a = run_episode(first, seed, random.Random(1))
        b = run_episode(second, seed, random.Random(1))
        assert first.state == second.state
        assert len(a) == len(b)
        for left, right in zip(a, b, strict=True):
            assert np.array_equal(left[0], right[0])
            assert left[1:-1] == right[1:-1]
            assert np.array_equal(left[-1]["action_mask"], right[-1]["action_mask"])
    histories = set()
    for seed in range(6):
        run_episode(first, seed, random.Random(1))
        histories.add(tuple(first.state.history()))
    assert len(histories) == 6


def test_the_agent_may_not_be_first() -> None:
    e = env("tiki_topple", seat=1)
    _, info = e.reset(seed=3)
    assert e.state.current_player() == 1
    assert [int(a) for a in np.flatnonzero(info["action_mask"])] == e.state.legal_actions()
    cards = [a for a in e.state.history() if a < 37]  # the plays (ids 37 on are chance's)
    assert len(cards) == 1  # seat 0, who starts round 1, played before the agent's first turn


def test_one_bot_plays_every_other_seat_a_list_one_each_in_seat_order() -> None:
    bot = Recorder()
    e = env("tiki_topple", opponents=bot, seat=1, players=3)
    assert e.opponents == {0: bot, 2: bot}
    run_episode(e, 0, random.Random(0))
    assert set(bot.seats) == {0, 2}

    left, right = Recorder(), Recorder()
    e = env("tiki_topple", opponents=[left, right], seat=1, players=3)
    assert e.opponents == {0: left, 2: right}
    run_episode(e, 0, random.Random(0))
    assert set(left.seats) == {0} and set(right.seats) == {2}

    e = env("tiki_topple", players=3)
    assert [type(b) for b in e.opponents.values()] == [RandomBot, RandomBot]
    assert sorted(e.opponents) == [1, 2]


def test_any_bot_can_be_the_opponent() -> None:
    e = env("tiki_topple", opponents=ISMCTSBot(iterations=20))
    steps = run_episode(e, 2, random.Random(2))
    assert steps[-1][2] and e.state.is_terminal()


def test_bad_opponents_and_seats_are_refused() -> None:
    with pytest.raises(ValueError, match=r"one bot per other seat \(2: seats \[1, 2\]\), not 1"):
        env("tiki_topple", opponents=[RandomBot()], players=3)
    with pytest.raises(ValueError, match="one bot per other seat"):
        env("tiki_topple", opponents=[RandomBot(), RandomBot()])
    with pytest.raises(TypeError, match="must be a bot"):
        env("tiki_topple", opponents=["random"])  # type: ignore[list-item]
    for seat in (-1, 2, True, 0.0):
        with pytest.raises(ValueError, match=r"seat must be an int in range\(2\)"):
            env("tiki_topple", seat=seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="render_mode"):
        env("tiki_topple", render_mode="rgb_array")
    with pytest.raises(tikigames.OptionError):
        env("tiki_topple", players=7)


def test_an_illegal_action_ends_the_episode_with_the_lowest_reward() -> None:
    e = env("tiki_topple")
    for action in (np.int64(36), 36, 1360, -1, 2.5):  # toast on the first turn: not allowed
        _, info = e.reset(seed=4)
        history = e.state.history()
        assert not info["action_mask"][36]
        _, reward, terminated, truncated, info = e.step(action)  # type: ignore[arg-type]
        assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
        assert not info["action_mask"].any() and not e.action_masks().any()
        assert e.state.history() == history  # the game is where it was
        with pytest.raises(RuntimeError, match="reset"):
            e.step(0)
    penalised = TikiGamesEnv(tikigames.load("tiki_topple"), illegal_action_reward=-5.0)
    penalised.reset(seed=4)
    assert penalised.step(36)[1] == -5.0


def test_masks_are_the_legal_actions_and_the_reward_is_the_final_return() -> None:
    cases: list[tuple[int, dict[str, Any]]] = [
        (0, {}),
        (2, {"players": 4}),
        (1, {"players": 2, "rounds": 1}),
    ]
    for seat, options in cases:
        e = env("tiki_topple", seat=seat, **options)
        for episode in range(3):
            obs, info = e.reset(seed=episode)
            done = False
            while not done:
                state = e.state
                legal = state.legal_actions()
                assert state.current_player() == seat
                assert [int(a) for a in np.flatnonzero(info["action_mask"])] == legal
                assert info["action_mask"].dtype == np.int8
                assert np.array_equal(e.action_masks(), info["action_mask"].astype(bool))
                assert np.array_equal(obs, np.array(state.observation(seat).tensor(), "float32"))
                obs, reward, done, truncated, info = e.step(random.Random(episode).choice(legal))
                assert not truncated
                if not done:
                    assert reward == 0.0 and "returns" not in info
            assert e.state.is_terminal()
            assert reward == e.state.returns()[seat] and info["returns"] == tuple(e.state.returns())
            assert not info["action_mask"].any()


def test_a_turn_cap_ends_the_game_as_terminal_never_truncated() -> None:
    e = env("tactiki", max_turns=4)
    steps = run_episode(e, 0, random.Random(0))
    assert [s[3] for s in steps[1:]] == [False] * (len(steps) - 1)
    assert steps[-1][2] and e.state.is_terminal()
    assert steps[-1][1] == e.state.returns()[0]


def test_render_modes_and_the_calls_out_of_order() -> None:
    e = env("tiki_topple", render_mode="ansi")
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.render()
    e.reset(seed=0)
    text = e.render()
    assert text == str(e.state.observation(0)) and "you are player 0" in text
    assert env("tiki_topple").render() is None
    with pytest.raises(ValueError, match="no reset options"):
        e.reset(options={"seat": 1})


def test_human_mode_prints_the_agent_view(capsys: pytest.CaptureFixture[str]) -> None:
    e = env("tiki_topple", render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    assert capsys.readouterr().out == str(e.state.observation(0)) + "\n"


def test_import_tikigames_does_not_import_the_adapter() -> None:
    code = "import sys, tikigames; print(sorted(m for m in sys.modules if 'gymnasium' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_pickled_or_copied_env_plays_on_as_the_original() -> None:
    """The episode's decision loop (a generator) does not pickle: a copy starts its own at the
    agent's turn, drawing nothing, so it plays the rest of the episode exactly as the original."""
    import copy
    import pickle

    original = env("tiki_topple", opponents=ISMCTSBot(iterations=10), players=3)
    _, info = original.reset(seed=6)
    for _ in range(2):
        _, _, _, _, info = original.step(np.flatnonzero(info["action_mask"])[0])
    copies = [pickle.loads(pickle.dumps(original)), copy.deepcopy(original)]
    ends = [(run_episode_from(e, info, random.Random(3)), e.state.history()) for e in copies]
    assert (
        ends == [(run_episode_from(original, info, random.Random(3)), original.state.history())] * 2
    )


def run_episode_from(e: TikiGamesEnv, info: dict[str, Any], picker: random.Random) -> list[Any]:
    """The rest of an episode under way (``info`` of its last step), as :func:`run_episode`."""
    steps: list[Any] = []
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, truncated, info = e.step(legal[picker.randrange(len(legal))])
        steps.append((obs.tolist(), reward, done, truncated, info["action_mask"].tolist()))
    return steps

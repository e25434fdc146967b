"""Whole Tac-Tik games: 6 players, 2 players and 4 players in ``"stuck"`` mode, played to a win by
a greedy player, and what a finished game must satisfy (winners home, returns, JSON, undo)."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

import tikigames
from tikigames.core.play import sample_chance
from tikigames.tactik import TacTikState


def progress(state: TacTikState, colour: int) -> int:
    """How far ``colour``'s pawns have come: squares travelled, home pawns counting most."""
    track = state.game.rules.track
    total = 0
    for name in state.pawns(colour):
        if name.startswith("h"):
            total += 2 * track + int(name[-1])
        elif not name.endswith("!"):
            total += 1 + (int(name[1:]) - 16 * colour) % track
        else:
            total += 1
    return total


def greedy(state: TacTikState, rng: random.Random) -> Any:
    """The action that leaves the mover's team furthest ahead of the others (ties at random)."""
    rules = state.game.rules
    mine = set(rules.team_colours[state.current_player()])
    best: list[Any] = []
    top = None
    for action in state.legal_actions():
        state.apply_action(action)
        score = sum(progress(state, c) * (1 if c in mine else -1) for c in range(rules.colours))
        state.undo_action()
        if top is None or score > top:
            top, best = score, [action]
        elif score == top:
            best.append(action)
    return rng.choice(best)


def play_out(options: dict[str, Any], seed: int) -> TacTikState:
    game = tikigames.load("tactik", **options)
    rng = random.Random(seed)
    state: TacTikState = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else greedy(state, rng)
        )
    return state


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 6}, 0),
        ({"players": 2}, 1),
        ({"players": 2, "discard": "stuck", "jokers": 0}, 2),
        ({"discard": "stuck", "with_13": True, "jokers": 4}, 3),
    ],
)
def test_complete_games_end_with_a_team_home(options: dict[str, Any], seed: int) -> None:
    state = play_out({**options, "max_turns": None}, seed)
    game = state.game
    rules = game.rules
    winners = state.winners()
    assert winners and state.legal_actions() == [] and state.observation(0).phase == "over"
    for player in winners:
        for colour in rules.team_colours[player]:
            assert state.pawns(colour) == [f"h{colour}.{k}" for k in range(1, 5)]
    assert sorted(winners) == list(rules.team_players[winners[0]])
    assert state.returns() == [1.0 if p in winners else -1.0 for p in range(game.num_players)]
    assert all(state.observation(p).winners == winners for p in range(game.num_players))
    # The whole game reloads from its JSON, and undoes back to the start.
    loaded = tikigames.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded == state and loaded.returns() == state.returns()
    while loaded.history():
        loaded.undo_action()
    assert loaded == game.new_initial_state()
    # A win on the last allowed turn stands; one turn fewer is a draw.
    history = [str(action) for action in state.history()]
    for limit, expected in ((state.turns(), state.returns()), (state.turns() - 1, None)):
        limited = tikigames.load("tactik", **{**options, "max_turns": limit})
        replay = limited.new_initial_state()
        for text in history:
            if replay.is_terminal():
                break
            replay.apply_action(replay.parse_action(text))
        assert replay.is_terminal() and replay.turns() == limit
        assert replay.returns() == (expected or [0.0] * game.num_players)


def test_random_play_never_gets_stuck() -> None:
    """Random players, every option set: a player to move always has an action."""
    for options in ({}, {"players": 6, "discard": "stuck"}, {"players": 2, "discard": "stuck"}):
        game = tikigames.load("tactik", **options, max_turns=300)
        rng = random.Random(9)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                assert legal
                state.apply_action(
                    sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
                )
            assert state.turns() == 300 or state.winners()


def test_evaluate_guesses_from_the_race(table: Any) -> None:
    """The guess is the teams' progress in laps against each other, through tanh(·/2): zero at
    the start, one started pawn worth 1/68 of a lap, a pawn in home square k worth 64 + k."""
    t = table()
    assert t.state.evaluate() == [0.0] * 4
    t.deal("1 10 2 5", "3 3 3 2", "6 6 6 2", "9 9 9 2")
    t.give("5", "2", "2", "2")
    t.play("1:start@0")
    lead = math.tanh(1 / 68 / 2)
    assert t.state.evaluate() == pytest.approx([lead, -lead, lead, -lead])
    t.discard(0)
    t.play("10:t0")  # green's pawn: 1 + 10 squares from its start
    lead = math.tanh(11 / 68 / 2)
    assert t.state.evaluate() == pytest.approx([lead, -lead, lead, -lead])
    undone = t.state.undo_action()
    assert t.state.evaluate() == pytest.approx([math.tanh(1 / 136), -math.tanh(1 / 136)] * 2)
    t.state.apply_action(undone)


def test_evaluate_in_the_six_player_game_weighs_each_team_against_the_others_mean() -> None:
    game = tikigames.load("tactik", players=6)
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.current_player() == tikigames.CHANCE or not any(state.pawns(c) for c in range(6)):
        legal = state.legal_actions()
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            starts = [a for a in legal if "start" in str(a)]
            state.apply_action(starts[0] if starts else legal[0])
    guess = state.evaluate()
    teams = game.rules.team_players
    assert all(guess[p] == guess[q] for p, q in teams)
    mover = next(c for c in range(6) if state.pawns(c))
    ahead = [p for p in range(6) if mover in game.rules.team_colours[p]]
    assert all(guess[p] > 0 for p in ahead)
    assert all(guess[p] < 0 for p in range(6) if p not in ahead)

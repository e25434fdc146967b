"""What each player knows (the rules' last section) and the observation that holds it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import tikigames
from tikigames import InvalidStateError

TIKI, TAC = 0, 1


def at(square: str) -> int:
    return "abcde".index(square[0]) + 5 * (int(square[1]) - 1)


def test_own_ranks_always_and_opponent_ranks_only_once_revealed(start: Any, play: Any) -> None:
    state = start({"b1": (1, 4), "b5": (1, 3)})
    tiki, tac, spectator = (state.observation(p) for p in (TIKI, TAC, None))
    assert tiki.board[at("b1")] == ((TIKI, 1, False), (TIKI, 4, False))
    assert tac.board[at("b1")] == ((TIKI, None, False), (TIKI, None, False))
    assert spectator.board[at("b1")] == ((TIKI, None, False), (TIKI, None, False))
    assert tiki.board[at("b5")] == ((TAC, None, False), (TAC, None, False))
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4")  # TIKI's 4 beats TAC's 3
    for player in (TIKI, TAC, None):
        obs = state.observation(player)
        assert obs.board[at("b4")] == ((TIKI, 4, True),)
        assert obs.pools[TAC] == (3,) and obs.pool_sizes == (0, 1)
        assert obs.battles == ((24, (4, 3)),)
    # The revealed piece stays known while it moves about.
    play(state, "b4-c4")
    assert state.observation(TAC).board[at("c4")] == ((TIKI, 4, True),)
    # The move notation does not carry the reveal; the battles field does.
    assert state.observation(TAC).history[24] == "b3-b4"


def test_nothing_hidden_leaks_into_the_text(start: Any) -> None:
    state = start()
    for player in (TAC, None):
        text = str(state.observation(player))
        assert "X?" in text and not re.search(r"X\d", text)
        assert state.observation(player).history[:10] == tuple(
            "?@" + str(a).split("@")[1] for a in state.history()[:10]
        )
    assert not re.search(r"O\d", str(state.observation(TIKI)))
    assert "X1" in str(state.observation(TIKI)) and "O1" in str(state.observation(TAC))


def test_players_who_cannot_tell_states_apart_get_equal_observations(
    start: Any, setup: Any, play: Any
) -> None:
    one = start({"a1": (1, 2), "b1": (3, 4)})
    other = start({"a1": (2, 1), "b1": (4, 3)})
    assert one != other
    for player in (TAC, None):
        a, b = one.observation(player), other.observation(player)
        assert a == b and hash(a) == hash(b) and a.to_json() == b.to_json() and str(a) == str(b)
    assert one.observation(TIKI) != other.observation(TIKI)


def test_legal_actions_only_for_the_player_to_move(start: Any) -> None:
    state = start()
    assert state.observation(TIKI).legal_actions() == state.legal_actions()
    assert state.observation(TAC).legal_actions() == []
    assert state.observation(None).legal_actions() == []


def test_pools_after_unseen_reincarnations(reincarnations: Any) -> None:
    state = reincarnations(5, 3)
    assert state.defeated(TAC) == [3]
    tiki, tac, spectator = (state.observation(p) for p in (TIKI, TAC, None))
    assert tac.pools[TAC] == (3,)  # one's own pool exactly
    # TIKI saw a 5 and two 3s defeated and two pieces come back: one of those is left.
    assert tiki.pools[TAC] == spectator.pools[TAC] == (3, 3, 5)
    assert tiki.pool_sizes == tac.pool_sizes == (0, 1)
    assert "TAC 1 of 3 3 5" in str(tiki) and "TAC 3" in str(tac)
    assert tiki.history[-1] == "?*e5" and tac.history[-1] == "3*e5"
    assert tiki.board[at("e5")] == ((TAC, None, False),)
    assert tac.board[at("e5")] == ((TAC, 3, False),)


def test_a_revealed_reincarnation_narrows_the_pool(reincarnations: Any, play: Any) -> None:
    state = reincarnations(3, 5)
    assert state.observation(TIKI).pools[TAC] == (3, 3, 5)
    play(state, "a2-a3 a3-a4 | e5-e4")  # TAC's reincarnated 5 ties TIKI's 5 on e4
    tiki = state.observation(TIKI)
    assert tiki.board[at("e4")] == ((TIKI, 5, True), (TAC, 5, True))
    assert tiki.pools[TAC] == (3, 3) and tiki.pool_sizes[TAC] == 1
    assert state.defeated(TAC) == [3]


def test_a_defeated_piece_is_unknown_again_once_reincarnated(start: Any, play: Any) -> None:
    state = start({"b1": (1, 4), "b5": (1, 3)})
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4 b4-c4 | b5-a5 e5-e4 | a1-a2 a2-a3")
    # TAC's 3 was defeated in public view, and b5 is empty.
    assert state.column("b5") == []
    play(state, "3*b5")
    tiki = state.observation(TIKI)
    assert tiki.board[at("b5")] == ((TAC, None, False),)
    assert tiki.pools[TAC] == (3,) and tiki.pool_sizes[TAC] == 0


def test_observation_json_round_trip_and_inconsistent_data(reincarnations: Any) -> None:
    state = reincarnations(5, 3)
    game = state.game
    for player in (TIKI, TAC, None):
        obs = state.observation(player)
        data = json.loads(json.dumps(obs.to_json()))
        assert set(data) >= {"board", "pools", "pool_sizes", "battles", "turns", "winner"}
        assert game.observation_from_json(data) == obs
    data = state.observation(TIKI).to_json()
    battles = data["battles"]
    lying = [
        {**data, "battles": [[battles[0][0], [2, 5]], *battles[1:]]},  # another rank
        {**data, "battles": battles[:-1]},  # a battle left out
        {**data, "battles": [*battles, [3, [4, 4]]]},  # a battle at a placement
        {**data, "battles": [[0, [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1]]]},
        {**data, "battles": [["0", [1, 2]]]},
        {**data, "battles": [[0, [0, 9]]]},
        {**data, "pools": [[], []]},  # TIKI cannot know TAC's pool exactly
        {**data, "pool_sizes": [0, 0]},
        {**data, "turns": 3},
        {**data, "board": [[] for _ in range(25)]},
        {**data, "history": [*data["history"][:-1], "3*e5"]},  # TIKI never saw that rank
    ]
    board = [list(map(list, column)) for column in data["board"]]
    board[at("e5")][0][1] = 3  # claim to know the rank of TAC's reincarnated piece
    lying.append({**data, "board": board})
    for bad in lying:
        with pytest.raises(InvalidStateError):
            game.observation_from_json(bad)


def test_resample_rejects_an_observation_of_another_game(start: Any) -> None:
    import random

    obs = start().observation(TIKI)
    other = tikigames.load("tactiki", strict_statue=True)
    with pytest.raises(InvalidStateError):
        other.resample(obs, random.Random(0))

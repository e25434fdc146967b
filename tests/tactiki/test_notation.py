"""Notation, the action table's stable ids, bad input, JSON and the text renderings."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

import tikigames
from tikigames import ActionError, IllegalActionError, InvalidStateError, UndoError

TIKI, TAC = 0, 1


def action_named(game: Any, text: str) -> Any:
    """The action of ``game``'s table whose canonical text is ``text``, found without a state's
    legality check (``parse_action`` would refuse an illegal one before ``apply_action`` does)."""
    return next(action for action in game.actions() if str(action) == text)


def test_action_table_ids_are_stable() -> None:
    game = tikigames.load("tactiki")
    assert game.num_distinct_actions == 181
    pinned = {
        0: "1@a1", 4: "5@a1", 24: "5@e1", 25: "1@a5", 49: "5@e5",
        50: "a1-b1", 51: "a1-a2", 52: "b1-a1", 60: "d1-d2", 63: "a2-a1", 129: "e5-d5",
        130: "1*a1", 154: "5*e1", 155: "1*a5", 179: "5*e5", 180: "pass",
    }  # fmt: skip
    for action_id, text in pinned.items():
        assert str(game.action(action_id)) == text
    kinds = [str(a) for a in game.actions()]
    assert all("@" in t for t in kinds[:50]) and all("-" in t for t in kinds[50:130])
    assert all("*" in t for t in kinds[130:180])
    # Moves: every orthogonal step between neighbours, both ways (2 × 40).
    assert len(set(kinds[50:130])) == 80


def test_parsing_ignores_case_and_spaces(start: Any) -> None:
    state = start()
    action = state.parse_action("B1-B2")
    assert str(action) == "b1-b2"
    assert state.parse_action("  b1 - b2 ") is action
    fresh = tikigames.load("tactiki").new_initial_state()
    assert str(fresh.parse_action(" 3 @ B1 ")) == "3@b1"


@pytest.mark.parametrize(
    "text",
    ["?@b1", "?*c1", "?", "6@a1", "0@a1", "3@c3", "3*c3", "a1-c1", "a1-b2", "b1-b1", "f1-f2",
     "pass pass", "", "   ", "3@", "@b1", "b1-", "b1b2", 42, None],
)  # fmt: skip
def test_text_that_names_no_action(start: Any, snap: Any, text: Any) -> None:
    state = start()
    before = snap(state)
    with pytest.raises(ActionError) as raised:
        state.parse_action(text)
    assert not isinstance(raised.value, IllegalActionError)
    assert snap(state) == before


def test_illegal_actions_raise_and_change_nothing(start: Any, snap: Any) -> None:
    state = start()
    before = snap(state)
    # TAC's piece, an empty square, a pass while moves exist, an empty pool, the setup is over.
    for text in ("a5-a4", "b2-b3", "pass", "3*a1", "1@a1"):
        with pytest.raises(IllegalActionError):
            state.apply_action(action_named(state.game, text))
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
    for bad in (-1, 181, 1.0, "b1-b2", True, None):
        with pytest.raises(ActionError) as raised:
            state.apply_action(bad)
        assert not isinstance(raised.value, IllegalActionError)
    assert snap(state) == before


def test_undo_is_exact(start: Any, play: Any, snap: Any) -> None:
    fresh = tikigames.load("tactiki").new_initial_state()
    with pytest.raises(UndoError):
        fresh.undo_action()
    state = start({"b1": (1, 4), "b5": (1, 3)})
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4")
    before = snap(state)
    play(state, "b3-b4")  # an attack: the 4 beats the 3
    assert str(state.undo_action()) == "b3-b4"
    assert snap(state) == before
    while state.history():
        state.undo_action()
    assert state == fresh


def test_state_json_round_trip_and_errors(start: Any, play: Any) -> None:
    state = play(start({"b1": (1, 4), "b5": (1, 3)}), "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4")
    data = json.loads(json.dumps(state.to_json()))
    assert data["history"][:2] == ["1@a1", "2@a1"] and data["history"][-1] == "b3-b4"
    assert data["options"] == {"strict_statue": False, "max_turns": 300}
    assert "X4*" in data["position"]
    assert tikigames.state_from_json(data) == state
    hidden = {**data, "history": ["?@a1", *data["history"][1:]]}
    with pytest.raises(InvalidStateError, match=r"history\[0\]"):
        tikigames.state_from_json(hidden)
    illegal = {**data, "history": [*data["history"], "b4-b5"]}  # TIKI's second move: fine…
    loaded: Any = tikigames.state_from_json(illegal)  # a TacTikiState
    assert loaded.column("b5") == [(TIKI, 4)]
    illegal = {**data, "history": [*data["history"], "a4-a3"]}  # …TAC's piece: not
    with pytest.raises(InvalidStateError, match=r"history\[25\]"):
        tikigames.state_from_json(illegal)
    other = tikigames.load("tactiki", max_turns=None)
    with pytest.raises(InvalidStateError):
        other.state_from_json(data)


def test_pickle(start: Any, play: Any) -> None:
    state = play(start(), "b1-b2")
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.observation(TAC) == state.observation(TAC)
    copy.apply_action(copy.parse_action("b2-b3"))
    assert copy.current_player() == TAC and state.current_player() == TIKI


def test_the_board_as_text(start: Any, play: Any) -> None:
    state = play(start(), "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4")
    assert str(state) == "\n".join(
        [
            "Turn 3: TIKI (player 0) to play (second move)",
            "    a       b     c       d       e",
            "5 | O1    | O3  | O4 O5 | O2 O3 | O4 O5 |  TAC start fields",
            "4 | O2    | X4* | .     | .     | .     |",
            "3 | .     | .   | .     | .     | .     |",
            "2 | .     | .   | .     | .     | .     |",
            "1 | X1 X2 | X3  | X5 X1 | X2 X3 | X4 X5 |  TIKI start fields",
            "Columns bottom to top; X = TIKI (player 0), O = TAC (player 1);"
            " * = rank known to both.",
            "Defeated: TIKI none; TAC 1",
        ]
    )
    text = str(state.observation(TAC))
    assert text.splitlines()[0].endswith("— you are TAC (player 1)")
    assert "X? X?" in text and "X4*" in text and "Last battle: b3-b4 revealed 4 1" in text


def test_game_over_texts(start: Any, play: Any) -> None:
    state = play(start(max_turns=1), "a1-a2 a2-a3")
    assert str(state).splitlines()[0] == "Game over after 1 turns: a draw (turn limit)"
    assert str(state.observation(TAC)).startswith("Game over after 1 turns: a draw (turn limit)")


def test_accessors_reject_bad_arguments(start: Any) -> None:
    state = start()
    with pytest.raises(ValueError):
        state.column("f6")
    with pytest.raises(ValueError):
        state.defeated(2)
    assert state.column(" A1 ") == [(TIKI, 1), (TIKI, 2)]

"""Why an action is refused (issue #14): one test per rule of ``docs/games/tactiki.rst`` that can
refuse an action, each on a position reached through real actions, asserting the exact reason
of ``state.illegal_reason`` and of the ``IllegalActionError`` (and that the refusal changes
nothing); then a property over random games: the rules of ``refusals.rule_against`` forbid
exactly the actions that are not legal, so a refusal never falls back to the general text."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tikigames
from tikigames import IllegalActionError
from tikigames.tactiki import refusals

TIKI, TAC = 0, 1

#: The random game (seed 1041) up to TAC's turn 46: every TAC piece is covered or gone, so TAC
#: has no single move, but six defeated pieces and four empty start fields.
ONLY_REINCARNATIONS = """
2@c1 2@c1 1@a1 1@e1 5@a1 3@b1 3@d1 5@e1 4@d1 4@b1 4@e5 1@e5 5@b5 5@a5 4@b5 1@d5 2@a5 3@d5
3@c5 2@c5 e1-e2 d1-c1 d5-d4 a5-a4 e2-d2 a1-b1 c5-d5 d4-c4 c1-c2 c2-c3 c5-d5 a5-b5 b1-c1
c3-d3 c4-b4 e5-e4 d1-e1 d2-e2 e5-d5 b4-c4 c1-c2 c2-d2 d5-e5 d5-c5 c1-d1 b1-c1 e4-d4 d4-e4
d2-c2 c2-c3 c4-b4 e4-d4 d1-d2 d2-c2 d5-d4 e5-e4 d3-d4 e2-e3 b5-a5 c5-d5 b1-c1 c3-c4 2*c5
c1-b1 e3-e4 d5-e5 d5-c5 c1-c2 c2-b2 b5-a5 e5-d5 b1-c1 c2-c3 c5-d5 a5-b5 c4-b4 e1-d1 b5-a5
d5-d4 d1-c1 e4-d4 d5-d4 a5-b5 c3-c4 c4-c5 b5-b4 b5-a5 c1-d1 d1-d2 a5-a4 a5-a4 c1-c2 c1-d1
3*e5 b2-b3 e1-d1 3*d5 b3-a3 b4-a4 e5-e4 d5-d4 c2-c3 d2-d3 e4-d4 a3-a4 d3-d4
"""

#: The random game of seed 2532, to its end: a draw by two consecutive passes.
TWO_PASSES = """
2@b1 1@a1 5@a1 1@c1 2@b1 5@e1 4@d1 3@e1 4@d1 3@c1 3@b5 5@a5 5@b5 4@e5 2@a5 2@e5 1@c5 4@c5
1@d5 3@d5 d1-d2 d1-e1 b5-a5 c5-d5 c1-b1 e1-d1 b5-c5 d5-d4 b1-b2 a1-a2 d5-e5 d5-d4 b2-c2
d2-d3 c5-c4 c4-d4 d1-e1 c1-c2 d4-e4 e5-d5 e1-d1 d1-d2 d5-e5 e5-d5 e1-d1 b1-c1 e4-e3 e5-e4
c1-d1 d2-c2 e5-d5 d4-c4 c2-d2 b1-b2 c5-b5 b5-c5 d3-c3 d1-e1 c4-b4 e3-e2 d1-e1 c2-b2 c5-c4
e4-e3 b2-c2 a1-a2 c4-d4 e2-e1 d2-d3 d3-d4 b4-b3 e3-e2 d4-d5 c2-c3 a5-a4 e2-d2 c3-c4 c3-c4
b3-b2 d4-e4 c2-d2 c4-b4 a4-a3 e4-e3 c4-d4 d4-c4 e3-e2 e2-e1 d2-e2 e2-d2 1*b5 b4-b5 b2-c2
2*e5 c4-c5 c2-b2 a5-a4 a3-b3 b2-a2 d2-c2 e5-e4 b3-b2 a2-a3 a2-a3 e4-d4 b2-a2 a3-a4 c2-b2
a4-a3 d4-e4 1*d1 e4-d4 a3-a2 a3-b3 b2-b3 a5-a4 d4-c4 d1-c1 c1-b1 c4-d4 d4-d3 b1-a1 b3-a3
a2-a1 a4-b4 b3-c3 c3-d3 1*e5 d3-d4 d4-e4 b4-c4 d3-c3 e4-e5 a3-a4 a2-b2 c3-c2 1*d1 1*a5
d1-d2 a2-b2 a5-a4 c4-c3 a4-a5 b2-b3 c2-b2 b2-c2 b3-a3 a3-b3 b2-a2 a2-a1 b3-c3 d2-e2 c2-d2
d2-d1 c3-d3 d3-d4 c3-b3 b3-a3 d4-c4 e2-d2 a3-a2 a2-a1 d2-e2 c4-c5 pass e2-e3 e3-d3 pass
d3-d4 d4-d5 pass pass
"""

#: The docs page's start-field lock: TAC's 4 comes down the d file and takes d1 (TIKI to play).
LOCK = (
    "2@a1 3@a1 4@b1 5@b1 1@c1 4@c1 2@d1 3@d1 1@e1 5@e1 1@a5 1@a5 2@b5 3@b5 3@c5 4@c5 2@d5 4@d5"
    " 5@e5 5@e5 | a1-a2 a2-a3 | d5-d4 d4-d3 | b1-b2 b2-b3 | d3-d2 d2-d1"
)

#: From the standard setup: TIKI's 4 defeats TAC's 1 on b4; TAC's b5 is empty. TAC to play.
TAC_DEFEATED = "b1-b2 b2-b3 | b5-b4 b5-c5 | b3-b4 a1-a2"


def refused(state: Any, text: str, reason: str, snap: Any) -> None:
    """``text`` is refused in ``state`` for ``reason``: by ``illegal_reason``, by
    ``apply_action`` and ``parse_action`` (the error's ``reason`` and message), changing
    nothing."""
    action = next(a for a in state.game.actions() if str(a) == text)
    assert state.illegal_reason(action) == reason
    assert state.illegal_reason(int(action)) == reason
    before = snap(state)
    with pytest.raises(IllegalActionError) as raised:
        state.apply_action(action)
    assert raised.value.reason == reason
    assert str(raised.value) == f"{text!r}: {reason}"
    with pytest.raises(IllegalActionError) as parsed:
        state.parse_action(text)
    assert parsed.value.reason == reason
    assert snap(state) == before


def new_game(**options: Any) -> Any:
    return tikigames.load("tactiki", **options).new_initial_state()


# ----------------------------------------------------------------- end of the game


def test_end_of_the_game_a_statue(start: Any, play: Any, snap: Any) -> None:
    """End of the game, win: after the statue nothing is legal."""
    state = start({"d1": (2, 4), "d5": (2, 3)})
    march = "d1-d2 d2-d3 | a5-b5 b5-a5 | d3-d4 d4-d5 | a5-b5 b5-a5 | "
    play(state, march * 2 + "e1-d1 d1-d2 | a5-b5 b5-a5 | d2-d3 d3-d4 | a5-b5 b5-a5 | d4-d5")
    play(state, "e1-d1 | a5-b5 b5-a5 | d1-d2 d2-d3 | a5-b5 b5-a5 | d3-d4 d4-d5 | a5-b5 b5-a5")
    play(state, "c1-d1 d1-d2 | a5-b5 b5-a5 | d2-d3 d3-d4 | a5-b5 b5-a5 | d4-d5")
    assert state.winner() == TIKI
    refused(state, "a5-b5", "the game is over: TIKI built a statue on d5", snap)
    refused(state, "pass", "the game is over: TIKI built a statue on d5", snap)


def test_end_of_the_game_two_passes(play: Any, snap: Any) -> None:
    """End of the game, draw: two consecutive passes."""
    state = play(new_game(), TWO_PASSES)
    assert state.is_terminal() and state.passes() == 2
    refused(state, "pass", "the game is over: drawn by two consecutive passes", snap)


def test_end_of_the_game_turn_limit(start: Any, play: Any, snap: Any) -> None:
    """End of the game, draw: ``max_turns`` turns are finished."""
    state = play(start(max_turns=1), "a1-a2 a2-a3")
    refused(state, "a5-a4", "the game is over: drawn at the turn limit (max_turns=1)", snap)


# ----------------------------------------------------------------- setup


def test_setup_comes_before_any_move(play: Any, snap: Any) -> None:
    """Setup: TIKI places all 10 pieces, then TAC all 10; no move, reincarnation or pass
    before."""
    state = play(new_game(), "3@a1 4@a1 1@b1")
    tail = "during the setup: TIKI places all 10 pieces, then TAC all 10 (TIKI has placed 3)"
    refused(state, "a1-a2", f"there is no move {tail}", snap)
    refused(state, "1*c1", f"there is no reincarnation {tail}", snap)
    refused(state, "pass", f"there is no pass {tail}", snap)
    play(state, "1@b1 2@c1 2@c1 3@d1 4@d1 5@e1 5@e1 1@a5")
    refused(
        state,
        "a5-a4",
        "there is no move during the setup: TIKI places all 10 pieces, then TAC all 10"
        " (TAC has placed 1)",
        snap,
    )


def test_setup_on_own_start_fields(play: Any, snap: Any) -> None:
    """Setup: each placement goes on one of the player's own start fields (TAC's only once
    TIKI's ten are down)."""
    state = new_game()
    refused(
        state,
        "1@c5",
        "a player places its pieces on its own start fields: c5 is TAC's, TIKI's are a1–e1",
        snap,
    )
    play(state, "1@a1 1@a1 2@b1 2@b1 3@c1 3@c1 4@d1 4@d1 5@e1 5@e1")
    refused(
        state,
        "5@e1",
        "a player places its pieces on its own start fields: e1 is TIKI's, TAC's are a5–e5",
        snap,
    )


def test_setup_two_pieces_to_a_field(play: Any, snap: Any) -> None:
    """Setup: every start field ends with exactly 2 pieces."""
    state = play(new_game(), "3@a1 4@a1")
    refused(state, "1@a1", "every start field ends with exactly 2 pieces: a1 has 2 already", snap)


def test_setup_each_rank_twice(play: Any, snap: Any) -> None:
    """Setup: every rank is used exactly twice."""
    state = play(new_game(), "3@a1 3@b1")
    refused(
        state, "3@c1", "every rank is used exactly twice: TIKI has placed both its 3s already", snap
    )


def test_setup_is_over_in_play(start: Any, snap: Any) -> None:
    """Setup: placements happen only in the setup."""
    state = start()
    refused(state, "1@a1", "the setup is over: pieces are placed only before play begins", snap)


# ----------------------------------------------------------------- turn


def test_turn_second_move_is_a_single_move(start: Any, play: Any, snap: Any) -> None:
    """Turn: a reincarnation or a pass is a whole turn, never the second move of a move turn
    (even when the reincarnation would be legal at the start of the turn)."""
    state = play(start(), TAC_DEFEATED)
    assert "1*b5" in {str(a) for a in state.legal_actions()}
    play(state, "a5-a4")
    tail = (
        "a whole turn, made only at its start: TAC has made the first move of a move turn and"
        " must make a second single move"
    )
    refused(state, "1*b5", f"a reincarnation is {tail}", snap)
    refused(state, "pass", f"a pass is {tail}", snap)


def test_turn_pass_only_without_move(start: Any, snap: Any) -> None:
    """Turn, pass: legal only with no single move and no reincarnation (here a move)."""
    refused(
        start(),
        "pass",
        "a pass is legal only when the player has no single move and no"
        " reincarnation: TIKI can move a1-b1",
        snap,
    )


def test_turn_pass_only_without_reincarnation(play: Any, snap: Any) -> None:
    """Turn, pass: legal only with no single move and no reincarnation (here only
    reincarnations)."""
    state = play(new_game(), ONLY_REINCARNATIONS)
    kinds = {str(a)[1] for a in state.legal_actions()}
    assert state.current_player() == TAC and kinds == {"*"}
    refused(
        state,
        "pass",
        "a pass is legal only when the player has no single move and no"
        " reincarnation: TAC can reincarnate, e.g. 1*a5",
        snap,
    )


def test_turn_reincarnation_on_own_start_field(start: Any, play: Any, snap: Any) -> None:
    """Turn, reincarnation: on one of the player's own start fields."""
    state = play(start(), TAC_DEFEATED)
    refused(
        state,
        "1*b1",
        "a reincarnated piece goes on one of its owner's start fields: b1 is"
        " TIKI's, TAC's are a5–e5",
        snap,
    )


def test_turn_reincarnation_needs_a_defeated_piece(start: Any, snap: Any) -> None:
    """Turn, reincarnation: one of the player's defeated pieces (none yet)."""
    state = start()
    refused(state, "3*a1", "a reincarnation brings back a defeated piece: TIKI has none", snap)


def test_turn_reincarnation_of_a_rank_in_the_pool(start: Any, play: Any, snap: Any) -> None:
    """Turn, reincarnation: one of the player's defeated pieces (no 3 among them)."""
    state = play(start(), TAC_DEFEATED)
    refused(
        state,
        "3*b5",
        "a reincarnation brings back one of the player's defeated pieces: TAC has"
        " no defeated 3 (its defeated pool holds 1)",
        snap,
    )


def test_turn_reincarnation_on_an_empty_field(start: Any, play: Any, snap: Any) -> None:
    """Turn, reincarnation: alone, on a start field that holds no piece at all."""
    state = play(start(), TAC_DEFEATED)
    head = "a reincarnated piece goes alone on a start field that holds no piece at all"
    refused(state, "1*a5", f"{head}: a5 holds 2 pieces", snap)
    refused(state, "1*c5", f"{head}: c5 holds 3 pieces", snap)
    play(state, "a5-a4 a5-b5")  # a5 empty, then b5 with one piece
    play(state, "a2-a3 a3-a4")
    refused(state, "1*b5", f"{head}: b5 holds 1 piece", snap)
    assert state.illegal_reason(state.parse_action("1*a5")) is None


# ----------------------------------------------------------------- single move


def test_single_move_rule_1_an_empty_field(start: Any, snap: Any) -> None:
    """Single move, rule 1: P is the top piece of X (there is none)."""
    refused(start(), "b2-b3", "a move takes the top piece of a field: b2 is empty", snap)


def test_single_move_rule_1_the_players_own_top_piece(start: Any, play: Any, snap: Any) -> None:
    """Single move, rule 1: P is the top piece of X and belongs to the player; a piece under an
    opponent's is blocked."""
    head = "only the top piece of a field moves, and only its owner moves it"
    refused(start(), "a5-a4", f"{head}: the top piece of a5 is TAC's", snap)
    state = play(start({"b1": (1, 3), "b5": (1, 3)}), "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4 a1-a2")
    assert state.column("b4") == [(TAC, 3), (TIKI, 3)]  # a tie
    refused(
        state,
        "b4-b3",
        f"{head}: the top piece of b4 is TIKI's, which blocks TAC's piece under it",
        snap,
    )


def test_single_move_rule_2_locked_on_an_opponents_start_field(play: Any, snap: Any) -> None:
    """Single move, rule 2 (and the start-field lock): X is not one of the opponent's start
    fields — checked before the direction (d1-d2 is backward for TAC as well)."""
    state = play(new_game(), LOCK + " | a3-a4 a4-a5")
    assert state.column("a5") == [(TIKI, 3)]
    head = "a piece on an opponent's start field never moves again"
    refused(state, "d1-e1", f"{head}: d1 is a start field of TIKI's", snap)
    refused(state, "d1-d2", f"{head}: d1 is a start field of TIKI's", snap)
    play(state, "e5-e4 e4-e3")
    refused(state, "a5-b5", f"{head}: a5 is a start field of TAC's", snap)


def test_single_move_rule_3_never_backward(start: Any, play: Any, snap: Any) -> None:
    """Single move, rule 3: one step forward, left or right."""
    state = play(start(), "b1-b2")
    head = "a piece moves one step forward, left or right, never backward"
    refused(state, "b2-b1", f"{head}: b2-b1 is backward for TIKI", snap)
    play(state, "b2-b3 | c5-c4")
    refused(state, "c4-c5", f"{head}: c4-c5 is backward for TAC", snap)


def test_single_move_rule_4_immune_on_its_opponents_start_field(play: Any, snap: Any) -> None:
    """Single move, rule 4 (and the start-field lock): a piece on its opponent's start field is
    immune, from either side."""
    state = play(new_game(), LOCK)
    head = "a piece standing on its opponent's start field is immune"
    reason = f"{head}: TAC's piece on top of d1, a start field of TIKI's, cannot be entered or"
    for text in ("c1-d1", "e1-d1"):
        refused(state, text, f"{reason} attacked", snap)
    play(state, "a3-a4 a4-a5")
    refused(
        state,
        "b5-a5",
        f"{head}: TIKI's piece on top of a5, a start field of TAC's, cannot be entered or attacked",
        snap,
    )


# ----------------------------------------------------------------- in random play


def heads() -> set[str]:
    """Each reason's rule, the text before its first colon."""
    return {
        "the game is over",
        "there is no move during the setup",
        "there is no reincarnation during the setup",
        "there is no pass during the setup",
        "a player places its pieces on its own start fields",
        "every start field ends with exactly 2 pieces",
        "every rank is used exactly twice",
        "the setup is over",
        "a reincarnation is a whole turn, made only at its start",
        "a pass is a whole turn, made only at its start",
        "a pass is legal only when the player has no single move and no reincarnation",
        "a reincarnated piece goes on one of its owner's start fields",
        "a reincarnation brings back a defeated piece",
        "a reincarnation brings back one of the player's defeated pieces",
        "a reincarnated piece goes alone on a start field that holds no piece at all",
        "a move takes the top piece of a field",
        "only the top piece of a field moves, and only its owner moves it",
        "a piece on an opponent's start field never moves again",
        "a piece moves one step forward, left or right, never backward",
        "a piece standing on its opponent's start field is immune",
    }


@pytest.mark.parametrize("options", [{}, {"strict_statue": True, "max_turns": 60}])
def test_every_refusal_in_random_play_names_a_rule(options: dict[str, Any]) -> None:
    """In random games, at many positions, ``rule_against`` forbids exactly the actions that
    are not legal (so no legal action is ever called illegal, and the general fallback is
    never reached), ``illegal_reason`` gives its text, and every reason is one of the rules."""
    game = tikigames.load("tactiki", **options)
    actions: tuple[Any, ...] = game.actions()  # TacTiki's
    seen: set[str] = set()
    positions = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state()
        step = 0
        while True:
            if step % 4 == 0 or state.is_terminal():
                positions += 1
                legal = set(state.legal_actions())
                for action in actions:
                    why = refusals.rule_against(state, action)
                    if action in legal:
                        assert why is None, (str(action), state.history())
                        assert state.illegal_reason(action) is None
                    else:
                        assert why is not None, (str(action), state.history())
                        assert state.illegal_reason(action) == why
                        head = why.split(":")[0]
                        assert head in heads(), why
                        seen.add(head)
            if state.is_terminal():
                break
            state.apply_action(state.random_action(rng))
            step += 1
    assert positions > 250
    # These games reach every rule that can refuse an action, with either option set.
    assert seen == heads(), heads() - seen


def test_the_fallback_names_the_action_and_the_player(start: Any) -> None:
    """The general text, for an action no rule forbids (only reachable by calling ``refusal``
    on a legal action, which the state never does)."""
    state = start()
    legal = state.legal_actions()[0]
    assert refusals.rule_against(state, legal) is None
    assert refusals.refusal(state, legal) == "a1-b1 is not legal for TIKI now"

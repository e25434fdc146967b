"""One test (or a few) per rule of ``docs/games/tactiki.rst``, on positions reached through real
actions. Squares are written as in the rules; ``column`` lists ``(owner, rank)`` bottom to top."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import tikigames
from tikigames import IllegalActionError, State
from tikigames.tactiki.data import outcome

TIKI, TAC = 0, 1


def texts(actions: list[Any]) -> set[str]:
    return {str(a) for a in actions}


# ----------------------------------------------------------------- board and sides


def test_board_squares_and_forward_directions(start: Any) -> None:
    state = start()
    assert state.current_player() == TIKI  # TIKI moves first [S]
    # TIKI's forward is +1 rank, TAC's −1; the table has no diagonal or two-step move.
    assert "a1-a2" in texts(state.legal_actions())
    with pytest.raises(tikigames.ActionError):
        state.parse_action("a1-b2")
    with pytest.raises(tikigames.ActionError):
        state.parse_action("a1-a3")
    state.apply_action(state.parse_action("a1-a2"))
    state.apply_action(state.parse_action("a2-a3"))
    assert state.current_player() == TAC
    assert "a5-a4" in texts(state.legal_actions())
    assert "a5-a6" not in texts(state.game.actions())


# ----------------------------------------------------------------- pieces and strength


def test_strength_rule_table() -> None:
    # Higher wins, except that 1 beats 5 (and only 5); equal ranks tie.
    expected = {
        (5, 4): 1, (5, 3): 1, (5, 2): 1, (5, 1): -1,
        (4, 3): 1, (4, 2): 1, (4, 1): 1,
        (3, 2): 1, (3, 1): 1,
        (2, 1): 1,
    }  # fmt: skip
    for a, d in itertools.product(range(1, 6), repeat=2):
        if a == d:
            assert outcome(a, d) == 0
        elif (a, d) in expected:
            assert outcome(a, d) == expected[(a, d)]
        else:
            assert outcome(a, d) == -expected[(d, a)]


DUEL = "b1-b2 b2-b3 | b5-b4 a5-a4 | b3-b4"


def duel(start: Any, play: Any, attacker: int, defender: int) -> Any:
    """TIKI's ``attacker`` (top of b1) attacks TAC's ``defender`` (top of b5), alone on b4."""
    other = next(r for r in range(1, 6) if r not in (attacker, defender))
    state = start({"b1": (other, attacker), "b5": (other, defender)})
    return play(state, DUEL)


@pytest.mark.parametrize(("attacker", "defender"), list(itertools.product(range(1, 6), repeat=2)))
def test_every_duel_follows_the_strength_rule(
    start: Any, play: Any, attacker: int, defender: int
) -> None:
    state = duel(start, play, attacker, defender)
    result = outcome(attacker, defender)
    if result > 0:
        assert state.column("b4") == [(TIKI, attacker)]
        assert state.defeated(TAC) == [defender] and state.defeated(TIKI) == []
    elif result < 0:
        assert state.column("b4") == [(TAC, defender)]
        assert state.defeated(TIKI) == [attacker] and state.defeated(TAC) == []
    else:  # a tie: both stay, the attacker on top
        assert state.column("b4") == [(TAC, defender), (TIKI, attacker)]
        assert state.defeated(TIKI) == state.defeated(TAC) == []
    # Both ranks are revealed to both players and the spectator.
    assert state.observation(None).battles == ((24, (attacker, defender)),)


def test_one_beats_five_and_loses_to_two_three_four(start: Any, play: Any) -> None:
    assert duel(start, play, 1, 5).column("b4") == [(TIKI, 1)]
    for stronger in (2, 3, 4):
        assert duel(start, play, 1, stronger).column("b4") == [(TAC, stronger)]
    # …and a 5 attacking a 1 loses too.
    assert duel(start, play, 5, 1).column("b4") == [(TAC, 1)]


# ----------------------------------------------------------------- setup


def test_setup_order_and_legal_placements() -> None:
    state = tikigames.load("tactiki").new_initial_state()
    legal = state.legal_actions()
    assert texts(legal) == {f"{r}@{f}1" for r in range(1, 6) for f in "abcde"}
    state.apply_action(state.parse_action("3@a1"))
    state.apply_action(state.parse_action("3@a1"))
    legal_now = texts(state.legal_actions())
    assert not any(t.endswith("@a1") for t in legal_now)  # a field holds exactly two
    assert not any(t.startswith("3@") for t in legal_now)  # each rank exactly twice
    with pytest.raises(IllegalActionError):
        state.parse_action("3@b1")
    with pytest.raises(IllegalActionError):
        state.parse_action("1@a5")  # TAC places only after TIKI
    assert state.current_player() == TIKI and state.turns() == 0


def test_setup_fills_each_field_with_two_and_each_rank_twice(setup: Any) -> None:
    state = tikigames.load("tactiki").new_initial_state()
    placements = setup({"a1": (5, 5), "a5": (1, 1)})
    for text in placements[:10]:
        assert state.current_player() == TIKI
        state.apply_action(state.parse_action(text))
    for text in placements[10:]:
        assert state.current_player() == TAC
        state.apply_action(state.parse_action(text))
    assert state.current_player() == TIKI and state.turns() == 0
    for player, row in ((TIKI, "1"), (TAC, "5")):
        ranks = []
        for f in "abcde":
            column = state.column(f + row)
            assert len(column) == 2 and {owner for owner, _ in column} == {player}
            ranks += [rank for _, rank in column]
        assert sorted(ranks) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert state.column("a1") == [(TIKI, 5), (TIKI, 5)]  # two of a rank on one field is fine


def test_placements_are_secret(play: Any) -> None:
    state = tikigames.load("tactiki").new_initial_state()
    action = state.parse_action("3@b1")
    assert state.action_to_string(action, TIKI) == "3@b1"
    assert state.action_to_string(action, TAC) == "?@b1"
    play(state, "3@b1")
    assert state.observation(TIKI).history == ("3@b1",)
    assert state.observation(TAC).history == ("?@b1",)
    assert state.observation(None).history == ("?@b1",)
    assert state.observation(TAC).board[1] == ((TIKI, None, False),)
    assert state.observation(TIKI).board[1] == ((TIKI, 3, False),)


# ----------------------------------------------------------------- turns


def test_a_move_turn_is_two_single_moves_by_the_same_player(start: Any, play: Any) -> None:
    state = start()
    play(state, "b1-b2")
    assert state.current_player() == TIKI and state.is_second_move()
    assert state.turns() == 0
    # The second move may be by the same piece or another one; no reincarnation or pass.
    legal = texts(state.legal_actions())
    assert {"b2-b3", "a1-a2"} <= legal and "pass" not in legal
    play(state, "b2-b3")
    assert state.current_player() == TAC and not state.is_second_move()
    assert state.turns() == 1
    play(state, "a5-a4 c5-c4")
    assert state.current_player() == TIKI and state.turns() == 2


# ----------------------------------------------------------------- single moves


def test_only_the_top_piece_moves_and_only_ones_own(start: Any, play: Any) -> None:
    state = start()  # a1 holds TIKI 1 under TIKI 2
    play(state, "a1-a2")
    assert state.column("a1") == [(TIKI, 1)] and state.column("a2") == [(TIKI, 2)]
    with pytest.raises(IllegalActionError):
        state.parse_action("a5-a4")  # TAC's piece, TIKI to move
    with pytest.raises(IllegalActionError):
        state.parse_action("b2-b3")  # an empty square


def test_no_backward_moves(start: Any, play: Any) -> None:
    state = start()
    play(state, "b1-b2")
    with pytest.raises(IllegalActionError):
        state.parse_action("b2-b1")
    play(state, "c1-c2 | b5-b4")
    with pytest.raises(IllegalActionError):
        state.parse_action("b4-b5")


def test_sideways_moves_along_ones_own_start_row(start: Any, play: Any) -> None:
    state = start()
    assert {"a1-b1", "b1-a1", "e1-d1"} <= texts(state.legal_actions())
    play(state, "a1-b1")  # onto one's own piece: a stack, no attack
    assert state.column("b1") == [(TIKI, 3), (TIKI, 4), (TIKI, 2)]
    assert state.observation(None).battles == ()


LOCK = {"d5": (2, 4), "d1": (2, 3), "c1": (1, 4), "e1": (1, 5)}
LOCK_SCRIPT = "a1-a2 a2-a3 | d5-d4 d4-d3 | b1-b2 b2-b3 | d3-d2 d2-d1"


def test_a_piece_on_its_opponents_start_field_is_immune(start: Any, play: Any) -> None:
    state = play(start(LOCK), LOCK_SCRIPT)
    # TAC's 4 beat TIKI's 3 and 2 on d1 and stays there for good.
    assert state.column("d1") == [(TAC, 4)]
    assert state.defeated(TIKI) == [2, 3]
    legal = texts(state.legal_actions())
    assert state.current_player() == TIKI
    assert "c1-d1" not in legal and "e1-d1" not in legal  # rule 4
    for text in ("c1-d1", "e1-d1"):
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
    play(state, "c1-c2 c2-c3")
    legal = texts(state.legal_actions())
    assert not any(t.startswith("d1-") for t in legal)  # pieces there never move again
    with pytest.raises(IllegalActionError):
        state.parse_action("d1-c1")


# ----------------------------------------------------------------- attacks

RULEBOOK = {"b1": (3, 4), "b5": (3, 1), "c5": (4, 5), "d5": (2, 3)}
RULEBOOK_SCRIPT = (
    "b1-b2 b2-b3 | c5-c4 b5-b4 | e1-e2 e2-e3 | b4-c4 d5-d4 | b3-c3 a1-a2 | d4-c4 a5-a4"
)


def test_the_rulebook_column_attack(start: Any, play: Any) -> None:
    state = play(start(RULEBOOK), RULEBOOK_SCRIPT)
    assert state.column("c4") == [(TAC, 5), (TAC, 1), (TAC, 3)]  # from the top: 3, 1, 5
    play(state, "c3-c4")
    # The 4 defeats the 3 and the 1, then is defeated by the 5, which stays.
    assert state.column("c4") == [(TAC, 5)]
    assert state.column("c3") == []
    assert state.defeated(TAC) == [1, 3] and state.defeated(TIKI) == [4]
    assert state.observation(TIKI).battles[-1] == (32, (4, 3, 1, 5))
    assert state.observation(TIKI).board[state_index("c4")] == ((TAC, 5, True),)
    # The attacker lost, but the turn goes on: TIKI makes its second move.
    assert state.current_player() == TIKI and state.is_second_move()


def state_index(square: str) -> int:
    return "abcde".index(square[0]) + 5 * (int(square[1]) - 1)


def test_an_attack_stops_at_the_attackers_own_piece(start: Any, play: Any) -> None:
    # TIKI 2 goes to c3; TAC's 2 attacks it and ties (staying on top); TIKI's 3 attacks.
    fields = {"c1": (3, 2), "c5": (1, 2)}
    state = play(start(fields), "c1-c2 c2-c3 | c5-c4 c4-c3")
    assert state.column("c3") == [(TIKI, 2), (TAC, 2)]
    play(state, "c1-c2 a1-a2 | a5-a4 b5-b4 | c2-c3")
    assert state.column("c3") == [(TIKI, 2), (TIKI, 3)]
    assert state.defeated(TAC) == [2] and state.defeated(TIKI) == []
    assert state.observation(None).battles[-1][1] == (3, 2)  # TIKI's own 2 was not attacked


def test_a_tie_blocks_the_defender_until_the_attacker_leaves(start: Any, play: Any) -> None:
    state = duel(start, play, 3, 3)
    assert state.column("b4") == [(TAC, 3), (TIKI, 3)]
    play(state, "a1-a2")
    assert not any(t.startswith("b4-") for t in texts(state.legal_actions()))  # blocked
    play(state, "a4-a3 a3-a2")  # TAC's 2 attacks TIKI's 2 on a2: another tie
    play(state, "b4-c4")  # the attacker moves away…
    play(state, "c1-c2")
    assert "b4-b3" in texts(state.legal_actions())  # …and the defender is free again


def test_a_surviving_attacker_may_move_again(start: Any, play: Any) -> None:
    state = start({"b1": (1, 5), "b5": (1, 4)})
    play(state, "b1-b2 b2-b3 | b5-b4 a5-a4")
    play(state, "b3-b4")  # the 5 beats the 4 on the first move of the turn
    assert state.column("b4") == [(TIKI, 5)]
    assert state.is_second_move()
    assert {"b4-a4", "b4-c4", "b4-b5"} <= texts(state.legal_actions())
    play(state, "b4-a4")  # and attacks again: 5 beats TAC's other piece there (a 2)
    assert state.column("a4") == [(TIKI, 5)] and state.defeated(TAC) == [2, 4]
    assert state.current_player() == TAC


def test_an_attack_on_an_opponents_start_field_locks_the_attacker(start: Any, play: Any) -> None:
    state = start({"b1": (1, 5), "b5": (2, 3)})
    play(state, "b1-b2 b2-b3 | a5-a4 a4-a3 | b3-b4 b4-b5")
    assert state.column("b5") == [(TIKI, 5)]  # beat the 3 and the 2
    assert state.defeated(TAC) == [2, 3]
    play(state, "c5-c4 c4-c3")
    assert not any(t.startswith("b5-") for t in texts(state.legal_actions()))
    play(state, "a1-a2 a2-b2")
    # TAC cannot attack it or move onto that field (a5-b5 and c5-b5 are closed).
    legal = texts(state.legal_actions())
    assert "a5-b5" not in legal and "c5-b5" not in legal


# ----------------------------------------------------------------- reincarnation


def test_reincarnation_only_onto_an_empty_own_start_field(start: Any, play: Any) -> None:
    state = play(start(RULEBOOK), RULEBOOK_SCRIPT + " | c3-c4 b1-b2")
    # TIKI's 4 is in its pool; b1 is now empty. TAC to play.
    assert state.defeated(TIKI) == [4] and state.column("b1") == []
    play(state, "a4-a3 a3-b3")
    legal = texts(state.legal_actions())
    assert "4*b1" in legal and len([t for t in legal if "*" in t]) == 1
    for text in ("4*a1", "3*b1", "4*b5"):  # an occupied field, a rank not in the pool, TAC's
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
    turns = state.turns()
    play(state, "4*b1")
    # A reincarnation is a whole turn, even though TIKI could have moved.
    assert state.current_player() == TAC and state.turns() == turns + 1
    assert state.column("b1") == [(TIKI, 4)] and state.defeated(TIKI) == []
    # Its rank is secret again: TAC and the spectator see ?*b1 and an unknown piece.
    assert state.observation(TAC).history[-1] == "?*b1"
    assert state.observation(TIKI).history[-1] == "4*b1"
    assert state.observation(TAC).board[1] == ((TIKI, None, False),)


def test_no_reincarnation_on_the_second_move(start: Any, play: Any) -> None:
    state = play(start(RULEBOOK), RULEBOOK_SCRIPT + " | c3-c4")
    assert state.is_second_move() and state.defeated(TIKI) == [4]
    play(state, "b1-b2")
    play(state, "a4-a3 a3-b3 | a1-a2")  # first move of TIKI's turn: b1 is empty
    assert state.is_second_move()
    with pytest.raises(IllegalActionError):
        state.parse_action("4*b1")


# ----------------------------------------------------------------- end of the game


def march(first_moves: list[str] | None = None) -> list[str]:
    """TIKI brings five pieces up the d-file onto d5 (from d1, then e1 and c1 via d1) while
    TAC shuffles a piece between a5 and b5; the last move lands the fifth piece."""
    up = ["d1-d2", "d2-d3", "d3-d4", "d4-d5"]
    moves = up * 2 + (["e1-d1", *up]) * 2 + ["c1-d1", *up]
    script = []
    for i in range(0, len(moves), 2):
        script += moves[i : i + 2]
        if i + 2 < len(moves):
            script += ["a5-b5", "b5-a5"]
    return script


@pytest.mark.parametrize("strict", [False, True])
def test_a_statue_of_five_wins(start: Any, play: Any, strict: bool) -> None:
    state = start({"d1": (2, 4), "d5": (2, 3)}, strict_statue=strict)
    script = march()
    play(state, script[:-1])
    assert not state.is_terminal()
    assert [owner for owner, _ in state.column("d5")] == [TIKI] * 4  # the 4 beat the 3 and 2
    play(state, script[-1:])
    assert state.is_terminal() and state.winner() == TIKI
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_action(0)


@pytest.mark.parametrize("strict", [False, True])
def test_a_tie_under_the_statue_counts_only_without_strict_statue(
    start: Any, play: Any, strict: bool
) -> None:
    # TIKI's first arrival is a 3: it ties TAC's 3, which stays underneath.
    state = start({"d1": (2, 3), "d5": (2, 3)}, strict_statue=strict)
    play(state, march())
    column = state.column("d5")
    assert column[:2] == [(TAC, 2), (TAC, 3)] and len(column) == 7
    if strict:
        assert not state.is_terminal()  # never a statue: not exactly five, not all TIKI's
    else:
        assert state.winner() == TIKI  # at least five of TIKI's pieces


def test_the_turn_limit_draws_and_a_win_in_the_last_turn_stands(start: Any, play: Any) -> None:
    script = march()
    winning_turn = 23  # TIKI's twelfth turn, after 22 finished turns
    won = play(start({"d1": (2, 4), "d5": (2, 3)}, max_turns=winning_turn), script)
    assert won.winner() == TIKI and won.turns() == winning_turn - 1
    drawn = start({"d1": (2, 4), "d5": (2, 3)}, max_turns=winning_turn - 1)
    play(drawn, script[:-1])
    assert drawn.is_terminal() and drawn.winner() is None
    assert drawn.returns() == [0.0, 0.0] and drawn.turns() == winning_turn - 1


def test_max_turns_counts_every_kind_of_turn(start: Any, play: Any) -> None:
    state = start(max_turns=3)
    play(state, "a1-a2 a2-a3 | a5-a4")
    assert state.is_second_move() and state.turns() == 1
    play(state, "b5-b4 | c1-c2")
    assert not state.is_terminal()
    play(state, "c2-c3")
    assert state.is_terminal() and state.turns() == 3 and state.returns() == [0.0, 0.0]


def test_no_turn_limit() -> None:
    game = tikigames.load("tactiki", max_turns=None)
    assert game.options["max_turns"] is None
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(400):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert state.is_terminal() or len(state.history()) == 400


@pytest.mark.parametrize(
    "options",
    [{"max_turns": 0}, {"max_turns": -3}, {"max_turns": True}, {"max_turns": 2.5},
     {"strict_statue": 1}, {"strict_statue": None}, {"statue": True}],
)  # fmt: skip
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(tikigames.OptionError):
        tikigames.load("tactiki", **options)


# ----------------------------------------------------------------- the engine against the rules


def rules_legal(state: Any) -> set[str]:
    """The legal actions of a position after the setup, read off the rules (2–4 and the
    reincarnation rule) and the public accessors alone: an oracle for the engine's tables."""
    player = state.current_player()
    codes = state.board_codes()
    names = [f"{'abcde'[sq % 5]}{sq // 5 + 1}" for sq in range(25)]
    own_row, other_row = (0, 4) if player == TIKI else (4, 0)
    legal = set()
    for square, column in enumerate(codes):
        if not column or column[-1] & 1 != player or square // 5 == other_row:
            continue
        targets = [square + (5 if player == TIKI else -5)]
        targets += [square - 1] * (square % 5 > 0) + [square + 1] * (square % 5 < 4)
        for target in targets:
            covered = codes[target]
            if target // 5 == own_row and covered and covered[-1] & 1 != player:
                continue  # rule 4: immune on one's own start field
            legal.add(f"{names[square]}-{names[target]}")
    if not state.is_second_move():
        for square in range(5 * own_row, 5 * own_row + 5):
            if not codes[square]:
                legal |= {f"{rank}*{names[square]}" for rank in state.defeated(player)}
    return legal or {"pass"}


@pytest.mark.parametrize("options", [{}, {"strict_statue": True}])
def test_legal_actions_follow_the_rules_through_apply_and_undo(options: dict[str, Any]) -> None:
    # Random walks that often undo a few actions and go another way: every position's legal
    # actions, generated afresh after the undos, are the rules' own.
    game = tikigames.load("tactiki", **options)
    rng = random.Random(11)
    checked = 0
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 400:
            legal = state.legal_actions()
            if len(state.history()) >= 20:
                assert texts(legal) == rules_legal(state), state.history()
                checked += 1
            state.apply_action(legal[rng.randrange(len(legal))])
            if rng.random() < 0.2 and len(state.history()) > 23:
                for _ in range(rng.randint(1, 3)):
                    state.undo_action()
    assert checked > 5000


def test_the_fast_path_does_what_the_base_class_does() -> None:
    # TacTiki writes out State.random_action for speed (and may do so for apply_unchecked): the same
    # histories, views, caches and draws (a seeded bot plays the same game either way).
    game = tikigames.load("tactiki")
    for seed in range(20):
        ours, base = game.new_initial_state(), game.new_initial_state()
        mine, theirs = random.Random(seed), random.Random(seed)
        while not ours.is_terminal():
            action = ours.random_action(mine)
            assert State.random_action(base, theirs) is action
            ours.apply_unchecked(action)
            State.apply_unchecked(base, action)
            assert ours.history() == base.history() and hash(ours) == hash(base)
            assert all(ours.seen_history(p) == base.seen_history(p) for p in (0, 1, None))
        assert ours == base and ours.to_json() == base.to_json()
        with pytest.raises(IllegalActionError):
            ours.random_action(mine)
        while base.history():
            assert ours.undo_action() is base.undo_action()
            assert ours.legal_actions() == base.legal_actions() and ours == base

"""The rules of ../shared/rules/paiko.md, one test (or more) per rule, on positions reached
through real actions."""

from __future__ import annotations

from typing import Any

import pytest

import tikigames
from tikigames import ActionError, IllegalActionError
from tikigames.paiko import PaikoState

# Drafts used by the scenarios: White's first 7 tiles, Black's 9, White's last one.
WHITE_7 = ("sword", "sword", "sai", "earth", "water", "fire", "bow")
BLACK_9 = ("sword", "bow", "bow", "fire", "sai", "water", "lotus", "air", "earth")


def draft(
    white: tuple[str, ...] = WHITE_7, black: tuple[str, ...] = BLACK_9, last: str = "sai"
) -> list[str]:
    return [f"draft {t}" for t in white] + [f"draft {t}" for t in black] + [f"draft {last}"]


def play(texts: list[str], **options: Any) -> PaikoState:
    """A new game with ``options`` after the actions ``texts`` (each must be legal)."""
    state = tikigames.load("paiko", **options).new_initial_state()
    for text in texts:
        state.apply_action(state.parse_action(text))
    assert isinstance(state, PaikoState)
    return state


def legal(state: PaikoState) -> set[str]:
    return {action.text for action in state.legal_actions()}


def assert_illegal(state: PaikoState, *texts: str) -> None:
    """Each text is an action of the game that is not legal now; trying it changes nothing."""
    before = (state.to_json(), hash(state))
    for text in texts:
        with pytest.raises(IllegalActionError):
            state.parse_action(text)
        with pytest.raises(IllegalActionError):
            state.apply_action(state.game._table.parse(text))
    assert (state.to_json(), hash(state)) == before


def assert_not_actions(state: PaikoState, *texts: str) -> None:
    for text in texts:
        with pytest.raises(ActionError) as raised:
            state.parse_action(text)
        assert not isinstance(raised.value, IllegalActionError), text


# ---------------------------------------------------------------- setup


def test_draft_white_7_black_9_white_1() -> None:
    state = play([])
    seats = []
    for text in draft():
        seats.append(state.current_player())
        assert legal(state) == {f"draft {t}" for t in set(state.reserve(state.current_player()))}
        state.apply_action(state.parse_action(text))
    assert seats == [0] * 7 + [1] * 9 + [0]
    assert sorted(state.hand(0)) == sorted((*WHITE_7, "sai"))
    assert sorted(state.hand(1)) == sorted(BLACK_9)
    assert len(state.reserve(0)) == 16 and len(state.reserve(1)) == 15
    # White takes the first turn; turns alternate.
    assert state.current_player() == 0 and state.observation(None).phase == "play"
    state.apply_action(state.parse_action("draw air"))
    assert state.current_player() == 1


def test_a_type_runs_out_after_three() -> None:
    state = play(["draft bow"] * 3)
    assert "draft bow" not in legal(state)
    assert_illegal(state, "draft bow")


# ---------------------------------------------------------------- draw


def test_draw_one_to_three_tiles_of_your_choice() -> None:
    state = play(draft())
    draws = {text for text in legal(state) if text.startswith("draw")}
    sizes = {len(text[5:].split(",")) for text in draws}
    assert sizes == {1, 2, 3}
    # White's reserve holds 3 lotus, 3 air, 2 sai, 1 sword, 2 earth, 2 water, 2 fire, 2 bow.
    assert "draw lotus,lotus,lotus" in draws and "draw sword,sword" not in draws
    assert_illegal(state, "draw sword,sword", "draw sai,sai,sai")
    # Parsing takes any order and spaces around the commas; the text is canonical.
    action = state.parse_action("draw fire , bow,FIRE")
    assert action.text == "draw bow,fire,fire"
    state.apply_action(action)
    assert state.hand(0).count("fire") == 3 and "fire" not in state.reserve(0)


def test_draw_exact_takes_min_3_reserve() -> None:
    state = play(draft(), draw_exact=True)
    assert {len(t[5:].split(",")) for t in legal(state) if t.startswith("draw")} == {3}
    assert_illegal(state, "draw lotus", "draw lotus,air")


def test_no_draw_from_an_empty_reserve() -> None:
    # Both players draw 3 tiles a turn (draw_exact) until White's reserve is empty.
    white = ["lotus,lotus,lotus", "air,air,air", "sai,sword,bow", "earth,earth,water",
             "water,fire,fire"]  # fmt: skip
    black = ["sai,sai,sword", "sword,bow,lotus", "lotus,air,air", "fire,fire,earth",
             "earth,water,water"]  # fmt: skip
    texts = draft()
    for mine, theirs in zip(white, black, strict=True):
        texts += [f"draw {mine}", f"draw {theirs}"]
    state = play(texts, draw_exact=True)
    # One tile is left: with draw_exact, White must draw exactly that one.
    assert state.reserve(0) == ["bow"]
    assert {t for t in legal(state) if t.startswith("draw")} == {"draw bow"}
    state.apply_action(state.parse_action("draw bow"))
    assert state.reserve(1) == []
    assert not any(text.startswith("draw") for text in legal(state))
    assert_illegal(state, "draw air")


# ---------------------------------------------------------------- deploy


def test_deploy_edges() -> None:
    state = play(draft())
    actions = legal(state)
    # Homeground squares, any facing for the Sai, Bow and Fire; N only for the others.
    assert {"sword@d4:N", "sai@d4:E", "bow@g1:W", "fire@a7:S"} <= actions
    assert_not_actions(state, "sword@d4:E", "water@d4:W", "earth@a7:S", "sai@d4:X", "sai@z4:N")
    # Not in the homeground and not threatened by a tile of White's: not legal.
    assert_illegal(state, "sword@h4:N", "sword@d8:N", "lotus@d4:N")  # (no Lotus in hand yet)
    # Black squares take only a Lotus.
    assert_illegal(state, "sword@g7:N", "sai@g7:N")
    state = play([*draft(last="lotus"), "sword@g6:N", "draw air"])
    actions = legal(state)
    assert {"lotus@g7:N", "lotus@h8:N", "lotus@f9:N"} <= actions  # a Lotus goes anywhere
    # White's Sword on g6 lets White deploy on h5, h6 and h7, but not h4.
    assert {"earth@h5:N", "earth@h6:N", "earth@h7:N"} <= actions
    assert_illegal(state, "earth@h4:N")


def test_deploy_needs_zero_threat_and_a_lotus_at_most_two() -> None:
    state = play([*draft(last="lotus"), "sword@g6:N", "fire@h9:S"])
    # Black's Fire facing S threatens f7 and g7 (White's homeground) and h7.
    assert state.threat(0, "f7") == 1 and state.threat(0, "h7") == 1
    assert_illegal(state, "earth@f7:N", "earth@h7:N")
    assert {"lotus@f7:N", "lotus@g7:N", "earth@e7:N"} <= legal(state)
    # White's own Fire counts against White: e5 facing N threatens d6, e6 and f6 …
    state.apply_action(state.parse_action("fire@e5:N"))
    state.apply_action(state.parse_action("draw air"))
    assert state.threat(0, "e6") == 1
    assert_illegal(state, "earth@e6:N")
    assert "earth@e4:N" in legal(state)
    # … and f7 and g7: their threat is now 2, still enough for a Lotus.
    assert state.threat(0, "f7") == 2 and "lotus@f7:N" in legal(state)
    state.apply_action(state.parse_action("draw fire"))
    state.apply_action(state.parse_action("draw air"))
    state.apply_action(state.parse_action("fire@f5:N"))  # a third threat on f7 and g7
    state.apply_action(state.parse_action("draw sai"))
    assert state.threat(0, "f7") == 3 and state.threat(0, "g7") == 3
    assert_illegal(state, "lotus@f7:N", "lotus@g7:N")
    assert "lotus@e6:N" in legal(state)


# ---------------------------------------------------------------- the Sai's follow-up

SAI_SETUP = [*draft(), "sword@g6:N", "bow@j9:S", "sword@h6:N", "fire@j7:S"]


def test_a_deployed_sai_may_shift_turn_or_stay() -> None:
    state = play([*SAI_SETUP, "sai@i7:E"])
    # The same player acts again, with the Sai's moves only.
    assert state.current_player() == 0 and state.observation(0).phase == "follow-up"
    assert state.observation(0).pending_sai == "i7"
    actions = legal(state)
    assert "stay" in actions and {"i7:N", "i7:S", "i7:W"} <= actions
    assert {"i7-h7:N", "i7-i9:W", "i7-j8:S"} <= actions
    assert all(t == "stay" or t.startswith("i7") for t in actions)
    assert_illegal(state, "i7:E", "draw air", "sword@d4:N", "h6-h5:N")
    assert_not_actions(state, "i7-i7:N")
    # One turn: the deploy and its follow-up.
    turns = state.observation(0).turn
    state.apply_action(state.parse_action("i7:N"))
    assert state.observation(0).turn == turns + 1 and state.current_player() == 1
    # The follow-up counts as the Sai's first move in a row.
    assert state.observation(0).last_moved[0] == ("i7", 1)
    assert_illegal(play(SAI_SETUP), "stay")


def test_captures_wait_for_the_sai_follow_up() -> None:
    state = play([*SAI_SETUP, "sai@i7:E"])
    # Black's Fire on j7 now suffers 2 threats (itself and the Sai) and has no cover …
    assert state.threat(1, "j7") == 2 and state.cover(1, "j7") == 0
    # … but nothing is captured before the follow-up.
    assert state.tile_at("j7") == (1, "fire", "S") and state.lost() == [0, 0]
    stayed = state.clone()
    stayed.apply_action(stayed.parse_action("stay"))
    assert stayed.tile_at("j7") is None and stayed.lost() == [0, 1]
    turned = state.clone()
    turned.apply_action(turned.parse_action("i7:N"))  # the Sai looks away: no capture
    assert turned.tile_at("j7") == (1, "fire", "S") and turned.lost() == [0, 0]


def test_sai_follow_up_under_a_move_limit_of_one() -> None:
    state = play([*SAI_SETUP, "sai@i7:E", "i7:N", "draw air"], move_limit=1)
    # The follow-up turn was the Sai's first move in a row: it may not move this turn.
    assert not any(text.startswith("i7") for text in legal(state))
    state.apply_action(state.parse_action("draw air"))
    state.apply_action(state.parse_action("draw air"))
    assert "i7:E" in legal(state)


# ---------------------------------------------------------------- shift, passability, turn

# Black's Bows on h9 and h10 face S: h5 has 1 threat against White, h6 and h7 have 2.
LANES = [*draft(), "sword@g6:N", "bow@h9:S", "fire@g4:S", "bow@h10:S"]


def test_shift_passability_and_paths() -> None:
    state = play(LANES)
    assert [state.threat(0, s) for s in ("h5", "h6", "h7")] == [1, 2, 2]
    actions = legal(state)
    # A Sword may enter h5 (threat − cover = 1) by g5, though not by h6 (= 2).
    assert {"g6-h5:N", "g6-f5:N"} <= actions
    assert_illegal(state, "g6-h6:N", "g6-h7:N")
    # A Fire threatens its own square: it may not enter h5 (1 + itself = 2).
    assert_illegal(state, "g4-h5:S")
    assert {"g4-h4:S", "g4-h4:E", "g4:N"} <= actions
    # The facing-less Sword shifts with facing N only (the others are actions, never legal).
    assert_illegal(state, "g6-h5:E")
    # A shift ends on another square; black squares are never entered or crossed.
    assert_not_actions(state, "g6-g6:N", "g6-g7:N", "g8-h7:N", "g6-g8:N")
    # With g5 taken, the only way to h5 crosses h6: the shift is gone.
    state.apply_action(state.parse_action("earth@g5:N"))
    state.apply_action(state.parse_action("draw air"))
    assert_illegal(state, "g6-h5:N")
    # An Earth moves one step only; the occupied g6 and g4 block it.
    assert {text for text in legal(state) if text.startswith("g5-")} == {"g5-f5:N", "g5-h5:N"}


def test_turn_in_place() -> None:
    state = play(LANES)
    assert {"g4:N", "g4:E", "g4:W"} <= legal(state)
    # To the facing it has: not a turn. A Sword has no facing to turn.
    assert_illegal(state, "g4:S", "g6:E", "g6:N")
    assert_not_actions(state, "g7:N", "q4:N", "g4:Z")
    state.apply_action(state.parse_action("g4:E"))
    assert state.tile_at("g4") == (0, "fire", "E")
    # Black turns a Bow: h9 faces W and threatens f9, e9 and d9 instead of h7, h6 and h5.
    state.apply_action(state.parse_action("h9:W"))
    assert [state.threat(0, s) for s in ("h6", "h7", "e9", "d9")] == [1, 1, 1, 1]
    # h5 keeps 1 threat, now from White's own Fire, which faces E.
    assert state.threat(0, "h5") == 1 and state.threat(0, "h4") == 1


def test_water_redeploy() -> None:
    state = play([*draft(), "water@g5:N", "bow@h9:S", "draw fire", "bow@h10:S"])
    actions = legal(state)
    # The Water threatens h4 and h6; its own threat makes h4 a deploy square …
    assert {"g5>h4:N", "sword@h4:N", "g5>f6:N", "g5>a7:N"} <= actions
    # … and a shift may reach h4 too: both are actions.
    assert "g5-h4:N" in actions
    # h6 has Black's threat: no deploy or redeploy there.
    assert_illegal(state, "g5>h6:N", "sword@h6:N")
    assert_not_actions(state, "g5>g5:N", "g5>h4:E", "g5>g7:N")
    state.apply_action(state.parse_action("g5>h4:N"))
    assert state.tile_at("g5") is None and state.tile_at("h4") == (0, "water", "N")
    assert state.scores() == [1, 0]  # h4 is a middleground square


def test_redeploy_only_a_water() -> None:
    state = play(LANES)
    assert_illegal(state, "g6>f5:N", "g4>f5:N")


def test_move_limit_three_turns_in_a_row() -> None:
    state = play([*draft(), "sword@d4:N", "draw air", "d4-d5:N", "draw air", "d5-d4:N", "draw sai"])
    state.apply_action(state.parse_action("d4-d5:N"))
    state.apply_action(state.parse_action("draw sai"))
    assert state.observation(0).last_moved[0] == ("d5", 3)
    assert not any(text.startswith("d5") for text in legal(state))
    assert_illegal(state, "d5-d4:N")
    # Anything else resets the count.
    state.apply_action(state.parse_action("earth@a7:N"))
    state.apply_action(state.parse_action("draw sword"))
    assert state.observation(0).last_moved[0] == (None, 0)
    assert "d5-d4:N" in legal(state)


def test_move_limit_counts_the_same_tile_only() -> None:
    texts = [*draft(), "sword@d4:N", "draw air", "sword@b7:N", "draw air"]
    texts += ["d4-d5:N", "draw sai", "b7-b6:N", "draw sai", "d5-d4:N", "draw sword"]
    state = play(texts, move_limit=1)
    assert state.observation(0).last_moved[0] == ("d4", 1)
    assert "b6-b7:N" in legal(state) and "d4-d5:N" not in legal(state)
    unlimited = play(texts, move_limit=None)
    assert "d4-d5:N" in legal(unlimited)
    assert unlimited.observation(0).last_moved == ((None, 0), (None, 0))


# ---------------------------------------------------------------- self-capture and captures

# Black: Swords on j8 and j6, a Water on j7 covering j6. White: a Bow on j4 facing N (threatens
# j6, j7, j8), a Sword on i5 (threatens j6), an Earth on h4 and a Sword on g6.
CASCADE = [
    *draft(("sword", "sword", "sword", "earth", "earth", "fire", "water"),
           ("sword", "sword", "water", "fire", "sai", "bow", "lotus", "air", "earth"), "bow"),
    "sword@g6:N", "sword@j8:N", "sword@g4:N", "sword@j7:N", "earth@h4:N", "j7-j6:N",
    "draw air", "water@j7:N", "bow@j4:N", "draw air", "g4-h5:N", "draw sai", "h5-i5:N",
    "draw sai",
]  # fmt: skip


def test_self_capture_is_illegal_even_if_the_attacker_would_fall() -> None:
    state = play(CASCADE)
    # White's Sword on i5 suffers 1 threat (Black's Sword on j6) and has no cover.
    assert state.threat(0, "i5") == 1 and state.cover(0, "i5") == 0
    # A Fire on i4 facing N would threaten both i5 and j6. It would capture j6 (the Sword's
    # attacker), but the self-capture check comes first: i5 would suffer 2.
    assert_illegal(state, "fire@i4:N")
    assert {"fire@i4:E", "fire@i4:S", "fire@i4:W"} <= legal(state)


def test_self_capture_by_moving_a_cover_away() -> None:
    state = play([*CASCADE, "draw lotus"])  # Black to act
    # Black's Sword on j6 suffers 2 threats and only the Water on j7 covers it: the Water may
    # move (shift or redeploy) only to k6, where it still covers j6.
    assert {t for t in legal(state) if t.startswith("j7")} == {"j7-k6:N", "j7>k6:N"}
    assert state.threat(1, "k7") == 0  # k7 itself would be safe for the Water
    assert_illegal(state, "j7-k7:N", "j7>k8:N")


def test_capture_cascade_and_the_victims_picks() -> None:
    state = play(CASCADE)
    # j6: 2 threats (Bow, Sword) but covered by the Water; j7: the Water, 1 threat, no cover.
    assert (state.threat(1, "j6"), state.cover(1, "j6")) == (2, 1)
    assert (state.threat(1, "j7"), state.cover(1, "j7")) == (1, 0)
    # An Earth on h7 adds a second threat to j7: the Water falls, and with its cover gone the
    # Sword on j6 falls too. j8 keeps its homeground cover.
    state.apply_action(state.parse_action("earth@h7:N"))
    assert state.tile_at("j7") is None and state.tile_at("j6") is None
    assert state.tile_at("j8") == (1, "sword", "N")
    assert state.lost() == [0, 2]
    # Black (the victim) picks 2 tiles of White's reserve for White, one action each.
    assert state.current_player() == 1 and state.observation(1).phase == "picks"
    assert state.observation(1).picks == 2
    assert legal(state) == {f"give {t}" for t in set(state.reserve(0))}
    assert_illegal(state, "give sword", "draw air")  # White has no Sword left in reserve
    hand = state.hand(0)
    state.apply_action(state.parse_action("give lotus"))
    assert state.current_player() == 1 and state.observation(1).picks == 1
    state.apply_action(state.parse_action("give lotus"))
    assert sorted(state.hand(0)) == sorted([*hand, "lotus", "lotus"])
    assert state.reserve(0).count("lotus") == 1
    # The picks belong to White's turn; then Black plays.
    assert state.current_player() == 1 and state.observation(1).phase == "play"
    # Undo restores the Water, the Sword and every map.
    for _ in range(3):
        state.undo_action()
    assert state == play(CASCADE)
    assert state.threat(1, "j6") == 2 and state.cover(1, "j6") == 1


def test_picks_stop_when_the_capturers_reserve_is_empty() -> None:
    # White first draws its reserve down to one Earth; Black draws single tiles meanwhile.
    texts = CASCADE[:17]
    white = ["sai,sai,sai", "lotus,lotus,lotus", "air,air,bow", "bow,fire,fire", "water,water"]
    black = ["lotus", "lotus", "earth", "earth", "bow"]
    for mine, theirs in zip(white, black, strict=True):
        texts += [f"draw {mine}", f"draw {theirs}"]
    state = play(texts + CASCADE[17:])
    assert state.reserve(0) == ["earth"]
    state.apply_action(state.parse_action("earth@h7:N"))
    # Two tiles fell but White's reserve holds one: Black picks once.
    assert state.lost() == [0, 2] and state.observation(1).picks == 1
    assert legal(state) == {"give earth"}
    state.apply_action(state.parse_action("give earth"))
    assert state.reserve(0) == [] and state.current_player() == 1
    assert state.observation(1).phase == "play"


def test_a_fire_falls_to_one_uncovered_threat() -> None:
    state = play([*draft(), "sword@g6:N", "bow@j9:S", "draw air", "fire@j7:S"])
    # The Fire threatens its own square: 1 threat already, and no cover in a middleground.
    assert state.threat(1, "j7") == 1 and state.cover(1, "j7") == 0
    state.apply_action(state.parse_action("earth@h7:N"))  # threatens j7 (two squares right)
    assert state.tile_at("j7") is None and state.lost() == [0, 1]


def test_a_covered_fire_survives_one_threat() -> None:
    # On j9, in Black's homeground, a Fire is covered: its own threat and one more make 2 − 1.
    state = play([*draft(), "sword@g6:N", "fire@j9:S", "earth@h5:N", "draw air"])
    state.apply_action(state.parse_action("bow@j5:N"))  # threatens j7, j8 and j9
    assert state.threat(1, "j9") == 2 and state.cover(1, "j9") == 1
    assert state.tile_at("j9") == (1, "fire", "S") and state.lost() == [0, 0]


# ---------------------------------------------------------------- scoring and the end

WIN = [
    *draft(("sword", "sword", "sword", "earth", "earth", "earth", "water"),
           ("sword", "sword", "water", "fire", "sai", "bow", "lotus", "air", "earth"), "water"),
    "sword@d7:N", "sword@h9:N", "earth@d8:N", "bow@g9:N", "earth@e8:N", "draw air",
    "earth@d9:N", "draw air", "water@e9:N", "draw sai", "water@d10:N", "draw sai",
    "draw bow,bow,water", "draw fire", "bow@c8:N", "draw fire", "bow@c9:N", "draw lotus",
    "water@e10:N", "draw lotus", "sword@f10:N", "draw sword",
]  # fmt: skip


def test_scoring() -> None:
    # White's Sword on d7 is at home (0), its Earth on d8 in a middleground (1); Black's Sword on
    # h9 is at home (0), its Bow on g9 in a middleground (1).
    state = play(WIN[:21])
    assert state.scores() == [1, 1] and state.observation(None).scores == (1, 1)
    # A tile in the opponent's homeground scores 2: White's Sai shifts from i7 into i8.
    state = play([*SAI_SETUP, "sai@i7:E", "i7-i8:N"])
    assert state.tile_at("i8") == (0, "sai", "N")
    assert state.scores() == [1 + 2, 1]  # the Sword on h6 and the Sai; Black's Fire on j7
    # A Lotus scores nothing, even in the opponent's homeground.
    state = play([*draft(last="lotus"), "sword@g6:N", "draw air", "lotus@h8:N", "draw air"])
    assert state.scores() == [0, 0]


def test_ten_points_win_after_the_picks() -> None:
    state = play(WIN)
    assert state.scores() == [9, 1] and state.threat(1, "g9") == 1
    # The 10th point also captures Black's Bow on g9 (its second threat).
    state.apply_action(state.parse_action("sword@f8:N"))
    assert state.scores() == [10, 0] and state.lost() == [0, 1]
    # The game waits for Black's pick.
    assert not state.is_terminal() and state.current_player() == 1
    assert state.returns() == [0.0, 0.0]
    state.apply_action(state.parse_action("give fire"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.observation(None).winner == 0 and state.legal_actions() == []
    assert_illegal(state, "draw air", "give air")


def test_max_turns_draws_and_the_picks_belong_to_the_turn() -> None:
    # The cascade is White's 15th turn: with max_turns=15 the picks still happen.
    state = play(CASCADE, max_turns=15)
    state.apply_action(state.parse_action("earth@h7:N"))
    assert not state.is_terminal()
    state.apply_action(state.parse_action("give lotus"))
    state.apply_action(state.parse_action("give lotus"))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.observation(None).winner is None and state.observation(None).turn == 15
    # A Sai's deploy and its follow-up are one turn.
    state = play([*draft(), "sai@d4:N"], max_turns=1)
    assert not state.is_terminal()
    state.apply_action(state.parse_action("stay"))
    assert state.is_terminal()
    # Without a limit the game goes on.
    assert not play(
        [*CASCADE, "earth@h7:N", "give lotus", "give lotus"], max_turns=None
    ).is_terminal()

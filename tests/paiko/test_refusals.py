"""Why an action is refused (issue #14): one test per rule of docs/games/paiko.rst that can
refuse an action, each on a position reached through real actions, with the exact reason, the
error that carries it and the state left unchanged; then a property over random games: the
rules as :mod:`tikigames.paiko.refusals` reads them break no rule exactly for the legal actions,
so a refusal always names a specific rule, never the fallback."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import tikigames
from tikigames import IllegalActionError
from tikigames.paiko import PaikoAction, PaikoState
from tikigames.paiko.actions import DEPLOY, DRAW, REDEPLOY, SHIFT, TURN
from tikigames.paiko.data import SQUARE_NAMES, TILES
from tikigames.paiko.refusals import FALLBACK, refusal, rule_broken

# Drafts used by the scenarios (as in test_rules.py): White's first 7 tiles, Black's 9, White's
# last one.
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


def refused(state: PaikoState, text: str) -> str:
    """The reason ``text`` (an action of the game, not legal now) is refused, checked to be the
    same through ``illegal_reason``, ``apply_action`` (the error's reason and message) and
    ``parse_action``; the state is unchanged."""
    action = state.game.action_table.parse(text)
    before = (state.to_json(), hash(state))
    reason = state.illegal_reason(action)
    assert reason is not None and reason != FALLBACK
    with pytest.raises(IllegalActionError) as raised:
        state.apply_action(action)
    assert raised.value.reason == reason
    assert str(raised.value) == f"{text!r}: {reason}"
    with pytest.raises(IllegalActionError) as parsed:
        state.parse_action(text)
    assert parsed.value.reason == reason
    assert (state.to_json(), hash(state)) == before
    return reason


DRAFT_FIRST = (
    "the draft comes first: White takes a tile from its reserve (White 7, Black 9, White 1 more)"
)
FOLLOW_UP_FIRST = (
    "White's Sai deployed on i7 has its follow-up first: only stay, or a shift or turn of that Sai"
)

# Positions of test_rules.py. White's Sword on g6 and Fire on g4 (facing S); Black's Bows on h9
# and h10 face S: h5 has 1 threat against White, h6 and h7 have 2.
LANES = [*draft(), "sword@g6:N", "bow@h9:S", "fire@g4:S", "bow@h10:S"]
# Black's Fire on j7 (facing S) under its Bow on j9; White's Swords on g6 and h6.
SAI_SETUP = [*draft(), "sword@g6:N", "bow@j9:S", "sword@h6:N", "fire@j7:S"]
# Black: Swords on j8 and j6, a Water on j7 covering j6. White: a Bow on j4 facing N (threatens
# j6, j7, j8), a Sword on i5 (threatens j6), an Earth on h4 and a Sword on g6.
CASCADE = [
    *draft(("sword", "sword", "sword", "earth", "earth", "fire", "water"),
           ("sword", "sword", "water", "fire", "sai", "bow", "lotus", "air", "earth"), "bow"),
    "sword@g6:N", "sword@j8:N", "sword@g4:N", "sword@j7:N", "earth@h4:N", "j7-j6:N",
    "draw air", "water@j7:N", "bow@j4:N", "draw air", "g4-h5:N", "draw sai", "h5-i5:N",
    "draw sai",
]  # fmt: skip


# ---------------------------------------------------------------- Setup: the draft


def test_setup_the_draft_comes_first() -> None:
    """Setup: White takes 7 tiles, Black 9, White 1 more, one per action, before any turn."""
    state = play(["draft bow"])
    for text in ("draw air", "sword@d4:N", "pass", "give air", "stay"):
        assert refused(state, text) == DRAFT_FIRST
    black = play(draft()[:8])
    assert refused(black, "pass") == DRAFT_FIRST.replace("White takes", "Black takes")


def test_setup_a_type_runs_out_after_three() -> None:
    """Tiles: each player owns 3 of each type; the draft takes them from the reserve."""
    state = play(["draft bow"] * 3)
    assert refused(state, "draft bow") == (
        "White's reserve holds no Bow to draft: all 3 are drafted already"
    )


def test_setup_the_draft_is_over() -> None:
    assert refused(play(draft()), "draft air") == "the draft is over"


# ---------------------------------------------------------------- Turn: draw


def test_draw_not_with_an_empty_reserve() -> None:
    """Turn, Draw: not with an empty reserve."""
    white = ["lotus,lotus,lotus", "air,air,air", "sai,sword,bow", "earth,earth,water",
             "water,fire,fire"]  # fmt: skip
    black = ["sai,sai,sword", "sword,bow,lotus", "lotus,air,air", "fire,fire,earth",
             "earth,water,water"]  # fmt: skip
    texts = draft()
    for mine, theirs in zip(white, black, strict=True):
        texts += [f"draw {mine}", f"draw {theirs}"]
    state = play([*texts, "draw bow"], draw_exact=True)
    assert state.reserve(1) == [] and state.current_player() == 1
    assert refused(state, "draw air") == "a draw takes tiles from the reserve, and Black's is empty"


def test_draw_only_tiles_of_your_reserve() -> None:
    """Turn, Draw: 1 to 3 tiles of your choice from your reserve."""
    state = play(draft())  # White's reserve: 1 Sword, 1 Sai, 3 Lotuses …
    assert refused(state, "draw sword,sword") == (
        "White's reserve holds 1 Sword, and the draw takes 2"
    )
    assert refused(state, "draw sai,sai") == "White's reserve holds 1 Sai, and the draw takes 2"
    state = play([*draft(), "draw sword"])
    assert refused(state, "draw lotus,lotus,lotus") == (
        "Black's reserve holds 2 Lotuses, and the draw takes 3"
    )


def test_draw_exact_takes_min_3_reserve() -> None:
    """Turn, Draw: option draw_exact, exactly min(3, reserve) tiles."""
    state = play(draft(), draw_exact=True)
    for text in ("draw lotus", "draw lotus,air"):
        assert refused(state, text) == (
            "with draw_exact a draw takes exactly min(3, reserve) tiles: 3 for White"
        )


# ---------------------------------------------------------------- Turn: deploy


def test_deploy_a_tile_of_your_hand() -> None:
    """Turn, Deploy: put a tile from your hand on the board."""
    state = play(draft())
    assert refused(state, "lotus@d4:N") == "White has no Lotus in hand to deploy"
    assert refused(state, "air@d4:N") == "White has no Air in hand to deploy"


def test_deploy_on_an_empty_square() -> None:
    """Turn, Deploy: on an empty square (a Lotus too)."""
    state = play([*draft(last="lotus"), "sword@g6:N", "draw air"])
    assert refused(state, "earth@g6:N") == (
        "a tile is deployed on an empty square, and g6 holds White's Sword"
    )
    assert refused(state, "lotus@g6:N") == (
        "a tile is deployed on an empty square, and g6 holds White's Sword"
    )


def test_deploy_only_a_lotus_on_a_black_square() -> None:
    """Board: only a Lotus may stand on a black square."""
    state = play(draft())
    for text in ("sword@g7:N", "sai@g7:N"):
        assert refused(state, text) == "only a Lotus may stand on a black square, and g7 is one"


def test_deploy_not_on_a_threatened_square() -> None:
    """Turn, Deploy: the square's threat against you is 0, your own Fires counted."""
    state = play([*draft(last="lotus"), "sword@g6:N", "fire@h9:S"])
    assert refused(state, "earth@f7:N") == (
        "an Earth may not be deployed on a threatened square (f7 is threatened by Black's Fire"
        " on h9)"
    )
    assert refused(state, "sai@h7:W") == (
        "a Sai may not be deployed on a threatened square (h7 is threatened by Black's Fire on h9)"
    )
    state.apply_action(state.parse_action("fire@e5:N"))
    state.apply_action(state.parse_action("draw air"))
    assert refused(state, "earth@e6:N") == (
        "an Earth may not be deployed on a threatened square (e6 is threatened by White's own"
        " Fire on e5)"
    )


def test_deploy_in_the_homeground_or_where_your_tiles_threaten() -> None:
    """Turn, Deploy: in your homeground or threatened by at least one of your tiles."""
    state = play([*draft(), "sword@g6:N", "draw air"])
    assert "earth@h5:N" in [str(a) for a in state.legal_actions()]
    assert refused(state, "earth@h4:N") == (
        "White deploys only in White's homeground (bottom left: files a–g, ranks 1–7) or on a"
        " square a tile of White's threatens: h4 is in the east middleground, and no tile of"
        " White's threatens it"
    )
    assert refused(state, "sword@h10:N") == (
        "White deploys only in White's homeground (bottom left: files a–g, ranks 1–7) or on a"
        " square a tile of White's threatens: h10 is in Black's homeground, and no tile of"
        " White's threatens it"
    )


def test_deploy_a_lotus_where_the_threat_is_at_most_2() -> None:
    """Turn, Deploy: a Lotus on any empty square whose threat against you is at most 2."""
    texts = [*draft(last="lotus"), "sword@g6:N", "fire@h9:S", "fire@e5:N", "draw air"]
    texts += ["draw fire", "draw air", "fire@f5:N", "draw sai"]
    state = play(texts)
    assert "lotus@e6:N" in [str(a) for a in state.legal_actions()]
    assert refused(state, "lotus@f7:N") == (
        "a Lotus may be deployed only where the threat against White is at most 2: f7 has 3"
        " (Black's Fire on h9, White's own Fire on e5 and White's own Fire on f5)"
    )


# ---------------------------------------------------------------- Turn: a Sai's follow-up


def test_a_deployed_sai_has_its_follow_up_first() -> None:
    """Turn, Deploy: while a Sai's follow-up is pending only stay and its shifts and turns."""
    state = play([*SAI_SETUP, "sai@i7:E"])
    for text in ("draw air", "sword@d4:N", "h6-h5:N", "pass", "i7>i9:N"):
        assert refused(state, text) == FOLLOW_UP_FIRST


def test_a_follow_up_turn_changes_the_facing() -> None:
    """Repetition limit: a Sai's follow-up turn, like any turn in place, changes its facing."""
    state = play([*SAI_SETUP, "sai@i7:E"])
    assert refused(state, "i7:E") == (
        "a turn in place must change the facing, and White's Sai on i7 already faces E"
    )


def test_stay_only_after_a_sai_is_deployed() -> None:
    """Turn, Deploy: stay is a deployed Sai's follow-up."""
    assert refused(play(SAI_SETUP), "stay") == (
        "stay is a deployed Sai's follow-up, and no Sai awaits one"
    )


# ---------------------------------------------------------------- Turn: shift and turn


def test_shift_one_of_your_tiles() -> None:
    """Turn, Shift: move one of your tiles."""
    state = play(LANES)
    assert refused(state, "d4-d5:N") == "there is no tile on d4 to move"
    assert refused(state, "h9-h10:S") == (
        "a player moves only their own tiles, and Black's Bow on h9 is not White's"
    )
    assert refused(state, "h9:W") == (
        "a player moves only their own tiles, and Black's Bow on h9 is not White's"
    )


def test_a_lotus_and_an_air_never_move() -> None:
    """Tiles: the Lotus and the Air never move or rotate (shift 0)."""
    state = play([*draft(last="lotus"), "lotus@d4:N", "draw sai"])
    assert refused(state, "d4-d5:N") == "a Lotus never moves or rotates"
    state = play([*draft(last="air"), "air@d4:N", "draw sai"])
    assert refused(state, "d4-e4:N") == "an Air never moves or rotates"
    assert refused(state, "d4:E") == "an Air never moves or rotates"


def test_a_tile_without_facing_shifts_with_n_only() -> None:
    """Tiles: the five facing-less tiles always face N."""
    state = play(LANES)
    assert refused(state, "g6-h5:E") == "a Sword has no facing: it shifts with :N only"


def test_an_earth_shifts_one_square() -> None:
    """Tiles: the Earth's shift range is 1."""
    state = play([*LANES, "earth@g5:N", "draw air"])
    assert refused(state, "g5-g3:N") == "an Earth shifts only 1 square, and g5 to g3 is 2"


def test_a_shift_ends_on_an_empty_square() -> None:
    """Turn, Shift: every square entered is empty."""
    state = play([*LANES, "earth@g5:N", "draw air"])
    assert refused(state, "g5-g6:N") == (
        "a shift ends on an empty square, and g6 holds White's Sword"
    )


def test_a_shift_enters_passable_squares_only() -> None:
    """Turn, Shift: threat − cover below 2 on every square entered (below 1 for a Fire)."""
    state = play(LANES)
    assert refused(state, "g6-h6:N") == (
        "every square a shift enters must be passable: h6 has threat 2 (Black's Bow on h10 and"
        " Black's Bow on h9) − cover 0 against White's Sword, not below 2"
    )
    assert refused(state, "g4-h5:S") == (
        "every square a shift enters must be passable: h5 has threat 1 (Black's Bow on h9)"
        " − cover 0 against White's Fire, not below 1 for a Fire, which threatens itself"
    )


def test_a_shift_needs_a_passable_path() -> None:
    """Turn, Shift: a 2-step shift passes through an empty, passable square."""
    state = play([*LANES, "earth@g5:N", "draw air"])
    assert refused(state, "g6-h5:N") == (
        "every square a shift enters must be empty and passable, and the way from g6 to h5 is"
        " blocked: h6 has threat 2 (Black's Bow on h10 and Black's Bow on h9) − cover 0 against"
        " White's Sword, not below 2; g5 holds White's Earth"
    )


def test_only_a_sai_bow_or_fire_turns_in_place() -> None:
    """Turn, Shift: turning in place is allowed only for a Sai, Bow or Fire."""
    state = play(LANES)
    for text in ("g6:E", "g6:N"):
        assert refused(state, text) == (
            "only a Sai, Bow or Fire turns in place: a Sword looks the same in every facing"
        )


def test_a_turn_in_place_changes_the_facing() -> None:
    """Turn, Shift: a turn in place is to a different facing."""
    state = play(LANES)
    assert refused(state, "g4:S") == (
        "a turn in place must change the facing, and White's Fire on g4 already faces S"
    )


# ---------------------------------------------------------------- Turn: redeploy a Water


def test_only_a_water_redeploys() -> None:
    """Turn, Redeploy a Water."""
    state = play(LANES)
    assert refused(state, "g6>f5:N") == (
        "only a Water may redeploy, and White's Sword on g6 is not one"
    )
    assert (
        refused(state, "g4>f5:N") == "only a Water may redeploy, and White's Fire on g4 is not one"
    )


def test_a_water_redeploys_by_the_deploy_rule() -> None:
    """Turn, Redeploy a Water: by the deploy rule for non-Lotus tiles, its threat still
    counting."""
    state = play([*draft(), "water@g5:N", "bow@h9:S", "sword@f6:N", "bow@h10:S"])
    assert refused(state, "g5>f6:N") == (
        "a Water redeploys onto an empty square, and f6 holds White's Sword"
    )
    assert refused(state, "g5>h6:N") == (
        "a Water may not be redeployed on a threatened square (h6 is threatened by Black's Bow"
        " on h10 and Black's Bow on h9)"
    )
    assert refused(state, "g5>i4:N") == (
        "a Water redeploys only in White's homeground (bottom left: files a–g, ranks 1–7) or on"
        " a square a tile of White's threatens (the Water's own included): i4 is in the east"
        " middleground, and no tile of White's threatens it"
    )
    assert "g5>h4:N" in [str(a) for a in state.legal_actions()]  # the Water's own threat


# ---------------------------------------------------------------- Turn: repetition limit


def test_the_repetition_limit() -> None:
    """Repetition limit: the same tile moves on at most move_limit of your turns in a row."""
    texts = [*draft(), "sword@d4:N", "draw air", "d4-d5:N", "draw air", "d5-d4:N", "draw sai"]
    state = play([*texts, "d4-d5:N", "draw sai"])
    assert refused(state, "d5-d4:N") == (
        "the same tile may not be shifted, turned or redeployed on more than 3 of your turns in a"
        " row, and White's Sword on d5 moved on White's last 3 turns"
    )
    state = play(texts[:21], move_limit=1)
    assert refused(state, "d5-d4:N") == (
        "the same tile may not be shifted, turned or redeployed on more than 1 of your turns in a"
        " row, and White's Sword on d5 moved on White's last turn"
    )


# ---------------------------------------------------------------- Turn: self-capture


def test_self_capture_by_a_fires_threat() -> None:
    """Self-capture is illegal: a Fire's threat counts against its own side."""
    state = play(CASCADE)
    assert refused(state, "fire@i4:N") == (
        "self-capture is illegal: White's Sword on i5 would be capturable (threat 2 from Black's"
        " Sword on j6 and White's own Fire on i4, no cover)"
    )


def test_self_capture_by_moving_a_cover_away() -> None:
    """Self-capture is illegal: after a shift or a redeploy that takes a cover away."""
    state = play([*CASCADE, "draw lotus"])
    reason = (
        "self-capture is illegal: Black's Sword on j6 would be capturable (threat 2 from White's"
        " Sword on i5 and White's Bow on j4, no cover)"
    )
    assert refused(state, "j7-k7:N") == reason
    assert refused(state, "j7>k8:N") == reason


# ---------------------------------------------------------------- Turn: pass


def test_pass_only_when_nothing_else_is_legal() -> None:
    """Turn, Pass: only when no other action is legal."""
    state = play(draft())
    assert refused(state, "pass") == (
        "a pass only when no other action is legal, and White may play draw sai"
    )


# ---------------------------------------------------------------- Captures: the picks


def test_the_captured_player_picks_first() -> None:
    """Captures: the owner of the captured tiles picks, one give per tile removed."""
    state = play([*CASCADE, "earth@h7:N"])
    for text in ("draw air", "pass", "j8-k8:N"):
        assert refused(state, text) == (
            "after a capture the captured player picks first: Black picks 2 tiles of White's"
            " reserve for White's hand"
        )
    state.apply_action(state.parse_action("give lotus"))
    assert refused(state, "stay") == (
        "after a capture the captured player picks first: Black picks a tile of White's"
        " reserve for White's hand"
    )


def test_a_pick_is_from_the_capturers_reserve() -> None:
    """Captures: the owner chooses one tile of the capturer's reserve."""
    state = play([*CASCADE, "earth@h7:N"])
    assert refused(state, "give sword") == "Black picks from White's reserve, which holds no Sword"


def test_give_only_after_a_capture() -> None:
    assert refused(play(draft()), "give air") == (
        "a pick (give) follows a capture only, and no picks are due"
    )


# ---------------------------------------------------------------- Scoring and end


def test_nothing_once_the_game_is_over() -> None:
    """Scoring and end: a win at 10 points, a draw by max_turns."""
    won = [
        *draft(("sword", "sword", "sword", "earth", "earth", "earth", "water"),
               ("sword", "sword", "water", "fire", "sai", "bow", "lotus", "air", "earth"),
               "water"),
        "sword@d7:N", "sword@h9:N", "earth@d8:N", "bow@g9:N", "earth@e8:N", "draw air",
        "earth@d9:N", "draw air", "water@e9:N", "draw sai", "water@d10:N", "draw sai",
        "draw bow,bow,water", "draw fire", "bow@c8:N", "draw fire", "bow@c9:N", "draw lotus",
        "water@e10:N", "draw lotus", "sword@f10:N", "draw sword", "sword@f8:N", "give fire",
    ]  # fmt: skip
    state = play(won)
    assert state.winner() == 0
    assert refused(state, "draw air") == "the game is over: White won"
    drawn = play([*draft(), "draw air", "draw air"], max_turns=2)
    assert drawn.is_terminal() and drawn.winner() is None
    assert refused(drawn, "give air") == "the game is over: it is drawn"


# ---------------------------------------------------------------- the property


def candidates(state: PaikoState, rng: random.Random) -> list[PaikoAction]:
    """Actions worth asking about: every move of the mover's tiles, every deploy of a tile in
    hand, every draw, and some others at random."""
    player = state.current_player()
    hand = set(state.hand(player))
    mine = set(state.squares(player))
    table = list(state.game.action_table)
    chosen = [
        action
        for action in table
        if action.kind == DRAW
        or (action.kind == DEPLOY and TILES[action.tile] in hand)
        or (action.kind in (SHIFT, TURN, REDEPLOY) and SQUARE_NAMES[action.src] in mine)
    ]
    return chosen + rng.sample(table, 100)


#: The options of the property's three walks.
OPTIONS: list[dict[str, Any]] = [{}, {"move_limit": 1, "draw_exact": True}, {"move_limit": None}]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_refusal_names_a_rule(seed: int) -> None:
    """Over random games (with and without the options): ``rule_broken`` is ``None`` exactly
    for the legal actions — so it is an independent reading of the rules that agrees with the
    engine, and a refusal never falls back to :data:`FALLBACK`; ``illegal_reason`` is ``None``
    for the legal ones and is what ``apply_action`` raises."""
    options = OPTIONS[seed]
    game = tikigames.load("paiko", **options)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(2):
        state = game.new_initial_state()
        assert isinstance(state, PaikoState)
        steps = 0
        while not state.is_terminal() and steps < 250:
            if steps % 9 == 4 or (state.phase() in ("follow-up", "picks") and steps % 2):
                legal = set(state.legal_actions())
                for action in legal:
                    assert rule_broken(state, action) is None, (state.history(), action)
                    assert state.illegal_reason(action) is None
                illegal = [a for a in candidates(state, rng) if a not in legal]
                for action in illegal:
                    reason = rule_broken(state, action)
                    assert reason is not None, (state.history(), action)
                    seen[reason.split(",")[0].split(":")[0][:40]] += 1
                for action in rng.sample(illegal, 3):
                    assert refusal(state, action) == rule_broken(state, action) != FALLBACK
                    with pytest.raises(IllegalActionError) as raised:
                        state.apply_action(action)
                    assert raised.value.reason == rule_broken(state, action)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    # The walk reaches the rules of a turn, not only the cheap ones.
    assert any(reason.startswith("self-capture") for reason in seen)
    assert any(reason.startswith("every square a shift enters") for reason in seen)

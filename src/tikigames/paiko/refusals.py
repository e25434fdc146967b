"""Why a Paikō action is refused: the rule of docs/games/paiko.rst that forbids it, in its words.

:func:`rule_broken` reads the position square by square from the public accessors of the state
(``state.board()``, ``hand``, ``reserve``, ``last_moved`` …) and names the first rule an action
breaks, in the order a player would think of them — the phase and whose turn it is, then what
the action moves or deploys, then the squares it uses, and self-capture last, since that needs
the whole action. What threatens, covers and supports a square, and so what is passable,
capturable or a deploy square, it takes from the engine's own maps
(:class:`~tikigames.paiko.maps.PaikoMaps`) of the board as the action would leave it (a tile
lifted, a tile placed), and the Lotus's limit from :mod:`tikigames.paiko.movegen`; the pattern
tables of :mod:`tikigames.paiko.data` only name the tiles. The tests hold it against the
engine: it breaks no rule exactly for the legal actions. It is only called on a refusal, so it
is written for clarity, not speed.

Texts name the tile, its owner and its square (``White's Sword on g6``), tile types written as
the rules write them (Sai, Sword …).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final

from tikigames.paiko.actions import DEPLOY, DRAFT, DRAW, GIVE, PASS, REDEPLOY, SHIFT, STAY, TURN
from tikigames.paiko.data import (
    AIR,
    BIT,
    BLACK,
    COPIES,
    FACED,
    FACINGS,
    FIRE,
    LOTUS,
    PLAYER_NAMES,
    SAI,
    SHIFT_RANGE,
    SHIFT_TARGETS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TILE_INDEX,
    TILES,
    WATER,
)
from tikigames.paiko.maps import PaikoMaps
from tikigames.paiko.movegen import LOTUS_MAX_THREAT, lotus_calm
from tikigames.paiko.words import (
    HOMEGROUNDS,
    Pieces,
    a_tile,
    owned,
    placed,
    quarter_name,
    threats_in_words,
    tile_count,
    tile_name,
)

if TYPE_CHECKING:
    from tikigames.paiko.actions import PaikoAction
    from tikigames.paiko.state import PaikoState

__all__ = ["FALLBACK", "refusal", "rule_broken"]

#: What :func:`refusal` says when no rule of :func:`rule_broken` matches (the tests show that
#: random play never reaches it).
FALLBACK: Final = "not legal now under the rules of Paikō"


def refusal(state: PaikoState, action: PaikoAction) -> str:
    """Why ``action``, not legal in ``state``, is refused: :func:`rule_broken`, or
    :data:`FALLBACK` should no rule match."""
    return rule_broken(state, action) or FALLBACK


def rule_broken(state: PaikoState, action: PaikoAction) -> str | None:
    """The first rule ``action`` breaks in ``state``, in the rules' words; ``None`` when it
    breaks none, which is exactly when it is legal.

    >>> import tikigames
    >>> state = tikigames.load("paiko").new_initial_state()
    >>> rule_broken(state, state.game.action_table.parse("draw air"))
    'the draft comes first: White takes a tile from its reserve (White 7, Black 9, White 1 more)'
    >>> rule_broken(state, state.game.action_table.parse("draft air")) is None
    True
    """
    phase = state.phase()
    if phase == "over":
        winner = state.winner()
        if winner is None:
            return "the game is over: it is drawn"
        return f"the game is over: {PLAYER_NAMES[winner]} won"
    if phase == "draft":
        return _in_draft(state, action)
    if phase == "picks":
        return _in_picks(state, action)
    if phase == "follow-up":
        return _in_follow_up(state, action)
    return _in_turn(state, action)


# ----------------------------------------------------------------- phases


def _in_draft(state: PaikoState, action: PaikoAction) -> str | None:
    p = state.current_player()
    who = PLAYER_NAMES[p]
    if action.kind != DRAFT:
        return (
            f"the draft comes first: {who} takes a tile from its reserve"
            " (White 7, Black 9, White 1 more)"
        )
    if TILES[action.tile] not in state.reserve(p):
        return (
            f"{who}'s reserve holds no {tile_name(action.tile)} to draft:"
            f" all {COPIES} are drafted already"
        )
    return None


def _in_picks(state: PaikoState, action: PaikoAction) -> str | None:
    victim = state.current_player()
    capturer = 1 - victim
    who, whose = PLAYER_NAMES[victim], PLAYER_NAMES[capturer]
    if action.kind != GIVE:
        n = state.picks()
        tiles = "a tile" if n == 1 else f"{n} tiles"
        return (
            f"after a capture the captured player picks first: {who} picks {tiles} of"
            f" {whose}'s reserve for {whose}'s hand"
        )
    if TILES[action.tile] not in state.reserve(capturer):
        return f"{who} picks from {whose}'s reserve, which holds no {tile_name(action.tile)}"
    return None


def _in_follow_up(state: PaikoState, action: PaikoAction) -> str | None:
    sai = state.pending_sai()
    assert sai is not None
    kind = action.kind
    if kind == STAY:
        return None
    if kind not in (SHIFT, TURN) or action.src != SQUARE_INDEX[sai]:
        who = PLAYER_NAMES[state.current_player()]
        return (
            f"{who}'s Sai deployed on {sai} has its follow-up first:"
            " only stay, or a shift or turn of that Sai"
        )
    return _move(state, action, follow_up=True)


def _in_turn(state: PaikoState, action: PaikoAction) -> str | None:
    kind = action.kind
    if kind == DRAFT:
        return "the draft is over"
    if kind == GIVE:
        return "a pick (give) follows a capture only, and no picks are due"
    if kind == STAY:
        return "stay is a deployed Sai's follow-up, and no Sai awaits one"
    if kind == PASS:
        others = [a for a in state.legal_actions() if a.kind != PASS]
        if others:
            who = PLAYER_NAMES[state.current_player()]
            return f"a pass only when no other action is legal, and {who} may play {others[0]}"
        return None
    if kind == DRAW:
        return _draw(state, action)
    if kind == DEPLOY:
        return _deploy(state, action)
    return _move(state, action, follow_up=False)


# ----------------------------------------------------------------- the actions of a turn


def _draw(state: PaikoState, action: PaikoAction) -> str | None:
    p = state.current_player()
    who = PLAYER_NAMES[p]
    reserve = Counter(state.reserve(p))
    total = sum(reserve.values())
    if not total:
        return f"a draw takes tiles from the reserve, and {who}'s is empty"
    for tile, count in action.draw:
        held = reserve[TILES[tile]]
        if held < count:
            return f"{who}'s reserve holds {tile_count(held, tile)}, and the draw takes {count}"
    size = min(3, total)
    if state.game.rules.draw_exact and action.size != size:
        return f"with draw_exact a draw takes exactly min(3, reserve) tiles: {size} for {who}"
    return None


def _deploy(state: PaikoState, action: PaikoAction) -> str | None:
    p = state.current_player()
    who = PLAYER_NAMES[p]
    tile, target = action.tile, action.dst
    square = SQUARE_NAMES[target]
    if TILES[tile] not in state.hand(p):
        return f"{who} has no {tile_name(tile)} in hand to deploy"
    pieces = _pieces(state)
    if tile != LOTUS and BLACK[target]:
        return f"only a Lotus may stand on a black square, and {square} is one"
    if target in pieces:
        return f"a tile is deployed on an empty square, and {square} holds {owned(pieces, target)}"
    maps = _maps_of(pieces)
    threat = maps.against[p][target]
    if tile == LOTUS:
        if not lotus_calm(threat):
            return (
                f"a Lotus may be deployed only where the threat against {who} is at most"
                f" {LOTUS_MAX_THREAT}: {square} has {threat}"
                f" ({threats_in_words(pieces, p, target)})"
            )
        return None
    if threat:
        return (
            f"{a_tile(tile)} may not be deployed on a threatened square ({square} is threatened"
            f" by {threats_in_words(pieces, p, target)})"
        )
    if not maps.support[p][target]:
        return _unsupported(p, target, f"{who} deploys")
    if tile == SAI:
        return None  # the self-capture check waits for the Sai's follow-up
    after = dict(pieces)
    after[target] = (p, tile, action.facing)
    return _self_capture(after, p)


def _move(state: PaikoState, action: PaikoAction, follow_up: bool) -> str | None:
    """A shift, a turn in place or a Water's redeploy (``follow_up``: of a Sai just deployed,
    which the repetition limit does not stop)."""
    p = state.current_player()
    who = PLAYER_NAMES[p]
    kind, src, dst = action.kind, action.src, action.dst
    origin = SQUARE_NAMES[src]
    found = state.tile_at(origin)
    if found is None:
        return f"there is no tile on {origin} to move"
    piece = (found[0], TILE_INDEX[found[1]], FACINGS.index(found[2]))
    owner, tile, facing = piece
    name = f"{PLAYER_NAMES[owner]}'s {tile_name(tile)} on {origin}"
    if owner != p:
        return f"a player moves only their own tiles, and {name} is not {who}'s"
    if tile in (LOTUS, AIR):
        return f"{a_tile(tile)} never moves or rotates"
    if kind == REDEPLOY:
        if tile != WATER:
            return f"only a Water may redeploy, and {name} is not one"
    elif kind == TURN:
        if not FACED[tile]:
            return (
                f"only a Sai, Bow or Fire turns in place: {a_tile(tile)} looks the same in"
                " every facing"
            )
        if action.facing == facing:
            return (
                f"a turn in place must change the facing, and {name} already faces"
                f" {FACINGS[facing]}"
            )
    else:
        if not FACED[tile] and action.facing != 0:
            return f"{a_tile(tile)} has no facing: it shifts with :N only"
        steps = _steps(src, dst)
        if steps > SHIFT_RANGE[tile]:
            return f"an Earth shifts only 1 square, and {origin} to {SQUARE_NAMES[dst]} is 2"
    limit = state.game.rules.move_limit
    if limit and not follow_up:
        last, count = state.last_moved()[p]
        if last == origin and count >= limit:
            turns = "turn" if count == 1 else f"{count} turns"
            return (
                f"the same tile may not be shifted, turned or redeployed on more than {limit} of"
                f" your turns in a row, and {name} moved on {who}'s last {turns}"
            )
    pieces = _pieces(state)
    lifted = dict(pieces)
    del lifted[src]
    if kind == REDEPLOY:
        why = _redeploy_target(pieces, lifted, p, dst)
    elif kind == SHIFT:
        why = _path(lifted, p, piece, src, dst)
    else:
        why = None
    if why is not None:
        return why
    lifted[dst] = (p, tile, action.facing)
    return _self_capture(lifted, p)


def _redeploy_target(pieces: Pieces, lifted: Pieces, p: int, target: int) -> str | None:
    """The deploy rule for a Water's redeploy onto ``target``; ``pieces`` with the Water in
    place (its threat still counts as the player's), ``lifted`` without."""
    square = SQUARE_NAMES[target]
    if target in pieces:
        return f"a Water redeploys onto an empty square, and {square} holds {owned(pieces, target)}"
    if _maps_of(lifted).against[p][target]:
        return (
            f"a Water may not be redeployed on a threatened square ({square} is threatened"
            f" by {threats_in_words(lifted, p, target)})"
        )
    if not _maps_of(pieces).support[p][target]:
        return _unsupported(p, target, "a Water redeploys", " (the Water's own included)")
    return None


def _unsupported(p: int, target: int, what: str, own: str = "") -> str:
    """The deploy rule's "homeground or threatened by one of your tiles", broken on
    ``target``: where the homeground is, and where ``target`` lies."""
    who = PLAYER_NAMES[p]
    return (
        f"{what} only in {who}'s homeground ({HOMEGROUNDS[p]}) or on a square a tile of"
        f" {who}'s threatens{own}: {SQUARE_NAMES[target]} is in {quarter_name(target)}, and no"
        f" tile of {who}'s threatens it"
    )


def _path(lifted: Pieces, p: int, piece: tuple[int, int, int], src: int, dst: int) -> str | None:
    """Why no path of passable squares takes the lifted ``piece`` from ``src`` to ``dst``."""
    target = SQUARE_NAMES[dst]
    if dst in lifted:
        return f"a shift ends on an empty square, and {target} holds {owned(lifted, dst)}"
    maps = _maps_of(lifted)
    why = _impassable(maps, lifted, p, piece, dst)
    if why is not None:
        return f"every square a shift enters must be passable: {why}"
    middles = [m for t, _, ms in SHIFT_TARGETS[src] if t == dst for m in ms]
    blocked = [_impassable(maps, lifted, p, piece, m) for m in middles]
    if middles and all(blocked):
        return (
            f"every square a shift enters must be empty and passable, and the way from"
            f" {SQUARE_NAMES[src]} to {target} is blocked: {'; '.join(w for w in blocked if w)}"
        )
    return None


def _impassable(
    maps: PaikoMaps, lifted: Pieces, p: int, piece: tuple[int, int, int], square: int
) -> str | None:
    """Why the moving ``piece`` may not enter ``square`` (``maps``: the engine's maps of the
    board ``lifted``, without it), or ``None``."""
    name = SQUARE_NAMES[square]
    if square in lifted:
        return f"{name} holds {owned(lifted, square)}"
    fire = piece[1] == FIRE
    if BIT[square] & (maps.free_fire if fire else maps.free)[p]:
        return None
    cover = int(maps.cover[p][square] > 0)
    below = "below 1 for a Fire, which threatens itself" if fire else "below 2"
    return (
        f"{name} has threat {maps.against[p][square]} ({threats_in_words(lifted, p, square)})"
        f" − cover {cover} against {PLAYER_NAMES[p]}'s {tile_name(piece[1])}, not {below}"
    )


def _self_capture(after: Pieces, p: int) -> str | None:
    """The first tile of ``p`` capturable on the board ``after`` the action (before any
    capture), as the self-capture rule's reason."""
    maps = _maps_of(after)
    for square in sorted(after):
        if after[square][0] != p or not maps.capturable(p, square):
            continue
        cover = int(maps.cover[p][square] > 0)
        shield = f", against cover {cover}" if cover else ", no cover"
        return (
            f"self-capture is illegal: {placed(after, square)} would be capturable"
            f" (threat {maps.against[p][square]} from {threats_in_words(after, p, square)}{shield})"
        )
    return None


# ----------------------------------------------------------------- reading the board


def _pieces(state: PaikoState) -> Pieces:
    return {
        SQUARE_INDEX[square]: (player, TILE_INDEX[tile], FACINGS.index(facing))
        for square, player, tile, facing in state.board()
    }


def _maps_of(pieces: Pieces) -> PaikoMaps:
    """The engine's threat, cover and support maps of the board ``pieces``: what decides."""
    maps = PaikoMaps()
    for square, (player, tile, facing) in pieces.items():
        maps.place(square, player << 5 | tile << 2 | facing)
    return maps


def _steps(src: int, dst: int) -> int:
    return next(steps for target, steps, _ in SHIFT_TARGETS[src] if target == dst)

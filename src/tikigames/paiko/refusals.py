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
    EARTH,
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
    THREAT_SETS,
    TILE_INDEX,
    TILES,
    WATER,
)
from tikigames.paiko.maps import PaikoMaps
from tikigames.paiko.movegen import LOTUS_MAX_THREAT, lotus_calm

if TYPE_CHECKING:
    from tikigames.paiko.actions import PaikoAction
    from tikigames.paiko.state import PaikoState

__all__ = ["FALLBACK", "refusal", "rule_broken"]

#: What :func:`refusal` says when no rule of :func:`rule_broken` matches (the tests show that
#: random play never reaches it).
FALLBACK: Final = "not legal now under the rules of Paikō"

#: The tiles on the board: square → (player, tile, facing), the ints of ``data``.
Pieces = dict[int, tuple[int, int, int]]


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
            f"{who}'s reserve holds no {_tile(action.tile)} to draft:"
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
        return f"{who} picks from {whose}'s reserve, which holds no {_tile(action.tile)}"
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
            return f"{who}'s reserve holds {_count(held, tile)}, and the draw takes {count}"
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
        return f"{who} has no {_tile(tile)} in hand to deploy"
    pieces = _pieces(state)
    if tile != LOTUS and BLACK[target]:
        return f"only a Lotus may stand on a black square, and {square} is one"
    if target in pieces:
        return f"a tile is deployed on an empty square, and {square} holds {_owned(pieces, target)}"
    maps = _maps_of(pieces)
    threat = maps.against[p][target]
    if tile == LOTUS:
        if not lotus_calm(threat):
            return (
                f"a Lotus may be deployed only where the threat against {who} is at most"
                f" {LOTUS_MAX_THREAT}: {square} has {threat} ({_threats(pieces, p, target)})"
            )
        return None
    if threat:
        return (
            f"{_a(tile)} may not be deployed on a threatened square ({square} is threatened"
            f" by {_threats(pieces, p, target)})"
        )
    if not maps.support[p][target]:
        return (
            "a tile is deployed in your homeground or on a square one of your tiles threatens:"
            f" {square} is neither in {who}'s homeground nor threatened by a tile of {who}'s"
        )
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
    name = f"{PLAYER_NAMES[owner]}'s {_tile(tile)} on {origin}"
    if owner != p:
        return f"a player moves only their own tiles, and {name} is not {who}'s"
    if tile in (LOTUS, AIR):
        return f"{_a(tile)} never moves or rotates"
    if kind == REDEPLOY:
        if tile != WATER:
            return f"only a Water may redeploy, and {name} is not one"
    elif kind == TURN:
        if not FACED[tile]:
            return (
                f"only a Sai, Bow or Fire turns in place: {_a(tile)} looks the same in every facing"
            )
        if action.facing == facing:
            return (
                f"a turn in place must change the facing, and {name} already faces"
                f" {FACINGS[facing]}"
            )
    else:
        if not FACED[tile] and action.facing != 0:
            return f"{_a(tile)} has no facing: it shifts with :N only"
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
    who = PLAYER_NAMES[p]
    if target in pieces:
        return (
            f"a Water redeploys onto an empty square, and {square} holds {_owned(pieces, target)}"
        )
    if _maps_of(lifted).against[p][target]:
        return (
            f"a Water may not be redeployed on a threatened square ({square} is threatened"
            f" by {_threats(lifted, p, target)})"
        )
    if not _maps_of(pieces).support[p][target]:
        return (
            "a Water is redeployed in your homeground or on a square one of your tiles threatens"
            f" (its own threat included): {square} is neither in {who}'s homeground nor"
            f" threatened by a tile of {who}'s"
        )
    return None


def _path(lifted: Pieces, p: int, piece: tuple[int, int, int], src: int, dst: int) -> str | None:
    """Why no path of passable squares takes the lifted ``piece`` from ``src`` to ``dst``."""
    target = SQUARE_NAMES[dst]
    if dst in lifted:
        return f"a shift ends on an empty square, and {target} holds {_owned(lifted, dst)}"
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
        return f"{name} holds {_owned(lifted, square)}"
    fire = piece[1] == FIRE
    if BIT[square] & (maps.free_fire if fire else maps.free)[p]:
        return None
    cover = int(maps.cover[p][square] > 0)
    below = "below 1 for a Fire, which threatens itself" if fire else "below 2"
    return (
        f"{name} has threat {maps.against[p][square]} ({_threats(lifted, p, square)})"
        f" − cover {cover} against {PLAYER_NAMES[p]}'s {_tile(piece[1])}, not {below}"
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
            f"self-capture is illegal: {_desc(after, square)} would be capturable"
            f" (threat {maps.against[p][square]} from {_threats(after, p, square)}{shield})"
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


def _threats(pieces: Pieces, p: int, square: int) -> str:
    """The tiles whose threat counts against a tile of ``p`` on ``square``, in words: those
    whose pattern holds ``square`` among the ones the maps count against p (the opponent's,
    and p's own Fires)."""
    sources = sorted(
        s
        for s, (q, tile, facing) in pieces.items()
        if (q != p or tile == FIRE) and square in THREAT_SETS[tile << 2 | facing][s]
    )
    return _from(pieces, sources, p)


def _steps(src: int, dst: int) -> int:
    return next(steps for target, steps, _ in SHIFT_TARGETS[src] if target == dst)


# ----------------------------------------------------------------- words


def _tile(tile: int) -> str:
    """A tile type as the rules write it: ``Sai``, ``Sword`` …"""
    return TILES[tile].capitalize()


def _a(tile: int) -> str:
    """``a Sword``, ``an Air``."""
    return f"{'an' if tile in (AIR, EARTH) else 'a'} {_tile(tile)}"


def _count(n: int, tile: int) -> str:
    """``no Fire``, ``1 Fire``, ``2 Fires`` (``Lotuses``)."""
    if not n:
        return f"no {_tile(tile)}"
    if n == 1:
        return f"1 {_tile(tile)}"
    return f"{n} {_tile(tile)}{'es' if tile == LOTUS else 's'}"


def _owned(pieces: Pieces, square: int) -> str:
    """``Black's Bow``."""
    player, tile, _ = pieces[square]
    return f"{PLAYER_NAMES[player]}'s {_tile(tile)}"


def _desc(pieces: Pieces, square: int) -> str:
    """``Black's Bow on h9``."""
    return f"{_owned(pieces, square)} on {SQUARE_NAMES[square]}"


def _from(pieces: Pieces, sources: list[int], p: int) -> str:
    """The tiles on ``sources`` as a list (``Black's Bow on h9 and White's own Fire on e5``)."""
    names = [
        _desc(pieces, s).replace("'s ", "'s own ", 1) if pieces[s][0] == p else _desc(pieces, s)
        for s in sources
    ]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

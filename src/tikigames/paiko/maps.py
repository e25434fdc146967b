"""Paikō's threat, cover, support and danger maps, kept incrementally.

Every legality test of the rules engine reads these maps instead of scanning the board, so a
placement or a removal of a tile updates them from the precomputed patterns (``data.THREAT``,
``data.COVER``): :meth:`PaikoMaps.place` adds a tile's effect and :meth:`PaikoMaps.lift`, its
exact inverse, takes it away. Per player p and square s:

* ``against[p][s]``: the threat a tile of p on s suffers — the opponent's tiles whose threat
  pattern includes s, plus p's own Fires whose pattern does;
* ``cover[p][s]``: 1 for each tile of p covering s, plus 1 when s is in p's homeground (cover is
  ``cover[p][s] > 0``: it does not add up);
* ``support[p][s]``: 1 for each tile of p threatening s, plus 1 in p's homeground (the deploy
  rule's "homeground or threatened by one of your tiles" is ``support[p][s] > 0``);
* ``danger[p][s]``: ``against[p][s] − (cover[p][s] > 0)``, plus :data:`BLOCKED` when s is
  occupied: a tile of p may enter s when it is below 2 (below 1 for a Fire);
* ``free[p]`` and ``free_fire[p]``: bitmasks (``data.BIT``) of the squares whose danger is below 2
  and below 1, updated whenever a danger crosses those levels;
* ``calm[p]`` and ``backed[p]``: bitmasks of the squares where ``against[p]`` is 0 and where
  ``support[p]`` is above 0, and ``taken``, of the occupied squares: the deploy squares of p
  are ``calm[p] & backed[p] & ~taken`` (open ones), found without a loop over the board.

A tile is on the maps as one int, ``player << 5 | tile << 2 | facing`` (``data``'s encoding).

>>> from tikigames.paiko.data import BIT, FIRE, SOUTH, SQUARE_INDEX, SWORD
>>> maps = PaikoMaps()
>>> e10, e11, e12 = SQUARE_INDEX["e10"], SQUARE_INDEX["e11"], SQUARE_INDEX["e12"]
>>> sword = 1 << 5 | SWORD << 2  # a Black Sword (facing N) threatens its 8 neighbours
>>> maps.place(e10, sword)
>>> maps.against[0][e11], maps.support[1][e11], maps.capturable(0, e11)
(1, 1, False)
>>> maps.place(e12, 1 << 5 | FIRE << 2 | SOUTH)  # a Black Fire facing S: e11 is ahead
>>> maps.against[0][e11], maps.capturable(0, e11), bool(maps.free[0] & BIT[e11])
(2, True, False)
>>> maps.lift(e10, sword)
>>> maps.against[0][e11], bool(maps.free[0] & BIT[e11]), bool(maps.free_fire[0] & BIT[e11])
(1, True, False)
"""

from __future__ import annotations

from typing import Final

from tikigames.paiko.data import (
    ALL_BITS,
    BIT,
    COVER,
    FIRE,
    HOME,
    HOME_BITS,
    NUM_SQUARES,
    THREAT,
    THREAT_BITS,
)

__all__ = ["BLOCKED", "PaikoMaps"]

#: Added to the danger of an occupied square: nothing enters it.
BLOCKED: Final = 99


class PaikoMaps:
    """The maps of one position (see the module's docstring); a new one is the empty board's.
    Two are equal when every map is.

    Attributes:
        against, cover, support, danger: per player, per square (lists the caller may read,
            never write).
        free, free_fire: per player, a bitmask of squares.
        calm, backed: per player, the bitmasks of the squares where ``against`` is 0 and where
            ``support`` is above 0 (a deploy needs both).
        taken: the bitmask of the occupied squares.
    """

    __slots__ = (
        "against",
        "backed",
        "calm",
        "cover",
        "danger",
        "free",
        "free_fire",
        "support",
        "taken",
    )

    against: list[list[int]]
    cover: list[list[int]]
    support: list[list[int]]
    danger: list[list[int]]
    free: list[int]
    free_fire: list[int]
    calm: list[int]
    backed: list[int]
    taken: int

    def __init__(self, source: PaikoMaps | None = None) -> None:
        """The empty board's maps, or a copy of ``source``'s."""
        if source is not None:
            # A copy is built by the constructor: compiled by mypyc, ``PaikoMaps.__new__``
            # would run ``__init__`` (an empty board's maps, built and thrown away) anyway.
            self.against = [source.against[0].copy(), source.against[1].copy()]
            self.cover = [source.cover[0].copy(), source.cover[1].copy()]
            self.support = [source.support[0].copy(), source.support[1].copy()]
            self.danger = [source.danger[0].copy(), source.danger[1].copy()]
            self.free = source.free.copy()
            self.free_fire = source.free_fire.copy()
            self.calm = source.calm.copy()
            self.backed = source.backed.copy()
            self.taken = source.taken
            return
        self.against = [[0] * NUM_SQUARES for _ in range(2)]
        self.cover = [[int(h) for h in HOME[p]] for p in (0, 1)]
        self.support = [[int(h) for h in HOME[p]] for p in (0, 1)]
        self.danger = [[-int(h) for h in HOME[p]] for p in (0, 1)]
        self.free = [ALL_BITS, ALL_BITS]
        self.free_fire = [ALL_BITS, ALL_BITS]
        self.calm = [ALL_BITS, ALL_BITS]
        self.backed = [HOME_BITS[0], HOME_BITS[1]]
        self.taken = 0

    def copy(self) -> PaikoMaps:
        """An independent copy."""
        return PaikoMaps(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PaikoMaps):
            return NotImplemented
        return (
            self.against == other.against
            and self.cover == other.cover
            and self.support == other.support
            and self.danger == other.danger
            and self.free == other.free
            and self.free_fire == other.free_fire
            and self.calm == other.calm
            and self.backed == other.backed
            and self.taken == other.taken
        )

    def capturable(self, player: int, square: int) -> bool:
        """Whether a tile of ``player`` on ``square`` is (or would be) capturable: threat −
        cover ≥ 2."""
        return self.against[player][square] - (self.cover[player][square] > 0) >= 2

    def place(self, square: int, piece: int) -> None:
        """Add the tile ``piece`` on the empty ``square``: its threat, cover and support, and
        the square's occupation."""
        player = piece >> 5
        opponent = 1 - player
        danger = self.danger
        danger[0][square] += BLOCKED
        danger[1][square] += BLOCKED
        free, free_fire = self.free, self.free_fire
        keep = ~BIT[square]
        self.taken ^= BIT[square]
        own_free = free[player] & keep
        own_free_fire = free_fire[player] & keep
        opp_free = free[opponent] & keep
        opp_free_fire = free_fire[opponent] & keep
        kind = piece & 31
        threat = THREAT[kind][square]
        if threat:
            against = self.against[opponent]
            opposed = danger[opponent]
            support = self.support[player]
            for target in threat:
                against[target] += 1
                support[target] += 1
                level = opposed[target] + 1
                opposed[target] = level
                if level == 2:
                    opp_free &= ~BIT[target]
                elif level == 1:
                    opp_free_fire &= ~BIT[target]
            # Every square of the pattern is threatened now, and supports the player's deploys.
            pattern = THREAT_BITS[kind][square]
            self.calm[opponent] &= ~pattern
            self.backed[player] |= pattern
            if kind >> 2 == FIRE:
                own = self.against[player]
                own_danger = danger[player]
                for target in threat:
                    own[target] += 1
                    level = own_danger[target] + 1
                    own_danger[target] = level
                    if level == 2:
                        own_free &= ~BIT[target]
                    elif level == 1:
                        own_free_fire &= ~BIT[target]
                self.calm[player] &= ~pattern
        cover = COVER[kind][square]
        if cover:
            covered = self.cover[player]
            own_danger = danger[player]
            for target in cover:
                count = covered[target] + 1
                covered[target] = count
                if count == 1:
                    level = own_danger[target] - 1
                    own_danger[target] = level
                    if level == 1:
                        own_free |= BIT[target]
                    elif level == 0:
                        own_free_fire |= BIT[target]
        free[player] = own_free
        free_fire[player] = own_free_fire
        free[opponent] = opp_free
        free_fire[opponent] = opp_free_fire

    def lift(self, square: int, piece: int) -> None:
        """Take the tile ``piece`` off ``square``: the exact inverse of :meth:`place`."""
        player = piece >> 5
        opponent = 1 - player
        danger = self.danger
        own_danger = danger[player]
        opposed = danger[opponent]
        own_danger[square] -= BLOCKED
        opposed[square] -= BLOCKED
        free, free_fire = self.free, self.free_fire
        bit = BIT[square]
        self.taken ^= bit
        own_free = free[player] | bit if own_danger[square] < 2 else free[player]
        own_free_fire = free_fire[player] | bit if own_danger[square] < 1 else free_fire[player]
        opp_free = free[opponent] | bit if opposed[square] < 2 else free[opponent]
        opp_free_fire = free_fire[opponent] | bit if opposed[square] < 1 else free_fire[opponent]
        kind = piece & 31
        threat = THREAT[kind][square]
        if threat:
            against = self.against[opponent]
            support = self.support[player]
            calm, backed = self.calm, self.backed
            opp_calm = calm[opponent]
            own_backed = backed[player]
            for target in threat:
                count = against[target] - 1
                against[target] = count
                if not count:
                    opp_calm |= BIT[target]
                count = support[target] - 1
                support[target] = count
                if not count:
                    own_backed ^= BIT[target]
                level = opposed[target] - 1
                opposed[target] = level
                if level == 1:
                    opp_free |= BIT[target]
                elif level == 0:
                    opp_free_fire |= BIT[target]
            calm[opponent] = opp_calm
            backed[player] = own_backed
            if kind >> 2 == FIRE:
                own = self.against[player]
                own_calm = calm[player]
                for target in threat:
                    count = own[target] - 1
                    own[target] = count
                    if not count:
                        own_calm |= BIT[target]
                    level = own_danger[target] - 1
                    own_danger[target] = level
                    if level == 1:
                        own_free |= BIT[target]
                    elif level == 0:
                        own_free_fire |= BIT[target]
                calm[player] = own_calm
        cover = COVER[kind][square]
        if cover:
            covered = self.cover[player]
            for target in cover:
                count = covered[target] - 1
                covered[target] = count
                if not count:
                    level = own_danger[target] + 1
                    own_danger[target] = level
                    if level == 2:
                        own_free &= ~BIT[target]
                    elif level == 1:
                        own_free_fire &= ~BIT[target]
        free[player] = own_free
        free_fire[player] = own_free_fire
        free[opponent] = opp_free
        free_fire[opponent] = opp_free_fire

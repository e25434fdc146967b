"""Tac-Tik's components: the cards, the deck, the colours and the board's geometry.

The board is numbered as in the rules file: ``L = 16·C`` track squares ``t0 … t(L−1)`` for ``C``
colours (4, or 6 with six players), colour ``c`` starting at ``t(16·c)``, and four home squares
per colour. Pawns are named by the square they stand on; the engine numbers those squares
``0 … L−1`` (the track) and ``L + 4·c + k − 1`` (home square ``k`` of colour ``c``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Final

__all__ = [
    "BACK4",
    "C1",
    "C7",
    "C10",
    "C13",
    "CARD_INDEX",
    "CARD_NAMES",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "FORWARD_CARDS",
    "FORWARD_INDEX",
    "FORWARD_OF",
    "JOKER",
    "NUM_CARDS",
    "START_CARDS",
    "START_OF",
    "STEPS",
    "SWAP",
    "Geometry",
    "TacTikRules",
    "deck_counts",
    "geometry",
    "joker_values",
]

#: Card kinds, in the order of their ids everywhere (hands, talon, actions).
CARD_NAMES: Final = ("1", "2", "3", "5", "6", "7", "8", "9", "10", "12", "13", "-4", "P", "J")
NUM_CARDS: Final = len(CARD_NAMES)
C1, C2, C3, C5, C6, C7, C8, C9, C10, C12, C13, BACK4, SWAP, JOKER = range(NUM_CARDS)
#: Card name (lowercase, as parsing folds case) → kind.
CARD_INDEX: Final = {name.lower(): kind for kind, name in enumerate(CARD_NAMES)}
#: The steps of each forward card (0 for the cards that do not move forward by a fixed count).
STEPS: Final = (1, 2, 3, 5, 6, 7, 8, 9, 10, 12, 13, 4, 0, 0)
#: The cards that move one pawn forward, in action-id order.
FORWARD_CARDS: Final = (C1, C2, C3, C5, C6, C8, C9, C10, C12, C13)
FORWARD_INDEX: Final = {card: index for index, card in enumerate(FORWARD_CARDS)}
#: Per card kind: its index in ``FORWARD_CARDS``, or −1.
FORWARD_OF: Final = tuple(FORWARD_INDEX.get(kind, -1) for kind in range(NUM_CARDS))
#: The cards that may start a pawn.
START_CARDS: Final = (C1, C10, C13)
#: Per card kind: its start variant (the order of the start actions: ``1``, ``10``, ``13``, a
#: Joker), or −1.
START_OF: Final = tuple(
    {C1: 0, C10: 1, C13: 2, JOKER: 3}.get(kind, -1) for kind in range(NUM_CARDS)
)

#: Display names of the colours, in seat order [R].
COLOUR_NAMES: Final = {
    4: ("green", "red", "blue", "yellow"),
    6: ("green", "red", "black", "blue", "yellow", "white"),
}
COLOUR_LETTERS: Final = {4: "grby", 6: "grkbyw"}

#: Pawns per colour, and home squares per colour.
PAWNS: Final = 4
HOME_FULL: Final = 0b1111


def deck_counts(jokers: int, with_13: bool) -> tuple[int, ...]:
    """The copies of each card kind in the full deck: 4 of each numbered card, ``-4`` and ``P``,
    ``jokers`` Jokers, and 4 × ``13`` when ``with_13``."""
    return tuple(
        jokers if kind == JOKER else 0 if kind == C13 and not with_13 else 4
        for kind in range(NUM_CARDS)
    )


def joker_values(with_13: bool) -> tuple[int, ...]:
    """The cards a Joker may stand for: every other card of the deck in use."""
    return tuple(kind for kind in range(JOKER) if kind != C13 or with_13)


class Geometry:
    """The fixed layout of a board of ``colours`` colours (4 or 6).

    Attributes:
        colours: C, the number of colours (and of start squares).
        track: L = 16·C, the number of track squares.
        squares: L + 4·C, the number of squares a pawn can be named by.
        names: each square's name (``t5``, ``h2.3``).
        home_colour: for a home square, its colour; −1 for a track square.
    """

    __slots__ = ("colours", "home_colour", "names", "squares", "track")

    def __init__(self, colours: int) -> None:
        self.colours = colours
        self.track = 16 * colours
        self.squares = self.track + PAWNS * colours
        names = [f"t{square}" for square in range(self.track)]
        names += [f"h{c}.{k}" for c in range(colours) for k in range(1, PAWNS + 1)]
        self.names: tuple[str, ...] = tuple(names)
        self.home_colour: tuple[int, ...] = (-1,) * self.track + tuple(
            c for c in range(colours) for _ in range(PAWNS)
        )

    def home_square(self, colour: int, k: int) -> int:
        """The square number of home square ``k`` (1–4) of ``colour``."""
        return self.track + PAWNS * colour + k - 1


@cache
def geometry(colours: int) -> Geometry:
    """The shared geometry of a board of ``colours`` colours."""
    return Geometry(colours)


@dataclass(frozen=True)
class TacTikRules:
    """The options of a Tac-Tik game, typed (``game.rules``; see the game's options), and
    everything the engine derives from them, computed once per game.

    >>> import tikigames
    >>> rules = tikigames.load("tactik", players=6).rules
    >>> rules.players, rules.colours, rules.track, rules.hand_size, rules.partner
    (6, 6, 96, 4, (3, 4, 5, 0, 1, 2))

    Attributes:
        players, jokers, with_13, discard, first_dealer, seven_captures_passed, max_turns: the
            options (``max_turns`` ``None``: no limit).
        colours, track, squares: the board (see :class:`Geometry`).
        team: whether partners play in teams (4 or 6 players); false in the 2-player variant.
        hand_size: cards dealt to each player per deal (4, or 6 in the 2-player variant).
        deal_size: cards dealt per deal (``players · hand_size``).
        deck: copies of each card kind in the full deck; ``deck_size`` their sum; ``deck_kinds``
            the bitmask of the kinds it holds (bit k for kind k).
        joker_values: the cards a Joker may stand for; ``joker_forward`` those that move one pawn
            forward, as indices into ``FORWARD_CARDS``.
        discard_any: option ``discard == "any"``.
        passed: option ``seven_captures_passed``.
        partner: each player's partner (−1 in the 2-player variant).
        own_colours: the colours each player plays as their own.
        team_colours: the colours of each player's team (all must be home to win).
        team_players: the players of each player's team (the winners when it wins).
    """

    players: int
    jokers: int
    with_13: bool
    discard: str
    first_dealer: int
    seven_captures_passed: bool
    max_turns: int | None

    team: bool = field(init=False, repr=False, compare=False)
    colours: int = field(init=False, repr=False, compare=False)
    track: int = field(init=False, repr=False, compare=False)
    squares: int = field(init=False, repr=False, compare=False)
    hand_size: int = field(init=False, repr=False, compare=False)
    deal_size: int = field(init=False, repr=False, compare=False)
    deck: tuple[int, ...] = field(init=False, repr=False, compare=False)
    deck_size: int = field(init=False, repr=False, compare=False)
    deck_kinds: int = field(init=False, repr=False, compare=False)
    joker_values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    joker_forward: tuple[int, ...] = field(init=False, repr=False, compare=False)
    discard_any: bool = field(init=False, repr=False, compare=False)
    passed: bool = field(init=False, repr=False, compare=False)
    partner: tuple[int, ...] = field(init=False, repr=False, compare=False)
    own_colours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    team_players: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    team_colours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = self.players
        team = players != 2
        colours = 6 if players == 6 else 4
        geo = geometry(colours)
        hand_size = 4 if team else 6
        deck = deck_counts(self.jokers, self.with_13)
        half = players // 2
        if team:
            partner = tuple((p + half) % players for p in range(players))
            own_colours: tuple[tuple[int, ...], ...] = tuple((p,) for p in range(players))
            team_players: tuple[tuple[int, ...], ...] = tuple(
                tuple(sorted((p, (p + half) % players))) for p in range(players)
            )
            team_colours = team_players
        else:
            partner = (-1, -1)
            own_colours = ((0, 2), (1, 3))
            team_players = ((0,), (1,))
            team_colours = own_colours
        derived: dict[str, object] = {
            "team": team,
            "colours": colours,
            "track": geo.track,
            "squares": geo.squares,
            "hand_size": hand_size,
            "deal_size": players * hand_size,
            "deck": deck,
            "deck_size": sum(deck),
            "deck_kinds": sum(1 << kind for kind in range(NUM_CARDS) if deck[kind]),
            "joker_values": joker_values(self.with_13),
            "joker_forward": tuple(
                index
                for index, card in enumerate(FORWARD_CARDS)
                if card in joker_values(self.with_13)
            ),
            "discard_any": self.discard == "any",
            "passed": self.seven_captures_passed,
            "partner": partner,
            "own_colours": own_colours,
            "team_players": team_players,
            "team_colours": team_colours,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

"""Tac-Tik's observation tensor: the board seen from the observer's seat, their own cards, the
public cards and counts, whose turn it is and a seven in progress, as fixed planes of floats.

Everything is seen from the observer: seat ``o`` becomes seat 0, the track is turned so that
``o``'s start square ``t(16·o)`` is square 0 (square ``t`` is at ``(t − 16·o) mod L``), and
colour ``c`` is colour ``(c − o) mod C`` — so the observer's colour is 0 and their partner's
``C/2`` (in the 2-player variant player 1's colours 1 and 3 become 0 and 2). A spectator sees
the board as it is (seat 0's view, no hand). The planes are listed, with their offsets, on the
game's docs page.

>>> import tikigames
>>> game = tikigames.load("tactik")
>>> game.observation_tensor_shape()
(373,)
>>> state = game.new_initial_state()
>>> state.apply_action(state.parse_action("deal 10"))  # player 0 is served first
>>> layout = game.observation_tensor_layout()
>>> hand = layout.view(state.observation(0).tensor(), "hand")
>>> hand[8], sum(hand)  # card 10, one copy of four
(0.25, 0.25)

The encoder reads the observation's fields alone (never a state) through index tables built
once per rules and seat, so ``obs.tensor()`` takes about 10 µs (4 players, uncompiled).
"""

from __future__ import annotations

from typing import Final

from tikigames.core.encoding import ObservationEncoder, Plane
from tikigames.tactik.data import CARD_NAMES, NUM_CARDS, PAWNS, TacTikRules
from tikigames.tactik.observation import TacTikObservation

__all__ = ["COPIES", "PHASES", "TacTikEncoder"]

#: The phases, in the order of the ``phase`` plane.
PHASES: Final = ("deal", "exchange", "play", "over")
#: Card counts are divided by this: no kind has more copies in the deck (Jokers included).
COPIES: Final = 4.0

_KIND: Final = {name: kind for kind, name in enumerate(CARD_NAMES)}
_PHASE: Final = {name: index for index, name in enumerate(PHASES)}
_CARDS: Final = " ".join(CARD_NAMES)


class _Seat:
    """The index tables of one observer seat: where each absolute square, colour and seat goes."""

    __slots__ = ("colours", "seats", "square_of_colour")

    def __init__(self, rules: TacTikRules, seat: int, track_offset: int) -> None:
        colours, track, players = rules.colours, rules.track, rules.players
        first = 16 * seat  # the observer's start square (seat == its first colour)
        #: Per absolute colour, its relative colour.
        self.colours: tuple[int, ...] = tuple((c - seat) % colours for c in range(colours))
        #: Per absolute seat, its relative seat.
        self.seats: tuple[int, ...] = tuple((p - seat) % players for p in range(players))
        #: Per absolute colour, per absolute square: the index of that colour's pawn there.
        self.square_of_colour: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                track_offset + self.colours[c] * track + (t - first) % track for t in range(track)
            )
            for c in range(colours)
        )


class TacTikEncoder(ObservationEncoder[TacTikRules, TacTikObservation]):
    """Tac-Tik's observation tensor for one rules value: the layout, the offsets of its planes,
    the scales and each observer seat's index tables (``Game.encoder_class``)."""

    def __init__(self, rules: TacTikRules) -> None:
        super().__init__(rules)
        layout = self.layout
        self.pieux = layout.offset("pieux")
        self.homes = layout.offset("homes")
        self.reserves = layout.offset("reserves")
        self.acting = layout.offset("acting")
        self.hand = layout.offset("hand")
        self.given = layout.offset("given")
        self.received = layout.offset("received")
        self.pile = layout.offset("pile")
        self.seven = layout.offset("seven")
        self.hand_sizes = layout.offset("hand_sizes")
        self.to_move = layout.offset("to_move")
        self.dealer = layout.offset("dealer")
        self.winners = layout.offset("winners")
        self.phase = layout.offset("phase")
        self.talon = layout.offset("talon")
        self.clock = layout.offset("clock")
        self.options = layout.offset("options")
        self.hand_scale = float(rules.hand_size)
        self.talon_scale = float(rules.deck_size)
        self.turn_scale = 0.0 if rules.max_turns is None else float(rules.max_turns)
        offset = layout.offset("track")
        self.seats: tuple[_Seat, ...] = tuple(
            _Seat(rules, seat, offset) for seat in range(rules.players)
        )

    def planes(self, rules: TacTikRules) -> list[Plane]:
        """The planes for ``rules``: 4 players give 373 values, 2 players 365, 6 players 715.

        >>> import tikigames
        >>> layout = tikigames.load("tactik", players=6).observation_tensor_layout()
        >>> layout.plane("track").shape, layout.size
        ((6, 96), 715)
        """
        c, n, track = rules.colours, rules.players, rules.track
        return [
            Plane(
                "track",
                (c, track),
                f"per colour (the observer's first), per track square (the observer's start square "
                f"first, then clockwise): 1 where a pawn of that colour stands (L = {track})",
            ),
            Plane("pieux", (c,), "per colour: 1 when its pieu (stake) stands on its start square"),
            Plane("homes", (c, PAWNS), "per colour, its home squares 1–4: 1 occupied"),
            Plane("reserves", (c,), f"per colour: the pawns in its reserve / {PAWNS}"),
            Plane(
                "acting",
                (c,),
                "per colour: 1 when the player to move plays it with their next card (the seven's "
                "colour during a seven; the partner's once one's own four are home); 0 off a turn",
            ),
            Plane(
                "hand", (NUM_CARDS,), f"the observer's cards, copies of each kind / 4 ({_CARDS})"
            ),
            Plane("given", (NUM_CARDS,), "one-hot: the card the observer chose in this exchange"),
            Plane("received", (NUM_CARDS,), "one-hot: the card the observer received in it"),
            Plane(
                "pile",
                (NUM_CARDS,),
                "copies of each kind played or discarded since the shuffle / 4",
            ),
            Plane("seven", (7,), "a seven in progress: one-hot of the steps left (1–7)"),
            Plane(
                "hand_sizes",
                (n,),
                f"per seat (the observer first, clockwise): cards in hand / {rules.hand_size}",
            ),
            Plane("to_move", (n,), "per seat: 1 for the player to move (0 at a deal and the end)"),
            Plane("dealer", (n,), "per seat: 1 for this deal's dealer"),
            Plane("winners", (n,), "per seat: 1 for a winner, once a team has won"),
            Plane("phase", (len(PHASES),), "one-hot: deal, exchange, play, over"),
            Plane("talon", (1,), f"the cards left in the talon / {rules.deck_size}"),
            Plane(
                "clock",
                (1,),
                "turns played / max_turns (0 without a turn limit)",
            ),
            Plane(
                "options",
                (4,),
                "the rules: Jokers in the deck / 4, with_13, discard stuck, seven captures passed",
            ),
        ]

    def encode(self, obs: TacTikObservation) -> list[float]:
        """``obs.tensor()``: the observation in the layout, from its fields alone."""
        rules = self.rules
        values = self.layout.zeros()
        player = obs.player
        view = self.seats[0 if player is None else player]
        colours = view.colours
        seats = view.seats
        squares = view.square_of_colour
        for t, c in enumerate(obs.track):
            if c >= 0:
                values[squares[c][t]] = 1.0
        base = self.pieux
        for c in obs.pieux:
            values[base + colours[c]] = 1.0
        base = self.homes
        for c, home in enumerate(obs.homes):
            at = base + PAWNS * colours[c]
            for k in range(PAWNS):
                if home[k]:
                    values[at + k] = 1.0
        base = self.reserves
        for c, count in enumerate(obs.reserves):
            if count:
                values[base + colours[c]] = count / PAWNS
        current = obs.current_player
        if obs.phase == "play" and current >= 0:
            base = self.acting
            seven_colour = obs.seven_colour
            if seven_colour is not None:
                values[base + colours[seven_colour]] = 1.0
            elif rules.team:
                full = all(obs.homes[current])
                values[base + colours[rules.partner[current] if full else current]] = 1.0
            else:
                for c in rules.own_colours[current]:
                    if not all(obs.homes[c]):
                        values[base + colours[c]] = 1.0
        base = self.hand
        for name in obs.hand:
            values[base + _KIND[name]] += 1.0 / COPIES
        if obs.given is not None:
            values[self.given + _KIND[obs.given]] = 1.0
        if obs.received is not None:
            values[self.received + _KIND[obs.received]] = 1.0
        base = self.pile
        for name in obs.pile:
            values[base + _KIND[name]] += 1.0 / COPIES
        if obs.seven_left:
            values[self.seven + obs.seven_left - 1] = 1.0
        base = self.hand_sizes
        scale = self.hand_scale
        for p, size in enumerate(obs.hand_sizes):
            if size:
                values[base + seats[p]] = size / scale
        if current >= 0:
            values[self.to_move + seats[current]] = 1.0
        values[self.dealer + seats[obs.dealer]] = 1.0
        base = self.winners
        for p in obs.winners:
            values[base + seats[p]] = 1.0
        values[self.phase + _PHASE[obs.phase]] = 1.0
        values[self.talon] = obs.talon_size / self.talon_scale
        if self.turn_scale:
            values[self.clock] = obs.turns / self.turn_scale
        base = self.options
        values[base] = rules.jokers / COPIES
        values[base + 1] = 1.0 if rules.with_13 else 0.0
        values[base + 2] = 0.0 if rules.discard_any else 1.0
        values[base + 3] = 1.0 if rules.passed else 0.0
        return values

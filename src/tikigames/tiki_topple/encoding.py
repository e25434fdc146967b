"""Tiki Topple's observation tensor: what one player knows, as a fixed vector of floats.

The planes (the game's docs page, "Observation tensor", prints them from the layout)
hold the phase and whose turn it is, the line (a one-hot tiki per position), the toasted tikis,
the observer's own secret card (by id and by its three tikis), the secret cards another seat
may hold, every seat's hand, every seat's plays this round (which card on which tiki), the seats
of the round, its starter, the scores and the round clock. Together they decide the observer's
legal actions (the line, the own hand and the hand size of the round), so two positions whose
legal actions differ never share a tensor.

Seats are rows in turn order from the observer: row 0 is the observer, row 1 the next seat,
and so on (a spectator's rows are the seats 0, 1, …). Counts are divided by 2 (a hand holds at
most two cards of a kind), scores by the most a game's regular rounds can give (16 a round: 9 +
5 + 2) or by ``target_score``, capped at 1; the other values are 0/1 flags.

:class:`TikiToppleEncoder` reads the observation alone: its fields and the texts of its history,
never a state. The game builds one per rules value, with its plane offsets, worked out once.
"""

from __future__ import annotations

from typing import Final

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.core.encoding import ObservationEncoder, Plane
from tikigames.tiki_topple.data import (
    ALL_SECRETS,
    CARD_NAMES,
    NUM_SECRETS,
    NUM_TIKIS,
    POINTS,
    SECRET_CARDS,
    TIKIS,
    TOAST,
    TOPPLE,
    TikiToppleRules,
)
from tikigames.tiki_topple.observation import TikiToppleObservation

__all__ = ["HAND_SCALE", "ROUND_POINTS", "TikiToppleEncoder"]

#: A hand holds at most two cards of a kind: hand counts and plays are divided by this.
HAND_SCALE: Final = 2
#: The most one secret card scores in a round (9 + 5 + 2): the score scale is this times the
#: number of rounds (without ``target_score``).
ROUND_POINTS: Final = sum(POINTS)

#: The phases, in the order of the ``phase`` plane.
PHASES: Final = ("line setup", "deal", "play", "over")
_SETUP, _DEAL, _PLAY, _OVER = range(4)

_TIKI_ID: Final = {name: tiki for tiki, name in enumerate(TIKIS)}
_CARD_ID: Final = {name: kind for kind, name in enumerate(CARD_NAMES)}
#: A played card's history text → (card kind, tiki id; −1 for a Toast, whose tiki is the
#: bottom one, read from the toasted tikis).
_PLAY_OF: Final = {
    **{
        f"{CARD_NAMES[kind]} {name}": (kind, tiki)
        for kind in range(TOPPLE + 1)
        for tiki, name in enumerate(TIKIS)
    },
    CARD_NAMES[TOAST]: (TOAST, -1),
}
_KINDS: Final = len(CARD_NAMES)
_PLAYS_PER_SEAT: Final = _KINDS * NUM_TIKIS
_UNIT: Final = 1.0 / HAND_SCALE


class TikiToppleEncoder(ObservationEncoder[TikiToppleRules, TikiToppleObservation]):
    """Tiki Topple's observation tensor for one rules value: the layout, the offsets of its
    planes, its scales and each observer's seat rows (``Game.encoder_class``)."""

    def __init__(self, rules: TikiToppleRules) -> None:
        super().__init__(rules)
        n = rules.players
        self.players = n
        self.rounds = rules.rounds
        self.target = rules.target_score
        scale = (
            rules.target_score if rules.target_score is not None else ROUND_POINTS * rules.rounds
        )
        self.score_scale = 1.0 / scale
        layout = self.layout
        self.size = layout.size
        offset = layout.offset
        self.phase = offset("phase")
        self.to_act = offset("to_act")
        self.line = offset("line")
        self.toasted = offset("toasted")
        self.secret = offset("secret")
        self.secret_tikis = offset("secret_tikis")
        self.possible = offset("possible_secrets")
        self.hands = offset("hands")
        self.plays = offset("plays")
        self.in_round = offset("in_round")
        self.starter = offset("starter")
        self.scores = offset("scores")
        self.round = offset("round")
        #: Per observer (index ``n``: a spectator): each seat's row.
        self.rows: tuple[tuple[int, ...], ...] = (
            *(tuple((seat - observer) % n for seat in range(n)) for observer in range(n)),
            tuple(range(n)),
        )

    def planes(self, rules: TikiToppleRules) -> list[Plane]:
        """The planes for ``rules``: their shapes depend on the number of players, their
        descriptions name the scales.

        >>> import tikigames
        >>> layout = tikigames.load("tiki_topple", players=3).observation_tensor_layout()
        >>> layout.plane("hands").shape, layout.size
        ((3, 5), 339)
        """
        n = rules.players
        scale_text = (
            f"target_score ({rules.target_score})"
            if rules.target_score is not None
            else f"{ROUND_POINTS * rules.rounds} ({ROUND_POINTS} points × {rules.rounds} rounds)"
        )
        return [
            Plane("phase", (4,), "one-hot: line setup, deal, play, game over"),
            Plane("to_act", (n,), "the seat to play, one-hot by row (all 0 at chance/end)"),
            Plane("line", (NUM_TIKIS, NUM_TIKIS), "[position, tiki]: one-hot tiki per "
                  "position, top first; the positions below the line's end are 0"),
            Plane("toasted", (NUM_TIKIS,), "1 for each tiki toasted this round"),
            Plane("secret", (NUM_SECRETS,), "the observer's secret card, one-hot by id "
                  "(all 0 for a spectator or before it is dealt)"),
            Plane("secret_tikis", (3, NUM_TIKIS), "[top/middle/bottom, tiki]: the tikis "
                  "of the observer's secret card, one-hot per slot"),
            Plane("possible_secrets", (NUM_SECRETS,), "1 for each card another seat may "
                  "hold this round: the round's deck less the observer's card (0 at the end)"),
            Plane("hands", (n, _KINDS), "[row, card]: cards left in each seat's hand "
                  "(up1, up2, up3, topple, toast), count / 2"),
            Plane("plays", (n, _KINDS, NUM_TIKIS), "[row, card, tiki]: the cards each "
                  "seat played this round on each tiki (a Toast: the tiki toasted), "
                  "count / 2"),
            Plane("in_round", (n,), "1 for each seat taking part in the round"),
            Plane("starter", (n,), "the seat that starts the round, one-hot by row"),
            Plane("scores", (n,), f"each seat's game total / {scale_text}, capped at 1"),
            Plane("round", (2,), f"[rounds finished / {rules.rounds}, capped at 1; "
                  "1 in a tiebreak round]"),
        ]  # fmt: skip

    def encode(self, obs: TikiToppleObservation) -> list[float]:
        """``obs.tensor()``: the observation in the layout's planes, from its fields and its
        history's texts alone (see the module's docstring for the planes and scales)."""
        values = [0.0] * self.size
        # The tables as locals: a compiled module reads its globals from a dict at each use.
        tiki_id = _TIKI_ID
        play_of = _PLAY_OF
        n = self.players
        player = obs.player
        rows = self.rows[n if player is None else player]
        history = obs.history
        current = obs.current_player
        if current >= 0:
            phase = _PLAY
            values[self.to_act + rows[current]] = 1.0
        elif current == TERMINAL:
            phase = _OVER
        elif current == CHANCE and history and history[-1].startswith(("line ", "secret ")):
            phase = _DEAL  # the round's line is set up and its cards are being dealt
        else:
            phase = _SETUP
        values[self.phase + phase] = 1.0

        base = self.line
        for name in obs.line:
            values[base + tiki_id[name]] = 1.0
            base += NUM_TIKIS
        base = self.toasted
        for name in obs.removed:
            values[base + tiki_id[name]] = 1.0

        secret = obs.secret
        if secret is not None:
            values[self.secret + secret] = 1.0
            base = self.secret_tikis
            for tiki in SECRET_CARDS[secret]:
                values[base + tiki] = 1.0
                base += NUM_TIKIS

        seats = obs.seats
        if phase != _OVER:
            # The round's deck, as the deal rule builds it from the revealed cards of the rounds
            # before: each round takes its cards; a deck too small for a round becomes every card
            # but the previous round's.
            deck = ALL_SECRETS
            previous = 0
            for cards in obs.revealed:
                dealt = 0
                count = 0
                for card in cards:
                    if card is not None:
                        dealt |= 1 << card
                        count += 1
                if deck.bit_count() < count:
                    deck = ALL_SECRETS & ~previous
                deck &= ~dealt
                previous = dealt
            if deck.bit_count() < len(seats):
                deck = ALL_SECRETS & ~previous
            if secret is not None:
                deck &= ~(1 << secret)
            base = self.possible
            for card in range(NUM_SECRETS):
                if deck >> card & 1:
                    values[base + card] = 1.0

        base = self.hands
        card_id = _CARD_ID
        for seat, hand in enumerate(obs.hands):
            row = base + _KINDS * rows[seat]
            for name in hand:
                values[row + card_id[name]] += _UNIT

        if phase in (_PLAY, _OVER):
            # This round's plays are the history's last entries after its deals; the seats of the
            # round play them in turn from the starter. The k-th Toast toasted the k-th tiki.
            end = len(history)
            start = end
            while start and history[start - 1] in play_of:
                start -= 1
            first = seats.index(obs.starter)
            m = len(seats)
            removed = obs.removed
            toasts = 0
            base = self.plays
            for index in range(start, end):
                kind, tiki = play_of[history[index]]
                if tiki < 0:
                    tiki = tiki_id[removed[toasts]]
                    toasts += 1
                seat = seats[(first + index - start) % m]
                values[base + _PLAYS_PER_SEAT * rows[seat] + NUM_TIKIS * kind + tiki] += _UNIT

        for seat in seats:
            values[self.in_round + rows[seat]] = 1.0
        values[self.starter + rows[obs.starter]] = 1.0
        base = self.scores
        scale = self.score_scale
        scores = obs.scores
        for seat in range(n):
            score = scores[seat] * scale
            values[base + rows[seat]] = score if score < 1.0 else 1.0
        finished = len(obs.revealed) / self.rounds
        values[self.round] = finished if finished < 1.0 else 1.0
        if phase != _OVER:
            target = self.target
            # A tiebreak round: past the last regular round, or after a total reached the target.
            if obs.round > self.rounds if target is None else max(scores) >= target:
                values[self.round + 1] = 1.0
        return values

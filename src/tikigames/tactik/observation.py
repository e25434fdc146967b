"""What a Tac-Tik player knows: the whole board and every card played or discarded, but of the
hands only their own — plus the card they gave their partner and the one they received."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import MAX_HISTORY
from tikigames.tactik.data import CARD_NAMES
from tikigames.tactik.state import PawnMove, TacTikState, result_words
from tikigames.tactik.words import history_words

if TYPE_CHECKING:
    from tikigames.tactik.game import TacTik

__all__ = ["TacTikObservation"]


@dataclass(frozen=True, kw_only=True, repr=False)
class TacTikObservation(Observation["TacTik"]):
    """A Tac-Tik observation (see the game's docs page for an example).

    Attributes:
        dealer: the player who dealt the current deal.
        phase: ``"deal"``, ``"exchange"``, ``"play"`` or ``"over"``.
        turns: turns played so far (a whole seven counts once).
        track: each track square's pawn colour, −1 when empty.
        pieux: the colours whose pieu stands on their start square.
        homes: per colour, its 4 home squares (1 occupied, 0 empty).
        reserves: per colour, the pawns in its reserve.
        hand_sizes: per player, the cards in hand.
        talon_size: the cards left in the talon.
        pile: the cards played or discarded since the talon was last made up, in card order.
        revealed: the hand shown by each ``discard all`` so far, in order.
        hand: the observer's own cards in card order (``()`` for a spectator).
        given: the card the observer chose for their partner in this deal's exchange, or
            ``None``.
        received: the card the observer received in this deal's exchange, or ``None``.
        seven_left: the steps left of a seven being played (0 when none is).
        seven_colour: the colour that seven moves, or ``None``.
        winners: the winning players once a team has won, else ``()``.
        last_move: the squares the last action joined (:meth:`TacTikState.last_move
            <tikigames.tactik.state.TacTikState.last_move>`; public, as every move is), for the
            picture's highlight. It follows from the history, so it is neither compared nor in
            the JSON (:meth:`field_names` leaves it out): a loaded observation is a real state's
            and has it.
    """

    dealer: int
    phase: str
    turns: int
    track: tuple[int, ...]
    pieux: tuple[int, ...]
    homes: tuple[tuple[int, ...], ...]
    reserves: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    talon_size: int
    pile: tuple[str, ...]
    revealed: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...]
    given: str | None
    received: str | None
    seven_left: int
    seven_colour: int | None
    winners: tuple[int, ...]
    last_move: PawnMove | None = field(default=None, compare=False)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The game's own fields in the JSON: all but ``last_move``, which the history gives.

        >>> from tikigames.tactik import TacTikObservation
        >>> names = TacTikObservation.field_names()
        >>> "last_move" in names, "winners" in names
        (False, True)
        """
        return tuple(name for name in super().field_names() if name != "last_move")

    def history_in_words(self) -> tuple[str, ...]:
        """Each action of the history in words, as this player saw it: who was dealt a card
        (and which, when it was this player), who chose a card for their partner and the card
        this player received, each card played with the pawn's move (where it landed, its
        home), the pawns it captured (whose, where, by what), a seven's steps and the steps
        left, the discards (and a hand shown), and the end (:mod:`tikigames.tactik.words`).
        From the observation alone: the public board is followed along the history.

        >>> import tikigames
        >>> state = tikigames.load("tactik").new_initial_state()
        >>> for card in ["1", "3", "6", "9"] * 4:
        ...     state.apply_action(state.parse_action("deal " + card))
        >>> state.apply_action(state.parse_action("give 1"))
        >>> state.observation(0).history_in_words()[-1]
        'you give 1 to your partner (player 2)'
        >>> state.observation(1).history_in_words()[-1]
        'player 0 chooses a card for their partner'
        """
        over = self.phase == "over"
        return history_words(
            self.game.rules,
            self.game.action_table.parse,
            self.history,
            self.player,
            self.revealed,
            self.received,
            result_words(self.winners) if over else None,
        )

    @classmethod
    def _fields_of(cls, state: TacTikState, player: int | None) -> dict[str, Any]:
        rules = state.game.rules
        return {
            "dealer": state.dealer(),
            "phase": state.phase(),
            "turns": state.turns(),
            "track": state.track(),
            "pieux": state.pieux(),
            "homes": state.homes(),
            "reserves": tuple(state.reserve(c) for c in range(rules.colours)),
            "hand_sizes": state.hand_sizes(),
            "talon_size": state.talon_size(),
            "pile": tuple(state.pile()),
            "revealed": tuple(state.revealed()),
            "hand": () if player is None else tuple(state.hand(player)),
            "given": None if player is None else state.given(player),
            "received": None if player is None else state.received(player),
            "seven_left": state.seven_left(),
            "seven_colour": state.seven_colour(),
            "winners": state.winners(),
            "last_move": state.last_move(),
        }

    @classmethod
    def _knowledge_from_json(cls, game: TacTik, data: Mapping[str, Any]) -> dict[str, Any]:
        received = data["received"]
        if received is not None and received not in CARD_NAMES:
            raise InvalidStateError(
                f"'received' must be a card name or null, not {received!r}"[:200]
            )
        revealed = data["revealed"]
        if not isinstance(revealed, list) or len(revealed) > MAX_HISTORY:
            raise InvalidStateError("'revealed' must be a list of hands")
        hands = []
        for index, hand in enumerate(revealed):
            if (
                not isinstance(hand, list)
                or len(hand) > 6
                or not all(isinstance(card, str) and card in CARD_NAMES for card in hand)
            ):
                raise InvalidStateError(f"revealed[{index}] must be a list of card names")
            hands.append(tuple(hand))
        return {"received": received, "revealed": tuple(hands)}

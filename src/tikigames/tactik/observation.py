"""What a Tac-Tik player knows: the whole board and every card played or discarded, but of the
hands only their own — plus the card they gave their partner and the one they received."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tikigames.core.errors import InvalidStateError
from tikigames.core.observation import Observation
from tikigames.core.serialization import MAX_HISTORY
from tikigames.tactik.data import CARD_NAMES, NUM_CARDS, PAWNS

if TYPE_CHECKING:
    from tikigames.core.game import Game
    from tikigames.tactik.state import TacTikState

__all__ = ["TacTikObservation", "observe"]


class TacTikObservation(Observation):
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
    """

    __slots__ = (
        "dealer",
        "phase",
        "turns",
        "track",
        "pieux",
        "homes",
        "reserves",
        "hand_sizes",
        "talon_size",
        "pile",
        "revealed",
        "hand",
        "given",
        "received",
        "seven_left",
        "seven_colour",
        "winners",
    )
    _fields = __slots__

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

    @classmethod
    def _knowledge_from_json(cls, game: Game[Any], data: Mapping[str, Any]) -> dict[str, Any]:
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

    def __str__(self) -> str:
        from tikigames.tactik.render import render_observation

        return render_observation(self)


def _cards(counts: list[int]) -> tuple[str, ...]:
    return tuple(CARD_NAMES[k] for k in range(NUM_CARDS) for _ in range(counts[k]))


def observe(state: TacTikState, player: int | None) -> TacTikObservation:
    """``player``'s observation of ``state`` (``None``: a spectator)."""
    from tikigames.tactik.state import PHASE_NAMES

    rules = state._rules
    b = state._b
    colours = rules.colours
    pieux = b[rules.pieu]
    if player is None:
        hand: tuple[str, ...] = ()
        given = received = -1
    else:
        hand = _cards(state._hands[player])
        given, received = state._gives[player], state._received[player]
    return TacTikObservation.of(
        state,
        player,
        dealer=state._dealer,
        phase=PHASE_NAMES[state._phase],
        turns=state._turns,
        track=tuple(b[: rules.track]),
        pieux=tuple(c for c in range(colours) if pieux >> c & 1),
        homes=tuple(
            tuple(b[rules.homes + c] >> k & 1 for k in range(PAWNS)) for c in range(colours)
        ),
        reserves=tuple(b[rules.res : rules.res + colours]),
        hand_sizes=tuple(state._sizes),
        talon_size=state._talon_size,
        pile=_cards(state._pile),
        revealed=tuple(tuple(CARD_NAMES[k] for k in shown) for shown in state._revealed),
        hand=hand,
        given=CARD_NAMES[given] if given >= 0 else None,
        received=CARD_NAMES[received] if received >= 0 else None,
        seven_left=state._seven,
        seven_colour=state._seven_colour if state._seven else None,
        winners=state._winners,
    )

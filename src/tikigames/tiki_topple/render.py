"""Text renderings of a Tiki Topple state and observation."""

from __future__ import annotations

from collections.abc import Sequence

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.tiki_topple.data import COLOURS, POINTS, SECRET_CARDS, TIKIS
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.state import TikiToppleState, seats_in_words

__all__ = ["describe_card", "render_observation", "render_state"]


def describe_card(card: int) -> str:
    """``#19 Hookipa / Lokahi / Nani`` (the rulebook's row number, top / middle / bottom)."""
    return f"#{card + 1} " + " / ".join(TIKIS[tiki].capitalize() for tiki in SECRET_CARDS[card])


def _line(line: Sequence[str], removed: Sequence[str], secret: int | None) -> list[str]:
    marks: dict[str, str] = {}
    if secret is not None:
        top, middle, bottom = (TIKIS[tiki] for tiki in SECRET_CARDS[secret])
        marks = {
            top: f"your top tiki ({POINTS[0]} at 1st)",
            middle: f"your middle tiki ({POINTS[1]} in the top 2)",
            bottom: f"your bottom tiki ({POINTS[2]} in the top 3)",
        }
    rows = ["Line, top first:"]
    for position, name in enumerate(line, 1):
        colour = COLOURS[TIKIS.index(name)]
        mark = f"   <- {marks[name]}" if name in marks else ""
        rows.append(f"  {position}. {name.capitalize():9} ({colour}){mark}")
    if removed:
        rows.append("Toasted: " + ", ".join(name.capitalize() for name in removed))
    return rows


def _status(current: int, round_: int, seats: Sequence[int], players: int) -> str:
    tiebreak = ""
    if len(seats) < players:
        tiebreak = " (tiebreak between players " + ", ".join(map(str, seats)) + ")"
    if current == TERMINAL:
        return "Game over"
    if current == CHANCE:
        return f"Round {round_}{tiebreak}: dealing"
    return f"Round {round_}{tiebreak}: player {current} to play"


def _hand(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "(empty)"


def _footer(scores: Sequence[int], winners: Sequence[int]) -> list[str]:
    rows = ["Scores: " + ", ".join(f"player {seat} {score}" for seat, score in enumerate(scores))]
    if len(winners) == 1:
        rows.append(f"Winner: player {winners[0]}")
    elif winners:
        rows.append(f"A tie: players {seats_in_words(winners)} share the win")
    return rows


def render_state(state: TikiToppleState) -> str:
    """Everything, secret cards included."""
    n = state.game.num_players
    rows = [_status(state.current_player(), state.round_number(), state.seats(), n)]
    rows += _line(state.line(), state.toasted(), None)
    for seat in range(n):
        card = state.secret(seat)
        secret = describe_card(card) if card is not None else "-"
        rows.append(f"Player {seat}: secret {secret}; hand {_hand(state.hand(seat))}")
    rows += _footer(state.scores(), state.winners())
    return "\n".join(rows)


def render_observation(obs: TikiToppleObservation) -> str:
    """What the observer knows: the line, their secret card, the hands, the scores."""
    n = obs.game.num_players
    who = "a spectator" if obs.player is None else f"player {obs.player}"
    rows = [_status(obs.current_player, obs.round, obs.seats, n) + f" — you are {who}"]
    rows += _line(obs.line, obs.removed, obs.secret)
    if obs.secret is not None:
        rows.append(f"Your secret tiki card: {describe_card(obs.secret)}")
    for seat in range(n):
        you = " (you)" if seat == obs.player else ""
        rows.append(f"Player {seat}{you} hand: {_hand(obs.hands[seat])}")
    if obs.revealed:
        # The round just scored: each seat's secret card and what it was worth.
        rows.append(f"Round {len(obs.revealed)} scored (secret cards revealed):")
        for seat, card in enumerate(obs.revealed[-1]):
            if card is not None:
                points = obs.round_points[-1][seat]
                rows.append(f"  player {seat} {describe_card(card)}: {points} points")
    rows += _footer(obs.scores, obs.winners)
    return "\n".join(rows)

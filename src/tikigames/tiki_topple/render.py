"""Text renderings of a Tiki Topple state and observation: the text board a player reads, with
what the pictures show — the line (the observer's tiers marked), the secret card, the hands,
the round just scored tiki by tiki, the totals and the result in words. The words for cards,
places and results come from :mod:`tikigames.tiki_topple.words`."""

from __future__ import annotations

from collections.abc import Sequence

from tikigames.core.constants import CHANCE, TERMINAL
from tikigames.tiki_topple.data import COLOURS, POINTS, SECRET_CARDS, TIKIS
from tikigames.tiki_topple.observation import TikiToppleObservation
from tikigames.tiki_topple.state import TikiToppleState
from tikigames.tiki_topple.words import (
    describe_card,
    result_words,
    seats_in_words,
    tiers_in_words,
)

__all__ = ["describe_card", "render_observation", "render_state"]


def _line(line: Sequence[str], removed: Sequence[str], secret: int | None, final: int) -> list[str]:
    marks: dict[str, str] = {}
    if secret is not None:
        top, middle, bottom = (TIKIS[tiki] for tiki in SECRET_CARDS[secret])
        marks = {
            top: f"your top tiki ({POINTS[0]} at 1st)",
            middle: f"your middle tiki ({POINTS[1]} in the top 2)",
            bottom: f"your bottom tiki ({POINTS[2]} in the top 3)",
        }
    rows = [f"Final line of round {final}, top first:" if final else "Line, top first:"]
    for position, name in enumerate(line, 1):
        colour = COLOURS[TIKIS.index(name)]
        mark = f"   <- {marks[name]}" if name in marks else ""
        rows.append(f"  {position}. {name.capitalize():9} ({colour}){mark}")
    if removed:
        rows.append("Toasted: " + ", ".join(name.capitalize() for name in removed))
    return rows


def _status(
    current: int,
    round_: int,
    seats: Sequence[int],
    players: int,
    final: int,
) -> str:
    """The first line: whose turn, or what comes next. ``final`` is the round whose final line
    is on the table (0: none)."""
    tiebreak = ""
    if len(seats) < players:
        tiebreak = f" (a tiebreak between players {seats_in_words(seats)})"
    if current == TERMINAL:
        return "Game over"
    if current == CHANCE and final:
        return f"Round {final} is over; round {round_}{tiebreak} is dealt next"
    if current == CHANCE:
        return f"Round {round_}{tiebreak}: dealing"
    return f"Round {round_}{tiebreak}: player {current} to play"


def _hand(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "(empty)"


def _scored(
    number: int,
    cards: Sequence[int | None],
    points: Sequence[int],
    line: Sequence[str] | None,
) -> list[str]:
    """Round ``number``'s secret cards and what each tiki of them scored; where each tiki
    stood too while ``line`` (the round's final line) is on the table."""
    rows = [f"Round {number} scored (secret cards revealed):"]
    ids = None if line is None else [TIKIS.index(name) for name in line]
    for seat, card in enumerate(cards):
        if card is not None:
            rows.append(f"  player {seat} {describe_card(card)}: {points[seat]} points")
            rows.append(f"      {tiers_in_words(card, points[seat], ids)}")
    return rows


def _scores(scores: Sequence[int], winners: Sequence[int]) -> list[str]:
    """The totals, then the result in words once the game is over."""
    rows = ["Scores: " + ", ".join(f"player {seat} {score}" for seat, score in enumerate(scores))]
    if len(winners) > 1:
        rows.append(f"A tie: {result_words(winners, scores)}.")
    elif winners:
        words = result_words(winners, scores)
        rows.append(f"{words[0].upper()}{words[1:]}.")
    return rows


def render_state(state: TikiToppleState) -> str:
    """Everything, secret cards included."""
    n = state.game.num_players
    told = state.round_so_far()
    final = told.number if told.finished else 0
    status = _status(state.current_player(), state.round_number(), state.seats(), n, final)
    rows = [status, *_line(state.line(), state.toasted(), None, final)]
    for seat in range(n):
        card = state.secret(seat)
        secret = describe_card(card) if card is not None else "-"
        rows.append(f"Player {seat}: secret {secret}; hand {_hand(state.hand(seat))}")
    rounds = state.scored_rounds()
    if rounds:
        cards, points, _ = rounds[-1]
        shown = [card if card >= 0 else None for card in cards]
        rows += _scored(len(rounds), shown, points, state.line() if final else None)
    rows += _scores(state.scores(), state.winners())
    return "\n".join(rows)


def render_observation(obs: TikiToppleObservation) -> str:
    """What the observer knows: the line, their secret card, the hands, the round scored, the
    scores; once a round is over, its final line and what each card's tikis scored on it."""
    n = obs.game.num_players
    who = "a spectator" if obs.player is None else f"player {obs.player}"
    told = obs.round_so_far
    final = told.number if told.finished else 0
    status = _status(obs.current_player, obs.round, obs.seats, n, final)
    rows = [f"{status} — you are {who}"]
    rows += _line(obs.line, obs.removed, obs.secret, final)
    if obs.secret is not None:
        rows.append(f"Your secret tiki card: {describe_card(obs.secret)}")
    for seat in range(n):
        you = " (you)" if seat == obs.player else ""
        rows.append(f"Player {seat}{you} hand: {_hand(obs.hands[seat])}")
    if obs.revealed:
        # The round just scored: each seat's secret card and what each of its tikis scored.
        number = len(obs.revealed)
        line = obs.line if final else None
        rows += _scored(number, obs.revealed[-1], obs.round_points[-1], line)
    rows += _scores(obs.scores, obs.winners)
    return "\n".join(rows)

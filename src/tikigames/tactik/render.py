"""Text renderings of a Tac-Tik state (everything) and observation (what one player knows).

The track is drawn as one row of 16 squares per colour, starting at that colour's start square
(in brackets); a pawn is its colour's letter, upper case for a pieu::

    green   t0   [G] .  .  .  r  .  .  .  .  .  .  .  .  .  .  .
"""

from __future__ import annotations

from collections.abc import Sequence

from tikigames.tactik.data import COLOUR_LETTERS, COLOUR_NAMES, TacTikRules, geometry
from tikigames.tactik.observation import TacTikObservation
from tikigames.tactik.state import TacTikState, result_words

__all__ = ["render_observation", "render_state"]


def _who(rules: TacTikRules, player: int) -> str:
    names = COLOUR_NAMES[rules.colours]
    return f"player {player} ({'+'.join(names[c] for c in rules.own_colours[player])})"


def _header(rules: TacTikRules, obs: TacTikObservation) -> list[str]:
    """Two lines: the table (players, teams, dealer, turns), then what happens now."""
    teams = ""
    if rules.team:
        pairs = sorted(set(rules.team_players))
        teams = ", teams " + " and ".join("+".join(map(str, team)) for team in pairs)
    table = f"Tac-Tik, {rules.players} players{teams}; dealer: player {obs.dealer}; "
    table += f"turn {obs.turns}"
    if obs.phase == "deal":
        dealt = sum(obs.hand_sizes)  # hands are empty when a deal starts
        now = f"Dealing: card {dealt + 1} of {rules.deal_size}"
    elif obs.phase == "exchange":
        now = f"Exchange: {_who(rules, obs.current_player)} chooses a card to give"
    elif obs.phase == "play":
        now = f"{_who(rules, obs.current_player).capitalize()} to play"
        if obs.seven_left and obs.seven_colour is not None:
            colour = COLOUR_NAMES[rules.colours][obs.seven_colour]
            now += f" (seven: {obs.seven_left} steps left, {colour})"
    else:
        now = f"Game over: {result_words(obs.winners)}"
    return [table, now]


def _board(rules: TacTikRules, obs: TacTikObservation) -> list[str]:
    letters = COLOUR_LETTERS[rules.colours]
    names = COLOUR_NAMES[rules.colours]
    width = max(map(len, names))
    rows = ["Track (clockwise; [start squares]; UPPER case = pieu; square = row start + column):"]
    # The column numbers over the cells, and each row's pawns by square at its end, so that a
    # pawn's name (``t21``) is read off rather than counted.
    rows.append(" " * (width + 9) + "".join(f"{i:>2} " for i in range(16)).rstrip())
    for c in range(rules.colours):
        cells = []
        pawns = []
        for square in range(16 * c, 16 * c + 16):
            colour = obs.track[square]
            cell = "." if colour < 0 else letters[colour]
            if colour >= 0 and square == 16 * colour and colour in obs.pieux:
                cell = cell.upper()
            if colour >= 0:
                pawns.append(f"{cell} t{square}")
            cells.append(f"[{cell}]" if square == 16 * c else f" {cell} ")
        row = f"  {names[c]:<{width}}  t{16 * c:<3} " + "".join(cells)
        rows.append((row + "   " + ", ".join(pawns)) if pawns else row.rstrip())
    homes = "   ".join(
        f"{names[c]} " + " ".join(letters[c] if flag else "." for flag in obs.homes[c])
        for c in range(rules.colours)
    )
    rows.append(f"Homes:     {homes}")
    reserves = "   ".join(f"{names[c]} {obs.reserves[c]}" for c in range(rules.colours))
    rows.append(f"Reserves:  {reserves}")
    pile = " ".join(obs.pile) if obs.pile else "(empty)"
    rows.append(f"Talon: {obs.talon_size} cards. Played since it was made up: {pile}")
    move = obs.last_move
    if move is not None:  # what the picture's arrow shows
        squares = geometry(rules.colours).names
        source = f"{names[-1 - move.source]}'s reserve" if move.source < 0 else squares[move.source]
        arrow = " ↔ " if move.swap else " → "
        rows.append(f"Last move: {source}{arrow}{squares[move.target]}")
    return rows


def _hand(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "(no cards)"


def render_state(state: TacTikState) -> str:
    """Everything: the board, every hand and this deal's exchange."""
    rules = state.game.rules
    obs = state.observation(None)
    rows = [*_header(rules, obs), *_board(rules, obs)]
    for player in range(rules.players):
        line = f"  {_who(rules, player)}: {_hand(state.hand(player))}"
        given = state.given(player)
        if given is not None:
            line += f"; gives {given}"
        received = state.received(player)
        if received is not None:
            line += f"; received {received}"
        rows.append(line)
    rows[len(rows) - rules.players : len(rows) - rules.players] = ["Hands:"]
    return "\n".join(rows)


def render_observation(obs: TacTikObservation) -> str:
    """What the observer knows: the board, their own hand, the others' hand sizes."""
    rules = obs.game.rules
    who = "a spectator" if obs.player is None else _who(rules, obs.player)
    table, now = _header(rules, obs)
    rows = [table, f"{now} — you are {who}", *_board(rules, obs), "Hands:"]
    for player in range(rules.players):
        if player == obs.player:
            line = f"  {_who(rules, player)} (you): {_hand(obs.hand)}"
            if obs.given is not None:
                line += f"; you give {obs.given}"
            if obs.received is not None:
                line += f"; you received {obs.received}"
        else:
            count = obs.hand_sizes[player]
            line = f"  {_who(rules, player)}: {count} card{'s' if count != 1 else ''}"
        rows.append(line)
    return "\n".join(rows)

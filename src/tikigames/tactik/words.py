"""A Tac-Tik history told in words, as one player saw it: what ``obs.history_in_words()`` says.

The history's texts name the card and the pawn (``5:t23``), but not what followed: where the
pawn landed (a home square, round the track), whose pawns it captured on the way, how many steps
of a seven are left, what the partner gave. :func:`history_words` follows the public board along
the history — every move is public — with the path rule's pure functions
(:mod:`tikigames.tactik.paths`), and the flow of turns (who holds cards, who deals) as
:mod:`tikigames.tactik.history` does. It reads nothing but what the observer saw: the texts
(others' dealt and given cards are ``?``), the hands shown by ``discard all``, and the card the
observer received in the deal under way. The card received in an earlier deal follows from the
observer's own cards: every card of a finished deal was played, so it is the one card the
observer played beyond those dealt to them, less the one they gave.

>>> import tikigames
>>> state = tikigames.load("tactik").new_initial_state()
>>> for card in ["1", "3", "6", "9"] * 4:
...     state.apply_action(state.parse_action("deal " + card))
>>> for card in ["1", "3", "6", "9"]:
...     state.apply_action(state.parse_action("give " + card))
>>> state.apply_action(state.parse_action("1:start@0"))
>>> words = state.observation(0).history_in_words()
>>> words[0], words[1]
('player 3 deals; you are dealt 1', 'player 1 is dealt a card')
>>> words[19]
'player 3 chooses a card for their partner; the cards change hands: you receive 6 from player 2'
>>> words[20]
'you play 1: a green pawn comes out onto t0 (a pieu)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tikigames.tactik.actions import (
    BACK,
    DEAL,
    DISCARD,
    DISCARD_ALL,
    GIVE,
    SEVEN,
    START,
    SWAP_PAWNS,
    TacTikAction,
)
from tikigames.tactik.data import (
    CARD_INDEX,
    CARD_NAMES,
    COLOUR_NAMES,
    HOME_FULL,
    JOKER,
    NUM_CARDS,
    PAWNS,
    TacTikRules,
    geometry,
)
from tikigames.tactik.paths import entered, forward_dest

__all__ = ["history_words"]

HIDDEN_DEAL = "deal ?"
HIDDEN_GIVE = "give ?"


class _Board:
    """The public board, replayed: each track square's colour (−1 empty), each colour's home
    squares (a bitmask) and reserve, the pieux (a bitmask)."""

    __slots__ = ("homes", "pieux", "reserves", "track")

    def __init__(self, rules: TacTikRules) -> None:
        self.track = [-1] * rules.track
        self.homes = [0] * rules.colours
        self.reserves = [PAWNS] * rules.colours
        self.pieux = 0


class _Teller:
    """Words for one observer: names of players, colours, squares and pawns."""

    __slots__ = ("colours", "me", "names", "owner", "partner", "rules")

    def __init__(self, rules: TacTikRules, me: int | None) -> None:
        self.rules = rules
        self.me = me
        self.colours = COLOUR_NAMES[rules.colours]
        self.names = geometry(rules.colours).names
        self.partner = -1 if me is None else rules.partner[me]
        owner = [0] * rules.colours
        for p in range(rules.players):
            for c in rules.own_colours[p]:
                owner[c] = p
        self.owner = owner

    def who(self, player: int) -> str:
        return "you" if player == self.me else f"player {player}"

    def verb(self, player: int, verb: str) -> str:
        """``you play`` / ``player 1 plays``."""
        if player == self.me:
            return f"you {verb}"
        return f"player {player} {verb}s"

    def whose(self, colour: int) -> str:
        """A captured pawn's owner: ``your``, ``your partner's``, ``player 1's``."""
        player = self.owner[colour]
        if player == self.me:
            return "your"
        if player == self.partner:
            return "your partner's"
        return f"player {player}'s"

    def square(self, square: int) -> str:
        return self.names[square]


def _card_words(action: TacTikAction) -> str:
    """The card played: ``5``, ``a Joker as 5``."""
    name = CARD_NAMES[action.value]
    return f"a Joker as {name}" if action.card == JOKER else name


def _capture(board: _Board, teller: _Teller, square: int, how: str) -> str:
    """The pawn on track ``square`` goes back to its reserve; the words for it."""
    colour = board.track[square]
    board.track[square] = -1
    board.reserves[colour] += 1
    name = teller.colours[colour]
    where = teller.square(square)
    return f"{how} {teller.whose(colour)} {name} pawn on {where} (back to its reserve)"


def _move(
    board: _Board, teller: _Teller, action: TacTikAction, passed: bool, steps: str = ""
) -> str:
    """Apply a move to the board; what the pawn did (with ``steps``, a seven's steps, after
    it) and what it captured, in words."""
    rules = teller.rules
    track_len = rules.track
    kind = action.kind
    track = board.track
    if kind == START:
        c = action.square
        start = c << 4
        words = f"a {teller.colours[c]} pawn comes out onto {teller.square(start)} (a pieu)"
        if track[start] >= 0:
            words += "; it " + _capture(board, teller, start, "captures")
        track[start] = c
        board.pieux |= 1 << c
        board.reserves[c] -= 1
        return words
    if kind == SWAP_PAWNS:
        x, y = action.square, action.other
        cx, cy = track[x], track[y]
        track[x], track[y] = cy, cx
        for square, colour in ((x, cx), (y, cy)):
            if square == colour << 4:
                board.pieux &= ~(1 << colour)
        return (
            f"the {teller.colours[cx]} pawn on {teller.square(x)} and the {teller.colours[cy]} "
            f"pawn on {teller.square(y)} change places"
        )
    x = action.square
    c = track[x] if x < track_len else (x - track_len) // PAWNS
    n = action.steps
    if kind == BACK:
        y = (x - 4) % track_len
    else:
        y = forward_dest(track_len, rules.colours, x, n, c, board.pieux, board.homes[c])
        if y < 0:  # not a move of this board: the texts were not a game's
            return f"a {teller.colours[c]} pawn moves from {teller.square(x)}"
    if x < track_len:
        track[x] = -1
        if x == c << 4:
            board.pieux &= ~(1 << c)
    else:
        board.homes[c] &= ~(1 << (x - track_len - PAWNS * c))
    words = f"{teller.colours[c]} pawn {teller.square(x)} → {teller.square(y)}"
    if y >= track_len and x < track_len:
        words += ", into its home"
    elif kind == BACK:
        words += ", 4 back"
    words += steps
    captured = []
    if kind == SEVEN and passed:
        for square in entered(track_len, x, y, n, c):
            if track[square] >= 0:
                captured.append(_capture(board, teller, square, "passes and captures"))
    if y < track_len:
        if track[y] >= 0:
            captured.append(_capture(board, teller, y, "captures"))
        track[y] = c
    else:
        board.homes[c] |= 1 << (y - track_len - PAWNS * c)
        if board.homes[c] == HOME_FULL:
            captured.append(f"all {teller.colours[c]} pawns are home")
    return "; ".join([words, *captured])


def history_words(
    rules: TacTikRules,
    parse: Callable[[str], TacTikAction],
    history: Sequence[str],
    me: int | None,
    revealed: Sequence[Sequence[str]],
    received: str | None,
    result: str | None,
) -> tuple[str, ...]:
    """Each entry of ``history`` (as player ``me`` saw it; ``None``: a spectator) in words.

    ``parse`` is the action table's ``parse``; ``revealed`` the hands shown by the ``discard
    all`` plays, in order; ``received`` the card ``me`` received in the deal under way (or
    ``None``); ``result`` the result in words once the game is over (told after the last
    entry), else ``None``."""
    teller = _Teller(rules, me)
    board = _Board(rules)
    n = rules.players
    sizes = [0] * n
    words: list[str] = []
    dealer = rules.first_dealer - 1  # the first deal moves it on to first_dealer
    dealt = 0
    gives = 0
    talon = rules.deck_size
    actor = -1
    seven = 0
    shown = 0
    # The observer's cards of the deal under way (dealt, given, played), to find the card
    # they received once the deal is over, and the entry that tells the exchange.
    mine = [0] * NUM_CARDS
    exchange_at = -1
    exchange_from = -1
    for text in history:
        if text.startswith("deal "):
            if dealt == 0 or dealt == rules.deal_size:  # a new deal
                _tell_received(words, exchange_at, exchange_from, mine, None)
                exchange_at = -1
                mine = [0] * NUM_CARDS
                dealer = (dealer + 1) % n
                dealt, gives, seven = 0, 0, 0
                sizes = [0] * n
            served = (dealer + 1 + dealt) % n
            entry = ""
            if dealt == 0:
                entry = f"{teller.verb(dealer, 'deal')}; "
                if talon < rules.deal_size:
                    entry += "every card is gathered and shuffled into a new talon; "
                    talon = rules.deck_size
            if text == HIDDEN_DEAL:
                entry += f"{teller.who(served)} {'are' if served == me else 'is'} dealt a card"
            else:
                card = text[5:]
                entry += f"{teller.who(served)} {'are' if served == me else 'is'} dealt {card}"
                if served == me:
                    mine[CARD_INDEX[card.lower()]] += 1
            talon -= 1
            dealt += 1
            sizes[served] += 1
            if dealt == rules.deal_size and not rules.team:
                actor = (dealer + 1) % n
            words.append(entry)
            continue
        if text.startswith("give "):
            giver = (dealer + 1 + gives) % n
            mate = rules.partner[giver]
            if text == HIDDEN_GIVE:
                entry = f"player {giver} chooses a card for their partner"
                if mate == me:
                    entry = f"your partner (player {giver}) chooses a card for you"
            else:
                card = text[5:]
                entry = f"{teller.verb(giver, 'give')} {card} to your partner (player {mate})"
                if giver == me:
                    mine[CARD_INDEX[card.lower()]] -= 1
            gives += 1
            if gives == n:
                entry += "; the cards change hands"
                actor = (dealer + 1) % n
                if me is not None:
                    exchange_at = len(words)
                    exchange_from = rules.partner[me]
            words.append(entry)
            continue
        action: TacTikAction = parse(text)
        kind = action.kind
        player = actor
        if kind in (DEAL, GIVE) or player < 0:  # not a game's history
            words.append(text)
            continue
        if kind == SEVEN and seven:
            seven -= action.steps
            entry = f"{teller.verb(player, 'continue')} the 7: "
            entry += _move(board, teller, action, rules.passed, _steps(action.steps, seven))
        elif kind == DISCARD_ALL:
            hand = tuple(revealed[shown]) if shown < len(revealed) else ()
            shown += 1
            entry = f"{teller.verb(player, 'discard')} the whole hand"
            if hand:
                entry += f", {' '.join(hand)}, as no card can be played"
            if player == me:
                for card in hand:
                    mine[CARD_INDEX[card.lower()]] -= 1
            sizes[player] = 0
        else:
            sizes[player] -= 1
            if player == me:
                mine[action.card] -= 1
            if kind == DISCARD:
                entry = f"{teller.verb(player, 'discard')} {CARD_NAMES[action.card]}"
            else:
                steps = ""
                if kind == SEVEN:
                    seven = 7 - action.steps
                    steps = _steps(action.steps, seven)
                entry = f"{teller.verb(player, 'play')} {_card_words(action)}: "
                entry += _move(board, teller, action, rules.passed, steps)
        words.append(entry)
        if seven > 0:
            continue
        following = [(player + i) % n for i in range(1, n + 1)]
        actor = next((p for p in following if sizes[p] > 0), -1)
    if exchange_at >= 0:
        deal_over = actor < 0
        _tell_received(words, exchange_at, exchange_from, mine, None if deal_over else received)
    if result is not None and words:
        words[-1] += f"; the game is over: {result}"
    return tuple(words)


def _steps(steps: int, left: int) -> str:
    """A seven's sub-move: `` (3 steps, 4 left)``, `` (3 steps, the 7 is done)``."""
    done = f"{left} left" if left else "the 7 is done"
    return f" ({steps} step{'s' if steps > 1 else ''}, {done})"


def _tell_received(
    words: list[str], at: int, giver: int, mine: list[int], received: str | None
) -> None:
    """Add to the exchange's entry ``words[at]`` (if any) the card the observer received from
    ``giver``: ``received`` when given, else the card the observer's plays tell (a finished
    deal: ``mine`` is given − dealt − played, per kind, and −1 at the card received)."""
    if at < 0:
        return
    if received is None:
        missing = [kind for kind in range(NUM_CARDS) if mine[kind] < 0]
        if len(missing) == 1 and mine[missing[0]] == -1:
            received = CARD_NAMES[missing[0]]
    card = received if received is not None else "a card"
    words[at] += f": you receive {card} from player {giver}"

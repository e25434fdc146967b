"""A game the server holds: its state, its seats and their tokens, and what each seat may see.

A :class:`Match` is the server's authority over one game. It keeps the whole state (hidden
cards and ranks included) and drives it with the core's one decision loop,
:func:`tikigames.decisions`, so chance outcomes are drawn at once, in the order
:func:`tikigames.play` draws them. Everything it hands out is a :meth:`Match.view`, built from
``state.observation(seat)`` (the spectator's from ``observation(None)``): a seat never
receives a field the observation does not have.

This module knows nothing of HTTP: refusals are :class:`Refusal` exceptions carrying the
status code the API answers with, and the web layer (:mod:`tikigames.server.app`) only maps
them. It imports no third-party package, so a worker process that runs a bot needs nothing
else.

>>> match, tokens = Match.create("g1", {"game": "tiki_topple", "seats": ["human", "random"],
...                                     "seed": 3})
>>> view = match.view(match.seat_of(tokens[0]))
>>> view["seat"], view["current_player"], view["move_number"]  # the deal is drawn at once
(0, 0, 3)
>>> after = match.move(0, view["legal"][0]["text"], view["move_number"])
>>> after["move_number"], after["current_player"]
(4, 1)
"""

from __future__ import annotations

import hashlib
import hmac
import inspect
import json
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import tikigames
from tikigames.bots import BOTS, Bot
from tikigames.bots.search import GAME_CAP
from tikigames.core.action import Action
from tikigames.core.constants import TERMINAL
from tikigames.core.errors import ActionError, OptionError, TikiGamesError, shown
from tikigames.core.game import Game
from tikigames.core.observation import Observation
from tikigames.core.play import Turn, decisions, next_turn
from tikigames.core.state import State

__all__ = [
    "BOT_LIMITS",
    "HUMAN",
    "SEAT_KINDS",
    "VIEW_KEYS",
    "Match",
    "Refusal",
    "Seat",
    "think",
]

#: The seat kind of a person (who gets a token); every other kind is a bot of :data:`BOTS`.
HUMAN: Final = "human"
#: The kinds a seat can be.
SEAT_KINDS: Final = (HUMAN, *BOTS)
#: The keys of a view, exactly (the API's contract).
VIEW_KEYS: Final = (
    "game",
    "options",
    "seat",
    "move_number",
    "current_player",
    "terminal",
    "returns",
    "observation",
    "text",
    "svg",
    "legal",
)
#: The largest settings a client may ask of a bot: a seat is not a way to take the server's
#: processors for hours.
BOT_LIMITS: Final[Mapping[str, float]] = {
    "iterations": 100_000,
    "seconds": 10.0,
    "max_rollout": 10_000,
}
#: The fields a new game's request may have.
_NEW_GAME_FIELDS: Final = ("game", "options", "seats", "seed")
#: The fields an object seat may have.
_SEAT_FIELDS: Final = ("kind", "settings")
#: Seeds are stored as SQLite integers: signed 64-bit.
_MAX_SEED: Final = 2**63 - 1


class Refusal(TikiGamesError):
    """A request the server refuses: the HTTP status, the message, and for a refused move the
    game's reason (``illegal_reason``, which depends only on what the seat knows).

    >>> Refusal(409, "it is player 1's turn").body()
    {'error': "it is player 1's turn"}
    """

    def __init__(self, status: int, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason

    def body(self) -> dict[str, str]:
        """The JSON body of the refusal: ``{"error": …}``, plus ``"reason"`` when there is one."""
        body = {"error": self.message}
        if self.reason is not None:
            body["reason"] = self.reason
        return body


def _bad(message: str) -> Refusal:
    return Refusal(400, message)


def token_digest(token: str) -> str:
    """What the server stores of a token: its SHA-256, hex. A stolen database gives no token.

    >>> len(token_digest("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Seat:
    """One seat of a match: its kind (``"human"`` or a bot's), a bot's settings, and the digest
    of a human seat's token."""

    seat: int
    kind: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    token_digest: str | None = None

    def to_json(self) -> dict[str, Any]:
        """How the seat is stored: no token, only its digest."""
        return {
            "kind": self.kind,
            "settings": dict(self.settings),
            "token_sha256": self.token_digest,
        }

    def make_bot(self) -> Bot:
        """The bot of a bot seat, built from its settings (already checked)."""
        return BOTS[self.kind](**self.settings)


#: Each bot setting a request may give, with the JSON values it takes (in words, and a test).
_SETTING_TYPES: Final[Mapping[str, tuple[str, Callable[[object], bool]]]] = {
    "iterations": ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "seconds": ("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "c": ("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "max_rollout": (
        'an integer or "game"',
        lambda v: v == GAME_CAP or (isinstance(v, int) and not isinstance(v, bool)),
    ),
}


def _bot_settings(kind: str, raw: object, where: str, seconds: float) -> dict[str, Any]:
    """A bot seat's settings, checked here (names the bot takes, types, this server's limits)
    and then by building the bot (ranges); a search bot given no budget thinks ``seconds`` a
    move (the game's :attr:`~tikigames.core.game.Game.think_seconds`).

    The types are checked here rather than left to the bot's constructor, whose own errors
    differ between the builds (a compiled one checks its annotations itself)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise _bad(f"{where}: 'settings' must be an object, not {shown(raw)}")
    takes = inspect.signature(BOTS[kind]).parameters
    settings: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _SETTING_TYPES:
            raise _bad(f"{where}: unknown bot setting {shown(key)}")
        if key not in takes:
            raise _bad(f"{where}: a {kind} bot takes no setting {key!r}")
        wanted, fits = _SETTING_TYPES[key]
        if not fits(value):
            raise _bad(f"{where}: {key} must be {wanted}, not {shown(value)}")
        limit = BOT_LIMITS.get(key)
        if limit is not None and value != GAME_CAP and value > limit:
            raise _bad(f"{where}: {key} is at most {limit:g} on this server, not {shown(value)}")
        settings[key] = value
    if "seconds" in takes and "iterations" not in settings and "seconds" not in settings:
        settings["seconds"] = seconds
    try:
        BOTS[kind](**settings)
    except (TypeError, ValueError) as error:
        raise _bad(f"{where}: {error}"[:200]) from None
    return settings


def _seat(index: int, raw: object) -> tuple[str, object]:
    """A seat's kind and its raw settings (checked once the game is known)."""
    where = f"seat {index}"
    kind: object
    settings_raw: object = None
    if isinstance(raw, str):
        kind = raw
    elif isinstance(raw, dict):
        unknown = [key for key in raw if key not in _SEAT_FIELDS]
        if unknown:
            raise _bad(f"{where}: unknown field {shown(unknown[0])} (fields: kind, settings)")
        kind, settings_raw = raw.get("kind"), raw.get("settings")
        if not isinstance(kind, str):
            raise _bad(f"{where}: 'kind' must be a string, not {shown(kind)}")
    else:
        raise _bad(f"{where} must be a kind or an object, not {shown(raw)}")
    if kind not in SEAT_KINDS:
        raise _bad(f"{where}: unknown seat kind {shown(kind)} (kinds: {', '.join(SEAT_KINDS)})")
    if kind == HUMAN and settings_raw is not None:
        raise _bad(f"{where}: a human seat takes no settings")
    return kind, settings_raw


def _load_game(name: object, options: object, seats: int) -> Game[Any, Any, Any]:
    """The game of a new match: its options checked, ``players`` set by the seats' count."""
    if not isinstance(name, str):
        raise _bad(f"'game' must be a string, not {shown(name)}")
    if name not in tikigames.GAMES:
        raise _bad(f"unknown game {shown(name)} (games: {', '.join(tikigames.GAMES)})")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _bad(f"'options' must be an object, not {shown(options)}")
    given = dict(options)
    has_players = any(spec.name == "players" for spec in tikigames.load(name).option_specs)
    if has_players:
        given.setdefault("players", seats)
    try:
        game = tikigames.load(name, **given)
    except OptionError as error:
        raise _bad(str(error)[:200]) from None
    if game.num_players != seats:
        raise _bad(
            f"{name} with these options has {game.num_players} seats, "
            f"but {seats} were given in 'seats'"
        )
    return game


class Match:
    """One game held by the server: the state, the seats, the rng, the decision loop.

    Create one with :meth:`create` (a new game, from the API's request) or :meth:`restore`
    (from what :meth:`record` stored). Change it only with :meth:`move` (a person's move) and
    :meth:`play_bot` (a bot's), which are checked first and then sent through the decision
    loop; :meth:`mark` and :meth:`rollback` undo a change the store could not commit.
    """

    def __init__(
        self,
        match_id: str,
        game: Game[Any, Any, Any],
        seats: Sequence[Seat],
        seed: int,
        state: State[Any, Any, Any],
        rng: random.Random,
    ) -> None:
        self.id = match_id
        self.game = game
        self.seats = tuple(seats)
        self.seed = seed
        self.state = state
        self.rng = rng
        self.turn: Turn | None = None
        self._views: dict[int | None, dict[str, Any]] = {}
        self._texts: dict[int | None, str] = {}
        self._views_at = -1
        self._start_loop()

    # ----------------------------------------------------------------- construction

    @classmethod
    def create(cls, match_id: str, request: object) -> tuple[Match, list[str | None]]:
        """A new match from the API's request (``{"game", "options"?, "seats", "seed"?}``)
        and each seat's token (``None`` for a bot's); its chance outcomes up to the first
        decision are drawn.

        Raises:
            Refusal: (400) an unknown game, field, option, bad value or seat kind, named.
        """
        if not isinstance(request, dict):
            raise _bad(f"the request must be a JSON object, not {shown(request)}")
        unknown = [key for key in request if key not in _NEW_GAME_FIELDS]
        if unknown:
            raise _bad(f"unknown field {shown(unknown[0])} (fields: {', '.join(_NEW_GAME_FIELDS)})")
        raw_seats = request.get("seats")
        if not isinstance(raw_seats, list) or not raw_seats:
            raise _bad(f"'seats' must be a non-empty list of seat kinds, not {shown(raw_seats)}")
        if len(raw_seats) > 16:
            raise _bad(f"'seats' has {len(raw_seats)} seats; no game here has more than 16")
        kinds = [_seat(index, raw) for index, raw in enumerate(raw_seats)]
        game = _load_game(request.get("game"), request.get("options"), len(kinds))
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MAX_SEED:
            raise _bad(f"'seed' must be an integer from 0 to 2**63 - 1, not {shown(seed)}")
        tokens: list[str | None] = []
        seats: list[Seat] = []
        for index, (kind, raw) in enumerate(kinds):
            settings = (
                {}
                if kind == HUMAN
                else _bot_settings(kind, raw, f"seat {index}", game.think_seconds)
            )
            token = secrets.token_urlsafe(16) if kind == HUMAN else None  # 128 bits
            tokens.append(token)
            digest = None if token is None else token_digest(token)
            seats.append(Seat(index, kind, settings, digest))
        match = cls(match_id, game, seats, seed, game.new_initial_state(), random.Random(seed))
        return match, tokens

    @classmethod
    def restore(
        cls, match_id: str, seats_json: str, seed: int, state_json: str, rng_json: str
    ) -> Match:
        """The match :meth:`record` stored, checked: the state is loaded by replaying its
        history (:func:`tikigames.state_from_json_text`, which refuses a malformed one), the
        rng put back where it stood.

        Raises:
            TikiGamesError: the stored record is malformed (the message says which part).
        """
        state = tikigames.state_from_json_text(state_json)
        try:
            raw_seats = json.loads(seats_json)
            seats = [
                Seat(
                    index,
                    raw["kind"],
                    {}
                    if raw["kind"] == HUMAN
                    else _bot_settings(raw["kind"], raw["settings"], "", 1.0),
                    raw["token_sha256"],
                )
                for index, raw in enumerate(raw_seats)
            ]
            version, internal, gauss = json.loads(rng_json)
            rng = random.Random()
            rng.setstate((version, tuple(internal), gauss))
        except (ValueError, TypeError, KeyError, IndexError, Refusal) as error:
            raise TikiGamesError(f"game {match_id}: a malformed record ({error})"[:200]) from None
        if len(seats) != state.game.num_players or any(s.kind not in SEAT_KINDS for s in seats):
            raise TikiGamesError(f"game {match_id}: its seats do not fit the game")
        return cls(match_id, state.game, seats, seed, state, rng)

    def record(self) -> tuple[str, str, str]:
        """What the store keeps after each change: ``(seats JSON, state JSON, rng JSON)``."""
        seats = json.dumps([seat.to_json() for seat in self.seats])
        return seats, self.state.to_json_text(), json.dumps(self.rng.getstate())

    def _start_loop(self) -> None:
        self._loop = decisions(self.state, self.rng)
        self.turn = next_turn(self._loop)

    # ----------------------------------------------------------------- who is asking

    def seat_of(self, token: object) -> int | None:
        """The seat ``token`` opens; ``None`` (the spectator) for no token.

        Every human seat's digest is compared, in constant time, whatever matches.

        Raises:
            Refusal: (403) a token that opens no seat of this match.
        """
        if token is None:
            return None
        if not isinstance(token, str) or not 16 <= len(token) <= 64:
            raise Refusal(403, "this token opens no seat of this game")
        digest = token_digest(token)
        found: int | None = None
        for seat in self.seats:
            if seat.token_digest is not None and hmac.compare_digest(digest, seat.token_digest):
                found = seat.seat
        if found is None:
            raise Refusal(403, "this token opens no seat of this game")
        return found

    # ----------------------------------------------------------------- what a seat sees

    @property
    def move_number(self) -> int:
        """Actions applied so far, chance outcomes included."""
        return self.state.move_number()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) receives: exactly :data:`VIEW_KEYS`, each from
        ``state.observation(seat)`` — but ``returns``, which is public once the game is over.
        Views are cached until the next change (every watcher of a seat gets the same one)."""
        if self._views_at != self.move_number:
            self._views = {}
            self._texts = {}
            self._views_at = self.move_number
        cached = self._views.get(seat)
        if cached is None:
            cached = self._views[seat] = self._build_view(seat)
        return cached

    def view_text(self, seat: int | None) -> str:
        """:meth:`view` as compact JSON text, cached as the view is: what every watcher of a
        seat is sent."""
        self.view(seat)
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = json.dumps(self._views[seat], separators=(",", ":"))
        return text

    def _build_view(self, seat: int | None) -> dict[str, Any]:
        obs: Observation[Any] = self.state.observation(seat)
        terminal = obs.current_player == TERMINAL
        return {
            "game": self.game.name,
            "options": self.game.options,
            "seat": seat,
            "move_number": len(obs.history),
            "current_player": obs.current_player,
            "terminal": terminal,
            "returns": list(self.state.returns()) if terminal else None,
            "observation": obs.to_json(),
            "text": str(obs),
            "svg": obs.svg(),
            "legal": [{"id": int(action), "text": action.text} for action in obs.legal_actions()],
        }

    def log(self, seat: int | None) -> list[str]:
        """The history as ``seat`` saw it, in words (the observation's ``history_in_words``)."""
        words: tuple[str, ...] = self.state.observation(seat).history_in_words()
        return list(words)

    # ----------------------------------------------------------------- changes

    def check_move(self, seat: int | None, action: object, move_number: object) -> Action:
        """The action ``seat`` may play now, named by ``action`` (its text or id) at
        ``move_number``; nothing changes.

        Raises:
            Refusal: 403 for a spectator, 409 when it is not this seat's turn or
                ``move_number`` is not the current one, 422 with the game's reason for an
                unparseable or illegal action, 400 for a value of the wrong type.
        """
        if seat is None:
            raise Refusal(403, "a spectator cannot move; a seat's token is needed")
        if not isinstance(move_number, int) or isinstance(move_number, bool):
            raise _bad(f"'move_number' must be an integer, not {shown(move_number)}")
        if move_number != self.move_number:
            raise Refusal(
                409,
                f"the game is at move {self.move_number}, not {move_number}: look again",
            )
        turn = self.turn
        if turn is None:
            raise Refusal(409, "the game is over")
        if turn.player != seat:
            raise Refusal(409, f"it is player {turn.player}'s turn, not yours")
        if isinstance(action, str):
            text = " ".join(action.split())
            try:
                chosen: Action = self.game.action_table.parse(text)
            except ActionError as error:
                raise Refusal(422, f"{shown(action)} is not a move", str(error)[:200]) from None
        elif isinstance(action, int) and not isinstance(action, bool):
            try:
                chosen = self.game.action(action)
            except ActionError as error:
                raise Refusal(422, f"{shown(action)} is not a move", str(error)[:200]) from None
        else:
            raise _bad(f"'action' must be a move's text or id, not {shown(action)}")
        if chosen not in self.state.legal_actions():
            reason = self.state.illegal_reason(chosen) or "not legal now"
            raise Refusal(422, f"{chosen.text!r} is not legal now", reason)
        return chosen

    def move(self, seat: int | None, action: object, move_number: object) -> dict[str, Any]:
        """Play ``seat``'s move (checked by :meth:`check_move`), draw the chance outcomes that
        follow, and return the seat's new view. A refusal changes nothing."""
        chosen = self.check_move(seat, action, move_number)
        self.turn = next_turn(self._loop, chosen)
        return self.view(seat)

    def bot_to_move(self) -> tuple[int, Bot, Observation[Any]] | None:
        """``(seat, bot, observation)`` when a bot is to move, else ``None``."""
        turn = self.turn
        if turn is None or self.seats[turn.player].kind == HUMAN:
            return None
        return turn.player, self.seats[turn.player].make_bot(), turn.observation()

    def play_bot(self, seat: int, action_id: int, rng_state: Any) -> None:
        """Apply the move a bot chose for ``seat`` in a worker (:func:`think`), with the rng
        as the bot left it: the game then goes on exactly as :func:`tikigames.play` would.

        Raises:
            Refusal: (409) the game moved on meanwhile, or the bot's action is not legal.
        """
        turn = self.turn
        if turn is None or turn.player != seat:
            raise Refusal(409, "the game moved on while the bot was thinking")
        chosen = self.game.action(action_id)
        if chosen not in self.state.legal_actions():
            raise Refusal(409, f"the bot chose {chosen.text!r}, which is not legal")
        self.rng.setstate(rng_state)
        self.turn = next_turn(self._loop, chosen)

    def mark(self) -> tuple[int, Any]:
        """Where the match stands: :meth:`rollback` returns to it."""
        return self.move_number, self.rng.getstate()

    def rollback(self, mark: tuple[int, Any]) -> None:
        """Undo every action after ``mark`` and put the rng back (a change the store could not
        commit is forgotten: what a client was told is what the store holds)."""
        move_number, rng_state = mark
        while self.move_number > move_number:
            self.state.undo_action()
        self.rng.setstate(rng_state)
        self._views_at = -1  # the views of the forgotten change
        self._start_loop()


def think(bot: Bot, obs: Observation[Any], rng: random.Random) -> tuple[int, Any]:
    """A bot's move, in a worker process: ``(action id, the rng's state after)``.

    The rng comes back so that the match draws on from where the bot left it, as in
    :func:`tikigames.play`: a seeded game of bots given ``iterations`` is reproducible.

    >>> import random, tikigames
    >>> from tikigames.bots import RandomBot
    >>> state = tikigames.load("paiko").new_initial_state()
    >>> action_id, after = think(RandomBot(), state.observation(0), random.Random(1))
    >>> state.game.action(action_id) in state.legal_actions()
    True
    """
    action = bot.act(obs, rng)
    return int(action), rng.getstate()

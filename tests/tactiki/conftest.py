"""Shared helpers for the TacTiki tests, as fixtures: build setups and play notation scripts.

Positions are always reached through real actions, from the initial state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

import tikigames

#: Start fields of each player, and the ranks each player owns.
START = (("a1", "b1", "c1", "d1", "e1"), ("a5", "b5", "c5", "d5", "e5"))
RANKS = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)

#: The setup most tests use, bottom piece first on each field.
STANDARD = {
    "a1": (1, 2), "b1": (3, 4), "c1": (5, 1), "d1": (2, 3), "e1": (4, 5),
    "a5": (1, 2), "b5": (3, 1), "c5": (4, 5), "d5": (2, 3), "e5": (4, 5),
}  # fmt: skip


def setup_texts(fields: Mapping[str, Sequence[int]] | None = None) -> list[str]:
    """The 20 placements of a setup: ``fields`` gives some fields' ranks (bottom first, one or
    two); every other slot takes the player's remaining ranks in ascending order."""
    fields = dict(fields or {})
    texts = []
    for squares in START:
        left = list(RANKS)
        for square in squares:
            for rank in fields.get(square, ()):
                left.remove(rank)
        for square in squares:
            ranks = list(fields.get(square, ()))
            while len(ranks) < 2:
                ranks.append(left.pop(0))
            texts += [f"{rank}@{square}" for rank in ranks]
    return texts


def play_script(state: Any, script: str | Sequence[str]) -> Any:
    """Apply each action of ``script`` (notation, separated by spaces or ``|``) through
    ``parse_action``, so every one is checked for legality."""
    texts = script.replace("|", " ").split() if isinstance(script, str) else script
    for text in texts:
        state.apply_action(state.parse_action(text))
    return state


def started(fields: Mapping[str, Sequence[int]] | None = None, **options: Any) -> Any:
    """A game with ``options`` just after the setup ``fields`` (default: ``STANDARD``)."""
    state = tikigames.load("tactiki", **options).new_initial_state()
    return play_script(state, setup_texts(STANDARD if fields is None else fields))


#: A game in which TAC reincarnates twice, unseen: TIKI defeats TAC's 5 and a 3, TAC
#: reincarnates ``first`` on b5, TIKI defeats TAC's other 3, TAC reincarnates ``second`` on e5.
#: With ``first`` 5 (pool 3 3 after the second defeat) ``second`` must be 3; with ``first`` 3
#: (pool 5 3) it may be 3 or 5. TIKI to play at the end.
REINCARNATION_FIELDS = {
    "a5": (1, 2), "b5": (4, 5), "c5": (2, 1), "d5": (4, 3), "e5": (5, 3),
    "a1": (2, 3), "b1": (2, 1), "c1": (3, 4), "d1": (5, 4), "e1": (1, 5),
}  # fmt: skip
REINCARNATION_SCRIPT = (
    "b1-b2 b2-b3 | b5-b4 d5-d4 | b3-b4 d1-d2 | b5-a5 e5-e4 | d2-d3 d3-d4 | {first}*b5"
    " | e1-e2 e2-e3 | a5-a4 a4-a3 | e3-e4 a1-a2 | e5-d5 a3-b3 | c1-c2 c2-c3 | {second}*e5"
)


def reincarnation_game(first: int = 5, second: int = 3) -> Any:
    state = started(REINCARNATION_FIELDS)
    return play_script(state, REINCARNATION_SCRIPT.format(first=first, second=second))


@pytest.fixture
def reincarnations() -> Callable[..., Any]:
    return reincarnation_game


@pytest.fixture
def play() -> Callable[..., Any]:
    return play_script


@pytest.fixture
def start() -> Callable[..., Any]:
    return started


@pytest.fixture
def setup() -> Callable[..., list[str]]:
    return setup_texts


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything observable about a state, to check an error changed nothing."""
    return (
        [str(a) for a in state.history()],
        hash(state),
        state.to_json(),
        [state.observation(p).to_json() for p in (0, 1, None)],
        state.legal_actions(),
    )


@pytest.fixture
def snap() -> Callable[[Any], tuple[Any, ...]]:
    return snapshot

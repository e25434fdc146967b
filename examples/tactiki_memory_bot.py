"""A TacTiki bot that remembers the ranks battles revealed, against one that forgets them.

TacTiki is a game of memory: a rank shown in a battle stays known while the piece stays on the
board, and the observation holds exactly that knowledge (``obs.board``: each piece's owner and
its rank where the observer knows it). The bot below scores each legal action by a few plain
heuristics — march forward, pile onto the opponent's start fields, finish a statue — and, when
it remembers, attacks pieces it knows it beats and keeps away from pieces it knows beat it. The
forgetful version plays the same heuristics blind to every revealed rank.

Run: python examples/tactiki_memory_bot.py
"""

from __future__ import annotations

import random
from typing import Any

import tikigames
from tikigames.bots import Bot
from tikigames.tactiki import TacTikiObservation

FILES = "abcde"


def square(name: str) -> int:
    """The index of a square in ``obs.board`` (a1, b1, …, e1, a2, …, e5)."""
    return FILES.index(name[0]) + 5 * (int(name[1]) - 1)


def beats(attacker: int, defender: int) -> int:
    """+1, 0 or −1: TacTiki's strength rule (the higher rank wins, but a 1 beats a 5)."""
    if attacker == defender:
        return 0
    if {attacker, defender} == {1, 5}:
        return 1 if attacker == 1 else -1
    return 1 if attacker > defender else -1


class HeuristicBot:
    """Plays the best-scoring legal action (ties broken at random) from its observation only."""

    def __init__(self, remember: bool = True) -> None:
        self.remember = remember

    def score(self, obs: TacTikiObservation, text: str, goal: str) -> float:
        """How much the bot likes ``text``; ``goal`` is the opponent's start field it builds on."""
        me = obs.player
        assert me is not None
        if "@" in text:  # setup: any order will do
            return 0.0
        if "*" in text:  # bring back the strongest defeated piece
            return 1.0 + int(text[0]) / 10
        if text == "pass":
            return 0.0
        source, target = text.split("-")
        mover = obs.board[square(source)][-1]
        column = obs.board[square(target)]
        value = 0.0
        if int(target[1]) - int(source[1]) == (1 if me == 0 else -1):
            value += 1.0  # forward
        toward = abs(FILES.index(source[0]) - FILES.index(goal[0]))
        value += 0.5 * (toward - abs(FILES.index(target[0]) - FILES.index(goal[0])))
        if column and column[-1][0] != me:  # an attack
            rank = column[-1][1] if self.remember else None
            assert mover[1] is not None
            if rank is None:
                value += (mover[1] - 3) / 2  # a gamble: better with a strong piece
            else:
                value += 6.0 * beats(mover[1], rank)
        if target[1] == goal[1]:  # onto the opponent's start row, where pieces lock
            if target != goal:
                return value - 3.0
            mine = sum(1 for owner, _, _ in column if owner == me)
            value += 100.0 if mine >= 4 else 3.0 + 2.0 * mine
        return value

    @staticmethod
    def goal(obs: TacTikiObservation) -> str:
        """The opponent's start field holding most of the bot's pieces (the middle one first)."""
        me = obs.player
        row = "5" if me == 0 else "1"
        return max(
            (f + row for f in "cbdae"),
            key=lambda name: sum(1 for owner, _, _ in obs.board[square(name)] if owner == me),
        )

    def act(self, obs: tikigames.Observation, rng: random.Random) -> tikigames.Action:
        assert isinstance(obs, TacTikiObservation)
        goal = self.goal(obs)
        scored = [(self.score(obs, str(a), goal), a) for a in obs.legal_actions()]
        best = max(value for value, _ in scored)
        return rng.choice([action for value, action in scored if value == best])


def match(game: tikigames.Game[Any], first: Bot, second: Bot, games: int) -> tuple[int, int, int]:
    """Wins, draws and losses of ``first`` over ``games`` games, alternating seats."""
    wins = draws = losses = 0
    for seed in range(games):
        seat = seed % 2
        bots = [second, second]
        bots[seat] = first
        returns = tikigames.play(game, bots, seed=seed).returns()
        wins += returns[seat] > 0
        draws += returns[seat] == 0
        losses += returns[seat] < 0
    return wins, draws, losses


def main() -> None:
    game = tikigames.load("tactiki", max_turns=150)
    remembering, forgetful = HeuristicBot(remember=True), HeuristicBot(remember=False)
    wins, draws, losses = match(game, remembering, forgetful, 40)
    print(f"remembering vs forgetful bot: {wins} wins, {draws} draws, {losses} losses")
    for name, bot in (("remembering", remembering), ("forgetful", forgetful)):
        wins, draws, losses = match(game, bot, tikigames.bots.RandomBot(), 20)
        print(f"{name} bot vs random: {wins} wins, {draws} draws, {losses} losses")


if __name__ == "__main__":
    main()

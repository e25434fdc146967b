"""A custom Tiki Topple bot that plays from its observation only, against random bots.

The bot is greedy: for each legal card it computes what its own secret card would score if the
round ended right after that card, and plays the best one (ties broken at random). It sees only
its observation — its own secret card, the public line — exactly like a human at the table.

Run: python examples/custom_bot.py
"""

import random

import tikigames
from tikigames.bots import Bot, RandomBot
from tikigames.tiki_topple import TikiToppleObservation
from tikigames.tiki_topple.data import POINTS, SECRET_CARDS, TIKIS


def points(card: int, line: list[str]) -> int:
    """What secret ``card`` scores on ``line`` (top first)."""
    top, middle, bottom = (TIKIS[t] for t in SECRET_CARDS[card])
    return (
        POINTS[0] * (line[:1] == [top])
        + POINTS[1] * (middle in line[:2])
        + POINTS[2] * (bottom in line[:3])
    )


def after(line: list[str], action: tikigames.Action) -> list[str]:
    """The line after playing ``action`` (a card of the observer's hand)."""
    kind, _, tiki = str(action).partition(" ")
    line = list(line)
    if kind == "toast":
        return line[:-1]
    position = line.index(tiki)
    line.pop(position)
    if kind == "topple":
        return [*line, tiki]
    line.insert(position - int(kind[2]), tiki)
    return line


class GreedyBot:
    """Plays the card that scores its own secret card best right now."""

    def act(self, obs: tikigames.Observation, rng: random.Random) -> tikigames.Action:
        assert isinstance(obs, TikiToppleObservation) and obs.secret is not None
        legal = obs.legal_actions()
        line, secret = list(obs.line), obs.secret
        scored = [(points(secret, after(line, action)), action) for action in legal]
        best = max(score for score, _ in scored)
        return rng.choice([action for score, action in scored if score == best])


def main() -> None:
    game = tikigames.load("tiki_topple", players=2)
    wins = 0
    games = 200
    for seed in range(games):
        seat = seed % 2  # alternate seats
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[seat] = GreedyBot()
        state = tikigames.play(game, bots, seed=seed)
        wins += state.returns()[seat] > 0
    print(f"GreedyBot won {wins} of {games} two-player games against RandomBot")


if __name__ == "__main__":
    main()

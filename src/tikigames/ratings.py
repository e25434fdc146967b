"""Ratings from pairwise results: the Bradley–Terry model, fitted by minorization–maximization,
on the Elo scale, with Wald 95% confidence intervals.

The model: player ``i`` has a strength ``γᵢ > 0`` and beats ``j`` with probability
``γᵢ / (γᵢ + γⱼ)``. A draw counts as half a win to each side. The strengths are fitted by
maximum likelihood with Hunter's MM iterations (``γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)``, which never
decreases the likelihood), then reported on the Elo scale, ``400·log₁₀ γᵢ``, centred so that
the ratings average 0: only differences mean anything, and a difference of 400 is odds of 10
to 1.

A bot that won every game has no finite maximum-likelihood rating, and tournaments between a
search bot and ``RandomBot`` are like that. So, as BayesElo does, each pair that played gets
``prior`` virtual draws (one by default): the ratings stay finite, and the prior's weight fades
as real games accumulate. ``prior=0`` gives the plain maximum-likelihood fit.

The intervals come from the curvature of the log-likelihood (the observed Fisher information,
under the constraint that the log-strengths sum to 0): each rating ± 1.96 standard errors. They
describe the rating's uncertainty relative to the field's mean; two bots whose intervals
overlap may still differ.

A tool, in the top layer, in pure Python: no tikigames import is needed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Rating", "bradley_terry"]

#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.959963984540054
#: Elo points per natural-log unit of strength.
_ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    """One player's rating.

    Attributes:
        label: the player.
        elo: the rating on the Elo scale, the field's mean being 0.
        low, high: its 95% confidence interval.
        games: the real games it played (virtual draws not counted).
        score: its points in them (a win 1, a draw ½).
    """

    label: str
    elo: float
    low: float
    high: float
    games: int
    score: float

    def to_json(self) -> dict[str, Any]:
        """The rating as a JSON-ready dict."""
        return {
            "label": self.label,
            "elo": self.elo,
            "elo_ci": [self.low, self.high],
            "games": self.games,
            "score": self.score,
        }


def bradley_terry(
    players: Sequence[str],
    results: Sequence[tuple[str, str, float]],
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> tuple[Rating, ...]:
    """Fit the Bradley–Terry model to ``results``: one ``(a, b, score_of_a)`` per game, the
    score 1 (``a`` won), ½ (a draw) or 0 (``b`` won). Returns one rating per player, in the
    order of ``players``.

    Raises:
        ValueError: a result names an unknown player or has a bad score, a player played no
            game, the players do not form one connected field, or (with ``prior=0``) one won
            or lost every game, so that its rating would be infinite.

    Two players, ``a`` winning 3 of 4 games; with the default one virtual draw ``a`` has 3.5
    points of 5, odds of 7 to 3, ``400·log₁₀(7/3) ≈ 147`` Elo ahead, half of it each side of 0:

    >>> from tikigames.ratings import bradley_terry
    >>> a, b = bradley_terry(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    >>> round(a.elo, 1), round(b.elo, 1), a.games, a.score
    (73.6, -73.6, 4, 3.0)
    >>> a.low < a.elo < a.high
    True
    """
    index = {label: i for i, label in enumerate(players)}
    if len(index) != len(players):
        raise ValueError(f"players must be distinct: {list(players)}")
    if prior < 0:
        raise ValueError(f"prior must be ≥ 0, not {prior}")
    m = len(players)
    wins = [[0.0] * m for _ in range(m)]  # wins[i][j]: i's points against j
    count = [[0.0] * m for _ in range(m)]  # games between i and j, virtual ones included
    games = [0] * m
    score = [0.0] * m
    for a, b, points in results:
        if a not in index or b not in index or a == b:
            raise ValueError(f"a result between {a!r} and {b!r}: not two of {list(players)}")
        if points not in (0.0, 0.5, 1.0):
            raise ValueError(f"a score is 0, 0.5 or 1, not {points!r}")
        i, j = index[a], index[b]
        wins[i][j] += points
        wins[j][i] += 1.0 - points
        for x, y in ((i, j), (j, i)):
            count[x][y] += 1.0
        games[i] += 1
        games[j] += 1
        score[i] += points
        score[j] += 1.0 - points
    for i in range(m):
        if games[i] == 0:
            raise ValueError(f"{players[i]!r} played no game")
        for j in range(m):
            if count[i][j] > 0:
                wins[i][j] += prior / 2
                count[i][j] += prior
    _check_connected(players, wins)
    total = [sum(row) for row in wins]
    gamma = [1.0] * m
    for _ in range(max_iterations):
        new = [
            total[i] / sum(count[i][j] / (gamma[i] + gamma[j]) for j in range(m) if count[i][j])
            for i in range(m)
        ]
        centre = math.exp(sum(math.log(g) for g in new) / m)
        new = [g / centre for g in new]
        change = max(abs(math.log(n / g)) for n, g in zip(new, gamma, strict=True))
        gamma = new
        if change < tolerance:
            break
    theta = [math.log(g) for g in gamma]
    variance = _constrained_variances(theta, count)
    ratings = []
    for i, label in enumerate(players):
        half = _Z95 * math.sqrt(variance[i])
        ratings.append(
            Rating(
                label=label,
                elo=_ELO * theta[i],
                low=_ELO * (theta[i] - half),
                high=_ELO * (theta[i] + half),
                games=games[i],
                score=score[i],
            )
        )
    return tuple(ratings)


def _check_connected(players: Sequence[str], wins: list[list[float]]) -> None:
    """The MM iterations converge to a finite maximum when, for any split of the players in
    two groups, each group scored against the other: check it as reachability both ways."""
    m = len(players)
    for forward in (True, False):
        seen = {0}
        frontier = [0]
        while frontier:
            i = frontier.pop()
            for j in range(m):
                beaten = wins[j][i] if forward else wins[i][j]
                if j not in seen and beaten > 0:
                    seen.add(j)
                    frontier.append(j)
        if len(seen) < m:
            missing = [players[j] for j in range(m) if j not in seen]
            raise ValueError(
                f"no finite ratings: {missing} never {'beat' if forward else 'lost to'} the "
                f"others (give a prior > 0, or play more games between them)"
            )


def _constrained_variances(theta: list[float], count: list[list[float]]) -> list[float]:
    """The variances of the log-strengths, from the inverse of the log-likelihood's curvature
    under ``Σθ = 0``: the curvature is a graph Laplacian ``L`` (``Lᵢⱼ = −nᵢⱼ pᵢⱼ pⱼᵢ``), whose
    pseudo-inverse is ``(L + J/m)⁻¹ − J/m`` (``J`` all ones) for a connected field."""
    m = len(theta)
    matrix = [[1.0 / m] * m for _ in range(m)]
    for i in range(m):
        for j in range(m):
            if i != j and count[i][j]:
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                info = count[i][j] * p * (1.0 - p)
                matrix[i][j] -= info
                matrix[i][i] += info
    inverse = _invert(matrix)
    return [max(0.0, inverse[i][i] - 1.0 / m) for i in range(m)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan elimination with partial pivoting (the fields are small)."""
    m = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(m)] for i, row in enumerate(matrix)]
    for col in range(m):
        pivot = max(range(col, m), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(m):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[m:] for row in rows]

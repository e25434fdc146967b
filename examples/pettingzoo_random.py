"""Random agents playing a tikigames game through PettingZoo, choosing from the action masks.

The loop is PettingZoo's own (``agent_iter``, ``last``, ``step``): each agent draws a legal
action from its observation's ``action_mask`` with its seeded action space; a finished agent
steps ``None``. The environment draws the chance outcomes itself, from the generator that
``reset(seed=…)`` seeds, so the same seed plays the same games again.

Needs ``pip install 'tikigames[pettingzoo]'``. Run: python examples/pettingzoo_random.py
"""

from __future__ import annotations

from typing import Any

from tikigames.adapters import pettingzoo


def play(name: str, episodes: int, seed: int, **options: Any) -> list[dict[str, float]]:
    """Play ``episodes`` games of ``name`` with random agents; each game's final rewards."""
    env = pettingzoo.env(name, **options)
    env.reset(seed=seed)  # seeds the chance generator; the next resets continue it
    for offset, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + offset)  # the agents' own random choices
    results = []
    for _ in range(episodes):
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            if termination or truncation:
                action = None  # the dead step that removes a finished agent
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
            env.step(action)
        results.append(totals)
        env.reset()
    env.close()
    return results


def main() -> None:
    """A few games of three-player Tiki Topple and of Paikō, with the rewards."""
    for name, options in (("tiki_topple", {"players": 3}), ("paiko", {})):
        for index, totals in enumerate(play(name, episodes=3, seed=2026, **options)):
            rewards = ", ".join(f"{agent} {value:g}" for agent, value in totals.items())
            print(f"{name} game {index + 1}: {rewards}")


if __name__ == "__main__":
    main()

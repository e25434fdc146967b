"""Save a game in the middle as JSON, load it back, and carry on — the way a web back end
would keep games between requests. Also save one player's observation for a client.

Run: python examples/save_and_load.py
"""

import json
import random

import tikigames


def main() -> None:
    game = tikigames.load("tiki_topple", players=3)
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))

    text = json.dumps(state.to_json())
    print(f"saved {len(state.history())} actions in {len(text)} bytes of JSON")

    loaded = game.state_from_json(json.loads(text))
    assert loaded == state and loaded.history() == state.history()
    print("loaded an equal state; player to move:", loaded.current_player())

    # What the client of player 1 may see: no other player's secret card.
    client_view = json.dumps(loaded.observation(1).to_json())
    print(
        "player 1's observation:",
        len(client_view),
        "bytes;",
        "hidden deals:",
        client_view.count("secret ?"),
    )

    # Bad input is refused with a clear error, and nothing is changed.
    tampered = json.loads(text)
    tampered["history"][5] = "toast"
    try:
        tikigames.state_from_json(tampered)
    except tikigames.InvalidStateError as error:
        print("tampered JSON refused:", error)

    while not loaded.is_terminal():
        loaded.apply_action(rng.choice(loaded.legal_actions()))
    print("finished: scores", loaded.scores(), "returns", loaded.returns())


if __name__ == "__main__":
    main()

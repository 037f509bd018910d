import random

import powergrid as pg


def test_random_game_reaches_the_end() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=4, seed=7))
    rng = random.Random(7)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.winners
    assert state.current_player is None

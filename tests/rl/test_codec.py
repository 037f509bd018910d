"""The action codec: every legal engine action has exactly one masked index, and back."""

import random

import numpy as np
import pytest

import powergrid as pg
from powergrid.rl import ActionCodec, ActionNotEncodable, IllegalEncodedAction


def _over_cap(action: pg.Action, cap: int) -> bool:
    return action.kind in ("open", "bid") and action.amount > cap


def _check_decision(state: pg.GameState, codec: ActionCodec, rng: random.Random) -> int:
    seat = state.current_player
    view = state.view(seat)
    legal = codec.legal(view)
    actions = state.legal_actions()
    expressible = [a for a in actions if not _over_cap(a, codec.bid_cap)]
    assert legal.mask.dtype == np.int8 and legal.mask.shape == (codec.size,)
    # the mask marks exactly the expressible legal actions, one index each
    assert int(legal.mask.sum()) == len(expressible) > 0
    assert legal.unencodable == len(actions) - len(expressible)
    for a in expressible:
        index = codec.encode(view, a)
        assert legal.mask[index] == 1
        assert codec.decode(index, legal) == a
    for a in actions:
        if _over_cap(a, codec.bid_cap):
            with pytest.raises(ActionNotEncodable):
                codec.encode(view, a)
    for index in np.flatnonzero(legal.mask):
        assert codec.decode(int(index), legal) in actions
    # a masked-out index is refused by name
    off = np.flatnonzero(legal.mask == 0)
    index = int(off[rng.randrange(len(off))])
    with pytest.raises(IllegalEncodedAction) as caught:
        codec.decode(index, legal)
    assert f"action {index} ({codec.describe(index)}) is not legal now" == str(caught.value)
    return legal.unencodable


@pytest.mark.parametrize(("map_name", "players", "seed"), [
    ("germany", 2, 1), ("germany", 4, 2), ("germany", 6, 3), ("usa", 3, 4), ("usa", 5, 5)])
def test_every_legal_action_round_trips_over_random_games(map_name: str, players: int, seed: int) -> None:
    state = pg.new_game(pg.GameConfig(map=map_name, players=players, seed=seed))
    codec = ActionCodec(state.scn.map.cities)
    rng = random.Random(seed)
    kinds = set()
    while not state.is_over:
        _check_decision(state, codec, rng)
        action = rng.choice(state.legal_actions())
        kinds.add(action.kind)
        state.apply(action)
    assert kinds >= {"open", "bid", "pass", "buy", "build", "done", "power"}


def test_a_low_cap_leaves_high_bids_out_of_the_mask_and_counts_them() -> None:
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=9))
    codec = ActionCodec(state.scn.map.cities, bid_cap=50)
    rng = random.Random(9)
    left_out = 0
    while not state.is_over:
        left_out += _check_decision(state, codec, rng)
        state.apply(rng.choice(state.legal_actions()))
    assert left_out > 0


def test_discard_and_hybrid_power_are_encoded() -> None:
    """A hand over the limit and a hybrid plant give several discard and power choices."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=11))
    codec = ActionCodec(state.scn.map.cities)
    rng = random.Random(11)
    seen = {"discard": 0, "hybrid power": 0}
    for _ in range(30):
        state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=rng.randrange(10**6)))
        while not state.is_over:
            actions = state.legal_actions()
            kinds = {a.kind for a in actions}
            if "discard" in kinds or ("power" in kinds and len(actions) > 2):
                _check_decision(state, codec, rng)
                seen["discard" if "discard" in kinds else "hybrid power"] += 1
            state.apply(rng.choice(actions))
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def test_indices_outside_the_space_and_descriptions() -> None:
    codec = ActionCodec(pg.load_map("germany").cities, bid_cap=255)
    state = pg.new_game(pg.GameConfig(seed=1))
    legal = codec.legal(state.view(state.current_player))
    with pytest.raises(IllegalEncodedAction, match="is not an action"):
        codec.decode(codec.size, legal)
    assert codec.describe(0) == "pass"
    assert codec.describe(1) == "done"
    assert codec.describe(codec.OPEN + 2 * 256 + 40) == "open plant slot 2 bid 40"
    assert codec.describe(codec.BID + 17) == "bid 17"
    assert codec.describe(codec.BUY + 24) == "buy 1 oil"
    assert codec.describe(codec.BUILD + 0).startswith("build city 0 (")
    assert codec.describe(codec.POWER) == "power nothing"
    assert codec.describe(codec.POWER + 5 * (codec.hybrid_coal_max + 1) + 2) == \
        "power hand slots [0, 2] burning 2 coal in hybrids"
    blocks = codec.table()
    assert blocks[0][1] == 0 and blocks[-1][2] == codec.size - 1
    for (_, _, last, _), (_, first, _, _) in zip(blocks, blocks[1:], strict=False):
        assert first == last + 1


def test_bid_cap_is_validated() -> None:
    with pytest.raises(ValueError, match="bid_cap"):
        ActionCodec(("A",), bid_cap=10)


def test_masks_written_into_given_rows_match_fresh_ones() -> None:
    """``out`` rows (the batched env's buffer) are written in place, strided ones through a
    copy; every mask equals a fresh one, for the seat to act and for the others."""
    state = pg.new_game(pg.GameConfig(map="germany", players=3, seed=4))
    codec = ActionCodec(tuple(pg.load_map("germany").cities))
    rng = random.Random(4)
    rows = np.ones((2, codec.size), dtype=np.int8)
    strided = np.ones(2 * codec.size, dtype=np.int8)[::2]
    for _ in range(150):
        for seat in range(state.players):
            fresh = codec.legal_in(state, seat)
            for out in (rows[1], strided):
                legal = codec.legal_in(state, seat, out)
                assert legal.mask is out and np.array_equal(out, fresh.mask)
                assert legal.actions == fresh.actions
        state.apply(rng.choice(state.legal_actions()))

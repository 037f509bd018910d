"""A small seeded generator whose whole state is one integer (cheap to clone and save)."""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """SplitMix64: return (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new state, an integer uniform in [0, n))."""
    # Rejection sampling keeps the draw exactly uniform.
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, bits = next_u64(state)
        if bits < limit:
            return state, bits % n


def shuffle(state: int, items: list[int]) -> int:
    """Fisher-Yates shuffle in place; return the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    return seed & MASK64

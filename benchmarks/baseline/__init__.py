"""Frozen copies of the bots as they were before issue 12 (heuristic and search), kept only so
that benchmarks/bots_speed.py and benchmarks/search_versus.py can measure the new code against
the old in the same run. Not part of the package; do not import them from ``powergrid``."""

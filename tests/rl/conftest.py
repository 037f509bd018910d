"""The research API needs the optional ``rl`` extra; without it these tests are not collected."""

import importlib.util

collect_ignore_glob = [] if all(
    importlib.util.find_spec(name) for name in ("numpy", "gymnasium", "pettingzoo")
) else ["test_*.py"]

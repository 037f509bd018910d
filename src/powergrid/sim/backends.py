"""Where games run: in this process, on a local process pool, or on a Ray cluster.

Every backend only maps :func:`play_game` over the game specs; results are keyed by
game index, so they are the same whatever the backend or the number of workers.
"""

from __future__ import annotations

import concurrent.futures as futures
import os
from collections.abc import Callable, Sequence
from typing import Any

from ..bots import make_bot
from .game import BotFactory, GameResult, GameSpec, play_game

BACKENDS = ("local", "ray")

#: Called with each result as it arrives (in completion order).
OnResult = Callable[[GameResult], None]


def _lost(spec: GameSpec, exc: BaseException) -> GameResult:
    """A game whose worker died or could not return its result."""
    result = GameResult(spec.index, spec.config, spec.seats)
    seeds = ", ".join(f"seat {s.seat} {s.spec} seed {s.seed}" for s in spec.seats)
    result.error = (f"{type(exc).__name__}: {exc} (worker failure; game {spec.index}, "
                    f"config seed {spec.config.seed}; {seeds})")
    return result


def run_local(specs: Sequence[GameSpec], workers: int = 1, bot_factory: BotFactory = make_bot,
              on_result: OnResult | None = None) -> list[GameResult]:
    """Play the games in this process (``workers`` 1) or on a pool of worker processes."""
    results: list[GameResult] = []
    if workers <= 1:
        for spec in specs:
            result = play_game(spec, bot_factory)
            results.append(result)
            if on_result:
                on_result(result)
        return results
    with futures.ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(play_game, spec, bot_factory): spec for spec in specs}
        for future in futures.as_completed(pending):
            try:
                result = future.result()
            except Exception as exc:  # noqa: BLE001 - a dead worker loses one game, not the run
                result = _lost(pending[future], exc)
            results.append(result)
            if on_result:
                on_result(result)
    return results


def run_ray(specs: Sequence[GameSpec], address: str | None = None, bot_factory: BotFactory = make_bot,
            on_result: OnResult | None = None, workers: int | None = None) -> list[GameResult]:
    """Play the games as Ray tasks: on the cluster at ``address``, or on a local Ray instance.

    ``workers`` caps the CPUs of a local instance that this call starts (ignored with an address).

    :raises RuntimeError: ray is not installed (``pip install powergrid[cluster]``).
    """
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the ray backend needs ray: pip install 'powergrid[cluster]'") from exc
    started_here = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address:
            options["address"] = address
        elif workers:
            options["num_cpus"] = workers
        ray.init(**options)
        started_here = True
    try:
        remote_play = ray.remote(play_game)
        pending = {remote_play.remote(spec, bot_factory): spec  # type: ignore[call-arg]
                   for spec in specs}
        results: list[GameResult] = []
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                try:
                    result = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a lost task loses one game, not the run
                    result = _lost(pending[ref], exc)
                results.append(result)
                if on_result:
                    on_result(result)
        return results
    finally:
        if started_here:
            ray.shutdown()


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))

"""How every benchmark here times: medians of repeats, the runs being compared interleaved.

Interleaving (a, b, a, b, ...) puts a baseline and the code under test under the same machine
load, so their ratio holds even on a noisy machine where the absolute figures drift.
"""

from __future__ import annotations

import statistics
import timeit
from collections.abc import Callable, Mapping

REPEAT = 7


def side_by_side(
    runs: Mapping[str, Callable[[], object]], number: int, repeat: int = REPEAT
) -> dict[str, float]:
    """Seconds per run of each of `runs`, the median of `repeat` interleaved repeats."""
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(repeat):
        for label, run in runs.items():
            times[label].append(timeit.timeit(run, number=number) / number)
    return {label: statistics.median(seconds) for label, seconds in times.items()}


def median(run: Callable[[], object], number: int, repeat: int = REPEAT) -> float:
    """Seconds per run of `run`, the median of `repeat` repeats."""
    return side_by_side({"run": run}, number, repeat)["run"]

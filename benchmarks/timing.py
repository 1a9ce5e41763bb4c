"""How every benchmark here times: medians of repeats, the runs being compared interleaved, the
garbage collector on (as in production; `timeit` alone turns it off), each run starting from a
collected heap (a collection the previous run's garbage set off is not charged to the next).

Interleaving (a, b, a, b, ...) puts a baseline and the code under test under the same machine
load, so their ratio holds even on a noisy machine where the absolute figures drift. Where the
load changes within a run, `ratio` is steadier than a ratio of medians: the median of each
round's own ratio.
"""

from __future__ import annotations

import gc
import os
import statistics
import timeit
from collections.abc import Callable, Mapping
from pathlib import Path

REPEAT = 7


def corpus_folder() -> Path:
    """The documents the corpus benchmarks read: the folder `TOOLSHAPE_CORPUS` names (the
    whole documents, `../shared/corpus` beside a checkout), else the repository's slice."""
    named = os.environ.get("TOOLSHAPE_CORPUS")
    if named:
        return Path(named)
    return Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"


CORPUS = corpus_folder()


def rounds(
    runs: Mapping[str, Callable[[], object]], number: int, repeat: int = REPEAT
) -> dict[str, list[float]]:
    """Seconds per run of each of `runs` in each of `repeat` interleaved rounds."""
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(repeat):
        for label, run in runs.items():
            # Production conditions: the collector on. Each run starts from a collected heap,
            # so a run pays for collecting its own garbage, not the one before it.
            timer = timeit.Timer(run, setup=_collected)
            times[label].append(timer.timeit(number=number) / number)
    return times


def _collected() -> None:
    gc.collect()
    gc.enable()


def side_by_side(
    runs: Mapping[str, Callable[[], object]], number: int, repeat: int = REPEAT
) -> dict[str, float]:
    """Seconds per run of each of `runs`, the median of `repeat` interleaved repeats."""
    times = rounds(runs, number, repeat)
    return {label: statistics.median(seconds) for label, seconds in times.items()}


def ratio(times: Mapping[str, list[float]], label: str, baseline: str) -> float:
    """`label` against `baseline`: the median of their ratios round by round."""
    return statistics.median(a / b for a, b in zip(times[label], times[baseline], strict=True))


def median(run: Callable[[], object], number: int, repeat: int = REPEAT) -> float:
    """Seconds per run of `run`, the median of `repeat` repeats."""
    return side_by_side({"run": run}, number, repeat)["run"]

"""Planning speed over the corpus (`TOOLSHAPE_CORPUS`): operations per second, against json.loads as the floor.

Run: python -m benchmarks.plan_corpus [--runs 5] [--documents box twilio-api-v2010]
Every figure is measured in this run; ratios compare against the floor of the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import toolshape
from benchmarks.timing import CORPUS

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def corpus_paths(stems: list[str] | None = None) -> list[Path]:
    """The corpus documents, in name order; only those named (by stem) when `stems` is given."""
    paths = sorted(CORPUS.glob("*.json"))
    return [p for p in paths if p.stem in stems] if stems else paths


def median_seconds(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--documents", nargs="*", help="corpus stems (default: all eight)")
    args = parser.parse_args()
    print(
        f"{'document':<26}{'ops':>6}{'loads s':>10}{'flat s':>9}{'nested s':>10}{'ops/s (flat)':>14}{'flat/loads':>12}"
    )
    total_ops = 0
    totals = {"loads": 0.0, "flat": 0.0, "nested": 0.0}
    paths = corpus_paths(args.documents)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        document = json.loads(text)
        loads = median_seconds(partial(json.loads, text), args.runs)
        flat = median_seconds(partial(toolshape.plan_document, document, style="flat"), args.runs)
        nested = median_seconds(
            partial(toolshape.plan_document, document, style="nested"), args.runs
        )
        ops = sum(
            1
            for item in document.get("paths", {}).values()
            if isinstance(item, dict)
            for key in item
            if key in METHODS
        )
        total_ops += ops
        totals["loads"] += loads
        totals["flat"] += flat
        totals["nested"] += nested
        print(
            f"{path.name:<26}{ops:>6}{loads:>10.3f}{flat:>9.3f}{nested:>10.3f}{ops / flat:>14.0f}{flat / loads:>12.2f}"
        )
    print(
        f"{'all ' + str(len(paths)):<26}{total_ops:>6}{totals['loads']:>10.3f}{totals['flat']:>9.3f}{totals['nested']:>10.3f}"
        f"{total_ops / totals['flat']:>14.0f}{totals['flat'] / totals['loads']:>12.2f}"
    )
    print(
        f"{len(paths)} documents, flat: {totals['flat']:.3f} s (goal for all eight: under 2 s); "
        f"both styles: {totals['flat'] + totals['nested']:.3f} s"
    )


if __name__ == "__main__":
    main()

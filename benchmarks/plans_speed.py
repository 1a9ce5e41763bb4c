"""Start-up from plans files (S15.1): loading each corpus document's plans file (all tools,
each style) against `json.loads` of the same file (the floor) and against planning from the
document; the first call's cost after loading; peak memory per 1,000 tools loaded.

Run: python -m benchmarks.plans_speed [--number 2] [--repeat 5] [--documents stripe github]
Times are medians of interleaved rounds measured in this run, the garbage collector on; ratios
are against json.loads of the same file, each the median of the rounds' own ratios (the guard:
at most 3). `load` checks the whole file, every route, index and `$defs` key (each tool's
schemas are checked before they are first used); `eager` checks every schema at load.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import statistics
import time
import tracemalloc
from functools import partial

import toolshape
from benchmarks.timing import CORPUS, ratio, rounds


def planned(source: str, style: str, name: str) -> toolshape.PlanResult:
    return toolshape.plan_document(json.loads(source), style=style, source=name)


def first_calls(text: str) -> float:
    """Mean seconds of each tool's first call after loading (schema checks, the compiled
    call engine, the call itself; `{}` is refused by most tools, which costs the same)."""
    result = toolshape.load_plans(text)
    start = time.perf_counter()
    for tool in result.tools:
        with contextlib.suppress(toolshape.ToolshapeError):
            tool.call({})
    return (time.perf_counter() - start) / max(len(result.tools), 1)


def peak_per_thousand(text: str) -> tuple[float, int]:
    """Peak bytes traced while loading, per 1,000 tools (the text itself not counted)."""
    gc.collect()
    tracemalloc.start()
    result = toolshape.load_plans(text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / max(len(result.tools), 1) * 1000, len(result.tools)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--number", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--documents", nargs="*", help="corpus stems (default: all eight)")
    args = parser.parse_args()
    paths = sorted(CORPUS.glob("*.json"))
    if args.documents:
        paths = [p for p in paths if p.stem in args.documents]
    print(
        f"{'document':<26}{'tools':>6}{'MB':>7}{'json ms':>9}{'load':>7}{'eager':>7}"
        f"{'plan':>7}{'1st call µs':>13}{'MiB/1k tools':>14}"
    )
    loads = []
    for path in paths:
        source = path.read_text(encoding="utf-8")
        for style in ("flat", "nested"):
            result = toolshape.plan_document(json.loads(source), style=style, source=path.name)
            text = json.dumps(toolshape.dump_plans(result), ensure_ascii=False)
            times = rounds(
                {
                    "json": partial(json.loads, text),
                    "load": partial(toolshape.load_plans, text),
                    "eager": partial(toolshape.load_plans, text, lazy=False),
                    "plan": partial(planned, source, style, path.name),
                },
                args.number,
                repeat=args.repeat,
            )
            floor = statistics.median(times["json"])
            loads.append(ratio(times, "load", "json"))
            memory, tools = peak_per_thousand(text)
            print(
                f"{path.stem + ' ' + style:<26}{tools:>6}{len(text) / 1e6:>7.1f}"
                f"{floor * 1e3:>9.1f}{loads[-1]:>7.2f}{ratio(times, 'eager', 'json'):>7.2f}"
                f"{ratio(times, 'plan', 'json'):>7.2f}{first_calls(text) * 1e6:>13.0f}"
                f"{memory / 2**20:>14.1f}"
            )
    loads.sort()
    print(f"\nload / json.loads: median {loads[len(loads) // 2]:.2f}x, worst {loads[-1]:.2f}x")


if __name__ == "__main__":
    main()

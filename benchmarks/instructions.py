"""Instructions counted, not time (issues 12 and 17): on a shared machine whose speed swings
2x within a minute, a ratio of times moves by more than a step of work changes it. valgrind's
`cachegrind` counts the instructions a run executes, the same on every run: each figure is
the instructions of a step minus those of the same program without it, against `json.loads`
of the same text counted the same way.

- `load`: `load_plans` of each corpus document's plans file (all tools, each style) against
  `json.loads` of the file.
- `plan`: planning all eight documents flat (output schemas on, the default) against
  `json.loads` of their texts.

Counts leave out what memory costs (`json.loads` is mostly memory traffic, so its time per
instruction is higher than planning's): the ratios here are higher than the timed ones for
planning and lower for loading; they are for telling whether a change does less work.

`--cache` adds what memory costs, still the same on every run: cachegrind simulates fixed
caches (32 KiB 8-way first-level instruction and data caches, an 8 MiB 16-way last level,
64-byte lines) and each figure becomes an estimate of cycles — an instruction 1, a first-level
miss 10 more, a last-level miss 100 more (the usual cachegrind cost model). A step that
re-reads data after the parse has moved past it (loading checks each tool after `json.loads`
made them all) pays here as it does in time.

Run: python -m benchmarks.instructions [load|plan ...] [--documents jira pagerduty] [--cache]
Needs valgrind (`apt install valgrind`); each count runs the program ~50x slower.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import toolshape
from benchmarks.timing import CORPUS

#: The program counted: parse (and load or plan) what argv names; `none` only starts up.
PROGRAM = """
import json, sys
import toolshape
mode, paths = sys.argv[1], sys.argv[2:]
texts = [open(p, encoding="utf-8").read() for p in paths]
if mode == "json":
    parsed = [json.loads(t) for t in texts]
elif mode == "load":
    plans = [toolshape.load_plans(t) for t in texts]
elif mode == "plan":
    parsed = [json.loads(t) for t in texts]
    for document in parsed:
        toolshape.plan_document(document, style="flat")
"""


VALGRIND = ("valgrind", "--tool=cachegrind", "--cachegrind-out-file=/dev/null")
#: Fixed simulated caches, so the estimate is the same on every machine.
CACHES = ("--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64")
#: What each event costs in the cycle estimate: (valgrind's summary label, cycles).
COSTS = (
    ("I refs", 1),
    ("I1 misses", 10),
    ("D1 misses", 10),
    ("LLi misses", 100),
    ("LLd misses", 100),
)


def instructions(mode: str, paths: list[Path], cache: bool = False) -> int:
    """The instructions one run of `PROGRAM` executes (valgrind's `I refs`); with `cache`,
    the estimated cycles of the run on the simulated caches."""
    simulation = ("--cache-sim=yes", *CACHES) if cache else ("--cache-sim=no",)
    run = subprocess.run(
        [*VALGRIND, *simulation, sys.executable, "-c", PROGRAM, mode, *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    total = 0
    for label, cost in COSTS if cache else COSTS[:1]:
        found = re.search(label.replace(" ", r"\s+") + r":\s+([\d,]+)", run.stderr)
        if found is None:
            raise RuntimeError(f"valgrind printed no {label!r}:\n{run.stderr[-2000:]}")
        total += cost * int(found.group(1).replace(",", ""))
    return total


def ratio(step: str, paths: list[Path], cache: bool = False) -> tuple[int, int, float]:
    """Millions of instructions (or estimated cycles) of `json.loads` and of `step` (each less
    the start-up), and their ratio. `plan` parses first, so its own count is taken over
    `json`'s."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        none, floor, total = pool.map(
            lambda m: instructions(m, paths, cache), ["none", "json", step]
        )
    own = total - (floor if step == "plan" else none)
    return (floor - none) // 10**6, own // 10**6, own / (floor - none)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("steps", nargs="*", help="load, plan (default: both)")
    parser.add_argument("--documents", nargs="*", help="corpus stems (default: all eight)")
    parser.add_argument("--cache", action="store_true", help="estimated cycles, caches simulated")
    args = parser.parse_args()
    unit = "estimated cycles" if args.cache else "instructions"
    steps = args.steps or ["load", "plan"]
    if not set(steps) <= {"load", "plan"}:
        parser.error(f"steps are load and plan, not {' '.join(steps)}")
    if shutil.which("valgrind") is None:
        sys.exit("benchmarks.instructions needs valgrind on PATH (apt install valgrind)")
    paths = sorted(CORPUS.glob("*.json"))
    if args.documents:
        paths = [p for p in paths if p.stem in args.documents]
    if "plan" in steps:
        floor, own, times = ratio("plan", paths, args.cache)
        print(f"planning {len(paths)} documents flat: json.loads {floor:,}M, planning {own:,}M")
        print(f"  planning / json.loads: {times:.2f}x ({unit})\n")
    if "load" in steps:
        print(f"{'plans file':<28}{'json M':>9}{'load M':>9}{'ratio':>8}")
        ratios = []
        with tempfile.TemporaryDirectory() as folder:
            for path in paths:
                source = path.read_text(encoding="utf-8")
                for style in ("flat", "nested"):
                    result = toolshape.plan_document(
                        json.loads(source), style=style, source=path.name
                    )
                    file = Path(folder) / f"{path.stem}-{style}.json"
                    file.write_text(
                        json.dumps(toolshape.dump_plans(result), ensure_ascii=False),
                        encoding="utf-8",
                    )
                    floor, own, times = ratio("load", [file], args.cache)
                    ratios.append(times)
                    print(f"{path.stem + ' ' + style:<28}{floor:>9,}{own:>9,}{times:>8.2f}")
        ratios.sort()
        print(
            f"\nload / json.loads ({unit}): median {ratios[len(ratios) // 2]:.2f}x, "
            f"worst {ratios[-1]:.2f}x"
        )


if __name__ == "__main__":
    main()

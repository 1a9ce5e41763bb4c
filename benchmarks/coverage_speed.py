"""Planning the corpus with every operation covered (S19, S21) against planning it by default,
in one run: `portable_names=True`, `on_collision="rename"` and `on_unflattenable="nested"` all
on, flat, every corpus document (`TOOLSHAPE_CORPUS`), interleaved with the default (median of --runs).

Run: python -m benchmarks.coverage_speed [--runs 5]
Goal: within 1.2x the default. (The covering run plans more: the default refuses the tools it
can't flatten, the covering run plans each of them as well.)
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import toolshape
from benchmarks.plan_corpus import corpus_paths
from benchmarks.timing import side_by_side

COVER = toolshape.Options.preset(
    portable_names=True, on_collision="rename", on_unflattenable="nested"
)


def plan_all(documents: list[tuple[str, Any]], options: toolshape.Options) -> None:
    for name, document in documents:
        toolshape.plan_document(document, style="flat", options=options, source=name)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--documents", nargs="*", help="corpus stems (default: all eight)")
    args = parser.parse_args()
    documents = [
        (path.name, json.loads(path.read_text(encoding="utf-8")))
        for path in corpus_paths(args.documents)
    ]
    default = toolshape.Options.preset()
    timed = side_by_side(
        {
            "default": lambda: plan_all(documents, default),
            "covering": lambda: plan_all(documents, COVER),
        },
        number=1,
        repeat=args.runs,
    )
    ratio = timed["covering"] / timed["default"]
    print(f"{'planning the corpus, flat':<40}{'seconds':>10}")
    print(f"{'default (2026-11-06)':<40}{timed['default']:>10.2f}")
    print(f"{'portable + rename + nested':<40}{timed['covering']:>10.2f}")
    print(f"{'ratio':<40}{ratio:>10.2f}")


if __name__ == "__main__":
    main()

"""Reading YAML documents (S20.2) against PyYAML's own safe loader, in one run.

Each corpus document is written out as YAML first (not timed). Then, interleaved (median of
--runs): PyYAML's `safe_load` with its C loader (the floor), toolshape's reader (what
`toolshape plan` and the example gateway run: JSON first, then the YAML 1.2 core schema with
keys as text and the alias bound), and both followed by planning the document flat.

Run: python -m benchmarks.yaml_speed [--runs 3] [--all]
Goal: the command line's path adds at most 10% over loading.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import yaml

import toolshape
from benchmarks.plan_corpus import corpus_paths
from benchmarks.timing import side_by_side
from toolshape._load import parse_document

#: What YAML 1.2 reads as other than text: quoted when written (PyYAML writes YAML 1.1).
NOT_TEXT = re.compile(
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
    r"|true|True|TRUE|false|False|FALSE|null|Null|NULL|~|"
)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


def _text(dumper: Any, value: str) -> Any:
    style = "'" if NOT_TEXT.fullmatch(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


Dumper.add_representer(str, _text)


def floor(text: str) -> Any:
    return yaml.load(text, Loader=LOADER)


def plan(read: Callable[[str], Any], text: str) -> Any:
    return toolshape.plan_document(read(text), style="flat")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="every corpus document (slow)")
    parser.add_argument("--documents", nargs="*", help="corpus stems (default: three)")
    args = parser.parse_args()
    paths = corpus_paths(
        None if args.all else args.documents or ["box", "twilio-api-v2010", "kubernetes-core-v1"]
    )
    print(
        f"{'document':<22}{'MB':>6}{'safe_load s':>13}{'toolshape s':>13}{'ratio':>7}{'+plan ratio':>13}"
    )
    totals = {"floor": 0.0, "mine": 0.0, "floor+plan": 0.0, "mine+plan": 0.0}
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        text = yaml.dump(document, Dumper=Dumper, sort_keys=False, allow_unicode=True)
        timed = side_by_side(
            {
                "floor": partial(floor, text),
                "mine": partial(parse_document, text, path.name),
                "floor+plan": partial(plan, floor, text),
                "mine+plan": partial(plan, partial(parse_document, name=path.name), text),
            },
            number=1,
            repeat=args.runs,
        )
        for key, value in timed.items():
            totals[key] += value
        print(
            f"{path.stem:<22}{len(text) / 1e6:>6.1f}{timed['floor']:>13.2f}{timed['mine']:>13.2f}"
            f"{timed['mine'] / timed['floor']:>7.2f}{timed['mine+plan'] / timed['floor+plan']:>13.2f}"
        )
    print(
        f"{'all':<22}{'':>6}{totals['floor']:>13.2f}{totals['mine']:>13.2f}"
        f"{totals['mine'] / totals['floor']:>7.2f}{totals['mine+plan'] / totals['floor+plan']:>13.2f}"
    )


if __name__ == "__main__":
    main()

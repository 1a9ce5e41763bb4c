"""Planning outcomes over the corpus (`TOOLSHAPE_CORPUS`), per document, style and profile, as a Markdown table.

Run: python -m benchmarks.corpus_report  (the output is docs/corpus.md's table);
     python -m benchmarks.corpus_report --tools  (docs/corpus.md's S16 table);
     python -m benchmarks.corpus_report --unions  (docs/unions.md's table);
     python -m benchmarks.corpus_report --security  (docs/corpus.md's S18 table);
     python -m benchmarks.corpus_report --coverage  (docs/corpus.md's S19/S21 table);
     python -m benchmarks.corpus_report --listing  (docs/corpus.md's S16.7/S17.9/S20.1 table);
     python -m benchmarks.corpus_report --views  (docs/corpus.md's S22 table)
"""

from __future__ import annotations

import collections
import json

import toolshape
from benchmarks.timing import CORPUS
from toolshape.planner._api import operation_keys


def main() -> None:
    print(
        "| document | profile | style | tools | flat hoisted | flat, no body | flat wrapped | nested | errors by kind |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    reasons: collections.Counter[str] = collections.Counter()
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for profile in toolshape.PROFILES:
            for style in ("flat", "nested"):
                result = toolshape.plan_document(
                    document, style=style, profile=profile, source=path.name
                )
                shapes = collections.Counter((t.style, t.body) for t in result.tools)
                kinds = collections.Counter(e.kind for e in result.errors)
                if profile == "2026-11-06" and style == "flat":
                    for error in result.errors:
                        reasons[f"{error.kind}: {error.reason.split(',')[0]}"] += 1
                errors = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "-"
                nested = sum(n for (s, _), n in shapes.items() if s == "nested")
                print(
                    f"| {path.stem} | {profile} | {style} | {len(result.tools)} | {shapes[('flat', 'hoisted')]} "
                    f"| {shapes[('flat', 'none')]} | {shapes[('flat', 'wrapped')]} | {nested} | {errors} |"
                )
    print("\nWhy flat planning failed under 2026-11-06 (all documents):\n")
    print("| count | reason (first clause) |")
    print("|---:|---|")
    for reason, count in reasons.most_common(25):
        print(f"| {count} | {reason.replace('|', '/')} |")


def tools() -> None:
    """S16 per document: descriptions, annotations, output schemas, what the views left out."""
    print(
        "| document | tools | described | annotated | output schema | wrapped | left out (warning) "
        "| tools whose request view left readOnly properties out | readOnly properties |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        result = toolshape.plan_document(document, style="nested", source=path.name)
        plans = result.tools
        outputs = [t for t in plans if t.output_schema is not None]
        left_out = sum(1 for d in result.diagnostics if "output schema left out" in d.message)
        views = [d.message for d in result.diagnostics if "MCP tool request view" in d.message]
        names = {n for m in views for n in m.split(": ", 1)[1].split("`")[1::2]}
        print(
            f"| {path.stem} | {len(plans)} | {sum(1 for t in plans if t.description)} "
            f"| {sum(1 for t in plans if t.annotations)} | {len(outputs)} "
            f"| {sum(1 for t in outputs if t.output_wrapped)} | {left_out} | {len(views)} | {len(names)} |"
        )


def security() -> None:
    """S18 per document: each security scheme, where its credential goes, how many tools
    accept it, and the parameters left out because a credential fills them."""
    print("| document | scheme | kind | goes in | tools accepting it | tools needing none |")
    print("|---|---|---|---|---:|---:|")
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        result = toolshape.plan_document(document, style="nested", source=path.name)
        schemes: dict[str, toolshape.SecurityScheme] = {}
        counts: collections.Counter[str] = collections.Counter()
        for tool in result.tools:
            for scheme in {
                s.name: s for alternative in tool.security for s in alternative
            }.values():
                schemes[scheme.name] = scheme
                counts[scheme.name] += 1
        open_tools = sum(1 for t in result.tools if () in t.security)
        hidden = sum(1 for d in result.diagnostics if "(a credential)" in d.message)
        for name in result.security_schemes or ("-",):
            used = schemes.get(name)
            kind = used.kind + (f" {used.scheme}" if used.scheme else "") if used else "-"
            place = f"{used.location} `{used.parameter}`" if used and used.location else "-"
            print(f"| {path.stem} | {name} | {kind} | {place} | {counts[name]} | {open_tools} |")
        if hidden:
            print(f"| {path.stem} | (credential parameters left out: {hidden} tools) | | | | |")


def coverage() -> None:
    """S19, S21 per document, flat: what `portable_names`, `on_collision="rename"` and
    `on_unflattenable="nested"` did, against the default profile."""
    options = toolshape.Options.preset(
        portable_names=True, on_collision="rename", on_unflattenable="nested"
    )
    print(
        "| document | operations | tools (default) | errors (default) | tools (all three) "
        "| errors | argument aliases | tools aliased | renamed parameters | nested fallbacks "
        "| tool names changed | names left in bodies (warned) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        default = toolshape.plan_document(document, style="flat", source=path.name)
        result = toolshape.plan_document(document, style="flat", options=options, source=path.name)
        operations = {(t.path, t.method) for t in result.tools}
        aliased = [t for t in result.tools if any(r.alias for r in t.parameters) or t.body_aliases]
        aliases = sum(
            sum(1 for r in t.parameters if r.alias and "__" not in r.alias) + len(t.body_aliases)
            for t in result.tools
        )
        renamed = sum(1 for t in result.tools for r in t.parameters if r.alias and "__" in r.alias)
        fallbacks = sum(1 for t in result.tools if t.style == "nested")
        plain = {t.operation_id for t in default.tools}
        changed = sum(
            1
            for t in result.tools
            if t.operation_id in plain and t.name not in {d.name for d in default.tools}
        )
        warned = sum(1 for d in result.diagnostics if "names left as they are" in d.message)
        print(
            f"| {path.stem} | {len(operations)} | {len(default.tools)} | {len(default.errors)} "
            f"| {len(result.tools)} | {len(result.errors)} | {aliases} | {len(aliased)} "
            f"| {renamed} | {fallbacks} | {changed} | {warned} |"
        )


def unions() -> None:
    """Every body whose root (after S1.3) is `oneOf` / `anyOf`: flat with `flatten_unions`, or why not."""
    from toolshape.read._document import DocumentReader

    options = toolshape.Options.preset(flatten_unions=True)
    print("| document | operation | union | with flatten_unions |")
    print("|---|---|---|---|")
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        result = toolshape.plan_document(document, style="flat", options=options, source=path.name)
        by_location = {e.location: e for e in result.errors}
        reader = DocumentReader(document, path.name)
        for raw in reader.operations():
            try:
                operation = reader.read(raw)
            except Exception:
                continue
            for body in operation.bodies:
                schema = body.schema if isinstance(body.schema, dict) else {}
                keyword = next((k for k in ("oneOf", "anyOf") if k in schema), None)
                if keyword is None:
                    continue
                error = by_location.get(reader.location(raw.pointer))
                outcome = (
                    "flat" if error is None else f"{error.rule}: {error.reason.split(', so')[0]}"
                )
                print(f"| {path.stem} | {raw.method.upper()} {raw.path} | {keyword} | {outcome} |")


def listing() -> None:
    """S17.9, S20.1, S16.7 per document: tools with every content type and with the preferred
    one, tools not listed because nothing can send their body, and the bytes of `tools/list`
    (every tool's MCP definition) with exact and with shape output schemas."""
    print(
        "| document | operations | tools (all content types) | tools (preferred) | not listed "
        "(warned) | tools/list, exact output schemas | tools/list, shape output schemas |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    preferred = toolshape.Select(content_types="preferred")
    exact = toolshape.Options.preset(output_schemas="exact")
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        shape = toolshape.plan_document(document, source=path.name)
        one = toolshape.plan_document(document, source=path.name, select=preferred)
        full = toolshape.plan_document(document, source=path.name, options=exact)
        skipped = sum(1 for d in shape.diagnostics if d.message.startswith("MCP tool not listed"))
        operations = len(operation_keys(document))
        print(
            f"| {path.stem} | {operations} | {len(shape.tools)} | {len(one.tools)} | {skipped} "
            f"| {_megabytes(full)} | {_megabytes(shape)} |"
        )


def views() -> None:
    """S22 per document: the OpenAI view strict for how many tools (flat and nested, every
    operation a tool), and why the rest are not, every reason counted."""
    options = toolshape.Options.preset(
        portable_names=True, on_collision="rename", on_unflattenable="nested"
    )
    print("| document | style | tools | strict | rate | why not (each reason counted) |")
    print("|---|---|---:|---:|---:|---|")
    total = strict = 0
    for path in sorted(CORPUS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for style in ("flat", "nested"):
            result = toolshape.plan_document(document, style=style, options=options)
            reasons: collections.Counter[str] = collections.Counter()
            count = 0
            for plan in result.tools:
                tool = toolshape.model_tool(plan, "openai")
                count += tool.strict
                reasons.update(r.split(": ", 1)[1].split(" (")[0] for r in tool.reasons)
            total, strict = total + len(result.tools), strict + count
            why = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common()) or "-"
            rate = count / len(result.tools) if result.tools else 1.0
            print(f"| {path.stem} | {style} | {len(result.tools)} | {count} | {rate:.0%} | {why} |")
    print(f"| all | both | {total} | {strict} | {strict / total:.0%} | |")


def _megabytes(result: toolshape.PlanResult) -> str:
    size = sum(len(json.dumps(t.to_mcp_tool(), ensure_ascii=False).encode()) for t in result.tools)
    return f"{size / 1e6:.1f} MB"


REPORTS = {
    "--tools": tools,
    "--security": security,
    "--coverage": coverage,
    "--unions": unions,
    "--listing": listing,
    "--views": views,
}

if __name__ == "__main__":
    chosen = [REPORTS[flag] for flag in __import__("sys").argv[1:] if flag in REPORTS]
    for report in chosen or [main]:
        report()

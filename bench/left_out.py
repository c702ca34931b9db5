"""Which skills of each corpus source a build leaves out, and why.

    python bench/left_out.py [--corpus ../shared/corpus] [--jobs 2] [--json left-out.json] [--list]

Builds every source folder of the corpus on its own (as an aggregated registry of that source
would be built) into a temporary folder, and prints per source: skills found, published, published
with errors (clients load them; their pages say so), left out, and the reason codes of the skills
left out (the first reason of each, counted). Discovery columns: published skills listed in the
.well-known indexes, of them listed under their folder name (D006), and kept out of them (D001).
With --list, every left-out skill follows its source with its reasons. The corpus is data only:
nothing in it is executed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from registry.build import build
from registry.config import BuildOptions

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def measure(source: Path, work: Path, jobs: int | None) -> dict:
    result = build(BuildOptions(source=source, out=work / source.name, clean=True, jobs=jobs))
    counts = result.counts()
    published = result.published
    return {
        "source": source.name,
        "found": counts["skills_found"],
        "published": counts["published"],
        "published_with_errors": sum(1 for s in published if s.errors),
        "left_out": counts["left_out"],
        "reasons": dict(sorted(Counter(item.reasons[0].code for item in result.left_out if item.reasons).items())),
        "discoverable": len(result.discovery),
        "discovery_by_folder_name": sum(1 for s in published if any(f.code == "D006" for f in s.findings)),
        "not_discoverable": sum(1 for s in published if any(f.code == "D001" for f in s.findings)),
        "skills_left_out": [
            {"id": item.id, "reasons": [f"{f.code} {f.message}" for f in item.reasons]} for item in result.left_out
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder whose subfolders are sources")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes per build (default: one per core)")
    parser.add_argument("--json", type=Path, default=None, help="also write every figure to this file")
    parser.add_argument("--list", action="store_true", help="list every left-out skill with its reasons")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"error: no corpus at {args.corpus} (expected ../shared/corpus beside the repository)", file=sys.stderr)
        return 2
    sources = sorted(p for p in args.corpus.iterdir() if p.is_dir() and not p.name.startswith("."))
    rows = []
    with tempfile.TemporaryDirectory(prefix="left-out-") as work:
        for source in sources:
            rows.append(measure(source, Path(work), args.jobs))
    header = f"{'source':28} {'found':>5} {'published':>9} {'w/ errors':>9} {'left out':>8}"
    header += f" {'discovery':>9} {'by folder':>9} {'D001':>5}  reasons (first code of each)"
    print(header)
    for row in rows:
        reasons = ", ".join(f"{code} x{count}" for code, count in row["reasons"].items()) or "-"
        print(
            f"{row['source']:28} {row['found']:5} {row['published']:9} {row['published_with_errors']:9}"
            f" {row['left_out']:8} {row['discoverable']:9} {row['discovery_by_folder_name']:9}"
            f" {row['not_discoverable']:5}  {reasons}"
        )
        if args.list:
            for item in row["skills_left_out"]:
                print(f"    {item['id']}: " + "; ".join(item["reasons"]))
    totals = {key: sum(row[key] for row in rows) for key in ("found", "published", "published_with_errors", "left_out")}
    share = totals["left_out"] / totals["found"] * 100 if totals["found"] else 0.0
    print(
        f"{'total':28} {totals['found']:5} {totals['published']:9} {totals['published_with_errors']:9}"
        f" {totals['left_out']:8}  ({share:.1f}% left out)"
    )
    if args.json is not None:
        args.json.write_text(json.dumps({"sources": rows, "totals": totals}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""One build in its own process, for the harness: `python -m bench.one_build --source S --out O --json J`.

Runs `registry.build.build` as `skill-registry build` does and writes what the harness needs that
the build report does not hold: the search statistics (Whoosh documents and seconds, Pagefind seconds)
and the build's own wall time. The harness measures this process's peak memory from outside.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

from registry.build import build
from registry.config import BuildOptions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--report", type=Path, required=True, help="the build's --report JSON")
    parser.add_argument("--json", type=Path, required=True, help="search statistics and wall time")
    parser.add_argument("--jobs", type=int, help="worker processes, when the build supports them")
    args = parser.parse_args(argv)
    options = {"source": args.source, "out": args.out, "report": args.report}
    fields = {f.name for f in dataclasses.fields(BuildOptions)}
    if args.jobs is not None and "jobs" in fields:
        options["jobs"] = args.jobs
    started = time.perf_counter()
    result = build(BuildOptions(**options))
    seconds = time.perf_counter() - started
    search = result.search
    stats = {
        "build_seconds": round(seconds, 4),
        "published": result.counts()["published"],
        "unchanged": getattr(result, "unchanged", None),  # the build found nothing changed and redid nothing
        "work": getattr(result, "work", None),
        "left_out": len(result.left_out),
        "whoosh_seconds": round(search.whoosh.seconds, 4) if search else None,
        "whoosh_indexed": search.whoosh.indexed if search else None,
        "whoosh_unchanged": search.whoosh.unchanged if search else None,
        "shard_seconds": round(search.shard_seconds, 4) if search else None,
        "shards_changed": search.shards_changed if search else None,
        "jobs": options.get("jobs"),
    }
    args.json.write_text(json.dumps(stats) + "\n")


if __name__ == "__main__":
    main()

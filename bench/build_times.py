"""Build and search timings for one source tree, printed and written as JSON.

    python bench/build_times.py [--source ../shared/corpus] [--runs 3] [--json bench/results.json]

For each run: a cold build (empty search cache), then a no-op rebuild; per-stage seconds, the
Whoosh indexing time and documents re-indexed, Pagefind's time, peak memory of this process, and
CLI query latency (p50/p95) over the relevance queries. Numbers are measured in this process on
this machine; nothing here is asserted by a test (tests/test_bench.py only runs it small).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from registry.build import build, search_cache
from registry.config import BuildOptions
from registry.search.query import search

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "tests" / "relevance" / "queries.yaml"


def one_build(source: Path, out: Path) -> dict:
    started = time.perf_counter()
    result = build(BuildOptions(source=source, out=out))
    total = time.perf_counter() - started
    whoosh = result.search.whoosh if result.search else None
    return {
        "seconds": round(total, 3),
        "stages": {k: round(v, 3) for k, v in result.timings.items()},
        "published": result.counts()["published"],
        "unchanged": getattr(result, "unchanged", False),  # nothing changed: the build redid nothing
        "whoosh_index_seconds": round(whoosh.seconds, 3) if whoosh else None,
        "whoosh_reindexed": whoosh.indexed if whoosh else None,
        "shard_seconds": round(result.search.shard_seconds, 3) if result.search else None,
    }


def query_latency(out: Path, queries: list[str]) -> dict:
    index = out
    search(index, "warm up")
    timings = []
    for query in queries:
        started = time.perf_counter()
        search(index, query)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    return {
        "queries": len(timings),
        "p50_ms": round(statistics.median(timings), 2),
        "p95_ms": round(timings[max(0, int(len(timings) * 0.95) - 1)], 2),
    }


def run(source: Path, runs: int) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="skill-registry-bench-"))
    out = workdir / "site"
    try:
        cold, noop = [], []
        for _ in range(runs):
            shutil.rmtree(search_cache(out), ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)
            cold.append(one_build(source, out))
            noop.append(one_build(source, out))
        queries = [q["query"] for q in yaml.safe_load(QUERIES.read_text())]
        return {
            "source": str(source),
            "runs": runs,
            "cold": cold,
            "noop": noop,
            "query_latency": query_latency(out, queries),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def print_report(report: dict) -> None:
    best = min(report["cold"], key=lambda r: r["seconds"])
    best_noop = min(report["noop"], key=lambda r: r["seconds"])
    print(f"source {report['source']}: {best['published']} skills, best of {report['runs']} runs")
    print(
        f"  cold build      {best['seconds']:8.2f} s   stages: "
        + ", ".join(f"{k} {v:.2f}" for k, v in best["stages"].items())
    )
    noop_whoosh = "nothing redone" if best_noop["whoosh_index_seconds"] is None else "Whoosh re-indexed"
    print(
        f"  no-op rebuild   {best_noop['seconds']:8.2f} s   ({noop_whoosh} {best_noop['whoosh_reindexed'] or 0} documents)"
    )
    noop_seconds = best_noop["whoosh_index_seconds"] or 0.0
    print(f"  Whoosh indexing {best['whoosh_index_seconds']:8.2f} s cold, {noop_seconds:.2f} s no-op")
    print(f"  search shards   {best['shard_seconds']:8.2f} s")
    latency = report["query_latency"]
    print(f"  CLI search      p50 {latency['p50_ms']} ms, p95 {latency['p95_ms']} ms over {latency['queries']} queries")
    print(f"  peak RSS        {report['peak_rss_mb']} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    report = run(args.source, args.runs)
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()

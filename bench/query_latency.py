"""CLI search latency in its own process: `python -m bench.query_latency SITE QUERIES.yaml`.

Imports `registry.search.query.search` as `skill-registry search` does, times the first query
apart, then every relevance query (each reads the site's shards afresh, as a new `skill-registry
search` process does); prints JSON with p50 and p95.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import yaml


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, -(-len(sorted_values) * fraction // 1))
    return sorted_values[int(rank) - 1]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    site, queries_file = Path(args[0]), Path(args[1])
    queries = [item["query"] for item in yaml.safe_load(queries_file.read_text())]
    started = time.perf_counter()
    from registry.search.query import search

    imported = time.perf_counter()
    first = search(site, "warm up")
    warm = time.perf_counter()
    timings, hits = [], 0
    for query in queries:
        begin = time.perf_counter()
        results = search(site, query)
        timings.append((time.perf_counter() - begin) * 1000)
        hits += bool(results)
    timings.sort()
    print(
        json.dumps(
            {
                "queries": len(timings),
                "queries_with_results": hits,
                "import_ms": round((imported - started) * 1000, 2),
                "first_query_ms": round((warm - imported) * 1000, 2),
                "first_query_results": len(first),
                "p50_ms": round(statistics.median(timings), 2),
                "p95_ms": round(percentile(timings, 0.95), 2),
                "max_ms": round(timings[-1], 2),
            }
        )
    )


if __name__ == "__main__":
    main()

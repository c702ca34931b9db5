"""The search stage of a cold build, this code against an earlier commit, in the same run.

    python -m bench.search_vs_baseline --repo DIR [--baseline REV] [--runs 2] [--jobs 2]

Builds the registry at DIR cold with the earlier commit (checked out as a git worktree, run with
this environment's Python; its own dependencies must be installed) and with this checkout,
alternating, and prints each run's search figures from the builds' reports and the ratio of the
medians. Issue 15's target: the search index with bodies (Whoosh and the shards) no slower than
the metadata-only Whoosh and Pagefind of 8aefa8d.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cold_build(code: Path, repo: Path, work: Path, jobs: int) -> dict:
    out = work / "site"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    report = work / "report.json"
    command = [sys.executable, "-m", "registry.cli", "build", "--source", str(repo), "--out", str(out),
               "--jobs", str(jobs), "--report", str(report)]  # fmt: skip
    environment = dict(os.environ, PYTHONPATH=str(code))
    subprocess.run(command, cwd=code, env=environment, check=True, capture_output=True)
    data = json.loads(report.read_text())
    figures = {"search_stage_seconds": data["timings_seconds"]["search"], **(data.get("search") or {})}
    shutil.rmtree(work, ignore_errors=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True, help="a registry, e.g. from bench.synthetic")
    parser.add_argument("--baseline", default="8aefa8d", help="the commit to compare with")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="search-baseline-") as scratch:
        baseline = Path(scratch) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(baseline), args.baseline],
                       check=True, capture_output=True)  # fmt: skip
        try:
            runs: dict[str, list[dict]] = {"baseline": [], "current": []}
            for number in range(args.runs):
                for label, code in (("baseline", baseline), ("current", ROOT)):
                    figures = cold_build(code, args.repo.resolve(), Path(scratch) / "builds" / label, args.jobs)
                    runs[label].append(figures)
                    print(f"run {number + 1} {label}: {json.dumps(figures)}", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(baseline)], check=False)
    medians = {label: statistics.median(r["search_stage_seconds"] for r in found) for label, found in runs.items()}
    print(
        f"search stage, median of {args.runs}: baseline {args.baseline} {medians['baseline']:.2f} s, "
        f"current {medians['current']:.2f} s, ratio {medians['current'] / medians['baseline']:.2f}"
    )
    return 0 if medians["current"] <= medians["baseline"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

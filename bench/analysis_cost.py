"""Per-skill analysis CPU, this tree against a baseline: `python bench/analysis_cost.py [SOURCE ...] [--baseline REV]`.

Times `registry.skill_jobs.analyse_skill` (parse, validate, risk assessment, categories, clone
fingerprint: the build's "parse" stage) for every skill a crawl of each SOURCE finds (default: the
shared corpus, ../shared/corpus), once with this tree and once with git revision REV (default
818becd, before the risk scanner became a package), each in its own interpreter with that tree
first on PYTHONPATH. REV is taken out whole with `git archive` into a temporary folder, so the
repository's git state is not touched.

Each interpreter loads the policy found beside SOURCE (as a build does), crawls, analyses the first
WARM skills once untimed (imports, compiled patterns, caches), then every skill once, measuring
the process CPU time of each call. The two trees take turns, ROUNDS times (default 3), and a
skill's time is its fastest round: what the code costs, with less of the machine's other load.
Prints per tree and source the median and p95 milliseconds per skill and the total CPU seconds
(the sum of the skills' times), the baseline/current ratios, and whether both trees produced the
same findings (a digest of every finding's code, path, line, column and message, and each skill's risk
level and category). `--json FILE` writes every figure. Nothing here is asserted by a test: times
depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULT_BASELINE = "818becd"


def _finding_keys(findings) -> list[str]:
    return sorted(f"{f.code}|{f.path}|{f.line}|{f.column}|{f.message}" for f in findings)


def worker(source: Path, warm: int) -> dict:
    """Run in the interpreter of the tree under test: everything imported comes from PYTHONPATH."""
    import time

    from registry import crawl, skill_jobs
    from registry.config import Limits
    from registry.policy import find_policy, load_policy

    policy = load_policy(find_policy(source))
    limits = policy.limits if policy.source else Limits()
    locations = crawl.crawl(source, limits).locations
    for location in locations[:warm]:
        skill_jobs.analyse_skill(location, limits, policy)
    per_skill: list[float] = []
    digest = hashlib.sha256()
    for location in locations:
        started = time.process_time_ns()
        analysed = skill_jobs.analyse_skill(location, limits, policy)
        per_skill.append((time.process_time_ns() - started) / 1e6)
        skill = analysed.skill
        keys = _finding_keys(skill.findings)
        if analysed.content is not None:
            keys += _finding_keys(analysed.content.findings)
            keys.append(f"risk={analysed.content.risk.level} category={analysed.content.categorisation.category}")
        digest.update("\n".join([location.id, *keys, ""]).encode())
    return {"per_skill_ms": per_skill, "findings_digest": digest.hexdigest()}


def fastest(rounds: list[dict]) -> list[float]:
    """Each skill's fastest time over the rounds (every round analyses the same skills in the same order)."""
    return [min(times) for times in zip(*(run["per_skill_ms"] for run in rounds), strict=True)]


def summary(per_skill_ms: list[float]) -> dict:
    ordered = sorted(per_skill_ms)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0
    return {
        "skills": len(ordered),
        "median_ms": statistics.median(ordered) if ordered else 0.0,
        "p95_ms": p95,
        "total_cpu_s": sum(ordered) / 1000,
    }


def extract(revision: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def run_tree(tree: Path, source: Path, warm: int) -> dict:
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(source), "--warm", str(warm)]
    result = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=tree, check=False)
    if result.returncode != 0:
        raise SystemExit(f"analysis in {tree} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", type=Path, help="skill folders to crawl (default: the shared corpus)")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision to compare with")
    parser.add_argument("--warm", type=int, default=20, help="skills analysed once, untimed, before timing")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes per tree, taking turns")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker.resolve(), args.warm)))
        return 0

    sources = [s.resolve() for s in (args.sources or [DEFAULT_CORPUS])]
    figures: dict = {"baseline": args.baseline, "sources": {}}
    with tempfile.TemporaryDirectory(prefix="analysis-cost-") as scratch:
        baseline_tree = extract(args.baseline, Path(scratch))
        for source in sources:
            trees = {"baseline": baseline_tree, "current": ROOT}
            runs: dict[str, list[dict]] = {name: [] for name in trees}
            for _ in range(max(1, args.rounds)):
                for name, tree in trees.items():
                    runs[name].append(run_tree(tree, source, args.warm))
            row = {name: summary(fastest(rounds)) for name, rounds in runs.items()}
            digests = {run["findings_digest"] for rounds in runs.values() for run in rounds}
            row["same_findings"] = len(digests) == 1
            row["ratio"] = {
                key: (row["baseline"][key] / row["current"][key] if row["current"][key] else None)
                for key in ("median_ms", "p95_ms", "total_cpu_s")
            }
            figures["sources"][str(source)] = row
            print(f"{source} ({row['current']['skills']} skills; same findings: {row['same_findings']})")
            for name in ("baseline", "current"):
                figure = row[name]
                print(
                    f"  {name:<9} median {figure['median_ms']:7.2f} ms  p95 {figure['p95_ms']:7.2f} ms  "
                    f"total {figure['total_cpu_s']:7.2f} s CPU"
                )
            ratio = row["ratio"]
            print(
                "  baseline/current: "
                + "  ".join(f"{key} {value:.2f}x" for key, value in ratio.items() if value is not None)
            )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

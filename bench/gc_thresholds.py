"""The collector's thresholds during a build: one changed skill, built with Python's and with the build's.

    .venv/bin/python -m bench.gc_thresholds --skills 10000 --rounds 3 --keep ../bench-work

A build keeps millions of objects it allocates (every cached analysis unpickled, every card and key), and with
Python's thresholds (700, 10, 10) the cyclic collector walks them again and again. registry/workers.py sets
BUILD_COLLECTION_THRESHOLDS for the build's process and its workers. This bench generates (or reuses, with
--keep) the synthetic registry of bench/run.py, builds it once, then alternates: edit one skill and commit, build
as its own process with one side's thresholds; edit again, build with the other's. Printed per side: the whole
process's wall time (min and median), the stages the collector slows most, and the peak memory; then the ratio.
The workers of a one-skill change are not started (below MIN_PARALLEL), so the figures are the build process's.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bench import synthetic
from bench.run import change_one_skill, clear_state, measure

PYTHON_DEFAULT = (700, 10, 10)
STAGES = ("parse", "history", "score", "render", "emit")

# The build with its thresholds replaced, then bench/one_build.py's arguments.
_RUNNER = (
    "import sys, registry.workers as w; w.BUILD_COLLECTION_THRESHOLDS = tuple(map(int, sys.argv[1].split(',')));"
    "from bench.one_build import main; main(sys.argv[2:])"
)


def one_build(source: Path, out: Path, work: Path, thresholds: tuple[int, ...]) -> dict:
    report, stats = work / "gc-report.json", work / "gc-stats.json"
    command = [sys.executable, "-c", _RUNNER, ",".join(map(str, thresholds))]
    command += ["--source", str(source), "--out", str(out), "--report", str(report), "--json", str(stats)]
    result = measure(command)
    if result["exit_code"] != 0:
        raise SystemExit(f"build failed ({result['exit_code']}):\n{result['stderr'][-3000:]}")
    return {"seconds": result["seconds"], "peak_rss_bytes": result["peak_rss_bytes"],
            "stages": json.loads(report.read_text())["timings_seconds"]}  # fmt: skip


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main(argv: list[str] | None = None) -> int:
    from registry.workers import BUILD_COLLECTION_THRESHOLDS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3, help="builds per side, alternating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="work folder kept between runs (as bench/run.py's)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = (args.keep or Path(temporary)) / f"gc-n{args.skills}"
        folder.mkdir(parents=True, exist_ok=True)
        repo, out = folder / "repo", folder / "site"
        info = synthetic.ensure(repo, args.skills, args.seed)
        source = Path(info["source"])
        clear_state(out)
        cold = one_build(source, out, folder, BUILD_COLLECTION_THRESHOLDS)
        print(f"{args.skills} skills, cold build {cold['seconds']:.1f} s; then one skill changed per build")
        sides = {"python": PYTHON_DEFAULT, "build": BUILD_COLLECTION_THRESHOLDS}
        runs: dict[str, list[dict]] = {name: [] for name in sides}
        for round_number in range(args.rounds):
            order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
            for name in order:
                change_one_skill(repo, info["skills_paths"])
                runs[name].append(one_build(source, out, folder, sides[name]))
                print(f"  round {round_number + 1} {name} {sides[name]}: {runs[name][-1]['seconds']:.2f} s")
        print()
        print(f"{'thresholds':<26} {'min s':>7} {'median s':>9} " + " ".join(f"{s:>8}" for s in STAGES) + "  peak MB")
        for name, thresholds in sides.items():
            seconds = [run["seconds"] for run in runs[name]]
            stages = [_median([run["stages"].get(stage, 0.0) for run in runs[name]]) for stage in STAGES]
            peak = max(run["peak_rss_bytes"] for run in runs[name]) / 2**20
            print(f"{name + ' ' + str(thresholds):<26} {min(seconds):>7.2f} {_median(seconds):>9.2f} "
                  + " ".join(f"{value:>8.2f}" for value in stages) + f"  {peak:>7.0f}")  # fmt: skip
        ratio_min = min(r["seconds"] for r in runs["build"]) / min(r["seconds"] for r in runs["python"])
        ratio_median = _median([r["seconds"] for r in runs["build"]]) / _median([r["seconds"] for r in runs["python"]])
        print(f"build / python: {ratio_min:.2f} (min), {ratio_median:.2f} (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

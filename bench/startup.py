"""How fast the command starts: `python bench/startup.py [--runs N] [--skill FOLDER]`.

Prints the median over N runs (default 5) of the cumulative import time of registry.cli (from
`python -X importtime`), the wall time of `skill-registry --help`, and of `skill-registry validate`
of one skill (default: one of skills-index/), each in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CUMULATIVE = re.compile(r"^import time:\s+\d+ \|\s+(\d+) \| registry\.cli$", re.M)


def import_microseconds() -> int:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import registry.cli"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    match = CUMULATIVE.search(result.stderr)
    if match is None:
        raise SystemExit("error: python -X importtime printed no line for registry.cli")
    return int(match.group(1))


def wall_milliseconds(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "registry.cli", *args], cwd=ROOT, capture_output=True, check=False)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed")
    parser.add_argument("--skill", type=Path, default=ROOT / "skills-index" / "opsworks" / "log-triage")
    options = parser.parse_args()
    runs = range(options.runs)
    figures = {
        "import registry.cli (cumulative, us)": statistics.median(import_microseconds() for _ in runs),
        "skill-registry --help (ms)": statistics.median(wall_milliseconds("--help") for _ in runs),
        "skill-registry validate <one skill> (ms)": statistics.median(
            wall_milliseconds("validate", str(options.skill)) for _ in runs
        ),
    }
    for label, value in figures.items():
        print(f"{label:42} {value:>10.0f}")


if __name__ == "__main__":
    main()

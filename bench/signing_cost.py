"""What signing and verifying cost: `python bench/signing_cost.py [--source DIR] [--rounds N] [--json FILE]`.

A cold build (`--clean`, a new output folder) of SOURCE (default: the shared corpus, ../shared/corpus) without a
key and with one, alternating (each goes first every other round), ROUNDS times (default 3); then `skill-registry
verify` of each signed site. Each build and each verify runs in a fresh `skill-registry` process, so loading the
signing code counts.
Prints the median seconds of each, wall and CPU (user and system time of the process and its workers: on a shared
machine the steadier of the two), and the ratios the target reads (issue 24: at most 1.10): signed build over
unsigned build, and signed build plus verify over unsigned build. Nothing here is asserted by a test: times
depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
KEY_VARIABLES = ("SKILL_REGISTRY_SIGNING_KEY", "SKILL_REGISTRY_SIGNING_KEY_FILE")


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds, and CPU seconds (user and system, the process and its workers): on a shared machine the
    CPU time is the steadier measure of the work done."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="worker processes for each build (default: one per core)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args()

    from registry.signing import generate_key_pair

    cli = [sys.executable, "-m", "registry.cli"]
    plain = {k: v for k, v in os.environ.items() if k not in KEY_VARIABLES}
    work = Path(tempfile.mkdtemp(prefix="signing-cost-"))
    try:
        key_file = work / "signing.key"
        key_file.write_bytes(generate_key_pair()[0])
        key_file.chmod(0o600)
        signed_env = {**plain, "SKILL_REGISTRY_SIGNING_KEY_FILE": str(key_file)}
        jobs = ["--jobs", str(args.jobs)] if args.jobs else []
        times: dict[str, list[float]] = {"unsigned": [], "signed": [], "verify": []}
        cpu: dict[str, list[float]] = {"unsigned": [], "signed": [], "verify": []}
        for number in range(args.rounds):
            order = [("unsigned", plain), ("signed", signed_env)]
            for kind, env in order if number % 2 == 0 else order[::-1]:  # each goes first every other round
                out = work / f"{kind}-{number}"
                build = [*cli, "build", "--source", str(args.source), "--out", str(out), "--clean", "-q", *jobs]
                wall, used = timed(build, env)
                times[kind].append(wall)
                cpu[kind].append(used)
            wall, used = timed([*cli, "verify", str(work / f"signed-{number}")], plain)
            times["verify"].append(wall)
            cpu["verify"].append(used)
            for kind in ("unsigned", "signed"):
                shutil.rmtree(work / f"{kind}-{number}", ignore_errors=True)
                shutil.rmtree(work / f".{kind}-{number}.cache", ignore_errors=True)
            print(
                f"round {number + 1}: unsigned {times['unsigned'][-1]:.2f}s (cpu {cpu['unsigned'][-1]:.2f}s), "
                f"signed {times['signed'][-1]:.2f}s (cpu {cpu['signed'][-1]:.2f}s), "
                f"verify {times['verify'][-1]:.2f}s (cpu {cpu['verify'][-1]:.2f}s)",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures: dict = {"source": str(args.source), "rounds": args.rounds, "wall_seconds": times, "cpu_seconds": cpu}
    for measure, values in (("wall", times), ("cpu", cpu)):
        medians = {kind: statistics.median(runs) for kind, runs in values.items()}
        signed_ratio = medians["signed"] / medians["unsigned"]
        with_verify = (medians["signed"] + medians["verify"]) / medians["unsigned"]
        paired = statistics.median(
            (signed + verify) / unsigned
            for unsigned, signed, verify in zip(values["unsigned"], values["signed"], values["verify"], strict=True)
        )
        figures[measure] = {
            "medians": medians, "signed_over_unsigned": signed_ratio, "with_verify": with_verify,
            "paired_with_verify": paired,
        }  # fmt: skip
        print(
            f"{measure} (median of {args.rounds}): cold build unsigned {medians['unsigned']:.2f}s, signed "
            f"{medians['signed']:.2f}s (x{signed_ratio:.3f}); verify of the signed site {medians['verify']:.2f}s; "
            f"signed build + verify x{with_verify:.3f}; median of each round's (signed + verify) / unsigned "
            f"x{paired:.3f} (target <= 1.10)"
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()

"""How fast `validate` is, as a whole process: one skill of a large registry, and the real corpus.

    .venv/bin/python -m bench.validate_speed [--skills 2000] [--seed 1] [--rounds 7] [--keep DIR] [--before DIR]

Builds a synthetic registry once (bench/synthetic.py: the repository `python -m bench.synthetic
--skills N --seed S --out DIR` writes; reused from --keep), then, round after round, interleaved so
that the machine's noise falls on every figure alike:

- `skill-registry validate <one skill folder>` inside that registry, as a fresh process (the default,
  proportional analysis), and the same command analysing the whole registry (`whole=True` in
  registry/checker.py, what validate did before), unless --no-whole;
- `skill-registry validate <corpus>` as a fresh process (its output thrown away), beside the reference
  validator skills-ref (PyPI `skills-ref`, the `bench` extra) validating the same skill folders in this
  process;
- with --before DIR, both commands again as the code in DIR runs them (a copy of an earlier commit:
  `git archive <commit> | tar -x -C DIR`), on PYTHONPATH ahead of this checkout.

Prints, for each, the median, min and max wall time over the rounds, and the median CPU time (user
and system, worker processes included), which the load of other processes disturbs less; then the
targets of issue 23: one skill of a 2,000-skill registry under 1 s, and the corpus at most 2.5 times
skills-ref's time (ratio of the medians). Before timing, it checks that the analyses of the one skill
print the same JSON: a fast wrong answer is no figure. --json FILE writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import synthetic

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
ONE_SKILL_TARGET = 1.0  # seconds, whole process
CORPUS_RATIO_TARGET = 2.5  # our process time / skills-ref's in-process time
# The command analysing the whole registry, as before the proportional analysis: every other skill
# parsed, the whole history read.
WHOLE = (
    "import sys\n"
    "from registry import checker\n"
    "from registry.cli import main\n"
    "check_paths = checker.check_paths\n"
    "checker.check_paths = lambda paths, *a, **k: check_paths(paths, *a, **k, whole=bool(k.get('score')))\n"
    "sys.argv[0] = 'skill-registry'\n"
    "main()\n"
)


def command() -> list[str]:
    """`skill-registry` as a user runs it: the console script beside this interpreter, else `-m`."""
    script = Path(sys.executable).parent / "skill-registry"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "registry.cli"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], cwd: Path, code: Path | None = None) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU time of a command run to its end; with `code`, that source tree's `registry` is imported."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")]))}
    cpu = children_cpu()
    started = time.perf_counter()
    result = subprocess.run(args, cwd=cwd, capture_output=True, check=False, env=env if code else None)
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 1):
        raise SystemExit(f"error: {' '.join(args)} exited {result.returncode}: {result.stderr.decode()[-2000:]}")
    return seconds, children_cpu() - cpu, result


def skills_ref_folders(corpus: Path) -> list[Path]:
    """The folders our crawl finds as skills: the same folders for both validators."""
    from registry import crawl
    from registry.config import Limits

    return [location.folder for location in crawl.crawl(corpus, Limits()).locations]


def skills_ref_run(folders: list[Path]) -> tuple[float, float, int]:
    """skills-ref's validation of every folder in this process: wall time, CPU time, folders with errors."""
    from skills_ref.validator import validate  # checked in main

    cpu = time.process_time()
    started = time.perf_counter()
    failing = sum(1 for folder in folders if validate(folder))
    return time.perf_counter() - started, time.process_time() - cpu, failing


def summary(runs: list[tuple[float, float]]) -> dict:
    walls = [wall for wall, _ in runs]
    return {
        "median": round(statistics.median(walls), 3),
        "min": round(min(walls), 3),
        "max": round(max(walls), 3),
        "cpu_median": round(statistics.median(cpu for _, cpu in runs), 3),
        "runs": [round(wall, 3) for wall in walls],
    }


def line(label: str, figures: dict) -> str:
    return (
        f"{label:66} median {figures['median']:6.3f} s  min {figures['min']:6.3f}  max {figures['max']:6.3f}"
        f"  cpu {figures['cpu_median']:6.3f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time `skill-registry validate` as a whole process.")
    parser.add_argument("--skills", type=int, default=2000, help="skills in the synthetic registry")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=7, help="timed runs of each command, interleaved")
    parser.add_argument("--keep", type=Path, help="work folder kept between runs (the registry is reused)")
    parser.add_argument("--skill", help="the skill to validate, relative to skills-index/ (default: the middle one)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the real skills (default: ../shared/corpus)")
    parser.add_argument("--no-whole", action="store_true", help="do not time the whole-registry analysis")
    parser.add_argument("--no-corpus", action="store_true", help="do not time the corpus")
    parser.add_argument("--before", type=Path, help="a source tree of earlier code to time as well")
    parser.add_argument("--json", type=Path, help="write every figure here")
    options = parser.parse_args(argv)
    if not options.no_corpus:
        try:
            import skills_ref.validator  # noqa: F401
        except ImportError as err:
            raise SystemExit("error: skills-ref is not installed: pip install -e '.[bench]' (or --no-corpus)") from err
    before = options.before.resolve() if options.before else None

    runs: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="validate-speed-") as scratch:
        work = options.keep or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        info = synthetic.ensure(work / f"registry-{options.skills}-{options.seed}", options.skills, options.seed)
        repo = Path(info["source"]).parent
        print(
            f"registry: {options.skills} skills, seed {options.seed}, HEAD {info['head'][:12]} "
            f"({'reused' if info['reused'] else 'generated'} in {time.perf_counter() - started:.1f} s): {repo}",
            file=sys.stderr,
        )
        paths = sorted(info["skills_paths"])
        skill = f"{synthetic.SKILLS_ROOT}/{options.skill}" if options.skill else paths[len(paths) // 2]
        one = [*command(), "validate", skill]
        corpus = [*command(), "validate", str(options.corpus), "--format", "json"]
        # Each figure: (label, command, working folder, source tree of the code run or None).
        commands = [("validate <one skill>", one, repo, None)]
        if not options.no_whole:
            commands.append(
                ("validate <one skill>, whole registry", [sys.executable, "-c", WHOLE, *one[-2:]], repo, None)
            )
        if before:
            commands.append((f"validate <one skill>, code in {options.before}", one, repo, before))

        # The same answer from both analyses, or no figure (earlier code may differ for other reasons).
        answers = [timed([*args, "--format", "json"], cwd, code)[2].stdout for _, args, cwd, code in commands]
        if not options.no_whole and answers[1] != answers[0]:
            raise SystemExit(f"error: the proportional and the whole analysis of {skill} disagree")
        if before and answers[-1] != answers[0]:
            print(f"warning: the code in {options.before} reports other findings for {skill}", file=sys.stderr)
        folders = [] if options.no_corpus else skills_ref_folders(options.corpus)
        if folders:
            commands.append((f"validate {options.corpus}", corpus, work, None))
            if before:
                commands.append((f"validate {options.corpus}, code in {options.before}", corpus, work, before))
            timed(corpus, work)  # warm the page cache for both validators
            skills_ref_run(folders)

        failing = 0
        for _ in range(options.rounds):
            for label, args, cwd, code in commands:
                wall, cpu, _ = timed(args, cwd, code)
                runs.setdefault(label, []).append((wall, cpu))
            if folders:
                wall, cpu, failing = skills_ref_run(folders)
                runs.setdefault("skills-ref", []).append((wall, cpu))

    print(f"\n{options.rounds} rounds; <one skill> is {skill} in {repo}")
    figures: dict = {"skills": options.skills, "seed": options.seed, "skill": skill, "rounds": options.rounds}
    figures["commands"] = {label: summary(values) for label, values in runs.items()}
    for label, values in figures["commands"].items():
        shown = f"{label}, {len(folders)} folders in process" if label == "skills-ref" else label
        print(line(shown, values))
    reference = figures["commands"].get("skills-ref")
    if reference:
        figures["skills_ref_failing"] = failing
        for label, values in figures["commands"].items():
            if label.startswith(f"validate {options.corpus}"):
                values["ratio_to_skills_ref"] = round(values["median"] / reference["median"], 2)
                print(f"  {label} / skills-ref (medians): {values['ratio_to_skills_ref']:.2f}x")
    print("\ntargets:")
    median = figures["commands"]["validate <one skill>"]["median"]
    print(
        f"  one skill of {options.skills} under {ONE_SKILL_TARGET:.0f} s: {'met' if median < ONE_SKILL_TARGET else 'NOT met'}"
    )
    if reference:
        ratio = figures["commands"][f"validate {options.corpus}"]["ratio_to_skills_ref"]
        print(
            f"  corpus at most {CORPUS_RATIO_TARGET}x skills-ref: {'met' if ratio <= CORPUS_RATIO_TARGET else 'NOT met'}"
        )
    if options.json:
        options.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Risk evaluation: recall on the labelled cases, false positives on the real corpus, per-skill cost.

    .venv/bin/python bench/risk_eval.py [--json FILE] [--rounds 3] [--repeat 1] [--baseline b4cc61d]
                                        [--corpus ../shared/corpus] [--no-cost] [--no-corpus]

1. Cases (tests/risk_cases): copied to a temporary folder, their binary and padded fixtures generated
   (tests/risk_cases/make_binaries.py), then analysed as one registry by `registry.analysis.analyse` (the
   build's own crawl, parse, validate, history and score stages, so registry-wide checks such as clone
   detection take part). Per family: malicious cases at or above their expected level and at or above
   medium (recall), benign cases above their maximum (false positives).
2. Corpus: every skill of the real corpus analysed by `registry.skill_jobs.analyse_skill` (what a build
   runs per skill): the share at high or critical and at medium or above, and the high and critical
   skills with their reasons. Nothing from the corpus or the cases is executed: files are read as bytes.
3. Cost: the per-skill CPU time (process_time) of `analyse_skill` on the corpus, for this tree and for
   the baseline commit (extracted with `git archive` into a temporary folder, run in a subprocess with
   that tree first on PYTHONPATH), in the same run, alternating; min and median of the per-round means.
   `--collector build` (the default) runs each tree's analysis as its build workers do, with that tree's
   collector thresholds (`registry.workers.BUILD_COLLECTION_THRESHOLDS`, Python's own where it has none);
   `--collector python` keeps Python's thresholds in both, to compare the analysis code alone.

The corpus pass and the cost pass are the same worker (`--worker`), which imports only the standard
library at module level, so it runs against the baseline's code as well as this tree's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
CASES_DIR = REPO_ROOT / "tests" / "risk_cases"
MANIFEST = CASES_DIR / "cases.yaml"
ATTACK_MANIFEST = CASES_DIR / "attack_families.yaml"  # issue 22's cases, held apart from tuning (its header)
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus"
BASELINE = "b4cc61d"
LEVELS = ("low", "medium", "high", "critical")


def rank(level: str | None) -> int:
    return LEVELS.index(level) if level in LEVELS else -1


# ---------------------------------------------------------------------------------------------- cases


@dataclass
class Case:
    id: str
    family: int
    kind: str  # malicious | benign
    description: str
    min_level: str | None = None  # malicious: the level it must reach
    max_level: str | None = None  # benign: the level it must not exceed
    attack: str | None = None  # attack_families.yaml: the issue-22 family (lure, credential-send, ...)


@dataclass
class CaseResult:
    case: Case
    level: str | None  # None when the skill was not assessed (left out, or not found)
    codes: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    problem: str | None = None  # why it was not assessed
    unbacked: list[str] = field(default_factory=list)  # what its findings say that its card does not show

    @property
    def caught(self) -> bool:
        """Malicious: at or above medium."""
        return rank(self.level) >= rank("medium")

    @property
    def at_expected(self) -> bool:
        """Malicious: at or above its min_level."""
        return rank(self.level) >= rank(self.case.min_level)

    @property
    def false_positive(self) -> bool:
        """Benign: above its max_level (or not assessed at all)."""
        return self.level is None or rank(self.level) > rank(self.case.max_level)

    @property
    def ok(self) -> bool:
        return (self.at_expected and self.caught) if self.case.kind == "malicious" else not self.false_positive


def load_manifest(path: Path = MANIFEST) -> tuple[dict[int, str], list[Case]]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    families = {int(k): str(v) for k, v in data["families"].items()}
    cases = []
    for raw in data["cases"]:
        case = Case(
            id=raw["id"], family=int(raw["family"]), kind=raw["kind"], description=raw["description"],
            min_level=raw.get("min_level"), max_level=raw.get("max_level"), attack=raw.get("attack"),
        )  # fmt: skip
        if case.kind not in ("malicious", "benign") or case.family not in families:
            raise ValueError(f"{path}: case {case.id}: bad kind or family")
        wanted = case.min_level if case.kind == "malicious" else case.max_level
        if wanted not in LEVELS:
            raise ValueError(f"{path}: case {case.id}: {case.kind} case needs a level among {LEVELS}")
        cases.append(case)
    if len({c.id for c in cases}) != len(cases):
        raise ValueError(f"{path}: duplicate case ids")
    return families, cases


def _make_binaries():
    spec = importlib.util.spec_from_file_location("risk_cases_make_binaries", CASES_DIR / "make_binaries.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _commit_history(root: Path) -> None:
    """Make the copy a git repository as a real registry is: the official publisher's skills first (so they
    are the originals by date as well as by tier), everything else a month later. Fixed dates and author."""

    def git(*args: str, date: str) -> None:
        env = dict(
            os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date, GIT_CONFIG_GLOBAL=os.devnull,
            GIT_CONFIG_NOSYSTEM="1",
        )  # fmt: skip
        ident = ["-c", "user.name=Risk Cases", "-c", "user.email=cases@example.com", "-c", "commit.gpgsign=false"]
        subprocess.run(["git", *ident, "-C", str(root), *args], env=env, check=True, capture_output=True)

    first = "2026-01-05T10:00:00+00:00"
    git("init", "-q", "-b", "main", date=first)
    git("add", "registry.yaml", "northwind", date=first)
    git("commit", "-q", "-m", "Official skills", date=first)
    later = "2026-02-09T10:00:00+00:00"
    git("add", "-A", date=later)
    git("commit", "-q", "-m", "Community and verified skills", date=later)


def evaluate_cases(workdir: Path, *manifests: Path) -> tuple[dict[int, str], list[CaseResult]]:
    """Copy the cases into `workdir`/cases, generate their fixtures, analyse them as one registry.

    Every case folder is analysed (they form one registry); the results are those of the cases that
    `manifests` name (cases.yaml when none is given).
    """
    from registry.analysis import analyse
    from registry.score.risk import claims

    families: dict[int, str] = {}
    cases: list[Case] = []
    for manifest in manifests or (MANIFEST,):
        named, listed = load_manifest(manifest)
        families |= named
        cases += listed
    root = workdir / "cases"
    _make_binaries().prepare(root)
    _commit_history(root)
    analysis = analyse(root)
    skills = {s.id: s for s in analysis.skills}
    dropped = {d.id: d for d in analysis.found.dropped}
    results = []
    for case in cases:
        skill = skills.get(case.id)
        assessment = analysis.assessments.get(case.id)
        if skill is None or assessment is None:
            why = "not found by the crawler"
            if case.id in dropped:
                why = "left out: " + "; ".join(f"{f.code} {f.message}" for f in dropped[case.id].reasons)[:300]
            elif skill is not None:
                why = "not assessed: " + "; ".join(f"{f.code} {f.message}" for f in skill.errors)[:300]
            results.append(CaseResult(case, None, problem=why))
            continue
        risk = assessment.risk
        # A registry-wide step (clones) may raise the skill's level after its own content was scored.
        level = max((risk.level, skill.risk_level or "low"), key=rank)
        codes = sorted({f.code for f in risk.findings} | {f.code for f in skill.findings if f.code.startswith("R")})
        results.append(CaseResult(case, level, codes, list(risk.reasons), unbacked=claims.unbacked(risk)))
    return families, results


def family_table(families: dict[int, str], results: list[CaseResult]) -> list[dict]:
    rows = []
    for number, name in sorted(families.items()):
        mine = [r for r in results if r.case.family == number]
        bad = [r for r in mine if r.case.kind == "malicious"]
        good = [r for r in mine if r.case.kind == "benign"]
        rows.append(
            {
                "family": number,
                "name": name,
                "malicious": len(bad),
                "caught_medium": sum(r.caught for r in bad),
                "at_expected": sum(r.at_expected and r.caught for r in bad),
                "benign": len(good),
                "false_positives": sum(r.false_positive for r in good),
                "missed": [r.case.id for r in bad if not r.caught],
                "below_expected": [r.case.id for r in bad if r.caught and not r.at_expected],
                "benign_over": [r.case.id for r in good if r.false_positive],
            }
        )
    return rows


def attack_table(results: list[CaseResult]) -> list[dict]:
    """Issue 22's held-apart cases per attack family: caught at medium+, at the expected level, benign over."""
    rows = []
    for attack in sorted({r.case.attack for r in results if r.case.attack}):
        mine = [r for r in results if r.case.attack == attack]
        bad = [r for r in mine if r.case.kind == "malicious"]
        good = [r for r in mine if r.case.kind == "benign"]
        rows.append(
            {
                "attack": attack,
                "malicious": len(bad),
                "caught_medium": sum(r.caught for r in bad),
                "at_expected": sum(r.at_expected and r.caught for r in bad),
                "benign": len(good),
                "false_positives": sum(r.false_positive for r in good),
                "below_expected": [
                    f"{r.case.id} ({r.level}, want {r.case.min_level})" for r in bad if not r.at_expected
                ],
                "benign_over": [f"{r.case.id} ({r.level}, max {r.case.max_level})" for r in good if r.false_positive],
            }
        )
    return rows


def _print_attacks(rows: list[dict]) -> None:
    print(f"\nissue-22 cases ({ATTACK_MANIFEST.name}, held apart from tuning)")
    print(f"{'attack':<16} {'malicious':>9} {'>=medium':>9} {'>=expected':>11} {'benign':>7} {'over-max':>9}")
    for row in rows:
        print(
            f"{row['attack']:<16} {row['malicious']:>9} {row['caught_medium']:>9} {row['at_expected']:>11} "
            f"{row['benign']:>7} {row['false_positives']:>9}"
        )
    for row in rows:
        for entry in row["below_expected"]:
            print(f"  below expected  {row['attack']:<16} {entry}")
        for entry in row["benign_over"]:
            print(f"  benign over max {row['attack']:<16} {entry}")


# --------------------------------------------------------------------------------------------- worker


def _worker(corpus: Path, rounds: int, levels: bool, collector: str = "build") -> dict:
    """Run against whatever `registry` is first on the path: this tree or the baseline's. With collector "build",
    the collector runs as that tree's build workers run it (its `workers.BUILD_COLLECTION_THRESHOLDS`, Python's
    own thresholds in a tree that has none); with "python", at Python's thresholds in both trees. The caller's
    thresholds are back when it returns (a test calls it in its own process)."""
    import gc
    import importlib

    previous = gc.get_threshold()
    if collector == "build":
        try:
            thresholds = importlib.import_module("registry.workers").BUILD_COLLECTION_THRESHOLDS
        except (ImportError, AttributeError):
            thresholds = None
        if thresholds:
            gc.set_threshold(*thresholds)
    try:
        return _measure(corpus, rounds, levels)
    finally:
        gc.set_threshold(*previous)


def _measure(corpus: Path, rounds: int, levels: bool) -> dict:
    import gc

    import registry
    from registry import crawl
    from registry.config import Limits
    from registry.policy import Policy
    from registry.skill_jobs import analyse_skill

    limits, policy = Limits(), Policy()
    locations = []  # (id shown, location): ids prefixed with the source folder, as the corpus pins name them
    for source in sorted(p for p in corpus.iterdir() if p.is_dir()):
        locations.extend((f"{source.name}/{loc.id}", loc) for loc in crawl.crawl(source, limits).locations)
    out: dict = {"registry": str(Path(registry.__file__).parent), "skills": 0, "levels": {}, "flagged": [],
                 "collector": list(gc.get_threshold())}  # fmt: skip
    # Warm-up pass (imports, grammars, caches): not timed; it also gives the verdicts.
    scored = []
    for shown, location in locations:
        result = analyse_skill(location, limits, policy)
        if result.content is None:
            continue
        scored.append(location)
        risk = result.content.risk
        out["levels"][risk.level] = out["levels"].get(risk.level, 0) + 1
        if levels and risk.level in ("high", "critical"):
            codes = sorted({f.code for f in risk.findings})
            out["flagged"].append({"id": shown, "level": risk.level, "codes": codes, "reasons": list(risk.reasons)})
    out["skills"] = len(scored)
    per_round = []
    for _ in range(rounds):
        total = 0.0
        for location in scored:
            start = time.process_time()
            analyse_skill(location, limits, policy)
            total += time.process_time() - start
        per_round.append(total * 1000 / max(1, len(scored)))
    out["ms_per_skill_rounds"] = per_round
    return out


def _run_worker(tree: Path, corpus: Path, rounds: int, levels: bool, collector: str = "build") -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = [sys.executable, str(Path(__file__).resolve()), "--worker", "--corpus", str(corpus), "--rounds", str(rounds),
            "--collector", collector]  # fmt: skip
    if levels:
        args.append("--levels")
    done = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"worker for {tree} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.splitlines()[-1])
    if Path(result["registry"]).resolve() != (tree / "registry").resolve():
        raise RuntimeError(f"worker for {tree} imported registry from {result['registry']}")
    return result


def extract_baseline(commit: str, dest: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", commit], capture_output=True, check=True).stdout
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def _summary(rounds: list[float]) -> dict:
    return {"min": min(rounds), "median": statistics.median(rounds), "rounds": rounds}


# ----------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the corpus per worker")
    parser.add_argument("--repeat", type=int, default=1, help="worker pairs (this tree, baseline), alternating")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare the cost with")
    parser.add_argument("--no-cost", action="store_true", help="corpus verdicts only, no timing, no baseline")
    parser.add_argument("--no-corpus", action="store_true", help="cases only")
    parser.add_argument(
        "--collector", choices=("build", "python"), default="build",
        help="build: each tree's workers collect as its build runs them (default); python: Python's thresholds",
    )  # fmt: skip
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--levels", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        print(json.dumps(_worker(args.corpus, args.rounds, args.levels, args.collector)))
        return 0

    report: dict = {}
    with tempfile.TemporaryDirectory(prefix="risk-eval-") as tmp:
        families, evaluated = evaluate_cases(Path(tmp), MANIFEST, ATTACK_MANIFEST)
    results = [r for r in evaluated if r.case.attack is None]
    held_apart = [r for r in evaluated if r.case.attack is not None]
    rows = family_table(families, results)
    bad = [r for r in results if r.case.kind == "malicious"]
    good = [r for r in results if r.case.kind == "benign"]
    report["cases"] = {
        "malicious": len(bad),
        "caught_medium": sum(r.caught for r in bad),
        "recall_medium": sum(r.caught for r in bad) / max(1, len(bad)),
        "at_expected": sum(r.at_expected and r.caught for r in bad),
        "recall_expected": sum(r.at_expected and r.caught for r in bad) / max(1, len(bad)),
        "benign": len(good),
        "false_positives": sum(r.false_positive for r in good),
        "families": rows,
        "results": [
            {
                **asdict(r.case),
                "level": r.level,
                "ok": r.ok,
                "codes": r.codes,
                "reasons": r.reasons,
                "problem": r.problem,
            }
            for r in results
        ],
    }
    _print_cases(report["cases"], results)
    report["attack_families"] = attack_table(held_apart)
    _print_attacks(report["attack_families"])

    if not args.no_corpus:
        rounds = 0 if args.no_cost else args.rounds
        current = _run_worker(REPO_ROOT, args.corpus, rounds, levels=True, collector=args.collector)
        n = current["skills"]
        levels = current["levels"]
        high = levels.get("high", 0) + levels.get("critical", 0)
        medium_up = high + levels.get("medium", 0)
        report["corpus"] = {
            "skills": n, "levels": levels, "high_or_critical": high, "high_rate": high / max(1, n),
            "medium_or_above": medium_up, "medium_rate": medium_up / max(1, n), "flagged": current["flagged"],
        }  # fmt: skip
        print(f"\ncorpus: {n} skills, levels {dict(sorted(levels.items(), key=lambda kv: rank(kv[0])))}")
        print(
            f"  high or critical: {high} ({100 * high / max(1, n):.1f}%), medium or above: {medium_up} ({100 * medium_up / max(1, n):.1f}%)"
        )
        for item in current["flagged"]:
            print(f"  {item['level']:<8} {item['id']}  {' '.join(item['codes'])}")
            for reason in item["reasons"][:3]:
                print(f"           - {reason[:160]}")

        if not args.no_cost:
            ours, theirs = list(current["ms_per_skill_rounds"]), []
            with tempfile.TemporaryDirectory(prefix="risk-eval-baseline-") as tmp:
                tree = extract_baseline(args.baseline, Path(tmp))
                baseline = _run_worker(tree, args.corpus, args.rounds, levels=False, collector=args.collector)
                theirs += baseline["ms_per_skill_rounds"]
                for _ in range(args.repeat - 1):
                    ours += _run_worker(REPO_ROOT, args.corpus, args.rounds, False, args.collector)[
                        "ms_per_skill_rounds"
                    ]
                    theirs += _run_worker(tree, args.corpus, args.rounds, False, args.collector)["ms_per_skill_rounds"]
            report["cost"] = {
                "measure": "registry.skill_jobs.analyse_skill, process_time per skill (ms), corpus",
                "collector": {
                    "option": args.collector,
                    "this tree": current["collector"],
                    "baseline": baseline["collector"],
                },
                "current": _summary(ours),
                "baseline": {"commit": args.baseline, "levels": baseline["levels"], **_summary(theirs)},
                "ratio_median": statistics.median(ours) / statistics.median(theirs),
                "ratio_min": min(ours) / min(theirs),
            }
            cost = report["cost"]
            print(f"\ncost per skill (analyse_skill, process_time, {len(ours)} rounds each; collector "
                  f"{args.collector}: this tree {current['collector']}, baseline {baseline['collector']}):")  # fmt: skip
            print(f"  this tree      min {cost['current']['min']:.2f} ms  median {cost['current']['median']:.2f} ms")
            print(
                f"  {args.baseline:<14} min {cost['baseline']['min']:.2f} ms  median {cost['baseline']['median']:.2f} ms"
            )
            print(f"  ratio          min {cost['ratio_min']:.2f}  median {cost['ratio_median']:.2f}")
            print(f"  baseline corpus levels: {baseline['levels']}")

    if args.json:
        args.json.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


def _print_cases(summary: dict, results: list[CaseResult]) -> None:
    print("family                               malicious  >=medium  >=expected  benign  over-max")
    for row in summary["families"]:
        print(
            f"{row['family']:>2} {row['name']:<33} {row['malicious']:>9} {row['caught_medium']:>9} "
            f"{row['at_expected']:>11} {row['benign']:>7} {row['false_positives']:>9}"
        )
    print(
        f"recall at medium+: {summary['caught_medium']}/{summary['malicious']} ({100 * summary['recall_medium']:.0f}%), "
        f"at expected level: {summary['at_expected']}/{summary['malicious']} ({100 * summary['recall_expected']:.0f}%), "
        f"benign over their maximum: {summary['false_positives']}/{summary['benign']}"
    )
    wrong = [r for r in results if not r.ok]
    if wrong:
        print("\ncases not at their expected level:")
    for r in wrong:
        want = f">= {r.case.min_level}" if r.case.kind == "malicious" else f"<= {r.case.max_level}"
        print(
            f"  F{r.case.family:<2} {r.case.kind:<9} {r.case.id:<38} got {r.level or '-':<8} want {want:<10} {' '.join(r.codes)}"
        )
        if r.problem:
            print(f"      {r.problem}")
        print(f"      {r.case.description}")


if __name__ == "__main__":
    sys.exit(main())

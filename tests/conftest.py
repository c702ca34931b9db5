"""Shared fixtures: paths to the repository, the real corpus, and helpers that make skill trees."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SKILLS_INDEX = REPO_ROOT / "skills-index"
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
SEEDS = REPO_ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def corpus() -> Path:
    assert CORPUS.is_dir(), f"the real-skill corpus is expected at {CORPUS} (../shared/corpus beside the repository)"
    return CORPUS


def write_skill(root: Path, rel: str, skill_md: str | bytes, files: dict[str, str | bytes] | None = None) -> Path:
    """Create a skill folder under root with a SKILL.md and optional support files."""
    folder = root / rel
    folder.mkdir(parents=True, exist_ok=True)
    data = skill_md.encode("utf-8") if isinstance(skill_md, str) else skill_md
    (folder / "SKILL.md").write_bytes(data)
    for path, content in (files or {}).items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return folder


def simple_skill(name: str, description: str = "Does a useful thing. Use when testing.", body: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\nlicense: MIT\n---\n\n# {name}\n\n{body or 'Step one. Step two.'}\n"


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.com",
        "GIT_COMMITTER_NAME": "Test Author",
        "GIT_COMMITTER_EMAIL": "author@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(cwd),
    }
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return result.stdout


def commit_all(repo: Path, message: str, date: str) -> str:
    git(repo, "add", "-A")
    env_date = ["-c", "user.useConfigOnly=false"]
    subprocess.run(
        ["git", *env_date, "commit", "-q", "-m", message],
        cwd=repo,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "Test Author",
            "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Test Author",
            "GIT_COMMITTER_EMAIL": "author@example.com",
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_DATE": date,
            "HOME": str(repo),
        },
        check=True,
    )
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from Debian's package, shared by the browser tests (tests/browser_support.py)."""
    from browser_support import launch
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = launch(playwright)
        yield instance
        instance.close()


@pytest.fixture
def pr_repo(tmp_path):
    """A registry repository with a policy, two publishers' skills and a `base-branch` to compare with."""
    from pr_support import make_pr_repo

    return make_pr_repo(tmp_path)

"""Shared fixtures: paths to the repository, the real corpus, and helpers that make skill trees.

Also the suite's prerequisites (the shared data beside the repository, Node packages, programs): a test
that needs a missing one fails with one sentence saying what is missing, where it was expected and how
to install it, instead of a traceback (`FileNotFoundError: 'hugo'`) or a skip.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO_ROOT = TESTS.parent
SKILLS_INDEX = REPO_ROOT / "skills-index"
SHARED = REPO_ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"
NODE_MODULES = TESTS / "interop" / "node_modules"

SHARED_LAYOUT = (
    "put a folder shared/ beside the repository holding corpus/ (real skills, SOURCES.md), seeds/ (dialect specs) "
    "and docs/ (see the README's Prerequisites)"
)


@dataclass(frozen=True)
class Prerequisite:
    """A folder the suite reads that the repository does not hold, and how to get it."""

    what: str
    folder: Path
    remedy: str

    def sentence(self, expected: Path | None = None) -> str:
        return f"{self.what} is missing: expected at {expected or self.folder}; {self.remedy}"


SHARED_CORPUS = Prerequisite("the real-skill corpus", CORPUS, SHARED_LAYOUT)
SHARED_SEEDS = Prerequisite("the dialect seed specs folder", SEEDS, SHARED_LAYOUT)
INTEROP_PACKAGES = Prerequisite(
    "a Node package of tests/interop", NODE_MODULES, "run scripts/test, or npm ci --prefix tests/interop"
)
FOLDERS = (SHARED_CORPUS, SHARED_SEEDS, INTEROP_PACKAGES)
CHROMIUM = Path("/usr/bin/chromium")  # Debian's package; Playwright is pointed at it (tests/browser_support.py)
# Programs the tests run, as a FileNotFoundError names them, and the sentence for their absence.
PROGRAMS = {
    "git": "git is not installed (looked for on PATH): run scripts/test, or apt-get install git",
    "hugo": "hugo is not installed (looked for on PATH): run scripts/test, or apt-get install hugo",
    "node": "node is not installed (looked for on PATH): run scripts/test, or apt-get install nodejs",
    "npm": "npm is not installed (looked for on PATH): run scripts/test, or apt-get install npm",
    str(CHROMIUM): f"Chromium is not installed: expected at {CHROMIUM}; run scripts/test, or apt-get install chromium",
}


def require(prerequisite: Prerequisite) -> Path:
    if not prerequisite.folder.is_dir():
        pytest.fail(prerequisite.sentence(), pytrace=False)
    return prerequisite.folder


def missing_prerequisite(error: BaseException | None) -> str | None:
    """The sentence for an error (or one it was raised from) caused by a missing program or shared folder."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, FileNotFoundError) and error.filename is not None:
            name = str(error.filename)
            if name in PROGRAMS:
                return PROGRAMS[name]
            for prerequisite in FOLDERS:
                if not prerequisite.folder.is_dir() and Path(name).is_relative_to(prerequisite.folder):
                    return prerequisite.sentence()
        error = error.__cause__ or error.__context__
    return None


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):  # comprehensions, lambdas and nested functions
            yield from _code_objects(constant)


def missing_paths_read_by(item: pytest.Item) -> list[str]:
    """Sentences for the prerequisite paths that a test's own code or its fixtures name and that do not exist.

    A test that globs an absent folder sees nothing and would fail on an unrelated assertion, or not at
    all, so the paths are checked before it runs rather than read from the error it raises.
    """
    functions = [getattr(item, "function", None)]
    fixture_info = getattr(item, "_fixtureinfo", None)
    if fixture_info is not None:
        functions += [definition.func for defs in fixture_info.name2fixturedefs.values() for definition in defs]
    sentences: list[str] = []
    for function in functions:
        function = inspect.unwrap(function) if function is not None else None
        code = getattr(function, "__code__", None)
        if code is None or not Path(code.co_filename).is_relative_to(TESTS):
            continue
        for names in (c.co_names for c in _code_objects(code)):
            for name in names:
                value = function.__globals__.get(name)
                if not isinstance(value, Path) or value.exists():
                    continue
                for prerequisite in FOLDERS:
                    if value.is_relative_to(prerequisite.folder):
                        sentence = prerequisite.sentence(value)
                        if sentence not in sentences:
                            sentences.append(sentence)
    return sentences


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    sentences = missing_paths_read_by(item)
    if sentences:
        pytest.fail("\n".join(sentences), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.failed and call.excinfo is not None:
        sentence = missing_prerequisite(call.excinfo.value)
        if sentence:
            report.longrepr = sentence
    return report


@pytest.fixture(scope="session")
def corpus() -> Path:
    return require(SHARED_CORPUS)


@pytest.fixture(scope="session")
def seeds() -> Path:
    return require(SHARED_SEEDS)


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


@pytest.fixture
def registry_repo(tmp_path: Path) -> Path:
    """A git repository holding a copy of skills-index/ (as skills/) and the project's registry.yaml, one commit."""
    import shutil

    source = tmp_path / "registry"
    shutil.copytree(SKILLS_INDEX, source / "skills")
    shutil.copy(REPO_ROOT / "registry.yaml", source / "registry.yaml")
    git(source, "init", "-q")
    commit_all(source, "import", "2026-01-01T00:00:00Z")
    return source

"""The browser tests' fixtures. One build: skills-index plus the hostile skills, in a real git repository, served
twice from the same folder: with the production headers (netlify.toml, CSP included) and without the CSP."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser_support import Served, new_page, serve
from conftest import REPO_ROOT, SKILLS_INDEX, commit_all, git
from hostile import write_hostile_skills

from registry.build import BuildResult, build
from registry.config import BuildOptions


@dataclass
class Site:
    source: Path
    out: Path
    result: BuildResult
    served: Served  # production headers
    bare: Served  # the same files without the Content-Security-Policy
    hostile: list[str]  # folders of the hostile skills, relative to source

    @property
    def url(self) -> str:
        return self.served.url


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Site:
    root = tmp_path_factory.mktemp("browser-site")
    source = root / "source"
    shutil.copytree(SKILLS_INDEX, source)
    shutil.copy(REPO_ROOT / "registry.yaml", source / "registry.yaml")
    git(source, "init", "-q", "-b", "main")
    commit_all(source, "skills-index", "2025-01-10T10:00:00+00:00")
    hostile = write_hostile_skills(source)
    commit_all(source, "hostile skills", "2025-03-01T10:00:00+00:00")
    out = root / "site"
    served = serve(out)
    bare = serve(out, csp=False)
    result = build(BuildOptions(source=source, out=out, base_url=served.url))
    yield Site(source, out, result, served, bare, hostile)
    served.close()
    bare.close()


@pytest.fixture
def open_page(browser):
    """open_page(**context_options) -> (page, problems); every context is closed after the test."""
    contexts = []

    def factory(**options):
        page, problems = new_page(browser, **options)
        contexts.append(page.context)
        return page, problems

    yield factory
    for context in contexts:
        context.close()

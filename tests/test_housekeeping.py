"""The repository describes itself truthfully: the README lists every module, git tracks no generated file."""

from __future__ import annotations

import re
import subprocess

from conftest import REPO_ROOT

REGISTRY = REPO_ROOT / "registry"


def readme_layout() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Layout\n\n```\n(.*?)^```", readme, re.S | re.M)
    assert match, "README.md has no '## Layout' section with a code block"
    return match.group(1)


def listed_registry_modules(layout: str) -> set[str]:
    """Names under `registry/` in the layout block: `name.py` or `name/` first on an indented line."""
    return set(re.findall(r"^  ([a-z_][a-z0-9_]*(?:\.py|/))\s", layout, re.M))


def registry_modules() -> set[str]:
    modules = {p.name for p in REGISTRY.glob("*.py") if p.name != "__init__.py"}
    packages = {f"{p.name}/" for p in REGISTRY.iterdir() if (p / "__init__.py").is_file()}
    return modules | packages


def test_readme_layout_lists_every_top_level_module_of_registry():
    listed = listed_registry_modules(readme_layout())
    missing, stale = registry_modules() - listed, listed - registry_modules()
    assert not missing, f"registry/ modules missing from the README's Layout section: {sorted(missing)}"
    assert not stale, f"the README's Layout section lists modules registry/ does not have: {sorted(stale)}"


def test_layout_parsing_sees_modules_and_packages():
    layout = (
        "registry/\n  cli.py            commands\n  score/            risk\n                      risk.py (nested)\n"
    )
    assert listed_registry_modules(layout) == {"cli.py", "score/"}


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, check=True).stdout


def test_git_tracks_no_ignored_file():
    tracked_but_ignored = git("ls-files", "--cached", "--ignored", "--exclude-standard").split()
    assert tracked_but_ignored == [], f"run: git rm --cached {' '.join(tracked_but_ignored)}"


def test_wheel_build_folders_are_ignored():
    # setuptools builds a wheel in build/ (build/lib, build/bdist.*); `python -m build` writes dist/.
    paths = ["build/lib/registry/cli.py", "build/bdist.linux-x86_64/wheel/x", "dist/skill_registry-0.1.0.whl"]
    ignored = git("check-ignore", "--no-index", *paths).split()
    assert ignored == paths

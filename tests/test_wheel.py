"""A plain `pip install .`: the wheel carries the site's resources and builds the bundled registry.

The sdist is built from the work tree and the wheel from the sdist (what `python -m build` does),
so both must carry templates/, static/, schema/, netlify.toml and the example registry. The wheel
goes into a fresh venv, and `skill-registry build` runs from a folder outside the repository:
nothing can be read from the source tree. The fresh venv borrows the project venv's libraries
through a .pth file, which Python reads after the venv's own site-packages, so `registry` itself
can only come from the wheel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import REPO_ROOT, SKILLS_INDEX

PACKAGED = "registry/_resources"
# Top-level path in the repository -> path inside the installed package (setup.py's RESOURCES).
SHIPPED_FOLDERS = {"templates": "templates", "static": "static", "schema": "schema", "skills-index": "skills-index"}
SHIPPED_FILES = {"netlify.toml": "netlify.toml", "registry.yaml": "skills-index/registry.yaml"}


def run(command: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env |= {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{result.stdout}\n{result.stderr}"
    return result


def source_files(top_level: str) -> set[str]:
    """The repository's files under a top-level folder, as paths relative to it."""
    folder = REPO_ROOT / top_level
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    try:
        import build  # noqa: F401  (the `python -m build` front end, from the test extra)
    except ImportError:
        pytest.fail("the `build` package is not installed: run `.venv/bin/pip install -e '.[test]'`")
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO_ROOT)], cwd=out)
    return out


@pytest.fixture(scope="module")
def fresh_venv(dist, tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv.parent)
    python = venv / "bin" / "python"
    (wheel,) = dist.glob("*.whl")
    run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        cwd=venv,
    )
    where = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=venv)
    site_packages = Path(where.stdout.strip())
    libraries = dict.fromkeys(sysconfig.get_paths()[kind] for kind in ("purelib", "platlib"))
    (site_packages / "zz_project_libraries.pth").write_text("".join(f"{path}\n" for path in libraries))
    return venv


def test_sdist_and_wheel_carry_the_resources(dist):
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    (wheel,) = dist.glob("*.whl")
    in_wheel = set(zipfile.ZipFile(wheel).namelist())

    for top_level, packaged in SHIPPED_FOLDERS.items():
        expected = source_files(top_level)
        assert expected, f"{top_level}/ is empty in the repository"
        assert {f"{top_level}/{name}" for name in expected} <= in_sdist, f"the sdist lacks files of {top_level}/"
        missing = {name for name in expected if f"{PACKAGED}/{packaged}/{name}" not in in_wheel}
        assert not missing, f"the wheel lacks {top_level}/: {sorted(missing)[:5]}"
    for top_level, packaged in SHIPPED_FILES.items():
        assert top_level in in_sdist
        assert f"{PACKAGED}/{packaged}" in in_wheel
    assert not [name for name in in_wheel if "__pycache__" in name or name.endswith(".pyc")]


def test_installed_wheel_builds_the_bundled_registry(fresh_venv, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    probe = run(
        [
            str(fresh_venv / "bin" / "python"),
            "-c",
            "import registry, registry.serve; print(registry.__file__); print(len(registry.serve.load_header_rules()))",
        ],
        cwd=outside,
    ).stdout.splitlines()
    assert Path(probe[0]).is_relative_to(fresh_venv), f"registry was imported from {probe[0]}, not from the wheel"
    assert int(probe[1]) > 0, "serve found no header rules: netlify.toml is not in the installed package"

    run([str(fresh_venv / "bin" / "skill-registry"), "build", "--out", "site"], cwd=outside)

    site = outside / "site"
    for page in ("index.html", "static/style.css", "schema/index.schema.json", ".well-known/agent-skills/index.json"):
        assert (site / page).is_file(), f"the site lacks {page}"
    index = json.loads((site / "index.json").read_text(encoding="utf-8"))
    bundled = {p.parent.relative_to(SKILLS_INDEX).as_posix() for p in SKILLS_INDEX.rglob("SKILL.md")}
    assert {skill["id"] for skill in index["skills"]} == bundled
    for skill_id in bundled:
        assert (site / "skills" / skill_id / "index.html").is_file(), f"no page for {skill_id}"
    # Official is earned only through registry.yaml: the example's policy was found in the installed copy.
    tiers = {skill["id"]: skill["trust"]["tier"] for skill in index["skills"]}
    assert tiers["registry-team/commit-message-writer"] == "official"

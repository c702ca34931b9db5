"""Build hook: ship the site's resources inside the package.

The templates, static files, schema, netlify.toml and the bundled example registry stay at the top
of the repository, where authors edit them and an editable install reads them. A built wheel has no
repository around it, so this hook copies them into `registry/_resources/`, which
`registry/config.py` prefers whenever it exists. MANIFEST.in puts the same files in the sdist, so a
wheel built from the sdist carries them too. Everything else is configured in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PACKAGED_RESOURCES = Path("registry", "_resources")

# Path inside registry/_resources/ -> path at the top of the source tree. The example registry's
# policy goes beside its skills, where `find_policy` looks first: an installed copy is in no git
# repository, so the lookup at the repository root that a source checkout uses cannot find it.
RESOURCES = {
    "templates": "templates",
    "static": "static",
    "schema": "schema",
    "netlify.toml": "netlify.toml",
    "skills-index": "skills-index",
    "skills-index/registry.yaml": "registry.yaml",
}
# Copied when present: the example registry has no lifecycle.yaml today.
OPTIONAL_RESOURCES = {"skills-index/lifecycle.yaml": "lifecycle.yaml"}


class BuildWithResources(build_py):
    def run(self) -> None:
        super().run()
        # An editable install reads the top-level folders themselves; copies would go stale.
        if not getattr(self, "editable_mode", False):
            self.copy_resources(Path(self.build_lib) / PACKAGED_RESOURCES)

    def copy_resources(self, target_root: Path) -> None:
        shutil.rmtree(target_root, ignore_errors=True)  # a reused build folder may hold removed files
        wanted = {**RESOURCES, **{k: v for k, v in OPTIONAL_RESOURCES.items() if Path(v).exists()}}
        for packaged, source in wanted.items():
            origin, target = Path(source), target_root / packaged
            if origin.is_dir():
                shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif origin.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(origin, target)
            else:
                raise FileNotFoundError(f"{origin} is missing: the package cannot be built without it")


setup(cmdclass={"build_py": BuildWithResources})

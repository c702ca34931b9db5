"""Build settings: typed, with their defaults and meaning in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_ROOT.parent


@dataclass(frozen=True)
class Limits:
    """Bounds on untrusted input. Exceeding one is a finding that names the limit and the value."""

    skill_md_bytes: int = 1024 * 1024
    frontmatter_bytes: int = 64 * 1024
    yaml_depth: int = 32
    yaml_nodes: int = 20_000  # after alias expansion: defeats "billion laughs"
    yaml_aliases: int = 100  # alias uses (*name) in one frontmatter; real skills use a handful at most
    file_bytes: int = 10 * 1024 * 1024
    files_per_skill: int = 1000  # the `skills` CLI refuses archives with more
    skill_bytes: int = 50 * 1024 * 1024  # the `skills` CLI's unpacked-size limit
    crawl_depth: int = 12
    skill_md_lines: int = 500
    skill_seconds: int = 10  # reading, validating and scoring one skill; a skill over it is left out


@dataclass(frozen=True)
class BuildOptions:
    source: Path
    out: Path
    base_url: str = "http://localhost:8000/"
    strict: bool = False
    report: Path | None = None
    policy: Path | None = None  # registry.yaml; found beside the source or at its git root when None
    title: str = "Skill Registry"
    limits: Limits = field(default_factory=Limits)
    templates: Path = PROJECT_ROOT / "templates"
    static: Path = PROJECT_ROOT / "static"
    schema: Path = PROJECT_ROOT / "schema"
    progress: bool = False
    clean: bool = False  # ignore the incremental build state and rebuild everything
    jobs: int | None = None  # worker processes; None = one per core

    @property
    def site_url(self) -> str:
        return self.base_url if self.base_url.endswith("/") else self.base_url + "/"


DEFAULT_SOURCE = PROJECT_ROOT / "skills-index"
BUNDLED_SKILLS = PROJECT_ROOT / "skills-index"  # the example registry shipped with the package
DEFAULT_OUT = Path("public")

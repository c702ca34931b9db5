"""Build settings: typed, with their defaults and meaning in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from registry.signing import SigningKey

PACKAGE_ROOT = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_ROOT.parent

# Where the site's resources are read from: the one place that decides it. A built wheel carries
# copies of the top-level folders in registry/_resources/ (setup.py); a source checkout or an
# editable install has none and reads the top-level folders, so an edit shows at once.
PACKAGED_RESOURCES = PACKAGE_ROOT / "_resources"
RESOURCE_ROOT = PACKAGED_RESOURCES if PACKAGED_RESOURCES.is_dir() else PROJECT_ROOT
TEMPLATES = RESOURCE_ROOT / "templates"
STATIC = RESOURCE_ROOT / "static"
SCHEMA = RESOURCE_ROOT / "schema"
NETLIFY_TOML = RESOURCE_ROOT / "netlify.toml"  # the production headers `serve` answers with
# The example registry shipped with the package. Its registry.yaml is found by `find_policy`: at the
# repository root in a checkout, beside the skills in an installed copy (setup.py puts it there).
BUNDLED_SKILLS = RESOURCE_ROOT / "skills-index"


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
class Outputs:
    """The optional outputs of a build, each on or off (registry.yaml `outputs:`, registry/policy.py). Every
    other output is always written: the pages, index.json, the v0.2 discovery index and its artifacts, every
    published file, the search shards, the sitemap, the stats page and the signatures."""

    discovery_v0_1: bool = True  # .well-known/skills/index.json, for `skills` CLIs before 1.4.6
    skill_indexes: bool = True  # skills/<id>/.well-known/agent-skills/index.json: the page URL installs the skill
    marketplaces: bool = True  # the four plugin marketplaces and plugins/<publisher>.zip
    ai_catalog: bool = True  # .well-known/ai-catalog.json and its copy at ard.json
    feeds: bool = True  # feeds/: Atom feeds of the whole registry, each category and each publisher

    @property
    def off(self) -> tuple[str, ...]:
        return tuple(name for name, on in vars(self).items() if not on)


# What each output is (docs/policy.md); what each costs: README "Optional outputs and what each costs"
# (bench/output_size.py).
OUTPUT_MEANINGS = {
    "discovery_v0_1": "`.well-known/skills/index.json`, the v0.1 discovery index `skills` CLIs before 1.4.6 read "
    "(the files it lists stay where they are: `.well-known/skills/<name>/`)",
    "skill_indexes": "`skills/<id>/.well-known/agent-skills/index.json`, each skill's own one-entry discovery index, "
    "so that `npx skills add <its page URL>` installs it (one file per skill)",
    "marketplaces": "the Claude Code, Codex, Copilot CLI and Cursor plugin marketplaces and `plugins/<publisher>.zip` "
    "(a second copy of every discoverable skill's files, zipped)",
    "ai_catalog": "`.well-known/ai-catalog.json` and the same bytes at `.well-known/ard.json`",
    "feeds": "`feeds/`: Atom feeds of new and updated skills, for the registry, each category and each publisher",
}
# Named sets of outputs: `full` writes every output; `lean` only what agents and people need to find, read and
# install skills: the pages, index.json, both discovery layouts (the v0.1 index is one file; every `skills` CLI
# installs from the site) and each skill's own index (the page's install command names the page), the files,
# search. It drops what copies the registry again for other readers: the plugin marketplaces with their zips (a
# second copy of every file), the AI catalog (index.json again, twice, in one file that outgrows hosts' file
# limits) and the feeds.
OUTPUT_PROFILES = {
    "full": Outputs(),
    "lean": Outputs(marketplaces=False, ai_catalog=False, feeds=False),
}


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
    templates: Path = TEMPLATES
    static: Path = STATIC
    schema: Path = SCHEMA
    progress: bool = False
    clean: bool = False  # ignore the incremental build state and rebuild everything
    jobs: int | None = None  # worker processes; None = one per core
    # The key that signs every skill and index (registry/signing.py); None: the site is unsigned. Its repr is
    # the key's id alone, so the build's fingerprint changes with the key and never holds it.
    signing: SigningKey | None = None

    @property
    def site_url(self) -> str:
        return self.base_url if self.base_url.endswith("/") else self.base_url + "/"


DEFAULT_SOURCE = BUNDLED_SKILLS
DEFAULT_OUT = Path("public")


def search_cache(out: Path) -> Path:
    """Build state that must outlive one build's output folder: the state file, the Whoosh index, the spare site."""
    out = out.absolute()
    return out.parent / f".{out.name}.cache"

"""What every emitter is handed, and what it must provide: the contexts, the emitter protocol, the cards.

Emitters import these from here, and registry/emit/registry.py lists the emitters: every import in the
package points down, from the list to the emitters to this module (tests/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from registry.emit.urls import FileHomes, SiteUrls
from registry.emit.writer import SiteWriter

if TYPE_CHECKING:
    from registry.config import BuildOptions
    from registry.emit.output import SiteOutput
    from registry.history import RepositoryInfo, SkillHistory
    from registry.lifecycle import Lifecycle
    from registry.model import Skill
    from registry.score import Assessment
    from registry.state import BuildState

PLURALS = {"category": "categories", "publisher": "publishers", "tag": "tags"}


@dataclass(frozen=True)
class Card:
    """What a listing shows of a skill."""

    id: str
    name: str
    description: str
    publisher: str
    version: str | None
    license: str | None
    category: str | None
    tags: tuple[str, ...]
    dialects: tuple[str, ...]
    url: str  # relative to the site root
    first_published: str | None
    last_updated: str | None
    warnings: int
    errors: int  # spec violations of a published skill: clients load it, strict validators reject it
    tier: str
    trust_score: int
    risk: str
    category_inferred: bool
    version_valid: bool
    # Estimated context cost (registry/score/context_cost.py): name and description, body, references.
    description_tokens: int
    body_tokens: int
    reference_tokens: int


@dataclass(frozen=True)
class SiteInfo:
    title: str
    url: str
    skill_count: int
    publisher_count: int
    commit: str | None
    shallow: bool


@dataclass
class Listing:
    """A page that lists skills: a category, a publisher, a tag."""

    kind: str  # "category", "publisher", "tag"
    key: str
    cards: list[Card] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"{PLURALS[self.kind]}/{self.key}/index.html"


@dataclass(frozen=True)
class SkillContext:
    """One published skill as every per-skill hook sees it (its document read, its files' bytes loaded)."""

    skill: Skill
    contents: Mapping[str, bytes]
    card: Card
    discovery_name: str | None
    homes: FileHomes  # where each of its files is served, once (pages, index.json and the writers ask it)
    history: SkillHistory | None
    assessment: Assessment
    lifecycle: Lifecycle
    executables: frozenset[str]
    templates: Path
    site: SiteInfo  # the build's site, without counts (they would re-render every page when one skill is added)
    urls: SiteUrls


@dataclass(frozen=True)
class SiteContext:
    """The whole registry as every site-wide hook sees it: the skills that rendered, in id order."""

    options: BuildOptions
    title: str
    urls: SiteUrls
    site: SiteInfo
    published: list[Skill]
    cards: dict[str, Card]
    listings: dict[str, list[Listing]]  # category, publisher and tag pages (HTML and the sitemap list them)
    repository: RepositoryInfo
    lifecycle: Lifecycle
    state: BuildState
    cache: Path  # the build cache beside the site (.<out>.cache)
    code: str  # the code fingerprint: files an emitter carries over from the last build must be made by this code


class Emitter(Protocol):
    name: str  # unique; the key of what `site` returns
    stage: str  # the timing its site-wide hook counts towards (report's timings_seconds)

    def skill(self, context: SkillContext, writer: SiteWriter) -> Any: ...

    def site(self, context: SiteContext, writer: SiteOutput, results: Sequence[Any]) -> Any: ...

"""Every output of a build, listed once: the emitter protocol and the tuple of emitters.

An emitter has two hooks, as MkDocs' events, Lektor's build programs and Datasette's plugin hooks do:

- `skill(context, writer)` runs once per published skill, in a worker process (render_jobs.render_skill).
  It writes that skill's files and returns what its site-wide hook needs of the skill: a small,
  picklable value, cached with the skill's render (registry/pipeline.py) and never recomputed for
  a skill that did not change.
- `site(context, writer, results)` runs once, in the build process, after every skill is rendered.
  `results` holds each published skill's value from `skill`, in the order of `context.published`;
  it reads them back one at a time from a spool file, so a registry of any size fits in memory.
  What it returns is kept by name (the search emitter returns its SearchStats).

Adding an output is one class and one entry in EMITTERS. An emitter's repr is part of the render
cache key (make it a dataclass): a different set of emitters renders every skill again. The order
of EMITTERS is the order the hooks run in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from registry.emit.ai_catalog import AiCatalog
from registry.emit.feeds import Feeds
from registry.emit.files import SkillFiles
from registry.emit.html import HtmlPages
from registry.emit.index_json import IndexJson
from registry.emit.marketplaces import Marketplaces
from registry.emit.search import SiteSearch
from registry.emit.sitemap import Sitemap
from registry.emit.stats import StatsPage
from registry.emit.urls import FileHomes, SiteUrls
from registry.emit.well_known import WellKnown
from registry.emit.writer import SiteWriter

if TYPE_CHECKING:
    from registry.config import BuildOptions
    from registry.emit.html import Card, Listing, SiteInfo
    from registry.history import RepositoryInfo, SkillHistory
    from registry.lifecycle import Lifecycle
    from registry.model import Skill
    from registry.output import SiteOutput
    from registry.score import Assessment
    from registry.state import BuildState


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


EMITTERS: tuple[Emitter, ...] = (
    SkillFiles(), WellKnown(), HtmlPages(), IndexJson(), Feeds(), Sitemap(), StatsPage(), AiCatalog(), SiteSearch(),
    Marketplaces(),
)  # fmt: skip

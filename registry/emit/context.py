"""What every emitter is handed, and what it must provide: the contexts, the emitter protocol, the cards.

Emitters import these from here, and registry/emit/registry.py lists the emitters: every import in the
package points down, from the list to the emitters to this module (tests/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from registry.config import Outputs
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
    signing_key: str | None = None  # the id of the key that signs every skill (registry/signing.py); None: unsigned
    # The optional outputs written (registry.yaml `outputs:`): pages link only those.
    outputs: Outputs = field(default_factory=Outputs)


# Cards on one listing page. The largest card the build can make (a name, version and description of
# characters that escape to five bytes each, at the lengths a card shows them, a long address, every badge and
# dialect) is 3.5 KB; the page around the cards (header, filter form with 40 categories, sort and page links, a
# publisher's chart) about 25 KB: 60 such cards make a page of 232 KB, under the 250 KB every page must keep to
# whatever the registry's size (tests/emit/test_pagination.py renders it). The corpus's cards average 0.9 KB
# (1.2 KB at most), so a real page weighs about 60 KB and loads at once.
PAGE_SIZE = 60


@dataclass(frozen=True)
class Sort:
    """One order of a listing's cards, each with its own static pages: `<listing>/` for the default order
    (by address), `<listing>/<slug>/` for the others, and `page/<n>/` below either from the second page on.
    Ties go by address, so every order is total and the pages the same on every build."""

    slug: str  # "" for the default order; the others are the browse page's former ?sort= values
    label: str  # the sort link
    phrase: str  # how the page says its order: "sorted by …"
    key: Callable[[Card], Any]
    reverse: bool = False

    def order(self, cards: Sequence[Card]) -> list[Card]:
        return sorted(cards, key=self.key, reverse=self.reverse)


SORTS: tuple[Sort, ...] = (
    Sort("", "Address", "by address (publisher/name)", lambda c: c.id),
    Sort("name", "Name", "by name", lambda c: (c.name.casefold(), c.name, c.id)),
    # As the home page's newest: by first publication, then by address, both descending; undated skills last.
    Sort("newest", "Newest", "newest first", lambda c: (c.first_published or "", c.id), reverse=True),
    # One token order, the one a person choosing between skills asks for: each order is a whole set of pages, and
    # every one more adds as many pages again (the former highest-first and per-session orders doubled the output).
    Sort("body-tokens-asc", "Context cost when used, lowest", "by context cost when used, lowest first (estimated)",
         lambda c: (c.body_tokens, c.id)),
)  # fmt: skip


PUBLISHERS_PER_PAGE = 300  # the index of publishers (browse/publishers/): 300 of the longest names fit in 200 KB


def publisher_index_file(number: int) -> str:
    """Page `number` (from 1) of the index of every publisher: under browse/, where no folder is a slug."""
    return f"browse/publishers/{f'page/{number}/' if number > 1 else ''}index.html"


def publisher_index_pages(publishers: int) -> list[tuple[str, slice]]:
    """The index's pages for `publishers` publishers: each page's file and its slice of them (by name)."""
    count = max(1, -(-publishers // PUBLISHERS_PER_PAGE))
    size = PUBLISHERS_PER_PAGE
    return [(publisher_index_file(n), slice((n - 1) * size, n * size)) for n in range(1, count + 1)]


@dataclass
class Listing:
    """A list of skills shown page by page: every skill (browse), a category, a publisher, a tag."""

    kind: str  # "all" (the browse pages), "category", "publisher", "tag"
    key: str  # "" for "all"
    cards: list[Card] = field(default_factory=list)  # by address

    @property
    def folder(self) -> str:
        return "browse/" if self.kind == "all" else f"{PLURALS[self.kind]}/{self.key}/"

    @property
    def path(self) -> str:
        """The first page in the default order: the listing's address."""
        return self.folder + "index.html"

    @property
    def sorts(self) -> tuple[Sort, ...]:
        """The orders the listing offers: none but the default for one skill, no "newest" without dates."""
        if len(self.cards) < 2:
            return SORTS[:1]
        dated = any(card.first_published for card in self.cards)
        return tuple(sort for sort in SORTS if sort.slug != "newest" or dated)

    @property
    def page_count(self) -> int:
        return max(1, -(-len(self.cards) // PAGE_SIZE))

    def page_slice(self, number: int) -> slice:
        """Where page `number` (from 1) is in the listing's cards, in any order."""
        return slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE)

    def page_file(self, sort: Sort, number: int) -> str:
        """The file of page `number` (from 1) of the listing in `sort`, relative to the site root."""
        order = f"{sort.slug}/" if sort.slug else ""
        return f"{self.folder}{order}{f'page/{number}/' if number > 1 else ''}index.html"

    def page_files(self) -> list[str]:
        """Every page of the listing, in every order (the sitemap lists them)."""
        return [self.page_file(sort, number) for sort in self.sorts for number in range(1, self.page_count + 1)]


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

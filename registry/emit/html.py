"""The website: home, browse, one page per skill, listing pages, 404.

Templates get plain view objects built here; every string from a skill reaches them unescaped
and Jinja's autoescape escapes it. The only markup passed through is the body, already
rendered and sanitised by emit/markdown.py.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import urlsplit

import jinja2
from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket
from jinja2.ext import Extension
from markupsafe import Markup
from pygments.formatters import HtmlFormatter

from registry.config import search_cache
from registry.discovery import DISCOVERY_NOTE_CODES
from registry.emit import capabilities, charts, markdown, well_known
from registry.emit import verdict as verdicts
from registry.emit.context import (
    SORTS,
    Card,
    Listing,
    SiteInfo,
    Sort,
    publisher_index_pages,
)
from registry.emit.highlight import HighlightCache
from registry.emit.page_cache import PageCache
from registry.emit.urls import FileHomes, SiteUrls
from registry.emit.writer import SiteWriter
from registry.history import RepositoryInfo, SkillHistory, distinct_versions
from registry.lifecycle import Lifecycle, redirects_file
from registry.model import Severity, Skill
from registry.score import Assessment
from registry.text import slug

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

NEWEST_ON_HOME = 8
HOME_PUBLISHERS = 30  # the largest, by name, on the home page; browse/publishers/ lists them all
PAGE_LINKS_AROUND = 2  # numbered links either side of the current page; the first and last are always linked
LISTING_TITLES = {"all": "Browse all skills", "category": "Category", "publisher": "Publisher", "tag": "Tag"}
# Where a listing page's card links start: a card is rendered once, at this mark, and each page puts its own
# path to the site root in. Nothing else in a card can read "<root>": autoescape writes every "<" of a skill's
# text as "&lt;".
ROOT_MARK = Markup("<root>")
HELP_PAGE = "help/index.html"  # how to read a skill page: the explanations every skill page links instead of repeating
HIGHLIGHT_FILE = "highlight.sqlite"  # in the build cache: highlighted code blocks (registry/emit/highlight.py)


@dataclass(frozen=True)
class FileView:
    path: str
    size: int
    size_text: str
    digest: str
    url: str


@dataclass(frozen=True)
class SortLink:
    slug: str
    label: str
    url: str
    current: bool


@dataclass(frozen=True)
class PageLink:
    number: int | None  # None: the gap between the numbers shown
    url: str
    current: bool


@dataclass(frozen=True)
class Pagination:
    """Where a page is among its pages: the page links (templates/partials/page_links.html) and rel=prev/next."""

    number: int  # from 1
    count: int
    pages: list[PageLink]
    prev_url: str | None
    next_url: str | None
    first: int  # the first item's position, from 1 (0 when there is none)
    last: int
    total: int

    @classmethod
    def of(cls, number: int, count: int, url: Callable[[int], str], where: slice, total: int) -> Pagination:
        """Page `number` of `count`; `url(n)` leads to page n, `where` is this page's slice of the `total` items."""
        last = min(where.stop, total)
        return cls(
            number=number,
            count=count,
            pages=[PageLink(n, url(n) if n else "", n == number) for n in page_numbers(number, count)],
            prev_url=url(number - 1) if number > 1 else None,
            next_url=url(number + 1) if number < count else None,
            first=where.start + 1 if last > where.start else 0,
            last=max(last, where.start),
            total=total,
        )


@dataclass(frozen=True)
class ListingPage:
    """One page of a listing in one order: what the browse and listing templates show around the cards."""

    sort: Sort
    nav: Pagination
    cards: list[Markup]
    sorts: list[SortLink]


@dataclass(frozen=True)
class PublisherEntry:
    key: str
    url: str
    skills: int


def page_numbers(number: int, count: int) -> list[int | None]:
    """The page links shown on page `number` of `count`: the first, the last, and PAGE_LINKS_AROUND either side
    of the current page; None where numbers are left out."""
    shown = sorted({1, count, *range(max(1, number - PAGE_LINKS_AROUND), min(count, number + PAGE_LINKS_AROUND) + 1)})
    numbers: list[int | None] = []
    for value in shown:
        if numbers and value - (numbers[-1] or 0) == 2:
            numbers.append(value - 1)  # a gap of one page is shown as that page, not as "…"
        elif numbers and value - (numbers[-1] or 0) > 2:
            numbers.append(None)
        numbers.append(value)
    return numbers


@dataclass(frozen=True)
class InstallView:
    site_url: str
    discovery_name: str | None
    archive: bool
    archive_url: str
    skill_md_url: str


def size_text(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def short_date(value: str | None) -> str:
    return value[:10] if value else ""


def safe_url(value: str | None) -> str:
    """Only absolute http(s) URLs from skill content become links; anything else links nowhere."""
    if not value:
        return "#"
    parts = urlsplit(value.strip())
    return value.strip() if parts.scheme in ("http", "https") and parts.netloc else "#"


_ENVIRONMENT_OPTIONS = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}
_INDENT = re.compile(r"^[ \t]+", re.M)


class Unindent(Extension):
    """Every template line loses its leading spaces and tabs before it is compiled: the indentation helps whoever
    edits a template, not whoever downloads the page (some 750 bytes of an average skill page, each listing card's
    share). Only the templates' own text changes: a skill's text and its rendered body reach the page as they are,
    and no template holds a `<pre>` or `<textarea>` whose text spans lines."""

    revision = 1  # names the compiled templates' folder (_bytecode_folder): change it when preprocess changes

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return _INDENT.sub("", source)


def make_environment(templates: Path, cache: Path | None = None) -> Environment:
    """The templates' environment; with `cache` (a build cache folder) compiled templates are kept there, so a
    process (a worker, a one-skill rebuild) loads each template's code instead of parsing and compiling it."""
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        bytecode_cache=CompiledTemplates(str(_bytecode_folder(cache))) if cache is not None else None,
        extensions=[Unindent],
        **_ENVIRONMENT_OPTIONS,
    )
    env.filters["short_date"] = short_date
    env.filters["filesize"] = size_text
    env.filters["safe_url"] = safe_url
    return env


class CompiledTemplates(FileSystemBytecodeCache):
    """Jinja's file cache of compiled templates, which never fails a build: a folder deleted under a running process
    (a `--clean` build empties the cache folder; `serve` keeps its renderer) is made again, and a write that fails
    leaves the template compiled in memory only."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_folder(cache: Path) -> Path:
    # Jinja keys compiled code by the template's name and source only: the options and extensions that shape the
    # code and Jinja's version name the folder, so a change of any never loads code compiled under another.
    shape = repr((jinja2.__version__, sorted(_ENVIRONMENT_OPTIONS.items()), Unindent.revision))
    shape = hashlib.sha256(shape.encode()).hexdigest()
    folder = cache / f"templates-{shape[:16]}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def make_card(skill: Skill, repository: RepositoryInfo, assessment: Assessment) -> Card:
    history = repository.histories.get(skill.location.rel_folder)
    return Card(
        id=skill.id,
        name=skill.display_name,
        description=skill.description or "",
        publisher=skill.publisher,
        version=skill.version,
        license=skill.license,
        category=skill.category,
        tags=tuple(skill.tags),
        dialects=tuple(skill.dialects),
        url=SiteUrls.skill_page(skill.id),
        first_published=history.first_published if history else None,
        last_updated=history.last_updated if history else None,
        warnings=sum(1 for f in skill.findings if f.severity is Severity.WARNING),
        errors=len(skill.errors),
        tier=assessment.trust.tier,
        trust_score=assessment.trust.score,
        risk=skill.risk_level,
        category_inferred=skill.category_inferred,
        version_valid=assessment.version_valid,
        description_tokens=assessment.context.description_tokens if assessment.context else 0,
        body_tokens=assessment.context.body_tokens if assessment.context else 0,
        reference_tokens=assessment.context.reference_tokens if assessment.context else 0,
    )


def pygments_css() -> str:
    light = HtmlFormatter(style="default").get_style_defs(".prose pre")
    dark = HtmlFormatter(style="monokai").get_style_defs(":root[data-theme='dark'] .prose pre")
    dark_auto = HtmlFormatter(style="monokai").get_style_defs(":root:not([data-theme='light']) .prose pre")
    return (
        "/* Generated from Pygments styles at build time. */\n"
        f"{light}\n{dark}\n@media (prefers-color-scheme: dark) {{\n{dark_auto}\n}}\n"
    )


class HtmlEmitter:
    def __init__(self, writer: SiteWriter, templates: Path, urls: SiteUrls, site: SiteInfo, cache: Path | None = None):
        self.writer = writer
        self.env = make_environment(templates, cache)
        self.urls = urls
        self.site = site
        self.md = markdown.make_renderer(HighlightCache(cache / HIGHLIGHT_FILE if cache is not None else None))
        self._cards: dict[str, list[str]] = {}  # card_html's cards, split at ROOT_MARK
        self._card_keys: dict[str, str] = {}  # each card as its listing pages' keys read it
        self.page_cache: PageCache | None = None  # the site-wide pages of a build with state (emit/page_cache.py)

    def _render(self, template: str, page_file: str, root: str | None = None, **context) -> None:
        html = self.env.get_template(template).render(
            site=self.site,
            root=SiteUrls.root_from(page_file) if root is None else root,
            canonical=self.urls.absolute(page_file.removesuffix("index.html")),
            **context,
        )
        self.writer.write_text(page_file, html)

    def skill_page(
        self,
        skill: Skill,
        card: Card,
        homes: FileHomes,
        history: SkillHistory | None,
        archive: bool,
        assessment: Assessment,
        lifecycle: Lifecycle,
    ) -> None:
        page_file = SiteUrls.skill_page_file(skill.id)
        root = SiteUrls.root_from(page_file)
        links = markdown.LinkContext(root, homes)
        body_html = Markup(markdown.render(self.md, skill.document.body, links))
        files = [
            FileView(f.path, f.size, size_text(f.size), f.digest, root + homes.url(f.path))
            for f in skill.location.files
        ]
        install = InstallView(
            site_url=self.site.url,
            discovery_name=homes.discovery_name,
            archive=archive,
            archive_url=self.urls.absolute(f".well-known/agent-skills/{homes.discovery_name}.tar.gz"),
            skill_md_url=self.urls.absolute(homes.url("SKILL.md")),
        )
        paths = capabilities.Paths(homes, skill.location.rel_folder, root)
        risk_codes = {f.code for f in assessment.risk.findings}
        findings = sorted(
            (f for f in skill.findings if f.code not in risk_codes), key=lambda f: (f.severity.rank, f.sort_key())
        )
        yanked = lifecycle.yanked.get(skill.id, {})
        versions = [
            (
                version, revision,
                any(r.version == version and r.digest != revision.digest for r in assessment.revisions),
                yanked.get(version),
            )
            for version, revision in distinct_versions(assessment.revisions)
        ]  # fmt: skip
        deprecation = lifecycle.deprecated.get(skill.id)
        discovery_notes = sorted(
            (f for f in skill.findings if f.code in DISCOVERY_NOTE_CODES), key=lambda f: f.sort_key()
        )
        self._render(
            "skill.html",
            page_file,
            skill=skill,
            card=card,
            body_html=body_html,
            files=files,
            install=install,
            history=history,
            findings=findings,
            assessment=assessment,
            risk_findings=sorted(assessment.risk.findings, key=lambda f: f.sort_key()),
            risk_groups=capabilities.risk_groups(assessment.risk.findings, paths),
            capabilities=capabilities.card_view(assessment.risk.card, paths),
            verdict=verdicts.page_view(verdicts.build(assessment.risk), skill.location.rel_folder),
            versions=list(reversed(versions)),
            deprecation=deprecation,
            error_codes=sorted({f.code for f in skill.errors}),
            discovery_notes=[f.message for f in discovery_notes],
            current_yanked=yanked.get(skill.version or ""),
            raw_url=root + homes.url("SKILL.md"),
            page_title=card.name,
            page_description=card.description,
        )

    def home(self, cards: list[Card], listings: dict[str, list[Listing]]) -> None:
        newest = sorted((c for c in cards if c.first_published), key=lambda c: (c.first_published, c.id), reverse=True)
        updated = sorted(
            (c for c in cards if c.last_updated and c.last_updated != c.first_published),
            key=lambda c: (c.last_updated, c.id),
            reverse=True,
        )
        dialects = Counter(d for c in cards for d in c.dialects)
        self._render(
            "home.html",
            "index.html",
            newest=newest[:NEWEST_ON_HOME],
            updated=updated[:NEWEST_ON_HOME],
            featured=[] if newest else cards[:NEWEST_ON_HOME],
            categories=listings["category"],
            publishers=sorted(
                sorted(listings["publisher"], key=lambda p: (-len(p.cards), p.key))[:HOME_PUBLISHERS],
                key=lambda p: p.key,
            ),
            publisher_count=len(listings["publisher"]),
            dialects=sorted(dialects.items(), key=lambda item: (-item[1], item[0])),
            charts=charts.chart_set(cards, has_history=self.site.commit is not None).home,
            page_title=self.site.title,
            page_description=f"{self.site.skill_count} agent skills, validated and ready to install.",
        )

    def card_html(self, card: Card, root: str) -> Markup:
        """A listing's card: rendered once per build, then given each page's path to the site root."""
        parts = self._cards.get(card.id)
        if parts is None:
            html = self.env.get_template("partials/card.html").render(card=card, root=ROOT_MARK, card_heading_level=2)
            parts = self._cards[card.id] = html.split(ROOT_MARK)
        return Markup(root.join(parts))

    def listing_pages(self, listing: Listing, **context) -> None:
        """Every page of a listing in every order it offers; `context` goes to each page's template.

        With a page cache, a page whose key (everything its template reads) is the last build's is kept as it
        was: its cards are not even rendered."""
        template = "browse.html" if listing.kind == "all" else "listing.html"
        heading = LISTING_TITLES[listing.kind] + ("" if listing.kind == "all" else f": {listing.key}")
        chart = (
            charts.publisher_growth(listing.key, listing.cards, has_history=self.site.commit is not None)
            if listing.kind == "publisher"
            else None
        )
        pages = []
        for sort in listing.sorts:
            ordered = sort.order(listing.cards)
            for number in range(1, listing.page_count + 1):
                page_file = listing.page_file(sort, number)
                root = SiteUrls.root_from(page_file)
                nav, sorts = self._listing_nav(listing, sort, len(ordered), number, root)
                title = heading + ("" if sort is SORTS[0] else f", {sort.phrase}")
                shown = {
                    "heading": heading,
                    "chart": chart if number == 1 else None,  # on the first page of each order
                    "page_title": title + (f", page {number} of {nav.count}" if number > 1 else ""),
                    "page_description": (
                        f"Skills {nav.first} to {nav.last} of {nav.total}"
                        if number > 1
                        else f"All {nav.total} skills in {self.site.title}."
                        if listing.kind == "all"
                        else f"{nav.total} skills"
                    ),
                }
                cards = ordered[listing.page_slice(number)]
                pages.append((page_file, root, sort, nav, sorts, shown, cards))
        cache = self.page_cache
        keys: list[str] = []
        if cache is not None:
            # Of the commit, listing pages read only whether there is one: a new commit alone renders none again.
            site = dataclasses.replace(self.site, commit="git" if self.site.commit else None)
            around = (repr(site), self.urls.base_url, template, listing.kind, listing.key, _plain_context(context))
            keys = [
                cache.key(around, page_file, sort.slug, repr((nav, sorts, shown)), " ".join(map(self._card_key, cards)))
                for page_file, _, sort, nav, sorts, shown, cards in pages
            ]
            known = cache.known(keys)
        for index, (page_file, root, sort, nav, sorts, shown, cards) in enumerate(pages):
            if cache is not None and cache.keep(keys[index], page_file, known.get(keys[index])):
                continue
            page = ListingPage(sort=sort, nav=nav, cards=[self.card_html(card, root) for card in cards], sorts=sorts)
            self._render(template, page_file, root=root, listing=listing, page=page, nav=nav, **shown, **context)
            if cache is not None:
                cache.record(keys[index], page_file)

    def _listing_nav(
        self, listing: Listing, sort: Sort, total: int, number: int, root: str
    ) -> tuple[Pagination, list[SortLink]]:
        def url(sort: Sort, number: int) -> str:
            return root + listing.page_file(sort, number).removesuffix("index.html")

        nav = Pagination.of(number, listing.page_count, lambda n: url(sort, n), listing.page_slice(number), total)
        return nav, [SortLink(s.slug, s.label, url(s, 1), s is sort) for s in listing.sorts]

    def _card_key(self, card: Card) -> str:
        """A digest of the card: a listing page's key holds sixty of them, a few thousand pages reuse each."""
        key = self._card_keys.get(card.id)
        if key is None:
            digest = hashlib.blake2b(repr(card).encode("utf-8", "surrogateescape"), digest_size=16)
            key = self._card_keys[card.id] = digest.hexdigest()
        return key

    def publisher_index(self, publishers: list[Listing]) -> None:
        """Every publisher by name, PUBLISHERS_PER_PAGE a page (the home page shows the largest)."""
        pages = publisher_index_pages(len(publishers))
        for number, (page_file, where) in enumerate(pages, start=1):
            root = SiteUrls.root_from(page_file)

            def url(n: int, root: str = root) -> str:
                return root + pages[n - 1][0].removesuffix("index.html")

            nav = Pagination.of(number, len(pages), url, where, len(publishers))
            self._render(
                "publishers.html",
                page_file,
                nav=nav,
                publishers=[
                    PublisherEntry(p.key, root + p.path.removesuffix("index.html"), len(p.cards))
                    for p in publishers[where]
                ],
                page_title="Publishers" + (f", page {number} of {nav.count}" if number > 1 else ""),
                page_description=f"The {len(publishers)} publishers of {self.site.title}, by name.",
            )

    def browse(self, cards: list[Card], listings: dict[str, list[Listing]]) -> None:
        self.listing_pages(
            Listing("all", "", cards),
            categories=listings["category"],
            dialect_names=sorted({d for c in cards for d in c.dialects}),
        )

    def listing(self, listing: Listing) -> None:
        self.listing_pages(listing)

    def redirect_page(self, old_id: str, new_id: str) -> None:
        """The old address of a renamed skill, for hosts without redirect rules (Netlify uses _redirects)."""
        page_file = SiteUrls.skill_page_file(old_id)
        root = SiteUrls.root_from(page_file)
        self._render(
            "moved.html", page_file, old_id=old_id, new_id=new_id, target=root + SiteUrls.skill_page(new_id),
            canonical_target=self.urls.absolute(SiteUrls.skill_page(new_id)),
            page_title=f"{old_id} moved", page_description=f"This skill is now {new_id}.",
        )  # fmt: skip

    def tombstone(self, skill_id: str, reason: str) -> None:
        self._render(
            "withdrawn.html", SiteUrls.skill_page_file(skill_id), skill_id=skill_id, reason=reason,
            page_title=f"{skill_id} withdrawn", page_description=f"Withdrawn: {reason}",
        )  # fmt: skip

    def search_page(self, categories: list[str], dialects: list[str]) -> None:
        # The choices come from the build; the search shards' filters/<field>.json hold which skills match each.
        self._render(
            "search.html",
            "search/index.html",
            categories=categories,
            dialects=dialects,
            page_title="Search",
            page_description=f"Search {self.site.skill_count} agent skills.",
        )

    def help_page(self) -> None:
        """What every skill page would otherwise repeat (templates/help.html): each page links the section it needs."""
        self._render(
            "help.html",
            HELP_PAGE,
            page_title="Reading a skill page",
            page_description="What each part of a skill's page says, and how the registry worked it out.",
        )

    def not_found(self) -> None:
        base_path = urlsplit(self.urls.base_url).path or "/"
        self._render(
            "404.html",
            "404.html",
            root=base_path,
            page_title="Page not found",
            page_description="",
        )


def build_listings(skills: list[Skill], cards: dict[str, Card]) -> dict[str, list[Listing]]:
    by_kind: dict[str, dict[str, Listing]] = {"category": {}, "publisher": {}, "tag": {}}
    for skill in skills:
        card = cards[skill.id]
        keys = {
            "category": [skill.category] if skill.category else [],
            "publisher": [skill.publisher],
            "tag": list(dict.fromkeys(skill.tags)),
        }
        for kind, values in keys.items():
            for value in values:
                slug = listing_slug(value)
                if slug:
                    by_kind[kind].setdefault(slug, Listing(kind, slug)).cards.append(card)
    return {kind: [listings[key] for key in sorted(listings)] for kind, listings in by_kind.items()}


def _plain_context(context: dict[str, object]) -> str:
    """A listing template's extra context as its page keys read it: of a list of listings (the browse page's
    categories), what the page shows of each: its name, address and count."""
    plain = {}
    for name, value in sorted(context.items()):
        if isinstance(value, list) and value and all(isinstance(item, Listing) for item in value):
            plain[name] = [(item.key, item.path, len(item.cards)) for item in value]
        else:
            plain[name] = repr(value)
    return repr(plain)


def listing_slug(value: str) -> str:
    return slug(value) if value else ""


@functools.lru_cache(maxsize=4)
def _page_renderer(templates: Path, site_url: str, site: SiteInfo, cache: Path | None) -> HtmlEmitter:
    # One Jinja environment and Markdown renderer per process, reused for every page it renders;
    # each skill hands it its own writer.
    return HtmlEmitter(_NOWHERE, templates, SiteUrls(site_url), site, cache)


_cache_folder: Path | None = None


def use_cache(folder: Path | None) -> None:
    """Where this process keeps compiled templates and highlighted code for skill pages (the build cache folder;
    None: memory only). Set by registry/render_jobs.py in each process before it renders."""
    global _cache_folder
    _cache_folder = folder


class _Nowhere(SiteWriter):
    def write_bytes(self, relative: str, data: bytes) -> None:
        raise RuntimeError(f"a cached page renderer wrote {relative} before it was given a writer")


_NOWHERE = _Nowhere()


@dataclass(frozen=True)
class HtmlPages:
    """Per skill its page; per site the home, search, help, 404, moved and withdrawn pages, every page of the browse
    and listing pages in every order (registry/emit/context.py Listing), _redirects and the static assets."""

    name: ClassVar[str] = "html"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> FileHomes:
        """Writes the skill's page; returns where its files live (`_redirects` reads it for rename targets)."""
        pages = _page_renderer(context.templates, context.urls.base_url, context.site, _cache_folder)
        pages.writer = writer
        homes = context.homes
        try:
            archive = context.discovery_name is not None and well_known.is_archive(context.skill, context.contents)
            pages.skill_page(
                context.skill, context.card, homes, context.history, archive, context.assessment, context.lifecycle,
            )  # fmt: skip
        finally:
            pages.writer = _NOWHERE
        return homes

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[FileHomes]) -> None:
        pages = HtmlEmitter(
            writer, context.options.templates, context.urls, context.site, search_cache(context.options.out)
        )
        pages.page_cache = PageCache(context.state, context.code, writer)
        cards = [context.cards[s.id] for s in context.published]
        listings = context.listings
        pages.home(cards, listings)
        pages.browse(cards, listings)
        for kind_listings in listings.values():
            for listing in kind_listings:
                pages.listing(listing)
        pages.page_cache.finish()
        pages.publisher_index(listings["publisher"])
        pages.help_page()
        pages.not_found()
        for old, new in sorted(context.lifecycle.renamed.items()):
            pages.redirect_page(old, new)
        for skill_id, reason in sorted(context.lifecycle.withdrawn.items()):
            pages.tombstone(skill_id, reason)
        position = {skill.id: number for number, skill in enumerate(context.published)}
        # Only the rename targets' homes are read back from the spool, one each, whatever the registry's size;
        # a target that is not published has no files, and its old raw/ URLs lead to its raw/ folder.
        targets = {
            new: results[position[new]] if new in position else FileHomes.of(new, None, ())
            for new in context.lifecycle.renamed.values()
        }
        writer.write_text("_redirects", redirects_file(context.lifecycle, targets))
        pages.search_page(
            [listing.key for listing in listings["category"]], sorted({d for card in cards for d in card.dialects})
        )
        for asset in sorted(context.options.static.iterdir()):
            if asset.is_file() and not asset.is_symlink():
                data = asset.read_bytes()
                if asset.name == "style.css":
                    data += b"\n" + pygments_css().encode("utf-8")
                writer.write_bytes(f"static/{asset.name}", data)

"""sitemap.xml (absolute URLs from --base-url, dates from git when known) and robots.txt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from xml.sax.saxutils import escape

from registry.emit.context import Listing, publisher_index_pages
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext


# The sitemaps.org protocol's limits for one file: 50,000 URLs and 50 MB uncompressed. A larger site is
# listed in numbered sitemaps under sitemaps/, and sitemap.xml becomes their index (robots.txt names it).
MAX_URLS = 50_000
MAX_BYTES = 50 * 1000 * 1000
_URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'


def emit(
    writer: SiteWriter, urls: SiteUrls, pages: list[tuple[str, str | None]], max_urls: int = MAX_URLS,
    max_bytes: int = MAX_BYTES,
) -> None:  # fmt: skip
    """pages: (path relative to the site root, ISO date of last change or None)."""
    entries = [
        (
            f"  <url><loc>{escape(urls.absolute(path))}</loc>"
            + (f"<lastmod>{escape(lastmod[:10])}</lastmod>" if lastmod else "")
            + "</url>",
            lastmod[:10] if lastmod else None,
        )
        for path, lastmod in sorted(set(pages))
    ]
    files = _split(entries, max_urls, max_bytes - len(_urlset([])))
    if len(files) == 1:
        writer.write_text("sitemap.xml", _urlset([line for line, _ in files[0]]))
    else:
        index = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ]
        for number, part in enumerate(files, start=1):
            path = f"sitemaps/sitemap-{number}.xml"
            writer.write_text(path, _urlset([line for line, _ in part]))
            dates = [date for _, date in part if date]
            index.append(
                f"  <sitemap><loc>{escape(urls.absolute(path))}</loc>"
                + (f"<lastmod>{escape(max(dates))}</lastmod>" if dates else "")
                + "</sitemap>"
            )
        index.append("</sitemapindex>")
        writer.write_text("sitemap.xml", "\n".join(index) + "\n")
    writer.write_text(
        "robots.txt",
        "User-agent: *\nAllow: /\n\nSitemap: " + urls.absolute("sitemap.xml") + "\n",
    )


def _urlset(lines: list[str]) -> str:
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', _URLSET, *lines, "</urlset>"]) + "\n"


def _split(entries: list[tuple[str, str | None]], max_urls: int, max_bytes: int) -> list[list[tuple[str, str | None]]]:
    """The entries in order, cut into files of at most max_urls entries and max_bytes of entry lines."""
    files: list[list[tuple[str, str | None]]] = [[]]
    size = 0
    for entry in entries:
        grown = size + len(entry[0].encode("utf-8")) + 1
        if files[-1] and (len(files[-1]) >= max_urls or grown > max_bytes):
            files.append([])
            grown = len(entry[0].encode("utf-8")) + 1
        files[-1].append(entry)
        size = grown
    return files


@dataclass(frozen=True)
class Sitemap:
    """Every skill page (dated by git), every page of the browse and listing pages in every order, the home,
    stats and help pages."""

    name: ClassVar[str] = "sitemap"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> tuple[str, str | None]:
        return SiteUrls.skill_page(context.skill.id), context.card.last_updated

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[tuple[str, str | None]]) -> None:
        pages = list(results)
        browse = Listing("all", "", [context.cards[skill.id] for skill in context.published])
        listings = [browse, *(listing for kind_listings in context.listings.values() for listing in kind_listings)]
        # Every page of every listing in every order (registry/emit/html.py writes the same list).
        pages += [(page.removesuffix("index.html"), None) for listing in listings for page in listing.page_files()]
        pages += [
            (page.removesuffix("index.html"), None)
            for page, _ in publisher_index_pages(len(context.listings["publisher"]))
        ]
        emit(writer, context.urls, [*pages, ("", None), ("stats/", None), ("help/", None)])

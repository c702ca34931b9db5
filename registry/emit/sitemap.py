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


def emit(writer: SiteWriter, urls: SiteUrls, pages: list[tuple[str, str | None]]) -> None:
    """pages: (path relative to the site root, ISO date of last change or None)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for path, lastmod in sorted(set(pages)):
        lines.append(
            f"  <url><loc>{escape(urls.absolute(path))}</loc>"
            + (f"<lastmod>{escape(lastmod[:10])}</lastmod>" if lastmod else "")
            + "</url>"
        )
    lines.append("</urlset>")
    writer.write_text("sitemap.xml", "\n".join(lines) + "\n")
    writer.write_text(
        "robots.txt",
        "User-agent: *\nAllow: /\n\nSitemap: " + urls.absolute("sitemap.xml") + "\n",
    )


@dataclass(frozen=True)
class Sitemap:
    """Every skill page (dated by git), every page of the browse and listing pages in every order, the home and
    stats pages."""

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
        emit(writer, context.urls, [*pages, ("", None), ("stats/", None)])

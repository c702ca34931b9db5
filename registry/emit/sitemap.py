"""sitemap.xml (absolute URLs from --base-url, dates from git when known) and robots.txt."""

from __future__ import annotations

from xml.sax.saxutils import escape

from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter


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

"""Atom feeds of new and updated skills: the whole registry, each category, each publisher.

An entry is one skill at its latest content (its id carries the content digest, so an update is
a new entry for readers). Dates come from git; a registry built without history has feeds with
no entries rather than invented dates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from xml.sax.saxutils import escape, quoteattr

from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter
from registry.text import slug

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

FEED_LIMIT = 50
EPOCH = "1970-01-01T00:00:00Z"


@dataclass(frozen=True)
class FeedItem:
    id: str
    name: str
    description: str
    version: str | None
    publisher: str
    category: str | None
    first_published: str | None
    last_updated: str | None
    content_digest: str


def feed_path(kind: str, key: str) -> str:
    return "feeds/all.xml" if kind == "all" else f"feeds/{kind}/{key}.xml"


def _entry(item: FeedItem, urls: SiteUrls) -> str:
    page = urls.absolute(SiteUrls.skill_page(item.id))
    is_new = item.first_published == item.last_updated
    title = f"{'New' if is_new else 'Updated'}: {item.name}" + (f" {item.version}" if item.version else "")
    lines = [
        "  <entry>",
        f"    <id>{escape(page)}#{escape(item.content_digest)}</id>",
        f"    <title>{escape(title)}</title>",
        f'    <link rel="alternate" type="text/html" href={quoteattr(page)}/>',
        f"    <published>{escape(item.first_published or EPOCH)}</published>",
        f"    <updated>{escape(item.last_updated or EPOCH)}</updated>",
        f"    <author><name>{escape(item.publisher)}</name></author>",
    ]
    if item.category:
        lines.append(f"    <category term={quoteattr(item.category)}/>")
    lines += [f"    <summary>{escape(item.description)}</summary>", "  </entry>"]
    return "\n".join(lines)


def render_feed(title: str, path: str, page: str, items: Iterable[FeedItem], urls: SiteUrls) -> str:
    dated = sorted((i for i in items if i.last_updated), key=lambda i: (i.last_updated or "", i.id), reverse=True)[
        :FEED_LIMIT
    ]
    updated = dated[0].last_updated if dated else EPOCH
    head = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"  <id>{escape(urls.absolute(path))}</id>",
        f"  <title>{escape(title)}</title>",
        f"  <updated>{escape(updated)}</updated>",
        f'  <link rel="self" type="application/atom+xml" href={quoteattr(urls.absolute(path))}/>',
        f'  <link rel="alternate" type="text/html" href={quoteattr(urls.absolute(page))}/>',
        "  <generator>skill-registry</generator>",
    ]
    return "\n".join([*head, *(_entry(i, urls) for i in dated), "</feed>"]) + "\n"


def emit(writer: SiteWriter, urls: SiteUrls, title: str, items: list[FeedItem]) -> list[str]:
    """Write every feed; return their paths (for the sitemap of feeds in the page heads)."""
    written = []
    groups: dict[tuple[str, str], list[FeedItem]] = {("all", ""): items}
    for item in items:
        groups.setdefault(("publishers", slug(item.publisher)), []).append(item)
        if item.category:
            groups.setdefault(("categories", slug(item.category)), []).append(item)
    for (kind, key), members in sorted(groups.items()):
        path = feed_path(kind, key)
        page = "" if kind == "all" else f"{kind}/{key}/"
        label = title if kind == "all" else f"{title}: {key} ({kind[:-1]})"
        writer.write_text(path, render_feed(f"{label}: new and updated skills", path, page, members, urls))
        written.append(path)
    return written


@dataclass(frozen=True)
class Feeds:
    name: ClassVar[str] = "feeds"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> FeedItem:
        skill, card = context.skill, context.card
        return FeedItem(
            skill.id, skill.display_name, skill.description or "", skill.version, skill.publisher, skill.category,
            card.first_published, card.last_updated, skill.content_digest,
        )  # fmt: skip

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[FeedItem]) -> None:
        emit(writer, context.urls, context.title, list(results))

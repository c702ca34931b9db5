"""`/.well-known/ai-catalog.json`: every discoverable skill as an entry of an AI Catalog, the document the
Agentic Resource Discovery (ARD) draft's finders read.

Both specifications are drafts (AI Catalog specVersion 1.0; ARD v0.91, August 2026), and the document says
so in its `$comment`. ARD v0.91 renamed the well-known path to `/.well-known/ard.json` and keeps
`ai-catalog.json` as the predecessor a finder MAY read, so the same bytes are served at both paths.

An entry points at the artifact the v0.2 discovery index serves (emit/well_known.py): SKILL.md itself
(`application/agent-skills+md`) for a skill of one file, its `.tar.gz` otherwise
(`application/agent-skills+gzip`). Its `identifier` is `urn:air:<site host>:skill:<publisher>:<name>`.
The representative queries ARD asks for are taken from what the skill says about itself (its
description's sentences, its "use when" clauses, its triggers, its name), never made up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import quote, urlsplit

from registry.emit import well_known
from registry.emit.urls import V2_DIR, SiteUrls
from registry.emit.writer import SiteWriter

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

CATALOG_PATH = ".well-known/ai-catalog.json"
ARD_PATH = ".well-known/ard.json"
SPEC_VERSION = "1.0"
DRAFT_NOTE = (
    "Follows drafts: the AI Catalog (specVersion 1.0, application/ai-catalog+json) and the Agentic Resource "
    "Discovery (ARD) specification v0.91. Both may change; the discovery index at "
    "/.well-known/agent-skills/index.json is the stable way to install these skills."
)
SKILL_MD_TYPE = "application/agent-skills+md"
ARCHIVE_TYPE = "application/agent-skills+gzip"
MAX_QUERIES = 5  # ARD: 2 to 5 examples
MAX_QUERY_LENGTH = 200
USE_WHEN = re.compile(
    r"^(?:use|invoke|trigger|apply)\w*\s+(?:this\s+skill\s+|it\s+|this\s+)?(?:when|whenever|for|to|if)\s+(.+)$", re.I
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class CatalogItem:
    """What the catalog needs of one discoverable skill; URLs relative to the site root (the base URL and
    its host are the site's, applied once in the site-wide hook)."""

    skill_id: str
    display_name: str
    description: str
    artifact: str
    media_type: str
    queries: tuple[str, ...]
    tags: tuple[str, ...]
    version: str | None
    updated_at: str | None
    publisher: str
    category: str | None


def _clean(text: str) -> str:
    text = " ".join(text.split()).strip(" .;:,")
    if len(text) <= MAX_QUERY_LENGTH:
        return text
    return text[:MAX_QUERY_LENGTH].rsplit(" ", 1)[0]


def representative_queries(name: str, description: str, triggers: Sequence[str]) -> tuple[str, ...]:
    """Up to five phrases a user might ask that this skill serves, in order: the description's first
    sentence (what it does), its "use when ..." clauses, the skill's triggers, its name as words."""
    sentences = [s for s in SENTENCE_END.split(description.strip()) if s.strip()]
    found = sentences[:1]
    found += [match.group(1) for s in sentences if (match := USE_WHEN.match(s.strip()))]
    found += [t for t in triggers if t.strip() != "*"]
    found.append(re.sub(r"[-_]+", " ", name))
    queries: dict[str, str] = {}
    for phrase in found:
        cleaned = _clean(phrase)
        if cleaned:
            queries.setdefault(cleaned.casefold(), cleaned)
    return tuple(queries.values())[:MAX_QUERIES]


def identifier(host: str, skill_id: str) -> str:
    """`urn:air:<host>:skill:<publisher>:<name>`: the skill id's folders become the URN's colon-separated
    segments, each percent-encoded (so a segment never holds a `:` of its own)."""
    return f"urn:air:{host}:skill:" + ":".join(quote(part, safe="") for part in skill_id.split("/"))


def catalog_entry(item: CatalogItem, urls: SiteUrls, host: str) -> dict:
    entry: dict = {
        "identifier": identifier(host, item.skill_id),
        "displayName": item.display_name,
        "type": item.media_type,
        "url": urls.absolute(item.artifact),
        "description": item.description,
        "representativeQueries": list(item.queries),
    }
    if item.tags:
        entry["tags"] = list(item.tags)
    if item.version:
        entry["version"] = item.version
    if item.updated_at:
        entry["updatedAt"] = item.updated_at
    entry["extensions"] = {
        "page": urls.absolute(SiteUrls.skill_page(item.skill_id)),
        "agentSkillsIndex": urls.absolute(SiteUrls.skill_index_file(item.skill_id)),
        "publisher": item.publisher,
        **({"category": item.category} if item.category else {}),
    }
    return entry


def catalog(title: str, urls: SiteUrls, items: Sequence[CatalogItem]) -> dict:
    host = urlsplit(urls.base_url).hostname or "localhost"
    return {
        "$comment": DRAFT_NOTE,
        "specVersion": SPEC_VERSION,
        "host": {"displayName": title, "identifier": host, "documentationUrl": urls.base_url},
        "entries": [catalog_entry(item, urls, host) for item in items],
    }


@dataclass(frozen=True)
class AiCatalog:
    name: ClassVar[str] = "ai_catalog"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> CatalogItem | None:
        name = context.discovery_name
        if name is None:
            return None  # not in the discovery indexes: nothing for a finder to install
        skill, card = context.skill, context.card
        archive = well_known.is_archive(skill, context.contents)
        return CatalogItem(
            skill_id=skill.id,
            display_name=card.name,
            description=card.description,
            artifact=f"{V2_DIR}/{quote(name)}.tar.gz" if archive else f"{V2_DIR}/{quote(name)}/SKILL.md",
            media_type=ARCHIVE_TYPE if archive else SKILL_MD_TYPE,
            queries=representative_queries(card.name, card.description, skill.triggers),
            tags=card.tags,
            version=card.version,
            updated_at=card.last_updated,
            publisher=card.publisher,
            category=card.category,
        )

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[CatalogItem | None]) -> int:
        items = [item for item in results if item is not None]
        data = writer.write_json(CATALOG_PATH, catalog(context.title, context.urls, items))
        writer.write_bytes(ARD_PATH, data)
        return len(items)

"""Answering a query from a built site: engine.search over its search shards, which the build writes from the Whoosh
index's own postings (registry/emit/search.py).

`skill-registry search` runs in a fresh process for every query, so it reads only the files the query needs (the
manifest, a few vocabulary and postings files, the names and filters it uses, the records of its results) and
imports neither Whoosh nor numpy. `WhooshSource` reads the index itself: the tests hold the shards to it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import orjson

from registry.config import search_cache
from registry.search import engine, shards
from registry.search.engine import Record, Result

CANDIDATES = 300


@dataclass(frozen=True)
class Filters:
    category: str | None = None
    trust: str | None = None
    dialect: str | None = None
    risk: str | None = None

    def as_fields(self) -> dict[str, str]:
        """The engine's filter fields (the site's `search/filters/<field>.json`)."""
        named = {"category": self.category, "tier": self.trust, "dialect": self.dialect, "risk": self.risk}
        return {field: value for field, value in named.items() if value is not None}


class SiteSource(shards.ShardSource):
    """engine.Source over a built site's shards, with the whole descriptions the docs files shorten (from the build
    cache beside the site, when there is one: a site copied without it shows the shortened ones)."""

    def __init__(self, site: Path) -> None:
        super().__init__(site)
        self.descriptions = search_cache(site) / shards.DESCRIPTIONS

    def records(self, documents: Iterable[int]) -> Mapping[int, Record]:
        found = dict(super().records(documents))
        for document, record in found.items():
            if record.description.endswith("…"):
                chunk = self._read_description_chunk(document // shards.DOC_CHUNK)
                whole = chunk[document % shards.DOC_CHUNK] if chunk else None
                if whole and whole[0] == record.id:  # a cache left by another build of the site is not trusted
                    found[document] = dataclasses.replace(record, description=whole[1])
        return found

    def _read_description_chunk(self, number: int) -> list | None:
        path = shards.description_file(self.descriptions, number)
        try:
            chunk = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        return chunk if isinstance(chunk, list) and len(chunk) == shards.DOC_CHUNK else None


class WhooshSource:
    """engine.Source over the build's Whoosh index (the reference the shards are written from)."""

    def __init__(self, directory: Path) -> None:
        from whoosh import index

        from registry.search.index import IndexPostings, read_meta

        self.directory = directory
        self.searcher = index.open_dir(str(directory)).searcher()
        self.index_postings = IndexPostings(self.searcher)
        meta = read_meta(directory)
        self.live = meta["live"]
        self.size = meta["size"]
        self.squatters = frozenset(meta["squatters"])
        self.synonyms = meta.get("synonyms", [])
        self._vocabularies: dict[str, dict[str, int]] | None = None

    def vocabulary(self, prefix: str) -> Mapping[str, int]:
        if self._vocabularies is None:
            from registry.search.index import read_vocabulary
            from registry.search.terms import prefix2

            self._vocabularies = {}
            for word, (count, _) in read_vocabulary(self.directory).items():
                self._vocabularies.setdefault(prefix2(word), {})[word] = count
        return self._vocabularies.get(prefix, {})

    def postings(self, word: str) -> tuple[list[int], list[int]]:
        documents, weights = self.index_postings.postings(word)
        return documents.tolist(), weights.tolist()

    def _slots(self, field: str, value: str) -> list[int]:
        reader = self.searcher.reader()
        if not value or reader.doc_frequency(field, value) == 0:
            return []
        matcher = reader.postings(field, value)
        return [int(self.index_postings.slot_of[docnum]) for docnum in matcher.all_ids()]

    def exact(self, key: str) -> Iterable[int]:
        return self._slots("exact", key)

    def with_value(self, field: str, value: str) -> Iterable[int]:
        return self._slots(field, value)

    def order(self, documents: Iterable[int]) -> Mapping[int, int]:
        return {slot: engine.order_key(r.tier, r.risk, r.last_updated) for slot, r in self.records(documents).items()}

    def records(self, documents: Iterable[int]) -> Mapping[int, Record]:
        from registry.search.index import stored_by_slot

        return {slot: record_of(stored) for slot, stored in stored_by_slot(self.searcher, documents).items()}


def record_of(stored: dict) -> Record:
    return Record(
        id=stored["id"],
        name=stored.get("name") or "",
        description=stored.get("description") or "",
        tier=stored.get("tier") or "community",
        risk=stored.get("risk") or "low",
        last_updated=stored.get("last_updated") or "",
        category=stored.get("category") or "",
        dialects=tuple(d for d in (stored.get("dialect") or "").split(",") if d),
        version=stored.get("version") or "",
    )


def search(site: Path, raw_query: str, filters: Filters = Filters(), limit: int = 10) -> list[Result]:
    """The best `limit` skills of a built site for a query, ranked as engine.py says (the same order as the site).

    Each call reads the shards afresh: a rebuild replaces some of them and keeps others, so no cheap stamp tells a
    reader that what it read before still holds. Many queries over one build share a `SiteSource` instead."""
    return engine.search(SiteSource(site), raw_query, filters.as_fields(), limit)


def has_index(site: Path) -> bool:
    return (site / shards.FOLDER / "manifest.json").is_file()

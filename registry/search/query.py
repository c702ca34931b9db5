"""Answering a query from the Whoosh index: engine.search over the postings Whoosh keeps."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson
from whoosh import index

from registry.search import engine
from registry.search.engine import Record, Result
from registry.search.index import IndexPostings, read_meta, stored_by_slot, vocabulary_file

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


class WhooshSource:
    """engine.Source over the CLI's Whoosh index."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.searcher = index.open_dir(str(directory)).searcher()
        self.index_postings = IndexPostings(self.searcher)
        meta = read_meta(directory)
        self.live = meta["live"]
        self.size = meta["size"]
        self.squatters = frozenset(meta["squatters"])
        self.synonyms = meta.get("synonyms", [])
        self._vocabularies: dict[str, Mapping[str, int]] = {}

    def vocabulary(self, prefix: str) -> Mapping[str, int]:
        if prefix not in self._vocabularies:
            path = vocabulary_file(self.directory, prefix)
            self._vocabularies[prefix] = orjson.loads(path.read_bytes()) if path.is_file() else {}
        return self._vocabularies[prefix]

    def postings(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        return self.index_postings.postings(word)

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


def search(directory: Path, raw_query: str, filters: Filters = Filters(), limit: int = 10) -> list[Result]:
    """The best `limit` skills for a query, ranked as engine.py says (the same order as the site)."""
    return engine.search(open_source(directory), raw_query, filters.as_fields(), limit)


def open_source(directory: Path) -> WhooshSource:
    """The index, opened once per process for each version of it (a rebuild makes a new TOC file)."""
    toc = max((p.stat().st_mtime_ns for p in directory.glob("*.toc")), default=0)
    return _open_version(str(directory.resolve()), toc)


@functools.lru_cache(maxsize=2)
def _open_version(directory: str, toc: int) -> WhooshSource:
    return WhooshSource(Path(directory))

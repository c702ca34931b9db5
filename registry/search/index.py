"""The Whoosh index behind `skill-registry search`, updated incrementally.

It lives in a cache folder beside the site: it must outlive the staging folder each build writes
into, and its random segment names would make the site differ from build to build.
Each document stores a key over everything indexed: a skill whose key is unchanged is not
touched, a changed one is re-indexed alone, a removed one is deleted.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from whoosh import analysis, fields, index

from registry.search.documents import SearchDocument
from registry.search.stem import stem as snowball_stem

# 2: Snowball English stems (registry/search/stem.py) instead of Whoosh's Porter stemmer.
SCHEMA_VERSION = "2"


def make_schema() -> fields.Schema:
    # The stems ranking compares (text.word_matches), so every skill ranking would match is a candidate.
    # stem.stem keeps its own cache, and the schema pickles it by name.
    stem = analysis.StemmingAnalyzer(stemfn=snowball_stem, cachesize=None)
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        key=fields.ID(stored=True),
        name=fields.TEXT(analyzer=analysis.StandardAnalyzer(stoplist=None)
                         | analysis.StemFilter(stemfn=snowball_stem, cachesize=None), stored=True, field_boost=6.0),
        description=fields.TEXT(analyzer=stem, stored=True, field_boost=2.0),
        tags=fields.KEYWORD(stored=True, commas=True, lowercase=True, scorable=True, field_boost=3.0),
        category=fields.ID(stored=True),
        publisher=fields.ID(stored=True),
        version=fields.STORED(),
        tier=fields.ID(stored=True),
        risk=fields.ID(stored=True),
        dialects=fields.KEYWORD(stored=True, commas=True),
        last_updated=fields.STORED(),
        body=fields.TEXT(analyzer=stem, stored=True),
    )  # fmt: skip


@dataclass(frozen=True)
class IndexStats:
    indexed: int  # documents added or re-indexed
    removed: int
    unchanged: int
    seconds: float


def _open_or_create(directory: Path) -> index.Index:
    marker = directory / "SCHEMA_VERSION"
    if (
        directory.is_dir()
        and index.exists_in(str(directory))
        and marker.is_file()
        and (marker.read_text().strip() == SCHEMA_VERSION)
    ):
        return index.open_dir(str(directory))
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    marker.write_text(SCHEMA_VERSION + "\n")
    return index.create_in(str(directory), make_schema())


def update_index(directory: Path, documents: Iterable[SearchDocument]) -> IndexStats:
    started = time.perf_counter()
    ix = _open_or_create(directory)
    wanted = {doc.id: doc for doc in documents}
    with ix.searcher() as searcher:
        existing = {stored["id"]: stored["key"] for stored in searcher.all_stored_fields()}
    changed = [doc for doc_id, doc in sorted(wanted.items()) if existing.get(doc_id) != doc.key]
    removed = sorted(set(existing) - set(wanted))
    if changed or removed:
        writer = ix.writer()
        for doc_id in removed:
            writer.delete_by_term("id", doc_id)
        for doc in changed:
            writer.update_document(
                id=doc.id, key=doc.key, name=doc.name, description=doc.description, tags=",".join(doc.tags),
                category=doc.category, publisher=doc.publisher, version=doc.version, tier=doc.tier, risk=doc.risk,
                dialects=",".join(doc.dialects), last_updated=doc.last_updated, body=doc.body,
            )  # fmt: skip
        writer.commit(optimize=len(changed) > 1000)
    ix.close()
    return IndexStats(len(changed), len(removed), len(wanted) - len(changed), time.perf_counter() - started)

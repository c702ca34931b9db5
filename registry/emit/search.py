"""Search outputs: the Whoosh index, and the static shards the site, agents and the CLI read.

The Whoosh index stays in the build cache beside the site (`.<out>.cache/whoosh`): its segment
names are random, and the site must be byte-for-byte reproducible. The shards (format 2, laid
out in registry/search/shards.py and README "Search for agents") are written from the index's
own postings, so every reader ranks from the same numbers; a build rewrites only the shards
that hold a word, a name or a record of a skill that changed.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from registry.emit.output import SiteOutput, digest_of
from registry.emit.writer import SiteWriter, dump_json
from registry.search import engine, shards, terms
from registry.search.documents import SearchDocument, make_document
from registry.search.index import IndexPostings, IndexStats, assign_slots, read_meta, read_vocabulary, update_index
from registry.search.text import SOFT_WORDS, STOP_WORDS
from registry.state import BuildState

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

STATE_KEY = "search-shards"


@dataclass(frozen=True)
class SearchStats:
    whoosh: IndexStats
    shards_written: int  # shard files made this build (names, filters and the manifest always are)
    shards_kept: int  # shard files carried over from the last build without being made again
    shards_changed: int  # shard files whose bytes differ from the site this build replaces
    shard_seconds: float

    def to_json(self) -> dict:
        return {
            "whoosh_seconds": round(self.whoosh.seconds, 4),
            "whoosh_indexed": self.whoosh.indexed,
            "shard_seconds": round(self.shard_seconds, 4),
            "shards_written": self.shards_written,
            "shards_kept": self.shards_kept,
            "shards_changed": self.shards_changed,
        }


def bucket_count(live: int) -> int:
    """About four skills' words per postings file, in powers of two: the count changes rarely as a registry grows."""
    count = 64
    while count * 4 < live:
        count *= 2
    return count


class ShardWriter:
    """Writes `search/` files, or keeps last build's file when nothing it holds changed."""

    def __init__(self, writer: SiteOutput, saved: dict[str, str]) -> None:
        self.writer = writer
        self.saved = saved
        self.files: dict[str, str] = {}
        self.written = 0
        self.kept = 0
        self.changed = 0
        self.removed = 0  # files of the last build's shards this build no longer has

    def write(self, relative: str, data: bytes) -> None:
        path = f"{shards.FOLDER}/{relative}"
        self.writer.write_bytes(path, data)
        self.files[path] = digest = digest_of(data)
        self.written += 1
        self.changed += self.writer.served.get(path) != digest

    def keep(self, relative: str) -> bool:
        path = f"{shards.FOLDER}/{relative}"
        digest = self.saved.get(path)
        if digest is None or not self.writer.keep(path, digest):
            return False
        self.files[path] = digest
        self.kept += 1
        return True


def write_shards(writer: SiteOutput, documents: list[SearchDocument], directory: Path, stats: IndexStats,
                 state: BuildState, code: str, descriptions: Path) -> ShardWriter:  # fmt: skip
    """The site's `search/` files from the Whoosh index in `directory`, and in `descriptions` (build cache) the
    descriptions the docs files shorten, for the CLI (shards.SiteSource)."""
    meta = read_meta(directory)
    slots = assign_slots(doc.id for doc in documents)
    buckets = bucket_count(meta["live"])
    saved = state.meta(STATE_KEY)
    # Files are carried over only when this code made them: a new encoding must not keep old bytes.
    cold = not (isinstance(saved, dict) and saved.get("code") == code and saved.get("buckets") == buckets)
    out = ShardWriter(writer, {} if cold else saved["files"])

    vocabulary = read_vocabulary(directory)
    by_bucket: dict[int, list[str]] = defaultdict(list)
    for word in sorted(vocabulary):
        by_bucket[terms.bucket_of(word, buckets)].append(word)
    by_prefix: dict[str, list[str]] = defaultdict(list)
    for word in vocabulary:
        by_prefix[terms.prefix2(word)].append(word)

    changed_buckets = {terms.bucket_of(w, buckets) for w in stats.changed_words}
    changed_prefixes = {terms.prefix2(w) for w in stats.changed_words}

    with IndexPostingsOpen(directory) as index_postings:
        for bucket, words in sorted(by_bucket.items()):
            if cold or bucket in changed_buckets or not out.keep(f"postings/{bucket}.bin"):
                entries = [(word, *index_postings.postings(word)) for word in words]
                out.write(f"postings/{bucket}.bin", shards.encode_postings([e for e in entries if len(e[1])]))
    for prefix, words in sorted(by_prefix.items()):
        if cold or prefix in changed_prefixes or not out.keep(f"vocab/{prefix}.json"):
            out.write(f"vocab/{prefix}.json", dump_json({w: vocabulary[w] for w in sorted(words)}))

    records: dict[int, SearchDocument] = {slots[doc.id]: doc for doc in documents}
    for folder, size, value in (
        ("docs", shards.DOC_CHUNK, SearchDocument.record),
        ("order", shards.ORDER_CHUNK, lambda doc: doc.order),
    ):
        changed_chunks = {slot // size for slot in stats.changed_slots}
        for number in range(-(-meta["size"] // size)):
            span = range(number * size, min((number + 1) * size, meta["size"]))
            kept = not cold and number not in changed_chunks and out.keep(f"{folder}/{number}.json")
            if not kept:
                chunk = [value(records[slot]) if slot in records else None for slot in span]
                out.write(f"{folder}/{number}.json", dump_json(chunk))
            if folder == "docs" and not (kept and shards.description_file(descriptions, number).is_file()):
                write_descriptions(descriptions, number, [records.get(slot) for slot in span])

    # Names and filters are small and depend on every skill: made whole each time (unchanged bytes are not rewritten).
    names: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    filters: dict[str, dict[str, list[int]]] = {field: defaultdict(list) for field in engine.FILTER_FIELDS}
    for slot, doc in sorted(records.items()):
        for key in dict.fromkeys(k for k in (doc.normalized_name, doc.id) if k):
            shard = shards.name_shard(key)
            if shard:
                names[shard][key].append(slot)
        for field, values in (("category", [doc.category]), ("tier", [doc.tier]), ("risk", [doc.risk]),
                              ("dialect", list(doc.dialects))):  # fmt: skip
            for value in values:
                if value:
                    filters[field][value].append(slot)
    for shard, keys in sorted(names.items()):
        out.write(f"names/{shard}.json", dump_json(dict(sorted(keys.items()))))
    for field, values in filters.items():
        out.write(f"filters/{field}.json", dump_json(dict(sorted(values.items()))))
    # Which vocab and names files exist, so a reader never asks for one that does not (a browser logs every 404).
    present = {"vocab": " ".join(sorted(by_prefix)), "names": " ".join(sorted(names))}
    out.write("manifest.json", dump_json(manifest(meta, buckets, present), pretty=True))
    out.removed = sum(1 for path in (saved or {}).get("files", {}) if path not in out.files and path in writer.served)
    state.set_meta(STATE_KEY, {"code": code, "buckets": buckets, "files": out.files})
    return out


def write_descriptions(folder: Path, number: int, documents: list[SearchDocument | None]) -> None:
    """`shards.description_file`: per document of the docs chunk, [id, whole description] when the chunk shortens
    it, else null; no file when it shortens none. Written whole to a temporary name first: a reader never sees half
    a file."""
    chunk = [[doc.id, doc.description] if doc is not None and doc.shortened else None for doc in documents]
    path = shards.description_file(folder, number)
    if not any(chunk):
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    data = dump_json(chunk)
    if path.is_file() and path.read_bytes() == data:
        return
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


class IndexPostingsOpen:
    """IndexPostings over a freshly opened searcher, closed after use."""

    def __init__(self, directory: Path) -> None:
        from whoosh import index

        self.searcher = index.open_dir(str(directory)).searcher()

    def __enter__(self) -> IndexPostings:
        return IndexPostings(self.searcher)

    def __exit__(self, *exc) -> None:
        self.searcher.close()


def manifest(meta: dict, buckets: int, present: dict[str, str]) -> dict:
    return {
        "format": shards.FORMAT,
        "documents": meta["size"],
        "live": meta["live"],
        "buckets": buckets,
        "doc_chunk": shards.DOC_CHUNK,
        "order_chunk": shards.ORDER_CHUNK,
        "squatters": meta["squatters"],
        "fields": list(terms.FIELDS),
        "field_bits": terms.FIELD_BITS,
        "weights": terms.WEIGHTS,
        "b": terms.LENGTH_NORMALISATION,
        "average_lengths": terms.AVERAGE_LENGTHS,
        "tf_scale": terms.TF_SCALE,
        "k1": engine.K1,
        "kinds": engine.KINDS,
        "expansions": engine.EXPANSIONS,
        "stop_words": sorted(STOP_WORDS),
        "soft_words": sorted(SOFT_WORDS),
        "synonyms": meta["synonyms"],
        "present": present,
        "files": {
            "vocabulary": "vocab/{first two characters of the word, or _ and the hex code of a non-ASCII first "
            "character}.json: {word: document frequency}",
            "postings": "postings/{FNV-1a 32 of the word's stem key, modulo buckets}.bin: per word, varint length, "
            "ASCII word, varint count, then count pairs of varints (document gap, tf_scale * pseudo-frequency "
            "* 32 + field bits)",
            "names": "names/{first two ASCII letters or digits of the key, or _ and the hex code of its first "
            "character}.json: {normalized name or id: [documents]}",
            "documents": "docs/{document // doc_chunk}.json: [id, name, description, tier, risk, last_updated, "
            "category, dialects, version] or null",
            "filters": "filters/{category|tier|risk|dialect}.json: {value: [documents]}",
            "order": "order/{document // order_chunk}.json: the tie-break key of each document (trust tier * 5 + risk, "
            "times 2^32, plus 2^32 - 2 - the seconds since 1970 of its last update, or 2^32 - 1 without a date) "
            "or null",
        },
        "ranking": "README.md, section 'Search'; reference reader registry/search/shards.py",
    }


def emit_search(
    writer: SiteOutput, documents: list[SearchDocument], cache: Path, state: BuildState, code: str
) -> SearchStats:
    directory = cache / "whoosh"
    stats = update_index(directory, documents, code)
    started = time.perf_counter()
    written = write_shards(writer, documents, directory, stats, state, code, cache / shards.DESCRIPTIONS)
    return SearchStats(
        stats, written.written, written.kept, written.changed + written.removed, time.perf_counter() - started
    )


@dataclass(frozen=True)
class SiteSearch:
    """Per skill its search document; per site the Whoosh index and the shards."""

    name: ClassVar[str] = "search"
    stage: ClassVar[str] = "search"

    def skill(self, context: SkillContext, writer: SiteWriter) -> SearchDocument:
        return make_document(context.skill, context.assessment.trust.tier, context.card.last_updated)

    def site(self, context: SiteContext, writer: SiteOutput, results: Sequence[SearchDocument]) -> SearchStats:
        return emit_search(writer, list(results), context.cache, context.state, context.code)

"""Search outputs: the Whoosh index, and the static shards the site, agents and the CLI read.

The Whoosh index stays in the build cache beside the site (`.<out>.cache/whoosh`): its segment
names are random, and the site must be byte-for-byte reproducible. The shards (format 2, laid
out in registry/search/shards.py and README "Search for agents") are written from the index's
own postings, so every reader ranks from the same numbers; a build rewrites only the shards
that hold a word, a name or a record of a skill that changed.
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from registry.emit.output import SiteOutput
from registry.emit.writer import SiteWriter, dump_json
from registry.search import engine, postings, shards, terms
from registry.search.documents import SearchDocument, make_document
from registry.search.index import IndexPostings, IndexStats, IndexUpdate, assign_slots, index_documents
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
        self.files[path] = digest = self.writer.desired[path]
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


# Postings encoded at once, at most: bounds the memory a cold build's shards take beside the postings kept for them
# (about 100 bytes a posting while encoded: PostingsTable.raw's arrays).
POSTINGS_BATCH = 1 << 18


def write_postings(out: ShardWriter, table: postings.CollectedPostings | postings.PostingsTable,
                   bucket_of_word: np.ndarray) -> None:  # fmt: skip
    """`postings/<bucket>.bin` for every bucket of the table (bucket_of_word[i]: word i's), each holding its words in
    sorted order, encoded a batch of buckets at a time."""
    words = table.words
    by_word = np.array(sorted(range(len(words)), key=words.__getitem__), dtype=np.int64)
    order = by_word[np.argsort(bucket_of_word[by_word], kind="stable")]
    ordered = bucket_of_word[order]
    bounds = np.append(np.flatnonzero(np.diff(ordered, prepend=-1)), len(order))  # each bucket's first word
    bucket_counts = np.add.reduceat(table.counts()[order], bounds[:-1]) if len(order) else np.empty(0, np.int64)
    for runs in postings.runs_per_read(postings.word_runs(bucket_counts, POSTINGS_BATCH)):
        taken = table.take_each([order[bounds[first] : bounds[last]] for first, last in runs])
        for (first, last), run in zip(runs, taken, strict=True):
            raw, offsets = run.raw()
            for number in range(first, last):
                start, stop = bounds[number] - bounds[first], bounds[number + 1] - bounds[first]
                out.write(
                    f"postings/{int(ordered[bounds[number]])}.bin",
                    postings.deflate(raw[offsets[start] : offsets[stop]]),
                )


def write_shards(writer: SiteOutput, documents: Sequence[SearchDocument], directory: Path, update: IndexUpdate,
                 state: BuildState, code: str, descriptions: Path) -> ShardWriter:  # fmt: skip
    """The site's `search/` files from the Whoosh index in `directory` as `update` left it (a new index hands over its
    postings in memory; otherwise the words of changed buckets are read from the index), and in `descriptions`
    (build cache) the descriptions the docs files shorten, for the CLI (shards.SiteSource)."""
    meta, stats, vocabulary = update.meta, update.stats, update.vocabulary
    ids = [doc.id for doc in documents]
    slots = assign_slots(ids)
    # Documents are read by position when a file needs them (the build's one at a time, from a file), not held.
    at_slot = {slots[skill_id]: number for number, skill_id in enumerate(ids)}
    del ids
    buckets = bucket_count(meta["live"])
    saved = state.meta(STATE_KEY)
    # Files are carried over only when this code made them (a new encoding must not keep old bytes), and only from
    # the index this update started from (a build stopped after the index was updated leaves the shards behind it).
    cold = not (
        isinstance(saved, dict) and saved.get("code") == code and saved.get("buckets") == buckets
        and saved.get("index") == stats.previous
    )  # fmt: skip
    out = ShardWriter(writer, {} if cold else saved["files"])

    by_bucket: dict[int, list[str]] = defaultdict(list)
    by_prefix: dict[str, list[str]] = defaultdict(list)
    for word, (_, hashed) in sorted(vocabulary.items()):
        by_bucket[hashed % buckets].append(word)
        by_prefix[terms.prefix2(word)].append(word)

    if update.postings is not None:  # a new index: every posting, as it was written
        table = update.postings
        hashes = np.fromiter((vocabulary[w][1] for w in table.words), dtype=np.int64, count=len(table))
        write_postings(out, table, hashes % buckets)
    else:
        changed_buckets = {vocabulary[w][1] % buckets for w in stats.changed_words if w in vocabulary}
        changed_buckets |= {terms.bucket_of(w, buckets) for w in stats.changed_words if w not in vocabulary}
        made = [
            bucket for bucket in sorted(by_bucket)
            if cold or bucket in changed_buckets or not out.keep(f"postings/{bucket}.bin")
        ]  # fmt: skip
        if made:
            with IndexPostingsOpen(directory) as index_postings:
                entries = [(word, *index_postings.postings(word)) for bucket in made for word in by_bucket[bucket]]
            found = [entry for entry in entries if len(entry[1])]
            words_bucket = np.fromiter((vocabulary[w][1] % buckets for w, _, _ in found), dtype=np.int64)
            write_postings(out, postings.PostingsTable.from_entries(found), words_bucket)
            for bucket in made:  # a bucket whose every word lost its postings is still an (empty) file
                if f"{shards.FOLDER}/postings/{bucket}.bin" not in out.files:
                    out.write(f"postings/{bucket}.bin", postings.deflate(b""))
    changed_prefixes = {terms.prefix2(w) for w in stats.changed_words}
    for prefix, words in sorted(by_prefix.items()):
        if cold or prefix in changed_prefixes or not out.keep(f"vocab/{prefix}.json"):
            out.write(f"vocab/{prefix}.json", dump_json({w: vocabulary[w][0] for w in words}))

    # Names, filters and tie-break keys are small and depend on every skill: gathered from each document in slot
    # order as the docs files are made, the names and filters made whole each time (unchanged bytes are not
    # rewritten).
    names: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    filters: dict[str, dict[str, list[int]]] = {field: defaultdict(list) for field in engine.FILTER_FIELDS}
    orders: dict[int, int] = {}
    changed_chunks = {slot // shards.DOC_CHUNK for slot in stats.changed_slots}
    for number in range(-(-meta["size"] // shards.DOC_CHUNK)):
        span = range(number * shards.DOC_CHUNK, min((number + 1) * shards.DOC_CHUNK, meta["size"]))
        chunk = [documents[at_slot[slot]] if slot in at_slot else None for slot in span]
        kept = not cold and number not in changed_chunks and out.keep(f"docs/{number}.json")
        if not kept:
            out.write(f"docs/{number}.json", dump_json([doc.record() if doc is not None else None for doc in chunk]))
        if not (kept and shards.description_file(descriptions, number).is_file()):
            write_descriptions(descriptions, number, chunk)
        for slot, doc in zip(span, chunk, strict=True):
            if doc is not None:
                orders[slot] = doc.order
                add_names_and_filters(names, filters, slot, doc)
    changed_chunks = {slot // shards.ORDER_CHUNK for slot in stats.changed_slots}
    for number in range(-(-meta["size"] // shards.ORDER_CHUNK)):
        span = range(number * shards.ORDER_CHUNK, min((number + 1) * shards.ORDER_CHUNK, meta["size"]))
        if cold or number in changed_chunks or not out.keep(f"order/{number}.json"):
            out.write(f"order/{number}.json", dump_json([orders.get(slot) for slot in span]))
    del orders

    for shard, keys in sorted(names.items()):
        out.write(f"names/{shard}.json", dump_json(dict(sorted(keys.items()))))
    for field, values in filters.items():
        out.write(f"filters/{field}.json", dump_json(dict(sorted(values.items()))))
    # Which vocab and names files exist, so a reader never asks for one that does not (a browser logs every 404).
    present = {"vocab": " ".join(sorted(by_prefix)), "names": " ".join(sorted(names))}
    out.write("manifest.json", dump_json(manifest(meta, buckets, present), pretty=True))
    out.removed = sum(1 for path in (saved or {}).get("files", {}) if path not in out.files and path in writer.served)
    state.set_meta(STATE_KEY, {"code": code, "buckets": buckets, "index": stats.token, "files": out.files})
    return out


def add_names_and_filters(names: dict[str, dict[str, list[int]]], filters: dict[str, dict[str, list[int]]], slot: int,
                          doc: SearchDocument) -> None:  # fmt: skip
    """A document's exact-name keys and filter values, each listing its slot (added in ascending slot order)."""
    for key in dict.fromkeys(k for k in (doc.normalized_name, doc.id) if k):
        shard = shards.name_shard(key)
        if shard:
            names[shard][key].append(slot)
    for field, values in (("category", [doc.category]), ("tier", [doc.tier]), ("risk", [doc.risk]),
                          ("dialect", list(doc.dialects))):  # fmt: skip
        for value in values:
            if value:
                filters[field][value].append(slot)


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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the stage, as it was found after. The stage makes millions of short-lived
    objects without cycles (a block's tuples, a skill's words), freed as they go, and each collection they set off
    walks the whole build's heap (every skill's analysis): a cold stage at 1,000 skills took 0.75 s of CPU without
    it against 1.02 s with it, in the build process (one sample each). Cycles made meanwhile are collected later."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def emit_search(
    writer: SiteOutput, documents: Sequence[SearchDocument], cache: Path, state: BuildState, code: str
) -> SearchStats:
    """The search index and shards from `documents`, each read by position when it is needed: the site-wide hook
    passes them as it reads them back from the build's file, and a registry's worth is never held at once."""
    directory = cache / "whoosh"
    with collector_paused():
        update = index_documents(directory, documents, code, keep_postings=True)
        started = time.perf_counter()
        written = write_shards(writer, documents, directory, update, state, code, cache / shards.DESCRIPTIONS)
    return SearchStats(
        update.stats, written.written, written.kept, written.changed + written.removed, time.perf_counter() - started
    )


@dataclass(frozen=True)
class SiteSearch:
    """Per skill its search document; per site the Whoosh index and the shards."""

    name: ClassVar[str] = "search"
    stage: ClassVar[str] = "search"

    def skill(self, context: SkillContext, writer: SiteWriter) -> SearchDocument:
        return make_document(context.skill, context.assessment.trust.tier, context.card.last_updated)

    def site(self, context: SiteContext, writer: SiteOutput, results: Sequence[SearchDocument]) -> SearchStats:
        return emit_search(writer, results, context.cache, context.state, context.code)

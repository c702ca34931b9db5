"""The Whoosh index behind `skill-registry search`, updated incrementally.

It lives in a cache folder beside the site: it must outlive the staging folder each build writes
into, and its random segment names would make the site differ from build to build.
Each document stores a key over everything indexed: a skill whose key is unchanged is not
touched, a changed one is re-indexed alone, a removed one is deleted.

The `words` field holds, for each word a skill says, the one weight terms.word_weights gives it;
the site's shards (emit/search.py) are written from these very postings, so the CLI, the site and
agents rank from the same numbers. Beside Whoosh's own files, `vocabulary/<p>.json` keeps every
word with its document frequency (Whoosh's counts include deleted documents until a merge) and
`meta.json` what the engine needs of the whole index, and `state.json` each skill's document number,
key and words, with the Whoosh generation they describe: a build killed between Whoosh's commit and
these files leaves a generation that does not match, and the next build indexes everything again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

import numpy as np
import orjson
from whoosh import fields, formats, index
from whoosh.codec.whoosh3 import W3LeafMatcher

from registry.search.documents import SearchDocument
from registry.search.synonyms import synonym_groups
from registry.search.terms import prefix2

# 3: every word of the body, one weight per word (registry/search/terms.py); stable slots. 4: UTF-8 words.
SCHEMA_VERSION = "4"
VOCABULARY = "vocabulary"


class WeightedWords(fields.FieldType):
    """Postings whose weight is terms.word_weights' integer (exact in Whoosh's float32 up to 2**24).

    Documents never pass their words through Whoosh's per-posting pool: BulkWords collects them as
    arrays and writes them a block at a time (three times faster at 10,000 skills, a tenth of the memory).
    """

    def __init__(self) -> None:
        self.format = formats.Existence()
        self.analyzer = None
        self.scorable = False
        self.stored = False
        self.unique = False
        self.vector = None

    def index(self, value, **kwargs):
        return ((word.encode("utf-8"), 1, float(weight), b"") for word, weight in value)


class BulkWords:
    """The `words` field's postings for one Whoosh segment writer, kept as arrays per word.

    Whoosh feeds every posting through a sorting pool and its codec one Python call at a time. Here
    added documents hand over their (word, weight) pairs at once; postings of older segments merged
    into the writer still arrive through the pool's `add` and are taken too. At flush the other
    fields go through Whoosh's own writer, then each word's postings are written in blocks.
    """

    FIELD = "words"

    def __init__(self, writer) -> None:
        self.pool = writer.pool
        self.fieldwriter = writer.fieldwriter
        writer.pool = writer.fieldwriter = self
        self.term_index: dict[str, int] = {}  # word -> its number here, in order of first appearance
        self.term_ids = array("I")
        self.docnums = array("I")
        self.weights = array("f")

    def add_words(self, docnum: int, words: Sequence[str], weights: bytes) -> None:
        """A document's words and their weights (uint32, as SearchDocument keeps them)."""
        index = self.term_index
        self.term_ids.extend([index.setdefault(word, len(index)) for word in words])
        self.weights.frombytes(np.frombuffer(weights, dtype=np.uint32).astype(np.float32).tobytes())
        self.docnums.extend(repeat(docnum, len(words)))

    def document_frequencies(self) -> dict[str, int]:
        """Per word, how many documents added so far hold it."""
        counts = np.bincount(np.frombuffer(self.term_ids, dtype=np.uint32), minlength=len(self.term_index))
        words = list(self.term_index)
        return {words[i]: int(counts[i]) for i in np.flatnonzero(counts)}

    # The pool's interface, as SegmentWriter uses it.
    @property
    def fieldnames(self):
        return self.pool.fieldnames | ({self.FIELD} if self.term_index else set())

    def add(self, item) -> None:
        fieldname, term, docnum, weight, _ = item
        if fieldname != self.FIELD:
            self.pool.add(item)
            return
        index = self.term_index
        self.term_ids.append(index.setdefault(term.decode("utf-8"), len(index)))
        self.docnums.append(docnum)
        self.weights.append(weight)

    def iter_postings(self):
        return self.pool.iter_postings()

    def cleanup(self) -> None:
        self.pool.cleanup()

    # The field writer's interface, as SegmentWriter uses it.
    @property
    def is_closed(self) -> bool:
        return self.fieldwriter.is_closed

    def add_postings(self, schema, lengths, items) -> None:
        self.fieldwriter.add_postings(schema, lengths, items)  # every other field: all sort before "words"
        if not self.term_index:
            return
        words = list(self.term_index)
        rank = np.empty(len(words), dtype=np.int64)
        rank[sorted(range(len(words)), key=words.__getitem__)] = np.arange(len(words))
        term_rank = rank[np.frombuffer(self.term_ids, dtype=np.uint32)]
        docnums = np.frombuffer(self.docnums, dtype=np.uint32)
        order = np.lexsort((docnums, term_rank))
        term_rank, docnums = term_rank[order], docnums[order]
        weights = np.frombuffer(self.weights, dtype=np.float32)[order]
        starts = np.flatnonzero(np.diff(term_rank, prepend=-1))
        ends = np.append(starts[1:], len(term_rank))
        by_rank = sorted(words)
        writer = self.fieldwriter
        writer.start_field(self.FIELD, schema[self.FIELD])
        for first, last in zip(starts.tolist(), ends.tolist(), strict=True):
            writer.start_term(by_rank[term_rank[first]].encode("utf-8"))
            postings = writer._postwriter
            limit = postings._blocklimit
            for start in range(first, last, limit):
                if start != first:
                    postings._write_block()
                stop = min(start + limit, last)
                postings._ids = array("I", docnums[start:stop].tobytes())
                postings._weights = array("f", weights[start:stop].tobytes())
                postings._maxweight = float(weights[start:stop].max())
            writer.finish_term()
        writer.finish_field()

    def close(self) -> None:
        self.fieldwriter.close()


def make_schema() -> fields.Schema:
    return fields.Schema(
        slot=fields.NUMERIC(int, stored=True, unique=True, sortable=True),
        id=fields.ID(stored=True, unique=True),
        key=fields.ID(stored=True),
        words=WeightedWords(),
        exact=fields.KEYWORD(commas=True),  # normalized name and id: the exact-name tier
        name=fields.STORED(),
        description=fields.STORED(),
        tags=fields.STORED(),
        category=fields.ID(stored=True),
        publisher=fields.STORED(),
        version=fields.STORED(),
        tier=fields.ID(stored=True),
        risk=fields.ID(stored=True),
        dialect=fields.KEYWORD(stored=True, commas=True),
        last_updated=fields.STORED(),
    )


@dataclass(frozen=True)
class IndexStats:
    indexed: int  # documents added or re-indexed
    removed: int
    unchanged: int
    seconds: float
    changed_words: frozenset[str] = frozenset()  # words of every added, changed or removed document
    changed_slots: frozenset[int] = frozenset()


def _open_or_create(directory: Path, code: str) -> tuple[index.Index, dict[str, list]]:
    """The index and its skills (id -> [slot, key, its words separated by spaces]), or a new empty index
    when they do not agree or another version of the code made them."""
    marker = directory / "SCHEMA_VERSION"
    state = directory / "state.json"
    if (
        directory.is_dir()
        and index.exists_in(str(directory))
        and marker.is_file()
        and marker.read_text().strip() == SCHEMA_VERSION
        and state.is_file()
        and (directory / "meta.json").is_file()
    ):
        ix = index.open_dir(str(directory))
        saved = orjson.loads(state.read_bytes())
        if saved.get("generation") == ix.latest_generation() and saved.get("code") == code:
            return ix, saved["slots"]
        ix.close()
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    marker.write_text(SCHEMA_VERSION + "\n")
    return index.create_in(str(directory), make_schema()), {}


def _replace(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def slot_count(documents: int) -> int:
    """At most half the slots taken, in powers of two: the count changes rarely as a registry grows."""
    count = 64
    while count < 2 * documents:
        count *= 2
    return count


def assign_slots(ids: Iterable[str]) -> dict[str, int]:
    """Each skill's document number in the shards: where its id hashes to, or the next free number.

    A function of the set of ids alone, so an incremental build numbers skills exactly as a clean
    one does, and adding or removing a skill moves no other skill unless one collided with it.
    """
    ordered = sorted(ids)
    count = slot_count(len(ordered))
    taken: dict[int, str] = {}
    for skill_id in ordered:
        slot = int.from_bytes(hashlib.blake2b(skill_id.encode(), digest_size=8).digest(), "big") % count
        while slot in taken:
            slot = (slot + 1) % count
        taken[slot] = skill_id
    return {skill_id: slot for slot, skill_id in taken.items()}


def update_index(directory: Path, documents: Iterable[SearchDocument], code: str = "") -> IndexStats:
    started = time.perf_counter()
    ix, slots = _open_or_create(directory, code)
    wanted = {doc.id: doc for doc in documents}
    assigned = assign_slots(wanted)
    kept = {doc_id: entry for doc_id, entry in slots.items() if doc_id in wanted}
    changed = [
        doc for doc_id, doc in sorted(wanted.items())
        if doc_id not in kept or kept[doc_id][0] != assigned[doc_id] or kept[doc_id][1] != doc.key
    ]  # fmt: skip
    removed = sorted(set(slots) - set(wanted))
    changed_words: set[str] = set()
    changed_slots: set[int] = set()
    if changed or removed:
        vocabulary = read_vocabulary(directory)
        for doc_id in removed + [doc.id for doc in changed if doc.id in slots]:
            slot, _, old = slots[doc_id]
            old_words = old.split(" ") if old else []
            changed_words.update(old_words)
            changed_slots.add(slot)
            vocabulary.subtract(old_words)
        for doc_id in removed:
            del slots[doc_id]
        writer = ix.writer()
        bulk = BulkWords(writer)
        for doc_id in removed:
            writer.delete_by_term("id", doc_id)
        for doc in changed:
            slot = assigned[doc.id]
            slots[doc.id] = [slot, doc.key, doc.words]
            changed_slots.add(slot)
            exact = [doc.normalized_name, doc.id] if doc.normalized_name else [doc.id]
            docnum = writer.docnum
            writer.update_document(
                slot=slot, id=doc.id, key=doc.key, exact=",".join(exact), name=doc.name,
                description=doc.description, tags=list(doc.tags), category=doc.category, publisher=doc.publisher,
                version=doc.version, tier=doc.tier, risk=doc.risk, dialect=",".join(doc.dialects),
                last_updated=doc.last_updated,
            )  # fmt: skip
            bulk.add_words(docnum, doc.word_list(), doc.weights)
        added = bulk.document_frequencies()
        changed_words.update(added)
        vocabulary.update(added)
        writer.commit()
        _write_vocabulary(directory, vocabulary, {prefix2(w) for w in changed_words})
    summary = {
        "live": len(slots),
        "size": slot_count(len(slots)),
        "squatters": sorted(slots[doc_id][0] for doc_id in squatters(wanted.values())),
        # The table queries of this index are expanded with, here and in the site's manifest alike.
        "synonyms": [list(group) for group in synonym_groups()],
    }
    if not (directory / "meta.json").is_file() or read_meta(directory) != summary:
        _replace(directory / "meta.json", orjson.dumps(summary))
    if changed or removed:
        # Last: until this names the new generation, the next build starts over.
        generation = index.open_dir(str(directory)).latest_generation()
        state = {"generation": generation, "code": code, "slots": slots}
        _replace(directory / "state.json", orjson.dumps(state))
    ix.close()
    return IndexStats(
        len(changed), len(removed), len(wanted) - len(changed), time.perf_counter() - started,
        frozenset(changed_words), frozenset(changed_slots),
    )  # fmt: skip


def squatters(documents: Iterable[SearchDocument]) -> list[str]:
    """Community skills named exactly like an official or verified one: ranked after every other skill."""
    documents = list(documents)
    trusted = {d.normalized_name for d in documents if d.tier in ("official", "verified") and d.normalized_name}
    return sorted(d.id for d in documents if d.tier == "community" and d.normalized_name in trusted)


def read_meta(directory: Path) -> dict:
    return orjson.loads((directory / "meta.json").read_bytes())


def read_vocabulary(directory: Path) -> Counter:
    """Every indexed word and how many skills hold it (the `vocabulary/<p>.json` files together)."""
    counts: Counter = Counter()
    folder = directory / VOCABULARY
    if folder.is_dir():
        for path in folder.glob("*.json"):
            counts.update(orjson.loads(path.read_bytes()))
    return counts


def _write_vocabulary(directory: Path, counts: Counter, prefixes: set[str]) -> None:
    folder = directory / VOCABULARY
    folder.mkdir(exist_ok=True)
    grouped: dict[str, dict[str, int]] = {p: {} for p in prefixes}
    for word, count in sorted(counts.items()):
        if count > 0 and prefix2(word) in grouped:
            grouped[prefix2(word)][word] = count
    for prefix, words in grouped.items():
        path = folder / f"{prefix}.json"
        if words:
            _replace(path, orjson.dumps(words))
        else:
            path.unlink(missing_ok=True)


def vocabulary_file(directory: Path, prefix: str) -> Path:
    return directory / VOCABULARY / f"{prefix}.json"


class IndexPostings:
    """Postings of the `words` field as arrays of (slot, weight), read a block at a time.

    Whoosh's matcher yields one posting per Python call; a common word has a posting in most
    skills, so its blocks (arrays of up to 128 ids and weights) are read whole instead.
    """

    def __init__(self, searcher) -> None:
        self.reader = searcher.reader()
        self.leaves = self.reader.leaf_readers()
        count = self.reader.doc_count_all()
        # An index with no document has no column to read.
        slot_column = self.reader.column_reader("slot") if count else []
        self.slot_of = np.fromiter((slot_column[n] for n in range(count)), dtype=np.int64, count=count)
        self.format = searcher.schema["words"].format

    def postings(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        ids: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        term = word.encode("utf-8")
        for leaf, offset in self.leaves:
            if ("words", term) not in leaf._terms:
                continue
            leaf_ids, leaf_weights = _matcher_arrays(leaf._terms.matcher("words", term, self.format))
            deleted = leaf.deleted_docs_set if leaf.has_deletions() else None
            if deleted:
                keep = ~np.isin(leaf_ids, np.fromiter(deleted, dtype=np.int64))
                leaf_ids, leaf_weights = leaf_ids[keep], leaf_weights[keep]
            ids.append(leaf_ids + offset)
            weights.append(leaf_weights)
        if not ids:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        slots = self.slot_of[np.concatenate(ids)]
        values = np.concatenate(weights)
        order = np.argsort(slots, kind="stable")
        return slots[order], values[order]


def _matcher_arrays(matcher) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(matcher, W3LeafMatcher):
        ids, weights = [], []
        while True:
            matcher._read_ids()
            matcher._read_weights()
            ids.append(np.asarray(matcher._ids, dtype=np.int64))
            weights.append(np.asarray(matcher._weights, dtype=np.float64))
            if matcher._lastblock:
                break
            matcher._next_block()
        return np.concatenate(ids), np.concatenate(weights).astype(np.int64)
    found_ids, found_weights = [], []
    while matcher.is_active():
        found_ids.append(matcher.id())
        found_weights.append(matcher.weight())
        matcher.next()
    return np.asarray(found_ids, dtype=np.int64), np.asarray(found_weights, dtype=np.float64).astype(np.int64)


def stored_by_slot(searcher, slots: Iterable[int]) -> Mapping[int, dict]:
    found = {}
    for slot in slots:
        stored = searcher.document(slot=slot)
        if stored is not None:
            found[slot] = stored
    return found

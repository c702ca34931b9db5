"""The Whoosh index behind `skill-registry search`, updated incrementally.

It lives in a cache folder beside the site: it must outlive the staging folder each build writes
into, and its random segment names would make the site differ from build to build.
Each document stores a key over everything indexed: a skill whose key is unchanged is not
touched, a changed one is re-indexed alone, a removed one is deleted.

The `words` field holds, for each word a skill says, the one weight terms.word_weights gives it;
the site's shards (emit/search.py) are written from these very postings, so the CLI, the site and
agents rank from the same numbers. Beside Whoosh's own files, `vocabulary.json` keeps every
word with its document frequency (Whoosh's counts include deleted documents until a merge) and the
hash that places it in a postings shard (terms.stem_hash: each word is stemmed once, when it first
appears), `meta.json` what the engine needs of the whole index, and `state.json` each skill's
document number, key and words, with the Whoosh generation they describe: a build killed between
Whoosh's commit and these files leaves a generation that does not match, and the next build indexes
everything again. `state.json` also names this version of the index with a random token, so that
whatever was made from the index (the site's shards) can tell whether it still describes it.

A cold build hands the shards the postings it has just written (IndexUpdate.postings), in memory
as the writer collected them (eight bytes a posting): every word is read and counted once for both,
and each sorts a run of words at a time into the order its files want.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import secrets
import shutil
import time
import zlib
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from pickle import dumps
from typing import NamedTuple

import numpy as np
import orjson
from whoosh import fields, formats, index
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.reading import TermNotFound

from registry.search.documents import SearchDocument
from registry.search.postings import CollectedPostings, count_words, runs_per_read, word_runs
from registry.search.synonyms import synonym_groups
from registry.search.terms import stem_hash

# 3: every word of the body, one weight per word (registry/search/terms.py); stable slots. 4: UTF-8 words.
# 5: one vocabulary file with each word's stem hash; slot indexed at full precision only; key stored, not indexed;
# exact and dialect without frequencies.
SCHEMA_VERSION = "5"
VOCABULARY = "vocabulary.json"


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
    """The postings of one Whoosh segment writer, kept as arrays, and written without Whoosh's per-posting calls.

    Whoosh feeds every posting through a sorting pool and its codec one Python call at a time. Here
    added documents hand over their (word, weight) pairs at once; the other fields' postings (every
    indexed field has the Existence format) and those of older segments merged into the writer
    still arrive through the pool's `add` and are taken too. At flush every field's postings are
    sorted and written in Whoosh's own block format (write_terms), the `words` field's a run of words
    at a time (WRITE_BATCH). With `keep`, the `words` field's postings stay in `table`, as collected.
    """

    FIELD = "words"

    def __init__(self, writer, keep: bool = False) -> None:
        self.pool = writer.pool
        self.fieldwriter = writer.fieldwriter
        writer.pool = writer.fieldwriter = self
        # word -> its number here, in order of first appearance
        self.term_index: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        self.term_ids = array("I")
        self.weights = array("I")  # terms.word_weights' integers: exact in Whoosh's float32
        # Each run of consecutive postings of one document: its document and where it ends (CollectedPostings). An
        # added document is one run: no document number is kept for each of its postings.
        self.run_documents = array("I")
        self.run_ends = array("I")
        # Every other field whose postings hold nothing but their weight: field -> [(term, document, weight)].
        self.others: dict[str, list[tuple[bytes, int, float]]] = {
            name: [] for name, field in writer.schema.items()
            if name != self.FIELD and field.indexed and isinstance(field.format, formats.Existence)
            and not field.scorable and not field.vector and not field.separate_spelling()
        }  # fmt: skip
        self.keep = keep
        self.table: CollectedPostings | None = None  # with keep, after flush: the words' postings as collected

    def add_words(self, docnum: int, words: Sequence[str], weights: bytes) -> None:
        """A document's words and their weights (uint32, as SearchDocument keeps them)."""
        index = self.term_index
        self.term_ids.fromlist([index[word] for word in words])
        self.weights.frombytes(weights)
        self._add_run(docnum)

    def _add_run(self, docnum: int) -> None:
        """The postings added since the last run are document docnum's."""
        if self.run_documents and self.run_documents[-1] == docnum:
            self.run_ends[-1] = len(self.term_ids)
        else:
            self.run_documents.append(docnum)
            self.run_ends.append(len(self.term_ids))

    def document_frequencies(self) -> dict[str, int]:
        """Per word, how many documents added so far hold it."""
        counts = count_words(np.frombuffer(self.term_ids, dtype=np.uint32), len(self.term_index))
        words = list(self.term_index)
        return {words[i]: int(counts[i]) for i in np.flatnonzero(counts)}

    # The pool's interface, as SegmentWriter uses it.
    @property
    def fieldnames(self):
        taken = {name for name, postings in self.others.items() if postings}
        return self.pool.fieldnames | taken | ({self.FIELD} if self.term_index else set())

    def add(self, item) -> None:
        fieldname, term, docnum, weight, _ = item
        if fieldname == self.FIELD:
            self.term_ids.append(self.term_index[term.decode("utf-8")])
            self.weights.append(int(weight))
            self._add_run(docnum)
        elif fieldname in self.others:
            self.others[fieldname].append((term, docnum, weight))
        else:
            self.pool.add(item)

    def iter_postings(self):
        return self.pool.iter_postings()

    def cleanup(self) -> None:
        self.pool.cleanup()

    # The field writer's interface, as SegmentWriter uses it.
    @property
    def is_closed(self) -> bool:
        return self.fieldwriter.is_closed

    def add_postings(self, schema, lengths, items) -> None:
        # Whoosh's pool holds no indexed field of this schema; ours follow, in the order of their names (Whoosh's).
        self.fieldwriter.add_postings(schema, lengths, items)
        for name in sorted([*self.others, self.FIELD]):
            if name == self.FIELD:
                self._write_words(schema)
            elif self.others[name]:
                postings = sorted(self.others[name])
                terms = list(dict.fromkeys(term for term, _, _ in postings))
                counts = Counter(term for term, _, _ in postings)
                starts = np.zeros(len(terms) + 1, dtype=np.int64)
                np.cumsum([counts[term] for term in terms], out=starts[1:])
                documents = np.array([document for _, document, _ in postings], dtype=np.uint32)
                weights = np.array([weight for _, _, weight in postings], dtype=np.float32)
                write_terms(self.fieldwriter, name, schema[name], [(terms, starts, documents, weights)])

    def _write_words(self, schema) -> None:
        if not self.term_index:
            return
        words = list(self.term_index)
        collected = CollectedPostings(
            words, np.frombuffer(self.term_ids, dtype=np.uint32), np.frombuffer(self.weights, dtype=np.uint32),
            np.frombuffer(self.run_documents, dtype=np.uint32), np.frombuffer(self.run_ends, dtype=np.uint32),
        )  # fmt: skip
        by_word = np.array(sorted(range(len(words)), key=words.__getitem__), dtype=np.int64)
        counts = collected.counts()[by_word]
        write_terms(self.fieldwriter, self.FIELD, schema[self.FIELD], _term_batches(collected, by_word, counts))
        if self.keep:
            self.table = collected

    def close(self) -> None:
        self.fieldwriter.close()


# Postings sorted and written at once, at most: what the words' postings take beside the eight bytes a posting
# BulkWords keeps (about forty bytes a posting while sorted and written); each batch reads every posting once.
WRITE_BATCH = 1 << 18


def _term_batches(collected: CollectedPostings, by_word: np.ndarray, counts: np.ndarray):
    """write_terms' batches of the collected words in the order `by_word` gives (counts: their postings)."""
    for runs in runs_per_read(word_runs(counts, WRITE_BATCH)):
        for run in collected.take_each([by_word[first:last] for first, last in runs]):
            yield [word.encode("utf-8") for word in run.words], run.starts, run.documents, run.weights


def write_terms(fieldwriter, name: str, field,
                batches: Iterable[tuple[Sequence[bytes], np.ndarray, np.ndarray, np.ndarray]]) -> None:  # fmt: skip
    """A field's terms and postings written as Whoosh's W3FieldWriter and W3PostingsWriter write them, byte for byte
    (tests/search/test_whoosh_index.py compares), with a Python call per block rather than several per posting.
    `batches` hold the terms in order, a run at a time: (terms, starts, docnums, weights), term i's postings being
    docnums and weights [starts[i]:starts[i + 1]] (ascending documents). Only a batch's postings are ever Python
    values at once."""
    from whoosh.codec.whoosh3 import COMPRESSION_MIN_SIZE, WHOOSH3_HEADER_MAGIC, W3TermInfo
    from whoosh.system import pack_int, pack_long, pack_ushort
    from whoosh.util.numeric import length_to_byte

    fieldwriter.start_field(name, field)
    postings = fieldwriter._postwriter
    if postings._inlinelimit > 1 or postings._byteids or field.format.fixed_value_size() != 0:
        for terms, starts, docnums, weights in batches:  # a codec this does not mirror: Whoosh's own calls
            for i, term in enumerate(terms):
                fieldwriter.start_term(term)
                for j in range(int(starts[i]), int(starts[i + 1])):
                    fieldwriter.add(int(docnums[j]), float(weights[j]), b"", None)
                fieldwriter.finish_term()
        fieldwriter.finish_field()
        return
    postfile = postings._postfile
    write, write_int, tell = postfile.write, postfile.write_int, postfile.tell
    limit, compression = postings._blocklimit, postings._compression
    add_term = fieldwriter._tindex.add
    field_key = pack_ushort(fieldwriter._fieldmap[name])
    pack_info = W3TermInfo._struct.pack
    no_length, zero_length = length_to_byte(None), length_to_byte(0)
    for terms, starts, docnums, weights in batches:
        gaps = np.diff(docnums.astype(np.int64), prepend=0)
        firsts = starts[:-1][np.diff(starts) > 0]
        gaps[firsts] = docnums[firsts]
        values = weights.astype(np.float32)  # as Whoosh holds them: float32, read back as Python floats
        block_starts = []  # each block's gaps start from the block's first id, not the word's
        for first, last in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True):
            block_starts.extend(range(first + limit, last, limit))
        gaps[block_starts] = docnums[block_starts]
        # Python values a block at a time: a batch's postings as Python ints and floats took a hundred bytes each.
        for i, term in enumerate(terms):
            first, last = int(starts[i]), int(starts[i + 1])
            offset = tell()
            write(WHOOSH3_HEADER_MAGIC)
            total = 0
            top = 0
            for start in range(first, last, limit):
                stop = min(start + limit, last)
                block = values[start:stop].tolist()
                total += sum(block)
                heaviest = max(block)
                top = max(top, heaviest)
                if block.count(1.0) == len(block):
                    shown = None
                elif block.count(block[0]) == len(block):
                    shown = block[0]
                else:
                    shown = tuple(block)
                data = dumps((tuple(gaps[start:stop].tolist()), shown, None), 2)
                packed = compression if len(data) >= COMPRESSION_MIN_SIZE else 0
                if packed:
                    data = zlib.compress(data, packed)
                info = dumps((stop - start, int(docnums[stop - 1]), heaviest, packed, no_length, zero_length), 2)
                write_int(-(len(info) + len(data)) if stop == last else len(info) + len(data))
                write(info)
                write(data)
            extent = pack_long(offset) + pack_int(tell() - offset)
            add_term(
                field_key + term,
                pack_info(False, total, last - first, 0, zero_length, top, int(docnums[first]), int(docnums[last - 1]))
                + extent,
            )
    fieldwriter.finish_field()


def _values(stored: bool = False) -> fields.KEYWORD:
    """Comma-separated values, each a term that only says which documents hold it (no frequency): like the ID fields,
    written by BulkWords without Whoosh's per-posting calls."""
    field = fields.KEYWORD(stored=stored, commas=True)
    field.format = formats.Existence()
    return field


def make_schema() -> fields.Schema:
    return fields.Schema(
        # Looked up by value, never by range: one term per number instead of Whoosh's eight precisions.
        slot=fields.NUMERIC(int, stored=True, unique=True, sortable=True, shift_step=0),
        id=fields.ID(stored=True, unique=True),
        key=fields.STORED(),
        words=WeightedWords(),
        exact=_values(),  # normalized name and id: the exact-name tier
        name=fields.STORED(),
        description=fields.STORED(),
        tags=fields.STORED(),
        category=fields.ID(stored=True),
        publisher=fields.STORED(),
        version=fields.STORED(),
        tier=fields.ID(stored=True),
        risk=fields.ID(stored=True),
        dialect=_values(stored=True),
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
    # The random token of the index this update started from ("" for a new one) and of the index it left: what
    # was made from the index (the shards) is brought up to date from changed_words only if it describes `previous`.
    previous: str = ""
    token: str = ""


@dataclass(frozen=True)
class IndexUpdate:
    stats: IndexStats
    vocabulary: dict[str, list[int]]  # read_vocabulary, after the update
    meta: dict  # read_meta, after the update
    postings: CollectedPostings | None  # with keep_postings, for a new index: every word's postings (documents: slots)


def _open_or_create(directory: Path, code: str) -> tuple[index.Index, dict[str, list], str]:
    """The index, its skills (id -> [slot, key, its words separated by spaces]) and its token, or a new empty index
    (token "") when they do not agree or another version of the code made them."""
    marker = directory / "SCHEMA_VERSION"
    state = directory / "state.json"
    if (
        directory.is_dir()
        and index.exists_in(str(directory))
        and marker.is_file()
        and marker.read_text().strip() == SCHEMA_VERSION
        and state.is_file()
        and (directory / "meta.json").is_file()
        and (directory / VOCABULARY).is_file()
    ):
        ix = index.open_dir(str(directory))
        saved = orjson.loads(state.read_bytes())
        if saved.get("generation") == ix.latest_generation() and saved.get("code") == code:
            return ix, saved["slots"], saved.get("token", "")
        ix.close()
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    marker.write_text(SCHEMA_VERSION + "\n")
    return index.create_in(str(directory), make_schema()), {}, ""


def _replace(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _replace_with(path: Path, parts: Iterable[bytes]) -> None:
    """_replace with data written a part at a time."""
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as file:
        file.writelines(parts)
    os.replace(temporary, path)


STATE_BATCH = 1024  # skills serialised at once in state.json


def state_json(generation: int, code: str, token: str, slots: dict[str, list],
               words_of: Callable[[str], str] | None = None) -> Iterator[bytes]:  # fmt: skip
    """orjson.dumps({"generation": ..., "code": ..., "token": ..., "slots": slots}) a batch of skills at a time:
    the slots hold every word of every skill, and the whole file is never one bytes object. A skill whose entry
    holds None for its words has them from words_of(its id), read as its batch is written."""
    head = orjson.dumps({"generation": generation, "code": code, "token": token})
    yield head[:-1] + b',"slots":{'
    items = iter(slots.items())
    separator = b""
    while batch := list(itertools.islice(items, STATE_BATCH)):
        whole = {
            skill_id: entry if entry[2] is not None or words_of is None else [entry[0], entry[1], words_of(skill_id)]
            for skill_id, entry in batch
        }
        yield separator + orjson.dumps(whole)[1:-1]
        separator = b","
    yield b"}}"


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
    return index_documents(directory, documents if isinstance(documents, Sequence) else list(documents), code).stats


class DocumentName(NamedTuple):
    """What squatters() looks at of a document."""

    id: str
    tier: str
    normalized_name: str


def index_documents(
    directory: Path, documents: Sequence[SearchDocument], code: str = "", keep_postings: bool = False
) -> IndexUpdate:
    """Bring the index in `directory` up to `documents`: only added, changed and removed skills are touched.

    Each document is read from `documents` when it is needed (the build's are read back from a file, one at a
    time): what is kept of every skill is its position, key and name; of a changed one, its words, for state.json.
    """
    started = time.perf_counter()
    ix, slots, previous = _open_or_create(directory, code)
    created = not slots and not previous
    wanted: dict[str, tuple[int, str]] = {}  # id -> its position in documents, its key
    names: dict[str, DocumentName] = {}
    for number, doc in enumerate(documents):
        wanted[doc.id] = (number, doc.key)
        names[doc.id] = DocumentName(doc.id, doc.tier, doc.normalized_name)
    assigned = assign_slots(wanted)
    changed = [
        doc_id for doc_id, (_, key) in wanted.items()
        if doc_id not in slots or slots[doc_id][0] != assigned[doc_id] or slots[doc_id][1] != key
    ]  # fmt: skip
    changed.sort(key=assigned.__getitem__)  # document numbers in slot order: a word's postings ascend in both
    removed = sorted(set(slots) - set(wanted))
    changed_words: set[str] = set()
    changed_slots: set[int] = set()
    vocabulary = {} if created else read_vocabulary(directory)
    token = previous
    postings = None
    if changed or removed:
        replaced = [doc_id for doc_id in changed if doc_id in slots]
        for doc_id in removed + replaced:
            slot, _, old = slots[doc_id]
            old_words = old.split(" ") if old else []
            changed_words.update(old_words)
            changed_slots.add(slot)
            for word in old_words:
                vocabulary[word][0] -= 1
        for doc_id in removed:
            del slots[doc_id]
        writer = ix.writer()
        bulk = BulkWords(writer, keep=keep_postings and created)
        for doc_id in removed + replaced:
            writer.delete_by_term("id", doc_id)
        for doc_id in changed:
            number, key = wanted[doc_id]
            doc = documents[number]
            slot = assigned[doc_id]
            slots[doc_id] = [slot, key, None]  # its words are read again as state.json is written
            changed_slots.add(slot)
            exact = [doc.normalized_name, doc_id] if doc.normalized_name else [doc_id]
            docnum = writer.docnum
            writer.add_document(
                slot=slot, id=doc_id, key=key, exact=",".join(exact), name=doc.name,
                description=doc.description, tags=list(doc.tags), category=doc.category, publisher=doc.publisher,
                version=doc.version, tier=doc.tier, risk=doc.risk, dialect=",".join(doc.dialects),
                last_updated=doc.last_updated,
            )  # fmt: skip
            bulk.add_words(docnum, doc.word_list(), doc.weights)
        for word, count in bulk.document_frequencies().items():
            changed_words.add(word)
            entry = vocabulary.get(word)
            if entry is None:
                vocabulary[word] = [count, stem_hash(word)]
            else:
                entry[0] += count
        for word in changed_words:
            if vocabulary[word][0] <= 0:
                del vocabulary[word]
        writer.commit()
        if bulk.table is not None:
            postings = bulk.table
            postings.renumber(np.array([assigned[doc_id] for doc_id in changed], dtype=np.uint32))
        _replace(directory / VOCABULARY, orjson.dumps(vocabulary, option=orjson.OPT_SORT_KEYS))
    summary = {
        "live": len(slots),
        "size": slot_count(len(slots)),
        "squatters": sorted(slots[doc_id][0] for doc_id in squatters(names.values())),
        # The table queries of this index are expanded with, here and in the site's manifest alike.
        "synonyms": [list(group) for group in synonym_groups()],
    }
    if not (directory / "meta.json").is_file() or read_meta(directory) != summary:
        _replace(directory / "meta.json", orjson.dumps(summary))
    if changed or removed:
        # Last: until this names the new generation, the next build starts over.
        generation = index.open_dir(str(directory)).latest_generation()
        token = secrets.token_hex(8)

        def words_of(doc_id: str) -> str:
            return documents[wanted[doc_id][0]].words

        _replace_with(directory / "state.json", state_json(generation, code, token, slots, words_of))
    ix.close()
    stats = IndexStats(
        len(changed), len(removed), len(wanted) - len(changed), time.perf_counter() - started,
        frozenset(changed_words), frozenset(changed_slots), previous, token,
    )  # fmt: skip
    return IndexUpdate(stats, vocabulary, summary, postings)


def squatters(documents: Iterable[SearchDocument | DocumentName]) -> list[str]:
    """Community skills named exactly like an official or verified one: ranked after every other skill."""
    documents = list(documents)
    trusted = {d.normalized_name for d in documents if d.tier in ("official", "verified") and d.normalized_name}
    return sorted(d.id for d in documents if d.tier == "community" and d.normalized_name in trusted)


def read_meta(directory: Path) -> dict:
    return orjson.loads((directory / "meta.json").read_bytes())


def read_vocabulary(directory: Path) -> dict[str, list[int]]:
    """Every indexed word: [how many skills hold it, terms.stem_hash of it]."""
    path = directory / VOCABULARY
    return orjson.loads(path.read_bytes()) if path.is_file() else {}


class IndexPostings:
    """Postings of the `words` field as arrays of (slot, weight), read a block at a time.

    Whoosh's matcher yields one posting per Python call; a common word has a posting in most
    skills, so its blocks (arrays of up to 128 ids and weights) are read whole instead.
    """

    def __init__(self, searcher) -> None:
        self.reader = searcher.reader()
        self.leaves = []  # (leaf reader, its first document number, its deleted documents or None)
        for leaf, offset in self.reader.leaf_readers():
            deleted = None
            if leaf.has_deletions():
                deleted = np.zeros(leaf.doc_count_all(), dtype=bool)
                deleted[np.fromiter(leaf.deleted_docs_set, dtype=np.int64)] = True
            self.leaves.append((leaf, offset, deleted))
        count = self.reader.doc_count_all()
        # An index with no document has no column to read.
        slot_column = self.reader.column_reader("slot") if count else []
        self.slot_of = np.fromiter((slot_column[n] for n in range(count)), dtype=np.int64, count=count)
        self.format = searcher.schema["words"].format

    def postings(self, word: str) -> tuple[np.ndarray, np.ndarray]:
        ids: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        term = word.encode("utf-8")
        for leaf, offset, deleted in self.leaves:
            try:
                matcher = leaf._terms.matcher("words", term, self.format)
            except TermNotFound:
                continue
            leaf_ids, leaf_weights = _matcher_arrays(matcher)
            if deleted is not None:
                keep = ~deleted[leaf_ids]
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
    if isinstance(matcher, W3LeafMatcher) and not matcher._byteids:
        # Each block's data as Whoosh pickled it (W3LeafMatcher._read_data): its ids as gaps from the block's first,
        # decoded here for every block at once instead of one id per Python call.
        gaps, weights, lengths = [], [], []
        while True:
            matcher._read_data()
            block_gaps, block_weights, _ = matcher._data
            count = matcher._blocklength
            gaps.append(block_gaps)
            lengths.append(count)
            if block_weights is None or isinstance(block_weights, float):
                weights.append((1.0 if block_weights is None else block_weights,) * count)
            else:
                weights.append(block_weights)
            if matcher._lastblock:
                break
            matcher._next_block()
        total = sum(lengths)
        ids = np.cumsum(np.fromiter(itertools.chain.from_iterable(gaps), dtype=np.int64, count=total))
        if len(lengths) > 1:
            ends = np.cumsum(lengths)[:-1]
            ids -= np.repeat(np.concatenate(([0], ids[ends - 1])), lengths)
        found = np.fromiter(itertools.chain.from_iterable(weights), dtype=np.float64, count=total)
        return ids, found.astype(np.int64)
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

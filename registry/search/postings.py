"""The `postings/<bucket>.bin` files' encoder: the build's side of the codec shards.py reads (README "Search for
agents"). Kept apart from shards.py, which every `skill-registry search` process imports: a query never encodes.

A build encodes many words at once (PostingsTable.raw): every document gap and weight of a batch of files becomes
varints in a few array operations, rather than a Python call per word.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from registry.search.terms import BIT_COUNT, FIELD_MASK


def encode_varint(value: int, out: bytearray) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


_ONE_BYTE = [bytes((value,)) for value in range(0x80)]


def varint(value: int) -> bytes:
    if value < 0x80:
        return _ONE_BYTE[value]
    out = bytearray()
    encode_varint(value, out)
    return bytes(out)


def _varint_array(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unsigned LEB128 of every value, concatenated, as bytes (uint8), and each value's size in bytes."""
    values = np.asarray(values).astype(np.uint64)
    sizes = np.ones(len(values), dtype=np.int64)
    for shift in (7, 14, 21, 28, 35, 42, 49, 56, 63):
        more = values >= (np.uint64(1) << np.uint64(shift))
        if not more.any():
            break
        sizes += more
    out = np.empty(int(sizes.sum()), dtype=np.uint8)
    starts = np.cumsum(sizes) - sizes
    remaining = values.copy()
    for byte in range(int(sizes.max(initial=1))):
        active = sizes > byte
        chunk = (remaining[active] & np.uint64(0x7F)).astype(np.uint8)
        more = sizes[active] > byte + 1
        out[starts[active] + byte] = chunk | (more.astype(np.uint8) << 7)
        remaining[active] >>= np.uint64(7)
    return out, sizes


def encode_varints(values: np.ndarray) -> bytes:
    """Unsigned LEB128 of every value, concatenated (the vector form of encode_varint)."""
    return _varint_array(values)[0].tobytes()


def _scatter(out: np.ndarray, source: np.ndarray, lengths: np.ndarray, destinations: np.ndarray) -> None:
    """Copy consecutive runs of `source` (run i: lengths[i] items) to out[destinations[i]:], all at once."""
    if not len(source):
        return
    shift = destinations - (np.cumsum(lengths) - lengths)
    out[np.arange(len(source), dtype=np.int64) + np.repeat(shift, lengths)] = source


class PostingsTable:
    """Many words' postings in three arrays: word i's documents (ascending) and their weights are
    documents[starts[i]:starts[i + 1]] and weights[starts[i]:starts[i + 1]]. What the build writes
    `postings/<bucket>.bin` files from, many at once (encode_postings is one file of it)."""

    def __init__(self, words: Sequence[str], starts: np.ndarray, documents: np.ndarray, weights: np.ndarray) -> None:
        self.words = list(words)
        self.starts = np.asarray(starts, dtype=np.int64)
        self.documents = np.asarray(documents)  # any integer type: a registry's worth is kept as uint32
        self.weights = np.asarray(weights)

    @classmethod
    def from_entries(cls, entries: Iterable[tuple[str, np.ndarray, np.ndarray]]) -> PostingsTable:
        """(word, ascending documents, weights) per word, in the table's order."""
        entries = list(entries)
        counts = [len(documents) for _, documents, _ in entries]
        starts = np.zeros(len(entries) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        empty = np.empty(0, dtype=np.int64)
        return cls(
            [word for word, _, _ in entries], starts,
            np.concatenate([np.asarray(d, dtype=np.int64) for _, d, _ in entries] or [empty]),
            np.concatenate([np.asarray(w, dtype=np.int64) for _, _, w in entries] or [empty]),
        )  # fmt: skip

    def __len__(self) -> int:
        return len(self.words)

    def counts(self) -> np.ndarray:
        """How many postings each word has."""
        return np.diff(self.starts)

    def take(self, order: np.ndarray) -> PostingsTable:
        """The same postings with the words in `order` (indices into this table)."""
        order = np.asarray(order, dtype=np.int64)
        counts = np.diff(self.starts)[order]
        starts = np.zeros(len(order) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        picked = np.arange(int(starts[-1]), dtype=np.int64) + np.repeat(self.starts[:-1][order] - starts[:-1], counts)
        words = self.words
        return PostingsTable([words[i] for i in order.tolist()], starts, self.documents[picked], self.weights[picked])

    def take_each(self, orders: Sequence[np.ndarray]) -> Iterator[PostingsTable]:
        """take(order) for each of `orders`, in turn."""
        return (self.take(order) for order in orders)

    def raw(self) -> tuple[bytes, np.ndarray]:
        """Every word's bytes in the `postings/<bucket>.bin` layout (before deflating), in table order, and where
        word i starts (offsets[i]; offsets[len] is the end): a file is the words of a run of the table.

        Per word: varint length, the ASCII word, varint count, then three runs of `count` values: the
        document gaps (varints), the field bits (one byte each) and the eighths of the pseudo-frequency (varints).
        """
        starts = self.starts
        documents, weights = self.documents.astype(np.int64), self.weights.astype(np.int64)
        counts = np.diff(starts)
        gaps = np.diff(documents, prepend=0)
        firsts = starts[:-1][counts > 0]
        gaps[firsts] = documents[firsts]
        gap_bytes, gap_sizes = _varint_array(gaps)
        tf_bytes, tf_sizes = _varint_array(weights >> BIT_COUNT)
        bits = (weights & FIELD_MASK).astype(np.uint8)
        gap_ends = np.zeros(len(gaps) + 1, dtype=np.int64)
        np.cumsum(gap_sizes, out=gap_ends[1:])
        tf_ends = np.zeros(len(gaps) + 1, dtype=np.int64)
        np.cumsum(tf_sizes, out=tf_ends[1:])
        gap_lengths = gap_ends[starts[1:]] - gap_ends[starts[:-1]]
        tf_lengths = tf_ends[starts[1:]] - tf_ends[starts[:-1]]
        headers = []
        for word, count in zip(self.words, counts.tolist(), strict=True):
            data = word.encode("utf-8")
            headers.append(varint(len(data)) + data + varint(count))
        header_lengths = np.fromiter(map(len, headers), dtype=np.int64, count=len(headers))
        offsets = np.zeros(len(headers) + 1, dtype=np.int64)
        np.cumsum(header_lengths + gap_lengths + counts + tf_lengths, out=offsets[1:])
        out = np.empty(int(offsets[-1]), dtype=np.uint8)
        at = offsets[:-1].copy()
        _scatter(out, np.frombuffer(b"".join(headers), dtype=np.uint8), header_lengths, at)
        at += header_lengths
        _scatter(out, gap_bytes, gap_lengths, at)
        at += gap_lengths
        _scatter(out, bits, counts, at)
        at += counts
        _scatter(out, tf_bytes, tf_lengths, at)
        return out.tobytes(), offsets


class CollectedPostings:
    """Postings as an index writer collects them, document after document: posting j is word term_ids[j] (an index
    into `words`) of weight weights[j], in the document of its run: run k, postings [run_ends[k - 1], run_ends[k]),
    is document run_documents[k]. Eight bytes a posting and nothing per word but its string: what a registry's worth
    of postings is kept as, and read a run of words at a time (take) in the order a file wants them, instead of
    being sorted whole into a second copy."""

    def __init__(self, words: Sequence[str], term_ids: np.ndarray, weights: np.ndarray, run_documents: np.ndarray,
                 run_ends: np.ndarray) -> None:  # fmt: skip
        self.words = list(words)
        self.term_ids = np.asarray(term_ids)
        self.weights = np.asarray(weights)
        self.run_documents = np.asarray(run_documents)
        self.run_ends = np.asarray(run_ends)

    @classmethod
    def from_documents(cls, words: Sequence[str], term_ids: np.ndarray, documents: np.ndarray,
                       weights: np.ndarray) -> CollectedPostings:  # fmt: skip
        """Posting j in document documents[j]."""
        documents = np.asarray(documents)
        firsts = np.flatnonzero(np.diff(documents, prepend=-1) != 0) if len(documents) else np.empty(0, np.int64)
        return cls(words, term_ids, weights, documents[firsts], np.append(firsts[1:], len(documents)))

    def __len__(self) -> int:
        return len(self.words)

    def counts(self) -> np.ndarray:
        return count_words(self.term_ids, len(self.words))

    def documents(self, postings: np.ndarray) -> np.ndarray:
        """The document of each of these postings (their numbers)."""
        return self.run_documents[np.searchsorted(self.run_ends, postings, side="right")]

    def take(self, order: np.ndarray) -> PostingsTable:
        """The postings of the words `order` names (indices into `words`), in that order, each word's documents
        ascending."""
        return next(self.take_each([order]))

    def take_each(self, orders: Sequence[np.ndarray]) -> Iterator[PostingsTable]:
        """take(order) for each of `orders` (at most 255, naming distinct words), in turn, reading every posting
        once for all of them: a byte a posting and eight a taken one beside the tables' own."""
        if len(orders) > 255:
            raise ValueError(f"{len(orders)} runs of words at once: at most 255")
        group = np.full(len(self.words), 255, dtype=np.uint8)  # each word's order, 255: none
        for number, order in enumerate(orders):
            group[np.asarray(order, dtype=np.int64)] = number
        groups = group[self.term_ids]
        picked = np.flatnonzero(groups != 255)
        groups = groups[picked]
        picked = picked[np.argsort(groups, kind="stable")]  # by order, each order's postings as collected
        bounds = np.zeros(len(orders) + 1, dtype=np.int64)
        np.cumsum(np.bincount(groups, minlength=len(orders)), out=bounds[1:])
        del groups
        for number, order in enumerate(orders):
            yield self._table(np.asarray(order, dtype=np.int64), picked[bounds[number] : bounds[number + 1]])

    def _table(self, order: np.ndarray, picked: np.ndarray) -> PostingsTable:
        """The table of the words `order` names from `picked`, the numbers of their postings."""
        position = np.zeros(len(self.words), dtype=np.uint64)
        position[order] = np.arange(1, len(order) + 1, dtype=np.uint64)
        documents = self.documents(picked)
        # One sort of (word's position, document): a word is in a document once, so any sort gives the same order.
        key = (position[self.term_ids[picked]] << np.uint64(32)) | documents.astype(np.uint64)
        sort = np.argsort(key)
        counts = np.bincount((key >> np.uint64(32)).astype(np.int64), minlength=len(order) + 1)[1:]
        del key
        starts = np.zeros(len(order) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        words = self.words
        return PostingsTable([words[i] for i in order.tolist()], starts, documents[sort], self.weights[picked[sort]])

    def renumber(self, numbers: np.ndarray) -> None:
        """Every document d becomes numbers[d], in place."""
        self.run_documents[:] = numbers[self.run_documents]


def count_words(term_ids: np.ndarray, words: int, batch: int = 1 << 20) -> np.ndarray:
    """How many times each of `words` word numbers occurs in term_ids. A batch at a time: np.bincount makes an
    int64 copy of what it counts, eight bytes a posting."""
    counts = np.zeros(words, dtype=np.int64)
    for start in range(0, len(term_ids), batch):
        counts += np.bincount(term_ids[start : start + batch], minlength=words)
    return counts


# Runs of words taken at each read of every collected posting (CollectedPostings.take_each): fewer reads of a
# registry's worth (each 23 ms at 15 million postings), for eight bytes a taken posting more.
RUNS_PER_READ = 4


def runs_per_read(runs: Sequence[tuple[int, int]]) -> Iterator[Sequence[tuple[int, int]]]:
    """word_runs' runs, RUNS_PER_READ at a time."""
    for start in range(0, len(runs), RUNS_PER_READ):
        yield runs[start : start + RUNS_PER_READ]


def word_runs(counts: np.ndarray, limit: int) -> list[tuple[int, int]]:
    """Consecutive runs [first, last) of words (counts: each word's postings, in order) of at most `limit` postings
    each, or of one word when it alone has more."""
    ends = np.cumsum(counts)
    runs = []
    first = 0
    while first < len(counts):
        before = int(ends[first - 1]) if first else 0
        last = max(first + 1, int(np.searchsorted(ends, before + limit, side="right")))
        runs.append((first, last))
        first = last
    return runs


# zlib's default level: at 10,000 synthetic skills the postings files are 0.3% larger than at level 9 and deflate
# in 40% of its time (0.26 s against 0.68 s of CPU for every file, bench/search_build.py).
DEFLATE_LEVEL = 6


def deflate(data: bytes) -> bytes:
    """Raw deflate (RFC 1951): how every postings file is packed."""
    packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def encode_postings(entries: Iterable[tuple[str, np.ndarray, np.ndarray]]) -> bytes:
    """(word, ascending documents, weights) per word, sorted by word: the `postings/<bucket>.bin` layout
    (PostingsTable.raw), the whole file deflated (raw, RFC 1951). Runs of like values compress best: every
    file is about a third smaller than the same postings interleaved.
    """
    return deflate(PostingsTable.from_entries(entries).raw()[0])

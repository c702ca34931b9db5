"""The search shards: their codec, and that a build writes only the shards a change touches."""

import pickle
import random
import shutil
import weakref
import zlib
from collections.abc import Sequence

import numpy as np
import orjson
import pytest
from conftest import SKILLS_INDEX
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory_source import document

from registry.build import build
from registry.config import BuildOptions, search_cache
from registry.emit import search as emit_search_module
from registry.emit.output import SiteOutput
from registry.emit.search import STATE_KEY, emit_search
from registry.search import index as search_index
from registry.search import shards
from registry.search.postings import (
    CollectedPostings,
    PostingsTable,
    count_words,
    encode_postings,
    encode_varint,
    encode_varints,
    word_runs,
)
from registry.search.shards import DESCRIPTIONS, decode_postings
from registry.search.terms import bucket_of, prefix2
from registry.state import BuildState


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)  # slow on a loaded machine, not wrong
@given(st.lists(st.integers(min_value=0, max_value=2**40), max_size=60))
def test_vector_varints_equal_one_at_a_time(values):
    one_by_one = bytearray()
    for value in values:
        encode_varint(value, one_by_one)
    assert encode_varints(np.array(values, dtype=np.uint64)) == bytes(one_by_one)


postings = st.dictionaries(
    st.text(alphabet="abcdefgh0123", min_size=1, max_size=12),
    st.lists(
        st.tuples(st.integers(0, 70_000), st.integers(32, 2**21 - 1)), min_size=1, max_size=40, unique_by=lambda p: p[0]
    ),
    max_size=8,
)


def one_word_at_a_time(word, documents, weights):
    """The postings layout as README "Search for agents" gives it, one value at a time: the reference."""
    out = bytearray()
    data = word.encode("utf-8")
    encode_varint(len(data), out)
    out += data
    encode_varint(len(documents), out)
    previous = 0
    for number in documents:
        encode_varint(number - previous, out)
        previous = number
    out += bytes(weight & 31 for weight in weights)
    for weight in weights:
        encode_varint(weight >> 5, out)
    return bytes(out)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(postings, st.randoms(use_true_random=False))
def test_a_table_of_many_words_encodes_each_as_the_layout_says(entries, rnd):
    written = [
        (word, np.array(sorted(d for d, _ in found)), np.array([w for _, w in sorted(found)]))
        for word, found in sorted(entries.items())
    ]
    table = PostingsTable.from_entries(written)
    order = list(range(len(written)))
    rnd.shuffle(order)
    raw, offsets = table.take(np.array(order, dtype=np.int64)).raw()
    for position, number in enumerate(order):
        assert raw[offsets[position] : offsets[position + 1]] == one_word_at_a_time(*written[number])
    assert zlib.decompress(encode_postings(written), -15) == b"".join(one_word_at_a_time(*w) for w in written)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(postings)
def test_postings_read_back_as_written(entries):
    written = [
        (word, np.array(sorted(d for d, _ in found)), np.array([w for _, w in sorted(found)]))
        for word, found in sorted(entries.items())
    ]
    read = decode_postings(encode_postings(written))
    assert list(read) == [word for word, _, _ in written]
    for word, documents, weights in written:
        assert read[word][0] == documents.tolist() and read[word][1] == weights.tolist()


def search_files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in (out / "search").rglob("*") if p.is_file()}


def test_one_changed_skill_rewrites_only_the_shards_it_touches(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(SKILLS_INDEX, source)
    out = tmp_path / "site"
    build(BuildOptions(source=source, out=out))
    before = search_files(out)
    skill_md = next(source.rglob("SKILL.md"))
    skill_md.write_text(skill_md.read_text() + "\nRun zanzibarquux to check the quorum.\n")
    result = build(BuildOptions(source=source, out=out))
    after = search_files(out)
    changed = sorted(path for path in after if before.get(path) != after[path])
    assert 0 < result.search.shards_changed == len(changed) + sum(1 for path in before if path not in after)
    # Only files holding the changed skill's words (old or new) may change: its postings buckets and
    # vocabulary files, and the manifest's list of files; its record and tie-break key are the same.
    words = result.search.whoosh.changed_words
    assert "zanzibarquux" in words
    buckets = orjson.loads(after["search/manifest.json"])["buckets"]
    allowed = {f"search/postings/{bucket_of(w, buckets)}.bin" for w in words}
    allowed |= {f"search/vocab/{prefix2(w)}.json" for w in words} | {"search/manifest.json"}
    assert set(changed) <= allowed, set(changed) - allowed
    assert "search/vocab/za.json" in changed
    made_again = result.search.shards_written - len([p for p in after if p.split("/")[1] in ("names", "filters")]) - 1
    (slot,) = result.search.whoosh.changed_slots
    assert made_again <= len(allowed | {f"docs/{slot // 8}", f"order/{slot // 64}"})  # nothing else was made again

    clean = tmp_path / "clean"
    build(BuildOptions(source=source, out=clean))
    assert search_files(clean) == after  # incremental shards are byte for byte a clean build's


def test_shards_another_version_of_the_code_made_are_made_again(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(SKILLS_INDEX, source)
    out = tmp_path / "site"
    build(BuildOptions(source=source, out=out))
    state = BuildState(search_cache(out) / "state.sqlite")
    state.set_meta(STATE_KEY, {**state.meta(STATE_KEY), "code": "an older version"})
    state.close()
    skill_md = next(source.rglob("SKILL.md"))
    skill_md.write_text(skill_md.read_text() + "\nOne more line.\n")
    again = build(BuildOptions(source=source, out=out))
    assert again.search.shards_kept == 0 and again.search.shards_written > 0


WORDS = "deploy deployment kubernetes pod logs csv export pdf tables ocr git commit message lint docker".split()


def random_document(rnd, skill_id):
    body = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 40)))
    description = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 60)))  # some shortened in docs/
    tier = rnd.choice(["community", "community", "verified", "official"])
    name = "-".join(rnd.sample(WORDS, 2)) + f"-{rnd.randint(0, 3)}"
    return document(
        skill_id, name, tier=tier, description=description, body=body, updated="2024-05-0" + str(rnd.randint(1, 9))
    )


class StageRunner:
    """The build's search stage (emit_search) over documents, as one build after another runs it: each writes into
    the folder holding the last site, with the same cache and build state."""

    def __init__(self, root):
        self.root = root
        self.cache = root / ".site.cache"
        self.cache.mkdir(parents=True)
        self.state = BuildState(self.cache / "state.sqlite")
        self.last = None

    def run(self, documents):
        last = self.last
        site = self.root / "site"
        writer = SiteOutput(site, last.desired, last.root, last.present) if last else SiteOutput(site)
        stats = emit_search(writer, documents if isinstance(documents, Sequence) else list(documents), self.cache,
                            self.state, "test")  # fmt: skip
        writer.finish()
        self.last = writer
        return stats, self.files()

    def files(self):
        found = {
            p.relative_to(self.root).as_posix(): p.read_bytes() for p in (self.root / "site").rglob("*") if p.is_file()
        }
        descriptions = self.cache / DESCRIPTIONS
        found |= {f"descriptions/{p.name}": p.read_bytes() for p in descriptions.glob("*.json")}
        return found

    def close(self):
        self.state.close()


def clean_files(tmp_path, documents):
    runner = StageRunner(tmp_path / f"clean-{len(list(tmp_path.iterdir()))}")
    _, files = runner.run(documents)
    runner.close()
    return files


def test_incremental_shards_equal_a_clean_build_after_every_change(tmp_path):
    """Skills added, edited, removed and renamed, round after round (enough slots for some to collide and move, a
    change of bucket count on the way): every incremental stage leaves the bytes a clean one makes, and rewrites
    only shards of the changed skills' words, records and keys."""
    rnd = random.Random(23)
    documents = {f"p/s{i}": random_document(rnd, f"p/s{i}") for i in range(40)}
    runner = StageRunner(tmp_path / "incremental")
    stats, files = runner.run(documents.values())
    assert files == clean_files(tmp_path, documents.values())
    for round_number in range(14):
        before = files
        for skill_id in rnd.sample(sorted(documents), 2):
            documents[skill_id] = random_document(rnd, skill_id)
        for skill_id in rnd.sample(sorted(documents), 1):
            del documents[skill_id]
        for i in range(rnd.choice([1, 2, 20 if round_number == 6 else 3])):  # one round grows past 256 slots
            skill_id = f"q/r{round_number}-{i}"
            documents[skill_id] = random_document(rnd, skill_id)
        stats, files = runner.run(documents.values())
        assert files == clean_files(tmp_path, documents.values()), round_number
        buckets = orjson.loads(files["site/search/manifest.json"])["buckets"]
        if buckets == orjson.loads(before["site/search/manifest.json"])["buckets"]:
            touched = {f"site/search/postings/{bucket_of(w, buckets)}.bin" for w in stats.whoosh.changed_words}
            postings = {p for p in files if p.startswith("site/search/postings/") and before.get(p) != files[p]}
            assert postings <= touched
            assert stats.shards_kept > 0
    runner.close()


@pytest.mark.parametrize("batches", [None, (5, 7), (1, 1)])
def test_shards_from_a_new_index_equal_shards_read_back_from_it(tmp_path, monkeypatch, batches):
    """A cold build writes the postings files from the postings the new index was just written from; a build that
    finds the index but not the shards' state reads every word back from the index: the same bytes, however few
    postings the index and the shards take at once (`batches`; one word's postings are never split)."""
    if batches is not None:
        monkeypatch.setattr(search_index, "WRITE_BATCH", batches[0])
        monkeypatch.setattr(emit_search_module, "POSTINGS_BATCH", batches[1])
    rnd = random.Random(5)
    documents = [random_document(rnd, f"p/s{i}") for i in range(60)]
    runner = StageRunner(tmp_path / "a")
    first, files = runner.run(documents)
    assert first.whoosh.indexed == len(documents)
    runner.state.set_meta(STATE_KEY, None)
    again, files_again = runner.run(documents)
    assert again.whoosh.indexed == 0 and again.shards_kept == 0
    assert files_again == files
    runner.close()


def test_a_new_index_hands_its_writer_bounded_batches_of_words(tmp_path, monkeypatch):
    """Whoosh's words are written a run of words at a time, each run at most WRITE_BATCH postings or a single word:
    what is held as Python values at once does not grow with the registry."""
    limit = 200
    monkeypatch.setattr(search_index, "WRITE_BATCH", limit)
    seen = []
    real = search_index.write_terms

    def recording(fieldwriter, name, field, batches):
        def noted():
            for batch in batches:
                terms, starts = batch[0], batch[1]
                if name == "words":
                    seen.append((len(terms), int(starts[-1])))
                yield batch

        real(fieldwriter, name, field, noted())

    monkeypatch.setattr(search_index, "write_terms", recording)
    rnd = random.Random(4)
    documents = [random_document(rnd, f"p/s{i}") for i in range(80)]
    runner = StageRunner(tmp_path / "a")
    runner.run(documents)
    runner.close()
    total = sum(len(d.word_list()) for d in documents)
    assert sum(postings for _, postings in seen) == total and len(seen) > 1
    assert all(postings <= limit or terms == 1 for terms, postings in seen)
    assert any(terms > 1 for terms, _ in seen)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(postings, st.randoms(use_true_random=False))
def test_collected_postings_give_the_table_of_the_same_postings(entries, rnd):
    """Postings as an index writer collects them (document after document, its words in any order) taken a run of
    words at a time: the same table as those postings sorted by word."""
    words = sorted(entries)
    collected = [(document, number, weight) for number, word in enumerate(words) for document, weight in entries[word]]
    rnd.shuffle(collected)
    collected.sort(key=lambda posting: posting[0])  # document after document, words in no order
    term_ids = np.array([number for _, number, _ in collected], dtype=np.uint32)
    documents = np.array([d for d, _, _ in collected], dtype=np.uint32)
    table = CollectedPostings.from_documents(
        words, term_ids, documents, np.array([w for _, _, w in collected], dtype=np.uint32)
    )
    assert len(table.run_documents) == len(set(documents.tolist()))  # a run for each document
    assert table.documents(np.arange(len(documents))).tolist() == documents.tolist()
    reference = PostingsTable.from_entries(
        (word, np.array(sorted(d for d, _ in entries[word])), np.array([w for _, w in sorted(entries[word])]))
        for word in words
    )
    assert table.counts().tolist() == reference.counts().tolist() == count_words(term_ids, len(words), 3).tolist()
    order = list(range(len(words)))
    rnd.shuffle(order)
    order = np.array(order[: rnd.randint(0, len(order))], dtype=np.int64)
    taken, expected = table.take(order), reference.take(order)
    assert taken.words == expected.words and taken.starts.tolist() == expected.starts.tolist()
    assert taken.documents.tolist() == expected.documents.tolist()
    assert taken.weights.tolist() == expected.weights.tolist()
    parts = [order[: len(order) // 3], order[len(order) // 3 : len(order) // 2], order[len(order) // 2 :]]
    for part, taken in zip(parts, table.take_each(parts), strict=True):  # one read of the postings for all three
        expected = reference.take(part)
        assert taken.words == expected.words and taken.documents.tolist() == expected.documents.tolist()
        assert taken.weights.tolist() == expected.weights.tolist()
    table.renumber(np.arange(70_001, dtype=np.uint32)[::-1].copy())
    assert table.documents(np.arange(len(documents))).tolist() == [70_000 - d for d, _, _ in collected]


@given(st.lists(st.integers(0, 50), max_size=30), st.integers(1, 60))
def test_word_runs_cover_every_word_in_bounded_runs(counts, limit):
    runs = word_runs(np.array(counts, dtype=np.int64), limit)
    assert [first for first, _ in runs] == [0, *(last for _, last in runs)][: len(runs)]
    assert (runs[-1][1] if runs else 0) == len(counts)
    assert all(sum(counts[first:last]) <= limit or last == first + 1 for first, last in runs)


class ReadBack(Sequence):
    """Documents unpickled afresh each time one is asked for, as the build's spool gives them, noting how many of
    them were alive at once."""

    def __init__(self, documents):
        self.pickled = [pickle.dumps(doc) for doc in documents]
        self.alive = weakref.WeakSet()
        self.most_alive = 0

    def __len__(self):
        return len(self.pickled)

    def __getitem__(self, number):
        doc = pickle.loads(self.pickled[number])
        self.alive.add(doc)
        self.most_alive = max(self.most_alive, len(self.alive))
        return doc


def test_the_stage_holds_a_few_documents_at_a_time_and_writes_what_it_writes_from_them_all(tmp_path):
    rnd = random.Random(6)
    documents = [random_document(rnd, f"p/s{i}") for i in range(150)]
    read_back = ReadBack(documents)
    runner = StageRunner(tmp_path / "a")
    stats, files = runner.run(read_back)
    runner.close()
    assert stats.whoosh.indexed == 150
    assert files == clean_files(tmp_path, documents)
    assert read_back.most_alive <= 2 * shards.DOC_CHUNK  # a docs chunk's, never the registry's


def test_shards_left_behind_by_an_interrupted_build_are_made_again(tmp_path):
    """A build stopped after the Whoosh index took a change but before the shards did: the next build finds nothing
    changed in the index, and the shards' state names an older index, so every shard is made again."""
    from registry.search.index import update_index

    rnd = random.Random(9)
    documents = {f"p/s{i}": random_document(rnd, f"p/s{i}") for i in range(30)}
    runner = StageRunner(tmp_path / "a")
    runner.run(documents.values())
    documents["p/s3"] = document("p/s3", "zanzibar-quorum", description="Checks the zanzibarquux quorum.")
    update_index(runner.cache / "whoosh", documents.values(), "test")  # the index moves on; the shards do not
    stats, files = runner.run(documents.values())
    assert stats.whoosh.indexed == 0 and stats.shards_kept == 0
    assert files == clean_files(tmp_path, documents.values())


def test_the_stage_leaves_the_cycle_collector_as_it_found_it(tmp_path):
    import gc

    rnd = random.Random(1)
    runner = StageRunner(tmp_path / "a")
    assert gc.isenabled()
    runner.run([random_document(rnd, f"p/s{i}") for i in range(5)])
    assert gc.isenabled()
    gc.disable()
    try:
        runner.run([random_document(rnd, f"p/s{i}") for i in range(6)])
        assert not gc.isenabled()
    finally:
        gc.enable()
    runner.close()

"""The CLI's Whoosh index after any sequence of incremental updates holds exactly what a fresh one does."""

import random

import orjson
import pytest
from memory_source import MemorySource, document

from registry.search import engine
from registry.search import index as search_index
from registry.search.index import assign_slots, read_meta, read_vocabulary, state_json, update_index
from registry.search.query import WhooshSource
from registry.search.terms import stem_hash

WORDS = "deploy deployment kubernetes pod logs csv export pdf tables ocr git commit message lint docker".split()


def random_document(rnd, skill_id):
    body = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(0, 40)))
    description = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 8)))
    name = "-".join(rnd.sample(WORDS, 2))
    tier = rnd.choice(["community", "community", "verified", "official"])
    return document(skill_id, name, tier=tier, description=description, body=body)


def expected_postings(documents):
    slots = assign_slots(d.id for d in documents)
    found = {}
    for doc in documents:
        for word, weight in doc.word_weights():
            found.setdefault(word, []).append((slots[doc.id], weight))
    return {word: sorted(postings) for word, postings in found.items()}


def check(directory, documents):
    source = WhooshSource(directory)
    expected = expected_postings(documents)
    vocabulary = read_vocabulary(directory)
    assert set(vocabulary) == set(expected)
    for word, postings in expected.items():
        slots, weights = source.postings(word)
        assert list(zip(slots, weights, strict=True)) == postings, word
        assert vocabulary[word] == [len(postings), stem_hash(word)]
    for word in WORDS:
        if word not in expected:
            assert len(source.postings(word)[0]) == 0
    assert read_meta(directory)["live"] == len(documents)
    # The engine ranks alike from the index and from the documents themselves.
    memory = MemorySource(documents)
    for query in ("deploy", "csv export", "kubernetes pod logs", "comit", "dock", "git"):
        assert [r.record.id for r in engine.search(source, query, {}, 10)] == [
            r.record.id for r in engine.search(memory, query, {}, 10)
        ], query
    source.searcher.close()


def test_incremental_updates_equal_a_fresh_index(tmp_path):
    rnd = random.Random(15)
    documents = {f"p/s{i}": random_document(rnd, f"p/s{i}") for i in range(30)}
    directory = tmp_path / "whoosh"
    update_index(directory, documents.values())
    check(directory, list(documents.values()))
    for round_number in range(12):  # enough small segments for Whoosh to merge some of them
        for skill_id in rnd.sample(sorted(documents), 3):
            documents[skill_id] = random_document(rnd, skill_id)
        for skill_id in rnd.sample(sorted(documents), 2):
            del documents[skill_id]
        for i in range(3):
            skill_id = f"q/r{round_number}-{i}"
            documents[skill_id] = random_document(rnd, skill_id)
        stats = update_index(directory, documents.values())
        assert stats.indexed >= 4 and stats.removed == 2
        check(directory, list(documents.values()))
    fresh = tmp_path / "fresh"
    update_index(fresh, documents.values())
    for word in WORDS:
        a, b = WhooshSource(directory).postings(word), WhooshSource(fresh).postings(word)
        assert a == b


def test_slots_depend_only_on_the_set_of_ids():
    ids = [f"p/skill-{i}" for i in range(200)]
    slots = assign_slots(ids)
    assert len(set(slots.values())) == len(ids) and max(slots.values()) < 512
    assert assign_slots(reversed(ids)) == slots
    grown = assign_slots([*ids, "a/new"])
    moved = [i for i in ids if grown[i] != slots[i]]
    assert len(moved) <= 3  # only a skill that collided with the new one can move


def test_merged_segments_keep_every_posting(tmp_path):
    """Whoosh merges small segments when it commits: their postings come back through BulkWords.add."""
    from whoosh import index

    rnd = random.Random(3)
    documents = {}
    directory = tmp_path / "whoosh"
    for round_number in range(15):
        skill_id = f"p/s{round_number}"
        documents[skill_id] = random_document(rnd, skill_id)
        update_index(directory, documents.values())
    assert len(index.open_dir(str(directory))._segments()) < 15  # some commits merged earlier segments
    check(directory, list(documents.values()))


def segment_files(directory):
    """Each sub-file of the index's one segment, by extension (segment names are random)."""
    from whoosh import index

    ix = index.open_dir(str(directory))
    (segment,) = ix._segments()
    compound = segment.open_compound_file(ix.storage)
    found = {name.rsplit(".", 1)[1]: compound.open_file(name).read() for name in compound.list()}
    compound.close()
    ix.close()
    return found


@pytest.mark.parametrize("batch", [None, 100, 1])
def test_the_postings_are_written_as_whoosh_writes_them(tmp_path, monkeypatch, batch):
    """index.write_terms writes every indexed field (the words and the fields beside them) in Whoosh's own format
    without Whoosh's per-posting calls: the terms and postings files are byte for byte what Whoosh's writer makes of
    the same documents, however many postings are written at once (`batch`)."""
    from whoosh import index

    if batch is not None:
        monkeypatch.setattr(search_index, "WRITE_BATCH", batch)

    from registry.search.index import make_schema

    rnd = random.Random(8)
    documents = [random_document(rnd, f"p/s{i}") for i in range(300)]  # common words: several blocks of 128
    documents.append(document("p/one", "alone", body="word " * 3))  # a block of one posting
    ours = tmp_path / "ours"
    update_index(ours, documents)
    slots = assign_slots(d.id for d in documents)
    (tmp_path / "theirs").mkdir()
    theirs = index.create_in(str(tmp_path / "theirs"), make_schema())
    writer = theirs.writer()
    for doc in sorted(documents, key=lambda d: slots[d.id]):
        exact = [doc.normalized_name, doc.id] if doc.normalized_name else [doc.id]
        writer.add_document(
            slot=slots[doc.id], id=doc.id, key=doc.key, exact=",".join(exact), name=doc.name,
            description=doc.description, tags=list(doc.tags), category=doc.category, publisher=doc.publisher,
            version=doc.version, tier=doc.tier, risk=doc.risk, dialect=",".join(doc.dialects),
            last_updated=doc.last_updated, words=doc.word_weights(),
        )  # fmt: skip
    writer.commit()
    theirs.close()
    ours_files, their_files = segment_files(ours), segment_files(tmp_path / "theirs")
    assert {"trm", "pst"} <= set(ours_files)
    assert ours_files["trm"] == their_files["trm"]
    assert ours_files["pst"] == their_files["pst"]


@pytest.mark.parametrize("skills", [0, 1, 5, 40])
def test_state_json_is_written_a_batch_of_skills_at_a_time_as_one_dump_writes_it(monkeypatch, skills):
    """The same bytes as one dump of the whole state, the words of a skill whose entry leaves them out (None) read
    back as its batch is written."""
    monkeypatch.setattr(search_index, "STATE_BATCH", 4)
    slots = {f"p/s{n}": [n, f"{n:064x}", f"deploy kubernetes 中文 é {n}"] for n in range(skills)}
    parts = list(state_json(3, "code", "a1b2", slots))
    assert len(parts) == 2 + -(-skills // 4)
    whole = orjson.dumps({"generation": 3, "code": "code", "token": "a1b2", "slots": slots})
    assert b"".join(parts) == whole
    left_out = {skill_id: [slot, key, None if slot % 3 else words] for skill_id, (slot, key, words) in slots.items()}
    assert b"".join(state_json(3, "code", "a1b2", left_out, lambda skill_id: slots[skill_id][2])) == whole

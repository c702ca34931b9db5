"""The search shards: their codec, and that a build writes only the shards a change touches."""

import shutil

import numpy as np
import orjson
from conftest import SKILLS_INDEX
from hypothesis import given
from hypothesis import strategies as st

from registry.build import build
from registry.config import BuildOptions, search_cache
from registry.emit.search import STATE_KEY
from registry.search.shards import decode_postings, encode_postings, encode_varint, encode_varints
from registry.search.terms import bucket_of, prefix2
from registry.state import BuildState


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

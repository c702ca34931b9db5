"""index.json's shards are written one at a time from entries read as each shard is made, never all held at once."""

import hashlib
import json
from types import SimpleNamespace

import pytest

from registry.emit import index_json
from registry.emit.index_json import IndexEntry, IndexJson, emit_index, shard_of
from registry.emit.urls import SiteUrls
from registry.history import RepositoryInfo
from registry.lifecycle import Lifecycle
from registry.render_jobs import MemoryWriter

SIGNALS = (("official publisher", 30), ("signed", 10))
URLS = SiteUrls("https://skills.example/")


class ReadLog(list):
    """Serialised entries that note the order they are read in."""

    def __init__(self, entries):
        super().__init__(entries)
        self.read = []

    def __getitem__(self, number):
        self.read.append(number)
        return super().__getitem__(number)


def entries_for(count):
    ids = [f"publisher-{n % 7}/skill-{n:04d}" for n in range(count)]
    ids.sort()
    return ids, ReadLog(json.dumps({"id": skill_id, "n": n}).encode() for n, skill_id in enumerate(ids))


def test_each_shard_is_made_from_its_own_entries_read_once_and_in_turn(monkeypatch):
    monkeypatch.setattr(index_json, "SINGLE_FILE_MAX", 10)
    monkeypatch.setattr(index_json, "SHARD_SIZE", 8)
    ids, entries = entries_for(90)
    writer = MemoryWriter()
    lifecycle = Lifecycle(renamed={"old/one": ids[3]}, withdrawn={"gone/two": "asked"})
    emit_index(writer, entries, ids, URLS, RepositoryInfo(True, "abc"), "Skills", lifecycle, None, SIGNALS)

    count = index_json.shard_count(len(ids))
    assert count == 16
    # Every entry read exactly once, shard after shard: a shard's entries are all read before the next one's.
    assert sorted(entries.read) == list(range(len(ids)))
    shards_read = [shard_of(ids[number], count) for number in entries.read]
    assert shards_read == sorted(shards_read)

    manifest = json.loads(writer.files["index.json"])
    assert manifest["skill_count"] == 90 and len(manifest["shards"]) == count
    assert manifest["redirects"][0]["to"] == ids[3] and manifest["withdrawn"] == [{"id": "gone/two", "reason": "asked"}]
    found = []
    for number, shard in enumerate(manifest["shards"]):
        data = writer.files[f"index/{number}.json"]
        assert shard["digest"] == "sha256:" + hashlib.sha256(data).hexdigest() and shard["bytes"] == len(data)
        body = json.loads(data)
        assert body["trust_signals"] == [{"name": name, "weight": weight} for name, weight in SIGNALS]
        assert body["skill_count"] == len(body["skills"]) == shard["skill_count"]
        assert all(shard_of(entry["id"], count) == number for entry in body["skills"])
        assert [entry["id"] for entry in body["skills"]] == sorted(entry["id"] for entry in body["skills"])
        found += body["skills"]
    expected = [{**json.loads(entry), "signature": None} for entry in list.__iter__(entries)]
    assert sorted(found, key=lambda entry: entry["id"]) == expected


def test_a_small_registry_is_one_file_of_every_entry_in_order():
    ids, entries = entries_for(12)
    writer = MemoryWriter()
    emit_index(writer, entries, ids, URLS, RepositoryInfo(), "Skills", Lifecycle(), None, SIGNALS)
    whole = json.loads(writer.files["index.json"])
    assert [entry["id"] for entry in whole["skills"]] == ids and whole["skill_count"] == 12
    assert sorted(entries.read) == list(range(12))


def test_a_skill_whose_trust_signals_differ_stops_the_index():
    ids, entries = entries_for(30)
    results = [IndexEntry(entry, SIGNALS) for entry in list.__iter__(entries)]
    results[17] = IndexEntry(results[17].entry, (("official publisher", 30),))

    context = SimpleNamespace(
        published=[SimpleNamespace(id=skill_id) for skill_id in ids], urls=URLS, repository=RepositoryInfo(),
        title="Skills", lifecycle=Lifecycle(), options=SimpleNamespace(signing=None),
    )  # fmt: skip
    with pytest.raises(ValueError, match="trust signals differ"):
        IndexJson().site(context, MemoryWriter(), results)

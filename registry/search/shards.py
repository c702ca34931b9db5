"""The site's search shards (format 2, README "Search for agents"): their layout, codec and a reader.

The browser (static/search-rank.js) and agents read these files over HTTP; `ShardSource` reads
them from a built site, the reference reader tests compare with the CLI and the browser.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import orjson

from registry.search.engine import Record
from registry.search.terms import BIT_COUNT, bucket_of

FORMAT = 2
DOC_CHUNK = 8
ORDER_CHUNK = 64
FOLDER = "search"
DESCRIPTIONS = "search-descriptions"  # in the build cache (config.search_cache): what docs/ files shorten


def description_file(folder: Path, number: int) -> Path:
    """The whole descriptions of docs chunk `number`: per document [id, description] when docs/ shortens it, or null."""
    return folder / f"{number}.json"


def name_shard(key: str) -> str | None:
    """The names file a normalized name or an id lives in: its first two ASCII letters or digits, or for a
    name without any, `_` and the hex code of its first character."""
    letters = ""
    for character in key:
        if character.isascii() and character.isalnum():
            letters += character
            if len(letters) == 2:
                break
    return letters or (f"_{ord(key[0]):x}" if key else None)


def decode_postings(packed: bytes) -> dict[str, tuple[list[int], list[int]]]:
    """word -> (ascending documents, weights), as encode_postings wrote them."""
    data = zlib.decompress(packed, -15)
    found = {}
    position = 0

    def varint() -> int:
        nonlocal position
        value = shift = 0
        while True:
            byte = data[position]
            position += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    while position < len(data):
        length = varint()
        word = data[position : position + length].decode("utf-8")
        position += length
        count = varint()
        documents = list(itertools.accumulate(varint() for _ in range(count)))
        bits = data[position : position + count]
        position += count
        found[word] = (documents, [(varint() << BIT_COUNT) | field_bits for field_bits in bits])
    return found


class ShardSource:
    """engine.Source over the `search/` folder of a built site."""

    def __init__(self, site: Path) -> None:
        self.root = site / FOLDER
        self.manifest = orjson.loads((self.root / "manifest.json").read_bytes())
        self.live = self.manifest["live"]
        self.size = self.manifest["documents"]
        self.squatters = frozenset(self.manifest["squatters"])
        self.synonyms = self.manifest.get("synonyms", [])
        self.buckets = self.manifest["buckets"]
        self.fetched: dict[str, object] = {}  # every file read, once, as a browser caches them

    def _read(self, relative: str, decode):
        if relative not in self.fetched:
            path = self.root / relative
            self.fetched[relative] = decode(path.read_bytes()) if path.is_file() else None
        return self.fetched[relative]

    def _json(self, relative: str):
        return self._read(relative, orjson.loads)

    def vocabulary(self, prefix: str) -> Mapping[str, int]:
        return self._json(f"vocab/{prefix}.json") or {}

    def _bucket(self, bucket: int) -> dict[str, tuple[list[int], list[int]]]:
        return self._read(f"postings/{bucket}.bin", decode_postings) or {}

    def postings(self, word: str) -> tuple[Sequence[int], Sequence[int]]:
        return self._bucket(bucket_of(word, self.buckets)).get(word, ((), ()))

    def exact(self, key: str) -> Iterable[int]:
        shard = name_shard(key)
        return (self._names(shard) or {}).get(key, []) if shard else []

    def _names(self, shard: str):
        return self._json(f"names/{shard}.json")

    def _filter(self, field: str):
        return self._json(f"filters/{field}.json") or {}

    def with_value(self, field: str, value: str) -> Iterable[int]:
        return self._filter(field).get(value, [])

    def _chunk(self, number: int):
        return self._json(f"docs/{number}.json") or []

    def order(self, documents: Iterable[int]) -> Mapping[int, int]:
        found = {}
        for document in documents:
            chunk = self._json(f"order/{document // ORDER_CHUNK}.json") or []
            offset = document % ORDER_CHUNK
            if offset < len(chunk) and chunk[offset] is not None:
                found[document] = chunk[offset]
        return found

    def records(self, documents: Iterable[int]) -> Mapping[int, Record]:
        found = {}
        for document in documents:
            chunk = self._chunk(document // DOC_CHUNK)
            offset = document % DOC_CHUNK
            if offset < len(chunk) and chunk[offset] is not None:
                found[document] = Record.from_list(chunk[offset])
        return found

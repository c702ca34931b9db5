"""Incremental build state: one SQLite file in the build cache beside the site.

Like Lektor's build state, entries are keyed by what produced them (a digest of the inputs and
of the code), never by a skill's name, so a stale entry can only be missed, not misused:
- `analysis`: a skill read and scored for risk and categories, keyed by its files, the limits,
  the policy and the code;
- `render`: one skill's pages and files (path -> digest) and its index entries, keyed by the
  analysis key and everything else a page shows (history, trust, discovery name, lifecycle);
- `digest`: file digests keyed by path and stat facts, so unchanged files are not read again;
- `meta`: the manifests of the two site folders (the one served and the spare one the next
  build writes into), the saved git log walk, the last build's input fingerprint.
Entries not used by a build are deleted at its end, so the file stays the size of the registry.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import pickle
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from registry.config import PACKAGE_ROOT

SCHEMA_VERSION = 1
_LIBRARIES = (
    "jinja2",
    "cmarkgfm",
    "nh3",
    "pygments",
    "pyyaml",
    "semver",
    "whoosh3",
    "orjson",
    "PyStemmer",
    "rapidfuzz",
)


def code_fingerprint(*folders: Path) -> str:
    """A digest of the code, templates, static files and library versions: a change invalidates everything."""
    digest = hashlib.sha256(f"{SCHEMA_VERSION}\0{sys.version}\0".encode())
    for library in _LIBRARIES:
        try:
            digest.update(f"{library}={importlib.metadata.version(library)}\0".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{library}=none\0".encode())
    for folder in (PACKAGE_ROOT, *folders):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def key_of(*parts: Any) -> str:
    """A stable digest of plain values (str, bytes, numbers, tuples, lists, dicts, None)."""
    # repr, not marshal: marshal's bytes depend on reference counts, not only on the values.
    return hashlib.sha256(repr(_plain(parts)).encode("utf-8", "surrogateescape")).hexdigest()


def key_of_texts(*texts: str) -> str:
    """key_of for parts that are already text (reprs): each is hashed once, after its length, so no two lists of
    texts share a digest and none is escaped again (a render key's reprs are most of its cost)."""
    digest = hashlib.sha256()
    for text in texts:
        data = text.encode("utf-8", "surrogateescape")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple((_plain(k), _plain(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(_plain(v) for v in value))
    if value is None or isinstance(value, (str, bytes, int, float, bool)):
        return value
    return repr(value)


class BuildState:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB)")
        self._db.execute("CREATE TABLE IF NOT EXISTS cache (kind TEXT, key TEXT, value BLOB, PRIMARY KEY (kind, key))")
        if self.meta("schema") != SCHEMA_VERSION:
            self._db.execute("DELETE FROM meta")
            self._db.execute("DELETE FROM cache")
            self.set_meta("schema", SCHEMA_VERSION)

    def close(self) -> None:
        self._db.close()

    def meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return pickle.loads(row[0])
        except Exception:  # written by another version: as if absent
            return None

    def set_meta(self, key: str, value: Any) -> None:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, data))

    def get_many(self, kind: str, keys: Iterable[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            query = f"SELECT key, value FROM cache WHERE kind = ? AND key IN ({marks})"
            found.update(self._db.execute(query, (kind, *batch)).fetchall())
        return found

    def put_many(self, kind: str, items: Iterable[tuple[str, bytes]]) -> None:
        self._db.execute("BEGIN")
        self._db.executemany(
            "INSERT OR REPLACE INTO cache (kind, key, value) VALUES (?, ?, ?)", ((kind, k, v) for k, v in items)
        )
        self._db.execute("COMMIT")

    def keep_only(self, kind: str, keys: Iterable[str]) -> None:
        """Delete the entries of `kind` this build did not use."""
        self._db.execute("BEGIN")
        self._db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
        self._db.execute("DELETE FROM used")
        self._db.executemany("INSERT OR IGNORE INTO used (key) VALUES (?)", ((k,) for k in keys))
        self._db.execute("DELETE FROM cache WHERE kind = ? AND key NOT IN (SELECT key FROM used)", (kind,))
        self._db.execute("COMMIT")

"""Highlighted code, kept by content: a block shared by many skills, or unchanged across builds, is lexed once.

Pygments is most of a body's rendering time (registry/emit/markdown.py). Its HTML for a block depends only
on the code, the lexer and the formatter, so it is kept under a digest of those and the Pygments version:
- in memory, per process (bounded by MEMORY_BYTES), for blocks repeated within one build;
- in an SQLite file in the build cache (`.<out>.cache/highlight.sqlite`), shared by the worker processes and
  kept across builds, so a build that renders every page again (a template, code or library change) does not
  lex a block it lexed before. The file is bounded (MAX_ENTRIES, oldest entries first out).

The cache changes no byte of a page: a hit gives what Pygments would write. It is only a cache: a file that
cannot be opened, read or written is left alone and the block is highlighted as if it were absent.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections import OrderedDict
from pathlib import Path

import pygments
from pygments import highlight as pygments_highlight
from pygments.formatter import Formatter
from pygments.lexer import Lexer

# Part of every key: a change in how blocks are formatted (registry/emit/markdown.py _FORMATTER) must change it.
FORMAT = "html-nowrap-1"
MEMORY_BYTES = 32 * 1024 * 1024  # highlighted HTML held per process
# Rows of the file; past it the oldest rows go, to be lexed again when next seen. A skill has 4 or 5 highlighted
# blocks on average (the synthetic registries, drawn from the corpus), a row under 1 KB (720 characters of HTML
# on average at 1,000 synthetic skills): 200,000 rows hold every block of some 40,000 skills of distinct code in
# some 200 MB.
MAX_ENTRIES = 200_000
_BUSY_MS = 5_000  # how long a worker waits for another's write


def key_of(lexer: Lexer, code: str) -> str:
    kind = type(lexer)
    digest = hashlib.sha256(f"{FORMAT}\0{pygments.__version__}\0{kind.__module__}.{kind.__qualname__}\0".encode())
    digest.update(code.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class HighlightCache:
    """Highlighted HTML by key_of(lexer, code); `path` None keeps it in memory only."""

    def __init__(self, path: Path | None = None, memory_bytes: int = MEMORY_BYTES):
        self.path = path
        self.memory_bytes = memory_bytes
        self._memory: OrderedDict[str, str] = OrderedDict()
        self._held = 0
        self._db: sqlite3.Connection | None = None
        self._opened = False
        self._pending: dict[str, str] = {}
        self._inode: int | None = None
        self.hits = 0
        self.misses = 0

    def highlight(self, code: str, lexer: Lexer, formatter: Formatter) -> str:
        key = key_of(lexer, code)
        found = self._memory.get(key)
        if found is None:
            found = self._pending.get(key)
        if found is None:
            found = self._read(key)
        if found is not None:
            self.hits += 1
            if key in self._memory:
                self._memory.move_to_end(key)
            else:
                self._remember(key, found)
            return found
        self.misses += 1
        html = pygments_highlight(code, lexer, formatter)
        self._remember(key, html)
        if self.path is not None:
            self._pending[key] = html
        return html

    def flush(self) -> None:
        """Write the blocks highlighted since the last flush to the file (one transaction)."""
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        if self._db is not None and self._inode != _inode(self.path):
            # The file was deleted or replaced under this process (a `--clean` build empties the cache folder):
            # what it reads from the old one is still right, but what it writes must reach the new one.
            self._db.close()
            self._db, self._opened = None, False
        db = self._connect()
        if db is None:
            return
        try:
            with db:
                db.executemany("INSERT OR IGNORE INTO blocks (key, html) VALUES (?, ?)", pending.items())
        except sqlite3.Error:
            self._give_up()

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None

    def _remember(self, key: str, html: str) -> None:
        size = len(html)
        if size > self.memory_bytes:
            return
        self._memory[key] = html
        self._held += size
        while self._held > self.memory_bytes:
            _, dropped = self._memory.popitem(last=False)
            self._held -= len(dropped)

    def _read(self, key: str) -> str | None:
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute("SELECT html FROM blocks WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            self._give_up()
            return None
        return row[0] if row is not None and isinstance(row[0], str) else None

    def _connect(self) -> sqlite3.Connection | None:
        if self._opened:
            return self._db
        self._opened = True
        if self.path is None:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=_BUSY_MS / 1000, isolation_level=None)
            db.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=OFF")  # a cache: a lost write is a block lexed again
            db.execute("CREATE TABLE IF NOT EXISTS blocks (key TEXT PRIMARY KEY, html TEXT NOT NULL)")
            db.isolation_level = "DEFERRED"
            with db:
                row = db.execute("SELECT count(*), min(rowid) FROM blocks").fetchone()
                if row[0] > MAX_ENTRIES:
                    db.execute("DELETE FROM blocks WHERE rowid < ?", (row[1] + row[0] - MAX_ENTRIES * 3 // 4,))
        except (sqlite3.Error, OSError):
            self._db = None
            return None
        self._db = db
        self._inode = _inode(self.path)
        return db

    def _give_up(self) -> None:
        """The file failed once: this process uses memory only from now on."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db = None
        self._opened = True
        self.path = None
        self._pending = {}


def _inode(path: Path | None) -> int | None:
    try:
        return path.stat().st_ino if path is not None else None
    except OSError:
        return None

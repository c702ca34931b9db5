"""Publishing a build atomically: write into a folder beside --out, then swap it in.

A build that fails or is killed leaves the previous site untouched: the swap is one
renameat2(RENAME_EXCHANGE) on Linux (two renames elsewhere), and leftover staging folders
from a killed build are removed by the next one. A lock file beside --out keeps two builds
from writing the same site at once.

Incremental builds are double-buffered. The site that was swapped out last time is kept as the
spare (`.<out>.cache/spare`), with the manifests of both folders in the build state; a build from
scratch makes the spare as hard links to the site it wrote. The next build brings the spare up to
date (files equal to the served site are hard-linked from it, changed ones written, stale ones
deleted) and swaps again: the cost is the files that changed in the last two builds, not the size
of the site, and the served folder is never written into. A file is always replaced by rename,
never rewritten, because the two folders share unchanged files. Until the first changed file,
writes are only compared with the served site's manifest, so a build that changes nothing writes
nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.emit.writer import SiteWriter, checked_parts

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class BuildLocked(RuntimeError):
    pass


def _exchange(a: Path, b: Path) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def swap_in(stage: Path, out: Path) -> None:
    if not out.exists():
        os.rename(stage, out)
        return
    if not out.is_dir() or out.is_symlink():
        raise NotADirectoryError(f"{out} exists and is not a directory; refusing to replace it")
    if _exchange(stage, out):
        shutil.rmtree(stage, ignore_errors=True)
        return
    retired = stage.with_name(stage.name + "-old")
    os.rename(out, retired)
    os.rename(stage, out)
    shutil.rmtree(retired, ignore_errors=True)


@contextlib.contextmanager
def staged_output(out: Path) -> Iterator[Path]:
    """Yield an empty staging folder; on normal exit it becomes `out`, on error it is removed."""
    out = out.absolute()
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    lock_path = parent / f".{out.name}.lock"
    with open(lock_path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            raise BuildLocked(f"another build is writing {out} (lock {lock_path}); wait for it to finish") from err
        for leftover in parent.glob(f".{out.name}.staging-*"):
            shutil.rmtree(leftover, ignore_errors=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=parent))
        os.chmod(stage, 0o755)
        try:
            yield stage
            swap_in(stage, out)
        finally:
            if stage.exists():
                shutil.rmtree(stage, ignore_errors=True)


PENDING_BYTES = 64 * 1024 * 1024  # changed files held back while the build may still change nothing


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class SiteOutput(SiteWriter):
    """The next site, written into `root`.

    `served` is the manifest (path -> sha256) of the site being replaced and `served_root` its
    folder, `present` what `root` already holds. With `defer`, nothing touches `root` until a
    file differs from the served site (or `flush` is called).
    """

    def __init__(
        self,
        root: Path,
        served: dict[str, str] | None = None,
        served_root: Path | None = None,
        present: dict[str, str] | None = None,
        defer: bool = False,
        prepare=None,
    ):
        self.root = root
        self.served = served or {}
        self.served_root = served_root
        self.present = dict(present or {})
        self.desired: dict[str, str] = {}
        self._pending: dict[str, bytes] = {}
        self._pending_size = 0
        self._deferring = defer
        self._prepare = prepare  # called once before the first write into root
        # Folders known to exist, relative to root: strings, as a Path each was tens of megabytes at 50,000 skills.
        self._made: set[str] = {""}
        self._temporaries = 0

    def unchanged(self) -> bool:
        return self.desired == self.served

    def changed_count(self) -> int:
        """Files added, changed or removed compared with the site this one replaces."""
        changed = sum(1 for path, digest in self.desired.items() if self.served.get(path) != digest)
        return changed + sum(1 for path in self.served if path not in self.desired)

    def write_bytes(self, relative: str, data: bytes) -> None:
        checked_parts(relative)
        digest = digest_of(data)
        self.desired[relative] = digest
        if self._deferring:
            if self.served.get(relative) != digest:
                self._pending[relative] = data
                self._pending_size += len(data)
                if self._pending_size > PENDING_BYTES:
                    self.flush()
            return
        self._place(relative, digest, data)

    def keep(self, relative: str, digest: str) -> bool:
        """Use a file from an earlier build without its bytes; False when neither folder has it."""
        if self.served.get(relative) != digest and self.present.get(relative) != digest:
            return False
        checked_parts(relative)
        self.desired[relative] = digest
        if not self._deferring:
            self._place(relative, digest, None)
        return True

    def flush(self) -> None:
        """Stop deferring: bring root up to date with everything written so far."""
        if not self._deferring:
            return
        self._deferring = False
        for relative, digest in self.desired.items():
            self._place(relative, digest, self._pending.get(relative))
        self._pending.clear()
        self._pending_size = 0

    def finish(self) -> None:
        """Write what is pending and delete what this build did not produce."""
        self.flush()
        stale = [path for path in self.present if path not in self.desired]
        parents: set[Path] = set()
        for relative in stale:
            target = self.root.joinpath(*checked_parts(relative))
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
            del self.present[relative]
            parents.update(p for p in target.parents if p != self.root and self.root in p.parents)
        for directory in sorted(parents, key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):
                directory.rmdir()

    def _place(self, relative: str, digest: str, data: bytes | None) -> None:
        if self.present.get(relative) == digest:
            return
        if self._prepare is not None:
            prepare, self._prepare = self._prepare, None
            prepare()
        parts = checked_parts(relative)
        target = self.root.joinpath(*parts)
        folder = "/".join(parts[:-1])
        if folder not in self._made:
            target.parent.mkdir(parents=True, exist_ok=True)
            while folder not in self._made:
                self._made.add(folder)
                folder = folder.rpartition("/")[0]
        self._temporaries += 1  # a short name: the target's own name may already be at the 255-byte limit
        temporary = target.with_name(f".{os.getpid()}.{self._temporaries}.tmp")
        if data is None or (self.served_root is not None and self.served.get(relative) == digest):
            os.link(self.served_root.joinpath(*checked_parts(relative)), temporary)  # type: ignore[union-attr]
        else:
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
            with os.fdopen(os.open(temporary, flags, 0o644), "wb") as handle:
                handle.write(data)
        os.replace(temporary, target)
        self.present[relative] = digest


@dataclass
class Buffers:
    """What the build state remembers of the two site folders."""

    served: dict[str, str]
    served_inode: tuple[int, int, int]
    spare: dict[str, str] | None  # None: the spare folder is missing or was left half-written
    spare_inode: tuple[int, int, int] | None


def _inode(path: Path) -> tuple[int, int, int] | None:
    """A folder's identity: its inode, and the times that change when an entry is added or removed.

    A site deleted and made again, or changed at the top, is not mistaken for the one the state
    describes (inode numbers alone are reused).
    """
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None
    return info.st_ino, info.st_mtime_ns, info.st_ctime_ns


def _clone(source: Path, target: Path) -> None:
    """A copy of a folder made of hard links: every file shared, nothing copied."""
    os.mkdir(target, 0o755)
    with os.scandir(source) as entries:
        for entry in entries:
            destination = target / entry.name
            if entry.is_dir(follow_symlinks=False):
                _clone(Path(entry.path), destination)
            elif entry.is_file(follow_symlinks=False):
                os.link(entry.path, destination)


def served_intact(out: Path, served_inode: tuple[int, int, int]) -> bool:
    """Whether the site folder is still the one the build state describes (Buffers.served_inode)."""
    return _inode(out.absolute()) == tuple(served_inode)


@contextlib.contextmanager
def build_lock(out: Path) -> Iterator[None]:
    out = out.absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    lock_path = out.parent / f".{out.name}.lock"
    with open(lock_path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            raise BuildLocked(f"another build is writing {out} (lock {lock_path}); wait for it to finish") from err
        yield


@contextlib.contextmanager
def double_buffered(out: Path, spare_path: Path, buffers: Buffers | None, save: Any) -> Iterator[SiteOutput]:
    """Yield the writer for the next site; on normal exit swap it in (unless nothing changed).

    `buffers` is what the state recorded after the last build (None: build from scratch);
    `save(Buffers | None)` records the new state, called before the spare is touched (None:
    the spare is no longer trustworthy) and after the swap. Call under `build_lock`.
    """
    out = out.absolute()
    parent = out.parent
    for leftover in parent.glob(f".{out.name}.staging-*"):
        shutil.rmtree(leftover, ignore_errors=True)
    served_inode = _inode(out)
    usable = buffers is not None and served_inode is not None and served_inode == buffers.served_inode
    if not usable:
        save(None)
        shutil.rmtree(spare_path, ignore_errors=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=parent))
        os.chmod(stage, 0o755)
        try:
            output = SiteOutput(stage)
            yield output
            output.finish()
            swap_in(stage, out)
            _record(save, out, output.desired, None, None)
        finally:
            if stage.exists():
                shutil.rmtree(stage, ignore_errors=True)
        # The spare is made now, as links to the new site, so that the next build (an author's first edit, with
        # `serve` open) writes only what changed instead of first linking every file of the site.
        spare_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            _clone(out, spare_path)
        except OSError:
            shutil.rmtree(spare_path, ignore_errors=True)  # the next build makes it, as before
            return
        _record(save, out, output.desired, spare_path, output.desired)
        return

    assert buffers is not None
    spare_ok = buffers.spare is not None and _inode(spare_path) == buffers.spare_inode

    def prepare() -> None:
        save(Buffers(buffers.served, buffers.served_inode, None, None))
        if not spare_ok:
            shutil.rmtree(spare_path, ignore_errors=True)
            spare_path.parent.mkdir(parents=True, exist_ok=True)
            _clone(out, spare_path)

    # Without a trustworthy spare, prepare() makes one as a copy of the served site.
    present = buffers.spare if spare_ok else buffers.served
    output = SiteOutput(spare_path, buffers.served, out, present, defer=True, prepare=prepare)
    yield output
    if output.unchanged():
        return
    output.finish()
    if not _exchange(spare_path, out):
        retired = spare_path.with_name(spare_path.name + "-old")
        shutil.rmtree(retired, ignore_errors=True)
        os.rename(out, retired)
        os.rename(spare_path, out)
        os.rename(retired, spare_path)
    _record(save, out, output.desired, spare_path, buffers.served)


def _record(save: Any, out: Path, served: dict[str, str], spare_path: Path | None, spare: dict[str, str] | None):
    served_inode = _inode(out)
    spare_inode = _inode(spare_path) if spare_path is not None else None
    if served_inode is None:
        save(None)
        return
    save(Buffers(served, served_inode, spare if spare_inode is not None else None, spare_inode))

"""Publishing a build atomically: write into a staging folder beside --out, then swap it in.

A build that fails or is killed leaves the previous site untouched: the swap is one
renameat2(RENAME_EXCHANGE) on Linux (two renames elsewhere), and leftover staging folders
from a killed build are removed by the next one. A lock file beside --out keeps two builds
from writing the same site at once.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

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

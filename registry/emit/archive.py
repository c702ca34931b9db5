"""Deterministic .tar.gz archives that every `skills` CLI version unpacks (formats.md §4.4).

Plain USTAR (no PAX or GNU long-name headers), files only (no directory or link entries),
sorted paths with no './' prefix, SKILL.md first at the archive root, fixed mtime, owner and
mode, and a gzip header with mtime 0 and no file name: same input, same bytes.
"""

from __future__ import annotations

import gzip
import io
import re
import tarfile
from collections.abc import Iterable

ARCHIVE_MTIME = 0


def client_rejects(path: str) -> bool:
    """True for a path the `skills` CLI refuses in an archive, which makes it drop the whole skill
    (formats.md 4.4): NUL, a leading '/' or '\\', a drive letter, any '\\', a '.' or '..' segment."""
    return (
        not path
        or "\x00" in path
        or "\\" in path
        or path.startswith("/")
        or re.match(r"^[A-Za-z]:", path) is not None
        or any(part in ("", ".", "..") for part in path.split("/"))
    )


def ustar_fits(path: str) -> bool:
    """True when every client can unpack the path from a plain USTAR header (name 100 + prefix 155 bytes)."""
    if client_rejects(path):
        return False
    encoded = path.encode("utf-8")
    if len(encoded) <= 100:
        return True
    if len(encoded) > 256:
        return False
    for index in range(len(encoded) - 1, 0, -1):
        if encoded[index : index + 1] == b"/" and index <= 155 and len(encoded) - index - 1 <= 100:
            return True
    return False


def build_tar_gz(members: Iterable[tuple[str, bytes, bool]]) -> bytes:
    """members: (path, bytes, executable). Paths must pass `ustar_fits`; they are written SKILL.md
    first, then sorted, whatever order they come in."""
    ordered = sorted(members, key=lambda m: (m[0] != "SKILL.md", m[0].encode("utf-8")))
    unfit = [path for path, _, _ in ordered if not ustar_fits(path)]
    if unfit:
        raise ValueError(f"paths no client can unpack from a USTAR archive: {unfit!r}")
    tar_buffer = io.BytesIO()
    with tarfile.open(fileobj=tar_buffer, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for path, data, executable in ordered:
            info = tarfile.TarInfo(path)
            info.size = len(data)
            info.mtime = ARCHIVE_MTIME
            info.mode = 0o755 if executable else 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.type = tarfile.REGTYPE
            archive.addfile(info, io.BytesIO(data))
    gz_buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=gz_buffer, mtime=ARCHIVE_MTIME, compresslevel=9) as gz:
        gz.write(tar_buffer.getvalue())
    return gz_buffer.getvalue()

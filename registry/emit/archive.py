"""Deterministic .tar.gz archives that every `skills` CLI version unpacks (formats.md §4.4).

Plain USTAR (no PAX or GNU long-name headers), files only (no directory or link entries),
sorted paths with no './' prefix, SKILL.md first at the archive root, fixed mtime, owner and
mode, and a gzip header with mtime 0 and no file name: same input, same bytes.
"""

from __future__ import annotations

import gzip
import io
import tarfile
from collections.abc import Iterable

from registry.discovery import ustar_fits

ARCHIVE_MTIME = 0


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

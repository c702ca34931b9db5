"""The canonical digest of a skill folder (specified in docs/checksums.md).

    sha256( for each file, sorted by its UTF-8 path bytes:
                path + NUL + hex(sha256(content)) + LF )

Files are the skill's regular files as the crawler selects them (SKILL.md under that exact
name, no symlinks, no nested skills, no .git/node_modules/__pycache__, no .DS_Store). In
SKILL.md, frontmatter lines declaring `checksum:` are removed before hashing, so a checksum
can be written into the file it covers. The same function serves the working tree and git
history, so a digest computed from a commit equals the one computed from its checkout.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from registry.parse.document import split

_CHECKSUM_LINE = re.compile(r"^[ \t]*checksum[ \t]*:")
PREFIX = "sha256:"


def strip_checksum_lines(skill_md: bytes) -> bytes:
    """SKILL.md bytes without the frontmatter lines that declare `checksum:` (at any indentation)."""
    try:
        text = skill_md.decode("utf-8")
    except UnicodeDecodeError:
        return skill_md
    if "checksum" not in text:
        return skill_md
    lines = text.splitlines(keepends=True)
    normalised = [line.rstrip("\r\n") for line in lines]
    opening, closing, _ = split("\n".join(normalised).lstrip("\ufeff"))
    if opening is None or closing is None:
        return skill_md
    kept = [
        line
        for index, line in enumerate(lines)
        if not (opening < index < closing and _CHECKSUM_LINE.match(normalised[index].lstrip("\ufeff")))
    ]
    return "".join(kept).encode("utf-8")


def file_digest_hex(path: str, content: bytes) -> str:
    data = strip_checksum_lines(content) if path == "SKILL.md" else content
    return hashlib.sha256(data).hexdigest()


def folder_digest(entries: Iterable[tuple[str, str]]) -> str:
    """entries: (path relative to the skill folder, hex sha256 of the file as `file_digest_hex` gives it)."""
    digest = hashlib.sha256()
    for path, hex_digest in sorted(entries, key=lambda entry: entry[0].encode("utf-8", "surrogateescape")):
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0" + hex_digest.encode("ascii") + b"\n")
    return PREFIX + digest.hexdigest()


def digest_contents(contents: dict[str, bytes]) -> str:
    return folder_digest((path, file_digest_hex(path, data)) for path, data in contents.items())


def write_checksum(skill_md: bytes, checksum: str) -> bytes:
    """Set the top-level `checksum:` of a SKILL.md, touching no other line.

    An existing top-level `checksum:` line is replaced in place (a `metadata.checksum` is
    left where it is and replaced too); otherwise the line is added just before the closing
    delimiter. Line endings and a BOM are preserved.
    """
    text = skill_md.decode("utf-8")
    lines = text.splitlines(keepends=True)
    normalised = [line.rstrip("\r\n") for line in lines]
    opening, closing, _ = split("\n".join(normalised).lstrip("\ufeff"))
    if opening is None or closing is None:
        raise ValueError("SKILL.md has no closed frontmatter to write a checksum into")
    newline = "\r\n" if lines[opening].endswith("\r\n") else "\n"
    replaced = False
    for index in range(opening + 1, closing):
        match = re.match(r"^([ \t]*)checksum[ \t]*:", normalised[index])
        if match:
            lines[index] = f'{match.group(1)}checksum: "{checksum}"{newline}'
            replaced = True
    if not replaced:
        lines.insert(closing, f'checksum: "{checksum}"{newline}')
    return "".join(lines).encode("utf-8")

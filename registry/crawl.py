"""Find skills in a source tree, and the files each may publish, without ever leaving the tree.

One walk over the tree with `os.scandir` (links are never followed by the walk itself). A folder
holding a SKILL.md (any casing) is a skill; files below it belong to it, except the subtrees of
skills nested inside it, which are skills of their own. A symlink is published only when it
resolves to a regular file inside its own skill folder; everything else is reported.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from registry.config import Limits
from registry.model import CrawlResult, Finding, LeftOut, SkillFile, SkillLocation
from registry.rules import layout as rules
from registry.text import slug

# Never published, and why (the capability card lists them as not analysed with this reason).
SKIPPED_DIRS = {
    ".git": "a git repository folder, never published",
    ".hg": "a Mercurial repository folder, never published",
    ".svn": "a Subversion folder, never published",
    "node_modules": "installed npm dependencies, never published",
    "__pycache__": "Python bytecode cache, never published",
}
SKIPPED_FILES = {
    ".DS_Store": "macOS folder metadata, never published",
    "Thumbs.db": "Windows thumbnail cache, never published",
}
_CHUNK = 1024 * 1024
_UNSAFE_CHARS = re.compile(r"[\x00-\x1f\x7f\\]")


@dataclass
class WalkedFolder:
    """A skill folder as the walk found it: its files listed, nothing checked or hashed yet (finish does that)."""

    folder: Path
    rel_folder: str
    skill_md: str
    files: list[tuple[str, str, bool]] = field(default_factory=list)  # (relative path, real path, via symlink)
    findings: list[Finding] = field(default_factory=list)
    too_many: bool = False
    unpublished: list[tuple[str, str]] = field(default_factory=list)  # (path in the skill, why)


class DigestCache:
    """File digests from an earlier crawl, trusted only while a file's stat facts are unchanged.

    Like git's index: (device, inode, size, mtime, ctime) unchanged means the content is unchanged,
    except for a file modified within RACY_NS of when it was hashed (a second write in the same
    clock tick keeps the same mtime), which is hashed again next time.
    """

    RACY_NS = 2_000_000_000

    def __init__(self, known: dict[str, tuple[int, int, int, int, int, str]] | None = None):
        self.known = known or {}
        self.seen: dict[str, tuple[int, int, int, int, int, str]] = {}
        self.started_ns = time.time_ns()
        self.hits = 0

    def lookup(self, path: str, info: os.stat_result) -> str | None:
        facts = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        entry = self.known.get(path)
        if entry is not None and entry[:5] == facts:
            self.seen[path] = entry
            self.hits += 1
            return entry[5]
        return None

    def remember(self, path: str, info: os.stat_result, digest: str) -> None:
        if max(info.st_mtime_ns, info.st_ctime_ns) < self.started_ns - self.RACY_NS:
            facts = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
            self.seen[path] = (*facts, digest)


def crawl(source: Path, limits: Limits, digests: DigestCache | None = None) -> CrawlResult:
    """Every skill under `source`: the walk of the tree, then each folder finished (checked, listed, hashed)."""
    root, pending, findings = walk(source, limits)
    locations: list[SkillLocation] = []
    dropped: list[LeftOut] = []
    taken: set[str] = set()
    # A suffixed id never takes the natural id of another folder: adding a folder whose address
    # collides with one skill must not move a third skill ("a-2") to a new address.
    natural = {natural_id(item.rel_folder, root) for item in pending}
    for item in pending:
        location, item_findings = finish(item, root, limits, taken, natural, digests)
        findings += item_findings
        if location is not None:
            locations.append(location)
        else:
            prefix = "" if item.rel_folder == "." else item.rel_folder + "/"
            reasons = sorted(item_findings, key=lambda f: f.sort_key())
            dropped.append(LeftOut(natural_id(item.rel_folder, root), _printable(prefix + item.skill_md), reasons))
    locations.sort(key=lambda loc: loc.id)
    return CrawlResult(root, locations, findings, sorted(dropped, key=lambda d: (d.id, d.path)))


def walk(source: Path, limits: Limits) -> tuple[Path, list[WalkedFolder], list[Finding]]:
    """The crawl's first step: the resolved root, every skill folder found (by folder) and the walk's findings.

    Each folder is then finished on its own, and depends on the others only through the ids taken before it
    (`finish`'s `taken` and `natural`): `validate` finishes only the folders it needs (registry/checker.py).
    """
    root = source.resolve()
    findings: list[Finding] = []
    pending: list[WalkedFolder] = []
    _walk(root, os.fspath(root), "", None, pending, findings, limits, depth=0)
    return root, sorted(pending, key=lambda item: item.rel_folder), findings


def _rel(root_rel: str, name: str) -> str:
    return f"{root_rel}/{name}" if root_rel else name


def _walk(
    root: Path,
    directory: str,  # paths stay strings here: a Path per file was half the walk's time at 10,000 skills
    rel: str,
    owner: WalkedFolder | None,
    pending: list[WalkedFolder],
    findings: list[Finding],
    limits: Limits,
    depth: int,
) -> None:
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as err:
        findings.append(rules.UNREADABLE.at(rel or ".", name=rel or ".", reason=err.strerror or str(err)))
        return

    skill_md = _pick_skill_md(entries)
    if skill_md is not None:
        entry = next(e for e in entries if e.name == skill_md)
        path = _rel(rel, skill_md)
        kind = _kind(entry)
        if kind == "symlink":
            kind = _symlinked_skill_md(entry, Path(directory))
            if kind in ("outside", "broken"):
                rule = rules.SYMLINK_ESCAPES if kind == "outside" else rules.SYMLINK_BROKEN
                findings.append(rule.at(path, name=path))
                kind = "skip"
        if kind == "file":
            owner = WalkedFolder(Path(directory), rel or ".", skill_md)
            pending.append(owner)
        elif kind != "skip":
            findings.append(rules.SKILL_MD_NOT_FILE.at(path, name=path, kind=kind))

    for entry in entries:
        name = entry.name
        path = _rel(rel, name)
        if entry.is_symlink():
            if owner is not None:
                _add_symlink(entry, path, owner)
            elif _points_at_directory(entry):
                # A linked folder is never crawled: it could bring in skills from anywhere on disk.
                findings.append(rules.SYMLINK_DIRECTORY.at(path, name=path))
            continue
        if entry.is_dir(follow_symlinks=False):
            if name in SKIPPED_DIRS:
                if owner is not None:
                    owner.unpublished.append((_relative_to(owner, path) + "/", SKIPPED_DIRS[name]))
                continue
            if depth + 1 > limits.crawl_depth:
                findings.append(rules.TOO_DEEP.at(path, name=path, actual=depth + 1, limit=limits.crawl_depth))
                continue
            _walk(root, entry.path, path, owner, pending, findings, limits, depth + 1)
            continue
        if owner is None:
            continue
        relative = _relative_to(owner, path)
        if name in SKIPPED_FILES:
            owner.unpublished.append((relative, SKIPPED_FILES[name]))
            continue
        if entry.is_file(follow_symlinks=False):
            owner.files.append((relative, entry.path, False))
        else:
            owner.findings.append(rules.SPECIAL_FILE.at(path, name=relative, kind=_kind(entry)))


def _relative_to(owner: WalkedFolder, path: str) -> str:
    return path[len(owner.rel_folder) + 1 :] if owner.rel_folder != "." else path


def _pick_skill_md(entries: list[os.DirEntry]) -> str | None:
    names = [e.name for e in entries if e.name.lower() == "skill.md"]
    if not names:
        return None
    for preferred in ("SKILL.md", "skill.md"):
        if preferred in names:
            return preferred
    return sorted(names)[0]


def _kind(entry: os.DirEntry) -> str:
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return "unreadable entry"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "named pipe"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISLNK(mode):
        return "symlink"
    return "device file"


def _points_at_directory(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


def _inside(target: Path, folder: Path) -> bool:
    """True when target lies in folder and not in a folder the crawl skips (.git holds credentials)."""
    if not target.is_relative_to(folder):
        return False
    return not any(part in SKIPPED_DIRS for part in target.relative_to(folder).parts)


def _symlinked_skill_md(entry: os.DirEntry, directory: Path) -> str:
    """'file' when the link resolves to a regular file inside its own folder, else why not."""
    try:
        target = Path(entry.path).resolve(strict=True)
    except (OSError, RuntimeError):
        return "broken"
    if not _inside(target, directory.resolve()):
        return "outside"
    return "file" if target.is_file() else "link to a non-file"


def _add_symlink(entry: os.DirEntry, path: str, owner: WalkedFolder) -> None:
    relative = path[len(owner.rel_folder) + 1 :] if owner.rel_folder != "." else path
    try:
        target = Path(entry.path).resolve(strict=True)
    except (OSError, RuntimeError):
        owner.findings.append(rules.SYMLINK_BROKEN.at(path, name=relative))
        return
    skill_root = owner.folder.resolve()
    if not _inside(target, skill_root):
        owner.findings.append(rules.SYMLINK_ESCAPES.at(path, name=relative))
        return
    if target.is_dir():
        owner.findings.append(rules.SYMLINK_DIRECTORY.at(path, name=relative))
        return
    if not target.is_file():
        owner.findings.append(rules.SPECIAL_FILE.at(path, name=relative, kind="link to a special file"))
        return
    owner.files.append((relative, os.fspath(target), True))


def _plainly_safe(relative: str) -> bool:
    """Nearly every name: short printable ASCII with no empty, '.' or '..' segment (held to _why_unsafe by a test)."""
    wrapped = f"/{relative}/"
    return (
        len(relative) <= 255 and relative.isascii() and relative.isprintable() and "\\" not in relative
        and "//" not in wrapped and "/./" not in wrapped and "/../" not in wrapped
    )  # fmt: skip


def _unsafe_reason(relative: str) -> str | None:
    return None if _plainly_safe(relative) else _why_unsafe(relative)


def _why_unsafe(relative: str) -> str | None:
    if any("\udc80" <= ch <= "\udcff" for ch in relative):
        return "is not valid UTF-8"
    if _UNSAFE_CHARS.search(relative):
        return "contains a control character or a backslash"
    if any(part in ("", ".", "..") for part in relative.split("/")):
        return "contains an empty, '.' or '..' segment"
    if len(relative.encode("utf-8", "surrogateescape")) > 1024 or any(
        len(part.encode("utf-8", "surrogateescape")) > 255 for part in relative.split("/")
    ):
        return "is too long"
    return None


def finish(
    item: WalkedFolder, root: Path, limits: Limits, taken: set[str], natural: set[str], digests: DigestCache | None
) -> tuple[SkillLocation | None, list[Finding]]:
    """The crawl's second step for one walked folder: its limits checked, its files hashed, its id chosen (a
    suffix when an id in `taken`, or another folder's `natural` id, would collide); None when it is left out."""
    findings = list(item.findings)
    prefix = "" if item.rel_folder == "." else item.rel_folder + "/"
    skill_md_rel = item.skill_md
    if skill_md_rel != "SKILL.md":
        findings.append(rules.SKILL_MD_CASING.at(prefix + skill_md_rel, name=skill_md_rel))

    # Both skill-wide limits are checked before any file is opened: a skill with 100,000 files or
    # gigabytes of data costs one directory listing and one lstat per file, and is left out whole
    # (a partial skill would be published with files missing).
    if len(item.files) > limits.files_per_skill:
        findings.append(
            rules.TOO_MANY_FILES.at(prefix + skill_md_rel, actual=len(item.files), limit=limits.files_per_skill)
        )
        return None, findings
    planned = _planned_size(item.files, skill_md_rel, limits)
    if planned > limits.skill_bytes:
        findings.append(rules.SKILL_TOO_LARGE.at(prefix + skill_md_rel, actual=planned, limit=limits.skill_bytes))
        return None, findings

    files: list[SkillFile] = []
    total = 0
    skill_md_file: SkillFile | None = None
    ordered = sorted(item.files, key=lambda f: (f[0] != skill_md_rel, f[0]))
    for relative, real_path, linked in ordered:
        shown = prefix + relative
        is_skill_md = relative == skill_md_rel
        reason = _unsafe_reason(relative)
        if reason is not None:
            findings.append(rules.UNSAFE_FILE_NAME.at(_printable(shown), name=_printable(relative), reason=reason))
            continue
        # SKILL.md may be larger than limits.skill_md_bytes here: parse reports that with its own rule.
        limit = max(limits.skill_md_bytes, limits.file_bytes) if is_skill_md else limits.file_bytes
        digest, size, problem = _digest_file(real_path, limit, digests)
        if problem is not None:
            kind, detail = problem
            if kind == "too-large":
                findings.append(rules.FILE_TOO_LARGE.at(shown, name=relative, actual=detail, limit=limit))
            elif kind == "links":
                findings.append(rules.HARD_LINK.at(shown, name=relative, links=detail))
            elif kind == "special":
                findings.append(rules.SPECIAL_FILE.at(shown, name=relative, kind=detail))
            else:
                findings.append(rules.UNREADABLE.at(shown, name=relative, reason=detail))
            if is_skill_md:
                return None, findings
            continue
        published = "SKILL.md" if is_skill_md else relative
        skill_file = SkillFile(published, size, digest, os.fspath(real_path), linked)
        if is_skill_md:
            skill_md_file = skill_file
        files.append(skill_file)
        total += size
    if skill_md_file is None:
        return None, findings
    if total > limits.skill_bytes:  # files grew after they were listed
        findings.append(rules.SKILL_TOO_LARGE.at(prefix + skill_md_rel, actual=total, limit=limits.skill_bytes))
        return None, findings

    wanted = natural_id(item.rel_folder, root)
    skill_id = wanted
    suffix = 2
    while skill_id in taken or (skill_id != wanted and skill_id in natural):
        skill_id = f"{wanted}-{suffix}"
        suffix += 1
    if skill_id != wanted:
        findings.append(rules.ID_RENAMED.at(prefix + skill_md_rel, folder=item.rel_folder, wanted=wanted, id=skill_id))
    taken.add(skill_id)
    location = SkillLocation(
        skill_id, item.folder, item.rel_folder, item.skill_md, tuple(files), tuple(sorted(item.unpublished))
    )
    return location, findings


def _planned_size(entries: list[tuple[str, str, bool]], skill_md_rel: str, limits: Limits) -> int:
    """The bytes the skill would publish, from lstat alone: files refused one by one do not count."""
    total = 0
    for relative, real_path, _linked in entries:
        if _unsafe_reason(relative) is not None:
            continue
        limit = max(limits.skill_md_bytes, limits.file_bytes) if relative == skill_md_rel else limits.file_bytes
        try:
            info = os.lstat(real_path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_size <= limit:
            total += info.st_size
    return total


def _printable(text: str) -> str:
    return repr(text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))[1:-1]


def _digest_file(
    path: str, limit: int, digests: DigestCache | None = None
) -> tuple[str, int, tuple[str, object] | None]:
    """sha256 of a regular file, opened without following links and without blocking on FIFOs."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        return "", 0, ("unreadable", err.strerror or str(err))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "", 0, ("special", "special file")
        if info.st_nlink > 1:
            return "", 0, ("links", info.st_nlink)
        if info.st_size > limit:
            return "", 0, ("too-large", info.st_size)
        known = digests.lookup(path, info) if digests is not None else None
        if known is not None:
            return known, info.st_size, None
        digest = hashlib.sha256()
        size = 0
        while chunk := os.read(fd, _CHUNK):
            size += len(chunk)
            if size > limit:
                return "", 0, ("too-large", size)
            digest.update(chunk)
        result = "sha256:" + digest.hexdigest()
        if digests is not None and size == info.st_size:
            digests.remember(path, info, result)
        return result, size, None
    except OSError as err:
        return "", 0, ("unreadable", err.strerror or str(err))
    finally:
        os.close(fd)


def natural_id(rel_folder: str, root: Path) -> str:
    """The id a skill folder takes when no other folder takes it first (else `finish` adds a suffix)."""
    if rel_folder == ".":
        return slug(root.name)
    return "/".join(slug(part) for part in rel_folder.split("/"))


def read_bytes(skill_file: SkillFile, limit: int) -> bytes:
    """Read a published file again, without following links; the size bound still holds."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(skill_file.source, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{skill_file.path} is no longer a regular file")
        chunks = []
        size = 0
        while chunk := os.read(fd, _CHUNK):
            size += len(chunk)
            if size > limit:
                raise OSError(f"{skill_file.path} grew past {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)

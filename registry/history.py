"""History from git, in one pass over the log: dates, contributors, versions and digests per skill.

`git log --first-parent --raw -M` lists, oldest first, every file each commit on the main line
changed, with its blob id and renames. Replaying it keeps the tree of the source at every
commit; after each commit, every skill folder it touched gets its canonical digest (the same
function as the working tree, registry/checksum.py) and its declared version. Blob contents come
from one long-running `git cat-file --batch`, and each blob is hashed once. A folder renamed
with its SKILL.md keeps its history. A plain folder or a failing git gives an empty
RepositoryInfo: nothing crashes, the report and the pages say there is no history.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import posixpath
import subprocess
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from registry import checksum
from registry.config import Limits
from registry.crawl import SKIPPED_DIRS, SKIPPED_FILES
from registry.parse.document import read_document

_RECORD = "\x1e"
_FIELD = "\x1f"
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C", "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": "/nonexistent"}
_REGULAR_MODES = ("100644", "100755")


@dataclass(frozen=True)
class Revision:
    """One commit that changed a skill's content (or the working tree, commit 'uncommitted')."""

    commit: str
    date: str | None  # ISO 8601 UTC; None for uncommitted changes
    author: str
    folder: str  # relative to the source root
    version: str | None
    digest: str  # canonical folder digest after this commit

    def to_json(self) -> dict:
        return {
            "commit": self.commit,
            "date": self.date,
            "author": self.author,
            "folder": self.folder,
            "version": self.version,
            "digest": self.digest,
        }


@dataclass(frozen=True)
class SkillHistory:
    first_published: str
    last_updated: str
    commits: int  # commits that touched the folder
    contributors: tuple[str, ...]
    revisions: tuple[Revision, ...]  # content changes, oldest first
    previous_folders: tuple[str, ...] = ()  # where the skill lived before a rename


def distinct_versions(revisions: Iterable[Revision]) -> list[tuple[str, Revision]]:
    """Each declared version with the revision that first published it, oldest first."""
    seen: set[str] = set()
    firsts = []
    for revision in revisions:
        if revision.version is not None and revision.version not in seen:
            seen.add(revision.version)
            firsts.append((revision.version, revision))
    return firsts


@dataclass
class RepositoryInfo:
    """What git says about the source tree; `is_git` False for a plain folder."""

    is_git: bool = False
    commit: str | None = None
    shallow: bool = False
    dirty: bool = False
    histories: dict[str, SkillHistory] = field(default_factory=dict)  # rel_folder (at HEAD) -> history
    commit_time: int | None = None  # HEAD's commit time (unix seconds): "now" for age-based signals
    saved_walk: SavedWalk | None = field(default=None, repr=False, compare=False)


def _git(root: Path, *args: str, timeout: int = 600) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, check=False, timeout=timeout, env=GIT_ENV
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", "surrogateescape")


class _BlobReader:
    """One `git cat-file --batch` process; each blob's sha256 and SKILL.md version read once."""

    def __init__(self, root: Path):
        self.process = subprocess.Popen(
            ["git", "-C", str(root), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=GIT_ENV,
        )
        self.hashes: dict[str, str] = {}
        self.skill_md: dict[str, tuple[str, str | None]] = {}

    def read(self, blob: str) -> bytes:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(blob.encode() + b"\n")
        self.process.stdin.flush()
        header = self.process.stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            raise OSError(f"git cat-file could not read {blob}")
        data = self.process.stdout.read(int(header[2]))
        self.process.stdout.read(1)
        return data

    def file_hash(self, blob: str) -> str:
        if blob not in self.hashes:
            self.hashes[blob] = hashlib.sha256(self.read(blob)).hexdigest()
        return self.hashes[blob]

    def skill_md_info(self, blob: str, limits: Limits) -> tuple[str, str | None]:
        """(hex digest without checksum lines, declared version) of a SKILL.md blob."""
        if blob not in self.skill_md:
            data = self.read(blob)
            self.skill_md[blob] = (checksum.file_digest_hex("SKILL.md", data), declared_version(data, limits))
        return self.skill_md[blob]

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def declared_version(skill_md: bytes, limits: Limits) -> str | None:
    """`version`, else `metadata.version`, as text; None when absent or unreadable."""
    # A key reads "version" only if the word is written out, or spelled with escapes ("\x76ersion"),
    # which need a backslash: without either there is none, and the YAML is not worth loading.
    if b"version" not in skill_md and b"\\" not in skill_md:
        return None
    document = read_document(skill_md, "SKILL.md", limits)
    frontmatter = document.frontmatter or {}
    version = frontmatter.get("version")
    if not isinstance(version, str) or not version.strip():
        metadata = frontmatter.get("metadata")
        version = metadata.get("version") if isinstance(metadata, dict) else None
    return version.strip() if isinstance(version, str) and version.strip() else None


def _parse_log(log: str) -> Iterable[tuple[str, str, str, list[tuple[str, str, str, str | None]]]]:
    """Yield (commit, unix time, author, changes); a change is (status, mode, blob, path, old path)."""
    for record in log.split(_RECORD):
        if not record:
            continue
        header, _, raw = record.partition("\0")
        parts = header.split(_FIELD)
        if len(parts) != 3:
            continue
        tokens = raw.lstrip("\n").split("\0")
        changes = []
        index = 0
        while index < len(tokens):
            meta = tokens[index].lstrip("\n")
            index += 1
            if not meta.startswith(":"):
                continue
            fields = meta[1:].split()
            if len(fields) < 5:
                continue
            new_mode, new_blob, status = fields[1], fields[3], fields[4]
            if status[:1] in ("R", "C"):
                old_path, path = tokens[index], tokens[index + 1]
                index += 2
            else:
                old_path, path = None, tokens[index]
                index += 1
            changes.append((status[:1], new_mode, new_blob, path, old_path))
        yield parts[0], parts[1], parts[2], changes


def _owner(path: str, skill_dirs: set[str]) -> str | None:
    """The deepest skill folder holding a path."""
    directory = posixpath.dirname(path)
    while True:
        if directory in skill_dirs:
            return directory
        if not directory:
            return None
        directory = posixpath.dirname(directory)


def _is_skill_md(path: str) -> bool:
    return posixpath.basename(path).lower() == "skill.md"


class _Tree:
    """The source tree at one commit, indexed by directory so a skill's files are found directly."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[str, str]] = {}  # path -> (mode, blob)
        self.in_dir: dict[str, set[str]] = {}  # directory -> file names directly inside
        self.subdirs: dict[str, set[str]] = {}  # directory -> child directory names
        self.skill_dirs: set[str] = set()

    def add(self, path: str, mode: str, blob: str) -> None:
        self.files[path] = (mode, blob)
        directory, name = posixpath.split(path)
        self.in_dir.setdefault(directory, set()).add(name)
        while directory:
            parent, child = posixpath.split(directory)
            self.subdirs.setdefault(parent, set()).add(child)
            directory = parent
        if name.lower() == "skill.md":
            self.skill_dirs.add(posixpath.dirname(path))

    def remove(self, path: str) -> None:
        if self.files.pop(path, None) is None:
            return
        directory, name = posixpath.split(path)
        self.in_dir.get(directory, set()).discard(name)
        if name.lower() == "skill.md" and not any(n.lower() == "skill.md" for n in self.in_dir.get(directory, ())):
            self.skill_dirs.discard(directory)

    def owner(self, path: str) -> str | None:
        return _owner(path, self.skill_dirs)

    def skill_files(self, folder: str) -> Iterable[tuple[str, str, str]]:
        """(path relative to the folder, mode, blob) of a skill's own files: no nested skills."""
        pending = [""]
        while pending:
            relative_dir = pending.pop()
            directory = posixpath.join(folder, relative_dir) if relative_dir else folder
            for name in sorted(self.in_dir.get(directory, ())):
                mode, blob = self.files[posixpath.join(directory, name) if directory else name]
                yield (posixpath.join(relative_dir, name) if relative_dir else name), mode, blob
            for child in sorted(self.subdirs.get(directory, ())):
                child_path = posixpath.join(directory, child) if directory else child
                if child in SKIPPED_DIRS or child_path in self.skill_dirs:
                    continue
                pending.append(posixpath.join(relative_dir, child) if relative_dir else child)


def _folder_digest(folder: str, tree: _Tree, blobs: _BlobReader, limits: Limits) -> tuple[str, str | None] | None:
    entries: list[tuple[str, str]] = []
    version = None
    names = sorted(n for n in tree.in_dir.get(folder, ()) if n.lower() == "skill.md")
    if not names:
        return None
    skill_md_name = "SKILL.md" if "SKILL.md" in names else ("skill.md" if "skill.md" in names else names[0])
    for relative, mode, blob in tree.skill_files(folder):
        if mode not in _REGULAR_MODES or posixpath.basename(relative) in SKIPPED_FILES:
            continue
        if relative == skill_md_name:
            hex_digest, version = blobs.skill_md_info(blob, limits)
            entries.append(("SKILL.md", hex_digest))
        elif "/" in relative or relative.lower() != "skill.md":
            entries.append((relative, blobs.file_hash(blob)))
    return checksum.folder_digest(entries), version


@dataclass
class SavedWalk:
    """The log walk's state at one commit, so the next build reads only the commits after it."""

    commit: str
    prefix: str
    limits: Limits
    state: bytes  # pickled _Walk


class _Walk:
    """Replays the first-parent log, commit by commit, keeping each skill lineage's revisions."""

    def __init__(self) -> None:
        self.tree = _Tree()
        self.lineage_of: dict[str, int] = {}  # folder -> lineage
        self.lineages: dict[int, dict] = {}

    def feed(
        self, log: str, prefix: str, blobs: _BlobReader, limits: Limits, revisions_of: Container[int] | None = None
    ) -> None:
        """Replay `log`; with `revisions_of`, content revisions are read for those lineages only."""
        tree, lineage_of, lineages = self.tree, self.lineage_of, self.lineages
        for sha, timestamp, author, changes in _parse_log(log):
            date = datetime.fromtimestamp(int(timestamp), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            touched: set[str] = set()
            renamed: dict[str, str] = {}
            for status, mode, blob, raw_path, raw_old in changes:
                path = _relative(raw_path, prefix)
                old = _relative(raw_old, prefix) if raw_old else None
                for gone in (old, path if status == "D" else None):
                    if gone is None:
                        continue
                    owner = tree.owner(gone)
                    if owner is not None:
                        touched.add(owner)
                    tree.remove(gone)
                if old is not None and path is not None and _is_skill_md(old) and _is_skill_md(path):
                    renamed[posixpath.dirname(path)] = posixpath.dirname(old)
                if path is not None and status != "D":
                    tree.add(path, mode, blob)
            for change in changes:
                path = _relative(change[3], prefix)
                owner = tree.owner(path) if path is not None else None
                if owner is not None:
                    touched.add(owner)
            for new_folder, old_folder in renamed.items():
                if old_folder in lineage_of and old_folder not in tree.skill_dirs and new_folder not in lineage_of:
                    lineage_of[new_folder] = lineage_of.pop(old_folder)
                    lineages[lineage_of[new_folder]]["previous"].append(old_folder)
            for folder in sorted(touched):
                if folder not in tree.skill_dirs:
                    continue
                if folder not in lineage_of:
                    lineage_of[folder] = len(lineages)
                    lineages[lineage_of[folder]] = {"revisions": [], "dates": [], "authors": set(), "previous": []}
                entry = lineages[lineage_of[folder]]
                entry["dates"].append(date)
                entry["authors"].add(author)
                if revisions_of is not None and lineage_of[folder] not in revisions_of:
                    continue
                state = _folder_digest(folder, tree, blobs, limits)
                if state is None:
                    continue
                digest, version = state
                revisions = entry["revisions"]
                if not revisions or revisions[-1].digest != digest or revisions[-1].version != version:
                    revisions.append(Revision(sha, date, author, folder or ".", version, digest))

    def histories(self, skill_folders: list[str]) -> dict[str, SkillHistory]:
        histories: dict[str, SkillHistory] = {}
        for folder in skill_folders:
            key = "" if folder == "." else folder
            lineage = self.lineage_of.get(key)
            if lineage is None:
                continue
            entry = self.lineages[lineage]
            histories[folder] = SkillHistory(
                first_published=entry["dates"][0],
                last_updated=entry["dates"][-1],
                commits=len(entry["dates"]),
                contributors=tuple(sorted(entry["authors"])),
                revisions=tuple(entry["revisions"]),
                previous_folders=tuple(p or "." for p in entry["previous"]),
            )
        return histories


def read_repository(
    root: Path, skill_folders: list[str], limits: Limits | None = None, saved: SavedWalk | None = None,
    partial: bool = False,
) -> RepositoryInfo:  # fmt: skip
    """History for every skill folder (paths relative to root, "." for root) from one log walk.

    With `saved` (the walk as it stood at an earlier commit on HEAD's first-parent line), only the
    commits after it are read; the result is the same as a full walk. `RepositoryInfo.saved_walk`
    holds the state to pass next time. With `partial` (a few skills of a large registry), a first
    pass that reads no file finds which lineages end in `skill_folders`, and only theirs are read:
    the same histories for those folders, no walk to save.
    """
    limits = limits or Limits()
    if not _trusted_work_tree(root):
        return RepositoryInfo()
    facts = (_git(root, "rev-parse", "HEAD", "--is-shallow-repository", "--show-prefix") or "").split("\n")
    commit = facts[0].strip() or None
    if commit is None or len(facts) < 3:
        return RepositoryInfo(is_git=True)
    shallow, prefix = facts[1].strip() == "true", facts[2].strip()
    # Whether the work tree differs from HEAD: git reads it while the log is walked.
    status = _start_git(root, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all", "--", ".")
    try:
        head_time = (_git(root, "log", "-1", "--format=%ct", "HEAD") or "").strip()
        commit_time = int(head_time) if head_time.isdigit() else None
        walk, since = (None, None) if partial else _resume(root, saved, commit, prefix, limits)
        if walk is not None and since == commit:
            histories = walk.histories(skill_folders)
            return RepositoryInfo(True, commit, shallow, _dirty(status), histories, commit_time, saved)
        log = _git(
            root,
            "log", "--first-parent", "--diff-merges=first-parent", "--reverse", "--raw", "--no-abbrev", "-z", "-M",
            "--format=" + _RECORD + "%H" + _FIELD + "%ct" + _FIELD + "%an",
            f"{since}..HEAD" if walk is not None else "HEAD", "--", ".",
        )  # fmt: skip
        if log is None:
            return RepositoryInfo(True, commit, shallow, _dirty(status), commit_time=commit_time)
        walk = walk or _Walk()
        blobs = _BlobReader(root)
        try:
            wanted = None
            if partial:
                lineages = _Walk()
                lineages.feed(log, prefix, blobs, limits, revisions_of=())
                keys = ("" if folder == "." else folder for folder in skill_folders)
                wanted = {lineages.lineage_of[key] for key in keys if key in lineages.lineage_of}
            walk.feed(log, prefix, blobs, limits, wanted)
        except (OSError, ValueError, IndexError):
            return RepositoryInfo(True, commit, shallow, _dirty(status), commit_time=commit_time)
        finally:
            blobs.close()
        state = None if partial else SavedWalk(commit, prefix, limits, pickle.dumps(walk, pickle.HIGHEST_PROTOCOL))
        return RepositoryInfo(True, commit, shallow, _dirty(status), walk.histories(skill_folders), commit_time, state)
    finally:
        if status is not None and status.returncode is None:  # left by an error: not waited for
            status.kill()
            status.communicate()


def _start_git(root: Path, *args: str) -> subprocess.Popen | None:
    """A git command running beside this process, for _dirty to read; None when it cannot start."""
    try:
        return subprocess.Popen(
            ["git", "-C", str(root), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=GIT_ENV
        )
    except OSError:
        return None


def _dirty(status: subprocess.Popen | None, timeout: int = 600) -> bool:
    """Whether `git status` (started by _start_git) listed anything; False when it failed."""
    if status is None:
        return False
    try:
        out, _ = status.communicate(timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        status.kill()
        status.communicate()
        return False
    return status.returncode == 0 and bool(out.strip())


def _resume(
    root: Path, saved: SavedWalk | None, head: str, prefix: str, limits: Limits
) -> tuple[_Walk | None, str | None]:
    """The saved walk and its commit, when that commit is on HEAD's first-parent line."""
    if saved is None or saved.prefix != prefix or saved.limits != limits:
        return None, None
    if saved.commit != head:
        line = _git(root, "rev-list", "--first-parent", "HEAD")
        if line is None or saved.commit not in line.split():
            return None, None
    try:
        walk = pickle.loads(saved.state)
    except Exception:  # a state file from another version: walk from the start
        return None, None
    return (walk, saved.commit) if isinstance(walk, _Walk) else (None, None)


def _relative(path: str | None, prefix: str) -> str | None:
    if path is None or not path.startswith(prefix):
        return None
    return path[len(prefix) :]


def _trusted_work_tree(root: Path) -> bool:
    """True when root is inside a git work tree whose `.git` is the repository's own folder or file.

    A `.git` that is a symlink can point at any repository on the machine: its history would be
    reported as the registry's (dates, authors, versions), so such a source is read as a plain folder.
    """
    return _trusted_top(root) is not None


def _trusted_top(root: Path, *revisions: str) -> list[str] | None:
    """The work tree's top folder, then each of `revisions` resolved, from one git call; None when
    root is not in a trusted work tree (see _trusted_work_tree) or a revision does not resolve."""
    out = _git(root, "rev-parse", "--show-toplevel", *revisions)
    lines = out.splitlines() if out is not None else []
    if len(lines) != 1 + len(revisions) or (Path(lines[0]) / ".git").is_symlink():
        return None
    return lines


def tree_signature(root: Path, max_untracked: int = 20_000) -> str | None:
    """A digest that changes whenever a file under root may have changed; None when git can't say.

    HEAD, plus every path `git status` reports (modified, untracked, ignored) with its size and
    times. Tracked files git reports clean are identical to HEAD's blobs (git checks stat data, and
    content when the stat data is ambiguous), so HEAD stands for them. Costs one `git status`
    (reading git's index, not the files), however large the tree.
    """
    found = _trusted_top(root, "HEAD")
    if found is None:
        return None
    top, head = Path(found[0]), found[1]
    # Optional locks allowed: git may refresh its index's stat data, so that files written in the same
    # second as the index ("racily clean") are not read and hashed again by every later status.
    status = _git(
        root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--", ".",
    )  # fmt: skip
    if status is None:
        return None
    digest = hashlib.sha256(head.encode() + b"\0" + status.encode("utf-8", "surrogateescape"))
    seen = 0
    for entry in status.split("\0"):
        path = entry[3:] if len(entry) > 3 else ""
        if not path:
            continue
        target = top / path
        for file in _walk_listed(target):
            seen += 1
            if seen > max_untracked:
                return None
            try:
                info = os.lstat(file)
            except OSError:
                continue
            facts = f"{file}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0{info.st_ino}\0{info.st_mode}"
            digest.update(facts.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _walk_listed(target: Path) -> Iterable[Path]:
    """A path from `git status`: a file, or an ignored folder (listed once, with a trailing slash)."""
    if target.is_dir() and not target.is_symlink():
        yield target
        for folder, dirs, files in os.walk(target):
            dirs.sort()
            for name in sorted(files) + dirs:
                yield Path(folder) / name
    else:
        yield target

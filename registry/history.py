"""Dates and contributors from git, read in one pass over the log (never one `git log` per skill)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

_RECORD = "\x1e"
_FIELD = "\x1f"


@dataclass(frozen=True)
class SkillHistory:
    first_published: str  # ISO 8601 UTC commit date of the first commit touching the folder
    last_updated: str
    commits: int
    contributors: tuple[str, ...]


@dataclass
class RepositoryInfo:
    """What git says about the source tree; `is_git` False for a plain folder."""

    is_git: bool = False
    commit: str | None = None
    shallow: bool = False
    dirty: bool = False
    histories: dict[str, SkillHistory] = field(default_factory=dict)  # rel_folder -> history


def _git(root: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            check=False,
            timeout=600,
            env={"GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C", "PATH": "/usr/bin:/bin:/usr/local/bin"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", "replace")


def read_repository(root: Path, skill_folders: list[str]) -> RepositoryInfo:
    """History for every skill folder (paths relative to root) from one `git log` walk."""
    top = _git(root, "rev-parse", "--show-toplevel")
    if top is None:
        return RepositoryInfo()
    commit = (_git(root, "rev-parse", "HEAD") or "").strip() or None
    if commit is None:
        return RepositoryInfo(is_git=True)
    shallow = (_git(root, "rev-parse", "--is-shallow-repository") or "").strip() == "true"
    dirty = bool((_git(root, "status", "--porcelain", "--untracked-files=no", "--", ".") or "").strip())
    prefix = (_git(root, "rev-parse", "--show-prefix") or "").strip()

    log = (
        _git(
            root,
            "log",
            "--no-renames",
            "--format=" + _RECORD + "%H" + _FIELD + "%ct" + _FIELD + "%an",
            "--name-only",
            "--",
            ".",
        )
        or ""
    )
    folders = sorted(((f if f != "." else "") for f in skill_folders), key=len, reverse=True)
    touched: dict[str, list[tuple[str, str]]] = {}
    for record in log.split(_RECORD):
        if not record.strip():
            continue
        header, _, names = record.partition("\n")
        parts = header.split(_FIELD)
        if len(parts) != 3:
            continue
        _, timestamp, author = parts
        if not timestamp.isdigit():
            continue
        date = datetime.fromtimestamp(int(timestamp), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        hit: set[str] = set()
        for name in names.splitlines():
            name = name.strip()
            if not name.startswith(prefix):
                continue
            relative = name[len(prefix) :]
            for folder in folders:
                if folder == "" or relative.startswith(folder + "/"):
                    hit.add(folder or ".")
                    break
        for folder in hit:
            touched.setdefault(folder, []).append((date, author))

    histories: dict[str, SkillHistory] = {}
    for folder, entries in touched.items():
        dates = sorted(date for date, _ in entries)
        contributors = tuple(sorted({author for _, author in entries}))
        histories[folder] = SkillHistory(dates[0], dates[-1], len(entries), contributors)
    return RepositoryInfo(True, commit, shallow, dirty, histories)

"""The two discovery layouts, so that every version of the `skills` CLI can install from us.

- `/.well-known/agent-skills/index.json` (discovery v0.2.0): one artifact per skill, a
  `skill-md` for a SKILL.md-only skill, a deterministic `.tar.gz` archive otherwise, each with
  the sha256 of the exact bytes served. URLs are relative to the index, so the site works under
  any base path.
- `/skills/<id>/.well-known/agent-skills/index.json`: the same v0.2 index with the skill's one entry,
  its URL leading back to the root artifact (nothing is written twice). The `skills` CLI (1.7)
  treats a URL with a path as a scope and reads only the index below it, so the skill page's URL
  is an install source: `npx skills add https://<site>/skills/<id>/`.
- `/.well-known/skills/index.json` (v0.1, read by CLIs before 1.4.6): `files[]` with SKILL.md
  first, each listed file served under `/.well-known/skills/<name>/`. That is the file's one home
  on the site (urls.FileHomes; emit/files.py writes it), not a copy. Older clients reject the whole
  index for one bad path, so a path that breaks any v0.1 rule is left out of the listing (and
  reported) rather than risked; such a file is served under `raw/<id>/`.

Entries are sorted by name. Which skills are listed, under which name (one skill per name, see
README "Discovery"), and which files are left out is decided by registry/discovery.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import semver

from registry.discovery import ustar_fits
from registry.emit.archive import build_tar_gz
from registry.emit.files import served_paths
from registry.emit.urls import V1_DIR, V2_DIR, FileHomes, SiteUrls
from registry.emit.writer import SiteWriter
from registry.model import Skill

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

SCHEMA_V2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class DiscoveryEntries:
    v2: dict
    v1: dict


def emit_skill(
    writer: SiteWriter, skill: Skill, name: str, homes: FileHomes, contents: Mapping[str, bytes],
    executables: frozenset[str],
) -> DiscoveryEntries:  # fmt: skip
    """Write one skill's v0.2.0 artifact under its discovery `name`; return its entries for both indexes.

    The files the v0.1 index lists (`homes.listed`) are not written here: emit/files.py writes every
    file once, at its home.
    """
    description = skill.description or ""
    paths = served_paths(skill, contents)

    skill_md = contents["SKILL.md"]
    if paths == ["SKILL.md"]:
        writer.write_bytes(f"{V2_DIR}/{name}/SKILL.md", skill_md)
        v2 = {
            "name": name,
            "type": "skill-md",
            "description": description,
            "url": f"{name}/SKILL.md",
            "digest": sha256(skill_md),
        }
    else:
        members = [(path, contents[path], path in executables) for path in paths if ustar_fits(path)]
        archive = build_tar_gz(members)
        writer.write_bytes(f"{V2_DIR}/{name}.tar.gz", archive)
        v2 = {
            "name": name,
            "type": "archive",
            "description": description,
            "url": f"{name}.tar.gz",
            "digest": sha256(archive),
        }
    if skill.version and semver.Version.is_valid(skill.version):
        v2["version"] = skill.version

    v1 = {"name": name, "description": description, "files": [path for path in paths if path in homes.listed]}
    return DiscoveryEntries(v2, v1)


def is_archive(skill: Skill, contents: Mapping[str, bytes]) -> bool:
    """Whether the v0.2.0 artifact is a .tar.gz archive (any file besides SKILL.md) or SKILL.md itself."""
    return served_paths(skill, contents) != ["SKILL.md"]


def skill_index_entry(root_entry: dict, skill_id: str) -> dict:
    """The root index's entry as the skill's own index lists it: its URL, relative to the root index's
    folder, made relative to the per-skill index instead, so the site still works under any base path."""
    to_root = SiteUrls.root_from(SiteUrls.skill_index_file(skill_id))
    return {**root_entry, "url": f"{to_root}{V2_DIR}/{root_entry['url']}"}


def emit_skill_index(writer: SiteWriter, skill_id: str, root_entry: dict) -> None:
    index = {"$schema": SCHEMA_V2, "skills": [skill_index_entry(root_entry, skill_id)]}
    writer.write_json(SiteUrls.skill_index_file(skill_id), index, pretty=True)


def emit_indexes(writer: SiteWriter, entries: Iterable[DiscoveryEntries], v0_1: bool = True) -> None:
    ordered = sorted(entries, key=lambda e: e.v2["name"])
    writer.write_json(f"{V2_DIR}/index.json", {"$schema": SCHEMA_V2, "skills": [e.v2 for e in ordered]}, pretty=True)
    if v0_1:
        writer.write_json(f"{V1_DIR}/index.json", {"skills": [e.v1 for e in ordered]}, pretty=True)


@dataclass(frozen=True)
class WellKnown:
    """Per skill its artifacts under its discovery name and its own one-entry index (when it has a discovery
    name); per site the two root indexes. The v0.1 index and the per-skill indexes are optional outputs
    (registry.yaml `outputs:`); the v0.2 index and its artifacts are always written."""

    name: ClassVar[str] = "well_known"
    stage: ClassVar[str] = "emit"
    discovery_v0_1: bool = True
    skill_indexes: bool = True

    def skill(self, context: SkillContext, writer: SiteWriter) -> DiscoveryEntries | None:
        if context.discovery_name is None:
            return None
        entries = emit_skill(
            writer, context.skill, context.discovery_name, context.homes, context.contents, context.executables
        )
        if self.skill_indexes:
            emit_skill_index(writer, context.skill.id, entries.v2)
        return entries if self.discovery_v0_1 else DiscoveryEntries(entries.v2, {})

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[DiscoveryEntries | None]) -> None:
        emit_indexes(writer, [entries for entries in results if entries is not None], self.discovery_v0_1)

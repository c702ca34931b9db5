"""Which published skills the discovery indexes list, under which name, and which files they leave out.

Decided in the analysis (registry/analysis.py), so that every command reports the same D0xx
findings; emit/well_known.py writes the indexes and artifacts from these decisions, and
emit/archive.py packs only the paths `ustar_fits` accepts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from registry.model import Finding, Skill
from registry.rules.base import I, Rule, W

DISCOVERY_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_V1_PATH_CHARS = re.compile(r"^[\x20-\x7e]+$")
_V1_FORBIDDEN = re.compile(r"[\\?#\[\]]")

NOT_DISCOVERABLE = Rule(
    "D001",
    W,
    "left out of discovery indexes",
    "not in the .well-known indexes: {reason}",
    "{fix}",
    "A description of 1,100 characters, or a name and a folder name that both have spaces.",
)
NAME_TAKEN = Rule(
    "D002",
    W,
    "discovery name taken",
    "the .well-known indexes carry '{name}' from {winner}; this skill is listed on the site only",
    "Rename the skill if it is a different skill, or remove the copy.",
    "Two publishers shipping 'skill-creator'.",
)
PATH_NOT_V1_SAFE = Rule(
    "D003",
    I,
    "file left out of legacy index",
    "'{path}' is left out of /.well-known/skills (v0.1 clients reject the whole index for such a path)",
    "Rename the file using printable ASCII without '..', '\\\\', '?', '#', '[' or ']'.",
    "references/a..b.md",
)
PATH_NOT_IN_ARCHIVE = Rule(
    "D004",
    W,
    "file left out of archive",
    "'{path}' is left out of the archive: it is too long for a portable tar header, or has a part "
    "`skills` clients refuse (a drive letter, a backslash, '.' or '..')",
    "Use plain relative paths of ASCII names, under 100 bytes per file name and 255 in all.",
    "A 300-character nested path.",
)

RISK_EXCLUDED = Rule(
    "D005",
    W,
    "left out of discovery for its risk",
    "risk level {level}: listed on the site but left out of the .well-known indexes by the registry's policy",
    "Remove what the risk findings point at, or ask a maintainer to record an override in registry.yaml.",
    "A skill that pipes a download into a shell.",
)

NAMED_AFTER_FOLDER = Rule(
    "D006",
    I,
    "listed under its folder name",
    "the .well-known indexes list this skill as '{folder}', its folder name: the name '{name}' is not a valid "
    "discovery name",
    "Set `name: {folder}` (lowercase ASCII, single hyphens) so that every client shows the name it installs.",
    "`name: Metasploit Framework` in the folder metasploit-framework.",
)

RULES = (NOT_DISCOVERABLE, NAME_TAKEN, PATH_NOT_V1_SAFE, PATH_NOT_IN_ARCHIVE, RISK_EXCLUDED, NAMED_AFTER_FOLDER)
# The findings that say why a published skill is not in the discovery indexes, or under which name it
# is: shown at the top of its page, beside the install commands.
DISCOVERY_NOTE_CODES = frozenset({NOT_DISCOVERABLE.code, NAME_TAKEN.code, RISK_EXCLUDED.code, NAMED_AFTER_FOLDER.code})


@dataclass(frozen=True)
class DiscoveryName:
    """The name a published skill is listed under in the discovery indexes, or the finding why it is not.

    Discovery clients accept only names matching DISCOVERY_NAME and descriptions of 1 to 1024
    characters, and the `skills` CLI installs a skill under its index name after checking only that
    the downloaded SKILL.md has a name and a description (it never compares the two names). So a name
    that is not a valid discovery name can be replaced by the folder name, which is what Claude Code
    calls the skill anyway; a skill without any name cannot be listed.
    """

    name: str | None
    finding: Finding | None = None  # D001 when name is None, D006 when the folder name is used


def discovery_name(skill: Skill) -> DiscoveryName:
    path = skill.location.skill_md_path
    key_lines = skill.document.key_lines
    description = skill.description or ""
    if not description or len(description) > 1024:
        reason = f"the description has {len(description)} characters; discovery clients accept 1 to 1024"
        fix = "Shorten the description to 1024 characters at most; move details into the body."
        return DiscoveryName(None, NOT_DISCOVERABLE.at(path, key_lines.get("description"), 1, reason=reason, fix=fix))
    name = skill.name
    folder = skill.location.folder.name
    folder_fits = _valid_discovery_name(folder)
    if name is None:
        reason = "the SKILL.md has no name; the `skills` CLI drops a downloaded skill whose frontmatter has none"
        fix = f"Add `name: {folder}` to the frontmatter." if folder_fits else "Add a `name:` to the frontmatter."
        return DiscoveryName(None, NOT_DISCOVERABLE.at(path, key_lines.get("name") or 1, 1, reason=reason, fix=fix))
    if _valid_discovery_name(name):
        return DiscoveryName(name)
    if folder_fits:
        return DiscoveryName(folder, NAMED_AFTER_FOLDER.at(path, key_lines.get("name"), 1, folder=folder, name=name))
    reason = (
        f"neither the name '{name}' nor the folder name '{folder}' matches ^[a-z0-9]+(-[a-z0-9]+)*$ "
        "(64 characters at most)"
    )
    fix = "Use a lowercase ASCII name with single hyphens, and the same name for the folder."
    return DiscoveryName(None, NOT_DISCOVERABLE.at(path, key_lines.get("name"), 1, reason=reason, fix=fix))


def _valid_discovery_name(name: str) -> bool:
    return len(name) <= 64 and bool(DISCOVERY_NAME.match(name))


def select_discoverable(skills: Iterable[Skill], first_published: Mapping[str, str]) -> dict[str, Skill]:
    """One skill per discovery name, by a fixed order of preference:

    1. the skill whose folder is named like the skill (it installs where it says it does);
    2. the one published first according to git (the original rather than a later copy);
    3. the smallest page id, so the choice never depends on crawl order.

    Skills left out get a finding that says why.
    """
    by_name: dict[str, list[Skill]] = {}
    for skill in skills:
        listed = discovery_name(skill)
        if listed.finding is not None:
            skill.findings.append(listed.finding)
        if listed.name is not None:
            by_name.setdefault(listed.name, []).append(skill)
    chosen: dict[str, Skill] = {}
    for name, candidates in sorted(by_name.items()):
        ranked = sorted(
            candidates,
            key=lambda s: (
                s.location.folder.name != name,
                first_published.get(s.id) is None,
                first_published.get(s.id) or "",
                s.id,
            ),
        )
        winner = ranked[0]
        chosen[name] = winner
        for other in ranked[1:]:
            line = other.document.key_lines.get("name")  # the name it would have been listed under
            at = (other.location.skill_md_path, line, 1 if line else None)
            other.findings.append(NAME_TAKEN.at(*at, name=name, winner=winner.id))
    return chosen


def v1_path_ok(path: str) -> bool:
    return (
        bool(_V1_PATH_CHARS.match(path))
        and not _V1_FORBIDDEN.search(path)
        and ".." not in path
        and not path.startswith("/")
    )


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


def path_findings(skill: Skill) -> list[Finding]:
    """The files a listed skill's archive (D004) or legacy index (D003) must leave out, and why.

    Decided from the paths alone, in the analysis (registry/analysis.py), so that every command
    reports them; `emit_skill` leaves the same files out.
    """
    folder = skill.location.rel_folder
    paths = [f.path for f in skill.location.files]
    findings = []
    for path in paths:
        if paths != ["SKILL.md"] and not ustar_fits(path):
            findings.append(PATH_NOT_IN_ARCHIVE.at(_shown(folder, path), None, None, path=path))
        if not v1_path_ok(path):
            findings.append(PATH_NOT_V1_SAFE.at(_shown(folder, path), None, None, path=path))
    return findings


def _shown(folder: str, path: str) -> str:
    return path if folder == "." else f"{folder}/{path}"

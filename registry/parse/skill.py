"""Parse stage: one crawled location becomes one Skill, with every dialect applied."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from urllib.parse import unquote

from registry import checksum, crawl
from registry.config import Limits
from registry.dialects import DIALECTS, KNOWN_FIELDS, Dialect, ParseContext
from registry.dialects.standard import check_invisible
from registry.model import Document, Skill, SkillFile, SkillLocation
from registry.parse.body import body_lines
from registry.parse.document import read_document
from registry.rules import fields as rules
from registry.rules import layout, reading

_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE_PATH = re.compile(r"`((?:\$\{CLAUDE_SKILL_DIR\}/|\./)?(?:scripts|references|assets)/[A-Za-z0-9_./-]+)`")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"^#{1,6}\s+\S", re.M)


def parse_skill(
    location: SkillLocation,
    limits: Limits,
    dialects: Sequence[Dialect] = DIALECTS,
    contents: Mapping[str, bytes] | None = None,
) -> Skill:
    """Read, parse and check one skill; `contents`, the skill's files already read (skill_jobs.load_contents,
    which checked them against the crawl's digests), spares reading them again."""
    path = location.skill_md_path
    size = location.skill_md_file.size
    if size > limits.skill_md_bytes:
        skill = Skill(location, Document("", None, "", "", 1))
        skill.findings.append(reading.SKILL_MD_TOO_LARGE.at(path, None, None, actual=size, limit=limits.skill_md_bytes))
        return skill
    try:
        data = _read(location.skill_md_file, limits.skill_md_bytes, contents)
    except OSError as err:
        document = Document("", None, "", "", 1)
        skill = Skill(location, document)
        skill.findings.append(layout.UNREADABLE.at(path, name=path, reason=str(err)))
        return skill
    document = read_document(data, path, limits)
    skill = Skill(location, document, findings=list(document.findings))
    skill.body_headings = count_headings(document.body)
    skill.body_lines = document.body.count("\n")
    skill.content_digest = checksum.folder_digest(
        [("SKILL.md", checksum.file_digest_hex("SKILL.md", data))]
        + [(f.path, f.digest.removeprefix("sha256:")) for f in location.files[1:] if not f.linked]
    )
    segments = location.id.split("/")
    skill.publisher = segments[0] if len(segments) > 1 else "community"
    if document.frontmatter is None:
        return skill

    frontmatter = document.frontmatter
    folder_name = location.folder.name
    context = ParseContext(path, limits, frozenset(f.path for f in location.files), folder_name)
    for dialect in dialects:
        if dialect.detect(frontmatter, document.body):
            skill.dialects.append(dialect.key)
            dialect.apply(skill, context)

    if not document.recovered:
        unknown = sorted(key for key in frontmatter if key not in KNOWN_FIELDS)
        if unknown:
            line = document.key_lines.get(unknown[0])
            skill.findings.append(rules.UNKNOWN_FIELD.at(path, line, 1, fields=", ".join(unknown)))
    _check_references(skill, context)
    _check_support_files(skill, limits, contents)
    return skill


TEXT_SUFFIXES = frozenset(
    {
        ".md",
        ".markdown",
        ".txt",
        ".py",
        ".sh",
        ".bash",
        ".js",
        ".mjs",
        ".ts",
        ".json",
        ".yaml",
        ".yml",
        ".toml",
        ".html",
        ".css",
        ".csv",
        ".xml",
        ".rb",
        ".go",
        ".rs",
        ".ps1",
        ".sql",
        ".ini",
        ".cfg",
    }
)


def _read(skill_file: SkillFile, limit: int, contents: Mapping[str, bytes] | None) -> bytes:
    """A file's bytes: from `contents` when given, else read; over `limit` is an OSError either way."""
    data = contents.get(skill_file.path) if contents is not None else None
    if data is None:
        return crawl.read_bytes(skill_file, limit)
    if len(data) > limit:
        raise OSError(f"{skill_file.path} grew past {limit} bytes")
    return data


def _check_support_files(skill: Skill, limits: Limits, contents: Mapping[str, bytes] | None = None) -> None:
    """Invisible and bidirectional characters hide text anywhere, not only in SKILL.md."""
    for skill_file in skill.location.files[1:]:
        if PurePosixPath(skill_file.path).suffix.lower() not in TEXT_SUFFIXES:
            continue
        try:
            text = _read(skill_file, limits.file_bytes, contents).decode("utf-8", errors="replace")
        except OSError:
            continue
        shown = (
            skill_file.path if skill.location.rel_folder == "." else f"{skill.location.rel_folder}/{skill_file.path}"
        )
        check_invisible(text, shown, skill.findings)


def count_headings(body: str) -> int:
    """`len(HEADING.findall(body))`, the pattern tried only where a line starts with "#" (most lines do not)."""
    count = end = 0
    start = 0 if body.startswith("#") else body.find("\n#") + 1 or -1
    while start >= 0:
        if start >= end:  # findall's matches do not overlap
            match = HEADING.match(body, start)
            if match:
                count += 1
                end = match.end()
        start = body.find("\n#", start) + 1 or -1
    return count


def referenced_paths(body: str) -> list[tuple[str, int, int, bool]]:
    """Relative paths the body links to (True) or names in code spans (False), with 0-based lines and 1-based
    columns."""
    found: list[tuple[str, int, int, bool]] = []
    for body_line in body_lines(body):
        if body_line.in_code or body_line.is_fence:
            continue
        number, line = body_line.number, body_line.text
        if "](" in line:  # the regexes only where they can match: most lines have neither
            for link in _LINK.finditer(line):
                found.append((link.group(1), number, link.start(1) + 1, True))
        if "`" in line:
            for code in _CODE_PATH.finditer(line):
                found.append((code.group(1), number, code.start(1) + 1, False))
    return found


def _check_references(skill: Skill, context: ParseContext) -> None:
    files = context.files
    directories = {part for f in files for part in _parents(f)}
    seen: set[str] = set()
    for target, line, column, linked in referenced_paths(skill.document.body):
        if _SCHEME.match(target) or (
            target.startswith(("#", "/", "{", "$", "~")) and not target.startswith("${CLAUDE_SKILL_DIR}/")
        ):
            continue
        clean = unquote(target.split("#", 1)[0].split("?", 1)[0])
        clean = clean.removeprefix("${CLAUDE_SKILL_DIR}/").removeprefix("./").rstrip("/")
        if not clean or "{{" in clean or "$" in clean or "*" in clean or clean.startswith(".."):
            continue
        if clean in files or clean in directories or clean in seen:
            continue
        seen.add(clean)
        rule = rules.MISSING_REFERENCE if linked else rules.MENTIONED_PATH_MISSING
        skill.findings.append(rule.at(context.path, skill.document.body_line + line, column, target=clean))


def _parents(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]

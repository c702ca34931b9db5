"""The Agent Skills open standard: six fields, checked with the reference validator's rules.

Messages for the skills-ref rules are the reference validator's own texts (formats.md §2.3),
so an author sees the same words whichever tool they run.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.values import as_str_list, describe_type
from registry.model import Finding, Skill
from registry.rules.base import E, I, Rule, W
from registry.text import ASCII_NAME, RESERVED_WORDS, hidden_characters, split_tools, suggest_name

NAME_MISSING = Rule(
    "S001",
    E,
    "name missing",
    "Missing required field in frontmatter: name",
    "Add `name: {folder}` (lowercase letters, digits and hyphens, equal to the folder name).",
    "A frontmatter with only a description.",
)
DESCRIPTION_MISSING = Rule(
    "S002",
    E,
    "description missing",
    "Missing required field in frontmatter: description",
    "Add `description:` saying what the skill does and when to use it.",
    "A frontmatter with only a name.",
    blocks_loading=True,
)
NAME_NOT_STRING = Rule(
    "S003",
    E,
    "name empty or not text",
    "Field 'name' must be a non-empty string",
    "Write the name as plain text, e.g. `name: {folder}`.",
    "name: [a, b]",
)
NAME_TOO_LONG = Rule(
    "S004",
    E,
    "name too long",
    "Skill name '{name}' exceeds 64 character limit ({length} chars)",
    "Shorten the name to 64 characters or fewer (and rename the folder to match).",
    "A 70-character name.",
)
NAME_NOT_LOWERCASE = Rule(
    "S005",
    E,
    "name not lowercase",
    "Skill name '{name}' must be lowercase",
    "Use `name: {suggestion}`.",
    "name: PDF-Processing",
)
NAME_EDGE_HYPHEN = Rule(
    "S006",
    E,
    "name starts or ends with a hyphen",
    "Skill name cannot start or end with a hyphen",
    "Use `name: {suggestion}`.",
    "name: -pdf",
)
NAME_DOUBLE_HYPHEN = Rule(
    "S007",
    E,
    "name has consecutive hyphens",
    "Skill name cannot contain consecutive hyphens",
    "Use `name: {suggestion}`.",
    "name: pdf--processing",
)
NAME_INVALID_CHARS = Rule(
    "S008",
    E,
    "name has invalid characters",
    "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    "Use `name: {suggestion}`.",
    "name: my_skill",
)
NAME_DIRECTORY_MISMATCH = Rule(
    "S009",
    W,
    "name differs from folder",
    "Directory name '{folder}' must match skill name '{name}'",
    "Rename the folder to '{name}' or set `name: {folder}`; clients install the skill under one of the two.",
    "Folder template/ holding name: template-skill.",
)
DESCRIPTION_NOT_STRING = Rule(
    "S010",
    E,
    "description empty or not text",
    "Field 'description' must be a non-empty string",
    "Write the description as text; use a quoted string or a `>-` block for several lines.",
    "description: (empty)",
    blocks_loading=True,
)
DESCRIPTION_TOO_LONG = Rule(
    "S011",
    E,
    "description too long",
    "Description exceeds 1024 character limit ({length} chars)",
    "Shorten the description to 1024 characters; move detail into the body.",
    "A 1,500-character description.",
)
COMPATIBILITY_NOT_STRING = Rule(
    "S012",
    E,
    "compatibility not text",
    "Field 'compatibility' must be a string",
    "Write compatibility as one line of text, e.g. `compatibility: Requires git and Python 3.10+`.",
    "compatibility: [linux, mac]",
)
COMPATIBILITY_TOO_LONG = Rule(
    "S013",
    E,
    "compatibility too long",
    "Compatibility exceeds 500 character limit ({length} chars)",
    "Shorten compatibility to 500 characters.",
    "A 600-character compatibility note.",
)
NAME_NOT_ASCII = Rule(
    "S014",
    W,
    "name not ASCII",
    "Skill name '{name}' uses characters outside a-z, 0-9 and '-'; discovery clients reject it",
    "Use `name: {suggestion}`; the `skills` CLI accepts only ^[a-z0-9-]+$.",
    "name: café",
)
DESCRIPTION_ANGLE_BRACKETS = Rule(
    "S015",
    W,
    "angle brackets in description",
    "description contains '<' or '>'; claude.ai uploads and the Claude API reject it",
    "Rephrase without angle brackets (write 'less than', or use quotes instead of <tags>).",
    "description: Converts <input> files",
)
RESERVED_WORD = Rule(
    "S016",
    W,
    "reserved word in name",
    "Skill name '{name}' contains the reserved word '{word}'; the Claude API rejects it",
    "Choose a name without '{word}'.",
    "name: claude-helper",
)
TOO_MANY_LINES = Rule(
    "S017",
    W,
    "SKILL.md too long",
    "SKILL.md has {lines} lines; the specification recommends under {limit} (limits.skill_md_lines)",
    "Move detail into references/ files and link them from the body (progressive disclosure).",
    "A 3,500-line SKILL.md.",
)
METADATA_NOT_STRING_MAP = Rule(
    "S018",
    W,
    "metadata not a string map",
    "metadata {problem}; the specification defines it as a map of string keys to string values",
    'Keep metadata flat: `metadata: {{author: me, version: "1.0.0"}}`.',
    'metadata: {"openclaw": {"requires": {"bins": ["jq"]}}}',
)
LICENSE_NOT_STRING = Rule(
    "S019",
    W,
    "license not text",
    "license is {found}, not a string",
    "Write a license name or file, e.g. `license: Apache-2.0`.",
    "license: [MIT]",
)
ALLOWED_TOOLS_FORM = Rule(
    "S020",
    I,
    "allowed-tools as a list",
    "allowed-tools is a YAML list; the open standard writes it as a space-separated string",
    "Portable form: `allowed-tools: {joined}` (Claude Code and Bouno accept the list too).",
    "allowed-tools: [Read, Grep]",
)
ALLOWED_TOOLS_INVALID = Rule(
    "S021",
    W,
    "allowed-tools unreadable",
    "allowed-tools is {found}; expected text or a list of tool names",
    "Write `allowed-tools: Read Grep Bash(git:*)`.",
    "allowed-tools: {Read: true}",
)
INVISIBLE_CHARACTERS = Rule(
    "S022",
    W,
    "invisible or bidirectional characters",
    "{count} invisible or bidirectional character(s) ({names}), first on line {line}",
    "Remove them: they can hide instructions from reviewers (visible on the skill page as ⟦U+XXXX⟧).",
    "A zero-width space or a U+E0041 tag character inside a sentence.",
)
BODY_EMPTY = Rule(
    "S023",
    W,
    "empty body",
    "SKILL.md has no instructions after the frontmatter",
    "Add Markdown instructions: what to do, step by step, with examples.",
    "A file with only frontmatter.",
)

RULES = (
    NAME_MISSING,
    DESCRIPTION_MISSING,
    NAME_NOT_STRING,
    NAME_TOO_LONG,
    NAME_NOT_LOWERCASE,
    NAME_EDGE_HYPHEN,
    NAME_DOUBLE_HYPHEN,
    NAME_INVALID_CHARS,
    NAME_DIRECTORY_MISMATCH,
    DESCRIPTION_NOT_STRING,
    DESCRIPTION_TOO_LONG,
    COMPATIBILITY_NOT_STRING,
    COMPATIBILITY_TOO_LONG,
    NAME_NOT_ASCII,
    DESCRIPTION_ANGLE_BRACKETS,
    RESERVED_WORD,
    TOO_MANY_LINES,
    METADATA_NOT_STRING_MAP,
    LICENSE_NOT_STRING,
    ALLOWED_TOOLS_FORM,
    ALLOWED_TOOLS_INVALID,
    INVISIBLE_CHARACTERS,
    BODY_EMPTY,
)


class StandardDialect:
    key = "agent-skills"
    title = "Agent Skills standard"
    fields = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        return True

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        lines = skill.document.key_lines
        path = context.path
        out = skill.findings

        def at(key: str) -> int | None:
            return lines.get(key)

        self._name(frontmatter, skill, context, at("name"))
        self._description(frontmatter, skill, context, at("description"))

        if "compatibility" in frontmatter:
            value = frontmatter["compatibility"]
            if isinstance(value, str) and value:
                skill.compatibility = value
                if len(value) > 500:
                    out.append(COMPATIBILITY_TOO_LONG.at(path, at("compatibility"), 1, length=len(value)))
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                skill.compatibility = ", ".join(value)
                out.append(COMPATIBILITY_NOT_STRING.at(path, at("compatibility"), 1))
            else:
                out.append(COMPATIBILITY_NOT_STRING.at(path, at("compatibility"), 1))

        license_value = frontmatter.get("license")
        if isinstance(license_value, str) and license_value.strip():
            skill.license = license_value.strip()
        elif license_value is not None:
            out.append(LICENSE_NOT_STRING.at(path, at("license"), 1, found=describe_type(license_value)))

        self._metadata(frontmatter, skill, path, at("metadata"))
        self._allowed_tools(frontmatter, skill, path, at("allowed-tools"))

        text = skill.document.text
        line_count = text.count("\n") + (0 if text.endswith("\n") else 1)
        if line_count > context.limits.skill_md_lines:
            out.append(TOO_MANY_LINES.at(path, None, None, lines=line_count, limit=context.limits.skill_md_lines))
        if skill.document.frontmatter is not None and not skill.document.body.strip():
            out.append(BODY_EMPTY.at(path, skill.document.body_line, 1))
        check_invisible(text, path, out)

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        return ()

    @staticmethod
    def _name(frontmatter: Mapping, skill: Skill, context: ParseContext, line: int | None) -> None:
        path, out = context.path, skill.findings
        if "name" not in frontmatter:
            if skill.document.recovered and "name" in skill.document.key_lines:
                return  # written but unreadable: the YAML error already says where
            out.append(NAME_MISSING.at(path, 1, 1, folder=suggest_name(context.folder_name)))
            return
        raw = frontmatter["name"]
        if not isinstance(raw, str) or not raw.strip():
            out.append(NAME_NOT_STRING.at(path, line, 1, folder=suggest_name(context.folder_name)))
            return
        name = unicodedata.normalize("NFKC", raw.strip())
        skill.name = name
        suggestion = suggest_name(name)
        problems = len(out)
        if len(name) > 64:
            out.append(NAME_TOO_LONG.at(path, line, 1, name=name, length=len(name)))
        if name != name.lower():
            out.append(NAME_NOT_LOWERCASE.at(path, line, 1, name=name, suggestion=suggestion))
        if name.startswith("-") or name.endswith("-"):
            out.append(NAME_EDGE_HYPHEN.at(path, line, 1, suggestion=suggestion))
        if "--" in name:
            out.append(NAME_DOUBLE_HYPHEN.at(path, line, 1, suggestion=suggestion))
        if not all(ch.isalnum() or ch == "-" for ch in name):
            out.append(NAME_INVALID_CHARS.at(path, line, 1, name=name, suggestion=suggestion))
        if len(out) == problems and not ASCII_NAME.match(name):
            out.append(NAME_NOT_ASCII.at(path, line, 1, name=name, suggestion=suggestion))
        folder = unicodedata.normalize("NFKC", context.folder_name)
        if folder != name:
            out.append(NAME_DIRECTORY_MISMATCH.at(path, line, 1, folder=context.folder_name, name=name))
        lowered = name.lower()
        for word in RESERVED_WORDS:
            if word in lowered:
                out.append(RESERVED_WORD.at(path, line, 1, name=name, word=word))

    @staticmethod
    def _description(frontmatter: Mapping, skill: Skill, context: ParseContext, line: int | None) -> None:
        path, out = context.path, skill.findings
        if "description" not in frontmatter:
            if skill.document.recovered and "description" in skill.document.key_lines:
                return
            out.append(DESCRIPTION_MISSING.at(path, 1, 1))
            return
        value = frontmatter["description"]
        if not isinstance(value, str) or not value.strip():
            out.append(DESCRIPTION_NOT_STRING.at(path, line, 1))
            return
        skill.description = value.strip()
        if len(value) > 1024:
            out.append(DESCRIPTION_TOO_LONG.at(path, line, 1, length=len(value)))
        if "<" in value or ">" in value:
            out.append(DESCRIPTION_ANGLE_BRACKETS.at(path, line, 1))

    @staticmethod
    def _metadata(frontmatter: Mapping, skill: Skill, path: str, line: int | None) -> None:
        if "metadata" not in frontmatter or frontmatter["metadata"] is None:
            return
        value = frontmatter["metadata"]
        if not isinstance(value, dict):
            skill.findings.append(METADATA_NOT_STRING_MAP.at(path, line, 1, problem=f"is {describe_type(value)}"))
            return
        skill.metadata = value
        nested = sorted(str(k) for k, v in value.items() if not isinstance(v, str) and v is not None)
        if nested:
            problem = "has non-string values under " + ", ".join(f"'{k}'" for k in nested[:5])
            skill.findings.append(METADATA_NOT_STRING_MAP.at(path, line, 1, problem=problem))

    @staticmethod
    def _allowed_tools(frontmatter: Mapping, skill: Skill, path: str, line: int | None) -> None:
        value: Any = frontmatter.get("allowed-tools")
        if value is None:
            return
        if isinstance(value, str):
            skill.allowed_tools = split_tools(value)
            return
        tools = as_str_list(value)
        if tools is None:
            skill.findings.append(ALLOWED_TOOLS_INVALID.at(path, line, 1, found=describe_type(value)))
            return
        skill.allowed_tools = tools
        skill.findings.append(ALLOWED_TOOLS_FORM.at(path, line, 1, joined=" ".join(tools)))


def check_invisible(text: str, path: str, out: list[Finding]) -> None:
    found = hidden_characters(text)
    if not found:
        return
    names = sorted({f"U+{ord(text[i]):04X}" for i in found})
    line, column = text.count("\n", 0, found[0]) + 1, found[0] - text.rfind("\n", 0, found[0])
    shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
    out.append(INVISIBLE_CHARACTERS.at(path, line, column, count=len(found), names=shown, line=line))

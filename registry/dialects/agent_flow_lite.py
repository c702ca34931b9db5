"""Agent Flow Lite: typed form inputs, a knowledge base and model settings (seed 002).

The body is a prompt template: every `{{name}}` must be declared in `inputs` (the loader checks
`\\{\\{(\\w+)\\}\\}` on create and update and refuses undeclared names). `inputs[]` entries have a
name (entries without one are skipped), a label, a type (text or textarea; anything else falls
back to text), required, a default (at most 1,024 characters) and a description (at most 512).
`model` is a mapping with `temperature` (0-2) and `max_tokens` (1-8,192); a plain string is
ignored. SKILL.md files over 50 KB are refused on create and update.

A skill is read as Agent Flow Lite when it has `inputs`, `knowledge_base`, `user_id` or a
`model` mapping; a string `model` alone is Claude Code's field, not this dialect's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.values import as_bool, as_float, as_int, describe_type
from registry.model import Finding, Input, Skill
from registry.rules.base import E, I, Rule, W

INPUTS_NOT_LIST = Rule(
    "A001",
    E,
    "inputs not a list",
    "'inputs' is {found}; Agent Flow Lite expects a list of input definitions",
    "Write `inputs:` as a list: `- name: article` with label, type, required.",
    "inputs: article",
)
INPUT_NOT_MAPPING = Rule(
    "A002",
    W,
    "input not a mapping",
    "inputs entry {number} is {found}; Agent Flow Lite skips it",
    "Write each input as a mapping: `- name: article`.",
    "inputs: [article]",
)
INPUT_WITHOUT_NAME = Rule(
    "A003",
    W,
    "input without a name",
    "inputs entry {number} has no name; Agent Flow Lite skips it silently",
    "Add `name:` (letters, digits, underscores) to the entry.",
    "- label: Article",
)
INPUT_NAME_INVALID = Rule(
    "A004",
    W,
    "input name unusable",
    "input name '{name}' {problem}, so no `{{{{…}}}}` placeholder can refer to it",
    "Use 1-64 letters, digits and underscores, e.g. `{suggestion}`.",
    "name: article text",
)
INPUT_TYPE_UNKNOWN = Rule(
    "A005",
    W,
    "unknown input type",
    "input '{name}' has type '{type}'; Agent Flow Lite accepts text or textarea and falls back to text",
    "Use `type: text` (one line) or `type: textarea` (several lines).",
    "type: string",
)
INPUT_FIELD_TOO_LONG = Rule(
    "A006",
    E,
    "input field too long",
    "the {field} of input '{name}' has {length} characters; Agent Flow Lite accepts at most {limit}",
    "Shorten it to {limit} characters.",
    "A 2,000-character default.",
)
INPUT_FIELD_NOT_TEXT = Rule(
    "A007",
    W,
    "input field not text",
    "the {field} of input '{name}' is {found}; Agent Flow Lite expects text",
    "Write `{field}:` as text.",
    "label: [a, b]",
)
INPUT_REQUIRED_NOT_BOOLEAN = Rule(
    "A008",
    W,
    "required not a boolean",
    "'required' of input '{name}' is '{value}', not true or false",
    "Write `required: true` or `required: false`.",
    "required: maybe",
)
INPUT_DUPLICATE = Rule(
    "A009",
    W,
    "duplicate input",
    "input '{name}' is declared more than once",
    "Keep one entry per input name.",
    "Two inputs named article.",
)
PLACEHOLDER_NOT_DECLARED = Rule(
    "A010",
    E,
    "placeholder not declared",
    "{{{{{name}}}}} in the body is not declared in inputs; Agent Flow Lite refuses to save the skill",
    "Add `- name: {name}` (with a label and type) under `inputs:`.",
    "{{article}} with no inputs.",
)
INPUT_UNUSED = Rule(
    "A011",
    I,
    "input unused",
    "input '{name}' is declared but the body never uses {{{{{name}}}}}",
    "Use `{{{{{name}}}}}` in the prompt or remove the input.",
    "An input the prompt never mentions.",
)
KNOWLEDGE_BASE_INVALID = Rule(
    "A012",
    W,
    "knowledge_base invalid",
    "knowledge_base {problem}",
    "Write the knowledge base ID or name as text (at most 256 characters), or leave it empty.",
    "knowledge_base: [docs]",
)
MODEL_STRING = Rule(
    "A013",
    I,
    "model as text",
    "model is the text '{value}'; Agent Flow Lite reads only a mapping (temperature, max_tokens) and ignores it",
    "Write `model: {{temperature: 0.7, max_tokens: 2000}}`; a model name is chosen in Agent Flow Lite itself.",
    "model: deepseek-chat",
)
MODEL_INVALID = Rule(
    "A014",
    W,
    "model unreadable",
    "model is {found}; Agent Flow Lite expects a mapping with temperature and max_tokens",
    "Write `model: {{temperature: 0.7, max_tokens: 2000}}`.",
    "model: [0.7]",
)
TEMPERATURE_INVALID = Rule(
    "A015",
    W,
    "temperature out of range",
    "model.temperature is {value}; Agent Flow Lite accepts a number from 0 to 2",
    "Use a temperature from 0 to 2 (default 0.7).",
    "temperature: 5",
)
MAX_TOKENS_INVALID = Rule(
    "A016",
    W,
    "max_tokens out of range",
    "model.max_tokens is {value}; Agent Flow Lite accepts a whole number from 1 to 8192",
    "Use a value from 1 to 8192 (default 2000).",
    "max_tokens: 100000",
)
TOO_LARGE = Rule(
    "A017",
    W,
    "SKILL.md over 50 KB",
    "SKILL.md is {size:,} bytes; Agent Flow Lite refuses to create or update skills over 51,200 bytes",
    "Shorten the prompt; Agent Flow Lite keeps a skill in one file.",
    "A 60 KB prompt.",
)
USER_ID_INVALID = Rule(
    "A018",
    W,
    "user_id invalid",
    "user_id {problem}",
    "Write user_id as text of at most 256 characters, or leave it out (Agent Flow Lite fills it in).",
    "user_id: [1, 2]",
)

RULES = (
    INPUTS_NOT_LIST,
    INPUT_NOT_MAPPING,
    INPUT_WITHOUT_NAME,
    INPUT_NAME_INVALID,
    INPUT_TYPE_UNKNOWN,
    INPUT_FIELD_TOO_LONG,
    INPUT_FIELD_NOT_TEXT,
    INPUT_REQUIRED_NOT_BOOLEAN,
    INPUT_DUPLICATE,
    PLACEHOLDER_NOT_DECLARED,
    INPUT_UNUSED,
    KNOWLEDGE_BASE_INVALID,
    MODEL_STRING,
    MODEL_INVALID,
    TEMPERATURE_INVALID,
    MAX_TOKENS_INVALID,
    TOO_LARGE,
    USER_ID_INVALID,
)

SIZE_LIMIT = 51_200
INPUT_TYPES = ("text", "textarea")
TEXT_LIMITS = {"label": 128, "default": 1024, "description": 512}
# skill_loader.py validates with \{\{(\w+)\}\}; names must be usable there.
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_NAME = re.compile(r"\w{1,64}")


class AgentFlowLiteDialect:
    key = "agent-flow-lite"
    title = "Agent Flow Lite"
    fields = frozenset({"inputs", "knowledge_base", "model", "user_id"})
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        return (
            "inputs" in frontmatter
            or "knowledge_base" in frontmatter
            or "user_id" in frontmatter
            or isinstance(frontmatter.get("model"), dict)
        )

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        path, out = context.path, skill.findings
        lines = skill.document.key_lines
        declared = self._inputs(frontmatter, skill, path)
        self._placeholders(skill, path, declared)

        if "knowledge_base" in frontmatter:
            value = frontmatter["knowledge_base"]
            line = lines.get("knowledge_base")
            if value is None:
                skill.knowledge_base = None
            elif not isinstance(value, str):
                out.append(KNOWLEDGE_BASE_INVALID.at(path, line, 1, problem=f"is {describe_type(value)}, not text"))
            elif len(value) > 256:
                out.append(
                    KNOWLEDGE_BASE_INVALID.at(
                        path, line, 1, problem=f"has {len(value)} characters; Agent Flow Lite accepts at most 256"
                    )
                )
            else:
                skill.knowledge_base = value.strip() or None

        self._model(frontmatter, skill, path, lines.get("model"))

        if "user_id" in frontmatter and frontmatter["user_id"] is not None:
            value = frontmatter["user_id"]
            if not isinstance(value, str):
                out.append(
                    USER_ID_INVALID.at(path, lines.get("user_id"), 1, problem=f"is {describe_type(value)}, not text")
                )
            elif len(value) > 256:
                out.append(
                    USER_ID_INVALID.at(
                        path, lines.get("user_id"), 1, problem=f"has {len(value)} characters; at most 256 are accepted"
                    )
                )

        size = len(skill.document.text.encode("utf-8"))
        if size > SIZE_LIMIT:
            out.append(TOO_LARGE.at(path, None, None, size=size))

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        return ()

    def _inputs(self, frontmatter: Mapping, skill: Skill, path: str) -> set[str]:
        out = skill.findings
        document = skill.document
        key_line = document.key_lines.get("inputs")
        value = frontmatter.get("inputs")
        names: set[str] = set()
        if value is None:
            return names
        if not isinstance(value, list):
            out.append(INPUTS_NOT_LIST.at(path, key_line, 1, found=describe_type(value)))
            return names
        text_lines = document.text.split("\n")
        end = max(0, document.body_line - 1)
        ranges = list_item_ranges(text_lines, key_line, end)
        if len(ranges) != len(value):
            ranges = [(key_line, key_line)] * len(value) if key_line else [(None, None)] * len(value)
        for number, entry in enumerate(value, start=1):
            first, last = ranges[number - 1]
            if not isinstance(entry, dict):
                out.append(
                    INPUT_NOT_MAPPING.at(
                        path, first, _content_column(text_lines, first), number=number, found=describe_type(entry)
                    )
                )
                continue
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                out.append(INPUT_WITHOUT_NAME.at(path, first, _content_column(text_lines, first), number=number))
                continue
            name = name.strip()
            line, column = _find(text_lines, first, (last or 0) + 1, "name:", name)

            def field_at(field: str, first: int | None = first, last: int | None = last) -> tuple[int | None, ...]:
                return _find(text_lines, first, (last or 0) + 1, f"{field}:", "")

            if not _NAME.fullmatch(name):
                problem = (
                    "is longer than 64 characters"
                    if len(name) > 64
                    else ("contains characters other than letters, digits and underscores")
                )
                suggestion = re.sub(r"\W+", "_", name).strip("_")[:64] or "input"
                out.append(
                    INPUT_NAME_INVALID.at(path, line, column, name=name[:80], problem=problem, suggestion=suggestion)
                )
            if name in names:
                out.append(INPUT_DUPLICATE.at(path, line, column, name=name))
                continue
            names.add(name)
            item = Input(name=name)
            for field, limit in TEXT_LIMITS.items():
                raw = entry.get(field)
                if raw is None:
                    continue
                if not isinstance(raw, str):
                    out.append(
                        INPUT_FIELD_NOT_TEXT.at(
                            path, *field_at(field), field=field, name=name, found=describe_type(raw)
                        )
                    )
                    continue
                if len(raw) > limit:
                    out.append(
                        INPUT_FIELD_TOO_LONG.at(
                            path, *field_at(field), field=field, name=name, length=len(raw), limit=limit
                        )
                    )
                setattr(item, field, raw)
            if not item.label:
                item.label = name
            kind = entry.get("type")
            if kind is not None:
                if isinstance(kind, str) and kind.strip() in INPUT_TYPES:
                    item.type = kind.strip()
                else:
                    shown = kind if isinstance(kind, str) else describe_type(kind)
                    out.append(INPUT_TYPE_UNKNOWN.at(path, *field_at("type"), name=name, type=shown))
            required = entry.get("required")
            if required is not None:
                flag = as_bool(required)
                if flag is None:
                    shown = required if isinstance(required, str) else describe_type(required)
                    out.append(INPUT_REQUIRED_NOT_BOOLEAN.at(path, *field_at("required"), name=name, value=shown))
                else:
                    item.required = flag
            skill.inputs.append(item)
        return names

    def _placeholders(self, skill: Skill, path: str, declared: set[str]) -> None:
        body = skill.document.body
        used: set[str] = set()
        reported: set[str] = set()
        for number, line in enumerate(body.split("\n")):
            for match in _PLACEHOLDER.finditer(line):
                name = match.group(1)
                used.add(name)
                if name not in declared and name not in reported:
                    reported.add(name)
                    skill.findings.append(
                        PLACEHOLDER_NOT_DECLARED.at(
                            path, skill.document.body_line + number, match.start() + 1, name=name
                        )
                    )
        for item in skill.inputs:
            if item.name not in used:
                line, column = _find(
                    skill.document.text.split("\n"),
                    skill.document.key_lines.get("inputs"),
                    max(0, skill.document.body_line - 1),
                    "name:",
                    item.name,
                )
                skill.findings.append(INPUT_UNUSED.at(path, line, column, name=item.name))

    @staticmethod
    def _model(frontmatter: Mapping, skill: Skill, path: str, line: int | None) -> None:
        if "model" not in frontmatter or frontmatter["model"] is None:
            return
        value: Any = frontmatter["model"]
        out = skill.findings
        if isinstance(value, str):
            out.append(MODEL_STRING.at(path, line, 1, value=value))
            return
        if not isinstance(value, dict):
            out.append(MODEL_INVALID.at(path, line, 1, found=describe_type(value)))
            return
        if value.get("temperature") is not None:
            raw = value["temperature"]
            number = as_float(raw)
            if number is None or not 0 <= number <= 2:
                shown = f"'{raw}'" if isinstance(raw, str) else describe_type(raw)
                out.append(TEMPERATURE_INVALID.at(path, *_model_field(skill, line, "temperature"), value=shown))
            else:
                skill.model_settings["temperature"] = number
        if value.get("max_tokens") is not None:
            raw = value["max_tokens"]
            number = as_int(raw)
            if number is None or not 1 <= number <= 8192:
                shown = f"'{raw}'" if isinstance(raw, str) else describe_type(raw)
                out.append(MAX_TOKENS_INVALID.at(path, *_model_field(skill, line, "max_tokens"), value=shown))
            else:
                skill.model_settings["max_tokens"] = number


def _find(lines: list[str], start: int | None, end: int, key: str, value: str) -> tuple[int | None, int | None]:
    """(line, column) of the first frontmatter line from `start` holding `key` and `value`."""
    if start is None:
        return None, None
    for index in range(max(0, start - 1), min(end, len(lines))):
        text = lines[index]
        at = text.find(key)
        if at >= 0 and value in text[at:]:
            return index + 1, text.find(value, at) + 1
    return start, _content_column(lines, start)


def _content_column(lines: list[str], line: int | None) -> int | None:
    """Column of the first non-blank character of a 1-based line: where a list item or key starts."""
    if line is None or not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    return len(text) - len(text.lstrip()) + 1


def _model_field(skill: Skill, model_line: int | None, field: str) -> tuple[int | None, int | None]:
    """(line, column) of `field:` under `model:`; the `model:` line when it is written inline."""
    return _find(skill.document.text.split("\n"), model_line, max(0, skill.document.body_line - 1), f"{field}:", "")


def list_item_ranges(lines: list[str], key_line: int | None, end: int) -> list[tuple[int, int]]:
    """1-based (first, last) lines of each item of the block list under a top-level key."""
    if key_line is None:
        return []
    items: list[tuple[int, int]] = []
    indent: int | None = None
    last = key_line
    for index in range(key_line, min(end, len(lines))):
        text = lines[index]
        stripped = text.lstrip(" ")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        if not text.startswith((" ", "-")):
            break  # the next top-level key
        depth = len(text) - len(stripped)
        if stripped.startswith("-") and (indent is None or depth == indent):
            indent = depth
            if items:
                items[-1] = (items[-1][0], last)
            items.append((index + 1, index + 1))
        last = index + 1
    if items:
        items[-1] = (items[-1][0], last)
    return items

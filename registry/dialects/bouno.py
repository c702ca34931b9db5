"""Bouno (browser-extension agent): slash commands with typed arguments (seed 000).

Fields: `user-invocable` (default true) and `auto-discover` (default false) booleans,
`allowed-tools` as a list, `requires: {tools: [...]}`, and `arguments[]` of mappings
(name, description, required, default) substituted into the body as `$name` or `${name}`.
Bouno refuses a skill whose instructions body is shorter than 10 characters.

A skill is read as Bouno when it has `auto-discover`, `arguments` as a list of mappings, or
`requires` as a mapping with `tools` (`user-invocable` and a list `allowed-tools` are Claude
Code's too, so alone they do not make a skill Bouno's).

Undeclared `$name` / `${name}` references are reported only outside code (fenced blocks and
inline code hold shell variables such as `$HOME`), only for lowercase names (`$ARGUMENTS`,
`$PATH` and `${CLAUDE_PLUGIN_ROOT}` are other tools' variables), and never for `$1`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.values import as_bool, as_str_list, describe_type
from registry.model import Finding, Parameter, Skill
from registry.parse.body import body_lines
from registry.rules.base import E, I, Rule, W

ARGUMENTS_NOT_LIST = Rule(
    "B001",
    W,
    "arguments not a list",
    "'arguments' is {found}; Bouno expects a list of mappings with name, description, required, default",
    "Write `arguments:` as a list: `- name: query` with description and required.",
    "arguments: {query: text}",
)
ARGUMENT_NOT_MAPPING = Rule(
    "B002",
    W,
    "argument not a mapping",
    "arguments entry {number} is {found}, not a mapping with a name",
    "Write each argument as `- name: query` with description, required and default.",
    "arguments: [query, {name: limit}]",
)
ARGUMENT_WITHOUT_NAME = Rule(
    "B003",
    E,
    "argument without a name",
    "arguments entry {number} has no name, so the body cannot refer to it",
    "Add `name:` to the entry.",
    "- description: The search query",
)
ARGUMENT_DUPLICATE = Rule(
    "B004",
    W,
    "duplicate argument",
    "argument '{name}' is declared more than once",
    "Keep one entry per argument name.",
    "Two arguments named query.",
)
ARGUMENT_FIELD_INVALID = Rule(
    "B005",
    W,
    "argument field unreadable",
    "'{field}' of argument '{name}' is {found}; expected {expected}",
    "Write `{field}: {example}`.",
    "required: maybe",
)
REFERENCE_NOT_DECLARED = Rule(
    "B006",
    W,
    "argument not declared",
    "the body refers to {reference}, but no argument named '{name}' is declared ({declared})",
    "Add `- name: {name}` under `arguments:` or fix the spelling.",
    "$qeury with an argument named query",
)
ARGUMENT_UNUSED = Rule(
    "B007",
    I,
    "argument unused",
    "argument '{name}' is declared but the body never refers to ${name} or ${{{name}}}",
    "Refer to it in the instructions as `${name}`, or remove it.",
    "An argument the body never mentions.",
)
NOT_BOOLEAN = Rule(
    "B008",
    W,
    "not a boolean",
    "'{field}' is {value}, not a boolean",
    "Write `{field}: true` or `{field}: false`.",
    "auto-discover: sometimes",
)
ALLOWED_TOOLS_TEXT = Rule(
    "B009",
    I,
    "allowed-tools as text",
    "allowed-tools is text; Bouno reads a list of tool names",
    "For Bouno write `allowed-tools: [{joined}]`.",
    "allowed-tools: get_page_text read_page",
)
REQUIRES_INVALID = Rule(
    "B010",
    W,
    "requires unreadable",
    "'requires' {problem}; Bouno expects `requires: {{tools: [tool_name, ...]}}`",
    "Write `requires:` with an indented `tools: [get_page_text]`.",
    "requires: [get_page_text]",
)
REQUIRED_TOOL_NOT_ALLOWED = Rule(
    "B011",
    W,
    "required tool not allowed",
    "requires.tools names '{tool}', which allowed-tools leaves out, so the skill can never use it",
    "Add '{tool}' to allowed-tools or remove it from requires.tools.",
    "requires: {tools: [screenshot]} with allowed-tools: [read_page]",
)
BODY_TOO_SHORT = Rule(
    "B012",
    E,
    "instructions too short",
    "the instructions body has {length} character(s); Bouno refuses bodies shorter than 10",
    "Write the instructions the agent follows when the skill is invoked.",
    "A body that says only 'Do it.'",
)

RULES = (
    ARGUMENTS_NOT_LIST,
    ARGUMENT_NOT_MAPPING,
    ARGUMENT_WITHOUT_NAME,
    ARGUMENT_DUPLICATE,
    ARGUMENT_FIELD_INVALID,
    REFERENCE_NOT_DECLARED,
    ARGUMENT_UNUSED,
    NOT_BOOLEAN,
    ALLOWED_TOOLS_TEXT,
    REQUIRES_INVALID,
    REQUIRED_TOOL_NOT_ALLOWED,
    BODY_TOO_SHORT,
)

_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# `${name}` or `$name`; the name starts with a lowercase letter (shell and Claude variables are upper case).
_REFERENCE = re.compile(r"(?<![\\$\w])\$(?:\{([A-Za-z_][\w-]*)\}|([a-z_][A-Za-z0-9_]*))")


class BounoDialect:
    key = "bouno"
    title = "Bouno"
    fields = frozenset(
        {"version", "author", "user-invocable", "auto-discover", "allowed-tools", "requires", "arguments"}
    )
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        if "auto-discover" in frontmatter:
            return True
        arguments = frontmatter.get("arguments")
        if isinstance(arguments, list) and any(isinstance(a, dict) for a in arguments):
            return True
        requires = frontmatter.get("requires")
        return isinstance(requires, dict) and "tools" in requires

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        lines = skill.document.key_lines
        path, out = context.path, skill.findings

        for key in ("user-invocable", "auto-discover"):
            if key not in frontmatter or frontmatter[key] is None:
                continue
            flag = as_bool(frontmatter[key])
            if flag is not None:
                skill.settings[key] = flag
            elif key == "auto-discover":  # user-invocable is checked by the Claude Code dialect
                out.append(NOT_BOOLEAN.at(path, lines.get(key), 1, field=key, value=_shown(frontmatter[key])))

        for key in ("version", "author"):
            value = frontmatter.get(key)
            if getattr(skill, key) is None and isinstance(value, str) and value.strip():
                setattr(skill, key, value.strip())

        allowed = frontmatter.get("allowed-tools")
        allowed_list: list[str] | None = None
        if isinstance(allowed, str) and allowed.strip():
            names = [t for t in re.split(r"[\s,]+", allowed) if t]
            out.append(ALLOWED_TOOLS_TEXT.at(path, lines.get("allowed-tools"), 1, joined=", ".join(names)))
        elif isinstance(allowed, list):
            allowed_list = as_str_list(allowed)

        self._requires(frontmatter, skill, path, lines.get("requires"), allowed_list)
        declared = self._arguments(frontmatter, skill, path, lines.get("arguments"))
        if declared is not None:
            self._references(skill, path, declared)

        body = skill.document.body.strip()
        if len(body) < 10:
            out.append(BODY_TOO_SHORT.at(path, skill.document.body_line, None, length=len(body)))

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        return ()

    @staticmethod
    def _requires(frontmatter: Mapping, skill: Skill, path: str, line: int | None, allowed: list[str] | None) -> None:
        if "requires" not in frontmatter or frontmatter["requires"] is None:
            return
        value = frontmatter["requires"]
        if isinstance(value, list):
            return  # a list is wolffi.sh's `requires` (other capabilities), read by that dialect
        if not isinstance(value, dict):
            skill.findings.append(REQUIRES_INVALID.at(path, line, 1, problem=f"is {describe_type(value)}"))
            return
        if "tools" not in value or value["tools"] is None:
            return
        tools = as_str_list(value["tools"])
        if tools is None:
            problem = f"has tools that are {describe_type(value['tools'])}"
            skill.findings.append(REQUIRES_INVALID.at(path, line, 1, problem=problem))
            return
        skill.requires["tools"] = tools
        if allowed is not None:
            for tool in tools:
                if tool not in allowed:
                    skill.findings.append(REQUIRED_TOOL_NOT_ALLOWED.at(path, line, 1, tool=tool))

    @staticmethod
    def _arguments(frontmatter: Mapping, skill: Skill, path: str, line: int | None) -> set[str] | None:
        """Declared argument names, or None when `arguments` is not Bouno's (absent or Claude Code's)."""
        value = frontmatter.get("arguments")
        if value is None:
            return None
        out = skill.findings
        if not isinstance(value, list):
            if not isinstance(value, str):  # a string is Claude Code's `arguments`
                out.append(ARGUMENTS_NOT_LIST.at(path, line, 1, found=describe_type(value)))
            return None
        if not any(isinstance(entry, dict) for entry in value):
            return None  # a list of names is Claude Code's form
        arguments: list[Parameter] = []
        names: set[str] = set()
        key_line = line
        text_lines = skill.document.text.split("\n")[: max(0, skill.document.body_line - 1)]
        cursor = key_line
        for number, entry in enumerate(value, start=1):
            line = cursor
            if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"].strip():
                line = _name_line(text_lines, cursor, entry["name"].strip()) or cursor
                cursor = line + 1 if line is not None else cursor
            if not isinstance(entry, dict):
                out.append(ARGUMENT_NOT_MAPPING.at(path, line, 1, number=number, found=describe_type(entry)))
                continue
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                out.append(ARGUMENT_WITHOUT_NAME.at(path, line, 1, number=number))
                continue
            name = name.strip()
            if name in names:
                out.append(ARGUMENT_DUPLICATE.at(path, line, 1, name=name))
                continue
            names.add(name)
            parameter = Parameter(name=name)
            description = entry.get("description")
            if isinstance(description, str):
                parameter.description = description.strip()
            elif description is not None:
                out.append(_field_problem(path, line, "description", name, description, "text", "The search query"))
            required = entry.get("required")
            if required is not None:
                flag = as_bool(required)
                if flag is None:
                    out.append(_field_problem(path, line, "required", name, required, "true or false", "true"))
                else:
                    parameter.required = flag
            default = entry.get("default")
            if isinstance(default, str):
                parameter.default = default
            elif default is not None:
                out.append(_field_problem(path, line, "default", name, default, "text", '"10"'))
            arguments.append(parameter)
        skill.arguments = arguments
        return names

    @staticmethod
    def _references(skill: Skill, path: str, declared: set[str]) -> None:
        document = skill.document
        used: set[str] = set()
        reported: set[str] = set()
        shown = ", ".join(sorted(declared)) or "none"
        for body_line in body_lines(document.body):
            number, line = body_line.number, body_line.text
            if body_line.is_fence:
                continue
            if body_line.in_code:
                # Code is not prose, but Bouno substitutes there too: count uses, report nothing.
                used.update(m.group(1) or m.group(2) for m in _REFERENCE.finditer(line))
                continue
            prose = _INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
            used.update(m.group(1) or m.group(2) for m in _REFERENCE.finditer(line))
            for match in _REFERENCE.finditer(prose):
                name = match.group(1) or match.group(2)
                if name in declared or name in reported or name.isupper():
                    continue  # upper-case names are environment and Claude Code variables
                if match.group(2) is not None and not _looks_like_argument(name, declared):
                    continue
                reported.add(name)
                skill.findings.append(
                    REFERENCE_NOT_DECLARED.at(
                        path,
                        document.body_line + number,
                        match.start() + 1,
                        reference=match.group(0),
                        name=name,
                        declared=shown,
                    )
                )
        for parameter in skill.arguments:
            if parameter.name not in used:
                line = skill.document.key_lines.get("arguments")
                skill.findings.append(ARGUMENT_UNUSED.at(path, line, 1, name=parameter.name))


def _name_line(lines: list[str], start: int | None, name: str) -> int | None:
    """The frontmatter line from `start` on that declares `name: <name>`."""
    if start is None:
        return None
    pattern = re.compile(r"(^|[\s{,-])name:\s*['\"]?" + re.escape(name) + r"['\"]?\s*([,}#]|$)")
    for index in range(max(0, start - 1), len(lines)):
        if pattern.search(lines[index]):
            return index + 1
    return None


def _looks_like_argument(name: str, declared: set[str]) -> bool:
    """`$name` in prose is reported only when it resembles a declared argument (a likely typo);
    a bare `$x` in prose about prices, PHP or templates is left alone."""
    if not declared:
        return False
    return any(_close(name, other) for other in declared)


def _close(a: str, b: str) -> bool:
    """Edit distance at most 2 (for short names, 1), or one a prefix of the other."""
    if a.startswith(b) or b.startswith(a):
        return True
    limit = 1 if min(len(a), len(b)) <= 4 else 2
    if abs(len(a) - len(b)) > limit:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] <= limit


def _shown(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else describe_type(value)


def _field_problem(
    path: str, line: int | None, field: str, name: str, value: Any, expected: str, example: str
) -> Finding:
    return ARGUMENT_FIELD_INVALID.at(
        path, line, 1, field=field, name=name, found=_shown(value), expected=expected, example=example
    )

"""wolffi.sh capabilities: triggers, tools, danger and confirm patterns, requires (seed 004).

What the documentation shows and what wolffish-app's loader (src/main/runtime/cerebellum) reads
differ in places; both forms are accepted and the differences are reported:

- `tools[].parameters`: documented as JSON Schema (`type: object`, `properties`, `required`);
  the bundled capabilities write a map of parameter name to `{type, required, description}`,
  where a missing `required` means required (the loader only treats `required: false` as
  optional).
- `danger_patterns` / `confirm_patterns`: documented as regex strings; the loader reads
  `{pattern, level, reason}` mappings and compiles `new RegExp(pattern, 'i')`, silently dropping
  a pattern JavaScript rejects. Patterns are checked with Python's `re` after translating the
  JavaScript-only syntax it lacks (named groups `(?<n>`, `\\k<n>`); what Python cannot judge is
  reported as "may be valid JavaScript" rather than as an error, and Python-only syntax that
  JavaScript rejects (`(?P<n>`, inline flags, possessive quantifiers) is an error.
- `triggers`: keywords matched case-insensitively as substrings of the message; `"*"` is
  documented as always-on. Real files have hundreds; there is no size or count limit here.
- `requires`: names of other capabilities, which must exist (checked registry-wide).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.values import as_bool, describe_type
from registry.model import Finding, Parameter, Pattern, Skill, SkillReference, Tool
from registry.rules.base import E, I, Rule, W

TRIGGERS_MISSING = Rule(
    "W001",
    W,
    "no triggers",
    "the capability has no triggers, so wolffi.sh's keyword matching never injects its instructions",
    'Add `triggers:` with keywords users type (or `- "*"` for always-on).',
    "A capability with tools and no triggers.",
)
TRIGGERS_INVALID = Rule(
    "W002",
    E,
    "triggers unreadable",
    "{where} is {found}; wolffi.sh expects a list of keywords (text)",
    "Write `triggers:` as a list of quoted keywords.",
    "triggers: {git: true}",
)
ALWAYS_ON_WITH_TOOLS = Rule(
    "W003",
    I,
    "always-on trigger with tools",
    'the "*" (always-on) trigger is documented for pure skills without tools; this capability defines tools',
    'Keep "*" only on skills without tools, or move the tools to a capability of their own.',
    'triggers: ["*"] with tools: [shell_exec]',
)
TOOLS_INVALID = Rule(
    "W004",
    E,
    "tools unreadable",
    "{where} is {found}; wolffi.sh expects {expected}",
    "See the tools format: `- name: my_tool`, `description:`, `parameters:`.",
    "tools: shell_exec",
)
TOOL_NAME_INVALID = Rule(
    "W005",
    W,
    "tool name rejected by LLM APIs",
    "tool name '{name}' is not 1-64 letters, digits, '_' or '-'; the Anthropic and OpenAI tool-calling APIs reject it",
    "Rename it to `{suggestion}`.",
    "name: shell exec",
)
TOOL_DUPLICATE = Rule(
    "W006",
    E,
    "duplicate tool name",
    "tool '{name}' is defined more than once; wolffi.sh keeps only the last definition",
    "Give each tool a distinct name.",
    "Two tools named shell_exec.",
)
TOOL_NO_DESCRIPTION = Rule(
    "W007",
    W,
    "tool without description",
    "tool '{name}' has no description; the model decides when to call a tool from it",
    "Add `description:` saying what the tool does and when to use it.",
    "- name: shell_exec (no description)",
)
PARAMETERS_JSON_SCHEMA = Rule(
    "W008",
    I,
    "parameters written as JSON Schema",
    "the parameters of tool '{name}' are JSON Schema (type: object, properties); wolffish-app's loader reads a map "
    "of parameter name to {{type, required, description}} and would take 'type' and 'properties' as parameter names",
    "Write `parameters:` as `command: {{type: string, description: ...}}` entries, with `required: false` on "
    "optional ones.",
    "parameters: {type: object, properties: {command: {type: string}}}",
)
PARAMETER_INVALID = Rule(
    "W009",
    W,
    "parameter unreadable",
    "parameter '{parameter}' of tool '{name}' {problem}",
    "Write each parameter as `{parameter}: {{type: string, description: ...}}`.",
    "command: string",
)
PARAMETER_TYPE_UNKNOWN = Rule(
    "W010",
    W,
    "unknown parameter type",
    "parameter '{parameter}' of tool '{name}' has type '{type}', which is not a JSON Schema type",
    "Use one of string, number, integer, boolean, array, object.",
    "type: str",
)
REQUIRED_UNKNOWN = Rule(
    "W011",
    W,
    "required names an unknown parameter",
    "tool '{name}' lists '{parameter}' as required, but it has no such property",
    "Add the property or remove it from `required`.",
    "required: [cmd] with properties: {command: ...}",
)
PATTERNS_INVALID = Rule(
    "W012",
    E,
    "patterns unreadable",
    "{where} is {found}; wolffi.sh expects a list of {{pattern, level, reason}} entries",
    "Write `- pattern: 'rm\\s+-rf'` with `level:` and `reason:`.",
    "danger_patterns: rm -rf",
)
PATTERN_MISSING = Rule(
    "W013",
    E,
    "pattern missing",
    "{where} has no 'pattern'; wolffish-app compiles it as an empty regex that matches every tool call",
    "Add `pattern:` with the regex to match.",
    "- reason: Force push (no pattern)",
)
PATTERN_PLAIN_STRING = Rule(
    "W014",
    W,
    "pattern written as plain text",
    "{where} is a plain string; wolffish-app's loader reads `pattern` from a mapping, so it compiles an empty "
    "regex that matches every tool call",
    "Write `- pattern: '{pattern}'` with `reason:` (and `level:` for danger patterns).",
    'danger_patterns: ["rm -rf"]',
)
REGEX_INVALID = Rule(
    "W015",
    E,
    "invalid regex",
    "{where}: the regex is invalid ({error} at position {position}); wolffi.sh drops it silently, so the calls it "
    "should gate run unchecked",
    "Fix the regex; test it with `new RegExp(pattern, 'i')`. In single-quoted YAML a backslash needs no escaping.",
    "pattern: 'rm\\s+(-rf'",
)
REGEX_PYTHON_ONLY = Rule(
    "W016",
    E,
    "regex syntax JavaScript rejects",
    "{where}: {construct} is Python syntax that JavaScript's RegExp rejects; wolffi.sh drops the pattern silently",
    "Write it the JavaScript way: {fix}.",
    "pattern: '(?i)sudo'",
)
REGEX_UNVERIFIED = Rule(
    "W017",
    W,
    "regex not checked",
    "{where}: the regex is not valid in Python's re ({error} at position {position}); it may be valid JavaScript",
    "Check it with `new RegExp(pattern, 'i')` in Node.js; wolffi.sh drops patterns JavaScript rejects.",
    "pattern: '\\cC'",
)
LEVEL_INVALID = Rule(
    "W018",
    W,
    "unknown danger level",
    "{where} has level {level}; wolffi.sh levels are warn, confirm, destructive, block",
    "Use `level: block` to refuse the call, `destructive` or `confirm` to ask first, `warn` to note it.",
    "level: high",
)
LEVEL_MISSING = Rule(
    "W019",
    W,
    "danger level missing",
    "{where} has no level; wolffi.sh cannot tell whether to block the call or ask first",
    "Add `level: block` (refuse), `destructive` or `confirm` (ask first) or `warn`.",
    "- pattern: 'sudo' (no level)",
)
REASON_MISSING = Rule(
    "W020",
    I,
    "reason missing",
    "{where} has no reason; the approval dialog and the refusal message show it",
    "Add `reason:` in a few words, e.g. `reason: Recursive force delete`.",
    "- pattern: 'mkfs'",
)
REQUIRES_INVALID = Rule(
    "W021",
    E,
    "requires unreadable",
    "{where} is {found}; wolffi.sh expects a list of capability names",
    "Write `requires: [shell]`.",
    "requires: {shell: true}",
)
REQUIRED_MISSING = Rule(
    "W022",
    W,
    "required capability missing",
    "requires '{target}', which is not published in this registry; wolffi.sh refuses to use the capability without it",
    "Publish the '{target}' capability too, or remove it from requires.",
    "requires: [shell] without a shell capability",
)

RULES = (
    TRIGGERS_MISSING,
    TRIGGERS_INVALID,
    ALWAYS_ON_WITH_TOOLS,
    TOOLS_INVALID,
    TOOL_NAME_INVALID,
    TOOL_DUPLICATE,
    TOOL_NO_DESCRIPTION,
    PARAMETERS_JSON_SCHEMA,
    PARAMETER_INVALID,
    PARAMETER_TYPE_UNKNOWN,
    REQUIRED_UNKNOWN,
    PATTERNS_INVALID,
    PATTERN_MISSING,
    PATTERN_PLAIN_STRING,
    REGEX_INVALID,
    REGEX_PYTHON_ONLY,
    REGEX_UNVERIFIED,
    LEVEL_INVALID,
    LEVEL_MISSING,
    REASON_MISSING,
    REQUIRES_INVALID,
    REQUIRED_MISSING,
)

LEVELS = ("safe", "warn", "confirm", "destructive", "block")
JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")

# Python-only syntax that JavaScript's RegExp rejects: (construct, how to write it in JavaScript).
_UNESCAPED = r"(?<!\\)(?:\\\\)*"  # an even number of backslashes (none included) before the construct
_PYTHON_ONLY = (
    (re.compile(_UNESCAPED + r"\(\?P<"), "the named group `(?P<name>`", "`(?<name>...)`"),
    (re.compile(_UNESCAPED + r"\(\?P="), "the back-reference `(?P=name)`", "`\\k<name>`"),
    (re.compile(_UNESCAPED + r"\(\?#"), "the comment group `(?#...)`", "remove the comment"),
    (
        re.compile(_UNESCAPED + r"\(\?[aiLmsux]+\)"),
        "the inline flag group `(?i)`",
        "drop it (wolffi.sh already matches case-insensitively) or spell out the alternatives",
    ),
    (re.compile(_UNESCAPED + r"\(\?>"), "the atomic group `(?>...)`", "`(?:...)`"),
    (re.compile(_UNESCAPED + r"[^\\][*+?}]\+"), "a possessive quantifier such as `a++`", "a plain quantifier `a+`"),
    (re.compile(_UNESCAPED + r"\\[AZ]"), "the anchor `\\A` / `\\Z` (a plain letter in JavaScript)", "`^` / `$`"),
)
# re.error messages that JavaScript's RegExp (without the u flag) shares for the same text.
_SHARED_ERRORS = (
    "missing ), unterminated subpattern",
    "unbalanced parenthesis",
    "nothing to repeat",
    "multiple repeat",
    "unterminated character set",
)


class WolffishDialect:
    key = "wolffish"
    title = "wolffi.sh"
    fields = frozenset({"version", "triggers", "tools", "danger_patterns", "confirm_patterns", "requires"})
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        if "danger_patterns" in frontmatter or "confirm_patterns" in frontmatter:
            return True
        tools = frontmatter.get("tools")
        if isinstance(tools, list) and any(isinstance(t, dict) for t in tools):
            return True
        if isinstance(frontmatter.get("requires"), list):
            return True
        # `triggers` alone is also a ClawHub field; with an empty `tools: []` it is a pure wolffi.sh skill.
        return "triggers" in frontmatter and tools == []

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        reader = _Reader(skill, context)
        version = frontmatter.get("version")
        if skill.version is None and isinstance(version, str) and version.strip():
            skill.version = version.strip()
        reader.triggers(frontmatter.get("triggers"), "triggers" in frontmatter)
        if "tools" in frontmatter and frontmatter["tools"] is not None:
            reader.tools(frontmatter["tools"])
        for key in ("danger_patterns", "confirm_patterns"):
            if key in frontmatter and frontmatter[key] is not None:
                reader.patterns(key, frontmatter[key])
        if "requires" in frontmatter and frontmatter["requires"] is not None:
            reader.requires(frontmatter["requires"])
        if "*" in skill.triggers and skill.tools:
            skill.findings.append(ALWAYS_ON_WITH_TOOLS.at(context.path, reader.key_line("triggers"), 1))

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        path = skill.location.skill_md_path
        return [
            REQUIRED_MISSING.at(path, ref.line, ref.column, target=ref.target)
            for ref in skill.references
            if ref.dialect == self.key and ref.target not in registry.names
        ]


class _Reader:
    def __init__(self, skill: Skill, context: ParseContext):
        self.skill = skill
        self.path = context.path
        self.out = skill.findings
        self.lines = skill.document.text.split("\n")
        self.end = max(0, skill.document.body_line - 1)

    def key_line(self, key: str) -> int | None:
        return self.skill.document.key_lines.get(key)

    def locate(self, key: str, needle: str, after: int | None = None) -> tuple[int | None, int | None]:
        return _locate(self.lines, after if after is not None else self.key_line(key), self.end, needle)

    # -- triggers ---------------------------------------------------------------------------

    def triggers(self, value: Any, present: bool) -> None:
        line = self.key_line("triggers")
        if value is None or value == []:
            self.out.append(TRIGGERS_MISSING.at(self.path, line or 1, 1))
            return
        if isinstance(value, str):
            # The loader loops over the keywords; over a string that is one character at a time.
            found = "text, not a list (wolffi.sh would match each of its characters as a keyword)"
            self.out.append(TRIGGERS_INVALID.at(self.path, line, 1, where="triggers", found=found))
            value = [value]
        if not isinstance(value, list):
            self.out.append(TRIGGERS_INVALID.at(self.path, line, 1, where="triggers", found=describe_type(value)))
            return
        for number, item in enumerate(value, start=1):
            if isinstance(item, str):
                if item.strip() and item not in self.skill.triggers:
                    self.skill.triggers.append(item)
            else:
                self.out.append(
                    TRIGGERS_INVALID.at(self.path, line, 1, where=f"triggers entry {number}", found=describe_type(item))
                )

    # -- tools ------------------------------------------------------------------------------

    def tools(self, value: Any) -> None:
        line = self.key_line("tools")
        if not isinstance(value, list):
            self.out.append(
                TOOLS_INVALID.at(self.path, line, 1, where="tools", found=describe_type(value), expected="a list")
            )
            return
        seen: set[str] = set()
        cursor = line
        for number, entry in enumerate(value, start=1):
            if not isinstance(entry, dict):
                self.out.append(
                    TOOLS_INVALID.at(
                        self.path,
                        line,
                        1,
                        where=f"tools entry {number}",
                        found=describe_type(entry),
                        expected="a mapping with name, description and parameters",
                    )
                )
                continue
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                self.out.append(
                    TOOLS_INVALID.at(
                        self.path,
                        line,
                        1,
                        where=f"tools entry {number}",
                        found="without a name",
                        expected="a `name:`",
                    )
                )
                continue
            name = name.strip()
            t_line, t_column = _locate(self.lines, cursor, self.end, name, key="name:")
            cursor = t_line or cursor
            tool = Tool(name=name, line=t_line)
            if not TOOL_NAME.fullmatch(name):
                suggestion = re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_")[:64] or "tool"
                self.out.append(TOOL_NAME_INVALID.at(self.path, t_line, t_column, name=name, suggestion=suggestion))
            if name in seen:
                self.out.append(TOOL_DUPLICATE.at(self.path, t_line, t_column, name=name))
            seen.add(name)
            description = entry.get("description")
            if isinstance(description, str) and description.strip():
                tool.description = description.strip()
            else:
                self.out.append(TOOL_NO_DESCRIPTION.at(self.path, t_line, t_column, name=name))
            if entry.get("parameters") is not None:
                tool.parameters = self.parameters(entry["parameters"], name, t_line)
            self.skill.tools.append(tool)

    def parameters(self, value: Any, tool: str, line: int | None) -> list[Parameter]:
        if not isinstance(value, dict):
            self.out.append(
                TOOLS_INVALID.at(
                    self.path,
                    line,
                    None,
                    where=f"parameters of tool '{tool}'",
                    found=describe_type(value),
                    expected="a mapping of parameter name to {type, required, description}",
                )
            )
            return []
        properties = value.get("properties")
        if value.get("type") == "object" and isinstance(properties, dict):
            self.out.append(PARAMETERS_JSON_SCHEMA.at(self.path, line, None, name=tool))
            required = value.get("required")
            required_names: list[str] = []
            if isinstance(required, list):
                required_names = [r for r in required if isinstance(r, str)]
            elif required is not None:
                self.out.append(
                    PARAMETER_INVALID.at(
                        self.path,
                        line,
                        None,
                        parameter="required",
                        name=tool,
                        problem=f"is {describe_type(required)}, not a list of property names",
                    )
                )
            for name in required_names:
                if name not in properties:
                    self.out.append(REQUIRED_UNKNOWN.at(self.path, line, None, name=tool, parameter=name))
            return [
                parameter
                for key, spec in properties.items()
                if (parameter := self.parameter(str(key), spec, tool, line, key in required_names)) is not None
            ]
        parameters = []
        for key, spec in value.items():
            required = None
            if isinstance(spec, dict) and spec.get("required") is not None:
                required = as_bool(spec["required"])
                if required is None:
                    self.out.append(
                        PARAMETER_INVALID.at(
                            self.path,
                            line,
                            None,
                            parameter=key,
                            name=tool,
                            problem=f"has required '{spec['required']}', not true or false",
                        )
                    )
            # wolffish-app: a parameter is required unless it says `required: false`.
            parameter = self.parameter(str(key), spec, tool, line, required is not False)
            if parameter is not None:
                parameters.append(parameter)
        return parameters

    def parameter(self, name: str, spec: Any, tool: str, line: int | None, required: bool) -> Parameter | None:
        if not isinstance(spec, dict):
            self.out.append(
                PARAMETER_INVALID.at(
                    self.path,
                    line,
                    None,
                    parameter=name,
                    name=tool,
                    problem=f"is {describe_type(spec)}, not a mapping with type and description",
                )
            )
            return None
        kind = spec.get("type", "string")
        if isinstance(kind, list) and kind and all(isinstance(k, str) for k in kind):
            kind_text = kind[0]
            unknown = [k for k in kind if k not in JSON_TYPES]
        elif isinstance(kind, str):
            kind_text = kind
            unknown = [kind] if kind not in JSON_TYPES else []
        else:
            kind_text, unknown = "string", [describe_type(kind)]
        for item in unknown:
            self.out.append(PARAMETER_TYPE_UNKNOWN.at(self.path, line, None, parameter=name, name=tool, type=item))
        description = spec.get("description")
        return Parameter(
            name=name,
            type=kind_text,
            required=required,
            description=description.strip() if isinstance(description, str) else "",
            default=spec["default"] if isinstance(spec.get("default"), str) else None,
        )

    # -- patterns ---------------------------------------------------------------------------

    def patterns(self, key: str, value: Any) -> None:
        line = self.key_line(key)
        target = self.skill.danger_patterns if key == "danger_patterns" else self.skill.confirm_patterns
        if not isinstance(value, list):
            self.out.append(PATTERNS_INVALID.at(self.path, line, 1, where=key, found=describe_type(value)))
            return
        cursor = line
        for number, entry in enumerate(value, start=1):
            where = f"{key} entry {number}"
            if isinstance(entry, str):
                p_line, p_column = self.locate(key, entry, cursor)
                cursor = p_line or cursor
                self.out.append(PATTERN_PLAIN_STRING.at(self.path, p_line, p_column, where=where, pattern=entry))
                target.append(Pattern(entry))
                self.regex(entry, where, p_line, p_column)
                continue
            if not isinstance(entry, dict):
                self.out.append(PATTERNS_INVALID.at(self.path, cursor, None, where=where, found=describe_type(entry)))
                continue
            pattern = entry.get("pattern")
            if not isinstance(pattern, str) or pattern == "":
                self.out.append(PATTERN_MISSING.at(self.path, cursor, None, where=where))
                continue
            p_line, p_column = _locate(self.lines, cursor, self.end, pattern, key="pattern:")
            cursor = p_line or cursor
            level = entry.get("level")
            reason = entry.get("reason")
            item = Pattern(
                pattern,
                level.strip() if isinstance(level, str) else None,
                reason.strip() if isinstance(reason, str) else None,
            )
            target.append(item)
            self.regex(pattern, where, p_line, p_column)
            if key == "danger_patterns":
                if level is None:
                    self.out.append(LEVEL_MISSING.at(self.path, p_line, None, where=where))
                elif not (isinstance(level, str) and level.strip() in LEVELS):
                    shown = f"'{level}'" if isinstance(level, str) else describe_type(level)
                    self.out.append(LEVEL_INVALID.at(self.path, p_line, None, where=where, level=shown))
            if not item.reason:
                self.out.append(REASON_MISSING.at(self.path, p_line, None, where=where))

    def regex(self, pattern: str, where: str, line: int | None, column: int | None) -> None:
        def at(position: int) -> int | None:
            return column + position if column is not None else None

        for construct, name, fix in _PYTHON_ONLY:
            match = construct.search(pattern)
            if match and not _in_class(pattern, match.start()):
                self.out.append(
                    REGEX_PYTHON_ONLY.at(self.path, line, at(match.start()), where=where, construct=name, fix=fix)
                )
                return
        error = regex_error(pattern)
        if error is None:
            return
        message, position, shared = error
        if shared:
            self.out.append(
                REGEX_INVALID.at(self.path, line, at(position), where=where, error=message, position=position)
            )
        else:
            self.out.append(
                REGEX_UNVERIFIED.at(self.path, line, at(position), where=where, error=message, position=position)
            )

    # -- requires ---------------------------------------------------------------------------

    def requires(self, value: Any) -> None:
        line = self.key_line("requires")
        if isinstance(value, dict):
            return  # Bouno's `requires: {tools: [...]}`, read by that dialect
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.out.append(REQUIRES_INVALID.at(self.path, line, 1, where="requires", found=describe_type(value)))
            return
        names: list[str] = []
        for number, item in enumerate(value, start=1):
            if isinstance(item, str) and item.strip():
                if item.strip() not in names:
                    names.append(item.strip())
            else:
                self.out.append(
                    REQUIRES_INVALID.at(self.path, line, 1, where=f"requires entry {number}", found=describe_type(item))
                )
        self.skill.requires["skills"] = names
        for target in names:
            found_line, column = self.locate("requires", target)
            self.skill.references.append(SkillReference(WolffishDialect.key, target, "requires", found_line, column))


def regex_error(pattern: str) -> tuple[str, int, bool] | None:
    """None when the pattern compiles (after JavaScript-only syntax is translated), else
    (message, position in the original pattern, shared) where shared means JavaScript rejects it too."""
    translated, back = _translate(pattern)
    try:
        re.compile(translated)
    except re.error as err:
        message = err.msg if hasattr(err, "msg") else str(err)
        position = back(err.pos if isinstance(err.pos, int) else 0)
        if message.startswith("look-behind requires fixed-width pattern"):
            return None  # JavaScript allows variable-width look-behind
        shared = any(message.startswith(text) for text in _SHARED_ERRORS)
        if message.startswith("unterminated character set") and ("[]" in pattern or "[^]" in pattern):
            shared = False  # `[]` and `[^]` are valid (empty / any) classes in JavaScript
        if message.startswith("bad character range"):
            shared = "\\" not in message
        return message, position, shared
    except (RecursionError, OverflowError, ValueError) as err:
        return str(err) or type(err).__name__, 0, False
    return None


def _translate(pattern: str):
    """JavaScript named groups and back-references in Python's spelling, with a map back to
    positions in the original pattern."""
    pieces: list[str] = []
    anchors: list[tuple[int, int]] = []  # (start in translated, start in original) of each piece
    out_len = 0
    last = 0
    for match in re.finditer(r"\(\?<(?![=!])|\\k<(\w+)>|\\.", pattern):
        if match.group(0) == "(?<":
            replacement = "(?P<"
        elif match.group(1) is not None:
            replacement = f"(?P={match.group(1)})"
        else:
            continue  # another escape: left as it is (skipping it keeps `\\(?<` literal)
        literal = pattern[last : match.start()]
        anchors.append((out_len, last))
        pieces.append(literal)
        out_len += len(literal)
        anchors.append((out_len, match.start()))
        pieces.append(replacement)
        out_len += len(replacement)
        last = match.end()
    anchors.append((out_len, last))
    pieces.append(pattern[last:])
    translated = "".join(pieces)

    def back(position: int) -> int:
        for out_start, in_start in reversed(anchors):
            if out_start <= position:
                return min(in_start + (position - out_start), len(pattern))
        return min(position, len(pattern))

    return translated, back


def _in_class(pattern: str, index: int) -> bool:
    """Whether index falls inside a [...] character class."""
    depth = False
    escaped = False
    for position, char in enumerate(pattern[:index]):
        del position
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[" and not depth:
            depth = True
        elif char == "]" and depth:
            depth = False
    return depth


def _locate(lines: list[str], start: int | None, end: int, needle: str, key: str = "") -> tuple[int | None, int | None]:
    """(line, column) of needle (after `key` on the same line, when given) in the frontmatter from
    line `start`; (start, None) when it is not found as written (e.g. escaped in double quotes)."""
    if start is None:
        return None, None
    variants = [needle]
    if "'" in needle:
        variants.append(needle.replace("'", "''"))  # single-quoted YAML doubles the quote
    for index in range(max(0, start - 1), min(end, len(lines))):
        text = lines[index]
        at = text.find(key) if key else 0
        if at < 0:
            continue
        for variant in variants:
            column = text.find(variant, at + len(key))
            if column >= 0:
                return index + 1, column + 1
    return start, None

"""Claude Code and Copilot extension fields (formats.md §5).

They are known extensions, reported as information rather than unknown fields, with a note
that strict validators (skills-ref, claude.ai uploads) reject anything beyond the six standard
fields. Values are checked against what Claude Code accepts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.values import as_bool, as_str_list, describe_type
from registry.model import Finding, Parameter, Skill
from registry.rules.base import I, Rule, W

EXTENSION_FIELDS = Rule(
    "C001",
    I,
    "client extension fields",
    "uses Claude Code extension field(s) {fields}; skills-ref and claude.ai uploads accept only the six standard ones",
    "Nothing to fix for Claude Code, Copilot or the `skills` CLI; drop them only to upload to claude.ai.",
    "argument-hint: [issue-number]",
)
NOT_BOOLEAN = Rule(
    "C002",
    W,
    "not a boolean",
    "'{field}' is '{value}', not a boolean",
    "Write `{field}: true` or `{field}: false`.",
    "user-invocable: sometimes",
)
BAD_CHOICE = Rule(
    "C003",
    W,
    "unknown value",
    "'{field}' is '{value}'; Claude Code accepts {choices}",
    "Use one of {choices}.",
    "context: isolated",
)
ARGUMENT_HINT_NOT_TEXT = Rule(
    "C004",
    W,
    "argument-hint not text",
    "argument-hint was read as {found}, not text; YAML turned the brackets into a list",
    'Quote it: `argument-hint: "{suggestion}"`.',
    "argument-hint: [issue-number]",
)
AGENT_WITHOUT_FORK = Rule(
    "C005",
    W,
    "agent without context: fork",
    "'agent' has no effect unless `context: fork` is set",
    "Add `context: fork` or remove `agent`.",
    "agent: Explore (without context: fork)",
)
FIELD_NOT_TEXT = Rule(
    "C006",
    W,
    "field not text",
    "'{field}' is {found}; expected text",
    "Write `{field}:` as a single line of text.",
    "when_to_use: [a, b]",
)

RULES = (EXTENSION_FIELDS, NOT_BOOLEAN, BAD_CHOICE, ARGUMENT_HINT_NOT_TEXT, AGENT_WITHOUT_FORK, FIELD_NOT_TEXT)

BOOLEAN_FIELDS = ("disable-model-invocation", "user-invocable", "background", "mode")
CHOICES = {
    "context": ("fork",),
    "effort": ("low", "medium", "high", "xhigh", "max"),
    "shell": ("bash", "powershell"),
}
TEXT_FIELDS = ("when_to_use", "agent")
LIST_FIELDS = ("disallowed-tools", "paths")
_BODY_MARKERS = re.compile(r"\$ARGUMENTS|\$\{CLAUDE_[A-Z_]+\}|!`[^`\n]+`")


class ClaudeCodeDialect:
    key = "claude-code"
    title = "Claude Code extensions"
    fields = frozenset(
        {
            "when_to_use",
            "argument-hint",
            "arguments",
            "disable-model-invocation",
            "user-invocable",
            "disallowed-tools",
            "model",
            "effort",
            "context",
            "agent",
            "background",
            "hooks",
            "paths",
            "shell",
            "mode",
        }
    )
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        keys = set(frontmatter) & self.fields
        # `arguments` as a list of mappings is Bouno's, `model` as a mapping is Agent Flow Lite's.
        if isinstance(frontmatter.get("arguments"), list) and any(
            isinstance(a, dict) for a in frontmatter["arguments"]
        ):
            keys.discard("arguments")
        if isinstance(frontmatter.get("model"), dict):
            keys.discard("model")
        return bool(keys) or bool(_BODY_MARKERS.search(body))

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        lines = skill.document.key_lines
        path, out = context.path, skill.findings
        used = sorted(k for k in frontmatter if k in self.fields and self._is_claude_value(k, frontmatter[k]))
        if used:
            out.append(EXTENSION_FIELDS.at(path, lines.get(used[0]), 1, fields=", ".join(used)))
        for key in used:
            value = frontmatter[key]
            line = lines.get(key)
            if key in BOOLEAN_FIELDS:
                flag = as_bool(value)
                if flag is None:
                    out.append(NOT_BOOLEAN.at(path, line, 1, field=key, value=value))
                else:
                    skill.extensions[key] = flag
            elif key in CHOICES:
                if value not in CHOICES[key]:
                    choices = ", ".join(CHOICES[key])
                    out.append(BAD_CHOICE.at(path, line, 1, field=key, value=value, choices=choices))
                skill.extensions[key] = value
            elif key == "argument-hint":
                if isinstance(value, str):
                    skill.extensions[key] = value
                else:
                    items = value if isinstance(value, list) else [value]
                    suggestion = " ".join(f"[{item}]" for item in items if isinstance(item, str))
                    out.append(
                        ARGUMENT_HINT_NOT_TEXT.at(path, line, 1, found=describe_type(value), suggestion=suggestion)
                    )
                    skill.extensions[key] = suggestion
            elif key == "arguments":
                names = as_str_list(value, " ,")
                if names is not None:
                    skill.arguments = [Parameter(name=name) for name in names]
            elif key in TEXT_FIELDS or key == "model":
                if isinstance(value, str):
                    skill.extensions[key] = value
                else:
                    out.append(FIELD_NOT_TEXT.at(path, line, 1, field=key, found=describe_type(value)))
            elif key in LIST_FIELDS:
                items = as_str_list(value, " ,")
                if items is None:
                    out.append(FIELD_NOT_TEXT.at(path, line, 1, field=key, found=describe_type(value)))
                else:
                    skill.extensions[key] = items
            elif key == "hooks":
                skill.extensions[key] = value
        if "agent" in frontmatter and frontmatter.get("context") != "fork":
            out.append(AGENT_WITHOUT_FORK.at(path, lines.get("agent"), 1))

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        return ()

    @staticmethod
    def _is_claude_value(key: str, value: object) -> bool:
        if key == "arguments":
            return not (isinstance(value, list) and any(isinstance(a, dict) for a in value))
        if key == "model":
            return not isinstance(value, dict)
        return True

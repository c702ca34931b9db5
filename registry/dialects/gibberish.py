"""gibb.eri.sh: tools defined in the Markdown body, run as program + arguments without a shell.

Seed 001 (SKILL_SPEC.md) and the parser it describes (crates/skills/src/parser.rs):

- frontmatter: required `version`; `modes` (Global, Dev, Meeting), `read_only`, `always_ask`,
  `network` booleans, `timeout` seconds (1-300). The Rust side deserialises these strictly
  (serde, YAML 1.2): a wrong type makes the whole skill fail to load.
- body: every line `### name` (letters, digits, underscores) starts a tool section, up to the
  next such line. The description is the text before the first `####` line; the parameters
  are the `| name | type | yes/no | description |` rows after `#### Parameters` (none when the
  word "None" appears anywhere after that heading); the command is the first ```bash or ```sh
  block of the section. No tools, a tool without such a block, an empty command or a
  duplicate tool name make the skill fail to load.

This module reads the body the same way, so what it reports is what gibb.eri.sh will do.

A skill is read as gibb.eri.sh's when it has `modes`, `read_only` or `always_ask`, `timeout` or
`network` next to `version`, or a `### heading` section with a `#### Command` heading outside
code fences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.command_template import CommandTemplate, parse_command
from registry.dialects.values import describe_type
from registry.model import Finding, Parameter, Skill, Tool
from registry.rules.base import E, I, Rule, W

VERSION_MISSING = Rule(
    "G001",
    E,
    "version missing",
    "gibb.eri.sh requires a `version` field; without it the skill fails to load",
    "Add `version: 1.0.0` to the frontmatter.",
    "A gibb.eri.sh skill with name and description only.",
)
VERSION_NOT_TEXT = Rule(
    "G002",
    E,
    "version not text",
    "'version' is {found}; gibb.eri.sh reads it as a string",
    "Write `version: 1.0.0`.",
    "version: [1, 0]",
)
NO_TOOLS = Rule(
    "G003",
    E,
    "no tools",
    "no tool definitions: gibb.eri.sh needs at least one `### tool_name` section and fails to load the skill",
    "Add a tool: a `### tool_name` heading, a description, `#### Parameters` and a `#### Command` "
    "block fenced as ```bash.",
    "A body with prose only.",
)
TOOL_NAME_INVALID = Rule(
    "G004",
    W,
    "tool name invalid",
    "tool name '{name}' must be 1-32 lowercase letters, digits or underscores",
    "Rename it to `### {suggestion}`.",
    "### GitStatus",
)
TOOL_NAME_DUPLICATE = Rule(
    "G005",
    E,
    "duplicate tool name",
    "tool '{name}' is defined more than once (first on line {first}); gibb.eri.sh fails to load the skill",
    "Give each `### tool_name` section a distinct name.",
    "Two `### git_status` sections.",
)
NO_COMMAND_BLOCK = Rule(
    "G006",
    E,
    "tool without a command",
    "tool '{name}' has no ```bash or ```sh code block; gibb.eri.sh fails to load the skill",
    "Under `#### Command`, fence the command as ```bash … ```.",
    "A `### notes` heading read as a tool, or a command fenced as ```shell.",
)
COMMAND_FENCE_LANGUAGE = Rule(
    "G007",
    E,
    "command block not ```bash",
    "the `#### Command` block of tool '{name}' is fenced {fence}; gibb.eri.sh reads only ```bash or ```sh "
    "blocks and fails to load the skill",
    "Change the opening fence to ```bash.",
    "```shell",
)
EMPTY_COMMAND = Rule(
    "G008",
    E,
    "empty command",
    "the command of tool '{name}' is empty; gibb.eri.sh fails to load the skill",
    "Write the program and its arguments inside the ```bash block.",
    "An empty ```bash block.",
)
WRONG_COMMAND_BLOCK = Rule(
    "G009",
    W,
    "command taken from another block",
    "gibb.eri.sh runs the first ```bash/```sh block of tool '{name}', which is on line {line}, before the "
    "`#### Command` heading",
    "Fence the other examples as ```text (or put them after the command).",
    "A ```bash example under `#### Examples` above `#### Command`.",
)
SHELL_OPERATOR = Rule(
    "G010",
    W,
    "shell syntax in command",
    "'{text}' in the command of tool '{name}' is passed to {program} as a literal argument: gibb.eri.sh runs "
    "commands without a shell, so {what} will not work",
    "Move the pipeline into a script under scripts/ and call it: `./scripts/{name}.sh {{{{param}}}}`.",
    "git log | head -n 5",
)
SHELL_EXPANSION = Rule(
    "G011",
    W,
    "shell expansion in command",
    "'{text}' in the command of tool '{name}' reaches {program} unexpanded: gibb.eri.sh runs commands without "
    "a shell, so {what} is not expanded",
    "Pass the value as a parameter, or use a script under scripts/ that expands it.",
    "ls ~/Documents/*.pdf",
)
UNTERMINATED_QUOTE = Rule(
    "G012",
    W,
    "unterminated quote",
    "the {quote} quote opened in the command of tool '{name}' is never closed; the rest of the command becomes "
    "one argument",
    "Close the quote.",
    "echo 'hello",
)
MULTILINE_COMMAND = Rule(
    "G013",
    W,
    "command spans several lines",
    "the command of tool '{name}' spans several lines; gibb.eri.sh runs one program and passes the line break "
    "inside an argument",
    "Keep one command on one line, or move the steps into a script under scripts/.",
    "Two commands in one ```bash block.",
)
PLACEHOLDER_NOT_DECLARED = Rule(
    "G014",
    W,
    "placeholder not declared",
    "{{{{{placeholder}}}}} in the command of tool '{name}' is not in its Parameters table, so the model can "
    "never supply it; gibb.eri.sh {fallback}",
    "Add a row `| {placeholder} | string | no | … |` under `#### Parameters`.",
    "`echo {{message}}` with `#### Parameters` None.",
)
PARAMETER_UNUSED = Rule(
    "G015",
    I,
    "parameter unused",
    "parameter '{parameter}' of tool '{name}' is never used in its command",
    "Use it as `{{{{{parameter}}}}}` in the command or remove the row.",
    "| verbose | boolean | no | … | unused",
)
PARAMETER_TYPE_UNKNOWN = Rule(
    "G016",
    W,
    "unknown parameter type",
    "parameter '{parameter}' of tool '{name}' has type '{type}'; gibb.eri.sh knows string, integer, number, "
    "boolean and array and treats anything else as string",
    "Use one of string, integer, number, boolean, array.",
    "| count | int32 | no | … |",
)
PARAMETER_TYPE_ALIAS = Rule(
    "G017",
    I,
    "parameter type alias",
    "parameter '{parameter}' of tool '{name}' has type '{type}'; gibb.eri.sh accepts it as '{canonical}', "
    "the name the specification uses",
    "Write `{canonical}`.",
    "| count | int | no | … |",
)
PARAMETER_ROW_SKIPPED = Rule(
    "G018",
    W,
    "parameter row not read",
    "this Parameters row of tool '{name}' is skipped by gibb.eri.sh: {reason}",
    "Write rows as `| name | type | yes | description |` (name in letters, digits, underscores; Required "
    "yes or no in lowercase; no text after the last |).",
    "| my-param | string | Yes | … |",
)
PARAMETERS_IGNORED = Rule(
    "G019",
    W,
    "parameter table ignored",
    "gibb.eri.sh ignores the Parameters table of tool '{name}': the word 'None' appears after "
    '`#### Parameters` (line {line}), which it reads as "no parameters"',
    "Rephrase the text so it does not contain 'None' (e.g. 'nothing', 'empty').",
    "| mode | string | no | None for default |",
)
FLAG_ON_NON_BOOLEAN = Rule(
    "G020",
    W,
    "flag placeholder on a non-boolean",
    "{{{{{placeholder}:{flag}}}}} in tool '{name}' emits '{flag}' only when '{placeholder}' is true, but "
    "'{placeholder}' is {type}: its value is never passed",
    "Declare it boolean, or pass the value: `{flag} {{{{{placeholder}}}}}`.",
    "mdfind {{folder:-onlyin}} with folder a string",
)
BOOLEAN_WITHOUT_FLAG = Rule(
    "G021",
    I,
    "boolean passed as a word",
    "boolean parameter '{placeholder}' of tool '{name}' is passed as the word true or false",
    "To emit a flag when it is true, write `{{{{{placeholder}:--{placeholder}}}}}`.",
    "git diff {{staged}}",
)
MIXED_ARGUMENT = Rule(
    "G022",
    W,
    "placeholder inside a larger argument",
    "argument '{argument}' of tool '{name}' mixes text and placeholders; gibb.eri.sh substitutes only the first "
    "placeholder of an argument, passes the text before it as a separate argument and drops the text after it",
    "Make the placeholder a whole argument: `--limit {{{{limit}}}}` instead of `--limit={{{{limit}}}}`.",
    "--limit={{limit}}",
)
BROKEN_PLACEHOLDER = Rule(
    "G023",
    W,
    "malformed placeholder",
    "'{argument}' in the command of tool '{name}' is not a placeholder gibb.eri.sh recognises and is passed as "
    "literal text",
    "Write `{{{{name}}}}`, `{{{{name:default}}}}` or `{{{{name:--flag}}}}`, with no spaces inside the braces.",
    "{{my param}}",
)
HEADING_NOT_TOOL = Rule(
    "G024",
    W,
    "heading not read as a tool",
    "'### {heading}' has a `#### Command` section but gibb.eri.sh reads only `### name` headings made of letters, "
    "digits and underscores as tools; its command is not a tool of its own",
    "Rename it to `### {suggestion}`.",
    "### git-status",
)
BAD_MODES = Rule(
    "G025",
    E,
    "invalid modes",
    "'modes' {problem}; gibb.eri.sh accepts a list of Global, Dev, Meeting and fails to load the skill otherwise",
    "Write `modes: [Global]` (any of Global, Dev, Meeting; case matters).",
    "modes: dev",
)
NOT_BOOLEAN = Rule(
    "G026",
    E,
    "not a boolean",
    "'{field}' is {value}, not true or false; gibb.eri.sh fails to load the skill",
    "Write `{field}: true` or `{field}: false`.",
    "read_only: yes",
)
TIMEOUT_NOT_INTEGER = Rule(
    "G027",
    E,
    "timeout not a whole number",
    "'timeout' is {value}, not a whole number of seconds; gibb.eri.sh fails to load the skill",
    "Write `timeout: 30` (seconds, 1-300).",
    "timeout: 30s",
)
TIMEOUT_RANGE = Rule(
    "G028",
    W,
    "timeout out of range",
    "'timeout' is {value} seconds; the gibb.eri.sh specification allows 1 to 300",
    "Use a value from 1 to 300.",
    "timeout: 600",
)
DESCRIPTION_LONG = Rule(
    "G029",
    I,
    "description over 256 characters",
    "description has {length} characters; the gibb.eri.sh specification truncates it at 256",
    "Shorten the description to 256 characters.",
    "A 400-character description.",
)
PARAMETER_DUPLICATE = Rule(
    "G030",
    W,
    "duplicate parameter",
    "parameter '{parameter}' of tool '{name}' is declared more than once",
    "Keep one row per parameter.",
    "Two `| count |` rows.",
)
LITERAL_WILDCARD = Rule(
    "G031",
    I,
    "wildcard passed literally",
    "'*' in the command of tool '{name}' reaches {program} as a literal '*': gibb.eri.sh does not expand wildcards "
    "(fine for programs that match patterns themselves, such as find -name)",
    "If the shell should expand it, move the command into a script under scripts/.",
    "ls *.pdf",
)

RULES = (
    VERSION_MISSING,
    VERSION_NOT_TEXT,
    NO_TOOLS,
    TOOL_NAME_INVALID,
    TOOL_NAME_DUPLICATE,
    NO_COMMAND_BLOCK,
    COMMAND_FENCE_LANGUAGE,
    EMPTY_COMMAND,
    WRONG_COMMAND_BLOCK,
    SHELL_OPERATOR,
    SHELL_EXPANSION,
    UNTERMINATED_QUOTE,
    MULTILINE_COMMAND,
    PLACEHOLDER_NOT_DECLARED,
    PARAMETER_UNUSED,
    PARAMETER_TYPE_UNKNOWN,
    PARAMETER_TYPE_ALIAS,
    PARAMETER_ROW_SKIPPED,
    PARAMETERS_IGNORED,
    FLAG_ON_NON_BOOLEAN,
    BOOLEAN_WITHOUT_FLAG,
    MIXED_ARGUMENT,
    BROKEN_PLACEHOLDER,
    HEADING_NOT_TOOL,
    BAD_MODES,
    NOT_BOOLEAN,
    TIMEOUT_NOT_INTEGER,
    TIMEOUT_RANGE,
    DESCRIPTION_LONG,
    PARAMETER_DUPLICATE,
    LITERAL_WILDCARD,
)

FRONTMATTER_FIELDS = ("modes", "read_only", "always_ask", "timeout", "network")
DISTINCT_FIELDS = ("modes", "read_only", "always_ask")
BOOLEAN_FIELDS = ("read_only", "always_ask", "network")
MODES = ("Global", "Dev", "Meeting")
TYPES = ("string", "integer", "number", "boolean", "array")
TYPE_ALIASES = {"int": "integer", "float": "number", "bool": "boolean"}
TOOL_NAME = re.compile(r"[a-z0-9_]{1,32}")

# parser.rs: `(?m)^### +(\w+)\s*$`, the ```bash block and the table row, with Rust's Unicode \w.
_TOOL_HEADING = re.compile(r"^### +(\w+)[ \t]*$")
_ANY_H3 = re.compile(r"^###[ \t]+(.+?)[ \t#]*$")
_COMMAND_HEADING = re.compile(r"^####[ \t]+Command\b")
_COMMAND_BLOCK = re.compile(r"```(?:bash|sh)\s*\n([\s\S]*?)\n```")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)")
_GIBB_ROW = re.compile(r"^\|\s*(\w+)\s*\|\s*(\w+)\s*\|\s*(yes|no)\s*\|\s*(.+?)\s*\|$")
_SEPARATOR_ROW = re.compile(r"^\|[\s:|-]*$")

OPERATOR_WORDS = {
    "pipe": "the pipe",
    "and": "the `&&` chain",
    "or": "the `||` chain",
    "sequence": "the `;` sequence",
    "background": "running in the background",
    "redirect": "the redirection",
    "substitution": "the command substitution",
    "comment": "the comment",
}
EXPANSION_WORDS = {"variable": "the variable", "tilde": "`~`"}


@dataclass
class _Section:
    name: str
    heading_line: int  # 0-based line in the body
    lines: list[str]  # the section's lines after the heading
    first_line: int  # 0-based body line of lines[0]
    rows: list[tuple[int, str]] = field(default_factory=list)


class GibberishDialect:
    key = "gibberish"
    title = "gibb.eri.sh"
    fields = frozenset({"version", "author", *FRONTMATTER_FIELDS})
    rules = RULES

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        if any(key in frontmatter for key in DISTINCT_FIELDS):
            return True
        # `timeout` and `network` are common words: with a `version` (required here) they count.
        if "version" in frontmatter and any(key in frontmatter for key in ("timeout", "network")):
            return True
        return has_tool_blocks(body)

    def apply(self, skill: Skill, context: ParseContext) -> None:
        frontmatter = skill.document.frontmatter or {}
        lines = skill.document.key_lines
        path, out = context.path, skill.findings

        if "version" not in frontmatter or frontmatter["version"] is None:
            out.append(VERSION_MISSING.at(path, lines.get("version", 1), 1 if "version" in lines else None))
        elif not isinstance(frontmatter["version"], str):
            out.append(VERSION_NOT_TEXT.at(path, lines.get("version"), 1, found=describe_type(frontmatter["version"])))
        elif skill.version is None:
            skill.version = frontmatter["version"].strip()
        author = frontmatter.get("author")
        if skill.author is None and isinstance(author, str) and author.strip():
            skill.author = author.strip()
        description = frontmatter.get("description")
        if isinstance(description, str) and len(description.strip()) > 256:
            out.append(DESCRIPTION_LONG.at(path, lines.get("description"), 1, length=len(description.strip())))

        self._settings(frontmatter, skill, path, lines)
        self._tools(skill, path)

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        return ()

    # -- frontmatter -----------------------------------------------------------------------

    @staticmethod
    def _settings(frontmatter: Mapping, skill: Skill, path: str, lines: Mapping[str, int]) -> None:
        out = skill.findings
        if "modes" in frontmatter:
            value = frontmatter["modes"]
            line = lines.get("modes")
            if isinstance(value, list) and value and all(isinstance(m, str) and m in MODES for m in value):
                skill.settings["modes"] = list(value)
            else:
                if isinstance(value, list):
                    bad = [m for m in value if not (isinstance(m, str) and m in MODES)]
                    if not value:
                        problem = "is an empty list"
                    else:
                        shown = ", ".join(f"'{m}'" if isinstance(m, str) else describe_type(m) for m in bad[:3])
                        problem = f"contains {shown}"
                elif isinstance(value, str):
                    problem = f"is the text '{value}', not a list"
                else:
                    problem = f"is {describe_type(value)}"
                out.append(BAD_MODES.at(path, line, 1, problem=problem))
        for key in BOOLEAN_FIELDS:
            if key not in frontmatter:
                continue
            value = frontmatter[key]
            text = value.strip().lower() if isinstance(value, str) else None
            if text in ("true", "false"):
                skill.settings[key] = text == "true"
            else:
                shown = f"'{value}'" if isinstance(value, str) else describe_type(value)
                out.append(NOT_BOOLEAN.at(path, lines.get(key), 1, field=key, value=shown))
        if "timeout" in frontmatter:
            value = frontmatter["timeout"]
            line = lines.get("timeout")
            text = value.strip() if isinstance(value, str) else None
            if text is not None and re.fullmatch(r"\+?[0-9]+", text) and int(text) < 2**32:
                seconds = int(text)
                skill.settings["timeout"] = seconds
                if not 1 <= seconds <= 300:
                    out.append(TIMEOUT_RANGE.at(path, line, 1, value=seconds))
            else:
                shown = f"'{value}'" if isinstance(value, str) else describe_type(value)
                out.append(TIMEOUT_NOT_INTEGER.at(path, line, 1, value=shown))

    # -- body --------------------------------------------------------------------------------

    def _tools(self, skill: Skill, path: str) -> None:
        document = skill.document
        body_lines = document.body.split("\n")
        base = document.body_line
        out = skill.findings
        sections = split_sections(body_lines)
        self._headings_not_tools(body_lines, base, path, out)
        if not sections:
            out.append(NO_TOOLS.at(path, base, None))
            return
        first_seen: dict[str, int] = {}
        for section in sections:
            line = base + section.heading_line
            if section.name in first_seen:
                out.append(TOOL_NAME_DUPLICATE.at(path, line, 5, name=section.name, first=first_seen[section.name]))
            else:
                first_seen[section.name] = line
            if not TOOL_NAME.fullmatch(section.name):
                out.append(
                    TOOL_NAME_INVALID.at(path, line, 5, name=section.name, suggestion=_suggest_tool(section.name))
                )
            skill.tools.append(self._tool(section, base, path, out))

    @staticmethod
    def _headings_not_tools(body_lines: list[str], base: int, path: str, out: list[Finding]) -> None:
        current: tuple[int, str] | None = None
        reported: set[int] = set()
        for index, line in enumerate(body_lines):
            if _TOOL_HEADING.match(line):
                current = None
                continue
            match = _ANY_H3.match(line)
            if match:
                current = (index, match.group(1))
                continue
            if current is not None and _COMMAND_HEADING.match(line) and current[0] not in reported:
                reported.add(current[0])
                heading = current[1]
                out.append(
                    HEADING_NOT_TOOL.at(path, base + current[0], 5, heading=heading, suggestion=_suggest_tool(heading))
                )

    def _tool(self, section: _Section, base: int, path: str, out: list[Finding]) -> Tool:
        name = section.name
        tool = Tool(name=name, description=_description(section.lines), line=base + section.heading_line)
        parameters = self._parameters(section, base, path, out)
        tool.parameters = parameters
        content = "\n".join(section.lines)
        match = _COMMAND_BLOCK.search(content)
        command_heading = next((i for i, text in enumerate(section.lines) if _COMMAND_HEADING.match(text)), None)
        if match is None:
            language = _fence_after(section.lines, command_heading)
            if command_heading is not None and language is not None and language not in ("bash", "sh"):
                line = base + section.first_line + command_heading
                fence = f"as ```{language}" if language else "without a language"
                out.append(COMMAND_FENCE_LANGUAGE.at(path, line, None, name=name, fence=fence))
            else:
                out.append(NO_COMMAND_BLOCK.at(path, tool.line, 5, name=name))
            return tool
        block_line = section.first_line + content.count("\n", 0, match.start(1))
        if command_heading is not None and block_line < section.first_line + command_heading:
            out.append(WRONG_COMMAND_BLOCK.at(path, base + block_line - 1, None, name=name, line=base + block_line - 1))
        raw = match.group(1)
        stripped = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        block_line += raw.count("\n", 0, lead)
        lead_column = lead - (raw.rfind("\n", 0, lead) + 1)
        tool.command_text = stripped
        if not stripped:
            out.append(EMPTY_COMMAND.at(path, base + block_line, None, name=name))
            return tool
        template = parse_command(stripped)
        tool.command = template.argv
        self._check_command(template, tool, parameters, path, base + block_line, lead_column, out)
        return tool

    @staticmethod
    def _parameters(section: _Section, base: int, path: str, out: list[Finding]) -> list[Parameter]:
        lines = section.lines
        start = next((i for i, text in enumerate(lines) if text.startswith("#### Parameters")), None)
        if start is None:
            content = "\n".join(lines)
            if "#### Parameters" not in content:
                return []
            start = content.count("\n", 0, content.index("#### Parameters"))
        rest = lines[start:]
        none_at = next((i for i, text in enumerate(rest) if "None" in text), None)
        rows: list[tuple[int, str]] = []
        for offset, text in enumerate(rest[1:], start=1):
            if text.startswith("####"):
                break
            if text.lstrip().startswith("|"):
                rows.append((offset, text))
        data_rows = [(o, t) for o, t in rows if not _SEPARATOR_ROW.match(t.strip()) and not _is_header(t)]
        if none_at is not None:
            if data_rows:
                line = base + section.first_line + start + none_at
                out.append(
                    PARAMETERS_IGNORED.at(path, line, rest[none_at].find("None") + 1, name=section.name, line=line)
                )
            return []
        parameters: list[Parameter] = []
        seen: set[str] = set()
        for offset, text in data_rows:
            line = base + section.first_line + start + offset
            match = _GIBB_ROW.match(text)
            reason = _row_problem(text, match)
            if reason:
                out.append(PARAMETER_ROW_SKIPPED.at(path, line, 1, name=section.name, reason=reason))
                continue
            assert match is not None
            pname, ptype, required, description = match.groups()
            lowered = ptype.lower()
            canonical = TYPE_ALIASES.get(lowered, lowered)
            if canonical not in TYPES:
                out.append(PARAMETER_TYPE_UNKNOWN.at(path, line, None, parameter=pname, name=section.name, type=ptype))
                canonical = "string"
            elif lowered in TYPE_ALIASES:
                out.append(
                    PARAMETER_TYPE_ALIAS.at(
                        path, line, None, parameter=pname, name=section.name, type=ptype, canonical=canonical
                    )
                )
            if pname in seen:
                out.append(PARAMETER_DUPLICATE.at(path, line, None, parameter=pname, name=section.name))
                continue
            seen.add(pname)
            parameters.append(Parameter(pname, canonical, required == "yes", description))
        return parameters

    @staticmethod
    def _check_command(
        template: CommandTemplate,
        tool: Tool,
        parameters: list[Parameter],
        path: str,
        first_line: int,
        lead_column: int,
        out: list[Finding],
    ) -> None:
        name = tool.name
        program = f"'{template.program}'" if template.program else "the program"

        def where(offset: int) -> tuple[int, int]:
            line, column = template.position(offset)
            return first_line + line, column + 1 + (lead_column if line == 0 else 0)

        for syntax in template.shell:
            line, column = where(syntax.offset)
            if syntax.kind in OPERATOR_WORDS:
                out.append(
                    SHELL_OPERATOR.at(
                        path,
                        line,
                        column,
                        text=syntax.text,
                        name=name,
                        program=program,
                        what=OPERATOR_WORDS[syntax.kind],
                    )
                )
            elif syntax.kind == "glob":
                out.append(LITERAL_WILDCARD.at(path, line, column, name=name, program=program))
            else:
                out.append(
                    SHELL_EXPANSION.at(
                        path,
                        line,
                        column,
                        text=syntax.text,
                        name=name,
                        program=program,
                        what=EXPANSION_WORDS.get(syntax.kind, "it"),
                    )
                )
        if template.unterminated_quote is not None:
            quote, offset = template.unterminated_quote
            line, column = where(offset)
            out.append(
                UNTERMINATED_QUOTE.at(path, line, column, quote="double" if quote == '"' else "single", name=name)
            )
        if template.multiline:
            out.append(MULTILINE_COMMAND.at(path, first_line, None, name=name))

        declared = {p.name: p for p in parameters}
        used: set[str] = set()
        reported: set[str] = set()
        for word in template.words:
            line, column = where(word.offset)
            if word.mixed:
                out.append(MIXED_ARGUMENT.at(path, line, column, argument=word.text, name=name))
            if word.broken_placeholder:
                out.append(BROKEN_PLACEHOLDER.at(path, line, column, argument=word.text, name=name))
            for placeholder in word.placeholders:
                used.add(placeholder.name)
                p_line, p_column = where(placeholder.offset)
                parameter = declared.get(placeholder.name)
                if parameter is None:
                    if placeholder.name in reported:
                        continue
                    reported.add(placeholder.name)
                    if placeholder.default is not None:
                        fallback = f"always uses the default '{placeholder.default}'"
                    elif placeholder.flag is not None:
                        fallback = f"never emits '{placeholder.flag}'"
                    else:
                        fallback = "leaves it out"
                    out.append(
                        PLACEHOLDER_NOT_DECLARED.at(
                            path, p_line, p_column, placeholder=placeholder.name, name=name, fallback=fallback
                        )
                    )
                    continue
                if placeholder.default is not None and parameter.default is None:
                    parameter.default = placeholder.default
                if placeholder.flag is not None and parameter.type != "boolean":
                    out.append(
                        FLAG_ON_NON_BOOLEAN.at(
                            path,
                            p_line,
                            p_column,
                            placeholder=placeholder.name,
                            flag=placeholder.flag,
                            name=name,
                            type=f"{_article(parameter.type)} {parameter.type}",
                        )
                    )
                elif placeholder.flag is None and parameter.type == "boolean":
                    out.append(BOOLEAN_WITHOUT_FLAG.at(path, p_line, p_column, placeholder=placeholder.name, name=name))
        for parameter in parameters:
            if parameter.name not in used:
                out.append(PARAMETER_UNUSED.at(path, tool.line, None, parameter=parameter.name, name=name))


def has_tool_blocks(body: str) -> bool:
    """True when a `### heading` section outside code fences holds a `#### Command` heading."""
    if not isinstance(body, str) or "#### Command" not in body:
        return False
    fence: str | None = None
    in_h3 = False
    for line in body.split("\n"):
        match = _FENCE_OPEN.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence) and not match.group(2):
                fence = None
            continue
        if fence is not None:
            continue
        if _ANY_H3.match(line):
            in_h3 = True
        elif line.startswith(("# ", "## ")):
            in_h3 = False
        elif in_h3 and _COMMAND_HEADING.match(line):
            return True
    return False


def split_sections(body_lines: list[str]) -> list[_Section]:
    """Tool sections exactly as parser.rs cuts them: from one `### name` line to the next."""
    starts = [(index, m.group(1)) for index, line in enumerate(body_lines) if (m := _TOOL_HEADING.match(line))]
    sections = []
    for number, (index, name) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(body_lines)
        sections.append(_Section(name, index, body_lines[index + 1 : end], index + 1))
    return sections


def _description(lines: list[str]) -> str:
    kept = []
    for line in lines:
        if line.startswith("####"):
            break
        if line.strip() and not line.startswith("---"):
            kept.append(line)
    return " ".join(kept).strip()


def _fence_after(lines: list[str], start: int | None) -> str | None:
    """The info string of the first fence after the `#### Command` heading ("" for none), or None."""
    if start is None:
        return None
    for line in lines[start + 1 :]:
        if line.startswith("####"):
            return None
        match = _FENCE_OPEN.match(line)
        if match:
            return match.group(2)
    return None


def _is_header(row: str) -> bool:
    cells = [cell.strip().lower() for cell in row.strip().strip("|").split("|")]
    return bool(cells) and cells[0] == "name"


def _row_problem(row: str, match: re.Match[str] | None) -> str:
    if match is not None:
        name = match.group(1)
        if "-" in name:  # unreachable with \w, kept for parity with parser.rs
            return "the name contains '-'"
        return ""
    stripped = row.rstrip("\n")
    cells = [cell.strip() for cell in stripped.strip().strip("|").split("|")]
    if stripped != stripped.rstrip() and stripped.rstrip().endswith("|"):
        return "there is text (spaces) after the last '|'"
    if not stripped.startswith("|"):
        return "the row is indented"
    if not stripped.rstrip().endswith("|"):
        return "the row does not end with '|'"
    if len(cells) < 4:
        return f"it has {len(cells)} column(s), not 4 (Name, Type, Required, Description)"
    if not re.fullmatch(r"\w+", cells[0]):
        return f"the name '{cells[0]}' is not letters, digits and underscores"
    if not re.fullmatch(r"\w+", cells[1]):
        return f"the type '{cells[1]}' is not a single word"
    if cells[2] not in ("yes", "no"):
        return f"Required is '{cells[2]}', not yes or no"
    if not cells[3]:
        return "the description is empty"
    return "it does not have the form | name | type | yes/no | description |"


def _suggest_tool(name: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "_", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()).strip("_")
    return text[:32].strip("_") or "tool"


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"

"""Read SKILL.md bytes into a Document: decode, split the frontmatter, load it safely.

The split is line-based and takes the first two delimiter lines only: bodies often contain
`---` horizontal rules, and a delimiter must be a line holding exactly `---` at column 1.
"""

from __future__ import annotations

import re

import yaml

from registry.config import Limits
from registry.model import Document, Finding
from registry.parse import safe_yaml
from registry.rules import reading as rules

_DELIMITER = re.compile(r"---[ \t]*")
_TOP_LEVEL_SCALAR = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(.*?)[ \t]*$")
_UTF8_BOM = "\ufeff"


def decode(data: bytes, path: str) -> tuple[str, list[Finding]]:
    """Bytes to text with \\n line ends; every quirk becomes a finding, never an exception."""
    findings: list[Finding] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line_start = data.rfind(b"\n", 0, err.start) + 1
        line, column = (
            data.count(b"\n", 0, err.start) + 1,
            len(data[line_start : err.start].decode(errors="replace")) + 1,
        )
        findings.append(rules.INVALID_UTF8.at(path, line, column, byte=f"{data[err.start]:02x}", offset=err.start))
        text = data.decode("utf-8", errors="replace")
    nul = text.find("\x00")
    if nul >= 0:
        findings.append(rules.NUL_BYTES.at(path, *_line_and_column(text, nul), offset=nul))
    if text.startswith(_UTF8_BOM):
        findings.append(rules.BYTE_ORDER_MARK.at(path, 1, 1))
        text = text[1:]
    if "\r" in text:
        if "\r\n" in text:
            findings.append(rules.CRLF_LINE_ENDINGS.at(path, *_line_and_column(text, text.index("\r\n"))))
            text = text.replace("\r\n", "\n")
        if "\r" in text:
            findings.append(rules.LONE_CR_LINE_ENDINGS.at(path, *_line_and_column(text, text.index("\r"))))
            text = text.replace("\r", "\n")
    return text, findings


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def split(text: str) -> tuple[int | None, int | None, int]:
    """Find the frontmatter delimiters.

    Returns (opening line index, closing line index, blank lines skipped before the opening),
    all 0-based; (None, None, 0) when there is no frontmatter, (n, None, k) when unclosed.
    """
    lines = text.split("\n")
    first = 0
    while first < len(lines) and lines[first].strip() == "":
        first += 1
    if first >= len(lines) or not _DELIMITER.fullmatch(lines[first]):
        return None, None, 0
    for index in range(first + 1, len(lines)):
        if _DELIMITER.fullmatch(lines[index]):
            return first, index, first
    return first, None, first


def read_document(data: bytes, path: str, limits: Limits) -> Document:
    findings: list[Finding] = []
    if len(data) > limits.skill_md_bytes:
        findings.append(rules.SKILL_MD_TOO_LARGE.at(path, actual=len(data), limit=limits.skill_md_bytes))
        data = data[: limits.skill_md_bytes]
    if not data.strip():
        findings.append(rules.EMPTY_FILE.at(path))
        return Document("", None, "", "", 1, findings=findings)

    text, decode_findings = decode(data, path)
    findings += decode_findings
    opening, closing, blank = split(text)
    lines = text.split("\n")

    if opening is None:
        findings.append(rules.NO_FRONTMATTER.at(path, 1, 1))
        return Document(text, None, "", text, 1, findings=findings)
    if blank:
        findings.append(rules.BLANK_LINES_BEFORE_FRONTMATTER.at(path, 1, 1, count=blank))
    if closing is None:
        findings.append(rules.FRONTMATTER_NOT_CLOSED.at(path, opening + 1, 1, line=opening + 1))
        frontmatter_text = "\n".join(lines[opening + 1 :])
        recovered = _recover_scalars(frontmatter_text)
        return Document(
            text,
            recovered or None,
            frontmatter_text,
            "",
            len(lines) + 1,
            key_lines={k: opening + 2 + v for k, v in _scalar_lines(frontmatter_text).items()},
            recovered=bool(recovered),
            findings=findings,
        )

    frontmatter_text = "\n".join(lines[opening + 1 : closing])
    body = "\n".join(lines[closing + 1 :])
    body_line = closing + 2
    first_yaml_line = opening + 2  # 1-based line of the first frontmatter line

    encoded_size = len(frontmatter_text.encode("utf-8"))
    if encoded_size > limits.frontmatter_bytes:
        findings.append(
            rules.FRONTMATTER_TOO_LARGE.at(
                path, first_yaml_line, 1, actual=encoded_size, limit=limits.frontmatter_bytes
            )
        )
        return Document(text, None, frontmatter_text, body, body_line, findings=findings)

    try:
        loaded = safe_yaml.load(frontmatter_text, limits.yaml_depth, limits.yaml_nodes, limits.yaml_aliases)
    except safe_yaml.YamlLimitError as err:
        line = first_yaml_line + err.line if err.line is not None else first_yaml_line
        findings.append(
            rules.YAML_LIMIT.at(
                path, line, None, what=err.what, limit=err.limit, actual=err.actual, setting=err.setting
            )
        )
        return Document(text, None, frontmatter_text, body, body_line, findings=findings)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as err:
        findings.append(_yaml_error_finding(err, frontmatter_text, path, first_yaml_line))
        recovered = _recover_scalars(frontmatter_text)
        return Document(
            text,
            recovered or None,
            frontmatter_text,
            body,
            body_line,
            key_lines={k: first_yaml_line + v for k, v in _scalar_lines(frontmatter_text).items()},
            recovered=bool(recovered),
            findings=findings,
        )

    for key, line in loaded.duplicate_keys:
        findings.append(rules.DUPLICATE_KEY.at(path, first_yaml_line + line, 1, key=key))
    value = loaded.value
    if value is None:
        value = {}
    if not isinstance(value, dict):
        found = "a list" if isinstance(value, list) else "a single value"
        findings.append(rules.FRONTMATTER_NOT_MAPPING.at(path, first_yaml_line, 1, found=found))
        return Document(text, None, frontmatter_text, body, body_line, findings=findings)
    key_lines = {key: first_yaml_line + line for key, line in loaded.key_lines.items()}
    return Document(text, value, frontmatter_text, body, body_line, key_lines, findings=findings)


def _yaml_error_finding(err: BaseException, frontmatter_text: str, path: str, first_line: int) -> Finding:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    if isinstance(err, RecursionError):
        problem = "nesting too deep to read"
    else:
        problem = (getattr(err, "problem", None) or str(err)).strip().splitlines()[0]
    line = first_line + mark.line if mark is not None else first_line
    column = mark.column + 1 if mark is not None else None
    source_lines = frontmatter_text.split("\n")
    offending = source_lines[mark.line] if mark is not None and mark.line < len(source_lines) else ""
    return rules.INVALID_YAML.at(path, line, column, problem=problem, fix=_yaml_fix(problem, offending))


def _yaml_fix(problem: str, line: str) -> str:
    match = _TOP_LEVEL_SCALAR.match(line.strip())
    key = match.group(1) if match else "key"
    value = match.group(2) if match else ""
    if len(value) > 70:
        value = value[:67] + "…"
    if (value.startswith(("[", "{")) and not value.endswith(("]", "}"))) or re.match(r"^\[.*\]\s+\S", value):
        return f"quote the value: {key}: \"{value}\" (a value starting with '[' or '{{' is read as a list or map)"
    if "mapping values are not allowed" in problem or ": " in value:
        escaped = value.replace('"', '\\"')
        return f"quote the value: {key}: \"{escaped}\" (an unquoted ': ' inside a value starts a new mapping)"
    if value.startswith(("@", "`", "%", "*", "&", "!", "|", ">")):
        return f"quote the value: {key}: \"{value}\" ('{value[0]}' cannot start a plain YAML value)"
    if "\t" in line and line.startswith("\t"):
        return "indent with spaces, not tabs"
    return "check the quoting and indentation on this line; when in doubt, put the value in double quotes"


def _scalar_lines(frontmatter_text: str) -> dict[str, int]:
    lines: dict[str, int] = {}
    for index, line in enumerate(frontmatter_text.split("\n")):
        match = _TOP_LEVEL_SCALAR.match(line)
        if match:
            lines.setdefault(match.group(1), index)
    return lines


def _recover_scalars(frontmatter_text: str) -> dict[str, str]:
    """Lenient recovery of `name` and `description` after a YAML error.

    Only a key written once, at column 1, on a single line, is trusted: anything more
    ambiguous is left out rather than guessed.
    """
    lines = frontmatter_text.split("\n")
    seen: dict[str, list[tuple[int, str]]] = {}
    for index, line in enumerate(lines):
        match = _TOP_LEVEL_SCALAR.match(line)
        if match:
            seen.setdefault(match.group(1), []).append((index, match.group(2)))
    recovered: dict[str, str] = {}
    for key in ("name", "description"):
        occurrences = seen.get(key, [])
        if len(occurrences) != 1:
            continue
        index, value = occurrences[0]
        continued = index + 1 < len(lines) and lines[index + 1][:1] in (" ", "\t")
        if not value or value[0] in "|>[{&*!" or continued:
            continue
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        recovered[key] = value
    return recovered

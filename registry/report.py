"""Printing findings: compiler-style text, stable JSON, GitHub Actions workflow commands.

Also the rich console the other printers share (build summary, search results).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from registry.model import Finding, Severity

if TYPE_CHECKING:
    from rich.console import Console

JSON_FORMAT_VERSION = 1
UNWRAPPED_WIDTH = 10_000  # columns given to a pipe or file: in effect, lines are never wrapped


def console(stderr: bool = False) -> Console:
    """A rich console for stdout (or stderr) that wraps only on a terminal.

    On a pipe or in a file, rich would wrap at 80 columns and fold table cells mid-word, breaking the
    ids and paths a reader greps for; there each line is printed whole instead.
    """
    from rich.console import Console

    terminal = Console(stderr=stderr, highlight=False, soft_wrap=True)
    if terminal.is_terminal:
        return terminal
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=UNWRAPPED_WIDTH)


def location(finding: Finding) -> str:
    """path, path:line or path:line:column, as compilers print them."""
    where = finding.path
    if finding.line:
        where += f":{finding.line}"
        if finding.column:
            where += f":{finding.column}"
    return where


def text_line(finding: Finding) -> str:
    line = f"{location(finding)}: {finding.severity.value} {finding.code} {finding.message}"
    if finding.hint:
        line += f"\n    hint: {finding.hint}"
    return line


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(finding: Finding) -> str:
    command = {"error": "error", "warning": "warning", "info": "notice"}[finding.severity.value]
    props = [f"file={_escape_property(finding.path)}"]
    if finding.line:
        props.append(f"line={finding.line}")
    if finding.column:
        props.append(f"col={finding.column}")
    props.append(f"title={_escape_property(finding.code)}")
    message = finding.message + (f" (fix: {finding.hint})" if finding.hint else "")
    return f"::{command} {','.join(props)}::{_escape_data(message)}"


def summary_counts(findings: Iterable[Finding]) -> dict[str, int]:
    counts = Counter(f.severity.value for f in findings)
    return {s.value: counts.get(s.value, 0) for s in Severity}


def summary_line(skills: int, findings: list[Finding]) -> str:
    counts = summary_counts(findings)
    return (
        f"{skills} skill{'s' if skills != 1 else ''} checked: "
        f"{counts['error']} error{'s' if counts['error'] != 1 else ''}, "
        f"{counts['warning']} warning{'s' if counts['warning'] != 1 else ''}, "
        f"{counts['info']} info"
    )


def json_document(skills: list[dict], findings: list[Finding]) -> str:
    return json.dumps(
        {
            "format_version": JSON_FORMAT_VERSION,
            "skills": skills,
            "findings": [f.to_json() for f in findings],
            "summary": {"skills": len(skills), **summary_counts(findings)},
        },
        ensure_ascii=False,
        indent=2,
    )

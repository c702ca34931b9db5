"""A rule: its stable code, severity, message, fix hint and an example, declared once."""

from __future__ import annotations

from dataclasses import dataclass

from registry.model import Finding, Severity


@dataclass(frozen=True)
class Rule:
    code: str
    severity: Severity
    title: str
    message: str  # str.format template filled from keyword arguments
    hint: str  # str.format template too
    example: str = ""

    def at(
        self, path: str, line: int | None = None, column: int | None = None, /, excerpt: str = "", **params
    ) -> Finding:
        return Finding(
            code=self.code,
            severity=self.severity,
            message=self.message.format(**params),
            path=path,
            line=line,
            column=column,
            hint=self.hint.format(**params),
            excerpt=excerpt,
        )


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

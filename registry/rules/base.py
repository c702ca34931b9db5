"""A rule: its stable code, severity, message, fix hint and an example, declared once.

Severity says what the author must fix; `blocks_loading` says whether a client could still load the
skill. Only a finding of a rule that blocks loading keeps a skill off the site (Skill.loadable):
a spec violation such as a Title Case name is an error for `validate` and `check-pr`, yet Claude
Code and the `skills` CLI load the skill, so it is published and marked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from registry.model import Finding, Severity


@dataclass(frozen=True)
class Rule:
    code: str
    severity: Severity
    title: str
    message: str  # str.format template filled from keyword arguments
    hint: str  # str.format template too
    example: str = ""
    # No client can load a skill with this finding: it is left out. Keyword-only, so that subclasses
    # (RiskRule) keep their positional fields.
    blocks_loading: bool = field(default=False, kw_only=True)

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
            blocks_loading=self.blocks_loading,
        )


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

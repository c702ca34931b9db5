"""Plain data passed between the pipeline stages.

Every stage takes these and returns these; no stage reaches back into an earlier one.
Paths inside a skill are POSIX strings relative to the skill folder; paths in findings
are POSIX strings relative to the source root, so reports read the same on every machine.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


def pickled_by_constructor(cls: type) -> type:
    """Pickle a frozen, slotted dataclass as its constructor call.

    The build state holds each skill's analysis pickled, and a build of a large registry reads back
    hundreds of thousands of these values. Python's own way for frozen slotted dataclasses looks up
    the fields and sets each one per object, about twice as slow to load as calling the class.
    Only for classes whose every field is an `__init__` argument and that have no `__post_init__`.
    """
    fields = dataclasses.fields(cls)
    if not all(f.init for f in fields) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} cannot be rebuilt from its fields alone")
    values = operator.attrgetter(*(f.name for f in fields)) if len(fields) > 1 else None
    name = fields[0].name

    def __reduce__(self):
        return (cls, values(self) if values is not None else (getattr(self, name),))

    cls.__reduce__ = __reduce__  # type: ignore[method-assign]
    return cls


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a rule noticed, precise enough for an author to act on."""

    code: str
    severity: Severity
    message: str
    path: str
    line: int | None = None
    column: int | None = None
    hint: str = ""
    excerpt: str = ""  # the matched text, for risk findings
    blocks_loading: bool = False  # its rule says no client could load the skill (registry/rules/base.py)

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.column or 0, self.code, self.message)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
            "excerpt": self.excerpt,
        }


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class SkillFile:
    """A regular file inside a skill folder that is safe to publish."""

    path: str  # relative to the skill folder, POSIX separators
    size: int
    digest: str  # sha256:<hex> of the exact bytes
    source: str  # absolute path on disk, read with O_NOFOLLOW (a str: a Path costs more, times 50,000 skills)
    linked: bool = False  # published through a symlink inside the skill; not part of the folder digest


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class SkillLocation:
    """What the crawler found: a folder holding a SKILL.md, and its publishable files."""

    id: str  # stable, unique, URL-safe: "<publisher>/<name>" for skills-index
    folder: Path  # absolute
    rel_folder: str  # relative to the source root ("." for the root itself)
    skill_md: str  # the SKILL.md file name as found (SKILL.md, skill.md, Skill.md)
    files: tuple[SkillFile, ...]  # SKILL.md first, then sorted by path
    # Folders and files inside the skill the crawler never publishes (version control, dependency and
    # bytecode caches, desktop litter), with why: listed on the capability card, never silently dropped.
    unpublished: tuple[tuple[str, str], ...] = ()

    @property
    def skill_md_path(self) -> str:
        return self.skill_md if self.rel_folder == "." else f"{self.rel_folder}/{self.skill_md}"

    @property
    def skill_md_file(self) -> SkillFile:
        return self.files[0]


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Outline:
    """What the later stages keep of a parsed SKILL.md: where things are, never the text.

    The text is read for parsing and scoring and then dropped (50,000 bodies are never held at once,
    nor cached); a stage that would need it after that cannot silently get an empty string, because
    an Outline has no text to give (see Skill.document).
    """

    body_line: int  # 1-based line in the file where the body starts
    key_lines: Mapping[str, int] = field(default_factory=dict)  # top-level key -> 1-based line
    recovered: bool = False  # frontmatter rebuilt from a lenient line scan after a YAML error


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Document:
    """A SKILL.md split into frontmatter and body, before any dialect reads it."""

    text: str  # decoded, newlines normalised to \n, BOM removed
    frontmatter: dict[str, Any] | None  # None when absent or unparseable
    frontmatter_text: str
    body: str
    body_line: int  # 1-based line in the file where the body starts
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level key -> 1-based line
    recovered: bool = False  # frontmatter rebuilt from a lenient line scan after a YAML error
    findings: list[Finding] = field(default_factory=list)

    @property
    def outline(self) -> Outline:
        return Outline(self.body_line, self.key_lines, self.recovered)


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class SkillReference:
    """A name of another skill that this one depends on, found while parsing, with where it is written.

    Checked once every skill is known (registry/validate.py): kept instead of the text, so the
    registry-wide check reports the same line and column as parsing would.
    """

    dialect: str  # the dialect that reads the reference (its rule reports a missing target)
    target: str
    where: str  # how the dialect names the place, e.g. "quiz 1, question 2, on-correct"
    line: int | None = None
    column: int | None = None


@dataclass(slots=True)
class Parameter:
    name: str
    type: str = "string"
    required: bool = False
    description: str = ""
    default: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "required": self.required,
            "description": self.description,
            "default": self.default,
        }


@dataclass(slots=True)
class Tool:
    """A callable tool a skill declares (gibb.eri.sh body blocks, wolffi.sh `tools`)."""

    name: str
    description: str = ""
    parameters: list[Parameter] = field(default_factory=list)
    command: list[str] | None = None  # program and arguments, never a shell string
    command_text: str | None = None
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "parameters": [p.to_json() for p in self.parameters],
            "command": self.command,
            "command_text": self.command_text,
        }


@dataclass(slots=True)
class Input:
    """An Agent Flow Lite form input."""

    name: str
    label: str = ""
    type: str = "text"
    required: bool = False
    default: str | None = None
    description: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "type": self.type,
            "required": self.required,
            "default": self.default,
            "description": self.description,
        }


@dataclass(slots=True)
class Pattern:
    """A wolffi.sh danger or confirm pattern."""

    pattern: str
    level: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"pattern": self.pattern, "level": self.level, "reason": self.reason}


@dataclass(slots=True)
class QuizOption:
    text: str
    correct: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "correct": self.correct}


@dataclass(slots=True)
class QuizBranch:
    """What happens after a question is answered: `condition` is on-correct or on-incorrect."""

    condition: str
    action: str  # goto, load-reference, load-skill, or message (text only)
    target: str = ""
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"condition": self.condition, "action": self.action, "target": self.target, "message": self.message}


@dataclass(slots=True)
class QuizQuestion:
    question: str
    options: list[QuizOption] = field(default_factory=list)
    explanation: str = ""
    branches: list[QuizBranch] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "options": [o.to_json() for o in self.options],
            "explanation": self.explanation,
            "branches": [b.to_json() for b in self.branches],
        }


@dataclass(slots=True)
class Quiz:
    """A skillli quiz gate."""

    id: str = ""
    title: str = ""
    description: str = ""
    gate: bool = False
    passing_score: int | None = None
    questions: list[QuizQuestion] = field(default_factory=list)

    @property
    def branches(self) -> list[QuizBranch]:
        return [branch for question in self.questions for branch in question.branches]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "description": self.description,
            "gate": self.gate,
            "passing_score": self.passing_score,
            "questions": [q.to_json() for q in self.questions],
        }


@dataclass(slots=True)
class Skill:
    """Everything the registry knows about one skill after parsing and validation."""

    location: SkillLocation
    # The parsed text while a skill is read and scored, then only its Outline (registry/skill_jobs.py).
    document: Document | Outline
    name: str | None = None
    description: str | None = None
    version: str | None = None
    license: str | None = None
    compatibility: str | None = None
    publisher: str = ""
    author: str | None = None
    category: str | None = None
    tags: list[str] = field(default_factory=list)
    homepage: str | None = None
    repository: str | None = None
    allowed_tools: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    dialects: list[str] = field(default_factory=list)
    extensions: dict[str, Any] = field(default_factory=dict)  # known client-extension fields
    tools: list[Tool] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    arguments: list[Parameter] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    danger_patterns: list[Pattern] = field(default_factory=list)
    confirm_patterns: list[Pattern] = field(default_factory=list)
    quizzes: list[Quiz] = field(default_factory=list)
    requires: dict[str, list[str]] = field(default_factory=dict)
    model_settings: dict[str, Any] = field(default_factory=dict)
    knowledge_base: Any = None
    settings: dict[str, Any] = field(default_factory=dict)  # dialect flags: modes, timeout, ...
    category_inferred: bool = False
    category_evidence: list[str] = field(default_factory=list)
    risk_level: str = "low"  # low, medium, high, critical (score/risk/assessment.py)
    content_digest: str = ""  # canonical folder digest (registry/checksum.py)
    body_headings: int = 0  # Markdown headings in the body (kept: the body itself is dropped after scoring)
    body_lines: int = 0
    references: list[SkillReference] = field(default_factory=list)  # other skills named (requires, quizzes)
    findings: list[Finding] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.location.id

    @property
    def display_name(self) -> str:
        return self.name or self.location.id.rsplit("/", 1)[-1]

    @property
    def digest(self) -> str:
        return self.location.skill_md_file.digest

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def loadable(self) -> bool:
        """Whether a client could load the skill, which decides whether it is published.

        Claude Code needs a description and a readable frontmatter (a missing or malformed name falls
        back to the folder name), so a spec error alone does not decide it: only findings of rules
        declared `blocks_loading` do (listed in registry/reference/catalog.py LOADING_CODES).
        """
        return self.description is not None and not any(f.blocks_loading for f in self.findings)

    @property
    def loading_problems(self) -> list[Finding]:
        """The findings that keep the skill from loading, for the left-out report."""
        return [f for f in self.findings if f.blocks_loading]


@dataclass(slots=True)
class CrawlResult:
    source: Path
    locations: list[SkillLocation]
    findings: list[Finding]
    dropped: list[LeftOut] = field(default_factory=list)  # folders with a SKILL.md the crawl could not use


@dataclass(slots=True)
class LeftOut:
    """A skill that was found but not published, and why."""

    id: str
    path: str
    reasons: list[Finding]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "path": self.path, "reasons": [f.to_json() for f in self.reasons]}

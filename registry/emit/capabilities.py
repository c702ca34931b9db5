"""The capability card and the risk explanation, as the skill page and index.json show them.

The card (registry/score/card.py) says what a skill's files and instructions would make an agent
touch; the page shows it per kind beside what the skill declares, with how every file was read,
and the risk findings grouped by level. Everything here is plain data for the template: every
string from a skill stays text and Jinja's autoescape escapes it; links only ever point at the
skill's own files on this site, each at its one home (urls.FileHomes).

Bounded for hostile skills and large registries: at most MAX_VALUES distinct values per kind and
MAX_NOT_ANALYSED "not analysed" files are listed (the rest are counted), on the page and in
index.json alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from registry.emit import verdict
from registry.emit.urls import FileHomes
from registry.model import Finding
from registry.score import owasp
from registry.score.card import KIND_TITLES, KINDS, NOT_ANALYSED, CapabilityCard, Declared
from registry.score.risk.assessment import RULES
from registry.score.risk.rules import CATEGORIES, LEVELS, RiskRule

MAX_VALUES = 100  # distinct values per kind
MAX_NOT_ANALYSED = 100  # "not analysed" files listed by name
OPEN_UP_TO = 8  # a kind with at most this many values is shown open; longer lists start folded

# One sentence per kind when nothing of it was seen.
EMPTY = {
    "env": "No environment variables read",
    "path": "No files or paths referenced",
    "host": "No network hosts referenced",
    "binary": "No programs run",
    "install": "No package installs",
    "process": "No processes spawned and no code evaluated",
    "persistence": "No persistence points written",
    "instruction": "No instruction that a risk rule reads as harmful",
}
# How a file was read, as the coverage line says it (card.COVERAGE_ORDER's values).
READ_AS = {"parsed": "parsed", "members": "as archive members", "binary": "as bytes", "text": "as text"}

_RULES: dict[str, RiskRule] = {rule.code: rule for rule in RULES}


@dataclass(frozen=True)
class UseView:
    value: str
    sensitive: str  # the class ("wallet key", "agent configuration"), or ""
    detail: str  # "read", "send, fetch", "unpinned" ...
    origins: tuple[str, ...]  # "code", "instructions", "metadata"
    where: str  # file:line, relative to the skill folder
    url: str | None  # the file on this site, when the file is one of the skill's
    count: int  # places it was seen


@dataclass(frozen=True)
class KindView:
    kind: str
    title: str
    empty: str
    uses: tuple[UseView, ...]
    omitted: int  # distinct values past MAX_VALUES
    sensitive: int  # distinct sensitive values, listed or not

    @property
    def total(self) -> int:
        return len(self.uses) + self.omitted

    @property
    def open(self) -> bool:
        return self.total <= OPEN_UP_TO


@dataclass(frozen=True)
class MissedView:
    """A file the analysis could not read, with the reason."""

    where: str
    url: str | None
    reason: str


@dataclass(frozen=True)
class CardView:
    kinds: tuple[KindView, ...]
    declared: tuple[tuple[str, str], ...]  # (label, what the skill declares), every label shown
    files: int  # the skill's files
    read: int  # of them, read by the analysis (not "not analysed")
    read_as: tuple[tuple[str, int], ...]  # ("parsed", 3), ("as text", 8) ... of the skill's own files
    members: int  # members of archives and documents read ("file!/member")
    not_analysed: tuple[MissedView, ...]
    not_analysed_count: int  # including members of archives and entries past MAX_NOT_ANALYSED

    @property
    def used_kinds(self) -> int:
        return sum(1 for kind in self.kinds if kind.total)


@dataclass(frozen=True)
class FindingView:
    code: str
    title: str
    category: str
    owasp: str  # "AST01 Malicious Skills": the OWASP Agentic Skills Top 10 category, or ""
    level: str
    where: str
    url: str | None
    message: str  # what was found (the rule's "why" is shown apart)
    why: str
    excerpt: str
    hint: str
    anchor: str = ""  # its id on the page, which the verdict's reasons link to (verdict.ANCHOR)


@dataclass(frozen=True)
class LevelGroup:
    level: str
    findings: tuple[FindingView, ...]


class Paths:
    """Source-root paths (as in findings and the card) to what a reader of the skill's page sees and opens."""

    def __init__(self, homes: FileHomes, shown: str, root: str):
        self.homes = homes
        self.prefix = "" if shown in (".", "") else shown.rstrip("/") + "/"
        self.files = homes.files
        self.root = root

    def relative(self, path: str) -> str:
        return path[len(self.prefix) :] if self.prefix and path.startswith(self.prefix) else path

    def where(self, path: str, line: int | None) -> str:
        relative = self.relative(path)
        return f"{relative}:{line}" if line else relative

    def url(self, path: str) -> str | None:
        """The file on this site (an archive member links to its archive), or None."""
        relative = self.relative(path).split("!/", 1)[0]
        if relative not in self.files:
            return None
        return self.root + self.homes.url(relative)


def card_view(card: CapabilityCard, paths: Paths) -> CardView:
    summary = card.summary()
    kinds = []
    for kind in KINDS:
        entries = summary.get(kind, [])
        uses = tuple(
            UseView(
                value=entry["value"],
                sensitive=entry["sensitive"],
                detail=entry["detail"],
                origins=tuple(entry["origins"]),
                where=paths.where(entry["path"], entry["line"]),
                url=paths.url(entry["path"]),
                count=entry["count"],
            )
            for entry in _first(entries)
        )
        kinds.append(
            KindView(
                kind, KIND_TITLES[kind], EMPTY[kind], uses, max(0, len(entries) - MAX_VALUES),
                sum(1 for entry in entries if entry["sensitive"]),
            )
        )  # fmt: skip
    missed = card.not_analysed
    not_read = {paths.relative(c.path) for c in missed}
    read = sum(1 for path in paths.files if path not in not_read)
    counts = Counter(c.how for c in card.coverage if c.how != NOT_ANALYSED and "!/" not in c.path)
    return CardView(
        kinds=tuple(kinds),
        declared=declared_view(card.declared),
        files=len(paths.files),
        read=read,
        read_as=tuple((READ_AS[how], counts[how]) for how in READ_AS if counts.get(how)),
        members=sum(1 for c in card.coverage if c.how != NOT_ANALYSED and "!/" in c.path),
        not_analysed=tuple(
            MissedView(paths.relative(c.path), paths.url(c.path), c.detail or "no reason recorded")
            for c in missed[:MAX_NOT_ANALYSED]
        ),
        not_analysed_count=len(missed),
    )


def _first(entries: Sequence[dict[str, Any]]) -> Sequence[dict[str, Any]]:
    """The sensitive values first (each kind keeps its order otherwise), cut at MAX_VALUES."""
    ranked = sorted(entries, key=lambda entry: not entry["sensitive"])
    return ranked[:MAX_VALUES]


def declared_view(declared: Declared) -> tuple[tuple[str, str], ...]:
    requires = "; ".join(f"{kind}: {', '.join(names)}" for kind, names in declared.requires if names)
    network = {True: "yes", False: "no", None: ""}[declared.network]
    return (
        ("Allowed tools", ", ".join(declared.allowed_tools)),
        ("Requires", requires),
        ("Compatibility", declared.compatibility),
        ("Tools", ", ".join(declared.tools)),
        ("Inputs", ", ".join(declared.inputs)),
        ("Network", network),
    )


def finding_view(finding: Finding, paths: Paths, anchor: str = "") -> FindingView:
    rule = _RULES.get(finding.code)
    message, why = finding.message, ""
    if rule is not None and rule.why and message.endswith(": " + rule.why):
        message, why = message[: -len(rule.why) - 2], rule.why
    return FindingView(
        code=finding.code,
        title=rule.title if rule is not None else "",
        category=CATEGORIES.get(rule.category, rule.category) if rule is not None else "",
        owasp=owasp.owasp_label(finding.code),
        level=rule.level if rule is not None and rule.level in LEVELS else "medium",
        where=paths.where(finding.path, finding.line),
        url=paths.url(finding.path),
        message=message,
        why=why,
        excerpt=finding.excerpt,
        hint=finding.hint,
        anchor=anchor,
    )


def risk_groups(findings: Iterable[Finding], paths: Paths) -> tuple[LevelGroup, ...]:
    """The risk findings by level, highest first, each in file and line order."""
    by_level: dict[str, list[FindingView]] = {}
    for number, finding in verdict.numbered(findings):
        view = finding_view(finding, paths, verdict.ANCHOR.format(number))
        by_level.setdefault(view.level, []).append(view)
    return tuple(LevelGroup(level, tuple(by_level[level])) for level in reversed(LEVELS) if level in by_level)


# -- index.json ------------------------------------------------------------------------------


def index_entry(card: CapabilityCard, shown: str) -> dict[str, Any]:
    """The card for index.json (schema/index.schema.json#/$defs/capabilities), lean for large registries.

    `uses` lists the kinds that have any, each value once (CapabilityCard.summary()); `coverage`
    counts files per way they were read and names only the files that were not analysed. Paths are
    relative to the skill folder, like the entry's `files[].path` (`shown` is the folder).
    """
    prefix = "" if shown in (".", "") else shown.rstrip("/") + "/"

    def relative(path: str) -> str:
        return path[len(prefix) :] if prefix and path.startswith(prefix) else path

    uses: dict[str, list[dict[str, Any]]] = {}
    omitted: dict[str, int] = {}
    for kind, entries in card.summary().items():
        if not entries:
            continue
        uses[kind] = [{**entry, "path": relative(entry["path"])} for entry in _first(entries)]
        if len(entries) > MAX_VALUES:
            omitted[kind] = len(entries) - MAX_VALUES
    missed = card.not_analysed
    counts = Counter(c.how for c in card.coverage)
    coverage: dict[str, Any] = {
        "counts": {how: counts[how] for how in sorted(counts)},
        "not_analysed": [{"path": relative(c.path), "reason": c.detail} for c in missed[:MAX_NOT_ANALYSED]],
    }
    entry: dict[str, Any] = {"uses": uses, "declared": card.declared.to_json(), "coverage": coverage}
    if omitted:
        entry["omitted"] = omitted
    return entry

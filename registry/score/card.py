"""A skill's capability card: what its files and instructions would make an agent touch, as data.

The risk level is derived from this card, the flows between its entries and the findings; people
and agents can read the card itself. Each `Use` is one thing a file references (an environment
variable, a path, a host, a binary, a package install, a spawned process or evaluated code, a
persistence point), with where it was seen and whether it is sensitive. `Declared` is what the
skill says it needs (`allowed-tools`, `requires`, `compatibility`, tool and input declarations);
`Coverage` lists every file and how it was read, so nothing is skipped silently.

Analysers (code parsers, prose analysis, every-byte scanning) each return an `AnalyserResult`;
risk/assessment.py merges them into one card and one list of findings.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from registry.model import pickled_by_constructor

# The kinds of use, in the order the card shows them.
ENV = "env"  # environment variable read
PATH = "path"  # file or folder touched (read, written, deleted)
HOST = "host"  # network host or URL contacted
BINARY = "binary"  # program or interpreter invoked
INSTALL = "install"  # package installed
PROCESS = "process"  # process spawned or code evaluated
PERSISTENCE = "persistence"  # something written that outlives the task (cron, rc files, hooks, agent config)
INSTRUCTION = "instruction"  # what the skill's text tells the agent (or the user) to do that a risk rule reads
KINDS = (ENV, PATH, HOST, BINARY, INSTALL, PROCESS, PERSISTENCE, INSTRUCTION)
# The env use of a dump of every variable (`dict(os.environ)`, `printenv`), recorded by every analyser alike.
WHOLE_ENVIRONMENT = "the whole environment"
KIND_TITLES = {
    ENV: "Environment variables",
    PATH: "Files and paths",
    HOST: "Network hosts",
    BINARY: "Programs run",
    INSTALL: "Package installs",
    PROCESS: "Processes and evaluated code",
    PERSISTENCE: "Persistence points",
    INSTRUCTION: "Instructions to the agent",
}

# Where a use was seen.
FROM_CODE = "code"  # a script file
FROM_INSTRUCTIONS = "instructions"  # SKILL.md, references, templates: prose and the commands in their code fences
FROM_METADATA = "metadata"  # frontmatter fields, tool declarations

# How a file was read, for the coverage list. A file read several ways keeps the most telling one:
# not analysed (with its reason) first, then parsed, members, binary, text (COVERAGE_ORDER).
READ_PARSED = "parsed"  # a real parser (ast, tree-sitter) read it
READ_TEXT = "text"  # read as text (Markdown, data, a script in a language without a parser)
READ_MEMBERS = "members"  # an archive or office document whose members were listed and read
READ_BINARY = "binary"  # inspected as bytes (magic numbers, strings)
NOT_ANALYSED = "not analysed"  # see `detail`
COVERAGE_ORDER = (NOT_ANALYSED, READ_PARSED, READ_MEMBERS, READ_BINARY, READ_TEXT)


def merge_coverage(entries: list[Coverage]) -> tuple[Coverage, ...]:
    """One entry per path, the most telling one (COVERAGE_ORDER); reasons for not analysing are all kept."""
    by_path: dict[str, list[Coverage]] = {}
    for entry in entries:
        by_path.setdefault(entry.path, []).append(entry)
    merged = []
    for path in sorted(by_path):
        ranked = sorted(by_path[path], key=lambda c: (COVERAGE_ORDER.index(c.how), c.detail))
        best = ranked[0]
        if best.how == NOT_ANALYSED:
            reasons = list(dict.fromkeys(c.detail for c in ranked if c.how == NOT_ANALYSED and c.detail))
            best = Coverage(path, NOT_ANALYSED, "; ".join(reasons))
        merged.append(best)
    return tuple(merged)


# What `Use.detail` says, per kind (analysers and card rules rely on these words):
#   env          "read"
#   path         "read", "write", "delete" or "list"
#   host         "send" (data goes out: POST/PUT, an upload, a socket write), "fetch" (a download),
#                "open" (a browser or URL opener), "mention" (named in text or a string, no call seen)
#   binary       "" or "sudo" (run with elevated rights)
#   install      "pinned", "unpinned", "url" (from a URL, a git repository or a local archive) or "hook"
#                (an install-time script such as postinstall)
#   process      "spawn", "background" (detached: nohup, `&`, setsid, start_new_session, spawn detached),
#                "eval" (code built at run time is evaluated: eval, exec, Function, `bash -c "$x"`, source)
#   persistence  "write"
#   instruction  what kind of order (risk/assessment.py TELLS): "override", "conceal", "send out", "run",
#                "read secrets", "rewrite agent configuration", "skip confirmation", "obey fetched text", ...
# `Use.sensitive` names the class of a sensitive value, from this list where one fits:
#   "secret-like name", "wallet key", "home-directory secret", "browser profile", "wallet",
#   "agent configuration", "skill folder", "shell startup", "scheduled job", "git hook", "ssh login",
#   "system", "raw IP address", "paste or capture host", "tunnel", "shortener", "look-alike host"
SENSITIVE_CLASSES = (
    "secret-like name", "wallet key", "home-directory secret", "browser profile", "wallet", "agent configuration",
    "skill folder", "shell startup", "scheduled job", "git hook", "ssh login", "system", "raw IP address",
    "paste or capture host", "tunnel", "shortener", "look-alike host",
)  # fmt: skip


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Use:
    kind: str  # one of KINDS
    value: str  # "AWS_SECRET_ACCESS_KEY", "~/.ssh/id_rsa", "api.github.com" (hosts lowercased), "curl", "pip:requests"
    path: str  # the file, as in findings: relative to the source root
    line: int | None
    origin: str = FROM_CODE  # FROM_CODE, FROM_INSTRUCTIONS or FROM_METADATA
    sensitive: str = ""  # why it deserves a look (one of SENSITIVE_CLASSES), or ""
    detail: str = ""  # see the table above
    evidence: str = ""  # the code or text it was read from, one line, at most 120 characters (risk/rules.py, show)

    def sort_key(self) -> tuple:
        kind = KINDS.index(self.kind) if self.kind in KINDS else len(KINDS)
        # every field: uses are gathered in a set, and ties must not fall back to its (hash) order
        return (kind, self.value, self.path, self.line or 0, self.origin, self.sensitive, self.detail, self.evidence)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "value": self.value,
            "path": self.path,
            "line": self.line,
            "origin": self.origin,
            "sensitive": self.sensitive,
            "detail": self.detail,
            "evidence": self.evidence,
        }


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Declared:
    """What the skill says it needs, from its frontmatter and its dialect's declarations."""

    allowed_tools: tuple[str, ...] = ()
    requires: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (kind, names): bins, env, config ...
    compatibility: str = ""
    tools: tuple[str, ...] = ()  # declared tool names (and their commands' programs)
    inputs: tuple[str, ...] = ()
    network: bool | None = None  # `network:` when the dialect has it

    def to_json(self) -> dict[str, Any]:
        return {
            "allowed_tools": list(self.allowed_tools),
            "requires": {kind: list(names) for kind, names in self.requires},
            "compatibility": self.compatibility,
            "tools": list(self.tools),
            "inputs": list(self.inputs),
            "network": self.network,
        }


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Coverage:
    """How one file was read by the risk analysis."""

    path: str
    how: str  # READ_PARSED, READ_TEXT, READ_MEMBERS, READ_BINARY or NOT_ANALYSED
    detail: str = ""  # the parser ("python ast", "tree-sitter bash"), or the reason it was not analysed

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "how": self.how, "detail": self.detail}


@dataclass(frozen=True)
class CapabilityCard:
    uses: tuple[Use, ...] = ()
    declared: Declared = field(default_factory=Declared)
    coverage: tuple[Coverage, ...] = ()

    def of(self, kind: str) -> tuple[Use, ...]:
        return tuple(use for use in self.uses if use.kind == kind)

    @property
    def not_analysed(self) -> tuple[Coverage, ...]:
        return tuple(c for c in self.coverage if c.how == NOT_ANALYSED)

    def summary(self) -> dict[str, list[dict[str, Any]]]:
        """One entry per distinct (kind, value): where first seen, how many places, sensitive or not."""
        grouped: dict[tuple[str, str], list[Use]] = {}
        for use in sorted(self.uses, key=Use.sort_key):
            grouped.setdefault((use.kind, use.value), []).append(use)
        out: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
        for (kind, value), uses in grouped.items():
            first = uses[0]
            sensitive = next((u.sensitive for u in uses if u.sensitive), "")
            details = sorted({u.detail for u in uses if u.detail})
            out.setdefault(kind, []).append(
                {
                    "value": value,
                    "sensitive": sensitive,
                    "detail": ", ".join(details),
                    "origins": sorted({u.origin for u in uses}),
                    "path": first.path,
                    "line": first.line,
                    "count": len(uses),
                }
            )
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "uses": self.summary(),
            "declared": self.declared.to_json(),
            "coverage": [c.to_json() for c in self.coverage],
        }


class PackedCard:
    """A capability card kept pickled until something reads it (`RiskAssessment.card`).

    A build holds every skill's risk assessment from the analysis until the pages are written, and
    the card is most of it: about 4.5 KB of objects a skill, 1.5 KB pickled. Only the pages and the
    near-copy comparison of two skills read it, so the other stages never unpickle it, and a build
    that reuses its analyses does not rebuild every card to load them. Equal when the cards are.
    """

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data

    @classmethod
    def of(cls, card: CapabilityCard) -> PackedCard:
        return cls(pickle.dumps(card, pickle.HIGHEST_PROTOCOL))

    def unpack(self) -> CapabilityCard:
        return pickle.loads(self.data)

    def __reduce__(self):
        return (PackedCard, (self.data,))

    def __eq__(self, other: object) -> bool:
        # The same card can pickle to other bytes (which equal strings are one object is not kept alike).
        return isinstance(other, PackedCard) and (self.data == other.data or self.unpack() == other.unpack())

    def __hash__(self) -> int:
        return hash(self.unpack())

    def __repr__(self) -> str:
        return repr(self.unpack())


EMPTY_CARD = PackedCard.of(CapabilityCard())


@dataclass
class AnalyserResult:
    """What one analyser found in a skill: uses for the card, coverage notes and risk findings."""

    uses: list[Use] = field(default_factory=list)
    coverage: list[Coverage] = field(default_factory=list)
    items: list[Any] = field(default_factory=list)  # risk.Item: a finding with its rule and parameters
    facts: list[Any] = field(default_factory=list)  # risk.facts.Fact: what was read, given its rule by the fact table

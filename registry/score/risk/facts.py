"""What a line does, as the line detectors report it, and the one table that gives each fact its rule.

The detectors (risk/detectors.py) read text and report facts: a shape (the constants below), where it is on the
line, and the values they read (the URL and its host, the file a command reads, what is sent and to whom, how a
shell is opened). They never name a rule or a level. `TABLE` does, from the fact alone: its rows are read in order
and the first whose shape matches and whose condition holds gives the rule, and so the level (risk/rules.py).
After a whole skill is read, `calibrate` lowers a download run by a shell from the vendor's own host (the skill's
homepage or repository, or a documented installer) to the vendor-installer rule: that row needs the skill's
metadata, which a line does not hold.

The table is in docs/risk.md ("Line facts and their rules"), generated from TABLE.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from registry.score.risk import rules as R
from registry.score.risk.lines import Line
from registry.score.risk.rules import Item, RiskRule
from registry.score.vocabulary import CAPTURE_KINDS, RAW_IP, host_kind, vendor_installer

RUNS_DOWNLOAD = "runs downloaded code"
RUNS_DECODED = "runs decoded code"
REVERSE_SHELL = "opens a reverse shell"
PASSWORD_ARCHIVE = "fetches a passworded archive"
READS_CREDENTIALS = "reads a credential store"
READS_KEYCHAIN = "reads a keychain entry"
SENDS_SECRETS = "sends secrets"
CONTACTS_HOST = "contacts a host"
WIPES = "wipes the system or home"
DESTROYS = "destroys the system"
PLANTS_SSH_KEY = "plants an SSH key"
CHANGES_AUTHORIZED_KEYS = "changes authorized_keys"
SCHEDULES_JOB = "schedules a job"
HIJACKS_SHELL_STARTUP = "hijacks shell startup"
ENCODED_BLOB = "holds an encoded blob"
MINIFIED_CODE = "holds minified code"
HIDDEN_TAGS = "hides tag characters"
HIDDEN_BIDI = "hides bidirectional controls"
HIDDEN_ZERO_WIDTH = "hides zero-width characters"


@dataclass(frozen=True)
class LineFact:
    """One thing a line does: its shape, its place on the line (start, end) and the values read from it."""

    shape: str
    line: Line
    start: int
    end: int
    params: dict[str, Any]


@dataclass(frozen=True)
class Hit:
    """A fact with the rule the table gave it: what the assessment filters, caps and turns into a finding."""

    rule: RiskRule
    line: Line
    start: int
    end: int
    params: dict[str, Any]


def _host_kind(params: Mapping[str, Any]) -> str:
    """The kind of the fact's host (paste, capture, tunnel ..., raw IP address), "" for an accountable one."""
    return str(params.get("host_kind") or (host_kind(str(params["host"])) if params.get("host") else "") or "")


@dataclass(frozen=True)
class Row:
    """A row of the table: facts of `shape` for which `holds` (None: always) get `rule`; `when` says it in words."""

    shape: str
    rule: RiskRule
    when: str = ""
    holds: Callable[[Mapping[str, Any]], bool] | None = None


_UNACCOUNTABLE = "from a host with no accountable owner (paste, capture, tunnel, shortener, raw IP ...)"
# Read in order: the first row whose shape matches and whose condition holds gives the rule.
TABLE: tuple[Row, ...] = (
    Row(RUNS_DOWNLOAD, R.UNTRUSTED_DOWNLOAD_EXECUTED, _UNACCOUNTABLE, lambda p: bool(_host_kind(p))),
    Row(RUNS_DOWNLOAD, R.DOWNLOAD_EXECUTED, "from a named host"),
    Row(RUNS_DECODED, R.DECODED_PAYLOAD_EXECUTED),
    Row(REVERSE_SHELL, R.REVERSE_SHELL),
    Row(PASSWORD_ARCHIVE, R.PASSWORD_ARCHIVE),
    Row(READS_CREDENTIALS, R.CREDENTIAL_FILE_READ),
    Row(READS_KEYCHAIN, R.KEYCHAIN_READ),
    Row(SENDS_SECRETS, R.SECRETS_SENT),
    Row(
        CONTACTS_HOST,
        R.CAPTURE_HOST,
        "a paste site, file-drop host or request-capture service",
        lambda p: _host_kind(p) in CAPTURE_KINDS,
    ),
    Row(CONTACTS_HOST, R.RAW_IP_HOST, "a raw IP address, from a command", lambda p: _host_kind(p) == RAW_IP),
    Row(WIPES, R.WIPE_ROOT_OR_HOME),
    Row(DESTROYS, R.SYSTEM_DESTRUCTION),
    Row(PLANTS_SSH_KEY, R.AUTHORIZED_KEY_ADDED),
    Row(CHANGES_AUTHORIZED_KEYS, R.AUTHORIZED_KEYS_CHANGED),
    Row(SCHEDULES_JOB, R.SCHEDULED_JOB),
    Row(HIJACKS_SHELL_STARTUP, R.SHELL_STARTUP_HIJACK),
    Row(ENCODED_BLOB, R.ENCODED_BLOB),
    Row(MINIFIED_CODE, R.MINIFIED_CODE),
    Row(HIDDEN_TAGS, R.HIDDEN_TAG_TEXT),
    Row(HIDDEN_BIDI, R.BIDI_IN_CODE),
    Row(HIDDEN_ZERO_WIDTH, R.ZERO_WIDTH_RUN),
)
SHAPES = tuple(dict.fromkeys(row.shape for row in TABLE))
# The rule codes each shape can be given (a detector is skipped in a file once all of its shapes' rules are capped);
# R001's vendor calibration keeps its code until the skill is read whole.
CODES_OF_SHAPE: dict[str, frozenset[str]] = {
    shape: frozenset(row.rule.code for row in TABLE if row.shape == shape) for shape in SHAPES
}


@dataclass(frozen=True)
class Fact:
    """What a prose, every-byte or family analyser read in a skill, where it read it: a shape (what the text says or
    the bytes hold), the file, line and column, the text shown as evidence, the values read, and the code block it
    sits in (for the escalations that need two findings in one block). `FactTable` gives it its rule."""

    shape: str
    path: str
    line: int | None
    column: int | None
    excerpt: str
    params: Mapping[str, Any]
    block: tuple[str, int] | None = None


class FactTable:
    """Rows from facts to rules, read as TABLE is: the first row whose shape matches and whose condition holds gives
    the rule. Each analyser package declares the rows of the facts it reports (`ROWS`, beside their rules);
    risk/assessment.py joins them into the one table."""

    def __init__(self, rows: tuple[Row, ...]) -> None:
        self.rows = rows
        self._by_shape: dict[str, list[Row]] = {}
        for row in rows:
            self._by_shape.setdefault(row.shape, []).append(row)

    @property
    def shapes(self) -> frozenset[str]:
        return frozenset(self._by_shape)

    def rule_for(self, shape: str, params: Mapping[str, Any]) -> RiskRule | None:
        for row in self._by_shape.get(shape, ()):
            if row.holds is None or row.holds(params):
                return row.rule
        return None

    def items_of(self, facts: list[Fact]) -> list[Item]:
        """Each fact as a finding of its rule, in the analysers' order; a fact no row holds for is no risk."""
        items = []
        for fact in facts:
            rule = self.rule_for(fact.shape, fact.params)
            if rule is not None:
                params = dict(fact.params)
                finding = rule.at(fact.path, fact.line, fact.column, excerpt=fact.excerpt, **params)
                items.append(Item(finding, rule, params, fact.block))
        return items


_LINE_TABLE = FactTable(TABLE)


def rule_for(fact: LineFact) -> RiskRule | None:
    """The rule of the first row of TABLE that matches the fact; None when no row does (a host of no concern)."""
    return _LINE_TABLE.rule_for(fact.shape, fact.params)


def hits_of(facts: Iterator[LineFact]) -> Iterator[Hit]:
    """Each fact with its rule, in the detectors' order; facts no row matches are not risks."""
    for fact in facts:
        rule = rule_for(fact)
        if rule is not None:
            yield Hit(rule, fact.line, fact.start, fact.end, fact.params)


def calibrate(hits: list[Hit], own_sites: tuple[str, ...]) -> list[Hit]:
    """A download run by a shell is the vendor's own installer when it comes, over HTTPS, from a documented
    installer or from the skill's own site (vocabulary.vendor_installer): medium, not high."""
    calibrated = []
    for hit in hits:
        vendor = vendor_installer(hit.params["url"], own_sites) if hit.rule is R.DOWNLOAD_EXECUTED else None
        if vendor:
            hit = dataclasses.replace(hit, rule=R.VENDOR_INSTALLER_EXECUTED, params={**hit.params, "vendor": vendor})
        calibrated.append(hit)
    return calibrated

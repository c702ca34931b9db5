"""The verdict a high or critical skill opens with: one plain sentence, then up to three reasons.

A reader deciding whether to install needs the conclusion before the commands, and in words rather
than rule codes (issue 22, "the verdict first"). `build(risk)` turns a `RiskAssessment` into a
`Verdict`: a headline ("This skill sends your crypto wallet files (wallet.dat) to
portfolio-sync.example.") and the findings behind it, ranked, each with its file, line and the id of
its entry in the page's risk section. Low and medium skills get none.

Only what the findings say is said. Each finding is phrased from its rule (PHRASES) and the values
its rule's message was filled with, which the assessment keeps beside it (`RiskAssessment.claims`).
The capability card names the class of a sensitive value a flow finding carries ("your crypto
wallet files") only when the card saw that value on the finding's own source line. When a phrase
needs a value the finding does not carry, the rule's own summary is used, then its title.

Everything here comes from skill content, so every value is made visible and short
(risk/rules.py `show`, then MAX_VALUE) and stays plain text: the page autoescapes it and index.json
carries it as strings.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from registry.model import Finding
from registry.score import card as C
from registry.score.card import ENV, CapabilityCard
from registry.score.risk.assessment import RULES, RiskAssessment
from registry.score.risk.rules import LEVELS, RiskRule, show

SHOWN_LEVELS = ("high", "critical")
MAX_REASONS = 3
MAX_VALUE = 100  # characters of one value from a skill (a host, a path, a quoted instruction)
MAX_TEXT = 300  # characters of a headline or a reason

ANCHOR = "risk-finding-{}"  # the id of a risk finding on the skill page, numbered in sort_key order

_RULES: dict[str, RiskRule] = {rule.code: rule for rule in RULES}

# Which finding leads among those of one level: what the skill does to the user first (data leaving,
# funds, code run), then what it makes the agent do, then how it hides or what it ships.
CATEGORY_ORDER = (
    "exfiltration", "money", "rce", "credentials", "persistence", "injection", "destructive", "permissions",
    "resources", "obfuscation", "secrets", "supply-chain", "clone", "policy", "coverage",
)  # fmt: skip

# The card's sensitive classes (registry/score/card.py SENSITIVE_CLASSES) as a reader would say them.
CLASS_NOUNS = {
    "secret-like name": "a secret",
    "wallet key": "your crypto wallet key",
    "home-directory secret": "your credentials",
    "browser profile": "your browser data",
    "wallet": "your crypto wallet files",
    "agent configuration": "your agent's configuration",
    "skill folder": "your other skills",
    "shell startup": "your shell startup file",
    "scheduled job": "a scheduled job",
    "git hook": "a git hook",
    "ssh login": "your SSH login keys",
    "system": "a system file",
}

# What the rules call a dump of every environment variable (detectors, code/flows.py), said plainly.
WHOLE_ENVIRONMENT = "all your environment variables (secrets included)"

# Per rule, what the skill does, after "This skill". The first template whose fields the finding
# carries is used. Fields are the rule's message and summary parameters, plus those _Facts derives:
# url_host (the host of {url}), secret (the sensitive value a flow carries, named by its class),
# object (the value a "reads …"/"downloads …" phrase acts on), fetched_host (the host a helper
# contacts), and verbatim ({what} when it already says what the skill does).
PHRASES: dict[str, tuple[str, ...]] = {
    "R001": ("downloads a program from {url_host} and runs it", "downloads a program from {url} and runs it"),
    "R002": (
        "downloads a program from {url_host}, {host_kind}, and runs it",
        "downloads a program from {url}, {host_kind}, and runs it",
    ),
    "R003": ("decodes hidden {encoding} data and runs it as code",),
    "R004": ("hands control of your machine to a remote host ({how})",),
    "R005": ("{verbatim}", "offers a password-protected archive"),
    "R010": ("reads {target}",),
    "R011": ("reads a secret from your OS keychain ({how})",),
    "R020": ("sends {what} to {where}",),
    "R021": ("uses {host}, {host_kind}",),
    "R022": ("contacts {host}, an IP address without a host name",),
    "R030": ("deletes {target} recursively",),
    "R031": ("{verbatim}", "runs a command that destroys data: {what}"),
    "R040": ("adds {what} to your SSH authorized_keys, which lets its owner log in to your machine",),
    "R041": ("changes your SSH login keys ({target})",),
    "R042": ("installs a {what} that keeps running after the task",),
    "R043": ("makes the shell startup file {target} run {what}",),
    "R060": ("tells the agent to drop its own instructions: “{what}”",),
    "R061": ("tells the agent to hide what it does from you: “{what}”",),
    "R062": ("hides text the agent reads in invisible characters: “{decoded}”",),
    "R063": ("has code that displays differently from how it runs ({names})",),
    "R064": ("hides {count} invisible characters on one line",),
    "R050": ("embeds {what_short}", "embeds a long encoded blob in its code"),
    "R051": ("ships {what_short}", "ships a minified or packed script"),
    "R070": ("lets the agent run any shell command without asking",),
    "R080": ("runs what its own danger pattern '{pattern}' forbids",),
    "R100": ("has a helper script run {program}, which allowed-tools does not grant",),
    "R103": ("reads the secret ${name} without declaring it",),
    "R104": ("reads the wallet key ${name} without declaring it",),
    "R106": ("contacts {host} although it declares {declaration}",),
    "R107": ("{reads} in {source}, and {sink} {sends}",),
    "R108": ("{reads} in {source}, and {sink} {sends}",),
    "R109": ("has a helper script contact {fetched_host} behind the agent's back",),
    "R110": ("has a helper script open {target}, a page its instructions never mention",),
    "R112": ("reads {secret}",),
    "R113": ("reads {secret} and {verb} {host}",),
    "R115": ("has a script install {package} at run time without a version",),
    "R117": ("installs {source_text} from a URL",),
    "R118": ("has an install hook (`{command}`) that {does}",),
    "R120": ("sends {secret} to {where}",),
    "R121": ("reads {secret} and, in the same {unit}, sends data to {where}",),
    "R122": ("downloads a program from {object} and runs it",),
    "R123": ("downloads a program from {object} and runs it",),
    "R124": ("decodes hidden data and runs it as code",),
    "R125": ("collects data on your machine ({what}) and sends it to {where}",),
    "R126": ("collects data on your machine ({what}) and, in the same {unit}, sends data to {where}",),
    "R127": ("sets up {target} ({place}) to run code after the task is done",),
    "R128": ("writes {target} ({place}), which stays after the task",),
    "R130": ("tells the agent to skip confirmations or safety checks: “{what}”",),
    "R131": ("tells the agent to hide check or validation results: “{what}”",),
    "R132": ("tells the agent to report success whatever happened: “{what}”",),
    "R133": ("tells the agent to keep hidden state: “{what}”",),
    "R134": ("tells the agent to follow instructions fetched from elsewhere: “{what}”",),
    "R135": ("tells the agent to send your conversation out: “{what}”",),
    "R136": ("tells the agent to open a page before every task: “{what}”",),
    "R137": ("tells the agent to rewrite its own configuration: “{what}”",),
    "R138": ("asks for your wallet recovery phrase or private key: “{what}”",),
    "R139": ("tells the agent to send your wallet recovery phrase or private key out: “{what}”",),
    "R140": (
        "passes {what} through the file {file} to {host}",
        "passes data through the file {file} to a network send",
    ),
    "R141": (
        "passes {what} through the file {file} to {host}",
        "passes data through the file {file} to a network send",
    ),
    "R142": ("sends ${name}, {service}'s credential, to {host}",),
    "R143": ("tells the agent to {verb} {target} ({cls})",),
    "R144": ("tells the agent to send {what} to {host}{purpose}",),
    "R145": ("tells the agent to send {what} to {host}{purpose}",),
    "R146": ("installs {package}, {how} the popular package {popular}",),
    "R147": ("tells the agent to obey what a helper fetches from {host}",),
    "R148": ("tells the reader to download {url} and {verb} it",),
    "R151": ("ships an encrypted file that cannot be read",),
    "R152": ("ships a compression bomb",),
    "R153": ("ships an office document with macros",),
    "R154": ("ships a document with an embedded or remote object: it {what}",),
    "R155": ("hides content in a document: it {what}",),
    "R157": ("ships {format}, which cannot be reviewed by reading it",),
    "R158": ("hides content behind padding",),
    "R159": ("hides {kind} behind {what_short}", "hides commands or instructions behind padding"),
    "R161": ("reorders its text with bidirectional control characters",),
    "R162": ("hides an invisible character inside the address {url}",),
    "R163": ("hides an invisible character in a file name ({name})",),
    "R164": ("contacts {host}, {why_lookalike}", "contacts {host}, a host made to look like a well-known one"),
    "R165": ("names {host}, {why_lookalike}", "names {host}, a host made to look like a well-known one"),
    "R166": ("contains a hard-coded secret ({what})",),
    "R167": ("contains {what} in clear",),
    "R168": ("{verbatim}", "contains {what}"),
    "R169": ("{verbatim}", "contains {what}"),
    "R170": ("copies {other} by the {other_tier} publisher {other_publisher} and adds {what}",),
    "R190": ("{verbatim}", "grants root access: {what}"),
    "R191": ("{verbatim}", "turns off a security control: {what}"),
    "R192": ("{verbatim}", "adds a user to a privileged group: {what}"),
    "R193": ("{verbatim}", "overwrites shared history: {what}"),
    "R194": ("{verbatim}", "force-pushes a branch: {what}"),
}

# A rule's {what} or summary that starts with one of these already says what the skill does.
VERBS = frozenset(
    """adds appends asks connects contacts contains copies creates decodes defines deletes disables downloads
    dumps edits embeds executes extracts fetches force-pushes formats grants hands hides installs kills links lists
    loads makes modifies opens overwrites plants reads removes replaces requests runs sends sets ships spawns starts
    stops talks tells turns uploads uses wipes writes""".split()
)


@dataclass(frozen=True)
class Reason:
    text: str  # what the finding shows, in words, capitalised, no rule code
    code: str  # the rule, for index.json readers who match reasons to findings
    path: str  # the finding's file, relative to the source root as in findings
    line: int | None
    anchor: str  # the finding's id on the skill page (ANCHOR)


@dataclass(frozen=True)
class Verdict:
    level: str  # high or critical
    headline: str  # "This skill … ." (one sentence)
    reasons: tuple[Reason, ...]  # at most MAX_REASONS, the headline's finding first


def build(risk: RiskAssessment) -> Verdict | None:
    """The verdict of a high or critical assessment; None below high."""
    if risk.level not in SHOWN_LEVELS:
        return None
    anchors = {id(finding): ANCHOR.format(number) for number, finding in numbered(risk.findings)}
    card = risk.card  # unpickled at each read
    phrased = [
        (_rank(finding), finding, _phrase(finding, risk.params_of(finding), card))
        for finding in risk.findings
        if _rule_level(finding) != "low"
    ]
    phrased.sort(key=lambda entry: entry[0])
    if not phrased:
        return Verdict(risk.level, f"This skill is rated {risk.level}; see the risk analysis.", ())
    chosen = _pick(phrased)
    reasons = tuple(
        Reason(_cap(_capitalise(text)), finding.code, finding.path, finding.line, anchors[id(finding)])
        for finding, text in chosen
    )
    lead = chosen[0][1]
    return Verdict(risk.level, _cap(f"This skill {lead}" + ("" if lead.endswith((".", "…")) else ".")), reasons)


def numbered(findings: Iterable[Finding]) -> list[tuple[int, Finding]]:
    """The risk findings in the page's order (sort_key), numbered from 1 for their ids (ANCHOR)."""
    return list(enumerate(sorted(findings, key=lambda f: f.sort_key()), start=1))


def _pick(phrased: list[tuple[tuple, Finding, str]]) -> list[tuple[Finding, str]]:
    """Up to MAX_REASONS findings, best first: one per rule before a second of any, no phrase twice."""
    chosen: list[tuple[Finding, str]] = []
    texts: set[str] = set()
    for one_per_rule in (True, False):
        codes = {finding.code for finding, _ in chosen}
        for _, finding, text in phrased:
            if len(chosen) == MAX_REASONS:
                return chosen
            if text in texts or (one_per_rule and finding.code in codes):
                continue
            chosen.append((finding, text))
            texts.add(text)
            codes.add(finding.code)
    return chosen


def _rule_level(finding: Finding) -> str:
    rule = _RULES.get(finding.code)
    return rule.level if rule is not None and rule.level in LEVELS else "medium"


def _rank(finding: Finding) -> tuple:
    rule = _RULES.get(finding.code)
    category = rule.category if rule is not None else ""
    order = CATEGORY_ORDER.index(category) if category in CATEGORY_ORDER else len(CATEGORY_ORDER)
    return (-LEVELS.index(_rule_level(finding)), order, finding.sort_key())


def _phrase(finding: Finding, params: dict[str, str], card: CapabilityCard) -> str:
    rule = _RULES.get(finding.code)
    if rule is None:
        return _fallback(None, finding, finding.message)
    message = finding.message
    if rule.why and message.endswith(": " + rule.why):
        message = message[: -len(rule.why) - 2]
    try:
        summary = rule.summary.format(**params) if params else ""
    except (KeyError, IndexError, ValueError):
        summary = ""
    facts = _Facts(finding, params, card)
    for template in PHRASES.get(rule.code, ()):
        try:
            return template.format_map(facts)
        except (KeyError, IndexError, ValueError):
            continue
    return _fallback(rule, finding, summary or message)


def _fallback(rule: RiskRule | None, finding: Finding, text: str) -> str:
    """A rule without a phrase (a new one, or values it did not carry): its summary, else its title."""
    text = _value(text) if text else ""
    if text and text.split(" ", 1)[0] in VERBS:
        return text
    if rule is None:
        return f"has a finding ({text})" if text else "has a finding"
    return f"has a {_rule_level(finding)}-risk finding: {rule.title}" + (f" ({text})" if text else "")


class _Facts(Mapping[str, str]):
    """A finding's values for PHRASES, cleaned and capped; a missing or empty one is a KeyError."""

    def __init__(self, finding: Finding, params: dict[str, str], card: CapabilityCard):
        self.finding = finding
        self.params = params
        self.card = card

    def __getitem__(self, name: str) -> str:
        derive = getattr(self, f"_{name}", None)
        raw = derive() if name in _DERIVED and derive is not None else self.params.get(name, "")
        value = _value(raw)
        if not value and name != "purpose":
            raise KeyError(name)
        return value

    def __iter__(self):
        return iter(self.params)

    def __len__(self) -> int:
        return len(self.params)

    def _url_host(self) -> str:
        url = self.params.get("url", "").strip()
        try:
            parts = urlsplit(url)
        except ValueError:
            return ""
        return (parts.hostname or "") if parts.scheme in ("http", "https", "ftp") else ""

    def _verbatim(self) -> str:
        what = self.params.get("what", "").strip()
        return what if what.split(" ", 1)[0] in VERBS else ""

    def _object(self) -> str:
        """What "reads X (…)" or "downloads X" acts on: the summary's {where}, else the message's {what}."""
        if self.params.get("where") and self.finding.code in ("R122", "R123"):
            return self.params["where"]
        return _object_of(self.params.get("what", ""))

    def _fetched_host(self) -> str:
        words = self.params.get("what", "").split()
        for before, word in itertools.pairwise(words):
            if before in ("from", "contacts", "opens"):
                return word.rstrip(",.;")
        return ""

    def _program(self) -> str:
        if self.params.get("program"):
            return self.params["program"]
        what = self.params.get("what", "")
        start = what.find("runs `")
        end = what.find("`", start + 6) if start >= 0 else -1
        return what[start + 6 : end] if end > start else ""

    def _secret(self) -> str:
        """The sensitive value a flow finding starts from, named by its class when the card saw it there."""
        line = self.params.get("source_line", "")
        text = " ".join(self.params.values())
        for use in self.card.uses:
            seen_there = use.path == self.finding.path and str(use.line) == line
            if use.value == C.WHOLE_ENVIRONMENT:
                continue  # a dump, not a variable: said below in words
            if use.sensitive and seen_there and len(use.value) > 2 and use.value in text:
                value = f"${use.value}" if use.kind == ENV else use.value
                noun = CLASS_NOUNS.get(use.sensitive)
                return f"{noun} ({value})" if noun else value
        if self.params.get("target") and self.finding.code in ("R112", "R113"):
            return "the wallet key " + self.params["target"]
        sent = self.params.get("short", "") or _object_of(self.params.get("what", ""))
        return WHOLE_ENVIRONMENT if sent.startswith(C.WHOLE_ENVIRONMENT) else sent


_DERIVED = frozenset({"url_host", "verbatim", "object", "fetched_host", "secret", "program"})


def _object_of(what: str) -> str:
    """ "reads ~/.netrc (a home-directory secret)" -> "~/.netrc"; "downloads 198.51.100.14" -> the host."""
    words = what.strip().split(" ", 1)
    if len(words) < 2 or words[0] not in VERBS:
        return ""
    rest = words[1]
    if rest.endswith(")") and " (" in rest:
        rest = rest[: rest.rindex(" (")]
    return rest


def _value(raw: object) -> str:
    text = show(str(raw))
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def _cap(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- for the page and index.json ----------------------------------------------------------------


@dataclass(frozen=True)
class ReasonView:
    text: str
    where: str  # file:line relative to the skill folder
    anchor: str


@dataclass(frozen=True)
class VerdictView:
    level: str
    headline: str
    reasons: tuple[ReasonView, ...]


def _relative(path: str, shown: str) -> str:
    prefix = "" if shown in (".", "") else shown.rstrip("/") + "/"
    return path[len(prefix) :] if prefix and path.startswith(prefix) else path


def page_view(verdict: Verdict | None, shown: str) -> VerdictView | None:
    """The verdict as the skill page shows it; `shown` is the skill's folder (paths are relative to it)."""
    if verdict is None:
        return None
    reasons = []
    for reason in verdict.reasons:
        path = _relative(reason.path, shown)
        reasons.append(ReasonView(reason.text, f"{path}:{reason.line}" if reason.line else path, reason.anchor))
    return VerdictView(verdict.level, verdict.headline, tuple(reasons))


def index_entry(verdict: Verdict | None, shown: str, page_url: str) -> dict[str, Any] | None:
    """The verdict for index.json (schema/index.schema.json#/$defs/verdict), or None below high."""
    if verdict is None:
        return None
    return {
        "headline": verdict.headline,
        "reasons": [
            {
                "text": reason.text,
                "code": reason.code,
                "path": _relative(reason.path, shown),
                "line": reason.line,
                "url": f"{page_url}#{reason.anchor}",
            }
            for reason in verdict.reasons
        ],
    }

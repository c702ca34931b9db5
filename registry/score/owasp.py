"""Where each risk rule sits: the attack families of docs/threats and the OWASP Agentic Skills Top 10.

Two views of every risk rule, for the documentation (docs/risk.md), the SARIF tags and reviewers:

- `FAMILIES`: the twelve attack families malicious skills fall into (code delivery, credential
  access, exfiltration, ... money), as the registry's threat model lists them. A rule can serve
  several families (a decoded payload executed is obfuscation and code delivery).
- `CATEGORIES`: the OWASP Agentic Skills Top 10 (AST10), the OWASP project on the security of
  agent skills themselves (SKILL.md, skill.json, manifest.json). It is a draft: an OWASP Incubator
  project whose README calls itself "v1.0 (2026 Edition)" while under public review; the ids and
  titles below are those of its risk summary (`SOURCE`). Earlier drafts named AST05 "Unsafe
  Deserialization"; the current one names it "Untrusted External Instructions".

`MAPPING` gives, for every rule code in `registry.score.risk.assessment.RULES`, its families and its AST10
category, or None with the reason when no category fits (a note about coverage is not a risk of
the skill). A test fails when a risk rule has no entry here.

This module declares data only and imports no rule module, so any of them may import it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

SOURCE = "OWASP Agentic Skills Top 10 (AST10), v1.0 2026 edition, Incubator draft"
SOURCE_URL = "https://github.com/OWASP/www-project-agentic-skills-top-10"


@dataclass(frozen=True)
class Category:
    id: str
    title: str
    severity: str  # as AST10 rates the risk: critical, high or medium
    summary: str  # one line, in our words


CATEGORIES: tuple[Category, ...] = (
    Category(
        "AST01",
        "Malicious Skills",
        "critical",
        "a skill that looks useful and carries a payload: stealers, backdoors, reverse shells, harmful "
        "instructions in its prose",
    ),
    Category(
        "AST02",
        "Supply Chain Compromise",
        "critical",
        "what the skill pulls in at install or run time (packages, scripts, copies of other skills) "
        "is not what was reviewed",
    ),
    Category(
        "AST03",
        "Over-Privileged Skills",
        "high",
        "permissions, tools or secrets far broader than the skill's stated function",
    ),
    Category(
        "AST04",
        "Insecure Metadata",
        "high",
        "names, descriptions and declarations that misstate what the skill is or does, text hidden from reviewers",
    ),
    Category(
        "AST05",
        "Untrusted External Instructions",
        "high",
        "instructions or content fetched at run time from a source that can change after review",
    ),
    Category(
        "AST06", "Weak Isolation", "high", "sandboxes, permission prompts and confirmations turned off or bypassed"
    ),
    Category(
        "AST07", "Update Drift", "medium", "unpinned versions and mutable references that change under a reviewed skill"
    ),
    Category(
        "AST08",
        "Poor Scanning",
        "medium",
        "content that defeats reading and scanning: encoded, packed, padded or unreadable",
    ),
    Category(
        "AST09",
        "No Governance",
        "medium",
        "changes that outlive the task and escape inventory: persistence, edits to the agent's own configuration",
    ),
    Category(
        "AST10",
        "Cross-Platform Reuse",
        "medium",
        "skills copied and ported between registries and platforms without their provenance",
    ),
)
CATEGORY_BY_ID = {category.id: category for category in CATEGORIES}

# The attack families of the registry's threat model (shared/docs/threats.md), numbered as there.
FAMILIES: dict[int, str] = {
    1: "Code delivery",
    2: "Credential and secret access",
    3: "Exfiltration",
    4: "Instruction manipulation",
    5: "Indirect injection",
    6: "Persistence",
    7: "Privilege and tool abuse",
    8: "Obfuscation and evasion",
    9: "Supply chain",
    10: "Resource abuse and destruction",
    11: "Reconnaissance",
    12: "Money",
}


@dataclass(frozen=True)
class RuleMapping:
    families: tuple[int, ...]  # FAMILIES numbers, the main one first; () when the rule is no attack family
    owasp: str | None  # a CATEGORIES id, or None ...
    reason: str = ""  # ... and then why none fits

    def category(self) -> Category | None:
        return CATEGORY_BY_ID.get(self.owasp) if self.owasp else None


def _m(owasp: str | None, *families: int, reason: str = "") -> RuleMapping:
    return RuleMapping(tuple(families), owasp, reason)


_POLICY = "the skill's own declared danger pattern matched: a policy signal, whatever it guards against"

MAPPING: dict[str, RuleMapping] = {
    # remote code execution
    "R001": _m("AST02", 1, 9),
    "R002": _m("AST01", 1),
    "R006": _m("AST02", 1, 9),
    "R003": _m("AST01", 8, 1),
    "R004": _m("AST01", 1),
    "R005": _m("AST01", 1, 8),
    # credential access
    "R010": _m("AST01", 2),
    "R011": _m("AST03", 2),
    # exfiltration
    "R020": _m("AST01", 3, 2),
    "R021": _m("AST01", 3),
    "R022": _m("AST01", 3),
    # destructive
    "R030": _m("AST01", 10),
    "R031": _m("AST01", 10),
    # persistence
    "R040": _m("AST01", 6),
    "R041": _m("AST09", 6),
    "R042": _m("AST09", 6),
    "R043": _m("AST09", 6),
    # obfuscation
    "R050": _m("AST08", 8),
    "R051": _m("AST08", 8),
    # prompt injection
    "R060": _m("AST01", 4),
    "R061": _m("AST01", 4),
    "R062": _m("AST04", 4, 8),
    "R063": _m("AST04", 8),
    "R064": _m("AST04", 8),
    # permissions
    "R070": _m("AST03", 7),
    "R071": _m("AST03", 7),
    # the skill's own danger patterns, coverage
    "R080": _m(None, reason=_POLICY),
    "R090": _m("AST08", 8),
    # card rules (card_rules/): declared against used, flows across files, money, supply chain, prose
    "R100": _m("AST04", 7),
    "R101": _m("AST04", 7),
    "R102": _m("AST03", 7),
    "R103": _m("AST03", 2),
    "R104": _m("AST03", 12, 2),
    "R105": _m("AST04", 7),
    "R106": _m("AST04", 3),
    "R107": _m("AST01", 3, 2),
    "R108": _m("AST01", 3, 2),
    "R109": _m("AST05", 5, 3),
    "R110": _m("AST05", 5),
    "R111": _m("AST05", 5),
    "R112": _m("AST03", 12),
    "R113": _m("AST01", 12, 3),
    "R114": _m("AST07", 9, 1),
    "R115": _m("AST02", 9, 1),
    "R116": _m("AST07", 9),
    "R117": _m("AST02", 9, 1),
    "R118": _m("AST02", 9, 1),
    "R119": _m("AST02", 9),
    "R140": _m("AST01", 3, 2),
    "R141": _m("AST01", 3),
    "R142": _m("AST01", 3, 2),
    "R143": _m("AST01", 2, 3),
    "R144": _m("AST01", 3, 2),
    "R145": _m("AST01", 3, 2),
    "R146": _m("AST07", 9),
    "R147": _m("AST05", 5, 4),
    "R148": _m("AST02", 1),
    # flows inside one script or code block (code_rules.py)
    "R120": _m("AST01", 3, 2),
    "R121": _m("AST01", 3, 2),
    "R122": _m("AST02", 1),
    "R123": _m("AST01", 1),
    "R124": _m("AST01", 8, 1),
    "R125": _m("AST01", 11, 3),
    "R126": _m("AST01", 11, 3),
    "R127": _m("AST09", 6, 1),
    "R128": _m("AST09", 6),
    # defences lowered and shared history lost, read from parsed commands (code_rules.py)
    "R190": _m("AST03", 7, 6),
    "R191": _m("AST03", 7),
    "R192": _m("AST03", 7),
    "R193": _m("AST01", 10),
    "R194": _m("AST01", 10),
    # instruction analysis (instructions/)
    "R130": _m("AST06", 7, 4),
    "R131": _m("AST01", 4),
    "R132": _m("AST01", 4),
    "R133": _m("AST09", 4, 6),
    "R134": _m("AST05", 5),
    "R135": _m("AST01", 3),
    "R136": _m("AST05", 5),
    "R137": _m("AST09", 6, 4),
    "R138": _m("AST03", 12, 2),
    "R139": _m("AST01", 12, 3),
    # every byte (every_byte/): what defeats reading is AST08; text hidden from the reader
    # but read by the model is AST04's steganographic injection
    "R150": _m("AST08", 8),
    "R151": _m("AST08", 8),
    "R152": _m("AST08", 8, 10),
    "R153": _m("AST01", 8, 1),
    "R154": _m("AST05", 8, 5),
    "R155": _m("AST04", 4, 8),
    "R156": _m("AST04", 4),
    "R157": _m("AST08", 8),
    "R158": _m("AST08", 8),
    "R159": _m("AST08", 8, 1),
    "R160": _m("AST08", 8),
    "R161": _m("AST04", 8, 4),
    "R162": _m("AST04", 8, 3),
    "R163": _m("AST04", 8),
    "R164": _m("AST01", 3, 8),
    "R165": _m("AST04", 8),
    # hard-coded secrets leak whatever they open (AST03's "leaky skills"); resource abuse
    "R166": _m("AST03", 12, 2),
    "R167": _m("AST03", 12, 2),
    "R168": _m("AST01", 10),
    "R169": _m("AST01", 10),
    # clones (clone_rules.py): a trusted skill republished with additions rides on its name (AST02);
    # a copy without its provenance is the reuse AST10 describes
    "R170": _m("AST02", 9),
    "R171": _m("AST10", 9),
}


def mapping_for(code: str) -> RuleMapping | None:
    return MAPPING.get(code) or _recorded().get(code)


@functools.cache
def _recorded() -> dict[str, RuleMapping]:
    """The mappings the family modules keep in each rule's record (registry/score/families/)."""
    from registry.score import families  # families import the risk rules, which must not wait for this module

    return {rule.code: RuleMapping(rule.families, rule.owasp) for rule in families.RULES}


def owasp_label(code: str) -> str:
    """'AST01 Malicious Skills', or '' when the rule maps to no category (or is not mapped yet)."""
    mapping = mapping_for(code)
    category = mapping.category() if mapping else None
    return f"{category.id} {category.title}" if category else ""


def family_labels(code: str) -> list[str]:
    """'1 Code delivery', ... for the rule's families, main one first."""
    mapping = mapping_for(code)
    return [f"{number} {FAMILIES[number]}" for number in mapping.families] if mapping else []

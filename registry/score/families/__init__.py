"""Attack families, one module each: every rule's record beside the check that fires it.

A family module declares its rules with `rule(...)` (code, level, families, OWASP category, message,
fix, examples, all by keyword), the facts its reading reports and the rule each is given (`ROWS`, rows of the
one fact table in risk/assessment.py), and one `check(skill, card, files)` that returns facts. Adding a
rule touches its family module and that family's cases, nothing else: risk/assessment.py runs every
module listed in FAMILIES, owasp.py reads each record's mapping, docs/risk.md lists them.

A family that reads facts no other analyser records (text written into an agent instruction file, a
package registry's host) also has `analyse(skill, files, contents, shown)`: its uses join the card
before any check runs, and its findings join the others.
"""

from __future__ import annotations

from collections.abc import Mapping

from registry.model import Skill
from registry.score.card import AnalyserResult
from registry.score.families import agent_config, code_channels, hidden_channels, intent, lures
from registry.score.risk.lines import TextFile

FAMILIES = (lures, code_channels, intent, agent_config, hidden_channels)
RULES = tuple(rule for family in FAMILIES for rule in family.RULES)
# What the family modules read and the rule each fact is given: their rows of the one fact table.
ROWS = tuple(row for family in FAMILIES for row in getattr(family, "ROWS", ()))


def analyse(skill: Skill, files: list[TextFile], contents: Mapping[str, bytes], shown: str) -> AnalyserResult:
    """The family modules' own reading: text written into the agent's instruction files, hidden channels."""
    result = AnalyserResult()
    for family in FAMILIES:
        read = getattr(family, "analyse", None)
        if read is not None:
            found = read(skill, files, contents, shown)
            result.uses += found.uses
            result.items += found.items
            result.facts += found.facts
            result.coverage += found.coverage
    return result

"""Attack families, one module each: every rule's record beside the check that fires it.

A family module declares its rules with `rule(...)` (code, level, families, OWASP category, message,
fix, examples, all by keyword) and one `check(skill, card, files)` that returns risk items. Adding a
rule touches its family module and that family's cases, nothing else: risk/assessment.py runs every
module listed in FAMILIES, owasp.py reads each record's mapping, docs/risk.md lists them.
"""

from __future__ import annotations

from registry.score.families import lures

FAMILIES = (lures,)
RULES = tuple(rule for family in FAMILIES for rule in family.RULES)

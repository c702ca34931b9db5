"""The attack-family modules (registry/score/families/): every rule's record and the fixtures it carries.

Each record's `examples` must fire its rule (at its level or above) and its `near_misses` must not.
Fixtures are inert text written to a temporary skill folder; nothing is executed. Hosts are fictional
or documentation addresses; the free-hosting and paste hosts are real services, named as kinds of host.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from test_risk import codes, md, run

from registry.score import code_rules, families, owasp
from registry.score.families.record import FamilyRule, Fixture
from registry.score.risk import assessment


def _files(fixture: Fixture) -> dict[str, str]:
    if isinstance(fixture, str):
        return {"SKILL.md": md(fixture)}
    files = dict(fixture)
    files.setdefault("SKILL.md", md("Run the helper in scripts/ when the user asks."))
    return files


EXAMPLES = [(rule, number, example) for rule in families.RULES for number, example in enumerate(rule.examples)]
NEAR_MISSES = [(rule, number, near) for rule in families.RULES for number, near in enumerate(rule.near_misses)]


@pytest.mark.parametrize(
    ("rule", "fixture"), [(r, f) for r, _, f in EXAMPLES], ids=[f"{r.code}-{n}" for r, n, _ in EXAMPLES]
)
def test_example_fires(tmp_path: Path, rule: FamilyRule, fixture: Fixture) -> None:
    result = run(tmp_path, _files(fixture))
    assert rule.code in codes(result), [(f.code, f.line, f.excerpt) for f in result.findings]
    finding = next(f for f in result.findings if f.code == rule.code)
    assert finding.line and finding.hint and rule.why in finding.message
    assert assessment.LEVELS.index(result.level) >= assessment.LEVELS.index(rule.level)


@pytest.mark.parametrize(
    ("rule", "fixture"), [(r, f) for r, _, f in NEAR_MISSES], ids=[f"{r.code}-{n}" for r, n, _ in NEAR_MISSES]
)
def test_near_miss_does_not_fire(tmp_path: Path, rule: FamilyRule, fixture: Fixture) -> None:
    result = run(tmp_path, _files(fixture))
    assert rule.code not in codes(result), [(f.code, f.line, f.excerpt) for f in result.findings]


def test_every_family_rule_is_a_full_record() -> None:
    recorded = [rule.code for rule in families.RULES]
    assert len(recorded) == len(set(recorded))
    assert set(recorded) <= {rule.code for rule in assessment.RULES}
    for rule in families.RULES:
        assert isinstance(rule, FamilyRule)
        assert rule.families and rule.owasp and rule.why and rule.hint and rule.summary
        assert len(rule.examples) >= 2 and len(rule.near_misses) >= 2, f"{rule.code}: two examples and two near misses"
        assert all(isinstance(f, str | Mapping) for f in (*rule.examples, *rule.near_misses))
        mapping = owasp.mapping_for(rule.code)
        assert mapping is not None and mapping.category() is not None


def test_every_rule_a_table_names_exists() -> None:
    known = {rule.code for rule in assessment.RULES}
    named = set(owasp.MAPPING) | set(code_rules.SUPERSEDED_BY)
    named |= {code for codes_ in code_rules.SUPERSEDED_BY.values() for code in codes_}
    named |= set(assessment._SUPERSEDES) | {code for codes_ in assessment._SUPERSEDES.values() for code in codes_}
    for first, second, _, _ in assessment.ESCALATIONS:
        named |= first | second
    named |= set(assessment.TELLS)
    assert named - known == set()

"""The risk documentation: every rule mapped to its families and OWASP category, docs/risk.md current."""

import re

from click.testing import CliRunner
from conftest import REPO_ROOT

from registry.cli import main
from registry.reference.risk import risk_markdown
from registry.score import owasp
from registry.score.risk import assessment as risk_assessment


def test_every_risk_rule_has_a_family_and_owasp_entry():
    missing = [rule.code for rule in risk_assessment.RULES if owasp.mapping_for(rule.code) is None]
    assert not missing, f"add these rules to registry/score/owasp.py MAPPING: {missing}"


def test_every_mapping_entry_is_a_risk_rule():
    codes = {rule.code for rule in risk_assessment.RULES}
    assert not set(owasp.MAPPING) - codes, "MAPPING names rules that no longer exist"


def test_mapping_entries_are_well_formed():
    for code, mapping in owasp.MAPPING.items():
        assert all(number in owasp.FAMILIES for number in mapping.families), code
        assert len(set(mapping.families)) == len(mapping.families), code
        if mapping.owasp is None:
            assert mapping.reason, f"{code}: say why no OWASP category fits"
        else:
            assert mapping.owasp in owasp.CATEGORY_BY_ID, code
            assert not mapping.reason, f"{code}: a reason is only for rules without a category"
        assert mapping.families or mapping.owasp is None, f"{code}: a mapped risk belongs to a family"


def test_categories_are_the_ten_ast_ids_in_order():
    assert [c.id for c in owasp.CATEGORIES] == [f"AST{n:02d}" for n in range(1, 11)]
    assert all(c.title and c.summary and c.severity in ("critical", "high", "medium") for c in owasp.CATEGORIES)
    assert list(owasp.FAMILIES) == list(range(1, 13))


def test_labels():
    assert owasp.owasp_label("R002") == "AST01 Malicious Skills"
    assert owasp.family_labels("R003") == ["8 Obfuscation and evasion", "1 Code delivery"]
    assert owasp.owasp_label("R080") == "" and owasp.owasp_label("Z999") == "" and owasp.family_labels("Z999") == []


def test_risk_md_explains_every_rule_and_escalation():
    text = risk_markdown()
    for rule in risk_assessment.RULES:
        row = next((line for line in text.splitlines() if line.startswith(f"| `{rule.code}` | {rule.level} |")), None)
        assert row is not None, rule.code
        mapping = owasp.mapping_for(rule.code)
        if mapping and mapping.owasp:
            assert owasp.owasp_label(rule.code) in row, rule.code
    for first, second, _scope, why in risk_assessment.ESCALATIONS:
        assert any(why in line and all(f"`{c}`" in line for c in first | second) for line in text.splitlines())
    assert "never that a skill is safe" in text and "not analysed" in text
    # every context a rule can read is described
    for context in ("code", "inline", "prose", "config", "data", "comment"):
        assert re.search(rf"^\| `{context}` \| \S", text, re.MULTILINE), context


def test_docs_risk_md_is_current():
    assert (REPO_ROOT / "docs" / "risk.md").read_text() == risk_markdown(), "run: skill-registry docs"


def test_docs_command_writes_risk_md(tmp_path):
    result = CliRunner().invoke(main, ["docs", "--out", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0
    assert (tmp_path / "risk.md").read_text() == risk_markdown()
    assert (tmp_path / "rules.md").exists() and (tmp_path / "policy.md").exists()


def test_every_attack_family_has_a_rule():
    """Issue 12's target: every family of the threat model is detected by at least one rule."""
    mappings = [owasp.mapping_for(rule.code) or owasp.RuleMapping((), None) for rule in risk_assessment.RULES]
    covered = {number for mapping in mappings for number in mapping.families}
    assert set(owasp.FAMILIES) - covered == set()

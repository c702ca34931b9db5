import re

from conftest import REPO_ROOT

from registry.policy import policy_markdown
from registry.reference.catalog import all_rules, markdown_table


def test_codes_are_unique_and_well_formed():
    codes = [rule.code for rule in all_rules()]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"[A-Z][0-9]{3}", code) for code in codes)


def test_every_rule_has_a_message_a_fix_and_an_example():
    for rule in all_rules():
        assert rule.title and rule.message and rule.hint and rule.example, rule.code


def test_docs_rules_md_is_current():
    assert (REPO_ROOT / "docs" / "rules.md").read_text() == markdown_table(), "run: skill-registry docs"


def test_docs_policy_md_is_current():
    assert (REPO_ROOT / "docs" / "policy.md").read_text() == policy_markdown(), "run: skill-registry docs"

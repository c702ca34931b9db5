"""Bouno: arguments with $name / ${name} substitution, flags, requires.tools, the 10-character body."""

import re

import pytest
from dialect_support import SEEDS, codes, corpus_skills, only, skill_from_text

from registry.dialects.bouno import RULES, BounoDialect


def seed_block(marker: str) -> str:
    text = (SEEDS / "000_95634be2eaaba062.txt").read_text()
    start = text.index("```markdown\n", text.index(marker)) + len("```markdown\n")
    return text[start : text.index("\n```\n", start)] + "\n"


def test_seed_format_example():
    skill = skill_from_text(seed_block("## SKILL.md Format"), folder="my-skill", dedent=False)
    assert "bouno" in skill.dialects
    assert [(a.name, a.required, a.default, a.description) for a in skill.arguments] == [
        ("query", True, None, "The search query"),
        ("limit", False, "10", "Max number of results"),
    ]
    assert skill.settings == {"user-invocable": True, "auto-discover": False}
    assert skill.requires == {"tools": ["get_page_text"]}
    # `limit` is declared but the instructions only mention $query and ${query}
    assert codes(skill.findings, ("B",)) == ["B007"]
    assert "argument 'limit' is declared but the body never refers to $limit or ${limit}" in skill.findings[-1].message


def test_seed_parameterized_example_is_clean():
    skill = skill_from_text(seed_block("## Example: Parameterized Skill"), folder="find-on-page", dedent=False)
    assert [a.name for a in skill.arguments] == ["query"]
    assert codes(skill.findings, ("B",)) == []


def test_seed_minimal_example_is_not_claimed():
    # user-invocable and auto-discover: auto-discover makes it Bouno's
    skill = skill_from_text(seed_block("## Example: Minimal Skill"), folder="screenshot-page", dedent=False)
    assert "bouno" in skill.dialects and codes(skill.findings, ("B",)) == []


def test_no_corpus_skill_is_claimed():
    skills, _ = corpus_skills()
    assert not [path for path, skill in skills.items() if "bouno" in skill.dialects]


def bouno(body: str, extra: str = "") -> str:
    return (
        "---\nname: demo\ndescription: d\nauto-discover: true\n"
        "arguments:\n  - name: query\n    description: Search text\n    required: true\n"
        "  - name: url\n"
        f"{extra}---\n\n{body}"
    )


def test_undeclared_references_outside_code_only():
    body = (
        "Search for ${query} at $url.\n\n"
        "Use ${other} here, and $qeury by mistake; $price and $HOME and $1 and ${CLAUDE_PLUGIN_ROOT} are fine.\n\n"
        "```bash\necho $unknown ${also_unknown}\n```\n\n"
        "Inline `${inline}` code is fine too.\n"
    )
    skill = skill_from_text(bouno(body))
    found = only(skill.findings, "B006")
    assert [(f.message.split(",")[0], f.column) for f in found] == [
        ("the body refers to ${other}", 5),
        ("the body refers to $qeury", 24),
    ]
    assert found[0].line == skill.document.body_line + 3
    assert "(query, url)" in found[0].message


def test_references_in_code_count_as_uses():
    skill = skill_from_text(bouno("Look it up.\n\n```\nfetch ${url} for $query\n```\n"))
    assert codes(skill.findings, ("B",)) == []


def test_argument_and_field_rules():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nauto-discover: sometimes\nallowed-tools: read_page screenshot\n"
        "requires:\n  tools: [read_page]\n"
        "arguments:\n  - name: a\n    required: maybe\n    default: [1]\n  - {description: no name}\n  - name: a\n"
        "  - plain\n---\n\nUse $a well.\n"
    )
    assert codes(skill.findings, ("B",)) == ["B002", "B003", "B004", "B005", "B005", "B008", "B009"]
    assert skill.requires == {"tools": ["read_page"]}


def test_required_tool_outside_allowed_tools():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nauto-discover: true\nallowed-tools: [read_page]\n"
        "requires:\n  tools: [screenshot, read_page]\n---\n\nTake a screenshot.\n"
    )
    assert codes(skill.findings, ("B",)) == ["B011"]
    assert "'screenshot'" in skill.findings[-1].message


def test_short_body_and_requires_shape():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nauto-discover: true\nrequires: read_page\n---\n\nDo it.\n"
    )
    assert codes(skill.findings, ("B",)) == ["B010", "B012"]


def test_detection():
    dialect = BounoDialect()
    assert dialect.detect({"auto-discover": "false"}, "")
    assert dialect.detect({"arguments": [{"name": "q"}]}, "")
    assert dialect.detect({"requires": {"tools": ["x"]}}, "")
    assert not dialect.detect({"arguments": "<query>"}, "")  # Claude Code's string form
    assert not dialect.detect({"arguments": ["query"]}, "")  # Claude Code's list of names
    assert not dialect.detect({"user-invocable": "true", "allowed-tools": ["Read"]}, "")
    assert not dialect.detect({"requires": ["shell"]}, "")  # wolffi.sh's


def test_claude_code_arguments_are_left_alone():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nauto-discover: true\narguments: [issue]\n---\n\nFix issue $issue now.\n"
    )
    assert codes(skill.findings, ("B",)) == []
    assert [a.name for a in skill.arguments] == ["issue"]  # filled by the Claude Code dialect


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_codes_are_stable_and_documented(rule):
    assert re.fullmatch(r"B0\d\d", rule.code)
    assert [r.code for r in RULES].count(rule.code) == 1
    assert rule.title and rule.message and rule.hint and rule.example


def test_arguments_not_a_list():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nauto-discover: true\narguments: {query: text}\n---\n\nSearch for things.\n"
    )
    assert codes(skill.findings, ("B",)) == ["B001"]
    assert skill.findings[-1].line == 5


def test_argument_findings_point_at_the_entry():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nauto-discover: true\narguments:\n  - name: a\n    required: maybe\n"
        "  - {name: b, default: [1]}\n  - name: a\n---\n\nUse $a and $b.\n"
    )
    assert [(f.code, f.line) for f in skill.findings if f.code.startswith("B")] == [
        ("B005", 6),
        ("B005", 8),
        ("B004", 9),
    ]

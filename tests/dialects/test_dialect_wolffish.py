"""wolffi.sh: triggers, tools in both parameter forms, danger/confirm regexes, requires."""

import re

import pytest
from dialect_support import SEEDS, codes, corpus_findings, corpus_skills, only, registry_findings, skill_from_text

from registry.dialects.wolffish import RULES, WolffishDialect, regex_error


def corpus(name):
    skills, _ = corpus_skills()
    return skills[f"wolffish-app/{name}/SKILL.md"]


def test_shell_capability():
    skill = corpus("shell")
    assert "wolffish" in skill.dialects
    assert len(skill.triggers) > 100
    (tool,) = skill.tools
    assert tool.name == "shell_exec"
    assert [(p.name, p.type, p.required) for p in tool.parameters] == [
        ("command", "string", True),  # no `required:` means required for wolffish-app
        ("cwd", "string", False),
        ("timeout", "number", False),
        ("background", "boolean", False),
    ]
    first = skill.danger_patterns[0]
    assert (first.pattern, first.level, first.reason) == (
        r"rm\s+(-rf|--recursive)",
        "destructive",
        "Recursive force delete",
    )
    assert all(p.level is None for p in skill.confirm_patterns)
    assert codes(corpus_findings("wolffish-app/shell/SKILL.md"), ("W",)) == []


def test_whole_corpus_source_is_read():
    skills, _ = corpus_skills()
    wolffish = {p: s for p, s in skills.items() if p.startswith("wolffish-app/")}
    assert len(wolffish) == 39 and all("wolffish" in s.dialects for s in wolffish.values())
    assert sum(len(s.tools) for s in wolffish.values()) == 349
    assert sum(len(s.danger_patterns) for s in wolffish.values()) == 48
    assert sum(len(s.confirm_patterns) for s in wolffish.values()) == 79
    # Files over 50 KB, over 1,000 lines, with 100+ triggers: no size complaints from this dialect.
    big = corpus("github")
    assert len(big.document.text.encode()) > 50_000
    found = [f for p in wolffish for f in corpus_findings(p) if f.code.startswith("W")]
    assert [(f.code, f.path) for f in found] == [("W001", "wolffish-app/workflow/SKILL.md")]


def test_requires_checked_against_the_registry():
    skill = corpus("git")
    assert skill.requires == {"skills": ["shell"]}
    assert registry_findings(skill, names=["git", "shell"]) == []
    (missing,) = registry_findings(skill, names=["git"])
    assert missing.code == "W022" and missing.line == skill.document.key_lines["requires"] + 1
    assert "requires 'shell', which is not published in this registry" in missing.message


def test_seed_example_json_schema_tools():
    text = (SEEDS / "004_98485df8266df469.txt").read_text()
    start = text.index("```yaml theme={null}\n") + len("```yaml theme={null}\n")
    yaml_block = text[start : text.index("```", start)]
    skill = skill_from_text(
        yaml_block + "\n# Body\n\nInstructions for the model.\n", folder="my-capability", dedent=False
    )
    assert "wolffish" in skill.dialects
    (tool,) = skill.tools
    assert [(p.name, p.type, p.required) for p in tool.parameters] == [
        ("arg1", "string", True),
        ("arg2", "number", False),
    ]
    assert [p.pattern for p in skill.danger_patterns] == ["rm -rf", "sudo"]
    assert skill.requires == {"skills": ["shell"]}
    # JSON Schema parameters (W008) and plain-string patterns (W014) are what the loader does not read
    assert codes(skill.findings, ("W",)) == ["W008", "W014", "W014", "W014", "W014"]


def test_invalid_regexes():
    text = r"""
        ---
        name: demo
        description: d
        triggers: [demo]
        danger_patterns:
          - pattern: 'rm\s+(-rf'
            level: block
            reason: Broken group
          - pattern: '(?i)sudo'
            level: block
            reason: Python-only flag
          - pattern: '(?<name>x)\k<name>'
            level: warn
            reason: JavaScript named group
          - pattern: '(?<=a|bc)d'
            level: warn
            reason: Variable look-behind is JavaScript
          - pattern: '\cC'
            level: high
          - level: block
            reason: No pattern
        ---

        Body text.
        """
    skill = skill_from_text(text)
    assert codes(skill.findings, ("W",)) == ["W013", "W015", "W016", "W017", "W018", "W020"]
    invalid = only(skill.findings, "W015")[0]
    # the pattern starts in column 15 of `  - pattern: 'rm\s+(-rf'`; the open group is at position 5
    assert (invalid.line, invalid.column) == (6, 20)
    assert "missing ), unterminated subpattern at position 5" in invalid.message
    assert only(skill.findings, "W016")[0].column == 15


def test_regex_error_positions_map_back_through_translation():
    _message, position, shared = regex_error(r"(?<n>x)(")
    assert (position, shared) == (7, True)
    assert regex_error(r"(?<=ab|c)d") is None
    assert regex_error(r"[^]") == ("unterminated character set", 0, False)
    assert regex_error(r"[z-a]")[2] is True


def test_tools_rules():
    text = """
        ---
        name: demo
        description: d
        triggers: ["*"]
        tools:
          - name: shell exec
            parameters:
              command: string
              mode:
                type: str
                required: perhaps
          - name: ok_tool
            description: Fine.
            parameters:
              type: object
              properties:
                a: {type: string}
              required: [a, b]
          - name: ok_tool
            description: Again.
          - just text
        confirm_patterns: nope
        requires: {shell: true}
        ---

        Body text.
        """
    skill = skill_from_text(text)
    expected = ["W003", "W004", "W005", "W006", "W007", "W008", "W009", "W009", "W010", "W011", "W012"]
    assert codes(skill.findings, ("W",)) == expected
    assert skill.triggers == ["*"]
    assert skill.requires == {}  # Bouno's mapping form is not wolffi.sh's


def test_trigger_rules():
    skill = skill_from_text("---\nname: demo\ndescription: d\ntriggers: git\ntools: []\n---\n\nBody.\n")
    assert codes(skill.findings, ("W",)) == ["W002"]
    skill = skill_from_text("---\nname: demo\ndescription: d\ntriggers: [a, [b]]\nrequires: [x, [y]]\n---\n\nBody.\n")
    assert codes(skill.findings, ("W",)) == ["W002", "W021"]
    assert skill.requires == {"skills": ["x"]}


def test_detection():
    dialect = WolffishDialect()
    assert dialect.detect({"confirm_patterns": []}, "")
    assert dialect.detect({"tools": [{"name": "x"}]}, "")
    assert dialect.detect({"requires": ["shell"]}, "")
    assert dialect.detect({"triggers": ["*"], "tools": []}, "")
    assert not dialect.detect({"triggers": ["a"]}, "")  # ClawHub uses triggers too
    assert not dialect.detect({"tools": "Read, Grep"}, "")  # Claude Code plugin style
    assert not dialect.detect({"tools": ["bottube_browse"]}, "")


def test_clawhub_triggers_are_not_claimed():
    skills, _ = corpus_skills()
    claw = [
        s
        for p, s in skills.items()
        if p.startswith("clawhub-archive-sample/") and "triggers" in (s.document.frontmatter or {})
    ]
    assert claw and not any("wolffish" in s.dialects for s in claw)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_codes_are_stable_and_documented(rule):
    assert re.fullmatch(r"W0\d\d", rule.code)
    assert [r.code for r in RULES].count(rule.code) == 1
    assert rule.title and rule.message and rule.hint and rule.example


def test_danger_pattern_without_level():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\ntriggers: [x]\ndanger_patterns:\n  - pattern: 'sudo\\s'\n"
        "    reason: Root\n---\n\nBody.\n"
    )
    assert codes(skill.findings, ("W",)) == ["W019"]
    assert (skill.findings[-1].line, skill.danger_patterns[0].level) == (6, None)

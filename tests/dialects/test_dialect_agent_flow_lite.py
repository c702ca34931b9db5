"""Agent Flow Lite: inputs, placeholders, knowledge base, model settings, the 50 KB limit."""

import re

import pytest
from dialect_support import codes, corpus_findings, corpus_skills, only, skill_from_text

from registry.dialects.agent_flow_lite import RULES, AgentFlowLiteDialect, list_item_ranges


def corpus(path):
    skills, _ = corpus_skills()
    return skills[f"agent-flow-lite/{path}/SKILL.md"]


def test_full_example_from_the_corpus():
    skill = corpus("_extracted/04/complex-skill")
    assert "agent-flow-lite" in skill.dialects
    assert [(i.name, i.label, i.type, i.required, i.default, i.description) for i in skill.inputs] == [
        ("article", "Article Content", "textarea", True, None, "The article to process"),
        ("style", "Output Style", "text", False, "concise", ""),
    ]
    assert skill.knowledge_base == "my-kb"
    assert skill.model_settings == {"temperature": 0.3, "max_tokens": 1000}
    assert codes(corpus_findings("agent-flow-lite/_extracted/04/complex-skill/SKILL.md"), ("A",)) == []


def test_null_knowledge_base_and_chinese_labels():
    skill = corpus("_extracted/18/article-summary")
    assert skill.knowledge_base is None
    assert [i.label for i in skill.inputs] == ["文章内容", "摘要风格"]
    assert codes(corpus_findings("agent-flow-lite/_extracted/18/article-summary/SKILL.md"), ("A",)) == []


def test_string_model_is_claude_codes_unless_the_skill_is_flow_lite():
    skill = corpus("_extracted/07/string-model")
    assert "agent-flow-lite" not in skill.dialects
    assert "claude-code" in skill.dialects
    flow = skill_from_text("---\nname: demo\ndescription: d\nmodel: deepseek-chat\nuser_id: '1'\n---\n\nPrompt text.\n")
    assert codes(flow.findings, ("A",)) == ["A013"]
    assert flow.model_settings == {}


def test_unknown_input_type_in_the_corpus():
    found = corpus_findings("agent-flow-lite/_extracted/10/flexible-inputs/SKILL.md")
    assert codes(found, ("A",)) == ["A005"]
    assert (only(found, "A005")[0].line, only(found, "A005")[0].message) == (
        8,
        "input 'focus' has type 'string'; Agent Flow Lite accepts text or textarea and falls back to text",
    )
    assert [i.type for i in corpus("_extracted/10/flexible-inputs").inputs] == ["text", "text"]


def test_declared_input_never_used_in_the_corpus():
    # The docs example stops before the fenced {{code}} block, so `code` really is unused.
    found = corpus_findings("agent-flow-lite/_extracted/15/code-review/SKILL.md")
    assert codes(found, ("A",)) == ["A011"]
    assert only(found, "A011")[0].line == 5


def test_doubled_braces_still_declare():
    # `{{{{text}}}}` (an f-string artefact) contains {{text}}, which is declared.
    assert codes(corpus_findings("agent-flow-lite/_extracted/12/unnamed/SKILL.md"), ("A",)) == []


def test_undeclared_placeholder():
    text = """
        ---
        name: demo
        description: d
        inputs:
          - name: article
            label: Article
        ---

        Summarise {{article}} in {{style}} style, {{style}} again, {{my-var}} not checked.
        """
    skill = skill_from_text(text)
    (found,) = only(skill.findings, "A010")
    assert (found.line, found.column) == (9, 26)
    assert found.message.startswith("{{style}} in the body is not declared in inputs")


def test_input_rules():
    text = f"""
        ---
        name: demo
        description: d
        inputs:
          - name: a
            type: string
            required: maybe
            default: "{"x" * 1100}"
            description: [a]
          - label: No name
          - just-text
          - name: a
          - name: bad name
        ---

        {{{{a}}}}
        """
    skill = skill_from_text(text)
    assert codes(skill.findings, ("A",)) == ["A002", "A003", "A004", "A005", "A006", "A007", "A008", "A009", "A011"]
    by_code = {f.code: f for f in skill.findings}
    assert by_code["A005"].line == 6 and by_code["A008"].line == 7 and by_code["A006"].line == 8
    assert by_code["A003"].line == 10 and by_code["A002"].line == 11


def test_model_and_other_fields():
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nmodel:\n  temperature: 3\n  max_tokens: 0\nknowledge_base: [kb]\n"
        "user_id: [1]\n---\n\nPrompt text.\n"
    )
    assert codes(skill.findings, ("A",)) == ["A012", "A015", "A016", "A018"]
    skill = skill_from_text("---\nname: demo\ndescription: d\nmodel: [0.7]\ninputs: text\n---\n\nPrompt.\n")
    assert codes(skill.findings, ("A",)) == ["A001", "A014"]


def test_size_limit_only_for_flow_lite_skills():
    body = "x" * 52_000
    flow = skill_from_text(f"---\nname: demo\ndescription: d\nuser_id: '1'\n---\n\n{body}\n")
    assert codes(flow.findings, ("A",)) == ["A017"]
    other = skill_from_text(f"---\nname: demo\ndescription: d\n---\n\n{body}\n")
    assert codes(other.findings, ("A",)) == []


def test_detection():
    dialect = AgentFlowLiteDialect()
    assert dialect.detect({"inputs": []}, "")
    assert dialect.detect({"knowledge_base": None}, "")
    assert dialect.detect({"model": {"temperature": "0.2"}}, "")
    assert not dialect.detect({"model": "haiku"}, "")


def test_list_item_ranges():
    lines = ["---", "inputs:", "  - name: a", "    label: A", "  - name: b", "model:", "  temperature: 1", "---"]
    assert list_item_ranges(lines, 2, 7) == [(3, 4), (5, 5)]
    assert list_item_ranges(lines, None, 7) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_codes_are_stable_and_documented(rule):
    assert re.fullmatch(r"A0\d\d", rule.code)
    assert [r.code for r in RULES].count(rule.code) == 1
    assert rule.title and rule.message and rule.hint and rule.example

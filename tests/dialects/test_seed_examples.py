"""Every example SKILL.md in ../shared/seeds/ parses, without a crash, into the structure it describes."""

from pathlib import Path

import pytest
from conftest import SEEDS, write_skill
from markdown_it import MarkdownIt

from registry.config import Limits
from registry.crawl import crawl
from registry.parse.skill import parse_skill


def seed_examples() -> list[tuple[str, int, str]]:
    md = MarkdownIt("commonmark")
    examples = []
    for path in sorted(SEEDS.glob("0*.txt")):
        for number, token in enumerate(t for t in md.parse(path.read_text()) if t.type == "fence"):
            content = token.content
            if content.startswith("---\nname:"):
                examples.append((path.name, number, content))
    return examples


EXAMPLES = seed_examples()


def parse_example(tmp_path: Path, content: str):
    name = content.split("\n")[1].removeprefix("name:").strip()
    write_skill(tmp_path, f"seed/{name}", content)
    (location,) = crawl(tmp_path, Limits()).locations
    return parse_skill(location, Limits())


def test_every_seed_has_examples():
    assert {seed for seed, _, _ in EXAMPLES} == {p.name for p in SEEDS.glob("0*.txt")}
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize(("seed", "number", "content"), EXAMPLES, ids=[f"{s}#{n}" for s, n, _ in EXAMPLES])
def test_seed_example_parses(tmp_path, seed, number, content):
    skill = parse_example(tmp_path, content)
    assert skill.name
    # Some documentation excerpts omit the description; then the finding must say so.
    if "\ndescription:" in content.split("\n---", 1)[0]:
        assert skill.description, skill.findings
    else:
        assert "S002" in [f.code for f in skill.findings]
    assert not [f for f in skill.findings if f.code.startswith("P")], skill.findings


def by_name(name: str) -> str:
    return next(content for _, _, content in EXAMPLES if content.split("\n")[1] == f"name: {name}")


def test_agent_flow_lite_article_summary(tmp_path):
    skill = parse_example(tmp_path, by_name("article-summary"))
    assert "agent-flow-lite" in skill.dialects
    assert [i.name for i in skill.inputs] and all(i.type in ("text", "textarea") for i in skill.inputs)


def test_skillli_auth_setup_quiz(tmp_path):
    skill = parse_example(tmp_path, by_name("auth-setup"))
    (quiz,) = skill.quizzes
    assert len(quiz.questions) == 2 and all(any(o.correct for o in q.options) for q in quiz.questions)
    assert {b.action for q in quiz.questions for b in q.branches} == {"goto", "load-reference", "load-skill"}


def test_wolffish_always_on_planning(tmp_path):
    skill = parse_example(tmp_path, by_name("planning"))
    assert skill.triggers == ["*"] and skill.tools == []


def test_bouno_arguments(tmp_path):
    content = next(c for _, _, c in EXAMPLES if "arguments:" in c and "auto-discover" in c)
    skill = parse_example(tmp_path, content)
    assert "bouno" in skill.dialects
    assert [a.name for a in skill.arguments][:2] == ["query", "limit"]
    assert skill.arguments[0].required is True and skill.arguments[1].default == "10"

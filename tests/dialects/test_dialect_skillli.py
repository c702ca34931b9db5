"""skillli: registry fields at the top level or under metadata, and quiz gates."""

import re

import pytest
from dialect_support import codes, corpus_findings, corpus_skills, only, registry_findings, skill_from_text

from registry.dialects.skillli import RULES, body_headings, goto_exists


def corpus(path):
    skills, _ = corpus_skills()
    return skills[f"skillli/{path}/SKILL.md"]


def test_top_level_fields():
    skill = corpus("_extracted/03/my-skill")
    assert "skillli" in skill.dialects
    assert (skill.version, skill.author, skill.category) == ("1.2.0", "my-github-user", "development")
    assert skill.tags == ["typescript", "testing", "ci"]
    assert skill.settings["trust-level"] == "community"
    assert codes(corpus_findings("skillli/_extracted/03/my-skill/SKILL.md"), ("K",)) == []


def test_metadata_fields_and_csv_tags():
    skill = corpus("_extracted/02/my-skill")
    assert "skillli" in skill.dialects
    assert (skill.version, skill.author, skill.category) == ("1.2.0", "my-github-user", "development")
    assert skill.tags == ["typescript", "testing", "ci"]


@pytest.mark.parametrize("path", ["_extracted/17/csv-tags", "_extracted/18/array-tags"])
def test_tags_as_csv_or_list(path):
    assert corpus(path).tags == ["typescript", "testing", "ci"]


def test_top_level_wins_and_disagreement_is_reported():
    skill = corpus("_extracted/20/priority-skill")
    assert (skill.version, skill.author) == ("3.0.0", "top-level-author")
    found = only(corpus_findings("skillli/_extracted/20/priority-skill/SKILL.md"), "K001")
    assert [(f.line, f.column) for f in found] == [(4, 1), (5, 1)]
    assert "'version' is '3.0.0' at the top level and '1.0.0' under metadata" in found[0].message


def test_mixed_sources():
    skill = corpus("_extracted/21/mixed-skill")
    assert (skill.version, skill.author, skill.category) == ("1.0.0", "from-metadata", "data")


def test_shared_fields_fill_the_model_without_claiming_skillli():
    skills, _ = corpus_skills()
    vercel = [s for p, s in skills.items() if p.startswith("vercel-agent-skills/")]
    assert vercel and all(s.author and s.version for s in vercel)
    assert not any("skillli" in s.dialects for s in vercel)
    priority = corpus("_extracted/20/priority-skill")  # version and author only
    assert "skillli" not in priority.dialects


def test_quiz_list_is_read():
    skill = corpus("_extracted/04/auth-setup")
    (quiz,) = skill.quizzes
    assert quiz.title == "Auth Prerequisites Check" and quiz.passing_score == 100
    assert [q.question for q in quiz.questions] == [
        "Which token type does this API use for authentication?",
        "Where should refresh tokens be stored?",
    ]
    assert [[o.correct for o in q.options] for q in quiz.questions] == [[True, False, False], [False, True, False]]
    assert [(b.condition, b.action, b.target) for q in quiz.questions for b in q.branches] == [
        ("on-correct", "goto", "## Setup Steps"),
        ("on-incorrect", "load-reference", "references/auth-overview.md"),
        ("on-incorrect", "load-skill", "security-basics"),
    ]


def test_quiz_branch_targets_in_the_corpus():
    # The extracted example has no body and no references/ folder: both targets are really missing.
    found = corpus_findings("skillli/_extracted/04/auth-setup/SKILL.md")
    assert codes(found, ("K",)) == ["K020", "K021", "K022"]
    goto = only(found, "K020")[0]
    assert (goto.line, goto.column) == (18, 18)
    assert goto.message == "quiz 1, question 1 (on-correct) jumps to '## Setup Steps', but the body has no such heading"
    load_skill = only(found, "K022")[0]
    assert (load_skill.line, load_skill.column) == (30, 24)
    assert "quiz 1, question 2 (on-incorrect) loads the skill 'security-basics'" in load_skill.message


def test_goto_found_in_the_body():
    # api-onboarding has "## API Reference" in its body; only the reference file is missing.
    assert codes(corpus_findings("skillli/_extracted/08/api-onboarding/SKILL.md"), ("K",)) == ["K021"]
    assert codes(corpus_findings("skillli/_extracted/22/quiz-skill/SKILL.md"), ("K",)) == ["K021"]


def test_single_mapping_quiz():
    skill = corpus("_extracted/23/quiz-exposed")
    (quiz,) = skill.quizzes
    assert quiz.title == "Simple Quiz"
    assert [o.text for o in quiz.questions[0].options] == ["Yes", "No"]
    assert codes(corpus_findings("skillli/_extracted/23/quiz-exposed/SKILL.md"), ("K",)) == []


def test_load_skill_checked_against_the_registry():
    text = """
        ---
        name: demo
        description: d
        quiz:
          questions:
            - question: "Where?"
              options:
                - label: "A"
                  correct: true
                - label: "B"
              on-incorrect:
                load-skill: security-basics
        ---

        Body text here.
        """
    skill = skill_from_text(text)
    assert codes(registry_findings(skill, names=["demo"])) == ["K022"]
    assert registry_findings(skill, names=["demo", "security-basics"]) == []


def test_references_and_headings_present():
    text = """
        ---
        name: demo
        description: d
        quiz:
          - title: Check
            questions:
              - question: "Q?"
                options:
                  - label: "A"
                    correct: true
                  - label: "B"
                on-correct:
                  goto: "## Setup Steps"
                on-incorrect:
                  load-reference: references/auth.md
        ---

        # Demo

        Setup Steps
        -----------

        Do it.
        """
    skill = skill_from_text(text, files=["references/auth.md"])
    assert codes(skill.findings, ("K",)) == []


def test_quiz_structure_rules():
    text = """
        ---
        name: demo
        description: d
        quiz:
          - title: One
            gate: maybe
            passing-score: 150
            questions:
              - question: "Only one option?"
                options:
                  - label: "A"
                    correct: true
              - question: "None correct?"
                options:
                  - label: "A"
                  - label: "B"
              - question: "Plain options?"
                options: [Yes, No]
              - options:
                  - label: "A"
                    correct: true
                  - label: "B"
                on-incorrect: retry
          - title: Two
          - just text
        ---

        Body text here.
        """
    skill = skill_from_text(text)
    assert codes(skill.findings, ("K",)) == [
        "K013",
        "K014",
        "K015",
        "K016",
        "K017",
        "K017",
        "K018",
        "K018",
        "K019",
        "K023",
        "K024",
    ]
    assert len(skill.quizzes) == 2


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("trust-level", "trusted", "K008"),
        ("homepage", "javascript:alert(1)", "K010"),
        ("repository", "github.com/me/skill", "K010"),
        ("checksum", "abc123", "K011"),
        ("min-skillli-version", "latest", "K012"),
        ("author", "[a, b]", "K002"),
    ],
)
def test_field_rules(field, value, code):
    skill = skill_from_text(f"---\nname: demo\ndescription: d\n{field}: {value}\n---\n\nBody text here.\n")
    assert codes(skill.findings, ("K",)) == [code]
    assert skill.findings[-1].line == 4


def test_valid_fields_fill_the_model():
    checksum = "sha256:" + "ab" * 32
    skill = skill_from_text(
        "---\nname: demo\ndescription: d\nhomepage: https://example.com/x\nrepository: https://github.com/a/b\n"
        f"checksum: {checksum}\nmin-skillli-version: 0.2.0\ncategory: Devops\n---\n\nBody text here.\n"
    )
    assert (skill.homepage, skill.repository) == ("https://example.com/x", "https://github.com/a/b")
    assert skill.settings == {"checksum": checksum, "min-skillli-version": "0.2.0"}
    assert skill.category == "Devops"  # as written: registry/score/categories.py normalises it
    assert codes(skill.findings, ("K",)) == []


def test_invalid_urls_are_not_kept():
    skill = skill_from_text("---\nname: demo\ndescription: d\nhomepage: javascript:alert(1)\n---\n\nBody text.\n")
    assert skill.homepage is None


def test_tags_are_read_as_written_for_the_categories_stage():
    many = ", ".join(f"t{i}" for i in range(25))
    skill = skill_from_text(f'---\nname: demo\ndescription: d\ntags: "{many}, {"x" * 60}"\n---\n\nBody.\n')
    assert len(skill.tags) == 26 and codes(skill.findings, ("K",)) == []


def test_metadata_category_outside_skillli_is_left_alone():
    # ClawHub uploads use metadata.category for their own categories (e.g. "marketing").
    skills, _ = corpus_skills()
    skill = skills["clawhub-archive-sample/alirezarezvani/content-creator/SKILL.md"]
    assert "skillli" not in skill.dialects
    assert codes(corpus_findings("clawhub-archive-sample/alirezarezvani/content-creator/SKILL.md"), ("K",)) == []


def test_goto_matching():
    headings = body_headings("# T\n\n## Setup Steps\n\n```\n## Not A Heading\n```\n\nOther\n=====\n")
    assert goto_exists("## Setup Steps", headings)
    assert not goto_exists("### Setup Steps", headings)
    assert goto_exists("setup steps", headings)
    assert goto_exists("#setup-steps", headings)
    assert goto_exists("# Other", headings)
    assert not goto_exists("## Not A Heading", headings)


def test_rule_codes_are_stable_and_documented():
    seen = set()
    for rule in RULES:
        assert re.fullmatch(r"K0\d\d", rule.code) and rule.code not in seen
        seen.add(rule.code)
        assert rule.title and rule.message and rule.hint and rule.example

"""Categories and tags: tag slugs, word forms, weighted inference, declared categories, every T rule."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from registry.config import Limits
from registry.dialects import DIALECTS, ParseContext
from registry.model import Document, Severity, Skill, SkillFile, SkillLocation
from registry.parse.document import read_document
from registry.score.categories import (
    DEFAULT_CATEGORIES,
    DEFAULT_KEYWORDS,
    MAX_TAGS,
    RULES,
    SLUG,
    Categorisation,
    categorise,
    normalise_tags,
    tag_slug,
    word_forms,
)

LIMITS = Limits()


def location(folder: str = "demo") -> SkillLocation:
    skill_file = SkillFile("SKILL.md", 1, "sha256:" + "0" * 64, Path("/nonexistent/SKILL.md"))
    return SkillLocation(f"test/{folder}", Path("/nonexistent") / folder, folder, "SKILL.md", (skill_file,))


def parse(text: str, folder: str = "demo") -> Skill:
    """A SKILL.md text parsed the way parse_skill does (all dialects), without the file system."""
    text = textwrap.dedent(text).lstrip("\n")
    data = text.encode("utf-8")
    path = f"{folder}/SKILL.md"
    document = read_document(data, path, LIMITS)
    skill = Skill(location(folder), document, findings=list(document.findings))
    if document.frontmatter is not None:
        context = ParseContext(path, LIMITS, frozenset({"SKILL.md"}), folder)
        for dialect in DIALECTS:
            if dialect.detect(document.frontmatter, document.body):
                skill.dialects.append(dialect.key)
                dialect.apply(skill, context)
    return skill


def skill_md(frontmatter: str = "", body: str = "Step one.", name: str = "demo", description: str = "Helps.") -> str:
    extra = textwrap.dedent(frontmatter).strip("\n")
    return f"---\nname: {name}\ndescription: {description}\n{extra}\n---\n\n{body}\n"


def run(text: str, **kwargs: Any) -> Categorisation:
    return categorise(parse(text), **kwargs)


def codes(result: Categorisation) -> list[str]:
    return sorted(f.code for f in result.findings)


# -- tags ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "slug"),
    [
        ("testing", "testing"),
        ("Machine Learning", "machine-learning"),
        ("  Data   Science ", "data-science"),
        ("C++", "cpp"),
        ("C#", "csharp"),
        ("F#", "fsharp"),
        ("Node.js", "nodejs"),
        ("p5.js", "p5js"),
        (".NET", "dotnet"),
        ("R&D", "r-and-d"),
        ("Google+", "google-plus"),
        ("v1.2", "v1-2"),
        ("snake_case", "snake-case"),
        ("CI/CD", "ci-cd"),
        ("--edge--", "edge"),
        ("Café", "cafe"),
        ("Ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("#devops", "devops"),
        ("DevOps", "devops"),
        ("飞书", ""),
        ("---", ""),
        ("", ""),
    ],
)
def test_tag_slug(raw: str, slug: str) -> None:
    assert tag_slug(raw) == slug
    assert slug == "" or SLUG.fullmatch(slug)


def test_normalise_tags_dedupes_keeping_the_first_and_caps_at_twenty() -> None:
    assert normalise_tags(["CI", "ci", "Testing", " testing ", "飞书", "x" * 51]) == ("ci", "testing")
    many = [f"tag{i}" for i in range(30)]
    assert normalise_tags(many) == tuple(many[:20])


def test_tags_come_from_a_csv_string_or_metadata() -> None:
    assert run(skill_md('tags: "Python, Machine Learning,  ,ci"')).tags == ("python", "machine-learning", "ci")
    assert run(skill_md("metadata:\n  tags: [b, a]")).tags == ("b", "a")
    assert run(skill_md("tags: [top]\nmetadata:\n  tags: [meta]")).tags == ("top",)
    assert run(skill_md()).tags == ()


# -- word forms ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keyword", "forms", "not_forms"),
    [
        ("deploy", ["deploys", "deploying", "deployed", "deployment", "deployments"], ["deplo"]),
        ("debug", ["debugging", "debugged", "debugger"], ["bug"]),
        ("test", ["tests", "testing", "tested"], ["testament"]),
        ("animate", ["animation", "animations", "animating", "animated"], ["anim"]),
        ("visualize", ["visualization", "visualisation", "visualise", "visualising"], ["visual"]),
        ("library", ["libraries"], ["librar"]),
        ("secrets", ["secret", "secrets"], ["secretary"]),
        ("marketing", ["marketing"], ["market", "markets"]),
        ("meeting", ["meetings"], ["meet", "meets"]),
        ("ci", ["ci"], ["cis"]),
    ],
)
def test_word_forms(keyword: str, forms: list[str], not_forms: list[str]) -> None:
    found = word_forms(keyword)
    assert keyword in found
    assert set(forms) <= found
    assert not set(not_forms) & found


def test_default_keyword_table_covers_the_default_categories_without_repeats() -> None:
    assert set(DEFAULT_KEYWORDS) == set(DEFAULT_CATEGORIES) - {"other"}
    for words in DEFAULT_KEYWORDS.values():
        assert len(words) == len(set(words))
        assert all(w == w.strip().lower() and w for w in words)


# -- inference -----------------------------------------------------------------------------------


def test_inference_reports_where_the_words_were_found() -> None:
    result = run(
        skill_md(
            "tags: [ci]",
            description="Builds Docker images and deploys them to Kubernetes.",
            body="# Deploying\n\nRun helm upgrade.",
        )
    )
    assert result.category == "devops"
    assert result.inferred
    assert result.evidence == (
        "tag 'ci'",
        "description mentions 'docker', 'deploys', 'kubernetes'",
        "body headings mention 'deploying'",
        "body mentions 'helm'",
    )


def test_name_and_tags_weigh_more_than_the_description() -> None:
    # name: one devops word (6); description: one development word (4)
    assert run(skill_md(name="docker-helper", description="Helps with code.")).category == "devops"
    assert run(skill_md("tags: [docker]", description="Helps with code.")).category == "devops"


def test_description_weighs_more_than_headings_and_the_body() -> None:
    # description: one development word (4); headings: one data word (2) + body: one data word (1)
    text = skill_md(description="Reviews code.", body="# Charts\n\nA dashboard.")
    assert run(text).category == "development"
    # body points are capped at 8, so eleven data words in the body only tie two description words
    many = "csv parquet pandas numpy jupyter sql duckdb tableau looker bigquery snowflake"
    capped = run(skill_md(description="Refactors code.", body=many))
    assert capped.category == "development"
    assert capped.evidence[-1] == "tied with data (score 8); the first listed category wins"


def test_headings_weigh_more_than_the_body() -> None:
    # a heading word counts 2, a body word 1
    two_headings = "# Docker\n\n## Kubernetes\n\nSome code here, in python, with a bug."
    assert run(skill_md(body=two_headings)).category == "devops"  # 4 against 3
    one_heading = "# Docker\n\nSome code here, in python, with a bug."
    assert run(skill_md(body=one_heading)).category == "development"  # 2 against 3


def test_ties_go_to_the_category_listed_first() -> None:
    text = skill_md(description="Python and Docker.")  # development 4, devops 4
    first = run(text)
    assert first.category == "development"
    assert "tied with devops (score 4); the first listed category wins" in first.evidence
    reordered = ("devops", "development", "creative", "enterprise", "data", "other")
    assert run(text, categories=reordered).category == "devops"


def test_phrases_beat_their_last_word() -> None:
    # "mcp server" (development) is matched, not also "server" (devops)
    result = run(skill_md(description="Builds an MCP server."))
    assert result.category == "development"
    assert result.evidence == ("description mentions 'mcp server'",)


def test_no_keywords_falls_back_to_other() -> None:
    result = run(skill_md(description="Greets the user warmly.", body="Say hello."))
    assert result == Categorisation("other", True, ("no category keywords found",), (), ())


def test_thin_body_evidence_falls_back_to_other() -> None:
    result = run(skill_md(description="Tracks your habits.", body="Shows a chart of your data."))
    assert result.category == "other"
    assert result.evidence == ("too few category keywords (best: data with 'chart', 'data', score 2 < 3)",)


def test_fallback_without_other_is_the_last_category() -> None:
    assert run(skill_md(description="Greets."), categories=("data", "misc")).category == "misc"


def test_inference_is_not_case_or_markup_sensitive() -> None:
    result = run(skill_md(description="'**KUBERNETES** `kubectl` [Helm](https://helm.sh)'"))
    assert result.category == "devops"


def test_name_falls_back_to_the_folder() -> None:
    text = "---\ndescription: Helps.\n---\n\nBody.\n"
    assert categorise(parse(text, folder="docker-tools")).evidence == ("name mentions 'docker'",)


# -- policy categories ---------------------------------------------------------------------------


def test_policy_categories_with_their_own_keywords() -> None:
    categories = ("development", "marketing", "other")
    keywords = {"marketing": ["seo", "campaign", "newsletter"]}
    result = run(skill_md(description="Plans SEO campaigns."), categories=categories, keywords=keywords)
    assert result.category == "marketing"
    assert result.evidence == ("description mentions 'seo', 'campaigns'",)
    declared = run(skill_md("category: Marketing"), categories=categories, keywords=keywords)
    assert (declared.category, declared.inferred, codes(declared)) == ("marketing", False, ["T002"])


def test_a_policy_category_name_is_its_own_keyword() -> None:
    result = run(skill_md(description="A security audit."), categories=("security", "other"))
    assert result.category == "security"
    assert result.evidence == ("description mentions 'security'",)


def test_policy_keywords_replace_the_default_list_for_that_category_only() -> None:
    keywords = {"devops": ["terraform"]}
    assert run(skill_md(description="Docker things."), keywords=keywords).category == "other"
    assert run(skill_md(description="Terraform things."), keywords=keywords).category == "devops"
    assert run(skill_md(description="Python things."), keywords=keywords).category == "development"


# -- declared categories -------------------------------------------------------------------------


def test_a_valid_declared_category_is_kept() -> None:
    result = run(skill_md("category: data", description="Deploys Docker containers."))
    assert result == Categorisation("data", False, ("declared category 'data'",), (), ())


def test_declared_under_metadata() -> None:
    text = skill_md("metadata:\n  author: me\n  category: DevOps")
    result = run(text)
    assert (result.category, result.inferred) == ("devops", False)
    (finding,) = result.findings
    assert finding.line == 6  # the metadata line holding category


def test_unknown_category_suggests_by_keywords_then_by_spelling() -> None:
    result = run(skill_md("category: marketing", description="Writes blog posts and poems."))
    assert result.category == "creative"
    assert result.inferred
    assert result.evidence[0] == "declared category 'marketing' is not one of the categories"
    assert result.evidence[1:] == ("description mentions 'blog', 'poems'",)
    (finding,) = result.findings
    assert finding.hint.startswith("Did you mean `category: enterprise`?")
    typo = run(skill_md("category: developmnt"))
    assert typo.findings[0].hint.startswith("Did you mean `category: development`?")
    nothing = run(skill_md("category: zzz", description="Docker."))
    assert nothing.findings[0].hint.startswith("Did you mean `category: devops`?")  # the inferred one


# -- every rule: a fixture that fires it and a near miss that does not ---------------------------

RULE_CASES = {
    "T001": (skill_md("category: marketing"), skill_md("category: enterprise")),
    "T002": (skill_md("category: DevOps"), skill_md("category: devops")),
    "T003": (skill_md("category: [data, devops]"), skill_md("category: data")),
    "T004": (skill_md("tags: [Machine Learning, C++]"), skill_md("tags: [machine-learning, cpp]")),
    "T005": (skill_md('tags: ["飞书", ok]'), skill_md('tags: ["Café", ok]')),
    "T006": (skill_md(f"tags: [{'a' * 51}]"), skill_md(f"tags: [{'a' * 50}]")),
    "T007": (skill_md("tags: [ci, CI, testing]"), skill_md("tags: [ci, cd, testing]")),
    "T008": (
        skill_md("tags: [" + ", ".join(f"t{i}" for i in range(1, 26)) + "]"),
        skill_md("tags: [" + ", ".join(f"t{i}" for i in range(1, 21)) + "]"),
    ),
    "T009": (skill_md("tags:\n  a: 1"), skill_md('tags: "a, b"')),
}


def test_every_rule_has_a_case() -> None:
    assert sorted(RULE_CASES) == sorted(rule.code for rule in RULES)
    assert all(rule.code.startswith("T") and 1 <= int(rule.code[1:]) <= 20 for rule in RULES)


@pytest.mark.parametrize("code", sorted(RULE_CASES))
def test_rule_fires(code: str) -> None:
    fires, near_miss = RULE_CASES[code]
    result = run(fires)
    found = [f for f in result.findings if f.code == code]
    assert len(found) == 1, result.findings
    rule = next(r for r in RULES if r.code == code)
    assert found[0].severity is rule.severity
    assert found[0].path == "demo/SKILL.md"
    assert found[0].line == 4  # the key's own line in skill_md()
    assert code not in codes(run(near_miss))


def test_rule_messages() -> None:
    t001 = run(RULE_CASES["T001"][0]).findings[0]
    assert t001.severity is Severity.WARNING
    assert t001.message == (
        "category 'marketing' is not one of development, creative, enterprise, data, devops, other; "
        "the inferred category 'other' is used instead"
    )
    t002 = run(RULE_CASES["T002"][0]).findings[0]
    assert (t002.severity, t002.message) == (Severity.INFO, "category 'DevOps' is read as 'devops'")
    t003 = run(RULE_CASES["T003"][0])
    assert t003.findings[0].message.startswith("category is a list, not one category name")
    assert t003.evidence[0] == "declared category is a list"
    empty = run(skill_md('category: ""'))
    assert codes(empty) == ["T003"] and "category is empty" in empty.findings[0].message

    t004 = run(RULE_CASES["T004"][0])
    assert t004.tags == ("machine-learning", "cpp")
    assert t004.findings[0].message == (
        "2 tag(s) normalised to lowercase slugs: 'Machine Learning' -> 'machine-learning', 'C++' -> 'cpp'"
    )
    assert "`tags: [machine-learning, cpp]`" in t004.findings[0].hint
    t005 = run(RULE_CASES["T005"][0])
    assert t005.tags == ("ok",)
    assert t005.findings[0].message.endswith(": '飞书'")
    t007 = run(RULE_CASES["T007"][0])
    assert t007.tags == ("ci", "testing")
    assert [f.code for f in t007.findings] == ["T007"]  # the dropped 'CI' is not also "normalised"
    assert t007.findings[0].message == "1 duplicate tag(s) dropped: 'CI' (same as 'ci')"
    t008 = run(RULE_CASES["T008"][0])
    assert len(t008.tags) == MAX_TAGS
    assert t008.findings[0].message == (
        "25 tags; only the first 20 are kept, dropped: 't21', 't22', 't23', 't24', 't25'"
    )
    item = run(skill_md("tags:\n  - ok\n  - a: 1"))
    assert item.tags == ("ok",)
    assert item.findings[0].message == "tag 2 is a mapping, not text; it is ignored"


def test_findings_point_at_the_metadata_line_when_the_value_is_there() -> None:
    text = skill_md("metadata:\n  author: me\n  tags: [CI, ci]\n  category: Data")
    result = run(text)
    lines = {f.code: f.line for f in result.findings}
    assert lines == {"T004": 6, "T007": 6, "T002": 7}


def test_findings_inside_inline_metadata_json() -> None:
    text = skill_md('metadata: {"category": "Data", "tags": ["A"]}')
    result = run(text)
    assert result.category == "data"
    assert {f.line for f in result.findings} == {4}


# -- robustness ----------------------------------------------------------------------------------

_scalar = st.text(max_size=40) | st.none()
_value = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _skill(frontmatter: dict[str, Any], body: str) -> Skill:
    document = Document("---\n---\n" + body, frontmatter, "", body, 3, key_lines=dict.fromkeys(frontmatter, 2))
    skill = Skill(location(), document)
    name, description = frontmatter.get("name"), frontmatter.get("description")
    skill.name = name if isinstance(name, str) and name else None
    skill.description = description if isinstance(description, str) else None
    return skill


@settings(max_examples=300, deadline=None)
@given(
    name=_scalar,
    description=st.text(max_size=300),
    tags=st.lists(st.text(max_size=30), max_size=30) | _value,
    category=_value,
    metadata=st.dictionaries(st.sampled_from(["category", "tags", "other"]), _value, max_size=3),
    body=st.text(max_size=500),
    categories=st.sampled_from([DEFAULT_CATEGORIES, ("data", "other"), ("Data Science", "misc"), ()]),
)
def test_categorise_never_raises_and_is_deterministic(
    name: Any, description: str, tags: Any, category: Any, metadata: Any, body: str, categories: tuple[str, ...]
) -> None:
    frontmatter = {"name": name, "description": description, "tags": tags, "category": category, "metadata": metadata}
    first = categorise(_skill(frontmatter, body), categories)
    second = categorise(_skill(frontmatter, body), categories)
    assert first == second
    valid = [tag_slug(c) for c in categories] or ["other"]
    assert first.category in valid
    assert first.evidence and all(isinstance(e, str) and e for e in first.evidence)
    assert len(first.tags) <= MAX_TAGS and len(set(first.tags)) == len(first.tags)
    assert all(SLUG.fullmatch(t) and len(t) <= 50 for t in first.tags)
    if not first.inferred:
        assert first.evidence == (f"declared category '{first.category}'",)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_words_are_the_lower_cased_runs_of_ascii_letters_and_digits(text):
    import re

    from registry.score.categories import _tokens

    assert _tokens(text) == re.findall(r"[a-z0-9]+", text.lower())


def test_words_split_on_characters_that_lower_case_to_more_than_one():
    from registry.score.categories import _tokens

    # The Kelvin sign lowers to an ASCII k; a dotted capital I to i and a combining dot.
    assert _tokens("\u212aUBE İstanbul Straße ǅx \ud800end") == ["kube", "i", "stanbul", "stra", "e", "x", "end"]

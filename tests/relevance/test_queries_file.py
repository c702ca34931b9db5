"""The search relevance set (queries.yaml) is well formed and points at real, published corpus skills.

This checks the file only; measuring a ranking against it (MRR@10, recall@10) is described in
README.md beside it. `body` queries are also checked against the skills' text: each has a word
that only a skill's body or tool/input/argument names can match.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml
from whoosh.lang.porter2 import stem

from registry.config import Limits
from registry.crawl import crawl
from registry.model import Skill
from registry.parse.skill import parse_skill
from registry.search.text import SOFT_WORDS, STOP_WORDS, words

QUERIES_FILE = Path(__file__).with_name("queries.yaml")
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

MIN_QUERIES = 70
MIN_PER_KIND = {"task": 45, "exact": 10, "typo": 8, "partial": 1, "body": 40}
MAX_EXPECTED = 4
FIELDS = {"query", "kind", "expect", "why"}


@pytest.fixture(scope="module")
def queries() -> list[dict]:
    data = yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, list), "queries.yaml must be a YAML list of queries"
    return data


@pytest.fixture(scope="module")
def published_skills() -> dict[str, Skill]:
    if not CORPUS.is_dir():
        pytest.skip(f"the real corpus is expected at {CORPUS}")
    locations = crawl(CORPUS, Limits()).locations
    skills = [parse_skill(location, Limits()) for location in locations]
    return {s.id: s for s in skills if s.loadable}


@pytest.fixture(scope="module")
def published_ids(published_skills) -> set[str]:
    return set(published_skills)


def test_every_entry_has_the_expected_shape(queries):
    for i, q in enumerate(queries):
        assert isinstance(q, dict), f"entry {i} is not a mapping"
        assert set(q) == FIELDS, f"entry {i} ({q.get('query')!r}) has fields {sorted(q)}, want {sorted(FIELDS)}"
        assert isinstance(q["query"], str) and q["query"].strip() == q["query"] and q["query"], f"entry {i}: bad query"
        assert q["kind"] in MIN_PER_KIND, f"{q['query']!r}: unknown kind {q['kind']!r}"
        assert isinstance(q["why"], str) and q["why"].strip(), f"{q['query']!r}: missing why"
        expect = q["expect"]
        assert isinstance(expect, list) and 1 <= len(expect) <= MAX_EXPECTED, (
            f"{q['query']!r}: expect needs 1-{MAX_EXPECTED} ids"
        )
        assert all(isinstance(e, str) for e in expect), f"{q['query']!r}: expect ids must be strings"
        assert len(set(expect)) == len(expect), f"{q['query']!r}: duplicate ids in expect"


def test_enough_queries_of_each_kind(queries):
    assert len(queries) >= MIN_QUERIES
    kinds = Counter(q["kind"] for q in queries)
    for kind, minimum in MIN_PER_KIND.items():
        assert kinds[kind] >= minimum, f"{kinds[kind]} {kind} queries, want at least {minimum}"


def test_no_duplicate_queries(queries):
    counts = Counter(" ".join(q["query"].lower().split()) for q in queries)
    duplicates = sorted(text for text, n in counts.items() if n > 1)
    assert not duplicates, f"duplicate queries: {duplicates}"


def test_every_expected_id_is_a_published_corpus_skill(queries, published_ids):
    missing = sorted({e for q in queries for e in q["expect"] if e not in published_ids})
    assert not missing, f"expected ids that are not published corpus skills: {missing}"


def test_every_corpus_source_is_covered(queries, published_ids):
    sources = {i.split("/", 1)[0] for i in published_ids}
    covered = {e.split("/", 1)[0] for q in queries for e in q["expect"]}
    assert sources <= covered, f"sources without any query: {sorted(sources - covered)}"


def test_no_query_relies_only_on_extracted_examples(queries):
    only_examples = [q["query"] for q in queries if all("/_extracted/" in e for e in q["expect"])]
    assert not only_examples, f"queries whose only answers are _extracted examples: {only_examples}"


def stems(text: str) -> set[str]:
    """Snowball (Porter2) stems, so that "mocks" and "mock" or "rerenders" and "re-render" count as one word."""
    return {stem(word) for word in words(text)}


def metadata_stems(skill: Skill) -> set[str]:
    return stems(" ".join([skill.name or "", skill.display_name, skill.description or "", " ".join(skill.tags),
                           skill.category or ""]))  # fmt: skip


def body_stems(skill: Skill) -> set[str]:
    names = [t.name for t in skill.tools] + [i.name for i in skill.inputs] + [i.label for i in skill.inputs]
    names += [a.name for a in skill.arguments]
    return stems(skill.document.body + "\n" + "\n".join(names))


def distinctive_words(query: str) -> list[str]:
    # Two-letter fragments ("s" of "team's", "d" of "vitamin d") say nothing about where a match came from.
    return [w for w in words(query) if w not in STOP_WORDS and w not in SOFT_WORDS and len(w) > 2]


def body_only_words(query: str, expected: list[Skill]) -> list[str]:
    """The query's distinctive words that no expected skill's name, tags, category or description holds,
    and that the body or a tool/input/argument name of at least one of them does."""
    in_metadata = set().union(*(metadata_stems(skill) for skill in expected))
    in_body = set().union(*(body_stems(skill) for skill in expected))
    return [w for w in distinctive_words(query) if stem(w) not in in_metadata and stem(w) in in_body]


def test_body_queries_are_answered_only_by_body_text(queries, published_skills):
    body_queries = [q for q in queries if q["kind"] == "body"]
    metadata_answers = [
        q["query"]
        for q in body_queries
        if all(e in published_skills for e in q["expect"])
        and not body_only_words(q["query"], [published_skills[e] for e in q["expect"]])
    ]
    assert not metadata_answers, (
        f"body queries without a word found only in their expected skills' bodies or tool/input names: {metadata_answers}"
    )


def test_the_body_check_tells_body_words_from_metadata_words(published_skills):
    """The check above can fail: a word of the description is not a body-only word, a body word is."""
    testing = published_skills["anthropics-skills/webapp-testing"]
    assert body_only_words("playwright", [testing]) == []  # in its description
    assert body_only_words("networkidle", [testing]) == ["networkidle"]  # only in its body
    assert body_only_words("the of my", [testing]) == []  # stop words are never distinctive

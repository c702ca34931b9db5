"""The search relevance set (queries.yaml) is well formed and points at real, published corpus skills.

This checks the file only; measuring a ranking against it (MRR@10, recall@10) is described in
README.md beside it. `body` queries are also checked against the skills' text: each has a word
that only a skill's body or tool/input/argument names can match.

The held-out paraphrase set (paraphrases.yaml, issue 25) is checked the same way, and must not
share a query with queries.yaml.
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
PARAPHRASES_FILE = Path(__file__).with_name("paraphrases.yaml")
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

MIN_QUERIES = 70
MIN_PER_KIND = {"task": 45, "exact": 10, "typo": 8, "partial": 1, "body": 40}
MAX_EXPECTED = 4
FIELDS = {"query", "kind", "expect", "why"}
MIN_PARAPHRASES = 80
MAX_PARAPHRASE_WORDS = 12


def load_entries(path: Path) -> list[dict]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, list), f"{path.name} must be a YAML list of queries"
    return data


def folded(text: str) -> str:
    return " ".join(text.lower().split())


@pytest.fixture(scope="module")
def queries() -> list[dict]:
    return load_entries(QUERIES_FILE)


@pytest.fixture(scope="module")
def paraphrases() -> list[dict]:
    return load_entries(PARAPHRASES_FILE)


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


def assert_well_formed(entries: list[dict]) -> None:
    for i, q in enumerate(entries):
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


def duplicate_queries(entries: list[dict]) -> list[str]:
    counts = Counter(folded(q["query"]) for q in entries)
    return sorted(text for text, n in counts.items() if n > 1)


def test_every_entry_has_the_expected_shape(queries):
    assert_well_formed(queries)


def test_enough_queries_of_each_kind(queries):
    assert len(queries) >= MIN_QUERIES
    kinds = Counter(q["kind"] for q in queries)
    for kind, minimum in MIN_PER_KIND.items():
        assert kinds[kind] >= minimum, f"{kinds[kind]} {kind} queries, want at least {minimum}"


def test_no_duplicate_queries(queries):
    duplicates = duplicate_queries(queries)
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


# ---------------------------------------------------------------- the held-out paraphrase set (issue 25)


def test_every_paraphrase_has_the_expected_shape(paraphrases):
    assert_well_formed(paraphrases)


def test_paraphrases_are_enough_task_queries(paraphrases):
    assert len(paraphrases) >= MIN_PARAPHRASES, f"{len(paraphrases)} paraphrases, want at least {MIN_PARAPHRASES}"
    other_kinds = [q["query"] for q in paraphrases if q["kind"] != "task"]
    assert not other_kinds, f"paraphrases must all be task queries: {other_kinds}"


def test_paraphrases_are_short(paraphrases):
    # Words are counted by spaces, so a Chinese query counts as one word.
    too_long = [q["query"] for q in paraphrases if len(q["query"].split()) > MAX_PARAPHRASE_WORDS]
    assert not too_long, f"paraphrases longer than {MAX_PARAPHRASE_WORDS} words: {too_long}"


def test_no_duplicate_paraphrases(paraphrases):
    duplicates = duplicate_queries(paraphrases)
    assert not duplicates, f"duplicate paraphrases: {duplicates}"


def test_paraphrases_are_kept_apart_from_the_tuning_set(queries, paraphrases):
    tuning = {folded(q["query"]) for q in queries}
    shared = sorted(folded(q["query"]) for q in paraphrases if folded(q["query"]) in tuning)
    assert not shared, f"paraphrases that are also in queries.yaml: {shared}"


def test_every_expected_paraphrase_id_is_a_published_corpus_skill(paraphrases, published_ids):
    missing = sorted({e for q in paraphrases for e in q["expect"] if e not in published_ids})
    assert not missing, f"expected ids that are not published corpus skills: {missing}"


def test_paraphrases_cover_every_corpus_source(paraphrases, published_ids):
    sources = {i.split("/", 1)[0] for i in published_ids}
    first = {q["expect"][0].split("/", 1)[0] for q in paraphrases}
    assert sources <= first, f"sources that are no paraphrase's first answer: {sorted(sources - first)}"


def test_no_paraphrase_relies_on_extracted_examples(paraphrases):
    examples = [q["query"] for q in paraphrases if any("/_extracted/" in e or "/fixtures/" in e for e in q["expect"])]
    assert not examples, f"paraphrases expecting _extracted examples or test fixtures: {examples}"


def test_the_paraphrase_checks_catch_overlap_and_bad_ids():
    """The checks above can fail: a repeated query, a query shared with the tuning set, a bad entry."""
    entries = [{"query": "Plan My Week", "kind": "task", "expect": ["a/b"], "why": "x"},
               {"query": "plan  my week", "kind": "task", "expect": ["a/c"], "why": "y"}]  # fmt: skip
    assert duplicate_queries(entries) == ["plan my week"]
    with pytest.raises(AssertionError):
        assert_well_formed([{"query": "plan my week", "kind": "vibes", "expect": ["a/b"], "why": "x"}])
    with pytest.raises(AssertionError):
        assert_well_formed([{"query": "plan my week", "kind": "task", "expect": [], "why": "x"}])

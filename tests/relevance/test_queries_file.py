"""The search relevance set (queries.yaml) is well formed and points at real, published corpus skills.

This checks the file only; measuring a ranking against it (MRR@10, recall@10) is described in
README.md beside it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from registry.config import Limits
from registry.crawl import crawl
from registry.parse.skill import parse_skill

QUERIES_FILE = Path(__file__).with_name("queries.yaml")
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

MIN_QUERIES = 70
MIN_PER_KIND = {"task": 45, "exact": 10, "typo": 8, "partial": 1}
MAX_EXPECTED = 4
FIELDS = {"query", "kind", "expect", "why"}


@pytest.fixture(scope="module")
def queries() -> list[dict]:
    data = yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, list), "queries.yaml must be a YAML list of queries"
    return data


@pytest.fixture(scope="module")
def published_ids() -> set[str]:
    if not CORPUS.is_dir():
        pytest.skip(f"the real corpus is expected at {CORPUS}")
    locations = crawl(CORPUS, Limits()).locations
    skills = [parse_skill(location, Limits()) for location in locations]
    return {s.id for s in skills if s.loadable}


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

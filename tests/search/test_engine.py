"""Ranking (registry/search/engine.py): words, forms, typos, prefixes, tiers, squatters, explanations."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from memory_source import MemorySource, document

from registry.search.engine import expand, search
from registry.search.terms import FIELD_BITS, split_weight, stem_key, word_weights
from registry.search.text import query_words, words


def ids(query, documents, **filters):
    return [r.record.id for r in search(MemorySource(documents), query, filters, limit=20)]


def test_words_fold_split_and_drop_stop_words():
    assert words("Deploy-to-Vercel myFastApp Café") == ["deploy", "to", "vercel", "my", "fast", "app", "cafe"]
    assert query_words("deploy my app to vercel") == ["deploy", "app", "vercel"]
    assert query_words("the") == ["the"]  # a query of only stop words still searches


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("deploy", "deployments", True),
        ("deploy", "deploying", True),
        ("pdf", "pdfs", True),  # Porter2 keeps an s after consonants; the stem key drops it
        ("llm", "llms", True),
        ("status", "statuses", True),
        ("meta", "metasploit", False),  # a shared beginning is not a shared stem (issue 15)
        ("test", "testosterone", False),
        ("writer", "write", False),  # Snowball keeps -er words whole
    ],
)
def test_stem_keys(a, b, same):
    assert (stem_key(a) == stem_key(b)) is same


VOCABULARY = {"skill": 40, "skills": 30, "sqlite": 5, "sql": 9, "sqlalchemy": 2, "brainstorming": 3, "deploy": 7}


def test_a_word_is_looked_up_with_its_forms_exact_first():
    found = expand("skill", False, VOCABULARY)
    assert [(e.word, e.kind) for e in found] == [("skill", "exact"), ("skills", "stem")]


def test_only_the_word_being_typed_is_a_prefix():
    assert [e.word for e in expand("sql", True, VOCABULARY)] == ["sql", "sqlite", "sqlalchemy"]
    assert [e.word for e in expand("sql", False, VOCABULARY)] == ["sql"]
    assert expand("sq", True, VOCABULARY) == []  # from three letters


def test_a_typo_only_for_a_word_the_index_does_not_know():
    assert [(e.word, e.kind) for e in expand("brainstroming", False, VOCABULARY)] == [("brainstorming", "typo")]
    assert [(e.word, e.kind) for e in expand("skil", False, VOCABULARY)] == [("skill", "typo")]  # doubled letter
    assert [e.word for e in expand("deplo", False, VOCABULARY)] == ["deploy"]  # one edit from five letters
    assert expand("dep", False, VOCABULARY) == []  # shorter: no typo budget
    assert [e.kind for e in expand("deploy", False, VOCABULARY)] == ["exact"]


def test_meta_does_not_find_metasploit():
    docs = [document("a/ads", "ad-planner", description="Meta ads and Google ads."),
            document("b/pentest", "pentest", description="Metasploit modules. Testosterone is not here.")]  # fmt: skip
    assert ids("meta ads", docs) == ["a/ads"]  # a word already typed is never a prefix
    assert ids("meta test ads", docs) == ["a/ads"]
    # The word being typed (the last) may be the start of a longer word, and the explanation says so.
    first, second = search(MemorySource(docs), "meta", {}, 5)
    assert first.record.id == "a/ads" and first.matches["meta"].how == "exact"
    assert [(f.how, f.via) for f in second.matches["meta"].fields] == [("prefix", "metasploit")]


def test_exact_name_or_id_comes_first():
    docs = [
        document("x/notes-pro", "notes pro", description="notes notes notes, the best notes tool"),
        document("x/notes", "notes", description="Take notes."),
    ]
    assert ids("notes", docs)[0] == "x/notes"
    assert ids("x/notes-pro", docs)[0] == "x/notes-pro"


def test_every_word_in_the_name_before_the_score():
    docs = [
        document("a/long", "csv tools", description="Work with csv, tsv and every csv dialect; csv csv csv export."),
        document("b/export", "csv export", description="Export."),
    ]
    assert ids("csv export", docs) == ["b/export", "a/long"]


def test_a_word_in_the_description_outranks_the_same_word_only_in_the_body():
    docs = [
        document("a/body", "alpha", description="A tool.", body="Uses kubernetes. " + "Other words. " * 20),
        document("b/desc", "beta", description="Runs kubernetes jobs.", body="Other words. " * 20),
    ]
    assert ids("kubernetes", docs) == ["b/desc", "a/body"]


def test_body_words_are_found():
    docs = [document("a/pentest", "pentest", description="Security testing.", body="Start msfconsole and load it.")]
    assert ids("msfconsole", docs) == ["a/pentest"]


def test_ties_by_trust_then_risk_then_freshness_then_id():
    same = {"description": "Lint dockerfiles."}
    docs = [
        document("d/community-new", "lint-d", updated="2026-05-01", **same),
        document("c/community-old", "lint-c", updated="2025-01-01", **same),
        document("b/verified-risky", "lint-b", tier="verified", risk="high", **same),
        document("a/verified", "lint-a", tier="verified", **same),
        document("e/official", "lint-e", tier="official", **same),
    ]
    assert ids("dockerfiles", docs) == [
        "e/official", "a/verified", "b/verified-risky", "d/community-new", "c/community-old",
    ]  # fmt: skip


def test_a_squatter_ranks_after_every_other_skill():
    docs = [
        document("evil/pdf", "pdf", description="pdf pdf pdf pdf tools"),
        document("acme/pdf", "pdf", tier="verified", description="Read pdf files."),
        document("z/reader", "reader", description="Reads a pdf."),
    ]
    assert ids("pdf", docs) == ["acme/pdf", "z/reader", "evil/pdf"]
    assert ids("pdf tools", docs)[-1] == "evil/pdf"


def test_the_explanation_names_only_what_matched():
    docs = [document("a/ship", "ship", description="Deployment helper.", body="Run deploy to ship.")]
    (result,) = search(MemorySource(docs), "deploy vercle", {}, 5)
    fields = {(f.field, f.how, f.via) for f in result.matches["deploy"].fields}
    assert fields == {("description", "stem", "deployment"), ("body", "exact", "deploy")}
    assert "vercle" not in result.matches  # nothing close to it: no claim


def test_filters_and_nothing_matched():
    docs = [document("a/x", "csv", risk="high"), document("b/y", "csv reader")]
    assert ids("csv", docs, risk="low") == ["b/y"]
    assert ids("zebra", docs) == []


def test_order_never_depends_on_input_order():
    docs = [document(f"p/s{i}", f"tool {i}", description="A csv tool. " * (i % 3 + 1)) for i in range(12)]
    expected = ids("csv tool", docs)
    shuffled = docs[:]
    random.Random(7).shuffle(shuffled)
    assert ids("csv tool", shuffled) == expected


@given(
    st.dictionaries(
        st.sampled_from(["name", "tags", "description", "meta", "body"]),
        st.text(alphabet="abc deploy Kubernetes\n-", max_size=80),
    )
)
def test_weights_carry_exactly_the_fields_a_word_is_in(fields):
    for word, weight in word_weights(fields).items():
        pseudo, bits = split_weight(weight)
        assert pseudo > 0
        holding = {f for f, text in fields.items() if word in words(text)}
        assert bits == sum(FIELD_BITS[f] for f in holding)


def test_chinese_japanese_and_korean_are_searched_by_character_pairs():
    assert words("劳动合同 Deploy") == ["劳动", "动合", "合同", "deploy"]
    assert words("维") == ["维"]
    docs = [
        document("a/legal", "法律分析", description="分析劳动合同纠纷，给出维权建议。"),
        document("b/notes", "notes", description="Take notes about contracts."),
    ]
    (result,) = search(MemorySource(docs), "劳动合同维权", {}, 5)
    assert result.record.id == "a/legal"
    assert {f.field for f in result.matches["劳动"].fields} == {"description"}
    assert ids("法律分析", docs) == ["a/legal"] and search(MemorySource(docs), "法律分析", {}, 1)[0].exact

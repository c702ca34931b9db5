"""Issue 25: covering the query, and the synonym table (registry/search/synonyms.yaml) applied alike by the CLI and
the site, with the expansion in each result's "why" line."""

import re

import pytest
import yaml
from conftest import simple_skill, write_skill
from memory_source import MemorySource, document
from test_index_and_cli import javascript_answer, javascript_search, python_answer

from registry.build import build
from registry.config import BuildOptions
from registry.search.engine import expand, search
from registry.search.present import describe
from registry.search.query import search as cli_search
from registry.search.shards import ShardSource
from registry.search.synonyms import SOURCES, TABLE, synonym_groups, synonyms_of
from registry.search.terms import stem_key
from registry.search.text import SOFT_WORDS, STOP_WORDS, words


def ids(query, documents, synonyms=None):
    return [r.record.id for r in search(MemorySource(documents, synonyms), query, {}, limit=20)]


# -- covering the query ---------------------------------------------------------------------------


def test_a_skill_covering_more_query_words_beats_one_repeating_one_word_in_its_body():
    repeats = "Invoices. " + "Stripe stripe stripe checkout with stripe. " * 60
    docs = [
        document("a/stripe-notes", "payment-notes", description="Notes on payments.", body=repeats),
        document("b/subscriptions", "billing", description="Recurring subscription invoices, retries of failed cards."),
    ]
    assert ids("stripe recurring subscription invoices", docs)[0] == "b/subscriptions"


def test_body_repetition_adds_at_most_a_bounded_amount():
    """Past the cap, saying a word more often in the body changes nothing: the same stored weight."""
    from registry.search.terms import BODY_CAP, split_weight, word_weights

    def body_weight(times):
        return split_weight(word_weights({"body": "stripe " * times + "filler " * 400})["stripe"])[0]

    assert body_weight(10) < body_weight(60)
    assert body_weight(400) == body_weight(2000) == pytest.approx(BODY_CAP, abs=1 / 8)


def test_words_said_where_a_skill_says_what_it_is_about_beat_the_same_words_in_a_body():
    docs = [
        document("a/body", "helper", description="A helper.", body="Rotate the api keys of the vault. " * 3),
        document("b/about", "vault-key-rotation", description="Rotate api keys stored in a vault."),
    ]
    assert ids("rotate vault keys", docs)[0] == "b/about"


# -- the synonym table ----------------------------------------------------------------------------


def test_the_synonym_file_is_well_formed():
    data = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    assert set(data) == {"groups"} and isinstance(data["groups"], list) and len(data["groups"]) >= 20
    seen: dict[str, int] = {}
    for number, group in enumerate(data["groups"]):
        assert set(group) == {"source", "words"}, group
        assert group["source"] in SOURCES, group
        members = group["words"]
        assert isinstance(members, list) and len(members) >= 2, group
        for word in members:
            # One index word each, as the tokenizer reads it, never a stop or soft word (a query drops or discounts those).
            assert isinstance(word, str) and words(word) == [word], word
            assert word not in STOP_WORDS and word not in SOFT_WORDS, word
            assert word not in seen, f"{word} is in groups {seen[word]} and {number}"
            seen[word] = number
        # A group whose words all share a stem adds nothing: stems already match each other.
        assert len({stem_key(w) for w in members}) >= 2, group
    assert synonym_groups() == tuple(tuple(g["words"]) for g in data["groups"])


def test_the_table_holds_the_issues_examples():
    for a, b in (("k8s", "kubernetes"), ("pptx", "powerpoint"), ("slides", "pptx"), ("xlsx", "excel"),
                 ("spreadsheet", "xlsx"), ("i18n", "localisation")):  # fmt: skip
        assert b in synonyms_of(a, synonym_groups()), (a, b)


def test_a_synonym_is_found_through_its_stem_and_never_through_the_word_itself():
    groups = [["excel", "xlsx", "spreadsheet"]]
    assert synonyms_of("spreadsheets", groups) == ["excel", "xlsx"]
    assert synonyms_of("xlsx", groups) == ["excel", "spreadsheet"]
    assert synonyms_of("word", groups) == []


def test_synonyms_come_after_the_words_own_forms_and_before_a_prefix():
    vocabulary = {"spreadsheet": 3, "spreadsheets": 2, "spreadsheetml": 1}
    found = expand("spreadsheet", True, vocabulary, [("excel", {"excel": 4, "excels": 1, "exceptional": 9})])
    assert [(e.word, e.kind) for e in found] == [
        ("spreadsheet", "exact"), ("spreadsheets", "stem"), ("excel", "synonym"), ("excels", "synonym"),
        ("spreadsheetml", "prefix"),
    ]  # fmt: skip
    # A word the index does not know is reached through its synonym, not read as a typo.
    assert [(e.word, e.kind) for e in expand("k8s", False, {}, [("kubernetes", {"kubernetes": 5})])] == [
        ("kubernetes", "synonym")
    ]


def test_a_synonym_finds_a_skill_and_the_why_line_says_through_which_word():
    docs = [
        document("a/sheets", "excel-formulas", description="Write Excel formulas and pivot tables."),
        document("b/other", "word-count", description="Count words in a document."),
    ]
    results = search(MemorySource(docs), "spreadsheet formulas", {}, 5)
    assert [r.record.id for r in results] == ["a/sheets"]
    match = results[0].matches["spreadsheet"]
    assert ("name", "synonym", "excel") in [(f.field, f.how, f.via) for f in match.fields]
    assert "spreadsheet in name, description (synonym excel)" in describe(results[0])
    assert ids("spreadsheet formulas", docs, synonyms=[]) == ["a/sheets"]  # formulas alone, without the table
    assert ids("spreadsheet", docs, synonyms=[]) == []


def test_a_synonym_adds_nothing_where_a_skill_says_the_word_itself():
    """The table stands in for a word a skill does not say: one that says it gains nothing from also saying its
    synonym, so a skill is not pushed up for using two names of one thing."""
    docs = [
        document("a/both", "sheets", description="Spreadsheet help: excel, xlsx and spreadsheet files."),
        document("b/one", "sheets-too", description="Spreadsheet help for spreadsheet files."),
    ]
    with_table = {r.record.id: r.score for r in search(MemorySource(docs), "spreadsheet", {}, 5)}
    without = {r.record.id: r.score for r in search(MemorySource(docs, synonyms=[]), "spreadsheet", {}, 5)}
    assert with_table == without


# -- the CLI and the site alike -------------------------------------------------------------------

SKILLS = {
    "ops/cluster-pods": ("cluster-pods", "Restart pods and read logs on a Kubernetes cluster."),
    "ops/k8s-quota": ("k8s-quota", "Set k8s resource quotas for a namespace."),
    # Written "Powerpoint": the tokenizer splits camelCase, so "PowerPoint" is indexed as "power point" (README.md).
    "docs/deck-builder": ("deck-builder", "Build Powerpoint decks from an outline."),
    "docs/pptx-theme": ("pptx-theme", "Apply a theme to a .pptx file."),
    "data/sheet-cleaner": ("sheet-cleaner", "Clean an Excel workbook, trim cells and fix dates."),
    "data/xlsx-merge": ("xlsx-merge", "Merge xlsx files into one spreadsheet."),
    "web/locale-keys": ("locale-keys", "Find missing i18n keys in a web app."),
    "web/translate-ui": ("translate-ui", "Localisation of an app's interface strings."),
    "misc/notes": ("notes", "Take notes about anything."),
}
QUERIES = ["kubernetes pods", "k8s", "slides", "make slides from my outline", "spreadsheet", "xlsx cleanup",
           "localization", "i18n", "debug my app", "notes"]  # fmt: skip


@pytest.fixture(scope="module")
def synonym_site(tmp_path_factory):
    source = tmp_path_factory.mktemp("synonym-skills")
    for skill_id, (name, description) in SKILLS.items():
        write_skill(source, skill_id, simple_skill(name, description=description + " Use when asked."))
    out = tmp_path_factory.mktemp("synonym-site") / "site"
    build(BuildOptions(source=source, out=out))
    return out


def test_the_site_carries_the_table_the_cli_ranks_with(synonym_site):
    source = ShardSource(synonym_site)
    assert source.manifest["synonyms"] == [list(g) for g in synonym_groups()]
    assert source.manifest["kinds"]["synonym"] == 0.8


def test_cli_and_javascript_expand_alike(synonym_site, tmp_path):
    """The same results, scores and explanations (how: synonym, via: the indexed word) from the CLI over Whoosh and
    static/search-rank.js over the shards."""
    answers = javascript_search(synonym_site, [(q, {}) for q in QUERIES], tmp_path)
    for query, found in zip(QUERIES, answers, strict=True):
        assert javascript_answer(found) == python_answer(synonym_site, query, {}), query
    index = synonym_site
    k8s = [r.record.id for r in cli_search(index, "k8s")]
    assert set(k8s[:2]) == {"ops/k8s-quota", "ops/cluster-pods"}
    slides = cli_search(index, "slides")
    assert {r.record.id for r in slides} == {"docs/deck-builder", "docs/pptx-theme"}
    assert all("synonym" in describe(r) for r in slides)
    found = {r["id"]: r for r in answers[QUERIES.index("slides")]["results"]}
    assert {f["how"] for f in found["docs/deck-builder"]["matches"]["slides"]["fields"]} == {"synonym"}
    assert {f["via"] for f in found["docs/pptx-theme"]["matches"]["slides"]["fields"]} == {"pptx"}


def test_the_search_page_shows_the_expansion_in_the_why_line(synonym_site, browser):
    from browser_support import serve, watch

    served = serve(synonym_site)
    try:
        page = browser.new_page()
        problems = watch(page)
        page.goto(served.url + "search/")
        page.wait_for_selector("form[data-ready]")
        hrefs = page.evaluate("q => window.__skillSearch(q)", "spreadsheet")
        cli = [r.record.id for r in cli_search(synonym_site, "spreadsheet", limit=20)]
        assert [h.split("/skills/", 1)[1].rstrip("/") for h in hrefs] == cli
        why = page.eval_on_selector_all(".result .why", "els => els.map(e => e.textContent)")
        titles = page.eval_on_selector_all("a.result-title", "els => els.map(e => e.getAttribute('href'))")
        by_skill = dict(zip([t.split("/skills/", 1)[1].rstrip("/") for t in titles], why, strict=True))
        assert re.search(
            r"spreadsheet → excel in name|spreadsheet → excel in description", by_skill["data/sheet-cleaner"]
        )
        assert "(synonym)" in by_skill["data/sheet-cleaner"]
        assert problems == []
        page.close()
    finally:
        served.close()

"""MRR@10 and recall@10 of search over the real corpus, for the CLI ranking and for the site.

Two sets, reported apart. queries.yaml, the set ranking is tuned on: the targets of issue 15 hold over
every query (MRR@10 at least 0.90, recall@10 at least 0.95, CLI and site alike), issue 25 keeps it at
least where it was, and exact, partial and typo queries stay at MRR 1.0. The original kinds (task,
exact, typo, partial) and `body` (answers only a skill's body or tool/input names hold) are also
reported apart, beside a baseline: plain BM25 over all of a skill's text, built in the same run.
paraphrases.yaml, the held-out set of issue 25 (tasks in other words, never tuned on): its own floors.
The site must give exactly the CLI's results on both: one ranking, read from the same numbers.
"""

from pathlib import Path

import pytest
import yaml
from whoosh import analysis, fields, index
from whoosh.query import Or, Term

from registry.build import build, search_cache
from registry.config import BuildOptions, Limits
from registry.crawl import crawl
from registry.model import Skill
from registry.parse.skill import parse_skill
from registry.search import engine
from registry.search.query import SiteSource

QUERIES = yaml.safe_load((Path(__file__).parent / "queries.yaml").read_text())
PARAPHRASES = yaml.safe_load((Path(__file__).parent / "paraphrases.yaml").read_text())
ORIGINAL_KINDS = ("task", "exact", "typo", "partial")
ORIGINAL = [q for q in QUERIES if q["kind"] in ORIGINAL_KINDS]
BODY = [q for q in QUERIES if q["kind"] == "body"]
# History, original 153 queries: first honest measurement MRR@10 0.787, recall@10 0.872; soft words and
# prefix rules 0.810 and 0.896; Snowball stems 0.837 and 0.903; bodies indexed with BM25F (issue 15)
# 0.884 and 0.934; with CJK character pairs, 0.891 and 0.947. All 226 queries: 0.926 and 0.964 (README.md here).
FLOORS = {"mrr": 0.90, "recall": 0.95}
# Issue 25: the held-out paraphrases (before its ranking changes, CLI and site alike: 0.338 / 0.453; after: 0.326 /
# 0.443, README.md here) and the tuning set no lower than it was before them (0.9261 / 0.9639). The target
# for the paraphrases, 0.90 / 0.95, is not met and the issue is blocked on it (word matching does not reach tasks
# written without the answer's words); these floors only keep today's level from slipping further.
PARAPHRASE_FLOORS = {"mrr": 0.32, "recall": 0.44}
KEPT_FLOORS = {"mrr": 0.926, "recall": 0.963}
NAME_KINDS = ("exact", "typo", "partial")
TOP = 10


def metrics(results: dict[str, list[str]], queries: list[dict]) -> dict[str, float]:
    reciprocal, recall = [], []
    for item in queries:
        top = results[item["query"]][:TOP]
        expected = item["expect"]
        rank = next((i for i, skill_id in enumerate(top, start=1) if skill_id in expected), None)
        reciprocal.append(1 / rank if rank else 0.0)
        recall.append(len(set(expected) & set(top)) / len(expected))
    return {"mrr": sum(reciprocal) / len(reciprocal), "recall": sum(recall) / len(recall)}


def summary_line(label: str, results: dict[str, list[str]]) -> str:
    """One line per engine, the same shape for the CLI, the site and the baseline, so they read side by side."""
    every, original, body = metrics(results, QUERIES), metrics(results, ORIGINAL), metrics(results, BODY)
    return (
        f"{label:<9} all ({len(QUERIES)}): MRR@10 {every['mrr']:.3f}, recall@10 {every['recall']:.3f}"
        f" | original kinds ({len(ORIGINAL)}): MRR@10 {original['mrr']:.3f}, recall@10 {original['recall']:.3f}"
        f" | body ({len(BODY)}): MRR@10 {body['mrr']:.3f}, recall@10 {body['recall']:.3f}"
    )


def kind_lines(results: dict[str, list[str]]) -> list[str]:
    lines = []
    for kind in (*ORIGINAL_KINDS, "body"):
        subset = [q for q in QUERIES if q["kind"] == kind]
        score = metrics(results, subset)
        lines.append(f"  {kind:<8} n={len(subset):<4} MRR@10 {score['mrr']:.3f}  recall@10 {score['recall']:.3f}")
    return lines


def misses(results: dict[str, list[str]], queries: list[dict]) -> list[str]:
    return [q["query"] for q in queries if not set(q["expect"]) & set(results[q["query"]][:TOP])]


def paraphrase_lines(label: str, results: dict[str, list[str]]) -> list[str]:
    """The held-out set on its own lines: its queries, its misses and the ones not first."""
    score = metrics(results, PARAPHRASES)
    missed = misses(results, PARAPHRASES)
    first = [q for q in PARAPHRASES if results[q["query"]][:1] and results[q["query"]][0] in q["expect"]]
    return [
        f"{label:<9} paraphrases ({len(PARAPHRASES)}): MRR@10 {score['mrr']:.3f}, recall@10 {score['recall']:.3f}",
        f"  paraphrases first: {len(first)}, in the top 10 but not first: {len(PARAPHRASES) - len(first) - len(missed)}",
        f"  paraphrases not found in the top 10: {len(missed)}: {missed}",
    ]


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory, corpus):
    out = tmp_path_factory.mktemp("relevance") / "site"
    build(BuildOptions(source=corpus, out=out))
    return out


@pytest.fixture(scope="module")
def cli_index(corpus_site) -> SiteSource:
    """What `skill-registry search --site <corpus site>` reads, opened once for every query."""
    return SiteSource(corpus_site)


def all_text(skill: Skill) -> str:
    """Everything a skill says: name, description, tags, category, the whole body, tool/input/argument names."""
    names = [t.name for t in skill.tools] + [i.name for i in skill.inputs] + [i.label for i in skill.inputs]
    names += [a.name for a in skill.arguments]
    parts = [skill.display_name, skill.description or "", " ".join(skill.tags), skill.category or ""]
    return "\n".join([*parts, skill.document.body, *names])


@pytest.fixture(scope="module")
def baseline_results(tmp_path_factory, corpus, corpus_site) -> dict[str, list[str]]:
    """Plain BM25 (Whoosh's default BM25F over one TEXT field, standard analyzer, terms OR-ed) over the
    same skills the CLI indexed."""
    with index.open_dir(str(search_cache(corpus_site) / "whoosh")).searcher() as searcher:
        indexed = {stored["id"] for stored in searcher.all_stored_fields()}
    skills = [parse_skill(location, Limits()) for location in crawl(corpus, Limits()).locations]
    skills = [s for s in skills if s.id in indexed]
    assert len(skills) == len(indexed), "the baseline must rank the same skills as the CLI"

    analyzer = analysis.StandardAnalyzer()
    schema = fields.Schema(id=fields.ID(stored=True, unique=True), text=fields.TEXT(analyzer=analyzer))
    folder = tmp_path_factory.mktemp("baseline-bm25")
    baseline = index.create_in(str(folder), schema)
    with baseline.writer() as writer:
        for skill in skills:
            writer.add_document(id=skill.id, text=all_text(skill))
    results = {}
    with baseline.searcher() as searcher:
        for item in QUERIES + PARAPHRASES:
            terms = [Term("text", token.text) for token in analyzer(item["query"])]
            hits = searcher.search(Or(terms), limit=TOP) if terms else []
            results[item["query"]] = [hit["id"] for hit in hits]
    return results


def assert_targets(results: dict[str, list[str]]) -> None:
    score = metrics(results, QUERIES)
    for floors in (FLOORS, KEPT_FLOORS):
        assert score["mrr"] >= floors["mrr"] and score["recall"] >= floors["recall"], score
    for kind in NAME_KINDS:
        assert metrics(results, [q for q in QUERIES if q["kind"] == kind])["mrr"] == 1.0, kind
    held_out = metrics(results, PARAPHRASES)
    assert held_out["mrr"] >= PARAPHRASE_FLOORS["mrr"] and held_out["recall"] >= PARAPHRASE_FLOORS["recall"], held_out


@pytest.fixture(scope="module")
def cli_results(cli_index) -> dict[str, list[str]]:
    return {
        q["query"]: [r.record.id for r in engine.search(cli_index, q["query"], {}, limit=TOP)]
        for q in QUERIES + PARAPHRASES
    }


def test_cli_ranking(cli_results, baseline_results, capsys):
    results = cli_results
    with capsys.disabled():
        print(f"\nCLI search over the corpus ({len(QUERIES)} queries):")
        print(summary_line("CLI", results))
        print(summary_line("baseline", baseline_results))
        print("CLI by kind:", *kind_lines(results), sep="\n")
        print("baseline by kind:", *kind_lines(baseline_results), sep="\n")
        print(
            f"  original kinds not found in the top 10: {len(misses(results, ORIGINAL))}: {misses(results, ORIGINAL)}"
        )
        print(f"  body queries not found in the top 10: {len(misses(results, BODY))}: {misses(results, BODY)}")
        print(*paraphrase_lines("CLI", results), sep="\n")
        print(paraphrase_lines("baseline", baseline_results)[0])
    assert_targets(results)


def test_baseline_finds_what_bodies_say(baseline_results):
    """The baseline indexes bodies, so the body queries (each with a word only a body holds) are within its reach:
    it finding none of them would mean the baseline was built wrong, not that the queries are hard."""
    assert metrics(baseline_results, BODY)["recall"] > 0.5


def test_site_search_in_a_browser(corpus_site, browser, baseline_results, cli_results, capsys):
    """The same queries through the search page (static/search.js over the site's shards) in headless Chromium."""
    from browser_support import serve

    served = serve(corpus_site)
    try:
        results = run_site_queries(browser, served.url)
    finally:
        served.close()
    with capsys.disabled():
        print(f"\nSite search over the corpus ({len(QUERIES)} queries):")
        print(summary_line("site", results))
        print(summary_line("baseline", baseline_results))
        print("site by kind:", *kind_lines(results), sep="\n")
        print(*paraphrase_lines("site", results), sep="\n")
    assert results == cli_results  # the same ranking, not merely as good (first: it holds whatever the figures)
    assert_targets(results)


def run_site_queries(browser, url: str) -> dict[str, list[str]]:
    page = browser.new_page()
    page.goto(url + "search/")
    page.wait_for_selector("form[data-ready]")
    results = {}
    for item in QUERIES + PARAPHRASES:
        hrefs = page.evaluate("q => window.__skillSearch(q)", item["query"])
        results[item["query"]] = [href.split("/skills/", 1)[1].rstrip("/") for href in hrefs][:TOP]
    page.close()
    return results


def test_a_first_query_in_the_browser_fetches_what_the_reference_reader_reads(corpus_site, browser):
    """bench/search_download.py counts a first query's bytes with registry/search/shards.py's reader: the page
    must ask for exactly those files (and nothing else under search/), so the bench measures what a browser does."""
    from browser_support import serve

    from registry.search import engine
    from registry.search.shards import ShardSource

    served = serve(corpus_site)
    try:
        for query in ("make a plan for this coding task before I start", "dokerfile", "公司违法解除劳动合同", "skil"):
            page = browser.new_page()
            fetched: list[str] = []
            page.on(
                "request",
                lambda r, into=fetched: into.append(r.url.split("/search/", 1)[1]) if "/search/" in r.url else None,
            )
            page.goto(served.url + "search/")
            page.wait_for_selector("form[data-ready]")
            hrefs = page.evaluate("q => window.__skillSearch(q)", query)
            page.close()
            source = ShardSource(corpus_site)
            expected = [r.record.id for r in engine.search(source, query, {}, 20)]
            read = {"manifest.json"} | {f for f in source.fetched if (corpus_site / "search" / f).is_file()}
            assert [h.split("/skills/", 1)[1].rstrip("/") for h in hrefs] == expected, query
            assert {f for f in fetched if f} == read, query
    finally:
        served.close()

"""The Whoosh index: built with the site, incremental, and the `search` command on top of it."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import REPO_ROOT, SKILLS_INDEX, simple_skill, write_skill

from registry.build import build, search_cache
from registry.cli import main
from registry.config import BuildOptions
from registry.search import engine
from registry.search.query import Filters, SiteSource, WhooshSource, search


def run_build(source, out):
    return build(BuildOptions(source=source, out=out))


def test_incremental_indexing_touches_only_what_changed(tmp_path):
    source = tmp_path / "src"
    for i in range(5):
        write_skill(
            source, f"p/skill-{i}", simple_skill(f"skill-{i}", description=f"Tool number {i}. Use when testing.")
        )
    out = tmp_path / "site"
    first = run_build(source, out).search.whoosh
    assert (first.indexed, first.removed, first.unchanged) == (5, 0, 0)
    again = run_build(source, out).search.whoosh
    assert (again.indexed, again.removed, again.unchanged) == (0, 0, 5)
    write_skill(source, "p/skill-2", simple_skill("skill-2", description="Now about invoices. Use when billing."))
    changed = run_build(source, out).search.whoosh
    assert (changed.indexed, changed.removed, changed.unchanged) == (1, 0, 4)
    import shutil

    shutil.rmtree(source / "p" / "skill-4")
    removed = run_build(source, out).search.whoosh
    assert (removed.indexed, removed.removed, removed.unchanged) == (0, 1, 4)
    hits = search(out, "invoices")
    assert [r.record.id for r in hits] == ["p/skill-2"]
    assert search_cache(out).is_dir()


def test_filters_and_typos(tmp_path):
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    index = out
    first = search(index, "dokerfile lint")[0]
    assert first.record.id == "acme-devtools/dockerfile-lint"
    assert {f.how for f in first.matches["dokerfile"].fields} == {"typo"}
    assert {f.via for f in first.matches["dokerfile"].fields} == {"dockerfile"}
    only_data = search(index, "csv", Filters(category="data"))
    assert only_data and all(r.record.category == "data" for r in only_data)
    official = search(index, "skill", Filters(trust="official"))
    assert official and all(r.record.tier == "official" for r in official)
    wolffish = search(index, "git", Filters(dialect="wolffish"))
    assert wolffish and all("wolffish" in r.record.dialects for r in wolffish)


def test_search_command_json_is_stable(tmp_path):
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    result = CliRunner().invoke(
        main, ["search", "write a commit message", "--site", str(out), "--json", "--limit", "3"]
    )
    data = json.loads(result.output)
    assert data["format"] == 2 and data["query"] == "write a commit message"
    first = data["results"][0]
    assert first["id"] == "registry-team/commit-message-writer" and first["rank"] == 1
    assert set(first) == {
        "rank",
        "id",
        "name",
        "description",
        "version",
        "tier",
        "risk",
        "category",
        "last_updated",
        "match",
    }
    words = first["match"]["words"]
    assert set(words) == {"write", "commit", "message"}
    # Snowball keeps "writer" whole: "write" is found as "writes" in the description, never in the name.
    assert "name" not in {f["field"] for f in words["write"]}
    assert {"field": "name", "how": "exact", "via": "commit"} in words["commit"]
    text = CliRunner().invoke(main, ["search", "commit", "--site", str(out)]).output
    assert "commit-message-writer" in text and "why:" in text
    missing = CliRunner().invoke(main, ["search", "x", "--site", str(tmp_path)])
    assert missing.exit_code == 2


# Runs static/search-rank.js in Node over a built site: `fetch` reads the site's files (a missing one is a 404),
# and every file asked for is listed, so a test can see what a query downloads.
NODE_SEARCH = """
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
const [rankModule, site] = process.argv.slice(2);
const { createSource, search } = await import(rankModule);
const cases = JSON.parse(readFileSync(0, "utf8"));
const fetched = [];
async function fetchFile(url) {
  fetched.push(url.slice(site.length));
  try {
    const data = await readFile(url);
    return { ok: true, status: 200, json: async () => JSON.parse(data.toString("utf8")),
      arrayBuffer: async () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) };
  } catch (error) {
    if (error.code === "ENOENT") return { ok: false, status: 404 };
    throw error;
  }
}
const results = [];
for (const { query, filters } of cases) {
  const source = createSource(site, fetchFile);
  fetched.length = 0;
  const found = await search(source, query, filters, 20);
  results.push({ fetched: [...fetched], results: found });
}
console.log(JSON.stringify(results));
"""
SITE_RESULTS = 20  # what the search page shows
# Filter fields as the site names them -> the CLI's Filters arguments.
CLI_FILTERS = {"category": "category", "tier": "trust", "risk": "risk", "dialect": "dialect"}


def javascript_search(site: Path, cases: list[tuple[str, dict]], scratch: Path) -> list[dict]:
    script = scratch / "node-search.mjs"
    script.write_text(NODE_SEARCH)
    stdin = json.dumps([{"query": query, "filters": filters} for query, filters in cases])
    command = ["node", str(script), str(REPO_ROOT / "static" / "search-rank.js"), f"{site}/"]
    result = subprocess.run(command, input=stdin, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def python_answer(site: Path, query: str, filters: dict) -> list[tuple]:
    """Per result: id, the ranking key up to the score, exact or not, and per query word each field matched with
    how and through which indexed word."""
    arguments = {CLI_FILTERS[field]: value for field, value in filters.items()}
    return [
        (
            r.record.id,
            list(r.key[:4]),
            r.exact,
            {word: [[f.field, f.how, f.via] for f in match.fields] for word, match in r.matches.items()},
        )
        for r in engine.search(
            WhooshSource(search_cache(site) / "whoosh"), query, Filters(**arguments).as_fields(), SITE_RESULTS
        )
    ]


def javascript_answer(found: dict) -> list[tuple]:
    return [
        (
            r["id"],
            r["key"][:4],
            r["exact"],
            {word: [[f["field"], f["how"], f["via"]] for f in match["fields"]] for word, match in r["matches"].items()},
        )
        for r in found["results"]
    ]


def test_javascript_ranking_orders_like_python(tmp_path):
    """static/search-rank.js (the browser, over the site's shards) and the CLI (over Whoosh) return the same skills
    in the same order, with the same scores and the same explanations."""
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    cases = [
        ("Commit Message Writer", {}),  # an exact name
        ("registry-team/changelog-keeper", {}),  # an id
        ("dokerfile", {}),  # typos
        ("skil creator", {}),
        ("comit mesage", {}),
        ("dock", {}),  # the last word typed, as a prefix
        ("commit mess", {}),
        ("deploying", {}),  # a stem
        ("alt text", {}),
        ("write tests", {}),
        ("testing changes", {}),
        ("help me write a changelog", {}),  # soft words
        ("csv", {}),
        ("csv", {"tier": "verified"}),  # filters
        ("csv", {"category": "data", "risk": "low"}),
        ("git", {"dialect": "wolffish"}),
        ("meta", {}),
        ("lint", {}),
        ("zzqx quorple", {}),  # nothing
    ]
    answers = javascript_search(out, cases, tmp_path)
    for (query, filters), found in zip(cases, answers, strict=True):
        assert javascript_answer(found) == python_answer(out, query, filters), (query, filters)
    by_query = {
        (query, json.dumps(filters)): found["results"] for (query, filters), found in zip(cases, answers, strict=True)
    }
    assert by_query[("Commit Message Writer", "{}")][0]["exact"]
    typo = by_query[("dokerfile", "{}")][0]
    assert typo["id"] == "acme-devtools/dockerfile-lint"
    assert {(f["how"], f["via"]) for f in typo["matches"]["dokerfile"]["fields"]} == {("typo", "dockerfile")}
    assert by_query[("csv", json.dumps({"tier": "verified"}))]
    assert {r["tier"] for r in by_query[("csv", json.dumps({"tier": "verified"}))]} == {"verified"}
    assert by_query[("zzqx quorple", "{}")] == []
    assert all(by_query[(query, json.dumps(filters))] for query, filters in cases[:-1])


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory, corpus):
    out = tmp_path_factory.mktemp("corpus-search") / "site"
    build(BuildOptions(source=corpus, out=out))
    return out


def test_javascript_ranking_orders_like_python_on_the_corpus(corpus_site, tmp_path):
    queries = yaml.safe_load((REPO_ROOT / "tests" / "relevance" / "queries.yaml").read_text())[:60]
    cases = [(item["query"], {}) for item in queries]
    answers = javascript_search(corpus_site, cases, tmp_path)
    differing = [
        query
        for (query, _), found in zip(cases, answers, strict=True)
        if javascript_answer(found) != python_answer(corpus_site, query, {})
    ]
    assert differing == []
    assert sum(1 for found in answers if found["results"]) >= 55


def test_the_cli_reads_the_shards_and_shows_whole_descriptions(tmp_path):
    """`skill-registry search` ranks from the site's shards (as the browser does) and shows each description whole,
    from the build cache; an edit reaches it at the next build, and a site copied without its cache still answers."""
    source = tmp_path / "src"
    long_description = "Reconciles quarterly ledgers against bank exports. " * 6 + "Use when closing the books."
    write_skill(source, "p/ledger", simple_skill("ledger", description=long_description))
    write_skill(source, "p/other", simple_skill("other", description="Formats ledgers for print. Use when printing."))
    out = tmp_path / "site"
    run_build(source, out)
    shown = json.loads(CliRunner().invoke(main, ["search", "--site", str(out), "--json", "reconciles ledgers"]).output)
    assert shown["results"][0]["id"] == "p/ledger"
    assert shown["results"][0]["description"] == long_description
    docs = [r for chunk in (out / "search" / "docs").glob("*.json") for r in json.loads(chunk.read_text()) if r]
    assert any(r[2].endswith("…") and len(r[2]) == 200 for r in docs), "the site's shards keep the short form"

    edited = long_description.replace("quarterly", "monthly")
    write_skill(source, "p/ledger", simple_skill("ledger", description=edited))
    run_build(source, out)
    assert search(out, "reconciles ledgers")[0].record.description == edited

    copied = tmp_path / "copy" / "site"
    shutil.copytree(out, copied)  # no .site.cache beside it
    record = search(copied, "reconciles ledgers")[0].record
    assert record.id == "p/ledger" and record.description == edited[:199] + "…"


def test_the_shards_rank_exactly_as_the_whoosh_index(tmp_path):
    """The CLI's source (the shards) and the index they are written from give the same results, keys and scores."""
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    shards_source = SiteSource(out)
    whoosh_source = WhooshSource(search_cache(out) / "whoosh")
    queries = ["commit message", "dokerfile", "csv", "write tests", "help me write a changelog", "dock", "zzqx"]
    for query in queries:
        for filters in ({}, {"tier": "verified"}, {"category": "data", "risk": "low"}):
            from_shards = engine.search(shards_source, query, filters, 20)
            from_whoosh = engine.search(whoosh_source, query, filters, 20)
            assert [(r.record.id, r.key, r.score, r.matches) for r in from_shards] == [
                (r.record.id, r.key, r.score, r.matches) for r in from_whoosh
            ], (query, filters)
    whoosh_source.searcher.close()

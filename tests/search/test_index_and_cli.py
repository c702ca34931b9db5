"""The Whoosh index: built with the site, incremental, and the `search` command on top of it."""

import json
import subprocess

from click.testing import CliRunner
from conftest import REPO_ROOT, SKILLS_INDEX, simple_skill, write_skill

from registry.build import build, search_cache
from registry.cli import main
from registry.config import BuildOptions
from registry.search.query import Filters, candidate_from, search


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
    hits = search(search_cache(out) / "whoosh", "invoices")
    assert [r.candidate.id for r in hits] == ["p/skill-2"]
    assert search_cache(out).is_dir()


def test_filters_and_typos(tmp_path):
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    index = search_cache(out) / "whoosh"
    assert search(index, "dokerfile lint")[0].candidate.id == "acme-devtools/dockerfile-lint"
    only_data = search(index, "csv", Filters(category="data"))
    assert only_data and all(r.candidate.extra["category"] == "data" for r in only_data)
    assert all(r.candidate.tier == "official" for r in search(index, "skill", Filters(trust="official")))
    assert all("wolffish" in r.candidate.extra["dialects"] for r in search(index, "git", Filters(dialect="wolffish")))


def test_search_command_json_is_stable(tmp_path):
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    result = CliRunner().invoke(
        main, ["search", "write a commit message", "--site", str(out), "--json", "--limit", "3"]
    )
    data = json.loads(result.output)
    assert data["format"] == 1 and data["query"] == "write a commit message"
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
    # Snowball keeps "writer" whole, so "write" is found as "Writes" in the description, not in the name.
    assert first["match"]["fields"] == {"write": "description", "commit": "name", "message": "name"}
    text = CliRunner().invoke(main, ["search", "commit", "--site", str(out)]).output
    assert "commit-message-writer" in text and "why:" in text
    missing = CliRunner().invoke(main, ["search", "x", "--site", str(tmp_path)])
    assert missing.exit_code == 2


def test_javascript_ranking_orders_like_python(tmp_path):
    """static/search-rank.js (the browser) and rank.py (CLI, agents) agree on every query."""
    out = tmp_path / "site"
    run_build(SKILLS_INDEX, out)
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(search_cache(out) / "whoosh"))
    with ix.searcher() as searcher:
        candidates = [candidate_from(stored, 0.0) for stored in searcher.all_stored_fields()]
    queries = [
        "commit message", "csv", "dokerfile", "write tests", "registry-team/changelog-keeper", "git", "alt text",
        "deploying", "meta", "skil creator", "testing changes", "comit mesage", "lint",
    ]  # fmt: skip
    from registry.search.rank import rank

    expected = {q: [r.candidate.id for r in rank(q, candidates)] for q in queries}
    js_candidates = [
        {
            "id": c.id, "name": c.name, "tier": c.tier, "risk": c.risk, "updated": c.last_updated,
            "nameWords": list(c.name_words), "tagWords": list(c.tag_words),
            "descriptionWords": list(c.description_words), "bodyWords": list(c.body_words), "score": 0,
        }
        for c in candidates
    ]  # fmt: skip
    script = (
        f"import('{REPO_ROOT / 'static' / 'search-rank.js'}').then(m => {{"
        f"const cs = {json.dumps(js_candidates)}; const qs = {json.dumps(queries)};"
        "const out = {}; for (const q of qs) out[q] = m.rank(q, cs).map(r => r.c.id);"
        "console.log(JSON.stringify(out)); })"
    )
    result = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == expected

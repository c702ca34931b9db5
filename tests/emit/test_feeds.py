"""Atom feeds: valid Atom, newest first, one per category and publisher, linked from the pages."""

import json

import feedparser
from conftest import commit_all, git, simple_skill, write_skill

from registry.build import build
from registry.config import BuildOptions


def test_feeds_are_valid_atom_and_follow_git_dates(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "registry.yaml").write_text("categories: [development, data, other]\n")
    write_skill(repo, "acme/older", simple_skill("older", description="Cleans CSV data tables. Use for data work."))
    commit_all(repo, "one", "2025-01-01T00:00:00+00:00")
    write_skill(repo, "beta/newer", simple_skill("newer", description="Reviews code and refactors. Use when coding."))
    commit_all(repo, "two", "2025-03-01T00:00:00+00:00")
    out = tmp_path / "site"
    build(BuildOptions(source=repo, out=out, base_url="https://r.example/"))
    feed = feedparser.parse((out / "feeds" / "all.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    assert feed.feed.title == "Skill Registry: new and updated skills"
    assert [e.link for e in feed.entries] == [
        "https://r.example/skills/beta/newer/",
        "https://r.example/skills/acme/older/",
    ]
    assert feed.entries[0].updated == "2025-03-01T00:00:00Z" and feed.entries[0].title.startswith("New: newer")
    index = json.loads((out / "index.json").read_text())
    categories = {s["category"] for s in index["skills"]}
    for path in [
        "feeds/publishers/acme.xml",
        "feeds/publishers/beta.xml",
        *(f"feeds/categories/{c}.xml" for c in categories),
    ]:
        parsed = feedparser.parse((out / path).read_bytes())
        assert not parsed.bozo and parsed.entries, path
    assert 'href="feeds/all.xml"' in (out / "index.html").read_text()
    some = sorted(categories)[0]
    assert f"feeds/categories/{some}.xml" in (out / "categories" / some / "index.html").read_text()


def test_without_history_feeds_are_valid_and_empty(tmp_path):
    write_skill(tmp_path / "src", "p/a", simple_skill("a"))
    build(BuildOptions(source=tmp_path / "src", out=tmp_path / "site"))
    feed = feedparser.parse((tmp_path / "site" / "feeds" / "all.xml").read_bytes())
    assert not feed.bozo and feed.entries == []

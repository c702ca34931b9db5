"""/.well-known/ai-catalog.json (and its ARD v0.91 name, ard.json): one entry per discoverable skill, each
pointing at a file the site serves, with the fields the AI Catalog and ARD drafts require."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest
from conftest import commit_all, git, simple_skill, write_skill

from registry.build import build
from registry.config import BuildOptions
from registry.emit.ai_catalog import ARCHIVE_TYPE, SKILL_MD_TYPE, identifier, representative_queries

BASE = "https://skills.example.org/registry/"
URN = re.compile(r"urn:air:[a-z0-9.-]+:skill(:[A-Za-z0-9._~%-]+)+")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("ai-catalog")
    source = root / "src"
    write_skill(
        source, "acme/alpha",
        simple_skill("alpha", "Summarises CSV files quickly. Use when the user asks for column statistics."),
    )  # fmt: skip
    write_skill(source, "acme/bundle", simple_skill("bundle"), {"scripts/run.sh": "#!/bin/sh\necho hi\n"})
    git(source, "init", "-q", "-b", "main")
    commit_all(source, "first", "2025-01-10T10:00:00+00:00")
    # The same name as acme/alpha, published later: on the site, but not in the discovery indexes (D002).
    write_skill(source, "zeta/alpha", simple_skill("alpha", "Another alpha. Use when testing."))
    commit_all(source, "second", "2025-02-10T10:00:00+00:00")
    out = root / "site"
    result = build(BuildOptions(source=source, out=out, base_url=BASE))
    catalog = json.loads((out / ".well-known" / "ai-catalog.json").read_text(encoding="utf-8"))
    return out, result, catalog


def test_every_discoverable_skill_is_listed_once_and_only_those(site):
    out, result, catalog = site
    assert sorted(result.published_ids) == ["acme/alpha", "acme/bundle", "zeta/alpha"]
    pages = [entry["extensions"]["page"] for entry in catalog["entries"]]
    assert pages == [BASE + "skills/acme/alpha/", BASE + "skills/acme/bundle/"]
    identifiers = [entry["identifier"] for entry in catalog["entries"]]
    assert len(set(identifiers)) == len(identifiers)
    # The same skills as the v0.2 discovery index, each at the artifact that index serves.
    index = json.loads((out / ".well-known" / "agent-skills" / "index.json").read_text(encoding="utf-8"))
    artifacts = {BASE + ".well-known/agent-skills/" + skill["url"] for skill in index["skills"]}
    assert {entry["url"] for entry in catalog["entries"]} == artifacts


def test_every_url_leads_to_a_file_the_site_serves(site):
    out, _, catalog = site
    for entry in catalog["entries"]:
        urls = [entry["url"], *(entry["extensions"][key] for key in ("page", "agentSkillsIndex"))]
        for url in urls:
            assert url.startswith(BASE)
            path = out / unquote(url.removeprefix(BASE))
            assert (path / "index.html" if url.endswith("/") else path).is_file(), url


def test_entries_carry_the_required_fields_and_the_media_type_of_their_artifact(site):
    _, _, catalog = site
    assert catalog["specVersion"] == "1.0" and catalog["host"]["displayName"]
    assert "draft" in catalog["$comment"].lower()
    types = {}
    for entry in catalog["entries"]:
        assert {"identifier", "displayName", "type", "url"} <= set(entry) and "data" not in entry
        assert URN.fullmatch(entry["identifier"]), entry["identifier"]
        assert entry["identifier"].startswith("urn:air:skills.example.org:skill:")
        assert 2 <= len(entry["representativeQueries"]) <= 5
        types[entry["displayName"]] = entry["type"]
        assert entry["updatedAt"] == "2025-01-10T10:00:00Z"
    assert types == {"alpha": SKILL_MD_TYPE, "bundle": ARCHIVE_TYPE}


def test_the_ard_path_serves_the_same_bytes(site):
    out, _, _ = site
    well_known = out / ".well-known"
    assert (well_known / "ard.json").read_bytes() == (well_known / "ai-catalog.json").read_bytes()


def test_representative_queries_come_from_what_the_skill_says():
    queries = representative_queries(
        "csv-quick-stats",
        "Summarises CSV files quickly.  Use this skill when the user asks for column statistics. Also plots.",
        ["csv stats", "*", "CSV STATS", "column summary"],
    )
    assert queries == (
        "Summarises CSV files quickly",
        "the user asks for column statistics",
        "csv stats",
        "column summary",
        "csv quick stats",
    )
    assert representative_queries("alpha", "", []) == ("alpha",)  # nothing invented when the skill says little


def test_a_very_long_description_gives_a_query_cut_at_a_word():
    [first, name] = representative_queries("x", "word " * 100, [])
    assert len(first) <= 200 and first.endswith("word") and name == "x"


def test_identifiers_keep_every_folder_of_the_id_and_no_stray_colon():
    assert identifier("example.org", "acme/tools/alpha") == "urn:air:example.org:skill:acme:tools:alpha"
    assert identifier("example.org", "a:b/c d") == "urn:air:example.org:skill:a%3Ab:c%20d"

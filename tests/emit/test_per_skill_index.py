"""Each listed skill's own discovery index, `skills/<id>/.well-known/agent-skills/index.json`.

The `skills` CLI (1.7) treats `npx skills add https://<site>/skills/<id>/` as a scope and reads only the
index below that path, so the page URL installs the skill only if that index is there. It is the root
index cut down to the skill's one entry; the entry points back at the root artifact (registry/emit/urls.py
FileHomes: nothing is written twice).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from conftest import simple_skill, write_skill
from site_checks import DIGEST, NAME, SCHEMA_V2, check_archive, check_index_json, check_well_known, load_json, sha256

from registry.build import build
from registry.config import BuildOptions
from registry.emit.urls import SiteUrls

BASE = "https://skills.example.org/"
INSTALL_NPX = re.compile(r'<code id="install-npx">([^<]*)</code>')


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("per-skill") / "src"
    write_skill(source, "acme/single", simple_skill("single"))
    write_skill(source, "acme/bundle", simple_skill("bundle", body="Read references/guide.md."),
                {"references/guide.md": "# Guide\n"})  # fmt: skip
    # Deeper ids put the index deeper: its URL must climb every level back to the root.
    write_skill(source, "team/tools/deep", simple_skill("deep", body="Run scripts/run.sh."),
                {"scripts/run.sh": "#!/bin/sh\necho hi\n"})  # fmt: skip
    # A title-case name is listed under its folder name, which differs from the frontmatter name.
    write_skill(source, "acme/port-scanner", simple_skill("Port Scanner"))
    # Over 1,024 characters: kept out of the discovery indexes (D001), so it has no discovery name.
    write_skill(source, "acme/hidden", simple_skill("hidden", "Hidden. Use when testing. " + "x" * 1100))
    out = source.parent / "site"
    build(BuildOptions(source=source, out=out, base_url=BASE))
    return out


def discovery_names(site: Path) -> dict[str, str | None]:
    return {entry["id"]: entry["discovery_name"] for entry in check_index_json(site)["skills"]}


def root_entries(site: Path) -> dict[str, dict]:
    v2, _ = check_well_known(site)
    return {entry["name"]: entry for entry in v2["skills"]}


def skill_index_path(site: Path, skill_id: str) -> Path:
    return site / SiteUrls.skill_index_file(skill_id)


def resolved_file(site: Path, index_path: Path, url: str) -> Path:
    """The site file a URL in an index names, resolved as a client does (RFC 3986 against the index URL)."""
    index_url = BASE + index_path.relative_to(site).as_posix()
    target = urljoin(index_url, url)
    assert target.startswith(BASE), f"{url} leaves the site: {target}"
    return site / urlsplit(target).path.removeprefix(urlsplit(BASE).path)


def check_skill_index(site: Path, skill_id: str) -> dict:
    """The checks check_well_known makes of the root index, for one skill's index; returns its one entry."""
    path = skill_index_path(site, skill_id)
    index = load_json(path)
    assert list(index) == ["$schema", "skills"] and index["$schema"] == SCHEMA_V2
    (entry,) = index["skills"]
    assert set(entry) <= {"name", "type", "description", "url", "digest", "version"}
    assert NAME.match(entry["name"]) and len(entry["name"]) <= 64
    assert isinstance(entry["description"], str) and 0 < len(entry["description"]) <= 1024
    assert DIGEST.match(entry["digest"])
    assert not entry["url"].startswith(("/", "http")), "relative, so the site works under any base path"
    served = resolved_file(site, path, entry["url"])
    assert served.is_file(), f"{skill_id}: {entry['url']} names no file"
    assert sha256(served.read_bytes()) == entry["digest"]
    if entry["type"] == "archive":
        check_archive(served.read_bytes())
    else:
        assert entry["type"] == "skill-md" and served.name == "SKILL.md"
    return entry


def test_every_listed_skill_has_its_own_index_and_no_other_skill_has_one(site):
    names = discovery_names(site)
    assert names == {
        "acme/bundle": "bundle", "acme/hidden": None, "acme/port-scanner": "port-scanner",
        "acme/single": "single", "team/tools/deep": "deep",
    }  # fmt: skip
    found = {
        path.relative_to(site).as_posix()
        for path in (site / "skills").rglob("*")
        if path.is_file() and ".well-known" in path.relative_to(site).parts
    }
    assert found == {SiteUrls.skill_index_file(skill_id) for skill_id, name in names.items() if name}


def test_each_index_validates_and_points_at_the_root_artifact(site):
    roots = root_entries(site)
    root_index = site / ".well-known" / "agent-skills" / "index.json"
    for skill_id, name in discovery_names(site).items():
        if name is None:
            continue
        entry = check_skill_index(site, skill_id)
        root = roots[name]
        # The same artifact, not a copy: both URLs lead to one file.
        assert resolved_file(site, skill_index_path(site, skill_id), entry["url"]) == resolved_file(
            site, root_index, root["url"]
        )
        assert {k: v for k, v in entry.items() if k != "url"} == {k: v for k, v in root.items() if k != "url"}


def test_urls_climb_exactly_to_the_site_root(site):
    deep = load_json(skill_index_path(site, "team/tools/deep"))["skills"][0]
    assert deep["url"] == "../../../../../../.well-known/agent-skills/deep.tar.gz"
    single = load_json(skill_index_path(site, "acme/single"))["skills"][0]
    assert single["url"] == "../../../../../.well-known/agent-skills/single/SKILL.md"


def test_the_page_offers_its_own_url_as_the_install_source(site):
    for skill_id, name in discovery_names(site).items():
        page = (site / SiteUrls.skill_page_file(skill_id)).read_text(encoding="utf-8")
        if name is None:
            assert "install-npx" not in page and "This skill is not in the discovery indexes" in page
            continue
        assert INSTALL_NPX.findall(page) == [f"npx skills add {BASE}{SiteUrls.skill_page(skill_id)}"]
        # Every CLI version still installs it from the root index by name.
        assert f'<code id="install-npx-site">npx skills add {BASE} --skill {name}</code>' in page

"""Every published byte once: each skill file is served from one place, its home (registry/emit/urls.py
FileHomes), and every link to it, from the page, index.json and the capability card, leads there."""

from __future__ import annotations

import hashlib
from collections import defaultdict

import pytest
from conftest import SKILLS_INDEX, simple_skill, write_skill
from site_checks import check_each_file_served_once, check_index_json, check_well_known, file_links, load_json

from registry.build import build
from registry.config import BuildOptions
from registry.emit.urls import FileHomes

BASE = "https://skills.example.org/"
BODY = """See [the guide](references/guide.md#setup) and [the draft](notes%20%5Bdraft%5D.md).

![logo](assets/logo.png)

Run `python scripts/run.py`.
"""
RUN_PY = 'import os\n\ntoken = os.environ["SERVICE_API_TOKEN"]\nprint(len(token))\n'
LOGO = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    source = tmp_path_factory.mktemp("homes") / "src"
    write_skill(
        source, "acme/multi", simple_skill("multi", body=BODY),
        {"references/guide.md": "# Guide\n\n## Setup\n", "notes [draft].md": "draft\n", "assets/logo.png": LOGO,
         "scripts/run.py": RUN_PY},
    )  # fmt: skip
    write_skill(source, "acme/single", simple_skill("single"))
    # A description over 1,024 characters keeps a skill out of the discovery indexes (D001): no discovery name.
    long_description = "Hidden from discovery. Use when testing. " + "x" * 1100
    write_skill(
        source, "acme/hidden", simple_skill("hidden", long_description, body="See [the notes](references/notes.md)."),
        {"references/notes.md": "notes\n", "scripts/run.py": RUN_PY.replace("SERVICE", "OTHER")},
    )  # fmt: skip
    out = source.parent / "site"
    result = build(BuildOptions(source=source, out=out, base_url=BASE))
    assert [s.id for s in result.published] == ["acme/hidden", "acme/multi", "acme/single"]
    return out


def entries(out) -> dict[str, dict]:
    return {entry["id"]: entry for entry in check_index_json(out)["skills"]}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_no_file_is_written_twice(site):
    served = check_each_file_served_once(site)
    assert len(served["acme/multi"]) == 5 and len(served["acme/hidden"]) == 3
    # Hash every skill file on the site (the fixture's files all differ): each one's bytes appear once, but for
    # the v0.2.0 SKILL.md of a single-file skill (that artifact is the file itself).
    places = defaultdict(list)
    for folder in ("raw", ".well-known/skills", ".well-known/agent-skills"):
        for path in (site / folder).rglob("*"):
            if path.is_file() and path.name != "index.json" and not path.name.endswith(".tar.gz"):
                places[digest(path.read_bytes())].append(path.relative_to(site).as_posix())
    repeated = sorted(sorted(paths) for paths in places.values() if len(paths) > 1)
    assert repeated == [[".well-known/agent-skills/single/SKILL.md", ".well-known/skills/single/SKILL.md"]]


def test_a_discoverable_skills_files_live_under_its_discovery_name(site):
    multi = entries(site)["acme/multi"]
    urls = {f["path"]: f["url"] for f in multi["files"]}
    assert multi["skill_md_url"] == urls["SKILL.md"] == BASE + ".well-known/skills/multi/SKILL.md"
    assert urls["references/guide.md"] == BASE + ".well-known/skills/multi/references/guide.md"
    # v0.1 leaves out a path with brackets: that one file is served from raw/, and nothing else of the skill is.
    assert urls["notes [draft].md"] == BASE + "raw/acme/multi/notes%20%5Bdraft%5D.md"
    assert [p.name for p in (site / "raw" / "acme" / "multi").rglob("*") if p.is_file()] == ["notes [draft].md"]
    _, v1 = check_well_known(site)
    listed = next(e for e in v1["skills"] if e["name"] == "multi")["files"]
    assert sorted(listed) == ["SKILL.md", "assets/logo.png", "references/guide.md", "scripts/run.py"]


def test_a_skill_without_a_discovery_name_is_still_served_under_raw(site):
    hidden = entries(site)["acme/hidden"]
    assert hidden["discovery_name"] is None
    assert hidden["skill_md_url"] == BASE + "raw/acme/hidden/SKILL.md"
    assert {f["url"] for f in hidden["files"]} == {
        BASE + "raw/acme/hidden/SKILL.md",
        BASE + "raw/acme/hidden/references/notes.md",
        BASE + "raw/acme/hidden/scripts/run.py",
    }
    assert (site / "raw" / "acme" / "hidden" / "references" / "notes.md").read_text() == "notes\n"
    assert not (site / ".well-known" / "skills" / "hidden").exists()
    page = (site / "skills" / "acme" / "hidden" / "index.html").read_text()
    assert 'href="../../../raw/acme/hidden/references/notes.md"' in page


def test_every_link_to_a_skill_file_resolves_to_a_file_of_the_site(site):
    checked = 0
    for skill_id in ("acme/hidden", "acme/multi", "acme/single"):
        page = site / "skills" / skill_id / "index.html"
        links = file_links(site, page)
        assert links, skill_id
        for url, target in links:
            assert target.is_file(), f"{skill_id}: {url} leads nowhere"
            checked += 1
    multi = (site / "skills" / "acme" / "multi" / "index.html").read_text()
    # The body's link and image, the Files table, the capability card and the raw SKILL.md link.
    assert 'href="../../../.well-known/skills/multi/references/guide.md#setup"' in multi
    assert 'src="../../../.well-known/skills/multi/assets/logo.png"' in multi
    assert 'href="../../../raw/acme/multi/notes%20%5Bdraft%5D.md"' in multi
    assert '<a href="../../../.well-known/skills/multi/scripts/run.py">scripts/run.py:3</a>' in multi
    assert 'href="../../../.well-known/skills/multi/SKILL.md">Raw SKILL.md</a>' in multi
    assert checked >= 10
    # index.json: every files[].url and skill_md_url names a file with the digest it gives (check_index_json).
    assert len(entries(site)) == 3


def test_the_single_file_install_command_fetches_the_one_served_skill_md(site):
    page = (site / "skills" / "acme" / "single" / "index.html").read_text()
    assert f"-o ~/.claude/skills/single/SKILL.md {BASE}.well-known/skills/single/SKILL.md" in page


def test_the_skills_index_site_serves_each_file_once_and_links_only_to_what_it_serves(tmp_path):
    out = tmp_path / "site"
    build(BuildOptions(source=SKILLS_INDEX, out=out, base_url=BASE))
    served = check_each_file_served_once(out)
    assert sum(len(paths) for paths in served.values()) > len(served)  # multi-file skills among them
    for skill_id in served:
        for url, target in file_links(out, out / "skills" / skill_id / "index.html"):
            assert target.is_file(), f"{skill_id}: {url} leads nowhere"
    manifest = load_json(out / "index.json")
    assert all(
        f["url"].startswith((BASE + "raw/", BASE + ".well-known/skills/"))
        for s in manifest["skills"]
        for f in s["files"]
    )


def test_a_file_has_exactly_one_home():
    homes = FileHomes.of("acme/multi", "multi", ["SKILL.md", "a b.md", "odd?.md", "../up.md"])
    assert homes.path("SKILL.md") == ".well-known/skills/multi/SKILL.md"
    assert homes.url("a b.md") == ".well-known/skills/multi/a%20b.md"  # v0.1 allows spaces
    assert homes.path("odd?.md") == "raw/acme/multi/odd?.md" and homes.url("odd?.md") == "raw/acme/multi/odd%3F.md"
    assert homes.path("../up.md") == "raw/acme/multi/../up.md"  # never listed, whatever writes it checks the path
    hidden = FileHomes.of("acme/hidden", None, ["SKILL.md"])
    assert hidden.listed == frozenset() and hidden.path("SKILL.md") == "raw/acme/hidden/SKILL.md"

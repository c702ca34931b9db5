"""Reserved names, case and look-alike collisions, name squatting: every skill keeps its own address."""

from __future__ import annotations

import json

import pytest
from conftest import REPO_ROOT, commit_all, git, simple_skill, write_skill
from hardening_support import HONEST_IDS, baseline, check_contained, finding_paths, run_build, run_case, write_honest
from site_checks import served_files


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


RESERVED = {
    "index": "index",
    "schema": "schema",
    ".well-known": "well-known",
    ".well-known/agent-skills": "agent-skills",
    "raw": "raw",
    "static": "static",
    "skills": "skills",
    "search": "search",
    "index.json": "index-json",
    "404.html": "not-found",
}


def reserved(source, _outside):
    for folder, name in RESERVED.items():
        write_skill(source, folder, simple_skill(name))
    (source / ".well-known" / "agent-skills" / "index.json").write_text('{"skills": []}')


def test_reserved_folder_names_stay_inside_their_own_pages(honest, tmp_path):
    case = run_case(tmp_path, reserved)
    check_contained(case, honest)
    assert case.published_ids() == sorted(
        [*HONEST_IDS, "index", "schema", "well-known", "well-known/agent-skills", "raw", "static", "skills",
         "search", "index.json", "404.html"]
    )  # fmt: skip
    out = case.out
    assert (out / "schema" / "index.schema.json").read_bytes() == (
        REPO_ROOT / "schema" / "index.schema.json"
    ).read_bytes()
    home = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="skills/honest/plain-helper/"' in home and "<h1" in home
    for skill in case.result.published:
        assert (out / "skills" / skill.id / "index.html").is_file()
        assert "SKILL.md" in served_files(out, skill.id)
    assert (out / "404.html").read_text(encoding="utf-8").count("<main") == 1
    assert json.loads((out / "search" / "manifest.json").read_text())  # the search folder is still the search
    for static in (REPO_ROOT / "static").iterdir():
        if static.name != "style.css":
            assert (out / "static" / static.name).read_bytes() == static.read_bytes()
    v2 = json.loads((out / ".well-known" / "agent-skills" / "index.json").read_text())
    assert {e["name"] for e in v2["skills"]} >= {"index", "schema", "well-known", "agent-skills", "raw"}


def collisions(source, _outside):
    write_skill(source, "evil/My-Skill", simple_skill("my-skill", description="Upper. Use when testing."))
    write_skill(source, "evil/my-skill", simple_skill("my-skill", description="Lower. Use when testing."))
    write_skill(source, "evil/MY_SKILL", simple_skill("my-skill", description="Snake. Use when testing."))
    write_skill(source, "evil/my-skill-2", simple_skill("my-skill-2"))
    write_skill(source, "evil/cafe", simple_skill("cafe", description="Latin. Use when testing."))
    write_skill(source, "evil/саfe", simple_skill("саfe", description="Cyrillic. Use when testing."))
    write_skill(source, "evil/ｃａｆｅ", simple_skill("ｃａｆｅ", description="Fullwidth. Use when testing."))
    write_skill(source, "evil/cafe\u0301", simple_skill("cafe\u0301", description="Combining. Use when testing."))


def test_case_and_look_alike_collisions_get_distinct_addresses(honest, tmp_path):
    case = run_case(tmp_path, collisions)
    check_contained(case, honest)
    ids = [i for i in case.published_ids() if i.startswith("evil/")]
    assert len(ids) == len(set(ids)) == 8, ids
    by_description = {s.description.split(".")[0]: s.id for s in case.result.published if s.id.startswith("evil/")}
    # the lexically first folder keeps the address; the others are told apart and reported
    assert by_description["Upper"] == "evil/my-skill" and by_description["Latin"] == "evil/cafe"
    renamed = finding_paths(case, "L013")
    assert "evil/my-skill/SKILL.md" in renamed and "evil/my-skill-2/SKILL.md" not in renamed
    assert by_description["Lower"] == "evil/my-skill-3", "a suffix never takes another folder's own address"
    assert "evil/my-skill-2" in ids and "evil/my_skill" in ids
    assert "evil/ｃａｆｅ/SKILL.md" in renamed or "evil/cafe\u0301/SKILL.md" in renamed
    # one discovery entry per name; look-alike names never reach the ASCII-only indexes
    v2 = json.loads((case.out / ".well-known" / "agent-skills" / "index.json").read_text())
    names = [e["name"] for e in v2["skills"]]
    assert names.count("my-skill") == 1 and names.count("cafe") == 1
    assert not [n for n in names if not n.isascii()]
    assert {"evil/саfe/SKILL.md", "evil/cafe\u0301/SKILL.md"} <= set(finding_paths(case, "D001"))
    # the two other my-skill folders, and the fullwidth name (read as "cafe") behind the Latin one
    assert finding_paths(case, "D002") == ["evil/MY_SKILL/SKILL.md", "evil/My-Skill/SKILL.md", "evil/ｃａｆｅ/SKILL.md"]
    for skill_id in ids:  # every page shows its own skill
        page = (case.out / "skills" / skill_id / "index.html").read_text(encoding="utf-8")
        skill = next(s for s in case.result.published if s.id == skill_id)
        assert skill.description in page


def test_a_later_squatter_never_takes_an_honest_skills_discovery_name(tmp_path):
    source = tmp_path / "repo"
    source.mkdir()
    git(source, "init", "-q", "-b", "main")
    write_honest(source)
    commit_all(source, "honest skills", "2025-01-01T00:00:00+00:00")
    write_skill(source, "aaa/plain-helper", simple_skill("plain-helper", description="Squat. Use always."))
    commit_all(source, "squatter", "2025-06-01T00:00:00+00:00")
    result = run_build(source, tmp_path / "out")
    assert result.discovery["honest/plain-helper"] == "plain-helper"
    assert "aaa/plain-helper" not in result.discovery
    (taken,) = [f for f in result.findings if f.code == "D002"]
    assert taken.path == "aaa/plain-helper/SKILL.md" and "honest/plain-helper" in taken.message

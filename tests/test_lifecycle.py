"""Lifecycle as data: deprecate, rename (old links keep working), withdraw (tombstone), yank."""

import json

import pytest
from conftest import write_skill
from pr_support import check, pull_request, skill_md
from site_checks import check_index_json, check_well_known

from registry.build import build
from registry.config import BuildOptions
from registry.emit.urls import FileHomes
from registry.lifecycle import Lifecycle, redirects_file
from registry.policy import PolicyError

LIFECYCLE = """
deprecated:
  acme/old-tool: {reason: "Superseded by new-tool", replacement: acme/new-tool}
renamed:
  acme/formatter: acme/formatter-pro
withdrawn:
  acme/leaky: {reason: "Sent environment variables to a remote host"}
yanked:
  acme/new-tool: {"2.0.0": "Broke on Windows paths"}
  acme/formatter-pro: {"1.0.0": "Wrong defaults"}
"""


@pytest.fixture
def site(tmp_path):
    source = tmp_path / "src"
    write_skill(source, "acme/old-tool", skill_md("old-tool", "1.0.0"))
    write_skill(source, "acme/new-tool", skill_md("new-tool", "2.0.0"))
    write_skill(source, "acme/formatter-pro", skill_md("formatter-pro", "1.1.0"))
    write_skill(source, "acme/leaky", skill_md("leaky", "1.0.0"))
    (source / "lifecycle.yaml").write_text(LIFECYCLE)
    out = tmp_path / "site"
    result = build(BuildOptions(source=source, out=out, base_url="https://r.example/"))
    return out, result


def test_deprecation_is_shown_and_published(site):
    out, result = site
    page = (out / "skills" / "acme" / "old-tool" / "index.html").read_text()
    assert (
        "Deprecated:" in page and "Superseded by new-tool" in page and 'href="../../../skills/acme/new-tool/"' in page
    )
    assert any(f.code == "Y002" and f.path == "acme/old-tool/SKILL.md" for f in result.findings)
    entry = next(s for s in check_index_json(out)["skills"] if s["id"] == "acme/old-tool")
    assert entry["lifecycle"] == {
        "status": "deprecated", "reason": "Superseded by new-tool", "replacement": "acme/new-tool",
        "current_version_yanked": False,
    }  # fmt: skip


def test_renamed_skills_keep_their_old_addresses(site):
    out, _ = site
    redirects = (out / "_redirects").read_text()
    assert "/skills/acme/formatter/*  /skills/acme/formatter-pro/:splat  301" in redirects
    # formatter-pro is listed in the v0.1 discovery layout: its files live under .well-known/skills/ only.
    assert "/raw/acme/formatter/*  /.well-known/skills/formatter-pro/:splat  301" in redirects
    assert (out / ".well-known" / "skills" / "formatter-pro" / "SKILL.md").is_file()
    moved = (out / "skills" / "acme" / "formatter" / "index.html").read_text()
    assert 'http-equiv="refresh" content="0; url=../../../skills/acme/formatter-pro/"' in moved
    assert json.loads((out / "index.json").read_text())["redirects"] == [
        {"from": "acme/formatter", "to": "acme/formatter-pro", "url": "https://r.example/skills/acme/formatter-pro/"}
    ]


def test_old_raw_urls_lead_to_each_files_one_home():
    lifecycle = Lifecycle(renamed={"acme/fmt": "acme/fmt-pro", "acme/tool": "acme/tool-2"})
    homes = {
        "acme/fmt-pro": FileHomes.of("acme/fmt-pro", "fmt-pro", ["SKILL.md", "notes [draft].md", "b.md"]),
        "acme/tool-2": FileHomes.of("acme/tool-2", None, ["SKILL.md"]),  # not in the discovery indexes
    }
    lines = redirects_file(lifecycle, homes).splitlines()
    # The one file v0.1 leaves out stays under raw/, and its rule comes before the catch-all (first match wins).
    assert lines[2:4] == [
        "/raw/acme/fmt/notes%20%5Bdraft%5D.md  /raw/acme/fmt-pro/notes%20%5Bdraft%5D.md  301",
        "/raw/acme/fmt/*  /.well-known/skills/fmt-pro/:splat  301",
    ]
    assert "/raw/acme/tool/*  /raw/acme/tool-2/:splat  301" in lines


def test_withdrawn_skills_are_gone_from_every_index_and_leave_a_tombstone(site):
    out, result = site
    assert "acme/leaky" not in [s.id for s in result.published]
    assert [item.id for item in result.left_out] == ["acme/leaky"]
    assert [r.code for r in result.left_out[0].reasons] == ["Y001"]
    index = check_index_json(out)
    assert "acme/leaky" not in [s["id"] for s in index["skills"]]
    assert index["withdrawn"] == [{"id": "acme/leaky", "reason": "Sent environment variables to a remote host"}]
    v2, v1 = check_well_known(out)
    assert "leaky" not in [e["name"] for e in v2["skills"]] + [e["name"] for e in v1["skills"]]
    assert not (out / "raw" / "acme" / "leaky").exists()
    assert (
        "acme/leaky" not in (out / "sitemap.xml").read_text() and "leaky" not in (out / "feeds" / "all.xml").read_text()
    )
    tomb = (out / "skills" / "acme" / "leaky" / "index.html").read_text()
    assert "withdrawn" in tomb and "Sent environment variables to a remote host" in tomb


def test_yanked_versions_are_kept_marked_and_never_offered(site):
    out, result = site
    assert "acme/new-tool" not in result.discovery  # its current version is yanked
    assert any(f.code == "Y003" and f.path == "acme/new-tool/SKILL.md" for f in result.findings)
    assert "acme/formatter-pro" in result.discovery  # a past version is yanked, the current one is fine
    entry = next(s for s in json.loads((out / "index.json").read_text())["skills"] if s["id"] == "acme/new-tool")
    assert entry["versions"][0]["yanked"] == "Broke on Windows paths"
    assert entry["lifecycle"]["current_version_yanked"] is True
    page = (out / "skills" / "acme" / "new-tool" / "index.html").read_text()
    assert "is yanked" in page and "not offered for installation" in page


def test_entries_must_name_real_skills(tmp_path):
    source = tmp_path / "src"
    write_skill(source, "acme/one", skill_md("one", "1.0.0"))
    (source / "lifecycle.yaml").write_text(
        "renamed:\n  acme/one: acme/missing\ndeprecated:\n  acme/ghost: {reason: gone away}\n"
    )
    with pytest.raises(PolicyError) as err:
        build(BuildOptions(source=source, out=tmp_path / "site"))
    assert len(err.value.problems) == 3


def test_owners_deprecate_and_withdraw_by_pull_request(pr_repo):
    (pr_repo / "lifecycle.yaml").write_text("withdrawn:\n  acme/formatter: {reason: replaced by a better one}\n")
    pull_request(pr_repo)
    assert check(pr_repo, actor="alice")[0] == 0
    status, output = check(pr_repo, actor="bob")
    assert status == 1 and "Q011" in output


def test_an_invalid_lifecycle_file_blocks_the_pull_request(pr_repo):
    (pr_repo / "lifecycle.yaml").write_text("renamed:\n  acme/formatter: acme/nowhere\n")
    pull_request(pr_repo)
    status, output = check(pr_repo, actor="alice")
    assert status == 1 and "Q012" in output

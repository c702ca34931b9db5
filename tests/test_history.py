"""History, versions and checksums from real temporary git repositories."""

import json
import os
import subprocess

import pytest
from click.testing import CliRunner
from conftest import REPO_ROOT, commit_all, git, write_skill

from registry import checksum
from registry.build import build
from registry.cli import main
from registry.config import BuildOptions, Limits
from registry.crawl import crawl
from registry.history import read_repository
from registry.parse.skill import parse_skill
from registry.versions import semver_fix


def skill_md(version: str | None, body: str = "Do the thing.", extra: str = "") -> str:
    version_line = f'version: "{version}"\n' if version else ""
    return f"---\nname: tool\ndescription: A tool. Use when testing.\n{version_line}{extra}---\n\n# Tool\n\n{body}\n"


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    return path


def commit_version(repo, version, body="Do the thing.", date="2025-01-01T00:00:00+00:00", folder="pub/tool"):
    write_skill(repo, folder, skill_md(version, body))
    return commit_all(repo, f"{folder} {version}", date)


def run(repo, tmp_path):
    out = tmp_path / "site"
    result = build(BuildOptions(source=repo, out=out, base_url="https://r.example/"))
    index = json.loads((out / "index.json").read_text()) if result.written else None
    return result, index


def codes(result, skill_id="pub/tool"):
    return sorted(f.code for f in result.findings if f.path.startswith(skill_id + "/"))


def test_version_bumps_are_recorded_with_commit_date_and_digest(repo, tmp_path):
    first = commit_version(repo, "1.0.0", "one", "2025-01-01T00:00:00+00:00")
    second = commit_version(repo, "1.1.0", "two", "2025-02-01T00:00:00+00:00")
    result, index = run(repo, tmp_path)
    (entry,) = index["skills"]
    assert [(v["version"], v["commit"], v["date"]) for v in entry["versions"]] == [
        ("1.0.0", first, "2025-01-01T00:00:00Z"),
        ("1.1.0", second, "2025-02-01T00:00:00Z"),
    ]
    assert entry["versions"][-1]["digest"] == entry["content_digest"]
    assert not [c for c in codes(result) if c.startswith("V")]
    page = (tmp_path / "site" / "skills" / "pub" / "tool" / "index.html").read_text()
    assert first[:12] in page and second[:12] in page


def test_content_changed_without_bump_is_an_error_naming_the_first_commit(repo, tmp_path):
    first = commit_version(repo, "1.0.0", "one")
    changed = commit_version(repo, "1.0.0", "edited", "2025-03-01T00:00:00+00:00")
    result, _ = run(repo, tmp_path)
    (finding,) = [f for f in result.findings if f.code == "V002"]
    assert first[:12] in finding.message and changed[:12] in finding.message
    # clients still load it: published, with the breach on its page and in index.json (issue 13)
    assert [s.id for s in result.published] == ["pub/tool"] and result.left_out == []


def test_a_later_bump_turns_the_breach_into_a_warning(repo, tmp_path):
    commit_version(repo, "1.0.0", "one")
    commit_version(repo, "1.0.0", "edited")
    commit_version(repo, "1.0.1", "edited again")
    result, _ = run(repo, tmp_path)
    assert "V003" in codes(result) and "V002" not in codes(result)
    assert [s.id for s in result.published] == ["pub/tool"]


def test_uncommitted_edit_without_bump_is_caught(repo, tmp_path):
    commit_version(repo, "2.0.0", "one")
    write_skill(repo, "pub/tool", skill_md("2.0.0", "local edit"))
    result, _ = run(repo, tmp_path)
    (finding,) = [f for f in result.findings if f.code == "V002"]
    assert "uncommitted" in finding.message
    assert result.repository.dirty


def test_downgrade_is_an_error_and_a_past_dip_a_warning(repo, tmp_path):
    commit_version(repo, "1.4.0", "a")
    commit_version(repo, "1.3.0", "b")
    result, _ = run(repo, tmp_path)
    assert "V004" in codes(result)
    commit_version(repo, "1.5.0", "c")
    result, _ = run(repo, tmp_path / "again")
    assert "V005" in codes(result) and "V004" not in codes(result)


def test_prerelease_precedence(repo, tmp_path):
    commit_version(repo, "1.0.0-rc.1", "a")
    commit_version(repo, "1.0.0", "b")
    result, _ = run(repo, tmp_path)
    assert not [c for c in codes(result) if c in ("V004", "V005")]
    commit_version(repo, "1.0.0-rc.2", "c")
    result, _ = run(repo, tmp_path / "again")
    assert "V004" in codes(result)


def test_renamed_folder_keeps_its_history(repo, tmp_path):
    first = commit_version(repo, "1.0.0", "a", "2024-06-01T00:00:00+00:00", folder="pub/old-name")
    git(repo, "mv", "pub/old-name", "pub/tool")
    commit_all(repo, "rename", "2025-01-01T00:00:00+00:00")
    _, index = run(repo, tmp_path)
    (entry,) = index["skills"]
    assert entry["first_published"] == "2024-06-01T00:00:00Z"
    assert entry["previous_paths"] == ["pub/old-name"]
    assert entry["versions"][0]["commit"] == first


def test_shallow_clone_degrades_gracefully(repo, tmp_path):
    commit_version(repo, "1.0.0", "a", "2024-01-01T00:00:00+00:00")
    commit_version(repo, "1.1.0", "b", "2025-01-01T00:00:00+00:00")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True)
    result, index = run(clone, tmp_path / "s")
    assert result.repository.shallow and index["generated_from"]["shallow"] is True
    assert [v["version"] for v in index["skills"][0]["versions"]] == ["1.1.0"]
    assert "shallow clone" in (tmp_path / "s" / "site" / "index.html").read_text()


def test_history_digest_equals_working_tree_digest(repo, tmp_path):
    files = {
        "scripts/run.py": "print('hi')\n",
        "references/deep/notes.md": "notes\n",
        ".DS_Store": "junk",
        "node_modules/x/index.js": "ignored",
        "nested/SKILL.md": "---\nname: nested\ndescription: d\n---\nbody\n",
        "nested/inner.md": "belongs to nested",
    }
    write_skill(repo, "pub/tool", skill_md("1.0.0", extra='checksum: "sha256:' + "0" * 64 + '"\n'), files)
    os.symlink("scripts/run.py", repo / "pub" / "tool" / "link.py")
    commit_all(repo, "add", "2025-01-01T00:00:00+00:00")
    (location,) = [loc for loc in crawl(repo, Limits()).locations if loc.id == "pub/tool"]
    skill = parse_skill(location, Limits())
    history = read_repository(repo, ["pub/tool", "pub/tool/nested"]).histories["pub/tool"]
    assert history.revisions[-1].digest == skill.content_digest
    expected = checksum.folder_digest(
        [
            ("SKILL.md", checksum.file_digest_hex("SKILL.md", (repo / "pub/tool/SKILL.md").read_bytes())),
            ("references/deep/notes.md", checksum.file_digest_hex("x", b"notes\n")),
            ("scripts/run.py", checksum.file_digest_hex("x", b"print('hi')\n")),
        ]
    )
    assert skill.content_digest == expected


def test_checksum_command_prints_writes_and_the_build_checks_it(repo, tmp_path):
    original = skill_md("1.0.0").replace("\n", "\r\n")
    folder = write_skill(repo, "pub/tool", original)
    runner = CliRunner()
    printed = runner.invoke(main, ["checksum", str(folder)]).output.strip()
    assert printed.startswith("sha256:") and len(printed) == 71
    assert runner.invoke(main, ["checksum", str(folder), "--write"]).exit_code == 0
    written = (folder / "SKILL.md").read_bytes().decode()
    assert written.replace(f'checksum: "{printed}"\r\n', "") == original  # nothing else moved
    assert runner.invoke(main, ["checksum", str(folder)]).output.strip() == printed  # the line is excluded
    commit_all(repo, "publish", "2025-01-01T00:00:00+00:00")
    result, index = run(repo, tmp_path)
    assert "V006" not in codes(result) and index["skills"][0]["content_digest"] == printed
    (folder / "scripts").mkdir()
    (folder / "scripts" / "new.sh").write_text("echo tampered\n")
    result, index = run(repo, tmp_path / "tampered")
    assert "V006" in codes(result) and result.left_out == []  # loadable: published, marked, never verified
    (entry,) = index["skills"]
    assert "V006" in {f["code"] for f in entry["findings"]} and entry["trust"]["tier"] == "community"


def test_checksum_write_replaces_a_metadata_checksum_in_place(tmp_path):
    text = b"---\nname: x\nmetadata:\n  checksum: old\n  author: me\n---\nbody\n"
    updated = checksum.write_checksum(text, "sha256:" + "a" * 64)
    assert updated == b'---\nname: x\nmetadata:\n  checksum: "sha256:' + b"a" * 64 + b'"\n  author: me\n---\nbody\n'
    assert checksum.strip_checksum_lines(updated) == checksum.strip_checksum_lines(text)


def test_version_that_is_not_semver_is_reported_with_a_fix(repo, tmp_path):
    commit_version(repo, "1.0")
    result, index = run(repo, tmp_path)
    (finding,) = [f for f in result.findings if f.code == "V001"]
    assert finding.line == 4 and 'version: "1.0.0"' in finding.hint
    assert index["skills"][0]["version_valid"] is False


@pytest.mark.parametrize(
    ("version", "hint"),
    [
        ("v1.2.3", '"1.2.3"'),
        ("1.0", '"1.0.0"'),
        ("2", '"2.0.0"'),
        ("01.2.3", '"1.2.3"'),
        ("banana", "MAJOR.MINOR.PATCH"),
    ],
)
def test_semver_near_miss_hints(version, hint):
    assert hint in semver_fix(version)


def test_plain_folder_builds_without_history(tmp_path):
    source = tmp_path / "plain"
    write_skill(source, "pub/tool", skill_md("1.0.0"))
    result, index = run(source, tmp_path)
    assert not result.repository.is_git and index["skills"][0]["versions"][0]["commit"] == "uncommitted"


def test_skills_index_history_is_consistent_with_the_working_tree():
    """The registry's own skills: every committed skill's last digest equals its files' digest."""
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "skills-index"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    skills = [parse_skill(loc, Limits()) for loc in crawl(REPO_ROOT / "skills-index", Limits()).locations]
    histories = read_repository(REPO_ROOT / "skills-index", [s.location.rel_folder for s in skills]).histories
    checked = 0
    for skill in skills:
        if f"skills-index/{skill.location.rel_folder}/" in dirty:
            continue  # edited locally: the working tree is ahead of history
        assert histories[skill.location.rel_folder].revisions[-1].digest == skill.content_digest, skill.id
        checked += 1
    assert checked >= len(skills) // 2


@pytest.mark.parametrize(
    ("skill_md", "expected"),
    [
        (b"---\nname: a\ndescription: b\n---\nbody\n", None),
        (b"---\nname: a\nversion: ' 1.2.0 '\n---\n", "1.2.0"),
        (b"---\nname: a\nmetadata:\n  version: 2.0.0\n---\n", "2.0.0"),
        (b'---\nname: a\n"\\x76ersion": 3.0.0\n---\n', "3.0.0"),  # the key spelled with an escape
        (b'---\nmetadata: {"\\u0076ersion": 4.0.0}\n---\n', "4.0.0"),
    ],
)
def test_declared_version_reads_every_spelling_of_the_key(skill_md, expected):
    from registry.history import declared_version

    assert declared_version(skill_md, Limits()) == expected

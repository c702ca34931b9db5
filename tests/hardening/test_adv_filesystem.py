"""Symlinks, hard links, .git and hostile file names: nothing outside a skill folder is read or published."""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import simple_skill, write_skill
from hardening_support import MARKER, baseline, check_contained, finding_paths, run_case
from site_checks import served_files

BODY = "See [notes](notes.md) and [refs](refs/notes.md)."


def skill(source, rel, files=None, body=BODY):
    return write_skill(source, rel, simple_skill(rel.rsplit("/", 1)[1], body=body), files)


def symlink_file_out(source, outside):
    os.symlink(outside / "secret.txt", skill(source, "evil/link-file") / "notes.md")


def symlink_dir_out(source, outside):
    os.symlink(outside / "dir", skill(source, "evil/link-dir") / "refs")


def symlink_absolute(source, outside):
    folder = skill(source, "evil/link-abs")
    os.symlink("/etc/passwd", folder / "passwd.txt")
    os.symlink("/proc/self/environ", folder / "environ.txt")


def symlink_dangling(source, outside):
    os.symlink("missing.md", skill(source, "evil/dangling") / "notes.md")


def symlink_loop(source, outside):
    folder = skill(source, "evil/loop")
    os.symlink("b.md", folder / "a.md")
    os.symlink("a.md", folder / "b.md")
    os.symlink("self.md", folder / "self.md")


def symlink_into_git(source, outside):
    folder = skill(source, "evil/git-link")
    git_dir = folder / ".git"
    git_dir.mkdir()
    (git_dir / "config").write_text(f'[remote "origin"]\n\turl = https://x:{MARKER}@example.org/r.git\n')
    os.symlink(".git/config", folder / "notes.md")
    os.symlink(".git", folder / "refs")


def symlink_to_repo_git(source, outside):
    subprocess.run(["git", "init", "-q", str(source)], check=True)
    (source / ".git" / "description").write_text(MARKER)
    os.symlink("../../.git/description", skill(source, "evil/repo-git") / "notes.md")


def skill_md_symlink_out(source, outside):
    (source / "evil" / "md-out").mkdir(parents=True)
    os.symlink(outside / "SKILL.md", source / "evil" / "md-out" / "SKILL.md")


def skill_md_symlink_sibling(source, outside):
    (source / "evil" / "md-sibling").mkdir(parents=True)
    os.symlink("../../honest/plain-helper/SKILL.md", source / "evil" / "md-sibling" / "SKILL.md")


def skill_folder_symlink_out(source, outside):
    (source / "evil").mkdir(parents=True, exist_ok=True)
    os.symlink(outside, source / "evil" / "linked-skill")


def symlink_dir_inside(source, outside):
    folder = skill(source, "evil/link-inner", {"real/notes.md": "inner"})
    os.symlink("real", folder / "refs")


def hard_link_out(source, outside):
    os.link(outside / "secret.txt", skill(source, "evil/hard-out") / "notes.md")


def hard_link_skill_md(source, outside):
    (source / "evil" / "hard-md").mkdir(parents=True)
    os.link(outside / "SKILL.md", source / "evil" / "hard-md" / "SKILL.md")


HOSTILE_NAMES = [
    b"back\\slash.md",
    b"ctrl\x01char.md",
    b"new\nline.md",
    b"tab\there.md",
    b"del\x7f.md",
    b"latin1-caf\xe9.md",
    b"x" * 255,
    b"esc\x1b[31mred.md",
]


def hostile_file_names(source, outside):
    folder = skill(source, "evil/names", {"fine.md": "ok", "a..b.md": "dots", "-rf": "dash"}, body="Plain.")
    for name in HOSTILE_NAMES:
        with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
            handle.write(b"data")
    deep = os.path.join(os.fsencode(folder), *[letter * 200 for letter in (b"a", b"b", b"c", b"d", b"e")])
    os.makedirs(deep)
    with open(os.path.join(deep, b"f" * 200), "wb") as handle:  # 1,205 bytes: over the 1,024 a path may have
        handle.write(b"long path")


def expect_link_file(case):
    assert finding_paths(case, "L001") == ["evil/link-file/notes.md"]
    assert "evil/link-file" in case.published_ids()
    assert "notes.md" not in served_files(case.out, "evil/link-file")


def expect_link_dir(case):
    assert finding_paths(case, "L001") == ["evil/link-dir/refs"]
    assert not [path for path in served_files(case.out, "evil/link-dir") if path.startswith("refs")]


def expect_link_abs(case):
    assert finding_paths(case, "L001") == ["evil/link-abs/environ.txt", "evil/link-abs/passwd.txt"]
    assert list(served_files(case.out, "evil/link-abs")) == ["SKILL.md"]


def expect_dangling(case):
    assert finding_paths(case, "L002") == ["evil/dangling/notes.md"]


def expect_loop(case):
    assert finding_paths(case, "L002") == ["evil/loop/a.md", "evil/loop/b.md", "evil/loop/self.md"]


def expect_git_link(case):
    assert finding_paths(case, "L001") == ["evil/git-link/notes.md", "evil/git-link/refs"]
    assert list(served_files(case.out, "evil/git-link")) == ["SKILL.md"]


def expect_repo_git(case):
    assert finding_paths(case, "L001") == ["evil/repo-git/notes.md"]


def expect_md_out(case):
    assert finding_paths(case, "L001") == ["evil/md-out/SKILL.md"]
    assert not any(i.startswith("evil/") for i in case.published_ids() + case.left_out_ids())


def expect_md_sibling(case):
    assert finding_paths(case, "L001") == ["evil/md-sibling/SKILL.md"]
    assert not any(i.startswith("evil/") for i in case.published_ids() + case.left_out_ids())


def expect_folder_out(case):
    assert finding_paths(case, "L003") == ["evil/linked-skill"]
    assert not any(i.startswith("evil/") for i in case.published_ids() + case.left_out_ids())


def expect_link_inner(case):
    assert finding_paths(case, "L003") == ["evil/link-inner/refs"]
    served = served_files(case.out, "evil/link-inner")
    assert "real/notes.md" in served and not [path for path in served if path.startswith("refs")]


def expect_hard_out(case):
    assert finding_paths(case, "L012") == ["evil/hard-out/notes.md"]
    assert "evil/hard-out" in case.published_ids()


def expect_hard_md(case):
    assert finding_paths(case, "L012") == ["evil/hard-md/SKILL.md"]
    assert not any(i.startswith("evil/") for i in case.published_ids())


def expect_names(case):
    unsafe = case.findings("L007")
    assert len(unsafe) == len(HOSTILE_NAMES) - 1 + 1, [f.message for f in unsafe]  # x*255 is fine, 1,205 bytes not
    for finding in unsafe:
        assert finding.path.startswith("evil/names/")
        assert finding.path.isprintable() and "\n" not in finding.message and "\x1b" not in finding.message
    served = served_files(case.out, "evil/names")
    assert sorted(served) == ["-rf", "SKILL.md", "a..b.md", "fine.md", "x" * 255]
    index_v1 = (case.out / ".well-known" / "skills" / "index.json").read_text()
    assert "a..b.md" not in index_v1 and "evil/names/a..b.md" in finding_paths(case, "D003")
    # Left out of the v0.1 layout, so served from raw/; the files it lists live only under .well-known/skills/.
    assert served["a..b.md"] == case.out / "raw" / "evil" / "names" / "a..b.md"
    assert served["fine.md"] == case.out / ".well-known" / "skills" / "names" / "fine.md"


CASES = {
    "symlink-file-out": (symlink_file_out, expect_link_file),
    "symlink-dir-out": (symlink_dir_out, expect_link_dir),
    "symlink-absolute": (symlink_absolute, expect_link_abs),
    "symlink-dangling": (symlink_dangling, expect_dangling),
    "symlink-loop": (symlink_loop, expect_loop),
    "symlink-into-nested-git": (symlink_into_git, expect_git_link),
    "symlink-to-repo-git": (symlink_to_repo_git, expect_repo_git),
    "skill-md-symlink-out": (skill_md_symlink_out, expect_md_out),
    "skill-md-symlink-sibling": (skill_md_symlink_sibling, expect_md_sibling),
    "skill-folder-symlink-out": (skill_folder_symlink_out, expect_folder_out),
    "symlink-dir-inside": (symlink_dir_inside, expect_link_inner),
    "hard-link-out": (hard_link_out, expect_hard_out),
    "hard-link-skill-md": (hard_link_skill_md, expect_hard_md),
    "file-names": (hostile_file_names, expect_names),
}


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


@pytest.mark.parametrize("name", sorted(CASES))
def test_file_system_attack_is_contained(name, honest, tmp_path):
    make, expect = CASES[name]
    case = run_case(tmp_path, make)
    check_contained(case, honest)
    expect(case)

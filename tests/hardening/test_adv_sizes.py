"""Sizes and counts: a 100 MB file, 100,000 files, deep folders, huge SKILL.md. Refused early, never read whole."""

from __future__ import annotations

import os

import pytest
from conftest import simple_skill, write_skill
from hardening_support import baseline, check_contained, finding_paths, run_case
from site_checks import served_files

from registry import crawl

MANY = 100_000


def big_file(source, _outside):
    folder = write_skill(source, "size/big-file", simple_skill("big-file"), {"small.md": "fine"})
    with open(folder / "dump.bin", "wb") as handle:  # sparse: 100 MB of size, no blocks written
        handle.truncate(100 * 1024 * 1024)


def many_files(source, _outside):
    folder = write_skill(source, "size/many-files", simple_skill("many-files"))
    data = folder / "data"
    data.mkdir()
    base = os.open(data, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for number in range(MANY):
            os.close(os.open(f"f{number:06d}", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=base))
    finally:
        os.close(base)


def deep_dirs(source, _outside):
    folder = write_skill(source, "size/deep-dirs", simple_skill("deep-dirs"), {"top.md": "kept"})
    deep = folder.joinpath(*["d"] * 200)
    deep.mkdir(parents=True)
    (deep / "bottom.md").write_text("too deep")
    buried = source.joinpath("size", *["n"] * 30)
    write_skill(buried, "buried", simple_skill("buried"))


def big_skill(source, _outside):
    folder = write_skill(source, "size/big-skill", simple_skill("big-skill"))
    for number in range(6):  # 6 x 9 MiB: each under the file limit, 54 MiB in all
        with open(folder / f"part{number}.bin", "wb") as handle:
            handle.truncate(9 * 1024 * 1024)


def big_skill_md(source, _outside):
    write_skill(source, "size/big-md", simple_skill("big-md", body="x" * (2 * 1024 * 1024)))
    write_skill(source, "size/big-frontmatter", simple_skill("big-frontmatter", description="y" * 70_000))
    long_body = "\n".join(f"Line {n}." for n in range(800))
    write_skill(source, "size/long-md", simple_skill("long-md", body=long_body))


def everything(source, outside):
    for make in (big_file, many_files, deep_dirs, big_skill, big_skill_md):
        make(source, outside)


@pytest.fixture(scope="module")
def opened():
    """Every path the crawler opens to digest, to show which files were never read."""
    seen: list[str] = []
    real = crawl._digest_file

    def spy(path, limit, digests=None):
        seen.append(str(path))
        return real(path, limit, digests)

    crawl._digest_file = spy
    yield seen
    crawl._digest_file = real


@pytest.fixture(scope="module")
def case(tmp_path_factory, opened):
    return run_case(tmp_path_factory.mktemp("sizes"), everything)


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


def test_the_build_is_contained(case, honest):
    check_contained(case, honest)


def test_a_100_mb_file_is_refused_without_being_read(case, opened):
    (finding,) = case.findings("L004")
    assert finding.path == "size/big-file/dump.bin"
    assert "104857600 bytes" in finding.message and "10485760" in finding.message and "file_bytes" in finding.message
    assert "size/big-file" in case.published_ids()
    assert sorted(served_files(case.out, "size/big-file")) == ["SKILL.md", "small.md"]


def test_100000_files_are_refused_before_any_is_opened(case, opened):
    (finding,) = case.findings("L005")
    assert finding.path == "size/many-files/SKILL.md"
    assert f"holds {MANY + 1} files, over the limit of 1000" in finding.message
    assert "size/many-files" in case.left_out_ids() and "size/many-files" not in case.published_ids()
    assert not [p for p in opened if "many-files" in p], "no file of the refused skill was opened"


def test_deep_folders_stop_at_the_depth_limit(case):
    deep = case.findings("L014")
    assert {f.path.count("/") for f in deep} == {12}  # the first folder past 12 levels, nothing below it
    assert any(f.path.startswith("size/deep-dirs/d/") for f in deep)
    assert any(f.path.startswith("size/n/n/") for f in deep)
    for finding in deep:
        assert "(limits.crawl_depth)" in finding.message and "13 levels deep, over the limit of 12" in finding.message
    served = served_files(case.out, "size/deep-dirs")
    assert "top.md" in served and not [path for path in served if path.endswith("bottom.md")]
    assert not [i for i in case.published_ids() if i.endswith("buried")]


def test_a_skill_over_the_total_size_is_left_out_before_it_is_read(case, opened):
    (finding,) = case.findings("L006")
    assert finding.path == "size/big-skill/SKILL.md"
    assert f"add up to {6 * 9 * 1024 * 1024 + len(simple_skill('big-skill'))} bytes" in finding.message
    assert "size/big-skill" not in case.published_ids()
    assert not [p for p in opened if "big-skill" in p]


def test_huge_skill_md_and_frontmatter_are_left_out_with_their_sizes(case):
    assert "size/big-md" in case.left_out_ids() and "size/big-frontmatter" in case.left_out_ids()
    assert finding_paths(case, "P018") == ["size/big-md/SKILL.md"]
    assert finding_paths(case, "P017") == ["size/big-frontmatter/SKILL.md"]
    (lines,) = [f for f in case.result.findings if f.code == "S017"]
    assert "long-md" in lines.path and "808 lines" in lines.message and "limits.skill_md_lines" in lines.message
    assert "size/long-md" in case.published_ids()

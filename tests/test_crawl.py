import os

from conftest import simple_skill, write_skill
from hypothesis import given
from hypothesis import strategies as st

from registry import crawl as crawl_module
from registry import text as text_module
from registry.config import Limits
from registry.crawl import crawl
from registry.text import slug


def ids(result):
    return [loc.id for loc in result.locations]


def codes(result):
    return sorted(f.code for f in result.findings)


def test_finds_skills_at_any_depth_including_dot_directories(tmp_path):
    write_skill(tmp_path, "pub/alpha", simple_skill("alpha"))
    write_skill(tmp_path, "skills/.curated/beta", simple_skill("beta"))
    write_skill(tmp_path, "a/b/c/d/gamma", simple_skill("gamma"))
    write_skill(tmp_path, ".git/hidden", simple_skill("hidden"))
    write_skill(tmp_path, "node_modules/pkg/vendored", simple_skill("vendored"))
    result = crawl(tmp_path, Limits())
    assert ids(result) == ["a/b/c/d/gamma", "pub/alpha", "skills/curated/beta"]


def test_lowercase_skill_md_is_found_and_published_as_skill_md(tmp_path):
    folder = tmp_path / "pub" / "lower"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(simple_skill("lower"))
    result = crawl(tmp_path, Limits())
    (location,) = result.locations
    assert location.skill_md == "skill.md"
    assert location.files[0].path == "SKILL.md"
    assert "L008" in codes(result)


def test_files_are_listed_with_sizes_and_digests_skill_md_first(tmp_path):
    write_skill(tmp_path, "p/s", simple_skill("s"), {"scripts/run.py": "print(1)\n", "assets/a.txt": "A"})
    (location,) = crawl(tmp_path, Limits()).locations
    assert [f.path for f in location.files] == ["SKILL.md", "assets/a.txt", "scripts/run.py"]
    assert location.files[1].size == 1
    assert location.files[1].digest == "sha256:559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd"


def test_nested_skill_is_its_own_skill_and_not_a_file_of_its_parent(tmp_path):
    write_skill(tmp_path, "p/outer", simple_skill("outer"), {"notes.md": "n"})
    write_skill(tmp_path, "p/outer/templates/inner", simple_skill("inner"))
    result = crawl(tmp_path, Limits())
    outer = next(loc for loc in result.locations if loc.id == "p/outer")
    assert [f.path for f in outer.files] == ["SKILL.md", "notes.md"]
    assert "p/outer/templates/inner" in ids(result)


def test_symlinks_out_of_the_tree_are_never_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP SECRET")
    source = tmp_path / "source"
    folder = write_skill(source, "p/s", simple_skill("s"), {"ok.md": "fine"})
    os.symlink(outside / "secret.txt", folder / "leak.txt")
    os.symlink(outside, folder / "leakdir")
    os.symlink(folder / "missing.txt", folder / "dangling.txt")
    os.symlink(folder / "loop-a", folder / "loop-b")
    os.symlink(folder / "loop-b", folder / "loop-a")
    os.symlink(folder / "ok.md", folder / "alias.md")
    result = crawl(source, Limits())
    (location,) = result.locations
    assert [f.path for f in location.files] == ["SKILL.md", "alias.md", "ok.md"]
    assert codes(result).count("L001") == 2  # the file and the directory pointing outside
    assert codes(result).count("L002") == 3  # dangling and the two links of the loop


def test_symlinked_skill_md_pointing_outside_is_not_a_skill(tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text(simple_skill("evil"))
    source = tmp_path / "source"
    (source / "p" / "evil").mkdir(parents=True)
    os.symlink(outside, source / "p" / "evil" / "SKILL.md")
    result = crawl(source, Limits())
    assert result.locations == []
    assert "L001" in codes(result)


def test_special_files_hard_links_and_unsafe_names_are_reported_not_published(tmp_path):
    folder = write_skill(tmp_path, "p/s", simple_skill("s"), {"data.txt": "x"})
    os.mkfifo(folder / "pipe")
    os.link(folder / "data.txt", folder / "hard.txt")
    (folder / "bad\nname.md").write_text("x")
    (folder / os.fsdecode(b"latin\xe9.md")).write_text("x")
    result = crawl(tmp_path, Limits())
    (location,) = result.locations
    assert [f.path for f in location.files] == ["SKILL.md"]
    found = codes(result)
    assert "L009" in found and found.count("L012") == 2 and found.count("L007") == 2


def test_skill_md_that_is_a_directory_is_reported(tmp_path):
    (tmp_path / "p" / "s" / "SKILL.md").mkdir(parents=True)
    result = crawl(tmp_path, Limits())
    assert result.locations == [] and codes(result) == ["L011"]


def test_size_and_count_limits(tmp_path):
    write_skill(tmp_path, "p/big", simple_skill("big"), {"blob.bin": b"x" * 2000})
    write_skill(tmp_path, "p/many", simple_skill("many"), {f"f{i}.txt": "x" for i in range(10)})
    result = crawl(tmp_path, Limits(file_bytes=1000, files_per_skill=5))
    big = next(loc for loc in result.locations if loc.id == "p/big")
    assert [f.path for f in big.files] == ["SKILL.md"]
    assert "L004" in codes(result) and "L005" in codes(result)


def test_ids_are_url_safe_unique_and_stable(tmp_path):
    write_skill(tmp_path, "Pub/My Skill", simple_skill("my-skill"))
    write_skill(tmp_path, "pub/my-skill", simple_skill("my-skill"))
    first = ids(crawl(tmp_path, Limits()))
    assert first == ["pub/my-skill", "pub/my-skill-2"]
    assert ids(crawl(tmp_path, Limits())) == first
    assert slug(".curated") == "curated" and slug("Ünïcode Name!") == "unicode-name"
    assert slug("技能").startswith("x-") and slug("技能") == slug("技能") != slug("技")


def test_depth_limit(tmp_path):
    write_skill(tmp_path, "/".join("d" * 1 for _ in range(6)) + "/deep", simple_skill("deep"))
    result = crawl(tmp_path, Limits(crawl_depth=4))
    assert result.locations == [] and "L014" in codes(result)


def test_symlinked_directory_inside_a_skill_is_not_crawled(tmp_path):
    folder = write_skill(tmp_path, "p/s", simple_skill("s"), {"real/a.md": "a"})
    os.symlink(folder / "real", folder / "alias")
    result = crawl(tmp_path, Limits())
    assert [f.path for f in result.locations[0].files] == ["SKILL.md", "real/a.md"]
    assert "L003" in codes(result)


def test_total_skill_size_limit(tmp_path):
    write_skill(tmp_path, "p/s", simple_skill("s"), {"a.bin": b"x" * 600, "b.bin": b"y" * 600})
    result = crawl(tmp_path, Limits(skill_bytes=1000))
    assert "L006" in codes(result)


def test_unreadable_file_is_reported(tmp_path, monkeypatch):
    write_skill(tmp_path, "p/s", simple_skill("s"), {"locked.md": "x"})
    real_open = os.open

    def guarded_open(path, flags, *args, **kwargs):
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    result = crawl(tmp_path, Limits())
    assert [f.path for f in result.locations[0].files] == ["SKILL.md"]
    assert "L010" in codes(result)


def test_colliding_ids_are_reported(tmp_path):
    write_skill(tmp_path, "pub/My_Skill", simple_skill("my-skill"))
    write_skill(tmp_path, "pub/my_skill", simple_skill("my-skill"))
    result = crawl(tmp_path, Limits())
    assert ids(result) == ["pub/my_skill", "pub/my_skill-2"]
    assert codes(result).count("L013") == 1


def test_what_is_never_published_is_listed_on_the_card_with_why(tmp_path):
    write_skill(
        tmp_path,
        "p/s",
        simple_skill("s"),
        {"scripts/run.py": "print(1)\n", "scripts/__pycache__/run.cpython-311.pyc": "x", "assets/.DS_Store": "x"},
    )
    (location,) = crawl(tmp_path, Limits()).locations
    assert [f.path for f in location.files] == ["SKILL.md", "scripts/run.py"]
    assert location.unpublished == (
        ("assets/.DS_Store", "macOS folder metadata, never published"),
        ("scripts/__pycache__/", "Python bytecode cache, never published"),
    )
    from registry.crawl import read_bytes
    from registry.parse.skill import parse_skill
    from registry.score.risk.assessment import assess

    skill = parse_skill(location, Limits())
    card = assess(skill, {f.path: read_bytes(f, 1 << 20) for f in location.files}).card
    (cache,) = [c for c in card.not_analysed if c.path == "p/s/scripts/__pycache__/"]
    assert cache.detail == "Python bytecode cache, never published"


_NAME_PARTS = st.sampled_from(["a", "b.md", ".", "..", "", "/", "\\", "\x00", "\x1f", "\x7f", "é", "\udc80", "x" * 200])


@given(st.lists(_NAME_PARTS, max_size=6).map("".join) | st.text(max_size=300))
def test_the_quick_name_check_never_passes_a_name_the_full_check_refuses(relative):
    if crawl_module._plainly_safe(relative):
        assert crawl_module._why_unsafe(relative) is None


@given(st.text(alphabet="ab_.-Z9é ", max_size=8) | st.text(max_size=20))
def test_a_name_already_a_slug_is_its_own_slug(segment):
    assert slug(segment) == text_module._made_slug(segment)

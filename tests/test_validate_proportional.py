"""validate reads only what the skills it checks need, and says exactly what an analysis of the whole registry says.

Each check runs twice: proportionally (the default: the registry is walked, the skills asked for are
analysed, of the others only those that may share a name with them are parsed, and history is read
for those folders alone) and with `whole=True` (every other skill parsed and the whole history read,
as validate did before). The two must give the same skills and the same findings, registry-wide ones
included: a duplicate name held by a skill not asked for, a `requires` target, a contested discovery
name, the lifecycle, and the version rules that need the folder's history.
"""

import string

import pytest
from conftest import commit_all, git, write_skill
from hypothesis import given, settings
from hypothesis import strategies as st
from pr_support import POLICY, skill_md

from registry import analysis, checker, crawl, history, pr, skill_jobs
from registry.config import Limits
from registry.policy import PolicyError

LIFECYCLE = """
deprecated:
  acme/old: {reason: superseded by the formatter, replacement: acme/formatter}
yanked:
  acme/yanked: {"1.0.0": broke the build}
"""


def keys(result):
    return [(f.code, f.path, f.line, f.column, f.severity.value, f.message) for f in result.findings]


def both(*paths):
    fast = checker.check_paths(list(paths), score=True)
    whole = checker.check_paths(list(paths), score=True, whole=True)
    assert keys(fast) == keys(whole)
    assert fast.skill_summaries == whole.skill_summaries and fast.folders == whole.folders
    return fast


def codes_at(result, folder):
    return sorted(f.code for f in result.findings if f.path.startswith(f"{folder}/"))


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    """A registry with two commits and an uncommitted edit, whose skills meet each other by name."""
    repo = tmp_path_factory.mktemp("validate") / "registry"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "registry.yaml").write_text(POLICY)
    (repo / "lifecycle.yaml").write_text(LIFECYCLE)
    skills = repo / "skills-index"
    write_skill(skills, "acme/formatter", skill_md("formatter", "1.0.0"))
    write_skill(skills, "acme/old", skill_md("old", "1.0.0"))
    write_skill(skills, "acme/yanked", skill_md("yanked", "1.0.0"))
    write_skill(skills, "acme/mover", skill_md("mover", "1.0.0", body="Moves things around."))
    write_skill(skills, "acme/edited", skill_md("edited", "1.0.0"))
    write_skill(skills, "acme/downgraded", skill_md("downgraded", "2.0.0"))
    write_skill(skills, "other/helper", skill_md("helper", "1.0.0"))
    # Named "dup-name" through a YAML escape, in a frontmatter with other escapes and non-ASCII text.
    escaped = skill_md("escaped", "1.0.0", extra='note: "caf\\u00e9 \\t ünïcode"\n').replace(
        "name: escaped", 'name: "dup\\x2dname"'
    )
    write_skill(skills, "other/escaped", escaped)
    write_skill(skills, "other/wide", skill_md("ｄｕｐ-name", "1.0.0"))  # full-width: NFKC gives "dup-name"
    write_skill(skills, "other/broken-dup", "---\nname: dup-name\n---\n\nNo description: an error.\n")
    write_skill(skills, "other/linter", skill_md("Linter Tool", "1.0.0"))  # listed as its folder's name
    write_skill(skills, "other/crlf", skill_md("crlf", "1.0.0").replace("\n", "\r\n"))
    for n in range(12):
        write_skill(skills, f"filler/skill-{n:02}", skill_md(f"skill-{n:02}", "1.0.0", body=f"Filler {n}."))
    commit_all(repo, "first", "2025-01-01T00:00:00+00:00")

    write_skill(skills, "acme/edited", skill_md("edited", "1.0.0", body="Changed, not bumped."))
    write_skill(skills, "acme/downgraded", skill_md("downgraded", "1.0.0", body="Lower."))
    git(repo, "mv", "skills-index/acme/mover", "skills-index/acme/moved-tool")
    write_skill(skills, "acme/dup", skill_md("dup-name", "1.0.0"))
    write_skill(skills, "acme/needs", skill_md("needs", "1.0.0", extra="requires: [helper, no-such-skill]\n"))
    write_skill(skills, "acme/linter", skill_md("linter", "1.0.0"))
    write_skill(skills, "acme/stale-sum", skill_md("stale-sum", "1.0.0", extra=f"checksum: sha256:{'0' * 64}\n"))
    write_skill(skills, "acme/parent", skill_md("parent", "1.0.0"), {"notes.md": "Notes.\n", "scripts/a\\b.sh": "x\n"})
    write_skill(skills, "acme/parent/child", skill_md("child", "1.0.0"))
    (skills / "acme" / "parent" / "escape").symlink_to("/tmp")
    (skills / "stray-link").symlink_to("/tmp")
    commit_all(repo, "second", "2025-02-01T00:00:00+00:00")

    write_skill(skills, "acme/formatter", skill_md("formatter", "1.0.0", body="Edited in the work tree."))
    return skills


def test_each_skill_gets_the_findings_of_an_analysis_of_the_whole_registry(registry):
    folders = sorted(p.parent for p in registry.rglob("SKILL.md"))
    results = {folder.relative_to(registry).as_posix(): both(folder) for folder in folders}
    for rel in ("acme/parent", "acme/dup", "other/crlf"):
        both(registry / rel / "SKILL.md")  # exactly that skill, not the ones nested in it

    def codes(rel):
        return codes_at(results[rel], f"{checker.display_path(registry)}/{rel}")

    assert "F003" in codes("acme/dup") and "F003" in codes("other/escaped") and "F003" in codes("other/wide")
    duplicate = next(f for f in results["acme/dup"].findings if f.code == "F003")
    assert "other/escaped" in duplicate.message and "other/wide" in duplicate.message
    assert "other/broken-dup" not in duplicate.message  # a skill with errors holds no name
    assert "V002" in codes("acme/edited") and "V004" in codes("acme/downgraded")  # the folder's history
    assert "V002" in codes("acme/formatter")  # edited in the work tree, version kept
    assert "V006" in codes("acme/stale-sum")
    missing = [f.message for f in results["acme/needs"].findings if f.code == "W022"]
    assert len(missing) == 1 and "no-such-skill" in missing[0]  # other/helper, not asked for, is there
    assert "D002" in codes("acme/linter")  # other/linter was published first under "linter"
    assert "Y003" in codes("acme/yanked") and "Y002" in codes("acme/old")
    assert len(results["acme/parent"].skills) == 2  # the folder and the skill nested in it


def test_a_tree_a_publisher_and_several_paths_are_checked_alike(registry):
    whole_tree = both(registry)
    assert len(whole_tree.skills) == len(list(registry.rglob("SKILL.md")))
    assert any(f.path.endswith("stray-link") for f in whole_tree.findings)  # outside every skill
    acme = both(registry / "acme")
    assert not any(f.path.endswith("stray-link") for f in acme.findings)
    both(registry / "acme" / "dup", registry / "other" / "wide" / "SKILL.md", registry / "filler")
    inside = both(registry / "acme" / "parent" / "scripts")  # no skill of its own: the parent's crawl finding
    assert not inside.skills and [f.code for f in inside.findings] == ["L007"]


def test_one_skill_costs_one_analysis_whatever_the_registry_holds(registry, monkeypatch):
    counts = {"analysed": 0, "parsed": 0, "finished": 0}
    partial = []

    def counting(name, function):
        def counted(*args, **kwargs):
            counts[name] += 1
            return function(*args, **kwargs)

        return counted

    monkeypatch.setattr(skill_jobs, "analyse_skill", counting("analysed", skill_jobs.analyse_skill))
    monkeypatch.setattr(skill_jobs, "read_skill", counting("parsed", skill_jobs.read_skill))
    monkeypatch.setattr(crawl, "finish", counting("finished", crawl.finish))
    read_repository = history.read_repository
    monkeypatch.setattr(
        history, "read_repository", lambda *a, **k: partial.append((a[1], k.get("partial"))) or read_repository(*a, **k)
    )
    checker.check_paths([registry / "filler" / "skill-03"], score=True)
    # The skill, and the three the lifecycle names (whether they exist decides its check); no other is read.
    assert counts == {"analysed": 1, "parsed": 0, "finished": 4}
    assert partial == [(["filler/skill-03"], True)]

    counts.update(analysed=0, parsed=0)
    checker.check_paths([registry / "acme" / "dup"], score=True)
    assert counts["analysed"] == 1 and counts["parsed"] == 3  # the three others that may be named dup-name


def test_colliding_ids_are_checked_by_an_analysis_of_the_whole_registry(tmp_path, monkeypatch):
    # "acme/Foo" and "acme/foo" both want the id "acme/foo": ids then depend on every folder.
    repo = tmp_path / "registry"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "registry.yaml").write_text(POLICY)
    write_skill(repo / "skills-index", "acme/foo", skill_md("foo", "1.0.0"))
    write_skill(repo / "skills-index", "acme/Foo", skill_md("foo", "1.0.0", body="Another foo."))
    commit_all(repo, "skills", "2025-01-01T00:00:00+00:00")
    calls = []
    analyse = analysis.analyse
    monkeypatch.setattr(analysis, "analyse", lambda *a, **k: calls.append(a) or analyse(*a, **k))
    result = both(repo / "skills-index" / "acme" / "foo")
    assert len(calls) == 2  # the proportional check's fallback, and `whole`
    assert [s.id for s in result.skills] == ["acme/foo-2"]


def test_outside_git_and_outside_a_registry_the_same_findings(tmp_path):
    write_skill(tmp_path / "copied", "a/one", skill_md("one", "1.0.0"))
    write_skill(tmp_path / "copied", "b/one", skill_md("one", "1.0.0"))
    tree = both(tmp_path / "copied")
    assert {"V007", "F003"} <= {f.code for f in tree.findings}  # no history; two skills named "one"
    one = both(tmp_path / "copied" / "a" / "one")  # outside a registry, the folder given is the source
    assert {f.code for f in one.findings} == {"V007"}


def test_a_lifecycle_naming_a_skill_the_crawl_drops_fails_alike(tmp_path):
    repo = tmp_path / "registry"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "registry.yaml").write_text(POLICY + "limits:\n  files_per_skill: 3\n")
    (repo / "lifecycle.yaml").write_text("deprecated:\n  acme/crowded: {reason: too many files}\n")
    write_skill(repo / "skills-index", "acme/fine", skill_md("fine", "1.0.0"))
    write_skill(
        repo / "skills-index", "acme/crowded", skill_md("crowded", "1.0.0"), {f"f{n}.md": "x\n" for n in range(5)}
    )
    commit_all(repo, "skills", "2025-01-01T00:00:00+00:00")
    problems = []
    for whole in (False, True):
        with pytest.raises(PolicyError) as raised:
            checker.check_paths([repo / "skills-index" / "acme" / "fine"], score=True, whole=whole)
        problems.append(raised.value.problems)
    assert problems[0] == problems[1] and "acme/crowded" in problems[0][0]


def test_the_frontmatter_bytes_hold_the_whole_frontmatter():
    assert checker._frontmatter_bytes(b"---\nname: a\n---\nbody\n---\n") == b"---\nname: a"
    assert checker._frontmatter_bytes(b"\n\n---\nname: a\n--- \t\r\nbody") == b"\n\n---\nname: a"
    assert checker._frontmatter_bytes(b"---\nname: a\n----\nb: c\n---x\n---") == b"---\nname: a\n----\nb: c\n---x"
    assert checker._frontmatter_bytes(b"---\rname: a\r---\rbody") == b"---\rname: a"  # a lone CR ends a line
    assert checker._frontmatter_bytes(b"---\nname: a\n") == b"---\nname: a\n"  # unclosed: all of it
    assert checker._frontmatter_bytes(b"# no frontmatter\n") == b""


def test_the_quick_name_reading_never_rules_out_a_name_parsing_could_give():
    limits = Limits()

    def may(name_line, *names, extra=""):
        data = f"---\n{name_line}\ndescription: d\n{extra}---\n\nBody with linter and \\x6c.\n".encode()
        return checker._may_name(data, set(names), limits)

    assert may("name: linter", "linter") and not may("name: formatter", "linter")
    assert not may("name: other", "linter", extra='tools: "a \\t b ü"\n')  # escapes and non-ASCII elsewhere
    assert may('name: "lin\\x74er"', "linter") and may('name: "lin\\u0074\\\n   er"', "linter")
    assert not may('name: "lin\\x75er"', "linter")
    assert may("name: ｌｉｎｔｅｒ", "linter")  # full-width: NFKC gives "linter"
    assert may("name: 'it''s'", "it's") and may("name: long\n  name", "long name")
    assert may("name: linter\n- x", "linter")  # invalid YAML: parsing recovers the name from its line
    assert checker._may_name(b"---\nname: linter\n", {"linter"}, limits)  # unclosed


_ESCAPES = [
    lambda c: c,
    lambda c: f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}",
    lambda c: f"\\u{ord(c):04X}",
    lambda c: f"\\U{ord(c):08x}",
    lambda c: c + "\\\n   ",  # an escaped line break, dropped with the indentation after it
]


@st.composite
def frontmatters(draw):
    """A SKILL.md whose name is written in one of YAML's ways, beside other keys with escapes."""
    name = draw(st.text(alphabet=string.ascii_lowercase + "-0ｄéü ", min_size=1, max_size=12))
    style = draw(st.sampled_from(["plain", "single", "double", "folded"]))
    if style == "plain":
        value = name
    elif style == "single":
        value = "'" + name.replace("'", "''") + "'"
    elif style == "folded":
        value = ">\n  " + name.replace(" ", "\n  ")
    else:
        value = '"' + "".join(draw(st.sampled_from(_ESCAPES))(c) for c in name) + '"'
    other = '"' + "".join(draw(st.sampled_from(_ESCAPES[:2]))(c) for c in draw(st.text(max_size=20))) + '"'
    line_end = draw(st.sampled_from(["\n", "\r\n"]))
    text = f"---\nnote: {other}\nname: {value}\ndescription: d\n---\n\nBody.\n".replace("\n", line_end)
    return text.encode("utf-8", "surrogatepass")


@settings(max_examples=300, deadline=None)
@given(frontmatters(), st.sets(st.text(alphabet="abdé-", min_size=1, max_size=5), max_size=2))
def test_the_quick_name_reading_agrees_with_parsing(data, others):
    limits = Limits()
    declared = pr._declared_name(data, "SKILL.md", limits)
    if declared is not None:
        assert checker._may_name(data, {declared, *others}, limits)

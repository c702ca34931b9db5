"""check-pr reads only what a pull request touches, and says exactly what a full analysis of both commits says.

Each pull request here is checked twice, proportionally (the default) and with `whole=True` (both
commits analysed in full, as check-pr did before), and the two reports must be the same: the
registry-wide checks (duplicate names, discovery names, `requires` targets, near copies, stray
files) still see the skills the pull request did not touch.
"""

import os

import numpy as np
from conftest import commit_all, git, write_skill
from pr_support import POLICY, skill_md

from registry import history, pr
from registry.config import Limits

analyse_in_full = pr._analyse  # counted by the test of the fallback
SHARED = "\n".join(f"Step {n}: run the {word} check and write the result to out/{word}.txt." for n, word in enumerate(
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec"
    " romeo sierra tango uniform victor whiskey xray yankee zulu one two three four five six".split(), 1
))  # fmt: skip


def both(repo, actor="alice", head="HEAD"):
    proportional = pr.check_pull_request(repo, "base-branch", head, actor)
    whole = pr.check_pull_request(repo, "base-branch", head, actor, whole=True)
    assert pr.as_json(proportional) == pr.as_json(whole)
    return proportional


def findings_of(report, skill_id):
    (change,) = [c for c in report.changes if c.id == skill_id]
    return change, {f.code for f in change.findings}


def new_repo(tmp_path):
    path = tmp_path / "registry"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "registry.yaml").write_text(POLICY)
    return path


def test_a_pull_request_of_every_kind_is_judged_as_a_full_analysis_judges_it(tmp_path):
    repo = new_repo(tmp_path)
    skills = repo / "skills-index"
    write_skill(skills, "acme/formatter", skill_md("formatter", "1.0.0"))
    write_skill(skills, "acme/mover", skill_md("mover", "1.0.0", body="Moves things around."))
    write_skill(skills, "acme/gone", skill_md("gone", "1.0.0"))
    write_skill(skills, "other/helper", skill_md("helper", "1.0.0"))
    # Named "dup-name" through a YAML escape: no cheap reading of the bytes finds the name.
    write_skill(skills, "other/escaped", skill_md("escaped", "1.0.0").replace("name: escaped", 'name: "dup\\x2dname"'))
    # Listed under its folder's name, "linter", since its own name is no discovery name.
    write_skill(skills, "other/linter", skill_md("Linter Tool", "1.0.0"))
    write_skill(skills, "acme/long", skill_md("long", "1.0.0", body=SHARED))
    os.symlink("/tmp", skills / "old-link")
    commit_all(repo, "base", "2025-01-01T00:00:00+00:00")
    git(repo, "branch", "base-branch")

    write_skill(skills, "acme/formatter", skill_md("formatter", "1.1.0", body="Better steps."))
    git(repo, "mv", "skills-index/acme/mover", "skills-index/acme/moved-tool")
    git(repo, "rm", "-q", "-r", "skills-index/acme/gone")
    write_skill(skills, "acme/dup", skill_md("dup-name", "1.0.0"))
    write_skill(skills, "acme/needs", skill_md("needs", "1.0.0", extra="requires: [helper, no-such-skill]\n"))
    write_skill(skills, "acme/linter", skill_md("linter", "1.0.0"))
    write_skill(skills, "acme/long-copy", skill_md("long-copy", "1.0.0", body=SHARED + "\nStep 33: tidy up."))
    os.symlink("/tmp", skills / "new-link")
    commit_all(repo, "pr", "2025-02-01T00:00:00+00:00")

    report = both(repo)
    kinds = {c.id: (c.kind, c.old_id) for c in report.changes}
    assert kinds == {
        "acme/formatter": ("updated", None), "acme/moved-tool": ("moved", "acme/mover"), "acme/gone": ("removed", None),
        "acme/dup": ("added", None), "acme/needs": ("added", None), "acme/linter": ("added", None),
        "acme/long-copy": ("added", None),
    }  # fmt: skip
    assert {"F003", "Q008"} <= findings_of(report, "acme/dup")[1]  # the name other/escaped already has
    missing = [f.message for f in findings_of(report, "acme/needs")[0].findings if f.code == "W022"]
    assert len(missing) == 1 and "no-such-skill" in missing[0]  # other/helper is there, untouched
    assert "D002" in findings_of(report, "acme/linter")[1]  # other/linter came first to "linter"
    copy, codes = findings_of(report, "acme/long-copy")
    assert "Q013" in codes and any("acme/long" in f.message for f in copy.findings if f.code == "Q013")
    assert [(f.code, f.path) for f in report.general] == [("L003", "skills-index/new-link")]

    # The same verdict from a worktree of the head, when the head is not what is checked out.
    in_place = pr.as_json(report)
    git(repo, "checkout", "-q", "base-branch")
    assert pr.as_json(both(repo, head="main")) == in_place


def test_near_copies_in_a_crowd_are_paired_as_a_full_build_pairs_them(tmp_path):
    # Twelve near copies: more than clones.MAX_CANDIDATES, so which pairs are compared depends on
    # every member's best candidates, not only the changed skill's.
    repo = new_repo(tmp_path)
    for n in range(12):
        body = SHARED + f"\nOnly skill {n} says this line.\nAnd this one, {n}."
        write_skill(repo / "skills-index", f"other/crowd-{n:02}", skill_md(f"crowd-{n:02}", "1.0.0", body=body))
    commit_all(repo, "base", "2025-01-01T00:00:00+00:00")
    git(repo, "branch", "base-branch")
    body = SHARED.replace("Step 3:", "Step three:") + "\nOnly skill 5 says this line.\nAnd this one, 5."
    write_skill(repo / "skills-index", "other/crowd-05", skill_md("crowd-05", "1.0.1", body=body))
    commit_all(repo, "pr", "2025-02-01T00:00:00+00:00")

    report = both(repo, actor="bob")
    change, codes = findings_of(report, "other/crowd-05")
    assert change.kind == "updated" and "Q013" in codes


def test_the_cheap_name_reading_never_rules_out_a_name_parsing_could_give():
    limits = Limits()

    def may_be(name_line, *names):
        data = f"---\n{name_line}\ndescription: d\n---\n\nBody.\n".encode()
        return pr._may_be_named(data, set(names), "SKILL.md", limits)

    assert may_be("name: formatter", "formatter") and not may_be("name: formatter", "linter")
    assert may_be('name: "lin\\x74er"', "linter")  # an escape
    assert not may_be('name: "lin\\x75er"', "linter") and not may_be("name: other\nx: linter", "linter")
    assert may_be("name: ｌｉｎｔｅｒ", "linter")  # full-width: NFKC gives "linter"
    assert may_be("name: long\n  name", "long name")  # folded over two lines
    assert may_be("name: a\nname: linter", "linter")  # the last key wins
    assert may_be("name: linter\n- x", "linter")  # invalid YAML: parsing recovers the name from its line
    assert pr._may_be_named(b"---\nname: linter\n", {"linter"}, "SKILL.md", limits)  # unclosed
    assert not pr._may_be_named(b"---\nname: other\n", {"linter"}, "SKILL.md", limits)
    assert pr._declared_name("---\nname: ｌｉｎｔｅｒ \n---\n".encode(), "SKILL.md", limits) == "linter"


def test_a_partial_history_walk_gives_the_chosen_folders_their_whole_history(tmp_path):
    repo = new_repo(tmp_path)
    skills = repo / "skills-index"
    write_skill(skills, "acme/one", skill_md("one", "1.0.0"))
    write_skill(skills, "acme/two", skill_md("two", "1.0.0"))
    commit_all(repo, "first", "2025-01-01T00:00:00+00:00")
    write_skill(skills, "acme/one", skill_md("one", "1.1.0", body="Changed."))
    git(repo, "mv", "skills-index/acme/two", "skills-index/acme/three")
    commit_all(repo, "second", "2025-02-01T00:00:00+00:00")
    write_skill(skills, "acme/three", skill_md("two", "1.2.0", body="Changed after the move."))
    commit_all(repo, "third", "2025-03-01T00:00:00+00:00")

    full = history.read_repository(skills, ["acme/one", "acme/three"])
    partial = history.read_repository(skills, ["acme/three"], partial=True)
    assert partial.histories == {"acme/three": full.histories["acme/three"]}
    assert partial.histories["acme/three"].previous_folders == ("acme/two",)
    assert [r.version for r in partial.histories["acme/three"].revisions] == ["1.0.0", "1.2.0"]  # a move is no revision
    assert partial.saved_walk is None and full.saved_walk is not None


def test_near_copy_partners_keep_each_neighbours_better_candidates():
    # MinHash values built by hand (14 bands of 4 values): "y" shares the first 8 bands with the
    # target (estimate 0.5); eight "a" skills are almost the target, eight "b" skills almost "y" but
    # never in a band with the target. A full build pairs the target with neither "y" (eight "a"
    # rank higher for the target, eight "b" for "y"): "b" must be compared too, or "y" would rank
    # the target among its best.
    target = np.arange(64, dtype="<u4")
    y = np.concatenate([target[:32], np.arange(1000, 1032, dtype="<u4")])
    sketches = {"a-target": target, "c-y": y}
    for n in range(8):
        a = target.copy()
        a[60] = 2000 + n
        sketches[f"b-a{n}"] = a
        b = y.copy()
        b[[4 * band + 1 for band in range(8)]] = 3000 + 10 * n + np.arange(8)
        sketches[f"d-b{n}"] = b
    partners = pr._near_copy_partners(sketches, {"a-target"})
    assert partners == {f"b-a{n}" for n in range(8)} | {"c-y"} | {f"d-b{n}" for n in range(8)}


def test_colliding_ids_are_judged_by_a_full_analysis(tmp_path, monkeypatch):
    # "acme/Foo" takes the id "acme/foo" from the untouched folder "acme/foo", which becomes
    # "acme/foo-2": ids then depend on every folder, and both commits are analysed in full.
    repo = new_repo(tmp_path)
    write_skill(repo / "skills-index", "acme/foo", skill_md("foo", "1.0.0"))
    commit_all(repo, "base", "2025-01-01T00:00:00+00:00")
    git(repo, "branch", "base-branch")
    write_skill(repo / "skills-index", "acme/Foo", skill_md("foo", "1.0.0", body="Another foo."))
    commit_all(repo, "pr", "2025-02-01T00:00:00+00:00")
    analysed = []
    monkeypatch.setattr(pr, "_analyse", lambda *args: analysed.append(args) or analyse_in_full(*args))
    report = both(repo)
    assert len(analysed) == 4  # base and head, by the proportional check's fallback and by `whole`
    assert {c.id: c.kind for c in report.changes} == {"acme/foo": "updated", "acme/foo-2": "added"}

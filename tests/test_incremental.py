"""Incremental builds: a rebuild redoes only what changed, writes nothing when nothing changed, and its
output is byte-for-byte what a clean build of the same source gives. Also: worker processes give the
same bytes as one process, index.json shards, per-skill isolation (E001) and the time limit (E002)."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import jsonschema

from registry import history, pipeline, skill_jobs
from registry.build import build, search_cache
from registry.config import BuildOptions
from registry.emit import index_json
from registry.state import BuildState
from tests.conftest import CORPUS, REPO_ROOT, SKILLS_INDEX, commit_all, git, simple_skill, write_skill
from tests.site_checks import assert_same_site, check_index_json, served_files


def snapshot(site: Path) -> dict[str, tuple[int, int, bytes]]:
    """path -> (inode, mtime_ns, bytes) for every file of a site."""
    found = {}
    for path in sorted(site.rglob("*")):
        if path.is_file():
            info = path.stat()
            found[path.relative_to(site).as_posix()] = (info.st_ino, info.st_mtime_ns, path.read_bytes())
    return found


def options(source: Path, out: Path, **extra) -> BuildOptions:
    return BuildOptions(source=source / "skills", out=out, policy=source / "registry.yaml", jobs=1, **extra)


def test_noop_rebuild_writes_nothing_and_reuses_every_skill(registry_repo: Path, tmp_path: Path):
    out = tmp_path / "site"
    first = build(options(registry_repo, out))
    assert first.work["rendered"] == len(first.published) == 23
    before = snapshot(out)
    spare_before = sorted(p.name for p in search_cache(out).iterdir())

    again = build(options(registry_repo, out))

    assert snapshot(out) == before  # same inodes, same modification times, same bytes: nothing written
    assert again.unchanged  # git says nothing changed: the last result is returned, nothing redone
    assert again.published_ids == first.published_ids
    assert [f.to_json() for f in again.findings] == [f.to_json() for f in first.findings]
    assert again.report()["counts"] == first.report()["counts"]

    (registry_repo / "skills" / "opsworks" / "log-triage" / "notes.txt").write_text("untracked")
    (registry_repo / "skills" / "opsworks" / "log-triage" / "notes.txt").unlink()  # touched, then gone: no change
    third = build(options(registry_repo, out))
    assert snapshot(out) == before
    assert third.work == {
        "analysed": 0, "analyses_reused": 23, "rendered": 0, "renders_reused": 23, "files_changed": 0,
    } or third.unchanged  # fmt: skip
    assert sorted(p.name for p in search_cache(out).iterdir()) == spare_before


def test_a_build_that_changed_no_file_is_followed_by_a_noop(registry_repo: Path, tmp_path: Path):
    """A build that ran the stages but swapped nothing in still leaves the fast path able to trust the site."""
    out = tmp_path / "site"
    build(options(registry_repo, out))
    state = BuildState(search_cache(out) / "state.sqlite")
    state.set_meta("served_inode", None)  # as a state written before the fast path kept it apart
    state.set_meta("inputs", None)
    state.close()
    ran = build(options(registry_repo, out))
    assert not ran.unchanged and ran.work["files_changed"] == 0
    assert build(options(registry_repo, out)).unchanged
    shutil.rmtree(out / "skills")  # the site changed behind the build's back: not trusted any more
    again = build(options(registry_repo, out))
    assert not again.unchanged
    assert (out / "skills" / "opsworks" / "log-triage" / "index.html").is_file()


def test_noop_rebuild_of_a_plain_folder_writes_nothing(tmp_path: Path):
    source = tmp_path / "plain"
    shutil.copytree(SKILLS_INDEX, source)
    out = tmp_path / "site"
    build(BuildOptions(source=source, out=out, jobs=1))
    before = snapshot(out)
    again = build(BuildOptions(source=source, out=out, jobs=1))
    assert not again.unchanged  # no git: every skill is checked again, from the build state
    assert again.work == {
        "analysed": 0, "analyses_reused": 23, "rendered": 0, "renders_reused": 23, "files_changed": 0,
    }  # fmt: skip
    assert again.search is not None and again.search.whoosh.indexed == 0 and again.search.shards_changed == 0
    assert again.search.shards_kept > 0  # postings, vocabulary and records are carried over, not made again
    assert snapshot(out) == before


def test_an_untracked_edit_is_seen_by_the_fast_path(registry_repo: Path, tmp_path: Path):
    out = tmp_path / "site"
    build(options(registry_repo, out))
    build(options(registry_repo, out))
    skill_md = registry_repo / "skills" / "opsworks" / "log-triage" / "SKILL.md"
    text = skill_md.read_text().replace('version: "2.0.1"', 'version: "2.1.0"')
    skill_md.write_text(text + "\nUncommitted line.\n")
    result = build(options(registry_repo, out))
    assert not result.unchanged
    assert "Uncommitted line." in (out / "skills" / "opsworks" / "log-triage" / "index.html").read_text()
    text = skill_md.read_text().replace('version: "2.1.0"', 'version: "2.2.0"')
    skill_md.write_text(text + "\nA second uncommitted line.\n")  # already dirty, edited again
    result = build(options(registry_repo, out))
    assert not result.unchanged
    assert "A second uncommitted line." in (out / "skills" / "opsworks" / "log-triage" / "index.html").read_text()


def test_one_change_rerenders_one_skill_and_keeps_the_served_site_untouched_until_the_swap(
    registry_repo: Path, tmp_path: Path
):
    out = tmp_path / "site"
    build(options(registry_repo, out))
    served = snapshot(out)
    # The build from scratch left the spare as hard links to what it served: the first edit writes only what changed.
    assert snapshot(search_cache(out) / "spare") == served
    skill_md = registry_repo / "skills" / "datakit" / "csv-cleaner" / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace('version: "3.0.2"', 'version: "3.1.0"', 1) + "\nOne more line.\n")
    commit_all(registry_repo, "bump csv-cleaner", "2026-01-02T00:00:00Z")

    result = build(options(registry_repo, out))

    assert result.work["analysed"] == 1 and result.work["rendered"] == 1
    assert result.work["renders_reused"] == 22
    page = (out / "skills" / "datakit" / "csv-cleaner" / "index.html").read_text()
    assert "One more line." in page
    after = snapshot(out)
    unchanged = [p for p in served if p in after and served[p][2] == after[p][2]]
    # Unchanged files are the same inodes (hard links), so the old site was never rewritten in place.
    assert all(after[p][0] == served[p][0] for p in unchanged)
    assert len(unchanged) > len(served) * 0.8


def _random_edit(rng: random.Random, skills: Path, round_number: int) -> str:
    folders = sorted(p.parent for p in skills.rglob("SKILL.md"))
    action = rng.choice(["body", "version", "add", "remove", "rename", "support", "policy", "break"])
    target = rng.choice(folders)
    skill_md = target / "SKILL.md"
    if action == "body":
        skill_md.write_text(skill_md.read_text() + f"\n## Note {round_number}\n\nUse `rg` to search.\n")
    elif action == "version":
        text = skill_md.read_text()
        skill_md.write_text(text.replace("version:", f"version: 0.{round_number}.0\nx-old-version:", 1))
    elif action == "add":
        write_skill(
            skills, f"mira-okafor/added-{round_number}",
            simple_skill(f"added-{round_number}", body=f"# Added\n\nRound {round_number}.\n"),
        )  # fmt: skip
    elif action == "remove" and len(folders) > 5:
        shutil.rmtree(target)
    elif action == "rename":
        target.rename(target.with_name(target.name + f"-r{round_number}"))
    elif action == "support":
        (target / "references").mkdir(exist_ok=True)
        (target / "references" / f"notes-{round_number}.md").write_text(f"# Notes {round_number}\n")
    elif action == "policy":
        policy = skills.parent / "registry.yaml"
        policy.write_text(policy.read_text().replace("title:", f"title: Round {round_number}\nx-was-title:", 1))
        if "x-was-title" in policy.read_text():  # the policy has no title key: restore it
            policy.write_text(policy.read_text().replace(f"title: Round {round_number}\nx-was-title:", "title:"))
    elif action == "break":
        skill_md.write_text("---\nname: [unclosed\n---\nbroken\n")
    return action


def test_incremental_output_is_byte_identical_to_a_clean_build_after_random_edits(registry_repo: Path, tmp_path: Path):
    rng = random.Random(20261122)
    out = tmp_path / "incremental"
    build(options(registry_repo, out))
    actions = []
    for round_number in range(6):
        actions.append(_random_edit(rng, registry_repo / "skills", round_number))
        if rng.random() < 0.7:
            commit_all(registry_repo, f"round {round_number}", f"2026-02-{round_number + 1:02d}T00:00:00Z")
        incremental = build(options(registry_repo, out))
        clean_out = tmp_path / f"clean-{round_number}"
        clean = build(options(registry_repo, clean_out, clean=True))
        assert clean.work["renders_reused"] == 0 and clean.work["analyses_reused"] == 0
        assert_same_site(out, clean_out)
        assert [f.to_json() for f in incremental.findings] == [f.to_json() for f in clean.findings], actions
    assert len(set(actions)) >= 3  # the seed exercises several kinds of edit


def test_a_template_change_rerenders_everything(registry_repo: Path, tmp_path: Path):
    templates = tmp_path / "templates"
    shutil.copytree(REPO_ROOT / "templates", templates)
    out = tmp_path / "site"
    build(options(registry_repo, out, templates=templates))
    skill_template = templates / "skill.html"
    skill_template.write_text(skill_template.read_text().replace("{% block main %}", "{% block main %}<!-- v2 -->", 1))
    result = build(options(registry_repo, out, templates=templates))
    assert result.work["rendered"] == 23
    assert "<!-- v2 -->" in (out / "skills" / "datakit" / "csv-cleaner" / "index.html").read_text()


def test_a_site_changed_behind_the_builds_back_is_rebuilt_from_scratch(registry_repo: Path, tmp_path: Path):
    out = tmp_path / "site"
    build(options(registry_repo, out))
    shutil.rmtree(out)
    out.mkdir()
    (out / "stray.txt").write_text("not ours")
    build(options(registry_repo, out))
    assert not (out / "stray.txt").exists()
    assert_same_site(out, _clean_copy(registry_repo, tmp_path))


def _clean_copy(registry_repo: Path, tmp_path: Path) -> Path:
    clean_out = tmp_path / "clean"
    build(options(registry_repo, clean_out, clean=True))
    return clean_out


def test_history_resumed_from_a_saved_walk_equals_a_full_walk(registry_repo: Path):
    skills = registry_repo / "skills"
    folders = sorted(str(p.parent.relative_to(skills)) for p in skills.rglob("SKILL.md"))
    first = history.read_repository(skills, folders)
    assert first.saved_walk is not None
    skill_md = skills / "opsworks" / "log-triage" / "SKILL.md"
    for day in range(2, 5):
        skill_md.write_text(skill_md.read_text() + f"\nDay {day}.\n")
        commit_all(registry_repo, f"day {day}", f"2026-03-{day:02d}T00:00:00Z")
    (skills / "opsworks" / "log-triage").rename(skills / "opsworks" / "log-triage-2")
    commit_all(registry_repo, "rename", "2026-03-09T00:00:00Z")
    folders = sorted(str(p.parent.relative_to(skills)) for p in skills.rglob("SKILL.md"))

    resumed = history.read_repository(skills, folders, saved=first.saved_walk)
    full = history.read_repository(skills, folders)

    assert resumed.histories == full.histories
    assert resumed.histories["opsworks/log-triage-2"].commits == 5
    # A saved walk from a commit that is not on HEAD's line is ignored, not trusted.
    git(registry_repo, "checkout", "-q", "--orphan", "other")
    commit_all(registry_repo, "unrelated", "2026-04-01T00:00:00Z")
    unrelated = history.read_repository(skills, folders, saved=first.saved_walk)
    assert unrelated.histories == history.read_repository(skills, folders).histories


def test_worker_processes_give_the_same_bytes_as_one_process(tmp_path: Path, monkeypatch):
    source = tmp_path / "source"
    for name in ("anthropics-skills", "obra-superpowers", "openai-skills", "vercel-agent-skills", "gibb-eri-sh"):
        shutil.copytree(CORPUS / name, source / name, symlinks=True)
    serial = build(BuildOptions(source=source, out=tmp_path / "serial", jobs=1))
    # The analysis's workers stop before rendering, fresh ones render, then stop: the site-wide hooks run in the
    # build process alone.
    workers_running = []

    def noting(function, position):  # position: where the function takes the build's Incremental
        def noted(*args):
            workers_running.append(args[position].workers.started)
            returned = function(*args)
            workers_running.append(args[position].workers.started)
            return returned

        return noted

    monkeypatch.setattr(pipeline, "analyse", noting(pipeline.analyse, 5))
    monkeypatch.setattr(pipeline, "_render", noting(pipeline._render, 3))
    monkeypatch.setattr(pipeline, "_emit_site", noting(pipeline._emit_site, 3))
    parallel = build(BuildOptions(source=source, out=tmp_path / "parallel", jobs=2))
    # analyse: not yet started, then started; render: stopped, then started again; the hooks: stopped throughout.
    assert workers_running == [False, True, False, True, False, False]
    assert len(serial.published) > 48  # enough for the pool to be used
    assert_same_site(tmp_path / "serial", tmp_path / "parallel")
    assert [f.to_json() for f in serial.findings] == [f.to_json() for f in parallel.findings]


def test_a_large_registry_gets_a_sharded_index(registry_repo: Path, tmp_path: Path, monkeypatch):
    single = tmp_path / "single"
    build(options(registry_repo, single))
    monkeypatch.setattr(index_json, "SINGLE_FILE_MAX", 5)
    monkeypatch.setattr(index_json, "SHARD_SIZE", 4)
    sharded = tmp_path / "sharded"
    build(options(registry_repo, sharded))

    manifest = json.loads((sharded / "index.json").read_text())
    schema = json.loads((REPO_ROOT / "schema" / "index.schema.json").read_text())
    jsonschema.validate(manifest, schema, cls=jsonschema.Draft202012Validator)
    assert "skills" not in manifest and len(manifest["shards"]) == 8
    shard_schema = {"$id": schema["$id"], "$defs": schema["$defs"], "$ref": "#/$defs/shard"}
    entries = []
    for number, shard in enumerate(manifest["shards"]):
        data = (sharded / "index" / f"{number}.json").read_bytes()
        assert shard["digest"] == "sha256:" + __import__("hashlib").sha256(data).hexdigest()
        assert shard["bytes"] == len(data)
        body = json.loads(data)
        jsonschema.validate(body, shard_schema, cls=jsonschema.Draft202012Validator)
        for entry in body["skills"]:
            assert index_json.shard_of(entry["id"], len(manifest["shards"])) == number
        entries += body["skills"]
    whole = json.loads((single / "index.json").read_text())
    check_index_json(single)
    assert sorted(entries, key=lambda e: e["id"]) == whole["skills"]
    assert manifest["skill_count"] == whole["skill_count"] == 23


def test_one_skill_that_crashes_the_parser_is_reported_and_the_rest_build(
    registry_repo: Path, tmp_path: Path, monkeypatch
):
    real = skill_jobs.parse_skill

    def fragile(location, limits, **kwargs):
        if location.id.endswith("regex-explainer"):
            raise KeyError("boom")
        return real(location, limits, **kwargs)

    monkeypatch.setattr(skill_jobs, "parse_skill", fragile)
    result = build(options(registry_repo, tmp_path / "site"))
    assert len(result.published) == 22
    [left] = [item for item in result.left_out if item.id.endswith("regex-explainer")]
    [finding] = left.reasons
    assert finding.code == "E001" and finding.path.endswith("regex-explainer/SKILL.md")
    assert "KeyError: 'boom'" in finding.message
    assert not (tmp_path / "site" / "skills" / "mira-okafor" / "regex-explainer").exists()


def test_a_skill_over_the_time_limit_is_left_out_with_the_limit_named(registry_repo: Path, tmp_path: Path, monkeypatch):
    policy = registry_repo / "registry.yaml"
    text = policy.read_text()
    policy.write_text(text + ("\nlimits:\n  skill_seconds: 1\n" if "limits:" not in text else ""))
    real = skill_jobs.parse_skill

    def slow(location, limits, **kwargs):
        if location.id.endswith("log-triage"):
            while True:  # a pathological skill: never finishes on its own
                os.sched_yield()
        return real(location, limits, **kwargs)

    monkeypatch.setattr(skill_jobs, "parse_skill", slow)
    result = build(options(registry_repo, tmp_path / "site"))
    [left] = [item for item in result.left_out if item.id.endswith("log-triage")]
    [finding] = left.reasons
    assert finding.code == "E002"
    assert "skill_seconds: 1" in finding.message and "stopped after 1." in finding.message
    assert len(result.published) == 22


def test_a_same_size_edit_with_its_old_mtime_is_still_seen(tmp_path: Path):
    """The crawl's digest cache trusts stat facts like git's index: ctime catches a restored mtime."""
    source = tmp_path / "plain"
    shutil.copytree(SKILLS_INDEX, source)
    out = tmp_path / "site"
    target = source / "datakit" / "csv-cleaner"
    script = target / "references" / "cleaning-rules.md"
    old = script.stat()
    os.utime(script, ns=(old.st_atime_ns, old.st_mtime_ns - 10_000_000_000))  # older than the racy window
    build(BuildOptions(source=source, out=out, jobs=1))
    data = script.read_bytes()
    before = script.stat()
    script.write_bytes(bytes([data[0] ^ 1]) + data[1:])  # same size
    os.utime(script, ns=(before.st_atime_ns, before.st_mtime_ns))  # same mtime as when it was hashed
    result = build(BuildOptions(source=source, out=out, jobs=1))
    assert result.work["analysed"] == 1
    served = served_files(out, "datakit/csv-cleaner")["references/cleaning-rules.md"]
    assert served.read_bytes()[:1] == bytes([data[0] ^ 1])


def test_a_setting_the_analysis_reads_analyses_again_and_one_it_does_not_read_does_not(
    registry_repo: Path, tmp_path: Path
):
    """The analysis is keyed by the parsed registry.yaml without `outputs:` (registry/analysis.py)."""
    policy = registry_repo / "registry.yaml"
    out = tmp_path / "site"
    first = build(options(registry_repo, out))
    text = policy.read_text()
    line = "categories: [development, creative, enterprise, data, devops, other]"
    assert line in text
    policy.write_text(text.replace(line, line.replace("creative", "{name: creative, keywords: [regex, triage]}")))
    again = build(options(registry_repo, out))
    assert again.work["analysed"] == len(first.published) + len(first.left_out)  # categories are read per skill
    build(options(registry_repo, tmp_path / "clean", clean=True))
    assert_same_site(out, tmp_path / "clean")
    policy.write_text(policy.read_text() + "\noutputs: lean\n")
    lean = build(options(registry_repo, out))
    assert lean.work["analysed"] == 0 and lean.work["renders_reused"] == 0

"""`skill-registry new`: a scaffold in every dialect passes `validate --strict` and builds."""

import json
import re
import shutil

import pytest
import yaml
from click.testing import CliRunner
from conftest import REPO_ROOT, SKILLS_INDEX, simple_skill, write_skill

from registry.checker import check_paths
from registry.cli import main
from registry.cli_authoring import DIALECT_CHOICES, new

DIALECT_KEYS = {
    "agent-skills": {"agent-skills"},
    "claude-code": {"agent-skills", "claude-code"},
    "skillli": {"agent-skills", "skillli"},
    "gibberish": {"agent-skills", "gibberish"},
    "agent-flow-lite": {"agent-skills", "agent-flow-lite"},
    "bouno": {"agent-skills", "bouno"},
    "wolffish": {"agent-skills", "wolffish"},
}


def scaffold(*args):
    return CliRunner().invoke(new, list(args), catch_exceptions=False)


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def frontmatter(skill_md):
    text = skill_md.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])


def test_every_dialect_has_a_template():
    assert set(DIALECT_CHOICES) == set(DIALECT_KEYS)


@pytest.mark.parametrize("dialect", DIALECT_CHOICES)
def test_new_skill_passes_validate_strict_in_every_dialect(tmp_path, dialect):
    source = tmp_path / "skills"
    result = scaffold("report-helper", "--publisher", "acme", "--dialect", dialect, "--source", str(source))
    assert result.exit_code == 0, result.output
    folder = source / "acme" / "report-helper"
    assert (folder / "SKILL.md").is_file()
    assert "Next steps:" in result.stdout and "warning" not in result.stderr

    checked = run("validate", "--strict", str(folder))
    assert checked.exit_code == 0, checked.output
    assert re.search(r"1 skill checked: 0 errors, 0 warnings, \d+ info$", checked.output.strip())

    data = json.loads(run("validate", "--format", "json", str(folder)).output)
    (skill,) = data["skills"]
    assert set(skill["dialects"]) == DIALECT_KEYS[dialect]
    assert skill["name"] == "report-helper" and skill["valid"]
    assert {f["severity"] for f in data["findings"]} <= {"info"}

    meta = frontmatter(folder / "SKILL.md")
    version = meta.get("version") or meta["metadata"]["version"]
    assert version == "0.1.0"
    assert "trust-level" not in meta  # tiers are earned, never claimed


def test_standard_template_ships_a_linked_reference(tmp_path):
    result = scaffold("api-notes", "--publisher", "acme", "--source", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "acme" / "api-notes"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "SKILL.md",
        "references/REFERENCE.md",
    ]
    assert "(references/REFERENCE.md)" in (folder / "SKILL.md").read_text(encoding="utf-8")
    meta = frontmatter(folder / "SKILL.md")
    assert set(meta) <= {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


def test_skillli_checksum_matches_the_content_digest(tmp_path):
    result = scaffold(
        "csv-tidy", "--publisher", "datakit", "--dialect", "skillli", "--source", str(tmp_path), "--version", "1.2.3"
    )
    assert result.exit_code == 0, result.output
    folder = tmp_path / "datakit" / "csv-tidy"
    meta = frontmatter(folder / "SKILL.md")
    (skill,) = check_paths([folder]).skills
    assert meta["checksum"] == skill.content_digest
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", meta["checksum"])
    assert meta["version"] == "1.2.3"
    assert run("checksum", str(folder)).output.strip() == meta["checksum"]
    assert "skill-registry checksum" in result.stdout  # the next steps say how to refresh it


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("My_Skill", "my-skill"),
        ("pdf--tools", "pdf-tools"),
        ("-edge-", "edge"),
        ("café-notes", "cafe-notes"),
        ("claude-helper", "helper"),
        ("x" * 70, "x" * 64),
    ],
)
def test_invalid_names_are_refused_with_a_suggestion(tmp_path, name, suggestion):
    result = scaffold("--publisher", "acme", "--source", str(tmp_path), "--", name)
    assert result.exit_code == 2, result.output
    assert f"skill-registry new {suggestion}" in result.output
    assert not (tmp_path / "acme").exists()


def test_invalid_publisher_and_version_are_refused(tmp_path):
    result = scaffold("good-name", "--publisher", "Acme Corp", "--source", str(tmp_path))
    assert result.exit_code == 2 and "--publisher acme-corp" in result.output
    result = scaffold("good-name", "--publisher", "acme", "--version", "1.0", "--source", str(tmp_path))
    assert result.exit_code == 2 and "--version 1.0.0" in result.output
    assert not any(tmp_path.iterdir())


def test_existing_folder_is_refused_unless_forced(tmp_path):
    assert scaffold("notes", "--publisher", "acme", "--source", str(tmp_path)).exit_code == 0
    skill_md = tmp_path / "acme" / "notes" / "SKILL.md"
    skill_md.write_text(simple_skill("notes"), encoding="utf-8")
    (skill_md.parent / "extra.txt").write_text("kept", encoding="utf-8")

    again = scaffold("notes", "--publisher", "acme", "--source", str(tmp_path))
    assert again.exit_code == 1 and "already exists" in again.stderr and "--force" in again.stderr
    assert skill_md.read_text(encoding="utf-8") == simple_skill("notes")

    forced = scaffold("notes", "--publisher", "acme", "--dialect", "bouno", "--source", str(tmp_path), "--force")
    assert forced.exit_code == 0, forced.output
    assert "auto-discover:" in skill_md.read_text(encoding="utf-8")
    assert (skill_md.parent / "extra.txt").read_text(encoding="utf-8") == "kept"


def test_a_name_used_by_another_publisher_is_refused(tmp_path):
    write_skill(tmp_path, "other/notes", simple_skill("notes"))
    result = scaffold("notes", "--publisher", "acme", "--source", str(tmp_path))
    assert result.exit_code == 1 and "already exists" in result.stderr and "F003" in result.stderr
    assert not (tmp_path / "acme").exists()


def test_unknown_namespace_warns_and_says_how_to_add_it(tmp_path):
    source = tmp_path / "skills-index"
    source.mkdir()
    (source / "registry.yaml").write_text(
        "maintainers: [boss]\npublishers:\n  acme:\n    tier: verified\n    maintainers: [acme-dev]\n", encoding="utf-8"
    )
    known = scaffold("one-thing", "--publisher", "acme", "--source", str(source))
    assert known.exit_code == 0 and "warning" not in known.stderr

    unknown = scaffold("two-thing", "--publisher", "newcomer", "--source", str(source))
    assert unknown.exit_code == 0, unknown.output
    assert "namespace 'newcomer' has no publisher" in unknown.stderr
    assert "newcomer:\n      tier: community\n      namespaces: [newcomer]" in unknown.stderr
    assert (source / "newcomer" / "two-thing" / "SKILL.md").is_file()


def test_publisher_defaults_to_the_one_the_user_maintains(tmp_path, monkeypatch):
    source = tmp_path / "skills-index"
    source.mkdir()
    (source / "registry.yaml").write_text("publishers:\n  acme:\n    maintainers: [jdoe]\n", encoding="utf-8")
    monkeypatch.setattr("registry.cli_authoring._git_login", lambda: "jdoe")
    result = scaffold("from-login", "--source", str(source))
    assert result.exit_code == 0, result.output
    assert (source / "acme" / "from-login" / "SKILL.md").is_file()
    assert "publisher: acme" in result.stdout


def test_category_comes_from_the_policy(tmp_path):
    source = tmp_path / "skills-index"
    source.mkdir()
    (source / "registry.yaml").write_text("categories: [writing, research]\n", encoding="utf-8")
    result = scaffold("essay-check", "--publisher", "ink", "--dialect", "skillli", "--source", str(source))
    assert result.exit_code == 0, result.output
    meta = frontmatter(source / "ink" / "essay-check" / "SKILL.md")
    assert meta["category"] == "writing"


def test_a_build_including_fresh_skills_of_every_dialect_works(tmp_path):
    source = tmp_path / "skills-index"
    shutil.copytree(SKILLS_INDEX, source)
    policy = tmp_path / "registry.yaml"
    shutil.copy(REPO_ROOT / "registry.yaml", policy)
    names = {dialect: f"fresh-{dialect.replace('claude-code', 'cc')}" for dialect in DIALECT_CHOICES}
    for dialect, name in names.items():
        result = scaffold(name, "--publisher", "opsworks", "--dialect", dialect, "--source", str(source))
        assert result.exit_code == 0, result.output

    out, report = tmp_path / "public", tmp_path / "report.json"
    built = run(
        "build", "--source", str(source), "--out", str(out), "--policy", str(policy), "--strict",
        "--report", str(report), "--quiet",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    data = json.loads(report.read_text(encoding="utf-8"))
    ids = {f"opsworks/{name}" for name in names.values()}
    assert ids <= set(data["published"])
    ours = [f for f in data["findings"] if f["path"].split("/SKILL.md")[0] in ids or "fresh-" in f["path"]]
    assert {f["severity"] for f in ours} <= {"info"}, ours

    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    fresh = {s["id"]: s for s in index["skills"] if s["id"] in ids}
    assert set(fresh) == ids
    for skill in fresh.values():
        assert skill["risk"]["level"] == "low"
        assert skill["discovery_name"] == skill["name"]  # offered to the `skills` CLI too
        assert skill["version"] == "0.1.0"
    assert (out / "skills" / "opsworks" / "fresh-gibberish" / "index.html").is_file()

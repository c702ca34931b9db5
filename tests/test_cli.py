import json

from click.testing import CliRunner
from conftest import SKILLS_INDEX, simple_skill, write_skill

from registry.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_validate_text_reads_like_a_compiler(tmp_path):
    write_skill(tmp_path, "pub/bad-skill", "---\nname: Bad_Skill\ndescription: ok\n---\nbody text here\n")
    result = run("validate", str(tmp_path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(
        line.endswith("Skill name 'Bad_Skill' must be lowercase") and ":2:1: error S005" in line for line in lines
    )
    assert any(line.strip().startswith("hint:") for line in lines)
    assert lines[-1].startswith("1 skill checked: ")


def test_validate_a_single_skill_md_and_a_folder(tmp_path):
    folder = write_skill(tmp_path, "p/good", simple_skill("good"))
    assert run("validate", str(folder / "SKILL.md")).exit_code == 0
    assert run("validate", str(folder)).exit_code == 0


def test_validate_json_is_stable_and_complete(tmp_path):
    write_skill(tmp_path, "p/good", simple_skill("good"))
    write_skill(tmp_path, "p/nodesc", "---\nname: nodesc\n---\nbody text here\n")
    result = run("validate", "--format", "json", str(tmp_path))
    data = json.loads(result.output)
    assert data["format_version"] == 1
    assert {s["id"] for s in data["skills"]} == {"p/good", "p/nodesc"}
    (finding,) = [f for f in data["findings"] if f["code"] == "S002"]
    assert set(finding) == {"code", "severity", "message", "path", "line", "column", "hint", "excerpt"}
    assert data["summary"]["error"] == 1 and result.exit_code == 1


def test_validate_github_format_emits_workflow_commands(tmp_path):
    write_skill(tmp_path, "p/x", "---\nname: x\ndescription: Use when: broken\n---\nbody\n")
    result = run("validate", "--format", "github", str(tmp_path))
    (p013,) = [line for line in result.output.splitlines() if "title=P013::" in line]
    assert p013.startswith("::error file=") and ",line=3," in p013


def test_validate_strict_fails_on_warnings_and_usage_errors_exit_2(tmp_path):
    write_skill(tmp_path, "p/other-name", simple_skill("mismatch"))
    assert run("validate", str(tmp_path)).exit_code == 0
    assert run("validate", "--strict", str(tmp_path)).exit_code == 1
    assert run("validate", str(tmp_path / "missing")).exit_code == 2
    (tmp_path / "empty").mkdir()
    assert run("validate", str(tmp_path / "empty")).exit_code == 2


def test_skills_index_validates_without_errors():
    result = run("validate", str(SKILLS_INDEX))
    assert result.exit_code == 0, result.output


def test_build_command_writes_a_report(tmp_path):
    source = tmp_path / "src"
    write_skill(source, "p/a", simple_skill("a"))
    result = run("build", "--source", str(source), "--out", str(tmp_path / "out"), "--report", str(tmp_path / "r.json"))
    assert result.exit_code == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["counts"]["published"] == 1 and report["published"] == ["p/a"]

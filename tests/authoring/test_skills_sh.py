"""`skill-registry skills-sh`: the repository-root skills.sh.json that groups the skills on skills.sh.

skills.sh shows a GitHub repository's skills on one page and reads `skills.sh.json` at the repository's
root to group them into sections (https://skills.sh/docs/customize). The JSON Schema it publishes
(https://skills.sh/schemas/skills.sh.schema.json) carries no licence, so it is not copied here:
`assert_skills_sh_format` checks by hand what the page and the schema state.
"""

import json
import re

import pytest
from click.testing import CliRunner
from conftest import REPO_ROOT, commit_all, git, write_skill

from registry import cli_authoring
from registry.cli import main
from registry.cli_authoring import skills_sh

SCHEMA_URL = "https://skills.sh/schemas/skills.sh.schema.json"

POLICY = """\
maintainers: [admin]
publishers:
  acme:
    tier: verified
    maintainers: [acme-dev]
  beta:
    maintainers: [beta-dev]
categories: [development, data, devops, machine-learning, other]
"""

MESSAGE = re.compile(r"^(error|warning|note): [a-z0-9'`.<{(/-].*[^.]$")


def skill(name: str, category: str, description: str = "Does a useful thing. Use when testing.") -> str:
    return (
        f"---\nname: {name}\ndescription: {description}\nlicense: MIT\ncategory: {category}\n---\n\n"
        f"# {name}\n\nStep one. Step two.\n"
    )


SKILLS = {
    "acme/lint-helper": skill("lint-helper", "development"),
    "acme/csv-report": skill("csv-report", "data"),
    "beta/sql-check": skill("sql-check", "data"),
    "beta/code-tidy": skill("code-tidy", "development"),
    "beta/model-card": skill("model-card", "machine-learning"),
    "beta/misc-notes": skill("misc-notes", "other"),
}


@pytest.fixture
def registry(tmp_path, monkeypatch):
    """A registry at tmp_path (registry.yaml, skills-index/), and the working directory there."""
    (tmp_path / "registry.yaml").write_text(POLICY, encoding="utf-8")
    for skill_id, text in SKILLS.items():
        write_skill(tmp_path / "skills-index", skill_id, text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(*args: str):
    return CliRunner().invoke(skills_sh, list(args), catch_exceptions=False)


def generated(root) -> dict:
    result = invoke()
    assert result.exit_code == 0, result.output
    text = (root / "skills.sh.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert_skills_sh_format(data)
    assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return data


def assert_skills_sh_format(data: dict) -> None:
    """What https://skills.sh/docs/customize and the skills.sh schema state about the file.

    Top level: `$schema`, `notGrouped` ("top" or "bottom"), `groupings` (required, 1 to 50; skills.sh
    reads only the first 50), nothing else. A grouping: `title` (1 to 120 characters), `description`
    (optional, at most 500), `skills` (1 to 500 names; skills.sh reads only the first 500), nothing
    else. Names match case-insensitively with spaces and underscores read as hyphens, and the first
    grouping that lists a name wins, so a name listed twice is a mistake.
    """
    assert set(data) <= {"$schema", "notGrouped", "groupings"}, sorted(data)
    assert data["$schema"] == SCHEMA_URL
    assert data.get("notGrouped", "bottom") in ("top", "bottom")
    groupings = data["groupings"]
    assert isinstance(groupings, list) and 1 <= len(groupings) <= 50
    seen: set[str] = set()
    for grouping in groupings:
        assert {"title", "skills"} <= set(grouping) <= {"title", "description", "skills"}, sorted(grouping)
        assert isinstance(grouping["title"], str) and 1 <= len(grouping["title"]) <= 120
        if "description" in grouping:
            assert isinstance(grouping["description"], str) and len(grouping["description"]) <= 500
        assert isinstance(grouping["skills"], list) and 1 <= len(grouping["skills"]) <= 500
        for name in grouping["skills"]:
            assert isinstance(name, str) and 1 <= len(name) <= 120
            key = re.sub(r"[ _]", "-", name.lower())
            assert key not in seen, f"{name} is listed twice"
            seen.add(key)


def titles(data: dict) -> list[str]:
    return [grouping["title"] for grouping in data["groupings"]]


def test_one_grouping_per_category_in_the_policys_order(registry):
    data = generated(registry)
    assert data["$schema"] == SCHEMA_URL and data["notGrouped"] == "bottom"
    # devops has no skill: no grouping (skills.sh needs at least one skill in each).
    assert titles(data) == ["Development", "Data", "Machine learning", "Other"]
    assert [g["skills"] for g in data["groupings"]] == [
        ["code-tidy", "lint-helper"],
        ["csv-report", "sql-check"],
        ["model-card"],
        ["misc-notes"],
    ]
    described = {g["title"]: g.get("description") for g in data["groupings"]}
    assert described["Development"] and described["Data"] and described["Other"]
    assert described["Machine learning"] is None  # a category of this registry's own: no sentence to invent


def test_the_output_is_deterministic(registry):
    first = (generated(registry), (registry / "skills.sh.json").read_bytes())
    (registry / "skills.sh.json").unlink()
    second = (generated(registry), (registry / "skills.sh.json").read_bytes())
    assert first == second
    assert first[1].endswith(b"}\n") and not first[1].endswith(b"\n\n")


def test_check_reports_missing_stale_and_current(registry):
    missing = invoke("--check")
    assert missing.exit_code == 1 and "missing" in missing.stderr
    assert MESSAGE.match(missing.stderr.splitlines()[0]) and "skill-registry skills-sh" in missing.stderr
    assert not (registry / "skills.sh.json").exists()

    written = invoke()
    assert written.exit_code == 0 and "Wrote skills.sh.json" in written.stderr
    current = invoke("--check")
    assert current.exit_code == 0 and "up to date" in current.stdout

    write_skill(registry / "skills-index", "acme/deploy-bot", skill("deploy-bot", "devops"))
    before = (registry / "skills.sh.json").read_text(encoding="utf-8")
    stale = invoke("--check")
    assert stale.exit_code == 1
    first = stale.stderr.splitlines()[0]
    assert MESSAGE.match(first) and "stale" in first and "skill-registry skills-sh" in first
    assert '+        "deploy-bot"' in stale.stderr  # the diff shows what changed
    assert (registry / "skills.sh.json").read_text(encoding="utf-8") == before  # --check never writes

    assert invoke().exit_code == 0
    assert invoke("--check").exit_code == 0
    assert "DevOps" in titles(json.loads((registry / "skills.sh.json").read_text(encoding="utf-8")))


def test_withdrawn_and_left_out_skills_are_not_listed(registry):
    (registry / "lifecycle.yaml").write_text(
        "withdrawn:\n  beta/sql-check: {reason: Sent the queries to a remote host}\n", encoding="utf-8"
    )
    write_skill(registry / "skills-index", "acme/no-description", "---\nname: no-description\n---\nNo description.\n")
    write_skill(
        registry / "skills-index", "acme/nameless", "---\ndescription: Does a thing. Use when testing.\n---\nx\n"
    )
    result = invoke()
    assert result.exit_code == 0, result.output
    data = json.loads((registry / "skills.sh.json").read_text(encoding="utf-8"))
    listed = [name for grouping in data["groupings"] for name in grouping["skills"]]
    assert "sql-check" not in listed and "no-description" not in listed
    # Published (Claude Code names it after its folder), but the `skills` CLI skips a SKILL.md without a
    # name, so skills.sh never shows it: nothing to group, and a note says why.
    assert "nameless" not in listed and "acme/nameless" in result.stderr
    assert sorted(listed) == ["code-tidy", "csv-report", "lint-helper", "misc-notes", "model-card"]


GROUPINGS = """\
skills_sh:
  not_grouped: top
  groupings:
    - title: Start here
      description: The two skills to try first.
      skills: [beta/sql-check, acme/lint-helper]
    - title: Tidying
      skills: [beta/code-tidy]
"""


def test_groupings_in_the_policy_replace_the_categories(registry):
    (registry / "registry.yaml").write_text(POLICY + GROUPINGS, encoding="utf-8")
    data = generated(registry)
    assert data == {
        "$schema": SCHEMA_URL,
        "notGrouped": "top",
        "groupings": [
            {
                "title": "Start here",
                "description": "The two skills to try first.",
                "skills": ["sql-check", "lint-helper"],  # the maintainer's order, not sorted
            },
            {"title": "Tidying", "skills": ["code-tidy"]},
        ],
    }


def test_an_unknown_skill_in_the_policy_groupings_is_a_clear_error(registry):
    policy = POLICY + GROUPINGS.replace("acme/lint-helper", "acme/lint-helpr")
    (registry / "registry.yaml").write_text(policy, encoding="utf-8")
    result = invoke()
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert MESSAGE.match(lines[0]) and "registry.yaml" in lines[0]
    assert any(
        "skills_sh.groupings.0.skills" in line and "'acme/lint-helpr'" in line and "'acme/lint-helper'" in line
        for line in lines
    ), result.stderr
    assert "Traceback" not in result.stderr
    assert not (registry / "skills.sh.json").exists()

    renamed = POLICY + GROUPINGS.replace("beta/code-tidy", "beta/old-tidy")
    (registry / "registry.yaml").write_text(renamed, encoding="utf-8")
    (registry / "lifecycle.yaml").write_text("renamed:\n  beta/old-tidy: beta/code-tidy\n", encoding="utf-8")
    result = invoke()
    assert result.exit_code == 1 and "renamed to 'beta/code-tidy'" in result.stderr


def test_a_skill_in_two_policy_groupings_is_an_error(registry):
    twice = POLICY + GROUPINGS.replace("[beta/code-tidy]", "[beta/code-tidy, acme/lint-helper]")
    (registry / "registry.yaml").write_text(twice, encoding="utf-8")
    result = invoke()
    assert result.exit_code == 1
    assert "'acme/lint-helper'" in result.stderr and "Start here" in result.stderr


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("skills_sh:\n  not_grouped: middle\n", "middle"),
        ("skills_sh:\n  groupings:\n    - title: Empty\n      skills: []\n", "skills_sh.groupings.0.skills"),
        ("skills_sh:\n  groupings:\n    - skills: [acme/lint-helper]\n", "'title' is a required property"),
        ("skills_sh:\n  grouping: []\n", "unknown setting"),
    ],
)
def test_an_invalid_skills_sh_setting_is_a_policy_error(registry, setting, named):
    (registry / "registry.yaml").write_text(POLICY + setting, encoding="utf-8")
    result = invoke()
    assert result.exit_code == 1
    assert MESSAGE.match(result.stderr.splitlines()[0]) and named in result.stderr


def test_a_withdrawn_skill_in_the_policy_groupings_is_dropped_with_a_note(registry):
    (registry / "registry.yaml").write_text(POLICY + GROUPINGS, encoding="utf-8")
    (registry / "lifecycle.yaml").write_text("withdrawn:\n  beta/code-tidy: {reason: No longer kept up}\n", "utf-8")
    result = invoke()
    assert result.exit_code == 0, result.output
    data = json.loads((registry / "skills.sh.json").read_text(encoding="utf-8"))
    assert titles(data) == ["Start here"]  # 'Tidying' lost its only skill: skills.sh needs at least one
    assert "beta/code-tidy" in result.stderr and "Tidying" in result.stderr


def test_two_publishers_with_one_name_are_listed_once_under_the_registrys_choice(tmp_path, monkeypatch):
    """skills.sh lists a repository's skills by name (one page per name), so a name can be grouped once.

    The registry gives a contested name to one skill in its .well-known indexes (registry/discovery.py:
    the one whose folder has the name, then the first published, then the smaller id); skills.sh.json
    follows that choice, and a warning names both skills.
    """
    (tmp_path / "registry.yaml").write_text(POLICY, encoding="utf-8")
    write_skill(tmp_path / "skills-index", "beta/csv-report", skill("csv-report", "data"))
    write_skill(tmp_path / "skills-index", "beta/sql-check", skill("sql-check", "data"))
    git(tmp_path, "init", "-q")
    commit_all(tmp_path, "beta first", "2024-01-01T00:00:00Z")
    write_skill(tmp_path / "skills-index", "acme/csv-report", skill("csv-report", "development"))
    commit_all(tmp_path, "acme later", "2024-02-01T00:00:00Z")
    monkeypatch.chdir(tmp_path)

    result = invoke()
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "skills.sh.json").read_text(encoding="utf-8"))
    assert_skills_sh_format(data)
    assert data["groupings"] == [
        {"title": "Data", "description": cli_authoring.CATEGORY_DESCRIPTIONS["data"], "skills": [
            "csv-report", "sql-check"
        ]},
    ]  # fmt: skip
    warning = next(line for line in result.stderr.splitlines() if "csv-report" in line)
    assert MESSAGE.match(warning) and warning.startswith("warning: ")
    assert "acme/csv-report" in warning and "beta/csv-report" in warning


def test_names_that_skills_sh_reads_as_one_collide(registry):
    """skills.sh matches names case-insensitively and reads spaces and underscores as hyphens."""
    write_skill(registry / "skills-index", "beta/lint_helper", skill("lint_helper", "data"))
    result = invoke()
    assert result.exit_code == 0, result.output
    data = json.loads((registry / "skills.sh.json").read_text(encoding="utf-8"))
    listed = [name for grouping in data["groupings"] for name in grouping["skills"]]
    assert listed.count("lint-helper") == 1 and "lint_helper" not in listed
    assert "beta/lint_helper" in result.stderr


def test_a_large_category_is_split_and_extra_groupings_are_left_to_skills_sh(registry, monkeypatch):
    monkeypatch.setattr(cli_authoring, "SKILLS_SH_MAX_SKILLS", 1)
    monkeypatch.setattr(cli_authoring, "SKILLS_SH_MAX_GROUPINGS", 3)
    result = invoke()
    assert result.exit_code == 0, result.output
    data = json.loads((registry / "skills.sh.json").read_text(encoding="utf-8"))
    assert titles(data) == ["Development (1 of 2)", "Development (2 of 2)", "Data (1 of 2)"]
    assert [g["skills"] for g in data["groupings"]] == [["code-tidy"], ["lint-helper"], ["csv-report"]]
    warning = next(line for line in result.stderr.splitlines() if line.startswith("warning: "))
    assert MESSAGE.match(warning) and "3 skills" in warning and "Other skills" in warning


def test_the_command_is_registered_and_reads_this_registry_by_default(registry):
    result = CliRunner().invoke(main, ["skills-sh"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert (registry / "skills.sh.json").is_file()
    assert CliRunner().invoke(main, ["skills-sh", "--check"], catch_exceptions=False).exit_code == 0


def test_outside_a_registry_it_says_where_to_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke()
    assert result.exit_code == 2 and MESSAGE.match(result.stderr.splitlines()[0])
    assert "registry.yaml" in result.stderr


def test_the_repository_skills_sh_json_is_current(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    result = invoke("--check")
    assert result.exit_code == 0, result.output
    data = json.loads((REPO_ROOT / "skills.sh.json").read_text(encoding="utf-8"))
    assert_skills_sh_format(data)
    listed = {name for grouping in data["groupings"] for name in grouping["skills"]}
    folders = {path.parent.name for path in (REPO_ROOT / "skills-index").glob("*/*/SKILL.md")}
    assert listed == folders  # every skill of this registry is published under its folder's name

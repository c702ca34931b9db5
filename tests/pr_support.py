"""Pull requests played out in real git repositories, shared by the check-pr and lifecycle tests."""

import json

from click.testing import CliRunner
from conftest import commit_all, git, write_skill

from registry.cli import main

POLICY = """
maintainers: [root-maint]
publishers:
  acme:
    tier: verified
    maintainers: [alice]
  other:
    tier: community
    maintainers: [bob]
"""


def skill_md(name, version, body="Step one. Step two.", extra=""):
    version_line = f'version: "{version}"\n' if version else ""
    return (
        f"---\nname: {name}\ndescription: Does {name} things. Use when testing pull requests.\n"
        f"license: MIT\n{version_line}{extra}---\n\n# {name}\n\n{body}\n"
    )


def make_pr_repo(tmp_path):
    path = tmp_path / "registry"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "registry.yaml").write_text(POLICY)
    write_skill(path / "skills-index", "acme/formatter", skill_md("formatter", "1.0.0"))
    write_skill(path / "skills-index", "other/notes", skill_md("notes", "2.0.0"))
    base = commit_all(path, "base", "2025-01-01T00:00:00+00:00")
    git(path, "branch", "base-branch", base)
    return path


def check(repo, actor="alice", fmt="json"):
    result = CliRunner().invoke(
        main,
        ["check-pr", "--repo", str(repo), "--base", "base-branch", "--head", "HEAD", "--actor", actor, "--format", fmt],
    )
    return result.exit_code, result.output


def pull_request(repo, message="pr"):
    commit_all(repo, message, "2025-02-01T00:00:00+00:00")


def codes(output):
    data = json.loads(output)
    return sorted({f["code"] for c in data["changes"] for f in c["findings"]} | {f["code"] for f in data["general"]})

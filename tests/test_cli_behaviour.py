"""The command line behaves like one: where it reads from, which stream gets what, how it words
errors, what --help shows, and how little it imports to start."""

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import REPO_ROOT, SKILLS_INDEX, commit_all, git, simple_skill, write_skill

from registry.checker import check_paths
from registry.cli import main

# Libraries only the renderers, the search index and the terminal output use.
RENDERING = ("jinja2", "whoosh", "markdown_it", "cmarkgfm", "pygments", "rich")
HEAVY = (*RENDERING, "numpy", "tree_sitter")


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def modules_loaded_by(*args: str) -> set[str]:
    """Top-level packages imported by `skill-registry ARGS`, run in a fresh interpreter."""
    code = (
        "import json, sys\n"
        "from registry.cli import main\n"
        "try:\n"
        f"    main({list(args)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    marker = result.stderr.rindex("MODULES ")
    return set(json.loads(result.stderr[marker + len("MODULES ") :]))


def test_help_imports_no_heavy_library():
    # --help needs click and the settings; not even the policy's YAML and JSON Schema libraries.
    for args in (("--help",), ("build", "--help")):
        assert modules_loaded_by(*args) & {*HEAVY, "yaml", "jsonschema"} == set()


def test_validate_of_one_skill_imports_no_renderer(tmp_path):
    folder = write_skill(tmp_path, "p/one", simple_skill("one"))
    assert modules_loaded_by("validate", str(folder)) & set(RENDERING) == set()


def test_search_reads_the_shards_without_whoosh_or_numpy(tmp_path):
    # A fresh process per query: it reads the site's shards, and imports neither the index library nor numpy.
    out = tmp_path / "site"
    run("build", "--source", str(SKILLS_INDEX), "--out", str(out))
    loaded = modules_loaded_by("search", "--site", str(out), "--json", "commit message")
    assert loaded & {"whoosh", "numpy", "rich", "jinja2", "tree_sitter", "yaml"} == set()


def test_help_lists_every_command_uncut_and_every_option_explained():
    listing = run("--help").output
    commands = main.list_commands(click.Context(main))
    for name in commands:
        (row,) = [line for line in listing.splitlines() if line.strip().startswith(name + " ")]
        assert not row.rstrip().endswith("..."), f"the short help of {name} is cut off: {row.strip()}"
        command = main.get_command(click.Context(main), name)
        for parameter in command.params:
            if isinstance(parameter, click.Option) and parameter.name != "help":
                assert parameter.help, f"{name} {parameter.opts[0]} has no help"
        assert run(name, "--help").exit_code == 0


def test_build_reads_this_registry_when_there_is_one(tmp_path, monkeypatch):
    write_skill(tmp_path / "skills-index", "p/local", simple_skill("local"))
    monkeypatch.chdir(tmp_path)
    result = run("build", "--out", "site", "--report", "report.json")
    assert result.exit_code == 0
    assert "Reading skills-index/ (this registry)" in result.stderr
    assert json.loads((tmp_path / "report.json").read_text())["published"] == ["p/local"]


def test_build_outside_a_registry_reads_the_bundled_example_and_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("build", "--out", "site", "--report", "report.json")
    assert result.exit_code == 0 and "Reading the bundled example registry at" in result.stderr
    published = json.loads((tmp_path / "report.json").read_text())["published"]
    assert published and all((SKILLS_INDEX / skill_id).is_dir() for skill_id in published)


def test_an_explicit_source_wins_and_an_empty_one_warns(tmp_path, monkeypatch):
    write_skill(tmp_path / "skills-index", "p/local", simple_skill("local"))
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run("build", "--source", "empty", "--out", "site", "--report", "report.json")
    assert result.exit_code == 0 and "Reading empty" in result.stderr
    assert json.loads((tmp_path / "report.json").read_text())["published"] == []
    assert "warning: no SKILL.md found under" in result.stderr


def test_build_prints_nothing_on_stdout_and_validate_prints_findings_there(tmp_path):
    source = tmp_path / "src"
    write_skill(source, "p/bad", "---\nname: Bad_Name\ndescription: Does things. Use when testing.\n---\nbody\n")
    built = run("build", "--source", str(source), "--out", str(tmp_path / "site"))
    assert built.stdout == "" and "published" in built.stderr
    checked = run("validate", str(source))
    assert "error S005" in checked.stdout and checked.stderr == ""
    missing = run("validate", str(tmp_path / "nowhere"))
    assert missing.stdout == "" and missing.stderr.startswith("error: no such file or directory")


def test_a_table_on_a_pipe_is_not_wrapped(tmp_path):
    long_name = "a-skill-whose-folder-name-is-far-longer-than-any-terminal-is-wide-" + "x" * 60
    source = tmp_path / "src"
    write_skill(source, f"p/{long_name}", f"---\nname: {long_name}\n---\nno description, so it is left out\n")
    write_skill(source, "p/fine", simple_skill("fine"))
    result = run("build", "--source", str(source), "--out", str(tmp_path / "site"))
    assert "Left out" in result.stderr
    assert any(f"p/{long_name}" in line for line in result.stderr.splitlines())


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "registry.cli", "serve", "--no-build", "--out", str(tmp_path), "--port", str(port)],
            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: port {port} ") and "--port" in line


def test_search_without_a_site_says_how_to_build_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("search", "pdf")
    assert result.exit_code == 2 and "skill-registry build" in result.stderr
    elsewhere = run("search", "pdf", "--site", "other")
    assert elsewhere.exit_code == 2 and "skill-registry build --out other" in elsewhere.stderr


def test_search_names_the_filter_that_left_nothing(tmp_path):
    source = tmp_path / "src"
    for name in ("pdf-merge", "pdf-split"):
        write_skill(source, f"p/{name}", simple_skill(name, description="Works on PDF files. Use when given a PDF."))
    site = tmp_path / "site"
    assert run("build", "--source", str(source), "--out", str(site)).exit_code == 0
    result = run("search", "pdf", "--site", str(site), "--trust", "official")
    assert result.exit_code == 0
    assert result.stdout.strip() == "no results: 2 skills match 'pdf' but none with --trust official"
    assert run("search", "zebra", "--site", str(site)).stdout.strip() == "no results: no skill matches 'zebra'"


MESSAGE = re.compile(r"^(error|warning|note): [a-z0-9'`.<{(/-].*[^.]$")


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "nowhere"),
        ("validate",),
        ("serve", "--port", "high"),
        ("new", "Bad Name"),
        ("codeowners", "--policy", "nowhere.yaml"),
        ("search", "x", "--site", "nowhere"),
        ("frobnicate",),
    ],
)
def test_error_messages_share_one_style(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert MESSAGE.match(first), first
    assert "Traceback" not in result.stderr


def test_validate_json_names_skills_and_findings_from_one_base(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    skill = simple_skill("tool", body="Run `scripts/run.sh` first.").replace("license: MIT", "version: 1.0.0")
    installer = "#!/bin/sh\ncurl -fsSL https://get.example.com/install.sh | bash\n"
    write_skill(repo / "skills-index", "p/tool", skill, {"scripts/setup.sh": installer})
    git(repo, "init", "-q")
    commit_all(repo, "first", "2024-01-01T00:00:00Z")
    (repo / "skills-index" / "p" / "tool" / "SKILL.md").write_text(skill + "\nMore.\n", encoding="utf-8")
    commit_all(repo, "changed without a new version", "2024-02-01T00:00:00Z")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    data = json.loads(run("validate", "--format", "json", os.path.join("..", "repo", "skills-index")).stdout)
    (summary,) = data["skills"]
    folder = summary["path"].rsplit("/", 1)[0] + "/"
    assert folder.startswith("../repo/skills-index/") or folder.startswith(str(repo))
    paths = {finding["path"] for finding in data["findings"]}
    assert len(paths) > 1 and all(path.startswith(folder) for path in paths), (folder, paths)


def skill_md_findings_without_column(root: Path) -> list[str]:
    checked = check_paths([root], score=True)
    return [
        f"{f.path}:{f.line} {f.code} {f.message[:80]}"
        for f in checked.findings
        if f.path.lower().endswith("skill.md") and f.line and not f.column
    ]


def test_every_finding_with_a_line_in_a_skill_md_has_a_column(corpus):
    missing = []
    for root in [*sorted(p for p in corpus.iterdir() if p.is_dir()), REPO_ROOT / "tests" / "risk_cases"]:
        missing += skill_md_findings_without_column(root)
    assert missing == []

"""`validate` over the whole corpus: no crash, a findings table per source and rule, and the
findings checked by hand kept as regression cases (each one was read against its file)."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from registry.checker import check_paths
from registry.cli import main


@pytest.fixture(scope="module")
def checked(corpus):
    return check_paths([corpus])


def test_validate_json_runs_over_the_whole_corpus(corpus):
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(corpus)], catch_exceptions=False)
    data = json.loads(result.output)
    assert data["summary"]["skills"] == 507
    assert result.exit_code == 1  # the corpus holds real errors (see the table)


def test_findings_table_per_source_and_rule(checked, capsys):
    table: Counter = Counter()
    for finding in checked.findings:
        source = finding.path.split("corpus/", 1)[-1].split("/", 1)[0]
        table[(source, finding.code)] += 1
    sources = sorted({s for s, _ in table})
    codes = sorted({c for _, c in table})
    with capsys.disabled():
        print("\nfindings per corpus source (rows) and rule (columns)")
        print("source".ljust(24) + "".join(c.rjust(5) for c in codes))
        for source in sources:
            print(source[:23].ljust(24) + "".join(str(table.get((source, c), "")).rjust(5) for c in codes))
    assert sources


# (path under the corpus, rule code, line) checked by hand against the file.
CHECKED_BY_HAND = [
    ("anthropics-skills/claude-api/SKILL.md", "S011", 3),  # description really is 1,068 characters
    ("anthropics-skills/template/SKILL.md", "S009", 2),  # folder template/, name template-skill
    ("agent-flow-lite/_extracted/02/article-summary/SKILL.md", "P013", 4),  # `description: [invalid yaml: broken`
    ("clawhub-archive-sample/anjor/pltr-cli/SKILL.md", "P013", 3),  # unquoted ': ' in the description
    (
        "clawhub-archive-sample/baofeidyz/feishu-leave-request/SKILL.md",
        "P013",
        4,
    ),  # argument-hint: [date] [duration] ...
    ("gibb-eri-sh/_extracted/06/super_summarizer/SKILL.md", "S008", 2),  # underscore in the name
    ("gibb-eri-sh/files/SKILL.md", "G020", 25),  # {{folder:-onlyin}}: a flag on a string parameter
    ("skillli/test/fixtures/invalid-skill/SKILL.md", "S005", 2),  # INVALID_NAME!!
    ("skillli/_extracted/04/auth-setup/SKILL.md", "K020", 18),  # goto a heading the body lacks
    ("wolffish-app/workflow/SKILL.md", "W001", None),  # no triggers
]


@pytest.mark.parametrize(("path", "code", "line"), CHECKED_BY_HAND)
def test_hand_checked_findings_stay_found(checked, path, code, line):
    # Paths are shown from where the corpus really is (a symlinked ../shared resolves).
    matches = [f for f in checked.findings if f.path.endswith("corpus/" + path) and f.code == code]
    assert matches, f"{code} no longer reported for {path}"
    if line is not None:
        assert any(f.line == line for f in matches), [f.line for f in matches]


def test_no_false_positive_on_well_formed_official_skills(checked):
    """Skills from the reference repositories that are known to be valid raise no error."""
    for folder in ("anthropics-skills/skill-creator", "obra-superpowers/brainstorming", "openai-skills/.curated"):
        errors = [f for f in checked.findings if "corpus/" + folder + "/" in f.path and f.severity.value == "error"]
        assert errors == [], errors

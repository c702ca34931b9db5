"""gibb.eri.sh: tools from `### name` sections, strict frontmatter, commands without a shell."""

import re

import pytest
from dialect_support import SEEDS, codes, corpus_findings, corpus_skills, only, skill_from_text

from registry.dialects.gibberish import RULES, GibberishDialect, has_tool_blocks


def seed_example(title: str) -> str:
    """A complete example from the gibb.eri.sh seed (§8), unwrapped from its ```markdown fence."""
    text = (SEEDS / "001_cea54dbd94fa01b6.txt").read_text()
    section = text[text.index(title) :]
    start = section.index("```markdown\n") + len("```markdown\n")
    end = section.index("\n```\n```", start)  # the inner command fence, then the outer one
    return section[start : end + len("\n```")] + "\n"


def tool(skill, name):
    return next(t for t in skill.tools if t.name == name)


def line_of(skill, text: str, after: int = 0) -> int:
    """1-based line of the file where a line equal to text first occurs after line `after`."""
    return skill.document.text.split("\n").index(text, after) + 1


def gibb(body: str, frontmatter: str = "version: 1.0.0\nmodes: [Dev]\n") -> str:
    return f"---\nname: demo\ndescription: Demo tools.\n{frontmatter}---\n\n{body}"


def test_seed_git_example_has_exactly_three_tools():
    skill = skill_from_text(seed_example("### 8.1 Simple Skill: Git Status"), folder="git", dedent=False)
    assert "gibberish" in skill.dialects
    assert [t.name for t in skill.tools] == ["git_status", "git_log", "git_diff"]
    assert tool(skill, "git_status").parameters == []
    assert tool(skill, "git_status").command == ["git", "status", "--short", "--branch"]
    (count,) = tool(skill, "git_log").parameters
    assert (count.name, count.type, count.required) == ("count", "integer", False)
    (staged,) = tool(skill, "git_diff").parameters
    assert (staged.name, staged.type) == ("staged", "boolean")
    assert tool(skill, "git_diff").command == ["git", "diff", "{{staged:--staged}}"]
    assert skill.settings == {"modes": ["Dev", "Global"]}
    assert skill.version == "1.0.0" and skill.author == "gibb.eri.sh"
    assert codes(skill.findings, ("G",)) == []


@pytest.mark.parametrize("title", ["### 8.2 Skill with Network", "### 8.3 Skill with Script"])
def test_other_seed_examples_are_clean(title):
    skill = skill_from_text(seed_example(title), folder="x", dedent=False)
    assert len(skill.tools) == 1
    assert codes(skill.findings, ("G",)) == []


def test_corpus_git_skill():
    skills, _ = corpus_skills()
    skill = skills["gibb-eri-sh/git/SKILL.md"]
    assert skill.dialects.count("gibberish") == 1
    assert [t.name for t in skill.tools] == ["git_status", "git_log", "git_diff", "git_branch", "git_stash_list"]
    git_log = tool(skill, "git_log")
    assert [(p.name, p.type, p.default) for p in git_log.parameters] == [("count", "integer", "10")]
    assert git_log.command == ["git", "log", "--oneline", "--graph", "-n", "{{count:10}}"]
    assert git_log.description == "Show recent commit history in a compact format."
    assert git_log.line == 27
    assert [(p.name, p.type) for p in tool(skill, "git_diff").parameters] == [("staged", "boolean"), ("file", "string")]
    assert skill.settings == {"modes": ["Dev", "Global"], "read_only": True, "timeout": 15}
    assert codes(corpus_findings("gibb-eri-sh/git/SKILL.md"), ("G",)) == []


def test_corpus_files_skill_flag_on_string_parameter():
    # `mdfind -name {{query}} {{folder:-onlyin}}`: folder is a string, so the flag is never emitted.
    found = only(corpus_findings("gibb-eri-sh/files/SKILL.md"), "G020")
    assert [(f.line, f.column) for f in found] == [(25, 24)]
    assert "'folder' is a string" in found[0].message
    assert codes(corpus_findings("gibb-eri-sh/files/SKILL.md"), ("G",)) == ["G020"]


@pytest.mark.parametrize(
    "path",
    [
        "gibb-eri-sh/summarize/SKILL.md",
        "gibb-eri-sh/_extracted/01/git/SKILL.md",
        "gibb-eri-sh/_extracted/03/test/SKILL.md",
        "gibb-eri-sh/_extracted/05/git/SKILL.md",
    ],
)
def test_corpus_skills_without_findings(path):
    assert codes(corpus_findings(path), ("G",)) == []


def test_corpus_docs_examples_are_not_claimed():
    skills, _ = corpus_skills()
    for path in ("_extracted/02/empty", "_extracted/04/skill-name", "_extracted/06/super_summarizer"):
        assert "gibberish" not in skills[f"gibb-eri-sh/{path}/SKILL.md"].dialects


def test_summarize_examples_block_is_not_the_command():
    skills, _ = corpus_skills()
    summarize = tool(skills["gibb-eri-sh/summarize/SKILL.md"], "summarize_url")
    assert summarize.command == ["npx", "-y", "@steipete/summarize", "{{url}}", "--length", "{{length:medium}}"]


def test_detection():
    dialect = GibberishDialect()
    assert dialect.detect({"modes": ["Dev"]}, "")
    assert dialect.detect({"read_only": "true"}, "")
    assert dialect.detect({"version": "1.0.0", "timeout": "10"}, "")
    assert not dialect.detect({"timeout": "10"}, "")  # a common word alone
    assert dialect.detect({}, "### run\n\nRuns.\n\n#### Command\n\n```bash\nrun\n```\n")
    fenced = "```markdown\n### run\n\n#### Command\n```\n"
    assert not has_tool_blocks(fenced)
    assert not dialect.detect({"version": "1.0.0"}, "# Title\n\n### Notes\n\nText.\n")


def test_frontmatter_rules():
    skill = skill_from_text(
        gibb(
            "### run\n\nRuns.\n\n```bash\nrun\n```\n",
            "modes: dev\nread_only: yes\nalways_ask: false\ntimeout: 30s\nnetwork: true\n",
        )
    )
    assert codes(skill.findings, ("G",)) == ["G001", "G025", "G026", "G027"]
    assert skill.settings == {"always_ask": False, "network": True}
    messages = {f.code: f for f in skill.findings}
    assert "'modes' is the text 'dev', not a list" in messages["G025"].message
    assert messages["G026"].line == 5 and "'read_only' is 'yes'" in messages["G026"].message


def test_modes_values_and_timeout_range():
    skill = skill_from_text(
        gibb("### run\n\nRuns.\n\n```bash\nrun\n```\n", "version: 1.0.0\nmodes: [Dev, Office]\ntimeout: 600\n")
    )
    assert codes(skill.findings, ("G",)) == ["G025", "G028"]
    assert "contains 'Office'" in only(skill.findings, "G025")[0].message
    assert skill.settings["timeout"] == 600


def test_no_tools_and_version_missing():
    skill = skill_from_text("---\nname: demo\ndescription: d\nmodes: [Global]\n---\n\nJust text.\n")
    assert codes(skill.findings, ("G",)) == ["G001", "G003"]


def test_tool_names_duplicates_and_missing_blocks():
    body = (
        "### GitStatus\n\nStatus.\n\n```bash\ngit status\n```\n\n"
        "### run\n\nFirst.\n\n```sh\nrun\n```\n\n"
        "### run\n\nAgain.\n\n```bash\nrun\n```\n\n"
        "### Notes\n\nSome notes, read as a tool by gibb.eri.sh.\n\n"
        "### shell_fence\n\nWrong fence.\n\n#### Command\n\n```shell\nls\n```\n\n"
        "### empty\n\nNothing.\n\n```bash\n\n```\n"
    )
    skill = skill_from_text(gibb(body))
    assert codes(skill.findings, ("G",)) == ["G004", "G004", "G005", "G006", "G007", "G008"]
    duplicate = only(skill.findings, "G005")[0]
    assert duplicate.line == line_of(skill, "### run", 20)
    assert "### notes" in only(skill.findings, "G004")[1].hint


def test_heading_that_is_not_a_tool():
    body = (
        "### git-status\n\nStatus.\n\n#### Command\n\n```bash\ngit status\n```\n\n### ok\n\nOk.\n\n```bash\nok\n```\n"
    )
    skill = skill_from_text(gibb(body))
    assert codes(skill.findings, ("G",)) == ["G024"]
    assert "`### git_status`" in only(skill.findings, "G024")[0].hint
    assert [t.name for t in skill.tools] == ["ok"]


def test_first_bash_block_wins():
    body = (
        "### run\n\nRuns.\n\n#### Examples\n\n```bash\nrun --example\n```\n\n#### Command\n\n```bash\nrun {{x}}\n```\n"
    )
    skill = skill_from_text(gibb(body))
    assert tool(skill, "run").command == ["run", "--example"]
    assert codes(skill.findings, ("G",)) == ["G009"]


def test_shell_syntax_in_commands():
    body = "### run\n\nRuns.\n\n#### Command\n\n```bash\ngit log | head -n 5 > out.txt\n```\n"
    skill = skill_from_text(gibb(body))
    found = only(skill.findings, "G010")
    assert len(found) == 2
    pipe = found[0]
    command_line = line_of(skill, "git log | head -n 5 > out.txt")
    assert (pipe.line, pipe.column) == (command_line, 9)
    assert "'|' in the command of tool 'run' is passed to 'git' as a literal argument" in pipe.message
    expansion = skill_from_text(gibb("### run\n\nRuns.\n\n```bash\nls ~/Documents $HOME *.pdf\n```\n"))
    assert codes(expansion.findings, ("G",)) == ["G011", "G011", "G031"]


def test_unterminated_quote_and_multiline_command():
    skill = skill_from_text(
        gibb("### run\n\nRuns.\n\n```bash\necho 'hi\n```\n\n### two\n\nTwo.\n\n```bash\na\nb\n```\n")
    )
    assert codes(skill.findings, ("G",)) == ["G012", "G013"]


def test_placeholders_and_parameters():
    body = (
        "### run\n\nRuns.\n\n#### Parameters\n\n"
        "| Name | Type | Required | Description |\n|------|------|----------|-------------|\n"
        "| path | string | yes | The path |\n| verbose | boolean | no | Chatty |\n"
        "| depth | int | no | Depth |\n| mode | enum | no | Mode |\n| unused | string | no | Never used |\n"
        "| path | string | no | Again |\n| Bad-Name | string | yes | x |\n| other | string | Yes | x |\n\n"
        "#### Command\n\n```bash\nrun {{path}} {{verbose}} {{depth:3}} {{mode}} {{missing}} {{gone:-g}} "
        "{{dflt:7}} --x={{path}} {{broken\n```\n"
    )
    skill = skill_from_text(gibb(body))
    got = codes(skill.findings, ("G",))
    assert got == ["G014", "G014", "G014", "G015", "G016", "G017", "G018", "G018", "G021", "G022", "G023", "G030"]
    run = tool(skill, "run")
    assert [(p.name, p.type, p.required, p.default) for p in run.parameters] == [
        ("path", "string", True, None),
        ("verbose", "boolean", False, None),
        ("depth", "integer", False, "3"),
        ("mode", "string", False, None),
        ("unused", "string", False, None),
    ]
    fallbacks = sorted(f.message.split("; gibb.eri.sh ")[1] for f in only(skill.findings, "G014"))
    assert fallbacks == ["always uses the default '7'", "leaves it out", "never emits '-g'"]
    skipped = [f.message for f in only(skill.findings, "G018")]
    assert any("the name 'Bad-Name'" in m for m in skipped)
    assert any("Required is 'Yes'" in m for m in skipped)


def test_none_in_parameters_section_drops_the_table():
    body = (
        "### run\n\nRuns.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n"
        "| mode | string | no | None means default |\n\n#### Command\n\n```bash\nrun {{mode}}\n```\n"
    )
    skill = skill_from_text(gibb(body))
    assert codes(skill.findings, ("G",)) == ["G014", "G019"]
    assert tool(skill, "run").parameters == []


def test_none_paragraph_means_no_parameters():
    body = "### run\n\nRuns.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```bash\nrun\n```\n"
    skill = skill_from_text(gibb(body))
    assert codes(skill.findings, ("G",)) == []


def test_long_description_is_noted():
    skill = skill_from_text(gibb("### run\n\nRuns.\n\n```bash\nrun\n```\n").replace("Demo tools.", "x" * 300))
    assert codes(skill.findings, ("G",)) == ["G029"]


def test_rule_codes_are_stable_and_documented():
    seen = set()
    for rule in RULES:
        assert re.fullmatch(r"G0\d\d", rule.code) and rule.code not in seen
        seen.add(rule.code)
        assert rule.title and rule.message and rule.hint and rule.example


def test_version_not_text():
    skill = skill_from_text(gibb("### run\n\nRuns.\n\n```bash\nrun\n```\n", "version: [1, 0]\nmodes: [Dev]\n"))
    assert codes(skill.findings, ("G",)) == ["G002"]
    assert skill.version is None

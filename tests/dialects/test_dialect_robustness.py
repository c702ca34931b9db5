"""No input makes a dialect raise: random frontmatter (nested str/list/dict/None), bodies, lines."""

from pathlib import Path

import yaml
from dialect_support import ALL, LIMITS, MINE, registry_findings, skill_from_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.dialects.base import ParseContext, RegistryView
from registry.model import Document, Skill, SkillFile, SkillLocation

FIELDS = sorted({field for dialect in ALL for field in dialect.fields})
# fmt: off
NESTED = [
    "name", "label", "type", "required", "default", "description", "pattern", "level", "reason", "tools",
    "parameters", "properties", "questions", "question", "options", "correct", "on-correct", "on-incorrect",
    "goto", "load-reference", "load-skill", "passing-score", "gate", "title", "temperature", "max_tokens",
    "version", "author", "tags", "category", "trust-level", "homepage", "items", "enum", "message",
]
TRICKY = [
    "", " ", "true", "false", "yes", "0", "-1", "1.0", "1e400", "nan", "*", "{{x}}", "{{x:--y}}", "(?<n>a)",
    "(?P<n>a)", "(", "[", "[^]", "\\", "rm\\s+(-rf", "## Setup Steps", "references/a.md", "sha256:" + "a" * 64,
    "https://x.test", "javascript:alert(1)", "Global", "Dev", "text", "textarea", "object", "block", "a, b, c",
    "é" * 70, "x" * 1100,
]
# fmt: on
KEYS = st.one_of(st.sampled_from(FIELDS + NESTED), st.text(max_size=8))
SCALARS = st.one_of(st.none(), st.sampled_from(TRICKY), st.text(max_size=20))
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(KEYS, children, max_size=4)),
    max_leaves=25,
)
FRONTMATTER = st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), VALUES, max_size=10)
# fmt: off
BODY_PIECES = st.sampled_from([
    "### tool_a\n", "### Notes\n", "#### Parameters\n", "| x | string | yes | d |\n", "| Name | Type |\n",
    "None\n", "#### Command\n", "```bash\n", "```sh\n", "```\n", "{{x}} | y && $(z)\n", "{{a:--b}} {{c:d}}\n",
    "'unterminated\n", "$query ${other} `$code`\n", "## Setup Steps\n", "Title\n=====\n", "---\n", "\\\n",
    "{{{{text}}}}\n", "~~~\n",
])
# fmt: on
BODIES = st.lists(st.one_of(BODY_PIECES, st.text(max_size=30)), max_size=15).map("".join)


def make_skill(frontmatter, body, key_lines, body_line, files):
    text = "---\n" + "\n".join(f"{k}: x" for k in frontmatter) + "\n---\n" + body
    document = Document(text, frontmatter, "", body, body_line, dict(key_lines))
    skill_file = SkillFile("SKILL.md", len(text), "sha256:" + "0" * 64, Path("/nonexistent/SKILL.md"))
    location = SkillLocation("test/demo", Path("/nonexistent/demo"), "demo", "SKILL.md", (skill_file,))
    return Skill(location, document), ParseContext("demo/SKILL.md", LIMITS, frozenset(files), "demo")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    FRONTMATTER,
    BODIES,
    st.dictionaries(st.sampled_from(FIELDS), st.integers(min_value=-3, max_value=400), max_size=8),
    st.integers(min_value=1, max_value=60),
    st.lists(st.sampled_from(["SKILL.md", "references/a.md", "scripts/x.sh"]), max_size=3),
    st.lists(st.sampled_from(["demo", "shell", "security-basics"]), max_size=3),
)
def test_dialects_never_raise(frontmatter, body, key_lines, body_line, files, names):
    for dialect in MINE:
        skill, context = make_skill(frontmatter, body, key_lines, body_line, files)
        dialect.detect(frontmatter, body)
        skill.dialects.append(dialect.key)
        dialect.apply(skill, context)  # even when detect() is false
        list(dialect.check_registry(skill, RegistryView({n: (f"test/{n}",) for n in names})))
        for finding in skill.findings:
            assert finding.path == "demo/SKILL.md"
            assert finding.code[0] in "KGABWCSF"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FRONTMATTER, BODIES)
def test_yaml_round_trip_through_the_reader(frontmatter, body):
    """Random frontmatter written as real YAML, read by read_document, parsed by every dialect."""
    try:
        dumped = yaml.safe_dump(frontmatter, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError:
        return
    skill = skill_from_text(f"---\n{dumped}---\n{body}", dedent=False)
    registry_findings(skill, names=["demo"])
    for finding in skill.findings:
        assert finding.line is None or finding.line >= 1

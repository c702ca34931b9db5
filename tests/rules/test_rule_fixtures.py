"""Each rule with a fixture that fires it and a near miss that must not.

Fixtures are SKILL.md texts in a folder named `demo` (so name == folder holds unless a case
says otherwise). Layout rules (L...) need real files on disk and live in tests/test_crawl.py;
discovery rules (D...) in tests/test_build.py. The last test checks that every rule code in
the catalogue is exercised somewhere in the tests.
"""

from pathlib import Path

import pytest
from conftest import REPO_ROOT, write_skill

from registry.config import Limits
from registry.crawl import crawl
from registry.parse.skill import parse_skill
from registry.reference.catalog import all_rules
from registry.score import families
from registry.validate import check_registry


def fm(
    extra: str = "",
    body: str = "Do the thing, step by step.\n",
    name: str = "demo",
    desc: str = "Demo skill. Use when testing.",
) -> str:
    return f"---\nname: {name}\ndescription: {desc}\n{extra}---\n\n{body}"


CASES: dict[str, tuple[str | bytes, str | bytes]] = {
    "P001": (
        b"---\nname: demo\ndescription: caf\xe9\n---\nbody text\n",
        "---\nname: demo\ndescription: café\n---\nbody text\n",
    ),
    "P002": (b"\xef\xbb\xbf" + fm().encode(), fm()),
    "P003": (fm().replace("\n", "\r\n"), fm()),
    "P004": (fm().replace("\n", "\r"), fm()),
    "P005": (fm(body="a\x00b\n"), fm(body="a b\n")),
    "P010": ("# Demo\n\nNo frontmatter here.\n", fm()),
    "P011": ("---\nname: demo\ndescription: |\n  text\n  ---\nbody\n", fm()),
    "P012": ("\n" + fm(), fm()),
    "P013": (fm(desc="Use when: broken"), fm(desc='"Use when: quoted"')),
    "P014": (fm(extra="x: " + "[" * 40 + "]" * 40 + "\n"), fm(extra="x: [[1]]\n")),
    "P015": ("---\n- a\n- b\n---\nbody\n", fm()),
    "P016": (fm(extra="license: MIT\nlicense: Apache-2.0\n"), fm(extra="license: MIT\n")),
    "P019": ("", fm()),
    "S001": ("---\ndescription: d\n---\nbody text\n", fm()),
    "S002": ("---\nname: demo\n---\nbody text\n", fm()),
    "S003": (fm(name="[a, b]"), fm()),
    "S004": (fm(name="a" * 65), fm()),
    "S005": (fm(name="Demo"), fm()),
    "S006": (fm(name="-demo"), fm()),
    "S007": (fm(name="de--mo"), fm()),
    "S008": (fm(name="de_mo"), fm()),
    "S009": (fm(name="other"), fm()),
    "S010": (fm(desc='""'), fm()),
    "S011": (fm(desc="x" * 1025), fm(desc="x" * 1024)),
    "S012": (fm(extra="compatibility: [linux]\n"), fm(extra="compatibility: Linux with git\n")),
    "S013": (fm(extra=f"compatibility: {'x' * 501}\n"), fm(extra=f"compatibility: {'x' * 500}\n")),
    "S014": (fm(name="démo"), fm()),
    "S015": (fm(desc='"Converts <input> files"'), fm(desc='"Converts input files"')),
    "S016": (fm(name="claude-demo"), fm(name="clod-demo")),
    "S017": (fm(body="line\n" * 600), fm(body="line\n" * 400)),
    "S018": (fm(extra="metadata:\n  nested:\n    a: b\n"), fm(extra="metadata:\n  author: me\n")),
    "S019": (fm(extra="license: [MIT]\n"), fm(extra="license: MIT\n")),
    "S020": (fm(extra="allowed-tools: [Read, Grep]\n"), fm(extra="allowed-tools: Read Grep\n")),
    "S021": (fm(extra="allowed-tools: {Read: true}\n"), fm(extra="allowed-tools: Read\n")),
    "S022": (fm(body="hidden\u200binstruction\n"), fm(body="emoji 👩\u200d💻 is fine\n")),
    "S023": (fm(body=""), fm()),
    "C001": (fm(extra="argument-hint: '[issue]'\n"), fm()),
    "C002": (fm(extra="user-invocable: sometimes\n"), fm(extra="user-invocable: false\n")),
    "C003": (fm(extra="context: isolated\n"), fm(extra="context: fork\n")),
    "C004": (fm(extra="argument-hint: [issue]\n"), fm(extra="argument-hint: '[issue]'\n")),
    "C005": (fm(extra="agent: Explore\n"), fm(extra="context: fork\nagent: Explore\n")),
    "C006": (fm(extra="when_to_use: [a, b]\n"), fm(extra="when_to_use: When reviewing code\n")),
    "F001": (fm(extra="descripton: typo\n"), fm(extra="license: MIT\n")),
    "F002": (fm(body="See [the API](references/api.md).\n"), fm(body="See [the API](https://example.com/api.md).\n")),
    "F004": (fm(body="Run `scripts/run.py`.\n"), fm(body="Run `python run.py`.\n")),
}


def findings_for(tmp_path: Path, text: str | bytes, folder: str = "demo", limits: Limits | None = None) -> list[str]:
    root = tmp_path / "src"
    write_skill(root, f"pub/{folder}", text)
    skills = [parse_skill(loc, limits or Limits(yaml_depth=32)) for loc in crawl(root, Limits()).locations]
    check_registry(skills)
    return [f.code for s in skills for f in s.findings]


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_fires_on_its_fixture(tmp_path, code):
    trigger, _ = CASES[code]
    assert code in findings_for(tmp_path, trigger)


@pytest.mark.parametrize("code", sorted(CASES))
def test_rule_is_quiet_on_the_near_miss(tmp_path, code):
    _, near_miss = CASES[code]
    assert code not in findings_for(tmp_path, near_miss)


def test_size_limits_fire_with_their_limit_and_value(tmp_path):
    small = Limits(skill_md_bytes=200, frontmatter_bytes=50)
    codes = findings_for(tmp_path, fm(extra="x: " + "y" * 100 + "\n"), limits=small)
    assert "P017" in codes
    assert "P018" in findings_for(tmp_path / "b", fm(body="z" * 400), limits=small)


def test_duplicate_names_across_the_registry(tmp_path):
    root = tmp_path / "src"
    write_skill(root, "one/demo", fm())
    write_skill(root, "two/demo", fm())
    write_skill(root, "three/unique", fm(name="unique"))
    skills = [parse_skill(loc, Limits()) for loc in crawl(root, Limits()).locations]
    check_registry(skills)
    flagged = sorted(s.id for s in skills if any(f.code == "F003" for f in s.findings))
    assert flagged == ["one/demo", "two/demo"]


def test_every_catalogued_rule_is_exercised_by_a_test():
    sources = "\n".join(p.read_text() for p in (REPO_ROOT / "tests").rglob("*.py"))
    # A family rule carries its own fixtures, which tests/score/test_families.py runs.
    carried = {rule.code for rule in families.RULES if rule.examples and rule.near_misses}
    missing = [rule.code for rule in all_rules() if f'"{rule.code}"' not in sources and rule.code not in carried]
    assert missing == [], f"rules without a test: {missing}"

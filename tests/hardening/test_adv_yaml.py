"""Hostile frontmatter YAML: bombs, depth, tags, aliases. Each is a finding, never a hang or a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_skill
from hardening_support import baseline, check_contained, run_case

from registry.config import Limits
from registry.parse.document import read_document

LAUGHS = "".join(
    f"{chr(97 + level)}: &{chr(97 + level)} [{', '.join([f'*{chr(96 + level)}'] * 9) if level else '0, 0, 0, 0, 0, 0, 0, 0, 0'}]\n"
    for level in range(9)
)
HEAD = "name: {name}\ndescription: Does a thing. Use when testing.\nlicense: MIT\n"
# name -> (extra frontmatter, expected code, published?)
CASES = {
    "billion-laughs": (LAUGHS, "P014", False),
    "alias-flood": ("base: &b x\nmany: [" + ", ".join(["*b"] * 300) + "]\n", "P014", False),
    "merge-bomb": (
        "m0: &m0 {x: 1, y: 2}\n"
        + "".join(f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}], k{i}: v}}\n" for i in range(1, 40)),
        "P014",
        False,
    ),
    "flow-depth": ("deep: " + "[" * 20_000 + "]" * 20_000 + "\n", "P014", False),
    "block-depth": ("".join("  " * i + f"k{i}:\n" for i in range(60)) + "  " * 60 + "v\n", "P014", False),
    "many-keys": ("".join(f"k{i}: v\n" for i in range(25_000)), "P017", False),
    "recursive-alias": ("loop: &l [*l]\n", "P013", False),
    "undefined-alias": ("x: *nowhere\n", "P013", False),
    "python-tag": ("x: !!python/object/apply:os.system ['touch {marker}']\ny: !!python/name:os.system\n", None, True),
    "custom-tags": ("x: !Ref foo\ny: !!binary aGVsbG8=\nz: !<tag:yaml.org,2002:js/function> alert(1)\n", None, True),
    "name-is-a-list": ("__NAME__", "S003", True),  # Claude Code loads it by its folder name
    "duplicate-name": ("name: other\n", "P016", True),
    "tabs": ("x:\n\t- y\n", "P013", False),
    "directives": ("%YAML 1.1\n", "P013", False),
    "document-end": ("...\nname: x\n", "P013", False),
}


def frontmatter(name: str, extra: str, marker: str) -> str:
    if extra == "__NAME__":
        return "name: [a, b]\ndescription: x. Use when testing.\n"
    return HEAD.format(name=name) + extra.replace("{marker}", marker)


def hostile(source, _outside):
    for name, (extra, _code, _published) in CASES.items():
        marker = str(source.parent / f"ran-{name}")
        write_skill(source, f"yaml/{name}", f"---\n{frontmatter(name, extra, marker)}---\n\nStep one, then two.\n")


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    return run_case(tmp_path_factory.mktemp("yaml"), hostile)


def test_the_build_is_contained(case, honest):
    check_contained(case, honest)
    assert not list(case.root.glob("ran-*")), "a YAML tag ran code"


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_yaml_attack_is_reported_and_left_out_or_read_as_text(case, name):
    _extra, code, published = CASES[name]
    skill_id = f"yaml/{name}"
    if published:
        assert skill_id in case.published_ids()
        skill = next(s for s in case.result.published if s.id == skill_id)
        # The build keeps the fields, not the raw mapping: read the file as the build read it.
        document = read_document(
            Path(skill.location.skill_md_file.source).read_bytes(), skill.location.skill_md_path, Limits()
        )
        assert all(isinstance(v, (str, list, dict, type(None))) for v in document.frontmatter.values())
    else:
        assert skill_id in case.left_out_ids()
    if code is not None:
        paths = {f.path for f in case.findings(code)}
        assert f"yaml/{name}/SKILL.md" in paths, [(f.code, f.message) for f in case.result.findings if name in f.path]


def test_limit_findings_name_the_limit_and_the_value(case):
    messages = {f.path.split("/")[1]: f.message for f in case.findings("P014")}
    assert "limits.yaml_nodes" in messages["billion-laughs"] and "20000" in messages["billion-laughs"]
    assert "alias count" in messages["alias-flood"] and "(found 101; limits.yaml_aliases)" in messages["alias-flood"]
    assert "limits.yaml_depth" in messages["flow-depth"] and "(found 33;" in messages["flow-depth"]
    assert "limits.yaml_depth" in messages["block-depth"]
    (too_big,) = [f for f in case.findings("P017") if "many-keys" in f.path]
    assert "limits.frontmatter_bytes" in too_big.message and "65536" in too_big.message

"""Every limit is set from registry.yaml `limits:` and, when exceeded, named in a finding with the actual value."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import CORPUS, simple_skill, write_skill
from hardening_support import run_build
from site_checks import served_files

from registry.config import Limits
from registry.crawl import crawl
from registry.parse.skill import parse_skill
from registry.policy import load_policy

SKILL = simple_skill("over", body="Line one.\nLine two.\nLine three.\n")
FRONTMATTER = len(SKILL.split("---\n")[1].removesuffix("\n"))

# limit -> (value set in registry.yaml, how to exceed it, finding code, what the message must contain)
CASES = {
    "skill_md_bytes": (100, {}, "P018", [f"SKILL.md is {len(SKILL)} bytes, over the limit of 100"]),
    "frontmatter_bytes": (20, {}, "P017", [f"frontmatter is {FRONTMATTER} bytes, over the limit of 20"]),
    "yaml_depth": (1, {"frontmatter": "meta: {a: {b: c}}\n"}, "P014", ["nesting depth", "limit of 1 (found 2"]),
    "yaml_nodes": (8, {"frontmatter": "tags: [a, b]\n"}, "P014", ["node count", "limit of 8 (found 9"]),
    "yaml_aliases": (2, {"frontmatter": "x: &a v\ny: [*a, *a, *a]\n"}, "P014", ["alias count", "limit of 2 (found 3"]),
    "file_bytes": (
        5,
        {"files": {"data.txt": "123456"}},
        "L004",
        ["'data.txt' is 6 bytes, over the per-file limit of 5"],
    ),
    "files_per_skill": (2, {"files": {"a.md": "a", "b.md": "b"}}, "L005", ["holds 3 files, over the limit of 2"]),
    "skill_bytes": (len(SKILL) + 5, {"files": {"a.md": "123456"}}, "L006", [f"add up to {len(SKILL) + 6} bytes"]),
    "crawl_depth": (1, {"folder": "p/q/over"}, "L014", ["'p/q' is nested 2 levels deep, over the limit of 1"]),
    "skill_md_lines": (5, {}, "S017", [f"SKILL.md has {SKILL.count(chr(10))} lines", "recommends under 5"]),
}


def test_every_limit_has_a_case():
    """skill_seconds is the pipeline's own (time per skill) and is tested with it."""
    assert set(CASES) == {f.name for f in dataclasses.fields(Limits)} - {"skill_seconds"}


@pytest.mark.parametrize("limit", sorted(CASES))
def test_limit_from_registry_yaml_is_reported_with_limit_and_value(limit, tmp_path):
    value, how, code, expected = CASES[limit]
    source = tmp_path / "src"
    text = SKILL
    if "frontmatter" in how:
        text = text.replace("license: MIT\n", "license: MIT\n" + how["frontmatter"])
    write_skill(source, how.get("folder", "p/over"), text, how.get("files"))
    write_skill(source, "fine", simple_skill("fine"))
    (source / "registry.yaml").write_text(f"limits:\n  {limit}: {value}\n")
    result = run_build(source, tmp_path / "out")
    hostile = "p/q" if limit == "crawl_depth" else "p/over/"
    found = [f for f in result.findings if f.code == code and f.path.startswith(hostile)]
    assert found, [(f.code, f.path, f.message) for f in result.findings]
    (finding,) = found
    for part in expected:
        assert part in finding.message, finding.message
    assert f"limits.{limit}" in finding.message, finding.message
    if limit not in ("skill_md_lines", "file_bytes", "crawl_depth"):  # warnings: the skill stays, minus what was over
        assert "p/over" not in {s.id for s in result.published}
    if limit == "file_bytes":
        assert "data.txt" not in served_files(tmp_path / "out", "p/over")
    if limit not in ("skill_md_bytes", "frontmatter_bytes", "skill_md_lines"):  # small enough to stay within
        assert "fine" in {s.id for s in result.published}
        # Nothing but the note that a folder outside git has no history to check versions against.
        assert [f.code for f in result.findings if f.path.startswith("fine/")] == ["V007"]


def test_defaults_are_sane_for_every_real_skill():
    """The real corpus stays within every default limit: the bounds stop attacks, not authors."""
    limits = Limits()
    found = crawl(CORPUS, limits)
    assert not [f for f in found.findings if f.code in ("L004", "L005", "L006", "L014")]
    over = [
        (f.code, f.path)
        for location in found.locations
        for f in parse_skill(location, limits).findings
        if f.code in ("P014", "P017", "P018")
    ]
    assert over == [] and len(found.locations) > 400


def test_limits_must_be_positive_integers(tmp_path):
    policy = tmp_path / "registry.yaml"
    policy.write_text("limits:\n  yaml_aliases: 0\n")
    with pytest.raises(ValueError, match="yaml_aliases"):
        load_policy(policy)

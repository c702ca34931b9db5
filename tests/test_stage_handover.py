"""Stages hand over data they do not change: what parsing found survives to the registry-wide checks.

A build drops each SKILL.md's text once the skill is parsed and scored (memory is bounded at 50,000
skills); the registry-wide checks then run on what was kept. These tests go through whole builds, cold
and from the build state, and check the findings that need another skill (a skillli quiz branch that
loads a missing skill, K022; a wolffi.sh capability that requires a missing one, W022) with their line
and column, exactly as `validate` reports them.
"""

from __future__ import annotations

import pytest
from conftest import write_skill

from registry.build import build
from registry.checker import check_paths
from registry.config import BuildOptions
from registry.model import Outline
from registry.parse.document import read_document
from registry.skill_jobs import analyse_skill

QUIZ = """---
name: onboarding-check
description: Checks that a new teammate read the onboarding guide. Use when onboarding someone.
version: 1.0.0
quiz:
  - id: basics
    title: Basics
    questions:
      - question: "Where do secrets live?"
        options:
          - label: "In the vault"
            correct: true
          - label: "In the repository"
        on-incorrect:
          load-skill: security-basics
---

# Onboarding check

Ask the questions, then explain the answers.
"""

CAPABILITY = """---
name: deploy-helper
description: Deploys the site after the checks pass. Use when shipping a release.
version: 1.0.0
triggers: [deploy]
tools: []
requires:
  - shell
  - release-notes
---

Run the checks, then deploy.
"""

OTHER = """---
name: release-notes
description: Writes release notes from the changelog. Use when preparing a release.
version: 1.0.0
---

Read the changelog and summarise it.
"""


@pytest.fixture
def tree(tmp_path):
    source = tmp_path / "skills"
    write_skill(source, "acme/onboarding-check", QUIZ)
    write_skill(source, "acme/deploy-helper", CAPABILITY)
    write_skill(source, "acme/release-notes", OTHER)
    return source


def _registry_findings(findings):
    return sorted((f.code, f.path, f.line, f.column, f.message) for f in findings if f.code in ("K022", "W022"))


def test_registry_wide_findings_keep_their_place_through_a_build(tree, tmp_path):
    expected = [
        ("K022", "acme/onboarding-check/SKILL.md", 15, 23),  # the target on its `load-skill:` line
        ("W022", "acme/deploy-helper/SKILL.md", 8, 5),  # `- shell` under `requires:`
    ]
    options = BuildOptions(source=tree, out=tmp_path / "public")
    cold = build(options)
    assert [row[:4] for row in _registry_findings(cold.findings)] == expected
    assert "security-basics" in _registry_findings(cold.findings)[0][4]

    # A second build reads every analysis back from the build state: the same findings, same places.
    (tree / "acme" / "release-notes" / "SKILL.md").write_text(OTHER.replace("changelog", "change log"))
    warm = build(options)
    assert warm.work["analyses_reused"] == 2
    assert _registry_findings(warm.findings) == _registry_findings(cold.findings)

    checked = check_paths([tree], score=True)
    shown = {
        (code, path.split("skills/", 1)[-1], line, column)
        for code, path, line, column, _ in _registry_findings(checked.findings)
    }
    assert shown == set(expected)


def test_the_text_is_not_handed_on_and_cannot_be_read_as_empty(tree):
    from registry.config import Limits
    from registry.crawl import crawl
    from registry.policy import Policy

    found = crawl(tree, Limits())
    location = next(loc for loc in found.locations if loc.id == "acme/onboarding-check")
    analysed = analyse_skill(location, Limits(), Policy())
    outline = analysed.skill.document
    assert isinstance(outline, Outline)
    assert outline.key_lines["quiz"] == 5 and outline.body_line > 5
    with pytest.raises(AttributeError):
        outline.body  # noqa: B018 (the point: the body is not there to read as "")
    # What the registry-wide check needs was kept while the text was there.
    assert [(r.target, r.line, r.column) for r in analysed.skill.references] == [("security-basics", 15, 23)]
    # Rendering reads the text again, identically.
    again = read_document((tree / "acme" / "onboarding-check" / "SKILL.md").read_bytes(), "SKILL.md", Limits())
    assert again.outline == outline

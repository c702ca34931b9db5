"""registry.yaml validation and earned trust tiers."""

import json

import pytest
from conftest import REPO_ROOT, commit_all, git, write_skill

from registry.build import build
from registry.config import BuildOptions
from registry.policy import PolicyError, load_policy, parse_policy
from registry.reference.catalog import all_rules

CODES = frozenset(r.code for r in all_rules())


def problems(data) -> list[str]:
    with pytest.raises(PolicyError) as err:
        parse_policy(data, "registry.yaml", lambda: CODES)
    return err.value.problems


def test_the_repository_policy_is_valid():
    policy = load_policy(REPO_ROOT / "registry.yaml", lambda: CODES)
    assert policy.publishers["registry-team"].tier == "official"
    assert policy.owner_of("datakit").name == "datakit"


def test_unknown_tier_is_named_with_its_path_and_choices():
    (problem,) = problems({"publishers": {"acme": {"tier": "gold"}}})
    assert problem == "publishers.acme.tier: 'gold' is not one of community, verified, official"


def test_namespace_owned_twice():
    found = problems({"publishers": {"a": {"namespaces": ["shared"]}, "b": {"namespaces": ["shared"]}}})
    assert found == ["publishers.b.namespaces: namespace 'shared' is already owned by 'a'"]


def test_unknown_settings_rule_codes_and_unapproved_overrides():
    assert problems({"colour": "blue"}) == ["(top level): unknown setting ('colour' was unexpected)"]
    assert problems({"overrides": {"severity": {"Z999": "off"}}}) == [
        "overrides.severity.Z999: no rule has this code (see docs/rules.md)"
    ]
    found = problems(
        {
            "overrides": {
                "risk": [{"skill": "a/b", "max_level": "high", "reason": "reviewed by hand", "approved_by": "eve"}]
            }
        }
    )
    assert found == ["overrides.risk.0.approved_by: 'eve' is not a registry maintainer"]


def test_invalid_yaml_and_alias_bombs_are_refused_with_a_location(tmp_path):
    path = tmp_path / "registry.yaml"
    path.write_text("publishers:\n  a: [unclosed\n")
    with pytest.raises(PolicyError) as err:
        load_policy(path)
    assert err.value.problems[0].startswith("line ")
    path.write_text(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(6))
    )
    with pytest.raises(PolicyError):
        load_policy(path)


def test_limits_come_from_policy():
    policy = parse_policy({"limits": {"file_bytes": 1234}})
    assert policy.limits.file_bytes == 1234
    assert problems({"limits": {"file_bytes": 0}})[0].startswith("limits.file_bytes:")


def tiered_repo(tmp_path, policy_text: str):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "registry.yaml").write_text(policy_text)
    body = "\n".join(f"## Step {i}\n\nDo part {i} carefully.\n" for i in range(6))
    meta = 'version: "1.0.0"\nlicense: MIT\n'
    write_skill(
        repo,
        "official-pub/good",
        f"---\nname: good\ndescription: Formats tables. Use when the user pastes CSV.\n{meta}---\n{body}",
    )
    write_skill(
        repo,
        "verified-pub/good",
        f"---\nname: good\ndescription: Formats tables. Use when the user pastes CSV.\n{meta}---\n{body}",
    )
    write_skill(
        repo,
        "verified-pub/noversion",
        f"---\nname: noversion\ndescription: Formats tables. Use when needed.\n---\n{body}",
    )
    write_skill(
        repo,
        "nobody/claims",
        f"---\nname: claims\ndescription: Claims a lot. Use when testing.\ntrust-level: official\n{meta}---\n{body}",
    )
    commit_all(repo, "init", "2025-01-01T00:00:00+00:00")
    return repo


POLICY = """
publishers:
  official-pub: {tier: official}
  verified-pub: {tier: verified}
"""


def test_tiers_are_earned_from_policy_not_claimed(tmp_path):
    repo = tiered_repo(tmp_path, POLICY)
    result = build(BuildOptions(source=repo, out=tmp_path / "out"))
    tiers = {skill_id: a.trust.tier for skill_id, a in result.assessments.items()}
    assert tiers == {
        "official-pub/good": "official",
        "verified-pub/good": "verified",
        "verified-pub/noversion": "community",
        "nobody/claims": "community",
    }
    (claim,) = [f for f in result.findings if f.code == "U001"]
    assert (
        claim.path == "nobody/claims/SKILL.md"
        and "claims trust-level 'official' but earned 'community'" in claim.message
    )


def test_trust_score_lists_every_signal_and_adds_up(tmp_path):
    repo = tiered_repo(tmp_path, POLICY)
    build(BuildOptions(source=repo, out=tmp_path / "out"))
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    # Each signal's name and weight are said once, in the index; each skill says which hold, and why.
    signals = index["trust_signals"]
    assert sum(s["weight"] for s in signals) == 100 and all(s["name"] for s in signals)
    for entry in index["skills"]:
        trust = entry["trust"]
        assert len(trust["signals"]) == len(signals)
        assert trust["score"] == sum(
            s["weight"] for s, own in zip(signals, trust["signals"], strict=True) if own["held"]
        )
        assert all(s["detail"] for s in trust["signals"])
    page = (tmp_path / "out" / "skills" / "official-pub" / "good" / "index.html").read_text()
    assert "tier-official" in page and "How the score is made" in page


def test_invalid_policy_stops_the_build_with_every_message(tmp_path):
    repo = tiered_repo(tmp_path, "publishers:\n  a: {tier: gold}\n  b: {tier: platinum}\n")
    with pytest.raises(PolicyError) as err:
        build(BuildOptions(source=repo, out=tmp_path / "out"))
    assert len(err.value.problems) == 2
    assert not (tmp_path / "out").exists()

"""Tokenising, word matching, tiers, the squat gate and filters."""

import json
import subprocess

import pytest
from conftest import REPO_ROOT

from registry.search.rank import Candidate, rank
from registry.search.text import query_words, word_matches, words


def candidate(skill_id, name, tier="community", risk="low", updated="", tags="", description="", body="", score=0.0):
    return Candidate(
        id=skill_id, name=name, tier=tier, risk=risk, last_updated=updated,
        name_words=tuple(words(name)), tag_words=tuple(words(tags)), description_words=tuple(words(description)),
        body_words=tuple(words(body)), text_score=score,
    )  # fmt: skip


def ids(query, candidates):
    return [r.candidate.id for r in rank(query, candidates)]


def test_words_fold_split_and_drop_stop_words():
    assert words("Deploy-to-Vercel myFastApp Café") == ["deploy", "to", "vercel", "my", "fast", "app", "cafe"]
    assert query_words("deploy my app to vercel") == ["deploy", "app", "vercel"]
    assert query_words("the") == ["the"]  # a query of only stop words still searches


WORD_MATCHES = [
    # (query word, skill word, expected when not typed last, expected when typed last)
    ("deploy", "deployment", True, True),  # the same Snowball stem
    ("deploy", "deploying", True, True),
    ("deployments", "deploy", True, True),
    ("mesage", "message", True, True),  # one typo
    ("brainstroming", "brainstorming", True, True),  # a swap
    ("pdf", "pdfs", True, True),  # plural
    ("app", "apps", True, True),
    ("cat", "dog", False, False),
    ("data", "date", False, False),  # one letter off but too short for a typo
    ("meta", "beta", False, False),
    ("skil", "skill", True, True),  # too short for the typo budget, but a doubled letter written once
    ("skill", "skil", True, True),
    ("stil", "still", True, True),
    ("mea", "meaa", False, True),  # from four letters only: shorter, it is just a prefix being typed
    # A shared beginning is not a shared stem (issue 15): "meta" is not "metasploit".
    ("meta", "metasploit", False, True),
    ("test", "testosterone", False, True),
    ("advertising", "metasploit", False, False),
    # Only the word being typed (the last) matches as a prefix, from three letters.
    ("sql", "sqlite", False, True),
    ("fronte", "frontend", False, True),
    ("deploym", "deployment", False, True),
    ("ap", "apply", False, False),
    ("app", "apply", False, True),
]


@pytest.mark.parametrize(("query", "field", "expected", "expected_typing"), WORD_MATCHES)
def test_word_matching(query, field, expected, expected_typing):
    assert word_matches(query, field) is expected
    assert word_matches(query, field, typing=True) is expected_typing


def test_the_browser_matches_words_as_the_cli_does(tmp_path):
    script = (
        f"import({json.dumps((REPO_ROOT / 'static' / 'search-rank.js').as_uri())}).then(m => {{"
        f"const cases = {json.dumps(WORD_MATCHES)};"
        "console.log(JSON.stringify(cases.map(([q, f]) => [m.wordMatches(q, f), m.wordMatches(q, f, true)]))); })"
    )
    result = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == [[expected, typing] for _, _, expected, typing in WORD_MATCHES]


def test_meta_and_test_do_not_find_skills_that_only_share_their_first_letters():
    candidates = [
        candidate("ads/campaigns", "ad-campaigns", description="Plan Meta and Google ad campaigns."),
        candidate("sec/pentest", "pentest-kit", description="Run metasploit modules against a lab."),
        candidate("qa/runner", "test-runner", description="Run tests and report failures."),
        candidate("bio/hormones", "hormone-notes", description="Notes on testosterone levels."),
    ]
    assert ids("meta ads", candidates) == ["ads/campaigns"]
    assert ids("test runner", candidates)[0] == "qa/runner"
    assert "bio/hormones" not in ids("test report", candidates)
    # The last word typed is still a prefix: "metasp", on its way to "metasploit", finds the pentest kit.
    assert ids("metasp", candidates) == ["sec/pentest"]
    assert ids("run metasp", candidates) == ["sec/pentest", "qa/runner"]


def test_a_typo_is_only_assumed_for_a_word_the_skill_does_not_have():
    # "testing" is one typo from "resting" in the name, but the skill says "testing" in its description:
    # the word matched there, and is not claimed as a typo in the name.
    tested = candidate("a/tested", "resting-helper", description="Helps with testing.")
    [ranked] = rank("testing", [tested])
    assert ranked.matched == {"testing": "description"}
    typo_only = candidate("b/typo", "resting-helper")
    [ranked] = rank("testing", [typo_only])
    assert ranked.matched == {"testing": "name"}


def test_tiers_exact_name_then_name_words_then_tags_then_description_then_body():
    candidates = [
        candidate("z/body", "helper", body="pdf forms"),
        candidate("y/desc", "helper-two", description="Fill pdf forms quickly"),
        candidate("x/tags", "helper-three", tags="pdf forms"),
        candidate("w/name", "pdf-forms-filler"),
        candidate("v/exact", "pdf-forms"),
    ]
    assert ids("pdf forms", candidates) == ["v/exact", "w/name", "x/tags", "y/desc", "z/body"]


def test_inside_a_tier_trust_then_risk_then_freshness_then_id():
    candidates = [
        candidate("a/old", "pdf-tool-1", tier="community", updated="2024-01-01"),
        candidate("b/new", "pdf-tool-2", tier="community", updated="2025-01-01"),
        candidate("c/risky", "pdf-tool-3", tier="verified", risk="high"),
        candidate("d/safe", "pdf-tool-4", tier="verified", risk="low"),
        candidate("e/official", "pdf-tool-5", tier="official", risk="medium"),
        candidate("f/undated", "pdf-tool-6", tier="community"),
        candidate("a/undated", "pdf-tool-7", tier="community"),
    ]
    assert ids("pdf tool", candidates) == [
        "e/official", "d/safe", "c/risky", "b/new", "a/old", "a/undated", "f/undated",
    ]  # fmt: skip


def test_missing_words_rank_below_complete_matches():
    candidates = [
        candidate("a/partial", "deploy-helper"),
        candidate("b/full", "vercel-deploy"),
    ]
    assert ids("deploy to vercel", candidates) == ["b/full", "a/partial"]


def test_exact_id_is_exact():
    candidates = [candidate("acme/lint", "lint"), candidate("other/lint-plus", "lint-plus", tier="official")]
    assert ids("acme/lint", candidates)[0] == "acme/lint"


def test_squat_gate_keeps_a_copy_below_the_trusted_original():
    candidates = [
        candidate("newcomer/skill-creator", "skill-creator", tier="community", score=99.0),
        candidate("anthropic/skill-creator", "skill-creator", tier="verified", risk="medium", score=1.0),
        candidate("other/skill-creator-plus", "skill-creator-plus", tier="official"),
    ]
    order = ids("skill-creator", candidates)
    assert order.index("anthropic/skill-creator") < order.index("newcomer/skill-creator")


def test_squat_gate_even_when_the_copy_matches_in_a_better_tier():
    # The copy's name is identical, so tiers are equal; its higher trust-free score must not help.
    candidates = [
        candidate("copy/deploy", "deploy", tier="community", updated="2026-01-01"),
        candidate("orig/deploy", "deploy", tier="verified", risk="high", updated="2020-01-01"),
    ]
    assert ids("deploy", candidates) == ["orig/deploy", "copy/deploy"]


def test_ranking_is_deterministic_whatever_the_input_order():
    candidates = [candidate(f"p/{i}", f"tool-{i % 3}", tier=("community", "verified")[i % 2]) for i in range(12)]
    assert ids("tool", candidates) == ids("tool", list(reversed(candidates)))


def test_nothing_matched_means_no_result():
    assert ids("zebra", [candidate("a/b", "pdf")]) == []

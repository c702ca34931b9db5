"""A skill is left out only when no client could load it; spec errors are published and marked.

Claude Code loads a skill with a Title Case name (it calls the skill by its folder name), and so
does the `skills` CLI, which installs under the discovery index's name without comparing it with
the frontmatter. What no client loads: no or unreadable frontmatter, no description, an unreadable
file, a skill over a limit (/work/shared/docs/formats.md sections 1.3, 4.4, 5).
"""

import json
import subprocess
import sys

import pytest
from conftest import REPO_ROOT, simple_skill, write_skill
from pr_support import check, codes, pull_request, skill_md
from site_checks import check_index_json, check_well_known

from registry.build import build
from registry.config import BuildOptions
from registry.model import Severity
from registry.reference.catalog import LOADING_CODES, all_rules
from registry.search.query import search

# Each error rule, classified by hand: a new error rule fails the first test until it is put in one.
LEFT_OUT = {
    "P001", "P005", "P010", "P011", "P013", "P014", "P015", "P017", "P018", "P019",  # unreadable frontmatter
    "L005", "L006", "L010", "L011",  # over a limit, unreadable
    "S002", "S010",  # no description
    "E001", "E002",  # processing failed or ran past the time limit
}  # fmt: skip
PUBLISHED_WITH_THE_ERROR = {
    # names: Claude Code falls back to the folder name; descriptions over 1024 characters load
    "S001", "S003", "S004", "S005", "S006", "S007", "S008", "S011", "S012", "S013",
    # one dialect's client refuses these; Claude Code and the `skills` CLI load the skill
    "A001", "A006", "A010", "B003", "B012", "G001", "G002", "G003", "G005", "G006", "G007", "G008", "G025", "G026",
    "G027", "K013", "K014", "K015", "K016", "K017", "K019", "W002", "W004", "W006", "W012", "W013", "W015", "W016",
    "W021",
    # versions and checksums: the content loads; the page and index.json show the breach
    "V002", "V004", "V006",
    # check-pr only: never on a built skill
    "Q001", "Q002", "Q003", "Q004", "Q005", "Q006", "Q007", "Q008", "Q010",
}  # fmt: skip

TITLE_CASE = simple_skill("Metasploit Framework", "Runs Metasploit modules. Use when testing a network you own.")


def run_build(source, out, **kwargs):
    return build(BuildOptions(source=source, out=out, base_url="https://skills.example.org/", **kwargs))


def test_every_error_rule_is_classified_on_purpose():
    rules = all_rules()
    assert LOADING_CODES == LEFT_OUT
    errors = {r.code for r in rules if r.severity is Severity.ERROR}
    assert errors - LEFT_OUT - PUBLISHED_WITH_THE_ERROR == set(), "classify the new error rule(s)"
    assert errors >= LEFT_OUT | PUBLISHED_WITH_THE_ERROR, "a classified rule is gone or no longer an error"
    assert all(r.severity is Severity.ERROR for r in rules if r.blocks_loading)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("loadable")
    source = root / "src"
    write_skill(source, "sec/metasploit-framework", TITLE_CASE)
    write_skill(source, "sec/Port Scanner", simple_skill("Port Scanner"))  # no valid name for discovery at all
    write_skill(source, "p/nameless", "---\ndescription: Counts words. Use when counting.\n---\n\n# Count\n")
    write_skill(source, "p/verbose", simple_skill("verbose", "Long. " * 200))
    write_skill(source, "p/plain", simple_skill("plain"))
    write_skill(source, "p/no-frontmatter", "# Just a heading\n\nText.\n")
    write_skill(source, "p/bad-yaml", "---\nname: bad-yaml\ndescription: Use when: it breaks\n---\nbody\n")
    write_skill(source, "p/no-description", "---\nname: no-description\n---\nbody\n")
    write_skill(source, "p/empty-description", "---\nname: empty-description\ndescription: ''\n---\nbody\n")
    write_skill(source, "p/huge", simple_skill("huge"), {"references/big.md": "x" * 4096})
    (source / "registry.yaml").write_text("publishers:\n  sec:\n    tier: official\nlimits:\n  skill_bytes: 3000\n")
    out = root / "out"
    report = root / "report.json"
    result = run_build(source, out, report=report)
    return out, result, json.loads(report.read_text())


def test_a_title_case_name_is_published_marked_and_listed_under_its_folder_name(site):
    out, result, _ = site
    (skill,) = [s for s in result.published if s.id == "sec/metasploit-framework"]
    codes = {f.code for f in skill.findings}
    assert "D006" in codes and "D001" not in codes and result.discovery[skill.id] == "metasploit-framework"
    page = (out / "skills" / "sec" / "metasploit-framework" / "index.html").read_text()
    assert "<h1" in page and "Metasploit Framework</h1>" in page
    assert "Published with errors:" in page and "<code>S005</code>" in page and "<code>S008</code>" in page
    assert "list this skill as &#39;metasploit-framework&#39;, its folder name" in page
    assert "npx skills add https://skills.example.org/ --skill metasploit-framework" in page

    entry = next(e for e in check_index_json(out)["skills"] if e["id"] == "sec/metasploit-framework")
    assert entry["name"] == "Metasploit Framework" and entry["discovery_name"] == "metasploit-framework"
    assert entry["finding_counts"]["error"] == 2 and {"S005", "S008"} <= {f["code"] for f in entry["findings"]}
    # spec errors never earn a higher tier, not even from an official publisher
    assert entry["trust"]["tier"] == "community"

    v2, v1 = check_well_known(out)
    (listed,) = [e for e in v2["skills"] if e["name"] == "metasploit-framework"]
    served = (out / ".well-known" / "agent-skills" / listed["url"]).read_text()
    assert "name: Metasploit Framework" in served  # the bytes are the author's; only the index name differs
    assert "metasploit-framework" in {e["name"] for e in v1["skills"]}

    hits = search(out, "metasploit")
    assert [hit.record.id for hit in hits][:1] == ["sec/metasploit-framework"]
    browse = (out / "browse" / "index.html").read_text()
    assert "2 errors</span>" in browse


def test_a_name_no_client_accepts_keeps_the_skill_out_of_discovery_only(site):
    out, result, _ = site
    assert "sec/port-scanner" in result.published_ids and "sec/port-scanner" not in result.discovery
    (d001,) = [f for f in result.findings if f.code == "D001" and f.path == "sec/Port Scanner/SKILL.md"]
    assert d001.line == 2 and "neither the name 'Port Scanner' nor the folder name 'Port Scanner'" in d001.message
    page = (out / "skills" / "sec" / "port-scanner" / "index.html").read_text()
    assert "not in the .well-known indexes: neither the name" in page
    assert "Port Scanner" not in {e["name"] for e in check_well_known(out)[0]["skills"]}


def test_a_skill_without_a_name_is_published_under_its_folder_name_but_not_discovered(site):
    out, result, _ = site
    (skill,) = [s for s in result.published if s.id == "p/nameless"]
    assert skill.name is None and skill.display_name == "nameless"
    assert "p/nameless" not in result.discovery
    (d001,) = [f for f in skill.findings if f.code == "D001"]
    assert "the `skills` CLI drops a downloaded skill" in d001.message and "name: nameless" in d001.hint
    entry = next(e for e in check_index_json(out)["skills"] if e["id"] == "p/nameless")
    assert entry["name"] is None and entry["discovery_name"] is None
    assert "nameless</h1>" in (out / "skills" / "p" / "nameless" / "index.html").read_text()


def test_a_description_over_1024_characters_is_published_but_kept_out_of_discovery(site):
    _out, result, _ = site
    assert "p/verbose" in result.published_ids and "p/verbose" not in result.discovery
    (d001,) = [f for f in result.findings if f.code == "D001" and f.path == "p/verbose/SKILL.md"]
    assert "discovery clients accept 1 to 1024" in d001.message and d001.line == 3


def test_only_what_no_client_can_load_is_left_out_each_with_its_reason(site):
    _out, result, report = site
    reasons = {item["id"]: [r["code"] for r in item["reasons"]] for item in report["left_out"]}
    assert reasons == {
        "p/no-frontmatter": ["P010"],
        "p/bad-yaml": ["P013"],
        "p/no-description": ["S002"],
        "p/empty-description": ["S010"],
        "p/huge": ["L006"],
    }
    assert set(result.published_ids) == {
        "sec/metasploit-framework", "sec/port-scanner", "p/nameless", "p/verbose", "p/plain",
    }  # fmt: skip
    assert report["counts"]["errors"] > 0  # the published skills' errors still count: --strict fails on them


def test_check_pr_still_blocks_what_the_build_publishes(pr_repo, tmp_path):
    write_skill(pr_repo / "skills-index", "acme/port-scanner", skill_md("Port Scanner", "0.1.0"))
    pull_request(pr_repo)
    status, output = check(pr_repo)
    assert status == 1 and not json.loads(output)["mergeable"]
    assert {"Q010", "S005", "S008"} <= set(codes(output))
    result = run_build(pr_repo / "skills-index", tmp_path / "out")
    assert "acme/port-scanner" in result.published_ids


def test_the_left_out_benchmark_counts_per_source(tmp_path):
    corpus = tmp_path / "corpus"
    write_skill(corpus / "alpha", "sec/metasploit-framework", TITLE_CASE)
    write_skill(corpus / "alpha", "p/plain", simple_skill("plain"))
    write_skill(corpus / "beta", "p/no-frontmatter", "# Just a heading\n")
    figures = tmp_path / "left-out.json"
    listing = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "left_out.py"), "--corpus", str(corpus), "--jobs", "1",
         "--json", str(figures), "--list"],
        capture_output=True, text=True, check=True, cwd=REPO_ROOT,
    ).stdout  # fmt: skip
    rows = {row["source"]: row for row in json.loads(figures.read_text())["sources"]}
    assert (rows["alpha"]["published"], rows["alpha"]["published_with_errors"], rows["alpha"]["left_out"]) == (2, 1, 0)
    assert rows["alpha"]["discovery_by_folder_name"] == 1
    assert (rows["beta"]["left_out"], rows["beta"]["reasons"]) == (1, {"P010": 1})
    assert "p/no-frontmatter: P010" in listing and "(33.3% left out)" in listing

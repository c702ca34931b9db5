"""registry.yaml `outputs:` turns the optional outputs off: a profile (`full`, `lean`) or a mapping over one.

A lean build writes none of the files of the outputs it turns off, and nothing it writes links to them; a
build after the setting changed, in either direction, gives the bytes a clean build gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import commit_all
from site_checks import assert_same_site, broken_links

from registry.build import build
from registry.config import OUTPUT_PROFILES, BuildOptions, Outputs
from registry.emit import registry as emitters
from registry.emit.ai_catalog import AiCatalog
from registry.emit.feeds import Feeds
from registry.emit.marketplaces import Marketplaces
from registry.emit.well_known import WellKnown
from registry.policy import PolicyError, load_policy, parse_policy
from registry.signing import SigningKey, generate_key_pair
from registry.verify import Site, verify_site

BASE = "https://registry.example/"  # https, so that a full build writes the Claude Code marketplace too

# What each optional output writes, as path patterns relative to the site root.
WRITTEN_BY = {
    "discovery_v0_1": (".well-known/skills/index.json",),
    "skill_indexes": ("skills/**/.well-known/agent-skills/index.json",),
    "marketplaces": (".claude-plugin/*", ".agents/plugins/*", ".github/plugin/*", ".cursor-plugin/*", "plugins/*"),
    "ai_catalog": (".well-known/ai-catalog.json", ".well-known/ard.json"),
    "feeds": ("feeds/**/*",),
}


def written(site: Path, output: str) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for pattern in WRITTEN_BY[output] for p in site.glob(pattern))


def set_outputs(source: Path, setting: str) -> None:
    """registry.yaml's `outputs:` replaced by `setting` (YAML text; "" for none)."""
    policy = source / "registry.yaml"
    lines = policy.read_text(encoding="utf-8").split("\noutputs:")[0].rstrip("\n")
    policy.write_text(lines + (f"\noutputs: {setting}\n" if setting else "\n"), encoding="utf-8")


def site_build(source: Path, out: Path, **extra):
    return build(
        BuildOptions(source=source / "skills", out=out, policy=source / "registry.yaml", base_url=BASE, jobs=1, **extra)
    )


# -- the setting ---------------------------------------------------------------------------------


def test_outputs_default_to_full_and_take_a_profile_or_a_mapping():
    assert parse_policy({}).outputs == Outputs() == OUTPUT_PROFILES["full"]
    assert parse_policy({"outputs": "full"}).outputs == Outputs()
    lean = parse_policy({"outputs": "lean"}).outputs
    assert lean == OUTPUT_PROFILES["lean"] and set(lean.off) == {"marketplaces", "ai_catalog", "feeds"}
    assert parse_policy({"outputs": {"feeds": False}}).outputs.off == ("feeds",)
    chosen = parse_policy({"outputs": {"profile": "lean", "feeds": True, "skill_indexes": False}}).outputs
    assert chosen.off == ("skill_indexes", "marketplaces", "ai_catalog")


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ("tiny", "outputs: 'tiny' is not one of full, lean"),
        ("{feed: false}", "outputs: unknown setting ('feed' was unexpected)"),
        ("{feeds: maybe}", "outputs.feeds: 'maybe' is not of type 'boolean'"),
        ("{profile: small}", "outputs.profile: 'small' is not one of full, lean"),
        ("[lean]", "outputs: ['lean'] is not of type 'string', 'object'"),
    ],
)
def test_a_bad_outputs_setting_names_the_file_and_the_key(tmp_path: Path, setting: str, problem: str):
    path = tmp_path / "registry.yaml"
    path.write_text(f"title: Test\noutputs: {setting}\n", encoding="utf-8")
    with pytest.raises(PolicyError) as err:
        load_policy(path)
    assert err.value.problems == [problem]
    assert str(err.value) == f"{path}: {problem}"


def test_the_emitters_follow_the_setting():
    assert emitters.emitters(Outputs()) == emitters.EMITTERS
    lean = emitters.emitters(OUTPUT_PROFILES["lean"])
    assert not {type(emitter) for emitter in lean} & {Marketplaces, AiCatalog, Feeds}
    assert repr(lean) != repr(emitters.EMITTERS)  # part of the render key: a switch renders every skill again
    none = emitters.emitters(Outputs(discovery_v0_1=False, skill_indexes=False))
    (well_known,) = [emitter for emitter in none if isinstance(emitter, WellKnown)]
    assert well_known == WellKnown(discovery_v0_1=False, skill_indexes=False)


# -- the builds ----------------------------------------------------------------------------------


def test_full_build_writes_every_output_and_links_nothing_missing(registry_repo: Path, tmp_path: Path):
    out = tmp_path / "full"
    site_build(registry_repo, out)
    for output in WRITTEN_BY:
        assert written(out, output), f"a full build wrote nothing of {output}"
    assert broken_links(out, BASE) == []
    (out / "feeds" / "all.xml").unlink()  # the checker sees a page linking a file that is not there
    assert "index.html: feeds/all.xml" in broken_links(out, BASE)


@pytest.mark.parametrize("setting", ["lean", "{profile: lean, discovery_v0_1: false, skill_indexes: false}"])
def test_lean_build_writes_none_of_the_outputs_it_turns_off(registry_repo: Path, tmp_path: Path, setting: str):
    set_outputs(registry_repo, setting)
    out = tmp_path / "lean"
    result = site_build(registry_repo, out)
    assert len(result.published) == 23
    off = load_policy(registry_repo / "registry.yaml").outputs.off
    for output in WRITTEN_BY:
        assert bool(written(out, output)) == (output not in off), output
    # What agents and people need stays: pages, index.json, the v0.2 discovery index and its artifacts, every
    # published file, search.
    for kept in ("index.html", "browse/index.html", "index.json", ".well-known/agent-skills/index.json",
                 "search/manifest.json", "sitemap.xml", "stats/index.html"):  # fmt: skip
        assert (out / kept).is_file(), kept
    assert list((out / ".well-known" / "agent-skills").glob("*.tar.gz"))
    assert list((out / ".well-known" / "skills").rglob("SKILL.md"))  # the files stay where v0.1 put them
    assert broken_links(out, BASE) == []
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "feeds/" not in page
    assert (".well-known/skills/index.json" in page) == ("discovery_v0_1" not in off)
    # A skill page offers `npx skills add <its own address>` only when its own discovery index is written.
    skill_pages = sorted((out / "skills").rglob("index.html"))
    installs = [p for p in skill_pages if 'id="install-npx-site"' in p.read_text(encoding="utf-8")]
    assert installs
    for skill_page in installs:
        assert ('id="install-npx"' in skill_page.read_text(encoding="utf-8")) == ("skill_indexes" not in off)


def test_one_output_can_be_turned_off_alone(registry_repo: Path, tmp_path: Path):
    set_outputs(registry_repo, "{feeds: false}")
    out = tmp_path / "site"
    site_build(registry_repo, out)
    assert written(out, "feeds") == []
    assert all(written(out, output) for output in WRITTEN_BY if output != "feeds")
    assert broken_links(out, BASE) == []


def test_a_build_after_switching_outputs_equals_a_clean_build(registry_repo: Path, tmp_path: Path):
    out = tmp_path / "site"
    site_build(registry_repo, out)
    for setting in ("lean", "{profile: lean, feeds: true, discovery_v0_1: false, skill_indexes: false}", ""):
        set_outputs(registry_repo, setting)
        commit_all(registry_repo, f"outputs: {setting or 'full'}", "2026-01-02T00:00:00Z")
        again = site_build(registry_repo, out)
        assert not again.unchanged
        assert again.work["renders_reused"] == 0  # every page names (or stops naming) the outputs: all render again
        assert again.work["analysed"] == 0  # what is written is no input of the analysis: none is done again
        clean = tmp_path / f"clean-{len(setting)}"
        site_build(registry_repo, clean, clean=True)
        assert_same_site(out, clean)


def test_a_signed_site_without_the_v0_1_index_verifies(registry_repo: Path, tmp_path: Path):
    """The v0.1 index is signed when it is written; a site built without it has neither it nor its signature."""
    private_pem, _ = generate_key_pair()
    set_outputs(registry_repo, "{profile: lean, discovery_v0_1: false}")
    out = tmp_path / "signed"
    site_build(registry_repo, out, signing=SigningKey.from_pem(private_pem))
    assert not (out / ".well-known" / "skills" / "index.json.sig").exists()
    assert (out / ".well-known" / "agent-skills" / "index.json.sig").is_file()
    report = verify_site(Site(str(out)))
    assert report.ok, report.problems
    (out / "index.json.sig").unlink()  # the indexes that are always written still must be signed
    assert not verify_site(Site(str(out))).ok

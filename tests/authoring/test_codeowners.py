"""`skill-registry codeowners`: CODEOWNERS derived from registry.yaml, and a check that it is current."""

from click.testing import CliRunner
from conftest import REPO_ROOT

from registry.cli_authoring import codeowners, render_codeowners
from registry.policy import load_policy

SAMPLE = """\
maintainers: [zed-admin, amy-admin]
publishers:
  zeta:
    tier: community
    maintainers: [zeta-dev]
  acme:
    tier: verified
    namespaces: [acme-tools, acme]
    maintainers: [bob, Alice, amy-admin]
  lonely:
    tier: community
"""


def invoke(*args):
    return CliRunner().invoke(codeowners, list(args), catch_exceptions=False)


def rules(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_generated_from_a_sample_policy(tmp_path):
    policy = tmp_path / "registry.yaml"
    policy.write_text(SAMPLE, encoding="utf-8")
    out = tmp_path / ".github" / "CODEOWNERS"
    result = invoke("--policy", str(policy), "--out", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Generated from registry.yaml by `skill-registry codeowners`")
    assert "#   skill-registry codeowners" in text
    assert rules(text) == [
        "* @amy-admin @zed-admin",
        "/registry.yaml @amy-admin @zed-admin",
        "/.github/ @amy-admin @zed-admin",
        "/skills-index/acme/ @Alice @amy-admin @bob @zed-admin",
        "/skills-index/acme-tools/ @Alice @amy-admin @bob @zed-admin",
        "/skills-index/lonely/ @amy-admin @zed-admin",
        "/skills-index/zeta/ @zeta-dev @amy-admin @zed-admin",
    ]


def test_output_is_deterministic_whatever_the_order_in_the_policy(tmp_path):
    reordered = SAMPLE.replace("[zed-admin, amy-admin]", "[amy-admin, zed-admin]").replace(
        "[acme-tools, acme]", "[acme, acme-tools]"
    )
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text(SAMPLE, encoding="utf-8")
    second.write_text(reordered, encoding="utf-8")
    assert rules(render_codeowners(load_policy(first))) == rules(render_codeowners(load_policy(second)))
    assert render_codeowners(load_policy(first)) == render_codeowners(load_policy(first))


def test_skills_root_is_a_parameter(tmp_path):
    policy = tmp_path / "registry.yaml"
    policy.write_text(SAMPLE, encoding="utf-8")
    out = tmp_path / "CODEOWNERS"
    assert invoke("--policy", str(policy), "--out", str(out), "--skills-root", "./skills/").exit_code == 0
    assert "/skills/zeta/ @zeta-dev" in out.read_text(encoding="utf-8")
    assert "/skills/acme/" in render_codeowners(load_policy(policy), "skills")
    assert "\n/zeta/ @zeta-dev" in render_codeowners(load_policy(policy), ".")


def test_check_reports_missing_stale_and_current(tmp_path):
    policy = tmp_path / "registry.yaml"
    policy.write_text(SAMPLE, encoding="utf-8")
    out = tmp_path / "CODEOWNERS"
    args = ("--policy", str(policy), "--out", str(out))

    missing = invoke(*args, "--check")
    assert missing.exit_code == 1 and "missing" in missing.stderr
    assert not out.exists()

    assert invoke(*args).exit_code == 0
    current = invoke(*args, "--check")
    assert current.exit_code == 0 and "up to date" in current.stdout

    policy.write_text(SAMPLE.replace("maintainers: [zeta-dev]", "maintainers: [zeta-dev, zeta-new]"), encoding="utf-8")
    before = out.read_text(encoding="utf-8")
    stale = invoke(*args, "--check")
    assert stale.exit_code == 1
    assert "stale" in stale.stderr and "skill-registry codeowners" in stale.stderr
    assert "-/skills-index/zeta/ @zeta-dev @amy-admin @zed-admin" in stale.stderr
    assert "+/skills-index/zeta/ @zeta-dev @zeta-new @amy-admin @zed-admin" in stale.stderr
    assert out.read_text(encoding="utf-8") == before  # --check never writes

    assert invoke(*args).exit_code == 0
    assert invoke(*args, "--check").exit_code == 0


def test_an_invalid_policy_fails_with_every_problem(tmp_path):
    policy = tmp_path / "registry.yaml"
    policy.write_text("publishers:\n  a:\n    tier: gold\n  b:\n    namespaces: [a]\n", encoding="utf-8")
    result = invoke("--policy", str(policy), "--out", str(tmp_path / "CODEOWNERS"))
    assert result.exit_code == 1
    assert "gold" in result.stderr
    assert not (tmp_path / "CODEOWNERS").exists()


def test_a_policy_without_maintainers_still_gives_a_valid_file(tmp_path):
    policy = tmp_path / "registry.yaml"
    policy.write_text("publishers:\n  solo: {}\n", encoding="utf-8")
    text = render_codeowners(load_policy(policy))
    assert rules(text) == ["*", "/registry.yaml", "/.github/", "/skills-index/solo/"]
    assert "lists no maintainers" in text and "# solo: no maintainers listed" in text


def test_the_repository_codeowners_is_current(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    result = invoke("--check")
    assert result.exit_code == 0, result.output
    text = (REPO_ROOT / ".github" / "CODEOWNERS").read_text(encoding="utf-8")
    policy = load_policy(REPO_ROOT / "registry.yaml")
    for publisher in policy.publishers.values():
        for namespace in publisher.namespaces:
            assert f"/skills-index/{namespace}/ " in text

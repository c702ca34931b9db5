"""`skill-registry verify TARGET` (issue 24, item 2): a site by URL or folder, an installed skill folder, a downloaded
archive; exit 0 when every byte matches, 1 naming each file that differs, is missing or was added, 2 when the
target cannot be checked. The site is served over HTTP as a host would (tests/browser_support.py)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from browser_support import serve
from click.testing import CliRunner
from conftest import REPO_ROOT
from test_signing import install, make_keys, make_source, signed_build

from registry.cli import main
from registry.verify import SITE_ENV


def run(*args: str, **env: str):
    return CliRunner().invoke(main, list(args), env=env or None)


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    root = tmp_path_factory.mktemp("verify")
    private, public = make_keys(root / "keys")
    source = make_source(root)
    signed_build(source, root / "site", private)
    return root / "site", public


def test_a_site_served_over_http_verifies_and_a_changed_file_is_named(signed, tmp_path):
    site, _ = signed
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    served = serve(copy)
    try:
        result = run("verify", served.url)
        assert result.exit_code == 0, result.output
        (copy / ".well-known/skills/alpha/references/a.md").write_text("B\n")
        archive = copy / ".well-known/agent-skills/gamma.tar.gz"
        archive.write_bytes(archive.read_bytes() + b"\0")
        result = run("verify", served.url)
        assert result.exit_code == 1
        assert "differs: acme/alpha: references/a.md" in result.output
        assert "differs: .well-known/agent-skills/gamma.tar.gz" in result.output
        # An installed skill checked against the site by URL, from the environment.
        folder = install(site, "beta", tmp_path)
        result = run("verify", str(folder), **{SITE_ENV: served.url})
        assert result.exit_code == 0, result.output
    finally:
        served.close()


def test_a_site_folder_names_files_added_to_a_skill(signed, tmp_path):
    site, _ = signed
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    (copy / ".well-known/skills/gamma/extra.md").write_text("added\n")
    (copy / ".well-known/skills/beta/SKILL.md").unlink()
    result = run("verify", str(copy))
    assert result.exit_code == 1
    assert "added: .well-known/skills/gamma/extra.md" in result.output
    assert "missing: acme/beta: SKILL.md" in result.output


def test_a_downloaded_archive_verifies_and_a_changed_one_does_not(signed, tmp_path):
    site, _ = signed
    archive = site / ".well-known/agent-skills/alpha.tar.gz"
    result = run("verify", str(archive), "--site", str(site))
    assert result.exit_code == 0, result.output
    assert "acme/alpha" in result.output
    # The same files repacked as a zip, one of them changed.
    with tarfile.open(archive) as handle:
        members = {m.name: handle.extractfile(m).read() for m in handle.getmembers() if m.isfile()}
    members["scripts/run.sh"] = b"echo bye\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as handle:
        for name, data in members.items():
            handle.writestr(name, data)
    repacked = tmp_path / "alpha.zip"
    repacked.write_bytes(buffer.getvalue())
    result = run("verify", str(repacked), "--site", str(site))
    assert result.exit_code == 1
    assert "differs: scripts/run.sh" in result.output


def test_a_pinned_key_must_be_the_sites(signed, tmp_path):
    site, public = signed
    assert run("verify", str(site), "--key", str(public)).exit_code == 0
    _, other = make_keys(tmp_path / "other")
    result = run("verify", str(site), "--key", str(other))
    assert result.exit_code == 2
    assert "is signed by key" in result.output


def test_an_installed_skill_needs_to_know_its_registry(signed, tmp_path):
    site, _ = signed
    folder = install(site, "gamma", tmp_path)
    result = run("verify", str(folder), **{SITE_ENV: ""})
    assert result.exit_code == 2
    assert "--site" in result.output
    renamed = folder.rename(tmp_path / "my-copy")  # found by its SKILL.md's name when the folder was renamed
    result = run("verify", str(renamed), "--site", str(site))
    assert result.exit_code == 0, result.output
    result = run("verify", str(Path(tmp_path / "nothing")), "--site", str(site))
    assert result.exit_code == 2


def test_the_daily_workflow_verifies_the_deployed_site_and_fails_loudly_on_drift(signed, tmp_path):
    workflow = yaml.load((REPO_ROOT / ".github/workflows/verify-deployed.yml").read_text(), Loader=yaml.BaseLoader)
    assert workflow["on"]["schedule"][0]["cron"].split()[2:] == ["*", "*", "*"]  # every day
    script = next(s for s in workflow["jobs"]["verify"]["steps"] if s.get("name") == "Verify the deployed site")["run"]
    site, _ = signed
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    served = serve(copy)
    summary = tmp_path / "summary.md"
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"

    def run_step(site_url: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PATH": path, "SITE_URL": site_url, "GITHUB_STEP_SUMMARY": str(summary)}
        return subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)

    try:
        assert run_step(served.url).returncode == 0
        (copy / ".well-known/skills/gamma/notes.txt").write_text("drifted\n")
        drifted = run_step(served.url)
        assert drifted.returncode == 1
        assert "::error::differs: other/gamma: notes.txt" in drifted.stdout
        assert "differs: other/gamma: notes.txt" in summary.read_text()
    finally:
        served.close()
    unset = run_step("")
    assert unset.returncode == 1 and "SITE_URL is not set" in unset.stdout


def test_a_sharded_index_is_checked_shard_by_shard(tmp_path, monkeypatch):
    from registry.emit import index_json

    monkeypatch.setattr(index_json, "SINGLE_FILE_MAX", 1)
    monkeypatch.setattr(index_json, "SHARD_SIZE", 1)
    private, _ = make_keys(tmp_path / "keys")
    site = tmp_path / "site"
    signed_build(make_source(tmp_path), site, private)
    shards = sorted((site / "index").glob("*.json"))
    assert len(shards) > 1
    assert run("verify", str(site)).exit_code == 0
    shards[0].write_bytes(shards[0].read_bytes().replace(b'"skills":[', b'"skills": ['))
    result = run("verify", str(site))
    assert result.exit_code == 1
    assert f"differs: index/{shards[0].name}" in result.output

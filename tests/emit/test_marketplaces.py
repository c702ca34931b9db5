"""The Claude Code and Codex plugin marketplaces (registry/emit/marketplaces.py), checked as the clients read them.

Claude Code's marketplace is validated against the rules of Claude Code's own schema (CLAUDE_SCHEMA), Codex's
against the fields it documents as required (Codex skips a malformed entry without a word, so nobody else would
notice). Each archive is fetched by its URL, its sha256 checked, and read the way Claude Code 2.1.331 reads one
(`client_unzip`): a zip of stored or deflated entries, the plugin root at the top or in one wrapping folder,
executable bits from Unix modes; every skill file must come out byte for byte as the source has it.

`claude plugin validate` (Claude Code 2.1.331) runs offline and passes on a site built from SKILLS_INDEX, but no
test runs it: the CLI is a 400 MB native binary that CI would have to install from npm for this alone.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import stat
import zipfile
from pathlib import Path

import jsonschema
import pytest
from conftest import SKILLS_INDEX
from site_checks import check_index_json, load_json

import registry.emit.marketplaces as marketplaces
from registry.build import build
from registry.config import BuildOptions
from registry.emit.marketplaces import (
    CLAUDE_MARKETPLACE,
    CODEX_MARKETPLACE,
    RESERVED_MARKETPLACE_NAMES,
    build_zip,
    marketplace_name,
)

BASE = "https://skills.example.org/registry/"
WITHDRAWN_ID = "datakit/sql-query-review"
LIFECYCLE = f"""\
withdrawn:
  {WITHDRAWN_ID}: {{reason: "Sent query results to a remote host"}}
renamed:
  ops-legacy/log-triage: opsworks/log-triage
"""
KEBAB = "^[a-z0-9]+(-[a-z0-9]+)*$"
# Claude Code 2.1.331's own rules (npm @anthropic-ai/claude-code@2.1.331, the zod schemas in the bundle inside
# bin/claude.exe): the marketplace is `Yht` {name: j(UMt), owner: Q(), plugins, renames: record(string,
# string|null)}; a marketplace name must match `^[A-Za-z0-9][-A-Za-z0-9._]*$` ("Claude Code cannot install
# plugins from marketplace ...") with no spaces, "/", "\\" or ".."; `owner` is Q() = {name: string.min(1,
# "Author name cannot be empty"), email?, url?}; a plugin name is non-empty with no spaces and must make a
# plugin ID `^[A-Za-z0-9][-A-Za-z0-9._]*@...`; the archive source is `rn` = {source: literal("archive"), url:
# string.url() refined by KWs (protocol "https:", not a loopback, link-local or metadata host), sha256:
# regex(/^[0-9a-fA-F]{64}$/).optional()} ("HTTPS URL of a zip archive containing the plugin").
CLIENT_NAME = "^[A-Za-z0-9][-A-Za-z0-9._]*$"
CLAUDE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name", "owner", "plugins"],
    "properties": {
        "name": {"type": "string", "pattern": CLIENT_NAME, "not": {"pattern": r"\.\."}},
        "owner": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "email": {"type": "string"},
                "url": {"type": "string"},
            },
        },
        "metadata": {"type": "object", "properties": {"description": {"type": "string"}}},
        "renames": {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
        "plugins": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "source"],
                "properties": {
                    "name": {"type": "string", "pattern": CLIENT_NAME},
                    "source": {
                        "type": "object",
                        "required": ["source", "url"],
                        "additionalProperties": False,
                        "properties": {
                            "source": {"const": "archive"},
                            "url": {"type": "string", "pattern": "^https://(?!localhost[:/]|127\\.|\\[::1\\])"},
                            "sha256": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$"},
                        },
                    },
                },
            },
        },
    },
}
# The client's zip reader (2.1.331, `DGt`/`Jlt`/`Icn`): compression methods 0 and 8 only ("unsupported
# compression method"), no entry with a path that is absolute or climbs out, unpacked size at most 50 times the
# archive's (MAX_COMPRESSION_RATIO: 50), Unix mode bits from entries made on Unix (version made by 3).
CLIENT_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED}
CLIENT_MAX_RATIO = 50
CODEX_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name", "interface", "plugins"],
    "properties": {
        "name": {"type": "string", "pattern": KEBAB},
        "interface": {
            "type": "object", "required": ["displayName"], "properties": {"displayName": {"type": "string", "minLength": 1}},
        },
        "plugins": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "source", "policy", "category"],
                "properties": {
                    "name": {"type": "string", "pattern": KEBAB},
                    "source": {
                        "type": "object", "required": ["source", "path"],
                        "properties": {"source": {"const": "local"}, "path": {"type": "string", "pattern": r"^\./[^.]"}},
                    },
                    "policy": {
                        "type": "object", "required": ["installation", "authentication"],
                        "properties": {
                            "installation": {"enum": ["AVAILABLE", "INSTALLED_BY_DEFAULT", "NOT_AVAILABLE"]},
                            "authentication": {"enum": ["ON_INSTALL", "ON_USE"]},
                        },
                    },
                    "category": {"type": "string", "minLength": 1},
                },
            },
        },
    },
}  # fmt: skip


def build_site(source: Path, out: Path) -> Path:
    build(BuildOptions(source=source, out=out, base_url=BASE))
    return out


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("marketplaces") / "src"
    shutil.copytree(SKILLS_INDEX, folder)
    (folder / "lifecycle.yaml").write_text(LIFECYCLE, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def site(source: Path) -> Path:
    return build_site(source, source.parent / "site")


def validated(data: dict, schema: dict) -> dict:
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    return data


def claude(site: Path) -> dict:
    marketplace = validated(load_json(site / CLAUDE_MARKETPLACE), CLAUDE_SCHEMA)
    # The client's rename rule: a target is a listed plugin, another renamed name, or null.
    names = {plugin["name"] for plugin in marketplace["plugins"]}
    for target in marketplace.get("renames", {}).values():
        assert target is None or target in names or target in marketplace["renames"], target
    # Ours, stricter: kebab-case and none of the names Claude Code reserves.
    assert re_match(KEBAB, marketplace["name"]) and marketplace["name"] not in RESERVED_MARKETPLACE_NAMES
    return marketplace


def re_match(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern, text) is not None


def codex(site: Path) -> dict:
    return validated(load_json(site / CODEX_MARKETPLACE), CODEX_SCHEMA)


def fetched(site: Path, url: str) -> bytes:
    assert url.startswith(BASE), f"{url} is not under --base-url"
    return (site / url.removeprefix(BASE)).read_bytes()


def client_unzip(archive: bytes) -> dict[str, tuple[bytes, int]]:
    """Every entry as Claude Code's reader returns it: path -> (bytes, Unix mode or 0)."""
    files: dict[str, tuple[bytes, int]] = {}
    with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
        for info in zipped.infolist():
            assert info.compress_type in CLIENT_METHODS, f"{info.filename}: method {info.compress_type}"
            assert info.file_size < 0xFFFFFFFF and info.compress_size < 0xFFFFFFFF, "no zip64"
            assert not info.filename.startswith("/") and ".." not in info.filename.split("/"), info.filename
            mode = info.external_attr >> 16 if info.create_system == 3 else 0
            files[info.filename] = (zipped.read(info), mode)
    assert b"PK\x06\x06" not in archive[-98:], "no zip64 end of central directory"
    assert sum(len(data) for data, _ in files.values()) <= CLIENT_MAX_RATIO * len(archive)
    return files


def unpacked(archive: bytes) -> tuple[dict, dict[str, bytes]]:
    """As Claude Code reads an archive: its plugin root is the top, or the one top-level folder; returns the
    plugin.json and every file below the root by its path there."""
    files = {name: data for name, (data, _) in client_unzip(archive).items() if not name.endswith("/")}
    if ".claude-plugin/plugin.json" not in files:
        tops = {name.split("/", 1)[0] for name in files}
        assert len(tops) == 1, f"plugin.json neither at the top nor in one top-level folder: {sorted(tops)}"
        files = {name.split("/", 1)[1]: data for name, data in files.items()}
    return json.loads(files[".claude-plugin/plugin.json"]), files


def test_both_marketplaces_validate_and_list_the_same_plugins(site):
    claude_plugins = [plugin["name"] for plugin in claude(site)["plugins"]]
    codex_plugins = [plugin["name"] for plugin in codex(site)["plugins"]]
    assert claude_plugins == codex_plugins and len(set(claude_plugins)) == len(claude_plugins)
    assert claude(site)["name"] == codex(site)["name"]
    assert claude(site)["name"] not in claude_plugins  # the installer stages both under one name


def test_every_archive_matches_its_sha256_and_holds_each_skill_byte_for_byte(site, source):
    listed = {entry["discovery_name"]: entry["id"] for entry in check_index_json(site)["skills"]}
    listed.pop(None, None)
    packed: set[str] = set()
    for plugin in claude(site)["plugins"]:
        archive = fetched(site, plugin["source"]["url"])
        assert hashlib.sha256(archive).hexdigest() == plugin["source"]["sha256"]
        manifest, files = unpacked(archive)
        assert manifest["name"] == plugin["name"]
        assert json.loads(files[".codex-plugin/plugin.json"])["name"] == plugin["name"]
        skill_files = {
            name: data for name, data in files.items() if not name.startswith((".claude-plugin/", ".codex-plugin/"))
        }
        assert skill_files and all(name.startswith("skills/") for name in skill_files)
        for name, data in skill_files.items():
            discovery_name, path = name.removeprefix("skills/").split("/", 1)
            assert (source / listed[discovery_name] / path).read_bytes() == data, name
            packed.add(discovery_name)
        for discovery_name in {name.split("/")[1] for name in skill_files}:
            assert f"skills/{discovery_name}/SKILL.md" in skill_files
    assert packed == set(listed), "every skill the discovery index lists is in exactly one plugin"


def test_a_withdrawn_skill_is_in_no_plugin(site):
    index = load_json(site / "index.json")
    assert WITHDRAWN_ID not in {entry["id"] for entry in index["skills"]}
    for plugin in claude(site)["plugins"]:
        _, files = unpacked(fetched(site, plugin["source"]["url"]))
        assert not any(name.startswith("skills/sql-query-review/") for name in files)


def test_a_rename_that_moves_a_publishers_skills_becomes_a_plugin_rename(site):
    assert claude(site)["renames"] == {"ops-legacy": "opsworks"}


def test_codex_sources_are_the_folders_the_archives_unpack_into(site):
    sources = {plugin["name"]: plugin["source"]["path"] for plugin in codex(site)["plugins"]}
    for plugin in claude(site)["plugins"]:
        tops = {name.split("/", 1)[0] for name in client_unzip(fetched(site, plugin["source"]["url"]))}
        assert tops == {plugin["name"]}
        assert sources[plugin["name"]] == f"./plugins/{plugin['name']}"
        assert plugin["source"]["url"] == f"{BASE}plugins/{plugin['name']}.zip"


def test_executable_files_keep_their_executable_bit_and_others_do_not(site, source):
    listed = {entry["discovery_name"]: entry["id"] for entry in check_index_json(site)["skills"]}
    modes: dict[int, int] = {}
    for plugin in claude(site)["plugins"]:
        for name, (_, mode) in client_unzip(fetched(site, plugin["source"]["url"])).items():
            parts = name.split("/")
            if parts[1] != "skills":
                continue
            origin = source / listed[parts[2]] / "/".join(parts[3:])
            executable = bool(origin.stat().st_mode & stat.S_IXUSR)
            assert mode == (0o100755 if executable else 0o100644), name
            modes[executable] = modes.get(executable, 0) + 1
    assert modes.get(True) and modes.get(False), "the sample has both kinds of file"


def test_an_archive_that_would_deflate_past_the_clients_bomb_guard_is_stored():
    repetitive = [("p/.claude-plugin/plugin.json", b"{}", False), ("p/skills/a/SKILL.md", b"a" * 200_000, False)]
    archive = build_zip(repetitive)
    assert client_unzip(archive)["p/skills/a/SKILL.md"][0] == b"a" * 200_000
    assert {info.compress_type for info in zipfile.ZipFile(io.BytesIO(archive)).infolist()} == {zipfile.ZIP_STORED}
    assert build_zip(list(reversed(repetitive))) == archive, "same files, same bytes, whatever the order"


def test_a_second_build_writes_the_same_bytes(site, source):
    again = build_site(source, source.parent / "again")
    for relative in (CLAUDE_MARKETPLACE, CODEX_MARKETPLACE):
        assert (again / relative).read_bytes() == (site / relative).read_bytes()
    archives = sorted(path.name for path in (site / "plugins").iterdir())
    assert archives and archives == sorted(path.name for path in (again / "plugins").iterdir())
    for name in archives:
        assert (again / "plugins" / name).read_bytes() == (site / "plugins" / name).read_bytes()


@pytest.mark.parametrize(
    ("title", "expected"),
    [("Acme Skills", "acme-skills"), ("Claude Code Plugins", "skill-registry"), ("agent skills", "skill-registry"),
     ("Official Tools", "skill-registry"), ("!!!", "skill-registry")],
)  # fmt: skip
def test_a_marketplace_is_never_given_a_name_claude_code_refuses(title, expected):
    assert marketplace_name(title) == expected


def test_a_rebuild_makes_again_only_the_archive_of_the_publisher_whose_skill_changed(tmp_path, source, monkeypatch):
    tree = tmp_path / "src"
    shutil.copytree(source, tree)
    out = tmp_path / "site"
    build_site(tree, out)
    before = {path.name: path.read_bytes() for path in (out / "plugins").iterdir()}
    changed = tree / "datakit" / "csv-cleaner" / "references" / "cleaning-rules.md"
    changed.write_text(changed.read_text(encoding="utf-8") + "\n- Trim a trailing tab too.\n", encoding="utf-8")
    made: list[str] = []
    make = marketplaces.plugin_archive
    monkeypatch.setattr(marketplaces, "plugin_archive", lambda name, *rest: made.append(name) or make(name, *rest))
    build_site(tree, out)
    assert made == ["datakit"]
    after = {path.name: path.read_bytes() for path in (out / "plugins").iterdir()}
    assert sorted(after) == sorted(before)
    assert [name for name in sorted(after) if after[name] != before[name]] == ["datakit.zip"]
    clean = build_site(tree, tmp_path / "clean")
    for relative in (CLAUDE_MARKETPLACE, *(f"plugins/{name}" for name in after)):
        assert (out / relative).read_bytes() == (clean / relative).read_bytes(), relative


def test_no_claude_marketplace_for_a_site_claude_code_cannot_download_from(tmp_path):
    """Claude Code refuses http and loopback archive URLs: the default base URL gets no Claude marketplace."""
    from registry.emit.marketplaces import claude_can_fetch

    out = tmp_path / "site"
    build(BuildOptions(source=SKILLS_INDEX, out=out))
    assert not (out / ".claude-plugin" / "marketplace.json").exists()
    assert (out / ".agents" / "plugins" / "marketplace.json").is_file()
    assert claude_can_fetch("https://skills.example.org/registry/")
    for url in ("http://skills.example.org/", "https://localhost:8000/", "https://127.0.0.1/", "https://[::1]/"):
        assert not claude_can_fetch(url), url

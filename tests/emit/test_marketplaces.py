"""The four plugin marketplaces (registry/emit/marketplaces.py), checked as the clients read them.

Claude Code's marketplace is validated against the rules of Claude Code's own schema (CLAUDE_SCHEMA), Codex's
against the fields and values it reads (CODEX_SCHEMA), Cursor's against the JSON Schemas Cursor publishes
(CURSOR_SCHEMA, CURSOR_PLUGIN_SCHEMA) and Copilot CLI's against its plugin reference (COPILOT_SCHEMA,
COPILOT_PLUGIN_SCHEMA). Each archive is fetched by its URL, its sha256 checked, and read the way Claude Code
2.1.331 reads one (`client_unzip`): a zip of stored or deflated entries, the plugin root at the top or in one
wrapping folder, executable bits from Unix modes; every skill file must come out byte for byte as the source has it.

The clients themselves read the same files in tests/interop/test_plugin_clients.py: `claude plugin validate
--strict` on the marketplace and on every plugin, Copilot CLI and Codex adding the marketplace and installing
every plugin. Cursor has no validator that runs here (its CLI is not on npm).
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
    CODEX_POLICY_VALUES,
    COPILOT_MARKETPLACE,
    CURSOR_MARKETPLACE,
    RESERVED_MARKETPLACE_NAMES,
    CodexPolicyError,
    build_zip,
    checked_codex_policy,
    marketplace_name,
    plugin_name,
    with_suffix,
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


# Cursor's published schemas (github.com/cursor/plugins, schemas/marketplace.schema.json, $id
# https://cursor.com/schemas/cursor-plugin/marketplace.json, and schemas/plugin.schema.json, $id
# https://cursor.com/schemas/cursor-plugin/plugin.json), their rules transcribed: no property either does not list
# (additionalProperties false at the top, in `owner`, in each entry and in `author`), an entry only `name`,
# `source`, `description` (and `minClientVersions`, which we do not write), and a plugin name
# `^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`. Narrower than Cursor's where we are: a source is a string (Cursor's also
# takes an object), the form Cursor's own marketplace file uses. The plugin manifest lists more optional fields
# than we write; these are the ones both published versions of it share.
CURSOR_NAME = "^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$"
CURSOR_OWNER = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {"name": {"type": "string", "minLength": 1}, "email": {"type": "string"}},
}
CURSOR_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name", "plugins"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "owner": CURSOR_OWNER,
        "metadata": {"type": "object", "properties": {"description": {"type": "string"}}},
        "plugins": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "source"],
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string", "minLength": 1, "pattern": CURSOR_NAME},
                    "source": {"type": "string", "minLength": 1},
                    "description": {"type": "string"},
                },
            },
        },
    },
}
CURSOR_PLUGIN_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "pattern": CURSOR_NAME},
        "displayName": {"type": "string"},
        "description": {"type": "string"},
        "version": {"type": "string"},
        "author": CURSOR_OWNER,
    },
}
# GitHub Copilot CLI's plugin reference (docs.github.com/copilot/reference/copilot-cli-reference/cli-plugin-reference):
# the marketplace's `name` and each plugin's are kebab-case, at most 64 characters; `owner` `{name, email?}` is
# required; `metadata` is `{description?, version?, pluginRoot?}`; a description is at most 1024 characters. A
# source is a relative path, a GitHub repository, a git URL or an npm package; 1.0.102 refuses the whole file on
# any other kind ("Invalid marketplace.json: plugins.0.source: Invalid input"), so ours must be relative paths.
# Its plugin manifest (read from `.claude-plugin/plugin.json` when no other is there) has the same name and
# description rules, and `author` `{name, email?, url?}`.
COPILOT_NAME = {"type": "string", "pattern": KEBAB, "maxLength": 64}
COPILOT_AUTHOR = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {"name": {"type": "string"}, "email": {"type": "string"}, "url": {"type": "string"}},
}
COPILOT_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name", "owner", "plugins"],
    "additionalProperties": False,
    "properties": {
        "name": COPILOT_NAME,
        "owner": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1}, "email": {"type": "string"}},
        },
        "metadata": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "description": {"type": "string"},
                "version": {"type": "string"},
                "pluginRoot": {"type": "string"},
            },
        },
        "plugins": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "source"],
                "additionalProperties": False,
                "properties": {
                    "name": COPILOT_NAME,
                    "source": {"type": "string", "pattern": r"^\./plugins/[a-z0-9-]+$"},
                    "description": {"type": "string", "maxLength": 1024},
                    "version": {"type": "string"},
                    "author": COPILOT_AUTHOR,
                    "category": {"type": "string"},
                    "keywords": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}
COPILOT_PLUGIN_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": COPILOT_NAME,
        "description": {"type": "string", "maxLength": 1024},
        "version": {"type": "string"},
        "author": COPILOT_AUTHOR,
    },
}  # fmt: skip
# Semantic Versioning 2.0.0's own pattern (semver.org), without build metadata.
SEMVER = (
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?$"
)


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


def cursor(site: Path) -> dict:
    return validated(load_json(site / CURSOR_MARKETPLACE), CURSOR_SCHEMA)


def copilot(site: Path) -> dict:
    return validated(load_json(site / COPILOT_MARKETPLACE), COPILOT_SCHEMA)


MANIFEST_FOLDERS = (".claude-plugin/", ".codex-plugin/", ".cursor-plugin/")


def manifests(site: Path, plugin: dict) -> dict[str, dict]:
    """Each client's manifest in the plugin's archive, by the folder it is in; nothing else is beside skills/."""
    _, files = unpacked(fetched(site, plugin["source"]["url"]))
    assert {name for name in files if not name.startswith("skills/")} == {
        f"{folder}plugin.json" for folder in MANIFEST_FOLDERS
    }
    return {folder.rstrip("/"): json.loads(files[f"{folder}plugin.json"]) for folder in MANIFEST_FOLDERS}


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


def test_every_marketplace_validates_and_lists_the_same_plugins(site):
    claude_plugins = [plugin["name"] for plugin in claude(site)["plugins"]]
    assert len(claude_plugins) == 6 and len(set(claude_plugins)) == len(claude_plugins)
    for other in (codex, cursor, copilot):
        assert [plugin["name"] for plugin in other(site)["plugins"]] == claude_plugins, other.__name__
        assert other(site)["name"] == claude(site)["name"], other.__name__
    assert claude(site)["name"] not in claude_plugins  # the installer stages both under one name


def test_cursor_and_copilot_sources_are_the_folders_the_archives_unpack_into(site):
    """Neither client installs from an archive URL: each source is the folder `plugins/<plugin>` beside the
    marketplace's root, which unzipping the archives there makes (Cursor's written as its own file writes them,
    Copilot's as its documentation does; Copilot reads both the same)."""
    cursor_sources = {plugin["name"]: plugin["source"] for plugin in cursor(site)["plugins"]}
    copilot_sources = {plugin["name"]: plugin["source"] for plugin in copilot(site)["plugins"]}
    for plugin in claude(site)["plugins"]:
        assert {name.split("/", 1)[0] for name in client_unzip(fetched(site, plugin["source"]["url"]))} == {
            plugin["name"]
        }
        assert cursor_sources[plugin["name"]] == f"plugins/{plugin['name']}"
        assert copilot_sources[plugin["name"]] == f"./plugins/{plugin['name']}"


def test_every_plugin_has_each_clients_manifest_with_one_version_that_follows_its_content(site):
    copilot_entries = {plugin["name"]: plugin for plugin in copilot(site)["plugins"]}
    versions = set()
    for plugin in claude(site)["plugins"]:
        found = manifests(site, plugin)
        validated(found[".cursor-plugin"], CURSOR_PLUGIN_SCHEMA)
        validated(found[".claude-plugin"], COPILOT_PLUGIN_SCHEMA)  # what Copilot CLI reads
        assert {manifest["name"] for manifest in found.values()} == {plugin["name"]}
        (version,) = {manifest["version"] for manifest in found.values()}
        assert re_match(SEMVER, version) and version.startswith("0.0.0-c"), version
        assert copilot_entries[plugin["name"]]["version"] == version
        versions.add(version)
    assert len(versions) == 6, "plugins with different content have different versions"


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
        skill_files = {name: data for name, data in files.items() if not name.startswith(MANIFEST_FOLDERS)}
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
    for relative in (CLAUDE_MARKETPLACE, CODEX_MARKETPLACE, CURSOR_MARKETPLACE, COPILOT_MARKETPLACE):
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


def test_names_stay_within_the_64_characters_copilot_cli_takes():
    long = "A Very Long Registry Title " * 5
    assert marketplace_name(long) == kebab_of(long)[:64].rstrip("-") and len(marketplace_name(long)) <= 64
    assert marketplace_name("Awesome Copilot") == "skill-registry"  # Copilot CLI's own marketplace
    publisher = "p" * 80
    assert plugin_name(publisher, "m") == "p" * 64
    assert plugin_name("p" * 64, "p" * 64) == "p" * 57 + "-skills"
    assert with_suffix("a-" * 40, "-2") == ("a-" * 30 + "a") + "-2" and len(with_suffix("a-" * 40, "-2")) <= 64


def kebab_of(text: str) -> str:
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")


def test_every_codex_policy_value_is_one_codex_reads():
    for installation in CODEX_POLICY_VALUES["installation"]:
        for authentication in CODEX_POLICY_VALUES["authentication"]:
            policy = {"installation": installation, "authentication": authentication}
            assert checked_codex_policy("p", policy) == policy
    for bad in ({"installation": "MAYBE", "authentication": "ON_USE"}, {"installation": "available"},
                {"authentication": "ON_USE"}):  # fmt: skip
        with pytest.raises(CodexPolicyError, match=r"plugin 'p': policy .*is not one of"):
            checked_codex_policy("p", bad)


def test_a_policy_codex_would_refuse_fails_the_build_and_leaves_the_served_site(tmp_path, monkeypatch):
    """Codex refuses the whole file on one value it does not know: the build stops instead of writing it."""
    out = tmp_path / "site"
    build_site(SKILLS_INDEX, out)
    before = (out / CODEX_MARKETPLACE).read_bytes()
    monkeypatch.setattr(marketplaces, "CODEX_POLICY", {"installation": "MAYBE", "authentication": "ON_INSTALL"})
    with pytest.raises(CodexPolicyError, match=r"installation 'MAYBE' is not one of NOT_AVAILABLE, AVAILABLE"):
        build(BuildOptions(source=SKILLS_INDEX, out=out, base_url=BASE, clean=True))
    assert (out / CODEX_MARKETPLACE).read_bytes() == before


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
    versions = {plugin["name"]: plugin["version"] for plugin in copilot(out)["plugins"]}
    build_site(tree, out)
    assert made == ["datakit"]
    again = {plugin["name"]: plugin["version"] for plugin in copilot(out)["plugins"]}
    assert [name for name in sorted(again) if again[name] != versions[name]] == ["datakit"]
    after = {path.name: path.read_bytes() for path in (out / "plugins").iterdir()}
    assert sorted(after) == sorted(before)
    assert [name for name in sorted(after) if after[name] != before[name]] == ["datakit.zip"]
    clean = build_site(tree, tmp_path / "clean")
    for relative in (CLAUDE_MARKETPLACE, COPILOT_MARKETPLACE, *(f"plugins/{name}" for name in after)):
        assert (out / relative).read_bytes() == (clean / relative).read_bytes(), relative


def test_no_claude_marketplace_for_a_site_claude_code_cannot_download_from(tmp_path):
    """Claude Code refuses http and loopback archive URLs: the default base URL gets no Claude marketplace."""
    from registry.emit.marketplaces import claude_can_fetch

    out = tmp_path / "site"
    build(BuildOptions(source=SKILLS_INDEX, out=out))
    assert not (out / ".claude-plugin" / "marketplace.json").exists()
    for relative in (CODEX_MARKETPLACE, CURSOR_MARKETPLACE, COPILOT_MARKETPLACE):  # they name no URL
        assert (out / relative).is_file(), relative
    assert claude_can_fetch("https://skills.example.org/registry/")
    for url in ("http://skills.example.org/", "https://localhost:8000/", "https://127.0.0.1/", "https://[::1]/"):
        assert not claude_can_fetch(url), url

"""Plugin marketplaces for Claude Code, Codex, Cursor and GitHub Copilot CLI, all from the same plugins of one build.

One plugin per publisher: a publisher is who a user decides to trust, so installing one plugin trusts
one party, and every skill in it was reviewed under that publisher's namespace (check-pr). A plugin per
skill would repeat the discovery index; a plugin per category would mix publishers in one install.

- `plugins/<plugin>.zip`: one deterministic zip per plugin, holding one top-level folder `<plugin>/`
  with `.claude-plugin/plugin.json`, `.codex-plugin/plugin.json`, `.cursor-plugin/plugin.json` and
  `skills/<discovery name>/...`, each skill's files byte for byte (Copilot CLI reads the Claude manifest).
  Claude Code's `archive` source reads only zip (2.1.331: "HTTPS URL of a zip archive containing the
  plugin", stored or deflated entries, a single wrapping folder stripped, the executable bits taken from
  Unix modes, refused past 50:1 compression). A plugin's archive is made again only when one of its skills'
  files or this code changed; otherwise last build's file is kept. Every manifest carries the same
  `version`, `0.0.0-c` and 12 hex digits of a digest of everything else the plugin holds: Claude Code keeps
  an installed plugin until its version string changes, so the version changes exactly when the plugin does.
- `.claude-plugin/marketplace.json`: a marketplace added by URL downloads only this file, so each
  plugin's source is `{"source": "archive", "url": <absolute>, "sha256": <hex>}`. Claude Code refuses an
  archive URL that is not https or points at a loopback host, so only a site built with an https
  `--base-url` can be installed from. Lifecycle renames that move every skill of one publisher to another
  become `renames` (plugin names are what users enable).
- `.agents/plugins/marketplace.json` (Codex), `.cursor-plugin/marketplace.json` (Cursor) and
  `.github/plugin/marketplace.json` (Copilot CLI): none of these clients installs from an archive URL.
  Codex and Copilot CLI read a marketplace from a git repository or a local folder, Cursor from a git
  repository, each plugin's source a folder relative to the marketplace's root; so each entry's source is
  `plugins/<plugin>`: the folder the plugin's archive unpacks into beside the file (README "Plugin
  marketplaces"). Copilot CLI rejects the whole file when one source is of a kind it does not know (an
  `archive` or `git-subdir` one), and reads `.github/plugin/` before `.claude-plugin/`, so it never sees
  the Claude Code file. Codex rejects the whole file on a `policy` value it does not know: every policy is
  checked against Codex's values first (`checked_codex_policy`), and another value fails the build.

Only skills the discovery index lists (they have a discovery name) go in; withdrawn skills never do.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import urlparse

from registry.emit.files import served_paths
from registry.emit.output import SiteOutput
from registry.emit.writer import SiteWriter, dump_json

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

CLAUDE_MARKETPLACE = ".claude-plugin/marketplace.json"
CODEX_MARKETPLACE = ".agents/plugins/marketplace.json"
CURSOR_MARKETPLACE = ".cursor-plugin/marketplace.json"
# Copilot CLI looks for `marketplace.json`, `.plugin/marketplace.json`, `.github/plugin/marketplace.json`, then
# `.claude-plugin/marketplace.json`, and reads the first it finds (docs.github.com, "GitHub Copilot CLI plugin
# reference", File locations).
COPILOT_MARKETPLACE = ".github/plugin/marketplace.json"
PLUGINS_DIR = "plugins"
FALLBACK_MARKETPLACE_NAME = "skill-registry"
FALLBACK_CODEX_CATEGORY = "Productivity"
STATE_KEY = "marketplaces"
ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: no build's clock in the bytes
# Claude Code refuses a zip whose unpacked size is over 50 times its own (a zip bomb guard); a plugin that
# deflates past this margin below it is stored instead.
MAX_DEFLATE_RATIO = 40
# Claude Code refuses these marketplace names (code.claude.com/docs/en/plugins/marketplace-reference),
# and any name that reads as Anthropic's own.
RESERVED_MARKETPLACE_NAMES = frozenset({
    "claude-code-marketplace", "claude-code-plugins", "claude-plugins-official", "anthropic-marketplace",
    "anthropic-plugins", "agent-skills", "anthropic-agent-skills", "life-sciences", "knowledge-work-plugins",
    "claude-for-legal", "claude-for-financial-services", "financial-services-plugins", "first-party-plugins",
    "claude-tag-plugins", "claude-community", "claude-plugins-community", "healthcare",
    "anthropic-plugin-directory", "claude-plugin-directory",
})  # fmt: skip
IMPERSONATING_WORDS = ("claude", "anthropic", "official")
# The marketplaces Copilot CLI has registered before any is added: one of the same name could not be added.
COPILOT_DEFAULT_MARKETPLACES = frozenset({"copilot-plugins", "awesome-copilot"})
# Copilot CLI: marketplace and plugin names are kebab-case, at most 64 characters.
MAX_NAME = 64
# Codex 0.169.0 (codex-rs/core-plugins/src/marketplace.rs, MarketplacePluginInstallPolicy and
# MarketplacePluginAuthPolicy) reads these values only; any other makes it refuse the whole file ("unknown
# variant `MAYBE`, expected one of `NOT_AVAILABLE`, `AVAILABLE`, `INSTALLED_BY_DEFAULT`"), every plugin in it.
CODEX_POLICY_VALUES = {
    "installation": ("NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"),
    "authentication": ("ON_INSTALL", "ON_USE"),
}
CODEX_POLICY = {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}


def kebab(text: str, limit: int = MAX_NAME) -> str:
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:limit].rstrip("-")


def publisher_of(skill_id: str) -> str:
    return skill_id.split("/", 1)[0]


def marketplace_name(title: str) -> str:
    """The site title as a kebab-case marketplace name, unless Claude Code would refuse or misread it."""
    name = kebab(title)
    refused = RESERVED_MARKETPLACE_NAMES | COPILOT_DEFAULT_MARKETPLACES
    if not name or name in refused or any(word in name for word in IMPERSONATING_WORDS):
        return FALLBACK_MARKETPLACE_NAME
    return name


def plugin_name(publisher: str, marketplace: str) -> str:
    # A plugin named as its marketplace fails to install (the installer stages both under one name).
    name = kebab(publisher) or "skills"
    return with_suffix(name, "-skills") if name == marketplace else name


def with_suffix(name: str, suffix: str) -> str:
    """`name` + `suffix`, shortened first so that the whole stays within MAX_NAME."""
    return name[: MAX_NAME - len(suffix)].rstrip("-") + suffix


@dataclass(frozen=True)
class PluginSkill:
    """One skill as its publisher's plugin holds it (the per-skill hook's value)."""

    skill_id: str
    publisher: str
    name: str  # its discovery name: the folder under skills/
    description: str
    category: str | None
    members: tuple[tuple[str, bytes, bool], ...]  # (path in the skill, bytes, executable)
    digest: str  # of its name and members: all it puts into its plugin's archive


def members_digest(name: str, members: Sequence[tuple[str, bytes, bool]]) -> str:
    digest = hashlib.sha256(name.encode("utf-8") + b"\0")
    for path, data, executable in members:
        digest.update(b"%s\0%d\0%d\0" % (path.encode("utf-8"), executable, len(data)))
        digest.update(data)
    return digest.hexdigest()


@dataclass(frozen=True)
class Plugin:
    name: str
    publisher: str
    skills: tuple[str, ...]
    category: str | None
    archive: str  # site path of its archive
    sha256: str  # hex, of the archive's bytes
    version: str  # as every manifest in the archive says (plugin_version)


def plugin_skill(context: SkillContext) -> PluginSkill | None:
    skill = context.skill
    if context.discovery_name is None or skill.id in context.lifecycle.withdrawn:
        return None
    paths = served_paths(skill, context.contents)
    members = tuple((path, context.contents[path], path in context.executables) for path in paths)
    return PluginSkill(
        skill.id, publisher_of(skill.id), context.discovery_name, skill.description or "", skill.category, members,
        members_digest(context.discovery_name, members),
    )  # fmt: skip


def build_zip(members: Iterable[tuple[str, bytes, bool]]) -> bytes:
    """members: (path, bytes, executable). Same files, same bytes: entries sorted by path, fixed timestamps,
    Unix modes (Claude Code sets the executable bits from them), deflated (or stored when deflating would
    trip the client's zip bomb guard), never zip64."""
    ordered = sorted(members, key=lambda member: member[0].encode("utf-8"))
    deflated = zip_of(ordered, zipfile.ZIP_DEFLATED)
    if sum(len(data) for _, data, _ in ordered) > MAX_DEFLATE_RATIO * len(deflated):
        return zip_of(ordered, zipfile.ZIP_STORED)
    return deflated


def zip_of(ordered: Sequence[tuple[str, bytes, bool]], method: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", allowZip64=False) as archive:
        for path, data, executable in ordered:
            info = zipfile.ZipInfo(path, date_time=ZIP_TIMESTAMP)
            info.create_system = 3  # Unix: the client reads modes only from entries made on Unix
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = method
            archive.writestr(info, data, compresslevel=9 if method == zipfile.ZIP_DEFLATED else None)
    return buffer.getvalue()


def plugin_description(publisher: str, names: Sequence[str]) -> str:
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return f"{len(names)} skill{'s' if len(names) != 1 else ''} published by {publisher}: {shown}."


def plugin_manifests(
    name: str, publisher: str, skills: Sequence[PluginSkill], version: str | None
) -> list[tuple[str, bytes]]:
    """(path in the plugin, JSON bytes) of each client's manifest; without `version` when it is None."""
    description = plugin_description(publisher, [skill.name for skill in skills])
    versioned = {"version": version} if version is not None else {}
    author = {"name": publisher}
    claude = {"name": name, **versioned, "description": description, "author": author}
    codex = {
        "name": name,
        **versioned,
        "description": description,
        "author": author,
        "skills": "./skills/",
        "interface": {"displayName": publisher, "shortDescription": description, "developerName": publisher},
    }
    # Cursor's schema (cursor.com/schemas/cursor-plugin/plugin.json) allows no field it does not list.
    cursor = {"name": name, "displayName": publisher, **versioned, "description": description, "author": author}
    return [
        (".claude-plugin/plugin.json", dump_json(claude, pretty=True)),
        (".codex-plugin/plugin.json", dump_json(codex, pretty=True)),
        (".cursor-plugin/plugin.json", dump_json(cursor, pretty=True)),
    ]


def plugin_version(name: str, publisher: str, skills: Sequence[PluginSkill]) -> str:
    """A semantic version that changes exactly when anything else the plugin holds does: its manifests without
    the version, and each skill's name and files (PluginSkill.digest). Claude Code keeps an installed plugin
    until its manifest's version string changes, and so updates it exactly then. The letter before the digits
    keeps the pre-release part valid semver (an all-digit part may not start with 0)."""
    digest = hashlib.sha256()
    for path, data in plugin_manifests(name, publisher, skills, None):
        digest.update(b"%s\0%d\0" % (path.encode("utf-8"), len(data)) + data)
    for skill in skills:
        digest.update(skill.digest.encode("ascii") + b"\0")
    return f"0.0.0-c{digest.hexdigest()[:12]}"


def plugin_archive(name: str, publisher: str, skills: Sequence[PluginSkill]) -> bytes:
    version = plugin_version(name, publisher, skills)
    members = [(f"{name}/{path}", data, False) for path, data in plugin_manifests(name, publisher, skills, version)]
    for skill in skills:
        members += [
            (f"{name}/skills/{skill.name}/{path}", data, executable) for path, data, executable in skill.members
        ]
    return build_zip(members)


def by_publisher(results: Iterable[PluginSkill | None]) -> Iterator[list[PluginSkill]]:
    """Runs of one publisher's skills: results come in id order, and a publisher is its ids' first segment."""
    group: list[PluginSkill] = []
    for result in results:
        if result is None:
            continue
        if group and group[0].publisher != result.publisher:
            yield group
            group = []
        group.append(result)
    if group:
        yield group


def most_common_category(skills: Sequence[PluginSkill]) -> str | None:
    counts = Counter(skill.category for skill in skills if skill.category)
    return min(counts, key=lambda category: (-counts[category], category)) if counts else None


def archive_key(code: str, name: str, publisher: str, skills: Sequence[PluginSkill]) -> str:
    """What a plugin's archive is made from: the code that makes it and each of its skills' files."""
    held = sorted((skill.skill_id, skill.digest) for skill in skills)
    return hashlib.sha256(repr((code, name, publisher, held)).encode("utf-8")).hexdigest()


def kept_archive(writer: SiteWriter, saved: dict, path: str, key: str) -> str | None:
    """The sha256 of last build's archive at `path` when it was made from what `key` names and is still there."""
    kept = saved.get(path)
    if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == key and isinstance(writer, SiteOutput)):
        return None
    return kept[1] if writer.keep(path, kept[1]) else None


def emit_plugins(
    writer: SiteWriter,
    marketplace: str,
    results: Iterable[PluginSkill | None],
    saved: dict[str, tuple[str, str]],
    code: str,
) -> tuple[list[Plugin], dict[str, tuple[str, str]]]:
    """The plugins and their archives; `saved` is last build's archives (path -> (key, sha256)): one whose key
    is unchanged is kept without being made again. Returns the plugins and this build's archives."""
    plugins: list[Plugin] = []
    archives: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()
    for skills in by_publisher(results):
        publisher = skills[0].publisher
        name = base = plugin_name(publisher, marketplace)
        suffix = 2
        while name in taken:  # two namespaces that differ only in punctuation ("a.b", "a-b"), or past MAX_NAME
            name, suffix = with_suffix(base, f"-{suffix}"), suffix + 1
        taken.add(name)
        path = f"{PLUGINS_DIR}/{name}.zip"
        key = archive_key(code, name, publisher, skills)
        sha256 = kept_archive(writer, saved, path, key)
        if sha256 is None:
            archive = plugin_archive(name, publisher, skills)
            writer.write_bytes(path, archive)
            sha256 = hashlib.sha256(archive).hexdigest()
        archives[path] = (key, sha256)
        plugins.append(
            Plugin(
                name, publisher, tuple(s.name for s in skills), most_common_category(skills), path, sha256,
                plugin_version(name, publisher, skills),
            )
        )  # fmt: skip
    return plugins, archives


def plugin_renames(renamed: dict[str, str], plugins: Sequence[Plugin], marketplace: str) -> dict[str, str]:
    """Skill renames that moved a publisher's skills to another publisher, as plugin renames: only when the old
    plugin is gone and every rename out of it lands in the same plugin (a rename moves all its installs)."""
    current = {plugin.publisher: plugin.name for plugin in plugins}
    names = set(current.values())
    targets: dict[str, set[str]] = {}
    for old_id, new_id in sorted(renamed.items()):
        old_plugin = plugin_name(publisher_of(old_id), marketplace)
        new_plugin = current.get(publisher_of(new_id))
        if new_plugin is not None and old_plugin != new_plugin and old_plugin not in names:
            targets.setdefault(old_plugin, set()).add(new_plugin)
    return {old: next(iter(new)) for old, new in sorted(targets.items()) if len(new) == 1}


def claude_can_fetch(site_url: str) -> bool:
    """Whether Claude Code (2.1.331) would download archives from this site: https, not a loopback or local host."""
    parts = urlparse(site_url)
    host = (parts.hostname or "").lower()
    local = host in ("localhost", "") or host.endswith(".localhost") or host.startswith(("127.", "169.254.", "[::1"))
    return parts.scheme == "https" and not local and host != "::1"


def claude_marketplace(context: SiteContext, name: str, plugins: Sequence[Plugin]) -> dict:
    marketplace: dict = {
        "name": name,
        "owner": {"name": context.title},
        "metadata": {"description": marketplace_description(context)},
        "plugins": [
            {
                "name": plugin.name,
                "displayName": plugin.publisher,
                "description": plugin_description(plugin.publisher, plugin.skills),
                "source": {"source": "archive", "url": context.urls.absolute(plugin.archive), "sha256": plugin.sha256},
                "author": {"name": plugin.publisher},
                **({"category": plugin.category} if plugin.category else {}),
                "keywords": list(plugin.skills[:20]),
            }
            for plugin in plugins
        ],
    }
    renames = plugin_renames(dict(context.lifecycle.renamed), plugins, name)
    if renames:
        marketplace["renames"] = renames
    return marketplace


class CodexPolicyError(ValueError):
    """A Codex `policy` value Codex does not read: the build stops rather than write a file Codex refuses whole."""


def checked_codex_policy(plugin: str, policy: Mapping[str, str]) -> dict[str, str]:
    """`policy`'s installation and authentication when Codex reads both values; otherwise a CodexPolicyError
    naming the plugin, the field, the value and the values Codex reads. Codex refuses the whole marketplace file
    on one unknown value (every plugin in it, not only this one), and leaving this plugin out would hide it
    without a word, so neither is written: the build fails, and the site it would have replaced stays served."""
    problems = [
        f"{field} {policy.get(field)!r} is not one of {', '.join(allowed)}"
        for field, allowed in CODEX_POLICY_VALUES.items()
        if policy.get(field) not in allowed
    ]
    if problems:
        raise CodexPolicyError(
            f"Codex marketplace ({CODEX_MARKETPLACE}), plugin {plugin!r}: policy " + "; ".join(problems)
            + ". Codex refuses the whole file on such a value, so it was not written."
        )  # fmt: skip
    return {field: policy[field] for field in CODEX_POLICY_VALUES}


def codex_marketplace(context: SiteContext, name: str, plugins: Sequence[Plugin]) -> dict:
    return {
        "name": name,
        "interface": {"displayName": context.title},
        "plugins": [
            {
                "name": plugin.name,
                "source": {"source": "local", "path": f"./{PLUGINS_DIR}/{plugin.name}"},
                "policy": checked_codex_policy(plugin.name, CODEX_POLICY),
                "category": (plugin.category or FALLBACK_CODEX_CATEGORY).replace("-", " ").title(),
            }
            for plugin in plugins
        ],
    }


def cursor_marketplace(context: SiteContext, name: str, plugins: Sequence[Plugin]) -> dict:
    """Cursor's marketplace (schema cursor.com/schemas/cursor-plugin/marketplace.json: no field it does not list,
    an entry only `name`, `source`, `description`): each source a folder relative to the marketplace's root,
    written as Cursor's own marketplace writes them (no leading `./`). Cursor installs from a git repository,
    and an entry whose source is a URL installs nothing, so there is no archive here."""
    entries = [
        {
            "name": plugin.name,
            "source": f"{PLUGINS_DIR}/{plugin.name}",
            "description": plugin_description(plugin.publisher, plugin.skills),
        }
        for plugin in plugins
    ]
    return _relative_marketplace(context, name, entries)


def copilot_marketplace(context: SiteContext, name: str, plugins: Sequence[Plugin]) -> dict:
    """Copilot CLI's marketplace: each source the relative path of a folder (the only kind of source, beside
    GitHub repositories, git URLs and npm packages, that it reads; one of another kind makes it refuse the file)."""
    return _relative_marketplace(
        context,
        name,
        [
            {
                "name": plugin.name,
                "source": f"./{PLUGINS_DIR}/{plugin.name}",
                "description": plugin_description(plugin.publisher, plugin.skills),
                "version": plugin.version,
                "author": {"name": plugin.publisher},
                **({"category": plugin.category} if plugin.category else {}),
                "keywords": list(plugin.skills[:20]),
            }
            for plugin in plugins
        ],
    )


def _relative_marketplace(context: SiteContext, name: str, entries: list[dict]) -> dict:
    """The envelope Cursor's and Copilot CLI's marketplaces share around their plugin entries."""
    return {
        "name": name,
        "owner": {"name": context.title},
        "metadata": {"description": marketplace_description(context)},
        "plugins": entries,
    }


def marketplace_description(context: SiteContext) -> str:
    return f"Every publisher's skills in {context.title}, one plugin per publisher."


@dataclass(frozen=True)
class Marketplaces:
    """Per skill its files as its publisher's plugin holds them; per site the archives and the four marketplaces."""

    name: ClassVar[str] = "marketplaces"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> PluginSkill | None:
        return plugin_skill(context)

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[PluginSkill | None]) -> None:
        name = marketplace_name(context.title)
        saved = context.state.meta(STATE_KEY)
        plugins, archives = emit_plugins(writer, name, results, saved if isinstance(saved, dict) else {}, context.code)
        codex = codex_marketplace(context, name, plugins)  # a CodexPolicyError leaves the served site as it was
        context.state.set_meta(STATE_KEY, archives)
        # Claude Code refuses an archive URL that is not https or points at a loopback host: with a base URL
        # such as the default http://localhost:8000/ the file would list plugins no client can install.
        if claude_can_fetch(context.options.site_url):
            writer.write_json(CLAUDE_MARKETPLACE, claude_marketplace(context, name, plugins), pretty=True)
        writer.write_json(CODEX_MARKETPLACE, codex, pretty=True)
        writer.write_json(CURSOR_MARKETPLACE, cursor_marketplace(context, name, plugins), pretty=True)
        writer.write_json(COPILOT_MARKETPLACE, copilot_marketplace(context, name, plugins), pretty=True)

"""lifecycle.yaml: deprecations, renames, withdrawals and yanked versions, declared as data.

Owners change their skills' lifecycle by pull request (check-pr verifies they own the namespaces
an entry touches). The file sits beside registry.yaml:

    deprecated:
      acme/old-linter: {reason: "Replaced by lint-pro", replacement: acme/lint-pro}
    renamed:
      acme/formatter: acme/formatter-pro      # old id -> new id; old pages and raw files redirect
    withdrawn:
      acme/leaky: {reason: "Sent environment variables to a remote host"}
    yanked:
      acme/lint-pro: {"2.1.0": "Broke on Windows paths"}

A deprecated skill stays listed with a banner pointing at its replacement. A renamed skill's old
page and raw-file URLs keep working (Netlify redirects, plus an HTML page that links onward). A
withdrawn skill is gone from every index and its page becomes a tombstone with the reason. A
yanked version stays in the history, marked; when it is the current version the skill is not
offered for installation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from registry.parse import safe_yaml
from registry.policy import PolicyError
from registry.rules.base import I, Rule, W

if TYPE_CHECKING:
    from registry.emit.urls import FileHomes

LIFECYCLE_FILE = "lifecycle.yaml"

WITHDRAWN = Rule(
    "Y001",
    I,
    "withdrawn",
    "withdrawn by its owner: {reason}; it is left out of every index and its page is a tombstone",
    "Nothing to do; remove the folder when convenient (the tombstone stays while lifecycle.yaml lists it).",
    "withdrawn: {acme/leaky: {reason: ...}}",
)
DEPRECATED = Rule(
    "Y002",
    W,
    "deprecated",
    "deprecated: {reason}{replacement}",
    "Use the replacement; the skill stays listed so that existing links keep working.",
    "deprecated: {acme/old: {reason: ..., replacement: acme/new}}",
)
CURRENT_YANKED = Rule(
    "Y003",
    W,
    "current version yanked",
    "version {version} is yanked ({reason}); the skill is not offered for installation until a new version",
    "Publish a fixed version with a higher number.",
    'yanked: {acme/lint: {"2.1.0": broke on Windows}}',
)
RULES = (WITHDRAWN, DEPRECATED, CURRENT_YANKED)
_ID = {"type": "string", "pattern": "^[a-z0-9_.-]+(/[a-z0-9_.-]+)*$"}
_REASON = {"type": "string", "minLength": 3}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "deprecated": {
            "type": "object", "propertyNames": _ID,
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["reason"],
                "properties": {"reason": _REASON, "replacement": _ID},
            },
        },
        "renamed": {"type": "object", "propertyNames": _ID, "additionalProperties": _ID},
        "withdrawn": {
            "type": "object", "propertyNames": _ID,
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["reason"],
                "properties": {"reason": _REASON},
            },
        },
        "yanked": {
            "type": "object", "propertyNames": _ID,
            "additionalProperties": {"type": "object", "minProperties": 1, "additionalProperties": _REASON},
        },
    },
}  # fmt: skip


@dataclass(frozen=True)
class Lifecycle:
    deprecated: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    renamed: Mapping[str, str] = field(default_factory=dict)
    withdrawn: Mapping[str, str] = field(default_factory=dict)  # id -> reason
    yanked: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # id -> version -> reason

    def entries(self) -> dict[str, Any]:
        """Every entry by the skill ids it concerns, for reviewing who changed what."""
        touched: dict[str, Any] = {}
        for skill_id, entry in self.deprecated.items():
            touched[f"deprecated:{skill_id}"] = (entry, [skill_id])
        for old, new in self.renamed.items():
            touched[f"renamed:{old}"] = (new, [old, new])
        for skill_id, reason in self.withdrawn.items():
            touched[f"withdrawn:{skill_id}"] = (reason, [skill_id])
        for skill_id, versions in self.yanked.items():
            touched[f"yanked:{skill_id}"] = (dict(versions), [skill_id])
        return touched


def find_lifecycle(policy_path: Path | None, source: Path) -> Path | None:
    for folder in ([policy_path.parent] if policy_path else []) + [source]:
        candidate = folder / LIFECYCLE_FILE
        if candidate.is_file():
            return candidate
    return None


def load_lifecycle(path: Path | None) -> Lifecycle:
    if path is None:
        return Lifecycle()
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
        safe_yaml.check_bounds(text, max_depth=8, max_nodes=200_000)
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError, safe_yaml.YamlLimitError) as err:
        raise PolicyError(shown, [f"cannot read: {err}"]) from err
    data = _stringify(data)
    import jsonschema  # only when a lifecycle file is read: a build that finds nothing changed never needs it

    problems = [
        f"{'.'.join(str(p) for p in e.absolute_path) or '(top level)'}: {e.message}"
        for e in sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data), key=lambda e: list(map(str, e.path)))
    ]
    if problems:
        raise PolicyError(shown, problems)
    renamed = dict(data.get("renamed") or {})
    for old, new in renamed.items():
        if new in renamed:
            problems.append(f"renamed.{old}: '{new}' is itself renamed; point '{old}' at the final id")
        if old == new:
            problems.append(f"renamed.{old}: a skill cannot be renamed to itself")
    if problems:
        raise PolicyError(shown, problems)
    return Lifecycle(
        deprecated=dict(data.get("deprecated") or {}),
        renamed=renamed,
        withdrawn={k: v["reason"] for k, v in (data.get("withdrawn") or {}).items()},
        yanked={k: dict(v) for k, v in (data.get("yanked") or {}).items()},
    )


def check_against(lifecycle: Lifecycle, skill_ids: set[str], source: str) -> list[str]:
    """Entries that name skills the registry does not have (or still has, for renames)."""
    problems = []
    for skill_id, entry in lifecycle.deprecated.items():
        if skill_id not in skill_ids:
            problems.append(f"deprecated.{skill_id}: no such skill in {source}")
        replacement = entry.get("replacement")
        if replacement and replacement not in skill_ids:
            problems.append(f"deprecated.{skill_id}.replacement: no such skill '{replacement}'")
    for old, new in lifecycle.renamed.items():
        if old in skill_ids:
            problems.append(f"renamed.{old}: a skill still lives at the old id; remove it or the rename")
        if new not in skill_ids:
            problems.append(f"renamed.{old}: the new id '{new}' is not a skill")
    for skill_id in lifecycle.yanked:
        if skill_id not in skill_ids:
            problems.append(f"yanked.{skill_id}: no such skill in {source}")
    return problems


def _stringify(value: Any) -> Any:
    """YAML reads `2.1.0` as text but `1.0` as a float: versions and reasons are text."""
    if isinstance(value, dict):
        return {str(k): _stringify(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stringify(v) for v in value]
    return value if value is None or isinstance(value, str) else str(value)


def apply_lifecycle(skills: list, lifecycle: Lifecycle) -> None:
    """Findings that tell each skill's page and report what its owner declared."""
    for skill in skills:
        path = skill.location.skill_md_path
        if skill.id in lifecycle.withdrawn:
            skill.findings.append(WITHDRAWN.at(path, None, None, reason=lifecycle.withdrawn[skill.id]))
        entry = lifecycle.deprecated.get(skill.id)
        if entry:
            replacement = f"; use {entry['replacement']} instead" if entry.get("replacement") else ""
            skill.findings.append(DEPRECATED.at(path, None, None, reason=entry["reason"], replacement=replacement))
        yanked = lifecycle.yanked.get(skill.id, {})
        if skill.version and skill.version in yanked:
            skill.findings.append(
                CURRENT_YANKED.at(path, None, None, version=skill.version, reason=yanked[skill.version])
            )


def redirects_file(lifecycle: Lifecycle, homes: Mapping[str, FileHomes]) -> str:
    """Netlify `_redirects`: renamed skills' pages and raw files move permanently.

    `homes` holds, for every new id, where its files live now (emit/urls.py), so each old file URL
    leads straight to the one place the file is served.
    """
    lines = ["# Generated from lifecycle.yaml: renamed skills keep their old addresses."]
    for old, new in sorted(lifecycle.renamed.items()):
        lines.append(f"/skills/{old}/*  /skills/{new}/:splat  301")
        lines += [f"/{source}  /{destination}  301" for source, destination in homes[new].moved_from(old)]
    return "\n".join(lines) + "\n"

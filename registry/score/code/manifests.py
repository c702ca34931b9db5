"""Package manifests: package.json scripts and dependencies, requirements files, pyproject.toml.

Install-time hooks (preinstall, install, postinstall, prepare) are uses of kind install with
detail "hook"; every script's command is read by the shell reader on its own line of the file.
Dependencies become install uses, pinned when the version is exact (a lockfile beside
package.json pins them all), unpinned for a range, url for git, URL or local archive sources.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import PurePosixPath

from registry.score.card import INSTALL
from registry.score.code import shell
from registry.score.code.model import Facts

HOOKS = frozenset({"preinstall", "install", "postinstall", "prepare", "prepublish", "preprepare", "postprepare"})
LOCKFILES = ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock")
_EXACT = re.compile(r"^=?v?\d+\.\d+\.\d+(?:[-+][\w.]+)?$")
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][\w.-]*)(\[[^\]]*\])?\s*(.*)$")


def is_manifest(name: str) -> bool:
    base = PurePosixPath(name).name.lower()
    return (
        base == "package.json" or base == "pyproject.toml" or bool(re.match(r"^requirements[\w.-]*\.(?:txt|in)$", base))
    )


def analyse(facts: Facts, names: frozenset[str]) -> None:
    base = PurePosixPath(facts.unit.name).name.lower()
    if base == "package.json":
        _package_json(facts, names)
    elif base == "pyproject.toml":
        _pyproject(facts)
    else:
        _requirements(facts)


def _row_of(lines: list[str], needle: str, start: int = 0) -> int:
    for index in range(start, len(lines)):
        if needle in lines[index]:
            return index
    return 0


def _package_json(facts: Facts, names: frozenset[str]) -> None:
    data = json.loads(facts.unit.text)
    facts.parser = "json"
    if not isinstance(data, dict):
        return
    lines = facts.unit.text.split("\n")
    folder = str(PurePosixPath(facts.unit.name).parent)
    locked = any((f"{folder}/{lock}" if folder != "." else lock) in names for lock in LOCKFILES)
    scripts = data.get("scripts")
    if isinstance(scripts, dict):
        section = _row_of(lines, '"scripts"')
        for key, command in list(scripts.items())[:200]:
            if not isinstance(command, str):
                continue
            row = _row_of(lines, json.dumps(key), section)
            if key in HOOKS:
                facts.use(INSTALL, f"npm-script:{key}", row, "hook")
            shell.analyse(facts, command[:20_000], row, 0, 1)
    for field in ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies"):
        deps = data.get(field)
        if not isinstance(deps, dict):
            continue
        section = _row_of(lines, json.dumps(field))
        for name, version in list(deps.items())[:500]:
            if not isinstance(version, str):
                continue
            row = _row_of(lines, json.dumps(name), section)
            if re.match(r"^(?:git\+|git:|https?:|file:|github:|link:|[\w.-]+/[\w.-]+(?:#.*)?$)", version):
                detail = "url"
            elif locked or _EXACT.match(version.strip()):
                detail = "pinned"
            else:
                detail = "unpinned"
            facts.use(INSTALL, f"npm:{name}", row, detail)


def _requirement_detail(spec: str) -> str:
    spec = spec.split(";", 1)[0].split("#", 1)[0].strip()
    if spec.startswith("@") or "://" in spec:
        return "url"
    if re.match(r"^===?\s*[\w.+!-]+$", spec) and "*" not in spec:
        return "pinned"
    return "unpinned"


def _requirements(facts: Facts) -> None:
    facts.parser = "requirements"
    for row, raw in enumerate(facts.unit.text.split("\n")[:5000]):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(
            (
                "-r",
                "-c",
                "--requirement",
                "--constraint",
                "--index-url",
                "--extra-index-url",
                "-i ",
                "--find-links",
                "-f ",
                "--hash",
                "--trusted-host",
                "--no-binary",
                "--only-binary",
            )
        ):
            continue
        if line.startswith(("-e ", "--editable")) or re.match(r"^(?:git\+|https?://|file:|\./|\.\./|/)", line):
            target = line.split(None, 1)[-1]
            name = re.search(r"#egg=([\w.-]+)", target)
            facts.use(INSTALL, f"pip:{name.group(1) if name else target[:120]}", row, "url")
            continue
        match = _REQUIREMENT.match(line)
        if match:
            facts.use(INSTALL, f"pip:{match.group(1)}", row, _requirement_detail(match.group(3)))


def _pyproject(facts: Facts) -> None:
    data = tomllib.loads(facts.unit.text)
    facts.parser = "toml"
    lines = facts.unit.text.split("\n")
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    specs: list[str] = []
    deps = project.get("dependencies")
    if isinstance(deps, list):
        specs += [d for d in deps if isinstance(d, str)]
    optional = project.get("optional-dependencies")
    if isinstance(optional, dict):
        for group in optional.values():
            if isinstance(group, list):
                specs += [d for d in group if isinstance(d, str)]
    for spec in specs[:500]:
        match = _REQUIREMENT.match(spec)
        if match:
            row = _row_of(lines, spec.split(";")[0].strip()[:40])
            facts.use(INSTALL, f"pip:{match.group(1)}", row, _requirement_detail(match.group(3)))
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    poetry = tool.get("poetry") if isinstance(tool.get("poetry"), dict) else {}
    poetry_deps = poetry.get("dependencies")
    if isinstance(poetry_deps, dict):
        section = _row_of(lines, "[tool.poetry.dependencies]")
        for name, version in list(poetry_deps.items())[:500]:
            if name == "python":
                continue
            row = _row_of(lines, name, section)
            if isinstance(version, dict):
                detail = "url" if {"git", "url", "path"} & version.keys() else _poetry(str(version.get("version", "")))
            else:
                detail = _poetry(str(version))
            facts.use(INSTALL, f"pip:{name}", row, detail)


def _poetry(version: str) -> str:
    return "pinned" if re.match(r"^=?=?\s*\d+(?:\.\d+)*$", version.strip()) else "unpinned"

"""Findings as SARIF 2.1.0, for GitHub code scanning and every other SARIF reader.

`validate --format sarif` prints one log with one run. Its tool lists each rule that has a finding,
from the rule catalogue (registry/reference/catalog.py): title, what it reports, the fix as help, the
default level, tags (the catalogue area; for risk rules "security", the attack families and the
OWASP Agentic Skills Top 10 category from registry/score/owasp.py) and, for risk rules, the
`security-severity` GitHub code scanning orders alerts by. Each result has the rule, the level of
the finding itself (a policy can change it), the message with its fix, the file relative to the
repository root (`%SRCROOT%`), the line and column when known, the other end of a flow as a related
location when the message names one, and a fingerprint that follows the finding across commits
(rule, file and the matched text, never the line number).

The output is checked against the OASIS SARIF 2.1.0 schema in tests/test_sarif.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from registry import __version__
from registry.model import Finding, Severity
from registry.rules.base import Rule

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL_NAME = "skill-registry"
INFORMATION_URI = "https://skill-registry.dev/"  # the project's namespace, as in schema/index.schema.json
SRCROOT = "%SRCROOT%"
FINGERPRINT = "skillRegistry/v1"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SECURITY_SEVERITY = {"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "2.0"}
_MEMBER = "!/"  # "assets/tool.zip!/setup.py": a member of an archive or document (registry/score)
_URI_SAFE = "/!$&'()*+,;=:@-._~"
# Where a message names another place: "scripts/send.py (line 12)", "SKILL.md:40", "(line 7)", ", line 7)".
_NAMED_LINE = re.compile(r"(?:(?P<name>[\w.~/@+-]+(?:!/[\w.~/@+-]+)?)\s+)?\(line (?P<line>\d+)\)")
_LINE_AFTER = re.compile(r",\s*line (?P<line>\d+)\)")  # "(curl … | sh, line 9)": in the finding's own file
_PATH_LINE = re.compile(r"(?<![\w/.])(?P<name>[\w.~@+-]+(?:/[\w.~@+-]+)*\.\w+):(?P<line>\d+)\b")
_MAX_RELATED = 8


def sarif_log(
    findings: Iterable[Finding],
    *,
    folders: Mapping[str, Iterable[str]] | None = None,
    root: Path | None = None,
    exit_code: int | None = None,
) -> dict[str, Any]:
    """The SARIF log of `findings` (paths as the user typed them, relative to the working directory).

    `folders` maps each checked skill folder (as findings show it) to its files, so a file named in
    a message ("send.py (line 12)") resolves to a related location; `root` is the repository root
    URIs are relative to (default: the git repository holding the working directory, or the
    working directory itself).
    """
    findings = sorted(findings, key=lambda f: f.sort_key())
    root = (root or repository_root(Path.cwd())).resolve()
    known = _known_files(folders or {})
    catalogue = _catalogue()
    rule_ids: list[str] = sorted({f.code for f in findings})
    rules = [_rule_descriptor(code, catalogue.get(code)) for code in rule_ids]
    index = {code: i for i, code in enumerate(rule_ids)}
    seen: Counter[str] = Counter()
    results = []
    for finding in findings:
        result = _result(finding, index[finding.code], root, known)
        digest = _fingerprint(finding)
        seen[digest] += 1
        result["partialFingerprints"] = {FINGERPRINT: f"{digest}:{seen[digest]}"}
        results.append(result)
    invocation: dict[str, Any] = {"executionSuccessful": exit_code in (None, 0, 1)}
    if exit_code is not None:
        invocation["exitCode"] = exit_code
    run = {
        "tool": {
            "driver": {
                "name": TOOL_NAME,
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def sarif_json(findings: Iterable[Finding], **options: Any) -> str:
    return json.dumps(sarif_log(findings, **options), ensure_ascii=False, indent=2)


def repository_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding .git, else `start`."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


# -- rules -----------------------------------------------------------------------------------


def _catalogue() -> dict[str, tuple[str, Rule]]:
    from registry.reference.catalog import AREAS

    return {rule.code: (area, rule) for area, rules in AREAS for rule in rules}


def _template(text: str) -> str:
    return re.sub(r"\{(\w+)\}", r"<\1>", text.replace("{{", "{").replace("}}", "}"))


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _rule_descriptor(code: str, entry: tuple[str, Rule] | None) -> dict[str, Any]:
    if entry is None:  # not in the catalogue (a finding from a newer or foreign source): id only
        return {"id": code, "shortDescription": {"text": code}}
    area, rule = entry
    level = getattr(rule, "level", None)
    why = getattr(rule, "why", "")
    full = _sentence(f"{rule.title}: {why}" if why else rule.title)
    if rule.example:
        full += f" Example: {rule.example}"
    hint = "Depends on the error found; for instance: quote the value." if rule.hint == "{fix}" else rule.hint
    hint = _template(hint)
    markdown = "**Fix:** " + re.sub(r"<(\w+)>", r"`<\1>`", hint)  # a bare <host> would be read as HTML
    if rule.example:
        example = rule.example.replace("`", "'")
        markdown += f"\n\n**Example:** `{example}`"
    markdown += "\n\n`skill-registry rules` prints every rule; risk levels are explained in docs/risk.md."
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": _pascal(rule.title),
        "shortDescription": {"text": _sentence(rule.title)},
        "fullDescription": {"text": full},
        "help": {"text": hint, "markdown": markdown},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
    }
    tags = [area]
    properties: dict[str, Any] = {}
    if level is not None:
        from registry.score import owasp

        tags.append("security")
        tags += [f"family {label}" for label in owasp.family_labels(rule.code)]
        if label := owasp.owasp_label(rule.code):
            tags.append(f"OWASP {label}")
        properties["security-severity"] = SECURITY_SEVERITY.get(level, "5.5")
        properties["risk-level"] = level
    properties["tags"] = tags
    descriptor["properties"] = properties
    return descriptor


def _pascal(title: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", title)
    return "".join(w[:1].upper() + w[1:] for w in words) or "Rule"


# -- results ---------------------------------------------------------------------------------


def _result(finding: Finding, rule_index: int, root: Path, known: dict[str, set[str]]) -> dict[str, Any]:
    message = finding.message + (f". Fix: {finding.hint}" if finding.hint else "")
    path, member = _split_member(finding.path)
    if member:
        message = f"In {member}: {message}"
    location: dict[str, Any] = {"physicalLocation": {"artifactLocation": _artifact(path, root)}}
    region = _region(finding.line, finding.column) if not member else None
    if region:
        location["physicalLocation"]["region"] = region
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": LEVELS[finding.severity],
        "message": {"text": message},
        "locations": [location],
    }
    related = _related(finding, root, known)
    if related:
        result["relatedLocations"] = related
    if finding.excerpt:
        result["properties"] = {"excerpt": finding.excerpt}
    return result


def _region(line: int | None, column: int | None) -> dict[str, int] | None:
    if not line or line < 1:
        return None
    region = {"startLine": line}
    if column and column >= 1:
        region["startColumn"] = column
    return region


def _split_member(path: str) -> tuple[str, str]:
    if _MEMBER in path:
        outer, member = path.split(_MEMBER, 1)
        return outer, member
    return path, ""


def _artifact(path: str, root: Path) -> dict[str, str]:
    """The file relative to the repository root (%SRCROOT%), or an absolute file URI outside it."""
    absolute = Path(os.path.abspath(path or "."))
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        return {"uri": absolute.as_uri()}
    posix = PurePosixPath(*relative.parts).as_posix() if relative.parts else "."
    return {"uri": quote(posix, safe=_URI_SAFE), "uriBaseId": SRCROOT}


def _known_files(folders: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    return {folder: set(names) for folder, names in folders.items()}


def _folder_of(path: str, known: dict[str, set[str]]) -> str | None:
    best = None
    for folder in known:
        if (not folder or path.startswith(folder + "/")) and (best is None or len(folder) > len(best)):
            best = folder
    return best


def _resolve(name: str, path: str, known: dict[str, set[str]]) -> str | None:
    """The path of a file named in a message: relative to the finding's skill folder, or as given."""
    folder = _folder_of(path, known)
    if folder is not None:
        names = known[folder]
        outer = name.split(_MEMBER, 1)[0]
        if outer in names:
            return f"{folder}/{name}" if folder else name
        matches = sorted(n for n in names if n.rsplit("/", 1)[-1] == outer)  # "send.py" for scripts/send.py
        if len(matches) == 1:
            full = matches[0] + name[len(outer) :]
            return f"{folder}/{full}" if folder else full
    flat = {f"{f}/{n}" if f else n for f, names in known.items() for n in names}
    return name if name in flat else None


def _related(finding: Finding, root: Path, known: dict[str, set[str]]) -> list[dict[str, Any]]:
    """The other places a message names (the other end of a flow), as related locations."""
    places: list[tuple[str, int]] = []
    for match in _NAMED_LINE.finditer(finding.message):
        name = match.group("name")
        target = _resolve(name, finding.path, known) if name else None
        places.append((target or finding.path, int(match.group("line"))))
    places += [(finding.path, int(match.group("line"))) for match in _LINE_AFTER.finditer(finding.message)]
    for match in _PATH_LINE.finditer(finding.message):
        target = _resolve(match.group("name"), finding.path, known)
        if target:
            places.append((target, int(match.group("line"))))
    out: list[dict[str, Any]] = []
    seen = {(finding.path, finding.line)}
    for path, line in places:
        if (path, line) in seen or len(out) >= _MAX_RELATED:
            continue
        seen.add((path, line))
        outer, member = _split_member(path)
        physical: dict[str, Any] = {"artifactLocation": _artifact(outer, root)}
        if not member and line >= 1:
            physical["region"] = {"startLine": line}
        text = f"{member}, line {line}" if member else f"line {line}"
        out.append({"id": len(out) + 1, "physicalLocation": physical, "message": {"text": text}})
    return out


def _fingerprint(finding: Finding) -> str:
    """Rule, file and what was matched (or the message without its numbers): stable when lines move."""
    what = finding.excerpt or re.sub(r"\d+", "#", finding.message)
    key = "\0".join((finding.code, finding.path, " ".join(what.split())))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]

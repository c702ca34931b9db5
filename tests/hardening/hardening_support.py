"""Shared machinery for the adversarial suite: honest skills, planted secrets, one build, the checks.

Every adversarial case builds a source tree holding the same honest skills plus one hostile one,
next to a folder outside the tree that holds a secret with a unique marker. `check_contained`
then asserts what must hold for every attack: the build finished, the honest skills are published
exactly as in a build without the hostile skill, no byte of the secret reached the output (gzip
streams included), and no page holds a construct that runs script.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from conftest import simple_skill, write_skill
from site_checks import check_index_json, check_well_known, executable_constructs, served_files

from registry.build import BuildResult, build, search_cache
from registry.config import BuildOptions

BASE_URL = "https://skills.example.org/"
MARKER = "HARDENING-SECRET-9c41e7d2"  # appears only in files outside the source tree

MULTI_FILE = """---
name: multi-file
description: Formats release notes from a changelog. Use when preparing a release.
license: MIT
metadata:
  version: "1.2.0"
---

# Multi file

Read [the guide](references/guide.md), then run `scripts/run.sh`.
"""

FORM = """---
name: form-filler
description: Fills a status report from a few answers. Use when writing a weekly report.
license: MIT
inputs:
  - name: team
    label: Team name
    type: text
    required: true
    description: The team the report is for.
model:
  temperature: 0.2
---

Write the weekly status report for {{team}}.
"""

HONEST: dict[str, tuple[str, dict[str, str | bytes]]] = {
    "honest/plain-helper": (
        simple_skill("plain-helper", body="Ask, then answer. See the [docs](https://example.org/)."),
        {},
    ),
    "honest/multi-file": (
        MULTI_FILE,
        {"references/guide.md": "# Guide\n\nStep by step.\n", "scripts/run.sh": "#!/bin/sh\necho release\n"},
    ),
    "honest/form-filler": (FORM, {}),
}
HONEST_IDS = tuple(sorted(HONEST))


def write_honest(source: Path) -> None:
    for rel, (skill_md, files) in HONEST.items():
        folder = write_skill(source, rel, skill_md, files)
        if "scripts/run.sh" in files:
            (folder / "scripts" / "run.sh").chmod(0o755)


def plant_secrets(root: Path) -> Path:
    """A folder outside the source tree, full of things an attack would like to publish."""
    outside = root / "outside"
    (outside / "dir").mkdir(parents=True, exist_ok=True)
    (outside / "secret.txt").write_text(f"token={MARKER}\n")
    (outside / "dir" / "notes.md").write_text(f"# Notes\n\n{MARKER}\n")
    (outside / "SKILL.md").write_text(simple_skill("outside-skill", description=f"Leaks {MARKER}. Use never."))
    return outside


@dataclass
class Case:
    root: Path
    source: Path
    outside: Path
    out: Path
    result: BuildResult

    def codes(self) -> list[str]:
        return sorted(f.code for f in self.result.findings)

    def findings(self, code: str) -> list:
        return [f for f in self.result.findings if f.code == code]

    def published_ids(self) -> list[str]:
        return sorted(s.id for s in self.result.published)

    def left_out_ids(self) -> list[str]:
        return sorted(item.id for item in self.result.left_out)


def run_build(source: Path, out: Path, **options) -> BuildResult:
    return build(BuildOptions(source=source, out=out, base_url=BASE_URL, **options))


def run_case(root: Path, hostile: Callable[[Path, Path], object] | None) -> Case:
    """Honest skills plus whatever `hostile(source, outside)` adds, built in-process."""
    source = root / "src"
    source.mkdir(parents=True, exist_ok=True)
    write_honest(source)
    outside = plant_secrets(root)
    if hostile is not None:
        hostile(source, outside)
    out = root / "out"
    result = run_build(source, out)
    return Case(root, source, outside, out, result)


def _main_region(html: str) -> str:
    start, end = html.index("<main"), html.index("</main>")
    return html[start:end]


def honest_snapshot(out: Path) -> dict:
    """What a reader or a client sees of each honest skill; site-wide counters are left out."""
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in index["skills"]}
    v2 = json.loads((out / ".well-known" / "agent-skills" / "index.json").read_text(encoding="utf-8"))
    v1 = json.loads((out / ".well-known" / "skills" / "index.json").read_text(encoding="utf-8"))
    snapshot = {}
    for skill_id in HONEST_IDS:
        entry = entries[skill_id]
        raw = {path: served.read_bytes() for path, served in served_files(out, skill_id).items()}
        name = entry["name"]
        v2_entry = next(e for e in v2["skills"] if e["name"] == name)
        v1_entry = next(e for e in v1["skills"] if e["name"] == name)
        artifact = (out / ".well-known" / "agent-skills" / v2_entry["url"]).read_bytes()
        page = (out / "skills" / skill_id / "index.html").read_text(encoding="utf-8")
        snapshot[skill_id] = {
            "entry": entry,
            "raw": raw,
            "v2": v2_entry,
            "artifact": artifact,
            "v1": v1_entry,
            "page": _main_region(page),
        }
    return snapshot


@functools.cache
def _baseline_snapshot(root: str) -> dict:
    case = run_case(Path(root), None)
    assert case.published_ids() == list(HONEST_IDS) and case.result.left_out == []
    return honest_snapshot(case.out)


def baseline(tmp_path_factory) -> dict:
    """The honest skills built alone, once per session."""
    return _baseline_snapshot(str(tmp_path_factory.getbasetemp() / "hardening-baseline"))


def output_bytes(out: Path):
    """Every file of the site with its bytes, gzip and zlib streams expanded too."""
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        yield path, data
        if data[:2] == b"\x1f\x8b":
            try:
                expanded = gzip.decompress(data)
            except (OSError, EOFError, zlib.error):
                expanded = b""
            yield path, expanded


def assert_no_secret(out: Path, extra: tuple[bytes, ...] = ()) -> None:
    needles = (MARKER.encode(), *extra)
    leaks = [str(p.relative_to(out)) for p, data in output_bytes(out) for needle in needles if needle in data]
    assert leaks == [], f"bytes from outside the source tree were published: {leaks}"


class _MoreConstructs(HTMLParser):
    """Beyond tests/site_checks.py's walker: more script-capable tags and attributes."""

    TAGS = frozenset({"applet", "frameset", "portal", "template", "animate", "set", "use", "foreignobject"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.TAGS:
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name in ("srcdoc", "style", "formaction", "background", "dynsrc", "lowsrc"):
                self.problems.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "srcset", "action", "data", "poster", "cite") and value:
                for candidate in value.split(","):
                    compact = re.sub(r"[\x00-\x20]+", "", candidate).lower()
                    if re.match(r"^(javascript|data|vbscript|livescript|mocha|blob|filesystem):", compact):
                        self.problems.append(f"<{tag} {name}={value!r}>")

    handle_startendtag = handle_starttag


def constructs(html: str) -> list[str]:
    finder = _MoreConstructs()
    finder.feed(html)
    finder.close()
    return executable_constructs(html) + finder.problems


# Skill files are served byte for byte here, under a sandboxing policy: they are data, not pages.
VERBATIM = (re.compile(r"^raw/"), re.compile(r"^\.well-known/skills/[^/]+/(?!index\.json$)"))
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".xml", ".svg")


def assert_no_executable(out: Path) -> None:
    problems = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if not path.is_file() or path.suffix.lower() not in PAGE_SUFFIXES or any(v.match(rel) for v in VERBATIM):
            continue
        found = constructs(path.read_text(encoding="utf-8", errors="replace"))
        if rel == "static/favicon.svg":
            found = [p for p in found if not p.startswith("<svg")]
        if found:
            problems[rel] = found
    assert problems == {}, problems


def assert_site_files_are_not_links(out: Path) -> None:
    """No symbolic link, and no file sharing its inode with anything but the build's own copies: the site and its
    spare (`.<out>.cache/spare`, hard links to the site's files) — never a skill's file or anything outside."""
    links = [str(p) for p in out.rglob("*") if p.is_symlink()]
    assert links == [], links
    ours: dict[tuple[int, int], int] = {}
    for folder in (out, search_cache(out) / "spare"):
        for path in folder.rglob("*"):
            if path.is_file() and not path.is_symlink():
                info = path.stat()
                ours[(info.st_dev, info.st_ino)] = ours.get((info.st_dev, info.st_ino), 0) + 1
    for path in out.rglob("*"):
        if path.is_file():
            info = path.stat()
            assert info.st_nlink == ours[(info.st_dev, info.st_ino)], path


def check_contained(case: Case, expected_baseline: dict) -> None:
    """What must hold after any attack."""
    assert case.result.written, "the build must finish and publish the site"
    check_index_json(case.out)
    check_well_known(case.out)
    assert set(HONEST_IDS) <= set(case.published_ids()), case.published_ids()
    snapshot = honest_snapshot(case.out)
    changed = {
        (skill_id, part)
        for skill_id in HONEST_IDS
        for part in snapshot[skill_id]
        if snapshot[skill_id][part] != expected_baseline[skill_id][part]
    }
    assert changed == set(), f"an honest skill changed because of a hostile one: {sorted(changed)}"
    assert_no_secret(case.out)
    assert_no_executable(case.out)
    assert_site_files_are_not_links(case.out)


def finding_paths(case: Case, code: str) -> list[str]:
    return sorted(f.path for f in case.findings(code))

"""What each output of a build costs: bytes and files, per output, for built sites or for builds it runs.

    .venv/bin/python -m bench.output_size SITE [SITE ...]
    .venv/bin/python -m bench.output_size --source /tmp/pag10k/skills-index --profiles full,lean \\
        --work /tmp/output-size [--base-url https://registry.example/] [--jobs 2] [--json FILE]

Every file of a site is put in exactly one output by its path (OUTPUTS below, first match wins), and each
output's bytes (the files' sizes, what a host counts) and files are summed. With `--source`, the registry is
built once per profile, in-process, into `<work>/<profile>/`, cold (`--clean`), with the source's
registry.yaml copied to `<work>/<profile>.registry.yaml` and its `outputs:` set to the profile (lifecycle.yaml
is copied beside it). The source's own bytes and skill count are printed too, for the ratios (output bytes per
source byte, files per skill), and each site is checked against the hosts' published limits (HOSTS).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# (output, path patterns): the first output whose pattern matches a file's path (relative to the site) holds it.
# The optional outputs (registry.yaml `outputs:`, registry/config.py Outputs) are named as there.
OUTPUTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("discovery_v0_1", (".well-known/skills/index.json", ".well-known/skills/index.json.sig")),
    ("skill_indexes", ("skills/*/.well-known/agent-skills/index.json",)),
    ("files", (".well-known/skills/*", "raw/*")),
    ("discovery_v0_2", (".well-known/agent-skills/*",)),
    ("ai_catalog", (".well-known/ai-catalog.json", ".well-known/ard.json")),
    ("signatures", ("signatures/*", "*.sig", ".well-known/skill-registry/*")),
    ("marketplaces", (".claude-plugin/*", ".agents/*", ".github/*", ".cursor-plugin/*", "plugins/*")),
    ("feeds", ("feeds/*",)),
    ("index_json", ("index.json", "index/*", "schema/*")),
    ("search", ("search/manifest.json", "search/*.json", "search/*.bin", "search/*/*")),
    ("pages", ("*.html", "static/*", "_redirects")),
    ("sitemap", ("sitemap.xml", "robots.txt")),
)
OPTIONAL = ("discovery_v0_1", "skill_indexes", "marketplaces", "ai_catalog", "feeds")

MB = 1000 * 1000
MIB = 1024 * 1024
GB = 1000 * MB


@dataclass(frozen=True)
class Host:
    name: str
    site_bytes: int | None  # the whole site
    files: int | None  # files in one deployment
    file_bytes: int | None  # one file
    source: str  # where the limits are published


# The published limits used (read 2026-11-27): a site fits a host when it is under every one of them.
HOSTS = (
    Host("GitHub Pages", 1 * GB, None, None,
         "https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits "
         "(published sites may be no larger than 1 GB)"),
    Host("Cloudflare Pages Free", None, 20_000, 25 * MIB,
         "https://developers.cloudflare.com/pages/platform/limits/ (20,000 files per site on the Free plan; "
         "25 MiB per file)"),
    Host("Cloudflare Pages paid", None, 100_000, 25 * MIB,
         "https://developers.cloudflare.com/changelog/post/2026-01-23-pages-file-limit-increase/ (100,000 files "
         "per site on paid plans, with PAGES_WRANGLER_MAJOR_VERSION=4)"),
    Host("GitLab.com Pages", 1 * GB, 200_000, None,
         "https://docs.gitlab.com/user/gitlab_com/#gitlab-pages (maximum size 1 GB; 200,000 files per website)"),
)  # fmt: skip


def output_of(path: str) -> str:
    for name, patterns in OUTPUTS:
        if any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns):
            return name
    return "other"


def measure(site: Path) -> dict:
    """Bytes and files per output, the totals and the largest file."""
    outputs: dict[str, dict[str, int]] = {}
    largest = (0, "")
    for folder, _, names in os.walk(site):
        for name in names:
            path = Path(folder) / name
            relative = path.relative_to(site).as_posix()
            size = path.stat().st_size
            entry = outputs.setdefault(output_of(relative), {"bytes": 0, "files": 0})
            entry["bytes"] += size
            entry["files"] += 1
            largest = max(largest, (size, relative))
    return {
        "outputs": dict(sorted(outputs.items())),
        "bytes": sum(e["bytes"] for e in outputs.values()),
        "files": sum(e["files"] for e in outputs.values()),
        "largest_file": {"path": largest[1], "bytes": largest[0]},
    }


def source_size(source: Path) -> dict:
    skills = files = size = 0
    for folder, dirs, names in os.walk(source):
        dirs[:] = [d for d in dirs if d != ".git"]
        skills += "SKILL.md" in names
        for name in names:
            files += 1
            size += (Path(folder) / name).stat().st_size
    return {"skills": skills, "files": files, "bytes": size}


def fits(measured: dict) -> dict[str, list[str]]:
    """Per host, the limits the site passes over (none: it fits)."""
    found = {}
    for host in HOSTS:
        over = []
        if host.site_bytes is not None and measured["bytes"] > host.site_bytes:
            over.append(f"{measured['bytes'] / GB:.2f} GB > {host.site_bytes / GB:g} GB")
        if host.files is not None and measured["files"] > host.files:
            over.append(f"{measured['files']:,} files > {host.files:,}")
        if host.file_bytes is not None and measured["largest_file"]["bytes"] > host.file_bytes:
            over.append(f"{measured['largest_file']['path']} {measured['largest_file']['bytes'] / MIB:.1f} MiB")
        found[host.name] = over
    return found


def verdict(over: list[str]) -> str:
    return "fits" if not over else "over (" + "; ".join(over) + ")"


def policy_for(source: Path, profile: str, target: Path) -> Path:
    """A copy of the source's registry.yaml with `outputs:` set to `profile`, and its lifecycle.yaml beside it."""
    from registry.lifecycle import find_lifecycle
    from registry.policy import find_policy

    original = find_policy(source)
    text = original.read_text(encoding="utf-8") if original else ""
    kept = [line for line in text.split("\n") if not line.startswith("outputs:")]
    target.write_text("\n".join(kept).rstrip("\n") + f"\noutputs: {profile}\n", encoding="utf-8")
    lifecycle = find_lifecycle(original, source)
    if lifecycle is not None:
        shutil.copy(lifecycle, target.parent / lifecycle.name)
    return target


def build_profile(source: Path, work: Path, profile: str, base_url: str, jobs: int | None) -> tuple[Path, float]:
    from registry.build import build
    from registry.config import BuildOptions

    folder = work / profile
    folder.mkdir(parents=True, exist_ok=True)
    policy = policy_for(source, profile, folder / "registry.yaml")
    out = folder / "site"
    started = time.perf_counter()
    build(BuildOptions(source=source, out=out, policy=policy, base_url=base_url, jobs=jobs, clean=True))
    return out, time.perf_counter() - started


def table(rows: dict[str, dict], source: dict | None) -> str:
    names = [name for name, _ in OUTPUTS] + ["other"]
    sites = list(rows)
    lines = ["| output | " + " | ".join(f"{site}: bytes | files" for site in sites) + " |",
             "| --- | " + " | ".join("---: | ---:" for _ in sites) + " |"]  # fmt: skip
    for name in names:
        cells = []
        for site in sites:
            entry = rows[site]["outputs"].get(name)
            cells.append(f"{entry['bytes'] / MB:,.1f} MB | {entry['files']:,}" if entry else "- | -")
        if any(cell != "- | -" for cell in cells):
            lines.append(f"| {name}{' (optional)' if name in OPTIONAL else ''} | " + " | ".join(cells) + " |")
    lines.append(
        "| **total** | "
        + " | ".join(f"**{rows[s]['bytes'] / MB:,.1f} MB** | **{rows[s]['files']:,}**" for s in sites)
        + " |"
    )
    if source:
        ratios = [
            f"{rows[s]['bytes'] / source['bytes']:.2f}x | {rows[s]['files'] / source['skills']:.2f}" for s in sites
        ]
        lines.append("| per source byte / per skill | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Bytes and files per output of built sites.")
    parser.add_argument("sites", nargs="*", type=Path, help="built sites to measure")
    parser.add_argument("--source", type=Path, help="build this registry (its skills folder) once per profile")
    parser.add_argument("--profiles", default="full,lean", help="profiles to build with --source")
    parser.add_argument("--work", type=Path, help="where the --source builds go (<work>/<profile>/site)")
    parser.add_argument("--base-url", default="https://registry.example/", help="https: every marketplace is written")
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--json", type=Path, help="write every figure as JSON")
    args = parser.parse_args(argv)

    rows: dict[str, dict] = {}
    source = None
    if args.source:
        if args.work is None:
            parser.error("--source needs --work")
        source = source_size(args.source)
        print(f"source {args.source}: {source['skills']:,} skills, {source['files']:,} files, "
              f"{source['bytes'] / MB:,.1f} MB", file=sys.stderr)  # fmt: skip
        for profile in args.profiles.split(","):
            out, seconds = build_profile(args.source, args.work, profile, args.base_url, args.jobs)
            rows[profile] = {**measure(out), "build_seconds": round(seconds, 1)}
            print(f"built {profile} in {seconds:.0f} s: {out}", file=sys.stderr)
    for site in args.sites:
        rows[str(site)] = measure(site)
    for row in rows.values():
        row["hosts"] = fits(row)
    print(table(rows, source))
    print()
    print("Netlify publishes no cap on a deploy's bytes or files that we could cite: not checked.")
    for site, row in rows.items():
        verdicts = [f"{host}: {verdict(over)}" for host, over in row["hosts"].items()]
        print(f"{site}: largest file {row['largest_file']['path']} ({row['largest_file']['bytes'] / MB:.1f} MB); "
              + "; ".join(verdicts))  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps({"source": source, "sites": rows}, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""The build, in one readable function: crawl, parse, validate, gather, emit, swap in atomically.

Everything is gathered before anything is written, so cross-page outputs (listings, indexes,
the sitemap) are consistent, and nothing is written outside the staging folder until the
whole site is complete.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from registry import crawl as crawl_stage
from registry import history, validate
from registry.config import BuildOptions, Limits
from registry.emit import feeds, html, index_json, raw, sitemap, well_known
from registry.emit.search import SearchStats, emit_search
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter, dump_json
from registry.lifecycle import Lifecycle, apply_lifecycle, check_against, find_lifecycle, load_lifecycle, redirects_file
from registry.model import CrawlResult, Finding, LeftOut, Severity, Skill
from registry.output import staged_output
from registry.parse.skill import parse_skill
from registry.policy import Policy, PolicyError, find_policy, load_policy
from registry.rules.catalog import all_rules
from registry.score import Assessment, apply_severity_overrides, score_skill
from registry.search.documents import make_document


class SourceChanged(RuntimeError):
    pass


@dataclass
class BuildResult:
    source: Path
    out: Path
    published: list[Skill]
    left_out: list[LeftOut]
    findings: list[Finding]  # every finding, crawl-level and per skill, sorted
    repository: history.RepositoryInfo
    discovery: dict[str, str]  # skill id -> discovery name
    written: bool
    timings: dict[str, float] = field(default_factory=dict)
    assessments: dict[str, Assessment] = field(default_factory=dict)
    search: SearchStats | None = None

    @property
    def error_count(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    def counts(self) -> dict[str, int]:
        by_severity = Counter(f.severity.value for f in self.findings)
        return {
            "skills_found": len(self.published) + len(self.left_out),
            "published": len(self.published),
            "left_out": len(self.left_out),
            "errors": by_severity.get("error", 0),
            "warnings": by_severity.get("warning", 0),
            "info": by_severity.get("info", 0),
        }

    def report(self) -> dict:
        return {
            "source": str(self.source),
            "out": str(self.out),
            "written": self.written,
            "generated_from": self.repository.commit,
            "git": {
                "is_git": self.repository.is_git,
                "shallow": self.repository.shallow,
                "dirty": self.repository.dirty,
            },
            "counts": self.counts(),
            "timings_seconds": {k: round(v, 4) for k, v in self.timings.items()},
            "published": [s.id for s in self.published],
            "left_out": [item.to_json() for item in self.left_out],
            "findings": [f.to_json() for f in self.findings],
        }


Progress = Callable[[str, int, int], None]


def _no_progress(stage: str, done: int, total: int) -> None:
    return None


@dataclass
class Analysis:
    """Everything known about a source before anything is written: crawl, parse, validate, history, score."""

    found: CrawlResult
    skills: list[Skill]
    repository: history.RepositoryInfo
    assessments: dict[str, Assessment]
    policy: Policy
    limits: Limits
    lifecycle: Lifecycle


def analyse(
    source: Path,
    policy_path: Path | None = None,
    default_limits: Limits | None = None,
    progress: Progress = _no_progress,
    lap: Callable[[str], None] = lambda stage: None,
) -> Analysis:
    policy_file = policy_path or find_policy(source)
    policy = load_policy(policy_file, frozenset(r.code for r in all_rules()))
    lifecycle_file = find_lifecycle(policy_file, source)
    lifecycle = load_lifecycle(lifecycle_file)
    limits = policy.limits if policy.source else (default_limits or Limits())

    found = crawl_stage.crawl(source, limits)
    lap("crawl")

    skills: list[Skill] = []
    for index, location in enumerate(found.locations):
        skills.append(parse_skill(location, limits))
        progress("parse", index + 1, len(found.locations))
    lap("parse")

    validate.check_registry(skills)
    problems = check_against(lifecycle, {s.id for s in skills}, str(source))
    if problems:
        raise PolicyError(str(lifecycle_file), problems)
    apply_lifecycle(skills, lifecycle)
    lap("validate")

    repository = history.read_repository(found.source, [s.location.rel_folder for s in skills], limits)
    lap("history")

    assessments: dict[str, Assessment] = {}
    for index, skill in enumerate(skills):
        if skill.name is not None and skill.description is not None:
            contents = _load_contents(skill, limits)
            assessments[skill.id] = score_skill(skill, contents, repository, policy)
        skill.findings = apply_severity_overrides(skill.findings, policy.severity)
        progress("score", index + 1, len(skills))
    found.findings = apply_severity_overrides(found.findings, policy.severity)
    lap("score")
    return Analysis(found, skills, repository, assessments, policy, limits, lifecycle)


def build(options: BuildOptions, progress: Progress = _no_progress) -> BuildResult:
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = timings.get(stage, 0.0) + now - clock
        clock = now

    analysis = analyse(options.source, options.policy, options.limits, progress, lap)
    found, skills, repository, assessments, policy, lifecycle = (
        analysis.found, analysis.skills, analysis.repository, analysis.assessments, analysis.policy,
        analysis.lifecycle,
    )  # fmt: skip
    limits = analysis.limits
    title = policy.title or options.title

    published = [s for s in skills if s.publishable and s.id not in lifecycle.withdrawn]
    left_out = [
        LeftOut(s.id, s.location.skill_md_path, sorted(_why_left_out(s), key=lambda f: f.sort_key()))
        for s in skills
        if not s.publishable or s.id in lifecycle.withdrawn
    ]
    first_published = {
        s.id: h.first_published for s in published if (h := repository.histories.get(s.location.rel_folder))
    }
    discoverable = []
    for skill in published:
        assessment = assessments[skill.id]
        if skill.risk_level in policy.exclude_risk and assessment.risk_override is None:
            skill.findings.append(
                well_known.RISK_EXCLUDED.at(skill.location.skill_md_path, None, None, level=skill.risk_level)
            )
        elif skill.version and skill.version in lifecycle.yanked.get(skill.id, {}):
            continue  # its current version is yanked: never offered for installation (finding Y003)
        else:
            discoverable.append(skill)
    chosen = well_known.select_discoverable(discoverable, first_published)
    discovery = {skill.id: name for name, skill in chosen.items()}
    lap("gather")

    has_errors = any(s.errors for s in skills) or any(f.severity is Severity.ERROR for f in found.findings)
    strict_failure = options.strict and has_errors
    written = False
    search_stats = None
    if not strict_failure:
        with staged_output(options.out) as stage:
            site = SiteData(options, title, limits, published, repository, discovery, assessments, policy, lifecycle)
            search_stats = _emit(stage, site, progress, lap)
        written = True

    all_findings = list(found.findings) + [f for s in skills for f in s.findings]
    all_findings.sort(key=lambda f: (f.path, f.line or 0, f.column or 0, f.code, f.message))
    result = BuildResult(
        found.source, options.out, published, left_out, all_findings, repository, discovery, written, timings,
        assessments, search_stats,
    )  # fmt: skip
    if options.report is not None:
        options.report.parent.mkdir(parents=True, exist_ok=True)
        options.report.write_bytes(dump_json(result.report(), pretty=True))
    return result


def _why_left_out(skill: Skill) -> list[Finding]:
    return skill.errors or [f for f in skill.findings if f.code in ("S001", "S002", "S003", "S010", "Y001")]


@dataclass(frozen=True)
class SiteData:
    """Everything the emitters need, gathered before the first byte is written."""

    options: BuildOptions
    title: str
    limits: Limits
    published: list[Skill]
    repository: history.RepositoryInfo
    discovery: dict[str, str]
    assessments: dict[str, Assessment]
    policy: Policy
    lifecycle: Lifecycle


def _emit(stage: Path, data: SiteData, progress: Progress, lap: Callable[[str], None]) -> SearchStats:
    options, published, repository, discovery = data.options, data.published, data.repository, data.discovery
    writer = SiteWriter(stage)
    urls = SiteUrls(options.site_url)
    publishers = {s.publisher for s in published}
    site = html.SiteInfo(
        title=data.title,
        url=options.site_url,
        skill_count=len(published),
        publisher_count=len(publishers),
        commit=repository.commit,
        shallow=repository.shallow,
    )
    emitter = html.HtmlEmitter(writer, options.templates, urls, site)
    cards = {s.id: html.make_card(s, repository, data.assessments[s.id]) for s in published}
    discovery_entries = []
    sitemap_pages: list[tuple[str, str | None]] = []

    for index, skill in enumerate(published):
        contents = _load_contents(skill, data.limits)
        raw.emit_skill(writer, skill, contents)
        name = discovery.get(skill.id)
        archive = False
        if name is not None:
            executables = frozenset(f.path for f in skill.location.files if _is_executable(f.source))
            entry = well_known.emit_skill(writer, skill, contents, executables)
            skill.findings.extend(entry.findings)
            discovery_entries.append(entry)
            archive = entry.v2["type"] == "archive"
        card = cards[skill.id]
        history_entry = repository.histories.get(skill.location.rel_folder)
        emitter.skill_page(skill, card, name, history_entry, archive, data.assessments[skill.id], data.lifecycle)
        sitemap_pages.append((SiteUrls.skill_page(skill.id), card.last_updated))
        progress("render", index + 1, len(published))
    lap("render")

    card_list = [cards[s.id] for s in published]
    listings = html.build_listings(published, cards)
    emitter.home(card_list, listings)
    emitter.browse(card_list, listings)
    for kind_listings in listings.values():
        for listing in kind_listings:
            emitter.listing(listing)
            sitemap_pages.append((listing.path.removesuffix("index.html"), None))
    emitter.not_found()
    for old, new in sorted(data.lifecycle.renamed.items()):
        emitter.redirect_page(old, new)
    for skill_id, reason in sorted(data.lifecycle.withdrawn.items()):
        emitter.tombstone(skill_id, reason)
    writer.write_text("_redirects", redirects_file(data.lifecycle))
    feeds.emit(
        writer, urls, data.title,
        [
            feeds.FeedItem(
                s.id, s.display_name, s.description or "", s.version, s.publisher, s.category,
                cards[s.id].first_published, cards[s.id].last_updated, s.content_digest,
            )
            for s in published
        ],
    )  # fmt: skip
    sitemap_pages += [("", None), ("browse/", None)]

    emitter.search_page(
        [listing.key for listing in listings["category"]], sorted({d for card in card_list for d in card.dialects})
    )
    index = index_json.build_index(published, urls, repository, discovery, data.assessments, data.title, data.lifecycle)
    writer.write_json("index.json", index)
    well_known.emit_indexes(writer, discovery_entries)
    sitemap.emit(writer, urls, sitemap_pages)
    _copy_assets(writer, options)
    lap("emit")

    documents = [
        make_document(skill, data.assessments[skill.id].trust.tier, cards[skill.id].last_updated) for skill in published
    ]
    stats = emit_search(writer, documents, search_cache(options.out))
    lap("search")
    return stats


def _load_contents(skill: Skill, limits: Limits) -> dict[str, bytes]:
    contents: dict[str, bytes] = {}
    for skill_file in skill.location.files:
        data = crawl_stage.read_bytes(skill_file, max(limits.skill_md_bytes, limits.file_bytes))
        if well_known.sha256(data) != skill_file.digest:
            raise SourceChanged(f"{skill.location.rel_folder}/{skill_file.path} changed while the build was running")
        contents[skill_file.path] = data
    return contents


def _is_executable(path: Path) -> bool:
    try:
        return bool(path.stat().st_mode & 0o111)
    except OSError:
        return False


def _copy_assets(writer: SiteWriter, options: BuildOptions) -> None:
    for asset in sorted(options.static.iterdir()):
        if asset.is_file() and not asset.is_symlink():
            data = asset.read_bytes()
            if asset.name == "style.css":
                data += b"\n" + html.pygments_css().encode("utf-8")
            writer.write_bytes(f"static/{asset.name}", data)
    schema = options.schema / "index.schema.json"
    writer.write_bytes("schema/index.schema.json", schema.read_bytes())


def search_cache(out: Path) -> Path:
    """Build state that must outlive one build's staging folder (the Whoosh index)."""
    out = out.absolute()
    return out.parent / f".{out.name}.cache"

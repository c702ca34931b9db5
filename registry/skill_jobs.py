"""The per-skill work of a build, run in worker processes: read and score one skill, render one skill.

Each job is a pure function of its (picklable) arguments, so results can be cached by a digest of
those arguments and merged in a fixed order whatever process ran them. A job that raises or runs
past `limits.skill_seconds` does not stop the build: the skill gets a finding naming its path and
is left out.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import signal
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from registry import crawl
from registry.config import Limits
from registry.emit import html, raw, well_known
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter, UnsafeOutputPath, checked_parts, dump_json
from registry.history import SkillHistory
from registry.lifecycle import Lifecycle
from registry.model import Document, Finding, Severity, Skill, SkillLocation
from registry.parse.document import read_document
from registry.parse.skill import parse_skill
from registry.policy import Policy
from registry.rules.base import Rule
from registry.score import Assessment, ContentScore, score_content
from registry.search.documents import SearchDocument, make_document

INTERNAL_ERROR = Rule(
    "E001",
    Severity.ERROR,
    "Skill could not be processed",
    "reading this skill failed unexpectedly ({error}); it is left out and the rest of the registry still builds",
    "This is a bug in skill-registry, not necessarily in the skill: report it with this file attached.",
    "A SKILL.md that makes a parser raise.",
)
TIME_LIMIT = Rule(
    "E002",
    Severity.ERROR,
    "Skill took too long to process",
    "processing this skill took longer than the limit (skill_seconds: {limit}; stopped after {actual:.1f} s)",
    "Make the skill smaller (fewer or shorter files), or raise `limits.skill_seconds` in registry.yaml.",
    "A skill with thousands of long lines that the risk scanner must read.",
)
RULES = (INTERNAL_ERROR, TIME_LIMIT)


class SourceChanged(RuntimeError):
    pass


class TimeUp(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise TimeUp inside the block after `seconds` (only in a main thread: signals need one)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def expire(signum, frame):
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def load_contents(skill: Skill, limits: Limits) -> dict[str, bytes]:
    contents: dict[str, bytes] = {}
    for skill_file in skill.location.files:
        data = crawl.read_bytes(skill_file, max(limits.skill_md_bytes, limits.file_bytes))
        if well_known.sha256(data) != skill_file.digest:
            raise SourceChanged(f"{skill.location.rel_folder}/{skill_file.path} changed while the build was running")
        contents[skill_file.path] = data
    return contents


@dataclass
class Analysed:
    """A skill read, validated and scored for what its content alone decides."""

    skill: Skill
    content: ContentScore | None  # None when the skill has no name or description: nothing to score


@contextlib.contextmanager
def isolated(path: str, limits: Limits, failures: list[Finding], changed_fails: bool = False) -> Iterator[None]:
    """Run one skill's work under `limits.skill_seconds`; a failure becomes a finding in `failures`.

    E002 when time runs out, E001 when the work raises: one skill's bug must not stop the others.
    A file changed under the build (SourceChanged) is raised for the build to start again, unless
    `changed_fails` (validate, which reads each file once and reports).
    """
    started = time.perf_counter()
    try:
        with time_limit(limits.skill_seconds):
            yield
    except SourceChanged as err:
        if not changed_fails:
            raise
        failures.append(INTERNAL_ERROR.at(path, error=describe_error(err)))
    except TimeUp:
        failures.append(TIME_LIMIT.at(path, limit=limits.skill_seconds, actual=time.perf_counter() - started))
    except Exception as err:
        failures.append(INTERNAL_ERROR.at(path, error=describe_error(err)))


def analyse_skill(location: SkillLocation, limits: Limits, policy: Policy) -> Analysed:
    failures: list[Finding] = []
    with isolated(location.skill_md_path, limits, failures):
        skill = parse_skill(location, limits)
        content = None
        if skill.name is not None and skill.description is not None:
            content = score_content(skill, load_contents(skill, limits), policy)
        # Scoring keeps what it needs of the text (Skill.body_headings, ...) and rendering reads the
        # file again: the text is not carried (50,000 bodies are never held at once, nor cached).
        skill.document.text = skill.document.body = skill.document.frontmatter_text = ""
        skill.document.frontmatter = None  # read into the Skill's fields; nothing later needs the raw mapping
        return Analysed(skill, content)
    return Analysed(Skill(location, Document("", None, "", "", 1), findings=failures), None)


def describe_error(err: Exception) -> str:
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    return f"{type(err).__name__}: {err}{where}"[:500]


@dataclass(frozen=True)
class PageSettings:
    """What every skill page shares: the same for all jobs of one build."""

    templates: Path
    site: html.SiteInfo
    limits: Limits


@dataclass
class RenderJob:
    skill: Skill
    card: html.Card
    discovery_name: str | None
    history: SkillHistory | None
    assessment: Assessment
    lifecycle: Lifecycle
    executables: frozenset[str]


@dataclass
class Rendered:
    """One skill's outputs: files (path -> bytes) and what the indexes list of it."""

    files: dict[str, bytes]
    discovery: well_known.DiscoveryEntries | None
    findings: tuple[Finding, ...]  # added while rendering (discovery limits), already shown on the page
    document: SearchDocument
    index_entry: bytes  # the skill's object in index.json, serialised
    failed: Finding | None = None


class MemoryWriter(SiteWriter):
    """Keeps files in memory: a worker sends them back to the build."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def write_bytes(self, relative: str, data: bytes) -> None:
        checked_parts(relative)
        self.files[relative] = data


@functools.lru_cache(maxsize=4)
def _emitter(settings: PageSettings, site_url: str) -> html.HtmlEmitter:
    # One Jinja environment and Markdown renderer per process, reused for every page it renders.
    return html.HtmlEmitter(MemoryWriter(), settings.templates, SiteUrls(site_url), settings.site)


def render_skill(job: RenderJob, settings: PageSettings) -> Rendered:
    from registry.emit import index_json

    skill = copy.copy(job.skill)  # the page shows the findings rendering adds; the caller's skill stays as it was
    skill.findings = list(skill.findings)
    writer = MemoryWriter()
    emitter = _emitter(settings, settings.site.url)
    emitter.writer = writer
    started = time.perf_counter()
    try:
        with time_limit(settings.limits.skill_seconds):
            contents = load_contents(skill, settings.limits)
            if not skill.document.body:  # dropped after scoring to bound memory: read again, identically
                body = read_document(contents["SKILL.md"], skill.location.skill_md_path, settings.limits).body
                skill.document = dataclasses.replace(skill.document, body=body)
            raw.emit_skill(writer, skill, contents)
            discovery = None
            archive = False
            findings: tuple[Finding, ...] = ()
            if job.discovery_name is not None:
                discovery = well_known.emit_skill(writer, skill, contents, job.executables)
                findings = discovery.findings
                skill.findings.extend(findings)
                archive = discovery.v2["type"] == "archive"
            emitter.skill_page(skill, job.card, job.discovery_name, job.history, archive, job.assessment, job.lifecycle)
            document = make_document(skill, job.assessment.trust.tier, job.card.last_updated)
            entry = index_json.skill_entry(
                skill, emitter.urls, job.history, job.discovery_name, job.assessment, job.lifecycle
            )
    except SourceChanged:
        raise
    except Exception as err:  # TimeUp included
        if isinstance(err, TimeUp):
            failed = TIME_LIMIT.at(
                skill.location.skill_md_path,
                limit=settings.limits.skill_seconds,
                actual=time.perf_counter() - started,
            )
        else:
            failed = INTERNAL_ERROR.at(
                skill.location.skill_md_path,
                error=describe_error(err) if not isinstance(err, UnsafeOutputPath) else f"unsafe output path {err}",
            )
        return Rendered({}, None, (), make_document(skill, "community", None), b"", failed)
    return Rendered(writer.files, discovery, findings, document, dump_json(entry).rstrip(b"\n"))

"""Rendering one skill, run in worker processes: its page, raw files, discovery artifacts, index entry.

A job is a pure function of its (picklable) arguments, so its result is cached by a digest of them
(registry/pipeline.py). A job that raises or runs past `limits.skill_seconds` does not stop the
build: the skill gets a finding naming its path and is left out.
"""

from __future__ import annotations

import copy
import functools
import time
from dataclasses import dataclass
from pathlib import Path

from registry.config import Limits
from registry.emit import html, raw, well_known
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter, UnsafeOutputPath, checked_parts, dump_json
from registry.history import SkillHistory
from registry.lifecycle import Lifecycle
from registry.model import Finding, Outline, Skill
from registry.parse.document import read_document
from registry.score import Assessment
from registry.search.documents import SearchDocument, make_document
from registry.skill_jobs import (
    INTERNAL_ERROR,
    TIME_LIMIT,
    SourceChanged,
    TimeUp,
    describe_error,
    load_contents,
    time_limit,
)


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

    skill = copy.copy(job.skill)  # the text is read again into the copy; the caller's skill stays as it was
    writer = MemoryWriter()
    emitter = _emitter(settings, settings.site.url)
    emitter.writer = writer
    started = time.perf_counter()
    try:
        with time_limit(settings.limits.skill_seconds):
            contents = load_contents(skill, settings.limits)
            if isinstance(skill.document, Outline):  # the text is not carried between stages: read it again
                skill.document = read_document(contents["SKILL.md"], skill.location.skill_md_path, settings.limits)
            raw.emit_skill(writer, skill, contents)
            discovery = None
            archive = False
            if job.discovery_name is not None:
                discovery = well_known.emit_skill(writer, skill, job.discovery_name, contents, job.executables)
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
        return Rendered({}, None, make_document(skill, "community", None), b"", failed)
    return Rendered(writer.files, discovery, document, dump_json(entry).rstrip(b"\n"))

"""Rendering one skill, run in worker processes: every emitter's per-skill hook (registry/emit/registry.py).

A job is a pure function of its (picklable) arguments, so its result is cached by a digest of them
(registry/pipeline.py). A job that raises or runs past `limits.skill_seconds` does not stop the
build: the skill gets a finding naming its path and is left out.
"""

from __future__ import annotations

import copy
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path

from registry.config import Limits
from registry.emit import html
from registry.emit.context import Emitter, SkillContext
from registry.emit.files import file_homes
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter, UnsafeOutputPath, checked_parts
from registry.history import SkillHistory
from registry.lifecycle import Lifecycle
from registry.model import Document, Finding, Outline, Skill
from registry.parse.document import decode, read_document, split
from registry.score import Assessment
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
    """What every skill's rendering shares: the same for all jobs of one build (and part of the cache key)."""

    templates: Path
    site: html.SiteInfo
    limits: Limits
    emitters: tuple[Emitter, ...]
    # The build cache folder, where compiled templates and highlighted code are kept (registry/emit/highlight.py).
    # Not part of the cache key: what is kept there never changes a byte of a page.
    cache: Path | None = field(default=None, compare=False, repr=False)


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
    """One skill's outputs: files (path -> bytes) and, per emitter in order, its per-skill result pickled."""

    files: dict[str, bytes]
    results: tuple[bytes, ...]
    failed: Finding | None = None


class MemoryWriter(SiteWriter):
    """Keeps files in memory: a worker sends them back to the build."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def write_bytes(self, relative: str, data: bytes) -> None:
        checked_parts(relative)
        self.files[relative] = data


def read_body(data: bytes, path: str, limits: Limits, outline: Outline) -> Document:
    """SKILL.md read again for the pages, which show its body: the frontmatter is split off but not loaded (its
    values are the Skill's fields already; loading the YAML again was most of this step's time), so the
    Document's `frontmatter` is None. The body is the one read_document gives: the same bytes, decoded and split
    the same way; when the split does not land where the analysis found the body, the whole file is read again."""
    data = data[: limits.skill_md_bytes]
    if data.strip():
        text = decode(data, path)[0]
        opening, closing, _blank = split(text)
        if opening is None and outline.body_line == 1:
            return Document(text, None, "", text, 1, dict(outline.key_lines), outline.recovered)
        if opening is not None and closing is not None and outline.body_line == closing + 2:
            lines = text.split("\n")
            body = "\n".join(lines[closing + 1 :])
            frontmatter = "\n".join(lines[opening + 1 : closing])
            return Document(
                text, None, frontmatter, body, outline.body_line, dict(outline.key_lines), outline.recovered
            )
    return read_document(data, path, limits)


def render_skill(job: RenderJob, settings: PageSettings) -> Rendered:
    skill = copy.copy(job.skill)  # the text is read again into the copy; the caller's skill stays as it was
    html.use_cache(settings.cache)
    writer = MemoryWriter()
    started = time.perf_counter()
    try:
        with time_limit(settings.limits.skill_seconds):
            contents = load_contents(skill.location, settings.limits)
            if isinstance(skill.document, Outline):  # the text is not carried between stages: read it again
                skill.document = read_body(
                    contents["SKILL.md"], skill.location.skill_md_path, settings.limits, skill.document
                )
            context = SkillContext(
                skill, contents, job.card, job.discovery_name, file_homes(skill, job.discovery_name, contents),
                job.history, job.assessment, job.lifecycle, job.executables, settings.templates, settings.site,
                SiteUrls(settings.site.url),
            )  # fmt: skip
            # Pickled here, in the worker: the build spools and caches them as bytes and unpickles
            # each only when a site-wide hook reads it.
            results = tuple(
                pickle.dumps(emitter.skill(context, writer), pickle.HIGHEST_PROTOCOL) for emitter in settings.emitters
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
        return Rendered({}, (), failed)
    return Rendered(writer.files, results)

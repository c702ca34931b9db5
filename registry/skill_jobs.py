"""The per-skill analysis of a build, run in worker processes: read, validate and score one skill.

Rendering one skill is registry/render_jobs.py; both share the isolation here (time limit, E001/E002).

Each job is a pure function of its (picklable) arguments, so results can be cached by a digest of
those arguments and merged in a fixed order whatever process ran them. A job that raises or runs
past `limits.skill_seconds` does not stop the build: the skill gets a finding naming its path and
is left out.
"""

from __future__ import annotations

import contextlib
import hashlib
import signal
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from registry import crawl
from registry.config import Limits
from registry.model import Finding, Outline, Severity, Skill, SkillLocation
from registry.parse.skill import parse_skill
from registry.policy import Policy
from registry.rules.base import Rule
from registry.score import ContentScore, score_content

INTERNAL_ERROR = Rule(
    "E001",
    Severity.ERROR,
    "Skill could not be processed",
    "reading this skill failed unexpectedly ({error}); it is left out and the rest of the registry still builds",
    "This is a bug in skill-registry, not necessarily in the skill: report it with this file attached.",
    "A SKILL.md that makes a parser raise.",
    blocks_loading=True,
)
TIME_LIMIT = Rule(
    "E002",
    Severity.ERROR,
    "Skill took too long to process",
    "processing this skill took longer than the limit (skill_seconds: {limit}; stopped after {actual:.1f} s)",
    "Make the skill smaller (fewer or shorter files), or raise `limits.skill_seconds` in registry.yaml.",
    "A skill with thousands of long lines that the risk scanner must read.",
    blocks_loading=True,
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


def load_contents(location: SkillLocation, limits: Limits) -> dict[str, bytes]:
    """Every published file of a skill, read once and checked against the digest the crawl took."""
    contents: dict[str, bytes] = {}
    for skill_file in location.files:
        data = crawl.read_bytes(skill_file, max(limits.skill_md_bytes, limits.file_bytes))
        if "sha256:" + hashlib.sha256(data).hexdigest() != skill_file.digest:
            raise SourceChanged(f"{location.rel_folder}/{skill_file.path} changed while the build was running")
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
        try:  # read once, for the parser and the scoring alike; an unreadable file is the parser's to report
            contents: dict[str, bytes] | None = load_contents(location, limits)
        except OSError:
            contents = None
        skill = parse_skill(location, limits, contents=contents)
        content = None
        if skill.description is not None:  # every skill a client could load is scored: it may be published
            content = score_content(skill, contents if contents is not None else load_contents(location, limits),
                                    policy)  # fmt: skip
        # Parsing and scoring keep what later stages need (fields, references, Skill.body_headings ...)
        # and rendering reads the file again: only the outline is carried on (registry/model.py).
        skill.document = skill.document.outline
        return Analysed(skill, content)
    return Analysed(Skill(location, Outline(1), findings=failures), None)


def read_skill(location: SkillLocation, limits: Limits) -> Analysed:
    """Parse one skill without scoring it: what the registry-wide checks need of a skill not examined."""
    failures: list[Finding] = []
    with isolated(location.skill_md_path, limits, failures):
        skill = parse_skill(location, limits)
        skill.document = skill.document.outline
        return Analysed(skill, None)
    return Analysed(Skill(location, Outline(1), findings=failures), None)


def describe_error(err: Exception) -> str:
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    return f"{type(err).__name__}: {err}{where}"[:500]

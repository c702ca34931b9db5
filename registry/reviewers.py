"""Outside reviewers: programs registry.yaml names (`reviewers:`) that review a skill and print SARIF 2.1.0.

The build (registry/pipeline.py) runs each reviewer on every published skill it has no review of yet: the
result is cached in the build state by the skill's content digest, the reviewer's name, its version and its
command, so an unchanged skill is never reviewed twice and a changed one is reviewed again. A reviewer runs
in a temporary copy of exactly the skill's published files (it can never write into the source), with its
time limit, a bounded output, and an environment without the build's own (no tokens or keys reach it).

What a reviewer says is kept apart from our own findings: each review is shown on the skill's page under the
reviewer's name and in index.json (`reviews`). Only a reviewer the policy lets (`raises_level: true`) can
raise a skill's risk level, to high, with an `error` result. A reviewer that is missing, runs past its time
limit, crashes or prints something that is not SARIF is one message naming it and the skill; the build goes
on without that review (and tries again next build) unless `fail_build_on_reviewer_error` is set.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pickle
import shutil
import signal
import subprocess
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

import click

from registry.discovery import PATH_NOT_IN_ARCHIVE, PATH_NOT_V1_SAFE, RISK_EXCLUDED
from registry.model import Skill
from registry.policy import RISK_LEVELS, Policy, Reviewer
from registry.score import Assessment
from registry.state import BuildState, key_of

FORMAT = 1  # how a review is read and kept: a change re-reviews every skill
MAX_OUTPUT = 8 * 1024 * 1024  # bytes of SARIF one review may print or write
MAX_RESULTS = 200  # results kept per review; the rest are counted
MAX_MESSAGE = 1000  # characters of one result's message
MAX_FIELD = 200  # characters of a rule id or a path
MAX_STDERR = 2000  # characters of a failed reviewer's stderr quoted in its message
VERSION_SECONDS = 30  # time limit of a version command
LEVELS = ("error", "warning", "note", "none")  # SARIF's result levels
SKILL_MARK = "{skill}"
OUTPUT_MARK = "{output}"
KEPT_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "TZ")


@dataclass(frozen=True)
class ReviewResult:
    """One SARIF result, as plain text: the page escapes it and index.json carries it as strings."""

    rule_id: str
    level: str  # error, warning, note or none
    message: str
    path: str | None  # relative to the skill folder when the reviewer named a file inside it
    line: int | None

    def to_json(self) -> dict:
        return {"rule_id": self.rule_id, "level": self.level, "message": self.message, "path": self.path,
                "line": self.line}  # fmt: skip


@dataclass(frozen=True)
class Review:
    """One reviewer's review of one skill."""

    reviewer: str
    version: str
    results: tuple[ReviewResult, ...]
    omitted: int = 0  # results past MAX_RESULTS, not kept
    raises_level: bool = False  # the policy lets this reviewer's error results raise the risk level

    @property
    def errors(self) -> int:
        return sum(1 for r in self.results if r.level == "error")

    def to_json(self, raised: bool = False) -> dict:
        return {
            "reviewer": self.reviewer, "version": self.version, "raises_level": self.raises_level,
            "raised_level": raised, "results": [r.to_json() for r in self.results], "omitted": self.omitted,
        }  # fmt: skip


@dataclass(frozen=True)
class ReviewedAssessment(Assessment):
    """A skill's assessment with its outside reviews, and the level our own analysis gave when one raised it."""

    reviews: tuple[Review, ...] = ()
    own_level: str | None = None  # set when a reviewer raised the level: what it was before

    def reviews_json(self) -> list[dict]:
        return [r.to_json(self.own_level is not None and r.raises_level and r.errors > 0) for r in self.reviews]


class ReviewFailed(Exception):
    """A reviewer could not review a skill: missing, too slow, crashed, or printed something else than SARIF."""


class ReviewersFailed(click.ClickException):
    """The policy says a reviewer's failure fails the build: the command prints it as `error: ...`, exits 1,
    and the site served stays as it was (nothing has been written yet)."""

    exit_code = 1


@dataclass
class Reviewed:
    """What the reviewers stage did: the messages to print, and how many reviews ran or came from the state."""

    messages: list[str] = dataclasses.field(default_factory=list)
    ran: int = 0
    reused: int = 0


def review_all(
    reviewers: Sequence[Reviewer], skills: Sequence[Skill], assessments: dict[str, Assessment],
    state: BuildState, jobs: int, fail_build: bool = False, say: Callable[[str], None] | None = None,
) -> Reviewed:  # fmt: skip
    """Review every skill with every reviewer (from the state when it can), then put the reviews into each
    skill's assessment (a ReviewedAssessment) and raise the levels the policy lets reviewers raise."""
    done = Reviewed()
    versions: dict[str, str] = {}
    for reviewer in reviewers:
        try:
            program(reviewer.command)  # a missing program is one message, not one per skill
            versions[reviewer.name] = reviewer_version(reviewer)
        except ReviewFailed as err:
            done.messages.append(f"reviewer '{reviewer.name}' was not run on any skill: {err}")
    keys = {
        (skill.id, reviewer.name): review_key(skill, reviewer, versions[reviewer.name])
        for skill in skills
        for reviewer in reviewers
        if reviewer.name in versions
    }
    cached = state.get_many("review", keys.values())
    found: dict[tuple[str, str], Review] = {}
    todo = []
    for pair, key in keys.items():
        review = _loaded(cached.get(key))
        if review is not None:
            found[pair] = review
            done.reused += 1
        else:
            todo.append(pair)
    by_id = {skill.id: skill for skill in skills}
    by_name = {reviewer.name: reviewer for reviewer in reviewers}

    def run(pair: tuple[str, str]) -> Review | str:
        skill, reviewer = by_id[pair[0]], by_name[pair[1]]
        try:
            return review_skill(reviewer, versions[reviewer.name], skill)
        except (ReviewFailed, OSError) as err:  # OSError: the copy of its files could not be made
            return f"reviewer '{reviewer.name}' could not review {skill.id}: {err}; its review is not shown"

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        outcomes = list(pool.map(run, todo))
    fresh = []
    for pair, outcome in zip(todo, outcomes, strict=True):
        if isinstance(outcome, Review):
            found[pair] = outcome
            fresh.append((keys[pair], pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)))
            done.ran += 1
        else:
            done.messages.append(outcome)
    state.put_many("review", fresh)
    state.keep_only("review", [keys[pair] for pair in found])
    for message in done.messages:
        if say is not None:
            say(f"{'error' if fail_build else 'warning'}: {message}")
    if fail_build and done.messages:
        raise ReviewersFailed(
            f"{len(done.messages)} outside review(s) failed and registry.yaml sets fail_build_on_reviewer_error "
            "(see the messages above)"
        )
    for skill in skills:
        reviews = tuple(found[(skill.id, r.name)] for r in reviewers if (skill.id, r.name) in found)
        assessments[skill.id] = with_reviews(skill, assessments[skill.id], reviews)
    return done


def _loaded(value: bytes | None) -> Review | None:
    try:
        review = pickle.loads(value) if value is not None else None
    except Exception:  # written by another version: as if absent
        return None
    return review if isinstance(review, Review) else None


def with_reviews(skill: Skill, assessment: Assessment, reviews: tuple[Review, ...]) -> ReviewedAssessment:
    """The assessment with its reviews; a reviewer allowed to raise the level, with an error result, makes it
    at least high (the skill's risk_level, which its card, page, index.json and search show)."""
    own = skill.risk_level
    raised = any(review.raises_level and review.errors for review in reviews)
    if raised and RISK_LEVELS.index(own) < RISK_LEVELS.index("high"):
        skill.risk_level = "high"
    fields = {f.name: getattr(assessment, f.name) for f in dataclasses.fields(Assessment)}
    return ReviewedAssessment(**fields, reviews=reviews, own_level=own if skill.risk_level != own else None)


def leave_out_raised(skills: Sequence[Skill], discovery: dict[str, str], policy: Policy) -> dict[str, str]:
    """The discovery names (skill id -> name) without the skills a reviewer raised to a level the policy keeps
    out of the .well-known indexes (discovery.exclude_risk), as registry/analysis.py leaves out its own."""
    kept = dict(discovery)
    for skill in skills:
        if skill.id not in kept or skill.risk_level not in policy.exclude_risk:
            continue
        override = policy.risk_override(skill.id)
        if override is not None and RISK_LEVELS.index(skill.risk_level) <= RISK_LEVELS.index(override.max_level):
            continue
        del kept[skill.id]
        dropped = {PATH_NOT_V1_SAFE.code, PATH_NOT_IN_ARCHIVE.code}  # about the files the indexes would list
        skill.findings = [f for f in skill.findings if f.code not in dropped]
        skill.findings.append(RISK_EXCLUDED.at(skill.location.skill_md_path, None, None, level=skill.risk_level))
    return kept


def review_key(skill: Skill, reviewer: Reviewer, version: str) -> str:
    return key_of("review", FORMAT, skill.content_digest, reviewer.name, version, reviewer.command,
                  reviewer.raises_level)  # fmt: skip


def environment(home: Path) -> dict[str, str]:
    """A reviewer's environment: PATH and the locale from the build's, nothing else (no token, no key)."""
    kept = {name: os.environ[name] for name in KEPT_ENVIRONMENT if name in os.environ}
    return {**kept, "HOME": str(home), "TMPDIR": str(home), "PYTHONDONTWRITEBYTECODE": "1"}


def program(argv: Sequence[str]) -> str:
    """The reviewer's program as found on the build's PATH; ReviewFailed when there is none."""
    found = shutil.which(argv[0])
    if found is None:
        raise ReviewFailed(f"its program '{argv[0]}' was not found (not on PATH, or not executable)")
    return found


def reviewer_version(reviewer: Reviewer) -> str:
    """The fixed version registry.yaml gives, or the first line the version command prints."""
    if reviewer.version is not None:
        return reviewer.version
    argv = list(reviewer.version_command)
    argv[0] = program(argv)
    with tempfile.TemporaryDirectory(prefix="reviewer-") as folder:
        status, output, stderr = _run(argv, Path(folder), VERSION_SECONDS)
    text = output.decode("utf-8", "replace").strip()
    if status != 0 or not text:
        raise ReviewFailed(f"its version command exited with status {status}{_quoted(stderr)}")
    return _plain(text.splitlines()[0], MAX_FIELD)


def review_skill(reviewer: Reviewer, version: str, skill: Skill) -> Review:
    """Run one reviewer on a copy of one skill's published files and read its SARIF."""
    argv = list(reviewer.command)
    argv[0] = program(argv)
    with tempfile.TemporaryDirectory(prefix="reviewer-") as folder:
        work = Path(folder)
        copy = work / "skill" / _folder_name(skill)
        _copy_published(skill, copy)
        output_file = work / "out" / "review.sarif"
        output_file.parent.mkdir()
        home = work / "home"
        home.mkdir()
        argv = [arg.replace(SKILL_MARK, str(copy)).replace(OUTPUT_MARK, str(output_file)) for arg in argv]
        status, stdout, stderr = _run(argv, home, reviewer.timeout, cwd=copy)
        data = stdout
        if any(OUTPUT_MARK in arg for arg in reviewer.command):
            data = _read_bounded(output_file) if output_file.is_file() else b""
        if not data.strip():
            raise ReviewFailed(f"it exited with status {status} without printing SARIF{_quoted(stderr)}")
        try:
            results, omitted = read_sarif(data, copy)
        except ReviewFailed as err:
            if status != 0:
                raise ReviewFailed(f"it exited with status {status} without printing SARIF{_quoted(stderr)}") from err
            raise
    return Review(reviewer.name, version, results, omitted, reviewer.raises_level)


def _folder_name(skill: Skill) -> str:
    name = skill.location.folder.name
    return name if name and name not in (".", "..") else "skill"


def _copy_published(skill: Skill, target: Path) -> None:
    target.mkdir(parents=True)
    for file in skill.location.files:
        parts = PurePosixPath(file.path).parts
        if not parts or file.path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            continue  # never: the crawler publishes relative paths inside the folder
        destination = target.joinpath(*parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file.source, destination, follow_symlinks=True)


def _run(argv: list[str], home: Path, timeout: float, cwd: Path | None = None) -> tuple[int, bytes, bytes]:
    """Run argv (never through a shell) in its own process group, stdout bounded; ReviewFailed on time."""
    try:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd or home,
            env=environment(home), start_new_session=True,
        )  # fmt: skip
    except OSError as err:
        raise ReviewFailed(f"its program '{argv[0]}' could not be started: {err.strerror or err}") from err
    stdout, stderr = bytearray(), bytearray()
    too_much = threading.Event()

    def drain(stream, into: bytearray, limit: int, counts: bool) -> None:
        while chunk := stream.read(65536):
            if len(into) < limit:
                into.extend(chunk[: limit - len(into)])
            elif counts:
                too_much.set()
                _kill(process)
        stream.close()

    readers = [
        threading.Thread(target=drain, args=(process.stdout, stdout, MAX_OUTPUT, True), daemon=True),
        threading.Thread(target=drain, args=(process.stderr, stderr, MAX_STDERR * 4, False), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        status = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired as err:
        _kill(process)
        process.wait()
        raise ReviewFailed(f"it ran past its time limit of {timeout:g} s and was stopped") from err
    finally:
        _kill(process)  # whatever it left running in its group
        for reader in readers:
            reader.join(timeout=5)
    if too_much.is_set():
        raise ReviewFailed(f"it printed more than {MAX_OUTPUT:,} bytes and was stopped")
    return status, bytes(stdout), bytes(stderr)


def _kill(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _read_bounded(path: Path) -> bytes:
    with path.open("rb") as file:
        data = file.read(MAX_OUTPUT + 1)
    if len(data) > MAX_OUTPUT:
        raise ReviewFailed(f"it wrote more than {MAX_OUTPUT:,} bytes of SARIF")
    return data


def _quoted(stderr: bytes) -> str:
    text = _plain(stderr.decode("utf-8", "replace").strip(), MAX_STDERR)
    return f" (its last words: {text[-300:]})" if text else ""


def read_sarif(data: bytes, folder: Path) -> tuple[tuple[ReviewResult, ...], int]:
    """The results of a SARIF 2.1.0 log, sorted, at most MAX_RESULTS (and how many more there were).

    Checks the shape this reads (version, runs, results, messages); ReviewFailed says what is wrong."""
    try:
        log = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as err:
        raise ReviewFailed(f"its output is not SARIF (not JSON: {_plain(str(err), 120)})") from err
    if not isinstance(log, dict) or log.get("version") != "2.1.0":
        raise ReviewFailed('its output is not SARIF 2.1.0 (no "version": "2.1.0" at the top)')
    runs = log.get("runs")
    if not isinstance(runs, list):
        raise ReviewFailed('its output is not SARIF 2.1.0 ("runs" is not a list)')
    results = []
    for number, run in enumerate(runs):
        if not isinstance(run, dict) or not isinstance(run.get("tool"), dict):
            raise ReviewFailed(f'its output is not SARIF 2.1.0 (runs[{number}] has no "tool")')
        defaults = _default_levels(run["tool"])
        items = run.get("results", [])
        if not isinstance(items, list):
            raise ReviewFailed(f"its output is not SARIF 2.1.0 (runs[{number}].results is not a list)")
        for index, item in enumerate(items):
            results.append(_result(item, defaults, folder, f"runs[{number}].results[{index}]"))
    results.sort(key=lambda r: (LEVELS.index(r.level), r.path or "", r.line or 0, r.rule_id, r.message))
    return tuple(results[:MAX_RESULTS]), max(0, len(results) - MAX_RESULTS)


def _default_levels(tool: dict) -> dict[str, str]:
    driver = tool.get("driver")
    rules = driver.get("rules") if isinstance(driver, dict) else None
    levels = {}
    for rule in rules if isinstance(rules, list) else ():
        if isinstance(rule, dict) and isinstance(rule.get("id"), str):
            configuration = rule.get("defaultConfiguration")
            level = configuration.get("level") if isinstance(configuration, dict) else None
            if level in LEVELS:
                levels[rule["id"]] = level
    return levels


def _result(item: object, defaults: dict[str, str], folder: Path, where: str) -> ReviewResult:
    if not isinstance(item, dict):
        raise ReviewFailed(f"its output is not SARIF 2.1.0 ({where} is not an object)")
    message = item.get("message")
    if not isinstance(message, dict):
        raise ReviewFailed(f"its output is not SARIF 2.1.0 ({where} has no message)")
    text = next((v for v in (message.get("text"), message.get("markdown")) if isinstance(v, str)), None)
    if text is None:  # a message kept in the rule's messageStrings: its id is what can be shown
        text = f"(message {message['id']})" if isinstance(message.get("id"), str) else ""
    rule_id = item.get("ruleId")
    if not isinstance(rule_id, str):
        rule = item.get("rule")
        rule_id = rule.get("id") if isinstance(rule, dict) and isinstance(rule.get("id"), str) else ""
    level = item.get("level")
    if level not in LEVELS:
        level = defaults.get(rule_id, "warning")  # SARIF's default level
    path, line = None, None
    locations = item.get("locations")
    if isinstance(locations, list) and locations and isinstance(locations[0], dict):
        physical = locations[0].get("physicalLocation")
        if isinstance(physical, dict):
            artifact = physical.get("artifactLocation")
            uri = artifact.get("uri") if isinstance(artifact, dict) else None
            path = _relative(uri, folder) if isinstance(uri, str) else None
            region = physical.get("region")
            start = region.get("startLine") if isinstance(region, dict) else None
            line = start if isinstance(start, int) and not isinstance(start, bool) and start > 0 else None
    return ReviewResult(_plain(rule_id, MAX_FIELD), level, _plain(text, MAX_MESSAGE), path, line)


def _relative(uri: str, folder: Path) -> str | None:
    """A result's file relative to the skill folder (the reviewer saw a temporary copy, whose place means
    nothing on the site); a file elsewhere keeps its name only."""
    parts = urlsplit(uri)
    raw = unquote(parts.path) if parts.scheme in ("", "file") else uri
    if not raw:
        return None
    for prefix in (str(folder), str(folder.resolve())):
        if raw == prefix:
            return None
        if raw.startswith(prefix + "/"):
            raw = raw[len(prefix) + 1 :]
            break
    else:
        if raw.startswith("/"):
            raw = PurePosixPath(raw).name
    return _plain(raw.removeprefix("./"), MAX_FIELD) or None


def _plain(text: str, most: int) -> str:
    """Untrusted text made visible and short: control and format characters dropped, at most `most` long."""
    kept = "".join(" " if ch in "\t\r\n" else ch for ch in text if ch in "\t\r\n" or unicodedata.category(ch)[0] != "C")
    kept = " ".join(kept.split())
    return kept if len(kept) <= most else kept[: most - 1] + "…"

"""The build: one entry point that takes the lock, checks whether anything changed, and runs the pipeline.

A build whose inputs (the source as git sees it, the policy, the lifecycle file, the code, the
options) are those of the last successful build returns that build's result and writes nothing,
without even importing the pipeline. Otherwise registry/pipeline.py runs the stages: crawl,
parse, validate, history, score, render, emit, search, then the atomic swap.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import resource
import shutil
import time
from pathlib import Path

from registry import history
from registry.config import BuildOptions, search_cache
from registry.emit.output import build_lock, served_intact
from registry.emit.writer import dump_json
from registry.lifecycle import find_lifecycle
from registry.policy import find_policy
from registry.result import BuildResult, Progress, no_progress
from registry.state import BuildState, code_fingerprint, key_of
from registry.workers import Workers, fewer_collections

__all__ = ["BuildResult", "build", "search_cache"]  # BuildResult and search_cache re-exported for callers


def _file_digest(path: Path | None) -> str:
    if path is None or not path.is_file():
        return "none"
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(options: BuildOptions, progress: Progress = no_progress) -> BuildResult:
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    peak_rss: dict[str, float] = {}

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = timings.get(stage, 0.0) + now - clock
        clock = now
        # The process's peak resident memory so far (MB): the stage that raises it is the one to look at.
        peak_rss[stage] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)

    jobs = options.jobs or os.cpu_count() or 1
    cache = search_cache(options.out)
    with build_lock(options.out):
        if options.clean:
            shutil.rmtree(cache, ignore_errors=True)
        state = BuildState(cache / "state.sqlite")
        with contextlib.closing(state):
            policy_file = options.policy or find_policy(options.source)
            code = code_fingerprint(options.templates, options.static, options.schema)
            policy_digest = _file_digest(policy_file)
            inputs = _inputs_fingerprint(options, code, policy_digest, policy_file)
            previous = _unchanged_result(options, state, inputs)
            if previous is not None:
                lap("check")
                previous.timings, previous.peak_rss = timings, peak_rss
                _write_report(options, previous)
                return previous
            from registry import pipeline

            with Workers(jobs) as workers, fewer_collections():
                result = pipeline.run(options, progress, lap, timings, pipeline.Incremental(state, code, workers))
            result.peak_rss = peak_rss
            _write_report(options, result)
            if inputs is not None and result.written:
                state.set_meta("inputs", inputs)
                state.set_meta("result", _summary_of(result))
            else:
                state.set_meta("inputs", None)
            return result


def _inputs_fingerprint(options: BuildOptions, code: str, policy_digest: str, policy_file: Path | None) -> str | None:
    """Everything a build reads, as one digest; None when the source is not a git work tree."""
    signature = history.tree_signature(options.source)
    if signature is None:
        return None
    lifecycle_file = find_lifecycle(policy_file, options.source)
    settings = dataclasses.replace(options, clean=False, jobs=None, progress=False, report=None)
    return key_of(
        "inputs", code, policy_digest, _file_digest(lifecycle_file), repr(settings),
        str(options.source.resolve()), signature,
    )  # fmt: skip


def _unchanged_result(options: BuildOptions, state: BuildState, inputs: str | None) -> BuildResult | None:
    """The last build's result when nothing it read has changed and its site is still in place."""
    if inputs is None or options.clean or state.meta("inputs") != inputs:
        return None
    served_inode = state.meta("served_inode")
    if served_inode is None or not served_intact(options.out, served_inode):
        return None
    result = state.meta("result")
    if not isinstance(result, BuildResult):
        return None
    result.work = {"analysed": 0, "analyses_reused": 0, "rendered": 0, "renders_reused": 0, "files_changed": 0}
    result.unchanged = True
    return result


def _summary_of(result: BuildResult) -> BuildResult:
    """What a build that changes nothing returns: counts, findings, left-out skills; no Skill objects."""
    repository = history.RepositoryInfo(
        result.repository.is_git, result.repository.commit, result.repository.shallow, result.repository.dirty,
        commit_time=result.repository.commit_time,
    )  # fmt: skip
    return BuildResult(
        result.source, result.out, [], result.left_out, result.findings, repository, result.discovery, True,
        published_ids=result.published_ids,
    )  # fmt: skip


def _write_report(options: BuildOptions, result: BuildResult) -> None:
    if options.report is not None:
        options.report.parent.mkdir(parents=True, exist_ok=True)
        options.report.write_bytes(dump_json(result.report(), pretty=True))

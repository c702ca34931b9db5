"""What a build prints: a progress bar on a terminal for long runs, then a one-screen summary."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from registry.build import BuildResult

PROGRESS_THRESHOLD = 200


@contextlib.contextmanager
def progress_reporter(enabled: bool) -> Iterator:
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda stage, done, total: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        tasks: dict[str, int] = {}

        def report(stage: str, done: int, total: int) -> None:
            if total < PROGRESS_THRESHOLD:
                return
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        yield report


def incremental_line(result: BuildResult) -> str:
    if result.unchanged:
        return "Nothing changed since the last build (git status, policy, code): nothing rebuilt, nothing written."
    work = result.work
    if not work:
        return ""
    return (
        f"Incremental: {work.get('analysed', 0)} skills read, {work.get('analyses_reused', 0)} reused; "
        f"{work.get('rendered', 0)} rendered, {work.get('renders_reused', 0)} reused; "
        f"{work.get('files_changed', 0)} files changed."
    )


def print_build_summary(result: BuildResult, quiet: bool) -> None:
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    counts = result.counts()
    total_time = sum(result.timings.values())
    state = "written to" if result.written else "NOT written (strict mode found errors):"
    if result.unchanged or (result.written and result.work.get("files_changed") == 0):
        state = "unchanged at"
    headline = (
        f"{counts['published']} published, {counts['left_out']} left out, "
        f"{counts['errors']} errors, {counts['warnings']} warnings, {counts['info']} info "
        f"in {total_time:.2f}s; site {state} {result.out}"
    )
    if quiet:
        console.print(headline)
        return
    if result.left_out:
        table = Table(title="Left out", title_justify="left", show_lines=False)
        table.add_column("skill", overflow="fold")
        table.add_column("first reason", overflow="fold")
        for item in result.left_out[:15]:
            reason = item.reasons[0] if item.reasons else None
            where = f"{reason.path}:{reason.line}" if reason and reason.line else (reason.path if reason else "")
            table.add_row(item.id, f"{reason.code} {reason.message} ({where})" if reason else "")
        if len(result.left_out) > 15:
            table.add_row(f"… and {len(result.left_out) - 15} more", "see --report")
        console.print(table)
    codes = Counter(f.code for f in result.findings)
    if codes:
        top = ", ".join(f"{code}×{count}" for code, count in sorted(codes.items(), key=lambda i: (-i[1], i[0]))[:10])
        console.print(f"Most frequent findings: {top}")
    stages = ", ".join(f"{stage} {seconds:.2f}s" for stage, seconds in result.timings.items())
    console.print(f"Stages: {stages}")
    console.print(incremental_line(result))
    if not result.repository.is_git:
        console.print("Source is not a git repository: no dates, versions history or commit in the outputs.")
    elif result.repository.shallow:
        console.print("Source is a shallow clone: dates and history may be incomplete.")
    console.print(headline, style="bold")
    sys.stderr.flush()

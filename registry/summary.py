"""What a build prints, all on stderr: a progress bar on a terminal for long runs, then a one-screen summary.

The build's results are the site and the --report file; what it prints is about the run, so stdout
stays empty and the summary never mixes with output a script reads.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from registry.report import console as make_console
from registry.report import location

if TYPE_CHECKING:
    from registry.result import BuildResult

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
        return "Nothing changed since the last build (git status, policy, code): nothing rebuilt, nothing written"
    work = result.work
    if not work:
        return ""
    return (
        f"Incremental: {work.get('analysed', 0)} skills read, {work.get('analyses_reused', 0)} reused; "
        f"{work.get('rendered', 0)} rendered, {work.get('renders_reused', 0)} reused; "
        f"{work.get('files_changed', 0)} files changed"
    )


def print_build_summary(result: BuildResult, quiet: bool, reasons: bool = False) -> None:
    """The build's summary on stderr; with `reasons` (serve's rebuilds), one line per left-out skill and
    per error, so a skill that vanishes from the served site says why at once."""
    console = make_console(stderr=True)
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
        if reasons:
            _print_reasons(console, result)
        console.print(headline)
        return
    if result.left_out:
        table = Table(title="Left out", title_justify="left", show_lines=False)
        table.add_column("skill", overflow="fold")
        table.add_column("first reason", overflow="fold")
        for item in result.left_out[:15]:
            reason = item.reasons[0] if item.reasons else None
            table.add_row(item.id, f"{reason.code} {reason.message} ({location(reason)})" if reason else "")
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
        console.print("note: the source is not a git repository: no dates, version history or commit in the outputs")
    elif result.repository.shallow:
        console.print("note: the source is a shallow clone: dates and history may be incomplete")
    console.print(headline, style="bold")
    sys.stderr.flush()


def _print_reasons(console, result: BuildResult, most: int = 20) -> None:
    lines = [
        f"left out {item.id}: {reason.code} {reason.message} ({location(reason)})"
        for item in result.left_out
        for reason in item.reasons[:1]
    ]
    lines += [f"error {f.code} {f.message} ({location(f)})" for f in result.findings if f.severity.value == "error"]
    for line in lines[:most]:
        console.print(line, highlight=False, markup=False)
    if len(lines) > most:
        console.print(f"… and {len(lines) - most} more (--report FILE lists them all)", highlight=False)

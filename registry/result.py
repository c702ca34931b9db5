"""What a build returns and how it reports progress: shared by the build entry point and the pipeline."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from registry import history
from registry.model import Finding, LeftOut, Severity, Skill

if TYPE_CHECKING:
    from registry.emit.search import SearchStats
    from registry.score import Assessment

__all__ = ["BuildResult", "Progress", "no_progress"]


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
    work: dict[str, int] = field(default_factory=dict)  # skills analysed and rendered, and reused from state
    published_ids: list[str] = field(default_factory=list)
    peak_rss: dict[str, float] = field(default_factory=dict)  # stage -> this process's peak RSS (MB) after it
    unchanged: bool = False  # nothing the build reads had changed: the last result, nothing redone

    @property
    def error_count(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    def counts(self) -> dict[str, int]:
        by_severity = Counter(f.severity.value for f in self.findings)
        return {
            "skills_found": len(self.published_ids) + len(self.left_out),
            "published": len(self.published_ids),
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
            "peak_rss_mb_after_stage": self.peak_rss,
            "work": self.work,
            "unchanged": self.unchanged,
            "search": self.search.to_json() if self.search else None,
            "published": self.published_ids,
            "left_out": [item.to_json() for item in self.left_out],
            "findings": [f.to_json() for f in self.findings],
        }


Progress = Callable[[str, int, int], None]


def no_progress(stage: str, done: int, total: int) -> None:
    return None

"""/stats/: every chart of registry/emit/charts.py, each with its numbers as a table beside it.

The home page shows a compact set of the same charts (emit/html.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from registry.emit.charts import chart_set
from registry.emit.html import make_environment
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter

if TYPE_CHECKING:
    from registry.emit.context import SiteContext, SkillContext

STATS_PAGE = "stats/index.html"


@dataclass(frozen=True)
class StatsPage:
    """Writes the stats page; nothing per skill (the charts read the cards the site-wide context holds)."""

    name: ClassVar[str] = "stats"
    stage: ClassVar[str] = "emit"

    def skill(self, context: SkillContext, writer: SiteWriter) -> None:
        return None

    def site(self, context: SiteContext, writer: SiteWriter, results: Sequence[None]) -> None:
        cards = [context.cards[skill.id] for skill in context.published]
        charts = chart_set(cards, has_history=context.site.commit is not None)
        page_file = STATS_PAGE
        html = (
            make_environment(context.options.templates)
            .get_template("stats.html")
            .render(
                site=context.site,
                root=SiteUrls.root_from(page_file),
                canonical=context.urls.absolute("stats/"),
                charts=charts,
                page_title="Registry statistics",
                page_description=f"Charts of the {len(cards)} skills in {context.title}.",
            )
        )
        writer.write_text(page_file, html)

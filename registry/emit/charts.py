"""Charts of the registry as inline SVG, drawn at build time: growth over the git history, skills per
category, the risk mix, the trust tiers and, per publisher, their skills over time.

This module computes the geometry (plain data); templates/partials/chart.html draws it, and Jinja
escapes every label. No charting library: pygal and its kin ship their own CSS and scripts, which
the site's CSP forbids inline and which fight the site's light and dark themes. Here colours are
CSS classes that read the custom properties of static/style.css, so a chart follows the theme.

Every number is rounded and formatted here, and every ordering breaks ties by name, so the same
registry draws the same bytes (tests/hardening/test_determinism.py). Nothing reads the clock:
the time axis ends at the last publication, not at "today".
"""

from __future__ import annotations

import datetime
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from registry.policy import RISK_LEVELS, TIERS

if TYPE_CHECKING:
    from registry.emit.context import Card

WIDTH = 640  # viewBox units; CSS scales the drawing to the column
HALF_WIDTH = 420  # a chart in a two-column row: drawn narrower so its text is not scaled down as much
SMALL_WIDTH = 300
ROW = 24  # a bar chart's row
BAR = 16
LABEL_WIDTH = 150  # the bar labels' column
LABEL_CHARACTERS = 22  # a longer label is shortened in the drawing (the table has it whole)
VALUE_ROOM = 56  # right of the longest bar, for its number
HOME_CATEGORIES = 8
STATS_CATEGORIES = 30
TOP_PUBLISHERS = 6
NO_CATEGORY = "(no category)"
NO_HISTORY = "Built from a folder without git history: no publication dates, so nothing to draw over time."
NO_DATES = "No skill has a publication date in the git history, so nothing to draw over time."


def number(value: float) -> str:
    """A coordinate as the SVG gets it: at most one decimal, no trailing zero, the same text every build."""
    text = f"{round(value, 1):.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Bar:
    label: str  # as drawn (shortened)
    full_label: str
    value: int
    y: str
    width: str
    text_y: str
    value_x: str
    tone: str  # a CSS class suffix: "accent", "risk-high", "tier-official"


@dataclass(frozen=True)
class Tick:
    at: str  # x for the time axis, y for the count axis (its grid line)
    label: str
    anchor: str = "middle"
    text_at: str = ""  # where the count axis' label sits (its baseline, a little below the line)


@dataclass(frozen=True)
class Chart:
    """One picture and its numbers. kind: "bars", "time", or "note" (nothing to draw, and `note` says why)."""

    key: str  # unique on its page: the ids of its title and description derive from it
    title: str
    description: str  # the numbers in words: the SVG's <desc>
    kind: str
    width: int
    height: int
    table_head: tuple[str, ...]
    table: tuple[tuple[str, ...], ...]
    bars: tuple[Bar, ...] = ()
    line: str = ""  # the step line of a time chart (an SVG path)
    area: str = ""  # the same, closed down to the axis
    x_ticks: tuple[Tick, ...] = ()
    y_ticks: tuple[Tick, ...] = ()
    plot: tuple[str, str, str, str] = ("0", "0", "0", "0")  # left, top, right, bottom of a time chart's plot
    note: str = ""
    label_x: str = number(LABEL_WIDTH - 8)  # where labels end: bar labels, the count axis' labels
    bar_x: str = number(LABEL_WIDTH)
    bar_height: int = BAR
    x_label_y: str = ""  # the time axis' labels' baseline


@dataclass(frozen=True)
class ChartSet:
    home: tuple[Chart, ...]
    growth: Chart
    categories: Chart
    risk: Chart
    tiers: Chart
    publishers: tuple[Chart, ...] = field(default_factory=tuple)


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARACTERS else label[: LABEL_CHARACTERS - 1] + "…"


def _listed(pairs: Sequence[tuple[str, int]], limit: int = 10) -> str:
    words = "; ".join(f"{label}: {value}" for label, value in pairs[:limit])
    return words + (f"; and {len(pairs) - limit} more" if len(pairs) > limit else "") + "."


def bar_chart(
    key: str, title: str, head: str, pairs: Sequence[tuple[str, int]], tones: Sequence[str] | None = None,
    width: int = WIDTH,
) -> Chart:  # fmt: skip
    """Horizontal bars in the given order, each with its count at its end."""
    plot_width = width - LABEL_WIDTH - VALUE_ROOM
    largest = max((value for _, value in pairs), default=0)
    bars = []
    for row, (label, value) in enumerate(pairs):
        length = plot_width * value / largest if largest else 0
        if value and length < 1:
            length = 1  # a count of one among thousands still shows
        top = 4 + row * ROW
        bars.append(
            Bar(
                label=_short(label), full_label=label, value=value, y=number(top), width=number(length),
                text_y=number(top + BAR - 4), value_x=number(LABEL_WIDTH + length + 6),
                tone=tones[row] if tones else "accent",
            )
        )  # fmt: skip
    total = sum(value for _, value in pairs)
    return Chart(
        key=key, title=title, description=f"{title}, {total} skills in all. " + _listed(pairs), kind="bars",
        width=width, height=8 + len(pairs) * ROW, table_head=(head, "Skills"),
        table=tuple((label, str(value)) for label, value in pairs), bars=tuple(bars),
    )  # fmt: skip


def _day(value: str) -> int:
    return datetime.date.fromisoformat(value[:10]).toordinal()


def _date(day: int) -> str:
    return datetime.date.fromordinal(day).isoformat()


def _nice_ceiling(value: int) -> tuple[int, int]:
    """(top of the count axis, step between its ticks): about four steps of 1, 2 or 5 times a power of ten."""
    if value <= 4:
        return max(value, 1), 1
    rough = value / 4
    power = 10 ** math.floor(math.log10(rough))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough)
    return step * math.ceil(value / step), step


def _table_by_period(days: Sequence[int], undated: int) -> tuple[tuple[str, ...], ...]:
    """Added and running total per month (per day when everything falls in one month)."""
    by_month = len({_date(day)[:7] for day in days}) > 1
    added = Counter(_date(day)[:7] if by_month else _date(day) for day in days)
    rows, total = [], 0
    for period in sorted(added):
        total += added[period]
        rows.append((period, str(added[period]), str(total)))
    if undated:
        rows.append(("no date", str(undated), str(total + undated)))
    return tuple(rows)


def time_chart(
    key: str, title: str, dates: Sequence[str | None], note_if_empty: str, domain: tuple[int, int] | None = None,
    top: int | None = None, width: int = WIDTH, height: int = 220, ticks: int = 4,
) -> Chart:  # fmt: skip
    """The running total of skills by first publication: a step line over days.

    `domain` (first and last day) and `top` (the count axis' largest value) let small multiples share
    their scales; by default they fit the data. The axis starts the day before the first publication,
    so the first step rises from zero.
    """
    days = sorted(_day(value) for value in dates if value)
    undated = sum(1 for value in dates if not value)
    head = ("Period", "Added", "Total")
    if not days:
        return Chart(
            key=key, title=title, description=note_if_empty, kind="note", width=width, height=48,
            table_head=head, table=_table_by_period(days, undated), note=note_if_empty,
        )  # fmt: skip
    first, last = domain or (days[0], days[-1])
    start = first - 1
    left, right, top_margin, bottom = 44.0, width - 14.0, 10.0, height - 26.0
    axis_top, step = _nice_ceiling(top if top is not None else len(days))

    def x(day: int) -> float:
        return left + (right - left) * (day - start) / (last - start)

    def y(count: float) -> float:
        return bottom - (bottom - top_margin) * count / axis_top

    # At most one step per unit of width (about a pixel; the days within one merge into the last of them):
    # years of daily publications still make a path of a few kilobytes.
    steps: dict[int, tuple[float, int]] = {}
    for count, day in enumerate(days, start=1):
        steps[round(x(day))] = (x(day), count)
    line = f"M{number(x(start))},{number(y(0))}" + "".join(
        f"H{number(at)}V{number(y(count))}" for at, count in steps.values()
    )
    line += f"H{number(x(last))}"
    area = line + f"V{number(y(0))}Z"
    tick_days = sorted({start + round((last - start) * i / (ticks - 1)) for i in range(ticks)})
    anchors = {tick_days[0]: "start", tick_days[-1]: "end"}
    x_ticks = tuple(Tick(number(x(day)), _date(day), anchors.get(day, "middle")) for day in tick_days)
    y_ticks = tuple(
        Tick(number(y(value)), str(value), "end", number(y(value) + 4)) for value in range(0, axis_top + 1, step)
    )
    description = (
        f"{title}: the first on {_date(days[0])}, {len(days)} by {_date(days[-1])}"
        + (f"; {undated} more without a publication date" if undated else "")
        + "."
    )
    return Chart(
        key=key, title=title, description=description, kind="time", width=width, height=height,
        table_head=head, table=_table_by_period(days, undated), line=line, area=area, x_ticks=x_ticks,
        y_ticks=y_ticks, plot=(number(left), number(top_margin), number(right), number(bottom)),
        label_x=number(left - 6), x_label_y=number(height - 8),
    )  # fmt: skip


def _counts(values: Iterable[str], order: Sequence[str] | None = None) -> list[tuple[str, int]]:
    counts = Counter(values)
    if order is not None:
        return [(key, counts.get(key, 0)) for key in order]
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def _top(pairs: list[tuple[str, int]], limit: int) -> list[tuple[str, int]]:
    if len(pairs) <= limit:
        return pairs
    rest = pairs[limit - 1 :]
    return [*pairs[: limit - 1], (f"{len(rest)} others", sum(value for _, value in rest))]


def chart_set(cards: Sequence[Card], has_history: bool) -> ChartSet:
    """Every chart of the home and stats pages, from the published skills' cards."""
    empty = NO_HISTORY if not has_history else NO_DATES
    growth = time_chart("growth", "Published skills over time", [c.first_published for c in cards], empty)
    categories = _counts(c.category or NO_CATEGORY for c in cards)
    risk_levels = list(RISK_LEVELS)
    risk = bar_chart(
        "risk", "Risk mix", "Risk level", _counts((c.risk for c in cards), risk_levels),
        [f"risk-{level}" for level in risk_levels], width=HALF_WIDTH,
    )  # fmt: skip
    tier_order = list(reversed(TIERS))
    tiers = bar_chart(
        "tiers", "Trust tiers", "Tier", _counts((c.tier for c in cards), tier_order),
        [f"tier-{tier}" for tier in tier_order], width=HALF_WIDTH,
    )  # fmt: skip
    title = "Skills per category"
    dates = [c.first_published for c in cards]
    home_growth = time_chart("growth", growth.title, dates, empty, width=HALF_WIDTH, ticks=3)
    home_top = _top(categories, HOME_CATEGORIES)
    home_categories = bar_chart("home-categories", title, "Category", home_top, width=HALF_WIDTH)
    return ChartSet(
        home=(home_growth, home_categories, risk, tiers),
        growth=growth,
        categories=bar_chart("categories", title, "Category", _top(categories, STATS_CATEGORIES)),
        risk=risk,
        tiers=tiers,
        publishers=publisher_charts(cards),
    )


def publisher_growth(publisher: str, cards: Sequence[Card], has_history: bool) -> Chart:
    """One publisher's skills over time, on its own page."""
    return time_chart(
        "publisher-growth", f"{publisher}'s skills over time", [c.first_published for c in cards],
        NO_DATES if has_history else NO_HISTORY,
    )  # fmt: skip


def publisher_charts(cards: Sequence[Card]) -> tuple[Chart, ...]:
    """Small multiples for the publishers with the most skills, on one time axis and one count axis, so
    their lines compare at a glance."""
    by_publisher: dict[str, list[str | None]] = {}
    for card in cards:
        by_publisher.setdefault(card.publisher, []).append(card.first_published)
    ranked = sorted(by_publisher.items(), key=lambda item: (-len(item[1]), item[0]))[:TOP_PUBLISHERS]
    days = [_day(value) for card in cards if (value := card.first_published)]
    if not days:
        return ()  # the growth chart already says why nothing is drawn over time
    domain = (min(days), max(days))
    top = max((sum(1 for d in dates if d) for _, dates in ranked), default=0)
    charts = []
    for rank, (publisher, dates) in enumerate(ranked, start=1):
        chart = time_chart(
            f"publisher-{rank}", f"{publisher}: {len(dates)} skills", dates,
            f"None of {publisher}'s skills has a publication date.", domain=domain, top=top,
            width=SMALL_WIDTH, height=150, ticks=2,
        )  # fmt: skip
        charts.append(chart)
    return tuple(charts)

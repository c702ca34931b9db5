"""The charts' geometry and data (registry/emit/charts.py) and the pages that draw them (home and /stats/)."""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser

import pytest
from conftest import commit_all, git, simple_skill, write_skill

from registry.build import build
from registry.config import BuildOptions
from registry.emit import charts
from registry.emit.charts import NO_HISTORY, bar_chart, chart_set, number, time_chart
from registry.emit.context import Card


def card(skill_id: str, first: str | None = None, category: str | None = "data", risk: str = "low",
         tier: str = "community") -> Card:  # fmt: skip
    publisher, name = skill_id.split("/")
    return Card(
        id=skill_id, name=name, description="d", publisher=publisher, version=None, license=None, category=category,
        tags=(), dialects=(), url=f"skills/{skill_id}/", first_published=first, last_updated=first, warnings=0,
        errors=0, tier=tier, trust_score=0, risk=risk, category_inferred=False, version_valid=True,
        description_tokens=0, body_tokens=0, reference_tokens=0,
    )  # fmt: skip


def test_numbers_are_written_the_same_way_every_time():
    assert [number(v) for v in (0, 1.0, 2.25, 2.35, 100 / 3, -0.01, 596.0)] == [
        "0", "1", "2.2", "2.4", "33.3", "0", "596",
    ]  # fmt: skip


def test_bars_are_proportional_and_a_single_skill_still_shows():
    chart = bar_chart("c", "Per category", "Category", [("data", 1000), ("ops", 500), ("rare", 1), ("none", 0)])
    widths = [float(bar.width) for bar in chart.bars]
    full = charts.WIDTH - charts.LABEL_WIDTH - charts.VALUE_ROOM
    assert widths == [full, full / 2, 1.0, 0.0]
    assert [bar.full_label for bar in chart.bars] == ["data", "ops", "rare", "none"]  # the order given
    assert [float(bar.y) for bar in chart.bars] == [4, 4 + charts.ROW, 4 + 2 * charts.ROW, 4 + 3 * charts.ROW]
    assert chart.height == 8 + 4 * charts.ROW
    # The value sits just past its bar's end; the table holds the same numbers.
    assert [float(bar.value_x) for bar in chart.bars] == [charts.LABEL_WIDTH + w + 6 for w in widths]
    assert chart.table == (("data", "1000"), ("ops", "500"), ("rare", "1"), ("none", "0"))
    assert "1501 skills in all" in chart.description and "rare: 1" in chart.description


def test_a_long_label_is_shortened_in_the_drawing_and_whole_in_the_table():
    label = "a-category-name-far-longer-than-the-label-column"
    [bar] = bar_chart("c", "t", "Category", [(label, 3)]).bars
    assert bar.label == label[: charts.LABEL_CHARACTERS - 1] + "…" and bar.full_label == label


def test_growth_is_a_running_total_over_days():
    dates = ["2025-01-10T10:00:00Z", "2025-01-10T12:00:00Z", "2025-03-01T00:00:00Z", None]
    chart = time_chart("g", "Growth", dates, "no dates")
    assert chart.kind == "time"
    left, top, right, bottom = (float(v) for v in chart.plot)
    # The line starts at zero the day before the first publication and ends at the last at the dated total (3).
    steps = re.findall(r"H([\d.]+)V([\d.]+)", chart.line)
    assert chart.line.startswith(f"M{number(left)},{number(bottom)}")
    assert [float(x) for x, _ in steps] == [pytest.approx(left + (right - left) * 1 / 51, abs=0.05), right]
    axis_top = int(chart.y_ticks[-1].label)
    heights = [(bottom - float(y)) / (bottom - top) * axis_top for _, y in steps]
    assert heights == [pytest.approx(2, abs=0.01), pytest.approx(3, abs=0.01)]
    assert chart.area == chart.line + f"V{number(bottom)}Z"
    assert (chart.x_ticks[0].label, chart.x_ticks[-1].label) == ("2025-01-09", "2025-03-01")
    assert (chart.x_ticks[0].anchor, chart.x_ticks[-1].anchor) == ("start", "end")
    # Per month in the table (two months), and the undated skill counted apart.
    assert chart.table == (("2025-01", "2", "2"), ("2025-03", "1", "3"), ("no date", "1", "4"))
    assert "1 more without a publication date" in chart.description


def test_the_count_axis_ends_on_a_round_number():
    assert [charts._nice_ceiling(n) for n in (1, 3, 7, 10, 41, 300, 9999)] == [
        (1, 1), (3, 1), (8, 2), (10, 5), (60, 20), (300, 100), (10000, 5000),
    ]  # fmt: skip


def test_many_days_draw_at_most_one_step_per_unit_of_width():
    first = datetime.date(2010, 1, 1).toordinal()
    dates = [datetime.date.fromordinal(first + n).isoformat() for n in range(15 * 365)]
    chart = time_chart("g", "Growth", dates, "none")
    xs = [float(x) for x in re.findall(r"H([\d.]+)V", chart.line)]
    left, top, right, bottom = (float(v) for v in chart.plot)
    assert len(xs) == len(set(xs)) <= right - left + 1  # not one step a day
    last_height = bottom - (bottom - top) * len(dates) / int(chart.y_ticks[-1].label)
    assert chart.line.endswith(f"V{number(last_height)}H{number(right)}")  # every skill still counted
    assert len(chart.table) == 15 * 12  # one row a month


def test_a_registry_without_git_history_says_so_instead_of_an_empty_axis():
    cards = [card("acme/a"), card("acme/b", category=None)]
    drawn = chart_set(cards, has_history=False)
    assert drawn.growth.kind == "note" and drawn.growth.note == NO_HISTORY and drawn.growth.line == ""
    assert drawn.publishers == ()
    assert drawn.growth.table == (("no date", "2", "2"),)
    # The other charts do not need dates.
    assert drawn.categories.table == (("(no category)", "1"), ("data", "1"))


def test_risk_and_tiers_list_every_level_in_order_even_at_zero():
    cards = [card("a/x", risk="high"), card("a/y", risk="low", tier="official"), card("a/z", risk="high")]
    drawn = chart_set(cards, has_history=True)
    assert drawn.risk.table == (("low", "1"), ("medium", "0"), ("high", "2"), ("critical", "0"))
    assert [bar.tone for bar in drawn.risk.bars] == ["risk-low", "risk-medium", "risk-high", "risk-critical"]
    assert drawn.tiers.table == (("official", "1"), ("verified", "0"), ("community", "2"))


def test_categories_beyond_the_limit_are_summed_as_others():
    cards = [card(f"p/s{i}", category=f"c{i % 12:02d}") for i in range(12 * 3)] + [card("p/extra", category="c00")]
    drawn = chart_set(cards, has_history=True)
    home = dict(drawn.home[1].table)
    assert len(home) == charts.HOME_CATEGORIES and home["c00"] == "4" and home["5 others"] == "15"
    assert sum(int(v) for v in home.values()) == len(cards)
    assert len(drawn.categories.table) == 12  # the stats page has room for all of them


def test_publishers_small_multiples_share_both_axes():
    cards = [card(f"big/s{i}", f"2025-0{1 + i % 3}-01") for i in range(9)]
    cards += [card("small/one", "2025-06-30"), card("small/two", None)]
    drawn = chart_set(cards, has_history=True)
    big, small = drawn.publishers
    assert (big.title, small.title) == ("big: 9 skills", "small: 2 skills")
    assert big.x_ticks == small.x_ticks and big.y_ticks == small.y_ticks
    assert big.x_ticks[-1].label == "2025-06-30"  # the whole registry's time span, not the publisher's own
    assert small.table == (("2025-06-30", "1", "1"), ("no date", "1", "2"))


def test_top_publishers_are_the_largest_ties_by_name():
    cards = [card(f"p{n}/s{i}", "2025-01-01") for n in range(8) for i in range(n % 3 + 1)]
    titles = [c.title for c in chart_set(cards, has_history=True).publishers]
    assert titles == ["p2: 3 skills", "p5: 3 skills", "p1: 2 skills", "p4: 2 skills", "p7: 2 skills", "p0: 1 skills"]


class _Svgs(HTMLParser):
    """Each chart's SVG: its attributes, and the ids of the elements inside it."""

    def __init__(self):
        super().__init__()
        self.svgs: list[dict] = []
        self.ids: set[str] = set()
        self.inside = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag == "svg":
            self.svgs.append(attributes)


def svgs_of(html: str) -> _Svgs:
    parser = _Svgs()
    parser.feed(html)
    return parser


@pytest.fixture(scope="module")
def dated_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("charts")
    source = root / "src"
    write_skill(source, "acme/alpha", simple_skill("alpha"))
    git(source, "init", "-q", "-b", "main")
    commit_all(source, "first", "2025-01-10T10:00:00+00:00")
    write_skill(source, "acme/beta", simple_skill("beta"))
    write_skill(source, "zeta/<gamma>", simple_skill("gamma"))
    commit_all(source, "second", "2025-03-01T10:00:00+00:00")
    out = root / "site"
    build(BuildOptions(source=source, out=out, base_url="https://skills.example.org/"))
    return out


def test_the_stats_page_draws_every_chart_with_a_title_a_description_and_a_table(dated_site):
    html = (dated_site / "stats" / "index.html").read_text(encoding="utf-8")
    found = svgs_of(html)
    keys = ["growth", "risk", "tiers", "categories", "publisher-1", "publisher-2"]
    assert [svg["aria-labelledby"] for svg in found.svgs] == [f"chart-{key}-title" for key in keys]
    for svg in found.svgs:
        assert svg["role"] == "img" and {svg["aria-labelledby"], svg["aria-describedby"]} <= found.ids
        assert "style" not in svg  # the CSP forbids inline style
    assert html.count('<details class="chart-data">') == len(keys)
    assert '<th scope="row">2025-01</th><td class="num">1</td><td class="num">1</td>' in html
    assert '<th scope="row">2025-03</th><td class="num">2</td><td class="num">3</td>' in html
    assert "<script" not in html.split("</head>", 1)[1]  # readable without JavaScript: nothing runs in the body


def test_the_home_page_has_the_compact_set_and_links_to_the_stats_page(dated_site):
    html = (dated_site / "index.html").read_text(encoding="utf-8")
    labels = [svg["aria-labelledby"] for svg in svgs_of(html).svgs]
    assert labels == ["chart-growth-title", "chart-home-categories-title", "chart-risk-title", "chart-tiers-title"]
    assert 'href="stats/"' in html
    assert 'href="../stats/"' in (dated_site / "browse" / "index.html").read_text(encoding="utf-8")  # the nav


def test_a_plain_folder_build_says_there_is_no_history(tmp_path):
    source = tmp_path / "src"
    write_skill(source, "acme/alpha", simple_skill("alpha"))
    out = tmp_path / "site"
    build(BuildOptions(source=source, out=out, base_url="https://skills.example.org/"))
    for page in ("index.html", "stats/index.html"):
        html = (out / page).read_text(encoding="utf-8")
        assert NO_HISTORY in html
        assert "chart-growth-title" not in html  # no empty axis drawn
    assert "publishers over time" not in (out / "stats" / "index.html").read_text(encoding="utf-8")


def test_each_publisher_page_draws_its_own_skills_over_time(dated_site):
    html = (dated_site / "publishers" / "acme" / "index.html").read_text(encoding="utf-8")
    found = svgs_of(html)
    assert [svg["aria-labelledby"] for svg in found.svgs] == ["chart-publisher-growth-title"]
    assert "acme&#39;s skills over time" in html or "acme's skills over time" in html
    # acme published alpha in January and beta in March: its own running total, not the registry's.
    assert '<th scope="row">2025-01</th><td class="num">1</td><td class="num">1</td>' in html
    assert '<th scope="row">2025-03</th><td class="num">1</td><td class="num">2</td>' in html
    assert not svgs_of((dated_site / "categories").glob("*/index.html").__next__().read_text()).svgs

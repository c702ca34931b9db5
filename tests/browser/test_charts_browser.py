"""The charts (home and /stats/) in a real browser, light and dark: drawn, named for screen readers, their
numbers in a table, coloured by the theme, and nothing on the page runs or fails (console, CSP, requests).
axe runs on both pages in tests/browser/test_accessibility.py."""

import pytest
from browser_support import dom_constructs, screenshot
from playwright.sync_api import expect

pytest_plugins = ["site_fixture"]

CHARTS = {
    "": ["Published skills over time", "Skills per category", "Risk mix", "Trust tiers"],
    "stats/": ["Published skills over time", "Risk mix", "Trust tiers", "Skills per category"],
    "publishers/datakit/": ["datakit's skills over time"],
}

DRAWN = """
() => [...document.querySelectorAll("svg.chart-svg")].map(svg => {
  const box = svg.getBoundingClientRect();
  const bar = svg.querySelector(".chart-bar, .chart-line");
  return {
    name: svg.querySelector("title").textContent,
    width: box.width, height: box.height,
    paint: bar ? getComputedStyle(bar)[bar.matches(".chart-line") ? "stroke" : "fill"] : null,
    text: getComputedStyle(svg.querySelector("text")).fill,
  };
})
"""


@pytest.mark.parametrize("path", list(CHARTS), ids=["home", "stats", "publisher"])
def test_charts_are_drawn_and_follow_the_colour_scheme(site, open_page, path):
    paints = {}
    for scheme in ("light", "dark"):
        page, problems = open_page(color_scheme=scheme)
        response = page.goto(site.url + path)
        assert response.status == 200
        drawn = page.evaluate(DRAWN)
        names = [chart["name"] for chart in drawn]
        assert names[: len(CHARTS[path])] == CHARTS[path]
        for chart in drawn:
            assert chart["width"] > 150 and chart["height"] > 40, chart
            assert chart["paint"] not in (None, "none", "rgb(0, 0, 0)"), chart  # styled by the site's CSS
        paints[scheme] = [(chart["paint"], chart["text"]) for chart in drawn]
        for name in CHARTS[path]:
            expect(page.get_by_role("img", name=name).first).to_be_visible()
        assert dom_constructs(page) == []  # the charts are the site's own SVG, nothing else got in
        assert page.evaluate("window.__pwned") is None
        screenshot(page, f"charts-{path.strip('/') or 'home'}-{scheme}")
        assert problems == []
    assert all(light != dark for light, dark in zip(paints["light"], paints["dark"], strict=True))


def test_each_chart_has_its_numbers_in_a_table(site, open_page):
    page, problems = open_page()
    page.goto(site.url + "stats/")
    risk = page.locator("figure.chart", has=page.get_by_role("img", name="Risk mix"))
    drawn_values = risk.locator("svg .chart-value").all_text_contents()
    table = risk.locator("details.chart-data table")
    expect(table).to_be_hidden()
    risk.locator("summary").click()
    expect(table).to_be_visible()
    assert table.locator("tbody th").all_text_contents() == ["low", "medium", "high", "critical"]
    assert table.locator("tbody td").all_text_contents() == drawn_values
    assert sum(int(value) for value in drawn_values) == len(site.result.published)
    description = page.get_by_role("img", name="Risk mix").get_attribute("aria-describedby")
    assert f"{len(site.result.published)} skills in all" in page.locator(f"#{description}").text_content()
    # Growth: the site fixture commits the skills-index skills, then the hostile skills, on two dates.
    growth = page.locator("figure.chart", has=page.get_by_role("img", name="Published skills over time"))
    periods = growth.locator("details.chart-data tbody th").all_text_contents()
    assert periods == ["2025-01", "2025-03"]
    assert problems == []


def test_the_stats_page_is_one_click_from_every_page(site, open_page):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Stats").click()
    expect(page).to_have_url(site.url + "stats/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Registry statistics")
    assert problems == []

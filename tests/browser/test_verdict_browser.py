"""The verdict first, in a real browser at a phone's size: on a critical skill's page the verdict is on the
first screen, and its install commands stay hidden until the reader opens "Install anyway".

Its own small registry (tests/verdict_skills.py), whose policy offers critical skills to the `skills` CLI:
under the default policy a critical skill has no install commands to hide. Served with the production
headers, CSP included; axe runs (bypassing the CSP, as in test_accessibility.py) on the page with the
commands shown, in light and dark.
"""

from __future__ import annotations

import pytest
from browser_support import dom_constructs, screenshot, serve
from playwright.sync_api import expect
from test_accessibility import AXE, COLOUR_RULES, RUN_AXE
from verdict_skills import CRITICAL, HIGH, LOW, write_verdict_registry

from registry.build import build
from registry.config import BuildOptions

pytest_plugins = ["site_fixture"]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def verdict_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("verdict-browser")
    write_verdict_registry(root / "src")
    served = serve(root / "site")
    build(BuildOptions(source=root / "src", out=root / "site", base_url=served.url, jobs=1))
    yield served
    served.close()


def above_the_fold(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_critical_page_opens_with_the_verdict_and_hides_install_until_asked(verdict_site, open_page, scheme):
    page, problems = open_page(viewport=PHONE, color_scheme=scheme)
    page.goto(f"{verdict_site.url}skills/{CRITICAL}/")
    headline = page.locator("#verdict-headline")
    expect(headline).to_contain_text("This skill sends your crypto wallet files")
    assert above_the_fold(headline) and above_the_fold(page.locator(".verdict-reasons li").first)
    headline_box, title_box = headline.bounding_box(), page.locator("h1").bounding_box()
    assert headline_box["y"] < title_box["y"]  # before the skill's own name, let alone its install box
    commands = page.locator("#install-npx")
    expect(commands).to_be_hidden()
    expect(page.locator("#install-npx-site")).to_be_hidden()
    assert page.locator("#install-copy").count() == 0  # no manual recipe for critical, open or not
    screenshot(page, f"verdict-critical-phone-{scheme}", full_page=False)
    summary = page.get_by_text("Install anyway", exact=True)
    summary.scroll_into_view_if_needed()
    summary.click()
    expect(commands).to_be_visible()
    expect(commands).to_have_text(f"npx skills add {verdict_site.url}skills/{CRITICAL}/")
    assert page.evaluate("window.__pwned") is None and dom_constructs(page) == []  # the markup file name is text
    assert problems == []


def test_a_reason_leads_to_its_finding_in_the_risk_analysis(verdict_site, open_page):
    page, problems = open_page(viewport=PHONE)
    page.goto(f"{verdict_site.url}skills/{CRITICAL}/")
    link = page.locator(".verdict-reasons a").first
    target = link.get_attribute("href")
    link.click()
    finding = page.locator(target)
    expect(finding).to_be_in_viewport()
    expect(finding.locator("code").first).to_have_text("R120")  # rule codes stay, in the risk section
    page.get_by_role("link", name="Full risk analysis").click()
    expect(page.locator("#risk-title")).to_be_in_viewport()
    assert problems == []


def test_high_keeps_its_recipe_behind_install_anyway_and_low_keeps_todays_box(verdict_site, open_page):
    page, problems = open_page(viewport=PHONE)
    page.goto(f"{verdict_site.url}skills/{HIGH}/")
    expect(page.locator("#install-copy")).to_be_hidden()
    page.get_by_text("Install anyway", exact=True).click()
    expect(page.locator("#install-copy")).to_be_visible()
    page.goto(f"{verdict_site.url}skills/{LOW}/")
    assert page.locator(".verdict").count() == 0 and page.get_by_text("Install anyway").count() == 0
    page.locator("#install-npx").scroll_into_view_if_needed()
    expect(page.locator("#install-npx")).to_be_visible()
    assert problems == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_verdict_and_the_opened_install_box_pass_axe(verdict_site, open_page, scheme):
    page, problems = open_page(viewport=PHONE, color_scheme=scheme, bypass_csp=True)
    page.goto(f"{verdict_site.url}skills/{CRITICAL}/")
    page.get_by_text("Install anyway", exact=True).click()
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    violations = page.evaluate(RUN_AXE, None if scheme == "light" else COLOUR_RULES)
    assert [v for v in violations if v["impact"] in ("serious", "critical")] == []
    assert problems == []

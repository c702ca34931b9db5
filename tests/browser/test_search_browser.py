"""The site search in a real browser: typing, the first result, the URL, filters, keyboard, no errors."""

import re

import pytest
from browser_support import screenshot, serve, watch
from conftest import SKILLS_INDEX
from playwright.sync_api import expect

from registry.build import build
from registry.config import BuildOptions


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser-search") / "site"
    served = serve(out)
    build(BuildOptions(source=SKILLS_INDEX, out=out, base_url=served.url))
    yield served
    served.close()


def test_typing_a_query_shows_the_right_first_result_and_updates_the_url(site, browser):
    page = browser.new_page()
    problems = watch(page)
    page.goto(site.url + "search/")
    page.wait_for_selector("form[data-ready]")
    page.fill("#search-input", "dokerfile")  # a typo
    page.wait_for_selector("a.result-title")
    first = page.query_selector("a.result-title")
    assert first.get_attribute("href").endswith("/skills/acme-devtools/dockerfile-lint/")
    assert "q=dokerfile" in page.url
    page.fill("#search-input", "commit message")
    expect(page.locator("a.result-title").first).to_have_attribute("href", re.compile("commit-message-writer"))
    page.go_back()
    expect(page.locator("#search-input")).to_have_value("dokerfile")
    expect(page.locator("a.result-title").first).to_have_attribute("href", re.compile("dockerfile-lint"))
    screenshot(page, "search-typo")
    assert problems == []


def test_query_in_the_url_filters_and_keyboard_navigation(site, browser):
    page = browser.new_page()
    problems = watch(page)
    page.goto(site.url + "search/?q=csv&tier=verified")
    page.wait_for_selector("a.result-title")
    assert page.input_value("#search-tier") == "verified"
    badges = page.eval_on_selector_all(".result .badge[class*=tier-]", "els => els.map(e => e.textContent)")
    assert badges and set(badges) == {"verified"}
    page.focus("#search-input")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.classList.contains('result-title')")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.getAttribute('data-result-index')") == "1"
    assert problems == []


def test_search_page_without_javascript_points_to_browse(site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url + "search/?q=pdf")
    assert "browse every skill" in page.inner_text("main")
    context.close()


def test_search_downloads_little(site, browser):
    page = browser.new_page()
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(len(r.body())) if "/pagefind/" in r.url and r.ok else None)
    page.goto(site.url + "search/?q=changelog")
    page.wait_for_selector("a.result-title")
    assert sum(sizes) < 400 * 1024  # the whole index is never downloaded

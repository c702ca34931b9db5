"""The site search in a real browser: typing, the first result, the URL, filters, keyboard, no errors."""

import re
from urllib.parse import urlparse

import pytest
from browser_support import screenshot, serve, watch
from conftest import SKILLS_INDEX
from playwright.sync_api import expect

from registry.build import build
from registry.config import BuildOptions


@pytest.fixture(scope="module")
def site_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("browser-search") / "site"


@pytest.fixture(scope="module")
def site(site_folder):
    out = site_folder
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


def test_search_downloads_little(site, site_folder, browser, capsys):
    """From page load to the first results the page fetches a few small files, never the whole index."""
    page = browser.new_page()
    responses: list[tuple[str, int]] = []
    page.on("response", lambda r: responses.append((urlparse(r.url).path, len(r.body()))) if r.ok else None)
    page.goto(site.url + "search/?q=changelog")
    page.wait_for_selector("a.result-title")
    loaded = list(responses)
    page.close()
    index_files = [(path, size) for path, size in loaded if path.startswith("/search/") and path != "/search/"]
    whole_index = sum(f.stat().st_size for f in site_folder.joinpath("search").rglob("*.*") if f.name != "index.html")
    with capsys.disabled():
        print(
            f"\nsearch page, first query: {len(loaded)} responses, {sum(size for _, size in loaded)} bytes in all;"
            f" index files {len(index_files)}, {sum(size for _, size in index_files)} of {whole_index} bytes:"
            f" {sorted(index_files)}"
        )
    assert index_files and {"/search/manifest.json"} <= {path for path, _ in index_files}
    assert sum(size for _, size in index_files) < whole_index / 2


def test_why_line_names_a_typo_correction(site, browser):
    page = browser.new_page()
    problems = watch(page)
    page.goto(site.url + "search/?q=dokerfile")
    first = page.locator(".result").first
    expect(first.locator("a.result-title")).to_have_attribute("href", re.compile("dockerfile-lint"))
    why = first.locator(".why").inner_text()
    assert "dokerfile → dockerfile" in why and "(typo)" in why and "(exact)" not in why
    # The correction is marked in the name, though the query never spelt it that way.
    assert first.locator("a.result-title mark").first.inner_text().lower() == "dockerfile"
    page.fill("#search-input", "commit message")
    first = page.locator(".result").first
    expect(first.locator("a.result-title")).to_have_attribute("href", re.compile("commit-message-writer"))
    why = first.locator(".why").inner_text()
    assert "commit in name" in why and "(exact)" in why and "typo" not in why
    assert problems == []


def test_a_query_matching_nothing_says_so_without_asking_for_missing_files(site, browser):
    page = browser.new_page()
    problems = watch(page)  # a request for a shard that does not exist would show here as an HTTP 404
    page.goto(site.url + "search/?q=zzqx+quorple")
    expect(page.locator("[data-search-status]")).to_have_text(re.compile("No skill matches"))
    assert page.locator("a.result-title").count() == 0
    assert problems == []

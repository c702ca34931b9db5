"""Paginated listings in a real browser: /browse/ of skills-index built with five cards a page. Next and the
numbered links walk the pages, a sort link opens that order's pages, the browse page's former ?sort= addresses
lead there with their filters, the filters follow the page links, and all of it works without JavaScript too.
axe runs on a middle page. No console error, failed request or CSP violation anywhere."""

from __future__ import annotations

import collections
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_support import dom_constructs, screenshot, serve
from conftest import REPO_ROOT, SKILLS_INDEX, commit_all, git, simple_skill, write_skill
from playwright.sync_api import expect
from site_checks import executable_constructs

from registry.build import build
from registry.config import BuildOptions
from registry.emit import context as emit_context

pytest_plugins = ["site_fixture"]

PER_PAGE = 5
CARDS = "[data-filter-list] > .card:not([hidden]) .card-title a"
AXE = REPO_ROOT / "tests" / "interop" / "node_modules" / "axe-core" / "axe.min.js"


def arrive(page, url: str) -> None:
    """Wait for a navigation to `url` and for the page to load: reading it, or leaving it, any sooner races
    its parsing and its script's download (which leaving would cancel, a failed request)."""
    expect(page).to_have_url(url)
    page.wait_for_load_state()


@dataclass
class Paged:
    url: str
    out: Path
    skills: list[dict]  # index.json's


@pytest.fixture(scope="module")
def paged(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser-paged")
    source = root / "source"
    shutil.copytree(SKILLS_INDEX, source)
    shutil.copy(REPO_ROOT / "registry.yaml", source / "registry.yaml")
    git(source, "init", "-q", "-b", "main")
    commit_all(source, "skills-index", "2025-01-10T10:00:00+00:00")
    # Skills published later, last by address: "newest" puts them first. Their bodies are long, so the cheapest
    # skills (the token order's first page) come from several categories, which a filter can narrow.
    for name in ("yak-shaver", "yarn-spinner", "yodel-coach", "zebra-striper", "zed-notes", "zen-timer", "zoo-map"):
        write_skill(source, f"zeta-ops/{name}", simple_skill(name, body="# Steps\n\n" + "Do one thing. " * 400))
    commit_all(source, "zeta-ops", "2025-04-01T10:00:00+00:00")
    out = root / "site"
    served = serve(out)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(emit_context, "PAGE_SIZE", PER_PAGE)
        build(BuildOptions(source=source, out=out, base_url=served.url))
    skills = json.loads((out / "index.json").read_text(encoding="utf-8"))["skills"]
    yield Paged(served.url, out, skills)
    served.close()


def shown(page) -> list[str]:
    hrefs = page.eval_on_selector_all(CARDS, "els => els.map(e => e.getAttribute('href'))")
    return [re.search(r"skills/(.+)/$", href).group(1) for href in hrefs]


def by_address(skills) -> list[str]:
    return sorted(s["id"] for s in skills)


def newest(skills) -> list[str]:
    return [s["id"] for s in sorted(skills, key=lambda s: (s["first_published"], s["id"]), reverse=True)]


def test_next_walks_every_page_in_order(paged, open_page):
    page, problems = open_page()
    page.goto(paged.url + "browse/")
    pages = -(-len(paged.skills) // PER_PAGE)
    expect(page.locator("main .lead")).to_have_text(
        f"Showing 1–{PER_PAGE} of {len(paged.skills)} skills, sorted by address (publisher/name). Page 1 of {pages}."
    )
    seen = shown(page)
    screenshot(page, "paged-browse-1")
    for number in range(2, pages + 1):
        page.get_by_role("link", name=f"Next page, page {number}").click()
        arrive(page, paged.url + f"browse/page/{number}/")
        expect(page.locator("nav.pagination a[aria-current=page]")).to_have_text(str(number))
        seen += shown(page)
    assert seen == by_address(paged.skills)
    expect(page.locator("nav.pagination .pagination-off")).to_have_text("Next →")  # the last page
    page.get_by_role("link", name=f"Page 1 of {pages}", exact=True).click()
    arrive(page, paged.url + "browse/")
    assert problems == []


def test_a_sort_link_opens_that_order_across_pages(paged, open_page):
    page, problems = open_page()
    page.goto(paged.url + "browse/page/3/")
    page.locator("nav.sort-links").get_by_role("link", name="Newest").click()
    arrive(page, paged.url + "browse/newest/")
    expect(page.locator("nav.sort-links a[aria-current=true]")).to_have_text("Newest")
    expected = newest(paged.skills)
    assert expected != by_address(paged.skills) and shown(page) == expected[:PER_PAGE]
    assert shown(page)[0].startswith("zeta-ops/")  # the later commit's skills come first
    page.get_by_role("link", name="Next page, page 2").click()
    arrive(page, paged.url + "browse/newest/page/2/")
    assert shown(page) == expected[PER_PAGE : 2 * PER_PAGE]
    expect(page).to_have_title(re.compile(r"^Browse all skills, newest first, page 2 of \d+ · "))
    page.locator("nav.sort-links").get_by_role("link", name="Context cost when used, lowest").click()
    arrive(page, paged.url + "browse/body-tokens-asc/")
    cost = {s["id"]: s["context_cost"]["body_tokens"] for s in paged.skills}
    assert shown(page) == sorted(cost, key=lambda i: (cost[i], i))[:PER_PAGE]
    assert problems == []


def test_an_old_sort_address_leads_to_its_pages_with_the_filters(paged, open_page):
    cost = {s["id"]: s["context_cost"]["body_tokens"] for s in paged.skills}
    first_page = sorted(cost, key=lambda i: (cost[i], i))[:PER_PAGE]
    category = {s["id"]: s["category"] for s in paged.skills}
    # The category most common on the first page of the order, which the filter then narrows that page to.
    chosen = collections.Counter(category[i] for i in first_page).most_common(1)[0][0]
    wanted = [i for i in first_page if category[i] == chosen]
    assert 0 < len(wanted) < PER_PAGE
    page, problems = open_page()
    page.goto(paged.url + f"browse/?sort=body-tokens-asc&category={chosen}")
    arrive(page, paged.url + f"browse/body-tokens-asc/?category={chosen}")
    expect(page.locator("select[name=category]")).to_have_value(chosen)
    assert shown(page) == wanted
    expect(page.locator("[data-filter-status]")).to_have_text(f"{len(wanted)} of {PER_PAGE} skills on this page match")
    # The filters follow the page and sort links; search and the category's own pages cover every skill.
    assert page.get_attribute("nav.pagination a[rel=next]", "href").endswith(
        f"browse/body-tokens-asc/page/2/?category={chosen}"
    )
    assert page.get_attribute("nav.sort-links a[data-sort=name]", "href").endswith(f"browse/name/?category={chosen}")
    page.select_option("select[name=risk]", "low")
    assert parse_qs(urlsplit(page.url).query) == {"category": [chosen], "risk": ["low"]}
    search = page.get_attribute("a[data-search-all]", "href")
    assert search.endswith(f"search/?category={chosen}&risk=low")
    expect(page.locator("a[data-category-link]")).to_have_text(f"every skill in {chosen}")
    page.locator("a[data-category-link]").click()
    arrive(page, paged.url + f"categories/{chosen}/")
    assert sorted(shown_listing(page)) == sorted(i for i in category if category[i] == chosen)[:PER_PAGE]
    page.go_back()
    page.locator("nav.pagination a[rel=next]").click()
    arrive(page, paged.url + f"browse/body-tokens-asc/page/2/?category={chosen}&risk=low")
    expect(page.locator("select[name=risk]")).to_have_value("low")
    page.goto(paged.url + "browse/?sort=no-such-order&q=csv")  # an unknown order: stays, drops it
    arrive(page, paged.url + "browse/?q=csv")
    assert problems == []


def shown_listing(page) -> list[str]:
    hrefs = page.eval_on_selector_all(".cards .card-title a", "els => els.map(e => e.getAttribute('href'))")
    return [re.search(r"skills/(.+)/$", href).group(1) for href in hrefs]


def test_pages_and_orders_work_without_javascript(paged, open_page):
    page, problems = open_page(java_script_enabled=False)
    page.goto(paged.url + "browse/")
    expect(page.locator("form[data-filter]")).to_be_hidden()
    page.get_by_role("link", name="Next page, page 2").click()
    arrive(page, paged.url + "browse/page/2/")
    assert shown_listing(page) == by_address(paged.skills)[PER_PAGE : 2 * PER_PAGE]
    page.locator("nav.sort-links").get_by_role("link", name="Name").click()
    arrive(page, paged.url + "browse/name/")
    names = sorted(paged.skills, key=lambda s: (s["name"].casefold(), s["name"], s["id"]))
    assert shown_listing(page) == [s["id"] for s in names][:PER_PAGE]
    page.goto(paged.url + "publishers/zeta-ops/")  # a listing: its chart on the first page, then its pages
    expect(page.locator("#publisher-growth-title")).to_be_visible()
    page.get_by_role("link", name="Next page, page 2").click()
    arrive(page, paged.url + "publishers/zeta-ops/page/2/")
    expect(page.locator("#publisher-growth-title")).to_have_count(0)
    zeta = sorted(s["id"] for s in paged.skills if s["publisher"] == "zeta-ops")
    assert len(zeta) > PER_PAGE and shown_listing(page) == zeta[PER_PAGE:]
    assert problems == []


def test_a_middle_page_is_accessible_and_runs_nothing_of_its_own(paged, open_page):
    html = (paged.out / "browse" / "page" / "2" / "index.html").read_text(encoding="utf-8")
    assert executable_constructs(html) == []
    page, problems = open_page()
    page.goto(paged.url + "browse/page/2/")
    assert dom_constructs(page) == []
    assert problems == []
    assert AXE.is_file(), f"{AXE} is missing: run `npm ci --prefix tests/interop`"
    page, problems = open_page(bypass_csp=True)
    for path in ("browse/page/2/", "browse/newest/page/3/", "publishers/zeta-ops/", "categories/development/page/2/"):
        page.goto(paged.url + path)
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        violations = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id + ': ' + v.help)"
        )
        assert violations == [], path
    screenshot(page, "paged-development-2")
    assert problems == []

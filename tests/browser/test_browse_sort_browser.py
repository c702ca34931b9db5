"""Browse sorted by context cost in a real browser: each order is its own static pages (browse/<order>/), its
order follows index.json's estimates, ties keep the address order, the browse page's former ?sort= addresses
lead there, and filters still apply to the sorted list. (Several pages: tests/browser/test_pagination_browser.py.)"""

import json
import re

import pytest
from playwright.sync_api import expect

pytest_plugins = ["site_fixture"]

CARDS = "[data-filter-list] > .card:not([hidden]) .card-title a"


def arrive(page, url: str) -> None:
    """Wait for a navigation to `url` and for the page to load: reading it, or leaving it, any sooner races
    its parsing and its script's download (which leaving would cancel, a failed request)."""
    expect(page).to_have_url(url)
    page.wait_for_load_state()


def costs(site) -> dict[str, dict]:
    skills = json.loads((site.out / "index.json").read_text(encoding="utf-8"))["skills"]
    return {s["id"]: s["context_cost"] for s in skills}


def shown(page) -> list[str]:
    hrefs = page.eval_on_selector_all(CARDS, "els => els.map(e => e.getAttribute('href'))")
    return [re.search(r"skills/(.+)/$", href).group(1) for href in hrefs]


@pytest.mark.parametrize(
    ("choice", "label", "field", "highest_first"),
    [
        ("body-tokens-asc", "Context cost when used, lowest", "body_tokens", False),
    ],
)
def test_browse_sorts_by_context_cost(site, open_page, choice, label, field, highest_first):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    by_address = shown(page)
    cost = costs(site)
    assert sorted(by_address) == sorted(cost) == by_address
    assert len({cost[i][field] for i in by_address}) > 1  # the sort has something to do
    sign = -1 if highest_first else 1
    expected = sorted(by_address, key=lambda i: (sign * cost[i][field], by_address.index(i)))
    assert expected != by_address
    page.locator("nav.sort-links").get_by_role("link", name=label, exact=True).click()
    arrive(page, site.url + f"browse/{choice}/")
    assert shown(page) == expected
    expect(page.locator("nav.sort-links a[aria-current=true]")).to_have_text(label)
    page.locator("nav.sort-links").get_by_role("link", name="Address", exact=True).click()
    arrive(page, site.url + "browse/")
    assert shown(page) == by_address
    page.goto(site.url + f"browse/?sort={choice}")  # the former address of the order
    arrive(page, site.url + f"browse/{choice}/")
    assert shown(page) == expected
    assert problems == []


def test_a_sorted_url_applies_with_a_filter(site, open_page):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    by_address = shown(page)
    cost = costs(site)
    page.goto(site.url + "browse/?category=data&sort=body-tokens-asc")
    arrive(page, site.url + "browse/body-tokens-asc/?category=data")
    expect(page.locator("select[name=category]")).to_have_value("data")
    category = {
        s["id"]: s["category"] for s in json.loads((site.out / "index.json").read_text(encoding="utf-8"))["skills"]
    }
    wanted = [i for i in by_address if category[i] == "data"]
    assert len(wanted) > 1
    assert shown(page) == sorted(wanted, key=lambda i: (cost[i]["body_tokens"], by_address.index(i)))
    assert problems == []

"""Browse sorted by context cost in a real browser: the order follows index.json's estimates, ties keep the
page's order (by address), the choice is in the URL, and filters still apply to the sorted list."""

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytest_plugins = ["site_fixture"]

CARDS = "[data-filter-list] > .card:not([hidden]) .card-title a"


def costs(site) -> dict[str, dict]:
    skills = json.loads((site.out / "index.json").read_text(encoding="utf-8"))["skills"]
    return {s["id"]: s["context_cost"] for s in skills}


def shown(page) -> list[str]:
    hrefs = page.eval_on_selector_all(CARDS, "els => els.map(e => e.getAttribute('href'))")
    return [re.search(r"skills/(.+)/$", href).group(1) for href in hrefs]


@pytest.mark.parametrize(
    ("choice", "field", "highest_first"),
    [
        ("body-tokens", "body_tokens", True),
        ("body-tokens-asc", "body_tokens", False),
        ("description-tokens", "description_tokens", True),
        ("reference-tokens", "reference_tokens", True),
    ],
)
def test_browse_sorts_by_context_cost(site, open_page, choice, field, highest_first):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    by_address = shown(page)
    cost = costs(site)
    assert sorted(by_address) == sorted(cost)
    assert len({cost[i][field] for i in by_address}) > 1  # the sort has something to do
    sign = -1 if highest_first else 1
    expected = sorted(by_address, key=lambda i: (sign * cost[i][field], by_address.index(i)))
    assert expected != by_address
    page.select_option("select[name=sort]", choice)
    assert shown(page) == expected
    assert parse_qs(urlparse(page.url).query) == {"sort": [choice]}
    page.select_option("select[name=sort]", "")
    assert shown(page) == by_address
    assert problems == []


def test_a_sorted_url_applies_with_a_filter(site, open_page):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    by_address = shown(page)
    cost = costs(site)
    page.goto(site.url + "browse/?category=data&sort=body-tokens")
    expect(page.locator("select[name=sort]")).to_have_value("body-tokens")
    category = {
        s["id"]: s["category"] for s in json.loads((site.out / "index.json").read_text(encoding="utf-8"))["skills"]
    }
    wanted = [i for i in by_address if category[i] == "data"]
    assert len(wanted) > 1
    assert shown(page) == sorted(wanted, key=lambda i: (-cost[i]["body_tokens"], by_address.index(i)))
    assert problems == []

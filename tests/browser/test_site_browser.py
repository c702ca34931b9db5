"""The site in a real browser: home, browse filters, a skill page of each dialect, copy-install, the raw
SKILL.md link, keyboard navigation and dark mode. Every page: no console error, no CSP violation, no failed
request, no HTTP error. Expected values come from the build's own index.json, never from the test."""

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import pytest
from browser_support import screenshot
from playwright.sync_api import expect

pytest_plugins = ["site_fixture"]

# One skill of skills-index per dialect, with the panels only that dialect produces.
DIALECT_PAGES = {
    "agent-skills": ("acme-devtools/api-docs-writer", []),
    "claude-code": ("acme-devtools/dependency-upgrade", ["#settings-title"]),
    "skillli": ("registry-team/skill-publishing-checklist", ["#quiz-title"]),
    "gibberish": ("datakit/csv-quick-stats", ["#tools-title"]),
    "agent-flow-lite": ("datakit/sql-query-review", ["#inputs-title"]),
    "bouno": ("studio-ink/accessibility-audit", ["#arguments-title"]),
    "wolffish": ("opsworks/log-triage", ["#tools-title", "#triggers-title", "#patterns-title"]),
}


def index(site) -> dict[str, dict]:
    return {s["id"]: s for s in json.loads((site.out / "index.json").read_text(encoding="utf-8"))["skills"]}


def visible_cards(page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-filter-list] > .card:not([hidden]) .card-title a", "els => els.map(e => e.getAttribute('href'))"
    )


def card_id(href: str) -> str:
    return re.search(r"skills/(.+)/$", href).group(1)


def test_home(site, open_page):
    page, problems = open_page()
    response = page.goto(site.url)
    assert response.status == 200 and "default-src 'none'" in response.headers["content-security-policy"]
    skills = index(site)
    stats = dict(
        zip(page.locator(".stats dt").all_inner_texts(), page.locator(".stats dd").all_inner_texts(), strict=True)
    )
    assert stats["Skills"] == str(len(skills))
    assert stats["Publishers"] == str(len({s["publisher"] for s in skills.values()}))
    expect(page.locator("#install-all")).to_have_text(f"npx skills add {site.url}")
    expect(page.locator("button[data-copy=install-all]")).to_be_visible()  # enhanced by app.js
    newest = page.locator("#newest-title + .cards .card-title a").first.get_attribute("href")
    assert card_id(newest) in skills
    page.get_by_role("link", name="Browse all skills").click()
    expect(page).to_have_url(site.url + "browse/")
    screenshot(page, "browse-from-home")
    assert problems == []


@pytest.mark.parametrize(
    ("name", "value", "attribute"),
    [
        ("category", "data", lambda s: s["category"]),
        ("tier", "verified", lambda s: s["trust"]["tier"]),
        ("risk", "high", lambda s: s["risk"]["level"]),  # the hostile pipe-to-shell skill
        ("dialect", "wolffish", lambda s: "wolffish" if "wolffish" in s["dialects"] else ""),
        ("version", "semver", lambda s: "semver" if s["version_valid"] else ("other" if s["version"] else "none")),
    ],
)
def test_browse_filter_updates_the_url_and_survives_back(site, open_page, name, value, attribute):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    expected = sorted(i for i, s in index(site).items() if attribute(s) == value)
    assert 0 < len(expected) < len(index(site))  # the filter really narrows the list
    assert len(visible_cards(page)) == len(index(site))
    page.select_option(f"select[name={name}]", value)
    assert parse_qs(urlparse(page.url).query) == {name: [value]}
    assert sorted(card_id(h) for h in visible_cards(page)) == expected
    expect(page.locator("[data-filter-status]")).to_have_text(f"{len(expected)} of {len(index(site))} skills match")
    screenshot(page, f"browse-{name}-{value}")
    page.locator("[data-filter-list] > .card:not([hidden]) .card-title a").first.click()
    expect(page).to_have_url(re.compile(r"/skills/"))
    page.go_back()
    expect(page).to_have_url(re.compile(rf"browse/\?{name}={value}$"))
    expect(page.locator(f"select[name={name}]")).to_have_value(value)
    assert sorted(card_id(h) for h in visible_cards(page)) == expected
    assert problems == []


def test_browse_filters_combine_and_a_url_applies_them(site, open_page):
    page, problems = open_page()
    page.goto(site.url + "browse/?category=devops&dialect=wolffish&q=log")
    expected = sorted(
        i for i, s in index(site).items() if s["category"] == "devops" and "wolffish" in s["dialects"] and "log" in i
    )
    assert expected and sorted(card_id(h) for h in visible_cards(page)) == expected
    expect(page.locator("#filter-input")).to_have_value("log")
    page.select_option("select[name=category]", "")
    assert parse_qs(urlparse(page.url).query) == {"q": ["log"], "dialect": ["wolffish"]}
    assert problems == []


@pytest.mark.parametrize("dialect", list(DIALECT_PAGES))
def test_skill_page_of_each_dialect(site, open_page, dialect):
    skill_id, panels = DIALECT_PAGES[dialect]
    entry = index(site)[skill_id]
    assert dialect in entry["dialects"]
    page, problems = open_page()
    response = page.goto(f"{site.url}skills/{skill_id}/")
    assert response.status == 200
    expect(page.locator("h1")).to_have_text(entry["name"])
    expect(page.locator(".dialects .chip-dialect", has_text=dialect)).to_be_visible()
    for panel in [*panels, "#install-title", "#trust-title", "#risk-title", "#body-title", "#files-title"]:
        expect(page.locator(panel)).to_be_visible()
    files = page.locator("table.files tbody td:first-child a").all_inner_texts()
    assert files == [f["path"] for f in entry["files"]]
    if entry["tools"]:
        assert page.locator("#tools-title ~ .tool h3 code").all_inner_texts() == [t["name"] for t in entry["tools"]]
    if entry["inputs"]:
        for item in entry["inputs"]:  # every input is a labelled, read-only control
            control = page.get_by_label(item["label"] or item["name"], exact=False).first
            expect(control).to_be_visible()
            expect(control).to_have_attribute("readonly", "")
    if entry["arguments"]:
        shown = page.locator("#arguments-title ~ .table-scroll tbody td:first-child").all_inner_texts()
        assert shown == [a["name"] for a in entry["arguments"]]
    if entry["triggers"]:
        assert page.locator("#triggers-title ~ .tag-list .chip").all_inner_texts() == entry["triggers"]
    if entry["quizzes"]:
        first = page.locator(".quiz details").first
        expect(first.locator("p").first).to_be_hidden()
        first.locator("summary").click()
        expect(first.locator("p").first).to_contain_text("Correct:")
    if dialect == "claude-code":
        expect(page.locator(".settings dt", has_text="Allowed tools")).to_be_visible()
    screenshot(page, f"skill-{dialect}")
    assert problems == []


def test_copy_install_puts_the_shown_command_on_the_clipboard(site, open_page):
    page, problems = open_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{site.url}skills/datakit/csv-cleaner/")
    for target in ("install-npx", "install-npx-site", "install-copy"):
        shown = page.inner_text(f"#{target}")
        button = page.locator(f"button[data-copy={target}]")
        expect(button).to_have_accessible_name("Copy command")
        button.click()
        expect(button).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == shown
    assert page.inner_text("#install-npx") == f"npx skills add {site.url}skills/datakit/csv-cleaner/"
    assert (
        page.inner_text("#install-npx-site")
        == f"npx skills add {site.url} --skill {index(site)['datakit/csv-cleaner']['discovery_name']}"
    )
    assert problems == []


def test_raw_skill_md_link_serves_the_source_bytes(site, open_page):
    page, problems = open_page()
    page.goto(f"{site.url}skills/opsworks/log-triage/")
    link = page.get_by_role("link", name="Raw SKILL.md")
    # Listed in discovery v0.1, so its one home is there (registry/emit/urls.py FileHomes).
    with page.expect_response(re.compile(r"/\.well-known/skills/log-triage/SKILL\.md$")) as info:
        link.click()
    response = info.value
    assert response.status == 200
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"  # netlify.toml's .well-known SKILL.md
    assert "sandbox" in response.headers["content-security-policy"]
    source = Path(site.source, "opsworks/log-triage/SKILL.md").read_bytes()
    assert response.body() == source
    assert urljoin(page.url, "") == response.url
    assert problems == []


FOCUS_STYLE = """
() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  const label = el.id ? "#" + el.id : el.localName + (el.className ? "." + el.className.split(" ")[0] : "");
  return {label, href: el.getAttribute("href") || "", visible: outline || style.boxShadow !== "none",
          card: !!el.closest(".card")};
}
"""


def test_keyboard_reaches_search_filters_and_cards_with_visible_focus(site, open_page):
    page, problems = open_page()
    page.goto(site.url + "browse/")
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        state = page.evaluate(FOCUS_STYLE)
        seen.append(state)
        if state["card"]:
            break
    labels = [s["label"] for s in seen]
    assert labels[0] == "a.skip-link"
    order = [
        "#header-q",
        "#filter-input",
        "#filter-category",
        "#filter-tier",
        "#filter-risk",
        "#filter-version",
        "#filter-dialect",
    ]
    positions = [labels.index(label) for label in order]
    assert positions == sorted(positions)
    assert seen[-1]["card"] and positions[-1] < len(seen) - 1
    invisible = [s["label"] for s in seen if not s["visible"]]
    assert invisible == []
    href = seen[-1]["href"]
    page.keyboard.press("Enter")
    expect(page).to_have_url(urljoin(site.url + "browse/", href))
    expect(page.locator("h1")).to_be_visible()
    page.keyboard.press("Tab")  # the skip link comes first on every page and moves focus to the content
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    assert problems == []


def luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


COLOURS = """
sel => { const s = getComputedStyle(document.querySelector(sel)); return [s.color, s.backgroundColor]; }
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_colour_scheme_follows_the_system_with_readable_text(site, open_page, scheme):
    page, problems = open_page(color_scheme=scheme)
    for path in ("", "browse/", "skills/opsworks/log-triage/"):
        page.goto(site.url + path)
        text, background = page.evaluate(COLOURS, "body")
        assert (luminance(background) < 0.05) == (scheme == "dark"), background
        assert contrast(text, background) >= 7
        for selector in (".muted", ".nav-list a", "main a:not(.button)", ".site-footer"):
            colour = page.evaluate(COLOURS, selector)[0]
            assert contrast(colour, background) >= 4.5, (selector, colour, background)
        screenshot(page, f"{scheme}-{path.strip('/').replace('/', '-') or 'home'}")
    toggle = page.locator("[data-theme-toggle]")
    other = "light" if scheme == "dark" else "dark"
    expect(toggle).to_have_accessible_name(f"Switch to the {other} theme")
    toggle.click()
    assert (luminance(page.evaluate(COLOURS, "body")[1]) < 0.05) == (other == "dark")
    page.reload()  # the choice is remembered
    assert page.evaluate("document.documentElement.dataset.theme") == other
    assert problems == []

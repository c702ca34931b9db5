"""Hostile skills in a real browser: every payload is inert, with the site's CSP and without it.

The CSP forbids inline script, so on the production server a payload that reached the page as markup
would show up as a CSP violation rather than run. The same files are therefore also served without the
CSP, where only escaping stands between a payload and the page, and the served HTML is walked for
executable constructs (tests/site_checks.py) as well as the DOM the browser built from it.
"""

import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from browser_support import dom_constructs, new_context, screenshot, watch
from hostile import JS
from site_checks import executable_constructs

pytest_plugins = ["site_fixture"]

# Text each hostile skill page must show literally: proof that the payload reached the page, as text.
SHOWN = {
    "mallory/markup-everywhere": [
        f'<img src=x onerror="{JS}">',  # description
        f"<svg onload={JS}>",  # license
        f"<script>{JS}</script> quiz",  # quiz title
        "<iframe srcdoc=<script>parent.__pwned=1</script>>",  # quiz explanation
        f"<img src=x onerror={JS}>.md",  # support file name
        f'<math><mtext><table><mglyph><style><img src=x onerror="{JS}">',  # body
        "[evil]: javascript:alert(1)",  # reference link definition
    ],
    "mallory/gibberish-tools": [f"Tool description <script>{JS}</script>", f"<svg onload={JS}> target"],
    "mallory/wolffish-patterns": [f"<script>{JS}</script>", f"<img src=x onerror={JS}>", f"<svg onload={JS}>"],
    "mallory/flow-inputs": [f"<script>{JS}</script> Article", f"<svg onload={JS}>"],
    "mallory/bouno-arguments": [f"<img src=x onerror={JS}>", f"<svg onload={JS}>"],
    "mallory/claude-fields": [f"<script>{JS}</script>", f"<svg onload={JS}>"],
    "mallory/hostile-name": [f"<script>{JS}</script>hostile-name"],  # the title and heading: S008, published
    "mallory/wallet-sync": [f'scripts/"><svg onload={JS}>sync.py:5'],  # a reason's file:line in the verdict
}


def hostile_ids(site) -> list[str]:
    folders = set(site.hostile)
    return sorted(s.id for s in site.result.published if s.location.skill_md_path.rsplit("/", 1)[0] in folders)


def hostile_pages(site) -> list[str]:
    ids = hostile_ids(site)
    publishers = sorted({i.split("/")[0] for i in ids})
    tags = sorted({t for s in site.result.published if s.id in ids for t in s.tags})
    return [
        "",
        "browse/",
        "categories/development/",
        *(f"skills/{i}/" for i in ids),
        *(f"publishers/{p}/" for p in publishers),
        *(f"tags/{t}/" for t in tags),
        "search/?q=pwned",
        "no-such-page/",
    ]


def test_the_hostile_skills_are_published_with_their_payloads(site):
    ids = hostile_ids(site)
    assert set(SHOWN) < set(ids) and any("pwned" in i.split("/")[0] for i in ids)  # the publisher folder payload
    # A markup name breaks the name rule (S008), yet clients load the skill: it is published, as text.
    assert site.result.left_out == []
    dialects = {d for s in site.result.published if s.id in ids for d in s.dialects}
    assert {"skillli", "gibberish", "wolffish", "agent-flow-lite", "bouno", "claude-code"} <= dialects


def test_no_served_page_holds_an_executable_construct(site):
    pages = sorted(site.out.rglob("*.html"))
    found = {}
    for path in pages:
        rel = path.relative_to(site.out).as_posix()
        if rel.startswith(("raw/", ".well-known/")):
            continue  # the skills' own files, served byte for byte under a sandbox CSP (see below)
        problems = executable_constructs(path.read_text(encoding="utf-8"))
        if problems:
            found[rel] = problems
    assert len(pages) > 50 and found == {}


def test_the_construct_walker_and_the_dom_check_catch_a_live_payload(site, open_page, tmp_path):
    """The detectors of these tests are not blind: a page with real payloads trips every one of them."""
    canary = f"<!doctype html><title>c</title><img src=x onerror='{JS}'><script>alert(1)</script>"
    assert executable_constructs(canary)
    (site.out / "canary.html").write_text(canary, encoding="utf-8")
    try:
        page, problems = open_page()
        page.goto(site.bare.url + "canary.html")
        assert page.evaluate("window.__pwned") == 1
        assert dom_constructs(page)
        assert any("dialog alert" in p for p in problems) and any("__pwned set" in p for p in problems)
        page, problems = open_page()
        page.goto(site.url + "canary.html")
        assert page.evaluate("window.__pwned") is None
        assert any("CSP violation" in p for p in problems)  # the policy blocked them: a violation is reported
    finally:
        (site.out / "canary.html").unlink()


@pytest.mark.parametrize("csp", [True, False], ids=["with-csp", "without-csp"])
def test_hostile_pages_run_no_script(site, browser, csp):
    base = site.url if csp else site.bare.url
    failures = {}
    context = new_context(browser)
    page = context.new_page()
    seen = watch(page)
    for path in hostile_pages(site):  # each navigation makes a fresh document and window
        start = len(seen)
        response = page.goto(base + path, wait_until="load")
        if path.startswith("search/"):
            page.wait_for_selector("a.result-title")
        text = page.text_content("body")  # closed <details> included
        wrong = []
        expected_status = 404 if path == "no-such-page/" else 200
        if response.status != expected_status:
            wrong.append(f"status {response.status}")
        if page.evaluate("[window.__pwned, window.__dialogCalls]") != [None, None]:
            wrong.append("payload ran")
        if page.url != base + path:
            wrong.append(f"navigated to {page.url}")
        wrong += dom_constructs(page)
        if "pwned" not in text and path not in ("no-such-page/", "skills/mallory/pipe-to-shell/"):
            wrong.append("no payload text on the page: the test would prove nothing")
        skill = re.fullmatch(r"skills/(.+)/", path)
        for shown in SHOWN.get(skill.group(1) if skill else "", []):
            if shown not in text:
                wrong.append(f"not shown as text: {shown}")
        if path == "skills/mallory/flow-inputs/":  # values land in form controls as values, not markup
            values = page.eval_on_selector_all(
                ".input-preview textarea, .input-preview input", "els => els.map(e => e.value)"
            )
            if values != [f"</textarea><script>{JS}</script>", f'"><script>{JS}</script><input value="']:
                wrong.append(f"input values {values}")
        if path.startswith("skills/mallory/markup-everywhere"):
            screenshot(page, f"hostile-markup-everywhere-{'csp' if csp else 'no-csp'}")
        problems = seen[start:]  # console errors, CSP violations, dialogs, failed requests of this page
        if path == "no-such-page/":  # the deliberate 404: the response itself, nothing else
            problems = [
                p for p in problems if not re.match(r"(HTTP 404|console error: Failed to load resource.*404)", p)
            ]
        if wrong + problems:
            failures[path] = wrong + problems
    context.close()
    assert failures == {}


def test_skill_files_run_no_script_even_as_html_or_svg(site, open_page):
    """A skill may ship .html, .svg and .js files; they are served byte for byte under `sandbox`, from
    .well-known/skills/<name>/ (listed in discovery v0.1) or raw/<id>/ (left out of it), wherever index.json says."""
    entry = next(
        s for s in json.loads((site.out / "index.json").read_text())["skills"] if s["id"] == "mallory/markup-everywhere"
    )
    urls = {f["path"]: f["url"] for f in entry["files"]}
    visited = [urls[f"assets/{name}"] for name in ("page.html", "loader.html", "image.svg", "page[raw].html")]
    assert [url.startswith(f"{site.url}raw/") for url in visited] == [False, False, False, True]
    for url in visited:
        page, problems = open_page()
        response = page.goto(url)
        assert response.status == 200 and "sandbox" in response.headers["content-security-policy"]
        assert page.evaluate("[window.__pwned, window.__dialogCalls]") == [None, None]
        assert not any("dialog" in p or "__pwned set" in p for p in problems), problems
        page.context.close()


def test_raw_skill_md_of_a_hostile_skill_is_the_source_bytes(site, open_page):
    page, problems = open_page()
    page.goto(f"{site.url}skills/mallory/markup-everywhere/")
    href = page.get_attribute("text=Raw SKILL.md", "href")
    response = page.request.get(urljoin(page.url, href))
    source = Path(site.source, "mallory/markup-everywhere/SKILL.md").read_bytes()
    assert response.status == 200 and response.body() == source
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    assert problems == []

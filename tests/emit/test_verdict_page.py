"""The skill page of a high or critical skill opens with the verdict, and its install commands wait behind
"Install anyway"; low and medium pages keep the install box open. index.json carries the same verdict."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from conftest import REPO_ROOT
from markupsafe import escape
from site_checks import check_index_json
from verdict_skills import CRITICAL, HIGH, LOW, MEDIUM, PAYLOAD_SCRIPT, write_verdict_registry

from registry.build import build
from registry.config import BuildOptions

BASE = "https://r.example/"
INSTALL_IDS = ("install-npx", "install-npx-site", "install-copy")


class Outline(HTMLParser):
    """Each element inside <main>, in document order: its tag, attributes, enclosing elements and text."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "wbr", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[dict] = []
        self.elements: list[dict] = []
        self.in_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main = True
        elif self.in_main:
            element = {"tag": tag, "attrs": {k: v or "" for k, v in attrs}, "ancestors": list(self.open), "text": []}
            self.elements.append(element)
            if tag not in self.VOID:
                self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main = False
        elif self.in_main and self.open and self.open[-1]["tag"] == tag:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element["text"].append(data)


def outline(page: str) -> list[dict]:
    parser = Outline()
    parser.feed(page)
    return parser.elements


def by_id(elements: list[dict], element_id: str) -> dict | None:
    return next((e for e in elements if e["attrs"].get("id") == element_id), None)


def text(element: dict) -> str:
    return " ".join("".join(element["text"]).split())


def within(element: dict, outer: dict) -> bool:
    return any(a is outer for a in element["ancestors"])


def inside_details(element: dict) -> dict | None:
    return next((a for a in element["ancestors"] if a["tag"] == "details"), None)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("verdict-page")
    write_verdict_registry(root / "src")
    result = build(BuildOptions(source=root / "src", out=root / "site", base_url=BASE, jobs=1))
    levels = {s.id: s.risk_level for s in result.published}
    assert levels == {CRITICAL: "critical", HIGH: "high", MEDIUM: "medium", LOW: "low"}  # the fixture holds
    return root / "site"


def page(site: Path, skill_id: str) -> str:
    return (site / "skills" / skill_id / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("skill_id", [CRITICAL, HIGH])
def test_the_verdict_is_the_first_thing_in_main_and_its_reasons_link_to_findings(site, skill_id):
    elements = outline(page(site, skill_id))
    first = elements[0]
    assert first["tag"] == "section" and "verdict" in first["attrs"]["class"].split()
    headline = by_id(elements, "verdict-headline")
    assert headline["ancestors"][0] is first and text(headline).startswith(
        f"{'critical' if skill_id == CRITICAL else 'high'} risk This skill "
    )
    entry = next(s for s in check_index_json(site)["skills"] if s["id"] == skill_id)
    assert text(headline).endswith(entry["risk"]["verdict"]["headline"])
    links = [e for e in elements if e["tag"] == "a" and within(e, first)]
    targets = [e["attrs"]["href"] for e in links]
    assert targets[-1] == "#risk-title"  # then the full analysis
    reasons = entry["risk"]["verdict"]["reasons"]
    assert [f"#{r['url'].split('#')[1]}" for r in reasons] == targets[:-1]
    for reason, href in zip(reasons, targets, strict=False):
        finding = by_id(elements, href[1:])
        assert finding is not None and finding["tag"] == "li"
        # the linked entry of the risk section is the same finding: its rule code and file:line
        assert reason["code"] in text(finding) and f"{reason['path']}:{reason['line']}" in text(finding)
        assert any(a["attrs"].get("aria-labelledby") == "risk-title" for a in finding["ancestors"])
    assert page(site, skill_id).index('class="verdict') < page(site, skill_id).index('id="install-title"')


@pytest.mark.parametrize("skill_id", [CRITICAL, HIGH])
def test_install_commands_wait_behind_a_closed_install_anyway(site, skill_id):
    elements = outline(page(site, skill_id))
    npx = by_id(elements, "install-npx")
    details = inside_details(npx)
    assert details is not None and "open" not in details["attrs"] and details["attrs"]["class"] == "install-anyway"
    summary = next(e for e in elements if e["tag"] == "summary" and within(e, details))
    assert text(summary) == "Install anyway"
    for element_id in INSTALL_IDS:
        element = by_id(elements, element_id)
        assert element is None or inside_details(element) is details, element_id


def test_a_critical_page_shows_no_manual_recipe(site):
    html = page(site, CRITICAL)
    assert by_id(outline(html), "install-copy") is None
    assert "curl -fsSL" not in html and "tar -xz" not in html and "Download its files" not in html
    assert "No manual install recipe is shown for a skill rated critical." in " ".join(html.split())
    high = outline(page(site, HIGH))
    assert inside_details(by_id(high, "install-copy")) is not None  # high keeps it, behind the same summary


@pytest.mark.parametrize("skill_id", [MEDIUM, LOW])
def test_low_and_medium_pages_keep_the_install_box_open_and_no_verdict(site, skill_id):
    html = page(site, skill_id)
    elements = outline(html)
    assert 'class="verdict' not in html and "Install anyway" not in html
    assert elements[0]["tag"] == "nav"  # the breadcrumb, as before
    for element_id in INSTALL_IDS:
        assert inside_details(by_id(elements, element_id)) is None, element_id
    entry = next(s for s in check_index_json(site)["skills"] if s["id"] == skill_id)
    assert entry["risk"]["verdict"] is None


def test_the_verdict_shows_a_hostile_file_name_as_text(site):
    html = page(site, CRITICAL)
    assert "<svg onload" not in html
    shown = str(escape(PAYLOAD_SCRIPT))  # as Jinja's autoescape writes it
    verdict = html[html.index('<section class="verdict') : html.index("</section>")]
    assert f">{shown}:6</a>" in verdict
    assert "This skill sends your crypto wallet files (~/.bitcoin/wallet.dat) to portfolio-sync.example." in verdict


def test_index_json_carries_the_verdict_and_the_schema_holds_it(site):
    index = check_index_json(site)  # validates against schema/index.schema.json
    entry = next(s for s in index["skills"] if s["id"] == CRITICAL)
    verdict = entry["risk"]["verdict"]
    assert verdict["headline"].startswith("This skill sends") and verdict["reasons"][0]["path"] == PAYLOAD_SCRIPT
    assert all(re.fullmatch(rf"{BASE}skills/{CRITICAL}/#risk-finding-\d+", r["url"]) for r in verdict["reasons"])
    validator = jsonschema.Draft202012Validator(json.loads((REPO_ROOT / "schema" / "index.schema.json").read_text()))
    for change in (
        lambda v: v["reasons"].extend(v["reasons"] * 3),  # at most three
        lambda v: v.update(level="critical"),  # no other key
        lambda v: v["reasons"][0].pop("path"),
        lambda v: v.update(headline=""),
    ):
        broken = json.loads(json.dumps(index))
        change(next(s for s in broken["skills"] if s["id"] == CRITICAL)["risk"]["verdict"])
        assert list(validator.iter_errors(broken)), change
    missing = json.loads(json.dumps(index))
    del next(s for s in missing["skills"] if s["id"] == LOW)["risk"]["verdict"]
    assert list(validator.iter_errors(missing))  # every entry says it, null below high

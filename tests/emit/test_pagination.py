"""Listing pages of bounded size (issue 23): browse, category, publisher and tag listings are static pages of
PAGE_SIZE cards, one set of pages per order (address, name, newest, context cost), linked to each other and
listed in the sitemap. A registry of 13 skills is built with three cards a page; the expected orders come from
the build's index.json, never from the code under test."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import commit_all, git, write_skill

from registry.build import build
from registry.config import BuildOptions
from registry.emit import context as emit_context
from registry.emit import html as emit_html
from registry.emit.context import PAGE_SIZE, PUBLISHERS_PER_PAGE, SORTS, Card, Listing, SiteInfo
from registry.emit.html import HtmlEmitter, page_numbers
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter

SMALL = 3  # cards a page in the built registries
LIMIT = 250_000  # bytes: the bound on every HTML page
BASE = "https://r.example/"
LISTING_ROOTS = ("browse", "categories", "publishers", "tags")

# (id, category, tags, words in the body, reference text, commit)
SKILLS = [
    ("acme/alpha-tool", "data", ["csv", "tables"], 40, "", 0),
    ("acme/bravo-helper", "data", ["csv"], 400, "ref " * 300, 0),
    ("acme/charlie-docs", "development", ["docs"], 120, "", 0),
    ("acme/delta-lint", "development", ["lint", "docs"], 900, "", 1),
    ("acme/echo-format", "development", ["lint"], 60, "guide " * 50, 1),
    ("acme/foxtrot-test", "data", ["tables"], 250, "", 1),
    ("acme/golf-deploy", "devops", ["deploy"], 700, "", 2),
    ("acme/hotel-logs", "devops", ["logs", "deploy"], 30, "", 2),
    ("beta/aardvark-sql", "data", ["sql", "tables"], 500, "", 0),
    ("beta/badger-review", "development", ["review"], 80, "", 1),
    ("beta/camel-ci", "devops", ["deploy", "ci"], 350, "notes " * 120, 2),
    ("beta/dingo-api", "development", ["docs", "api"], 220, "", 2),
    ("beta/emu-charts", "data", ["charts"], 150, "", 2),
]
DATES = ["2025-01-10T10:00:00+00:00", "2025-03-05T10:00:00+00:00", "2025-06-20T10:00:00+00:00"]


def write_registry(repo: Path, skills=SKILLS) -> None:
    repo.mkdir(parents=True)
    (repo / "registry.yaml").write_text("categories: [development, data, devops, other]\n")
    git(repo, "init", "-q", "-b", "main")
    for commit, date in enumerate(DATES):
        for skill_id, category, tags, words, reference, when in skills:
            if when != commit:
                continue
            name = skill_id.split("/")[1]
            detail = " ".join(["carefully"] * (words % 7))  # descriptions of several lengths
            description = f"Helps with {name.replace('-', ' ')} work in {category} projects {detail}. Use when asked."
            skill_md = (
                f"---\nname: {name}\ndescription: {description}\nlicense: MIT\nmetadata:\n  category: {category}\n"
                f"tags: [{', '.join(tags)}]\n---\n\n# {name}\n\n" + " ".join(["step"] * words) + "\n"
            )
            files = {"references/notes.md": f"# Notes\n\n{reference}\n"} if reference else None
            write_skill(repo, skill_id, skill_md, files)
        commit_all(repo, f"commit {commit}", date)


def small_build(source: Path, out: Path, **extra):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(emit_context, "PAGE_SIZE", SMALL)
        patch.setattr(emit_context, "PUBLISHERS_PER_PAGE", 1)
        patch.setattr(emit_html, "HOME_PUBLISHERS", 1)
        return build(BuildOptions(source=source, out=out, base_url=BASE, jobs=1, **extra))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("paged")
    write_registry(root / "repo")
    out = root / "site"
    small_build(root / "repo", out)
    return out


class Page(HTMLParser):
    """What a test reads of a listing page: its cards, its links, the rel=prev/next of its head."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.cards: list[str] = []
        self.links: list[tuple[str, str]] = []  # (element, href) of every a and link
        self.rel: dict[str, str] = {}  # head <link rel=prev|next>
        self.sorts: list[tuple[str, str, bool]] = []  # (label, href, current)
        self.pages: list[tuple[str, str, str | None]] = []  # (text, href, aria-current)
        self._in: str | None = None
        self._card_title = False
        self._nav: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("a", "link") and a.get("href"):
            self.links.append((tag, a["href"]))
        if tag == "link" and a.get("rel") in ("prev", "next"):
            self.rel[a["rel"]] = a["href"]
        if tag == "h2" and a.get("class") == "card-title":
            self._card_title = True
        if tag == "a" and self._card_title:
            self.cards.append(re.fullmatch(r"(?:\.\./)*skills/(.+)/", a["href"]).group(1))
            self._card_title = False
        if tag == "nav":
            self._nav = a.get("aria-label")
        if tag == "a" and self._nav in ("Sort order", "Pages"):
            self._in = a["href"]
            self._current = a.get("aria-current")
            self._text = ""

    def handle_data(self, data):
        if self._in is not None:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "a" and self._in is not None:
            if self._nav == "Sort order":
                self.sorts.append((self._text, self._in, self._current == "true"))
            else:
                self.pages.append((self._text, self._in, self._current))
            self._in = None
        if tag == "nav":
            self._nav = None


def read(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


def target(page_file: Path, href: str) -> Path:
    """The file a relative link of a page leads to (a folder's index.html)."""
    path = (page_file.parent / unquote(urlsplit(href).path)).resolve()
    return path / "index.html" if href.endswith("/") or path.is_dir() else path


def index(site: Path) -> list[dict]:
    return json.loads((site / "index.json").read_text(encoding="utf-8"))["skills"]


def listings(site: Path) -> dict[str, list[dict]]:
    """Every listing's folder and its skills, from index.json: browse, each category, publisher and tag."""
    skills = index(site)
    found: dict[str, list[dict]] = {"browse/": skills}
    for skill in skills:
        found.setdefault(f"categories/{skill['category']}/", []).append(skill)
        found.setdefault(f"publishers/{skill['publisher']}/", []).append(skill)
        for tag in skill["tags"]:
            found.setdefault(f"tags/{tag}/", []).append(skill)
    return found


EXPECTED_ORDERS = {
    "Address": lambda s: s["id"],
    "Name": lambda s: (s["name"].casefold(), s["name"], s["id"]),
    "Context cost when used, lowest": lambda s: (s["context_cost"]["body_tokens"], s["id"]),
}


def expected_order(label: str, skills: list[dict]) -> list[str]:
    if label == "Newest":  # as the home page: by first publication, then address, both descending
        return [s["id"] for s in sorted(skills, key=lambda s: (s["first_published"], s["id"]), reverse=True)]
    return [s["id"] for s in sorted(skills, key=EXPECTED_ORDERS[label])]


def test_the_registry_needs_several_pages(site):
    assert len(index(site)) == len(SKILLS) > 4 * SMALL
    assert len({s["first_published"] for s in index(site)}) == 3
    assert len({s["context_cost"]["body_tokens"] for s in index(site)}) > 2  # the token order has work to do
    assert (site / "browse" / "index.html").is_file() and (site / "browse" / "page" / "2" / "index.html").is_file()
    assert not (site / "browse" / "page" / "1").exists()  # page 1 stays at the listing's own address


def test_every_skill_appears_once_per_order_in_the_right_order(site):
    labels = ["Address", "Name", "Newest", *list(EXPECTED_ORDERS)[2:]]
    checked = 0
    for folder, skills in listings(site).items():
        first = read(site / folder / "index.html")
        pages_wanted = -(-len(skills) // SMALL)
        if len(skills) == 1:
            assert first.sorts == [] and first.cards == [skills[0]["id"]]
            continue
        assert [label for label, _, _ in first.sorts] == labels, folder
        assert [current for _, _, current in first.sorts] == [True] + [False] * (len(labels) - 1)
        for label, href, _ in first.sorts:
            page_file, seen, number = target(site / folder / "index.html", href), [], 1
            while True:
                page = read(page_file)
                assert [current for lab, _, current in page.sorts if lab == label] == [True]
                text = page_file.read_text(encoding="utf-8")
                if pages_wanted > 1:
                    shown = f"Showing {len(seen) + 1}–{len(seen) + len(page.cards)} of {len(skills)} skills"
                    assert shown in text and f"Page {number} of {pages_wanted}." in text, (page_file, shown)
                assert 0 < len(page.cards) <= SMALL
                seen += page.cards
                if "next" not in page.rel:
                    break
                following = target(page_file, page.rel["next"])
                assert read(following).rel["prev"] and target(following, read(following).rel["prev"]) == page_file
                page_file, number = following, number + 1
            assert number == pages_wanted, (folder, label)
            assert seen == expected_order(label, skills), (folder, label)
            checked += 1
    assert checked >= 7 * 6  # browse, both publishers, four categories and several tags, in every order


def test_page_links_number_the_pages_and_mark_the_current_one(site):
    total = -(-len(SKILLS) // SMALL)
    page = read(site / "browse" / "page" / "3" / "index.html")
    numbers = [(text, current) for text, _, current in page.pages]
    assert numbers[0] == ("← Previous", None) and numbers[-1] == ("Next →", None)
    assert [t for t, _ in numbers[1:-1]] == [str(n) for n in range(1, total + 1)]
    assert [t for t, current in numbers if current == "page"] == ["3"]
    hrefs = {text: href for text, href, _ in page.pages}
    assert hrefs["1"] == "../../../browse/" and hrefs["4"] == "../../../browse/page/4/"
    assert hrefs["← Previous"] == "../../../browse/page/2/" and hrefs["Next →"] == hrefs["4"]
    text = (site / "browse" / "page" / "3" / "index.html").read_text(encoding="utf-8")
    assert 'aria-label="Pages"' in text and 'aria-label="Next page, page 4"' in text
    assert "<title>Browse all skills, page 3 of 5 · Skill Registry</title>" in text
    newest = (site / "browse" / "newest" / "page" / "2" / "index.html").read_text(encoding="utf-8")
    assert "<title>Browse all skills, newest first, page 2 of 5 · Skill Registry</title>" in newest
    assert '<link rel="canonical" href="https://r.example/browse/newest/page/2/">' in newest
    first = (site / "browse" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="next" href="../browse/page/2/">' in first and 'rel="prev"' not in first
    assert '<span class="pagination-off" aria-hidden="true">← Previous</span>' in first
    last = (site / "browse" / "page" / "5" / "index.html").read_text(encoding="utf-8")
    assert 'rel="next"' not in last and '<span class="pagination-off" aria-hidden="true">Next →</span>' in last


def test_page_numbers_leave_out_the_middle_of_long_listings():
    assert page_numbers(1, 1) == [1]
    assert page_numbers(1, 5) == [1, 2, 3, 4, 5]
    assert page_numbers(1, 100) == [1, 2, 3, None, 100]
    assert page_numbers(50, 100) == [1, None, 48, 49, 50, 51, 52, None, 100]
    assert page_numbers(5, 100) == [1, 2, 3, 4, 5, 6, 7, None, 100]  # 2 is shown rather than a gap of one
    assert page_numbers(100, 100) == [1, None, 98, 99, 100]


def test_every_link_of_a_listing_page_leads_to_a_file(site):
    pages = [p for root in LISTING_ROOTS for p in (site / root).rglob("index.html")]
    assert len(pages) > 60
    for page_file in pages:
        for _, href in read(page_file).links:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("#"):
                continue
            assert target(page_file, href).is_file(), (page_file.relative_to(site), href)


def test_the_sitemap_lists_every_listing_page(site):
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text(encoding="utf-8"))
    listed = {loc.removeprefix(BASE) for loc in locs if loc.removeprefix(BASE).startswith(LISTING_ROOTS)}
    on_disk = {
        p.parent.relative_to(site).as_posix() + "/" for root in LISTING_ROOTS for p in (site / root).rglob("index.html")
    }
    assert listed == on_disk
    assert {"browse/", "browse/page/5/", "browse/newest/page/2/", "publishers/acme/body-tokens-asc/page/3/"} <= listed


def test_the_publisher_chart_is_on_the_first_page_of_each_order(site):
    folder = site / "publishers" / "acme"
    firsts = [folder / "index.html", folder / "name" / "index.html", folder / "newest" / "index.html"]
    later = [folder / "page" / "2" / "index.html", folder / "name" / "page" / "3" / "index.html"]
    assert all('id="publisher-growth-title"' in p.read_text(encoding="utf-8") for p in firsts)
    assert not any('id="publisher-growth-title"' in p.read_text(encoding="utf-8") for p in later)


def test_the_home_page_shows_the_largest_publishers_and_an_index_lists_them_all(site):
    home = read(site / "index.html")
    assert [h for _, h in home.links if h.startswith("publishers/")] == ["publishers/acme/"]  # 8 skills to 5
    text = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="browse/publishers/">All 2 publishers</a>' in text
    first, second = (
        site / "browse" / "publishers" / "index.html",
        site / "browse" / "publishers" / "page" / "2" / "index.html",
    )
    assert [h for _, h in read(first).links if "publishers/" in h and "browse" not in h] == ["../../publishers/acme/"]
    assert target(first, read(first).rel["next"]) == second and target(second, read(second).rel["prev"]) == first
    assert '<a href="../../../../publishers/beta/">beta <span class="count">5</span></a>' in second.read_text()
    assert "Showing 2–2 of 2 publishers, by name. Page 2 of 2." in second.read_text()
    listing = (site / "publishers" / "beta" / "name" / "index.html").read_text(encoding="utf-8")
    assert '› <a href="../../../browse/publishers/">publisher</a></nav>' in listing


def test_the_browse_filter_says_it_filters_this_page_and_offers_search(site):
    paged = (site / "browse" / "page" / "2" / "index.html").read_text(encoding="utf-8")
    assert '<label for="filter-input">Filter this page</label>' in paged
    assert "data-filter-page" in paged and 'href="../../../search/" data-search-all' in paged
    for category in ("data", "development", "devops"):  # the listings that hold all of a category
        assert f'data-url="../../../categories/{category}/"' in paged


def test_an_incremental_build_after_removals_equals_a_clean_build(tmp_path):
    repo = tmp_path / "repo"
    write_registry(repo)
    out = tmp_path / "site"
    small_build(repo, out)
    assert (out / "browse" / "page" / "5" / "index.html").is_file()
    for skill_id in ("acme/alpha-tool", "acme/golf-deploy", "beta/camel-ci", "beta/emu-charts"):
        shutil.rmtree(repo / skill_id)
    commit_all(repo, "remove four", "2025-07-01T10:00:00+00:00")
    small_build(repo, out)
    small_build(repo, tmp_path / "clean", clean=True)
    assert not (out / "browse" / "page" / "4").exists()  # 9 skills: three pages
    left = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    right = {p.relative_to(tmp_path / "clean").as_posix(): p.read_bytes() for p in (tmp_path / "clean").rglob("*")
             if p.is_file()}  # fmt: skip
    assert sorted(left) == sorted(right)
    assert [path for path in left if left[path] != right[path]] == []


# -- the bound ----------------------------------------------------------------------------------------------


class Pages(SiteWriter):
    def __init__(self):
        self.files: dict[str, bytes] = {}

    def write_bytes(self, relative: str, data: bytes) -> None:
        self.files[relative] = data


DIALECTS = ("agent-skills", "claude-code", "skillli", "gibberish", "agent-flow-lite", "bouno", "wolffish")


def largest_card(number: int, category: str, date: str | None) -> Card:
    """As large as a card gets: every text field of characters that escape to five bytes, at the longest
    the card shows (it shortens names, versions and descriptions), a long address, every badge."""
    publisher = f"{'p' * 60}-{number % 7}"
    name = f"{'n' * 60}-{number:05d}"
    return Card(
        id=f"{publisher}/nested-folder/{name}", name='"' * 300, description='"' * 1024, publisher=publisher,
        version='"' * 300, license="MIT", category=category, tags=("t",), dialects=DIALECTS,
        url=f"skills/{publisher}/nested-folder/{name}/", first_published=date, last_updated=date, warnings=99,
        errors=99, tier="community", trust_score=0, risk="critical", category_inferred=False, version_valid=False,
        description_tokens=9_999_999, body_tokens=9_999_999, reference_tokens=9_999_999,
    )  # fmt: skip


def test_the_largest_cards_keep_every_listing_page_under_the_bound(tmp_path):
    # Skills published on a different day each over six years: the longest publisher chart a page holds.
    dates = [f"{2020 + n // 300}-{1 + n // 25 % 12:02d}-{1 + n % 25:02d}T00:00:00Z" for n in range(3 * PAGE_SIZE)]
    categories = [f"category-{'c' * 40}-{n}" for n in range(40)]
    cards = [largest_card(n, categories[n % 40], dates[n]) for n in range(3 * PAGE_SIZE)]
    cards.sort(key=lambda c: c.id)
    site = SiteInfo("Skill Registry", BASE, len(cards), 7, "0" * 40, False)
    writer = Pages()
    pages = HtmlEmitter(writer, emit_context_templates(), SiteUrls(BASE), site)
    by_category = [Listing("category", c, [card for card in cards if card.category == c]) for c in categories]
    pages.browse(cards, {"category": by_category, "publisher": [], "tag": []})
    pages.listing(Listing("publisher", "p", cards))
    pages.listing(Listing("tag", "t", cards))
    html = {path: data for path, data in writer.files.items() if path.endswith(".html")}
    assert len(html) == 3 * len(SORTS) * 3  # browse, a publisher and a tag: every order, three full pages each
    sizes = sorted((len(data), path) for path, data in html.items())
    assert sizes[-1][0] <= LIMIT, sizes[-3:]
    # The home page and the index of publishers, with the longest publisher names there can be.
    publishers = [Listing("publisher", f"{n:03d}{'p' * 250}", cards[:1]) for n in range(3 * PUBLISHERS_PER_PAGE)]
    pages.home(cards, {"category": by_category, "publisher": publishers, "tag": []})
    pages.publisher_index(publishers)
    others = {path: len(data) for path, data in writer.files.items() if path.endswith(".html") and path not in html}
    assert sorted(others) == ["browse/publishers/index.html", "browse/publishers/page/2/index.html",
                              "browse/publishers/page/3/index.html", "index.html"]  # fmt: skip
    assert max(others.values()) <= LIMIT, others
    card_bytes = len(pages.card_html(cards[0], "../../../../").encode("utf-8"))
    assert card_bytes > 3000  # the worst case is worst: a card of the corpus is about 0.9 KB
    assert sizes[-1][0] - PAGE_SIZE * card_bytes < 30_000  # what surrounds the cards, the chart included


def emit_context_templates() -> Path:
    from registry.config import TEMPLATES

    return TEMPLATES

"""What every skill page would repeat is written once: the help page holds the explanations each page links,
templates lose their indentation (never their text), and the build cache keeps compiled templates and
highlighted code without changing a byte of the site."""

import html
import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO_ROOT, SKILLS_INDEX

from registry.build import build
from registry.config import BuildOptions, Limits, search_cache
from registry.emit.html import HELP_PAGE, HIGHLIGHT_FILE, Unindent
from registry.emit.html import make_environment as site_environment
from registry.parse.document import read_document
from registry.render_jobs import read_body

TEMPLATES = REPO_ROOT / "templates"
MOVED_TO_HELP = (
    "the rules and how a level is set are in",
    "read from its files without running them",
    "licence texts and lock files left out",
    "the value a skillli",
    "counted by the registry's calibrated estimate",
    "publishes the sha256 digest of every file",
)


def visible_text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", " ", page))).strip()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("weight") / "site"
    build(BuildOptions(source=SKILLS_INDEX, out=out, base_url="https://r.example/", jobs=1))
    return out


def skill_pages(site: Path) -> list[Path]:
    pages = sorted(site.glob("skills/*/*/index.html"))
    assert pages
    return pages


def test_every_skill_page_links_the_help_page_and_leaves_its_text_there(site):
    help_page = (site / HELP_PAGE).read_text(encoding="utf-8")
    help_text = visible_text(help_page)
    for sentence in MOVED_TO_HELP:
        assert sentence in help_text, sentence
    anchors = set(re.findall(r' id="([^"]+)"', help_page))
    for page in skill_pages(site):
        text = page.read_text(encoding="utf-8")
        links = re.findall(r'href="(?:\.\./)+help/#([^"]+)"', text)
        assert {"risk", "capabilities", "versions", "context-cost"} <= set(links), page
        assert set(links) <= anchors, page
        assert not [s for s in MOVED_TO_HELP if s in visible_text(text)], page


def test_pages_carry_no_template_indentation(site):
    for page in [*skill_pages(site), site / "index.html", site / "browse" / "index.html", site / HELP_PAGE]:
        text = page.read_text(encoding="utf-8")
        body = re.sub(r"<pre\b.*?</pre>", "", text, flags=re.S)  # a body's code keeps its own spaces
        assert not re.search(r"^[ \t]+<", body, re.M), page


@pytest.mark.parametrize("template", sorted(p.name for p in TEMPLATES.glob("partials/*.html")))
def test_unindenting_a_template_keeps_its_text(template):
    source = (TEMPLATES / "partials" / template).read_text(encoding="utf-8")
    stripped = Unindent(site_environment(TEMPLATES)).preprocess(source, template)
    assert stripped.split() == source.split()  # the same words, tags and expressions, only leading space gone
    assert not re.search(r"^[ \t]", stripped, re.M)


def test_the_build_cache_changes_no_byte(site, tmp_path):
    """A cold build with the compiled templates and highlighted blocks another build left gives the same site."""
    again = tmp_path / "site"
    build(BuildOptions(source=SKILLS_INDEX, out=again, base_url="https://r.example/", jobs=1))
    cache = search_cache(again)
    assert (cache / HIGHLIGHT_FILE).is_file() and list(cache.glob("templates-*/__jinja2_*.cache"))
    shutil.rmtree(again)
    (cache / "state.sqlite").unlink()  # every page rendered again, from the kept blocks and compiled templates
    build(BuildOptions(source=SKILLS_INDEX, out=again, base_url="https://r.example/", jobs=1))
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [str(p) for p in first if first[p] != second[p]] == []


def test_the_pages_read_the_body_read_document_gives(corpus):
    """render_jobs.read_body splits SKILL.md without loading its YAML: the body must be read_document's, byte for
    byte, over every SKILL.md of the corpus and a few shapes the corpus may lack."""
    limits = Limits()
    shapes = [
        b"no frontmatter\n\nbody\n",
        b"\n\n---\nname: x\n---\nbody after blank lines\n",
        b"\xef\xbb\xbf---\r\nname: x\r\n---\r\nCRLF body\r\n",
        b"---\nname: [unclosed\n---\nbody after a YAML error\n",
        b"---\nname: x\n",  # never closed
        b"   \n",
        b"---\nname: x\n---\n" + b"y" * (limits.skill_md_bytes + 10),
    ]
    documents = [p.read_bytes() for p in sorted(corpus.rglob("SKILL.md"))] + shapes
    assert len(documents) > 100
    for data in documents:
        full = read_document(data, "SKILL.md", limits)
        quick = read_body(data, "SKILL.md", limits, full.outline)
        assert (quick.body, quick.body_line, quick.text) == (full.body, full.body_line, full.text)

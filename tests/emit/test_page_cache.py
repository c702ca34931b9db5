"""Listing pages kept from the last build: after one edit, only the pages that show the edited skill (or whose
bytes change) are rendered again, and the site is still byte for byte what a clean build gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry.build import build
from registry.config import BuildOptions
from registry.emit import context as emit_context
from registry.emit.html import HtmlEmitter
from tests.conftest import commit_all
from tests.site_checks import assert_same_site, site_files

LISTING_FOLDERS = ("browse/", "categories/", "publishers/", "tags/")
SKILL = "skills/datakit/csv-cleaner"


def _options(source: Path, out: Path, **extra) -> BuildOptions:
    return BuildOptions(source=source / "skills", out=out, policy=source / "registry.yaml", jobs=1, **extra)


def _listing_pages(site: Path) -> dict[str, bytes]:
    return {
        path: data
        for path, data in site_files(site).items()
        if path.startswith(LISTING_FOLDERS) and path.endswith(".html") and not path.startswith("browse/publishers/")
    }


@pytest.fixture
def rendered_listings(monkeypatch) -> list[str]:
    """The listing pages rendered (not kept), in order, as the build renders them in this process (jobs=1)."""
    rendered: list[str] = []
    render = HtmlEmitter._render

    def spy(self, template, page_file, root=None, **context):
        if template in ("browse.html", "listing.html"):
            rendered.append(page_file)
        return render(self, template, page_file, root, **context)

    monkeypatch.setattr(HtmlEmitter, "_render", spy)
    monkeypatch.setattr(emit_context, "PAGE_SIZE", 4)  # several pages per listing, even with 23 skills
    return rendered


def test_one_edit_renders_only_the_listing_pages_that_show_it(registry_repo: Path, tmp_path: Path, rendered_listings):
    out = tmp_path / "site"
    build(_options(registry_repo, out))
    before = _listing_pages(out)
    assert len(rendered_listings) == len(before) > 40
    skill_md = registry_repo / SKILL / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace('version: "3.0.2"', 'version: "3.1.0"', 1) + "\nOne more line.\n")
    commit_all(registry_repo, "bump csv-cleaner", "2026-01-02T00:00:00Z")

    rendered_listings.clear()
    build(_options(registry_repo, out))

    after = _listing_pages(out)
    showing = {path for pages in (before, after) for path, data in pages.items() if f"{SKILL}/".encode() in data}
    changed = {path for path in after if before.get(path) != after[path]}
    assert changed and changed <= set(rendered_listings)  # every page whose bytes changed was rendered
    assert set(rendered_listings) <= showing | changed  # and only those, or pages showing the skill
    assert len(rendered_listings) < len(after) / 2
    clean = tmp_path / "clean"
    build(_options(registry_repo, clean, clean=True))
    assert_same_site(out, clean)


def test_a_listing_page_deleted_from_the_site_behind_the_cache_is_written_again(
    registry_repo: Path, tmp_path: Path, rendered_listings
):
    """The cache keeps a page only when the site it writes over holds its bytes: with a build state older than
    the site, the pages the state knows cannot be linked from it, and are rendered again."""
    out = tmp_path / "site"
    build(_options(registry_repo, out))
    skill_md = registry_repo / SKILL / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nOne more line.\n")
    commit_all(registry_repo, "edit csv-cleaner", "2026-01-02T00:00:00Z")
    state_before = (out.parent / f".{out.name}.cache" / "state.sqlite").read_bytes()
    build(_options(registry_repo, out))
    # Back to the build state of the first build, with a site that has moved on: every kept page must still exist.
    (out.parent / f".{out.name}.cache" / "state.sqlite").write_bytes(state_before)
    skill_md.write_text(skill_md.read_text() + "\nAnd another.\n")
    commit_all(registry_repo, "edit csv-cleaner again", "2026-01-03T00:00:00Z")
    build(_options(registry_repo, out))
    clean = tmp_path / "clean"
    build(_options(registry_repo, clean, clean=True))
    assert_same_site(out, clean)

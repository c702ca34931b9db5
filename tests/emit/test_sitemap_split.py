"""A sitemap file holds at most 50,000 URLs and 50 MB (sitemaps.org): a larger site gets a sitemap index.

The limits are parameters of `sitemap.emit`, so a handful of pages stands in for a registry of 50,000 skills.
"""

import xml.etree.ElementTree as ET

from registry.emit import sitemap
from registry.emit.urls import SiteUrls
from registry.emit.writer import SiteWriter

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
BASE = "https://skills.example.org/"


class Files(SiteWriter):
    def __init__(self):
        self.files: dict[str, bytes] = {}

    def write_bytes(self, relative: str, data: bytes) -> None:
        self.files[relative] = data


def _pages(count):
    return [(f"skills/acme/s{n:02d}/", f"2026-0{1 + n % 9}-15T10:00:00+00:00" if n % 3 else None) for n in range(count)]


def _urls(data: bytes) -> list[str]:
    root = ET.fromstring(data)
    assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
    return [loc.text for loc in root.findall("s:url/s:loc", NS)]


def test_a_site_within_the_limits_has_one_sitemap():
    files = Files()
    sitemap.emit(files, SiteUrls(BASE), _pages(7), max_urls=7)
    assert sorted(files.files) == ["robots.txt", "sitemap.xml"]
    assert _urls(files.files["sitemap.xml"]) == [BASE + path for path, _ in sorted(_pages(7))]


def test_a_site_past_the_url_limit_gets_an_index_of_sitemaps_that_together_list_every_page():
    files = Files()
    pages = _pages(7)
    sitemap.emit(files, SiteUrls(BASE), pages, max_urls=3)
    index = ET.fromstring(files.files["sitemap.xml"])
    assert index.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}sitemapindex"
    listed = [loc.text for loc in index.findall("s:sitemap/s:loc", NS)]
    assert listed == [BASE + f"sitemaps/sitemap-{n}.xml" for n in (1, 2, 3)]
    parts = [_urls(files.files[f"sitemaps/sitemap-{n}.xml"]) for n in (1, 2, 3)]
    assert [len(part) for part in parts] == [3, 3, 1]
    assert [url for part in parts for url in part] == [BASE + path for path, _ in sorted(pages)]
    # Each sitemap's date in the index is the latest of its pages' (none when none of its pages has one).
    dates = [getattr(entry.find("s:lastmod", NS), "text", None) for entry in index.findall("s:sitemap", NS)]
    by_url = {BASE + path: (date or "")[:10] for path, date in pages}
    assert dates == [max((by_url[url] for url in part if by_url[url]), default=None) for part in parts]
    assert dates[-1] is None and dates[0]
    assert files.files["robots.txt"].decode().endswith("Sitemap: " + BASE + "sitemap.xml\n")


def test_a_site_past_the_size_limit_is_split_by_bytes_too():
    files = Files()
    one_entry = len(f"  <url><loc>{BASE}skills/acme/s00/</loc></url>") + 1
    sitemap.emit(files, SiteUrls(BASE), [(path, None) for path, _ in _pages(6)], max_bytes=300 + 2 * one_entry)
    parts = sorted(name for name in files.files if name.startswith("sitemaps/"))
    assert len(parts) >= 2
    for name in parts:
        assert len(files.files[name]) <= 300 + 2 * one_entry
    assert sum(len(_urls(files.files[name])) for name in parts) == 6

"""Checks of a built site against the public formats, shared by the build and corpus tests."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import tarfile
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jsonschema
from conftest import REPO_ROOT

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DIGEST = re.compile(r"^sha256:[a-f0-9]{64}$")
SCHEMA_V2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def load_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def check_index_json(site: Path) -> dict:
    index = load_json(site / "index.json")
    schema = load_json(REPO_ROOT / "schema" / "index.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(index, schema, cls=jsonschema.Draft202012Validator)
    assert index["skill_count"] == len(index["skills"])
    ids = [s["id"] for s in index["skills"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    for entry in index["skills"]:
        # Every URL resolves to a file of the built site holding exactly the bytes its digest names.
        skill_md = site_file(site, index["registry"]["url"], entry["skill_md_url"])
        assert sha256(skill_md.read_bytes()) == entry["digest"]
        for f in entry["files"]:
            data = site_file(site, index["registry"]["url"], f["url"]).read_bytes()
            assert sha256(data) == f["digest"] and len(data) == f["size"]
        assert (site / "skills" / entry["id"] / "index.html").is_file()
    return index


def served_files(site: Path, skill_id: str) -> dict[str, Path]:
    """Every file the built site serves for a skill, by its path in the skill, found on disk: under
    raw/<id>/ and, when index.json gives the skill a discovery name, under .well-known/skills/<name>/
    (registry/emit/urls.py FileHomes). Fails if one path is served from both."""
    folders = [site / "raw" / skill_id]
    entry = next((e for e in load_json(site / "index.json").get("skills", []) if e["id"] == skill_id), None)
    if entry is not None and entry["discovery_name"]:
        folders.append(site / ".well-known" / "skills" / entry["discovery_name"])
    found: dict[str, Path] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                relative = path.relative_to(folder).as_posix()
                assert relative not in found, f"{skill_id}: {relative} is served from two places"
                found[relative] = path
    return found


def site_file(site: Path, registry_url: str, url: str) -> Path:
    """The file of the built site an absolute URL under the registry's URL names."""
    assert url.startswith(registry_url), url
    return site / unquote(url.removeprefix(registry_url))


def check_archive(data: bytes) -> list[str]:
    """The `skills` CLI's rules for a tar.gz (formats.md §4.4); returns member names."""
    assert data[:2] == b"\x1f\x8b"
    assert data[4:8] == b"\x00\x00\x00\x00", "gzip mtime must be 0"
    raw_tar = gzip.decompress(data)
    names = []
    total = 0
    with tarfile.open(fileobj=io.BytesIO(raw_tar), mode="r:") as archive:
        for member in archive.getmembers():
            assert member.type == tarfile.REGTYPE, f"{member.name}: only regular files"
            name = member.name
            assert name and not name.startswith(("/", "\\", "./")) and "\\" not in name and "\x00" not in name
            assert not re.match(r"^[A-Za-z]:", name)
            assert all(part not in (".", "..", "") for part in name.split("/"))
            assert member.mtime == 0 and member.uid == 0 and member.gid == 0
            names.append(name)
            total += member.size
    # USTAR only: no PAX ('x'/'g') or GNU long-name ('L') headers anywhere in the stream.
    for offset in range(0, len(raw_tar) - 512, 512):
        header = raw_tar[offset : offset + 512]
        if header[257:263] == b"ustar\x00":
            assert header[156:157] in (b"0", b"\x00"), "only regular-file headers"
    assert "SKILL.md" in names and names[0] == "SKILL.md"
    assert names == ["SKILL.md", *sorted(names[1:])]
    assert len(names) <= 1000 and total <= 50 * 1024 * 1024
    return names


def check_well_known(site: Path) -> tuple[dict, dict]:
    v2_dir = site / ".well-known" / "agent-skills"
    v2 = load_json(v2_dir / "index.json")
    assert list(v2) == ["$schema", "skills"] and v2["$schema"] == SCHEMA_V2
    names = [e["name"] for e in v2["skills"]]
    assert names == sorted(names) and len(set(names)) == len(names)
    for entry in v2["skills"]:
        assert set(entry) <= {"name", "type", "description", "url", "digest", "version"}
        assert NAME.match(entry["name"]) and len(entry["name"]) <= 64
        assert isinstance(entry["description"], str) and 0 < len(entry["description"]) <= 1024
        assert DIGEST.match(entry["digest"])
        assert not entry["url"].startswith(("/", "http"))  # relative to the index
        served = (v2_dir / entry["url"]).read_bytes()
        assert sha256(served) == entry["digest"]
        if entry["type"] == "skill-md":
            assert entry["url"] == f"{entry['name']}/SKILL.md"
            assert served.startswith(b"---") or served.startswith(b"\xef\xbb\xbf")
        else:
            assert entry["type"] == "archive" and entry["url"] == f"{entry['name']}.tar.gz"
            check_archive(served)

    v1_dir = site / ".well-known" / "skills"
    v1 = load_json(v1_dir / "index.json")
    assert list(v1) == ["skills"]
    assert [e["name"] for e in v1["skills"]] == names
    for entry in v1["skills"]:
        assert set(entry) == {"name", "description", "files"}
        assert NAME.match(entry["name"]) and entry["description"]
        assert entry["files"] and entry["files"][0] == "SKILL.md"
        for path in entry["files"]:
            assert re.match(r"^[\x20-\x7e]+$", path) and not re.search(r"[\\?#\[\]]", path)
            assert ".." not in path and not path.startswith("/")
            assert (v1_dir / entry["name"] / path).is_file()
    return v2, v1


def check_each_file_served_once(site: Path) -> dict[str, list[Path]]:
    """Every published file is written once, at the URL index.json gives it (registry/emit/urls.py FileHomes).

    The files under raw/ and .well-known/skills/<name>/ are exactly those of index.json's `files[]`,
    each with its own bytes (a skill's served digests are its source digests, no more); the only
    other copy of a skill file on the site is the v0.2.0 SKILL.md of a single-file skill. Returns
    each skill's served files by id.
    """
    index = load_json(site / "index.json")
    served: dict[str, list[Path]] = {}
    for entry in index["skills"]:
        paths = [site_file(site, index["registry"]["url"], f["url"]) for f in entry["files"]]
        assert len(set(paths)) == len(paths), entry["id"]
        assert Counter(sha256(path.read_bytes()) for path in paths) == Counter(f["digest"] for f in entry["files"])
        served[entry["id"]] = paths
    on_disk = {
        path for folder in ("raw", ".well-known/skills") for path in (site / folder).rglob("*") if path.is_file()
    }
    on_disk.discard(site / ".well-known" / "skills" / "index.json")
    assert on_disk == {path for paths in served.values() for path in paths}

    v2_dir = site / ".well-known" / "agent-skills"
    v2 = {entry["url"]: entry for entry in load_json(v2_dir / "index.json")["skills"]}
    for path in v2_dir.rglob("*"):
        if path.is_file() and path != v2_dir / "index.json":
            entry = v2[path.relative_to(v2_dir).as_posix()]  # nothing there but the index's artifacts
            assert entry["type"] == ("skill-md" if path.name == "SKILL.md" else "archive")
    return served


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.urls += [value for name, value in attrs if name in ("href", "src") and value]

    handle_startendtag = handle_starttag


def file_links(site: Path, page: Path) -> list[tuple[str, Path]]:
    """The links of a page into the site's skill files (raw/ or .well-known/), each with the file it names."""
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    found = []
    for url in parser.urls:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith(("/", "#")):
            continue
        target = (page.parent / unquote(parts.path)).resolve()
        relative = target.relative_to(site.resolve()).as_posix()
        if relative.startswith(("raw/", ".well-known/")):
            found.append((url, site / relative))
    return found


def _target(site: Path, page_folder: Path, url: str, base_url: str) -> Path | None:
    """The file of the site a URL names (a folder's index.html), or None for a URL that leaves the site."""
    if url.startswith(base_url):
        page_folder, url = site, url.removeprefix(base_url)
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or url.startswith(("/", "#", "mailto:")) or not parts.path:
        return None
    target = (page_folder / unquote(parts.path)).resolve()
    if not target.is_relative_to(site.resolve()):
        return None
    return target / "index.html" if url.split("?")[0].split("#")[0].endswith("/") or target.is_dir() else target


def broken_links(site: Path, base_url: str) -> list[str]:
    """Every link into the site that names a file the site does not hold: each HTML page's href and src, the
    sitemap's addresses and index.json's URLs (also in its shards), as `page: url`."""
    broken = []
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        for url in parser.urls:
            target = _target(site, page.parent, url, base_url)
            if target is not None and not target.is_file():
                broken.append(f"{page.relative_to(site).as_posix()}: {url}")
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    for url in re.findall(r"<loc>([^<]+)</loc>", sitemap):
        target = _target(site, site, url, base_url)
        if target is not None and not target.is_file():
            broken.append(f"sitemap.xml: {url}")
    for index in [site / "index.json", *sorted((site / "index").glob("*.json"))]:
        for url in re.findall(r'"(?:url|skill_md_url|signature|key_url)": "([^"]+)"', index.read_text("utf-8")):
            target = _target(site, site, url, base_url)
            if target is not None and not target.is_file():
                broken.append(f"{index.relative_to(site).as_posix()}: {url}")
    return broken


DANGEROUS_TAGS = {
    "script",
    "iframe",
    "frame",
    "object",
    "embed",
    "svg",
    "math",
    "base",
    "form",
    "meta",
    "link",
    "style",
}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "srcset"}


class _ConstructFinder(HTMLParser):
    """Walks real tags (as a browser tokenises them), not text: escaped markup is harmless."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in DANGEROUS_TAGS and not _ours(tag, attributes):
            self.problems.append(f"<{tag}> {attributes}")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if name in URL_ATTRIBUTES and value:
                compact = re.sub(r"[\x00-\x20]+", "", value).lower()
                if compact.startswith(("javascript:", "data:", "vbscript:")):
                    self.problems.append(f"<{tag} {name}={value!r}>")

    handle_startendtag = handle_starttag


def _ours(tag: str, attributes: dict) -> bool:
    """The site's own elements: the script, the stylesheet, the icon, meta tags and page links, its forms and charts."""
    if tag == "script":
        return bool(re.fullmatch(r"/?(\.\./)*static/(app|search)\.js", attributes.get("src") or ""))
    if tag == "link":
        return attributes.get("rel") in ("stylesheet", "icon", "canonical", "alternate", "self", "prev", "next")
    if tag == "form":
        action = attributes.get("action")
        own_search = action is not None and re.fullmatch(r"/?(\.\./)*search/", action) is not None
        return (action is None or own_search) and attributes.get("class") in (
            "filter",
            "input-preview",
            "header-search",
            "filter search-form",
        )
    if tag == "svg":  # the site's charts (templates/partials/chart.html): shapes and text, nothing that runs
        return attributes.get("class") == "chart-svg" and attributes.get("role") == "img"
    if tag == "meta":
        refresh = attributes.get("http-equiv") == "refresh" and not re.search(
            r"url=\s*[a-z]+:", attributes.get("content", ""), re.I
        )
        return refresh or (set(attributes) <= {"charset", "name", "content"} and attributes.get("name") != "refresh")
    return False


def executable_constructs(html: str) -> list[str]:
    finder = _ConstructFinder()
    finder.feed(html)
    finder.close()
    return finder.problems


def site_files(site: Path) -> dict[str, bytes]:
    """Every file of a built site, by its path in the site."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def assert_same_site(left: Path, right: Path) -> None:
    """Two built sites hold the same files with the same bytes (an incremental build against a clean one)."""
    a, b = site_files(left), site_files(right)
    assert sorted(a) == sorted(b), sorted(set(a) ^ set(b))[:20]
    different = [path for path in a if a[path] != b[path]]
    assert not different, different[:20]

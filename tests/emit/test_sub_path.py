"""A site under a sub-path (a GitHub Pages project site, `--base-url https://user.github.io/registry/`).

The site is built for that URL and served under /registry/ of a local server (what the host does);
every URL the site publishes, in index.json, both root discovery indexes, every skill's own index, the
sitemap, the feeds and every page's links, must stay under /registry/ and answer 200.
"""

from __future__ import annotations

import functools
import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from conftest import simple_skill, write_skill

from registry.build import build
from registry.config import BuildOptions
from registry.serve import SiteHandler, SiteServer

BASE = "https://user.github.io/registry/"
SUB_PATH = "registry"


class Served:
    """The built site under /registry/ of 127.0.0.1; `local` maps a published URL onto this server."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.server = SiteServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(out.parent)))
        self.host = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.answers: dict[str, int] = {}

    def local(self, url: str) -> str:
        assert url.startswith(BASE), f"{url} is not under the base URL {BASE}"
        return f"{self.host}/{SUB_PATH}/" + url.removeprefix(BASE)

    def status(self, url: str) -> int:
        """The status the sub-path server answers for a published URL."""
        url = url.split("#", 1)[0]
        if url not in self.answers:
            try:
                with urllib.request.urlopen(self.local(url), timeout=30) as response:
                    self.answers[url] = response.status
            except urllib.error.HTTPError as error:
                self.answers[url] = error.code
        return self.answers[url]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    source = tmp_path_factory.mktemp("sub-path") / "src"
    write_skill(source, "acme/single", simple_skill("single"))
    write_skill(source, "acme/bundle", simple_skill("bundle", body="See [the guide](references/guide.md)."),
                {"references/guide.md": "# Guide\n", "notes [draft].md": "draft\n"})  # fmt: skip
    write_skill(source, "team/tools/deep", simple_skill("deep", body="Run scripts/run.sh."),
                {"scripts/run.sh": "#!/bin/sh\necho hi\n"})  # fmt: skip
    write_skill(source, "acme/hidden", simple_skill("hidden", "Hidden. Use when testing. " + "x" * 1100),
                {"references/notes.md": "notes\n"})  # fmt: skip
    out = source.parent / "public" / SUB_PATH
    build(BuildOptions(source=source, out=out, base_url=BASE))
    site = Served(out)
    yield site
    site.close()


def json_urls(value, base: str) -> Iterator[str]:
    """Every URL-valued field of a JSON document (`url`, `*_url`, `$schema`), resolved against `base`."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (key == "url" or key.endswith("_url") or key == "$schema"):
                if not item.startswith("https://schemas.agentskills.io/"):  # an opaque id, not a site URL
                    yield urljoin(base, item)
            else:
                yield from json_urls(item, base)
    elif isinstance(value, list):
        for item in value:
            yield from json_urls(item, base)


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.urls += [value for name, value in attrs if name in ("href", "src", "action") and value]

    handle_startendtag = handle_starttag


def published_urls(out: Path) -> dict[str, list[str]]:
    """Every URL into the site that a file of it publishes, absolute, by the file that publishes it."""
    found: dict[str, list[str]] = {}
    found["index.json"] = list(json_urls(json.loads((out / "index.json").read_bytes()), BASE))
    indexes = [out / ".well-known" / "agent-skills" / "index.json"]
    indexes += [p for p in (out / "skills").rglob("index.json") if p.parent.match(".well-known/agent-skills")]
    for index in indexes:
        relative = index.relative_to(out).as_posix()
        found[relative] = list(json_urls(json.loads(index.read_bytes()), BASE + relative))
    v1 = json.loads((out / ".well-known" / "skills" / "index.json").read_bytes())
    # Clients build these themselves, from the index URL: {base}/.well-known/skills/{name}/{file}.
    found[".well-known/skills/index.json"] = [
        f"{BASE}.well-known/skills/{entry['name']}/{path}" for entry in v1["skills"] for path in entry["files"]
    ]
    for xml in [*out.glob("*.xml"), *out.joinpath("feeds").rglob("*.xml")]:
        text = xml.read_text(encoding="utf-8")
        found[xml.relative_to(out).as_posix()] = re.findall(r'(?:<loc>|<id>|href=")(https?://[^"<]+|/[^"<]*)', text)
    found["robots.txt"] = re.findall(r"Sitemap: (\S+)", (out / "robots.txt").read_text(encoding="utf-8"))
    for page in out.rglob("*.html"):
        relative = page.relative_to(out).as_posix()
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        urls = [urljoin(BASE + relative, url) for url in parser.urls if not url.startswith(("#", "mailto:"))]
        found[relative] = [url for url in urls if urlsplit(url).netloc == urlsplit(BASE).netloc]
    return found


def test_every_published_url_stays_under_the_sub_path_and_resolves(served):
    found = published_urls(served.out)
    assert len(found["index.json"]) > 10 and found["sitemap.xml"] and found["robots.txt"]
    assert sum(1 for name in found if name.startswith("skills/") and name.endswith(".json")) == 3
    assert any(name.startswith("feeds/") for name in found)
    outside = sorted({(origin, url) for origin, urls in found.items() for url in urls if not url.startswith(BASE)})
    assert not outside, f"URLs that leave {BASE}: {outside[:20]}"
    broken = sorted(
        {
            (origin, url, served.status(url))
            for origin, urls in found.items()
            for url in urls
            if served.status(url) != 200
        }
    )
    assert not broken, f"URLs that do not resolve under /{SUB_PATH}/: {broken[:20]}"
    assert len(served.answers) > 30  # pages, assets, files, artifacts and indexes, each once


def test_a_root_absolute_link_would_be_caught(served):
    """The check above can fail: a link written from the host's root leaves the sub-path."""
    assert urljoin(BASE + "skills/acme/single/", "/static/style.css") == "https://user.github.io/static/style.css"
    assert served.status(BASE + "static/style.css") == 200
    assert served.status(BASE + "no-such-page/") == 404

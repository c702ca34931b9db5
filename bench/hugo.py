"""The same skills as a Hugo site, for the comparison the benchmark prints.

`write_site(source, site)` writes `content/skills/<publisher>/<name>.md` for every SKILL.md under
`source` (front matter: title, description, tags; then the Markdown body as written) and a minimal
theme of our own: a base template, single and list pages rendering title, description, tags and
the content, and a home page listing every skill. Hugo builds it with its defaults otherwise
(tags and categories taxonomies, RSS, sitemap), as our build also writes listings, feeds and a
sitemap.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

CONFIG = """baseURL = "http://localhost:8000/"
title = "Synthetic Skill Registry"
languageCode = "en"
disableHugoGeneratorInject = true
[markup.goldmark.renderer]
unsafe = false
"""

BASEOF = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ .Title }} | {{ .Site.Title }}</title>
<meta name="description" content="{{ .Description }}"></head>
<body><header><a href="{{ "/" | relURL }}">{{ .Site.Title }}</a></header>
<main>{{ block "main" . }}{{ end }}</main></body>
</html>
"""

SINGLE = """{{ define "main" }}<article>
<h1>{{ .Title }}</h1>
<p class="description">{{ .Description }}</p>
{{ with .Params.tags }}<ul class="tags">{{ range . }}<li><a href="{{ printf "tags/%s/" (urlize .) | relURL }}">{{ . }}</a></li>{{ end }}</ul>{{ end }}
{{ .Content }}
</article>{{ end }}
"""

LIST = """{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>: {{ .Description }}</li>{{ end }}</ul>{{ end }}
"""

HOME = """{{ define "main" }}<h1>{{ .Site.Title }}</h1>
<ul>{{ range where .Site.RegularPages "Section" "skills" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>: {{ .Description }}</li>{{ end }}</ul>{{ end }}
"""


def missing(path: str | None = None) -> str | None:
    """One sentence saying how to install Hugo when it is not on `path` (default: $PATH), else None."""
    if shutil.which("hugo", path=path):
        return None
    return "hugo is not installed: run scripts/test, or apt-get install hugo (or pass --skip hugo)"


def _split(text: str) -> tuple[dict, str]:
    if text.startswith("---\n"):
        end = text.find("\n---\n", 3)
        if end >= 0:
            try:
                data = yaml.load(text[4:end], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            except yaml.YAMLError:
                data = None
            return (data if isinstance(data, dict) else {}), text[end + 5 :]
    return {}, text


def _tags(frontmatter: dict) -> list[str]:
    for holder in (frontmatter, frontmatter.get("metadata") if isinstance(frontmatter.get("metadata"), dict) else {}):
        tags = holder.get("tags")
        if isinstance(tags, list):
            return [str(t) for t in tags if isinstance(t, (str, int, float))]
        if isinstance(tags, str):
            return [t.strip() for t in tags.split(",") if t.strip()]
    return []


def write_site(source: Path, site: Path) -> int:
    """Write the Hugo site for every skill under `source`; return the number of skill pages."""
    if site.exists():
        shutil.rmtree(site)
    layouts = site / "layouts" / "_default"
    layouts.mkdir(parents=True)
    (site / "hugo.toml").write_text(CONFIG)
    (layouts / "baseof.html").write_text(BASEOF)
    (layouts / "single.html").write_text(SINGLE)
    (layouts / "list.html").write_text(LIST)
    (site / "layouts" / "index.html").write_text(HOME)
    count = 0
    for skill_md in sorted(source.glob("*/*/SKILL.md")):
        publisher, name = skill_md.parent.parent.name, skill_md.parent.name
        frontmatter, body = _split(skill_md.read_text(encoding="utf-8"))
        front = {
            "title": str(frontmatter.get("name") or name),
            "description": str(frontmatter.get("description") or ""),
            "tags": _tags(frontmatter),
        }
        target = site / "content" / "skills" / publisher / f"{name}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        # JSON front matter: Hugo reads a leading JSON object, and JSON quoting is unambiguous.
        target.write_text(json.dumps(front, indent=1) + "\n\n" + body, encoding="utf-8")
        count += 1
    return count


def count_pages(destination: Path) -> int:
    """Skill pages Hugo wrote: public/skills/<publisher>/<name>/index.html."""
    return sum(1 for _ in destination.glob("skills/*/*/index.html"))

"""What the site's search page downloads for a first query: `python -m bench.search_download SITE QUERIES.yaml`.

A first query starts from an empty browser cache: the search page, its stylesheet and scripts (and
the modules they import), then the shard files the query needs. The shard files are those the
reference reader (registry/search/shards.py's ShardSource) reads running the same ranking with
the page's 20 results; tests/search/test_index_and_cli.py checks the browser's code asks for the
same files. Bytes are counted as stored, and as sent: text files (HTML, CSS, JavaScript, JSON) as
gzip -6 sends them, since every static host compresses text, and the postings as stored, since
they are deflated already and hosts do not compress binary files.
Prints JSON: per query and the median and largest.
"""

from __future__ import annotations

import gzip
import json
import re
import statistics
import sys
from pathlib import Path

import yaml

from registry.search import engine
from registry.search.shards import FOLDER, ShardSource

PAGE_RESULTS = 20
# What a browser fetches to show the page: scripts, stylesheets and the icon (not alternate or canonical links).
_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link\s+rel="(?:stylesheet|icon|modulepreload)"[^>]*\shref)="([^"]+)"')
_IMPORT = re.compile(r'^\s*import\s[^"\']*["\']([^"\']+)["\']', re.M)


def page_files(site: Path) -> list[Path]:
    """The search page and every stylesheet, script and imported module it loads from the site."""
    page = site / FOLDER / "index.html"
    found = [page]
    pending = [(page.parent / ref.split("?")[0]).resolve() for ref in _ASSET.findall(page.read_text())]
    while pending:
        path = pending.pop()
        if path in found or not path.is_file() or site.resolve() not in path.parents:
            continue
        found.append(path)
        if path.suffix == ".js":
            pending += [(path.parent / ref).resolve() for ref in _IMPORT.findall(path.read_text())]
    return found


def sizes(paths: list[Path]) -> tuple[int, int]:
    """(bytes as stored, bytes as sent)."""
    stored = sent = 0
    for path in paths:
        data = path.read_bytes()
        stored += len(data)
        sent += len(data) if path.suffix == ".bin" else len(gzip.compress(data, 6))
    return stored, sent


def first_query(site: Path, query: str) -> dict:
    source = ShardSource(site)
    results = engine.search(source, query, {}, PAGE_RESULTS)
    shard_files = [site / FOLDER / "manifest.json"] + [
        site / FOLDER / relative for relative in source.fetched if (site / FOLDER / relative).is_file()
    ]
    page_raw, page_gzip = sizes(page_files(site))
    shards_raw, shards_gzip = sizes(shard_files)
    return {
        "query": query,
        "results": len(results),
        "files": len(shard_files),
        "shard_bytes": shards_raw,
        "shard_sent_bytes": shards_gzip,
        "total_bytes": page_raw + shards_raw,
        "total_sent_bytes": page_gzip + shards_gzip,
    }


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    site, queries_file = Path(args[0]), Path(args[1])
    count = int(args[2]) if len(args) > 2 else 20
    queries = [item["query"] for item in yaml.safe_load(queries_file.read_text())][:count]
    measured = [first_query(site, query) for query in queries]

    def summary(field: str) -> dict:
        values = [m[field] for m in measured]
        return {"median": int(statistics.median(values)), "max": max(values)}

    print(
        json.dumps(
            {
                "queries": len(measured),
                "page_bytes": sizes(page_files(site))[0],
                **{field: summary(field) for field in ("shard_bytes", "total_bytes", "total_sent_bytes")},
                "largest": max(measured, key=lambda m: m["total_sent_bytes"]),
                "per_query": measured,
            }
        )
    )


if __name__ == "__main__":
    main()

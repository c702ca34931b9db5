"""Page weight and load time of a built site: `python -m bench.page_load SITE [--path browse/] [--runs 5]`.

Prints the site's largest HTML pages in bytes (the pages the build writes: not the skills' own files under
raw/ and .well-known/, served byte for byte), then for each --path (default: browse/) how long it takes to
load in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright) from `python -m http.server`
on localhost: from the start of the navigation to the end of the load event, in a fresh browser context
each run (an empty cache), the median and the slowest of --runs. With the page's bytes and DOM elements.
`--json FILE` writes every figure.

    .venv/bin/python -m bench.page_load /tmp/site --path browse/ --path browse/newest/page/2/ --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip
NOT_PAGES = ("raw", ".well-known")  # the skills' own files: served as published, not pages of the site
TIMING = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return {load_ms: nav.loadEventEnd, dom_content_loaded_ms: nav.domContentLoadedEventEnd,
          response_end_ms: nav.responseEnd, elements: document.getElementsByTagName("*").length};
}"""


def largest_pages(site: Path, count: int = 5) -> tuple[int, list[tuple[int, str]], dict[str, tuple[int, str]]]:
    """How many HTML pages the site has, the largest `count` of them as (bytes, path), and the largest of each
    kind (the first folder of its path: browse, categories, publishers, tags, skills, ...; "home" at the root)."""
    sizes: list[tuple[int, str]] = []
    for folder, dirs, files in os.walk(site):
        if Path(folder) == site:
            dirs[:] = [d for d in dirs if d not in NOT_PAGES]
        for name in files:
            if name.endswith(".html"):
                path = Path(folder, name)
                sizes.append((path.stat().st_size, path.relative_to(site).as_posix()))
    sizes.sort(reverse=True)
    by_kind: dict[str, tuple[int, str]] = {}
    for size, path in sizes:
        by_kind.setdefault(
            path.split("/")[0] if "/" in path else "home" if path == "index.html" else path, (size, path)
        )
    return len(sizes), sizes[:count], dict(sorted(by_kind.items()))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(site: Path) -> tuple[subprocess.Popen, str]:
    """`python -m http.server` on a free local port; returns the process and the site's URL once it answers."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"python -m http.server did not answer at {url}")


def load_once(browser, target: str, errors: list[str]) -> dict:
    """One load of `target` in a fresh browser context: its timings and elements; console errors to `errors`."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        response = page.goto(target, wait_until="load")
        if response is None or response.status != 200:
            raise SystemExit(f"{target}: HTTP {response.status if response else 'no response'}")
        page.wait_for_function("performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
        return page.evaluate(TIMING)
    finally:
        context.close()


def load_times(url: str, paths: list[str], runs: int) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"Chromium is not installed: expected at {CHROMIUM}; apt-get install chromium")
    found = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            load_once(browser, url, [])  # the browser's own first start is not the page's time
            for path in paths:
                errors: list[str] = []
                timings = [load_once(browser, url + path, errors) for _ in range(runs)]
                loads = [t["load_ms"] for t in timings]
                found[path] = {
                    "runs": runs,
                    "load_ms_median": round(statistics.median(loads), 1),
                    "load_ms_max": round(max(loads), 1),
                    "dom_content_loaded_ms_median": round(statistics.median(t["dom_content_loaded_ms"] for t in timings), 1),
                    "elements": timings[-1]["elements"],
                    "console_errors": errors,
                }  # fmt: skip
        finally:
            browser.close()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (skill-registry build --out)")
    parser.add_argument(
        "--path", action="append", help="a page to load, relative to the site (default browse/; '' the home)"
    )
    parser.add_argument("--runs", type=int, default=5, help="loads per page, each in a fresh context (default 5)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    paths = args.path or ["browse/"]
    pages, largest, by_kind = largest_pages(site)
    print(f"{pages} HTML pages in {site} (not counting raw/ and .well-known/); the largest:")
    for size, path in largest:
        print(f"  {size:>10,} bytes  {path}")
    print("The largest of each kind:")
    for kind, (size, path) in by_kind.items():
        print(f"  {size:>10,} bytes  {path}  ({kind})")
    server, url = serve(site)
    try:
        loads = load_times(url, paths, args.runs)
    finally:
        server.terminate()
        server.wait()
    for path, figures in loads.items():
        page_bytes = (site / (path if path.endswith(".html") else path + "index.html")).stat().st_size
        figures["bytes"] = page_bytes
        print(
            f"/{path}: load {figures['load_ms_median']} ms median, {figures['load_ms_max']} ms slowest of "
            f"{figures['runs']} (DOMContentLoaded {figures['dom_content_loaded_ms_median']} ms); "
            f"{page_bytes:,} bytes, {figures['elements']:,} elements; console errors: {len(figures['console_errors'])}"
        )
    if args.json:
        report = {
            "site": str(site),
            "html_pages": pages,
            "largest": largest,
            "largest_by_kind": by_kind,
            "loads": loads,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

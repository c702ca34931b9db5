"""Real headless Chromium (Debian's package) driven by Playwright, against sites served on localhost.

No browser is downloaded: Playwright is pointed at /usr/bin/chromium, which .ci/run installs. A
missing browser fails these tests; it never skips them.
"""

from __future__ import annotations

import threading
from pathlib import Path

from registry.serve import make_server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def launch(playwright):
    assert CHROMIUM.exists(), "Chromium is missing: install Debian's chromium package (.ci/run does)"
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)


class Served:
    def __init__(self, site: Path):
        self.server = make_server(site, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve(site: Path) -> Served:
    return Served(site)


def watch(page):
    """Collect console errors, CSP violations and failed requests of a page."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    return problems


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

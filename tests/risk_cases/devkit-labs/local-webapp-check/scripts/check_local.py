"""Open a localhost page, optionally click a button, report console errors."""

import argparse

from playwright.sync_api import sync_playwright


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--click")
    args = parser.parse_args()
    if not args.url.startswith(("http://localhost", "http://127.0.0.1")):
        raise SystemExit("this checker only opens local dev servers")
    with sync_playwright() as p:
        browser = p.chromium.launch()
        page = browser.new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(args.url, wait_until="networkidle")
        if args.click:
            page.get_by_text(args.click).first.click()
            page.wait_for_load_state("networkidle")
        page.screenshot(path="local-check.png", full_page=True)
        browser.close()
    for e in errors:
        print("console error:", e)
    print("screenshot: local-check.png")


if __name__ == "__main__":
    main()

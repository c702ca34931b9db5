"""Real headless Chromium (Debian's package) driven by Playwright, against sites served on localhost.

No browser is downloaded: Playwright is pointed at /usr/bin/chromium, which scripts/test installs. A
missing browser fails these tests with one sentence saying how to install it; it never skips them.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

import pytest
from conftest import CHROMIUM, PROGRAMS

from registry.serve import SiteHandler, SiteServer, load_header_rules, make_server

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"  # in the repository (gitignored)


def launch(playwright):
    if not CHROMIUM.exists():
        pytest.fail(PROGRAMS[str(CHROMIUM)], pytrace=False)
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)


class Served:
    def __init__(self, site: Path, csp: bool = True):
        if csp:
            self.server = make_server(site, "127.0.0.1", 0)
        else:  # the production headers less the Content-Security-Policy: proves escaping, not the policy
            rules = [
                (pattern, {k: v for k, v in values.items() if k.lower() != "content-security-policy"})
                for pattern, values in load_header_rules()
            ]
            handler = functools.partial(SiteHandler, directory=str(site), header_rules=rules)
            self.server = SiteServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve(site: Path, csp: bool = True) -> Served:
    return Served(site, csp=csp)


# Runs in every frame before any of the page's scripts. CSP violations, dialogs and the hostile skills'
# canary (`window.__pwned`) are reported as console errors, so they are collected even when the page has
# navigated away by the time a test looks.
INIT_SCRIPT = """
(() => {
  const report = (what) => console.error("[harness] " + what);
  document.addEventListener("securitypolicyviolation", (e) => {
    report("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
      " in " + e.sourceFile + ":" + e.lineNumber);
  }, true);
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    const original = window[name];
    window[name] = function (...args) {
      window.__dialogCalls = (window.__dialogCalls || 0) + 1;
      report(name + "() called with " + JSON.stringify(args));
      return original.apply(this, args);
    };
  }
  let canary;
  Object.defineProperty(window, "__pwned", {
    configurable: false,
    get() { return canary; },
    set(value) { canary = value; report("window.__pwned set to " + JSON.stringify(value)); },
  });
})();
"""


def watch(page):
    """Collect console errors, CSP violations, dialogs, failed requests and HTTP errors of a page."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    def failed(request):
        # The browser fetches the icon lazily after `load` and cancels that fetch when a test navigates on at
        # once; a cancelled icon fetch is not a failed request. Anything else that fails is reported.
        if not (request.failure == "net::ERR_ABORTED" and request.url.endswith("/static/favicon.svg")):
            problems.append(f"request failed: {request.url} {request.failure}")

    page.on("requestfailed", failed)

    def dialog(d):
        problems.append(f"dialog {d.type}: {d.message}")
        d.dismiss()

    page.on("dialog", dialog)
    return problems


def new_context(browser, **context_options):
    """A browser context whose every page and frame runs the harness init script first."""
    context = browser.new_context(**context_options)
    context.add_init_script(INIT_SCRIPT)
    return context


def new_page(browser, **context_options):
    """A page in a fresh context with the harness init script; returns (page, problems). Close page.context."""
    page = new_context(browser, **context_options).new_page()
    return page, watch(page)


# Evaluated in a page: every executable construct the DOM holds after parsing (what the browser built,
# not what the server sent). The site's own scripts are the only ones allowed.
DOM_CONSTRUCTS = """
() => {
  const found = [];
  const own = /(^|\\/)static\\/(app|search)\\.js$/;
  const urlAttributes = ["href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcset", "background"];
  for (const el of document.querySelectorAll("*")) {
    const tag = el.localName;
    for (const attribute of el.attributes) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith("on")) found.push(`<${tag} ${name}>`);
      if (name === "srcdoc") found.push(`<${tag} srcdoc>`);
      if (urlAttributes.includes(name)) {
        const compact = attribute.value.replace(/[\\u0000-\\u0020]+/g, "").toLowerCase();
        if (/^(javascript|data|vbscript):/.test(compact)) found.push(`<${tag} ${name}=${attribute.value}>`);
      }
      if (name === "style" && /expression\\(|javascript:|url\\(/i.test(attribute.value)) found.push(`<${tag} style>`);
    }
    if (tag === "script" && !own.test(el.getAttribute("src") || "")) found.push(`<script src=${el.getAttribute("src")}>`);
    if (["iframe", "frame", "object", "embed", "base", "svg", "math", "style", "form", "portal"].includes(tag)) {
      const ours = (tag === "form" && el.matches(".header-search, .filter, .input-preview"))
        || (tag === "svg" && el.matches("figure.chart > svg.chart-svg[role=img]"));  // the site's charts
      if (!ours) found.push(`<${tag}>`);
    }
    if (tag === "meta" && el.httpEquiv) found.push(`<meta http-equiv=${el.httpEquiv}>`);
  }
  if (window.frames.length) found.push(`${window.frames.length} frame(s)`);
  return found;
}
"""


def dom_constructs(page) -> list[str]:
    return page.evaluate(DOM_CONSTRUCTS)


def screenshot(page, name: str, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)

"""axe-core (the npm package pinned in tests/interop/package.json) on every kind of page, light and dark.

No violation of impact serious or critical is allowed; moderate and minor ones are printed. axe is injected as
a script tag, which the site's CSP forbids, so these contexts (and only these) bypass the CSP.
"""

import pytest
from browser_support import screenshot
from conftest import REPO_ROOT

pytest_plugins = ["site_fixture"]

AXE = REPO_ROOT / "tests" / "interop" / "node_modules" / "axe-core" / "axe.min.js"

PAGES = [
    "",
    "browse/",
    "stats/",  # the charts (the home page has a compact set)
    "search/?q=csv",
    "categories/data/",
    "publishers/datakit/",
    "skills/acme-devtools/api-docs-writer/",  # standard
    "skills/acme-devtools/dependency-upgrade/",  # claude-code
    "skills/registry-team/skill-publishing-checklist/",  # skillli
    "skills/datakit/csv-quick-stats/",  # gibberish
    "skills/datakit/sql-query-review/",  # agent-flow-lite
    "skills/studio-ink/accessibility-audit/",  # bouno
    "skills/opsworks/log-triage/",  # wolffish
    "skills/mallory/markup-everywhere/",  # hostile
    "skills/mallory/flow-inputs/",  # hostile, form controls
    "skills/mallory/pipe-to-shell/",  # high: the verdict first, install behind "Install anyway"
    "skills/mallory/wallet-sync/",  # critical: the verdict first, no install commands
    "help/",  # how to read a skill page: what every skill page links instead of repeating
    "no-such-page/",  # the 404 page
]

RUN_AXE = """
async (rules) => {
  const options = {resultTypes: ["violations"]};
  if (rules) options.runOnly = {type: "rule", values: rules};
  const result = await axe.run(document, options);
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n").slice(1, 2).join("")),
    count: v.nodes.length,
  }));
}
"""


# Only colours change with the scheme: the dark pass runs axe's colour rules, the light pass every rule.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.is_file(), f"{AXE} is missing: run `npm ci --prefix tests/interop`"
    return AXE.read_text(encoding="utf-8")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation(site, open_page, axe_source, scheme):
    page, problems = open_page(color_scheme=scheme, bypass_csp=True)
    serious: dict[str, list] = {}
    other: dict[str, list] = {}
    for path in PAGES:
        response = page.goto(site.url + path)
        assert response.status == (404 if path == "no-such-page/" else 200)
        if path.startswith("search/"):
            page.wait_for_selector("a.result-title")
        page.add_script_tag(content=axe_source)
        for violation in page.evaluate(RUN_AXE, None if scheme == "light" else COLOUR_RULES):
            bucket = serious if violation["impact"] in ("serious", "critical") else other
            bucket.setdefault(path or "home", []).append(violation)
        name = path.strip("/").replace("/", "-").replace("?q=", "-") or "home"
        screenshot(page, f"a11y-{scheme}-{name}", full_page=False)  # the first screen; page tests take full pages
    for path, violations in other.items():
        for v in violations:
            print(f"axe {scheme} {path}: {v['impact']} {v['id']} ({v['count']}): {v['help']} {v['nodes'][:2]}")
    assert serious == {}
    assert [p for p in problems if "no-such-page" not in p and "404" not in p] == []

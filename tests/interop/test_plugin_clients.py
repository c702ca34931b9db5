"""Every plugin marketplace the build writes, read by its own client: Claude Code, Copilot CLI and Codex from npm.

The site is built from the repository's skills-index with an https base URL (Claude Code's marketplace is written
only for one), then set up as the README says a user sets it up for the clients that read a folder: a copy of the
site with each `plugins/<plugin>.zip` unpacked into `plugins/`. Then, offline, in a scratch HOME:

- Claude Code 2.1.332: `claude plugin validate --strict` on `.claude-plugin/marketplace.json` and on every
  unpacked plugin; warnings count as errors, so a plugin without a `version` fails.
- GitHub Copilot CLI 1.0.102: `copilot plugin marketplace add <copy>`, then `copilot plugin install
  <plugin>@<marketplace>` for every plugin. It reads `.github/plugin/marketplace.json` before
  `.claude-plugin/marketplace.json`; without the former it reads the latter and refuses the whole file for its
  `archive` sources, which a test shows.
- Codex 0.169.0: `codex plugin marketplace add <copy>`, `codex plugin list`, then `codex plugin add
  <plugin>@<marketplace>` for every plugin, its installed files compared byte for byte with the source. A test
  shows that one policy value Codex does not know hides every plugin (why the build refuses to write one).

Cursor reads `.cursor-plugin/marketplace.json` from a git repository; its CLI is not on npm, so no test runs it
(tests/emit/test_marketplaces.py checks the file against Cursor's published schemas).

The packages come from `npm ci` in tests/interop (package.json pins them), run on the Node 22 binary that the
npm package `node` provides. Without them these tests FAIL: a skipped interoperability test is not a passing one.
The three CLIs take about 1 GB there (Claude Code's native binary alone is 384 MB).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from registry.build import build
from registry.config import BuildOptions
from registry.emit.marketplaces import CLAUDE_MARKETPLACE, CODEX_MARKETPLACE, COPILOT_MARKETPLACE

INTEROP = Path(__file__).resolve().parent
REPO_ROOT = INTEROP.parents[1]
SKILLS_INDEX = REPO_ROOT / "skills-index"
NODE_MODULES = INTEROP / "node_modules"
NODE = NODE_MODULES / "node" / "bin" / "node"
INSTALL_HINT = "run npm ci in tests/interop  (cd tests/interop && npm ci)"
BASE = "https://skills.example.org/registry/"
CLI_TIMEOUT = 180  # seconds for one run; each takes one or two here
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class Client:
    package: str
    version: str
    script: str  # run with NODE, relative to the package's folder

    @property
    def path(self) -> Path:
        return NODE_MODULES / self.package / self.script


# Claude Code's postinstall copies the native binary over bin/claude.exe; cli-wrapper.cjs finds the same binary in
# the platform package whether or not that ran.
CLAUDE = Client("@anthropic-ai/claude-code", "2.1.332", "cli-wrapper.cjs")
COPILOT = Client("@github/copilot", "1.0.102", "npm-loader.js")
CODEX = Client("@openai/codex", "0.169.0", "bin/codex.js")
CLIENTS = (CLAUDE, COPILOT, CODEX)


def toolchain_problems() -> list[str]:
    problems: list[str] = []
    wanted = json.loads((INTEROP / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for client in CLIENTS:
        if wanted.get(client.package) != client.version:
            problems.append(f"package.json pins {client.package}={wanted.get(client.package)!r}, not {client.version}")
        manifest = NODE_MODULES / client.package / "package.json"
        if not manifest.is_file() or not client.path.is_file():
            problems.append(f"{client.package} {client.version} is not installed at {NODE_MODULES / client.package}")
            continue
        found = json.loads(manifest.read_text(encoding="utf-8")).get("version")
        if found != client.version:
            problems.append(f"{NODE_MODULES / client.package} holds version {found}, not {client.version}")
    if not NODE.is_file():
        problems.append(f"no Node binary at {NODE} (the npm package `node` ships it)")
    return problems


@pytest.fixture(scope="module")
def toolchain() -> None:
    problems = toolchain_problems()
    if problems:
        pytest.fail(f"{INSTALL_HINT}:\n  " + "\n  ".join(problems), pytrace=False)


def test_plugin_clients_are_installed() -> None:
    problems = toolchain_problems()
    assert not problems, f"{INSTALL_HINT}:\n  " + "\n  ".join(problems)


@dataclass
class Ran:
    args: list[str]
    proc: subprocess.CompletedProcess[str]

    @property
    def output(self) -> str:
        return ANSI.sub("", self.proc.stdout + self.proc.stderr)

    def describe(self) -> str:
        return f"$ {' '.join(self.args)}\nexit {self.proc.returncode}\n{self.output[-4000:]}"


def run(client: Client, home: Path, *args: str) -> Ran:
    """The client in a scratch HOME (no login, no settings), with nothing to read on standard input."""
    home.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": f"{NODE.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "CI": "true",
        # Claude Code: no update check, no telemetry, no other traffic it can leave out.
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    command = [str(NODE), str(client.path), *args]
    proc = subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=home, stdin=subprocess.DEVNULL, timeout=CLI_TIMEOUT
    )
    return Ran([client.package, *args], proc)


# --------------------------------------------------------------------------- the site, as a user sets it up


@dataclass(frozen=True)
class Site:
    out: Path  # as built
    folder: Path  # a copy with every archive unpacked into plugins/: what Codex and Copilot CLI read
    marketplace: str
    skills: dict[str, list[str]]  # plugin -> the discovery names of its skills


def unpack(archive: Path, into: Path) -> None:
    """`unzip <plugin>.zip -d plugins/`, keeping the executable bits (Python's zipfile alone drops them)."""
    with zipfile.ZipFile(archive) as zipped:
        for info in zipped.infolist():
            target = into / info.filename
            assert into.resolve() in target.resolve().parents, info.filename
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zipped.read(info))
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                target.chmod(mode)


@pytest.fixture(scope="module")
def site(toolchain: None, tmp_path_factory: pytest.TempPathFactory) -> Site:
    root = tmp_path_factory.mktemp("plugin-clients")
    out = root / "site"
    build(BuildOptions(source=SKILLS_INDEX, out=out, base_url=BASE))
    folder = root / "unpacked"
    shutil.copytree(out, folder)
    for archive in sorted((folder / "plugins").glob("*.zip")):
        unpack(archive, folder / "plugins")
    copilot = json.loads((out / COPILOT_MARKETPLACE).read_bytes())
    skills = {
        plugin["name"]: sorted(path.name for path in (folder / "plugins" / plugin["name"] / "skills").iterdir())
        for plugin in copilot["plugins"]
    }
    assert len(skills) == 6 and all(skills.values()), skills
    return Site(out, folder, copilot["name"], skills)


def tree(folder: Path) -> dict[str, tuple[bytes, bool]]:
    return {
        path.relative_to(folder).as_posix(): (path.read_bytes(), bool(path.stat().st_mode & stat.S_IXUSR))
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# --------------------------------------------------------------------------- Claude Code


def validate(home: Path, target: Path) -> tuple[Ran, dict]:
    """`claude plugin validate --strict --json <target>`: the report, after checking it passed with nothing to say."""
    ran = run(CLAUDE, home, "plugin", "validate", "--strict", "--json", str(target))
    assert ran.proc.returncode == 0, ran.describe()
    report = json.loads(ran.proc.stdout)
    assert report["success"] is True and report["strict"] is True, ran.describe()
    assert report["manifest"]["errors"] == [] and report["manifest"]["warnings"] == [], ran.describe()
    return ran, report


def test_claude_code_validates_the_marketplace_strictly(site: Site, tmp_path: Path) -> None:
    _, report = validate(tmp_path / "home", site.out / CLAUDE_MARKETPLACE)
    assert report["manifest"]["type"] == "marketplace"
    # The same, as a person reads it.
    ran = run(CLAUDE, tmp_path / "home", "plugin", "validate", "--strict", str(site.out / CLAUDE_MARKETPLACE))
    assert ran.proc.returncode == 0 and "Validation passed" in ran.output, ran.describe()


def test_claude_code_validates_the_repositorys_own_marketplace_strictly(tmp_path: Path) -> None:
    """.claude-plugin/marketplace.json at the root of this repository (tests/test_repository_marketplace.py): its
    plugins are folders of skills-index/, read where they are."""
    _, report = validate(tmp_path / "home", REPO_ROOT / ".claude-plugin" / "marketplace.json")
    assert report["manifest"]["type"] == "marketplace"


def test_claude_code_validates_every_plugin_strictly(site: Site, tmp_path: Path) -> None:
    for plugin, names in site.skills.items():
        _, report = validate(tmp_path / "home", site.folder / "plugins" / plugin)
        assert report["manifest"]["type"] == "plugin"
        assert sorted(report["provides"]["skills"]) == [f"{plugin}:{name}" for name in names], plugin


# --------------------------------------------------------------------------- GitHub Copilot CLI


def test_copilot_cli_adds_the_marketplace_and_installs_every_plugin(site: Site, tmp_path: Path) -> None:
    home = tmp_path / "home"
    ran = run(COPILOT, home, "plugin", "marketplace", "add", str(site.folder))
    assert ran.proc.returncode == 0 and f'Marketplace "{site.marketplace}" added' in ran.output, ran.describe()
    ran = run(COPILOT, home, "plugin", "marketplace", "browse", site.marketplace)
    assert ran.proc.returncode == 0, ran.describe()
    assert re.findall(r"^\s*• ([a-z0-9-]+) - ", ran.output, re.M) == list(site.skills), ran.describe()
    for plugin, names in site.skills.items():
        ran = run(COPILOT, home, "plugin", "install", f"{plugin}@{site.marketplace}")
        assert ran.proc.returncode == 0, ran.describe()
        count = f"{len(names)} skill{'s' if len(names) != 1 else ''}"
        assert f'Plugin "{plugin}" installed successfully. Installed {count}.' in ran.output, ran.describe()


def test_copilot_cli_refuses_the_whole_claude_code_file_for_its_archive_sources(site: Site, tmp_path: Path) -> None:
    """Why Copilot CLI has its own file, read before `.claude-plugin/marketplace.json`."""
    folder = tmp_path / "claude-only"
    shutil.copytree(site.folder, folder)
    shutil.rmtree(folder / ".github")
    ran = run(COPILOT, tmp_path / "home", "plugin", "marketplace", "add", str(folder))
    assert ran.proc.returncode != 0, ran.describe()
    assert "Invalid marketplace.json: plugins.0.source: Invalid input" in ran.output, ran.describe()


# --------------------------------------------------------------------------- Codex


def codex_listed(home: Path, marketplace: str) -> dict[str, tuple[str, str]]:
    """`codex plugin list`: plugin -> (status, source) for the plugins of `marketplace`."""
    ran = run(CODEX, home, "plugin", "list")
    assert ran.proc.returncode == 0, ran.describe()
    rows = re.findall(rf"^([a-z0-9-]+)@{re.escape(marketplace)}\s+(.+?)\s{{2,}}.*?(/\S+)$", ran.output, re.M)
    return {plugin: (status, source) for plugin, status, source in rows}


def test_codex_adds_the_marketplace_and_installs_every_plugin(site: Site, tmp_path: Path) -> None:
    home = tmp_path / "home"
    ran = run(CODEX, home, "plugin", "marketplace", "add", str(site.folder))
    assert ran.proc.returncode == 0 and f"Added marketplace `{site.marketplace}`" in ran.output, ran.describe()
    listed = codex_listed(home, site.marketplace)
    assert listed == {plugin: ("not installed", str(site.folder / "plugins" / plugin)) for plugin in site.skills}, (
        listed
    )
    for plugin in site.skills:
        ran = run(CODEX, home, "plugin", "add", f"{plugin}@{site.marketplace}")
        assert ran.proc.returncode == 0, ran.describe()
        (root,) = re.findall(r"^Installed plugin root: (\S+)$", ran.output, re.M)
        version = json.loads((site.folder / "plugins" / plugin / ".codex-plugin" / "plugin.json").read_bytes())
        assert Path(root).name == version["version"], ran.describe()
        assert tree(Path(root) / "skills") == tree(site.folder / "plugins" / plugin / "skills"), plugin
    assert {status for status, _ in codex_listed(home, site.marketplace).values()} == {"installed, enabled"}


def test_codex_refuses_the_whole_file_on_one_policy_value_it_does_not_know(site: Site, tmp_path: Path) -> None:
    """Why the build checks every policy value first (tests/emit/test_marketplaces.py): one entry's unknown value
    hides every plugin of the marketplace."""
    folder = tmp_path / "bad-policy"
    shutil.copytree(site.folder, folder)
    path = folder / CODEX_MARKETPLACE
    marketplace = json.loads(path.read_bytes())
    marketplace["plugins"][-1]["policy"]["installation"] = "MAYBE"
    path.write_text(json.dumps(marketplace, indent=2), encoding="utf-8")
    home = tmp_path / "home"
    ran = run(CODEX, home, "plugin", "marketplace", "add", str(folder))
    assert "unknown variant `MAYBE`, expected one of `NOT_AVAILABLE`, `AVAILABLE`" in ran.output, ran.describe()
    assert codex_listed(home, site.marketplace) == {}

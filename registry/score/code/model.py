"""What the parsers hand to the flow rules: code units, taint sources and sinks, per unit.

A `Unit` is one script file or one Markdown code fence, with the line of the file its first line
sits on. A parser reads a unit and fills a `Facts`: the card's `Use`s, and the flow facts (where
a sensitive value was produced, `Source`, and where a value reached a network send, an execution
or a persistence point, `Sink`, with the sources that reached it through variables, calls,
pipelines or files). The flow rules (flows.py) judge those facts; nothing here decides a level.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from registry.score.card import ENV, HOST, PATH, PERSISTENCE, WHOLE_ENVIRONMENT, Use
from registry.score.code import classify, system
from registry.score.risk.rules import show
from registry.score.vocabulary import (
    DOWNLOADERS,
    POWERSHELL_WEB,
    RAW_SOCKETS,
    free_hosting,
    geolocation_service,
    program_pattern,
)

# Source kinds: what a value holds.
SECRET = "secret"  # a secret-like environment variable (an API token)
WALLET_KEY = "wallet key"  # a wallet's private key or seed phrase
SECRET_FILE = "secret file"  # the contents (or the name) of a credential file, browser profile, wallet
ENV_DUMP = "environment"  # the whole environment, every secret in it
COLLECTED = "collected"  # reconnaissance: home listing, clipboard, screenshot, process list
SYSTEM_FACTS = "system facts"  # host name, user name, platform
FETCHED = "fetched"  # content downloaded from the network
DECODED = "decoded"  # base64/hex/rot13/zlib/marshal-decoded data
PARAMETER = "parameter"  # stands for what a function's caller passes (label: the name, command: the position)

# Sink kinds.
SEND = "send"  # data leaves the machine
EXEC = "exec"  # run as code
PERSIST = "persist"  # written where it outlives the task


# Content that fetches, decodes or evaluates code when written where it runs later (a cron line, a hook,
# agent settings). Every cron line runs a command; one that runs a local script is the medium case,
# like the line rule R042. One that downloads, decodes or evaluates inline code is the high case.
RUNS = re.compile(
    program_pattern(DOWNLOADERS, RAW_SOCKETS, POWERSHELL_WEB, ("eval", "base64", "npx", "bunx", "uvx")) + r"|https?://"
    r"|/dev/(?:tcp|udp)/|\b(?:ba|z|da)?sh\s+-c\b|\b(?:python[\d.]*|node|perl|ruby|php)\s+-[ce]\b|\burlopen\b"
    r"|\brequests\.(?:get|post)\b|\bfetch\("
)
# In a shell startup file only fetching or decoding counts: `export PATH=…` and `eval "$(tool init)"`
# lines are how many tools install themselves.
FETCHES = re.compile(program_pattern(DOWNLOADERS, RAW_SOCKETS, ("base64",)) + r"|https?://|/dev/(?:tcp|udp)/")


# Calls whose result reveals nothing of a key or secret passed in: a signature, a digest, a derived
# public key or address, an account object that signs in place. A trading script signs with its wallet
# key and sends the signed transaction; that is not the key leaving.
SANITISERS = re.compile(
    r"sign|hmac|hash|digest|sha\d|md5|blake|derive|public_?key|pubkey|address|from_?key|from_?secret_?key|"
    r"keypair|privatekeytoaccount|wallet|account|encrypt|jwt\.encode|bcrypt|argon|pbkdf|scrypt",
    re.IGNORECASE,
)
SECRET_KINDS = frozenset({"secret", "wallet key", "secret file"})


@functools.lru_cache(maxsize=1024)
def locating_host(host: str) -> bool:
    """`vocabulary.geolocation_service`, remembered: units name the same few hosts, each test walks a list."""
    return geolocation_service(host)


@functools.lru_cache(maxsize=1024)
def _free_hosting(host: str) -> bool:
    return free_hosting(host)


def fetch_label(host: str, url: str = "") -> str:
    """'downloads x.example', with what makes the source weaker than a named HTTPS host: plain HTTP, free hosting."""
    label = f"downloads {host or 'a URL'}"
    if host and _free_hosting(host):
        label += " (a free hosting subdomain)"
    if url[:7].lower() == "http://":
        label += " over plain HTTP"
    return label


def substitute(taint: frozenset, positional: list, named: dict) -> frozenset:
    """A function's taint seen from one call: each parameter stand-in replaced by what that call passes."""
    if not any(s.kind == PARAMETER for s in taint):
        return taint
    out = set()
    for source in taint:
        if source.kind != PARAMETER:
            out.add(source)
        elif source.label in named:
            out |= named[source.label]
        elif 0 <= source.command < len(positional):
            out |= positional[source.command]
    return frozenset(out)


def sanitised(taint: frozenset, name: str) -> frozenset:
    """The taint of a call's result: secrets dropped when the call only signs or derives with them."""
    if taint and name and SANITISERS.search(name):
        return frozenset(s for s in taint if s.kind not in SECRET_KINDS)
    return taint


@dataclass(frozen=True, slots=True)
class Source:
    kind: str
    label: str  # "reads ~/.aws/credentials", "the secret $API_TOKEN"
    line: int
    host: str = ""  # FETCHED: where from
    command: int = -1  # shell: the statement it belongs to
    # Where it comes from, spelled out: a download's whole URL (a vendor's installer is told by its path), a
    # credential file's path (a file a service owns may go to that service).
    address: str = ""


Taint = frozenset[Source]
CLEAN: Taint = frozenset()


@dataclass(frozen=True, slots=True)
class Sink:
    kind: str  # SEND, EXEC or PERSIST
    line: int
    taint: Taint  # the sources whose values reach it
    target: str = ""  # SEND: the host; EXEC: what runs; PERSIST: the path
    evidence: str = ""
    command: int = -1  # shell: the pipeline it belongs to (a source in the same one is the line rules' case)
    runs_code: bool = False  # PERSIST: what is written runs code or fetches
    channel: str = ""  # SEND: "dns" for a name looked up (a secret spliced into a name is never authentication)


@dataclass(frozen=True, slots=True)
class Unit:
    path: str  # shown path of the file
    name: str  # path inside the skill
    language: str  # python, shell, javascript, typescript, tsx
    text: str
    first_line: int  # the file line of the unit's first line
    origin: str  # card.FROM_CODE or card.FROM_INSTRUCTIONS
    fence: bool = False


@dataclass
class Facts:
    unit: Unit
    uses: list[Use] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    sinks: list[Sink] = field(default_factory=list)
    sends: list[Sink] = field(default_factory=list)  # every network send, tainted or not (unlinked flows)
    changes: list[system.Change] = field(default_factory=list)  # defences lowered, shared history lost
    own: tuple[str, ...] = ()  # the names of the skill's own configuration folder (classify.own_names)
    parser: str = ""
    statement_text: str = ""  # shell: the top-level statement being read (what a `tee` writes is in it)
    # What each file written may hold, shared by the units of one Markdown file (a later fence runs what an
    # earlier one decoded); None: the reader keeps its own.
    files: dict[str, Taint] | None = None
    hidden: str = ""  # set while reading code decoded from a blob: where it was hidden, for every source's label
    depth: int = 0  # code inside code being read (a decoded blob, a `python -c` body)

    _rows: list[str] | None = None
    _statements: int = 0
    _shown: dict[int, str] = field(default_factory=dict)

    def label(self, label: str) -> str:
        """A source's label, saying so when the code was hidden in a blob."""
        return f"{label}, {self.hidden}" if self.hidden else label

    def environment_dump(self, row: int) -> None:
        """The card's fact behind every 'the whole environment' a finding says."""
        self.use(ENV, WHOLE_ENVIRONMENT, row, "read", classify.SECRET_LIKE)

    def next_statement(self) -> int:
        """A fresh id for one top-level shell statement (unique across nested command strings)."""
        self._statements += 1
        return self._statements

    def line(self, row: int) -> int:
        """The file line of a 0-based row of the unit."""
        return self.unit.first_line + row

    def evidence(self, row: int) -> str:
        shown = self._shown.get(row)
        if shown is None:
            if self._rows is None:
                self._rows = self.unit.text.split("\n")
            shown = self._shown[row] = show(self._rows[row]) if 0 <= row < len(self._rows) else ""
        return shown

    def persistence(self, path: str, row: int, taint: Taint, content: str, literal: bool, copy: bool = False,
                    command: int = -1) -> None:  # fmt: skip
        """A write to `path`: a persistence use and a sink when the path outlives the task.

        Copying a folder or file into a skills folder is how a skill is installed (a README's setup
        step): a use, not a sink. Writing into a shell startup file is a sink only when the line
        fetches or decodes, or its content is not spelled out.
        """
        self.system_write(path, row, content)
        if not classify.is_persistence_point(path):
            return
        cls = classify.path_sensitivity(path)
        normal = classify.normal_path(path)
        self.use(PERSISTENCE, normal, row, "write", cls)
        if copy and cls == classify.SKILL_FOLDER:
            return
        pattern = FETCHES if cls == classify.SHELL_STARTUP else RUNS
        runs = bool(pattern.search(content)) or any(s.kind in (FETCHED, DECODED) for s in taint)
        if cls == classify.SHELL_STARTUP and not runs and literal:
            return
        line = self.line(row)
        self.sinks.append(Sink(PERSIST, line, taint, normal, self.evidence(row), command, runs))

    def system_write(self, path: str, row: int, content: str) -> None:
        """A write to sudoers, /etc/passwd or the SELinux config: a change when its content grants or disables.

        When the content is not spelled out at the write (`... | sudo tee FILE`, a copy, a Python
        `open(FILE, "w")`), the statement it sits in, then the whole unit, stand for it.
        """
        if not path.startswith(("/etc/", "/private/etc/", "/usr/local/etc/")):
            return
        bare = system.written_changes(path, "")
        for text in (content, self.statement_text, self.unit.text):
            found = system.written_changes(path, text) if text else []
            if found and found != bare:
                self.change(found, row)
                return
        self.change(bare, row)

    def change(self, found: list[tuple[str, str]], row: int) -> None:
        for kind, what in found:
            self.changes.append(system.Change(kind, what, self.line(row), row, self.evidence(row)))

    def use(self, kind: str, value: str, row: int, detail: str = "", sensitive: str = "") -> Use | None:
        """Record one use at a 0-based row of the unit, classified when the caller did not."""
        value = value.strip()
        if not value or len(value) > 300:
            return None
        if not sensitive:
            if kind == ENV:
                sensitive = classify.env_sensitivity(value)
            elif kind == PATH:
                value = classify.normal_path(value)
                sensitive = "" if classify.own_configuration(value, self.own) else classify.path_sensitivity(value)
            elif kind == HOST:
                value = value.lower().rstrip(".")
                sensitive = classify.host_sensitivity(value)
        use = Use(kind, value, self.unit.path, self.line(row), self.unit.origin, sensitive, detail, self.evidence(row))
        self.uses.append(use)
        return use


def spelled_each(
    constants: dict[str, str], name: str, values: Iterable[str], spell: Callable[[], str | None]
) -> list[str]:
    """What `spell` makes of an expression with `name` bound to each of `values` in turn (a loop over a list of
    paths), each text once, in order; `constants` is left as it was. The Python and JavaScript readers share it."""
    saved = constants.get(name)
    out: list[str] = []
    try:
        for value in values:
            constants[name] = value
            text = spell()
            if text and text not in out:
                out.append(text)
    finally:
        if saved is None:
            constants.pop(name, None)
        else:
            constants[name] = saved
    return out

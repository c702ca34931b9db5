"""Shell scripts and shell code fences, read with tree-sitter-bash: uses and flows.

Walks the syntax tree in order, tracking for each variable and each file written what it may hold
(taint: a secret, a credential file, the environment, collected facts, downloaded or decoded
data), and records the card's uses (environment variables, paths, hosts, programs, installs,
background processes, evaluated code, persistence points) and the sinks of the flow rules
(network sends, execution, persistence writes). Pipelines carry taint left to right, command
substitutions and redirections carry it through variables and files. A loop variable keeps the
words it takes, so `for f in ~/.ssh/id_rsa ~/.aws/credentials; do ... "$f"` reads each; a shell
function called with data is read again with `$1`... holding it; archives hold what they pack; a
push to a remote the unit adds, a cloud copy or a gist carries what was written into the tree.
`python -c`, `node -e`, `osascript -e` bodies and heredocs fed to an interpreter are read in their
own language on the command's line. Nothing is ever run.
"""

from __future__ import annotations

import base64
import functools
import itertools
import re
from dataclasses import dataclass, field

from registry.score import vocabulary
from registry.score.card import BINARY, ENV, HOST, INSTALL, PATH, PERSISTENCE, PROCESS
from registry.score.code import classify, system
from registry.score.code.model import (
    CLEAN,
    COLLECTED,
    DECODED,
    ENV_DUMP,
    EXEC,
    FETCHED,
    PERSIST,
    RUNS,
    SECRET,
    SECRET_FILE,
    SEND,
    SYSTEM_FACTS,
    WALLET_KEY,
    Facts,
    Sink,
    Source,
    Taint,
    fetch_label,
    locating_host,
)
from registry.score.code.treesitter import parse_bash
from registry.score.vocabulary import URL, url_host

MAX_DEPTH = 120  # nested syntax deeper than this is not walked (the rest of the file still is)
MAX_NESTED = 4  # shell strings inside shell strings (bash -c "sh -c '...'") read this deep
MAX_CHOICES = 16  # words a loop variable is remembered to take
MAX_SPELLED = 2000  # loop words tried as paths read per unit, every read together
MAX_CALLS = 16  # shell function bodies read again for the data a call passes, per unit
MAX_CALLED_BODY = 16 * 1024  # bytes of a function body read again
MAX_EMBEDDED = 3  # programs inside programs (`bash -c "python3 -c '...'"`, a decoded blob) read this deep
MAX_EMBEDDED_CODE = 64 * 1024  # characters of one embedded program read
_EMBEDDED = {"python": "python", "node": "javascript", "nodejs": "javascript", "bun": "javascript"}
_ESCAPES = re.compile(r"\\x[0-9a-fA-F]{2}|\\[0-7]{3}")  # text spelled as escapes: `printf '\x63\x75…'`
_DO_SHELL_SCRIPT = re.compile(r'do\s+shell\s+script\s+"((?:[^"\\]|\\.){1,20000})"', re.IGNORECASE)

BUILTINS = frozenset(
    """cd echo printf export set unset read true false test [ [[ local return exit shift alias unalias pwd pushd
    popd declare typeset readonly let wait trap type hash shopt ulimit umask : break continue getopts history
    fg bg jobs disown builtin command exec source . eval time nohup sudo env setsid""".split()
)
WRAPPERS = frozenset(
    {
        "sudo",
        "doas",
        "env",
        "nohup",
        "setsid",
        "time",
        "timeout",
        "nice",
        "ionice",
        "stdbuf",
        "exec",
        "command",
        "builtin",
        "caffeinate",
        "xargs",
        "watch",
        "chronic",
        "unbuffer",
    }
)
_WRAPPER_VALUE_OPTS = {"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, "nice": {"-n"},
                       "ionice": {"-c", "-n"}, "xargs": {"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"},
                       "timeout": {"-s", "-k", "--signal", "--kill-after"}, "env": {"-u", "-C", "-S"},
                       "watch": {"-n", "-d"}}  # fmt: skip
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "ash"})
INTERPRETERS = frozenset({"python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "deno", "bun"})
_EVAL_FLAGS = {"python": "-c", "node": "-e", "perl": "-e", "ruby": "-e", "php": "-r", "deno": "eval", "bun": "-e"}
DOWNLOADERS = frozenset(vocabulary.DOWNLOADERS + vocabulary.HTTPIE)
READERS = frozenset({"cat", "less", "more", "head", "tail", "bat", "base64", "xxd", "od", "hexdump", "strings",
                     "sqlite3", "grep", "egrep", "rg", "awk", "sed", "jq", "yq", "sort", "uniq", "wc", "cut", "tr",
                     "gzip", "gunzip", "zcat", "openssl", "sha256sum", "md5sum", "shasum", "diff", "file", "stat",
                     "source", ".", "code", "nano", "vim", "vi"})  # fmt: skip
COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync"})
DELETERS = frozenset({"rm", "rmdir", "shred", "unlink", "srm"})
LISTERS = frozenset({"ls", "find", "tree", "du", "fd", "exa", "eza"})
WRITERS = frozenset({"touch", "mkdir", "chmod", "chown", "truncate", "dd"})
ARCHIVERS = frozenset({"tar", "zip", "7z", "7za", "rar", "unzip"})
_READ_ALL = READERS | ARCHIVERS  # programs that read every file they are given
NETCAT = frozenset(vocabulary.RAW_SOCKETS)
REMOTE_COPY = frozenset({"scp", "rsync", "sftp"})
OPENERS = frozenset({"open", "xdg-open", "start", "explorer", "sensible-browser", "x-www-browser", "wslview"})
_NAMES_URLS = DOWNLOADERS | OPENERS | {"git", "pip", "pip3", "npm", "npx"}  # their URLs are uses of their own
SYSTEM_FACT_COMMANDS = frozenset({"whoami", "hostname", "uname", "id", "ifconfig", "ip", "hostnamectl", "sw_vers",
                                  "systeminfo", "ipconfig", "lsb_release", "users", "who", "w", "last", "groups",
                                  "dig", "arp", "netstat", "ss", "lsof"})  # fmt: skip
COLLECT_COMMANDS = {"ps": "the process list", "pbpaste": "the clipboard", "xclip": "the clipboard",
                    "xsel": "the clipboard", "wl-paste": "the clipboard", "screencapture": "a screenshot",
                    "scrot": "a screenshot", "gnome-screenshot": "a screenshot", "grim": "a screenshot",
                    "history": "the shell history", "fc": "the shell history"}  # fmt: skip
SECRET_COMMANDS = (
    ("gh", "auth", "token"), ("security", "find-generic-password"), ("security", "find-internet-password"),
    ("security", "dump-keychain"), ("secret-tool", "lookup"), ("op", "read"), ("pass", "show"),
    ("aws", "configure", "get"), ("gcloud", "auth", "print-access-token"), ("az", "account", "get-access-token"),
    ("vault", "kv", "get"), ("bw", "get"),
)  # fmt: skip
_SECRET_PROGRAMS = frozenset(pattern[0] for pattern in SECRET_COMMANDS)
CHECKSUMS = frozenset({"sha256sum", "sha512sum", "sha1sum", "shasum", "b2sum", "sha384sum"})
SIGNATURE_CHECKS = frozenset({"gpg", "gpg2", "gpgv", "cosign", "minisign", "signify", "openssl"})
DECODER_COMMANDS = frozenset({"base64", "base32", "xxd", "openssl", "uudecode", "basenc"})
SPECIAL_VARS = frozenset({
    "@", "*", "#", "?", "-", "$", "!", "0", "_", "IFS", "PWD", "OLDPWD", "RANDOM", "LINENO", "SECONDS", "BASH_SOURCE",
    "FUNCNAME", "PIPESTATUS", "REPLY", "OPTARG", "OPTIND", "BASH_REMATCH", "EUID", "UID", "PPID", "HOSTNAME",
    "BASHPID", "SHLVL",
})  # fmt: skip
_PROGRAM = re.compile(r"[\w@+][\w.+@-]*")  # not `ref:` or `key=value` (YAML or output read as shell)
KEY_OPTIONS = frozenset({"-i", "--identity", "--key", "--key-file", "--keyfile", "--private-key", "--cert", "--keypair",
                         "-k", "--ssh-key", "-sign", "-inkey", "-key", "-prverify", "--signing-key", "-u",
                         "--local-user", "-keystore", "--ks"})  # fmt: skip
KEY_TOOLS = frozenset({"ssh-keygen", "ssh-add", "ssh-copy-id", "gpg", "gpg2", "age", "age-keygen", "minisign",
                       "signify", "cosign", "step", "certbot", "keytool", "jarsigner", "apksigner"})  # fmt: skip
PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "awk", "gawk", "sed", "jq", "yq", "tr"})
LOWER_ENV = frozenset({"http_proxy", "https_proxy", "no_proxy", "all_proxy", "ftp_proxy"})
_EXPRESSION = re.compile(r"[\^\\\[\]{}()|;=,'\"]|^\.[\w-]+$|^s/|\s")  # a regex, a jq filter, sed code
_PATHY = re.compile(r"^(?:~|\.{1,2}/|/|\$\{?HOME\}?|[\w.@-]+/)|\.[A-Za-z0-9]{1,8}$")
_CURL_REMOTE_NAME = re.compile(r"-[a-zA-Z]*O[a-zA-Z]*")
_CURL_OUTPUT = re.compile(r"-[a-zA-Z]+o")
_WGET_OUTPUT = re.compile(r"-[a-zA-Z]*O")
_VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:[-+.][\w.]+)?$")


@dataclass(slots=True)
class Value:
    text: str  # the word with expansions kept as written ("$HOME/.ssh")
    taint: Taint = CLEAN
    literal: bool = True  # no expansion or substitution in it
    choices: tuple[str, ...] = ()  # the spelled values it takes in a loop over words (`for f in ~/.ssh/id_rsa ...`)


@dataclass
class _State:
    facts: Facts
    fixed_row: int | None = None  # nested shell strings report every use on the outer line
    row_offset: int = 0
    nested: int = 0
    variables: dict[str, Taint] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)
    files: dict[str, Taint] = field(default_factory=dict)  # what each written file may hold
    executable: set[str] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)
    statement: int = 0
    loop: int = 0  # inside a loop body: a command there runs once per item
    rewrote: bool = False  # git history rewritten (filter-branch, filter-repo, BFG) earlier in the unit
    shell_copies: set[str] = field(default_factory=set)  # files copied from a shell or interpreter
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)  # loop variables over spelled words
    remotes: dict[str, str] = field(default_factory=dict)  # git remotes this unit adds, and their hosts
    verified: set[str] = field(default_factory=set)  # downloaded files whose checksum or signature was checked
    bodies: dict[str, object] = field(default_factory=dict)  # shell functions' bodies, read again when called
    expanding: set[str] = field(default_factory=set)
    calls: int = 0
    spelled: int = 0  # loop words tried as paths read, in this unit (MAX_SPELLED)
    cwd: str = ""  # the folder the unit changed to last (`cd ~/dotfiles`), as the card writes paths


def analyse(facts: Facts, source: str, fixed_row: int | None = None, row_offset: int = 0, nested: int = 0,
            stdin: Taint = CLEAN, files: dict[str, Taint] | None = None) -> Taint:  # fmt: skip
    """Read shell source into `facts`; the taint of what it prints (for nested strings).

    `files` is shared with the caller (a Python or JavaScript unit running this command), so a
    file written there and run here, or the reverse, is one flow.
    """
    data = source.encode("utf-8", errors="replace")
    tree = parse_bash(data)
    state = _State(facts, fixed_row, row_offset, nested)
    if files is not None:
        state.files = files
    elif facts.files is not None:
        state.files = facts.files
    facts.parser = facts.parser or "tree-sitter bash"
    return _Walker(state, data).statements(tree.root_node, stdin, 0)


class _Walker:
    def __init__(self, state: _State, data: bytes) -> None:
        self.s = state
        self.data = data
        self.repeated = False  # the command being read runs once per item (a loop body, xargs)
        self.assigned = ""  # variables a wrapper sets for the command (`sudo VAR=value program`)

    # -- positions and text ----------------------------------------------------------------

    def row(self, node) -> int:
        if self.s.fixed_row is not None:
            return self.s.fixed_row
        return node.start_point[0] + self.s.row_offset

    def text(self, node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    @property
    def command_id(self) -> int:
        """The statement a source or sink belongs to; none for code decoded from a blob, which no line rule reads."""
        return -1 if self.s.facts.hidden else self.s.statement

    def source(self, kind: str, label: str, node, host: str = "", address: str = "") -> Source:
        facts = self.s.facts
        src = Source(kind, facts.label(label), facts.line(self.row(node)), host, self.command_id, address)
        facts.sources.append(src)
        return src

    def sink(self, kind: str, node, taint: Taint, target: str = "", runs_code: bool = False,
             channel: str = "") -> Sink:  # fmt: skip
        row = self.row(node)
        sink = Sink(kind, self.s.facts.line(row), taint, target, self.s.facts.evidence(row), self.command_id,
                    runs_code, channel)  # fmt: skip
        self.s.facts.sinks.append(sink)
        return sink

    def use(self, kind: str, value: str, node, detail: str = "", sensitive: str = "") -> None:
        self.s.facts.use(kind, value, self.row(node), detail, sensitive)

    # -- statements ------------------------------------------------------------------------

    def statements(self, node, stdin: Taint, depth: int) -> Taint:
        """A sequence (program, block, list): each child in order; `&` after one sends it to the background."""
        out: Taint = CLEAN
        children = node.children
        for index, child in enumerate(children):
            if not child.is_named or child.type == "comment":
                continue
            following = children[index + 1] if index + 1 < len(children) else None
            background = following is not None and following.type == "&"
            if depth == 0:
                self.s.statement = self.s.facts.next_statement()
                self.s.facts.statement_text = self.text(child)
            out = out | self.statement(child, stdin, depth + 1, background)
        return out

    def statement(self, node, stdin: Taint, depth: int, background: bool = False) -> Taint:
        if depth > MAX_DEPTH:
            return CLEAN
        kind = node.type
        if kind == "command":
            return self.command(node, stdin, depth, background)
        if kind == "pipeline":
            taint = stdin
            for child in node.named_children:
                taint = self.statement(child, taint, depth + 1, background)
            return taint
        if kind == "redirected_statement":
            return self.redirected(node, stdin, depth, background)
        if kind in ("variable_assignment", "declaration_command"):
            self.assignments(node, depth)
            return CLEAN
        if kind == "function_definition":
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            if name is not None:
                self.s.functions.add(self.text(name))
                if body is not None:
                    self.s.bodies[self.text(name)] = body
            return self.statements(body, CLEAN, depth + 1) if body is not None else CLEAN
        if kind in ("comment", "heredoc_body"):
            return CLEAN
        if kind == "for_statement":
            variable = node.child_by_field_name("variable")
            taint = CLEAN
            words: list[str] = []
            for value in node.children_by_field_name("value"):
                word = self.value(value, depth + 1)
                taint = taint | word.taint
                words += list(word.choices) if word.choices else [word.text] if word.literal and word.text else []
            if variable is not None:
                name = self.text(variable)
                self.s.variables[name] = taint
                self.s.choices.pop(name, None)
                if words:
                    self.s.choices[name] = tuple(dict.fromkeys(words))[:MAX_CHOICES]
            body = node.child_by_field_name("body")
            self.s.loop += 1
            try:
                return self.statements(body, stdin, depth + 1) if body is not None else CLEAN
            finally:
                self.s.loop -= 1
        if kind in ("while_statement", "c_style_for_statement"):
            self.s.loop += 1
            try:
                return self.statements(node, stdin, depth + 1)
            finally:
                self.s.loop -= 1
        return self.statements(node, stdin, depth + 1) if node.named_child_count else CLEAN

    def assignments(self, node, depth: int) -> None:
        nodes = [node] if node.type == "variable_assignment" else node.named_children
        for assignment in nodes:
            if assignment.type != "variable_assignment":
                if assignment.type == "variable_name":
                    self.s.variables.setdefault(self.text(assignment), CLEAN)
                continue
            name_node = assignment.child_by_field_name("name")
            value_node = assignment.child_by_field_name("value")
            if name_node is None:
                continue
            name = self.text(name_node)
            value = self.value(value_node, depth + 1) if value_node is not None else Value("")
            taint = value.taint
            sensitivity = classify.env_sensitivity(name)
            if sensitivity and value.text and value.literal:  # a hard-coded secret
                kind = WALLET_KEY if sensitivity == classify.WALLET_KEY else SECRET
                taint = taint | {self.source(kind, f"reads the secret ${name}", assignment)}
            self.s.variables[name] = taint
            if value.literal:
                self.s.constants[name] = value.text
            else:
                self.s.constants.pop(name, None)

    def redirected(self, node, stdin: Taint, depth: int, background: bool) -> Taint:
        body = node.child_by_field_name("body")
        redirects = [c for c in node.named_children if c is not body]
        written: list[tuple[str, object]] = []
        content_text = ""
        for redirect in redirects:
            if redirect.type == "heredoc_redirect":
                for part in redirect.named_children:
                    if part.type == "heredoc_body":
                        content_text = self.text(part)
                        stdin = stdin | self.value(part, depth + 1).taint
                        language = self.fed_program(body)
                        if language and self.s.nested < MAX_NESTED:
                            self.embedded(language, content_text, part, self.row(part))  # the code, not its input
                    elif part.type == "file_redirect":
                        redirects.append(part)
            elif redirect.type == "herestring_redirect":
                for part in redirect.named_children:
                    value = self.value(part, depth + 1)
                    stdin, content_text = stdin | value.taint, value.text
        for redirect in redirects:
            if redirect.type != "file_redirect":
                continue
            operator = next((c.type for c in redirect.children if not c.is_named), "")
            target = redirect.child_by_field_name("destination") or (
                redirect.named_children[-1] if redirect.named_children else None
            )
            if target is None or target.type in ("file_descriptor", "number"):
                continue
            value = self.value(target, depth + 1)
            if value.text in ("/dev/null", "/dev/stderr", "/dev/stdout", "-") or operator == ">&":
                continue
            if operator == "<":
                self.path_use(value.text, target, "read")
                stdin = stdin | self.file_taint(value.text, target) | self.alternatives(value, target)
            elif operator in (">", ">>", "&>", "&>>", ">|"):
                written.append((value.text, target))
        out = self.statement(body, stdin, depth + 1, background) if body is not None else stdin
        for path, target in written:
            self.write(path, target, out, content_text or (self.text(body) if body is not None else ""))
        return CLEAN if written else out

    def fed_program(self, body) -> str:
        """The language of the program a heredoc is fed to (`python3 - <<EOF`, `bash <<EOF`, `node <<EOF`), or ""."""
        if body is None or body.type != "command":
            return ""
        name = body.child_by_field_name("name")
        words = [self.text(c) for c in body.children_by_field_name("argument")]
        program = _program(self.text(name)) if name is not None else ""
        if any(not w.startswith("-") for w in words) and words != ["-"]:
            return ""  # a script file or a -c string: the heredoc is its input data
        if any(w in ("-c", "-e", "-m") for w in words):
            return ""
        if program in SHELLS:
            return "shell"
        return _EMBEDDED.get(re.sub(r"[\d.]+$", "", program), "")

    def write(self, path: str, node, taint: Taint, content: str) -> None:
        if not path:
            return
        self.path_use(path, node, "write")
        self.s.files[classify.normal_path(path)] = taint | self.s.files.get(classify.normal_path(path), CLEAN)
        self.persistence(path, node, taint, content)

    def persistence(
        self, path: str, node, taint: Taint, content: str, literal: bool = True, copy: bool = False
    ) -> None:
        self.s.facts.persistence(path, self.row(node), taint, content, literal, copy, self.s.statement)

    # -- words -----------------------------------------------------------------------------

    def value(self, node, depth: int) -> Value:
        """What a word, string or expansion holds: its text as written and its taint."""
        if depth > MAX_DEPTH:
            return Value(self.text(node), CLEAN, False)
        kind = node.type
        if kind in ("word", "number", "string_content", "ansi_c_string", "regex", "extglob_pattern"):
            text = self.text(node)
            if kind == "ansi_c_string":
                text = text[2:-1]
            return Value(text, CLEAN, True)
        if kind == "raw_string":
            return Value(self.text(node)[1:-1], CLEAN, True)
        if kind in ("simple_expansion", "expansion"):
            return self.expansion(node, depth)
        if kind in ("command_substitution", "process_substitution"):
            taint = self.statements(node, CLEAN, depth + 1)
            return Value(self.text(node), taint, False)
        if kind in ("string", "concatenation", "heredoc_body", "translated_string"):
            children = node.named_children
            parts = [self.value(child, depth + 1) for child in children]
            if kind == "heredoc_body":
                return Value(self.text(node), _union(p.taint for p in parts), all(p.literal for p in parts))
            if kind == "string" and not parts:
                return Value("", CLEAN, True)
            texts = [p.text for p in parts]
            if kind == "concatenation":
                gaps = [""] * len(parts) + [""]
                text = "".join(texts)  # `_joined` with every gap empty
            else:  # the string's own text, with each variable holding a constant spelled out
                gaps, cursor = [], node.start_byte + 1
                for child in children:
                    gaps.append(self.data[cursor : child.start_byte].decode("utf-8", errors="replace"))
                    cursor = child.end_byte
                gaps.append(self.data[cursor : max(cursor, node.end_byte - 1)].decode("utf-8", errors="replace"))
                text = _joined(gaps, texts)
            varied = next((i for i, p in enumerate(parts) if p.choices), None)
            choices: tuple[str, ...] = ()
            if varied is not None:  # `"$HOME/$f"` over a loop's words: each spelling
                before, after = texts[:varied], texts[varied + 1 :]
                choices = tuple(_joined(gaps, [*before, c, *after]) for c in parts[varied].choices)
            return Value(text, _union(p.taint for p in parts), all(p.literal for p in parts), choices)
        if kind == "arithmetic_expansion":
            return Value(self.text(node), CLEAN, False)
        taint = _union(self.value(child, depth + 1).taint for child in node.named_children)
        return Value(self.text(node), taint, False)

    def expansion(self, node, depth: int) -> Value:
        name_node = next((c for c in node.named_children if c.type in ("variable_name", "special_variable_name")), None)
        if name_node is None:
            return Value(self.text(node), CLEAN, False)
        name = self.text(name_node)
        for child in node.named_children:
            if child is not name_node:
                self.value(child, depth + 1)
        if name in self.s.choices and node.named_child_count == 1:
            return Value(self.text(node), self.s.variables.get(name, CLEAN), False, self.s.choices[name])
        if name in self.s.constants and node.named_child_count == 1:
            # assembled from string pieces (`a=ba; b=se; "$a$b"64`): constant propagation spells it out
            return Value(self.s.constants[name], self.s.variables.get(name, CLEAN), True)
        if name in self.s.variables:
            return Value(self.text(node), self.s.variables[name], False)
        if name.isdigit() or name in SPECIAL_VARS or name_node.type == "special_variable_name":
            return Value(self.text(node), CLEAN, False)
        if name.islower() and name not in LOWER_ENV:
            return Value(self.text(node), CLEAN, False)  # a script's own variable, set where we cannot see
        if name in classify.AGENT_SUBSTITUTIONS:
            return Value(self.text(node), CLEAN, False)  # filled in by the agent before the command runs
        self.use(ENV, name, node, "read")
        sensitivity = classify.env_sensitivity(name)
        taint = CLEAN
        if sensitivity:
            kind = WALLET_KEY if sensitivity == classify.WALLET_KEY else SECRET
            taint = frozenset({self.source(kind, f"reads the secret ${name}", node)})
        self.s.variables[name] = taint
        return Value(self.text(node), taint, False)

    def runnable(self, path: str) -> Taint:
        """What running a file runs: what was written to it, less a download whose checksum or signature the unit
        checked first (`curl -O …; sha256sum -c install.sh.sha256; bash install.sh`, the safe form)."""
        taint = self.lookup(path)
        if taint and classify.normal_path(path).removeprefix("./") in self.s.verified:
            taint = frozenset(s for s in taint if s.kind != FETCHED)
        return taint

    def verify(self, program: str, args: list[Value]) -> None:
        """A checksum or signature check: the downloaded files its statement names are verified."""
        words = [a.text for a in args]
        checks = (program in CHECKSUMS and any(w in ("-c", "--check") or w.startswith("--check") for w in words)) or (
            program in SIGNATURE_CHECKS and any("verif" in w or w == "-V" for w in [program, *words]))  # fmt: skip
        if not checks:
            return
        statement = self.s.facts.statement_text[:4096]
        for path, taint in itertools.islice(self.s.files.items(), 200):
            name = path.rstrip("/").rsplit("/", 1)[-1]
            if name and name in statement and any(s.kind == FETCHED for s in taint):
                self.s.verified.add(path.removeprefix("./"))

    def lookup(self, path: str) -> Taint:
        """What was written to a file here: by its name, or into a folder an archive was unpacked to."""
        normal = classify.normal_path(path)
        taint = self.s.files.get(normal, CLEAN)
        bare = normal.removeprefix("./")
        relative = not normal.startswith(("/", "~", "$"))
        for key, written in self.s.files.items():
            folder = key.endswith("/") and (bare.startswith(key.removeprefix("./")) or (key == "./" and relative))
            if folder or (key.removeprefix("./") == bare and key != normal):
                taint = taint | written
        return taint

    def alternatives(self, value: Value, node) -> Taint:
        """What reading each path a loop variable takes yields (`for f in ~/.aws/credentials ...; cat "$f"`)."""
        taint = CLEAN
        if self.s.spelled >= MAX_SPELLED:
            return taint
        self.s.spelled += len(value.choices)
        for path in value.choices:
            if classify.path_sensitivity(path) or classify.normal_path(path) in self.s.files:
                self.path_use(path, node, "read")
                taint = taint | self.file_taint(path, node)
        return taint

    def file_taint(self, path: str, node) -> Taint:
        """What reading a file yields: what was written to it here, or a credential file's contents."""
        normal = classify.normal_path(path)
        taint = self.lookup(path)
        label = classify.secret_label(normal, self.s.facts.own)
        if label:
            taint = taint | {self.source(SECRET_FILE, f"reads {normal} ({label})", node, address=normal)}
        return taint

    def path_use(self, path: str, node, detail: str) -> None:
        if not path or path.startswith("-") or len(path) >= 300 or URL.match(path):
            return
        if path.startswith("$") and not re.match(r"^\$\{?HOME\b", path):
            return  # only a variable: nothing to name
        self.use(PATH, path, node, detail)

    # -- commands --------------------------------------------------------------------------

    def command(self, node, stdin: Taint, depth: int, background: bool) -> Taint:
        name_node = node.child_by_field_name("name")
        for child in node.named_children:
            if child.type == "variable_assignment":
                self.assignments(child, depth + 1)
        if name_node is None:
            return CLEAN
        words: list[tuple[Value, object]] = [(self.value(name_node.named_children[0] if name_node.named_children
                                                         else name_node, depth + 1), name_node)]  # fmt: skip
        for child in node.children_by_field_name("argument"):
            words.append((self.value(child, depth + 1), child))
        return self.run(words, node, stdin, depth, background)

    def run(self, words: list[tuple[Value, object]], node, stdin: Taint, depth: int, background: bool) -> Taint:
        sudo = False
        self.repeated = self.s.loop > 0
        self.assigned = ""
        while words:
            program = _program(words[0][0].text)
            if program not in WRAPPERS or len(words) == 1:
                break
            self.repeated = self.repeated or program == "xargs"
            if program in ("nohup", "setsid"):
                background = True
            sudo = sudo or program in ("sudo", "doas")
            if program in ("sudo", "doas"):
                self.use(BINARY, program, node)
            skip = _WRAPPER_VALUE_OPTS.get(program, set())
            index = 1
            while index < len(words):
                word = words[index][0].text
                if program in ("env", "sudo", "doas") and "=" in word and not word.startswith("-"):
                    self.assigned += f" {word}"  # `sudo EDITOR='tee -a' visudo`: a variable set for the command
                    index += 1
                    continue
                if program == "timeout" and index == 1 and not word.startswith("-"):
                    index += 1
                    continue
                if word.startswith("-"):
                    index += 2 if word in skip else 1
                    continue
                break
            if program == "xargs":
                stdin_words = [(Value("", stdin, False), words[0][1])]
                words = words[index:] + stdin_words
                stdin = CLEAN
            else:
                words = words[index:]
        if not words:
            return CLEAN
        head = words[0][0]
        program = _program(head.text)
        args = [w for w, _ in words[1:]]
        arg_nodes = [n for _, n in words[1:]]
        arg_taint = _union(a.taint for a in args)
        if not head.literal:
            # the program itself comes from a variable: whatever it holds (or the file it names) runs
            self.sink(EXEC, node, head.taint | arg_taint | self.lookup(head.text), head.text)
            if background:
                self.use(PROCESS, head.text, node, "background")
            if head.taint:
                self.use(PROCESS, head.text, node, "eval")
            return CLEAN
        if program and program not in BUILTINS and program not in self.s.functions and _PROGRAM.fullmatch(program):
            self.use(BINARY, program, node, "sudo" if sudo else "")
        if background:
            self.use(PROCESS, program, node, "background")
        if "/" in head.text and self.s.files:
            written = self.runnable(head.text)
            if written:
                self.sink(EXEC, node, written, classify.normal_path(head.text))
        for value, arg_node in zip(args, arg_nodes, strict=True):
            if "://" in value.text and URL.match(value.text) and program not in _NAMES_URLS:
                host = url_host(value.text)
                if host:
                    self.use(HOST, host, arg_node, "mention")
        if program in system.PROGRAMS or program in COPIERS or program == "gh":
            self.system_command(program, args, arg_nodes, node)
        if program in CHECKSUMS or program in SIGNATURE_CHECKS:
            self.verify(program, args)
        if program in self.s.bodies and (arg_taint or stdin):
            return self.called(program, args, stdin, depth)
        handler = _HANDLERS.get(program)
        if handler is not None:
            return handler(self, program, args, arg_nodes, node, stdin, depth)
        if program in SHELLS or program in INTERPRETERS:
            return self.interpreter(program, args, arg_nodes, node, stdin, depth)
        if program.startswith("python") and re.fullmatch(r"python[\d.]*", program):
            return self.interpreter("python", args, arg_nodes, node, stdin, depth)
        return self.generic(program, args, arg_nodes, node, stdin)

    def called(self, name: str, args: list[Value], stdin: Taint, depth: int) -> Taint:
        """A shell function called with data: its body read again with `$1`, `$@` ... holding what is passed."""
        body = self.s.bodies[name]
        size = body.end_byte - body.start_byte
        if name in self.s.expanding or self.s.calls >= MAX_CALLS or size > MAX_CALLED_BODY:
            return stdin | _union(a.taint for a in args)
        self.s.calls += 1
        positional = {str(n): a.taint for n, a in enumerate(args[:9], start=1)}
        every = _union(a.taint for a in args)
        saved = {k: self.s.variables.get(k) for k in (*positional, "@", "*")}
        self.s.variables.update(positional, **{"@": every, "*": every})
        self.s.expanding.add(name)
        try:
            return self.statements(body, stdin, depth + 1)
        finally:
            self.s.expanding.discard(name)
            for key, value in saved.items():
                if value is None:
                    self.s.variables.pop(key, None)
                else:
                    self.s.variables[key] = value

    def generic(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint) -> Taint:
        taint = stdin
        detail = ("read" if program in _READ_ALL else "delete" if program in DELETERS
                  else "list" if program in LISTERS else "write" if program in WRITERS else "")  # fmt: skip
        positional = [(a, n) for a, n in zip(args, arg_nodes, strict=True) if not a.text.startswith("-")]
        if program in ("read", "mapfile", "readarray", "getopts"):
            for value, _ in positional:  # names these builtins assign, from the terminal or a pipe
                if re.fullmatch(r"[A-Za-z_]\w*", value.text):
                    typed = stdin
                    sensitivity = classify.env_sensitivity(value.text)
                    if sensitivity:  # `read -s PRIVATE_KEY`: the user types a secret in
                        kind = WALLET_KEY if sensitivity == classify.WALLET_KEY else SECRET
                        typed = typed | {self.source(kind, f"asks for the secret ${value.text}", node)}
                    self.s.variables[value.text] = typed
            return CLEAN
        if program in ("chmod", "chown", "chgrp") and positional:
            positional = positional[1:]
        if program in PATTERN_FIRST and positional and not any(a.text in ("-e", "-f", "--expression") for a in args):
            positional = positional[2:] if program == "tr" else positional[1:]  # the pattern, filter or script
        archive = _created(program, args) if program in ARCHIVERS and not _extracts(program, args) else ""
        if archive:  # the archive written and a tar flag cluster are not files read
            positional = [(a, n) for a, n in positional if a.text != archive and not (
                program == "tar" and re.fullmatch(r"[a-zA-Z]*c[a-zA-Z]*", a.text))]  # fmt: skip
        # tools that own keys use them in place (sign, derive a public key): a use, never a readout
        key_tool = program in KEY_TOOLS or (
            program == "openssl" and bool(args) and args[0].text not in ("enc", "base64")
        )
        for index, (value, arg_node) in enumerate(positional):
            taint = taint | value.taint
            text = value.text
            if not text or URL.match(text):
                continue
            if program in COPIERS:
                last = index == len(positional) - 1 and len(positional) > 1
                if last:
                    self.path_use(text, arg_node, "write")
                    copied = (taint - stdin) | _union(self.lookup(a.text) for a, _ in positional[:-1])
                    if copied:
                        self.s.files[classify.normal_path(text)] = copied
                    self.persistence(text, arg_node, copied, "", literal=False, copy=True)
                else:
                    self.path_use(text, arg_node, "read")
                    taint = taint | self.file_taint(text, arg_node) | self.alternatives(value, arg_node)
                continue
            if detail:
                looks = _PATHY.search(text) and not _EXPRESSION.search(text)
                if (detail != "read" and not _EXPRESSION.search(text)) or looks or classify.path_sensitivity(text):
                    self.path_use(text, arg_node, detail)
                if detail == "read" and not _key_option(args, value) and not key_tool:
                    taint = taint | self.file_taint(text, arg_node) | self.alternatives(value, arg_node)
                if detail == "list" and classify.is_home(text):
                    taint = taint | {self.source(COLLECTED, f"lists {classify.normal_path(text)}", arg_node)}
                if program == "tee":
                    pass
                continue
            if classify.path_sensitivity(text) and not _key_option(args, value) and not key_tool:
                self.path_use(text, arg_node, "read")
                taint = taint | self.file_taint(text, arg_node)
        if program in ARCHIVERS and _extracts(program, args):
            unpacked = taint if any(s.kind in (FETCHED, DECODED) for s in taint) else CLEAN
            if unpacked:
                folder = _option_value(args, ("-C", "--directory", "-d", "-o")) or "."
                self.s.files[classify.normal_path(folder).rstrip("/") + "/"] = unpacked
        elif archive:
            if archive == "-":
                return taint  # written to the output: what was packed flows on
            if archive:
                self.write(archive, node, taint, "")
                return CLEAN
        if program == "tee":
            for value, arg_node in positional:
                self.write(value.text, arg_node, stdin, "")
            return stdin
        if program == "chmod":
            for value, _ in positional:
                self.s.executable.add(classify.normal_path(value.text))
        if (program in ("env", "printenv", "set", "export", "declare") and not positional and not args) or (
            program in ("env", "printenv") and not positional
        ):
            self.s.facts.environment_dump(self.row(node))
            return taint | {self.source(ENV_DUMP, "dumps the whole environment", node)}
        if program in SYSTEM_FACT_COMMANDS:
            return taint | {self.source(SYSTEM_FACTS, f"collects system facts ({program})", node)}
        pasting = program != "xclip" or any(a.text == "-o" for a in args)
        if program in COLLECT_COMMANDS and pasting and (program != "ps" or args):
            return taint | {self.source(COLLECTED, f"collects {COLLECT_COMMANDS[program]}", node)}
        if program in _SECRET_PROGRAMS:
            words = (program, *(a.text for a in args))
            for pattern in SECRET_COMMANDS:
                if words[: len(pattern)] == pattern:
                    return taint | {self.source(SECRET, f"reads a secret ({' '.join(pattern)})", node)}
        if program in DECODER_COMMANDS and _decodes(program, args):
            return taint | {self.source(DECODED, f"decodes data ({program})", node)}
        if program in ("printf", "echo") and any(len(_ESCAPES.findall(a.text[:4096])) >= 8 for a in args):
            return taint | {self.source(DECODED, f"decodes hex or octal escapes ({program})", node)}
        if program == "tr" and any("N-ZA-M" in a.text or "n-za-m" in a.text for a in args):
            return taint | {self.source(DECODED, "decodes rot13 data (tr)", node)}
        return taint

    # -- interpreters and eval -------------------------------------------------------------

    def interpreter(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        flag = "-c" if program in SHELLS else _EVAL_FLAGS.get(program, "-c")
        for index, value in enumerate(args):
            text = value.text
            if (
                text == flag
                or (program in SHELLS and re.fullmatch(r"-[a-z]*c[a-z]*", text))
                or (program in ("node", "nodejs") and text in ("-p", "--eval", "--print"))
            ):
                code = args[index + 1] if index + 1 < len(args) else None
                if code is None:
                    return CLEAN
                if not code.literal:
                    self.use(PROCESS, f"{program} {flag}", node, "eval")
                # the code is the argument; what is piped in is its input data, not code
                self.sink(EXEC, node, code.taint, f"{program} {flag}")
                if program in SHELLS and code.literal and self.s.nested < MAX_NESTED:
                    row = self.row(node)
                    return analyse(self.s.facts, code.text, row, 0, self.s.nested + 1, stdin, self.s.files)
                language = _EMBEDDED.get(re.sub(r"[\d.]+$", "", program))
                if language and code.literal:
                    return self.embedded(language, code.text, node)
                return CLEAN
            if text in ("-m",) and program.startswith("python"):
                module = args[index + 1].text if index + 1 < len(args) else ""
                if module == "pip":
                    return self.install("pip", args[index + 2 :], arg_nodes[index + 2 :], node)
                return CLEAN
            if text.startswith("-"):
                continue
            # a script file: runs what was written to it
            normal = classify.normal_path(text)
            taint = self.runnable(text) | value.taint
            if value.text.startswith("<(") or (value.taint and not value.literal):
                self.use(PROCESS, f"{program} <(...)", node, "eval")
            self.sink(EXEC, node, taint, normal)
            return CLEAN
        if stdin:
            self.sink(EXEC, node, stdin, program)
        return CLEAN

    def embedded(self, language: str, code: str, node, offset: int | None = None) -> Taint:
        """A program of its own inside a command (`python -c`, `node -e`, a heredoc fed to `python3 -`): read by
        its own language's reader, every use on this line (or, `offset`, on the rows it spans), sharing the
        files written here; what it prints may hold whatever it read or decoded."""
        facts = self.s.facts
        if facts.depth >= MAX_EMBEDDED or len(code) > MAX_EMBEDDED_CODE:
            return CLEAN
        from registry.score.code import javascript, python  # they import this module

        facts.depth += 1
        first = len(facts.sources)
        fixed = None if offset is not None else self.row(node)
        try:
            if language == "python":
                python.analyse(facts, code, fixed, self.s.files, offset or 0)
            elif language == "javascript":
                javascript.analyse(facts, code, fixed, self.s.files, offset or 0)
            else:
                analyse(facts, code, fixed, offset or 0, self.s.nested + 1, CLEAN, self.s.files)
        except (SyntaxError, ValueError, RecursionError, UnicodeError, MemoryError):
            pass  # not a program after all: the line rules still read the command
        finally:
            facts.depth -= 1
        return frozenset(facts.sources[first : first + 64])

    def osascript(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        """`osascript -e 'do shell script "..."'`: the shell command inside the AppleScript, read as shell."""
        for index, value in enumerate(args[:-1]):
            script = args[index + 1]
            if value.text != "-e" or not script.literal or self.s.nested >= MAX_NESTED:
                continue
            for match in itertools.islice(_DO_SHELL_SCRIPT.finditer(script.text[:MAX_EMBEDDED_CODE]), 8):
                body = re.sub(r"\\(.)", r"\1", match.group(1))
                analyse(self.s.facts, body, self.row(node), 0, self.s.nested + 1, CLEAN, self.s.files)
        return CLEAN

    def powershell(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        """`powershell -Command "..."` read for Windows security changes; `-EncodedCommand` runs decoded code."""
        for index, value in enumerate(args[:-1]):
            option, code = value.text.lower(), args[index + 1]
            if option in ("-command", "-c") and code.literal:
                for kind, what, _ in system.windows_changes(code.text[:MAX_EMBEDDED_CODE]):
                    self.s.facts.change([(kind, what)], self.row(node))
            elif option in ("-encodedcommand", "-enc", "-e", "-ec") and code.literal:
                decoded = _utf16_base64(code.text)
                if decoded is None:
                    continue
                source = self.source(DECODED, f"decodes a base64 PowerShell command ({value.text})", node)
                self.sink(EXEC, node, frozenset({source}), f"{program} {value.text}")
                for kind, what, _ in system.windows_changes(decoded[:MAX_EMBEDDED_CODE]):
                    self.s.facts.change([(kind, what)], self.row(node))
        return CLEAN

    def eval_(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        taint = _union(a.taint for a in args)
        if program in ("source", "."):
            target = args[0].text if args else ""
            computed = bool(re.fullmatch(r"\$\{?\w+\}?|\$\(.*\)|`.*`", target, re.DOTALL))  # all of it run-time
            if target in ("/dev/stdin", "-") or target.startswith("<(") or (args and not args[0].literal and computed):
                self.use(PROCESS, f"{program} {target[:40]}".strip(), node, "eval")
                self.sink(EXEC, node, taint | (stdin if target in ("/dev/stdin", "-") else CLEAN), program)
            elif args:
                self.path_use(target, arg_nodes[0], "read")
                self.sink(EXEC, node, self.lookup(target), target)
            return CLEAN
        if any(not a.literal for a in args):
            self.use(PROCESS, "eval", node, "eval")
        self.sink(EXEC, node, taint, "eval")
        if args and all(a.literal for a in args) and self.s.nested < MAX_NESTED:
            text = " ".join(a.text for a in args)
            return analyse(self.s.facts, text, self.row(node), 0, self.s.nested + 1, CLEAN, self.s.files)
        return CLEAN

    # -- network ---------------------------------------------------------------------------

    def download(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        sends = False
        output: str | None = None
        remote_name = False
        taint = CLEAN
        hosts: list[tuple[str, object]] = []
        urls: list[str] = []  # the addresses of `hosts`, in the same order
        index = 0
        data_flags = {"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "-F",
                      "--form", "--form-string", "-T", "--upload-file", "--json", "--post-data", "--post-file",
                      "--body-data", "--body-file"}  # fmt: skip
        while index < len(args):
            value, arg_node = args[index], arg_nodes[index]
            text = value.text
            taint = taint | value.taint
            option, _, attached = text.partition("=") if text.startswith("--") else (text, "", "")
            if option in data_flags or (text.startswith("-d") and len(text) > 2 and not text.startswith("--")):
                sends = True
                payload = attached or (args[index + 1].text if index + 1 < len(args) and not attached else "")
                if index + 1 < len(args) and not attached:
                    taint = taint | args[index + 1].taint
                    index += 1
                file_arg = payload.split("=", 1)[-1] if option in ("-F", "--form") else payload
                if (
                    file_arg.startswith("@")
                    or file_arg.startswith("<")
                    or option in ("-T", "--upload-file", "--post-file", "--body-file")
                ):
                    path = file_arg.lstrip("@<")
                    if path in ("-", ""):
                        taint = taint | stdin
                    else:
                        self.path_use(path, arg_node, "read")
                        taint = taint | self.file_taint(path, arg_node)
                        for alternative in args[index].choices if not attached else ():  # `-F "f=@$k"` in a loop
                            spelled = alternative.split("=", 1)[-1] if option in ("-F", "--form") else alternative
                            taint = taint | self.alternatives(Value(spelled, choices=(spelled.lstrip("@<"),)), arg_node)
            elif option in ("-X", "--request", "--method") or (text.startswith("-X") and len(text) > 2):
                method = attached or (text[2:] if text.startswith("-X") and len(text) > 2 else
                                      args[index + 1].text if index + 1 < len(args) else "")  # fmt: skip
                if not attached and not (text.startswith("-X") and len(text) > 2):
                    index += 1
                sends = sends or method.upper() in ("POST", "PUT", "PATCH")
            elif (option in ("-o", "--output", "-O", "--output-document") and program == "wget" and option != "-o") or (
                option in ("-o", "--output") and program != "wget"
            ):
                output = attached or (args[index + 1].text if index + 1 < len(args) else None)
                index += 1
            elif program == "curl" and (
                option in ("-O", "--remote-name", "--remote-name-all") or _CURL_REMOTE_NAME.fullmatch(text)
            ):  # `-sLO`: short flags run together
                remote_name = True
            elif program in ("curl", "wget") and (_CURL_OUTPUT if program == "curl" else _WGET_OUTPUT).fullmatch(
                    text):  # `-so FILE`, `-qO FILE`  # fmt: skip
                output = args[index + 1].text if index + 1 < len(args) else None
                index += 1
            elif program == "wget" and re.fullmatch(r"-[a-zA-Z]*O-", text):
                output = "-"
            elif option in ("-H", "--header", "-u", "--user", "-b", "--cookie", "-A", "-e", "-K", "--config") and \
                    index + 1 < len(args) and not attached:  # fmt: skip
                taint = taint | args[index + 1].taint
                index += 1
            elif URL.match(text) or (not text.startswith("-") and "." in text and "/" in text and " " not in text):
                host = url_host(text if "://" in text else f"https://{text}")
                if host:
                    hosts.append((host, arg_node))
                    urls.append(text)
            index += 1
        for host, arg_node in hosts:
            self.use(HOST, host, arg_node, "send" if sends else "fetch")
        host = hosts[0][0] if hosts else ""
        sink = self.sink(SEND, node, taint, host)
        if sends:
            self.s.facts.sends.append(sink)
        url = urls[0] if urls else ""
        fetched = frozenset({self.source(FETCHED, fetch_label(host, url), node, host, url)})
        if host and locating_host(host):
            fetched = fetched | {self.source(COLLECTED, f"looks up the machine's location ({host})", node)}
        if program == "wget" and output is None:
            output = (hosts and _basename(args, hosts)) or None
        if remote_name and hosts:
            output = _basename(args, hosts)
        if output and output != "-":
            self.write(output, node, fetched, "")
            return CLEAN
        return fetched

    def netcat(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        positional = [(a, n) for a, n in zip(args, arg_nodes, strict=True) if not a.text.startswith("-")]
        listening = any(re.fullmatch(r"-[a-zA-Z]*l[a-zA-Z]*", a.text) for a in args)
        if positional and not listening:
            target = positional[0][0].text
            host = target.split(":", 1)[0] if program == "socat" else target
            host = re.sub(r"^(?:tcp|udp|tcp4|tcp6|openssl)[:-]", "", host, flags=re.I).lower()
            if host and not host.startswith("$"):
                self.use(HOST, host, positional[0][1], "send")
            sink = self.sink(SEND, node, stdin | _union(a.taint for a in args), host)
            self.s.facts.sends.append(sink)
            return frozenset({self.source(FETCHED, f"reads from {host}", node, host)})
        return CLEAN

    def remote_copy(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        positional = [(a, n) for a, n in zip(args, arg_nodes, strict=True) if not a.text.startswith("-")]
        if len(positional) < 2:
            return self.generic(program, args, arg_nodes, node, stdin)
        *sources, (dest, dest_node) = positional
        remote = re.match(r"^(?:[\w.-]+@)?([\w.-]+):", dest.text)
        if remote and not dest.text.startswith("/"):
            host = remote.group(1).lower()
            self.use(HOST, host, dest_node, "send")
            taint = CLEAN
            for value, arg_node in sources:
                self.path_use(value.text, arg_node, "read")
                taint = taint | value.taint | self.file_taint(value.text, arg_node) | self.alternatives(value, arg_node)
            sink = self.sink(SEND, node, taint, host)
            self.s.facts.sends.append(sink)
            return CLEAN
        copied = CLEAN
        for value, arg_node in sources:
            fetched = re.match(r"^(?:[\w.-]+@)?([\w.-]+):", value.text)
            if fetched:
                self.use(HOST, fetched.group(1).lower(), arg_node, "fetch")
            else:  # a local copy (`rsync -a ~/.ssh/ backup/`): the destination holds what was copied
                self.path_use(value.text, arg_node, "read")
                copied = copied | self.file_taint(value.text, arg_node) | self.alternatives(value, arg_node)
        self.path_use(dest.text, dest_node, "write")
        if copied:
            normal = classify.normal_path(dest.text)
            self.s.files[normal] = self.s.files.get(normal, CLEAN) | copied
        return CLEAN

    def ssh(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        index = 0
        while index < len(args):
            text = args[index].text
            if text in ("-i", "-F", "-o", "-p", "-l", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-S", "-w"):
                if text == "-i" and index + 1 < len(args):
                    self.path_use(args[index + 1].text, arg_nodes[index + 1], "read")
                index += 2
                continue
            if text.startswith("-"):
                index += 1
                continue
            host = text.rsplit("@", 1)[-1].lower()
            if host and not host.startswith("$"):
                self.use(HOST, host, arg_nodes[index], "send")
            rest = args[index + 1 :]
            sink = self.sink(SEND, node, stdin | _union(a.taint for a in rest), host)
            if stdin:
                self.s.facts.sends.append(sink)
            return CLEAN
        return CLEAN

    def dns(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        """A name looked up: data spliced into it leaves the machine through any resolver."""
        for value, arg_node in zip(args, arg_nodes, strict=True):
            text = value.text
            if not text or text.startswith(("-", "@", "+")) or text.upper() in ("A", "AAAA", "TXT", "MX", "ANY", "NS"):
                continue
            domain = text if value.literal else re.sub(r"^.*(?:\$\{[^}]*\}|\$\w+|\))", "", text)
            domain = domain.lstrip(".").lower()
            if "." not in domain:
                continue
            self.use(HOST, domain, arg_node, "send" if value.taint or not value.literal else "fetch")
            sink = self.sink(SEND, node, value.taint, domain, channel="dns")
            if not value.literal:
                self.s.facts.sends.append(sink)
            break
        return CLEAN

    def opener(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        for value, arg_node in zip(args, arg_nodes, strict=True):
            if URL.match(value.text):
                host = url_host(value.text)
                if host:
                    self.use(HOST, host, arg_node, "open")
            elif not value.text.startswith("-") and value.text:
                self.path_use(value.text, arg_node, "read")
        return CLEAN

    def system_command(self, program: str, args: list[Value], arg_nodes: list, node) -> None:
        """Defences lowered (system.py): sudoers, setuid shells, security services, privileged groups."""
        words = [a.text for a in args]
        if program in COPIERS:
            positional = [w for w in words if not w.startswith("-")]
            if len(positional) >= 2 and any(system.is_setuid_target(w) for w in positional[:-1]):
                self.s.shell_copies.add(classify.normal_path(positional[-1]))
            return
        if program == "bfg":
            self.s.rewrote = True
            return
        if program == "gh":
            if system.repository_deleted(program, words):
                self.s.facts.change([(system.HISTORY_LOSS, "deletes the repository (gh repo delete)")], self.row(node))
            return
        assigned = self.assigned
        if program == "visudo" and node.type == "command":
            assigned += " ".join(self.text(c) for c in node.named_children if c.type == "variable_assignment")
        found = system.command_changes(program, words, assigned)
        if program == "chmod" and not found:
            mode = next((w for w in words if not w.startswith("-")), "")
            copies = [w for w in words[1:] if classify.normal_path(w) in self.s.shell_copies]
            if copies and system.setuid_mode(mode):
                found = [(system.ROOT_GRANT, f"sets the setuid bit on {copies[0]}, a copy of a shell or interpreter "
                                             f"(chmod {mode}), a root shell for anyone")]  # fmt: skip
        if found and program == "chmod":
            target = next((w for w in reversed(words) if not w.startswith("-")), "")
            self.use(PATH, target, node, "write", classify.SYSTEM)
        self.s.facts.change(found, self.row(node))

    def git(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        words = [a.text for a in args]
        command, rest = system.subcommand([system.Word(a.text, a.literal) for a in args])
        if command in ("filter-branch", "filter-repo"):
            self.s.rewrote = True
        elif command == "push":
            found = system.push_changes(rest, self.s.rewrote, self.repeated)
            self.s.facts.change(found, self.row(node))
        remote = [w.text for w in rest if not w.text.startswith("-")]
        if command == "remote" and len(remote) >= 3 and remote[0] in ("add", "set-url"):
            host = _git_host(remote[2])
            if host:
                self.s.remotes[remote[1]] = host
        elif command == "clone" and remote and _git_host(remote[0]):
            self.s.remotes["origin"] = _git_host(remote[0])  # pushes from the clone go back there
        for value, arg_node in zip(args, arg_nodes, strict=True):
            text = value.text
            host = _git_host(text)
            if host:
                self.use(HOST, host, arg_node, "send" if "push" in words else "fetch")
        if command == "push" and remote:
            self.pushed(remote[0], node)
        if "config" in words and any("hookspath" in w.lower() for w in words):
            self.use(PERSISTENCE, "git core.hooksPath", node, "write", classify.GIT_HOOK)
            self.sink(PERSIST, node, CLEAN, "git core.hooksPath")
        return CLEAN

    def cd(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        if args and args[0].literal and not args[0].text.startswith("-"):
            self.s.cwd = classify.normal_path(args[0].text)
        return self.generic(program, args, arg_nodes, node, stdin)

    def find(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        """`find ROOT... [-name PATTERN] [-delete | -exec rm {} ;]`: what it lists, finds by name, and deletes."""
        words = [a.text for a in args]
        roots: list[tuple[str, object]] = []
        for value, arg_node in zip(args, arg_nodes, strict=True):
            if value.text.startswith(("-", "(", "!", ")", "\\")):
                break
            roots.append((value.text, arg_node))
        names = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-name", "-iname", "-path", "-ipath")]
        execs = {words[i + 1].rsplit("/", 1)[-1] for i, w in enumerate(words[:-1]) if w in ("-exec", "-execdir", "-ok")}
        deletes = "-delete" in words or bool(execs & DELETERS)
        taint = stdin
        for root, root_node in roots or [(".", node)]:
            self.path_use(root, root_node, "list")
            if classify.is_home(root):
                taint = taint | {self.source(COLLECTED, f"lists {classify.normal_path(root)}", root_node)}
            base = classify.normal_path(root).rstrip("/") or "/"
            for name in names[:8]:
                if classify.path_sensitivity(name) or (_PATHY.search(name) and not _EXPRESSION.search(name)):
                    self.path_use(name, root_node, "list")
                pattern, label = classify.name_pattern(name.strip("'\""))
                if pattern:
                    self.path_use(f"{base}/{pattern}", root_node, "list")
                    taint = taint | {self.source(SECRET_FILE, f"finds files named {name} under {base} ({label})",
                                                 root_node)}  # fmt: skip
            if deletes:
                for name in names[:8] or ["*"]:
                    self.use(PATH, f"{base}/**/{name}" if name != "*" else f"{base}/**", root_node, "delete")
        return taint

    def uploads(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        """Cloud and sharing CLIs that copy local files up: `aws s3 cp FILE s3://…`, `gsutil cp`, `rclone copy`,
        `gh gist create FILE`. The files read go to the bucket, remote or gist named."""
        words = [a.text for a in args]
        positional = [(a, n) for a, n in zip(args, arg_nodes, strict=True) if not a.text.startswith("-")]
        target, sources = "", positional
        if program == "aws" and words[:1] == ["s3"] and len(words) > 1 and words[1] in ("cp", "sync", "mv"):
            sources = positional[2:-1]
            target = _bucket_host(positional[-1][0].text) if len(positional) > 3 else ""
        elif program in ("gsutil", "rclone") and words and words[0] in ("cp", "copy", "sync", "rsync", "mv", "move"):
            sources = positional[1:-1]
            target = _bucket_host(positional[-1][0].text) if len(positional) > 2 else ""
        elif program == "gh" and words[:2] == ["gist", "create"]:
            sources, target = positional[2:], "gist.github.com"
        elif program == "gh" and words[:2] == ["repo", "create"] and "--push" in words:
            self.pushed("https://github.com/", node)  # a new repository made from the working tree
            return CLEAN
        if not target:
            return self.generic(program, args, arg_nodes, node, stdin)
        taint = stdin
        for value, arg_node in sources:
            if value.text == "-":
                continue
            self.path_use(value.text, arg_node, "read")
            taint = taint | value.taint | self.file_taint(value.text, arg_node) | self.alternatives(value, arg_node)
        if " " not in target:
            self.use(HOST, target, node, "send")
        sink = self.sink(SEND, node, taint, target)
        self.s.facts.sends.append(sink)
        return CLEAN

    def pushed(self, remote: str, node) -> None:
        """A push to a remote this unit added (or to an address): everything written into the working tree
        here goes with it (relative paths, and those under the folder the unit changed to). A push to a
        remote set up before the skill ran is the user's own."""
        host = self.s.remotes.get(remote) or _git_host(remote)
        if not host:
            return
        self.use(HOST, host, node, "send")
        tree = self.s.cwd.rstrip("/") + "/" if self.s.cwd else ""
        committed = _union(
            t
            for path, t in self.s.files.items()
            if not path.startswith(("/", "~", "$")) or (tree and path.startswith(tree))
        )
        sink = self.sink(SEND, node, committed, host)
        self.s.facts.sends.append(sink)

    # -- installs and persistence commands ---------------------------------------------------

    def installer(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        words = [a.text for a in args]
        manager = program
        if program in ("pip", "pip3", "pipx") or re.fullmatch(r"pip[\d.]+", program):
            manager = "pip"
        if program == "uv" and words[:1] == ["pip"]:
            return self.install("pip", args[2:], arg_nodes[2:], node) if words[1:2] == ["install"] else CLEAN
        if program == "uv" and words[:1] in (["add"], ["tool"]):
            skip = 1 if words[0] == "add" else 2
            if words[0] == "tool" and words[1:2] not in (["install"], ["run"]):
                return CLEAN
            return self.install("pip", args[skip:], arg_nodes[skip:], node)
        if program in ("uvx", "pipx") and program == "uvx":
            return self.install("pip", args, arg_nodes, node, first_only=True)
        if program in ("npx", "bunx") or (program == "pnpm" and words[:1] == ["dlx"]) or (
                program == "yarn" and words[:1] == ["dlx"]):  # fmt: skip
            rest = args[1:] if program in ("pnpm", "yarn") else args
            nodes = arg_nodes[1:] if program in ("pnpm", "yarn") else arg_nodes
            return self.install("npm", rest, nodes, node, first_only=True)
        verbs = {"pip": ("install",), "npm": ("install", "i", "add", "isntall"), "pnpm": ("add", "install", "i"),
                 "yarn": ("add", "global"), "bun": ("add", "install", "i"), "brew": ("install", "reinstall"),
                 "apt": ("install",), "apt-get": ("install",), "yum": ("install",), "dnf": ("install",),
                 "apk": ("add",), "gem": ("install",), "cargo": ("install", "add"), "go": ("install", "get"),
                 "pacman": ("-S", "-Sy", "-Syu"), "conda": ("install",), "mamba": ("install",),
                 "poetry": ("add",), "deno": ("install",), "choco": ("install",), "winget": ("install",),
                 "port": ("install",), "snap": ("install",), "composer": ("require",)}  # fmt: skip
        ecosystem = {"pnpm": "npm", "yarn": "npm", "bun": "npm", "apt-get": "apt", "yum": "rpm", "dnf": "rpm",
                     "mamba": "conda", "poetry": "pip"}.get(manager, manager)  # fmt: skip
        accepted = verbs.get(manager, ())
        for index, word in enumerate(words):
            if word.startswith("-") and word not in accepted:
                continue
            if word in accepted:
                skip = index + 1
                if manager == "yarn" and word == "global" and words[skip : skip + 1] == ["add"]:
                    skip += 1
                return self.install(ecosystem, args[skip:], arg_nodes[skip:], node)
            break
        return CLEAN

    def install(self, ecosystem: str, args: list[Value], arg_nodes: list, node, first_only: bool = False) -> Taint:
        value_options = {"-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url",
                         "-f", "--find-links", "--target", "-t", "--prefix", "--root", "--registry", "--python",
                         "-p", "--package", "--cache-dir", "--version", "-v", "--from", "--with", "--src"}  # fmt: skip
        index = 0
        version_next: str | None = None
        while index < len(args):
            text, arg_node = args[index].text, arg_nodes[index]
            if text in ("--", "--yes", "-y"):
                index += 1
                continue
            if text in ("--version", "-v") and ecosystem in ("gem", "cargo") and index + 1 < len(args):
                version_next = args[index + 1].text
                index += 2
                continue
            if text in ("-e", "--editable") and index + 1 < len(args):
                self.use(INSTALL, f"{ecosystem}:{args[index + 1].text}", arg_nodes[index + 1], "url")
                index += 2
                continue
            if text in value_options or (text.startswith("-") and "=" not in text and text in ("--with",)):
                if text in ("-r", "--requirement") and index + 1 < len(args):
                    self.path_use(args[index + 1].text, arg_nodes[index + 1], "read")
                index += 2
                continue
            if text.startswith("-") or not text or (not args[index].literal and not text.startswith("$")):
                index += 1
                continue
            if text.startswith("$"):
                index += 1
                continue
            name, detail = _package(ecosystem, text)
            if name:
                self.use(INSTALL, f"{ecosystem}:{name}", arg_node, detail)
                if detail == "url":
                    host = url_host(text.split("+", 1)[-1]) if "://" in text else None
                    if host:
                        self.use(HOST, host, arg_node, "fetch")
            if first_only:
                break
            index += 1
        if version_next and self.s.facts.uses and self.s.facts.uses[-1].kind == INSTALL:
            last = self.s.facts.uses.pop()
            self.s.facts.uses.append(type(last)(last.kind, last.value, last.path, last.line, last.origin,
                                                last.sensitive, "pinned", last.evidence))  # fmt: skip
        return CLEAN

    def crontab(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        words = [a.text for a in args if a.text not in ("-u",)]
        if any(w in ("-l", "-r", "-e", "-i") for w in words):
            return CLEAN
        positional = [(a, n) for a, n in zip(args, arg_nodes, strict=True) if not a.text.startswith("-")]
        content = ""
        taint = stdin
        if positional and positional[-1][0].text != "-":
            path = positional[-1][0].text
            self.path_use(path, positional[-1][1], "read")
            taint = taint | self.s.files.get(classify.normal_path(path), CLEAN)
        if not positional and not stdin and not args:
            return CLEAN
        self.use(PERSISTENCE, "crontab", node, "write", classify.SCHEDULED_JOB)
        statement = self.s.facts.statement_text[:4096]
        for path, written in itertools.islice(self.s.files.items(), 200):
            if any(s.kind in (FETCHED, DECODED) for s in written) and (path in statement or path.replace(
                    "~", "$HOME", 1) in statement):  # fmt: skip
                taint = taint | written
        content = re.sub(r"\bcrontab\b[^;|&)]*", " ", self.s.facts.evidence(self.row(node)))
        self.sink(PERSIST, node, taint, "crontab", bool(RUNS.search(content)) or any(
            s.kind in (FETCHED, DECODED) for s in taint))  # fmt: skip
        return CLEAN

    def service(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        words = [a.text for a in args]
        if program == "systemctl" and "enable" in words:
            unit = next((w for w in words[words.index("enable") + 1 :] if not w.startswith("-")), "")
            self.use(PERSISTENCE, f"systemd unit {unit}".strip(), node, "write", classify.SCHEDULED_JOB)
            self.sink(PERSIST, node, CLEAN, f"systemd unit {unit}".strip())
        elif program == "launchctl" and any(w in ("load", "bootstrap", "submit") for w in words):
            plist = next((w for w in reversed(words) if w.endswith(".plist")), "a launchd job")
            self.use(PERSISTENCE, classify.normal_path(plist), node, "write", classify.SCHEDULED_JOB)
            self.sink(PERSIST, node, CLEAN, classify.normal_path(plist))
        return CLEAN


def _joined(gaps: list[str], texts: list[str]) -> str:
    """A string's text: the literal gaps around its parts, the parts as spelled."""
    out = ""
    for gap, text in zip(gaps, texts, strict=False):
        out += gap + text  # a few short pieces: adding is quicker than a join
    return out + gaps[-1] if len(gaps) > len(texts) else out


def _union(taints) -> Taint:
    out: Taint = CLEAN
    for taint in taints:
        if taint:
            out = out | taint
    return out


@functools.lru_cache(maxsize=4096)
def _program(text: str) -> str:
    name = text.strip().rsplit("/", 1)[-1]
    return name[:-4] if name.lower().endswith(".exe") else name


def _key_option(args: list[Value], value: Value) -> bool:
    """The path follows an option that names a key to use (-i, --key-file, openssl -sign), not a file read out."""
    for index, arg in enumerate(args[1:], start=1):
        if arg is value:
            return args[index - 1].text in KEY_OPTIONS
    return False


def _extracts(program: str, args: list[Value]) -> bool:
    words = [a.text for a in args]
    if program == "tar":
        return any(w in ("-x", "--extract", "--get") or re.fullmatch(r"-?[a-wyzA-Z]*x[a-zA-Z]*", w) for w in words[:3])
    if program in ("7z", "7za"):
        return bool(words) and words[0] in ("x", "e")
    return program == "unzip"


def _utf16_base64(text: str) -> str | None:
    """What `powershell -EncodedCommand` runs: base64 of UTF-16LE text, or None when it is not that."""
    try:
        data = base64.b64decode(text.strip("'\""), validate=True)
        return data.decode("utf-16-le") if data and len(data) % 2 == 0 else None
    except (ValueError, UnicodeDecodeError):
        return None


def _bucket_host(text: str) -> str:
    """Where a cloud copy's destination lives: `s3://bucket/x` is bucket.s3.amazonaws.com, `gs://b` is
    storage.googleapis.com/b's host, an rclone `remote:path` is that remote; "" for a local path."""
    match = re.match(r"^(s3|gs|az)://([\w.-]+)", text)
    if match:
        scheme, bucket = match.groups()
        return {
            "s3": f"{bucket}.s3.amazonaws.com",
            "gs": "storage.googleapis.com",
            "az": f"{bucket}.blob.core.windows.net",
        }[scheme].lower()
    remote = re.match(r"^([A-Za-z][\w-]{0,40}):(?!//)", text)
    return f"rclone remote {remote.group(1)}" if remote and len(remote.group(1)) > 1 else ""


def _git_host(text: str) -> str:
    """The host of a git remote's address (`https://host/x.git`, `git@host:x.git`, `ssh://git@host/x`), or ""."""
    if URL.match(text) or text.startswith("ssh://"):
        return url_host(text) or ""
    match = re.match(r"^[\w.-]+@([\w.-]+):", text)
    return match.group(1).lower() if match else ""


def _created(program: str, args: list[Value]) -> str:
    """The archive a packing command writes (`tar czf out.tgz ...`, `zip -r out.zip ...`, `7z a out.7z ...`),
    "-" for the output, "" when it does not pack."""
    words = [a.text for a in args]
    if program == "tar":
        cluster = next((i for i, w in enumerate(words[:3]) if re.fullmatch(r"-?[a-zA-Z]*c[a-zA-Z]*", w)), None)
        if cluster is None and "--create" not in words:
            return ""
        named = _option_value(args, ("-f", "--file"))
        if named:
            return named
        if cluster is not None and "f" in words[cluster] and cluster + 1 < len(words):
            return words[cluster + 1]
        return "-"
    positional = [w for w in words if not w.startswith("-")]
    if program == "zip" and positional:
        return positional[0]
    if program in ("7z", "7za") and len(positional) > 1 and positional[0] == "a":
        return positional[1]
    return ""


def created_archive(program: str, words: list[str]) -> str:
    """The archive a packing command spelled as words writes (a Node or Python child process), "-" for the
    output, "" when it does not pack."""
    if program not in ARCHIVERS:
        return ""
    args = [Value(word) for word in words]
    return "" if _extracts(program, args) else _created(program, args)


def _option_value(args: list[Value], options: tuple[str, ...]) -> str:
    for index, arg in enumerate(args):
        if arg.text in options and index + 1 < len(args):
            return args[index + 1].text
        for option in options:
            if option.startswith("--") and arg.text.startswith(option + "="):
                return arg.text.split("=", 1)[1]
    return ""


def _decodes(program: str, args: list[Value]) -> bool:
    words = [a.text for a in args]
    if program in ("base64", "base32", "basenc"):
        return any(w in ("-d", "-D", "--decode") or re.fullmatch(r"-[a-zA-Z]*[dD][a-zA-Z]*", w) for w in words)
    if program == "xxd":
        return any(re.fullmatch(r"-[a-z]*r[a-z]*", w) for w in words)
    if program == "openssl":
        return bool(words) and words[0] in ("base64", "enc", "aes-256-cbc") and "-d" in words
    return program == "uudecode"


def _basename(args: list[Value], hosts: list) -> str:
    """The file `curl -O` or `wget` saves a URL to: its last path segment (`index.html` when it has none)."""
    for arg in args:
        if URL.match(arg.text):
            path = arg.text.split("?", 1)[0].split("#", 1)[0]
            name = path.split("://", 1)[-1].partition("/")[2].rstrip("/").rsplit("/", 1)[-1]
            return name if name and ":" not in name else "index.html"
    return ""


def _package(ecosystem: str, text: str) -> tuple[str, str]:
    """(name, pinned|unpinned|url) of one install argument."""
    text = text.strip().strip("'\"")
    if re.match(r"^(?:git\+|https?://|ftp://|file:|github:|gitlab:|bitbucket:)", text) or text.endswith(
        (".tar.gz", ".tgz", ".whl", ".zip", ".tar.bz2", ".gem", ".deb", ".rpm")
    ) or (text.startswith(("./", "../", "/")) and ecosystem != "go"):  # fmt: skip
        return text[:120], "url"
    if ecosystem == "pip":
        match = re.match(r"^([A-Za-z0-9][\w.-]*(?:\[[\w,.-]+\])?)\s*(===?|~=|>=|<=|!=|>|<)?\s*([^;,\s]*)", text)
        if not match:
            return "", ""
        name = re.sub(r"\[.*\]$", "", match.group(1))
        if " @ " in text or ("@" in text and "://" in text):
            return name, "url"
        return name, "pinned" if match.group(2) in ("==", "===") and "*" not in match.group(3) else "unpinned"
    if ecosystem == "npm":
        scoped = text.startswith("@")
        body = text[1:] if scoped else text
        name, _, version = body.partition("@")
        name = ("@" if scoped else "") + name
        if re.match(r"^[\w.-]+/[\w.-]+$", name) and not scoped:
            return text, "url"  # user/repo: a GitHub repository
        return name, "pinned" if _VERSION.match(version) else "unpinned"
    if ecosystem == "go":
        name, _, version = text.partition("@")
        return name, "pinned" if _VERSION.match(version) or (re.match(r"^v\d", version) and version != "latest") else (
            "unpinned")  # fmt: skip
    if ecosystem in ("cargo", "gem"):
        name, _, version = text.partition("@")
        return name, "pinned" if _VERSION.match(version) else "unpinned"
    if ecosystem in ("apt", "rpm"):
        name, _, version = text.partition("=")
        return name, "pinned" if version else "unpinned"
    name, _, version = text.partition("@")
    return name, "pinned" if version and _VERSION.match(version) else "unpinned"


_HANDLERS = {
    **{name: _Walker.download for name in DOWNLOADERS},
    **{name: _Walker.netcat for name in NETCAT},
    **{name: _Walker.remote_copy for name in REMOTE_COPY},
    **{name: _Walker.opener for name in OPENERS},
    "ssh": _Walker.ssh,
    **{name: _Walker.dns for name in ("dig", "nslookup", "host", "drill", "ping", "ping6")},
    "git": _Walker.git,
    "find": _Walker.find,
    "cd": _Walker.cd,
    "osascript": _Walker.osascript,
    **{name: _Walker.uploads for name in ("aws", "gsutil", "rclone", "gh")},
    "powershell": _Walker.powershell,
    "pwsh": _Walker.powershell,
    "eval": _Walker.eval_,
    "source": _Walker.eval_,
    ".": _Walker.eval_,
    "crontab": _Walker.crontab,
    "systemctl": _Walker.service,
    "launchctl": _Walker.service,
    **{name: _Walker.installer for name in ("pip", "pip3", "pipx", "uv", "uvx", "npm", "npx", "pnpm", "yarn", "bun",
                                            "bunx", "brew", "apt", "apt-get", "yum", "dnf", "apk", "gem", "cargo",
                                            "go", "pacman", "conda", "mamba", "poetry", "deno", "choco", "winget",
                                            "port", "snap", "composer")},
}  # fmt: skip

"""Shell scripts and shell code fences, read with tree-sitter-bash: uses and flows.

Walks the syntax tree in order, tracking for each variable and each file written what it may hold
(taint: a secret, a credential file, the environment, collected facts, downloaded or decoded
data), and records the card's uses (environment variables, paths, hosts, programs, installs,
background processes, evaluated code, persistence points) and the sinks of the flow rules
(network sends, execution, persistence writes). Pipelines carry taint left to right, command
substitutions and redirections carry it through variables and files. Nothing is ever run.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

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
)
from registry.score.code.treesitter import parser
from registry.score.vocabulary import URL, url_host

MAX_DEPTH = 120  # nested syntax deeper than this is not walked (the rest of the file still is)
MAX_NESTED = 4  # shell strings inside shell strings (bash -c "sh -c '...'") read this deep

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
DOWNLOADERS = frozenset({"curl", "wget", "aria2c", "http", "https", "xh"})
READERS = frozenset({"cat", "less", "more", "head", "tail", "bat", "base64", "xxd", "od", "hexdump", "strings",
                     "sqlite3", "grep", "egrep", "rg", "awk", "sed", "jq", "yq", "sort", "uniq", "wc", "cut", "tr",
                     "gzip", "gunzip", "zcat", "openssl", "sha256sum", "md5sum", "shasum", "diff", "file", "stat",
                     "source", ".", "code", "nano", "vim", "vi"})  # fmt: skip
COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync"})
DELETERS = frozenset({"rm", "rmdir", "shred", "unlink", "srm"})
LISTERS = frozenset({"ls", "find", "tree", "du", "fd", "exa", "eza"})
WRITERS = frozenset({"touch", "mkdir", "chmod", "chown", "truncate", "dd"})
ARCHIVERS = frozenset({"tar", "zip", "7z", "7za", "rar", "unzip"})
NETCAT = frozenset({"nc", "ncat", "netcat", "telnet", "socat"})
REMOTE_COPY = frozenset({"scp", "rsync", "sftp"})
OPENERS = frozenset({"open", "xdg-open", "start", "explorer", "sensible-browser", "x-www-browser", "wslview"})
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
DECODER_COMMANDS = frozenset({"base64", "base32", "xxd", "openssl", "uudecode", "basenc"})
SPECIAL_VARS = frozenset({
    "@", "*", "#", "?", "-", "$", "!", "0", "_", "IFS", "PWD", "OLDPWD", "RANDOM", "LINENO", "SECONDS", "BASH_SOURCE",
    "FUNCNAME", "PIPESTATUS", "REPLY", "OPTARG", "OPTIND", "BASH_REMATCH", "EUID", "UID", "PPID", "HOSTNAME",
    "BASHPID", "SHLVL",
})  # fmt: skip
_PROGRAM = re.compile(r"[\w@+][\w.+@-]*")  # not `ref:` or `key=value` (YAML or output read as shell)
KEY_OPTIONS = frozenset({"-i", "--identity", "--key", "--key-file", "--keyfile", "--private-key", "--cert", "--keypair",
                         "-k", "--ssh-key", "-sign", "-inkey", "-key", "-prverify", "--signing-key", "-u",
                         "--local-user"})  # fmt: skip
KEY_TOOLS = frozenset({"ssh-keygen", "ssh-add", "ssh-copy-id", "gpg", "gpg2", "age", "age-keygen", "minisign",
                       "signify", "cosign", "step", "certbot"})  # fmt: skip
PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "awk", "gawk", "sed", "jq", "yq", "tr"})
LOWER_ENV = frozenset({"http_proxy", "https_proxy", "no_proxy", "all_proxy", "ftp_proxy"})
_EXPRESSION = re.compile(r"[\^\\\[\]{}()|;=,'\"]|^\.[\w-]+$|^s/|\s")  # a regex, a jq filter, sed code
_PATHY = re.compile(r"^(?:~|\.{1,2}/|/|\$\{?HOME\}?|[\w.@-]+/)|\.[A-Za-z0-9]{1,8}$")
_VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:[-+.][\w.]+)?$")


@dataclass(slots=True)
class Value:
    text: str  # the word with expansions kept as written ("$HOME/.ssh")
    taint: Taint = CLEAN
    literal: bool = True  # no expansion or substitution in it


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


def analyse(facts: Facts, source: str, fixed_row: int | None = None, row_offset: int = 0, nested: int = 0,
            stdin: Taint = CLEAN, files: dict[str, Taint] | None = None) -> Taint:  # fmt: skip
    """Read shell source into `facts`; the taint of what it prints (for nested strings).

    `files` is shared with the caller (a Python or JavaScript unit running this command), so a
    file written there and run here, or the reverse, is one flow.
    """
    tree = parser("bash").parse(source.encode("utf-8", errors="replace"))
    state = _State(facts, fixed_row, row_offset, nested)
    if files is not None:
        state.files = files
    facts.parser = facts.parser or "tree-sitter bash"
    return _Walker(state, source.encode("utf-8", errors="replace")).statements(tree.root_node, stdin, 0)


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

    def source(self, kind: str, label: str, node, host: str = "", url: str = "") -> Source:
        src = Source(kind, label, self.s.facts.line(self.row(node)), host, self.s.statement, url)
        self.s.facts.sources.append(src)
        return src

    def sink(self, kind: str, node, taint: Taint, target: str = "", runs_code: bool = False) -> None:
        row = self.row(node)
        sink = Sink(kind, self.s.facts.line(row), taint, target, self.s.facts.evidence(row), self.s.statement,
                    runs_code)  # fmt: skip
        self.s.facts.sinks.append(sink)

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
            if name is not None:
                self.s.functions.add(self.text(name))
            body = node.child_by_field_name("body")
            return self.statements(body, CLEAN, depth + 1) if body is not None else CLEAN
        if kind in ("comment", "heredoc_body"):
            return CLEAN
        if kind == "for_statement":
            variable = node.child_by_field_name("variable")
            taint = CLEAN
            for value in node.children_by_field_name("value"):
                taint = taint | self.value(value, depth + 1).taint
            if variable is not None:
                self.s.variables[self.text(variable)] = taint
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
                stdin = stdin | self.file_taint(value.text, target)
            elif operator in (">", ">>", "&>", "&>>", ">|"):
                written.append((value.text, target))
        out = self.statement(body, stdin, depth + 1, background) if body is not None else stdin
        for path, target in written:
            self.write(path, target, out, content_text or (self.text(body) if body is not None else ""))
        return CLEAN if written else out

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
            parts = [self.value(child, depth + 1) for child in node.named_children]
            if kind == "heredoc_body":
                return Value(self.text(node), _union(p.taint for p in parts), all(p.literal for p in parts))
            if kind == "string" and not parts:
                return Value("", CLEAN, True)
            if kind == "concatenation":
                text = "".join(p.text for p in parts)
            else:  # the string's own text, with each variable holding a constant spelled out
                text, cursor = "", node.start_byte + 1
                for child, part in zip(node.named_children, parts, strict=True):
                    text += self.data[cursor : child.start_byte].decode("utf-8", errors="replace") + part.text
                    cursor = child.end_byte
                text += self.data[cursor : max(cursor, node.end_byte - 1)].decode("utf-8", errors="replace")
            return Value(text, _union(p.taint for p in parts), all(p.literal for p in parts))
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

    def file_taint(self, path: str, node) -> Taint:
        """What reading a file yields: what was written to it here, or a credential file's contents."""
        normal = classify.normal_path(path)
        taint = self.lookup(path)
        label = classify.secret_label(normal, self.s.facts.own)
        if label:
            taint = taint | {self.source(SECRET_FILE, f"reads {normal} ({label})", node)}
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
            written = self.lookup(head.text)
            if written:
                self.sink(EXEC, node, written, classify.normal_path(head.text))
        for value, arg_node in zip(args, arg_nodes, strict=True):
            if URL.match(value.text) and program not in DOWNLOADERS | OPENERS | {"git", "pip", "pip3", "npm", "npx"}:
                host = url_host(value.text)
                if host:
                    self.use(HOST, host, arg_node, "mention")
        if program in system.PROGRAMS or program in COPIERS or program == "gh":
            self.system_command(program, args, arg_nodes, node)
        handler = _HANDLERS.get(program)
        if handler is not None:
            return handler(self, program, args, arg_nodes, node, stdin, depth)
        if program in SHELLS or program in INTERPRETERS:
            return self.interpreter(program, args, arg_nodes, node, stdin, depth)
        if program.startswith("python") and re.fullmatch(r"python[\d.]*", program):
            return self.interpreter("python", args, arg_nodes, node, stdin, depth)
        return self.generic(program, args, arg_nodes, node, stdin)

    def generic(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint) -> Taint:
        taint = stdin
        detail = ("read" if program in READERS | ARCHIVERS else "delete" if program in DELETERS
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
                    copied = _union(self.lookup(a.text) for a, _ in positional[:-1])
                    if copied:
                        self.s.files[classify.normal_path(text)] = copied
                    self.persistence(text, arg_node, copied, "", literal=False, copy=True)
                else:
                    self.path_use(text, arg_node, "read")
                    taint = taint | self.file_taint(text, arg_node)
                continue
            if detail:
                looks = _PATHY.search(text) and not _EXPRESSION.search(text)
                if (detail != "read" and not _EXPRESSION.search(text)) or looks or classify.path_sensitivity(text):
                    self.path_use(text, arg_node, detail)
                if detail == "read" and not _key_option(args, value) and not key_tool:
                    taint = taint | self.file_taint(text, arg_node)
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
        if program == "tee":
            for value, arg_node in positional:
                self.write(value.text, arg_node, stdin, "")
            return stdin
        if program == "chmod":
            for value, _ in positional:
                self.s.executable.add(classify.normal_path(value.text))
        if program in ("env", "printenv", "set", "export", "declare") and not positional and not args:
            return taint | {self.source(ENV_DUMP, "dumps the whole environment", node)}
        if program in ("env", "printenv") and not positional:
            return taint | {self.source(ENV_DUMP, "dumps the whole environment", node)}
        if program in SYSTEM_FACT_COMMANDS:
            return taint | {self.source(SYSTEM_FACTS, f"collects system facts ({program})", node)}
        pasting = program != "xclip" or any(a.text == "-o" for a in args)
        if program in COLLECT_COMMANDS and pasting and (program != "ps" or args):
            return taint | {self.source(COLLECTED, f"collects {COLLECT_COMMANDS[program]}", node)}
        words = (program, *(a.text for a in args))
        for pattern in SECRET_COMMANDS:
            if words[: len(pattern)] == pattern:
                return taint | {self.source(SECRET, f"reads a secret ({' '.join(pattern)})", node)}
        if program in DECODER_COMMANDS and _decodes(program, args):
            return taint | {self.source(DECODED, f"decodes data ({program})", node)}
        if program == "tr" and any("N-ZA-M" in a.text or "n-za-m" in a.text for a in args):
            return taint | {self.source(DECODED, "decodes rot13 data (tr)", node)}
        return taint

    # -- interpreters and eval -------------------------------------------------------------

    def interpreter(self, program: str, args: list[Value], arg_nodes: list, node, stdin: Taint, depth: int) -> Taint:
        flag = "-c" if program in SHELLS else _EVAL_FLAGS.get(program, "-c")
        for index, value in enumerate(args):
            text = value.text
            if text == flag or (program in SHELLS and re.fullmatch(r"-[a-z]*c[a-z]*", text)):
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
            taint = self.lookup(text) | value.taint
            if value.text.startswith("<(") or (value.taint and not value.literal):
                self.use(PROCESS, f"{program} <(...)", node, "eval")
            self.sink(EXEC, node, taint, normal)
            return CLEAN
        if stdin:
            self.sink(EXEC, node, stdin, program)
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
            elif option in ("-O", "--remote-name", "--remote-name-all") and program == "curl":
                remote_name = True
            elif program == "wget" and re.fullmatch(r"-[a-zA-Z]*O", text):
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
        sink = Sink(SEND, self.s.facts.line(self.row(node)), taint, host, self.s.facts.evidence(self.row(node)),
                    self.s.statement)  # fmt: skip
        self.s.facts.sinks.append(sink)
        if sends:
            self.s.facts.sends.append(sink)
        fetched = frozenset({self.source(FETCHED, f"downloads {host or 'a URL'}", node, host, urls[0] if urls else "")})
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
            sink = Sink(SEND, self.s.facts.line(self.row(node)), stdin | _union(a.taint for a in args), host,
                        self.s.facts.evidence(self.row(node)), self.s.statement)  # fmt: skip
            self.s.facts.sinks.append(sink)
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
                taint = taint | value.taint | self.file_taint(value.text, arg_node)
            sink = Sink(SEND, self.s.facts.line(self.row(node)), taint, host, self.s.facts.evidence(self.row(node)),
                        self.s.statement)  # fmt: skip
            self.s.facts.sinks.append(sink)
            self.s.facts.sends.append(sink)
            return CLEAN
        for value, arg_node in sources:
            fetched = re.match(r"^(?:[\w.-]+@)?([\w.-]+):", value.text)
            if fetched:
                self.use(HOST, fetched.group(1).lower(), arg_node, "fetch")
        self.path_use(dest.text, dest_node, "write")
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
            sink = Sink(SEND, self.s.facts.line(self.row(node)), stdin | _union(a.taint for a in rest), host,
                        self.s.facts.evidence(self.row(node)), self.s.statement)  # fmt: skip
            self.s.facts.sinks.append(sink)
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
            sink = Sink(SEND, self.s.facts.line(self.row(node)), value.taint, domain,
                        self.s.facts.evidence(self.row(node)), self.s.statement)  # fmt: skip
            self.s.facts.sinks.append(sink)
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
        for value, arg_node in zip(args, arg_nodes, strict=True):
            text = value.text
            if URL.match(text) or re.match(r"^git@[\w.-]+:", text):
                host = url_host(text) if "://" in text else text.split("@", 1)[1].split(":", 1)[0].lower()
                if host:
                    self.use(HOST, host, arg_node, "send" if "push" in words else "fetch")
        if "config" in words and any("hookspath" in w.lower() for w in words):
            self.use(PERSISTENCE, "git core.hooksPath", node, "write", classify.GIT_HOOK)
            self.sink(PERSIST, node, CLEAN, "git core.hooksPath")
        return CLEAN

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
    for arg in args:
        if URL.match(arg.text):
            name = arg.text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            return name if name and "." in name and ":" not in name else "index.html"
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

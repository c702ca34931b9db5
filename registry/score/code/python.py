"""Python scripts and Python code fences, read with `ast`: uses and flows, never imported or run.

Statements are read in order with a simple def-use taint: a variable holds the union of what its
assigned expression may hold (f-strings, concatenation, containers, and calls such as json.dumps
or base64 wrapping a value carry it along); a function's return value holds what its returns may
hold, for later calls by name, and the sends its parameters reach are replayed with each call's
values. A name bound to a list or dict of paths, a glob, or a loop over them keeps every spelled
value (up to MAX_CHOICES), so a read of `os.path.join(home, p)` reads each; a test that picks out
wallet or key files by name marks what passes it; archives (zipfile, tarfile, make_archive) hold
what they pack; connections, remote logging handlers and name lookups are sends to their peer.
Commands handed to subprocess/os.system are read by the shell reader, on the Python line that runs
them, sharing the record of files written.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import re

from registry.score.card import ENV, HOST, PATH, PERSISTENCE, PROCESS
from registry.score.code import classify, shell, system
from registry.score.code.model import (
    CLEAN,
    COLLECTED,
    DECODED,
    ENV_DUMP,
    EXEC,
    FETCHED,
    PARAMETER,
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
    sanitised,
    spelled_each,
    substitute,
)
from registry.score.vocabulary import SENDING_PROGRAMS, URL, url_host

_HTTP_LIBS = ("requests", "httpx", "aiohttp", "urllib3", "niquests")
_HTTP_METHODS = {"get": "fetch", "head": "fetch", "options": "fetch", "post": "send", "put": "send",
                 "patch": "send", "delete": "send", "request": "", "stream": "", "urlopen": "fetch"}  # fmt: skip
_SUBPROCESS = {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
               "subprocess.Popen", "subprocess.getoutput", "subprocess.getstatusoutput", "os.system", "os.popen",
               "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "pty.spawn",
               "os.execv", "os.execvp", "os.execl", "os.execlp", "os.execve", "os.execvpe", "os.spawnl",
               "os.spawnlp", "os.spawnv", "os.spawnvp", "os.startfile", "commands.getoutput"}  # fmt: skip
_STRING_COMMANDS = {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
                    "asyncio.create_subprocess_shell", "commands.getoutput"}  # fmt: skip
_DECODERS = {"base64.b64decode", "base64.b32decode", "base64.b16decode", "base64.a85decode", "base64.b85decode",
             "base64.urlsafe_b64decode", "base64.standard_b64decode", "base64.decodebytes", "base64.decodestring",
             "binascii.unhexlify", "binascii.a2b_base64", "binascii.a2b_hex", "bytes.fromhex", "bytearray.fromhex",
             "zlib.decompress", "gzip.decompress", "lzma.decompress", "bz2.decompress", "marshal.loads",
             "codecs.decode"}  # fmt: skip
_SYSTEM_FACTS = {"platform.node", "platform.uname", "platform.platform", "socket.gethostname", "getpass.getuser",
                 "os.getlogin", "os.uname", "uuid.getnode", "socket.gethostbyname", "platform.system",
                 "platform.release", "platform.version", "platform.machine"}  # fmt: skip
_COLLECTORS = {"pyperclip.paste": "the clipboard", "clipboard.paste": "the clipboard",
               "PIL.ImageGrab.grab": "a screenshot", "ImageGrab.grab": "a screenshot",
               "pyautogui.screenshot": "a screenshot", "mss.mss().grab": "a screenshot",
               "psutil.process_iter": "the process list", "psutil.pids": "the process list",
               "readline.get_history_item": "the shell history"}  # fmt: skip
_LISTERS = {"os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.iglob", "os.fwalk"}
_DELETERS = {"os.remove", "os.unlink", "os.rmdir", "shutil.rmtree", "os.removedirs"}
_COPIERS = {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move", "os.rename",
            "os.replace", "os.symlink", "os.link"}  # fmt: skip
_SECRET_CALLS = {"keyring.get_password", "keyring.get_credential", "getpass.getpass"}
# Channels a script can send through besides HTTP libraries: each names its peer when it is made.
_CONNECTIONS = {"socket.create_connection", "smtplib.SMTP", "smtplib.SMTP_SSL", "ftplib.FTP", "ftplib.FTP_TLS",
                "http.client.HTTPConnection", "http.client.HTTPSConnection", "websocket.create_connection",
                "websockets.connect", "websockets.client.connect", "websocket.WebSocketApp"}  # fmt: skip
# Logging handlers that ship every record they are given to another machine.
_REMOTE_LOG_HANDLERS = {"logging.handlers.HTTPHandler", "logging.handlers.SocketHandler",
                        "logging.handlers.DatagramHandler", "logging.handlers.SysLogHandler",
                        "logging.handlers.SMTPHandler"}  # fmt: skip
_LOG_LEVELS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}
# Name lookups: data spliced into the name leaves through any resolver.
_RESOLVERS = {"socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo", "dns.resolver.resolve",
              "dns.resolver.query", "dns.resolver.Resolver().resolve", "dns.resolver.Resolver().query"}  # fmt: skip
_ARCHIVES = {"zipfile.ZipFile", "zipfile.PyZipFile", "tarfile.open", "tarfile.TarFile", "py7zr.SevenZipFile"}
_ARCHIVE_SUFFIX = {"zip": ".zip", "tar": ".tar", "gztar": ".tar.gz", "bztar": ".tar.bz2", "xztar": ".tar.xz"}
_TEMPORARY = {"tempfile.NamedTemporaryFile", "tempfile.TemporaryFile", "tempfile.mkstemp", "tempfile.mktemp",
              "tempfile.SpooledTemporaryFile"}  # fmt: skip
_GLOBS = {"glob.glob", "glob.iglob"}
# Methods that compare or edit a string or a collection: a path handed to one is not read.
_COMPARES = frozenset(
    """endswith startswith find rfind index rindex count replace split rsplit strip lstrip rstrip partition rpartition
    join format removeprefix removesuffix append extend insert remove discard add get pop setdefault update
    __contains__ match fullmatch search""".split()
)
_CLIENT = re.compile(r"(?:[Ss]ession|Client|PoolManager|ConnectionPool)\(\)$")  # HTTP clients made to send requests
MAX_EFFECTS = 20  # parameter-fed sinks of one function replayed at each call
MAX_REPLAYED = 400  # sinks replayed per unit, every call together
MAX_SPELLED = 2000  # values tried per unit, every read together; past it a name stands for its likeliest value
MAX_CHOICES = 16  # values one name may hold that are spelled out (a list of paths looped over)
_OPENERS = {"webbrowser.open", "webbrowser.open_new", "webbrowser.open_new_tab", "webbrowser.get().open"}
_URLLIB = {"urllib.request.urlopen", "urlopen", "urllib.request.Request", "Request", "urllib.request.urlretrieve",
           "urlretrieve", "urllib2.urlopen"}  # fmt: skip
_OTHER_CALLS = {"os.getenv", "os.environ.get", "os.environ.copy", "os.environ.items", "io.open", "codecs.open",
                "pathlib.Path.home", "os.path.expanduser", "os.path.join", "json.dump", "pickle.loads", "pickle.load",
                "dill.loads", "runpy.run_path", "runpy.run_module", "importlib.import_module", "__import__",
                "threading.Thread", "multiprocessing.Process", "smtplib.SMTP", "ftplib.FTP",
                "http.client.HTTPSConnection", "websocket.create_connection", "websockets.connect",
                "socket.create_connection", "urllib.request.urlopen", "os.chmod", "read_text", "read_bytes",
                "write_text", "write_bytes", "iterdir", "rglob", "mkdir", "touch", "sendall", "sendmail", "aiohttp",
                "httpx", "requests", "urllib3", "niquests", "clipboard_get", "shutil.make_archive"}  # fmt: skip
# Every name the reader acts on: the fence prefilter in __init__ searches for these.
KNOWN_CALLS = frozenset(
    _SUBPROCESS
    | _CONNECTIONS
    | _REMOTE_LOG_HANDLERS
    | _RESOLVERS
    | _ARCHIVES
    | _TEMPORARY
    | _DECODERS
    | _SYSTEM_FACTS
    | set(_COLLECTORS)
    | _LISTERS
    | _DELETERS
    | _COPIERS
    | _SECRET_CALLS
    | _OPENERS
    | _OTHER_CALLS
)


def analyse(facts: Facts, text: str | None = None, fixed_row: int | None = None,
            files: dict[str, Taint] | None = None, row_offset: int = 0) -> None:  # fmt: skip
    """Read a Python unit into `facts`. Raises SyntaxError, RecursionError, ValueError on bad input.

    `text` is code inside the unit (a `python -c` body, a decoded blob), read with every use on the unit's
    `fixed_row` (or, `row_offset`, on the unit rows it spans: a heredoc's body); `files` is shared with the
    caller, so a file written there and run here is one flow.
    """
    tree = ast.parse(facts.unit.text if text is None else text, filename=facts.unit.name)
    facts.parser = facts.parser or "python ast"
    reader = _Reader(facts, fixed_row, files)
    reader.row_offset = row_offset
    reader.body(tree.body)
    reader.mentions()


class _Reader:
    def __init__(self, facts: Facts, fixed_row: int | None = None, files: dict[str, Taint] | None = None) -> None:
        self.facts = facts
        self.fixed_row = fixed_row
        self.row_offset = 0
        self.variables: dict[str, Taint] = {}
        self.constants: dict[str, str] = {}  # names bound to a string or path we can spell out
        self.types: dict[str, str] = {}  # names bound to a call result: "requests.Session()"
        self.handles: dict[str, str] = {}  # names bound to a file opened for writing, and its path
        self.aliases: dict[str, str] = {}
        self.functions: dict[str, Taint] = {}
        self.networked: set[str] = set()
        self.files: dict[str, Taint] = files if files is not None else facts.files if facts.files is not None else {}
        self.choices: dict[str, tuple[str, ...]] = {}  # names that take several spelled values (a loop over paths)
        self.folders: set[str] = set()  # the files written that are folders (`shutil.copy(x, "/tmp/stage/")`)
        self.spelled = 0  # values tried for names with several, in this unit (MAX_SPELLED)
        self.replayed = 0
        self.endpoints: dict[str, str] = {}  # names bound to a connection, and its peer
        self.archives: dict[str, tuple[str, str]] = {}  # names bound to an archive being written: (path, buffer name)
        self.temporary: dict[str, str] = {}  # names bound to a temporary file (or its descriptor): its stand-in path
        self.log_hosts: list[str] = []  # peers of the remote logging handlers made so far
        self.effects: dict[str, tuple[bool, list[tuple[Sink, bool]]]] = {}  # function -> (method, parameter-fed sinks)
        self.returns: list[Taint] | None = None
        self.network_seen = False
        self.urls: list[tuple[str, int, int]] = []  # (url, row, node id) string constants
        self.consumed: set[int] = set()
        self.in_env_keyword = False

    # -- recording -------------------------------------------------------------------------

    def row(self, node: ast.AST) -> int:
        if self.fixed_row is not None:
            return self.fixed_row
        return max(0, getattr(node, "lineno", 1) - 1) + self.row_offset

    def use(self, kind: str, value: str, node: ast.AST, detail: str = "", sensitive: str = "") -> None:
        self.facts.use(kind, value, self.row(node), detail, sensitive)

    def source(self, kind: str, label: str, node: ast.AST, host: str = "", address: str = "") -> Taint:
        src = Source(kind, self.facts.label(label), self.facts.line(self.row(node)), host, address=address)
        self.facts.sources.append(src)
        return frozenset({src})

    def sink(self, kind: str, node: ast.AST, taint: Taint, target: str = "", runs: bool = False,
             channel: str = "") -> Sink:  # fmt: skip
        row = self.row(node)
        sink = Sink(kind, self.facts.line(row), taint, target, self.facts.evidence(row), -1, runs, channel)
        self.facts.sinks.append(sink)
        return sink

    def mentions(self) -> None:
        for url, row, ident in self.urls:
            host = url_host(url)
            if host and ident not in self.consumed:
                self.facts.use(HOST, host, row, "mention")

    # -- statements ------------------------------------------------------------------------

    def body(self, statements: list[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                self.aliases[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                self.aliases[alias.asname or alias.name] = f"{node.module or ''}.{alias.name}".lstrip(".")
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            value = node.value
            if value is None:
                return
            taint = self.expr(value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self.bind(target, taint, value, augment=isinstance(node, ast.AugAssign))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.function(node)
        elif isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                self.expr(decorator)
            self.body(node.body)
        elif isinstance(node, ast.Return):
            taint = self.expr(node.value) if node.value is not None else CLEAN
            if self.returns is not None:
                self.returns.append(taint)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.bind(node.target, self.expr(node.iter), node.iter)
            self.loop_values(node.target, node.iter)
            self.body(node.body)
            self.body(node.orelse)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                taint = self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, taint, item.context_expr)
            self.body(node.body)
        elif isinstance(node, ast.If | ast.While):
            self.expr(node.test)
            if isinstance(node, ast.If) and not _skips(node.body):
                picked = self.picked(node.test)
                for name in _names(node.test) if picked else ():
                    if name not in self.aliases:
                        self.variables[name] = self.variables.get(name, CLEAN) | picked
            self.body(node.body)
            self.body(node.orelse)
        elif isinstance(node, ast.Try | getattr(ast, "TryStar", ast.Try)):
            self.body(node.body)
            for handler in node.handlers:
                self.body(handler.body)
            self.body(node.orelse)
            self.body(node.finalbody)
        elif isinstance(node, ast.Match):
            self.expr(node.subject)
            for case in node.cases:
                self.body(case.body)
        elif isinstance(node, ast.Expr):
            self.expr(node.value)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)
                elif isinstance(child, ast.stmt):
                    self.statement(child)

    def loop_values(self, target: ast.expr, iterable: ast.expr) -> None:
        """What a loop variable takes, when the loop runs over spelled values: a list of paths, a dict's
        values, a glob's pattern. The most telling value stays its constant; all of them its choices."""
        values: tuple[str, ...] = ()
        names: list[str] = []
        if isinstance(target, ast.Name):
            names = [target.id]
        elif isinstance(target, ast.Tuple) and target.elts and all(isinstance(e, ast.Name) for e in target.elts):
            names = [target.elts[-1].id]  # `for key, path in paths.items()`: the value
        if isinstance(iterable, ast.Tuple | ast.List | ast.Set):
            values = self.strings(iterable)
        elif isinstance(iterable, ast.Name):
            values = self.choices.get(iterable.id, ())
        elif isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute):
            owner = iterable.func.value
            if iterable.func.attr in ("items", "values", "keys") and isinstance(owner, ast.Name):
                values = self.choices.get(f"{owner.id}.{'keys' if iterable.func.attr == 'keys' else 'values'}", ())
        if isinstance(iterable, ast.Call) and self.qualname(iterable.func) in _GLOBS and iterable.args:
            pattern = self.literal(iterable.args[0])
            values = (pattern,) if pattern else ()
        if not values or len(names) != 1:
            return
        self.choices[names[0]] = values
        self.constants[names[0]] = max(values, key=lambda n: bool(classify.path_sensitivity(n)))

    def strings(self, node: ast.expr) -> tuple[str, ...]:
        """The spelled strings of a list, tuple or set literal (a dict: its values), at most MAX_CHOICES."""
        if isinstance(node, ast.Dict):
            elements = [v for v in node.values if v is not None]
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            elements = list(node.elts)
        else:
            return ()
        found = (self.literal(e) for e in elements[: 4 * MAX_CHOICES])
        return tuple(dict.fromkeys(v for v in found if v))[:MAX_CHOICES]

    def picked(self, test: ast.expr) -> Taint:
        """A test that picks out wallet or key files by name (`name.endswith(".keystore")`, `f == "wallet.dat"`):
        what passes it names such a file. A negated test, or one that only skips, picks nothing."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return CLEAN
        for constant in _constants(test):
            pattern, label = classify.name_pattern(constant)
            if pattern:
                self.use(PATH, pattern, test, "list")
                return self.source(SECRET_FILE, f"picks out files named {pattern} ({label})", test)
        return CLEAN

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A function's body, read once with each parameter standing for what a caller passes: its returns and
        the sends and runs its parameters reach are replayed at each call with the caller's values."""
        for decorator in node.decorator_list:
            self.expr(decorator)
        saved = (dict(self.variables), self.returns, self.network_seen, dict(self.handles))
        self.returns = []
        self.network_seen = False
        line = self.facts.line(self.row(node))
        positional = [*node.args.posonlyargs, *node.args.args]
        for index, arg in enumerate([*positional, *node.args.kwonlyargs]):
            if arg.arg in ("self", "cls"):
                continue  # what a method keeps on the object stays visible to the others
            position = index if index < len(positional) else -1
            self.variables[arg.arg] = frozenset({Source(PARAMETER, arg.arg, line, command=position)})
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.expr(default)
        first_sink, first_send = len(self.facts.sinks), len(self.facts.sends)
        self.body(node.body)
        sends = {id(s) for s in self.facts.sends[first_send:]}
        effects = [
            (sink, id(sink) in sends)
            for sink in self.facts.sinks[first_sink:]
            if any(s.kind == PARAMETER for s in sink.taint)
        ][:MAX_EFFECTS]
        self.effects[node.name] = (bool(positional) and positional[0].arg in ("self", "cls"), effects)
        returned = frozenset().union(*self.returns) if self.returns else CLEAN
        if self.network_seen:
            self.networked.add(node.name)
        self.functions[node.name] = returned
        kept = frozenset(s for s in self.variables.get("self", CLEAN) if s.kind != PARAMETER)
        self.variables, self.returns, network_seen, self.handles = saved[0], saved[1], saved[2], saved[3]
        if kept:
            self.variables["self"] = self.variables.get("self", CLEAN) | kept
        self.network_seen = self.network_seen or network_seen

    def replay(self, name: str, node: ast.Call, arg_taints: list[Taint], keyword_taints: dict) -> Taint:
        """A call of a function read before: its returns and parameter-fed sinks with this call's values."""
        method, effects = self.effects.get(name, (False, []))
        positional = ([CLEAN] if method and isinstance(node.func, ast.Attribute) else []) + arg_taints
        named = {k: v for k, v in keyword_taints.items() if k}
        for sink, send in effects if self.replayed < MAX_REPLAYED else ():
            taint = substitute(sink.taint, positional, named)
            if taint and self.replayed < MAX_REPLAYED:
                self.replayed += 1
                replayed = dataclasses.replace(sink, taint=taint)
                self.facts.sinks.append(replayed)
                if send:
                    self.facts.sends.append(replayed)
        return substitute(self.functions[name], positional, named)

    def bind(self, target: ast.expr, taint: Taint, value: ast.expr, augment: bool = False) -> None:
        if isinstance(target, ast.Name):
            name = target.id
            self.variables[name] = (self.variables.get(name, CLEAN) | taint) if augment else taint
            text = self.literal(value)
            if text is not None and not augment:
                self.constants[name] = text
            else:
                self.constants.pop(name, None)
            self.bind_choices(name, value, augment)
            if isinstance(value, ast.Call):
                qual = self.qualname(value.func)
                if qual:
                    self.types[name] = f"{qual}()"
                if qual in ("open", "io.open", "codecs.open") or qual.endswith((".open", "Path().open")):
                    path, mode = self.open_args(value)
                    if path and mode and any(c in mode for c in "wax+"):
                        self.handles[name] = path
                self.bind_channel(name, value, qual)
            else:
                self.types.pop(name, None)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.bind(element, taint, value, augment)
            made = isinstance(value, ast.Call) and self.qualname(value.func) == "tempfile.mkstemp"
            if made and len(target.elts) == 2:
                descriptor, path = target.elts
                stand_in = f"/tmp/tempfile.{getattr(path, 'id', 'mkstemp')}"
                if isinstance(path, ast.Name):
                    self.constants[path.id] = stand_in
                if isinstance(descriptor, ast.Name):
                    self.temporary[descriptor.id] = stand_in
        elif isinstance(target, ast.Attribute | ast.Subscript):
            base = target.value
            while isinstance(base, ast.Attribute | ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name):
                self.variables[base.id] = self.variables.get(base.id, CLEAN) | taint
            if isinstance(target, ast.Subscript):
                self.expr(target.slice)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, taint, value, augment)

    def bind_choices(self, name: str, value: ast.expr, augment: bool) -> None:
        """Remember the spelled values a name holds: a list or dict of paths, a glob's pattern."""
        values = self.strings(value)
        if isinstance(value, ast.Dict):
            keys = tuple(k for k in (self.literal(k) for k in value.keys[: 4 * MAX_CHOICES] if k is not None) if k)
            self.choices[f"{name}.values"] = values
            self.choices[f"{name}.keys"] = keys[:MAX_CHOICES]
        elif isinstance(value, ast.Call) and self.qualname(value.func) in _GLOBS and value.args:
            pattern = self.literal(value.args[0])
            values = (pattern,) if pattern else ()
        if augment and name in self.choices:
            values = tuple(dict.fromkeys((*self.choices[name], *values)))[:MAX_CHOICES]
        if values:
            self.choices[name] = values
        elif not augment:
            self.choices.pop(name, None)

    def bind_channel(self, name: str, value: ast.Call, qual: str) -> None:
        """A name bound to a connection (its peer), an archive being written, or a temporary file."""
        if qual in _CONNECTIONS:
            peer = self.peer(value, qual)
            if peer:
                self.endpoints[name] = peer
        elif qual in _ARCHIVES:
            first = _argument(value, 0, "file", "name")
            mode_node = _argument(value, 1, "mode")
            mode = (self.literal(mode_node) if mode_node is not None else "r") or ""
            if mode[:1] in ("w", "a", "x"):
                path = self.literal(first) if first is not None else None
                buffer = first.id if isinstance(first, ast.Name) and path is None else ""
                self.archives[name] = (path or "", buffer)
                self.handles.pop(name, None)
        elif qual in _TEMPORARY:
            stand_in = f"/tmp/tempfile.{name}"
            if qual == "tempfile.mktemp":
                self.constants[name] = stand_in
            else:
                self.temporary[name] = stand_in
                self.handles[name] = stand_in
        elif qual == "os.fdopen" and value.args and isinstance(value.args[0], ast.Name):
            stand_in = self.temporary.get(value.args[0].id)
            if stand_in:
                self.handles[name] = stand_in

    def peer(self, call: ast.Call, qual: str) -> str:
        """The host a connection is made to: `create_connection((host, port))`, `SMTP(host)`, `connect(url)`."""
        first = _argument(call, 0, "host", "url", "uri", "address")
        if isinstance(first, ast.Tuple) and first.elts:
            first = first.elts[0]
        text = self.literal(first) if first is not None else None
        if not text:
            return ""
        host = classify.host_of_pieces(text) if "://" in text else text.split(":", 1)[0]
        return (host or "").lower()

    # -- names and literals ------------------------------------------------------------------

    def qualname(self, node: ast.expr) -> str:
        parts: list[str] = []
        depth = 0
        while depth < 20:
            depth += 1
            if isinstance(node, ast.Attribute):
                parts.append(node.attr)
                node = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
                parts.append(self.literal(node.args[0]) or "__import__()" if node.args else "__import__()")
                break
            elif isinstance(node, ast.Call):
                inner = self.qualname(node.func) if depth < 10 else ""
                parts.append(f"{inner}()" if inner else "()")
                break
            elif isinstance(node, ast.Name):
                name = node.id
                if name in self.types:
                    parts.append(self.types[name])
                else:
                    parts.append(self.aliases.get(name, name))
                break
            else:
                return ""
        return ".".join(reversed(parts)).replace(".()", "()")

    def literal(self, node: ast.expr | None, depth: int = 0) -> str | None:
        """The string a path or URL expression spells, `*` for the parts computed at run time."""
        if node is None or depth > 12:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            return self.constants.get(node.id)
        if isinstance(node, ast.JoinedStr):
            out = []
            for part in node.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    out.append(part.value)
                elif isinstance(part, ast.FormattedValue):
                    inner = self.literal(part.value, depth + 1)
                    out.append(inner if inner is not None else "*")
            text = "".join(out)
            return text if text.strip("*") else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Div | ast.Mod):
            left, right = self.literal(node.left, depth + 1), self.literal(node.right, depth + 1)
            if left is None and isinstance(node.op, ast.Div) and right:
                left = "*"  # folder / "Cookies": an unknown folder, a named file in it
            if left is None:
                return None
            if right is None and isinstance(node.op, ast.Add):
                right = "*"  # "https://host/path?" + query: the host is still known
            if right is None and isinstance(node.op, ast.Div):
                return None
            if isinstance(node.op, ast.Div):
                return f"{left.rstrip('/')}/{right}"
            return left + (right or "") if isinstance(node.op, ast.Add) else left
        if isinstance(node, ast.Subscript) and self.qualname(node.value) in ("os.environ", "environ"):
            key = self.literal(node.slice, depth + 1)
            return "~" if key in ("HOME", "USERPROFILE") else None
        if isinstance(node, ast.Attribute) and node.attr == "name" and isinstance(node.value, ast.Name):
            return self.temporary.get(node.value.id)
        if isinstance(node, ast.Call):
            qual = self.qualname(node.func)
            args = node.args
            if qual in ("pathlib.Path.home", "Path.home", "os.path.expanduser") and not args:
                return "~"
            if qual in ("tempfile.gettempdir", "tempfile.mkdtemp"):
                return "/tmp"
            if qual == "shutil.make_archive" and len(args) > 1:
                base, kind = self.literal(args[0], depth + 1), self.literal(args[1], depth + 1)
                return base + _ARCHIVE_SUFFIX[kind] if base and kind in _ARCHIVE_SUFFIX else None
            if qual in ("os.getenv", "os.environ.get", "environ.get", "getenv") and args:
                key = self.literal(args[0], depth + 1)
                return "~" if key in ("HOME", "USERPROFILE") else None
            if qual in (
                "os.path.join",
                "posixpath.join",
                "ntpath.join",
                "pathlib.Path",
                "Path",
                "pathlib.PurePath",
                "PurePath",
                "pathlib.PosixPath",
                "Path().joinpath",
            ) or qual.endswith(".joinpath"):
                pieces = [self.literal(a, depth + 1) for a in args]
                if qual.endswith(".joinpath") and isinstance(node.func, ast.Attribute):
                    base = self.literal(node.func.value, depth + 1)
                    pieces = [base, *pieces]
                if not pieces or any(p is None for p in pieces):
                    return None
                return "/".join(p.rstrip("/") if i < len(pieces) - 1 else p for i, p in enumerate(pieces))
            if (
                qual
                in (
                    "os.path.expanduser",
                    "os.path.expandvars",
                    "str",
                    "os.path.abspath",
                    "os.path.realpath",
                    "os.path.normpath",
                    "os.fspath",
                )
                and args
            ):
                return self.literal(args[0], depth + 1)
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("expanduser", "resolve", "absolute"):
                return self.literal(node.func.value, depth + 1)
            if isinstance(node.func, ast.Attribute) and node.func.attr == "format":
                return self.literal(node.func.value, depth + 1)
        return None

    def spellings(self, node: ast.expr | None) -> list[str]:
        """Every string `node` may spell: `literal`, with each name that takes several values (a loop over a
        list of paths) tried in turn, at most MAX_CHOICES of them."""
        if node is None:
            return []
        # the walk finds nothing when no name takes several values yet, or `node` is a constant
        varied = self.spelled < MAX_SPELLED and self.choices and not isinstance(node, ast.Constant)
        several = [n.id for n in itertools.islice(ast.walk(node), 100) if isinstance(n, ast.Name)
                   and len(self.choices.get(n.id, ())) > 1] if varied else []  # fmt: skip
        if not several:
            text = self.literal(node)
            return [text] if text else []
        # one name varied: a path joined from two looped lists is past what a reader follows
        out = spelled_each(self.constants, several[0], self.choices[several[0]], lambda: self.literal(node))
        self.spelled += len(out)
        return out[:MAX_CHOICES]

    def read_from(self, node: ast.expr | None, at: ast.AST, record: bool = True) -> Taint:
        """What reading the file(s) `node` names yields: what was written there, a credential file's contents."""
        taint = CLEAN
        for path in self.spellings(node):
            if "://" in path:
                continue
            if record:
                self.use(PATH, path, at, "read")
            taint = taint | self.file_taint(path, at)
        return taint

    def lookup(self, path: str, under: bool = False) -> Taint:
        """What was written to a path here: the file itself, or into the folder it is in (a copy to `dir/`);
        `under`: everything written inside it too (a folder packed into an archive)."""
        normal = classify.normal_path(path)
        taint = self.files.get(normal, CLEAN)
        folder = normal.rstrip("/") + "/"
        for key in self.folders:
            if key != normal and normal.startswith(key):
                taint = taint | self.files.get(key, CLEAN)
        if under:
            for key, written in itertools.islice(self.files.items(), 200):
                if key.startswith(folder):
                    taint = taint | written
        return taint

    def open_args(self, call: ast.Call) -> tuple[str | None, str]:
        qual = self.qualname(call.func)
        mode_node: ast.expr | None = None
        if qual.endswith(".open") and isinstance(call.func, ast.Attribute) and qual not in ("io.open", "codecs.open"):
            path = self.literal(call.func.value)
            mode_node = call.args[0] if call.args else None
        else:
            path = self.literal(call.args[0]) if call.args else None
            mode_node = call.args[1] if len(call.args) > 1 else None
        for keyword in call.keywords:
            if keyword.arg == "mode":
                mode_node = keyword.value
            elif keyword.arg == "file":
                path = self.literal(keyword.value)
        mode = self.literal(mode_node) if mode_node is not None else "r"
        return path, mode or "r"

    def open_target(self, call: ast.Call) -> ast.expr | None:
        """The expression naming the file `open(...)` or `Path(...).open()` opens."""
        if isinstance(call.func, ast.Attribute) and self.qualname(call.func) not in ("io.open", "codecs.open"):
            return call.func.value
        return call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "file"), None)

    def found(self, pattern: str, node: ast.AST) -> Taint:
        """A listing or glob: what it finds names wallet or credential files when its pattern says so."""
        self.use(PATH, pattern, node, "list")
        label = classify.secret_label(pattern, self.facts.own)
        if label:
            return self.source(SECRET_FILE, f"finds {classify.normal_path(pattern)} ({label})", node)
        if classify.is_home(pattern):
            return self.source(COLLECTED, f"lists {classify.normal_path(pattern)}", node)
        return CLEAN

    # -- expressions -----------------------------------------------------------------------

    def expr(self, node: ast.expr | None) -> Taint:
        if node is None:
            return CLEAN
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and "://" in node.value and len(node.value) < 2000:
                for match in URL.finditer(node.value):
                    self.urls.append((match.group(0), self.row(node), id(node)))
            return CLEAN
        if isinstance(node, ast.Name):
            return self.variables.get(node.id, CLEAN)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            qual = self.qualname(node.value)
            if qual in ("os.environ", "environ", "os.environb"):
                return self.env_read(self.literal(node.slice), node)
            return self.expr(node.value) | self.expr(node.slice)
        if isinstance(node, ast.Attribute):
            qual = self.qualname(node)
            if qual in ("os.environ", "environ") and not self.in_env_keyword:
                self.facts.environment_dump(self.row(node))
                return self.source(ENV_DUMP, "reads the whole environment (os.environ)", node)
            return self.expr(node.value)
        if isinstance(node, ast.Lambda):
            return CLEAN
        if isinstance(node, ast.GeneratorExp | ast.ListComp | ast.SetComp) and _xor(node.elt):
            decoded = self.source(DECODED, "decodes XOR-encoded data", node)
            return decoded | self.comprehension(node)
        if isinstance(node, ast.Compare):  # `"X" in os.environ` tests, never reads out
            for part in [node.left, *node.comparators]:
                if self.qualname(part) not in ("os.environ", "environ"):
                    self.expr(part)
            return CLEAN
        return self.comprehension(node)

    def comprehension(self, node: ast.expr) -> Taint:
        """Any other expression: the union of its parts; a comprehension's filter that picks out wallet or key
        files by name (`[f for f in names if f.endswith(".keystore")]`) makes what it keeps name them."""
        taint: Taint = CLEAN
        for child in _children(node):
            if isinstance(child, ast.expr):
                taint = taint | self.expr(child)
            elif isinstance(child, ast.comprehension):
                iter_taint = self.expr(child.iter)
                self.bind(child.target, iter_taint, child.iter)
                self.loop_values(child.target, child.iter)
                taint = taint | iter_taint
                for condition in child.ifs:
                    self.expr(condition)
                    taint = taint | self.picked(condition)
            elif isinstance(child, ast.keyword):
                taint = taint | self.expr(child.value)
        return taint

    def env_read(self, name: str | None, node: ast.AST) -> Taint:
        if not name:
            return CLEAN
        self.use(ENV, name, node, "read")
        sensitivity = classify.env_sensitivity(name)
        if sensitivity == classify.WALLET_KEY:
            return self.source(WALLET_KEY, f"reads the wallet key ${name}", node)
        if sensitivity:
            return self.source(SECRET, f"reads the secret ${name}", node)
        return CLEAN

    def call(self, node: ast.Call) -> Taint:
        qual = self.qualname(node.func)
        short = node.func.attr if isinstance(node.func, ast.Attribute) else qual.rsplit(".", 1)[-1]
        # arguments first: what they hold flows into the call
        arg_taints = []
        for arg in node.args:
            arg_taints.append(self.expr(arg))
        keyword_taints: dict[str | None, Taint] = {}
        for keyword in node.keywords:
            if keyword.arg == "env":
                self.in_env_keyword = True
            keyword_taints[keyword.arg] = keyword_taints.get(keyword.arg, CLEAN) | self.expr(keyword.value)
            self.in_env_keyword = False
        every = frozenset().union(*arg_taints, *(t for k, t in keyword_taints.items() if k != "env"))
        receiver = CLEAN
        if isinstance(node.func, ast.Attribute) and not qual.startswith(("os.environ", "environ")):
            receiver = self.expr(node.func.value)
        taint = every | receiver
        if qual in ("os.getenv", "os.environ.get", "environ.get", "getenv", "os.environ.setdefault",
                    "os.environ.pop", "os.getenvb"):  # fmt: skip
            return self.env_read(self.literal(node.args[0]) if node.args else None, node)
        if (
            qual in ("os.environ.copy", "os.environ.items", "os.environ.values", "dict")
            and (qual != "dict" or (node.args and self.qualname(node.args[0]) in ("os.environ", "environ")))
            and (qual == "dict" or not self.in_env_keyword)
        ):
            self.facts.environment_dump(self.row(node))
            return self.source(ENV_DUMP, "reads the whole environment (os.environ)", node)
        if qual in _SECRET_CALLS:
            return taint | self.source(SECRET, f"reads a secret ({qual})", node)
        if qual in ("open", "io.open", "codecs.open", "builtins.open") or (
            short in ("open", "read_text", "read_bytes", "write_text", "write_bytes", "unlink", "iterdir", "glob",
                      "rglob", "rmdir", "touch", "mkdir")
            and isinstance(node.func, ast.Attribute)
            and (qual.startswith(("pathlib.Path(", "Path(", "pathlib.Path.", "Path.")) or "Path" in qual
                 or self.literal(node.func.value) is not None)
        ):  # fmt: skip
            return self.file_call(node, qual, short, arg_taints, taint)
        if qual in _LISTERS or qual in _DELETERS:
            path = self.literal(node.args[0]) if node.args else None
            if path and qual in _LISTERS:
                return taint | self.found(path, node)
            for path in self.spellings(node.args[0] if node.args else None):
                self.use(PATH, path, node, "delete")
            return taint
        if qual in _COPIERS and len(node.args) >= 2:
            dst = self.literal(node.args[1])
            copied = arg_taints[0] | self.read_from(node.args[0], node)
            if dst:
                self.write(dst, node, copied, "", literal=False, copy=True)
            return CLEAN
        if qual == "shutil.make_archive" and len(node.args) > 1:
            return self.make_archive(node)
        if short in ("write", "writestr", "add", "addfile") and isinstance(node.func, ast.Attribute) and isinstance(
                node.func.value, ast.Name) and node.func.value.id in self.archives:  # fmt: skip
            self.archive_add(node, node.func.value.id, short, every)
            return CLEAN
        if qual in _RESOLVERS and node.args and (arg_taints[0] or "*" in (self.literal(node.args[0]) or "")):
            self.lookup_sends(node, qual, arg_taints[0])
            return CLEAN
        if short in _LOG_LEVELS and self.log_hosts and ("logging" in qual or "log" in qual.split(".", 1)[0].lower()):
            sink = self.sink(SEND, node, every, self.log_hosts[0])
            self.facts.sends.append(sink)
            return CLEAN
        if qual in _REMOTE_LOG_HANDLERS:
            self.log_handler(node, qual)
            return CLEAN
        if short == "write" and isinstance(node.func, ast.Attribute):
            path = None
            target = node.func.value
            if isinstance(target, ast.Name):
                path = self.handles.get(target.id)
            elif isinstance(target, ast.Call) and self.qualname(target.func) in ("open", "io.open", "codecs.open"):
                opened, mode = self.open_args(target)  # open(p, "w").write(x)
                path = opened if opened and any(c in mode for c in "wax+") else None
            if path:
                content = self.literal(node.args[0]) if node.args else ""
                self.write(path, node, every, content or "", literal=content is not None)
            return CLEAN
        if qual in ("json.dump", "pickle.dump", "yaml.dump", "yaml.safe_dump") and len(node.args) >= 2:
            target = node.args[1]
            if isinstance(target, ast.Name) and target.id in self.handles:
                self.write(self.handles[target.id], node, arg_taints[0], "", literal=False)
            return CLEAN
        if qual == "print":
            for keyword in node.keywords:
                if keyword.arg == "file" and isinstance(keyword.value, ast.Name) and keyword.value.id in self.handles:
                    content = self.literal(node.args[0]) if node.args else ""
                    self.write(self.handles[keyword.value.id], node, every, content or "", literal=content is not None)
            return CLEAN
        network = self.network(node, qual, short, arg_taints, keyword_taints, taint)
        if network is not None:
            self.network_seen = True
            return network
        if qual in _OPENERS or (short == "goto" and isinstance(node.func, ast.Attribute)):
            url = self.literal(node.args[0]) if node.args else None
            self.consume(node.args[0] if node.args else None)
            host = url_host(url) if url and "://" in url else None
            if host:
                self.use(HOST, host, node, "open")
            return CLEAN
        if qual in _SUBPROCESS or (qual.startswith("subprocess.") and short in ("run", "call", "Popen", "check_output",
                                                                                "check_call")):  # fmt: skip
            return self.subprocess(node, qual, arg_taints, keyword_taints, taint)
        if qual in ("eval", "exec", "compile", "builtins.eval", "builtins.exec", "runpy.run_path", "runpy.run_module",
                    "importlib.import_module", "__import__", "pickle.loads", "pickle.load", "dill.loads",
                    "code.InteractiveInterpreter().runsource", "execfile"):  # fmt: skip
            first = node.args[0] if node.args else None
            literal = isinstance(first, ast.Constant) and qual not in ("runpy.run_path", "pickle.loads", "pickle.load")
            runs = arg_taints[0] if arg_taints else CLEAN
            if qual == "runpy.run_path" and first is not None:
                path = self.literal(first)
                if path:
                    runs = runs | self.files.get(classify.normal_path(path), CLEAN)
            if not literal:
                self.use(PROCESS, qual.removeprefix("builtins."), node, "eval")
                self.sink(EXEC, node, runs, qual)
            return CLEAN
        if qual in _DECODERS:
            if qual == "codecs.decode" and len(node.args) > 1:
                encoding = (self.literal(node.args[1]) or "").lower().replace("-", "_")
                if encoding not in ("rot13", "rot_13", "hex", "base64", "zlib", "bz2", "base64_codec", "hex_codec"):
                    return taint
            return taint | self.source(DECODED, f"decodes data ({qual})", node)
        if short == "decode" and node.args and (self.literal(node.args[0]) or "").lower() in ("rot13", "rot_13"):
            return taint | self.source(DECODED, "decodes rot13 data", node)
        if qual in _SYSTEM_FACTS:
            return taint | self.source(SYSTEM_FACTS, f"collects system facts ({qual})", node)
        if qual in _COLLECTORS or qual.endswith(("ImageGrab.grab", "clipboard_get")):
            what = _COLLECTORS.get(qual, "a screenshot" if "Grab" in qual else "the clipboard")
            return taint | self.source(COLLECTED, f"collects {what} ({qual})", node)
        if qual in ("os.chmod",) and node.args:
            path = self.literal(node.args[0])
            mode = node.args[1] if len(node.args) > 1 else None
            setuid = isinstance(mode, ast.Constant) and isinstance(mode.value, int) and mode.value & 0o4000
            setuid = setuid or (mode is not None and "S_ISUID" in ast.unparse(mode))
            if path and setuid and system.is_setuid_target(path):
                what = f"sets the setuid bit on {path} (os.chmod), a root shell for anyone"
                self.facts.change([(system.ROOT_GRANT, what)], self.row(node))
            return CLEAN
        if qual in ("threading.Thread", "multiprocessing.Process", "threading.Timer"):
            return self.thread(node, qual)
        name = node.func.id if isinstance(node.func, ast.Name) else short
        if name in self.functions:
            if name in self.networked:
                self.network_seen = True
            return taint | self.replay(name, node, arg_taints, keyword_taints)
        taint = sanitised(taint, qual or short)
        read = self.secret_arguments(node)
        taint = taint | read
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and (every or read):
            # a method fed a value keeps it: `creds.read(path)`, `parts.append(key)`, `form.update(data)`
            owner = node.func.value.id
            if owner not in self.aliases:
                self.variables[owner] = self.variables.get(owner, CLEAN) | every | taint
        return taint

    def secret_arguments(self, node: ast.Call) -> Taint:
        """A credential file's path handed to any other call (configparser.read, a loader) is read by it; a
        string method or a pattern match only compares names."""
        taint = CLEAN
        short = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if short in _COMPARES or self.qualname(node.func).startswith(("fnmatch.", "re.")):
            return taint
        for arg in node.args[:4]:
            if isinstance(arg, ast.Constant | ast.Name | ast.BinOp | ast.Call | ast.JoinedStr):
                for path in self.spellings(arg):
                    if "://" not in path and classify.secret_label(path, self.facts.own):
                        self.use(PATH, path, node, "read")
                        taint = taint | self.file_taint(path, node)
        return taint

    # -- archives, name lookups, logging -----------------------------------------------------

    def make_archive(self, node: ast.Call) -> Taint:
        """`shutil.make_archive(base, format, root_dir, base_dir)`: the archive holds what the folder holds."""
        archive = self.literal(node)
        root = _argument(node, 2, "root_dir")
        content = self.read_from(root, node) if root is not None else CLEAN
        for folder in self.spellings(root):
            content = content | self.lookup(folder, under=True)
        if archive:
            self.write(archive, node, content, "", literal=False)
        return CLEAN

    def archive_add(self, node: ast.Call, name: str, short: str, every: Taint) -> None:
        """A member added to an archive being written: the file read (`write`, `add`) or the data given."""
        path, buffer = self.archives[name]
        content = every
        if short in ("write", "add") and node.args:
            content = content | self.read_from(node.args[0], node)
        self.variables[name] = self.variables.get(name, CLEAN) | content
        if buffer:
            self.variables[buffer] = self.variables.get(buffer, CLEAN) | content
        if path:
            normal = classify.normal_path(path)
            self.files[normal] = self.files.get(normal, CLEAN) | content
            self.use(PATH, path, node, "write")

    def lookup_sends(self, node: ast.Call, qual: str, taint: Taint) -> None:
        """A name built from data and looked up: the data goes to whoever serves the domain it ends in."""
        name = node.args[0]
        while isinstance(name, ast.BinOp) and isinstance(name.op, ast.Add) and self.literal(name) is None:
            name = name.right  # `encoded + ".t.example"`: the domain is the spelled end
        text = self.literal(name) or ""
        domain = re.sub(r"^.*(?:\*|\}|%s)", "", text).lstrip(".").lower() if text else ""
        if "." not in domain:
            domain = ""
        if domain:
            self.use(HOST, domain, node, "send")
        sink = self.sink(SEND, node, taint, domain, channel="dns")
        self.facts.sends.append(sink)

    def log_handler(self, node: ast.Call, qual: str) -> None:
        """A logging handler that ships records to another machine: every later log call is a send to it."""
        first = _argument(node, 0, "host", "mailhost", "address")
        if isinstance(first, ast.Tuple) and first.elts:
            first = first.elts[0]
        text = self.literal(first) if first is not None else None
        if qual.endswith("SysLogHandler") and first is None:
            return  # the local syslog socket
        host = (classify.host_of_pieces(text) if text and "://" in text else (text or "").split(":", 1)[0]).lower()
        if host and classify.is_local_host(host):
            return
        if host:
            self.use(HOST, host, node, "send")
        self.log_hosts.append(host)
        sink = self.sink(SEND, node, CLEAN, host)
        self.facts.sends.append(sink)

    def thread(self, node: ast.Call, qual: str) -> Taint:
        """A thread or process whose target makes network calls runs them in the background."""
        target = next(
            (k.value for k in node.keywords if k.arg == "target"), node.args[1] if len(node.args) > 1 else None
        )
        if target is None:
            return CLEAN
        name = self.qualname(target)
        network = name in self.networked or self.is_network_name(name)
        if not network:
            return CLEAN
        self.use(PROCESS, f"{qual}({name})", node, "background")
        args = next((k.value for k in node.keywords if k.arg == "args"), None)
        if isinstance(args, ast.Tuple | ast.List) and args.elts and self.is_network_name(name):
            call = ast.Call(func=target, args=list(args.elts), keywords=[])
            ast.copy_location(call, node)
            self.call(call)  # what the thread will call, on this line
        return CLEAN

    def is_network_name(self, qual: str) -> bool:
        root = qual.split(".", 1)[0]
        short = qual.rsplit(".", 1)[-1]
        return qual in _URLLIB or (root in _HTTP_LIBS and short in _HTTP_METHODS)

    # -- files -----------------------------------------------------------------------------

    def file_taint(self, path: str, node: ast.AST) -> Taint:
        normal = classify.normal_path(path)
        taint = self.lookup(normal)
        label = classify.secret_label(normal, self.facts.own)
        if label:
            taint = taint | self.source(SECRET_FILE, f"reads {normal} ({label})", node, address=normal)
        return taint

    def file_call(self, node: ast.Call, qual: str, short: str, arg_taints: list[Taint], taint: Taint) -> Taint:
        if short in ("open",) or qual in ("open", "io.open", "codecs.open", "builtins.open"):
            path, mode = self.open_args(node)
            if any(c in mode for c in "wax+"):
                if not path:
                    return taint
                self.use(PATH, path, node, "write")
                self.persistence(path, node, CLEAN, "", literal=False, written=False)
                self.facts.system_write(path, self.row(node), "")  # what is written is in the unit
                return CLEAN
            return taint | self.read_from(self.open_target(node), node)
        if short in ("read_text", "read_bytes") and isinstance(node.func, ast.Attribute):
            return taint | self.read_from(node.func.value, node)
        path = self.literal(node.func.value) if isinstance(node.func, ast.Attribute) else None
        if not path:
            return taint
        if short in ("write_text", "write_bytes"):
            content = self.literal(node.args[0]) if node.args else ""
            self.write(path, node, arg_taints[0] if arg_taints else CLEAN, content or "", literal=content is not None)
            return CLEAN
        if short in ("unlink", "rmdir"):
            self.use(PATH, path, node, "delete")
            return CLEAN
        if short in ("iterdir", "glob", "rglob"):
            pattern = self.literal(node.args[0]) if node.args and short != "iterdir" else None
            if pattern:
                return self.found(f"{path.rstrip('/')}/{'**/' if short == 'rglob' else ''}{pattern}", node)
            self.use(PATH, path, node, "list")
            if classify.is_home(path):
                return self.source(COLLECTED, f"lists {classify.normal_path(path)}", node)
            return CLEAN
        if short in ("touch", "mkdir"):
            self.use(PATH, path, node, "write")
        return CLEAN

    def write(self, path: str, node: ast.AST, taint: Taint, content: str, literal: bool = True,
              copy: bool = False) -> None:  # fmt: skip
        self.use(PATH, path, node, "write")
        normal = classify.normal_path(path)
        if normal.endswith("/") and len(self.folders) < 64:
            self.folders.add(normal)
        self.files[normal] = self.files.get(normal, CLEAN) | taint
        self.persistence(path, node, taint, content, literal, copy=copy)

    def persistence(self, path: str, node: ast.AST, taint: Taint, content: str, literal: bool,
                    written: bool = True, copy: bool = False) -> None:  # fmt: skip
        if not written:
            if classify.is_persistence_point(path):
                self.use(PERSISTENCE, classify.normal_path(path), node, "write", classify.path_sensitivity(path))
            return  # opened for writing: the write itself is the sink
        self.facts.persistence(path, self.row(node), taint, content, literal, copy)

    # -- network ---------------------------------------------------------------------------

    def consume(self, node: ast.expr | None) -> None:
        if node is None:
            return
        for child in ast.walk(node) if isinstance(node, ast.JoinedStr | ast.BinOp | ast.Constant) else [node]:
            self.consumed.add(id(child))
        if isinstance(node, ast.Name) and node.id in self.constants:
            text = self.constants[node.id]
            for index, (url, row, ident) in enumerate(self.urls):
                if url in text or text in url:
                    self.consumed.add(ident)
                    self.urls[index] = (url, row, ident)

    def network(self, node: ast.Call, qual: str, short: str, arg_taints: list[Taint],
                keyword_taints: dict[str | None, Taint], taint: Taint) -> Taint | None:  # fmt: skip
        root = qual.split(".", 1)[0].split("(", 1)[0]
        detail = None
        url_node: ast.expr | None = None
        host: str | None = None
        if root in _HTTP_LIBS or root.startswith(_HTTP_LIBS):
            receiver = qual.rsplit(".", 1)[0]
            if short not in _HTTP_METHODS or ("()" in receiver and not _CLIENT.search(receiver)):
                return None  # `r.json().get("city")`: a method of a response, not a request
            detail = _HTTP_METHODS[short]
            url_node = node.args[0] if node.args else None
            if short == "request":
                method = (self.literal(node.args[0]) or "GET").upper() if node.args else "GET"
                detail = "send" if method in ("POST", "PUT", "PATCH", "DELETE") else "fetch"
                url_node = node.args[1] if len(node.args) > 1 else None
        elif qual in _URLLIB:
            url_node = node.args[0] if node.args else None
            detail = "fetch"
            if isinstance(url_node, ast.Name) and self.types.get(url_node.id, "").endswith("Request()"):
                return taint  # the Request() call was the sink
            if len(node.args) > 1 and "retrieve" not in qual:
                detail = "send"
        elif qual in ("socket.create_connection", "socket.socket().connect", "socket.socket().connect_ex") or (
            short in ("connect", "sendto") and "socket" in qual
        ):
            target = node.args[0] if node.args else None
            if short == "sendto" and len(node.args) > 1:
                target = node.args[1]
            if isinstance(target, ast.Tuple) and target.elts:
                host = self.literal(target.elts[0])
            owner = self.owner(node)
            if host and owner and short in ("connect", "connect_ex"):
                self.endpoints[owner] = host.lower()
            detail = "send"
        elif short in ("send", "sendall", "send_text", "send_bytes") and "socket" in qual:
            host = self.endpoints.get(self.owner(node))
            detail = "send"
        elif qual.startswith(("smtplib.SMTP", "ftplib.FTP", "http.client.HTTP")) and short in (
            "SMTP", "SMTP_SSL", "FTP", "FTP_TLS", "HTTPConnection", "HTTPSConnection"
        ):  # fmt: skip
            host = self.peer(node, qual) or None
            detail = "send"
        elif short in ("sendmail", "send_message", "storbinary") and qual.startswith(("smtplib", "ftplib")):
            host = self.endpoints.get(self.owner(node))
            detail = "send"
        elif qual.startswith("http.client.HTTP") and short in ("request", "putrequest", "send"):
            host = self.endpoints.get(self.owner(node))
            method = (self.literal(node.args[0]) or "").upper() if node.args and short != "send" else "POST"
            body = len(node.args) > 2 or any(k.arg == "body" for k in node.keywords)
            detail = "send" if body or method in ("POST", "PUT", "PATCH", "DELETE") else "fetch"
        elif qual in ("websocket.create_connection", "websockets.connect", "websocket.WebSocketApp",
                      "websockets.client.connect"):  # fmt: skip
            url_node = node.args[0] if node.args else None
            detail = "send"
        elif (qual.startswith("boto3") and short in ("upload_file", "upload_fileobj", "put_object")) or (
            short == "put" and "sftp" in qual.lower()
        ):  # a file copied up to a bucket or over SFTP
            detail = "send"
            if short != "put_object" and node.args:
                taint = taint | self.read_from(node.args[0], node)
            bucket = self.literal(_argument(node, 1, "Bucket")) if short != "put" else None
            host = f"{bucket}.s3.amazonaws.com" if bucket and "*" not in bucket else None
        else:
            return None
        url = None
        for keyword in node.keywords:
            if keyword.arg in ("url", "uri"):
                url_node = keyword.value
            if keyword.arg in ("data", "json", "files", "content") and detail == "fetch":
                detail = "send"
        if url_node is not None:
            url = self.literal(url_node)
            self.consume(url_node)
        if url and "://" in url:
            host = classify.host_of_pieces(url)
        if host:
            host = host.lower()
            self.use(HOST, host, node, detail or "fetch")
        sink = self.sink(SEND, node, taint, host or "")
        if detail == "send":
            self.facts.sends.append(sink)
        fetched = self.source(FETCHED, fetch_label(host or "", url or ""), node, host or "", url or "")
        if host and locating_host(host):
            fetched = fetched | self.source(COLLECTED, f"looks up the machine's location ({host})", node)
        if "retrieve" in qual and len(node.args) > 1:
            path = self.literal(node.args[1])
            if path:
                self.write(path, node, fetched, "")
            return CLEAN
        return taint | fetched

    def owner(self, node: ast.Call) -> str:
        """The name a method is called on: `s` in `s.sendall(data)`."""
        func = node.func
        return func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""

    # -- processes -------------------------------------------------------------------------

    def subprocess(self, node: ast.Call, qual: str, arg_taints: list[Taint],
                   keyword_taints: dict[str | None, Taint], taint: Taint) -> Taint:  # fmt: skip
        first = node.args[0] if node.args else None
        for keyword in node.keywords:
            if keyword.arg in ("args", "cmd") and first is None:
                first = keyword.value
        shell_kw = any(k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value for k in node.keywords)
        background = any(
            (k.arg == "start_new_session" and isinstance(k.value, ast.Constant) and k.value.value)
            or (k.arg == "creationflags" and "DETACHED" in ast.unparse(k.value))
            or (k.arg == "preexec_fn" and "setsid" in ast.unparse(k.value))
            for k in node.keywords
        )
        command: str | None = None
        program = ""
        if isinstance(first, ast.List | ast.Tuple):
            parts = [self.literal(e) for e in first.elts]
            program = (parts[0] or "").rsplit("/", 1)[-1] if parts else ""
            command = " ".join(_quote(p) if p is not None else '"$PYVAR"' for p in parts)
            if qual.startswith("os.exec") or qual.startswith("os.spawn"):
                command = " ".join(_quote(p) if p is not None else '"$PYVAR"' for p in parts[1:])
        elif first is not None:
            text = self.literal(first)
            string_command = qual in _STRING_COMMANDS or shell_kw
            if text is not None and string_command:
                command = text.replace("*", "$PYVAR")
            elif text is not None:
                command = _quote(text)
            program = (command or "").split(" ", 1)[0].rsplit("/", 1)[-1]
            if text is None or "*" in text:
                self.use(PROCESS, qual, node, "eval" if string_command else "spawn")
                self.sink(EXEC, node, arg_taints[0] if arg_taints else CLEAN, qual)
        self.use(PROCESS, program or qual, node, "background" if background else "spawn")
        output = CLEAN
        if command:
            stdin = keyword_taints.get("input", CLEAN)
            output = shell.analyse(self.facts, command, self.row(node), 0, 1, stdin, self.files)
            if arg_taints and arg_taints[0] and program in SENDING_PROGRAMS:
                host = next((url_host(m.group(0)) for m in URL.finditer(command)), None) or ""
                sink = self.sink(SEND, node, arg_taints[0], host or "")
                self.facts.sends.append(sink)
        if program in ("sh", "bash", "zsh", "python", "python3", "node") and arg_taints and arg_taints[0]:
            self.sink(EXEC, node, arg_taints[0], program)
        return output | taint


def _quote(text: str) -> str:
    if re.fullmatch(r"[\w@%+=:,./~-]+", text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _skips(body: list[ast.stmt]) -> bool:
    """An if-body that only skips (`continue`, `pass`, `return`): the test names what to leave alone."""
    return bool(body) and isinstance(body[0], ast.Continue | ast.Pass | ast.Return | ast.Break)


def _children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` as a list, in the same order, without its two generators."""
    out: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    return out


def _names(node: ast.expr) -> list[str]:
    return list(dict.fromkeys(n.id for n in itertools.islice(ast.walk(node), 200) if isinstance(n, ast.Name)))[:8]


def _constants(node: ast.expr) -> list[str]:
    found = (n.value for n in itertools.islice(ast.walk(node), 200) if isinstance(n, ast.Constant))
    return [v for v in found if isinstance(v, str) and 0 < len(v) <= 100][:8]


def _xor(node: ast.expr) -> bool:
    """`c ^ key` (or `ord(c) ^ key`) inside a comprehension: bytes decoded with a key, one by one."""
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitXor) for n in itertools.islice(ast.walk(node), 50))


def _argument(call: ast.Call, index: int, *names: str) -> ast.expr | None:
    """The call's argument at `index`, or given by one of `names`."""
    if len(call.args) > index and not any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg in names), None)

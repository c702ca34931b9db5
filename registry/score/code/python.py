"""Python scripts and Python code fences, read with `ast`: uses and flows, never imported or run.

Statements are read in order with a simple def-use taint: a variable holds the union of what its
assigned expression may hold (f-strings, concatenation, containers, and calls such as json.dumps
or base64 wrapping a value carry it along); a function's return value holds what its returns may
hold, for later calls by name. Commands handed to subprocess/os.system are read by the shell
reader, on the Python line that runs them, sharing the record of files written.
"""

from __future__ import annotations

import ast
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
    SECRET,
    SECRET_FILE,
    SEND,
    SYSTEM_FACTS,
    WALLET_KEY,
    Facts,
    Sink,
    Source,
    Taint,
    sanitised,
)
from registry.score.vocabulary import URL, url_host

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
                "httpx", "requests", "urllib3", "niquests", "clipboard_get"}  # fmt: skip
# Every name the reader acts on: the fence prefilter in __init__ searches for these.
KNOWN_CALLS = frozenset(
    _SUBPROCESS
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


def analyse(facts: Facts) -> None:
    """Read a Python unit into `facts`. Raises SyntaxError, RecursionError, ValueError on bad input."""
    tree = ast.parse(facts.unit.text, filename=facts.unit.name)
    facts.parser = "python ast"
    reader = _Reader(facts)
    reader.body(tree.body)
    reader.mentions()


class _Reader:
    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.variables: dict[str, Taint] = {}
        self.constants: dict[str, str] = {}  # names bound to a string or path we can spell out
        self.types: dict[str, str] = {}  # names bound to a call result: "requests.Session()"
        self.handles: dict[str, str] = {}  # names bound to a file opened for writing, and its path
        self.aliases: dict[str, str] = {}
        self.functions: dict[str, Taint] = {}
        self.networked: set[str] = set()
        self.files: dict[str, Taint] = {}
        self.returns: list[Taint] | None = None
        self.network_seen = False
        self.urls: list[tuple[str, int, int]] = []  # (url, row, node id) string constants
        self.consumed: set[int] = set()
        self.in_env_keyword = False

    # -- recording -------------------------------------------------------------------------

    def row(self, node: ast.AST) -> int:
        return max(0, getattr(node, "lineno", 1) - 1)

    def use(self, kind: str, value: str, node: ast.AST, detail: str = "", sensitive: str = "") -> None:
        self.facts.use(kind, value, self.row(node), detail, sensitive)

    def source(self, kind: str, label: str, node: ast.AST, host: str = "") -> Taint:
        src = Source(kind, label, self.facts.line(self.row(node)), host)
        self.facts.sources.append(src)
        return frozenset({src})

    def sink(self, kind: str, node: ast.AST, taint: Taint, target: str = "", runs: bool = False) -> Sink:
        row = self.row(node)
        sink = Sink(kind, self.facts.line(row), taint, target, self.facts.evidence(row), -1, runs)
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
            if isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Tuple | ast.List | ast.Set):
                names = [self.literal(e) for e in node.iter.elts[:64]]
                names = [n for n in names if n is not None]
                if names:  # the loop variable takes each value: keep the one that says most about the loop
                    self.constants[node.target.id] = max(names, key=lambda n: bool(classify.path_sensitivity(n)))
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

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.expr(decorator)
        saved = (dict(self.variables), self.returns, self.network_seen, dict(self.handles))
        self.returns = []
        self.network_seen = False
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            self.variables.pop(arg.arg, None)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.expr(default)
        self.body(node.body)
        returned = frozenset().union(*self.returns) if self.returns else CLEAN
        if self.network_seen:
            self.networked.add(node.name)
        self.functions[node.name] = returned
        self.variables, self.returns, network_seen, self.handles = saved[0], saved[1], saved[2], saved[3]
        self.network_seen = self.network_seen or network_seen

    def bind(self, target: ast.expr, taint: Taint, value: ast.expr, augment: bool = False) -> None:
        if isinstance(target, ast.Name):
            name = target.id
            self.variables[name] = (self.variables.get(name, CLEAN) | taint) if augment else taint
            text = self.literal(value)
            if text is not None and not augment:
                self.constants[name] = text
            else:
                self.constants.pop(name, None)
            if isinstance(value, ast.Call):
                qual = self.qualname(value.func)
                if qual:
                    self.types[name] = f"{qual}()"
                if qual in ("open", "io.open", "codecs.open") or qual.endswith((".open", "Path().open")):
                    path, mode = self.open_args(value)
                    if path and mode and any(c in mode for c in "wax+"):
                        self.handles[name] = path
            else:
                self.types.pop(name, None)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.bind(element, taint, value, augment)
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

    # -- names and literals ------------------------------------------------------------------

    def qualname(self, node: ast.expr) -> str:
        parts: list[str] = []
        depth = 0
        while depth < 20:
            depth += 1
            if isinstance(node, ast.Attribute):
                parts.append(node.attr)
                node = node.value
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
        if isinstance(node, ast.Call):
            qual = self.qualname(node.func)
            args = node.args
            if qual in ("pathlib.Path.home", "Path.home", "os.path.expanduser") and not args:
                return "~"
            if qual in ("tempfile.gettempdir", "tempfile.mkdtemp"):
                return "/tmp"
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
                return self.source(ENV_DUMP, "reads the whole environment (os.environ)", node)
            return self.expr(node.value)
        if isinstance(node, ast.Lambda):
            return CLEAN
        if isinstance(node, ast.Compare):  # `"X" in os.environ` tests, never reads out
            for part in [node.left, *node.comparators]:
                if self.qualname(part) not in ("os.environ", "environ"):
                    self.expr(part)
            return CLEAN
        taint: Taint = CLEAN
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                taint = taint | self.expr(child)
            elif isinstance(child, ast.comprehension):
                iter_taint = self.expr(child.iter)
                self.bind(child.target, iter_taint, child.iter)
                taint = taint | iter_taint
                for condition in child.ifs:
                    self.expr(condition)
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
            if path:
                self.use(PATH, path, node, "delete" if qual in _DELETERS else "list")
                if qual in _LISTERS and classify.is_home(path):
                    return taint | self.source(COLLECTED, f"lists {classify.normal_path(path)}", node)
            return taint
        if qual in _COPIERS and len(node.args) >= 2:
            src, dst = self.literal(node.args[0]), self.literal(node.args[1])
            copied = arg_taints[0]
            if src:
                self.use(PATH, src, node, "read")
                copied = copied | self.file_taint(src, node)
            if dst:
                self.write(dst, node, copied, "", literal=False, copy=True)
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
            return taint | self.functions[name]
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
        """A credential file's path handed to any other call (configparser.read, a loader) is read by it."""
        taint = CLEAN
        for arg in node.args[:4]:
            if isinstance(arg, ast.Constant | ast.Name | ast.BinOp | ast.Call | ast.JoinedStr):
                path = self.literal(arg)
                if path and classify.secret_label(path, self.facts.own):
                    self.use(PATH, path, node, "read")
                    taint = taint | self.file_taint(path, node)
        return taint

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
        taint = self.files.get(normal, CLEAN)
        label = classify.secret_label(normal, self.facts.own)
        if label:
            taint = taint | self.source(SECRET_FILE, f"reads {normal} ({label})", node)
        return taint

    def file_call(self, node: ast.Call, qual: str, short: str, arg_taints: list[Taint], taint: Taint) -> Taint:
        if short in ("open",) or qual in ("open", "io.open", "codecs.open", "builtins.open"):
            path, mode = self.open_args(node)
            if not path:
                return taint
            if any(c in mode for c in "wax+"):
                self.use(PATH, path, node, "write")
                self.persistence(path, node, CLEAN, "", literal=False, written=False)
                self.facts.system_write(path, self.row(node), "")  # what is written is in the unit
                return CLEAN
            self.use(PATH, path, node, "read")
            return taint | self.file_taint(path, node)
        path = self.literal(node.func.value) if isinstance(node.func, ast.Attribute) else None
        if not path:
            return taint
        if short in ("read_text", "read_bytes"):
            self.use(PATH, path, node, "read")
            return taint | self.file_taint(path, node)
        if short in ("write_text", "write_bytes"):
            content = self.literal(node.args[0]) if node.args else ""
            self.write(path, node, arg_taints[0] if arg_taints else CLEAN, content or "", literal=content is not None)
            return CLEAN
        if short in ("unlink", "rmdir"):
            self.use(PATH, path, node, "delete")
            return CLEAN
        if short in ("iterdir", "glob", "rglob"):
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
            if short not in _HTTP_METHODS:
                return None
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
            if isinstance(target, ast.Tuple) and target.elts:
                host = self.literal(target.elts[0])
            detail = "send"
        elif short in ("send", "sendall") and "socket" in qual:
            detail = "send"
        elif qual.startswith(("smtplib.SMTP", "ftplib.FTP", "http.client.HTTP")) and short in (
            "SMTP", "SMTP_SSL", "FTP", "FTP_TLS", "HTTPConnection", "HTTPSConnection"
        ):  # fmt: skip
            host = self.literal(node.args[0]) if node.args else None
            detail = "send"
        elif short in ("sendmail", "send_message", "storbinary") and qual.startswith(("smtplib", "ftplib")):
            detail = "send"
        elif qual in ("websocket.create_connection", "websockets.connect", "websocket.WebSocketApp"):
            url_node = node.args[0] if node.args else None
            detail = "send"
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
        if "retrieve" in qual and len(node.args) > 1:
            path = self.literal(node.args[1])
            if path:
                self.write(path, node, self.source(FETCHED, f"downloads {host or 'a URL'}", node, host or ""), "")
            return CLEAN
        return taint | self.source(FETCHED, f"downloads {host or 'a URL'}", node, host or "")

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
            if arg_taints and arg_taints[0] and program in ("curl", "wget", "nc", "ncat", "scp", "rsync"):
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

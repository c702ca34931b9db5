"""JavaScript and TypeScript scripts and fences, read with tree-sitter: uses and flows, never run.

The same def-use taint as the Python reader, over the tree-sitter syntax tree: declarations and
assignments bind what their value may hold (template strings, concatenation, objects, and calls
such as JSON.stringify or Buffer.from carry it along); a function's returns are remembered for
later calls by name. Variables are not scoped per block: a name bound anywhere in the unit holds
the union of its values, which over-approximates (never misses) a link inside one file.
Arrays of paths read in a loop or a callback keep their values; requests, sockets, websockets and
mail transports are sends to the peer they were made for (`https.request({hostname}).end(data)`);
DNS names built from data are sends to their domain. Commands handed to child_process/execa are
read by the shell reader on the line that runs them.
"""

from __future__ import annotations

import re

from registry.score.card import ENV, HOST, PATH, PROCESS
from registry.score.code import classify, shell
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
    fetch_label,
    sanitised,
)
from registry.score.code.treesitter import parser
from registry.score.vocabulary import URL, geolocation_service, url_host

MAX_DEPTH = 150
_FS_READ = {"readFileSync", "readFile", "createReadStream", "openSync", "readJson", "readJsonSync", "readJSON"}
_FS_WRITE = {"writeFileSync", "writeFile", "appendFileSync", "appendFile", "createWriteStream", "outputFile",
             "outputFileSync", "writeJson", "writeJsonSync"}  # fmt: skip
_FS_DELETE = {"unlinkSync", "unlink", "rmSync", "rm", "rmdirSync", "rmdir", "remove", "removeSync"}
_FS_LIST = {"readdirSync", "readdir", "opendir", "opendirSync", "globSync", "glob"}
_FS_COPY = {"copyFileSync", "copyFile", "cpSync", "cp", "renameSync", "rename", "copy", "copySync", "move",
            "symlinkSync", "symlink"}  # fmt: skip
_FS_MODULES = ("fs", "fs/promises", "node:fs", "node:fs/promises", "fs-extra", "graceful-fs")
_CHILD = ("child_process", "node:child_process")
_CHILD_STRING = {"exec", "execSync"}
_CHILD_ARGV = {"spawn", "spawnSync", "execFile", "execFileSync", "fork"}
_HTTP_SEND = {"post", "put", "patch", "delete"}
_SYSTEM_FACTS = {"hostname", "userInfo", "networkInterfaces", "platform", "type", "release", "arch", "cpus"}
_STRINGS = ("string", "template_string")
_NET = ("net", "node:net", "tls", "node:tls")
_DNS = ("dns", "node:dns", "dns/promises", "node:dns/promises", "dns.promises")
_DNS_CALLS = {"lookup", "resolve", "resolve4", "resolve6", "resolveTxt", "resolveAny", "resolveCname", "resolveMx",
              "resolveNs", "reverse"}  # fmt: skip
_GLOB_MODULES = ("glob", "fast-glob", "globby", "tiny-glob")
_ARCHIVE_ADDS = {"addLocalFile", "addLocalFolder", "addFile", "file", "directory", "append", "glob"}
_LOOP_CALLBACKS = {"forEach", "map", "flatMap", "filter", "some", "every", "find", "reduce"}
_REQUIRED = re.compile(r"""^require\(['"]([\w@:/-]+)['"]\)\.""")
MAX_SPELLED = 2000  # values tried per unit, every read together; past it a name stands for its likeliest value
MAX_CHOICES = 16  # spelled values one name is remembered to take (a loop over a list of paths)


def analyse(facts: Facts, text: str | None = None, fixed_row: int | None = None,
            files: dict[str, Taint] | None = None, row_offset: int = 0) -> None:  # fmt: skip
    """Read a JavaScript or TypeScript unit into `facts`; `text` is code inside the unit (a `node -e` body, a
    decoded blob), read with every use on the unit's `fixed_row`, sharing `files` with the caller."""
    grammar = {"typescript": "typescript", "tsx": "tsx"}.get(facts.unit.language, "javascript")
    if text is not None:
        grammar = "javascript"
    data = (facts.unit.text if text is None else text).encode("utf-8", errors="replace")
    tree = parser(grammar).parse(data)
    facts.parser = facts.parser or f"tree-sitter {grammar}"
    reader = _Reader(facts, data, fixed_row, files)
    reader.row_offset = row_offset
    reader.walk(tree.root_node, 0)
    reader.mentions()


class _Reader:
    def __init__(self, facts: Facts, data: bytes, fixed_row: int | None = None,
                 files: dict[str, Taint] | None = None) -> None:  # fmt: skip
        self.facts = facts
        self.data = data
        self.fixed_row = fixed_row
        self.row_offset = 0
        self.variables: dict[str, Taint] = {}
        self.constants: dict[str, str] = {}
        self.aliases: dict[str, str] = {}  # local name -> module or module.member
        self.functions: dict[str, Taint] = {}
        self.returns: list[Taint] | None = None
        self.files: dict[str, Taint] = files if files is not None else facts.files if facts.files is not None else {}
        self.urls: list[tuple[str, int, int]] = []
        self.consumed: set[int] = set()
        self.choices: dict[str, tuple[str, ...]] = {}  # names that take several spelled values
        self.endpoints: dict[str, str] = {}  # names bound to a request, a socket or a mail transport: the peer
        self.spelled = 0  # values tried for names with several, in this unit (MAX_SPELLED)

    # -- recording -------------------------------------------------------------------------

    def text(self, node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def row(self, node) -> int:
        return self.fixed_row if self.fixed_row is not None else node.start_point[0] + self.row_offset

    def use(self, kind: str, value: str, node, detail: str = "", sensitive: str = "") -> None:
        self.facts.use(kind, value, self.row(node), detail, sensitive)

    def source(self, kind: str, label: str, node, host: str = "", url: str = "") -> Taint:
        src = Source(kind, self.facts.label(label), self.facts.line(self.row(node)), host, url=url)
        self.facts.sources.append(src)
        return frozenset({src})

    def sink(self, kind: str, node, taint: Taint, target: str = "", runs: bool = False, channel: str = "") -> Sink:
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

    def walk(self, node, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        kind = node.type
        if kind in ("import_statement",):
            self.imports(node)
            return
        if kind in ("function_declaration", "generator_function_declaration", "method_definition"):
            self.function(node, depth)
            return
        if kind == "return_statement":
            taint = CLEAN
            for child in node.named_children:
                taint = taint | self.expr(child, depth + 1)
            if self.returns is not None:
                self.returns.append(taint)
            return
        if kind == "variable_declarator":
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if value is not None and name is not None:
                taint = self.expr(value, depth + 1)
                self.bind(name, value, taint)
            return
        if kind == "expression_statement":
            for child in node.named_children:
                self.expr(child, depth + 1)
            return
        if kind == "for_in_statement":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None:
                taint = self.expr(right, depth + 1)
                self.loop_values(left, right, taint)
            body = node.child_by_field_name("body")
            if body is not None:
                self.walk(body, depth + 1)
            return
        if kind in ("comment", "string", "template_string", "jsx_text"):
            if kind != "comment":
                self.expr(node, depth + 1)
            return
        if node.is_named and kind.endswith("expression") and kind not in ("parenthesized_expression",):
            self.expr(node, depth + 1)
            return
        for child in node.named_children:
            self.walk(child, depth + 1)

    def function(self, node, depth: int) -> None:
        name = node.child_by_field_name("name")
        saved = self.returns
        self.returns = []
        body = node.child_by_field_name("body")
        if body is not None:
            self.walk(body, depth + 1)
        if name is not None:
            self.functions[self.text(name)] = frozenset().union(*self.returns) if self.returns else CLEAN
        self.returns = saved

    def imports(self, node) -> None:
        source = node.child_by_field_name("source")
        module = self.string(source) if source is not None else None
        if not module:
            return
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    self.aliases[self.text(part)] = module
                elif part.type == "namespace_import":
                    for ident in part.named_children:
                        self.aliases[self.text(ident)] = module
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        name = spec.child_by_field_name("name")
                        alias = spec.child_by_field_name("alias") or name
                        if name is not None and alias is not None:
                            self.aliases[self.text(alias)] = f"{module}.{self.text(name)}"

    def loop_values(self, left, right, taint: Taint) -> None:
        """`for (const p of paths)`: the loop variable takes each spelled value of the list."""
        while left.type in ("lexical_declaration", "variable_declaration") and left.named_children:
            left = left.named_children[0]
        if left.type == "variable_declarator":
            left = left.child_by_field_name("name") or left
        if left.type != "identifier":
            return
        ident = self.text(left)
        self.variables[ident] = taint
        values = self.strings(right)
        if values:
            self.choices[ident] = values
            self.constants[ident] = max(values, key=lambda n: bool(classify.path_sensitivity(n)))

    def strings(self, node) -> tuple[str, ...]:
        """The spelled strings of an array literal (or of the name bound to one), at most MAX_CHOICES."""
        if node is None:
            return ()
        if node.type == "identifier":
            return self.choices.get(self.text(node), ())
        if node.type != "array":
            return ()
        found = (self.literal(e) for e in node.named_children[: 4 * MAX_CHOICES])
        return tuple(dict.fromkeys(v for v in found if v))[:MAX_CHOICES]

    def bind(self, name, value, taint: Taint) -> None:
        if name.type == "identifier":
            ident = self.text(name)
            self.variables[ident] = taint
            literal = self.literal(value)
            if literal is not None:
                self.constants[ident] = literal
            else:
                self.constants.pop(ident, None)
            values = self.strings(value) if value.type == "array" else ()
            if values:
                self.choices[ident] = values
            else:
                self.choices.pop(ident, None)
            peer = self.peer(value)
            if peer is not None:
                self.endpoints[ident] = peer
            module = self.required(value)
            if module:
                self.aliases[ident] = module
            elif value.type in ("arrow_function", "function_expression", "function"):
                saved = self.returns
                self.returns = []
                body = value.child_by_field_name("body")
                if body is not None:
                    if body.type == "statement_block":
                        self.walk(body, 1)
                    else:
                        self.returns.append(self.expr(body, 1))
                self.functions[ident] = frozenset().union(*self.returns) if self.returns else CLEAN
                self.returns = saved
        elif name.type in ("object_pattern", "array_pattern"):
            module = self.required(value)
            for part in name.named_children:
                target = part
                key = part
                if part.type == "pair_pattern":
                    key = part.child_by_field_name("key")
                    target = part.child_by_field_name("value")
                if target is None or key is None:
                    continue
                ident = self.text(target)
                self.variables[ident] = taint
                if module:
                    self.aliases[ident] = f"{module}.{self.text(key)}"
                elif self.text(value) in ("process.env",) and part.type in (
                    "shorthand_property_identifier_pattern", "pair_pattern"
                ):  # fmt: skip
                    self.variables[ident] = self.env_read(self.text(key), part)

    def required(self, node) -> str | None:
        """`require('fs')` (or `await import('fs')`): the module's name."""
        while node is not None and node.type in ("await_expression", "parenthesized_expression"):
            node = node.named_children[0] if node.named_children else None
        if node is None or node.type != "call_expression":
            return None
        function = node.child_by_field_name("function")
        if function is None or self.text(function) not in ("require", "import"):
            return None
        arguments = node.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        return self.string(first) if first is not None else None

    # -- literals --------------------------------------------------------------------------

    def string(self, node) -> str | None:
        if node is None:
            return None
        if node.type == "string":
            return "".join(
                self.text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence")
            )
        return None

    def literal(self, node, depth: int = 0) -> str | None:
        if node is None or depth > 12:
            return None
        kind = node.type
        if kind == "string":
            return self.string(node)
        if kind == "template_string":
            out = []
            for child in node.named_children:
                if child.type == "string_fragment":
                    out.append(self.text(child))
                elif child.type == "template_substitution":
                    inner = child.named_children[0] if child.named_children else None
                    value = self.literal(inner, depth + 1)
                    out.append(value if value is not None else "*")
            text = "".join(out)
            return text if text.strip("*") else None
        if kind == "identifier":
            return self.constants.get(self.text(node))
        if kind == "binary_expression":
            left = self.literal(node.child_by_field_name("left"), depth + 1)
            right = self.literal(node.child_by_field_name("right"), depth + 1)
            return left + right if left is not None and right is not None else None
        if kind == "parenthesized_expression" and node.named_children:
            return self.literal(node.named_children[0], depth + 1)
        if kind == "call_expression":
            qual = self.qualname(node.child_by_field_name("function"))
            args = self.arguments(node)
            if qual in ("os.homedir", "node:os.homedir", "os.homedir") or qual.endswith(".homedir"):
                return "~"
            if qual.endswith("tmpdir"):
                return "/tmp"
            if qual.endswith(("path.join", "path.resolve", "node:path.join", "node:path.resolve")) or qual in (
                "path.join", "path.resolve", "join", "resolve"
            ):  # fmt: skip
                pieces = [self.literal(a, depth + 1) for a in args]
                if not pieces or any(p is None for p in pieces):
                    return None
                return "/".join(p.rstrip("/") if i < len(pieces) - 1 else p for i, p in enumerate(pieces))
            if qual in ("String",) and args:
                return self.literal(args[0], depth + 1)
        if kind == "member_expression" and self.text(node) in ("process.env.HOME", "process.env.USERPROFILE"):
            return "~"
        return None

    def qualname(self, node) -> str:
        if node is None:
            return ""
        text = self.text(node)
        if len(text) > 200:
            return ""
        text = re.sub(r"\s+", "", text).replace("?.", ".")
        text = _REQUIRED.sub(r"\1.", text, count=1)  # `require('https').request`: the module's own name
        head, dot, rest = text.partition(".")
        base = head.split("(", 1)[0].split("[", 1)[0]
        if base in self.aliases and head == base:
            head = self.aliases[base]
        return f"{head}{dot}{rest}"

    def arguments(self, node) -> list:
        arguments = node.child_by_field_name("arguments")
        if arguments is None:
            return []
        if arguments.type == "template_string":
            return [arguments]
        return [c for c in arguments.named_children if c.type != "comment"]

    # -- expressions -----------------------------------------------------------------------

    def expr(self, node, depth: int) -> Taint:
        if node is None or depth > MAX_DEPTH:
            return CLEAN
        kind = node.type
        if kind in ("string", "template_string"):
            taint = CLEAN
            text = self.text(node)
            if "://" in text and len(text) < 2000:
                for match in URL.finditer(text):
                    self.urls.append((match.group(0).rstrip("`'\"$"), self.row(node), node.id))
            for child in node.named_children:
                if child.type == "template_substitution":
                    taint = taint | self.expr(child, depth + 1)
            return taint
        if kind in ("identifier", "shorthand_property_identifier"):
            return self.variables.get(self.text(node), CLEAN)
        if kind in ("member_expression", "subscript_expression"):
            return self.member(node, depth)
        if kind in ("call_expression", "new_expression"):
            return self.call(node, depth)
        if kind in ("arrow_function", "function_expression", "function"):
            saved = self.returns
            self.returns = []
            body = node.child_by_field_name("body")
            if body is not None:
                if body.type == "statement_block":
                    self.walk(body, depth + 1)
                else:
                    self.returns.append(self.expr(body, depth + 1))
            returned = frozenset().union(*self.returns) if self.returns else CLEAN
            self.returns = saved
            return returned  # a callback's result: what `paths.map(p => fs.readFileSync(p))` holds
        if kind == "assignment_expression" or kind == "augmented_assignment_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            taint = self.expr(right, depth + 1)
            if left is not None and left.type == "identifier":
                previous = self.variables.get(self.text(left), CLEAN) if kind.startswith("augmented") else CLEAN
                self.variables[self.text(left)] = previous | taint
                if right is not None and kind == "assignment_expression":
                    literal = self.literal(right)
                    if literal is not None:
                        self.constants[self.text(left)] = literal
            elif left is not None and left.type in ("member_expression", "subscript_expression"):
                base = left
                while base.type in ("member_expression", "subscript_expression") and base.named_children:
                    base = base.named_children[0]
                if base.type == "identifier":
                    name = self.text(base)
                    self.variables[name] = self.variables.get(name, CLEAN) | taint
            return taint
        if kind == "pair":
            key = node.child_by_field_name("key")
            value = node.child_by_field_name("value")
            if key is not None and self.text(key).strip("'\"") == "env" and value is not None:
                return CLEAN  # a child's environment, not a read of it
            return self.expr(value, depth + 1)
        if kind == "spread_element" and self.text(node).replace(" ", "") == "...process.env":
            parent = node.parent.parent if node.parent is not None else None
            if parent is not None and parent.type == "pair":
                return CLEAN
        taint = CLEAN
        for child in node.named_children:
            taint = taint | self.expr(child, depth + 1)
        return taint

    def member(self, node, depth: int) -> Taint:
        text = re.sub(r"\s+", "", self.text(node))
        for prefix in ("process.env", "Bun.env", "import.meta.env"):
            if text == prefix:
                parent = node.parent
                if parent is not None and parent.type in ("member_expression", "subscript_expression"):
                    return CLEAN
                if parent is not None and parent.type == "pair":
                    key = parent.child_by_field_name("key")
                    if key is not None and self.text(key).strip("'\"") == "env":
                        return CLEAN
                self.facts.environment_dump(self.row(node))
                return self.source(ENV_DUMP, f"reads the whole environment ({prefix})", node)
            if text.startswith(prefix + ".") and node.type == "member_expression":
                prop = node.child_by_field_name("property")
                obj = node.child_by_field_name("object")
                if obj is not None and re.sub(r"\s+", "", self.text(obj)) == prefix and prop is not None:
                    return self.env_read(self.text(prop), node)
            if text.startswith(prefix + "[") and node.type == "subscript_expression":
                index = node.child_by_field_name("index")
                obj = node.child_by_field_name("object")
                if obj is not None and re.sub(r"\s+", "", self.text(obj)) == prefix:
                    return self.env_read(self.literal(index), node)
        taint = CLEAN
        for child in node.named_children:
            if child.type not in ("property_identifier", "private_property_identifier"):
                taint = taint | self.expr(child, depth + 1)
        return taint

    def env_read(self, name: str | None, node) -> Taint:
        if not name:
            return CLEAN
        self.use(ENV, name, node, "read")
        sensitivity = classify.env_sensitivity(name)
        if sensitivity == classify.WALLET_KEY:
            return self.source(WALLET_KEY, f"reads the wallet key ${name}", node)
        if sensitivity:
            return self.source(SECRET, f"reads the secret ${name}", node)
        return CLEAN

    def call(self, node, depth: int) -> Taint:
        function = node.child_by_field_name("function") or node.child_by_field_name("constructor")
        qual = self.qualname(function)
        short = qual.rsplit(".", 1)[-1]
        module = qual.rsplit(".", 1)[0] if "." in qual else ""
        args = self.arguments(node)
        obj = function.child_by_field_name("object") if function is not None and function.type == (
            "member_expression") else None  # fmt: skip
        picked = self.callback(obj, short, args)
        arg_taints = [self.expr(a, depth + 1) for a in args]
        every = frozenset().union(*arg_taints) if arg_taints else CLEAN
        receiver = CLEAN
        if obj is not None:
            receiver = self.expr(obj, depth + 1)
        elif function is not None and function.type not in ("identifier", "import", "super"):
            receiver = self.expr(function, depth + 1)  # `new Function(x)()`, `(await load())()`
        taint = every | receiver | picked
        if qual in ("Deno.env.get", "Bun.env.get"):
            return self.env_read(self.literal(args[0]) if args else None, node)
        sent = self.channel_call(node, obj, short, args, every)
        if sent is not None:
            return sent
        module_of = self.aliases.get(qual.split(".", 1)[0], qual.split(".", 1)[0])
        resolver = qual.rsplit(".", 1)[0] in _DNS or module_of in _DNS or module_of.rsplit(".", 1)[0] in _DNS
        if resolver and short in _DNS_CALLS and args and (arg_taints[0] or "*" in (self.literal(args[0]) or "")):
            return self.lookup_sends(node, args[0], arg_taints[0])
        if (module_of in _GLOB_MODULES or qual in ("globSync", "glob.sync", "fg.sync")) and args:
            pattern = self.literal(args[0])
            if pattern:
                return taint | self.found(pattern, node)
        if module in _FS_MODULES or qual.startswith(("fs.", "fsp.", "fs.promises.", "fse.")) or (
            qual in self.aliases.values() and qual.split(".", 1)[0] in _FS_MODULES
        ):  # fmt: skip
            return self.fs(node, short, args, arg_taints, taint)
        if short in _FS_READ | _FS_WRITE | _FS_DELETE | _FS_LIST | _FS_COPY and qual == short:
            original = self.aliases.get(short, "")
            if original.split(".", 1)[0] in _FS_MODULES:
                return self.fs(node, short, args, arg_taints, taint)
        if module in _CHILD or qual.split(".", 1)[0] in _CHILD:
            return self.child(node, short, args, arg_taints, taint)
        if qual in ("execa", "execa.execa", "execaSync", "execaCommand", "execaCommandSync", "$") or \
                self.aliases.get(qual, "").startswith(("execa", "zx")):  # fmt: skip
            return self.child(
                node, "execSync" if "Command" in qual or qual == "$" else "spawn", args, arg_taints, taint
            )
        network = self.network(node, qual, short, args, arg_taints, taint)
        if network is not None:
            return network
        if short == "goto" or qual in ("window.open", "shell.openExternal", "open", "opn") or self.aliases.get(
            qual, ""
        ) in ("open", "opn"):  # fmt: skip
            url = self.literal(args[0]) if args else None
            if args:
                self.consumed.add(args[0].id)
            host = url_host(url) if url and "://" in url else None
            if host:
                self.use(HOST, host, node, "open")
            return CLEAN
        if qual in ("eval", "Function", "vm.runInNewContext", "vm.runInThisContext", "vm.runInContext", "vm.Script",
                    "vm.compileFunction", "require", "import", "setTimeout", "setInterval"):  # fmt: skip
            first = args[0] if args else None
            kind = first.type if first is not None else ""
            if qual in ("setTimeout", "setInterval", "require", "import"):
                # a string of code, not a function or a module name: only text built at run time counts
                runtime = (
                    kind == "binary_expression"
                    or (
                        kind == "template_string"
                        and any(c.type == "template_substitution" for c in first.named_children)
                    )
                    or (kind == "identifier" and qual in ("require", "import"))
                )
            else:
                runtime = first is not None and kind != "string"
            if runtime:
                self.use(PROCESS, qual, node, "eval")
                self.sink(EXEC, node, arg_taints[0] if arg_taints else CLEAN, qual)
            if qual in ("require", "import") and first is not None:
                module = self.literal(first)  # a file written here and loaded as a module runs what was written
                written = self.files.get(classify.normal_path(module), CLEAN) if module else CLEAN
                if written:
                    self.sink(EXEC, node, written, module or qual)
            return taint if qual in ("require", "import") else CLEAN
        if qual in ("Buffer.from", "atob", "Buffer.alloc") or (qual.startswith("zlib.") and "Sync" in qual and (
            "inflate" in qual or "gunzip" in qual or "unzip" in qual or "Decompress" in qual
        )):  # fmt: skip
            encoding = self.literal(args[1]) if len(args) > 1 else None
            if qual == "atob" or qual.startswith("zlib.") or (encoding or "").lower() in ("base64", "hex", "base64url"):
                return taint | self.source(DECODED, f"decodes data ({qual})", node)
            return taint
        if (
            module in ("os", "node:os") or self.aliases.get(module, "") in ("os", "node:os")
        ) and short in _SYSTEM_FACTS:
            return taint | self.source(SYSTEM_FACTS, f"collects system facts ({qual})", node)
        if qual.startswith("clipboardy.") or qual.startswith(("clipboard.read", "navigator.clipboard.read")):
            return taint | self.source(COLLECTED, "collects the clipboard", node)
        if qual in ("screenshot", "screenshotDesktop") or self.aliases.get(qual, "") == "screenshot-desktop":
            return taint | self.source(COLLECTED, "collects a screenshot", node)
        name = self.text(function) if function is not None and function.type == "identifier" else ""
        if name in self.functions:
            return taint | self.functions[name]
        return sanitised(taint, qual)

    # -- spelled values, channels ------------------------------------------------------------

    def spellings(self, node) -> list[str]:
        """Every string `node` may spell: `literal`, with a name that takes several values tried in turn."""
        if node is None:
            return []
        several: list[str] = []
        stack, seen = [node] if self.spelled < MAX_SPELLED else [], 0
        while stack and seen < 100:
            current = stack.pop()
            seen += 1
            if current.type == "identifier" and len(self.choices.get(self.text(current), ())) > 1:
                several.append(self.text(current))
                break
            stack.extend(current.named_children)
        if not several:
            text = self.literal(node)
            return [text] if text else []
        name = several[0]
        saved = self.constants.get(name)
        out: list[str] = []
        try:
            for value in self.choices[name]:
                self.constants[name] = value
                text = self.literal(node)
                if text and text not in out:
                    out.append(text)
        finally:
            if saved is None:
                self.constants.pop(name, None)
            else:
                self.constants[name] = saved
        self.spelled += len(out)
        return out[:MAX_CHOICES]

    def read_from(self, node, at, record_all: bool = True) -> Taint:
        """What reading the file(s) `node` names yields: what was written there, a credential file's contents."""
        taint = CLEAN
        for path in self.spellings(node):
            if "://" in path:
                continue
            secret = classify.secret_label(path, self.facts.own)
            if record_all or secret:
                self.use(PATH, path, at, "read")
            taint = taint | self.file_taint(path, at)
        return taint

    def found(self, pattern: str, node) -> Taint:
        """A glob or listing: what it finds names wallet or credential files when its pattern says so."""
        self.use(PATH, pattern, node, "list")
        label = classify.secret_label(pattern, self.facts.own)
        if label:
            return self.source(SECRET_FILE, f"finds {classify.normal_path(pattern)} ({label})", node)
        if classify.is_home(pattern):
            return self.source(COLLECTED, f"lists {classify.normal_path(pattern)}", node)
        return CLEAN

    def callback(self, obj, short: str, args: list) -> Taint:
        """`paths.forEach(p => ...)`: the callback's parameter takes each spelled value of the list; a filter
        whose test names wallet or key files (`f => f.endsWith('.keystore')`) keeps what names them."""
        if short == "readFile" and args and args[-1].type in ("arrow_function", "function_expression"):
            parameters = args[-1].child_by_field_name("parameters")
            names = [c for c in parameters.named_children if c.type == "identifier"] if parameters is not None else []
            if len(names) > 1:  # `fs.readFile(path, (err, data) => ...)`: data is the file
                self.variables[self.text(names[1])] = self.read_from(args[0], args[0], record_all=False)
            return CLEAN
        if short not in _LOOP_CALLBACKS or not args or args[0].type not in ("arrow_function", "function_expression"):
            return CLEAN
        values = self.strings(obj) if obj is not None else ()
        parameters = args[0].child_by_field_name("parameters") or args[0].child_by_field_name("parameter")
        first = parameters if parameters is not None and parameters.type == "identifier" else next(
            (c for c in (parameters.named_children if parameters is not None else []) if c.type == "identifier"),
            None)  # fmt: skip
        if first is not None and values:
            name = self.text(first)
            self.choices[name] = values
            self.constants[name] = max(values, key=lambda n: bool(classify.path_sensitivity(n)))
        if short not in ("filter", "find"):
            return CLEAN
        body = self.text(args[0])[:2000]
        for fragment in re.findall(r"""['"`]([^'"`\n]{1,100})['"`]""", body)[:8]:
            pattern, label = classify.name_pattern(fragment)
            if pattern:
                self.use(PATH, pattern, args[0], "list")
                return self.source(SECRET_FILE, f"picks out files named {pattern} ({label})", args[0])
        return CLEAN

    def peer(self, node) -> str | None:
        """The host a request, socket, websocket or mail transport made here talks to ("" when not spelled);
        None when `node` makes none of them."""
        while node is not None and node.type in ("await_expression", "parenthesized_expression"):
            node = node.named_children[0] if node.named_children else None
        if node is None or node.type not in ("call_expression", "new_expression"):
            return None
        function = node.child_by_field_name("function") or node.child_by_field_name("constructor")
        qual = self.qualname(function)
        short = qual.rsplit(".", 1)[-1]
        root = qual.split(".", 1)[0]
        module = self.aliases.get(root, root)
        args = self.arguments(node)
        first = args[0] if args else None
        if module in ("http", "https", "node:http", "node:https") and short in ("request", "get"):
            return self.option_host(first)
        if module in _NET and short in ("connect", "createConnection"):
            return self.option_host(args[1] if len(args) > 1 else first)
        if (module in _NET and short == "Socket") or qual == "WebSocket" or module in ("ws", "isomorphic-ws"):
            return self.option_host(first) if short != "Socket" else ""
        if short == "createTransport":
            return self.option_host(first)
        return None

    def option(self, node, name: str) -> str | None:
        """The spelled value of `name` in an options object, or None."""
        for pair in node.named_children if node is not None and node.type == "object" else []:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            if key is not None and self.text(key).strip("'\"`") == name:
                return self.literal(pair.child_by_field_name("value"))
        return None

    def option_host(self, node) -> str:
        """The host an address or an options object (`{hostname: 'x', ...}`, `{host: 'x'}`) names, or ""."""
        if node is None:
            return ""
        if node.type == "object":
            for pair in node.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                if key is not None and self.text(key).strip("'\"") in ("hostname", "host"):
                    return self.option_host(pair.child_by_field_name("value"))
            return ""
        text = self.literal(node) or ""
        host = classify.host_of_pieces(text) if "://" in text else text.split(":", 1)[0]
        return (host or "").lower() if host and "*" not in host and "." in host else ""

    def channel_call(self, node, obj, short: str, args: list, every: Taint) -> Taint | None:
        """`req.write(data)`, `socket.end(data)`, `ws.send(data)`, `transport.sendMail(message)`: a send to the
        peer the request, socket or transport was made for (`https.request({...}).end(data)` too)."""
        if obj is None or short not in ("write", "end", "send", "sendMail", "connect"):
            return None
        peer = self.endpoints.get(self.text(obj)) if obj.type == "identifier" else self.peer(obj)
        if peer is None:
            return None
        if short == "connect":
            host = self.option_host(args[1] if len(args) > 1 else args[0] if args else None)
            if host and obj.type == "identifier":
                self.endpoints[self.text(obj)] = host
                self.use(HOST, host, node, "send")
            return CLEAN
        content = every
        if short == "sendMail" and args:
            content = content | self.attachments(args[0])
        if peer:
            self.use(HOST, peer, node, "send")
        sink = self.sink(SEND, node, content, peer)
        if args:
            self.facts.sends.append(sink)
        return CLEAN

    def attachments(self, message) -> Taint:
        """The files a mail message attaches (`attachments: [{path: ...}]`): read and sent with it."""
        taint = CLEAN
        stack, seen = [message], 0
        while stack and seen < 200:
            current = stack.pop()
            seen += 1
            if current.type == "pair":
                key = current.child_by_field_name("key")
                if key is not None and self.text(key).strip("'\"") == "path":
                    taint = taint | self.read_from(current.child_by_field_name("value"), current)
                    continue
            stack.extend(current.named_children)
        return taint

    def lookup_sends(self, node, name, taint: Taint) -> Taint:
        """A name built from data and looked up: the data goes to whoever serves the domain it ends in."""
        while name.type == "binary_expression" and self.literal(name) is None:
            right = name.child_by_field_name("right")
            if right is None:
                break
            name = right
        text = self.literal(name) or ""
        domain = re.sub(r"^.*\*", "", text).lstrip(".").lower()
        domain = domain if "." in domain else ""
        if domain:
            self.use(HOST, domain, node, "send")
        sink = self.sink(SEND, node, taint, domain, channel="dns")
        self.facts.sends.append(sink)
        return CLEAN

    # -- files -----------------------------------------------------------------------------

    def file_taint(self, path: str, node) -> Taint:
        normal = classify.normal_path(path)
        taint = self.files.get(normal, CLEAN)
        label = classify.secret_label(normal, self.facts.own)
        if label:
            taint = taint | self.source(SECRET_FILE, f"reads {normal} ({label})", node)
        return taint

    def fs(self, node, short: str, args: list, arg_taints: list[Taint], taint: Taint) -> Taint:
        path = self.literal(args[0]) if args else None
        if short in _FS_READ:
            return taint | self.read_from(args[0] if args else None, node)
        if short in _FS_LIST and path and classify.secret_label(path, self.facts.own):
            return self.found(path, node)
        if short in _FS_WRITE:
            if path:
                content_node = args[1] if len(args) > 1 else None
                content = self.literal(content_node) if content_node is not None else None
                written = arg_taints[1] if len(arg_taints) > 1 else CLEAN
                self.write(path, node, written, content or "", content is not None or content_node is None)
            elif args and args[0].type == "identifier" and len(arg_taints) > 1:
                key = f"${self.text(args[0])}"  # a path we cannot spell: remembered by its variable
                self.files[key] = self.files.get(key, CLEAN) | arg_taints[1]
            return CLEAN
        if short in _FS_DELETE and path:
            self.use(PATH, path, node, "delete")
            return CLEAN
        if short in _FS_LIST and path:
            self.use(PATH, path, node, "list")
            if classify.is_home(path):
                return self.source(COLLECTED, f"lists {classify.normal_path(path)}", node)
            return CLEAN
        if short in _FS_COPY and len(args) > 1:
            destination = self.literal(args[1])
            copied = CLEAN
            if path:
                self.use(PATH, path, node, "read")
                copied = self.file_taint(path, node)
            if destination:
                self.write(destination, node, copied, "", literal=False, copy=True)
            return CLEAN
        if short in ("chmodSync", "chmod") and path:
            return CLEAN
        return taint

    def write(self, path: str, node, taint: Taint, content: str, literal: bool = True, copy: bool = False) -> None:
        self.use(PATH, path, node, "write")
        normal = classify.normal_path(path)
        self.files[normal] = self.files.get(normal, CLEAN) | taint
        self.facts.persistence(path, self.row(node), taint, content, literal, copy)

    # -- network ---------------------------------------------------------------------------

    def network(self, node, qual: str, short: str, args: list, arg_taints: list[Taint], taint: Taint) -> Taint | None:
        root = qual.split(".", 1)[0]
        root_module = self.aliases.get(root, root)
        detail: str | None = None
        url_node = args[0] if args else None
        named = ""  # the host an options object names (`https.request({hostname: ...})`)
        if qual in ("fetch", "globalThis.fetch", "window.fetch", "nodeFetch") or self.aliases.get(qual) == "node-fetch":
            detail = "fetch"
            options = args[1] if len(args) > 1 else None
            if options is not None and options.type == "object":
                for pair in options.named_children:
                    if pair.type != "pair":
                        continue
                    key = self.text(pair.child_by_field_name("key")).strip("'\"")
                    value = pair.child_by_field_name("value")
                    if key == "body" or (key == "method" and (self.literal(value) or "GET").upper() in (
                            "POST", "PUT", "PATCH", "DELETE")):  # fmt: skip
                        detail = "send"
        elif root_module in ("axios", "got", "ky", "superagent", "needle", "undici") or qual in ("axios", "got"):
            if qual == root and args and args[0].type == "object":
                detail = "send" if re.search(r"\b(?:data|body|json)\s*:", self.text(args[0])) else "fetch"
                url_node = next((p.child_by_field_name("value") for p in args[0].named_children if p.type == "pair"
                                 and self.text(p.child_by_field_name("key")).strip("'\"") == "url"), None)  # fmt: skip
            else:
                detail = "send" if short in _HTTP_SEND else "fetch"
        elif root_module in ("http", "https", "node:http", "node:https") and short in ("request", "get"):
            detail = "fetch"
            options = args[1] if len(args) > 1 and args[1].type == "object" else url_node
            if short == "request" and options is not None and options.type == "object":
                method = self.option(options, "method")
                detail = "send" if (method or "GET").upper() in ("POST", "PUT", "PATCH", "DELETE") else "fetch"
            elif short == "request":
                detail = "send"
            if url_node is not None and url_node.type == "object":
                url_node = None
                named = self.option_host(args[0])
        elif (
            qual in ("WebSocket", "ws", "io")
            or root_module in ("ws", "socket.io-client")
            or qual == "navigator.sendBeacon"
            or (root_module in ("net", "node:net", "tls") and short in ("connect", "createConnection"))
        ):
            detail = "send"
        else:
            return None
        url = self.literal(url_node) if url_node is not None else None
        if url_node is not None:
            self.consumed.add(url_node.id)
            if url_node.type == "identifier" and url_node.id is not None:
                value = self.constants.get(self.text(url_node), "")
                for url_text, _row, ident in self.urls:
                    if value and (url_text in value or value in url_text):
                        self.consumed.add(ident)
        host = (classify.host_of_pieces(url) if url and "://" in url else None) or named or None
        if host:
            self.use(HOST, host, node, detail)
        sink = self.sink(SEND, node, taint, host or "")
        if detail == "send":
            self.facts.sends.append(sink)
        fetched = self.source(FETCHED, fetch_label(host or "", url or ""), node, host or "", url or "")
        if host and geolocation_service(host):
            fetched = fetched | self.source(COLLECTED, f"looks up the machine's location ({host})", node)
        return taint | fetched

    # -- child processes -------------------------------------------------------------------

    def child(self, node, short: str, args: list, arg_taints: list[Taint], taint: Taint) -> Taint:
        first = args[0] if args else None
        command: str | None = None
        program = ""
        detached = any(re.search(r"\bdetached\s*:\s*true\b", self.text(a)) for a in args[1:])
        if short in _CHILD_STRING:
            text = self.literal(first)
            if text is None or "*" in text:
                self.use(PROCESS, f"child_process.{short}", node, "eval")
                self.sink(EXEC, node, arg_taints[0] if arg_taints else CLEAN, f"child_process.{short}")
            if text is not None:
                command = text.replace("*", "$JSVAR")
        elif short in _CHILD_ARGV or short == "spawn":
            program = self.literal(first) or ""
            rest: list[str] = []
            if len(args) > 1 and args[1].type == "array":
                rest = [self.literal(e) or "$JSVAR" for e in args[1].named_children]
            if program:
                command = " ".join(_quote(p) for p in [program, *rest])
            elif first is not None and first.type == "identifier":
                written = self.files.get(f"${self.text(first)}", CLEAN) | (arg_taints[0] if arg_taints else CLEAN)
                self.sink(EXEC, node, written, self.text(first))
            if short == "fork" and program:
                command = f"node {_quote(program)}"
        program = program or (command or "").split(" ", 1)[0]
        self.use(PROCESS, program.rsplit("/", 1)[-1] or f"child_process.{short}", node,
                 "background" if detached else "spawn")  # fmt: skip
        output = CLEAN
        if command:
            output = shell.analyse(self.facts, command, self.row(node), 0, 1, CLEAN, self.files)
        return output | taint


def _quote(text: str) -> str:
    if text == "$JSVAR" or re.fullmatch(r"[\w@%+=:,./~-]+", text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"

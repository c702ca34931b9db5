"""JavaScript and TypeScript scripts and fences, read with tree-sitter: uses and flows, never run.

The same def-use taint as the Python reader, over the tree-sitter syntax tree: declarations and
assignments bind what their value may hold (template strings, concatenation, objects, and calls
such as JSON.stringify or Buffer.from carry it along); a method fed a value keeps it (`found.push(p)`,
`form.append(k, v)`); a function's returns are remembered for later calls by name, and what it adds to
a parameter (`walk(dir, found)`) is added to the name a call passes there. Variables are not scoped per
block: a name bound anywhere in the unit holds the union of its values, which over-approximates (never
misses) a link inside one file.
`os.homedir()`, `process.env.HOME` and `USERPROFILE` spell `~`. Arrays and objects of paths keep their
spelled values through spreads, `Object.values`, `map` and globs, so a loop or a callback over them
reads each; a test that picks out wallet or key files by name (`includes`, `endsWith`, `===`, a
regular expression, a predicate helper) marks what the branch it guards collects, unless the test is
negated or the branch only skips. Archives (archiver, adm-zip, jszip, tar, `zip` run as a command) hold
what they pack and hand it to the file, buffer, request or socket they are written to. Requests,
sockets, websockets, form submissions, bucket uploads and mail transports are sends to the peer they
were made for (`https.request({hostname}).end(data)`); DNS names built from data are sends to their
domain. Commands handed to child_process/execa are read by the shell reader on the line that runs them.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field

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
    locating_host,
    sanitised,
    spelled_each,
)
from registry.score.code.treesitter import parser
from registry.score.vocabulary import URL, url_host

MAX_DEPTH = 150
_FS_READ = {"readFileSync", "readFile", "createReadStream", "openSync", "readJson", "readJsonSync", "readJSON"}
_FS_WRITE = {"writeFileSync", "writeFile", "appendFileSync", "appendFile", "createWriteStream", "outputFile",
             "outputFileSync", "writeJson", "writeJsonSync"}  # fmt: skip
_FS_DELETE = {"unlinkSync", "unlink", "rmSync", "rm", "rmdirSync", "rmdir", "remove", "removeSync"}
_FS_LIST = {"readdirSync", "readdir", "opendir", "opendirSync", "globSync", "glob"}
_FS_COPY = {"copyFileSync", "copyFile", "cpSync", "cp", "renameSync", "rename", "copy", "copySync", "move",
            "symlinkSync", "symlink"}  # fmt: skip
_FS_CALLS = _FS_READ | _FS_WRITE | _FS_DELETE | _FS_LIST | _FS_COPY
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
_ARCHIVE_MODULES = ("archiver", "adm-zip", "jszip")
_ARCHIVE_ADDS = {"addLocalFile", "addLocalFolder", "addLocalFolderAsync", "addLocalFolderPromise", "addFile", "file",
                 "directory", "append", "glob"}  # fmt: skip
_ARCHIVE_FOLDERS = {"directory", "addLocalFolder", "addLocalFolderAsync", "addLocalFolderPromise"}
_ARCHIVE_OUTPUTS = {"toBuffer", "toBufferPromise", "generateAsync", "generateNodeStream", "generate",
                    "generateInternalStream"}  # fmt: skip
_LOOP_CALLBACKS = {"forEach", "map", "flatMap", "filter", "some", "every", "find", "findLast", "findIndex", "reduce"}
_PICKERS = {"filter", "find", "findLast"}  # callbacks whose test decides which elements come back
# Calls that test a name: what they compare it with says which files a branch keeps.
_TESTS = {"includes", "endsWith", "startsWith", "test", "has", "some", "every", "match", "indexOf", "lastIndexOf",
          "search", "exec", "find", "findIndex", "localeCompare", "isMatch"}  # fmt: skip
_BOOLEAN_TESTS = {"includes", "endsWith", "startsWith", "test", "has", "some", "every", "match", "isMatch"}
_JUMPS = ("continue_statement", "break_statement", "return_statement", "throw_statement")
# Built-in objects: a method called on one (`JSON.stringify(x)`) does not make it hold its argument.
_GLOBALS = frozenset({"JSON", "Object", "Math", "Promise", "Array", "Buffer", "Reflect", "Number", "String", "Date",
                      "Symbol", "Map", "Set", "console", "process", "window", "document", "globalThis", "Intl",
                      "URL", "crypto", "Atomics", "Boolean", "RegExp", "Error", "require", "module",
                      "exports"})  # fmt: skip
_BUCKET_UPLOADS = {"PutObjectCommand", "UploadPartCommand", "Upload", "upload", "putObject"}
_WRAPPERS = ("await_expression", "parenthesized_expression", "as_expression", "non_null_expression",
             "satisfies_expression", "type_assertion")  # fmt: skip
_ENV_OBJECTS = ("process.env", "Bun.env", "import.meta.env")
_REQUIRED = re.compile(r"""^require\(['"]([\w@:/-]+)['"]\)\.""")
MAX_SPELLED = 2000  # values tried per unit, every read together; past it a name stands for its likeliest value
MAX_CHOICES = 16  # spelled values one name is remembered to take (a loop over a list of paths)
MAX_PICKED = 64  # file-name patterns a unit's tests are read for, each recorded once
MAX_TEST_NODES = 200  # syntax nodes of one test searched for the names it compares with
MAX_STORED = 200  # files written that a folder packed into an archive is searched for


@dataclass
class _Archive:
    """An archive being built: what it holds, and where it is written as it grows."""

    kind: str  # archiver, adm-zip or jszip
    content: Taint = CLEAN
    paths: list[str] = field(default_factory=list)  # files it is piped into
    peers: list[str] = field(default_factory=list)  # requests or sockets it is piped into (their host, or "")


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
        self.handles: dict[str, str] = {}  # names bound to a stream writing a file: its path
        self.archives: dict[str, _Archive] = {}  # names bound to an archive being built
        self.forms: set[str] = set()  # names bound to a form-data body (`form.submit(url)` sends it)
        self.regexes: dict[str, str] = {}  # names bound to a regular expression literal: its pattern
        self.env_keys: set[str] = set()  # names that take each environment variable's name in turn
        self.tested: dict[str, object] = {}  # names bound to a test's result: the test, read where it decides
        self.predicates: dict[str, object] = {}  # functions whose result may be such a test: their body
        self.deciding: set[str] = set()  # predicates being read (one that calls itself stops there)
        self.effects: dict[str, list[Taint]] = {}  # function -> what its body adds to each parameter
        self.picking: Taint = CLEAN  # inside a branch a name test guards: what passing it picked out
        self.picked: dict[str, Taint] = {}  # file-name pattern -> its source, recorded once per unit
        self.spelled_names: dict[int, tuple[str | None, str]] = {}  # node id -> `spelled_name` (qualname asks again)

    # -- recording -------------------------------------------------------------------------

    def text(self, node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def row(self, node) -> int:
        return self.fixed_row if self.fixed_row is not None else node.start_point[0] + self.row_offset

    def use(self, kind: str, value: str, node, detail: str = "", sensitive: str = "") -> None:
        self.facts.use(kind, value, self.row(node), detail, sensitive)

    def source(self, kind: str, label: str, node, host: str = "", address: str = "") -> Taint:
        src = Source(kind, self.facts.label(label), self.facts.line(self.row(node)), host, address=address)
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
            name = node.child_by_field_name("name")
            self.function(node, self.text(name) if name is not None else "", depth)
            return
        if kind == "return_statement":
            taint = self.picking
            for child in node.named_children:
                taint = taint | self.expr(child, depth + 1)
            if self.returns is not None:
                self.returns.append(taint)
            return
        if kind == "variable_declarator":
            name = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            if value is not None and name is not None:
                if name.type == "identifier" and value.type in ("arrow_function", "function_expression", "function"):
                    self.constants.pop(self.text(name), None)
                    self.choices.pop(self.text(name), None)
                    self.variables[self.text(name)] = self.function(value, self.text(name), depth)
                    return
                taint = self.expr(value, depth + 1)
                self.bind(name, value, taint)
            return
        if kind == "expression_statement":
            for child in node.named_children:
                self.expr(child, depth + 1)
            return
        if kind == "if_statement":
            self.branches(node, depth)
            return
        if kind in ("statement_block", "program"):
            saved = self.picking
            for child in node.named_children:
                self.walk(child, depth + 1)
                if child.type == "if_statement" and child.child_by_field_name("alternative") is None and _skips(
                        child.child_by_field_name("consequence")):  # fmt: skip
                    # `if (!isWallet(name)) continue;`: what follows runs for the names that fail the test
                    self.picking = self.picking | self.pick(child.child_by_field_name("condition"), False)
            self.picking = saved
            return
        if kind == "for_in_statement":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            if left is not None and right is not None:
                taint = self.expr(right, depth + 1)
                self.loop_values(left, right, taint, self.text(operator) if operator is not None else "of")
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

    def branches(self, node, depth: int) -> None:
        """An `if`: a branch that a test of a file's name guards collects what passes it (or, under `else`,
        what fails it); a branch that only skips collects nothing."""
        condition = node.child_by_field_name("condition")
        self.expr(condition, depth + 1)
        for branch, positive in ((node.child_by_field_name("consequence"), True),
                                 (node.child_by_field_name("alternative"), False)):  # fmt: skip
            if branch is None:
                continue
            statement = branch.named_children[0] if branch.type == "else_clause" and branch.named_children else branch
            picked = CLEAN if _skips(statement) or condition is None else self.pick(condition, positive)
            saved = self.picking
            self.picking = saved | picked
            self.walk(statement, depth + 1)
            self.picking = saved

    def function(self, node, name: str, depth: int) -> Taint:
        """A function's body, read once: what it returns, and what it adds to each parameter (`found.push(p)` in
        `walk(dir, found)`), added to the name a later call passes there."""
        parameters = self.parameters(node)
        before = {p: self.variables.get(p, CLEAN) for p in parameters if p}
        saved_returns, saved_picking = self.returns, self.picking
        self.returns, self.picking = [], CLEAN
        body = node.child_by_field_name("body")
        if body is not None:
            if body.type == "statement_block":
                self.walk(body, depth + 1)
            else:
                self.returns.append(self.expr(body, depth + 1))
        returned = frozenset().union(*self.returns) if self.returns else CLEAN
        added = [self.variables.get(p, CLEAN) - before[p] if p else CLEAN for p in parameters]
        self.returns, self.picking = saved_returns, saved_picking
        if name:
            self.functions[name] = returned
            if any(added):
                self.effects[name] = added
            if body is not None:
                self.predicates[name] = body
        return returned

    def parameters(self, node) -> list[str]:
        """The names of a function's parameters, in order ("" for a destructured one)."""
        parameters = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if parameters is None:
            return []
        if parameters.type == "identifier":
            return [self.text(parameters)]
        out = []
        for child in parameters.named_children:
            if child.type == "comment":
                continue
            target = child.child_by_field_name("pattern") if child.type.endswith("_parameter") else child
            if target is not None and target.type == "assignment_pattern":
                target = target.child_by_field_name("left")
            out.append(self.text(target) if target is not None and target.type == "identifier" else "")
        return out

    def returned_test(self, body) -> Taint:
        """What a function's result picks out when it is a test of a file's name: an arrow's expression, the
        value of its returns, or a branch that returns true."""
        if body is None:
            return CLEAN
        if body.type != "statement_block":
            return self.pick(body)
        taint = CLEAN
        for statement in body.named_children[:32]:
            if statement.type == "return_statement" and statement.named_children:
                value = statement.named_children[0]
                if value.type not in ("true", "false", "null", "undefined"):
                    taint = taint | self.pick(value)
            elif statement.type == "if_statement":
                consequence = statement.child_by_field_name("consequence")
                first = consequence.named_children[0] if consequence is not None and consequence.type == (
                    "statement_block") and consequence.named_children else consequence  # fmt: skip
                returns_true = first is not None and first.type == "return_statement" and any(
                    c.type == "true" for c in first.named_children)  # fmt: skip
                condition = statement.child_by_field_name("condition")
                if returns_true and condition is not None:
                    taint = taint | self.pick(condition)
        return taint

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

    def loop_values(self, left, right, taint: Taint, operator: str = "of") -> None:
        """`for (const p of paths)`: the loop variable takes each spelled value of the list (`for (const [k, p]
        of Object.entries(dirs))`: the last name the values, the first the keys; `for (k in obj)`: the keys)."""
        while left.type in ("lexical_declaration", "variable_declaration") and left.named_children:
            left = left.named_children[0]
        if left.type == "variable_declarator":
            left = left.child_by_field_name("name") or left
        if left.type == "identifier":
            names = [self.text(left)]
        elif left.type == "array_pattern":
            names = [self.text(c) for c in left.named_children if c.type == "identifier"][:4]
        else:
            return
        for ident in names:
            self.variables[ident] = taint
        if not names:
            return
        if (operator == "in" and _is_env(self.text(_unwrap(right)))) or self.env_listing(right):
            self.env_keys.add(names[0])  # `process.env[k]` reads every variable in turn
        if operator == "in":
            self.remember(names[0], self.keys(right))
            return
        self.remember(names[-1], self.strings(right))
        if len(names) > 1:
            self.remember(names[0], self.keys(right))

    def remember(self, ident: str, values: tuple[str, ...]) -> None:
        """`ident` takes each of `values` in turn; the most telling one stands for it in a single spelling."""
        if values:
            self.choices[ident] = values
            self.constants[ident] = max(values, key=lambda n: bool(classify.path_sensitivity(n)))

    def strings(self, node, depth: int = 0) -> tuple[str, ...]:
        """The spelled strings a list may hold, at most MAX_CHOICES: an array literal (spreads included), an
        object's values, a name bound to one, `Object.values`, `concat`, `filter`, `map` over one, a glob."""
        if node is None or depth > 8:
            return ()
        node = _unwrap(node)
        kind = node.type
        if kind == "identifier":
            return self.choices.get(self.text(node), ())
        if kind == "subscript_expression":  # `files[i]`: one of them
            obj = node.child_by_field_name("object")
            index = node.child_by_field_name("index")
            if obj is not None and obj.type == "identifier" and (index is None or index.type != "string"):
                return self.choices.get(self.text(obj), ())
            return ()
        if kind in ("array", "object"):
            found: list[str] = []
            for element in node.named_children[: 4 * MAX_CHOICES]:
                if element.type == "spread_element" and element.named_children:
                    found.extend(self.strings(element.named_children[0], depth + 1))
                elif kind == "object" and element.type == "pair":
                    value = self.literal(element.child_by_field_name("value"))
                    if value:
                        found.append(value)
                elif kind == "array":
                    value = self.literal(element)
                    if value:
                        found.append(value)
            return tuple(dict.fromkeys(found))[:MAX_CHOICES]
        if kind != "call_expression":
            return ()
        patterns = self.glob_patterns(node)
        if patterns is not None:
            return patterns
        function = node.child_by_field_name("function")
        qual = self.qualname(function)
        args = self.arguments(node)
        if qual in ("Object.values", "Object.entries") and args:
            return self.strings(args[0], depth + 1)
        if qual == "Object.keys" and args:
            return self.keys(args[0])
        obj = function.child_by_field_name("object") if function is not None and function.type == (
            "member_expression") else None  # fmt: skip
        short = qual.rsplit(".", 1)[-1]
        if obj is None:
            return ()
        if short in ("filter", "slice", "reverse", "sort", "toSorted", "flat", "values"):
            return self.strings(obj, depth + 1)
        if short == "concat":
            joined = [v for part in [obj, *args] for v in self.strings(part, depth + 1)]
            return tuple(dict.fromkeys(joined))[:MAX_CHOICES]
        if short == "map" and args:
            return self.mapped(obj, args[0], depth)
        return ()

    def mapped(self, obj, function, depth: int) -> tuple[str, ...]:
        """`names.map(n => path.join(HOME, n))`: the callback's expression spelled with each value of the list."""
        body = function.child_by_field_name("body") if function.type == "arrow_function" else None
        parameters = self.parameters(function)
        values = self.strings(obj, depth + 1)
        if body is None or body.type == "statement_block" or not parameters or not parameters[0] or not values:
            return ()
        name = parameters[0]
        saved = self.constants.get(name)
        out: list[str] = []
        try:
            for value in values:
                self.constants[name] = value
                text = self.literal(body)
                if text:
                    out.append(text)
        finally:
            if saved is None:
                self.constants.pop(name, None)
            else:
                self.constants[name] = saved
        return tuple(dict.fromkeys(out))[:MAX_CHOICES]

    def keys(self, node) -> tuple[str, ...]:
        """The spelled keys of an object literal, or of the name bound to one."""
        node = _unwrap(node)
        if node.type == "identifier":
            return self.choices.get(f"{self.text(node)}.keys", ())
        if node.type != "object":
            return ()
        found = (self.text(p.child_by_field_name("key")).strip("'\"") for p in node.named_children[: 4 * MAX_CHOICES]
                 if p.type == "pair" and p.child_by_field_name("key") is not None)  # fmt: skip
        return tuple(dict.fromkeys(k for k in found if k))[:MAX_CHOICES]

    def bind(self, name, value, taint: Taint) -> None:
        if name.type == "identifier":
            ident = self.text(name)
            self.variables[ident] = taint
            literal = self.literal(value)
            if literal is not None:
                self.constants[ident] = literal
            else:
                self.constants.pop(ident, None)
            values = self.strings(value)
            if values:
                self.choices[ident] = values
            else:
                self.choices.pop(ident, None)
            keys = self.keys(value) if _unwrap(value).type == "object" else ()
            if keys:
                self.choices[f"{ident}.keys"] = keys
            peer = self.peer(value)
            if peer is not None:
                self.endpoints[ident] = peer
            self.bind_made(ident, value)
            module = self.required(value)
            if module:
                self.aliases[ident] = module
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

    def bind_made(self, ident: str, value) -> None:
        """A name bound to what later calls act on: a file stream, an archive, a form body, a regular
        expression, or a test's result (`const hit = names.some(...)`, for an `if (hit)` later)."""
        for table in (self.handles, self.archives, self.regexes, self.tested):
            table.pop(ident, None)
        self.forms.discard(ident)
        node = _unwrap(value)
        if node.type == "regex":
            pattern = node.child_by_field_name("pattern")
            if pattern is not None:
                self.regexes[ident] = self.text(pattern)
            return
        called = self.qualname(node.child_by_field_name("function")) if node.type == "call_expression" else ""
        if node.type in ("unary_expression", "binary_expression") or called.rsplit(".", 1)[-1] in _BOOLEAN_TESTS or (
            called in self.predicates
        ):  # fmt: skip
            self.tested[ident] = node  # read where a branch uses it: `if (!hit)` picks nothing
            return
        if node.type not in ("call_expression", "new_expression"):
            return
        function = node.child_by_field_name("function") or node.child_by_field_name("constructor")
        qual = self.qualname(function)
        short = qual.rsplit(".", 1)[-1]
        module = self.module_of(qual) if function is not None and function.type != "call_expression" else (
            self.required(function) or "")  # fmt: skip
        args = self.arguments(node)
        if module in _ARCHIVE_MODULES:
            self.archives[ident] = _Archive(module)
        elif short == "folder" and function is not None and function.type == "member_expression":
            owner = function.child_by_field_name("object")  # a folder of a jszip archive adds to the archive
            if owner is not None and self.text(owner) in self.archives:
                self.archives[ident] = self.archives[self.text(owner)]
        elif short == "createWriteStream" and args:
            path = self.literal(args[0])
            if path:
                self.handles[ident] = path
        elif node.type == "new_expression" and (short == "FormData" or module == "form-data"):
            self.forms.add(ident)

    @staticmethod
    def module_of(qual: str) -> str:
        """The module a qualified name starts from: `qualname` has put the module's name for an alias
        (`fg.sync` imported from fast-glob is 'fast-glob.sync')."""
        return qual.split(".", 1)[0]

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
            operator = node.child_by_field_name("operator")
            how = self.text(operator) if operator is not None else "+"
            left = self.literal(node.child_by_field_name("left"), depth + 1)
            if how in ("||", "??"):  # `process.env.HOME || os.homedir()`: the first that is set
                return left if left is not None else self.literal(node.child_by_field_name("right"), depth + 1)
            if how != "+":
                return None
            right = self.literal(node.child_by_field_name("right"), depth + 1)
            return left + right if left is not None and right is not None else None
        if kind in _WRAPPERS and kind != "await_expression" and node.named_children:
            return self.literal(node.named_children[0], depth + 1)
        if kind == "call_expression":
            qual = self.qualname(node.child_by_field_name("function"))
            args = self.arguments(node)
            if qual in ("os.homedir", "node:os.homedir", "os.homedir") or qual.endswith(".homedir"):
                return "~"
            if qual.endswith("tmpdir"):
                return "/tmp"
            if qual.endswith(("path.join", "path.resolve", "posix.join", "posix.resolve")) or qual in (
                "path.join", "path.resolve", "join", "resolve"
            ):  # fmt: skip
                pieces = [self.literal(a, depth + 1) for a in args]
                if not pieces or any(p is None for p in pieces):
                    return None
                return "/".join(p.rstrip("/") if i < len(pieces) - 1 else p for i, p in enumerate(pieces))
            if qual in ("String",) and args:
                return self.literal(args[0], depth + 1)
        if kind in ("member_expression", "subscript_expression") and _squeezed(self.text(node)) in (
            "process.env.HOME", "process.env.USERPROFILE", 'process.env["HOME"]', "process.env['HOME']",
            'process.env["USERPROFILE"]', "process.env['USERPROFILE']",
        ):  # fmt: skip
            return "~"
        return None

    def qualname(self, node) -> str:
        if node is None:
            return ""
        spelled = self.spelled_names.get(node.id)
        if spelled is None:
            spelled = self.spelled_names[node.id] = self.spelled_name(node)
        head, rest = spelled
        if head is None:
            return rest
        if head in self.aliases:  # looked up at each call: an import later in the unit may add an alias
            return self.aliases[head] + rest
        return head + rest

    def spelled_name(self, node) -> tuple[str | None, str]:
        """A callee's name as written, whitespace and `?.` dropped, split into the name an alias may stand for
        (None when the first part is a call or an index) and the rest, from its first dot."""
        text = self.text(node)
        if len(text) > 200:
            return None, ""
        text = _squeezed(text).replace("?.", ".")
        if text.startswith("require("):
            text = _REQUIRED.sub(r"\1.", text, count=1)  # `require('https').request`: the module's own name
        head, dot, rest = text.partition(".")
        base = head.split("(", 1)[0].split("[", 1)[0]
        if head != base:
            return None, text
        return head, dot + rest

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
        if kind == "ternary_expression":
            condition = node.child_by_field_name("condition")
            taint = self.expr(condition, depth + 1)
            for branch, positive in ((node.child_by_field_name("consequence"), True),
                                     (node.child_by_field_name("alternative"), False)):  # fmt: skip
                taint = taint | self.guarded(condition, positive, branch, depth)
            return taint
        if kind == "binary_expression" and node.child_by_field_name("operator") is not None and self.text(
                node.child_by_field_name("operator")) in ("&&", "||"):  # fmt: skip
            # `isWallet(f) && found.push(f)`: the right side runs only when the left passes (or, with ||, fails)
            left = node.child_by_field_name("left")
            taint = self.expr(left, depth + 1)
            positive = self.text(node.child_by_field_name("operator")) == "&&"
            return taint | self.guarded(left, positive, node.child_by_field_name("right"), depth)
        if kind == "assignment_expression" or kind == "augmented_assignment_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            taint = self.expr(right, depth + 1) | self.picking
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

    def guarded(self, test, positive: bool, branch, depth: int) -> Taint:
        """An expression that runs only when `test` passes (or fails): what it keeps is what the test picks."""
        if branch is None:
            return CLEAN
        saved = self.picking
        if test is not None:
            self.picking = saved | self.pick(test, positive)
        try:
            return self.expr(branch, depth + 1)
        finally:
            self.picking = saved

    def member(self, node, depth: int) -> Taint:
        text = _squeezed(self.text(node))
        for prefix in _ENV_OBJECTS if text.startswith(_ENV_OBJECTS) else ():
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
                if obj is not None and _squeezed(self.text(obj)) == prefix and prop is not None:
                    return self.env_read(self.text(prop), node)
            if text.startswith(prefix + "[") and node.type == "subscript_expression":
                index = node.child_by_field_name("index")
                obj = node.child_by_field_name("object")
                if obj is not None and _squeezed(self.text(obj)) == prefix:
                    if index is not None and index.type == "identifier" and self.text(index) in self.env_keys:
                        self.facts.environment_dump(self.row(node))  # `for (k in process.env) out[k] = process.env[k]`
                        return self.source(ENV_DUMP, f"reads the whole environment ({prefix}, key by key)", node)
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
        receiver = CLEAN
        if obj is not None:
            receiver = self.expr(obj, depth + 1)
        elif function is not None and function.type not in ("identifier", "import", "super"):
            receiver = self.expr(function, depth + 1)  # `new Function(x)()`, `(await load())()`
        self.callback(obj, short, args, receiver)
        self.handed(node, qual, short, obj, args, receiver)
        arg_taints = [self.expr(a, depth + 1) for a in args]
        every = frozenset().union(*arg_taints) | self.picking
        taint = every | receiver | self.kept(short, args)
        if qual in ("Deno.env.get", "Bun.env.get"):
            return self.env_read(self.literal(args[0]) if args else None, node)
        sent = self.channel_call(node, obj, short, args, every)
        if sent is not None:
            return sent
        owner = self.text(obj) if obj is not None and obj.type == "identifier" else ""
        if owner in self.archives:
            packed = self.archive_call(node, self.archives[owner], owner, short, args, every)
            if packed is not None:
                return packed
        if short == "pipe" and obj is not None and args:
            return self.piped(node, obj, args[0], receiver)
        if owner in self.handles and short in ("write", "end") and args:
            self.store(self.handles[owner], every)  # `out.write(data)`: the file the stream writes holds it
            return CLEAN
        if owner in self.forms and short == "submit" and args:
            return self.submitted(node, args[0], self.variables.get(owner, CLEAN) | every)
        module_of = self.aliases.get(qual.split(".", 1)[0], qual.split(".", 1)[0])
        resolver = qual.rsplit(".", 1)[0] in _DNS or module_of in _DNS or module_of.rsplit(".", 1)[0] in _DNS
        if resolver and short in _DNS_CALLS and args and (arg_taints[0] or "*" in (self.literal(args[0]) or "")):
            return self.lookup_sends(node, args[0], arg_taints[0])
        patterns = self.glob_patterns(node)
        if patterns:
            return taint | frozenset().union(*(self.found(pattern, node) for pattern in patterns))
        if self.module_of(qual) == "tar" and short in ("c", "create"):
            return self.tar(node, args, every)
        if short == "pipeline" and self.module_of(qual) in ("stream", "node:stream", "stream/promises",
                                                             "node:stream/promises") and len(args) > 1:  # fmt: skip
            return self.piped(node, args[0], args[-1], frozenset().union(*arg_taints[:-1]))
        if short in _BUCKET_UPLOADS and args:
            uploaded = self.bucket_upload(node, qual, args[0], every)
            if uploaded is not None:
                return uploaded
        if module in _FS_MODULES or qual.startswith(("fs.", "fsp.", "fs.promises.", "fse.")) or (
            qual in self.aliases.values() and qual.split(".", 1)[0] in _FS_MODULES
        ):  # fmt: skip
            return self.fs(node, short, args, arg_taints, taint)
        if short in _FS_CALLS and qual == short:
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
            for arg, added in zip(args, self.effects.get(name, ()), strict=False):
                if added and arg.type == "identifier":  # `walk(HOME, found)`: what walk pushed is in found
                    self.variables[self.text(arg)] = self.variables.get(self.text(arg), CLEAN) | added
            return taint | self.functions[name]
        if owner and owner not in self.aliases and owner not in _GLOBALS and owner not in self.functions:
            self.keep(owner, short, args, every)
        return sanitised(taint, qual)

    def keep(self, owner: str, short: str, args: list, every: Taint) -> None:
        """A method fed a value keeps it: `found.push(p)`, `form.append(k, v)`, `seen.add(p)`; a spelled
        path pushed is one more value the list takes."""
        if every:
            self.variables[owner] = self.variables.get(owner, CLEAN) | every
        if short in ("push", "unshift", "add") and args and len(self.choices.get(owner, ())) < MAX_CHOICES:
            added = [v for a in args[:4] for v in self.spellings(a)]
            if added:
                merged = (*self.choices.get(owner, ()), *added)
                self.choices[owner] = tuple(dict.fromkeys(merged))[:MAX_CHOICES]

    # -- spelled values, channels ------------------------------------------------------------

    def spellings(self, node) -> list[str]:
        """Every string `node` may spell: `literal`, with a name that takes several values tried in turn."""
        if node is None:
            return []
        several: list[str] = []
        stack, seen = [node] if self.spelled < MAX_SPELLED and self.choices else [], 0  # no name varies yet: none
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
        out = spelled_each(self.constants, several[0], self.choices[several[0]], lambda: self.literal(node))
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

    def handed(self, node, qual: str, short: str, obj, args: list, receiver: Taint) -> None:
        """A callback's first parameter holds what the library hands it: the response of an `http(s).get` or
        `request` (`https.get(url, r => ...)`), or what a stream carries, for its `data` and `end` events
        (`r.on('data', c => d += c)`); read before the callback's body is, so the body's flows start from it."""
        handler = args[-1] if len(args) > 1 else None
        if handler is None or handler.type not in ("arrow_function", "function_expression"):
            return
        names = self.parameters(handler)
        if not names or not names[0]:
            return
        root = qual.split(".", 1)[0]
        if self.aliases.get(root, root) in ("http", "https", "node:http", "node:https") and short in ("get", "request"):
            address = args[0]
            url = self.literal(address) if address.type != "object" else None
            host = (classify.host_of_pieces(url) if url and "://" in url else None) or self.option_host(address)
            self.variables[names[0]] = self.source(FETCHED, fetch_label(host or "", url or ""), node, host or "",
                                                   url or "")  # fmt: skip
        elif (
            obj is not None
            and receiver
            and short in ("on", "once", "addListener")
            and self.literal(args[0]) in ("data", "readable", "end", "close")
        ):
            self.variables[names[0]] = receiver

    def callback(self, obj, short: str, args: list, receiver: Taint) -> None:
        """`paths.forEach(p => ...)`: the callback's parameter holds an element and takes each spelled value of
        the list (`Object.entries(dirs).forEach(([k, p]) => ...)`: the last name the values, the first the keys)."""
        if short == "readFile" and args and args[-1].type in ("arrow_function", "function_expression"):
            names = [n for n in self.parameters(args[-1]) if n]
            if len(names) > 1:  # `fs.readFile(path, (err, data) => ...)`: data is the file
                self.variables[names[1]] = self.read_from(args[0], args[0], record_all=False)
            return
        if short not in _LOOP_CALLBACKS or not args or args[0].type not in ("arrow_function", "function_expression"):
            return
        parameters = args[0].child_by_field_name("parameters") or args[0].child_by_field_name("parameter")
        first = parameters if parameters is not None and parameters.type == "identifier" else next(
            (c for c in (parameters.named_children if parameters is not None else []) if c.type != "comment"),
            None)  # fmt: skip
        if first is not None and first.type.endswith("_parameter"):
            first = first.child_by_field_name("pattern")
        if first is None:
            return
        if first.type == "identifier":
            names = [self.text(first)]
        elif first.type == "array_pattern":
            names = [self.text(c) for c in first.named_children if c.type == "identifier"][:4]
        else:
            return
        if not names:
            return
        for name in names:
            self.variables[name] = receiver
        if obj is not None and self.env_listing(obj):
            self.env_keys.add(names[0])  # `Object.keys(process.env).forEach(k => ... process.env[k])`
        over = _unwrap(obj) if obj is not None else None
        listed = over.child_by_field_name("function") if over is not None and over.type == "call_expression" else None
        if listed is not None and self.qualname(listed) in ("Object.keys", "Object.entries"):
            arguments = self.arguments(over)
            if len(names) > 1 or self.qualname(listed) == "Object.keys":
                self.remember(names[0], self.keys(arguments[0]) if arguments else ())
        if obj is not None and (len(names) > 1 or listed is None or self.qualname(listed) != "Object.keys"):
            self.remember(names[-1], self.strings(obj))

    def env_listing(self, node) -> bool:
        """`Object.keys(process.env)` or `Object.entries(process.env)`, perhaps filtered or sorted: each
        variable's name in turn."""
        for _ in range(6):
            node = _unwrap(node)
            if node is None or node.type != "call_expression":
                return False
            function = node.child_by_field_name("function")
            qual = self.qualname(function)
            if qual in ("Object.keys", "Object.entries"):
                arguments = self.arguments(node)
                return bool(arguments) and _is_env(self.text(arguments[0]))
            if function is None or function.type != "member_expression" or qual.rsplit(".", 1)[-1] not in (
                    "filter", "sort", "slice", "reverse", "toSorted"):  # fmt: skip
                return False
            node = function.child_by_field_name("object")
        return False

    def kept(self, short: str, args: list) -> Taint:
        """What a filter or find keeps when its test picks out wallet or key files by name
        (`f => f.endsWith('.keystore')`, `isWallet`); a negated test keeps the rest."""
        if short not in _PICKERS or not args:
            return CLEAN
        test = args[0]
        if test.type == "identifier":
            return self.decided(self.text(test))
        if test.type not in ("arrow_function", "function_expression"):
            return CLEAN
        return self.returned_test(test.child_by_field_name("body"))

    # -- tests of a file's name ------------------------------------------------------------

    def pick(self, test, positive: bool = True) -> Taint:
        """What passing `test` (or, not `positive`, failing it) picks out: files named like a wallet, a seed
        phrase or a private key, when the test compares a name with such names. Each pattern is recorded on
        the card once per unit, where it is first tested."""
        fragments: list[str] = []
        taint = self.tests(test, positive, fragments, 0)
        for fragment in dict.fromkeys(fragments):
            pattern, label = classify.name_pattern(fragment)
            if not pattern:
                continue
            source = self.picked.get(pattern)
            if source is None:
                if len(self.picked) >= MAX_PICKED:
                    continue
                self.use(PATH, pattern, test, "list")
                source = self.picked[pattern] = self.source(
                    SECRET_FILE, f"picks out files named {pattern} ({label})", test
                )
            taint = taint | source
        return taint

    def tests(self, node, positive: bool, out: list[str], depth: int) -> Taint:
        """Collect into `out` the names a test compares with where passing it means the name matches;
        negations flip, `!==` and `!=` flip unless against a number (`indexOf(x) !== -1`)."""
        if node is None or depth > 24:
            return CLEAN
        kind = node.type
        if kind in _WRAPPERS and node.named_children:
            return self.tests(node.named_children[0], positive, out, depth + 1)
        operator = node.child_by_field_name("operator")
        how = self.text(operator) if operator is not None else ""
        if kind == "unary_expression":
            return self.tests(node.child_by_field_name("argument"), not positive, out, depth + 1) if how == "!" else (
                CLEAN)  # fmt: skip
        if kind == "binary_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if how in ("&&", "||"):
                return self.tests(left, positive, out, depth + 1) | self.tests(right, positive, out, depth + 1)
            numeric = any(_number(side) for side in (left, right))
            if how in ("===", "==", "!==", "!=", ">", ">=", "<", "<="):
                negative = (how in ("!==", "!=") and not numeric) or (how in ("<", "<=") and numeric)
                if positive != negative:
                    self.names(left, out)
                    self.names(right, out)
            return CLEAN
        if kind == "identifier":
            bound = self.tested.get(self.text(node))
            return self.tests(bound, positive, out, depth + 1) if bound is not None else CLEAN
        if kind != "call_expression":
            return CLEAN
        function = node.child_by_field_name("function")
        if function is not None and function.type == "identifier" and self.text(function) in self.predicates:
            return self.decided(self.text(function)) if positive else CLEAN
        if positive and self.qualname(function).rsplit(".", 1)[-1] in _TESTS:
            self.names(node, out)
        return CLEAN

    def decided(self, name: str) -> Taint:
        """What a predicate function's passing names pick out (`isWallet(f)`), read where it decides."""
        body = self.predicates.get(name)
        if body is None or name in self.deciding or len(self.deciding) > 4:
            return CLEAN
        self.deciding.add(name)
        try:
            return self.returned_test(body)
        finally:
            self.deciding.discard(name)

    def names(self, node, out: list[str]) -> None:
        """The strings a test compares with: literals, regular expressions, and the values of lists and of
        names that take several (`TARGETS.some(t => name.includes(t))`)."""
        stack, seen = [node] if node is not None else [], 0
        while stack and seen < MAX_TEST_NODES and len(out) < 4 * MAX_CHOICES:
            current = stack.pop()
            seen += 1
            kind = current.type
            if kind in ("string", "template_string"):
                text = self.literal(current)
                if text:
                    text = text.replace("\\\\", "\\")  # the string's value: `"\\.keystore$"` is `\.keystore$`
                    out.append(text)
                    if _REGEX_HINT.search(text):  # `new RegExp("\\.keystore$")`, `name.match("wallet\\.dat")`
                        out.extend(_regex_names(text))
            elif kind == "regex":
                pattern = current.child_by_field_name("pattern")
                if pattern is not None:
                    out.extend(_regex_names(self.text(pattern)))
            elif kind == "identifier":
                name = self.text(current)
                if name in self.regexes:
                    out.extend(_regex_names(self.regexes[name]))
                elif name in self.choices:
                    out.extend(self.choices[name])
                elif name in self.constants:
                    out.append(self.constants[name])
            else:
                stack.extend(current.named_children)

    # -- archives, streams, globs, uploads -------------------------------------------------------

    def archive_call(self, node, archive: _Archive, owner: str, short: str, args: list, every: Taint) -> Taint | None:
        """A member added to an archive being built (the file or folder read, or the data given), the archive
        written out (`writeZip`), returned (`toBuffer`, `generateAsync`) or finished into a request."""
        if short in _ARCHIVE_ADDS and args:
            content = every
            first = args[0]
            if short == "glob":
                options = args[1] if len(args) > 1 else None
                for pattern in self.glob_list(first, options):
                    content = content | self.found(pattern, node)
            elif short in _ARCHIVE_FOLDERS:
                content = content | self.read_from(first, node)
                for folder in self.spellings(first):
                    content = content | self.under(folder)
            elif short == "addLocalFile" or (short == "file" and archive.kind == "archiver"):
                content = content | self.read_from(first, node)
            archive.content = archive.content | content
            self.variables[owner] = self.variables.get(owner, CLEAN) | content
            for path in archive.paths:
                self.store(path, content)
            return CLEAN
        if short in ("writeZip", "writeZipPromise") and args:
            path = self.literal(args[0])
            if path:
                self.write(path, node, archive.content, "", literal=False)
            return CLEAN
        if short in _ARCHIVE_OUTPUTS:
            return archive.content
        if short == "finalize":
            for peer in archive.peers:
                self.send_to(node, peer, archive.content)
            return CLEAN
        return None

    def piped(self, node, source, destination, content: Taint) -> Taint:
        """`source.pipe(destination)` (or `pipeline(source, ..., destination)`): a file stream's file holds what
        flows in, a request or socket sends it; an archive keeps writing there as it grows."""
        destination = _unwrap(destination)
        name = self.text(destination) if destination.type == "identifier" else ""
        archive = self.archives.get(self.text(source)) if source.type == "identifier" else None
        if archive is not None:
            content = content | archive.content
        path = self.handles.get(name) if name else self.stream_path(destination)
        if path:
            if archive is not None and path not in archive.paths and len(archive.paths) < 8:
                archive.paths.append(path)
            self.store(path, content)
        elif name in self.endpoints:
            if archive is not None:
                archive.peers.append(self.endpoints[name])  # sent as it is finished
            else:
                self.send_to(node, self.endpoints[name], content)
        return content | (self.variables.get(name, CLEAN) if name else CLEAN)

    def stream_path(self, node) -> str | None:
        """The file `fs.createWriteStream(path)` writes, when `node` is that call."""
        if node.type != "call_expression":
            return None
        if self.qualname(node.child_by_field_name("function")).rsplit(".", 1)[-1] != "createWriteStream":
            return None
        args = self.arguments(node)
        return self.literal(args[0]) if args else None

    def store(self, path: str, taint: Taint) -> None:
        normal = classify.normal_path(path)
        self.files[normal] = self.files.get(normal, CLEAN) | taint

    def under(self, folder: str) -> Taint:
        """What was written inside a folder here (a folder packed into an archive holds it)."""
        prefix = classify.normal_path(folder).rstrip("/") + "/"
        taint = CLEAN
        for key, written in itertools.islice(self.files.items(), MAX_STORED):
            if key.startswith(prefix):
                taint = taint | written
        return taint

    def send_to(self, node, peer: str, content: Taint) -> None:
        if peer:
            self.use(HOST, peer, node, "send")
        sink = self.sink(SEND, node, content, peer)
        self.facts.sends.append(sink)

    def submitted(self, node, target, content: Taint) -> Taint:
        """`form.submit(url)` (form-data): the form's fields go to the URL's host."""
        text = self.literal(target) or ""
        host = classify.host_of_pieces(text) if "://" in text else self.option_host(target)
        self.consumed.add(target.id)
        self.send_to(node, (host or "").lower(), content)
        return CLEAN

    def glob_patterns(self, node) -> tuple[str, ...] | None:
        """The patterns a glob call searches (under its `cwd`), or None when `node` is no glob."""
        node = _unwrap(node)
        if node.type != "call_expression":
            return None
        qual = self.qualname(node.child_by_field_name("function"))
        short = qual.rsplit(".", 1)[-1]
        module = self.module_of(qual)
        if not (
            module in _GLOB_MODULES
            or qual in ("globSync", "glob.sync", "fg.sync")
            or (short in ("glob", "globSync") and (module in _FS_MODULES or module in ("fsp", "fs")))
        ):
            return None
        args = self.arguments(node)
        return self.glob_list(args[0], args[1] if len(args) > 1 else None) if args else ()

    def glob_list(self, patterns, options) -> tuple[str, ...]:
        values = self.strings(patterns)
        if not values:
            single = self.literal(patterns)
            values = (single,) if single else ()
        options = _unwrap(options) if options is not None else None
        cwd = self.option(options, "cwd") if options is not None else None
        out = []
        for value in values:
            if value.startswith("!"):
                continue  # a pattern left out
            value = value.removeprefix("./")
            if cwd and not value.startswith(("/", "~")):
                value = f"{cwd.rstrip('/')}/{value}"
            out.append(value)
        return tuple(dict.fromkeys(out))[:MAX_CHOICES]

    def tar(self, node, args: list, every: Taint) -> Taint:
        """`tar.c({file, cwd}, paths)`: the archive holds the files it is given (under `cwd`); without a file,
        the stream it returns does."""
        options = _unwrap(args[0]) if args else None
        if options is None or options.type != "object":
            return every
        cwd = self.option(options, "cwd") or self.option(options, "C")
        listed = args[1] if len(args) > 1 else None
        content = every
        values = self.strings(listed) if listed is not None else ()
        if not values and listed is not None:
            single = self.literal(listed)
            values = (single,) if single else ()
        for value in values:
            path = value if value.startswith(("/", "~")) or not cwd else f"{cwd.rstrip('/')}/{value}"
            self.use(PATH, path, node, "read")
            content = content | self.file_taint(path, node) | self.under(path)
        archive = self.option(options, "file") or self.option(options, "f")
        if archive:
            self.write(archive, node, content, "", literal=False)
            return CLEAN
        return content

    def bucket_upload(self, node, qual: str, options, every: Taint) -> Taint | None:
        """An object put in a cloud bucket (`new PutObjectCommand({Bucket, Body})`, `new Upload({params})`,
        `s3.upload({Bucket, Body})`): a send to the bucket's host; None when `options` names no body."""
        options = _unwrap(options)
        if options.type != "object":
            return None
        params = self.pair(options, "params")
        params = _unwrap(params) if params is not None else options
        if self.pair(params, "Body") is None:
            return None
        bucket = self.option(params, "Bucket") or ""
        host = f"{bucket}.s3.amazonaws.com".lower() if bucket and "*" not in bucket else ""
        self.send_to(node, host, every)
        return CLEAN

    def pair(self, node, name: str):
        """The value node of `name` in an object literal, or None."""
        for pair in node.named_children if node is not None and node.type == "object" else []:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            if key is not None and self.text(key).strip("'\"`") == name:
                return pair.child_by_field_name("value")
        return None

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
            taint = taint | self.source(SECRET_FILE, f"reads {normal} ({label})", node, address=normal)
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
        if qual in ("fetch", "globalThis.fetch", "window.fetch", "nodeFetch", "node-fetch", "undici.fetch",
                    "cross-fetch", "isomorphic-fetch") or self.aliases.get(qual) == "node-fetch":  # fmt: skip
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
                options = args[1] if qual == root and len(args) > 1 and args[1].type == "object" else None
                method = (self.option(options, "method") or "").upper() if options is not None else ""
                if options is not None and (method in ("POST", "PUT", "PATCH", "DELETE") or any(
                        self.pair(options, key) is not None for key in ("data", "body", "json", "form"))):  # fmt: skip
                    detail = "send"  # `got(url, {method: "POST", body})`
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
        if host and locating_host(host):
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
            words = command.split()
            archive = shell.created_archive(words[0].rsplit("/", 1)[-1], words[1:]) if words else ""
            if archive and archive != "-":
                # `zip out.zip ...found`: the shell reader sees a variable; the archive holds what it stands for
                packed = frozenset().union(*arg_taints)
                listed = args[1].named_children if len(args) > 1 and args[1].type == "array" else []
                for element in listed[:64]:
                    inner = element.named_children[0] if element.type == "spread_element" else element
                    if inner is not None and inner.type == "identifier":
                        packed = packed | self.read_from(inner, node)
                if packed:
                    self.store(archive, packed)
        return output | taint


def _quote(text: str) -> str:
    if text == "$JSVAR" or re.fullmatch(r"[\w@%+=:,./~-]+", text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _unwrap(node):
    """The expression inside `await x`, `(x)`, `x as T`, `x!`."""
    depth = 0
    while node is not None and node.type in _WRAPPERS and node.named_children and depth < 8:
        node = node.named_children[0]
        depth += 1
    return node


def _skips(statement) -> bool:
    """A branch that only leaves (`continue`, `return`, `break`, `throw`, perhaps after a log line): its test
    names what to leave alone. A `return` of a value other than false or nothing hands the value on."""
    if statement is None:
        return False
    body = [c for c in statement.named_children if c.type != "comment"] if statement.type == "statement_block" else [
        statement]  # fmt: skip
    if not body:
        return False

    def leaves(node) -> bool:
        if node.type != "return_statement":
            return node.type in _JUMPS
        value = node.named_children[0] if node.named_children else None
        empty = value is not None and value.type == "array" and not value.named_children
        return value is None or empty or value.type in ("false", "null", "undefined")

    def logs(node) -> bool:
        return node.type == "expression_statement" and node.text is not None and node.text.startswith(b"console.")

    return leaves(body[0]) or (any(leaves(n) for n in body) and all(leaves(n) or logs(n) for n in body))


def _number(node) -> bool:
    if node is None:
        return False
    if node.type == "unary_expression" and node.named_children:
        node = node.named_children[-1]
    return node.type == "number"


def _is_env(text: str) -> bool:
    return _squeezed(text) in _ENV_OBJECTS


def _squeezed(text: str) -> str:
    """`text` without its whitespace: what `re.sub(r"\\s+", "", text)` gives (`str.split` splits on the same
    characters), at a third of the cost."""
    return "".join(text.split())


_REGEX_HINT = re.compile(r"[\\^$|]")
_REGEX_GROUP = re.compile(r"\((?:\?:)?([^()]*)\)")
_REGEX_ESCAPED = frozenset(".-_/ @~#")


@functools.lru_cache(maxsize=1024)
def _regex_names(pattern: str) -> tuple[str, ...]:
    """The literal names a regular expression tests for, as `classify.name_pattern` reads them: groups of
    alternatives expanded (`\\.(keystore|wallet)$` is `.keystore` and `.wallet`), anchors dropped, a
    wildcard ending a run of letters; at most MAX_CHOICES."""
    if len(pattern) > 300:
        return ()
    alternatives = [pattern]
    for _ in range(4):  # groups inside groups, innermost first
        expanded: list[str] = []
        for text in alternatives:
            match = _REGEX_GROUP.search(text)
            if match is None:
                expanded.append(text)
                continue
            tail = text[match.end() :]
            optional = tail[:1] in ("?", "*")
            options = [*match.group(1).split("|"), *([""] if optional else [])]
            tail = tail[1:] if optional or tail[:1] == "+" else tail
            expanded.extend(text[: match.start()] + option + tail for option in options)
        if expanded == alternatives:
            break
        alternatives = expanded[: 4 * MAX_CHOICES]
    out: list[str] = []
    for text in alternatives:
        for piece in text.split("|"):
            out.extend(_regex_runs(piece))
    return tuple(dict.fromkeys(n for n in out if len(n) >= 3))[:MAX_CHOICES]


def _regex_runs(piece: str) -> list[str]:
    """The runs of literal characters in one alternative (`^UTC--.*` is `UTC--`; `seeds?\\.txt` is `seed.txt`)."""
    runs: list[str] = []
    run: list[str] = []
    index = 0
    while index < len(piece):
        char = piece[index]
        following = piece[index + 1] if index + 1 < len(piece) else ""
        if char == "\\" and following:
            if following in _REGEX_ESCAPED:
                run.append(following)
            else:  # `\\w`, `\\d`: any of several characters
                runs.append("".join(run))
                run = []
            index += 2
            continue
        if char in "^$":
            index += 1
            continue
        if char in "?*" and run:
            run.pop()  # an optional character: the shortest spelling
            index += 1
            continue
        if char == "+":
            index += 1
            continue
        if char in ".[]{}()":
            runs.append("".join(run))
            run = []
            if char == "[":
                close = piece.find("]", index)
                index = close if close > index else index
            elif char == "{":
                close = piece.find("}", index)
                index = close if close > index else index
            index += 1
            continue
        run.append(char)
        index += 1
    runs.append("".join(run))
    return [r for r in runs if r]

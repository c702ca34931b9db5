"""Skill Markdown to safe HTML.

GitHub's own renderer, cmark-gfm (C, from the `cmarkgfm` package), parses a body the way its
author sees it on GitHub: tables, strikethrough, autolinks and task lists. Three layers keep the
page safe, each enough on its own for the common attacks: raw HTML read as text (a tag in a body
is shown as typed, and the Markdown around it is read as if it were text) on top of cmark's safe
mode, a link validator that keeps only http, https, mailto and relative URLs, and nh3 sanitising
the result against an allow-list. Relative links
point at the skill's published raw files; external images are shown as links, never loaded, so a
page view cannot be tracked.

The rewriting happens on cmark's syntax tree, not on its HTML. `cmarkgfm` declares only the
parse-and-render functions to cffi, so the node functions of the same library (cmark-gfm's public
C API, exported by the module's shared object) are declared here and reached through `dlopen`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from html import unescape as html_unescape
from urllib.parse import SplitResult, unquote, urlsplit

import cffi
import cmarkgfm._cmark
import nh3
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

from registry.emit.highlight import HighlightCache
from registry.emit.urls import FileHomes
from registry.text import hidden_characters

# Pygments lexes 0.2 to 1.2 ms per KiB (JSON to Python) and is most of a body's rendering time: past
# these a block is shown plain (still escaped), so one body costs at most some 40 ms of highlighting.
# The corpus's largest figures: a block of 4.6 KiB, 15 KiB of code blocks and 64 blocks in one body.
# Within them, a block is lexed once per content (registry/emit/highlight.py): its HTML is kept by a digest
# of the code, the lexer and the Pygments version, in memory and in the build cache.
MAX_HIGHLIGHT_BYTES = 16 * 1024  # one block
MAX_HIGHLIGHT_BYTES_PER_DOCUMENT = 32 * 1024  # every highlighted block of one body together
MAX_HIGHLIGHTED_BLOCKS = 64  # blocks of one body
# Rounds of escaping raw HTML blocks (see _escape_html_blocks): each costs a parse, and a tower of
# `<div>` lines needs one round per line.
MAX_HTML_BLOCK_ROUNDS = 8
_SAFE_SCHEMES = ("http", "https", "mailto")
_ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "div",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "li",
    "ol",
    "p",
    "pre",
    "s",
    "span",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
_ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "code": {"class"},
    "span": {"class"},
    "div": {"class"},
    "pre": {"class"},
    "th": {"class"},
    "td": {"class"},
    "ol": {"start"},
    "h1": {"id"},
    "h2": {"id"},
    "h3": {"id"},
    "h4": {"id"},
    "h5": {"id"},
    "h6": {"id"},
}
_HEADING_SLUG = re.compile(r"[^\w\- ]+", re.UNICODE)
_FORMATTER = HtmlFormatter(nowrap=True)
# cmark's table renderer writes alignment as `<th align="right">`; every `<` of the author's text is
# escaped by then, so this exact shape can only be that renderer's.
_CELL_ALIGNMENT = re.compile(r'<(th|td) align="(left|center|right)">')
_CMARK_SPACE = re.compile(r"[ \t\n\v\f\r]")  # cmark ends a code fence's language at ASCII space only
_TASK_MARKERS = {True: "☑ ", False: "☐ "}

_CMARK_API = """
typedef struct cmark_node cmark_node;
typedef struct cmark_parser cmark_parser;
typedef struct cmark_iter cmark_iter;
typedef struct cmark_llist cmark_llist;
typedef struct cmark_syntax_extension cmark_syntax_extension;
typedef struct cmark_mem {
  void *(*calloc)(size_t, size_t);
  void *(*realloc)(void *, size_t);
  void (*free)(void *);
} cmark_mem;
cmark_mem *cmark_get_default_mem_allocator(void);
void cmark_gfm_core_extensions_ensure_registered(void);
cmark_syntax_extension *cmark_find_syntax_extension(const char *name);
cmark_parser *cmark_parser_new(int options);
int cmark_parser_attach_syntax_extension(cmark_parser *parser, cmark_syntax_extension *extension);
void cmark_parser_feed(cmark_parser *parser, const char *buffer, size_t len);
cmark_node *cmark_parser_finish(cmark_parser *parser);
void cmark_parser_free(cmark_parser *parser);
char *cmark_render_html(cmark_node *root, int options, cmark_llist *extensions);
cmark_iter *cmark_iter_new(cmark_node *root);
int cmark_iter_next(cmark_iter *iter);
cmark_node *cmark_iter_get_node(cmark_iter *iter);
void cmark_iter_free(cmark_iter *iter);
cmark_node *cmark_node_new(int type);
void cmark_node_free(cmark_node *node);
int cmark_node_get_type(cmark_node *node);
const char *cmark_node_get_type_string(cmark_node *node);
cmark_node *cmark_node_first_child(cmark_node *node);
cmark_node *cmark_node_next(cmark_node *node);
const char *cmark_node_get_literal(cmark_node *node);
int cmark_node_set_literal(cmark_node *node, const char *content);
int cmark_node_get_heading_level(cmark_node *node);
int cmark_node_get_start_line(cmark_node *node);
int cmark_node_get_end_line(cmark_node *node);
int cmark_node_get_start_column(cmark_node *node);
const char *cmark_node_get_fence_info(cmark_node *node);
const char *cmark_node_get_url(cmark_node *node);
int cmark_node_set_url(cmark_node *node, const char *url);
int cmark_node_set_on_enter(cmark_node *node, const char *on_enter);
int cmark_node_set_on_exit(cmark_node *node, const char *on_exit);
int cmark_node_set_syntax_extension(cmark_node *node, cmark_syntax_extension *extension);
void cmark_node_unlink(cmark_node *node);
int cmark_node_insert_before(cmark_node *node, cmark_node *sibling);
int cmark_node_append_child(cmark_node *node, cmark_node *child);
int cmark_node_prepend_child(cmark_node *node, cmark_node *child);
int cmark_gfm_extensions_get_tasklist_item_checked(cmark_node *node);
"""
_EVENT_DONE = 1  # CMARK_EVENT_DONE: cmark_iter_next's answer once the walk is over
_OPTIONS = 0  # CMARK_OPT_DEFAULT: safe mode, raw HTML never rendered as markup
_OPTION_SOURCEPOS = 1 << 1  # CMARK_OPT_SOURCEPOS: line numbers on block nodes
# A link reference definition, `[label]: destination` after any block quote or list markers, the
# destination on the same line or the next.
_REFERENCE_DEFINITION = re.compile(
    r"^(?P<prefix>(?:[ \t]*>)*[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?)"
    r"\[(?:[^\[\]\\\n]|\\.){1,999}\]:[ \t]*\n?[ \t]*(?P<destination><[^<>\n]*>|\S+)",
    re.M,
)
_MAY_OPEN_HTML_BLOCK = re.compile(r"^[ \t>*+\-0-9.)]*<[A-Za-z/!?]", re.M)  # a cheap test before any parse
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_EXTENSIONS = (b"table", b"strikethrough", b"autolink", b"tasklist")
# Never produced by a parse, so not learnt from the probe: their numbers are checked in _load_cmark.
_CUSTOM_TYPES = {"custom_block": 0x8007, "custom_inline": 0xC006}


@dataclass(frozen=True)
class LinkContext:
    """Where relative links in one skill's body should point: the skill's files, each at its one home."""

    root: str  # relative URL from the page to the site root, ending in '/' (or "")
    homes: FileHomes

    @property
    def files(self) -> frozenset[str]:
        return self.homes.files

    def file_url(self, path: str) -> str:
        return self.root + self.homes.url(path)


@dataclass(frozen=True)
class _Cmark:
    ffi: cffi.FFI
    lib: object
    extensions: tuple
    free: object  # the allocator's free(): cmark's rendered HTML is ours to release
    types: dict[str, int]  # node type name -> cmark's number for it


@dataclass
class Renderer:
    """The loaded renderer, the lexers looked up so far and the highlighted blocks kept: make one per process,
    reuse it for every body."""

    cmark: _Cmark
    lexers: dict[str, Lexer | None] = field(default_factory=dict)
    highlights: HighlightCache = field(default_factory=HighlightCache)


@dataclass
class _Budget:
    """What is left of one body's highlighting allowance."""

    blocks: int = MAX_HIGHLIGHTED_BLOCKS
    size: int = MAX_HIGHLIGHT_BYTES_PER_DOCUMENT


@dataclass
class _Found:
    """The nodes of one body that the rewrite changes, gathered first so the walk never sees a changed tree."""

    headings: list[tuple[object, int, str]] = field(default_factory=list)  # node, level, text
    code_blocks: list[object] = field(default_factory=list)
    links: list[object] = field(default_factory=list)
    images: list[tuple[object, str, bool]] = field(default_factory=list)  # node, alt text, inside a link
    raw_html: list[tuple[object, bool]] = field(default_factory=list)  # node, is a block
    tasks: list[object] = field(default_factory=list)


def heading_anchor(text: str) -> str:
    slug = _HEADING_SLUG.sub("", text.lower()).strip().replace(" ", "-")
    return "sec-" + (re.sub(r"-{2,}", "-", slug) or "section")


def make_renderer(highlight_cache: HighlightCache | None = None) -> Renderer:
    """`highlight_cache`: where highlighted blocks are kept (default: in this process's memory only)."""
    return Renderer(_load_cmark(), highlights=highlight_cache or HighlightCache())


def render(renderer: Renderer, body: str, links: LinkContext) -> str:
    cmark = renderer.cmark
    lib = cmark.lib
    # CommonMark ends a line at \r too; the line arithmetic below counts \n only.
    body = body.replace("\r\n", "\n").replace("\r", "\n")
    text = _show_refused_definitions(cmark, _escape_html_blocks(cmark, _mark_invisible(body)))
    root = _parse(cmark, text)
    try:
        _rewrite(renderer, _find(cmark, root), links)
        # The extension list matters only to HTML filters (tagfilter), and none is attached.
        rendered = lib.cmark_render_html(root, _OPTIONS, cmark.ffi.NULL)
        try:
            html = cmark.ffi.string(rendered).decode("utf-8", "replace")
        finally:
            cmark.free(rendered)
    finally:
        lib.cmark_node_free(root)
        renderer.highlights.flush()
    return sanitize(_CELL_ALIGNMENT.sub(r'<\1 class="align-\2">', html))


def sanitize(html: str) -> str:
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=set(_SAFE_SCHEMES),
        link_rel="nofollow noopener noreferrer ugc",
        strip_comments=True,
    )


def _load_cmark() -> _Cmark:
    ffi = cffi.FFI()
    ffi.cdef(_CMARK_API)
    lib = ffi.dlopen(cmarkgfm._cmark.__file__)
    lib.cmark_gfm_core_extensions_ensure_registered()
    extensions = tuple(lib.cmark_find_syntax_extension(name) for name in _EXTENSIONS)
    if ffi.NULL in extensions:
        raise RuntimeError(f"cmarkgfm {cmarkgfm._cmark.__file__} lacks one of the extensions {_EXTENSIONS}")
    free = lib.cmark_get_default_mem_allocator().free
    # Node type numbers differ between cmark-gfm versions: learn them from a parse, by name.
    types: dict[str, int] = {}
    probe = b"# h\n\n[l](u) ![i](s) `c` <b>  \nx\ny\n\n<div>\n\n```\nx\n```\n\n- i\n\n***\n"
    parser = lib.cmark_parser_new(_OPTIONS)
    lib.cmark_parser_feed(parser, probe, len(probe))
    root = lib.cmark_parser_finish(parser)
    walk = lib.cmark_iter_new(root)
    while lib.cmark_iter_next(walk) != _EVENT_DONE:
        node = lib.cmark_iter_get_node(walk)
        types[ffi.string(lib.cmark_node_get_type_string(node)).decode()] = lib.cmark_node_get_type(node)
    lib.cmark_iter_free(walk)
    lib.cmark_node_free(root)
    lib.cmark_parser_free(parser)
    missing = {"heading", "text", "paragraph", "link", "image", "code", "html_inline", "html_block"} - types.keys()
    missing |= {"code_block", "item", "softbreak", "linebreak", "thematic_break"} - types.keys()
    if missing:
        raise RuntimeError(f"cmarkgfm {cmarkgfm._cmark.__file__}: the probe parse gave no {sorted(missing)}")
    for name, number in _CUSTOM_TYPES.items():
        custom = lib.cmark_node_new(number)
        if custom == ffi.NULL or ffi.string(lib.cmark_node_get_type_string(custom)).decode() != name:
            raise RuntimeError(f"cmarkgfm {cmarkgfm._cmark.__file__}: node type {number:#x} is not {name}")
        lib.cmark_node_free(custom)
        types[name] = number
    return _Cmark(ffi, lib, extensions, free, types)


def _parse(cmark: _Cmark, text: str, options: int = _OPTIONS) -> object:
    """The document's root node, the caller's to free."""
    lib = cmark.lib
    source = text.encode("utf-8", "replace")
    parser = lib.cmark_parser_new(options)
    try:
        for extension in cmark.extensions:
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        lib.cmark_parser_feed(parser, source, len(source))
        return lib.cmark_parser_finish(parser)
    finally:
        lib.cmark_parser_free(parser)


def _escape_html_blocks(cmark: _Cmark, text: str) -> str:
    """Escape the `<` that opens each raw HTML block, so that its lines are read as Markdown.

    cmark has no switch for raw HTML: a line such as `<example>` opens an HTML block that swallows
    every following line up to a blank one, code fences and lists included, and a blank line inside
    a swallowed fence then ends the block in the middle of the code. Escaped, the line is paragraph
    text that a fence, a list or a heading may interrupt, as on a renderer with raw HTML off. The
    lines after it may open new blocks, so this repeats (bounded: _rewrite shows what is left as
    text), and an escape that ends up inside a code block is taken out again.
    """
    if not _MAY_OPEN_HTML_BLOCK.search(text):
        return text
    lines = text.encode("utf-8", "replace").split(b"\n")
    escapes: dict[int, int] = {}  # 0-based line -> byte offset of the escaped `<`
    html_blocks, code_lines = _literal_blocks(cmark, text)
    for _ in range(MAX_HTML_BLOCK_ROUNDS):
        if not html_blocks:
            break
        for line, column, _last in html_blocks:
            opening = lines[line - 1].find(b"<", column - 1)
            if line - 1 not in escapes and opening >= 0:
                escapes[line - 1] = opening
        html_blocks, code_lines = _literal_blocks(cmark, _with_escapes(lines, escapes))
    for first, last in code_lines:
        for line in range(first - 1, last):
            escapes.pop(line, None)
    return _with_escapes(lines, escapes)


def _with_escapes(lines: list[bytes], escapes: dict[int, int]) -> str:
    changed = (
        line[: escapes[n]] + b"\\" + line[escapes[n] :] if n in escapes else line for n, line in enumerate(lines)
    )
    return b"\n".join(changed).decode("utf-8")


def _literal_blocks(cmark: _Cmark, text: str) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """Each raw HTML block's (first line, its column, last line), each code block's (first, last line); 1-based."""
    lib, types = cmark.lib, cmark.types
    html_blocks: list[tuple[int, int, int]] = []
    code_lines: list[tuple[int, int]] = []
    root = _parse(cmark, text, _OPTION_SOURCEPOS)
    walk = lib.cmark_iter_new(root)
    while lib.cmark_iter_next(walk) != _EVENT_DONE:
        node = lib.cmark_iter_get_node(walk)
        kind = lib.cmark_node_get_type(node)
        if kind == types["html_block"]:
            start = lib.cmark_node_get_start_line(node)
            html_blocks.append((start, lib.cmark_node_get_start_column(node), lib.cmark_node_get_end_line(node)))
        elif kind == types["code_block"]:
            code_lines.append((lib.cmark_node_get_start_line(node), lib.cmark_node_get_end_line(node)))
    lib.cmark_iter_free(walk)
    lib.cmark_node_free(root)
    return html_blocks, code_lines


def _show_refused_definitions(cmark: _Cmark, text: str) -> str:
    """Escape the bracket of each reference definition whose URL the validator refuses.

    cmark takes every definition out of the text; the link validator then unlinks the references,
    and the definition would vanish. Escaped, it stays in the page as the text the author wrote,
    and its references stay text too. Lines inside code and raw HTML blocks are left alone.
    """
    if "]:" not in text:
        return text
    candidates: dict[int, int] = {}  # 1-based line -> offset of its opening bracket
    for match in _REFERENCE_DEFINITION.finditer(text):
        destination = match["destination"].removeprefix("<").removesuffix(">")
        if not _validate_link(html_unescape(_BACKSLASH_ESCAPE.sub(r"\1", destination))):
            candidates[text.count("\n", 0, match.start()) + 1] = match.end("prefix")
    if not candidates:
        return text
    html_blocks, code_lines = _literal_blocks(cmark, text)
    for first, last in [*code_lines, *((first, last) for first, _column, last in html_blocks)]:
        for line in range(first, last + 1):
            candidates.pop(line, None)
    for offset in sorted(candidates.values(), reverse=True):
        text = text[:offset] + "\\" + text[offset:]
    return text


def _find(cmark: _Cmark, root: object) -> _Found:
    # A walk by first child and next sibling: about half the C calls of cmark's iterator, which reports
    # every container twice and needs two calls per report. Leaves are never asked for children.
    lib, types = cmark.lib, cmark.types
    get_type, first_child, next_sibling = lib.cmark_node_get_type, lib.cmark_node_first_child, lib.cmark_node_next
    get_literal, string = lib.cmark_node_get_literal, cmark.ffi.string
    text_kinds = {types["text"], types["code"], types["html_inline"]}
    leaves = {*text_kinds, *(types[name] for name in ("html_block", "code_block", "softbreak", "linebreak"))}
    leaves.add(types["thematic_break"])
    heading, image, link, item, code_block = (types[n] for n in ("heading", "image", "link", "item", "code_block"))
    raw_html = {types["html_inline"]: False, types["html_block"]: True}
    found = _Found()
    collecting: list[list[bytes]] = []  # the text of each heading and image being walked, innermost last
    link_depth = 0
    open_containers: list[tuple[object, int]] = []
    node = first_child(root)
    while True:
        if not node:
            if not open_containers:
                return found
            node, kind = open_containers.pop()
            # Leaving a container.
            if kind in (heading, image):
                text = b"".join(collecting.pop()).decode("utf-8", "replace")
                if kind == heading:
                    found.headings.append((node, lib.cmark_node_get_heading_level(node), text))
                else:
                    found.images.append((node, text, link_depth > 0))
            elif kind == link:
                link_depth -= 1
            node = next_sibling(node)
            continue
        kind = get_type(node)
        if kind in leaves:
            if kind in text_kinds and collecting:
                literal = string(get_literal(node))
                for text in collecting:
                    text.append(literal)
            if kind in raw_html:
                found.raw_html.append((node, raw_html[kind]))
            elif kind == code_block:
                found.code_blocks.append(node)
            node = next_sibling(node)
            continue
        # Entering a container.
        if kind in (heading, image):
            collecting.append([])
        elif kind == link:
            link_depth += 1
            found.links.append(node)
        elif kind == item and string(lib.cmark_node_get_type_string(node)) == b"tasklist":
            found.tasks.append(node)
        open_containers.append((node, kind))
        node = first_child(node)


def _rewrite(renderer: Renderer, found: _Found, links: LinkContext) -> None:
    """Change the tree; the order matters: a node is freed only after every node inside it was handled."""
    cmark = renderer.cmark
    lib, ffi, types = cmark.lib, cmark.ffi, cmark.types
    for node, block in found.raw_html:
        # Shown as the text the author typed, as on a page with raw HTML switched off.
        literal = ffi.string(lib.cmark_node_get_literal(node))
        text = _new_text(cmark, literal.rstrip(b"\n") if block else literal)
        if block:
            paragraph = lib.cmark_node_new(types["paragraph"])
            lib.cmark_node_append_child(paragraph, text)
            text = paragraph
        _replace(cmark, node, text)
    for node in found.links:
        href = _url(cmark, node)
        if _validate_link(href):
            lib.cmark_node_set_url(node, _resolve(href, links).encode())
        else:
            _unwrap(cmark, node)
    for node, alt, inside_link in found.images:
        src = _url(cmark, node)
        local = _local_path(src, links)
        if local is not None:
            lib.cmark_node_set_url(node, links.file_url(local).encode())
            continue
        # External or unknown images become links: no request leaves the reader's browser.
        label = _new_text(cmark, f"[image: {alt or 'image'}]".encode())
        if src and _validate_link(src) and not inside_link:
            replacement = lib.cmark_node_new(types["link"])
            lib.cmark_node_set_url(replacement, _resolve(src, links).encode())
            lib.cmark_node_append_child(replacement, label)
            label = replacement
        _replace(cmark, node, label)
    budget = _Budget()
    for node in found.code_blocks:
        info = ffi.string(lib.cmark_node_get_fence_info(node)).decode("utf-8", "replace")
        code = ffi.string(lib.cmark_node_get_literal(node)).decode("utf-8", "replace")
        language = _CMARK_SPACE.split(info, 1)[0]
        highlighted = _highlight(renderer, language, code, budget)
        if highlighted:
            block = lib.cmark_node_new(types["custom_block"])
            opening = f'<pre><code class="language-{escape(language)}">{highlighted}</code></pre>'
            lib.cmark_node_set_on_enter(block, opening.encode())
            lib.cmark_node_set_on_exit(block, b"")
            _replace(cmark, node, block)
    for node in found.tasks:
        # A checkbox would be a form control on the page: the item shows its state as a character instead.
        checked = bool(lib.cmark_gfm_extensions_get_tasklist_item_checked(node))
        lib.cmark_node_set_syntax_extension(node, ffi.NULL)
        marker = _new_text(cmark, _TASK_MARKERS[checked].encode())
        first = lib.cmark_node_first_child(node)
        if first == ffi.NULL or lib.cmark_node_get_type(first) != types["paragraph"]:
            first = lib.cmark_node_new(types["paragraph"])
            lib.cmark_node_prepend_child(node, first)
        lib.cmark_node_prepend_child(first, marker)
    used_anchors: dict[str, int] = {}
    for node, level, text in found.headings:
        # The page owns h1 (the skill) and h2 (its sections): body headings start at h3.
        tag = f"h{min(6, level + 2)}"
        anchor = heading_anchor(text)
        count = used_anchors.get(anchor, 0)
        used_anchors[anchor] = count + 1
        # The tags go in an inline node: a block's own tags get line breaks around them, inside the heading.
        tags = lib.cmark_node_new(types["custom_inline"])
        lib.cmark_node_set_on_enter(tags, f'<{tag} id="{anchor if count == 0 else f"{anchor}-{count}"}">'.encode())
        lib.cmark_node_set_on_exit(tags, f"</{tag}>".encode())
        while (child := lib.cmark_node_first_child(node)) != ffi.NULL:
            lib.cmark_node_unlink(child)
            lib.cmark_node_append_child(tags, child)
        block = lib.cmark_node_new(types["custom_block"])
        lib.cmark_node_append_child(block, tags)
        _replace(cmark, node, block)


def _new_text(cmark: _Cmark, literal: bytes) -> object:
    text = cmark.lib.cmark_node_new(cmark.types["text"])
    cmark.lib.cmark_node_set_literal(text, literal)
    return text


def _replace(cmark: _Cmark, old: object, new: object) -> None:
    if not cmark.lib.cmark_node_insert_before(old, new):
        # cmark refused the new node in that place: the content goes rather than the old node staying.
        cmark.lib.cmark_node_free(new)
    cmark.lib.cmark_node_free(old)


def _unwrap(cmark: _Cmark, node: object) -> None:
    lib = cmark.lib
    while (child := lib.cmark_node_first_child(node)) != cmark.ffi.NULL:
        lib.cmark_node_unlink(child)
        if not lib.cmark_node_insert_before(node, child):
            lib.cmark_node_free(child)
    lib.cmark_node_free(node)


def _url(cmark: _Cmark, node: object) -> str:
    url = cmark.lib.cmark_node_get_url(node)
    return "" if url == cmark.ffi.NULL else cmark.ffi.string(url).decode("utf-8", "replace")


def _split(url: str) -> SplitResult | None:
    """The URL's parts, or None for one urllib refuses (a bad IPv6 host such as `www.x.y[a]:`)."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def _validate_link(url: str) -> bool:
    candidate = url.strip()
    parts = _split(candidate)
    if parts is None:
        return False
    scheme = parts.scheme.lower() if ":" in candidate else ""
    if not scheme:
        # "java\nscript:" and friends: anything with a colon before the first slash is a scheme try.
        head = candidate.split("/", 1)[0]
        return ":" not in head and "\\" not in candidate
    return scheme in _SAFE_SCHEMES


_MAX_CACHED_LEXERS = 256  # language names come from bodies: the cache must not grow with every misspelling


def _highlight(renderer: Renderer, language: str, code: str, budget: _Budget) -> str:
    size = len(code)
    if not language or budget.blocks <= 0 or size > min(MAX_HIGHLIGHT_BYTES, budget.size):
        return ""
    lexer = _lexer(renderer, language.lower())
    if lexer is None:
        return ""
    budget.blocks -= 1
    budget.size -= size
    return renderer.highlights.highlight(code, lexer, _FORMATTER)


def _lexer(renderer: Renderer, name: str) -> Lexer | None:
    if name in renderer.lexers:
        return renderer.lexers[name]
    try:
        lexer = get_lexer_by_name(name)
    except ClassNotFound:
        lexer = None
    if isinstance(lexer, TextLexer):
        lexer = None  # plain text: Pygments would only escape what cmark escapes already
    if len(renderer.lexers) < _MAX_CACHED_LEXERS:
        renderer.lexers[name] = lexer
    return lexer


def _mark_invisible(text: str) -> str:
    offsets = hidden_characters(text)
    if not offsets:
        return text
    pieces = []
    previous = 0
    for offset in offsets:
        pieces.append(text[previous:offset])
        pieces.append(f"⟦U+{ord(text[offset]):04X}⟧")
        previous = offset + 1
    pieces.append(text[previous:])
    return "".join(pieces)


def _local_path(url: str, links: LinkContext) -> str | None:
    parts = _split(url)
    if parts is None or parts.scheme or parts.netloc or url.startswith(("/", "#")):
        return None
    path = unquote(parts.path).removeprefix("./")
    return path if path in links.files else None


def _resolve(href: str, links: LinkContext) -> str:
    if not href or href.startswith("#"):
        return href
    parts = _split(href)
    if parts is None:
        return "#"
    if parts.scheme or parts.netloc or href.startswith("/"):
        return href
    local = unquote(parts.path).removeprefix("./")
    if ".." in local.split("/"):
        return "#"
    suffix = f"#{parts.fragment}" if parts.fragment else ""
    return links.file_url(local) + suffix

"""Skill Markdown to safe HTML.

Three layers, each enough on its own for the common attacks: markdown-it-py with raw HTML
disabled (tags in a body are shown as text), a link validator that keeps only http, https,
mailto and relative URLs, and nh3 sanitising the result against an allow-list. Relative links
point at the skill's published raw files; external images are shown as links, never loaded,
so a page view cannot be tracked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from registry.dialects.standard import hidden_characters

MAX_HIGHLIGHT_BYTES = 64 * 1024
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


@dataclass(frozen=True)
class LinkContext:
    """Where relative links in one skill's body should point."""

    raw_base: str  # relative URL of the skill's raw files, ending in '/'
    files: frozenset[str]


def heading_anchor(text: str) -> str:
    slug = _HEADING_SLUG.sub("", text.lower()).strip().replace(" ", "-")
    return "sec-" + (re.sub(r"-{2,}", "-", slug) or "section")


def make_renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight}).enable(["table", "strikethrough"])
    md.validateLink = _validate_link  # type: ignore[method-assign]
    return md


def render(md: MarkdownIt, body: str, links: LinkContext) -> str:
    tokens = md.parse(_mark_invisible(body))
    _rewrite(tokens, links)
    html = md.renderer.render(tokens, md.options, {})
    return sanitize(html)


def sanitize(html: str) -> str:
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=set(_SAFE_SCHEMES),
        link_rel="nofollow noopener noreferrer ugc",
        strip_comments=True,
    )


def _validate_link(url: str) -> bool:
    candidate = url.strip()
    scheme = urlsplit(candidate).scheme.lower() if ":" in candidate else ""
    if not scheme:
        # "java\nscript:" and friends: anything with a colon before the first slash is a scheme try.
        head = candidate.split("/", 1)[0]
        return ":" not in head and "\\" not in candidate
    return scheme in _SAFE_SCHEMES


def _highlight(code: str, language: str, _attrs: str) -> str:
    if not language or len(code) > MAX_HIGHLIGHT_BYTES:
        return ""
    try:
        lexer = get_lexer_by_name(language.split()[0].lower())
    except ClassNotFound:
        return ""
    return highlight(code, lexer, _FORMATTER)


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


def _rewrite(tokens: list[Token], links: LinkContext) -> None:
    used_anchors: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.type in ("heading_open", "heading_close"):
            # The page owns h1 (the skill) and h2 (its sections): body headings start at h3.
            token.tag = f"h{min(6, int(token.tag[1]) + 2)}"
        if token.type == "heading_open" and index + 1 < len(tokens):
            anchor = heading_anchor(tokens[index + 1].content)
            count = used_anchors.get(anchor, 0)
            used_anchors[anchor] = count + 1
            token.attrSet("id", anchor if count == 0 else f"{anchor}-{count}")
        elif token.type in ("th_open", "td_open"):
            style = str(token.attrGet("style") or "")
            if style.startswith("text-align:"):
                token.attrs.pop("style", None)
                token.attrSet("class", "align-" + style.split(":", 1)[1].strip())
        if token.children:
            _rewrite_inline(token.children, links)


def _rewrite_inline(children: list[Token], links: LinkContext) -> None:
    for position, token in enumerate(children):
        if token.type == "link_open":
            href = str(token.attrGet("href") or "")
            token.attrSet("href", _resolve(href, links))
        elif token.type == "image":
            src = str(token.attrGet("src") or "")
            alt = token.content or "image"
            local = _local_path(src, links)
            if local is not None:
                token.attrSet("src", links.raw_base + quote(local))
                continue
            # External or unknown images become links: no request leaves the reader's browser.
            replacement = Token("text", "", 0, content=f"[image: {alt}]")
            if _validate_link(src) and src:
                children[position] = Token("link_open", "a", 1, attrs={"href": _resolve(src, links)})
                children[position].children = None
                children.insert(position + 1, replacement)
                children.insert(position + 2, Token("link_close", "a", -1))
            else:
                children[position] = replacement


def _local_path(url: str, links: LinkContext) -> str | None:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or url.startswith(("/", "#")):
        return None
    path = unquote(parts.path).removeprefix("./")
    return path if path in links.files else None


def _resolve(href: str, links: LinkContext) -> str:
    if not href or href.startswith("#"):
        return href
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith("/"):
        return href
    local = unquote(parts.path).removeprefix("./")
    if ".." in local.split("/"):
        return "#"
    suffix = f"#{parts.fragment}" if parts.fragment else ""
    return links.raw_base + quote(local) + suffix

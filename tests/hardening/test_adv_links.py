"""Links, images, SVG, MathML and entities in a body: no page ever gets a link or element that runs script."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from conftest import simple_skill, write_skill
from hardening_support import baseline, check_contained, constructs, run_case

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'
DATA_HTML = "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="
# fmt: off
TRICKS = [
    "[a](javascript:alert(1))",
    "[a](JaVaScRiPt:alert(1))",
    "[a]( javascript:alert(1) )",
    "[a](<javascript:alert(1)>)",
    "[a](java&#x09;script:alert(1))",
    "[a](&#106;avascript:alert(1))",
    "[a](javascript&colon;alert(1))",
    "[a](java%0ascript:alert(1))",
    "[a](\\javascript:alert(1))",
    "[a](vbscript:msgbox(1))",
    f"[a]({DATA_HTML})",
    f"![a]({DATA_HTML})",
    "![a](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "<javascript:alert(1)>",
    "<data:text/html,<script>alert(1)</script>>",
    "[a][r]\n\n[r]: javascript:alert(1)",
    "![a][r]\n\n[r]: javascript:alert(1) \"t\"",
    "[a](x \"t\\\" onmouseover=alert(1) x=\\\"\")",
    "![x\" onerror=\"alert(1)](assets/evil.svg)",
    "[<img src=x onerror=alert(1)>](https://ok.example/)",
    "[a](https://ok.example/\"onmouseover=\"alert(1))",
    "[a](#\" onclick=\"alert(1))",
    "![a](assets/evil.svg) [b](assets/evil.svg) [c](assets/page.html)",
    "<svg><script>alert(1)</script></svg>",
    "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>",
    "<math><maction actiontype=\"statusline\" xlink:href=\"javascript:alert(1)\">x</maction></math>",
    "<math href=\"javascript:alert(1)\">click</math>",
    "&#x3C;script&#x3E;alert(1)&#x3C;/script&#x3E;",
    "&lt;img src=x onerror=alert(1)&gt;",
    "&amp;lt;script&amp;gt;alert(1)",
    "<!--><script>alert(1)</script>-->",
    "<![CDATA[<script>alert(1)</script>]]>",
    "`<script>alert(1)</script>` and ```` ` ```` ",
    "```html\n<script>alert(1)</script>\n```",
    "```\" onmouseover=\"alert(1)\n<x>\n```",
    "    <script>alert(1)</script>",
    "| <script>alert(1)</script> | [a](javascript:x) |\n|---|---|\n| ![i](javascript:y) | <img src=x onerror=z> |",
    "# [a](javascript:alert(1)) <img src=x onerror=alert(1)>",
    "[a](../../../../../../etc/passwd) [b](/etc/passwd) [c](assets/../../../../escape)",
    "<a href=\"javascript:alert(1)\">raw</a><iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
    "<form action=\"javascript:alert(1)\"><button formaction=\"javascript:alert(1)\">x</button></form>",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\"><base href=\"javascript:/\">",
    "<style>@import 'javascript:alert(1)';</style><link rel=stylesheet href=javascript:alert(1)>",
    "[a](https://ok.example/\u202e\u2066javascript:alert(1))",
    "\u200b<scr\u200bipt>alert(1)</script>",
]
# fmt: on


class _Urls(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.urls += [value or "" for name, value in attrs if name in ("href", "src", "action", "srcset", "data")]


def real_urls(html: str) -> list[str]:
    parser = _Urls()
    parser.feed(html)
    parser.close()
    return parser.urls


def hostile(source, _outside):
    for number, trick in enumerate(TRICKS):
        body = f"Intro line.\n\n{trick}\n\nInline too: x {trick.splitlines()[0]} y.\n"
        write_skill(
            source,
            f"links/trick-{number:02d}",
            simple_skill(f"trick-{number:02d}", body=body),
            {"assets/evil.svg": SVG, "assets/page.html": b"<script>alert(3)</script>"},
        )


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    return run_case(tmp_path_factory.mktemp("links"), hostile)


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


def test_the_build_is_contained(case, honest):
    check_contained(case, honest)
    assert len(case.result.published) == len(TRICKS) + 3, case.left_out_ids()


@pytest.mark.parametrize("number", range(len(TRICKS)))
def test_each_trick_is_neutralised_on_its_page(case, number):
    page = (case.out / "skills" / "links" / f"trick-{number:02d}" / "index.html").read_text(encoding="utf-8")
    assert constructs(page) == []
    body = page[page.index('id="body-title"') : page.index('id="files-title"')]
    # this skill's own files: under .well-known/skills/<name>/ (discovery v0.1 lists them), else under raw/<id>/
    own = rf"\.\./\.\./\.\./(\.well-known/skills/trick-{number:02d}|raw/links/trick-{number:02d})/"
    for url in real_urls(body):
        # the open web, the page itself, the site root, or this skill's own files
        assert re.match(rf"^(https?://|mailto:|#|/|{own})", url), url
        assert "/../" not in url.removeprefix("../../../"), url
    assert "<svg" not in body and "<math" not in body and "<script" not in body


def test_svg_and_html_files_are_published_only_as_raw_data(case):
    raw = case.out / ".well-known" / "skills" / "trick-00" / "assets"  # the files' one home, served verbatim
    assert (raw / "evil.svg").read_bytes() == SVG
    for page in case.out.glob("skills/**/*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<svg" not in text[text.index("<main") :], page
        # an SVG from a skill may be shown as an image (no script runs in an <img>), never inlined or framed
        assert not re.search(r"<(object|embed|iframe)[^>]*evil\.svg", text)

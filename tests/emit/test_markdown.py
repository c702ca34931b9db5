from hypothesis import given, settings
from hypothesis import strategies as st
from site_checks import executable_constructs

from registry.emit.markdown import LinkContext, make_renderer, render

MD = make_renderer()
LINKS = LinkContext("../../../raw/p/s/", frozenset({"SKILL.md", "references/api.md", "assets/logo.png"}))


def html(text: str) -> str:
    return render(MD, text, LINKS)


def test_raw_html_is_text():
    out = html("<script>alert(1)</script>\n\n<b onclick=x>bold</b>")
    assert "<script>" not in out and "&lt;script&gt;" in out and "<b" not in out


def test_only_safe_link_schemes_survive():
    out = html(
        "[a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example/x) [d](mailto:a@b.c) [e](JaVaScRiPt:x)"
    )
    assert 'href="https://ok.example/x"' in out and 'href="mailto:a@b.c"' in out
    assert "javascript:" not in out.lower().replace("[a](javascript:alert(1))", "").replace("[e](javascript:x)", "")
    assert executable_constructs(out) == []


def test_relative_links_point_at_the_skills_raw_files():
    out = html("[api](references/api.md#auth) ![logo](assets/logo.png) [up](../../etc/passwd)")
    assert 'href="../../../raw/p/s/references/api.md#auth"' in out
    assert 'src="../../../raw/p/s/assets/logo.png"' in out
    assert 'href="#"' in out


def test_external_images_become_links_not_requests():
    out = html("![pixel](https://tracker.example/p.gif)")
    assert "<img" not in out and 'href="https://tracker.example/p.gif"' in out and "[image: pixel]" in out


def test_headings_get_prefixed_anchors_and_shift_below_the_page_headings():
    out = html("# Setup\n\n## Setup\n\n### Deep")
    assert '<h3 id="sec-setup">' in out and '<h4 id="sec-setup-1">' in out and "<h5" in out


def test_code_is_highlighted_with_classes_only():
    out = html("```python\nimport os\n```\n")
    assert 'class="kn"' in out and "style=" not in out


def test_invisible_characters_are_made_visible_but_emoji_sequences_are_kept():
    out = html("hidden\u200bword \U000e0041 and 👩\u200d💻")
    assert "⟦U+200B⟧" in out and "⟦U+E0041⟧" in out and "👩\u200d💻" in out


def test_table_alignment_uses_classes():
    out = html("| a | b |\n|--:|:-:|\n| 1 | 2 |\n")
    assert 'class="align-right"' in out and 'class="align-center"' in out and "style" not in out


TRICKS = st.sampled_from(
    [
        "<script>",
        "</script>",
        "<img src=x onerror=alert(1)>",
        "<svg onload=alert(1)>",
        "<math>",
        "javascript:alert(1)",
        "JAVASCRIPT:",
        "java\tscript:",
        "data:text/html,",
        "vbscript:",
        "&#106;avascript:",
        "&lt;script&gt;",
        "[x](",
        "](javascript:alert(1))",
        "![x](",
        "<a href=",
        '"',
        "'",
        ">",
        "<",
        "`",
        "```",
        "\n",
        "\n\n",
        " onmouseover=",
        "<iframe",
        "<object",
        "<embed",
        "<style>",
        "<base href=",
        "%3Cscript%3E",
    ]
)


@given(st.lists(st.one_of(TRICKS, st.text(max_size=8)), max_size=30).map("".join))
@settings(max_examples=400, deadline=None)
def test_no_markdown_ever_produces_an_executable_construct(text):
    assert executable_constructs(html(text)) == []

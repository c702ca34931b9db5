import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_checks import executable_constructs

from registry.emit.markdown import (
    MAX_HIGHLIGHT_BYTES,
    MAX_HIGHLIGHT_BYTES_PER_DOCUMENT,
    MAX_HIGHLIGHTED_BLOCKS,
    LinkContext,
    make_renderer,
    render,
)
from registry.emit.urls import FileHomes

MD = make_renderer()
LINKS = LinkContext("../../../", FileHomes.of("p/s", None, {"SKILL.md", "references/api.md", "assets/logo.png"}))


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


def test_relative_links_follow_each_file_to_its_one_home():
    # A discoverable skill's files live under .well-known/skills/<name>/, except a path v0.1 leaves out.
    homes = FileHomes.of("p/s", "s", {"SKILL.md", "references/api.md", "odd?name.md"})
    out = render(
        MD, "[api](references/api.md) [odd](odd%3Fname.md) [gone](missing.md)", LinkContext("../../../", homes)
    )
    assert 'href="../../../.well-known/skills/s/references/api.md"' in out
    assert 'href="../../../raw/p/s/odd%3Fname.md"' in out
    assert 'href="../../../raw/p/s/missing.md"' in out  # not a file of the skill: where a raw file would be


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


def test_raw_html_blocks_are_shown_as_text_paragraphs():
    out = html("<details>\n<summary>s</summary>\n\ninner **bold**\n</details>\n")
    assert "&lt;details&gt;" in out and "<details" not in out and "<strong>bold</strong>" in out


def test_a_tag_line_does_not_swallow_the_markdown_after_it():
    # cmark would read `<Good>` as the start of a raw HTML block running to the blank line inside the code.
    out = html("<Good>\n```python\nimport os\n\nx = 1\n```\n</Good>\n\n<example>\n- item\n</example>\n")
    assert out.startswith("<p>&lt;Good&gt;</p>") and '<pre><code class="language-python">' in out
    assert '<span class="kn">import</span>' in out and "<li>item" in out and "```" not in out
    assert "&lt;/Good&gt;" in out and "&lt;example&gt;" in out and "\\" not in out


def test_a_tag_line_inside_code_that_a_tag_line_had_swallowed_keeps_no_escape():
    out = html("<Bad>\n```html\n\n<div>\n```\n")
    assert '<span class="nt">div</span>' in out and "\\" not in out


def test_a_tower_of_block_tags_is_shown_as_text_in_bounded_work():
    out = html("<div>\n" * 200)
    assert out.count("&lt;div&gt;") == 200 and "<div" not in out and "\\" not in out


def test_a_refused_link_keeps_its_text_and_loses_the_link():
    out = html("see [the docs](javascript:alert(1)) now")
    assert "see the docs now" in out and "<a" not in out


def test_a_refused_reference_definition_stays_as_text_and_its_references_with_it():
    out = html("[click][evil] and [ok][good]\n\n[evil]: java&#115;cript:alert(1)\n\n[good]: https://ok.example/\n")
    assert "[click][evil]" in out and "[evil]: javascript:alert(1)" in out
    assert 'href="https://ok.example/"' in out and "[good]:" not in out and "javascript:alert(1)</a" not in out


def test_a_definition_shaped_line_in_a_code_block_is_left_as_written():
    out = html("```\n[evil]: javascript:alert(1)\n```\n\n    [x]: javascript:y\n")
    assert "\\[" not in out and "[evil]: javascript:alert(1)" in out and "[x]: javascript:y" in out


def test_headings_shift_at_most_to_h6_and_take_their_anchor_from_the_visible_text():
    out = html("##### Five\n\n###### Six `code` **bold**")
    assert '<h6 id="sec-five">Five</h6>' in out
    assert '<h6 id="sec-six-code-bold">Six <code>code</code> <strong>bold</strong></h6>' in out


def test_gfm_autolinks_become_links_only_for_safe_schemes():
    out = html("www.example.com, https://ok.example/a?b=1, me@example.com and javascript:alert(1)")
    assert 'href="http://www.example.com"' in out and 'href="https://ok.example/a?b=1"' in out
    assert 'href="mailto:me@example.com"' in out
    assert "javascript:alert(1)" in out and 'href="javascript' not in out


def test_task_list_items_show_their_state_without_form_controls():
    out = html("- [x] done\n- [ ] todo\n- plain\n")
    assert "<li>☑ done</li>" in out and "<li>☐ todo</li>" in out and "<li>plain</li>" in out
    assert "<input" not in out and "checkbox" not in out


def test_strikethrough_and_tables_are_gfm():
    out = html("~~gone~~\n\n| a |\n|---|\n| 1 |\n")
    assert "<del>gone</del>" in out and "<td>1</td>" in out


def test_an_image_inside_a_link_does_not_nest_links():
    out = html("[![badge](https://ci.example/badge.svg)](https://ci.example/)")
    assert out.count("<a ") == 1 and "[image: badge]" in out and "<img" not in out


def test_text_shaped_like_cmark_table_cells_is_not_rewritten():
    out = html('`<td align="right">` and\n\n```\n<th align="left">\n```\n\n<td align="center">x</td>\n')
    assert "class=" not in out.replace('class="language-', "")
    assert out.count("&lt;td align=") == 2 and "&lt;th align=" in out


def test_plain_text_and_unknown_languages_are_not_highlighted():
    out = html("```text\nimport os\n```\n\n```no-such-language\nimport os\n```\n")
    assert "<span" not in out and 'class="language-text"' in out and 'class="language-no-such-language"' in out


def python_blocks(count: int, size: int) -> str:
    line = "import os\n"
    return "".join(f"```python\n{line * (size // len(line))}```\n\n" for _ in range(count))


def highlighted_blocks(out: str) -> int:
    return sum('<span class="kn">' in block for block in out.split("<pre>")[1:])


def test_a_block_over_the_size_cap_is_shown_plain_and_escaped():
    out = html(python_blocks(1, MAX_HIGHLIGHT_BYTES + 100) + "```python\nimport x\n```\n")
    assert highlighted_blocks(out) == 1 and out.split("<pre>")[1].count("import os") > 1000


def test_highlighting_stops_after_the_blocks_cap():
    out = html(python_blocks(MAX_HIGHLIGHTED_BLOCKS + 5, 20))
    assert out.count("<pre>") == MAX_HIGHLIGHTED_BLOCKS + 5
    assert highlighted_blocks(out) == MAX_HIGHLIGHTED_BLOCKS


def test_highlighting_stops_when_the_document_budget_is_spent():
    size = MAX_HIGHLIGHT_BYTES // 2
    count = MAX_HIGHLIGHT_BYTES_PER_DOCUMENT // size + 2
    out = html(python_blocks(count, size))
    assert highlighted_blocks(out) == MAX_HIGHLIGHT_BYTES_PER_DOCUMENT // size


def test_rendering_is_deterministic_and_a_renderer_is_reusable():
    text = "# A\n\n# A\n\n```python\nx = 1\n```\n\n![i](https://x/y.png) [l](references/api.md)\n"
    assert html(text) == html(text) == render(make_renderer(), text, LINKS)


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


def test_a_carriage_return_is_a_line_end_like_commonmark_says():
    renderer = make_renderer()
    links = LinkContext("", FileHomes.of("p/s", None, ()))
    assert render(renderer, "<script>\r<script>", links) == render(renderer, "<script>\n<script>", links)
    assert "<script" not in render(renderer, "<script>\r<script>", links)


@pytest.mark.parametrize("body", ["www.x.y[", "www.x.y[a]: ", "[a](http://[::1/x)", "![i](http://[bad]/i.png)"])
def test_a_url_urllib_refuses_is_refused_not_a_crash(body):
    html = render(MD, body, LINKS)
    hrefs = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert not any("[" in href for href in hrefs), html  # the malformed URL is never a link target
    assert executable_constructs(html) == []

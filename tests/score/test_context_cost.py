"""Context cost: estimated tokens per loading step, the X001 finding past the spec's guidance, and where they show."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import simple_skill, write_skill
from hypothesis import given, settings
from hypothesis import strategies as st
from site_checks import check_index_json

from registry.analysis import analyse
from registry.build import build
from registry.config import BuildOptions
from registry.model import Severity
from registry.score import context_cost
from registry.score.context_cost import PAST_GUIDANCE, estimate_tokens

DESCRIPTION = "Formats release notes. Use when writing a changelog."
BODY = "# Release notes\n\nRead [the guide](references/guide.md) and `templates/entry.md` first.\n"


def small_skill() -> str:
    return f"---\nname: notes\ndescription: {DESCRIPTION}\n---\n{BODY}"


def make_registry(root: Path) -> Path:
    source = root / "source"
    write_skill(
        source,
        "acme/notes",
        small_skill(),
        {
            "references/guide.md": "Write one line per change.\n",
            "references/logo.png": b"\x89PNG\r\n\x1a\n\0\0",  # binary: never read into the context
            "templates/entry.md": "- {change} ({author})\n",  # named in inline code: counted
            "assets/unlinked.md": "Nothing points here.\n",  # not under references/, not linked: not counted
        },
    )
    write_skill(source, "acme/long", simple_skill("long", body="\n".join(f"Step {n}." for n in range(600))))
    wide = "\n".join("word " * 300 for _ in range(20))  # 20 lines of 352 tokens each
    write_skill(source, "acme/wide", simple_skill("wide", body=wide))
    return source


def test_estimate_counts_words_symbols_digits_and_line_breaks():
    # 6 words x 1.17 + 2 symbols x 0.63 = 8.28
    assert estimate_tokens("Hello world, this is a test.") == 8
    # 1 word x 1.17 + 3 digits x 1.16 + 1 line break x 0.98 = 5.63
    assert estimate_tokens("v 123\n") == 6
    # non-ASCII characters count one by one: 4 x 0.95
    assert estimate_tokens("日本語だ") == 4
    assert estimate_tokens("") == 0


def test_hand_made_skills_get_their_figures(tmp_path):
    analysis = analyse(make_registry(tmp_path))
    cost = analysis.assessments["acme/notes"].context
    assert cost.description_tokens == estimate_tokens(f"name: notes\ndescription: {DESCRIPTION}")
    assert cost.body_tokens == estimate_tokens(BODY)
    assert cost.reference_files == ("references/guide.md", "templates/entry.md")
    assert cost.reference_tokens == estimate_tokens("Write one line per change.\n") + estimate_tokens(
        "- {change} ({author})\n"
    )
    assert cost.reference_bytes == len("Write one line per change.\n") + len("- {change} ({author})\n")
    assert not cost.past_guidance
    notes = next(s for s in analysis.skills if s.id == "acme/notes")
    assert not [f for f in notes.findings if f.code == PAST_GUIDANCE.code]


def test_a_skill_md_past_500_lines_gets_a_warning_and_is_still_published(tmp_path):
    analysis = analyse(make_registry(tmp_path))
    long = next(s for s in analysis.skills if s.id == "acme/long")
    [finding] = [f for f in long.findings if f.code == "X001"]
    assert finding.severity is Severity.WARNING
    assert finding.path == "acme/long/SKILL.md" and finding.line == 501
    assert "lines long" in finding.message and "500 lines" in finding.message
    assert "references/" in finding.hint
    assert "acme/long" in {s.id for s in analysis.published}


def test_a_body_past_5000_tokens_is_reported_where_it_passes(tmp_path):
    analysis = analyse(make_registry(tmp_path))
    wide = next(s for s in analysis.skills if s.id == "acme/wide")
    cost = analysis.assessments["acme/wide"].context
    assert cost.skill_md_lines < 500 and cost.body_tokens > 5000
    [finding] = [f for f in wide.findings if f.code == "X001"]
    # Frontmatter on lines 1-5, a blank line, "# wide", a blank line: the wide lines start on line 9. With
    # about 5 tokens before them and 352 each, the 15th (line 23) is where the body passes 5,000.
    assert estimate_tokens("word " * 300 + "\n") == 352
    assert finding.line == 23
    assert "tokens of body (estimated)" in finding.message


def test_the_figures_reach_index_json_cards_and_pages(tmp_path):
    out = tmp_path / "site"
    build(BuildOptions(source=make_registry(tmp_path), out=out, base_url="https://skills.example.org/"))
    index = check_index_json(out)  # validates against schema/index.schema.json
    entry = next(s for s in index["skills"] if s["id"] == "acme/notes")
    assert entry["context_cost"]["estimated"] is True
    assert entry["context_cost"]["reference_files"] == ["references/guide.md", "templates/entry.md"]
    assert entry["context_cost"]["body_tokens"] == estimate_tokens(BODY)
    browse = (out / "browse" / "index.html").read_text()
    card = re.search(
        r'<h2 class="card-title"><a [^>]*>notes<.*?estimated tokens: [\d,]+ always · ([\d,]+) used', browse, re.S
    )
    assert card and int(card.group(1).replace(",", "")) == estimate_tokens(BODY)
    assert 'data-sort="body-tokens-asc"' in browse  # the browse pages in order of context cost
    page = (out / "skills" / "acme" / "notes" / "index.html").read_text()
    assert "Context cost" in page and "estimated" in page and "2 reference files" in page


def test_every_published_corpus_skill_gets_figures(corpus, tmp_path):
    analysis = analyse(corpus)
    published = analysis.published
    assert len(published) > 400
    for skill in published:
        cost = analysis.assessments[skill.id].context
        assert cost is not None, skill.id
        assert cost.description_tokens > 0, skill.id
        assert not [f for f in skill.findings if f.code == "E001"], skill.id
        json.dumps(cost.to_json())
    past = sorted(s.id for s in published if analysis.assessments[s.id].context.past_guidance)
    print(f"\n{len(published)} published corpus skills, {len(past)} past the guidance: {past}")


_WORD = re.compile(r"[A-Za-z]+")
_SYMBOL = re.compile(r"[!-/:-@\[-`{-~]")
_DIGIT = re.compile(r"[0-9]")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8")) | st.text(alphabet="ab 1?!é\n\t-_"))
def test_the_estimate_counts_what_the_calibration_counted(text: str) -> None:
    """Words, symbols and digits as the calibrated regexes count them, whatever way the estimate counts."""
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    expected = (
        context_cost.WORD_WEIGHT * len(_WORD.findall(text))
        + context_cost.SYMBOL_WEIGHT * len(_SYMBOL.findall(text))
        + context_cost.DIGIT_WEIGHT * len(_DIGIT.findall(text))
        + context_cost.NON_ASCII_WEIGHT * non_ascii
        + context_cost.NEWLINE_WEIGHT * text.count("\n")
    )
    assert context_cost.estimate_tokens(text) == (max(1, round(expected)) if text else 0)

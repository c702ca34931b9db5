"""The analysis's fast paths find exactly what the plain forms they replace find.

Each fast form (a case-insensitive pattern matched on lower-cased text, a pattern written out without
IGNORECASE, a count that skips lines that cannot match, a token estimate with fewer passes) is held here to
the plain form it replaced, over generated text with the characters that case folding treats specially.
"""

import importlib
import pkgutil
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import registry
from registry.parse.skill import HEADING, count_headings
from registry.score import vocabulary
from registry.score.context_cost import (
    _CLASS_OF_BYTE,
    DIGIT_WEIGHT,
    NEWLINE_WEIGHT,
    NON_ASCII_WEIGHT,
    SYMBOL_WEIGHT,
    WORD_WEIGHT,
    estimate_tokens,
)
from registry.score.every_byte import padding, secrets
from registry.score.risk import detectors
from registry.text import Caseless

# Characters case folding treats apart: dotless i, long s, dotted capital I (lowers to two characters),
# the Kelvin sign, final sigma, sharp s, and some that do not fold at all.
TRICKY = "\u0131\u017f\u0130\u212a\u03c2\u03a3\u00df\u00e9\u4e2d\U0001f600\u200b"


def _caseless_patterns() -> list[tuple[str, Caseless]]:
    found = []
    for module in pkgutil.walk_packages(registry.__path__, "registry."):
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if isinstance(value, Caseless):
                found.append((f"{module.name}.{name}", value))
            elif isinstance(value, tuple):  # tables of (what, pattern) pairs, as registry/score/clones.py keeps
                rows = [row for row in value if isinstance(row, tuple) and len(row) == 2]
                found += [(f"{module.name}.{name}[{w}]", p) for w, p in rows if isinstance(p, Caseless)]
    return found


CASELESS = _caseless_patterns()


def _words_of(pattern: str) -> list[str]:
    return sorted(set(re.findall(r"[A-Za-z]{2,}", pattern))) or ["a"]


@st.composite
def text_near(draw, pattern: str):
    """Text made of the pattern's own words in any case, tricky characters, digits and punctuation."""
    words = _words_of(pattern)
    parts = draw(
        st.lists(
            st.one_of(
                st.sampled_from(words).flatmap(
                    lambda w: st.lists(st.booleans(), min_size=len(w), max_size=len(w)).map(
                        lambda ups: "".join(c.upper() if u else c for c, u in zip(w, ups, strict=True))
                    )
                ),
                st.text(alphabet=TRICKY + " .:/-_()'\"\n0123456789", max_size=4),
            ),
            max_size=12,
        )
    )
    return "".join(parts)


def test_the_analysis_has_caseless_patterns_to_check():
    assert len(CASELESS) >= 10


@settings(max_examples=300)
@given(st.data())
def test_a_caseless_pattern_finds_the_spans_its_ignorecase_form_finds(data):
    name, pattern = data.draw(st.sampled_from(CASELESS))
    text = data.draw(text_near(pattern.folded.pattern))
    fast = [m.span() for m in pattern.finditer(text)]
    plain = [m.span() for m in pattern.folded.finditer(text)]
    assert fast == plain, name
    first = pattern.search(text, text.lower())
    assert (first.span() if first else None) == (plain[0] if plain else None), name


_OLD_URL = re.compile(r"(?:https?|ftp)://[^\s'\"`<>|;)\]}\\,]+", re.IGNORECASE)
_OLD_IP_URL = re.compile(
    r"(?:https?|ftp|wss?)://(?:[^/\s@'\"]*@)?(?P<host>\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])", re.I
)
_SCHEMES = st.sampled_from(["http", "HTTPS", "hTtP", "ftp", "FTP", "ws", "WSS", "wſs", "httpſ", "hTTpſ", "ſftp"])
_REST = st.sampled_from(["://", "://x", "://1.2.3.4/a", "://u@10.0.0.1", "://[::1]", ":/", "://a b", ""])


@settings(max_examples=300)
@given(st.lists(st.one_of(_SCHEMES, _REST, st.text(alphabet=TRICKY + " x1.", max_size=3)), max_size=8).map("".join))
def test_the_written_out_url_patterns_match_as_their_ignorecase_forms(text):
    assert [m.span() for m in vocabulary.URL.finditer(text)] == [m.span() for m in _OLD_URL.finditer(text)]
    assert [m.span() for m in detectors._IP_URL.finditer(text)] == [m.span() for m in _OLD_IP_URL.finditer(text)]


_OLD_SEED_WORDS = re.compile(
    rb"mnemonic|seed[ _-]?(?:phrase|words)|(?:recovery|secret)[ _-]?phrase|bip-?39|\b(?:12|24)[ -]words?\b"
    rb"|\bseed\s*[=:]"
)


@given(
    st.lists(
        st.sampled_from([b"12", b"24", b" words", b"-word", b"seed", b" = ", b":", b"a", b"_", b"phrase", b" ", b"1"]),
        max_size=10,
    ).map(b"".join)
)
def test_the_seed_words_pattern_matches_where_its_plain_form_does(data):
    assert bool(secrets._SEED_WORDS.search(data)) == bool(_OLD_SEED_WORDS.search(data))


_OLD_SPACE_RUN = re.compile(padding._WS + rb"{%d,}" % padding.SPACE_RUN)


@settings(max_examples=200)
@given(st.lists(st.sampled_from([b" " * 50, b"\t" * 30, b"\xc2\xa0" * 40, b"x", b"\n", b"\r" * 20]), max_size=12))
def test_the_space_run_pattern_matches_as_its_plain_form(parts):
    data = b"".join(parts)
    assert [m.span() for m in padding._SPACE_RUN.finditer(data)] == [m.span() for m in _OLD_SPACE_RUN.finditer(data)]


@given(
    st.lists(st.sampled_from(["# a", "## b", "#", "#x", " # c", "####### d", "text", "", "#\t e", "# "]), max_size=20)
)
def test_counting_headings_counts_what_the_heading_pattern_finds(lines):
    body = "\n".join(lines)
    assert count_headings(body) == len(HEADING.findall(body))


def _old_estimate(text: str) -> int:
    if not text:
        return 0
    replaced = text.encode("ascii", "replace")
    non_ascii = replaced.count(b"?") - text.count("?")
    classes = replaced.translate(_CLASS_OF_BYTE)
    words = classes.count(b" a") + classes.count(b"!a") + classes.count(b"0a") + classes.startswith(b"a")
    estimate = (
        WORD_WEIGHT * words
        + SYMBOL_WEIGHT * (classes.count(b"!") - non_ascii)
        + DIGIT_WEIGHT * classes.count(b"0")
        + NON_ASCII_WEIGHT * non_ascii
        + NEWLINE_WEIGHT * text.count("\n")
    )
    return max(1, round(estimate))


@given(st.text(alphabet="ab Z9!?-\n\t" + TRICKY, max_size=60))
def test_the_token_estimate_is_the_one_it_was(text):
    assert estimate_tokens(text) == _old_estimate(text)

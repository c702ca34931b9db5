"""What search indexes of a skill: its words, each with one weight per skill (README "Search").

A word's weight folds its counts in the five fields into one BM25F pseudo-frequency, with the
field weights below and fixed average lengths. Fixed averages, rather than the registry's own,
keep a skill's weights independent of every other skill: one changed skill rewrites only the
postings of its own words, on the site and in the CLI's index alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from registry.search.stem import stem
from registry.search.text import STOP_WORDS, words

FIELDS = ("name", "tags", "description", "meta", "body")
FIELD_BITS = {field: 1 << position for position, field in enumerate(FIELDS)}
# name > tags and category > description > headings, tools, inputs and triggers > body.
WEIGHTS = {"name": 8.0, "tags": 4.0, "description": 3.0, "meta": 1.5, "body": 1.0}
LENGTH_NORMALISATION = {"name": 0.3, "tags": 0.3, "description": 0.5, "meta": 0.5, "body": 0.75}
# Index words per field in the development corpus (492 skills), rounded: what "long" means.
AVERAGE_LENGTHS = {"name": 2, "tags": 2, "description": 20, "meta": 50, "body": 500}
# What repeating a word in the body can add, at most: about sixteen mentions in a body of typical length, so a word
# repeated all through a long body cannot outweigh any number of other query words (issue 25). Tighter caps (3, 6,
# 10) were measured: each cost the tuning set recall without helping the held-out paraphrases (tests/relevance).
BODY_CAP = 16.0
TF_SCALE = 8  # weights are stored as integers: eighths of the pseudo-frequency
MAX_TFQ = 65_535
BIT_COUNT = 5
FIELD_MASK = (1 << BIT_COUNT) - 1  # the field bits of a stored weight
MAX_WORD = 40
# The body is indexed up to this many characters: a bound on work and index size per skill.
MAX_BODY_CHARS = 200_000


def index_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOP_WORDS and len(w) <= MAX_WORD]


def stem_key(word: str) -> str:
    """The Snowball stem, with a final "s" that Porter2 keeps after consonants dropped (pdfs ~ pdf, llms ~ llm);
    a pair of CJK characters as it is."""
    if not word.isascii():
        return word
    key = stem(word)
    if len(key) > 3 and key[-1] == "s" and key[-2] not in "su":
        key = key[:-1]
    return key


def prefix2(word: str) -> str:
    """The vocabulary file a word is listed in: its first two characters, or `_` and the hex code of its first
    character when that is not ASCII (file names and URLs stay ASCII)."""
    return word[:2] if word[:1].isascii() else f"_{ord(word[0]):x}"


def stem_hash(word: str) -> int:
    """FNV-1a (32 bit) of the word's stem key (the index keeps it beside each word: a word is stemmed once)."""
    value = 2166136261
    for byte in stem_key(word).encode("utf-8"):
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value


def bucket_of(word: str, buckets: int) -> int:
    """The postings file a word is in: every form of a stem lands in the same one."""
    return stem_hash(word) % buckets


def word_weights(fields: Mapping[str, str]) -> dict[str, int]:
    """word -> tfq * 32 + field bits, for the text of each field in FIELDS."""
    pseudo: dict[str, float] = {}
    bits: dict[str, int] = {}
    for field in FIELDS:
        found = index_words(fields.get(field, ""))
        if not found:
            continue
        b = LENGTH_NORMALISATION[field]
        norm = 1 - b + b * len(found) / AVERAGE_LENGTHS[field]
        weight, bit = WEIGHTS[field], FIELD_BITS[field]
        for word, count in Counter(found).items():
            part = weight * count / norm
            if field == "body":
                part = min(part, BODY_CAP)
            pseudo[word] = pseudo.get(word, 0.0) + part
            bits[word] = bits.get(word, 0) | bit
    return {word: (_quantised(value) << BIT_COUNT) | bits[word] for word, value in pseudo.items()}


def _quantised(pseudo_frequency: float) -> int:
    return max(1, min(MAX_TFQ, round(TF_SCALE * pseudo_frequency)))


def split_weight(weight: int) -> tuple[float, int]:
    """(pseudo-frequency, field bits) of a stored weight."""
    return (weight >> BIT_COUNT) / TF_SCALE, weight & FIELD_MASK


def normalized(text: str) -> str:
    return " ".join(words(text))

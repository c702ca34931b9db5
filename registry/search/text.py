"""Words, and how far apart two words are. static/search-rank.js implements the same rules, so the
CLI, agents and the site read a query alike."""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz.distance import OSA

STOP_WORDS = frozenset(
    (
        "a about am an and are as at be been but by can could did do does for from has have how i if in into "
        "is it its me my of on or our out over please so than that the their them then there they this to up "
        "us use using want was we were with would you your"
    ).split()
)
# Words people add to a task ("help me write ...") that rarely name what they need: matched when
# present, but a document is not counted as missing them.
SOFT_WORDS = frozenset(
    (
        "all any best can create do find get give good help just make need new now put really right "
        "should show some today what when where which why will write"
    ).split()
)
_WORD = re.compile(r"[a-z0-9]+")


# Han, kana and hangul: written without spaces between words, so read as overlapping pairs of characters.
_CJK_RUN = re.compile("([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)")


def words(text: str) -> list[str]:
    """Lowercase ASCII words (accents folded, camelCase and kebab-case split), and each pair of adjacent
    Chinese, Japanese or Korean characters (a lone one alone), in the order the text has them."""
    found: list[str] = []
    for position, piece in enumerate(_CJK_RUN.split(text or "")):
        if position % 2:
            found += [piece] if len(piece) == 1 else [piece[i : i + 2] for i in range(len(piece) - 1)]
        elif piece:
            piece = re.sub(r"([a-z])([A-Z])", r"\1 \2", piece)
            folded = unicodedata.normalize("NFKD", piece).encode("ascii", "ignore").decode().lower()
            found += _WORD.findall(folded)
    return found


def query_words(query: str) -> list[str]:
    found = [w for w in words(query) if w not in STOP_WORDS]
    return found or words(query)


def distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (Damerau-Levenshtein where adjacent swaps count 1), or `limit + 1`
    beyond `limit`: RapidFuzz's C++ implementation; static/search-rank.js has its own, checked against this one
    by tests/search/test_stem_parity.py."""
    return OSA.distance(a, b, score_cutoff=limit)


def typo_budget(word: str) -> int:
    return 0 if len(word) < 5 else (1 if len(word) < 9 else 2)


def doubled_letter_apart(query_word: str, field_word: str) -> bool:
    """One word is the other with a doubled letter written once (skil ~ skill, comit ~ commit): the commonest
    slip in words too short for the typo budget, and unlike any one edit it never makes meta ~ beta."""
    if len(query_word) < 4 or abs(len(query_word) - len(field_word)) != 1:
        return False
    shorter, longer = sorted((query_word, field_word), key=len)
    return any(longer[i] == longer[i - 1] and longer[:i] + longer[i + 1 :] == shorter for i in range(1, len(longer)))
